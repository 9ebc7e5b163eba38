/*  evolve.c - see evolve.h.

    The casts are Paimon's (CastExecutors: NumericPrimitiveCastRule is a
    Java primitive widening, `(long) i`, `(float) l`, `(double) f`; a
    timestamp of precision 3 holds the same instant at 6): C's conversions
    of the same IEEE values round the same way (to nearest, ties to even),
    so every reader gives the same value.
*/
#include "evolve.h"
#include "fs.h"
#include "io.h"
#include "parquet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  --------------------------------------------------------------------------
//  The schema files

static int
s_load_one (zs_table_schema_t *s, const char *dir, int64_t id, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX + 32], why[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/schema-%lld", dir, (long long) id);
    char *text = zs_io_read_file (path, 1024 * 1024, NULL, why, sizeof why);
    if (!text) {
        snprintf (err, errlen, "%s", why);
        return -1;
    }
    int rc = zs_schema_from_json (s, text, why, sizeof why);
    free (text);
    if (rc == 0 && s->id != id) {
        snprintf (why, sizeof why, "its id is %lld", (long long) s->id);
        rc = ZS_ECORRUPT;
    }
    if (rc != 0) {
        snprintf (err, errlen, "%s: unreadable schema: %s", path, why);
        return rc;
    }
    return 0;
}

int
zs_schemas_load (zs_schemas_t *self, const char *table_path, char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    char dir[ZS_PATH_MAX + 16];
    snprintf (dir, sizeof dir, "%s/schema", table_path);
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = zs_io_list_numbered (dir, "schema-", &ids, &n, err, errlen);
    if (rc == 0 && n == 0)
        rc = ZS_ENOENT;
    if (rc == 0 && !(self->s = calloc (n, sizeof *self->s))) {
        snprintf (err, errlen, "out of memory");
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = s_load_one (&self->s[i], dir, ids[i], err, errlen);
        self->n += rc == 0;
    }
    free (ids);
    if (rc != 0)
        zs_schemas_free (self);
    return rc;
}

void
zs_schemas_free (zs_schemas_t *self)
{
    free (self->s);
    self->s = NULL;
    self->n = 0;
}

int
zs_schemas_copy (zs_schemas_t *dst, const zs_schemas_t *src)
{
    dst->n = 0;
    dst->s = src->n ? malloc (src->n * sizeof *src->s) : NULL;
    if (src->n && !dst->s)
        return -1;
    if (src->n)
        memcpy (dst->s, src->s, src->n * sizeof *src->s);
    dst->n = src->n;
    return 0;
}

const zs_table_schema_t *
zs_schemas_find (const zs_schemas_t *self, int64_t id)
{
    for (size_t i = 0; i < self->n; i++)
        if (self->s[i].id == id)
            return &self->s[i];
    return NULL;
}

const zs_table_schema_t *
zs_schemas_latest (const zs_schemas_t *self)
{
    return self->n ? &self->s[self->n - 1] : NULL;
}

int
zs_schemas_check (const zs_schemas_t *self, char *err, size_t errlen)
{
    const zs_table_schema_t *latest = zs_schemas_latest (self);
    //  a primary-key table's files are read by no schema (its rows are
    //  the files merged by key): said first, whatever else is wrong
    char pk[ZS_ERRLEN];
    if (latest && zs_schema_append_table (latest, pk, sizeof pk) != 0) {
        snprintf (err, errlen, "it is %s", pk);
        return -1;
    }
    zs_evolve_t plan;
    for (size_t i = 0; latest && i + 1 < self->n; i++)
        if (zs_evolve_plan (&self->s[i], latest, &plan, err, errlen) != 0)
            return -1;
    return 0;
}

//  --------------------------------------------------------------------------
//  The mapping

bool
zs_evolve_casts (zs_type_t a, bool a_nullable, zs_type_t b, bool b_nullable)
{
    zs_column_t x = {.type = a, .nullable = a_nullable}, y = {.type = b, .nullable = b_nullable};
    return zs_evolve_casts_col (&x, &y);
}

//  Integer kinds in widening order, -1 for the others.
static int
s_int_rank (zs_type_t t)
{
    return t == ZS_TYPE_TINYINT    ? 0
           : t == ZS_TYPE_SMALLINT ? 1
           : t == ZS_TYPE_INT      ? 2
           : t == ZS_TYPE_BIGINT   ? 3
                                   : -1;
}

