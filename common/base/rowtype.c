/*  rowtype.c - see rowtype.h.

    The text form is the one place users write a schema, so its parser is
    strict and its messages name the column: a typo must never become a
    silently different table.
*/
#include "rowtype.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name; //  canonical spelling
    zs_type_t type;
} s_types[] = {
    {"BOOLEAN", ZS_TYPE_BOOLEAN},
    {"INT", ZS_TYPE_INT},
    {"BIGINT", ZS_TYPE_BIGINT},
    {"FLOAT", ZS_TYPE_FLOAT},
    {"DOUBLE", ZS_TYPE_DOUBLE},
    {"STRING", ZS_TYPE_STRING},
    {"BYTES", ZS_TYPE_BYTES},
    {"DATE", ZS_TYPE_DATE},
    {"TIMESTAMP(3)", ZS_TYPE_TIMESTAMP3},
    {"TIMESTAMP(6)", ZS_TYPE_TIMESTAMP6},
};

//  Other spellings users bring from Flink SQL and DuckDB.
static const struct {
    const char *alias;
    zs_type_t type;
} s_aliases[] = {
    {"INTEGER", ZS_TYPE_INT},          {"VARCHAR", ZS_TYPE_STRING}, {"BINARY", ZS_TYPE_BYTES},
    {"VARBINARY", ZS_TYPE_BYTES},      {"BLOB", ZS_TYPE_BYTES},     {"BOOL", ZS_TYPE_BOOLEAN},
    {"TIMESTAMP", ZS_TYPE_TIMESTAMP6}, {"REAL", ZS_TYPE_FLOAT},
};

const char *
zs_type_name (zs_type_t type)
{
    for (size_t i = 0; i < sizeof s_types / sizeof s_types[0]; i++)
        if (s_types[i].type == type)
            return s_types[i].name;
    return "?";
}

bool
zs_type_is_binary (zs_type_t type)
{
    return type == ZS_TYPE_STRING || type == ZS_TYPE_BYTES;
}

static void
s_find_id (zs_schema_t *self)
{
    self->id_col = -1;
    for (int i = 0; i < self->n; i++)
        if (strcmp (self->cols[i].name, "id") == 0 && self->cols[i].type == ZS_TYPE_BIGINT) {
            self->id_col = i;
            return;
        }
}

void
zs_schema_default (zs_schema_t *self)
{
    char err[ZS_ERRLEN];
    int rc = zs_schema_parse (
        self, "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)", err, sizeof err);
    (void) rc; //  a constant: cannot fail
}

//  Type from a spelling like "bigint", "Timestamp( 3 )", "VARCHAR". The
//  text is normalised (upper case, blanks dropped) before comparing.
static int
s_type_from_text (const char *text, size_t len, zs_type_t *type)
{
    char norm[32];
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (isspace ((unsigned char) text[i]))
            continue;
        if (n + 1 >= sizeof norm)
            return -1;
        norm[n++] = (char) toupper ((unsigned char) text[i]);
    }
    norm[n] = '\0';
    for (size_t i = 0; i < sizeof s_types / sizeof s_types[0]; i++)
        if (strcmp (norm, s_types[i].name) == 0) {
            *type = s_types[i].type;
            return 0;
        }
    for (size_t i = 0; i < sizeof s_aliases / sizeof s_aliases[0]; i++)
        if (strcmp (norm, s_aliases[i].alias) == 0) {
            *type = s_aliases[i].type;
            return 0;
        }
    return -1;
}

