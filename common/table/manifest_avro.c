/*  manifest_avro.c - manifests and manifest lists as Avro (manifest.h).

    Written with the schemas Paimon Java writes, their text verbatim (pypaimon
    and Paimon's newer readers look at it); read from any writer's schema by
    field name, skipping what we do not know, so manifests of older and
    newer Paimon versions read too.
*/
#include "manifest.h"
#include "binrow.h"
#include "parquet_priv.h"
#include "stats.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char s_entry_schema[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_KIND\",\"type\":\"int\"},"
    "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},{\"name\":\"_BUCKET\",\"type\":\"int\"},"
    "{\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},{\"name\":\"_FILE\",\"type\":{\"type\":"
    "\"record\",\"name\":\"record__FILE\",\"fields\":[{\"name\":\"_FILE_NAME\",\"type\":"
    "\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_ROW_COUNT\",\"type\":"
    "\"long\"},{\"name\":\"_MIN_KEY\",\"type\":\"bytes\"},{\"name\":\"_MAX_KEY\",\"type\":"
    "\"bytes\"},{\"name\":\"_KEY_STATS\",\"type\":{\"type\":\"record\",\"name\":"
    "\"record__FILE__KEY_STATS\",\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"
    "{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":"
    "[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
    "{\"name\":\"_VALUE_STATS\",\"type\":{\"type\":\"record\",\"name\":"
    "\"record__FILE__VALUE_STATS\",\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"
    "{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":"
    "[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
    "{\"name\":\"_MIN_SEQUENCE_NUMBER\",\"type\":\"long\"},{\"name\":"
    "\"_MAX_SEQUENCE_NUMBER\",\"type\":\"long\"},{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},"
    "{\"name\":\"_LEVEL\",\"type\":\"int\"},{\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":"
    "\"array\",\"items\":\"string\"}},{\"name\":\"_CREATION_TIME\",\"type\":[\"null\","
    "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}],\"default\":null},"
    "{\"name\":\"_DELETE_ROW_COUNT\",\"type\":[\"null\",\"long\"],\"default\":null},"
    "{\"name\":\"_EMBEDDED_FILE_INDEX\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
    "{\"name\":\"_FILE_SOURCE\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":"
    "\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],"
    "\"default\":null},{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],"
    "\"default\":null},{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":"
    "null},{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":"
    "\"string\"}],\"default\":null}]}}]}";

