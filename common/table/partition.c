/*  partition.c - partition keys, rows and directories (partition.h).

    Invariants:
    1. A directory is a function of the values alone, the one Paimon Java
       computes (legacy names, escapePathName), so that zsink, Paimon Java
       and pypaimon writers of one table put a partition's files in one
       directory: the text of a value is Java's toString() of the internal
       value, not rowfmt's spelling (they differ for DATE and TIMESTAMP).
    2. Parsing is the inverse on every directory zsink makes: parse(dir(v))
       == v for every value of every allowed key type, the null included
       (the default name), so a directory found on disk names exactly one
       partition.
    3. Nothing here allocates past a call, and a row's partition BinaryRow
       (once per data row in a writer) allocates nothing: it is encoded into
       the caller's buffer.
*/
#include "partition.h"
#include "binrow.h"
#include "rowfmt.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  A type whose Java toString() zsink spells as Paimon names directories
//  (not FLOAT/DOUBLE: Java's shortest round trip; not BYTES/BINARY: an
//  array's identity hash).
static bool
s_key_type_ok (zs_type_t type)
{
    return type != ZS_TYPE_FLOAT && type != ZS_TYPE_DOUBLE && type != ZS_TYPE_BYTES
           && type != ZS_TYPE_BINARY && !zs_type_is_nested (type);
}

int
zs_partition_init (zs_partition_t *self, const zs_schema_t *schema, const char *default_name,
                   char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    if (!default_name)
        default_name = ZS_PARTITION_DEFAULT_NAME;
    if (!*default_name || strlen (default_name) >= sizeof self->default_name) {
        snprintf (err, errlen, "partition.default-name '%s' is empty or longer than %d bytes",
                  default_name, (int) sizeof self->default_name - 1);
        return -1;
    }
    snprintf (self->default_name, sizeof self->default_name, "%s", default_name);
    if (schema->n_partition < 0 || schema->n_partition > ZS_PARTITION_MAX) {
        snprintf (err, errlen, "%d partition keys: at most %d", schema->n_partition,
                  ZS_PARTITION_MAX);
        return -1;
    }
    for (int i = 0; i < schema->n_partition; i++) {
        int c = schema->partition[i];
        if (c < 0 || c >= schema->n) {
            snprintf (err, errlen, "partition key %d names no column", i + 1);
            return -1;
        }
        const zs_column_t *col = &schema->cols[c];
        if (!s_key_type_ok (col->type)) {
            snprintf (err, errlen,
                      "partition key '%s' is a %s: zsink cannot name a partition directory "
                      "after a FLOAT, DOUBLE, BINARY, BYTES or nested value as Paimon does",
                      col->name, zs_type_name (col->type));
            return -1;
        }
        self->col[i] = c;
        self->def[i] = *col;
        snprintf (self->name[i], sizeof self->name[i], "%s", col->name);
    }
    self->n = schema->n_partition;
    return 0;
}

//  --------------------------------------------------------------------------
//  Rows

void
zs_partition_values (const zs_partition_t *self, const zs_value_t *row, zs_value_t *values)
{
    for (int i = 0; i < self->n; i++)
        values[i] = row[self->col[i]];
}

int
zs_partition_row (const zs_partition_t *self, const zs_value_t *values, uint8_t *buf, size_t cap,
                  char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    int len = zs_binrow_encode_into (self->def, values, self->n, buf, cap, why, sizeof why);
    if (len < 0) {
        char shown[256];
        zs_partition_display (self, values, shown, sizeof shown);
        snprintf (err, errlen, "partition %s: %s", shown, why);
    }
    return len;
}

int
zs_partition_decode (const zs_partition_t *self, const uint8_t *row, size_t len, zs_value_t *values,
                     char *err, size_t errlen)
{
    return zs_binrow_decode (row, len, self->def, self->n, values, err, errlen);
}

//  --------------------------------------------------------------------------
//  Directories