//  One column definition "name TYPE [NOT NULL]" (trimmed, non-empty).
static int
s_parse_column (zs_column_t *col, int index, const char *text, size_t len, char *err, size_t errlen)
{
    const char *p = text, *end = text + len;
    const char *name = p;
    if (p == end || !(isalpha ((unsigned char) *p) || *p == '_')) {
        snprintf (err, errlen, "table.schema: column %d: '%.*s' does not start with a name",
                  index + 1, (int) len, text);
        return -1;
    }
    while (p < end && (isalnum ((unsigned char) *p) || *p == '_'))
        p++;
    size_t name_len = (size_t) (p - name);
    if (name_len >= sizeof col->name) {
        snprintf (err, errlen, "table.schema: column %d: name longer than %d bytes", index + 1,
                  ZS_COLUMN_NAME_MAX - 1);
        return -1;
    }
    memcpy (col->name, name, name_len);
    col->name[name_len] = '\0';
    if (p < end && !isspace ((unsigned char) *p)) {
        snprintf (err, errlen, "table.schema: column %d '%s': unexpected '%c' in the name",
                  index + 1, col->name, *p);
        return -1;
    }
    while (p < end && isspace ((unsigned char) *p))
        p++;
    //  NOT NULL at the end, in any case and spacing.
    col->nullable = true;
    const char *tend = end;
    if (tend - p >= 8) {
        const char *q = tend;
        while (q > p && isalpha ((unsigned char) q[-1]))
            q--;
        if (tend - q == 4 && strncasecmp (q, "NULL", 4) == 0) {
            const char *r = q;
            while (r > p && isspace ((unsigned char) r[-1]))
                r--;
            const char *s = r;
            while (s > p && isalpha ((unsigned char) s[-1]))
                s--;
            if (r - s == 3 && strncasecmp (s, "NOT", 3) == 0) {
                col->nullable = false;
                tend = s;
                while (tend > p && isspace ((unsigned char) tend[-1]))
                    tend--;
            }
        }
    }
    if (tend == p) {
        snprintf (err, errlen, "table.schema: column %d '%s': no type", index + 1, col->name);
        return -1;
    }
    if (s_type_from_text (p, (size_t) (tend - p), &col->type) != 0) {
        snprintf (err, errlen,
                  "table.schema: column %d '%s': unknown type '%.*s' (BOOLEAN, INT, BIGINT, "
                  "FLOAT, DOUBLE, STRING, BYTES, DATE, TIMESTAMP(3), TIMESTAMP(6))",
                  index + 1, col->name, (int) (tend - p), p);
        return -1;
    }
    return 0;
}