static int
s_ts_rank (zs_type_t t)
{
    return t == ZS_TYPE_TIMESTAMP3   ? 0
           : t == ZS_TYPE_TIMESTAMP6 ? 1
           : t == ZS_TYPE_TIMESTAMP9 ? 2
                                     : -1;
}

bool
zs_evolve_casts_col (const zs_column_t *a, const zs_column_t *b)
{
    if (a->nullable && !b->nullable)
        return false;
    zs_type_t x = a->type, y = b->type;
    int ra = s_int_rank (x), rb = s_int_rank (y);
    if (ra >= 0 && (rb >= ra || y == ZS_TYPE_FLOAT || y == ZS_TYPE_DOUBLE))
        return true;
    if (x == ZS_TYPE_FLOAT)
        return y == ZS_TYPE_FLOAT || y == ZS_TYPE_DOUBLE;
    if (s_ts_rank (x) >= 0)
        return s_ts_rank (y) >= 0 && a->ltz == b->ltz
               && zs_column_precision (b) >= zs_column_precision (a);
    if (x == ZS_TYPE_DECIMAL) {
        int pa = zs_column_precision (a), sa = zs_column_scale (a);
        int pb = zs_column_precision (b), sb = zs_column_scale (b);
        return y == ZS_TYPE_DECIMAL && sb >= sa && pb - sb >= pa - sa;
    }
    if (zs_type_is_binary (x)) {
        bool text = zs_type_is_text (x);
        if (text != zs_type_is_text (y))
            return false;
        if (x == y && (x == ZS_TYPE_CHAR || x == ZS_TYPE_BINARY))
            return zs_column_length (a) == zs_column_length (b);
        return (y == ZS_TYPE_STRING || y == ZS_TYPE_BYTES)
               && zs_column_length (b) >= zs_column_length (a);
    }
    return x == y; //  BOOLEAN, DOUBLE, DATE, TIME
}

bool
zs_evolve_same_storage (const zs_column_t *parquet, const zs_column_t *col)
{
    zs_type_t x = parquet->type, y = col->type;
    if (x == ZS_TYPE_STRING && y == ZS_TYPE_CHAR)
        return true;
    if (x == ZS_TYPE_BYTES && y == ZS_TYPE_BINARY)
        return true;
    if (x == ZS_TYPE_DECIMAL && y == ZS_TYPE_DECIMAL)
        return zs_column_scale (parquet) == zs_column_scale (col)
               && zs_column_precision (parquet) <= zs_column_precision (col);
    return x == y;
}

//  Nested columns evolve by nothing but NOT NULL to nullable at the top:
//  the same kinds, children, field names and nullability all the way
//  down, and leaves alike (storage: a file's leaf as zs_evolve_same_storage
//  takes it; otherwise the same SQL type).
static bool
s_nested_match (const zs_schema_t *sa, const zs_column_t *a, const zs_schema_t *sb,
                const zs_column_t *b, bool storage, int depth)
{
    if (!zs_type_is_nested (a->type) || !zs_type_is_nested (b->type)) {
        if (zs_type_is_nested (a->type) || zs_type_is_nested (b->type))
            return false;
        if (storage)
            return zs_evolve_same_storage (a, b);
        char ta[ZS_TYPE_TEXT_MAX], tb[ZS_TYPE_TEXT_MAX];
        return strcmp (zs_column_type (a, ta, sizeof ta), zs_column_type (b, tb, sizeof tb)) == 0;
    }
    if (a->type != b->type || a->nchild != b->nchild || depth > ZS_MAX_DEPTH)
        return false;
    for (int i = 0; i < a->nchild; i++) {
        const zs_column_t *x = zs_schema_child (sa, a, i), *y = zs_schema_child (sb, b, i);
        if (x->nullable != y->nullable || (a->type == ZS_TYPE_ROW && strcmp (x->name, y->name))
            || !s_nested_match (sa, x, sb, y, storage, depth + 1))
            return false;
    }
    return true;
}