//  PartitionPathUtils.CHAR_TO_ESCAPE
static bool
s_needs_escape (unsigned char c)
{
    return c < 0x20 || c == 0x7f || (c < 0x80 && strchr ("\"#%'*/:=?\\{}[]^", c) && c != 0);
}

int
zs_partition_escape (const char *p, size_t len, char *buf, size_t cap)
{
    size_t at = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) p[i];
        size_t need = s_needs_escape (c) ? 3 : 1;
        if (at + need >= cap)
            return -1;
        if (need == 3)
            snprintf (buf + at, 4, "%%%02X", c);
        else
            buf[at] = (char) c;
        at += need;
    }
    if (at >= cap)
        return -1;
    buf[at] = 0;
    return (int) at;
}

static int
s_hex (char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

int
zs_partition_unescape (const char *p, size_t len, char *buf, size_t cap)
{
    size_t at = 0;
    for (size_t i = 0; i < len; i++) {
        char c = p[i];
        //  as Java: '%' and two hex digits, anything else as it is
        if (c == '%' && i + 2 < len && s_hex (p[i + 1]) >= 0 && s_hex (p[i + 2]) >= 0) {
            c = (char) (s_hex (p[i + 1]) * 16 + s_hex (p[i + 2]));
            i += 2;
        }
        if (at + 1 >= cap)
            return -1;
        buf[at++] = c;
    }
    if (at >= cap)
        return -1;
    buf[at] = 0;
    return (int) at;
}

//  Java's LocalDateTime.toString() of a day since the epoch and the
//  nanoseconds into it.
static void
s_java_datetime (int64_t days, int64_t rest, char *buf, size_t cap)
{
    int64_t y;
    unsigned m, d;
    zs_civil_from_days (days, &y, &m, &d);
    int64_t secs = rest / 1000000000;
    long nanos = (long) (rest % 1000000000);
    char year[24];
    if (y >= 0 && y <= 9999)
        snprintf (year, sizeof year, "%04" PRId64, y);
    else if (y < 0 && y > -10000)
        snprintf (year, sizeof year, "-%04" PRId64, -y);
    else
        snprintf (year, sizeof year, "%s%" PRId64, y > 0 ? "+" : "", y);
    int n = snprintf (buf, cap, "%s-%02u-%02uT%02d:%02d", year, m, d, (int) (secs / 3600),
                      (int) (secs / 60 % 60));
    if (n < 0 || (size_t) n >= cap || (secs % 60 == 0 && nanos == 0))
        return;
    size_t at = (size_t) n;
    n = snprintf (buf + at, cap - at, ":%02d", (int) (secs % 60));
    if (n < 0 || (size_t) n >= cap - at || nanos == 0)
        return;
    at += (size_t) n;
    if (nanos % 1000000 == 0)
        snprintf (buf + at, cap - at, ".%03ld", nanos / 1000000);
    else if (nanos % 1000 == 0)
        snprintf (buf + at, cap - at, ".%06ld", nanos / 1000);
    else
        snprintf (buf + at, cap - at, ".%09ld", nanos);
}

//  Java's StringUtils.isNullOrWhitespaceOnly, for ASCII whitespace
//  (Character.isWhitespace: \t \n \v \f \r, 0x1C-0x1F, space).
static bool
s_blank (const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) p[i];
        if (!(c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)))
            return false;
    }
    return true;
}

