/*  opts.c - see opts.h. Value parsers and the table-driven set, get,
    check and listing of options; no key is known here.
*/
#include "opts.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void
zs_errf (char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (err, errlen, fmt, ap);
    va_end (ap);
}

//  ---------------------------------------------------------------------
//  Value parsers

//  Copy text without leading/trailing blanks into buf. -1 if it does not fit.
static int
s_trim (const char *text, char *buf, size_t len)
{
    while (isspace ((unsigned char) *text))
        text++;
    size_t n = strlen (text);
    while (n > 0 && isspace ((unsigned char) text[n - 1]))
        n--;
    if (n >= len)
        return -1;
    memcpy (buf, text, n);
    buf[n] = 0;
    return 0;
}

typedef struct {
    const char *name;
    int64_t mult;
} s_unit_t;

//  "<digits>[ ]*<unit>" with unit looked up in units (case-insensitive, the
//  table ends with a NULL name); no unit means a multiplier of 1. Signs and
//  fractions are rejected: Flink does the same, and a negative duration or
//  size has no meaning here.
static int
s_parse_scaled (const char *text, const s_unit_t *units, int64_t *out)
{
    char buf[64];
    if (!text || s_trim (text, buf, sizeof buf))
        return -1;
    const char *p = buf;
    if (!isdigit ((unsigned char) *p))
        return -1;
    int64_t n = 0;
    for (; isdigit ((unsigned char) *p); p++) {
        int d = *p - '0';
        if (n > (INT64_MAX - d) / 10)
            return -1;
        n = n * 10 + d;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    int64_t mult = 1;
    if (*p) {
        const s_unit_t *u = units;
        while (u->name && strcasecmp (p, u->name) != 0)
            u++;
        if (!u->name)
            return -1;
        mult = u->mult;
    }
    if (n > INT64_MAX / mult)
        return -1;
    *out = n * mult;
    return 0;
}

int
zs_parse_duration_ms (const char *text, int64_t *ms)
{
    //  Flink's TimeUtils spellings, down to milliseconds (our resolution).
    static const s_unit_t units[] = {
        {"ms", 1},           {"milli", 1},       {"millis", 1},      {"millisecond", 1},
        {"milliseconds", 1}, {"s", 1000},        {"sec", 1000},      {"secs", 1000},
        {"second", 1000},    {"seconds", 1000},  {"m", 60000},       {"min", 60000},
        {"mins", 60000},     {"minute", 60000},  {"minutes", 60000}, {"h", 3600000},
        {"hour", 3600000},   {"hours", 3600000}, {"d", 86400000},    {"day", 86400000},
        {"days", 86400000},  {NULL, 0}};
    return s_parse_scaled (text, units, ms);
}

int
zs_parse_size (const char *text, int64_t *bytes)
{
    //  Flink's MemorySize spellings: binary multiples, bare number = bytes.
    static const int64_t K = 1024;
    const s_unit_t units[] = {{"b", 1},
                              {"bytes", 1},
                              {"k", K},
                              {"kb", K},
                              {"kibibytes", K},
                              {"m", K * K},
                              {"mb", K * K},
                              {"mebibytes", K * K},
                              {"g", K * K * K},
                              {"gb", K * K * K},
                              {"gibibytes", K * K * K},
                              {"t", K * K * K * K},
                              {"tb", K * K * K * K},
                              {"tebibytes", K * K * K * K},
                              {NULL, 0}};
    return s_parse_scaled (text, units, bytes);
}

int
zs_parse_port_range (const char *spec, int *lo, int *hi)
{
    char *end;
    long a = strtol (spec, &end, 10), b = a;
    if (end == spec)
        return -1;
    if (*end == '-') {
        const char *rest = end + 1;
        b = strtol (rest, &end, 10);
        if (end == rest)
            return -1;
    }
    if (*end || a < 1 || b > 65535 || a > b)
        return -1;
    *lo = (int) a;
    *hi = (int) b;
    return 0;
}

//  A whole decimal number, optionally negative (so "-1" gets a range error,
//  which says more than "not a number").
static int
s_parse_whole (const char *text, int64_t *out)
{
    char buf[64];
    if (s_trim (text, buf, sizeof buf) || !*buf)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll (buf, &end, 10);
    if (errno || *end || !(isdigit ((unsigned char) buf[0]) || buf[0] == '-'))
        return -1;
    *out = v;
    return 0;
}

//  ---------------------------------------------------------------------
//  Fields

static bool
s_is_numeric (const zs_opt_t *o)
{
    return o->type == ZS_OPT_INT || o->type == ZS_OPT_I64 || o->type == ZS_OPT_DURATION
           || o->type == ZS_OPT_SIZE;
}

static int64_t
s_num_get (const zs_opt_t *o, const void *base)
{
    const char *p = (const char *) base + o->offset;
    if (o->type == ZS_OPT_INT)
        return *(const int *) p;
    return *(const int64_t *) p;
}

static void
s_num_put (const zs_opt_t *o, void *base, int64_t v)
{
    char *p = (char *) base + o->offset;
    if (o->type == ZS_OPT_INT)
        *(int *) p = (int) v;
    else
        *(int64_t *) p = v;
}

static bool
s_in_range (const zs_opt_t *o, int64_t v)
{
    return (o->unset_ok && v == -1) || (v >= o->min && v <= o->max);
}

static void
s_range_text (const zs_opt_t *o, char *buf, size_t len)
{
    if (o->max == ZS_OPT_NOMAX)
        snprintf (buf, len, ">= %" PRId64, o->min);
    else
        snprintf (buf, len, "%" PRId64 "..%" PRId64, o->min, o->max);
}

//  A number, duration or size (empty = unset where the key allows it).
static int
s_set_number (const zs_opt_t *o, void *base, const char *value, char *err, size_t errlen)
{
    char trimmed[8];
    if (o->unset_ok && s_trim (value, trimmed, sizeof trimmed) == 0 && !*trimmed) {
        s_num_put (o, base, -1);
        return 0;
    }
    int64_t v = 0;
    int rc = o->type == ZS_OPT_DURATION ? zs_parse_duration_ms (value, &v)
             : o->type == ZS_OPT_SIZE   ? zs_parse_size (value, &v)
                                        : s_parse_whole (value, &v);
    if (rc) {
        if (o->type == ZS_OPT_DURATION)
            zs_errf (err, errlen, "%s: bad duration '%s' (e.g. 2s, 500ms, 1min)", o->key, value);
        else if (o->type == ZS_OPT_SIZE)
            zs_errf (err, errlen, "%s: bad size '%s' (e.g. 128mb, 64kb, 1gb)", o->key, value);
        else
            zs_errf (err, errlen, "%s: '%s' is not a whole number", o->key, value);
        return -1;
    }
    if (v < o->min || v > o->max) {
        char range[64];
        s_range_text (o, range, sizeof range);
        zs_errf (err, errlen, "%s: '%s' out of range (%s%s)", o->key, value, range,
                 o->unset_ok ? ", or empty for unset" : "");
        return -1;
    }
    s_num_put (o, base, v);
    return 0;
}

static int
s_set_bool (const zs_opt_t *o, bool *field, const char *value, char *err, size_t errlen)
{
    if (strcasecmp (value, "true") == 0)
        *field = true;
    else if (strcasecmp (value, "false") == 0)
        *field = false;
    else {
        zs_errf (err, errlen, "%s: bad boolean '%s' (true or false)", o->key, value);
        return -1;
    }
    return 0;
}

size_t
zs_opt_scheme_len (const char *text)
{
    //  RFC 3986: a letter, then letters, digits, '+', '-', '.', then ':'.
    //  As in Flink's and Hadoop's Path, a colon after the first '/' is part
    //  of a name, not a scheme: "./a:b" and "/x/a:b" are local.
    if (!isalpha ((unsigned char) text[0]))
        return 0;
    size_t n = 1;
    while (isalnum ((unsigned char) text[n]) || text[n] == '+' || text[n] == '-' || text[n] == '.')
        n++;
    return text[n] == ':' ? n : 0;
}

static int
s_hex (int c)
{
    return isdigit (c) ? c - '0' : isxdigit (c) ? tolower (c) - 'a' + 10 : -1;
}

//  The local path a file URI names: "file:///abs" and "file:/abs" are /abs
//  (%XX decoded); "file:relative" and "file://host/..." name no local
//  path. 0, or -1 with why.
static int
s_file_uri (const char *uri, char *out, size_t outlen, const char **why)
{
    const char *p = uri + 5; //  after "file:"
    if (strncmp (p, "//", 2) == 0) {
        p += 2;
        if (*p != '/') {
            *why = "names a host (file://HOST/...); a local path is file:///ABS";
            return -1;
        }
    } else if (*p != '/') {
        *why = "is relative; a file URI is absolute: file:///ABS";
        return -1;
    }
    size_t n = 0;
    for (; *p; p++) {
        int c = (unsigned char) *p;
        if (c == '%') {
            int hi = s_hex ((unsigned char) p[1]), lo = hi < 0 ? -1 : s_hex ((unsigned char) p[2]);
            if (lo < 0 || (hi == 0 && lo == 0)) {
                *why = "has a bad %-escape";
                return -1;
            }
            c = hi * 16 + lo;
            p += 2;
        }
        if (n + 1 >= outlen) {
            *why = "is too long";
            return -1;
        }
        out[n++] = (char) c;
    }
    out[n] = 0;
    return 0;
}

//  A path key's value as the local path zsink uses: no scheme, as is;
//  file:///abs, /abs; any other scheme is refused, naming the key, so
//  "s3://b/t" is not written into a directory "./s3:/b/t".
static int
s_set_path (const zs_opt_t *o, char *field, const char *value, char *err, size_t errlen)
{
    char local[ZS_PATH_MAX];
    size_t n = zs_opt_scheme_len (value);
    const char *why = NULL;
    if (n == 0) {
        if (strlen (value) >= o->size) {
            zs_errf (err, errlen, "%s: path longer than %zu bytes", o->key, o->size - 1);
            return -1;
        }
        snprintf (field, o->size, "%s", value);
        return 0;
    }
    if (n == 4 && strncasecmp (value, "file", 4) == 0) {
        if (s_file_uri (value, local, o->size < sizeof local ? o->size : sizeof local, &why) == 0) {
            snprintf (field, o->size, "%s", local);
            return 0;
        }
        zs_errf (err, errlen, "%s: '%s' %s", o->key, value, why);
        return -1;
    }
    zs_errf (err, errlen,
             "%s: '%s': scheme '%.*s:' is not supported yet (zsink writes local paths: /ABS, "
             "RELATIVE or file:///ABS; a local name with a colon is written ./NAME)",
             o->key, value, (int) n, value);
    return -1;
}

//  s3://BUCKET[/KEY]: kept as written (io.h resolves it), the bucket
//  checked here so a typo fails at start, naming the key.
static int
s_set_store (const zs_opt_t *o, char *field, const char *value, char *err, size_t errlen)
{
    if (strncmp (value, "s3://", 5) != 0)
        return s_set_path (o, field, value, err, errlen);
    const char *b = value + 5;
    size_t blen = strcspn (b, "/");
    bool ok = blen >= 3 && blen <= 63;
    for (size_t i = 0; ok && i < blen; i++)
        ok = islower ((unsigned char) b[i]) || isdigit ((unsigned char) b[i]) || b[i] == '-'
             || b[i] == '.';
    if (!ok) {
        zs_errf (err, errlen, "%s: '%s': bad bucket name '%.*s' (3 to 63 of a-z, 0-9, '.' and '-')",
                 o->key, value, (int) (blen < 64 ? blen : 64), b);
        return -1;
    }
    if (strstr (b + blen, "//")) {
        zs_errf (err, errlen, "%s: '%s': empty path segment ('//')", o->key, value);
        return -1;
    }
    if (strlen (value) >= o->size) {
        zs_errf (err, errlen, "%s: path longer than %zu bytes", o->key, o->size - 1);
        return -1;
    }
    snprintf (field, o->size, "%s", value);
    //  no trailing '/': paths are joined with "/"
    size_t n = strlen (field);
    while (n > 5 && field[n - 1] == '/')
        field[--n] = 0;
    return 0;
}

static int
s_set_str (const zs_opt_t *o, char *field, const char *value, char *err, size_t errlen)
{
    if (strlen (value) >= o->size) {
        zs_errf (err, errlen, "%s: longer than %zu bytes", o->key, o->size - 1);
        return -1;
    }
    snprintf (field, o->size, "%s", value);
    return 0;
}

static void
s_choices_text (const zs_opt_t *o, const char *sep, char *buf, size_t len)
{
    buf[0] = 0;
    for (const char *const *c = o->choices; *c; c++)
        snprintf (buf + strlen (buf), len - strlen (buf), "%s%s", c == o->choices ? "" : sep, *c);
}

static bool
s_choice_ok (const zs_opt_t *o, const char *value)
{
    if (o->unset_ok && !*value)
        return true;
    for (const char *const *c = o->choices; *c; c++)
        if (strcmp (value, *c) == 0)
            return true;
    return false;
}

static int
s_set_enum (const zs_opt_t *o, char *field, const char *value, char *err, size_t errlen)
{
    if (s_choice_ok (o, value) && strlen (value) < o->size) {
        snprintf (field, o->size, "%s", value);
        return 0;
    }
    char known[160];
    s_choices_text (o, ", ", known, sizeof known);
    //  "true"/"false" choices read as a boolean that may be unset
    if (o->choices[0] && strcmp (o->choices[0], "true") == 0)
        zs_errf (err, errlen, "%s: bad boolean '%s' (true or false)", o->key, value);
    else
        zs_errf (err, errlen, "%s: unknown value '%s' (known: %s)", o->key, value, known);
    return -1;
}

int
zs_opt_set (const zs_opt_t *o, void *base, const char *value, char *err, size_t errlen)
{
    char *field = (char *) base + o->offset;
    switch (o->type) {
    case ZS_OPT_INT:
    case ZS_OPT_I64:
    case ZS_OPT_DURATION:
    case ZS_OPT_SIZE:
        return s_set_number (o, base, value, err, errlen);
    case ZS_OPT_BOOL:
        return s_set_bool (o, (bool *) field, value, err, errlen);
    case ZS_OPT_ENUM:
        return s_set_enum (o, field, value, err, errlen);
    case ZS_OPT_STR:
        return s_set_str (o, field, value, err, errlen);
    case ZS_OPT_PATH:
        return s_set_path (o, field, value, err, errlen);
    case ZS_OPT_STORE:
        return s_set_store (o, field, value, err, errlen);
    case ZS_OPT_CUSTOM:
        return o->set (base, o, value, err, errlen);
    }
    return -1;
}

int
zs_opt_get (const zs_opt_t *o, const void *base, char *buf, size_t len)
{
    if (len == 0)
        return -1;
    const char *field = (const char *) base + o->offset;
    int n;
    switch (o->type) {
    case ZS_OPT_INT:
    case ZS_OPT_I64:
    case ZS_OPT_SIZE:
    case ZS_OPT_DURATION: {
        int64_t v = s_num_get (o, base);
        const char *unit = o->type == ZS_OPT_DURATION ? "ms" : "";
        n = o->unset_ok && v == -1 ? snprintf (buf, len, "%s", "")
                                   : snprintf (buf, len, "%" PRId64 "%s", v, unit);
        break;
    }
    case ZS_OPT_BOOL:
        n = snprintf (buf, len, "%s", *(const bool *) field ? "true" : "false");
        break;
    case ZS_OPT_ENUM:
    case ZS_OPT_STR:
    case ZS_OPT_PATH:
    case ZS_OPT_STORE:
        n = snprintf (buf, len, "%.*s", (int) o->size - 1, field);
        break;
    case ZS_OPT_CUSTOM:
        return o->get (base, o, buf, len);
    default:
        return -1;
    }
    return n >= 0 && (size_t) n < len ? 0 : -1;
}

bool
zs_opt_unset (const zs_opt_t *o, const void *base)
{
    const char *field = (const char *) base + o->offset;
    if (s_is_numeric (o))
        return s_num_get (o, base) == -1;
    if (o->type == ZS_OPT_BOOL)
        return !*(const bool *) field;
    if (o->type == ZS_OPT_CUSTOM)
        return false;
    return !*field;
}

void
zs_opt_copy (const zs_opt_t *o, void *dst, const void *src)
{
    size_t size = o->type == ZS_OPT_INT    ? sizeof (int)
                  : o->type == ZS_OPT_BOOL ? sizeof (bool)
                  : s_is_numeric (o)       ? sizeof (int64_t)
                                           : o->size;
    if (o->type != ZS_OPT_CUSTOM)
        memcpy ((char *) dst + o->offset, (const char *) src + o->offset, size);
}

int
zs_opt_check (const zs_opt_t *o, const void *base, char *err, size_t errlen)
{
    const char *field = (const char *) base + o->offset;
    if (s_is_numeric (o) && !s_in_range (o, s_num_get (o, base))) {
        char range[64];
        s_range_text (o, range, sizeof range);
        zs_errf (err, errlen, "%s: %" PRId64 " out of range (%s)", o->key, s_num_get (o, base),
                 range);
        return -1;
    }
    bool text = o->type == ZS_OPT_ENUM || o->type == ZS_OPT_STR || o->type == ZS_OPT_PATH
                || o->type == ZS_OPT_STORE;
    if (text && !memchr (field, 0, o->size)) {
        zs_errf (err, errlen, "%s: not a string", o->key);
        return -1;
    }
    if (o->type == ZS_OPT_ENUM && !s_choice_ok (o, field)) {
        zs_errf (err, errlen, "%s: unknown value '%s'", o->key, field);
        return -1;
    }
    //  zs_opt_set keeps a path without its scheme; one filled in by hand
    //  may not
    if ((o->type == ZS_OPT_PATH || (o->type == ZS_OPT_STORE && strncmp (field, "s3://", 5) != 0))
        && zs_opt_scheme_len (field)) {
        zs_errf (err, errlen, "%s: '%s' has a URI scheme; zsink takes local paths", o->key, field);
        return -1;
    }
    return 0;
}

void
zs_opt_describe (const zs_opt_t *o, char *buf, size_t len)
{
    char range[64] = "";
    const char *unit = o->type == ZS_OPT_DURATION ? "ms" : "";
    bool open = o->max == ZS_OPT_NOMAX || o->max == INT_MAX;
    if (s_is_numeric (o) && open && o->min != 0)
        snprintf (range, sizeof range, ">= %" PRId64 "%s", o->min, unit);
    else if (s_is_numeric (o) && !open)
        snprintf (range, sizeof range, "%" PRId64 "..%" PRId64 "%s", o->min, o->max, unit);
    switch (o->type) {
    case ZS_OPT_INT:
    case ZS_OPT_I64:
        snprintf (buf, len, "integer%s%s", *range ? " " : "", range);
        break;
    case ZS_OPT_DURATION:
        snprintf (buf, len, "duration%s%s", *range ? " " : "", range);
        break;
    case ZS_OPT_SIZE:
        snprintf (buf, len, "size%s%s", *range ? " " : "", range);
        break;
    case ZS_OPT_BOOL:
        snprintf (buf, len, "boolean");
        break;
    case ZS_OPT_ENUM:
        s_choices_text (o, "|", buf, len);
        break;
    case ZS_OPT_PATH:
        snprintf (buf, len, "path");
        break;
    case ZS_OPT_STORE:
        snprintf (buf, len, "path or s3://bucket/key");
        break;
    default:
        snprintf (buf, len, "string");
    }
}

const zs_opt_t *
zs_opts_find (const zs_opt_group_t *groups, size_t n_groups, const char *key,
              const zs_opt_group_t **group)
{
    for (size_t g = 0; g < n_groups; g++)
        for (const zs_opt_t *o = groups[g].opts; o->key; o++)
            if (strcmp (o->key, key) == 0) {
                if (group)
                    *group = &groups[g];
                return o;
            }
    return NULL;
}

int
zs_opts_defaults (const zs_opt_t *opts, void *base, bool unset, char *err, size_t errlen)
{
    for (const zs_opt_t *o = opts; o->key; o++) {
        if (!o->dflt) //  the caller sets it (table.schema's default schema)
            continue;
        const char *text = unset && (o->flags & ZS_OPT_TABLE) && o->unset_ok ? "" : o->dflt;
        if (zs_opt_set (o, base, text, err, errlen) != 0)
            return -1;
    }
    return 0;
}