static const char s_list_schema[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_FILE_NAME\",\"type\":"
    "\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_NUM_ADDED_FILES\","
    "\"type\":\"long\"},{\"name\":\"_NUM_DELETED_FILES\",\"type\":\"long\"},{\"name\":"
    "\"_PARTITION_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__PARTITION_STATS\","
    "\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\","
    "\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\","
    "\"items\":[\"null\",\"long\"]}],\"default\":null}]}},{\"name\":\"_SCHEMA_ID\",\"type\":"
    "\"long\"},{\"name\":\"_MIN_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},"
    "{\"name\":\"_MAX_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":"
    "\"_MIN_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MAX_LEVEL\","
    "\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MIN_ROW_ID\",\"type\":"
    "[\"null\",\"long\"],\"default\":null},{\"name\":\"_MAX_ROW_ID\",\"type\":[\"null\","
    "\"long\"],\"default\":null}]}";

//  The version Paimon writes in _VERSION (VersionedObjectSerializer): 2
//  since 0.9; the fields are read by name, whatever it says.
#define S_VERSION 2

//  The empty BinaryRow: arity 0, then 8 bytes of header.
static const uint8_t s_empty_row[12] = {0};

//  --------------------------------------------------------------------------
//  Writing

//  Empty SimpleStats: the key stats of an append table, partition stats.
static void
s_enc_empty_stats (zs_avro_enc_t *e)
{
    zs_avro_enc_bytes (e, s_empty_row, sizeof s_empty_row);
    zs_avro_enc_bytes (e, s_empty_row, sizeof s_empty_row);
    zs_avro_enc_union (e, 1);
    zs_avro_enc_array_start (e, 0);
    zs_avro_enc_array_end (e);
}

static void
s_enc_file (zs_avro_enc_t *e, const zs_file_meta_t *f, const char *name)
{
    zs_stats_t none;
    const zs_stats_t *st = &f->stats;
    if (st->len == 0) {
        zs_stats_none (&none);
        st = &none;
    }
    zs_avro_enc_string (e, name);
    zs_avro_enc_long (e, f->size);
    zs_avro_enc_long (e, f->rows);
    zs_avro_enc_bytes (e, s_empty_row, sizeof s_empty_row); //  _MIN_KEY
    zs_avro_enc_bytes (e, s_empty_row, sizeof s_empty_row); //  _MAX_KEY
    s_enc_empty_stats (e);                                  //  _KEY_STATS
    zs_avro_enc_fixed (e, st->blob, st->cols_at);           //  _VALUE_STATS
    zs_avro_enc_long (e, f->min_seq);
    zs_avro_enc_long (e, f->max_seq);
    zs_avro_enc_long (e, f->schema_id);
    zs_avro_enc_int (e, f->level);
    zs_avro_enc_array_start (e, 0); //  _EXTRA_FILES
    zs_avro_enc_array_end (e);
    zs_avro_enc_union (e, 1);
    zs_avro_enc_long (e, f->creation_ms);
    zs_avro_enc_union (e, f->delete_rows >= 0);
    if (f->delete_rows >= 0)
        zs_avro_enc_long (e, f->delete_rows);
    zs_avro_enc_union (e, 0); //  _EMBEDDED_FILE_INDEX
    zs_avro_enc_union (e, f->file_source >= 0);
    if (f->file_source >= 0)
        zs_avro_enc_int (e, f->file_source);
    zs_avro_enc_fixed (e, st->blob + st->cols_at, (size_t) (st->len - st->cols_at));
    zs_avro_enc_union (e, 0); //  _EXTERNAL_PATH
    zs_avro_enc_union (e, 0); //  _FIRST_ROW_ID
    zs_avro_enc_union (e, 0); //  _WRITE_COLS
}

//  The OCF of what fill writes, one object per item.
typedef int (s_fill_fn) (zs_avro_enc_t *e, const void *items, size_t i, char *err, size_t errlen);

static uint8_t *
s_encode (const char *schema, const void *items, size_t n, s_fill_fn *fill, zs_avro_codec_t codec,
          size_t *len, char *err, size_t errlen)
{
    //  level 1: Paimon's file.compression.zstd-level, used for manifests too
    zs_avro_writer_t *w = zs_avro_writer_new (schema, codec, 1, err, errlen);
    if (!w)
        return NULL;
    uint8_t *copy = NULL;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        zs_avro_enc_t *e = zs_avro_writer_object (w);
        rc = e ? fill (e, items, i, err, errlen) : -1;
        if (rc == 0 && zs_avro_writer_object_end (w) != 0)
            rc = -1;
    }
    const uint8_t *data = rc == 0 ? zs_avro_writer_finish (w, len) : NULL;
    if (data && (copy = malloc (*len ? *len : 1)))
        memcpy (copy, data, *len);
    else if (rc == 0)
        snprintf (err, errlen, "out of memory encoding a manifest");
    zs_avro_writer_destroy (&w);
    return copy;
}

static int
s_fill_entry (zs_avro_enc_t *e, const void *items, size_t i, char *err, size_t errlen)
{
    const zs_manifest_entry_t *m = (const zs_manifest_entry_t *) items + i;
    int bucket;
    const char *name;
    size_t dir_len;
    if (zs_data_path_split (m->file.path, &dir_len, &bucket, &name, err, errlen) != 0)
        return -1;
    if ((dir_len > 0) != (m->file.partition_len > 0)
        || m->file.partition_len > ZS_FILE_PARTITION_MAX) {
        snprintf (err, errlen, "data file '%s': %s", m->file.path,
                  dir_len ? "in a partition directory without a partition row"
                          : "has a partition row but no partition directory");
        return -1;
    }
    zs_avro_enc_int (e, S_VERSION);
    zs_avro_enc_int (e, m->add ? 0 : 1);
    if (m->file.partition_len) //  _PARTITION
        zs_avro_enc_bytes (e, m->file.partition, m->file.partition_len);
    else
        zs_avro_enc_bytes (e, s_empty_row, sizeof s_empty_row);
    zs_avro_enc_int (e, bucket);
    zs_avro_enc_int (e, m->total_buckets);
    s_enc_file (e, &m->file, name);
    return 0;
}

uint8_t *
zs_manifest_encode (const zs_manifest_entry_t *entries, size_t n, zs_avro_codec_t codec,
                    size_t *len, char *err, size_t errlen)
{
    return s_encode (s_entry_schema, entries, n, s_fill_entry, codec, len, err, errlen);
}

