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
    const char *name; //  canonical spelling of the kind
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
    {"TINYINT", ZS_TYPE_TINYINT},
    {"SMALLINT", ZS_TYPE_SMALLINT},
    {"DECIMAL", ZS_TYPE_DECIMAL},
    {"CHAR", ZS_TYPE_CHAR},
    {"BINARY", ZS_TYPE_BINARY},
    {"TIME", ZS_TYPE_TIME},
    {"TIMESTAMP(9)", ZS_TYPE_TIMESTAMP9},
    {"ARRAY", ZS_TYPE_ARRAY},
    {"MAP", ZS_TYPE_MAP},
    {"ROW", ZS_TYPE_ROW},
};

//  What a type name (normalised: upper case, blanks dropped) stands for,
//  before its parameters: the spellings of Flink SQL, Paimon and DuckDB.
typedef enum {
    S_FIXED,     //  no parameters: type as listed
    S_DECIMAL,   //  [(p[, s])]
    S_CHAR,      //  [(n)]
    S_VARCHAR,   //  [(n)], none: STRING
    S_BINARY,    //  [(n)], none: BYTES
    S_VARBINARY, //  [(n)], none: BYTES
    S_TIME,      //  [(p)]
    S_TIMESTAMP, //  [(p)]
    S_LTZ,       //  [(p)], WITH LOCAL TIME ZONE
} s_family_t;

static const struct {
    const char *name;
    s_family_t family;
    zs_type_t type;
} s_names[] = {
    {"BOOLEAN", S_FIXED, ZS_TYPE_BOOLEAN},
    {"BOOL", S_FIXED, ZS_TYPE_BOOLEAN},
    {"TINYINT", S_FIXED, ZS_TYPE_TINYINT},
    {"SMALLINT", S_FIXED, ZS_TYPE_SMALLINT},
    {"INT", S_FIXED, ZS_TYPE_INT},
    {"INTEGER", S_FIXED, ZS_TYPE_INT},
    {"BIGINT", S_FIXED, ZS_TYPE_BIGINT},
    {"FLOAT", S_FIXED, ZS_TYPE_FLOAT},
    {"REAL", S_FIXED, ZS_TYPE_FLOAT},
    {"DOUBLE", S_FIXED, ZS_TYPE_DOUBLE},
    {"DOUBLEPRECISION", S_FIXED, ZS_TYPE_DOUBLE},
    {"STRING", S_FIXED, ZS_TYPE_STRING},
    {"BYTES", S_FIXED, ZS_TYPE_BYTES},
    {"BLOB", S_FIXED, ZS_TYPE_BYTES},
    {"DATE", S_FIXED, ZS_TYPE_DATE},
    {"DECIMAL", S_DECIMAL, ZS_TYPE_DECIMAL},
    {"NUMERIC", S_DECIMAL, ZS_TYPE_DECIMAL},
    {"DEC", S_DECIMAL, ZS_TYPE_DECIMAL},
    {"CHAR", S_CHAR, ZS_TYPE_CHAR},
    {"CHARACTER", S_CHAR, ZS_TYPE_CHAR},
    {"VARCHAR", S_VARCHAR, ZS_TYPE_STRING},
    {"BINARY", S_BINARY, ZS_TYPE_BINARY},
    {"VARBINARY", S_VARBINARY, ZS_TYPE_BYTES},
    {"TIME", S_TIME, ZS_TYPE_TIME},
    {"TIMESTAMP", S_TIMESTAMP, ZS_TYPE_TIMESTAMP6},
    {"TIMESTAMP_LTZ", S_LTZ, ZS_TYPE_TIMESTAMP6},
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
    return type == ZS_TYPE_STRING || type == ZS_TYPE_BYTES || type == ZS_TYPE_CHAR
           || type == ZS_TYPE_BINARY;
}

bool
zs_type_is_text (zs_type_t type)
{
    return type == ZS_TYPE_STRING || type == ZS_TYPE_CHAR;
}

__int128
zs_pow10 (int n)
{
    __int128 x = 1;
    for (int i = 0; i < n && i < 38; i++)
        x *= 10;
    return x;
}