int
zs_schema_parse (zs_schema_t *self, const char *text, char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    self->id_col = -1;
    const char *p = text;
    while (true) {
        const char *comma = strchr (p, ',');
        const char *end = comma ? comma : p + strlen (p);
        const char *a = p, *b = end;
        while (a < b && isspace ((unsigned char) *a))
            a++;
        while (b > a && isspace ((unsigned char) b[-1]))
            b--;
        if (a == b) {
            snprintf (err, errlen, "table.schema: column %d is empty", self->n + 1);
            return -1;
        }
        if (self->n == ZS_MAX_COLUMNS) {
            snprintf (err, errlen, "table.schema: more than %d columns", ZS_MAX_COLUMNS);
            return -1;
        }
        zs_column_t *col = &self->cols[self->n];
        if (s_parse_column (col, self->n, a, (size_t) (b - a), err, errlen) != 0)
            return -1;
        for (int i = 0; i < self->n; i++)
            if (strcasecmp (self->cols[i].name, col->name) == 0) {
                snprintf (err, errlen, "table.schema: column %d '%s' repeats column %d '%s'",
                          self->n + 1, col->name, i + 1, self->cols[i].name);
                return -1;
            }
        self->n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    s_find_id (self);
    char text_form[ZS_MAX_COLUMNS * (ZS_COLUMN_NAME_MAX + 24)];
    self->fingerprint =
        zs_fnv1a (zs_schema_format (self, text_form, sizeof text_form) == 0 ? text_form : "");
    return 0;
}

//  "name TYPE[ NOT NULL]" of one column.
static int
s_column_text (const zs_column_t *col, char *buf, size_t len)
{
    int n = snprintf (buf, len, "%s %s%s", col->name, zs_type_name (col->type),
                      col->nullable ? "" : " NOT NULL");
    return n < 0 || (size_t) n >= len ? -1 : 0;
}

int
zs_schema_format (const zs_schema_t *self, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return -1;
    buf[0] = '\0';
    for (int i = 0; i < self->n; i++) {
        if (i > 0) {
            if (used + 2 >= len)
                return -1;
            memcpy (buf + used, ", ", 3);
            used += 2;
        }
        if (s_column_text (&self->cols[i], buf + used, len - used) != 0)
            return -1;
        used += strlen (buf + used);
    }
    return 0;
}

int
zs_schema_diff (const zs_schema_t *job, const zs_schema_t *table, char *why, size_t len)
{
    int n = job->n > table->n ? job->n : table->n;
    for (int i = 0; i < n; i++) {
        char a[128], b[128];
        if (i >= table->n) {
            s_column_text (&job->cols[i], a, sizeof a);
            snprintf (why, len, "column %d '%s': job has '%s', the table has no such column", i + 1,
                      job->cols[i].name, a);
            return -1;
        }
        if (i >= job->n) {
            s_column_text (&table->cols[i], b, sizeof b);
            snprintf (why, len, "column %d '%s': the table has '%s', the job has no such column",
                      i + 1, table->cols[i].name, b);
            return -1;
        }
        s_column_text (&job->cols[i], a, sizeof a);
        s_column_text (&table->cols[i], b, sizeof b);
        if (strcmp (a, b) != 0) {
            snprintf (why, len, "column %d '%s': job has '%s', table has '%s'", i + 1,
                      job->cols[i].name, a, b);
            return -1;
        }
    }
    return 0;
}

//  --------------------------------------------------------------------------
//  Partition keys (appended for table.partition-keys; table/partition.h
//  is the rest)

static int
s_partition_column (const zs_schema_t *schema, const char *name, size_t len)
{
    for (int i = 0; i < schema->n; i++)
        if (strlen (schema->cols[i].name) == len && strncmp (schema->cols[i].name, name, len) == 0)
            return i;
    return -1;
}

int
zs_schema_partition_parse (zs_schema_t *schema, const char *keys, char *err, size_t errlen)
{
    schema->n_partition = 0;
    const char *p = keys ? keys : "";
    while (isspace ((unsigned char) *p))
        p++;
    if (!*p)
        return 0;
    while (true) {
        const char *comma = strchr (p, ',');
        const char *end = comma ? comma : p + strlen (p);
        const char *a = p, *b = end;
        while (a < b && isspace ((unsigned char) *a))
            a++;
        while (b > a && isspace ((unsigned char) b[-1]))
            b--;
        int col = s_partition_column (schema, a, (size_t) (b - a));
        if (col < 0) {
            snprintf (err, errlen, "table.partition-keys: '%.*s' names no column of the table",
                      (int) (b - a), a);
            return -1;
        }
        for (int i = 0; i < schema->n_partition; i++)
            if (schema->partition[i] == col) {
                snprintf (err, errlen, "table.partition-keys: '%s' is named twice",
                          schema->cols[col].name);
                return -1;
            }
        if (schema->n_partition == ZS_PARTITION_MAX) {
            snprintf (err, errlen, "table.partition-keys: more than %d keys", ZS_PARTITION_MAX);
            return -1;
        }
        schema->partition[schema->n_partition++] = col;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int
zs_schema_partition_format (const zs_schema_t *schema, char *buf, size_t len)
{
    size_t at = 0;
    if (len == 0)
        return -1;
    buf[0] = 0;
    for (int i = 0; i < schema->n_partition; i++) {
        int n = snprintf (buf + at, len - at, "%s%s", i ? "," : "",
                          schema->cols[schema->partition[i]].name);
        if (n < 0 || (size_t) n >= len - at)
            return -1;
        at += (size_t) n;
    }
    return 0;
}