static bool
s_nested_same (const zs_schema_t *sa, const zs_column_t *a, const zs_schema_t *sb,
               const zs_column_t *b, bool storage)
{
    if (!zs_type_is_nested (a->type) && !zs_type_is_nested (b->type))
        return true;
    return s_nested_match (sa, a, sb, b, storage, 0);
}

static int
s_refuse (const zs_table_schema_t *from, int j, const zs_table_schema_t *to, int i, char *err,
          size_t errlen)
{
    const zs_column_t *a = &from->row.cols[j], *b = &to->row.cols[i];
    char was[64] = "", now[64] = "", ta[ZS_TYPE_TEXT_MAX], tb[ZS_TYPE_TEXT_MAX];
    snprintf (was, sizeof was, "%s%s", zs_column_type (a, ta, sizeof ta),
              a->nullable ? "" : " NOT NULL");
    snprintf (now, sizeof now, "%s%s", zs_column_type (b, tb, sizeof tb),
              b->nullable ? "" : " NOT NULL");
    char name[2 * ZS_COLUMN_NAME_MAX + 16];
    if (strcmp (a->name, b->name) == 0)
        snprintf (name, sizeof name, "'%s'", b->name);
    else
        snprintf (name, sizeof name, "'%s' (was '%s')", b->name, a->name);
    snprintf (err, errlen,
              "column %s (field %d): schema %lld has %s, schema %lld has %s: a type change zsink "
              "cannot convert (it converts INT to BIGINT/FLOAT/DOUBLE, BIGINT to FLOAT/DOUBLE, "
              "FLOAT to DOUBLE, TIMESTAMP(3) to TIMESTAMP(6), NOT NULL to nullable; "
              "TINYINT/SMALLINT to wider, DECIMAL to more digits, VARCHAR/VARBINARY to longer, "
              "TIMESTAMP(p) to TIMESTAMP(q >= p))",
              name, to->field_id[i], (long long) from->id, was, (long long) to->id, now);
    return -1;
}

int
zs_evolve_plan (const zs_table_schema_t *from, const zs_table_schema_t *to, zs_evolve_t *self,
                char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    self->n = to->row.n;
    self->identity = from->row.n == to->row.n;
    for (int i = 0; i < to->row.n; i++) {
        int j = 0;
        while (j < from->row.n && from->field_id[j] != to->field_id[i])
            j++;
        self->to[i] = to->row.cols[i].type;
        if (j == from->row.n) {
            if (!to->row.cols[i].nullable) {
                snprintf (err, errlen,
                          "column '%s' (field %d): schema %lld has it NOT NULL, schema %lld has "
                          "no such column: its rows have no value for it",
                          to->row.cols[i].name, to->field_id[i], (long long) to->id,
                          (long long) from->id);
                return -1;
            }
            self->src[i] = -1;
            self->from[i] = self->to[i];
            self->identity = false;
            continue;
        }
        const zs_column_t *a = &from->row.cols[j], *b = &to->row.cols[i];
        if (!zs_evolve_casts_col (a, b) || !s_nested_same (&from->row, a, &to->row, b, false))
            return s_refuse (from, j, to, i, err, errlen);
        self->src[i] = j;
        self->from[i] = a->type;
        if (a->type == ZS_TYPE_DECIMAL)
            self->rescale[i] = (int8_t) (zs_column_scale (b) - zs_column_scale (a));
        self->identity = self->identity && j == i && a->type == b->type && self->rescale[i] == 0;
    }
    return 0;
}