//  Java's toString() of a partition value (invariant 1) appended to out;
//  the default name for a null or a blank text.
static void
s_value_name (const zs_partition_t *self, int i, const zs_value_t *v, zs_strbuf_t *out)
{
    char text[64];
    size_t at = out->len;
    zs_type_t type = self->def[i].type;
    if (v->null)
        zs_strbuf_appends (out, self->default_name);
    else if (type == ZS_TYPE_DATE || type == ZS_TYPE_TIME) {
        //  the internal int: days, or milliseconds of the day
        snprintf (text, sizeof text, "%" PRId32, v->v.i32);
        zs_strbuf_appends (out, text);
    } else if (type == ZS_TYPE_TIMESTAMP3 || type == ZS_TYPE_TIMESTAMP6
               || type == ZS_TYPE_TIMESTAMP9) {
        int64_t per = type == ZS_TYPE_TIMESTAMP3   ? 1000
                      : type == ZS_TYPE_TIMESTAMP6 ? 1000000
                                                   : 1000000000;
        int64_t day = 86400 * per, days = v->v.i64 / day, rest = v->v.i64 % day;
        if (rest < 0) {
            rest += day;
            days--;
        }
        s_java_datetime (days, rest * (1000000000 / per), text, sizeof text);
        zs_strbuf_appends (out, text);
    } else
        zs_value_text_col (out, &self->def[i], v);
    if (!out->oom && s_blank (out->data + at, out->len - at)) {
        out->len = at;
        zs_strbuf_appends (out, self->default_name);
    }
}

int
zs_partition_dir (const zs_partition_t *self, const zs_value_t *values, char *buf, size_t cap,
                  char *err, size_t errlen)
{
    if (cap > ZS_PARTITION_DIR_MAX)
        cap = ZS_PARTITION_DIR_MAX;
    size_t at = 0;
    zs_strbuf_t text = {0};
    int rc = 0;
    for (int i = 0; i < self->n && rc == 0; i++) {
        text.len = 0;
        s_value_name (self, i, &values[i], &text);
        int k = zs_partition_escape (self->name[i], strlen (self->name[i]), buf + at,
                                     cap - at > 1 ? cap - at - 1 : 0);
        int v = -1;
        if (k >= 0 && !text.oom) {
            at += (size_t) k;
            buf[at++] = '=';
            v = zs_partition_escape (text.data, text.len, buf + at, cap - at);
        }
        if (v < 0) {
            char shown[256];
            zs_partition_display (self, values, shown, sizeof shown);
            snprintf (err, errlen, "partition %s: its directory would pass %zu bytes", shown,
                      cap - 1);
            rc = -1;
            break;
        }
        at += (size_t) v;
        if (i + 1 < self->n) {
            if (at + 1 >= cap) {
                snprintf (err, errlen, "partition directory longer than %zu bytes", cap - 1);
                rc = -1;
            } else
                buf[at++] = '/';
        }
    }
    zs_strbuf_free (&text);
    if (rc == 0 && cap > 0)
        buf[at] = 0;
    return rc == 0 ? (int) at : -1;
}

//  --------------------------------------------------------------------------
//  Back from text

//  castFromString of p (NUL-terminated, unescaped) for key i, with the
//  legacy spellings (invariant 2). 0 or -1.
static int
s_cast (const zs_partition_t *self, int i, const char *p, zs_value_t *out)
{
    size_t len = strlen (p);
    const char *reason = NULL;
    zs_type_t type = self->def[i].type;
    memset (out, 0, sizeof *out);
    if (zs_value_parse_col (&self->def[i], (const uint8_t *) p, len, out, &reason) == 0)
        return 0;
    if (type == ZS_TYPE_DATE || type == ZS_TYPE_TIME) { //  the directory's int
        char *end;
        long long days = strtoll (p, &end, 10);
        if (len > 0 && *end == 0 && days >= INT32_MIN && days <= INT32_MAX) {
            out->v.i32 = (int32_t) days;
            return 0;
        }
    }
    if ((type == ZS_TYPE_TIMESTAMP3 || type == ZS_TYPE_TIMESTAMP6 || type == ZS_TYPE_TIMESTAMP9)
        && len == 16) {
        char full[24]; //  "YYYY-MM-DDTHH:MM": LocalDateTime leaves out ":00"
        snprintf (full, sizeof full, "%s:00", p);
        if (zs_value_parse_col (&self->def[i], (const uint8_t *) full, len + 3, out, &reason) == 0)
            return 0;
    }
    return -1;
}

static int
s_key_index (const zs_partition_t *self, const char *name)
{
    for (int i = 0; i < self->n; i++)
        if (strcmp (self->name[i], name) == 0)
            return i;
    return -1;
}