static int
s_fill_meta (zs_avro_enc_t *e, const void *items, size_t i, char *err, size_t errlen)
{
    const zs_manifest_meta_t *m = (const zs_manifest_meta_t *) items + i;
    zs_avro_enc_int (e, S_VERSION);
    zs_avro_enc_string (e, m->file);
    zs_avro_enc_long (e, m->file_size);
    zs_avro_enc_long (e, m->added_files);
    zs_avro_enc_long (e, m->deleted_files);
    const zs_stats_t *ps = &m->partition_stats; //  _PARTITION_STATS
    if (ps->len)
        zs_avro_enc_fixed (e, ps->blob, ps->len);
    else
        s_enc_empty_stats (e);
    zs_avro_enc_long (e, m->schema_id);
    for (int k = 0; k < 4; k++) { //  bucket and level ranges: 0 … 0
        zs_avro_enc_union (e, 1);
        zs_avro_enc_int (e, 0);
    }
    zs_avro_enc_union (e, 0); //  _MIN_ROW_ID
    zs_avro_enc_union (e, 0); //  _MAX_ROW_ID
    return 0;
}

uint8_t *
zs_manifest_list_encode (const zs_manifest_meta_t *metas, size_t n, zs_avro_codec_t codec,
                         size_t *len, char *err, size_t errlen)
{
    return s_encode (s_list_schema, metas, n, s_fill_meta, codec, len, err, errlen);
}

//  --------------------------------------------------------------------------
//  Reading, by field name against the writer's schema

typedef struct {
    zs_avro_dec_t *d;
    char *err;
    size_t errlen;
    char where[48];             //  "entry 3", for messages
    const zs_partition_t *part; //  the table's partitioning (entries), or NULL
} s_rd_t;

static int
s_bad (s_rd_t *r, const char *field, const char *what)
{
    snprintf (r->err, r->errlen, "%s: %s %s", r->where, field, what);
    return -1;
}

//  The branch of a ["null", T] union (the value type otherwise): *t becomes
//  T, *null whether the value is null. 0 or -1.
static int
s_dec_nullable (s_rd_t *r, const char *field, const zs_avro_node_t **t, bool *null)
{
    *null = false;
    if ((*t)->kind != ZS_AVRO_UNION)
        return 0;
    int b = 0;
    if ((*t)->size != 2 || zs_avro_dec_union (r->d, 2, &b) != 0)
        return s_bad (r, field, r->d->error ? r->d->error : "is a union of more than two");
    *t = (*t)->types[b];
    *null = (*t)->kind == ZS_AVRO_NULL;
    return 0;
}

//  An int or long (or a nullable one; null reads as dflt).
static int
s_dec_num (s_rd_t *r, const char *field, const zs_avro_node_t *t, int64_t dflt, int64_t *v)
{
    bool null;
    if (s_dec_nullable (r, field, &t, &null) != 0)
        return -1;
    *v = dflt;
    if (null)
        return 0;
    int32_t x = 0;
    int rc = t->kind == ZS_AVRO_LONG  ? zs_avro_dec_long (r->d, v)
             : t->kind == ZS_AVRO_INT ? zs_avro_dec_int (r->d, &x)
                                      : s_bad (r, field, "is not a number");
    if (t->kind == ZS_AVRO_INT)
        *v = x;
    return rc == 0 ? 0 : r->d->error ? s_bad (r, field, r->d->error) : -1;
}

//  A string or bytes (or a nullable one: *p NULL when null).
static int
s_dec_text (s_rd_t *r, const char *field, const zs_avro_node_t *t, const uint8_t **p, size_t *len)
{
    bool null;
    if (s_dec_nullable (r, field, &t, &null) != 0)
        return -1;
    *p = NULL;
    *len = 0;
    if (null)
        return 0;
    if (t->kind != ZS_AVRO_STRING && t->kind != ZS_AVRO_BYTES)
        return s_bad (r, field, "is not a string");
    if (zs_avro_dec_bytes (r->d, p, len) != 0)
        return s_bad (r, field, r->d->error);
    return 0;
}

//  An array (or a nullable one): each item through fn. *count items read
//  (-1: null).
typedef int (s_item_fn) (s_rd_t *r, const zs_avro_node_t *t, int64_t i, void *arg);

static int
s_dec_array (s_rd_t *r, const char *field, const zs_avro_node_t *t, s_item_fn *fn, void *arg,
             int64_t *count)
{
    bool null;
    if (s_dec_nullable (r, field, &t, &null) != 0)
        return -1;
    *count = -1;
    if (null)
        return 0;
    if (t->kind != ZS_AVRO_ARRAY)
        return s_bad (r, field, "is not an array");
    *count = 0;
    int64_t n = 0, size = 0;
    while (zs_avro_dec_block (r->d, &n, &size) == 0 && n > 0)
        for (int64_t i = 0; i < n; i++, ++*count)
            if (fn (r, t->types[0], *count, arg) != 0)
                return -1;
    return r->d->error ? s_bad (r, field, r->d->error) : 0;
}

//  A record's fields in the writer's order: fn takes the ones it knows
//  (returns 1), the rest are skipped.
typedef int (s_field_fn) (s_rd_t *r, const char *name, const zs_avro_node_t *t, void *arg);