int
zs_column_precision (const zs_column_t *col)
{
    if (col->params)
        return col->precision;
    switch (col->type) {
    case ZS_TYPE_DECIMAL:
        return 10;
    case ZS_TYPE_TIMESTAMP3:
        return 3;
    case ZS_TYPE_TIMESTAMP6:
        return 6;
    case ZS_TYPE_TIMESTAMP9:
        return 9;
    default:
        return 0;
    }
}

int
zs_column_scale (const zs_column_t *col)
{
    return col->params ? col->scale : 0;
}

int32_t
zs_column_length (const zs_column_t *col)
{
    if (col->params && col->length > 0)
        return col->length;
    return col->type == ZS_TYPE_CHAR || col->type == ZS_TYPE_BINARY ? 1 : ZS_LENGTH_MAX;
}

const char *
zs_column_type (const zs_column_t *col, char *buf, size_t len)
{
    int p = zs_column_precision (col);
    int32_t n = zs_column_length (col);
    switch (col->type) {
    case ZS_TYPE_DECIMAL:
        snprintf (buf, len, "DECIMAL(%d, %d)", p, zs_column_scale (col));
        break;
    case ZS_TYPE_CHAR:
        snprintf (buf, len, "CHAR(%d)", (int) n);
        break;
    case ZS_TYPE_BINARY:
        snprintf (buf, len, "BINARY(%d)", (int) n);
        break;
    case ZS_TYPE_STRING:
        snprintf (buf, len, n == ZS_LENGTH_MAX ? "STRING" : "VARCHAR(%d)", (int) n);
        break;
    case ZS_TYPE_BYTES:
        snprintf (buf, len, n == ZS_LENGTH_MAX ? "BYTES" : "VARBINARY(%d)", (int) n);
        break;
    case ZS_TYPE_TIME:
        snprintf (buf, len, "TIME(%d)", p);
        break;
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9:
        snprintf (buf, len, "TIMESTAMP(%d)%s", p, col->ltz ? " WITH LOCAL TIME ZONE" : "");
        break;
    default:
        snprintf (buf, len, "%s", zs_type_name (col->type));
        break;
    }
    return buf;
}

//  The kind of a timestamp of precision p (0..9).
static zs_type_t
s_timestamp_kind (int p)
{
    return p <= 3 ? ZS_TYPE_TIMESTAMP3 : p <= 6 ? ZS_TYPE_TIMESTAMP6 : ZS_TYPE_TIMESTAMP9;
}

//  "(a)" or "(a,b)" at s (blanks gone) into args; the count, or -1.
static int
s_type_args (const char *s, long *args)
{
    if (*s == '\0')
        return 0;
    if (*s != '(')
        return -1;
    int n = 0;
    s++;
    while (n < 2) {
        char *end;
        if (*s < '0' || *s > '9')
            return -1;
        args[n++] = strtol (s, &end, 10);
        if (end - s > 10)
            return -1;
        s = end;
        if (*s == ')')
            return s[1] == '\0' ? n : -1;
        if (*s != ',')
            return -1;
        s++;
    }
    return -1;
}

static bool
s_ends_with (char *s, size_t *n, const char *tail)
{
    size_t t = strlen (tail);
    if (*n < t || strcmp (s + *n - t, tail) != 0)
        return false;
    *n -= t;
    s[*n] = '\0';
    return true;
}

