/*  partition_filter.c - see partition_filter.h.

    A filter is parsed once against the partitioning and then tested on
    each file's partition row: decoding the row costs no allocation, and
    values compare as values of their key's type (a spec "hr=07" is the
    INT 7), never as text. A comparison with NULL is not true (SQL); IS
    [NOT] NULL tests it.
*/
#include "partition_filter.h"
#include "parquet_priv.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  ---------------------------------------------------------------------
//  Values

int
zs_partition_value_cmp (zs_type_t type, const zs_value_t *a, const zs_value_t *b)
{
    //  every kind's order, as Parquet's statistics have it
    int c = zs_pq_value_cmp (type, a, b);
    return (c > 0) - (c < 0);
}

//  The partitioning of key k alone, to read one key's value from text.
static void
s_one_key (const zs_partition_t *part, int k, zs_partition_t *one)
{
    *one = *part;
    one->n = 1;
    one->col[0] = part->col[k];
    one->def[0] = part->def[k];
    memcpy (one->name[0], part->name[k], sizeof one->name[0]);
}

int
zs_partition_key_index (const zs_partition_t *part, const char *name, size_t len)
{
    for (int k = 0; k < part->n; k++)
        if (strlen (part->name[k]) == len && strncasecmp (part->name[k], name, len) == 0)
            return k;
    return -1;
}

int
zs_partition_key_value (const zs_partition_t *part, int k, const char *v, size_t vlen,
                        zs_value_t *out, char *scratch, size_t scratchlen, char *err, size_t errlen)
{
    zs_partition_t one;
    s_one_key (part, k, &one);
    char spec[ZS_PARTITION_DIR_MAX + ZS_COLUMN_NAME_MAX + 2];
    if (snprintf (spec, sizeof spec, "%s=%.*s", part->name[k], (int) vlen, v)
        >= (int) sizeof spec) {
        snprintf (err, errlen, "partition key '%s': value too long", part->name[k]);
        return -1;
    }
    return zs_partition_parse (&one, spec, ',', out, scratch, scratchlen, err, errlen);
}

//  ---------------------------------------------------------------------
//  Filters

typedef enum { S_EQ, S_NE, S_LT, S_LE, S_GT, S_GE, S_IS_NULL, S_NOT_NULL } s_op_t;

typedef struct {
    int key;
    s_op_t op;
    zs_value_t value;
    char scratch[ZS_PARTITION_DIR_MAX + 8];
} s_cond_t;

#define S_CONDS_MAX 16

struct _zs_partition_filter_t {
    zs_partition_t part;
    int n;
    s_cond_t conds[S_CONDS_MAX];
};

static const char *
s_skip_blank (const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    return p;
}

//  A word ([A-Za-z0-9_]+) at p: its length.
static size_t
s_word (const char *p)
{
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')
           || (p[n] >= '0' && p[n] <= '9') || p[n] == '_')
        n++;
    return n;
}

static bool
s_keyword (const char **p, const char *word)
{
    size_t n = s_word (*p);
    if (n != strlen (word) || strncasecmp (*p, word, n) != 0)
        return false;
    *p = s_skip_blank (*p + n);
    return true;
}

static int
s_parse_op (const char **p, s_op_t *op)
{
    static const struct {
        const char *text;
        s_op_t op;
    } ops[] = {{"<=", S_LE}, {">=", S_GE}, {"<>", S_NE}, {"!=", S_NE},
               {"==", S_EQ}, {"=", S_EQ},  {"<", S_LT},  {">", S_GT}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strncmp (*p, ops[i].text, strlen (ops[i].text)) == 0) {
            *op = ops[i].op;
            *p = s_skip_blank (*p + strlen (ops[i].text));
            return 0;
        }
    if (s_keyword (p, "IS")) {
        bool not = s_keyword (p, "NOT");
        if (s_keyword (p, "NULL")) {
            *op = not ? S_NOT_NULL : S_IS_NULL;
            return 0;
        }
    }
    return -1;
}

//  A literal: 'quoted' ('' a quote) or a bare run up to a blank. Its text
//  into buf.
static int
s_parse_literal (const char **p, char *buf, size_t cap)
{
    size_t n = 0;
    const char *q = *p;
    if (*q == '\'') {
        for (q++;; q++) {
            if (!*q)
                return -1;
            if (*q == '\'' && q[1] != '\'')
                break;
            if (*q == '\'')
                q++;
            if (n + 1 >= cap)
                return -1;
            buf[n++] = *q;
        }
        q++;
    } else
        for (; *q && *q != ' ' && *q != '\t' && *q != '\n'; q++) {
            if (n + 1 >= cap)
                return -1;
            buf[n++] = *q;
        }
    buf[n] = 0;
    *p = s_skip_blank (q);
    return 0;
}