//  One "k=v" of length len at p into values, its text into scratch.
static int
s_parse_pair (const zs_partition_t *self, const char *p, size_t len, bool escaped,
              zs_value_t *values, bool *seen, char **scratch, size_t *left, char *err,
              size_t errlen)
{
    const char *eq = memchr (p, '=', len);
    char key[ZS_COLUMN_NAME_MAX * 3];
    if (!eq || eq == p) {
        snprintf (err, errlen, "partition '%.*s' is not key=value", (int) len, p);
        return -1;
    }
    size_t klen = (size_t) (eq - p), vlen = len - klen - 1;
    int k = escaped ? zs_partition_unescape (p, klen, key, sizeof key)
                    : (klen < sizeof key ? (int) klen : -1);
    if (k >= 0 && !escaped) {
        memcpy (key, p, klen);
        key[klen] = 0;
    }
    int i = k >= 0 ? s_key_index (self, key) : -1;
    if (i < 0 || seen[i]) {
        snprintf (err, errlen, "partition '%.*s': '%.*s' is %s", (int) len, p, (int) klen, p,
                  i < 0 ? "not a partition key of the table" : "given twice");
        return -1;
    }
    int v = escaped ? zs_partition_unescape (eq + 1, vlen, *scratch, *left)
                    : (vlen < *left ? (int) vlen : -1);
    if (v < 0) {
        snprintf (err, errlen, "partition '%.*s': no room for its value", (int) len, p);
        return -1;
    }
    if (!escaped) {
        memcpy (*scratch, eq + 1, vlen);
        (*scratch)[vlen] = 0;
    }
    seen[i] = true;
    if (strcmp (*scratch, self->default_name) == 0)
        values[i] = (zs_value_t){.null = true};
    else if (s_cast (self, i, *scratch, &values[i]) != 0) {
        char tname[ZS_TYPE_TEXT_MAX];
        snprintf (err, errlen, "partition key '%s': '%s' is not a %s", self->name[i], *scratch,
                  zs_column_type (&self->def[i], tname, sizeof tname));
        return -1;
    }
    *scratch += v + 1;
    *left -= (size_t) v + 1;
    return 0;
}

int
zs_partition_parse (const zs_partition_t *self, const char *text, char sep, zs_value_t *values,
                    char *scratch, size_t scratchlen, char *err, size_t errlen)
{
    bool seen[ZS_PARTITION_MAX] = {false};
    const char *p = text;
    int count = 0;
    while (*p) {
        const char *end = strchr (p, sep);
        size_t len = end ? (size_t) (end - p) : strlen (p);
        if (len > 0) {
            if (s_parse_pair (self, p, len, sep == '/', values, seen, &scratch, &scratchlen, err,
                              errlen)
                != 0)
                return -1;
            count++;
        }
        if (!end)
            break;
        p = end + 1;
    }
    for (int i = 0; i < self->n; i++)
        if (!seen[i]) {
            snprintf (err, errlen, "partition '%s' lacks key '%s'", text, self->name[i]);
            return -1;
        }
    (void) count;
    return 0;
}

int
zs_partition_display (const zs_partition_t *self, const zs_value_t *values, char *buf, size_t cap)
{
    zs_strbuf_t out = {0};
    for (int i = 0; i < self->n; i++) {
        if (i)
            zs_strbuf_appends (&out, ", ");
        zs_strbuf_appends (&out, self->name[i]);
        zs_strbuf_appends (&out, "=");
        if (values[i].null)
            zs_strbuf_appends (&out, "NULL");
        else
            zs_value_text_col (&out, &self->def[i], &values[i]);
    }
    int rc = !out.oom && out.len < cap ? 0 : -1;
    if (cap > 0) {
        size_t n = out.len < cap ? out.len : cap - 1;
        if (n)
            memcpy (buf, out.data, n);
        buf[n] = 0;
    }
    zs_strbuf_free (&out);
    return rc;
}