static int
s_dec_record (s_rd_t *r, const char *field, const zs_avro_node_t *t, s_field_fn *fn, void *arg)
{
    if (t->kind != ZS_AVRO_RECORD)
        return s_bad (r, field, "is not a record");
    for (int i = 0; i < t->size; i++) {
        int rc = fn (r, t->names[i], t->types[i], arg);
        if (rc < 0)
            return -1;
        if (rc == 0 && zs_avro_dec_skip (r->d, t->types[i]) != 0)
            return s_bad (r, t->names[i], r->d->error);
    }
    return 0;
}

//  ---- value statistics: decoded, and re-encoded as our blob (stats.h) ----

typedef struct {
    const uint8_t *min, *max;
    size_t lmin, lmax;
    int64_t nulls[ZS_MAX_COLUMNS];
    int64_t n_nulls; //  -1: null
    const uint8_t *cols[ZS_MAX_COLUMNS];
    size_t lcols[ZS_MAX_COLUMNS];
    int64_t n_cols; //  -1: null (every column)
    bool seen;
} s_stats_t;

static int
s_null_count (s_rd_t *r, const zs_avro_node_t *t, int64_t i, void *arg)
{
    s_stats_t *s = arg;
    if (i >= ZS_MAX_COLUMNS)
        return s_bad (r, "_NULL_COUNTS", "has more items than columns");
    return s_dec_num (r, "_NULL_COUNTS", t, -1, &s->nulls[i]);
}

static int
s_stats_field (s_rd_t *r, const char *name, const zs_avro_node_t *t, void *arg)
{
    s_stats_t *s = arg;
    if (strcmp (name, "_MIN_VALUES") == 0)
        return s_dec_text (r, name, t, &s->min, &s->lmin) ? -1 : 1;
    if (strcmp (name, "_MAX_VALUES") == 0)
        return s_dec_text (r, name, t, &s->max, &s->lmax) ? -1 : 1;
    if (strcmp (name, "_NULL_COUNTS") == 0)
        return s_dec_array (r, name, t, s_null_count, s, &s->n_nulls) ? -1 : 1;
    return 0;
}

static int
s_stats_col (s_rd_t *r, const zs_avro_node_t *t, int64_t i, void *arg)
{
    s_stats_t *s = arg;
    if (i >= ZS_MAX_COLUMNS)
        return s_bad (r, "_VALUE_STATS_COLS", "has more names than columns");
    return s_dec_text (r, "_VALUE_STATS_COLS", t, &s->cols[i], &s->lcols[i]);
}

static int
s_stats_blob (s_rd_t *r, const s_stats_t *s, zs_stats_t *out)
{
    if (!s->seen || !s->min || !s->max) {
        zs_stats_none (out);
        return 0;
    }
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_bytes (&e, s->min, s->lmin);
    zs_avro_enc_bytes (&e, s->max, s->lmax);
    zs_avro_enc_union (&e, s->n_nulls >= 0);
    if (s->n_nulls >= 0) {
        zs_avro_enc_array_start (&e, (size_t) s->n_nulls);
        for (int64_t i = 0; i < s->n_nulls; i++) {
            zs_avro_enc_union (&e, s->nulls[i] >= 0);
            if (s->nulls[i] >= 0)
                zs_avro_enc_long (&e, s->nulls[i]);
        }
        zs_avro_enc_array_end (&e);
    }
    zs_avro_enc_union (&e, s->n_cols >= 0);
    if (s->n_cols >= 0) {
        zs_avro_enc_array_start (&e, (size_t) s->n_cols);
        for (int64_t i = 0; i < s->n_cols; i++)
            zs_avro_enc_bytes (&e, s->cols[i], s->lcols[i]);
        zs_avro_enc_array_end (&e);
    }
    int rc = 0;
    if (!e.ok || e.len > ZS_STATS_MAX)
        zs_stats_none (out); //  too large to keep: as if none (no file skipped on it)
    else if (zs_stats_set (out, e.data, e.len, r->err, r->errlen) != 0)
        rc = -1;
    zs_avro_enc_fini (&e);
    return rc;
}

//  ---- one data file ----

typedef struct {
    zs_manifest_entry_t *e;
    char name[200];
    s_stats_t stats;
    unsigned have; //  bits: name, size, rows
} s_file_t;

static int
s_extra_file (s_rd_t *r, const zs_avro_node_t *t, int64_t i, void *arg)
{
    const uint8_t *p;
    size_t len;
    return s_dec_text (r, "_EXTRA_FILES", t, &p, &len);
}