static int
s_cond_parse (zs_partition_filter_t *self, const char **p, s_cond_t *c, char *err, size_t errlen)
{
    const zs_partition_t *part = &self->part;
    size_t n = s_word (*p);
    c->key = n ? zs_partition_key_index (part, *p, n) : -1;
    if (c->key < 0) {
        char keys[ZS_PARTITION_MAX * (ZS_COLUMN_NAME_MAX + 2)] = "";
        for (int k = 0; k < part->n; k++)
            snprintf (keys + strlen (keys), sizeof keys - strlen (keys), "%s%s", k ? ", " : "",
                      part->name[k]);
        snprintf (err, errlen,
                  "--where: '%.*s' is not a partition key (the table's: %s); --where filters "
                  "partitions",
                  n ? (int) n : 16, *p, keys);
        return -1;
    }
    const char *key = *p;
    *p = s_skip_blank (*p + n);
    if (s_parse_op (p, &c->op) != 0) {
        snprintf (err, errlen,
                  "--where: after '%.*s': expected =, !=, <>, <, <=, >, >= or IS [NOT] NULL",
                  (int) n, key);
        return -1;
    }
    if (c->op == S_IS_NULL || c->op == S_NOT_NULL)
        return 0;
    char text[ZS_PARTITION_DIR_MAX], why[ZS_ERRLEN];
    if (s_parse_literal (p, text, sizeof text) != 0 || !text[0]) {
        snprintf (err, errlen, "--where: '%.*s': a value is missing or its quote is not closed",
                  (int) n, key);
        return -1;
    }
    if (zs_partition_key_value (part, c->key, text, strlen (text), &c->value, c->scratch,
                                sizeof c->scratch, why, sizeof why)
            != 0
        || c->value.null) {
        snprintf (err, errlen, "--where: %s", c->value.null ? "compare with IS NULL" : why);
        return -1;
    }
    return 0;
}

zs_partition_filter_t *
zs_partition_filter_parse (const zs_partition_t *part, const char *where, char *err, size_t errlen)
{
    zs_partition_filter_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    self->part = *part;
    const char *p = s_skip_blank (where);
    while (true) {
        if (self->n == S_CONDS_MAX) {
            snprintf (err, errlen, "--where: more than %d comparisons", S_CONDS_MAX);
            break;
        }
        if (s_cond_parse (self, &p, &self->conds[self->n], err, errlen) != 0)
            break;
        self->n++;
        if (!*p)
            return self;
        if (!s_keyword (&p, "AND")) {
            snprintf (err, errlen,
                      "--where: expected AND before '%.32s' (comparisons of partition keys "
                      "joined by AND)",
                      p);
            break;
        }
    }
    free (self);
    return NULL;
}

void
zs_partition_filter_destroy (zs_partition_filter_t **self_p)
{
    free (*self_p);
    *self_p = NULL;
}

static bool
s_cond_true (const zs_partition_t *part, const s_cond_t *c, const zs_value_t *v)
{
    if (c->op == S_IS_NULL || c->op == S_NOT_NULL)
        return v->null == (c->op == S_IS_NULL);
    if (v->null)
        return false; //  SQL: a comparison with NULL is not true
    int cmp = zs_partition_value_cmp (part->def[c->key].type, v, &c->value);
    switch (c->op) {
    case S_EQ:
        return cmp == 0;
    case S_NE:
        return cmp != 0;
    case S_LT:
        return cmp < 0;
    case S_LE:
        return cmp <= 0;
    case S_GT:
        return cmp > 0;
    default:
        return cmp >= 0;
    }
}

bool
zs_partition_filter_match (const zs_partition_filter_t *self, const zs_file_meta_t *f)
{
    zs_value_t values[ZS_PARTITION_MAX];
    char why[ZS_ERRLEN];
    //  a partition that does not decode is kept: the read then says why
    if (zs_partition_decode (&self->part, f->partition, f->partition_len, values, why, sizeof why)
        != 0)
        return true;
    for (int i = 0; i < self->n; i++)
        if (!s_cond_true (&self->part, &self->conds[i], &values[self->conds[i].key]))
            return false;
    return true;
}

size_t
zs_partition_filter_files (const zs_partition_filter_t *self, zs_file_meta_t *files, size_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (zs_partition_filter_match (self, &files[i]))
            files[k++] = files[i];
    size_t skipped = *n - k;
    *n = k;
    return skipped;
}