static void
s_cast (zs_type_t from, zs_type_t to, int rescale, const zs_value_t *in, zs_value_t *out)
{
    *out = *in;
    if (in->null)
        return;
    if (from == ZS_TYPE_DECIMAL && rescale > 0) {
        zs_dec_set (out, zs_dec_get (in) * zs_pow10 (rescale));
        return;
    }
    if (from == to)
        return;
    bool small = from == ZS_TYPE_TINYINT || from == ZS_TYPE_SMALLINT;
    if (small && (to == ZS_TYPE_SMALLINT || to == ZS_TYPE_INT))
        return; //  the same i32
    if (small && to == ZS_TYPE_BIGINT)
        out->v.i64 = (int64_t) in->v.i32;
    else if (small && to == ZS_TYPE_FLOAT)
        out->v.f32 = (float) in->v.i32;
    else if (small && to == ZS_TYPE_DOUBLE)
        out->v.f64 = (double) in->v.i32;
    else if (from == ZS_TYPE_TIMESTAMP3 && to == ZS_TYPE_TIMESTAMP9)
        out->v.i64 = in->v.i64 * 1000000;
    else if (from == ZS_TYPE_TIMESTAMP6 && to == ZS_TYPE_TIMESTAMP9)
        out->v.i64 = in->v.i64 * 1000;
    else if (from == ZS_TYPE_INT && to == ZS_TYPE_BIGINT)
        out->v.i64 = (int64_t) in->v.i32;
    else if (from == ZS_TYPE_INT && to == ZS_TYPE_FLOAT)
        out->v.f32 = (float) in->v.i32;
    else if (from == ZS_TYPE_INT && to == ZS_TYPE_DOUBLE)
        out->v.f64 = (double) in->v.i32;
    else if (from == ZS_TYPE_BIGINT && to == ZS_TYPE_FLOAT)
        out->v.f32 = (float) in->v.i64;
    else if (from == ZS_TYPE_BIGINT && to == ZS_TYPE_DOUBLE)
        out->v.f64 = (double) in->v.i64;
    else if (from == ZS_TYPE_FLOAT && to == ZS_TYPE_DOUBLE)
        out->v.f64 = (double) in->v.f32;
    else if (from == ZS_TYPE_TIMESTAMP3 && to == ZS_TYPE_TIMESTAMP6)
        out->v.i64 = in->v.i64 * 1000;
}

void
zs_evolve_row (const zs_evolve_t *self, const zs_value_t *in, zs_value_t *out)
{
    for (int i = 0; i < self->n; i++) {
        if (self->src[i] < 0)
            out[i] = (zs_value_t){.null = true};
        else
            s_cast (self->from[i], self->to[i], self->rescale[i], &in[self->src[i]], &out[i]);
    }
}

static int
s_column_index (const zs_table_schema_t *s, int field_id)
{
    for (int i = 0; i < s->row.n; i++)
        if (s->field_id[i] == field_id)
            return i;
    return -1;
}

static void
s_type_text (const zs_column_t *c, char *buf, size_t len)
{
    char t[ZS_TYPE_TEXT_MAX];
    snprintf (buf, len, "%s%s", zs_column_type (c, t, sizeof t), c->nullable ? "" : " NOT NULL");
}

static int
s_change (zs_schema_change_t *out, int max, int n, const char *what, int field_id)
{
    if (n < max) {
        snprintf (out[n].what, sizeof out[n].what, "%s", what);
        out[n].field_id = field_id;
        out[n].text[0] = '\0';
    }
    return n + 1;
}

int
zs_evolve_changes (const zs_table_schema_t *prev, const zs_table_schema_t *cur,
                   zs_schema_change_t *out, int max)
{
    int n = 0;
    size_t tl = sizeof out->text;
    for (int i = 0; i < cur->row.n; i++) {
        const zs_column_t *b = &cur->row.cols[i];
        char tb[64], ta[64];
        s_type_text (b, tb, sizeof tb);
        int j = s_column_index (prev, cur->field_id[i]);
        if (j < 0) {
            if ((n = s_change (out, max, n, "added", cur->field_id[i])) <= max)
                snprintf (out[n - 1].text, tl, "%s %s", b->name, tb);
            continue;
        }
        const zs_column_t *a = &prev->row.cols[j];
        s_type_text (a, ta, sizeof ta);
        if (strcmp (a->name, b->name) != 0
            && (n = s_change (out, max, n, "renamed", cur->field_id[i])) <= max)
            snprintf (out[n - 1].text, tl, "%s -> %s", a->name, b->name);
        if (strcmp (ta, tb) != 0
            && (n = s_change (out, max, n, "retyped", cur->field_id[i])) <= max)
            snprintf (out[n - 1].text, tl, "%s %s -> %s", b->name, ta, tb);
    }
    for (int j = 0; j < prev->row.n; j++)
        if (s_column_index (cur, prev->field_id[j]) < 0
            && (n = s_change (out, max, n, "dropped", prev->field_id[j])) <= max)
            snprintf (out[n - 1].text, tl, "%s", prev->row.cols[j].name);
    return n;
}

//  --------------------------------------------------------------------------
//  Reading a data file