//  The parameters of a family into col. 0, or -1 with why.
static int
s_type_params (zs_column_t *col, s_family_t family, int nargs, const long *a, char *why, size_t len)
{
    int most = family == S_FIXED ? 0 : family == S_DECIMAL ? 2 : 1;
    if (nargs > most) {
        snprintf (why, len, "%s", most ? "too many parameters" : "takes no parameters");
        return -1;
    }
    switch (family) {
    case S_FIXED:
        return 0;
    case S_DECIMAL:
        col->precision = nargs ? (uint8_t) (a[0] <= 255 ? a[0] : 255) : 10;
        col->scale = nargs > 1 ? (uint8_t) (a[1] <= 255 ? a[1] : 255) : 0;
        if (nargs && (a[0] < 1 || a[0] > ZS_DECIMAL_MAX_PRECISION)) {
            snprintf (why, len, "precision %ld out of range 1..38", a[0]);
            return -1;
        }
        if (nargs > 1 && a[1] > a[0]) {
            snprintf (why, len, "scale %ld out of range 0..%ld (the precision)", a[1], a[0]);
            return -1;
        }
        return 0;
    case S_CHAR:
    case S_VARCHAR:
    case S_BINARY:
    case S_VARBINARY:
        if (nargs && (a[0] < 1 || a[0] > ZS_LENGTH_MAX)) {
            snprintf (why, len, "length %ld out of range 1..2147483647", a[0]);
            return -1;
        }
        col->length = nargs ? (int32_t) a[0] : family == S_CHAR ? 1 : ZS_LENGTH_MAX;
        if (family == S_BINARY && !nargs)
            col->type = ZS_TYPE_BYTES; //  BINARY alone: BYTES, as zsink always took it
        return 0;
    case S_TIME:
    case S_TIMESTAMP:
    case S_LTZ:
        if (nargs && a[0] > 9) {
            snprintf (why, len, "precision %ld out of range 0..9", a[0]);
            return -1;
        }
        col->precision = (uint8_t) (nargs ? a[0] : family == S_TIME ? 0 : 6);
        if (family != S_TIME)
            col->type = s_timestamp_kind (col->precision);
        return 0;
    }
    return 0;
}

int
zs_column_type_parse (zs_column_t *col, const char *text, size_t len, char *why, size_t whylen)
{
    char norm[64];
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (isspace ((unsigned char) text[i]))
            continue;
        if (n + 1 >= sizeof norm) {
            snprintf (why, whylen, "unknown type '%.*s'", (int) len, text);
            return -1;
        }
        norm[n++] = (char) toupper ((unsigned char) text[i]);
    }
    norm[n] = '\0';
    bool ltz = s_ends_with (norm, &n, "WITHLOCALTIMEZONE");
    bool plain = !ltz && s_ends_with (norm, &n, "WITHOUTTIMEZONE");
    size_t name_len = strcspn (norm, "(");
    long args[2] = {0, 0};
    int nargs = s_type_args (norm + name_len, args);
    for (size_t i = 0; i < sizeof s_names / sizeof s_names[0]; i++) {
        if (strlen (s_names[i].name) != name_len || strncmp (norm, s_names[i].name, name_len))
            continue;
        s_family_t family = s_names[i].family;
        if ((ltz || plain) && family != S_TIMESTAMP)
            break;
        if (nargs < 0) {
            snprintf (why, whylen, "bad parameters in '%.*s'", (int) len, text);
            return -1;
        }
        col->type = s_names[i].type;
        col->params = true;
        col->ltz = ltz || family == S_LTZ;
        col->precision = col->scale = 0;
        col->length = 0;
        if (s_type_params (col, family, nargs, args, why, whylen) != 0)
            return -1;
        if (family == S_VARCHAR && !nargs)
            col->length = ZS_LENGTH_MAX;
        return 0;
    }
    snprintf (why, whylen,
              "unknown type '%.*s' (BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, "
              "DECIMAL(p, s), CHAR(n), VARCHAR(n), STRING, BINARY(n), VARBINARY(n), BYTES, DATE, "
              "TIME(p), TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE)",
              (int) len, text);
    return -1;
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

//  A trailing NOT NULL (any case and spacing) of [p, *tend): false, and
//  *tend moved before it, when there is one.
static bool
s_strip_not_null (const char *p, const char **tend)
{
    const char *end = *tend;
    if (end - p < 8)
        return true;
    const char *q = end;
    while (q > p && isalpha ((unsigned char) q[-1]))
        q--;
    if (end - q != 4 || strncasecmp (q, "NULL", 4) != 0)
        return true;
    const char *r = q;
    while (r > p && isspace ((unsigned char) r[-1]))
        r--;
    const char *s = r;
    while (s > p && isalpha ((unsigned char) s[-1]))
        s--;
    if (r - s != 3 || strncasecmp (s, "NOT", 3) != 0)
        return true;
    while (s > p && isspace ((unsigned char) s[-1]))
        s--;
    *tend = s;
    return false;
}