//  The numeric fields of _FILE, with where each goes and its default.
static int
s_file_number (s_rd_t *r, const char *name, const zs_avro_node_t *t, s_file_t *f)
{
    zs_file_meta_t *m = &f->e->file;
    static const struct {
        const char *name;
        size_t offset;
        int64_t dflt;
        unsigned bit;
    } nums[] = {
        {"_FILE_SIZE", offsetof (zs_file_meta_t, size), -1, 2},
        {"_ROW_COUNT", offsetof (zs_file_meta_t, rows), -1, 4},
        {"_MIN_SEQUENCE_NUMBER", offsetof (zs_file_meta_t, min_seq), 0, 0},
        {"_MAX_SEQUENCE_NUMBER", offsetof (zs_file_meta_t, max_seq), 0, 0},
        {"_SCHEMA_ID", offsetof (zs_file_meta_t, schema_id), 0, 0},
        {"_CREATION_TIME", offsetof (zs_file_meta_t, creation_ms), 0, 0},
        {"_DELETE_ROW_COUNT", offsetof (zs_file_meta_t, delete_rows), -1, 0},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (strcmp (name, nums[i].name) == 0) {
            f->have |= nums[i].bit;
            return s_dec_num (r, name, t, nums[i].dflt, (int64_t *) ((char *) m + nums[i].offset))
                       ? -1
                       : 1;
        }
    int64_t v;
    if (strcmp (name, "_LEVEL") == 0 || strcmp (name, "_FILE_SOURCE") == 0) {
        if (s_dec_num (r, name, t, -1, &v) != 0)
            return -1;
        if (v < -1 || v > 1000)
            return s_bad (r, name, "is out of range");
        *(name[1] == 'L' ? &m->level : &m->file_source) = (int) v;
        return 1;
    }
    return 0;
}

static int
s_file_field (s_rd_t *r, const char *name, const zs_avro_node_t *t, void *arg)
{
    s_file_t *f = arg;
    const uint8_t *p;
    size_t len;
    int64_t n;
    if (strcmp (name, "_FILE_NAME") == 0) {
        if (s_dec_text (r, name, t, &p, &len) != 0)
            return -1;
        if (!p || len == 0 || len >= sizeof f->name || memchr (p, 0, len))
            return s_bad (r, name, "is empty, too long or not text");
        memcpy (f->name, p, len);
        f->name[len] = 0;
        f->have |= 1;
        return 1;
    }
    if (strcmp (name, "_VALUE_STATS") == 0) {
        f->stats.seen = true;
        return s_dec_record (r, name, t, s_stats_field, &f->stats) ? -1 : 1;
    }
    if (strcmp (name, "_VALUE_STATS_COLS") == 0)
        return s_dec_array (r, name, t, s_stats_col, &f->stats, &f->stats.n_cols) ? -1 : 1;
    if (strcmp (name, "_EXTRA_FILES") == 0) {
        if (s_dec_array (r, name, t, s_extra_file, NULL, &n) != 0)
            return -1;
        f->e->extra_files = n > 0;
        return 1;
    }
    if (strcmp (name, "_EXTERNAL_PATH") == 0) {
        if (s_dec_text (r, name, t, &p, &len) != 0)
            return -1;
        //  a data file outside the table: not a table zsink reads or writes
        return p ? s_bad (r, name, "is set: data files outside the table are not supported") : 1;
    }
    return s_file_number (r, name, t, f);
}

//  ---- one entry ----

typedef struct {
    zs_manifest_entry_t *e;
    const zs_partition_t *part; //  NULL: unpartitioned
    int64_t bucket;
    s_file_t file;
    bool have_file;
} s_entry_t;

//  _PARTITION: the empty row in an unpartitioned table, a row of the
//  partition's fields in a partitioned one (kept, to name the directory).
static int
s_entry_partition (s_rd_t *r, s_entry_t *x, const uint8_t *p, size_t len)
{
    int arity = p ? zs_binrow_arity (p, len) : -1;
    if (!x->part || x->part->n == 0)
        return arity == 0 ? 1 : s_bad (r, "_PARTITION", "is not empty: a partitioned table");
    zs_value_t values[ZS_PARTITION_MAX];
    char why[ZS_ERRLEN];
    if (len > ZS_FILE_PARTITION_MAX)
        return s_bad (r, "_PARTITION", "is a row longer than zsink keeps");
    if (zs_partition_decode (x->part, p, len, values, why, sizeof why) != 0) {
        snprintf (r->err, r->errlen,
                  "%s: _PARTITION is not a row of the table's %d partition "
                  "keys: %s",
                  r->where, x->part->n, why);
        return -1;
    }
    memcpy (x->e->file.partition, p, len);
    x->e->file.partition_len = (uint16_t) len;
    return 1;
}

static int
s_entry_field (s_rd_t *r, const char *name, const zs_avro_node_t *t, void *arg)
{
    s_entry_t *x = arg;
    int64_t v;
    const uint8_t *p;
    size_t len;
    if (strcmp (name, "_KIND") == 0) {
        if (s_dec_num (r, name, t, -1, &v) != 0)
            return -1;
        if (v != 0 && v != 1)
            return s_bad (r, name, "is neither ADD (0) nor DELETE (1)");
        x->e->add = v == 0;
        return 1;
    }
    if (strcmp (name, "_PARTITION") == 0) {
        if (s_dec_text (r, name, t, &p, &len) != 0)
            return -1;
        return s_entry_partition (r, x, p, len);
    }
    if (strcmp (name, "_BUCKET") == 0 || strcmp (name, "_TOTAL_BUCKETS") == 0) {
        if (s_dec_num (r, name, t, 0, &v) != 0)
            return -1;
        if (v < -1 || v > 1 << 20)
            return s_bad (r, name, "is out of range");
        if (name[2] == 'B')
            x->bucket = v;
        else
            x->e->total_buckets = (int) v;
        return 1;
    }
    if (strcmp (name, "_FILE") == 0) {
        x->have_file = true;
        x->file.e = x->e;
        return s_dec_record (r, name, t, s_file_field, &x->file) ? -1 : 1;
    }
    return 0;
}

//  The entry's parts into one zs_manifest_entry_t. 0 or -1.
static int
s_entry_finish (s_rd_t *r, s_entry_t *x)
{
    zs_file_meta_t *m = &x->e->file;
    if (!x->have_file || (x->file.have & 7) != 7)
        return s_bad (r, "_FILE", "lacks its name, size or row count");
    if (x->bucket < 0 || !zs_plain_name (x->file.name))
        return s_bad (r, "_FILE_NAME", "is not a plain name in a bucket");
    char dir[ZS_PARTITION_DIR_MAX + 1] = "";
    if (x->part && x->part->n > 0) {
        zs_value_t values[ZS_PARTITION_MAX];
        if (m->partition_len == 0)
            return s_bad (r, "_PARTITION", "is missing in a partitioned table");
        if (zs_partition_decode (x->part, m->partition, m->partition_len, values, r->err, r->errlen)
                != 0
            || zs_partition_dir (x->part, values, dir, sizeof dir - 1, r->err, r->errlen) < 0)
            return -1;
        strcat (dir, "/");
    }
    if (snprintf (m->path, sizeof m->path, "%sbucket-%lld/%s", dir, (long long) x->bucket,
                  x->file.name)
        >= (int) sizeof m->path)
        return s_bad (r, "_FILE_NAME", "with its partition directory is too long a path");
    if (zs_data_path_check (m->path, r->err, r->errlen) != 0)
        return -1;
    if (m->size < 0 || m->rows < 0)
        return s_bad (r, "_FILE", "has a negative size or row count");
    return s_stats_blob (r, &x->file.stats, &m->stats);
}

//  ---- files ----

//  A decoded object of the file into items[i].
typedef int (s_obj_fn) (s_rd_t *r, const zs_avro_node_t *root, void *items, size_t i);

static int
s_obj_entry (s_rd_t *r, const zs_avro_node_t *root, void *items, size_t i)
{
    zs_manifest_entry_t *e = (zs_manifest_entry_t *) items + i;
    memset (e, 0, sizeof *e);
    e->add = true;
    e->total_buckets = -1;
    e->file.file_source = e->file.delete_rows = -1;
    s_entry_t x = {.e = e, .part = r->part};
    x.file.stats.n_nulls = x.file.stats.n_cols = -1;
    if (s_dec_record (r, "entry", root, s_entry_field, &x) != 0)
        return -1;
    return s_entry_finish (r, &x);
}

//  _PARTITION_STATS, decoded and encoded again as our blob (the record
//  alone); the empty stats as none.
static int
s_meta_partition_stats (s_rd_t *r, const zs_avro_node_t *t, zs_manifest_meta_t *m)
{
    s_stats_t st = {.n_nulls = -1, .n_cols = -1};
    if (s_dec_record (r, "_PARTITION_STATS", t, s_stats_field, &st) != 0)
        return -1;
    m->partition_stats.len = 0;
    if (!st.min || !st.max || zs_binrow_arity (st.min, st.lmin) <= 0)
        return 1;
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_bytes (&e, st.min, st.lmin);
    zs_avro_enc_bytes (&e, st.max, st.lmax);
    zs_avro_enc_union (&e, st.n_nulls >= 0);
    if (st.n_nulls >= 0) {
        zs_avro_enc_array_start (&e, (size_t) st.n_nulls);
        for (int64_t i = 0; i < st.n_nulls; i++) {
            zs_avro_enc_union (&e, st.nulls[i] >= 0);
            if (st.nulls[i] >= 0)
                zs_avro_enc_long (&e, st.nulls[i]);
        }
        zs_avro_enc_array_end (&e);
    }
    if (e.ok && e.len <= ZS_STATS_MAX) { //  too large: dropped (no manifest skipped on it)
        memcpy (m->partition_stats.blob, e.data, e.len);
        m->partition_stats.len = m->partition_stats.cols_at = (uint16_t) e.len;
    }
    zs_avro_enc_fini (&e);
    return 1;
}

static int
s_meta_field (s_rd_t *r, const char *name, const zs_avro_node_t *t, void *arg)
{
    zs_manifest_meta_t *m = arg;
    if (strcmp (name, "_PARTITION_STATS") == 0)
        return s_meta_partition_stats (r, t, m);
    if (strcmp (name, "_FILE_NAME") == 0) {
        const uint8_t *p;
        size_t len;
        if (s_dec_text (r, name, t, &p, &len) != 0)
            return -1;
        if (!p || len == 0 || len >= sizeof m->file || memchr (p, 0, len))
            return s_bad (r, name, "is empty, too long or not text");
        memcpy (m->file, p, len);
        m->file[len] = 0;
        return zs_plain_name (m->file) ? 1 : s_bad (r, name, "is not a plain file name");
    }
    static const struct {
        const char *name;
        size_t offset;
    } nums[] = {{"_FILE_SIZE", offsetof (zs_manifest_meta_t, file_size)},
                {"_NUM_ADDED_FILES", offsetof (zs_manifest_meta_t, added_files)},
                {"_NUM_DELETED_FILES", offsetof (zs_manifest_meta_t, deleted_files)},
                {"_SCHEMA_ID", offsetof (zs_manifest_meta_t, schema_id)}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (strcmp (name, nums[i].name) == 0)
            return s_dec_num (r, name, t, -1, (int64_t *) ((char *) m + nums[i].offset)) ? -1 : 1;
    return 0;
}

static int
s_obj_meta (s_rd_t *r, const zs_avro_node_t *root, void *items, size_t i)
{
    zs_manifest_meta_t *m = (zs_manifest_meta_t *) items + i;
    memset (m, 0, sizeof *m);
    m->file_size = -1;
    if (s_dec_record (r, "manifest", root, s_meta_field, m) != 0)
        return -1;
    if (!m->file[0] || m->file_size < 0)
        return s_bad (r, "manifest", "lacks its file name or size");
    return 0;
}

//  Every object of an OCF through obj into a malloc'd array of item_size
//  items. 0 or ZS_ECORRUPT + err.
static int
s_decode (const uint8_t *data, size_t len, const char *what, const zs_partition_t *part,
          size_t item_size, s_obj_fn *obj, void **items_p, size_t *n_p, char *err, size_t errlen)
{
    *items_p = NULL;
    *n_p = 0;
    if (len > 0 && data[0] == '{') {
        snprintf (err, errlen,
                  "%s in zsink's own JSON format, which Paimon cannot read (a table written "
                  "before zsink wrote Paimon's Avro manifests): copy its rows to a new table "
                  "(`zsink table scan` of this table with the zsink that wrote it, into a "
                  "job with source.kind: file)",
                  what);
        return ZS_ECORRUPT;
    }
    zs_avro_reader_t *rd = zs_avro_reader_new (data, len, err, errlen);
    if (!rd)
        return ZS_ECORRUPT;
    size_t slen;
    const char *text = zs_avro_reader_schema (rd, &slen);
    zs_avro_schema_t *schema = zs_avro_schema_parse (text, slen, err, errlen);
    const zs_avro_node_t *root = schema ? zs_avro_schema_root (schema) : NULL;
    uint8_t *items = NULL;
    size_t n = 0, cap = 0; //  cap in bytes
    int rc = root ? 0 : ZS_ECORRUPT;
    int64_t count = 0;
    zs_avro_dec_t d;
    s_rd_t r = {.d = &d, .err = err, .errlen = errlen, .part = part};
    while (rc == 0 && (rc = zs_avro_reader_next (rd, &count, &d, err, errlen)) == 1) {
        rc = 0;
        for (int64_t k = 0; rc == 0 && k < count; k++) {
            void *grown = zs_grow (items, &cap, n * item_size, item_size, 64 * item_size);
            if (!grown) {
                snprintf (err, errlen, "out of memory");
                rc = -1;
                break;
            }
            items = grown;
            snprintf (r.where, sizeof r.where, "%s %zu", what, n + 1);
            rc = obj (&r, root, items, n) == 0 ? 0 : ZS_ECORRUPT;
            n += rc == 0;
        }
        if (rc == 0 && zs_avro_dec_left (&d) != 0) {
            snprintf (err, errlen, "%s: a block has bytes after its %lld objects", what,
                      (long long) count);
            rc = ZS_ECORRUPT;
        }
    }
    zs_avro_schema_destroy (&schema);
    zs_avro_reader_destroy (&rd);
    if (rc < 0) {
        free (items);
        return rc;
    }
    *items_p = items;
    *n_p = n;
    return 0;
}

int
zs_manifest_decode (const uint8_t *data, size_t len, zs_manifest_entry_t **entries_p, size_t *n_p,
                    char *err, size_t errlen)
{
    return zs_manifest_decode_in (data, len, NULL, entries_p, n_p, err, errlen);
}

int
zs_manifest_decode_in (const uint8_t *data, size_t len, const zs_partition_t *part,
                       zs_manifest_entry_t **entries_p, size_t *n_p, char *err, size_t errlen)
{
    void *items;
    int rc = s_decode (data, len, "manifest entry", part, sizeof (zs_manifest_entry_t), s_obj_entry,
                       &items, n_p, err, errlen);
    *entries_p = rc == 0 ? items : NULL;
    return rc;
}

int
zs_manifest_list_decode (const uint8_t *data, size_t len, zs_manifest_meta_t **metas_p, size_t *n_p,
                         char *err, size_t errlen)
{
    void *items;
    int rc = s_decode (data, len, "manifest list entry", NULL, sizeof (zs_manifest_meta_t),
                       s_obj_meta, &items, n_p, err, errlen);
    *metas_p = rc == 0 ? items : NULL;
    return rc;
}

//  --------------------------------------------------------------------------
//  Partition statistics of a manifest (SimpleStatsCollector over the
//  entries' partition rows)

typedef struct {
    zs_value_t min[ZS_PARTITION_MAX], max[ZS_PARTITION_MAX];
    int64_t nulls[ZS_PARTITION_MAX];
} s_part_acc_t;

static void
s_part_widen (const zs_partition_t *part, s_part_acc_t *acc, const zs_value_t *v)
{
    for (int k = 0; k < part->n; k++) {
        if (v[k].null) {
            acc->nulls[k]++;
            continue;
        }
        if (acc->min[k].null || zs_pq_value_cmp (part->type[k], &v[k], &acc->min[k]) < 0)
            acc->min[k] = v[k];
        if (acc->max[k].null || zs_pq_value_cmp (part->type[k], &v[k], &acc->max[k]) > 0)
            acc->max[k] = v[k];
    }
}

int
zs_partition_stats (const zs_partition_t *part, const zs_manifest_entry_t *entries, size_t n,
                    zs_stats_t *out, char *err, size_t errlen)
{
    memset (out, 0, offsetof (zs_stats_t, blob));
    if (!part || part->n == 0)
        return 0;
    s_part_acc_t acc;
    for (int k = 0; k < part->n; k++) {
        acc.min[k] = acc.max[k] = (zs_value_t){.null = true};
        acc.nulls[k] = 0;
    }
    //  values point into the entries' rows, which outlive this call
    for (size_t i = 0; i < n; i++) {
        zs_value_t v[ZS_PARTITION_MAX];
        const zs_file_meta_t *f = &entries[i].file;
        if (zs_partition_decode (part, f->partition, f->partition_len, v, err, errlen) != 0)
            return -1;
        s_part_widen (part, &acc, v);
    }
    uint8_t min[ZS_PARTITION_ROW_MAX], max[ZS_PARTITION_ROW_MAX];
    int lmin = zs_partition_row (part, acc.min, min, sizeof min, err, errlen);
    int lmax = lmin < 0 ? -1 : zs_partition_row (part, acc.max, max, sizeof max, err, errlen);
    if (lmax < 0)
        return -1;
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_bytes (&e, min, (size_t) lmin);
    zs_avro_enc_bytes (&e, max, (size_t) lmax);
    zs_avro_enc_union (&e, 1);
    zs_avro_enc_array_start (&e, (size_t) part->n);
    for (int k = 0; k < part->n; k++) {
        zs_avro_enc_union (&e, 1);
        zs_avro_enc_long (&e, acc.nulls[k]);
    }
    zs_avro_enc_array_end (&e);
    int rc = 0;
    if (!e.ok || e.len > ZS_STATS_MAX) {
        snprintf (err, errlen, "partition statistics of a manifest: out of memory");
        rc = -1;
    } else {
        memcpy (out->blob, e.data, e.len);
        out->len = out->cols_at = (uint16_t) e.len;
    }
    zs_avro_enc_fini (&e);
    return rc;
}