int
zs_evolve_check_file (const zs_schema_t *parquet, const zs_table_schema_t *file, int *map,
                      char *err, size_t errlen)
{
    for (int j = 0; j < file->row.n; j++) {
        const zs_column_t *c = &file->row.cols[j];
        int p = 0;
        while (p < parquet->n && strcmp (parquet->cols[p].name, c->name) != 0)
            p++;
        if (p == parquet->n)
            for (p = 0; p < parquet->n && strcasecmp (parquet->cols[p].name, c->name) != 0;)
                p++;
        if (p == parquet->n) {
            snprintf (err, errlen, "no column '%s', which its schema %lld has", c->name,
                      (long long) file->id);
            return -1;
        }
        if (!zs_evolve_same_storage (&parquet->cols[p], c)
            || !s_nested_same (parquet, &parquet->cols[p], &file->row, c, true)) {
            char ta[ZS_SCHEMA_TYPE_TEXT_MAX], tb[ZS_SCHEMA_TYPE_TEXT_MAX];
            snprintf (err, errlen, "column '%s' is %s in the file, %s in its schema %lld", c->name,
                      zs_schema_type_text (parquet, &parquet->cols[p], ta, sizeof ta),
                      zs_schema_type_text (&file->row, c, tb, sizeof tb), (long long) file->id);
            return -1;
        }
        if (map)
            map[j] = p;
    }
    //  Paimon's key columns: a primary-key table's file (its schema may
    //  not say so: a schema written by hand, a file copied)
    for (int p = 0; p < parquet->n; p++)
        if (strncmp (parquet->cols[p].name, "_KEY_", 5) == 0) {
            snprintf (err, errlen, "column %d '%s' is a primary-key table's key column: %s", p + 1,
                      parquet->cols[p].name, ZS_SCHEMA_APPEND_TABLES);
            return -1;
        }
    if (parquet->n != file->row.n) {
        snprintf (err, errlen, "%d columns, its schema %lld has %d", parquet->n,
                  (long long) file->id, file->row.n);
        return -1;
    }
    return 0;
}

struct _zs_evolved_reader_t {
    zs_parquet_reader_t *pq;
    zs_evolve_t plan; //  src[] are Parquet columns here
    zs_value_t in[ZS_MAX_COLUMNS];
};

zs_evolved_reader_t *
zs_evolved_reader_open (const char *path, const zs_table_schema_t *file,
                        const zs_table_schema_t *want, char *err, size_t errlen)
{
    zs_evolved_reader_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    char why[ZS_ERRLEN];
    int map[ZS_MAX_COLUMNS];
    if (zs_evolve_plan (file, want, &self->plan, why, sizeof why) != 0) {
        snprintf (err, errlen, "%s: %s", path, why);
        free (self);
        return NULL;
    }
    self->pq = zs_parquet_reader_open (path, err, errlen);
    if (!self->pq) {
        free (self);
        return NULL;
    }
    const zs_schema_t *pqs = zs_parquet_reader_schema (self->pq);
    if (zs_evolve_check_file (pqs, file, map, why, sizeof why) != 0) {
        snprintf (err, errlen, "%s: not a file of schema %lld: %s", path, (long long) file->id,
                  why);
        zs_evolved_reader_destroy (&self);
        return NULL;
    }
    for (int i = 0; i < self->plan.n; i++)
        if (self->plan.src[i] >= 0)
            self->plan.src[i] = map[self->plan.src[i]];
    self->plan.identity = self->plan.identity && pqs->n == want->row.n;
    for (int i = 0; self->plan.identity && i < self->plan.n; i++)
        self->plan.identity = self->plan.src[i] == i;
    return self;
}

int
zs_evolved_reader_next (zs_evolved_reader_t *self, zs_value_t *row, char *err, size_t errlen)
{
    if (self->plan.identity)
        return zs_parquet_reader_next (self->pq, row, err, errlen);
    int got = zs_parquet_reader_next (self->pq, self->in, err, errlen);
    if (got == 1)
        zs_evolve_row (&self->plan, self->in, row);
    return got;
}

void
zs_evolved_reader_destroy (zs_evolved_reader_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_parquet_reader_destroy (&(*self_p)->pq);
    free (*self_p);
    *self_p = NULL;
}