//  One column (or ROW field) definition "name TYPE [NOT NULL]" (trimmed,
//  non-empty), what is wrong into why.
static int
s_parse_field (zs_schema_t *schema, zs_column_t *col, const char *text, size_t len, char *why,
               size_t whylen)
{
    const char *p = text, *end = text + len;
    const char *name = p;
    //  (a column's name is plain: backticks are for ROW fields only)
    if (name == text && (p == end || !(isalpha ((unsigned char) *p) || *p == '_'))) {
        snprintf (why, whylen, ": '%.*s' does not start with a name", (int) len, text);
        return -1;
    }
    if (name == text)
        while (p < end && (isalnum ((unsigned char) *p) || *p == '_'))
            p++;
    size_t name_len = (size_t) (p - name);
    p += name == text ? 0 : 1;
    memset (col, 0, sizeof *col);
    if (name_len >= sizeof col->name) {
        snprintf (why, whylen, ": name longer than %d bytes", ZS_COLUMN_NAME_MAX - 1);
        return -1;
    }
    memcpy (col->name, name, name_len);
    col->name[name_len] = '\0';
    if (p < end && !isspace ((unsigned char) *p)) {
        snprintf (why, whylen, " '%s': unexpected '%c' in the name", col->name, *p);
        return -1;
    }
    while (p < end && isspace ((unsigned char) *p))
        p++;
    const char *tend = end;
    col->nullable = s_strip_not_null (p, &tend);
    if (tend == p) {
        snprintf (why, whylen, " '%s': no type", col->name);
        return -1;
    }
    char sub[ZS_ERRLEN];
    if (zs_schema_type_parse (schema, col, p, (size_t) (tend - p), sub, sizeof sub) != 0) {
        snprintf (why, whylen, " '%s': %s", col->name, sub);
        return -1;
    }
    return 0;
}

//  One column definition: s_parse_field, the error naming the column.
static int
s_parse_column (zs_schema_t *schema, zs_column_t *col, int index, const char *text, size_t len,
                char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    if (s_parse_field (schema, col, text, len, why, sizeof why) == 0)
        return 0;
    snprintf (err, errlen, "table.schema: column %d%s", index + 1, why);
    return -1;
}

//  The next comma outside parentheses and angle brackets ("DECIMAL(10,
//  2)", "MAP<STRING, INT>"), or NULL.
static const char *
s_next_comma (const char *p)
{
    const char *end = p + strlen (p), *comma = zs_type_comma (p, end);
    return comma == end ? NULL : comma;
}

int
zs_schema_parse (zs_schema_t *self, const char *text, char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    self->id_col = -1;
    const char *p = text;
    while (true) {
        const char *comma = s_next_comma (p);
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
        if (s_parse_column (self, col, self->n, a, (size_t) (b - a), err, errlen) != 0)
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
    size_t cap =
        (size_t) (ZS_MAX_COLUMNS + ZS_MAX_NODES) * (ZS_COLUMN_NAME_MAX + ZS_TYPE_TEXT_MAX + 16);
    char *text_form = malloc (cap);
    self->fingerprint =
        zs_fnv1a (text_form && zs_schema_format (self, text_form, cap) == 0 ? text_form : "");
    free (text_form);
    return 0;
}

//  "name TYPE[ NOT NULL]" of one column.
static int
s_column_text (const zs_schema_t *schema, const zs_column_t *col, char *buf, size_t len)
{
    char type[ZS_SCHEMA_TYPE_TEXT_MAX];
    int n = snprintf (buf, len, "%s %s%s", col->name,
                      zs_schema_type_text (schema, col, type, sizeof type),
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
        if (s_column_text (self, &self->cols[i], buf + used, len - used) != 0)
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
        char a[ZS_COLUMN_NAME_MAX + ZS_SCHEMA_TYPE_TEXT_MAX + 12], b[sizeof a];
        if (i >= table->n) {
            s_column_text (job, &job->cols[i], a, sizeof a);
            snprintf (why, len, "column %d '%s': job has '%s', the table has no such column", i + 1,
                      job->cols[i].name, a);
            return -1;
        }
        if (i >= job->n) {
            s_column_text (table, &table->cols[i], b, sizeof b);
            snprintf (why, len, "column %d '%s': the table has '%s', the job has no such column",
                      i + 1, table->cols[i].name, b);
            return -1;
        }
        s_column_text (job, &job->cols[i], a, sizeof a);
        s_column_text (table, &table->cols[i], b, sizeof b);
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
