/*  parquet_write.c - the Parquet writer (parquet.h).

    File layout written:

        "PAR1"
        per row group, per column: [DICTIONARY_PAGE] DATA_PAGE…
        FileMetaData (Thrift compact)
        footer length (4 bytes LE) "PAR1"

    Invariants:
    1. Rows are buffered per column for one row group: fixed-width values
       packed as they lie in memory (PLAIN little endian), byte arrays
       already in PLAIN form (4-byte length + bytes), definition levels one
       byte per row for nullable columns only. Appending is a copy; all
       encoding work happens once per row group, in s_flush_group.
    2. A refused row (null in a NOT NULL column, value too long, out of
       memory) leaves every buffer as it was: all checks and reservations
       come before the first store.
    3. Once an I/O or encoding error happened the writer is failed: every
       later call fails and close removes the file.
    4. Chunk statistics follow the spec's TypeDefinedOrder: NaN ignored,
       zero min written -0.0 and zero max +0.0, byte arrays compared
       unsigned; a byte-array min or max longer than ZS_STATS_BIN_MAX drops
       min/max for that chunk, and then for the file's summary too.
*/
#include "parquet_priv.h"
#include "parquet_nested.h"
#include "fs.h"
#include "io.h"
#include "thrift.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define S_CREATED_BY "zsink version 0.3.0"
#define S_DICT_MAX_BYTES (1 << 20)     //  larger dictionary: PLAIN instead
#define S_DICT_PROBE_MIN 1024          //  values before a dictionary may be given up
#define S_PAGE_SLACK 16                //  a page's level length and run headers
#define S_GROUP_MAX_BYTES (128 << 20)  //  flush a row group early beyond this
#define S_VALUE_MAX_BYTES (256u << 20) //  longest STRING/BYTES value accepted
#define S_NANOS_PER_DAY INT64_C (86400000000000)
#define S_JULIAN_EPOCH 2440588 //  Julian day of 1970-01-01

typedef struct {
    zs_column_t col;
    int ptype;
    int width;               //  buffered bytes per fixed-width value; 0 for byte arrays
    bool delta;              //  INT32/INT64 values DELTA_BINARY_PACKED (opts.delta); byte
                             //  arrays stay PLAIN (docs/decisions.md)
    bool nested;             //  ARRAY/MAP/ROW: its leaves buffer in leafbufs
    uint8_t *defs;           //  nullable columns: 1 per row of the group (0 = null)
    uint8_t *vals;           //  fixed width: one value per non-null row
    zs_bytes_t bin;          //  byte arrays: PLAIN bytes per non-null row
    int64_t nvals;           //  non-null values in the group
    zs_column_stats_t stats; //  whole file so far
    bool stats_unknown;      //  a chunk had values but no min/max
} s_column_t;

//  What the footer says about one column chunk.
typedef struct {
    int64_t data_page_offset;
    int64_t dict_page_offset; //  -1: no dictionary
    int64_t num_values;
    int64_t unc_size; //  page headers included
    int64_t comp_size;
    int64_t null_count;
    int64_t nan_count;
    uint32_t encodings; //  bit per Encoding of its pages
    bool has_minmax;
    uint8_t min_len;
    uint8_t max_len;
    uint8_t min[ZS_STATS_BIN_MAX];
    uint8_t max[ZS_STATS_BIN_MAX];
} s_chunk_t;

typedef struct {
    int64_t num_rows;
    int64_t file_offset;
    int64_t unc_size;
    int64_t comp_size;
    s_chunk_t *chunks;
} s_group_t;

//  A dictionary hash slot: idx is the entry's index + 1, 0 = empty.
typedef struct {
    uint32_t hash;
    uint32_t idx;
} s_slot_t;

struct _zs_parquet_writer_t {
    char path[ZS_PATH_MAX];
    zs_schema_t schema;
    zs_parquet_options_t opts;
    zs_io_file_t *file;
    bool failed;
    int64_t rows;       //  appended in all
    int64_t group_rows; //  buffered in the current row group
    int64_t row_cap;    //  rows the fixed-width buffers hold
    int64_t row_bytes;  //  fixed-width bytes a row adds (estimate)
    int64_t buffered;   //  bytes buffered (estimate)
    int64_t flushed_in; //  buffered bytes of the row groups written so far
    s_group_t *groups;
    int ngroups;
    int groups_cap;
    s_column_t cols[ZS_MAX_COLUMNS];
    //  Nested columns (parquet_nested.c): NULL when there are none. The
    //  scalar columns keep their buffers above; a nested column's leaves
    //  buffer levels and values in leafbufs, by leaf index.
    zs_pq_layout_t *layout;
    zs_pq_leafbuf_t *leafbufs;
    //  Scratch, reused for every page
    zs_bytes_t page;
    zs_bytes_t zpage;
    zs_thrift_enc_t enc;
    ZSTD_CCtx *cctx;
    //  Dictionary of the chunk being written
    zs_bytes_t dict;     //  PLAIN bytes of the distinct values
    uint32_t *dict_off;  //  entry -> offset in dict
    size_t dict_off_cap; //  entries
    uint32_t ndict;
    s_slot_t *slots;
    size_t nslots; //  a power of 2
    uint32_t *indices;
    size_t indices_cap;
};

static void
s_free (zs_parquet_writer_t *self)
{
    for (int i = 0; i < self->schema.n; i++) {
        free (self->cols[i].defs);
        free (self->cols[i].vals);
        zs_bytes_fini (&self->cols[i].bin);
    }
    for (int k = 0; self->leafbufs && k < self->layout->nleaves; k++) {
        zs_bytes_fini (&self->leafbufs[k].reps);
        zs_bytes_fini (&self->leafbufs[k].defs);
        zs_bytes_fini (&self->leafbufs[k].vals);
    }
    free (self->leafbufs);
    free (self->layout);
    for (int g = 0; g < self->ngroups; g++)
        free (self->groups[g].chunks);
    free (self->groups);
    zs_bytes_fini (&self->page);
    zs_bytes_fini (&self->zpage);
    zs_bytes_fini (&self->dict);
    zs_thrift_enc_fini (&self->enc);
    ZSTD_freeCCtx (self->cctx);
    free (self->dict_off);
    free (self->slots);
    free (self->indices);
    free (self);
}

//  The schema and options are ones the writer can do.
static int
s_check_options (const char *path, const zs_schema_t *schema, const zs_parquet_options_t *opts,
                 char *err, size_t errlen)
{
    if (schema->n < 1 || schema->n > ZS_MAX_COLUMNS) {
        snprintf (err, errlen, "%s: schema has %d columns (1 to %d)", path, schema->n,
                  ZS_MAX_COLUMNS);
        return -1;
    }
    if (opts->row_group_rows < 1 || opts->row_group_rows > INT32_MAX) {
        snprintf (err, errlen, "%s: row group rows %lld out of range", path,
                  (long long) opts->row_group_rows);
        return -1;
    }
    if (opts->compression != ZS_COMPRESSION_NONE && opts->compression != ZS_COMPRESSION_ZSTD) {
        snprintf (err, errlen, "%s: unknown compression %d", path, (int) opts->compression);
        return -1;
    }
    //  Level 0 would be zstd's default (3): a config that says 0 meant
    //  something else. Negative levels are zstd's fast ones.
    if (opts->compression == ZS_COMPRESSION_ZSTD
        && (opts->zstd_level == 0 || opts->zstd_level < ZSTD_minCLevel ()
            || opts->zstd_level > ZSTD_maxCLevel ())) {
        snprintf (err, errlen, "%s: zstd level %d out of range (%d to %d, not 0)", path,
                  opts->zstd_level, ZSTD_minCLevel (), ZSTD_maxCLevel ());
        return -1;
    }
    if (opts->page_bytes < ZS_PARQUET_PAGE_MIN || opts->page_bytes > ZS_PARQUET_PAGE_MAX) {
        snprintf (err, errlen, "%s: page size %lld out of range (%d to %d)", path,
                  (long long) opts->page_bytes, ZS_PARQUET_PAGE_MIN, ZS_PARQUET_PAGE_MAX);
        return -1;
    }
    return 0;
}

//  The leaves of the nested columns and their buffers.
static int
s_init_nested (zs_parquet_writer_t *self, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    self->layout = malloc (sizeof *self->layout);
    if (!self->layout)
        return zs_pq_err (err, errlen, "%s: out of memory", self->path);
    if (zs_pq_layout (&self->schema, self->layout, why, sizeof why) != 0)
        return zs_pq_err (err, errlen, "%s: %s", self->path, why);
    self->leafbufs = calloc ((size_t) self->layout->nleaves, sizeof *self->leafbufs);
    if (!self->leafbufs)
        return zs_pq_err (err, errlen, "%s: out of memory", self->path);
    for (int k = 0; k < self->layout->nleaves; k++) {
        zs_pq_leafbuf_t *b = &self->leafbufs[k];
        zs_bytes_init (&b->reps);
        zs_bytes_init (&b->defs);
        zs_bytes_init (&b->vals);
        b->ptype = zs_pq_physical_type (&self->layout->leaf[k]);
        b->width = zs_pq_column_width (&self->layout->leaf[k]);
        if (b->ptype < 0)
            return zs_pq_err (err, errlen, "%s: leaf %d: bad type", self->path, k);
    }
    return 0;
}

//  Each column's physical type and buffered width.
static int
s_init_columns (zs_parquet_writer_t *self, char *err, size_t errlen)
{
    if (zs_schema_has_nested (&self->schema) && s_init_nested (self, err, errlen) != 0)
        return -1;
    for (int i = 0; i < self->schema.n; i++) {
        s_column_t *c = &self->cols[i];
        c->col = self->schema.cols[i];
        zs_bytes_init (&c->bin);
        c->nested = zs_type_is_nested (c->col.type);
        if (c->nested)
            continue; //  its leaves are in leafbufs
        c->ptype = zs_pq_physical_type (&c->col);
        if (c->ptype < 0 || !c->col.name[0]) {
            snprintf (err, errlen, "%s: column %d '%s': bad type or name", self->path, i + 1,
                      c->col.name);
            return -1;
        }
        c->width = zs_pq_column_width (&c->col);
        c->delta = self->opts.delta && (c->ptype == ZS_PQ_INT32 || c->ptype == ZS_PQ_INT64);
        self->row_bytes += c->width + (c->col.nullable ? 1 : 0);
    }
    return 0;
}

zs_parquet_writer_t *
zs_parquet_writer_new (const char *path, const zs_schema_t *schema,
                       const zs_parquet_options_t *opts, char *err, size_t errlen)
{
    zs_parquet_options_t defaults;
    if (!opts) {
        zs_parquet_options_defaults (&defaults);
        opts = &defaults;
    }
    if (s_check_options (path, schema, opts, err, errlen) != 0)
        return NULL;
    zs_parquet_writer_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (snprintf (self->path, sizeof self->path, "%s", path) >= (int) sizeof self->path) {
        snprintf (err, errlen, "%s: path too long", path);
        free (self);
        return NULL;
    }
    self->schema = *schema;
    self->opts = *opts;
    zs_bytes_init (&self->page);
    zs_bytes_init (&self->zpage);
    zs_bytes_init (&self->dict);
    zs_thrift_enc_init (&self->enc);
    int rc = s_init_columns (self, err, errlen);
    if (rc == 0 && opts->compression == ZS_COMPRESSION_ZSTD && !(self->cctx = ZSTD_createCCtx ()))
        rc = zs_pq_err (err, errlen, "%s: out of memory", path);
    if (rc == 0 && !(self->file = zs_io_file_create (path, err, errlen)))
        rc = -1;
    if (rc == 0 && zs_io_file_write (self->file, "PAR1", 4, err, errlen) != 0) {
        zs_io_file_abort (&self->file);
        rc = -1;
    }
    if (rc != 0) {
        s_free (self);
        return NULL;
    }
    return self;
}

int64_t
zs_parquet_writer_rows (zs_parquet_writer_t *self)
{
    return self->rows;
}

int64_t
zs_parquet_writer_bytes (zs_parquet_writer_t *self)
{
    //  The buffered row group will shrink as the written ones did
    //  (encoding and compression); before the first, assume it does not.
    int64_t written = zs_io_file_offset (self->file);
    if (self->flushed_in <= 0 || written <= 0)
        return written + self->buffered;
    return written
           + (int64_t) ((double) self->buffered * (double) written / (double) self->flushed_in);
}

//  --------------------------------------------------------------------------
//  Writing pages

static int
s_write (zs_parquet_writer_t *self, const void *data, size_t len, char *err, size_t errlen)
{
    return zs_io_file_write (self->file, data, len, err, errlen);
}

//  The bytes of a page as stored: body[0..len) itself, or compressed (into
//  self->zpage) when the file is. Every page is compressed on its own:
//  readers decompress page by page.
static int
s_compress (zs_parquet_writer_t *self, const uint8_t *body, size_t len, const uint8_t **data,
            size_t *zlen, char *err, size_t errlen)
{
    *data = body;
    *zlen = len;
    if (!self->cctx)
        return 0;
    size_t bound = ZSTD_compressBound (len);
    self->zpage.len = 0;
    if (!zs_bytes_reserve (&self->zpage, bound))
        return zs_pq_err (err, errlen, "%s: out of memory", self->path);
    *zlen =
        ZSTD_compressCCtx (self->cctx, self->zpage.data, bound, body, len, self->opts.zstd_level);
    if (ZSTD_isError (*zlen))
        return zs_pq_err (err, errlen, "%s: zstd: %s", self->path, ZSTD_getErrorName (*zlen));
    if (*zlen > INT32_MAX)
        return zs_pq_err (err, errlen, "%s: page of %zu bytes too large", self->path, *zlen);
    *data = self->zpage.data;
    return 0;
}

//  Compress body[0..len) and write it after its page header. The header
//  records both sizes and the CRC of the stored bytes.
static int
s_write_page (zs_parquet_writer_t *self, s_chunk_t *chunk, int page_type, const uint8_t *body,
              size_t len, int64_t num_values, int encoding, char *err, size_t errlen)
{
    if (len > INT32_MAX || num_values > INT32_MAX)
        return zs_pq_err (err, errlen, "%s: page of %zu bytes too large", self->path, len);
    const uint8_t *data;
    size_t zlen;
    if (s_compress (self, body, len, &data, &zlen, err, errlen) != 0)
        return -1;
    zs_thrift_enc_t *e = &self->enc;
    zs_thrift_enc_reset (e);
    zs_thrift_enc_struct_begin (e);
    zs_thrift_enc_field_i32 (e, 1, page_type);
    zs_thrift_enc_field_i32 (e, 2, (int32_t) len);
    zs_thrift_enc_field_i32 (e, 3, (int32_t) zlen);
    //  The spec's page checksum, over the bytes as stored: a reader can
    //  tell a damaged page from data.
    zs_thrift_enc_field_i32 (e, 4, (int32_t) zs_pq_crc32 (0, data, zlen));
    if (page_type == ZS_PQ_DATA_PAGE) {
        zs_thrift_enc_field_struct (e, 5);
        zs_thrift_enc_field_i32 (e, 1, (int32_t) num_values);
        zs_thrift_enc_field_i32 (e, 2, encoding);
        zs_thrift_enc_field_i32 (e, 3, ZS_PQ_RLE);
        zs_thrift_enc_field_i32 (e, 4, ZS_PQ_RLE);
        zs_thrift_enc_struct_end (e);
    } else {
        zs_thrift_enc_field_struct (e, 7);
        zs_thrift_enc_field_i32 (e, 1, (int32_t) num_values);
        zs_thrift_enc_field_i32 (e, 2, encoding);
        zs_thrift_enc_struct_end (e);
    }
    zs_thrift_enc_struct_end (e);
    if (!e->ok) {
        snprintf (err, errlen, "%s: out of memory", self->path);
        return -1;
    }
    if (s_write (self, e->data, e->len, err, errlen) != 0
        || s_write (self, data, zlen, err, errlen) != 0)
        return -1;
    chunk->encodings |= UINT32_C (1) << encoding;
    chunk->unc_size += (int64_t) (e->len + len);
    chunk->comp_size += (int64_t) (e->len + zlen);
    return 0;
}

static uint32_t
s_rd32 (const uint8_t *p)
{
    uint32_t v;
    memcpy (&v, p, 4);
    return v;
}

//  Dictionary hash: eight bytes a step, multiply and fold. Strings here
//  are short (names, categories); quality only has to keep probe chains
//  short in a table kept at most half full.
static uint32_t
s_hash (const uint8_t *p, uint32_t len)
{
    uint64_t h = UINT64_C (0x9E3779B97F4A7C15) ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy (&w, p, 8);
        h = (h ^ w) * UINT64_C (0xff51afd7ed558ccd);
        h ^= h >> 32;
        p += 8;
        len -= 8;
    }
    uint64_t w = 0;
    if (len)
        memcpy (&w, p, len);
    h = (h ^ w) * UINT64_C (0xc4ceb9fe1a85ec53);
    h ^= h >> 29;
    return (uint32_t) h ^ (uint32_t) (h >> 32);
}

static bool
s_grow_slots (zs_parquet_writer_t *self, size_t nslots)
{
    s_slot_t *slots = calloc (nslots, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < self->nslots; i++) {
        if (!self->slots[i].idx)
            continue;
        size_t j = self->slots[i].hash & (nslots - 1);
        while (slots[j].idx)
            j = (j + 1) & (nslots - 1);
        slots[j] = self->slots[i];
    }
    free (self->slots);
    self->slots = slots;
    self->nslots = nslots;
    return true;
}

//  Dictionary-encode a byte-array column's buffered values into self->dict
//  (PLAIN bytes of distinct values, first seen first) and self->indices.
//  false when it does not pay (more distinct values than half the values,
//  or a dictionary over S_DICT_MAX_BYTES) or memory runs out: write PLAIN.
//
//  A column of unique values (ids as text, UUIDs) fails only once half its
//  values are hashed: half of s_write_chunk's CPU samples in perf, ~6 % of
//  the writer's (docs/performance.md, "The writer's CPU"). So the attempt
//  stops early when the first eighth of the values (S_DICT_PROBE_MIN at
//  least) were more than 91 in 100 distinct: values drawn uniformly whose
//  first eighth is that distinct are expected to be more than half
//  distinct in all (D values show D (1 - e^-k/D) distinct in k draws:
//  above 0.91 k at k = n/8 means above 0.51 n at n), so a dictionary that
//  would pay is not given up for it. Values that come in turn (a cycle of
//  n/8 to n/2 distinct ones) do lose theirs; zstd still finds the repeats.
static bool
s_build_dict (zs_parquet_writer_t *self, s_column_t *c)
{
    uint64_t n = (uint64_t) c->nvals;
    uint64_t max_distinct = n / 2;
    if (max_distinct == 0)
        return false;
    uint64_t probe = n / 8 >= S_DICT_PROBE_MIN ? n / 8 : UINT64_MAX;
    if (self->indices_cap < n) {
        free (self->indices);
        self->indices = malloc (n * sizeof *self->indices);
        self->indices_cap = self->indices ? n : 0;
        if (!self->indices)
            return false;
    }
    if (self->nslots == 0 && !s_grow_slots (self, 1024))
        return false;
    memset (self->slots, 0, self->nslots * sizeof *self->slots);
    self->dict.len = 0;
    self->ndict = 0;
    const uint8_t *bin = c->bin.data;
    size_t pos = 0;
    for (uint64_t k = 0; k < n; k++) {
        if (k == probe && self->ndict * 100 > probe * 91)
            return false;
        uint32_t len = s_rd32 (bin + pos);
        const uint8_t *p = bin + pos + 4;
        uint32_t h = s_hash (p, len);
        size_t mask = self->nslots - 1;
        size_t j = h & mask;
        for (;;) {
            s_slot_t *s = &self->slots[j];
            if (!s->idx) {
                if (self->ndict + 1 > max_distinct || self->dict.len + 4 + len > S_DICT_MAX_BYTES)
                    return false;
                if (self->ndict == self->dict_off_cap) {
                    size_t cap = self->dict_off_cap ? self->dict_off_cap * 2 : 1024;
                    uint32_t *off = realloc (self->dict_off, cap * sizeof *off);
                    if (!off)
                        return false;
                    self->dict_off = off;
                    self->dict_off_cap = cap;
                }
                self->dict_off[self->ndict] = (uint32_t) self->dict.len;
                zs_bytes_put (&self->dict, bin + pos, 4 + (size_t) len);
                if (!self->dict.ok) {
                    zs_bytes_reset (&self->dict); //  nothing kept: usable again
                    return false;
                }
                s->hash = h;
                s->idx = ++self->ndict;
                self->indices[k] = s->idx - 1;
                //  Keep the table at most half full.
                if (self->ndict * 2 > self->nslots && !s_grow_slots (self, self->nslots * 2))
                    return false;
                break;
            }
            if (s->hash == h) {
                const uint8_t *d = self->dict.data + self->dict_off[s->idx - 1];
                if (s_rd32 (d) == len && memcmp (d + 4, p, len) == 0) {
                    self->indices[k] = s->idx - 1;
                    break;
                }
            }
            j = (j + 1) & mask;
        }
        pos += 4 + (size_t) len;
    }
    return true;
}

//  Min and max of a chunk's buffered values; any is false when there is
//  nothing to bound (no values, or all NaN).
typedef struct {
    zs_value_t min, max;
    bool any;
    int64_t nan;
} s_minmax_t;

//  false < true: min is true only when no false was seen.
static void
s_minmax_bool (const s_column_t *c, s_minmax_t *m)
{
    bool seen[2] = {false, false};
    int64_t n = c->nvals;
    for (int64_t i = 0; i < n; i++)
        seen[c->vals[i]] = true;
    m->any = seen[0] || seen[1];
    m->min.v.b = !seen[0];
    m->max.v.b = seen[1];
}

//  INT32 and INT64, compared as signed 64-bit numbers.
static void
s_minmax_int (const s_column_t *c, s_minmax_t *m)
{
    const int32_t *v32 = (const int32_t *) c->vals;
    const int64_t *v64 = (const int64_t *) c->vals;
    bool narrow = c->ptype == ZS_PQ_INT32;
    int64_t n = c->nvals, lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = narrow ? v32[i] : v64[i];
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    m->any = n > 0;
    if (narrow) {
        m->min.v.i32 = (int32_t) lo;
        m->max.v.i32 = (int32_t) hi;
    } else {
        m->min.v.i64 = lo;
        m->max.v.i64 = hi;
    }
}

//  FLOAT and DOUBLE: NaN is counted, not bounded. Compared as doubles,
//  which every float is exactly; the first of equal values (-0.0, +0.0)
//  stays.
static void
s_minmax_float (const s_column_t *c, s_minmax_t *m)
{
    const float *f32 = (const float *) c->vals;
    const double *f64 = (const double *) c->vals;
    bool narrow = c->ptype == ZS_PQ_FLOAT, any = false;
    int64_t n = c->nvals, nan = 0;
    double lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = narrow ? f32[i] : f64[i];
        if (x != x)
            nan++;
        else if (!any) {
            lo = hi = x;
            any = true;
        } else {
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    }
    m->any = any;
    m->nan = nan;
    if (narrow) {
        m->min.v.f32 = (float) lo;
        m->max.v.f32 = (float) hi;
    } else {
        m->min.v.f64 = lo;
        m->max.v.f64 = hi;
    }
}

//  Unsigned bytewise, then the shorter first: TypeDefinedOrder for byte
//  arrays (zs_pq_value_cmp's, without its call per value).
static inline int
s_bin_cmp (const zs_value_t *a, const zs_value_t *b)
{
    uint32_t n = a->v.bin.len < b->v.bin.len ? a->v.bin.len : b->v.bin.len;
    int c = n ? memcmp (a->v.bin.ptr, b->v.bin.ptr, n) : 0;
    return c ? c : (a->v.bin.len > b->v.bin.len) - (a->v.bin.len < b->v.bin.len);
}

//  Byte arrays: walk the PLAIN buffer; min and max point into it until
//  s_chunk_stats copies them.
static void
s_minmax_binary (const s_column_t *c, s_minmax_t *m)
{
    zs_value_t min = {0}, max = {0};
    int64_t n = c->nvals;
    size_t pos = 0;
    for (int64_t i = 0; i < n; i++) {
        zs_value_t x;
        x.v.bin.len = s_rd32 (c->bin.data + pos);
        x.v.bin.ptr = c->bin.data + pos + 4;
        pos += 4 + (size_t) x.v.bin.len;
        //  max first: rows often come in order (names with ids, keys),
        //  and one above the max needs no second comparison
        if (i == 0)
            min = max = x;
        else if (s_bin_cmp (&x, &max) > 0)
            max = x;
        else if (s_bin_cmp (&x, &min) < 0)
            min = x;
    }
    m->any = n > 0;
    m->min = min;
    m->max = max;
}

//  FIXED_LEN_BYTE_ARRAY decimals: signed numbers (parquet-mr's order for a
//  DECIMAL), into decimal values.
static void
s_minmax_fixed (const s_column_t *c, s_minmax_t *m)
{
    int64_t n = c->nvals;
    __int128 lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        __int128 x = zs_dec_get_be (c->vals + i * c->width, (size_t) c->width);
        if (i == 0 || x < lo)
            lo = x;
        if (i == 0 || x > hi)
            hi = x;
    }
    m->any = n > 0;
    zs_dec_set (&m->min, lo);
    zs_dec_set (&m->max, hi);
}

//  Min, max, NaN count of the buffered values into the chunk and the
//  file's summary.
static void
s_chunk_stats (s_column_t *c, s_chunk_t *chunk)
{
    zs_type_t type = c->col.type;
    s_minmax_t m = {0};
    switch (c->ptype) {
    case ZS_PQ_BOOLEAN:
        s_minmax_bool (c, &m);
        break;
    case ZS_PQ_INT32:
    case ZS_PQ_INT64:
        s_minmax_int (c, &m);
        break;
    case ZS_PQ_FLOAT:
    case ZS_PQ_DOUBLE:
        s_minmax_float (c, &m);
        break;
    case ZS_PQ_FIXED_LEN_BYTE_ARRAY:
        s_minmax_fixed (c, &m);
        break;
    case ZS_PQ_INT96:
        break; //  no statistics: parquet-mr keeps none, Paimon reads none
    default:
        s_minmax_binary (c, &m);
        break;
    }
    if (type == ZS_TYPE_DECIMAL && c->ptype != ZS_PQ_FIXED_LEN_BYTE_ARRAY) {
        bool narrow = c->ptype == ZS_PQ_INT32;
        zs_dec_set (&m.min, narrow ? m.min.v.i32 : m.min.v.i64);
        zs_dec_set (&m.max, narrow ? m.max.v.i32 : m.max.v.i64);
    }
    chunk->nan_count = m.nan;
    chunk->null_count = chunk->num_values - c->nvals;
    c->stats.null_count += chunk->null_count;
    c->stats.nan_count += m.nan;
    if (!m.any)
        return; //  all null or all NaN: nothing to bound, nothing lost
    if (zs_type_is_binary (type)
        && (m.min.v.bin.len > ZS_STATS_BIN_MAX || m.max.v.bin.len > ZS_STATS_BIN_MAX)) {
        //  No min/max in the footer for this chunk; the file summary keeps
        //  them cut (parquet.h), for the manifest's truncated statistics.
        zs_pq_stats_widen (&c->stats, type, &m.min, &m.max);
        return;
    }
    zs_column_stats_t cs = {0};
    zs_pq_stats_widen (&cs, type, &m.min, &m.max);
    zs_pq_stats_fix_zeros (&cs, type);
    chunk->has_minmax = true;
    chunk->min_len = (uint8_t) zs_pq_stats_encode (&c->col, &cs.min, chunk->min);
    chunk->max_len = (uint8_t) zs_pq_stats_encode (&c->col, &cs.max, chunk->max);
    zs_pq_stats_widen (&c->stats, type, &cs.min, &cs.max);
}

//  Non-null values among rows [r, r + rows) of a column.
static int64_t
s_count_values (const s_column_t *c, int64_t r, int64_t rows)
{
    if (!c->col.nullable)
        return rows;
    int64_t n = 0;
    for (int64_t i = r; i < r + rows; i++)
        n += c->defs[i];
    return n;
}

static int
s_bits_for (uint32_t max_value)
{
    int bits = 0;
    while (bits < 32 && (max_value >> bits))
        bits++;
    return bits;
}

//  Where s_write_chunk is in a column's buffers, and the page at hand.
typedef struct {
    bool dict;     //  dictionary-encoded chunk: values are indices
    int bit_width; //  of the indices
    int64_t r;     //  the page's first row
    int64_t v;     //  its first value (non-null rows count)
    size_t bpos;   //  byte arrays: where its values start in the buffer
    int64_t rows;  //  the page's rows
    int64_t vals;  //  and values
    size_t bend;   //  byte arrays: where its values end
} s_pages_t;

//  Pick the rows of the page starting at pg->r, of the group's rows: as
//  many as keep the page body (levels and values) within opts.page_bytes,
//  one at least. Within, not about: zstd picks its parameters by the size
//  of its input, and a 256 KiB page 10 bytes over (a nullable column
//  without nulls) compressed to 1.7x the bytes of one just under. The
//  levels of r rows take at most r/4 bytes (an RLE run of 8 in 2 bytes)
//  plus S_PAGE_SLACK for their length and run headers.
static void
s_page_span (const s_column_t *c, int64_t rows, int64_t page_bytes, s_pages_t *pg)
{
    bool levels = c->col.nullable;
    if (c->width == 0 && !pg->dict) {
        //  PLAIN byte arrays: count their bytes.
        size_t bytes = 0, bend = pg->bpos;
        int64_t prows = 0, pvals = 0;
        while (pg->r + prows < rows) {
            bool value = !levels || c->defs[pg->r + prows];
            size_t sz = value ? 4 + (size_t) s_rd32 (c->bin.data + bend) : 0;
            size_t lv = levels ? (size_t) (prows + 1) / 4 + S_PAGE_SLACK : 0;
            if (prows > 0 && bytes + sz + lv > (size_t) page_bytes)
                break;
            bend += sz;
            bytes += sz;
            pvals += value;
            prows++;
        }
        pg->rows = prows;
        pg->vals = pvals;
        pg->bend = bend;
        return;
    }
    //  Bits a row takes: its value (an index, a bit, or PLAIN bytes) and
    //  at most 2 of levels.
    int64_t bits = pg->dict ? pg->bit_width : c->ptype == ZS_PQ_BOOLEAN ? 1 : 8 * c->width;
    bits += levels ? 2 : 0;
    int64_t slack = levels || pg->dict ? S_PAGE_SLACK : 0;
    int64_t per_page = (page_bytes - slack) * 8 / bits;
    per_page = per_page > 0 ? per_page : 1;
    pg->rows = rows - pg->r < per_page ? rows - pg->r : per_page;
    pg->vals = s_count_values (c, pg->r, pg->rows);
    pg->bend = pg->bpos;
}

//  PLAIN booleans: bits, LSB first.
static bool
s_put_bools (zs_bytes_t *page, const uint8_t *vals, int64_t n)
{
    size_t nbytes = ((size_t) n + 7) / 8;
    if (!zs_bytes_reserve (page, nbytes))
        return false;
    uint8_t *o = page->data + page->len;
    memset (o, 0, nbytes);
    for (int64_t i = 0; i < n; i++)
        o[i >> 3] |= (uint8_t) (vals[i] << (i & 7));
    page->len += nbytes;
    return true;
}

//  Data page v1 body into self->page: [4-byte length + RLE definition
//  levels] (nullable columns only) then the values, PLAIN or, for a
//  dictionary chunk, a bit width byte and RLE indices. false when out of
//  memory.
static bool
s_page_body (zs_parquet_writer_t *self, const s_column_t *c, const s_pages_t *pg)
{
    zs_bytes_t *page = &self->page;
    page->len = 0;
    if (c->col.nullable) {
        if (!zs_bytes_reserve (page, 4))
            return false;
        page->len = 4;
        zs_pq_rle_encode (page, c->defs + pg->r, NULL, (size_t) pg->rows, 1);
        if (!page->ok)
            return false;
        uint32_t levels = (uint32_t) (page->len - 4);
        memcpy (page->data, &levels, 4);
    }
    if (pg->dict) {
        zs_bytes_put_byte (page, (uint8_t) pg->bit_width);
        zs_pq_rle_encode (page, NULL, self->indices + pg->v, (size_t) pg->vals, pg->bit_width);
    } else if (c->ptype == ZS_PQ_BOOLEAN) {
        if (!s_put_bools (page, c->vals + pg->v, pg->vals))
            return false;
    } else if (c->delta && pg->vals > 0)
        zs_pq_delta_encode (page, c->vals + (size_t) pg->v * (size_t) c->width, (size_t) pg->vals,
                            c->width);
    else if (c->width)
        zs_bytes_put (page, c->vals + (size_t) pg->v * (size_t) c->width,
                      (size_t) pg->vals * (size_t) c->width);
    else
        zs_bytes_put (page, c->bin.data + pg->bpos, pg->bend - pg->bpos);
    return page->ok;
}

//  The dictionary page of a dictionary chunk; the indices' bit width.
static int
s_write_dict (zs_parquet_writer_t *self, s_chunk_t *chunk, s_pages_t *pg, char *err, size_t errlen)
{
    chunk->dict_page_offset = zs_io_file_offset (self->file);
    if (s_write_page (self, chunk, ZS_PQ_DICTIONARY_PAGE, self->dict.data, self->dict.len,
                      self->ndict, ZS_PQ_PLAIN, err, errlen)
        != 0)
        return -1;
    //  Width 0 is legal for a one-entry dictionary, but not every reader
    //  takes it.
    pg->bit_width = s_bits_for (self->ndict - 1);
    pg->bit_width = pg->bit_width ? pg->bit_width : 1;
    return 0;
}

//  A column's chunk of the row group: statistics, then a dictionary page
//  when one pays (byte arrays), then data pages.
static int
s_write_chunk (zs_parquet_writer_t *self, s_column_t *c, s_chunk_t *chunk, char *err, size_t errlen)
{
    int64_t rows = self->group_rows;
    chunk->num_values = rows;
    chunk->dict_page_offset = -1;
    s_chunk_stats (c, chunk);
    s_pages_t pg = {0};
    pg.dict = c->width == 0 && self->opts.dictionary && s_build_dict (self, c);
    if (pg.dict && s_write_dict (self, chunk, &pg, err, errlen) != 0)
        return -1;
    chunk->data_page_offset = zs_io_file_offset (self->file);
    while (pg.r < rows) {
        s_page_span (c, rows, self->opts.page_bytes, &pg);
        if (!s_page_body (self, c, &pg)) {
            self->page.ok = true;
            snprintf (err, errlen, "%s: out of memory", self->path);
            return -1;
        }
        //  An all-null page has no values to delta-encode: PLAIN, empty.
        int encoding = pg.dict                     ? ZS_PQ_RLE_DICTIONARY
                       : !c->delta || pg.vals == 0 ? ZS_PQ_PLAIN
                                                   : ZS_PQ_DELTA_BINARY_PACKED;
        if (s_write_page (self, chunk, ZS_PQ_DATA_PAGE, self->page.data, self->page.len, pg.rows,
                          encoding, err, errlen)
            != 0)
            return -1;
        pg.r += pg.rows;
        pg.v += pg.vals;
        pg.bpos = pg.bend;
    }
    return 0;
}

//  The pages of one nested leaf's chunk: level entries [l, l + n) and
//  their values, cut at row starts (repetition 0) once over page_bytes.
typedef struct {
    int64_t l, n;      //  level entries
    int64_t v, nv;     //  values
    size_t vpos, vend; //  value bytes
} s_leaf_page_t;

static void
s_leaf_span (const zs_parquet_writer_t *self, const zs_pq_leafbuf_t *b, int leaf, s_leaf_page_t *pg)
{
    const zs_pq_layout_t *L = self->layout;
    int64_t l = pg->l;
    size_t vend = pg->vpos, bytes = 0;
    int64_t nv = 0;
    while (l < b->nlevels) {
        if (l > pg->l && bytes > (size_t) self->opts.page_bytes
            && (!L->max_rep[leaf] || b->reps.data[l] == 0))
            break;
        bool value = !L->max_def[leaf] || b->defs.data[l] == L->max_def[leaf];
        if (value) {
            size_t sz = b->width ? (size_t) b->width : 4 + (size_t) s_rd32 (b->vals.data + vend);
            vend += sz;
            bytes += sz;
            nv++;
        }
        bytes += 1;
        l++;
    }
    pg->n = l - pg->l;
    pg->nv = nv;
    pg->vend = vend;
}

//  A page's levels: 4-byte length + RLE hybrid of width bits (max).
static void
s_put_levels (zs_bytes_t *page, const uint8_t *levels, int64_t n, int max)
{
    size_t at = page->len;
    uint8_t zero[4] = {0};
    zs_bytes_put (page, zero, 4);
    zs_pq_rle_encode (page, levels, NULL, (size_t) n, s_bits_for ((uint32_t) max));
    if (page->ok) {
        uint32_t len = (uint32_t) (page->len - at - 4);
        memcpy (page->data + at, &len, 4);
    }
}

//  One nested leaf's chunk: data pages v1, PLAIN values, null count
//  only (Paimon keeps no bounds for nested columns).
static int
s_write_leaf (zs_parquet_writer_t *self, int leaf, s_chunk_t *chunk, char *err, size_t errlen)
{
    zs_pq_leafbuf_t *b = &self->leafbufs[leaf];
    const zs_pq_layout_t *L = self->layout;
    chunk->num_values = b->nlevels;
    chunk->dict_page_offset = -1;
    chunk->null_count = b->nlevels - b->nvals;
    chunk->data_page_offset = zs_io_file_offset (self->file);
    s_leaf_page_t pg = {0};
    while (pg.l < b->nlevels) {
        s_leaf_span (self, b, leaf, &pg);
        zs_bytes_t *page = &self->page;
        page->len = 0;
        if (L->max_rep[leaf])
            s_put_levels (page, b->reps.data + pg.l, pg.n, L->max_rep[leaf]);
        if (L->max_def[leaf])
            s_put_levels (page, b->defs.data + pg.l, pg.n, L->max_def[leaf]);
        if (pg.nv == 0)
            ; //  all null or empty here: no values (and maybe no buffer)
        else if (b->ptype == ZS_PQ_BOOLEAN)
            s_put_bools (page, b->vals.data + pg.v, pg.nv);
        else
            zs_bytes_put (page, b->vals.data + pg.vpos, pg.vend - pg.vpos);
        if (!page->ok) {
            page->ok = true;
            return zs_pq_err (err, errlen, "%s: out of memory", self->path);
        }
        if (s_write_page (self, chunk, ZS_PQ_DATA_PAGE, page->data, page->len, pg.n, ZS_PQ_PLAIN,
                          err, errlen)
            != 0)
            return -1;
        pg.l += pg.n;
        pg.v += pg.nv;
        pg.vpos = pg.vend;
    }
    b->reps.len = b->defs.len = b->vals.len = 0;
    b->nlevels = b->nvals = 0;
    return 0;
}

//  The chunks of nested column i's leaves.
static int
s_write_leaves (zs_parquet_writer_t *self, int i, s_chunk_t *chunks, char *err, size_t errlen)
{
    const zs_pq_nest_t *n = &self->layout->col[i];
    for (int k = n->first_leaf; k < n->first_leaf + n->nleaves; k++)
        if (s_write_leaf (self, k, &chunks[k], err, errlen) != 0)
            return -1;
    return 0;
}

static int
s_flush_group (zs_parquet_writer_t *self, char *err, size_t errlen)
{
    if (self->group_rows == 0)
        return 0;
    if (self->ngroups == self->groups_cap) {
        int cap = self->groups_cap ? self->groups_cap * 2 : 8;
        s_group_t *groups = realloc (self->groups, (size_t) cap * sizeof *groups);
        if (!groups) {
            snprintf (err, errlen, "%s: out of memory", self->path);
            return -1;
        }
        self->groups = groups;
        self->groups_cap = cap;
    }
    s_group_t *g = &self->groups[self->ngroups];
    memset (g, 0, sizeof *g);
    int nchunks = self->layout ? self->layout->nleaves : self->schema.n;
    g->chunks = calloc ((size_t) nchunks, sizeof *g->chunks);
    if (!g->chunks) {
        snprintf (err, errlen, "%s: out of memory", self->path);
        return -1;
    }
    self->ngroups++;
    g->num_rows = self->group_rows;
    g->file_offset = zs_io_file_offset (self->file);
    for (int i = 0; i < self->schema.n; i++) {
        s_column_t *c = &self->cols[i];
        int first = self->layout ? self->layout->col[i].first_leaf : i;
        if (zs_type_is_nested (c->col.type)) {
            if (s_write_leaves (self, i, g->chunks, err, errlen) != 0)
                return -1;
        } else if (s_write_chunk (self, c, &g->chunks[first], err, errlen) != 0)
            return -1;
        c->nvals = 0;
        c->bin.len = 0;
    }
    for (int k = 0; k < nchunks; k++) {
        g->unc_size += g->chunks[k].unc_size;
        g->comp_size += g->chunks[k].comp_size;
    }
    self->group_rows = 0;
    self->flushed_in += self->buffered;
    self->buffered = 0;
    return 0;
}

//  --------------------------------------------------------------------------
//  Appending rows

//  Room for twice the rows (at most a row group) in the fixed-width
//  buffers.
static int
s_grow_rows (zs_parquet_writer_t *self)
{
    int64_t cap = self->row_cap ? self->row_cap * 2 : 128; //  small: many partitions' files
    cap = cap < self->opts.row_group_rows ? cap : self->opts.row_group_rows;
    for (int i = 0; i < self->schema.n; i++) {
        s_column_t *c = &self->cols[i];
        if (c->col.nullable) {
            uint8_t *defs = realloc (c->defs, (size_t) cap);
            if (!defs)
                return -1;
            c->defs = defs;
        }
        if (c->width) {
            uint8_t *vals = realloc (c->vals, (size_t) cap * (size_t) c->width);
            if (!vals)
                return -1;
            c->vals = vals;
        }
    }
    self->row_cap = cap;
    return 0;
}

//  A FIXED_LEN_BYTE_ARRAY decimal (big endian, width bytes) or an INT96
//  timestamp (nanoseconds of the day, then the Julian day, little endian)
//  as PLAIN pages hold it.
static void s_put_wide (const s_column_t *c, const zs_value_t *v, uint8_t *out);

void
zs_pq_put_wide (int ptype, int width, const zs_value_t *v, uint8_t *out)
{
    s_column_t c = {.ptype = ptype, .width = width};
    s_put_wide (&c, v, out);
}

static void
s_put_wide (const s_column_t *c, const zs_value_t *v, uint8_t *out)
{
    if (c->ptype == ZS_PQ_FIXED_LEN_BYTE_ARRAY) {
        zs_dec_put_be (out, c->width, zs_dec_get (v));
        return;
    }
    //  Floor division: a time before 1970 is an earlier day and a positive
    //  time of day, as the INT96 convention (Impala, Spark, Hive) has it.
    int64_t ns = v->v.i64, day = ns / S_NANOS_PER_DAY, nod = ns % S_NANOS_PER_DAY;
    if (nod < 0) {
        nod += S_NANOS_PER_DAY;
        day -= 1;
    }
    zs_le_put (out, (uint64_t) nod, 8);
    zs_le_put (out + 8, (uint32_t) (int32_t) (day + S_JULIAN_EPOCH), 4);
}

int
zs_parquet_writer_append (zs_parquet_writer_t *self, const zs_value_t *row, char *err,
                          size_t errlen)
{
    if (self->failed) {
        snprintf (err, errlen, "%s: writer failed earlier", self->path);
        return -1;
    }
    int n = self->schema.n;
    //  Every check and reservation first: a refused row changes nothing.
    for (int i = 0; i < n; i++) {
        s_column_t *c = &self->cols[i];
        if (c->nested)
            continue; //  zs_pq_shred checks and stores it
        if (row[i].null) {
            if (!c->col.nullable) {
                snprintf (err, errlen, "%s: column '%s' is NOT NULL: null refused", self->path,
                          c->col.name);
                return -1;
            }
        } else if (c->width == 0) {
            uint32_t len = row[i].v.bin.len;
            if (len > S_VALUE_MAX_BYTES) {
                snprintf (err, errlen, "%s: column '%s': value of %u bytes too long (max %u)",
                          self->path, c->col.name, len, S_VALUE_MAX_BYTES);
                return -1;
            }
            if (!zs_bytes_reserve (&c->bin, 4 + (size_t) len)) {
                c->bin.ok = true;
                snprintf (err, errlen, "%s: out of memory", self->path);
                return -1;
            }
        }
    }
    if (self->group_rows == self->row_cap && s_grow_rows (self) != 0) {
        snprintf (err, errlen, "%s: out of memory", self->path);
        return -1;
    }
    int64_t nested_bytes = 0;
    if (self->layout) {
        char why[ZS_ERRLEN];
        if (zs_pq_shred (&self->schema, self->layout, self->leafbufs, row, &nested_bytes, why,
                         sizeof why)
            != 0)
            return zs_pq_err (err, errlen, "%s: column %s", self->path, why);
    }
    //  The hot path: one store per column, no allocation (capacity was
    //  made above), no encoding.
    int64_t r = self->group_rows;
    int64_t added = self->row_bytes + nested_bytes;
    for (int i = 0; i < n; i++) {
        s_column_t *c = &self->cols[i];
        const zs_value_t *v = &row[i];
        if (c->nested)
            continue;
        if (c->col.nullable) {
            c->defs[r] = !v->null;
            if (v->null)
                continue;
        }
        switch (c->width) {
        case 0: {
            uint32_t len = v->v.bin.len;
            uint8_t *o = c->bin.data + c->bin.len;
            memcpy (o, &len, 4);
            if (len)
                memcpy (o + 4, v->v.bin.ptr, len);
            c->bin.len += 4 + (size_t) len;
            added += 4 + (int64_t) len;
            break;
        }
        case 1:
            c->vals[c->nvals] = v->v.b ? 1 : 0;
            break;
        case 4:
            memcpy (c->vals + c->nvals * 4, &v->v, 4);
            break;
        case 8:
            memcpy (c->vals + c->nvals * 8, &v->v, 8);
            break;
        default:
            s_put_wide (c, v, c->vals + c->nvals * c->width);
            break;
        }
        c->nvals++;
    }
    self->group_rows++;
    self->rows++;
    self->buffered += added;
    if (self->group_rows >= self->opts.row_group_rows || self->buffered >= S_GROUP_MAX_BYTES) {
        if (s_flush_group (self, err, errlen) != 0) {
            self->failed = true;
            return -1;
        }
    }
    return 0;
}

//  --------------------------------------------------------------------------
//  Footer and close

//  SchemaElement of a leaf: type, repetition, name, and for the annotated
//  types both the converted type (old readers) and the LogicalType union
//  (new ones).
//  The converted type and LogicalType union member of an annotation with
//  no parameters (STRING, DATE).
static void
s_enc_simple (zs_thrift_enc_t *e, int ct, int lt)
{
    zs_thrift_enc_field_i32 (e, 6, ct);
    zs_thrift_enc_field_struct (e, 10);
    zs_thrift_enc_field_struct (e, (int16_t) lt);
    zs_thrift_enc_struct_end (e);
    zs_thrift_enc_struct_end (e);
}

//  TIMESTAMP / TIME: converted type (LogicalTypes.md asks writers to add
//  it for local timestamps too; readers that know the logical type go by
//  isAdjustedToUTC), then LogicalType {utc, unit: 1 MILLIS, 2 MICROS}.
static void
s_enc_time (zs_thrift_enc_t *e, int ct, int lt, bool utc, int unit)
{
    zs_thrift_enc_field_i32 (e, 6, ct);
    zs_thrift_enc_field_struct (e, 10);
    zs_thrift_enc_field_struct (e, (int16_t) lt);
    zs_thrift_enc_field_bool (e, 1, utc);
    zs_thrift_enc_field_struct (e, 2);
    zs_thrift_enc_field_struct (e, (int16_t) unit);
    zs_thrift_enc_struct_end (e);
    zs_thrift_enc_struct_end (e);
    zs_thrift_enc_struct_end (e);
    zs_thrift_enc_struct_end (e);
}

//  INT_8 / INT_16 and LogicalType INTEGER {bitWidth, signed}.
static void
s_enc_int (zs_thrift_enc_t *e, int ct, int bits)
{
    zs_thrift_enc_field_i32 (e, 6, ct);
    zs_thrift_enc_field_struct (e, 10);
    zs_thrift_enc_field_struct (e, ZS_PQ_LT_INTEGER);
    zs_thrift_enc_field_i8 (e, 1, (int8_t) bits);
    zs_thrift_enc_field_bool (e, 2, true);
    zs_thrift_enc_struct_end (e);
    zs_thrift_enc_struct_end (e);
}

//  DECIMAL: converted type, scale and precision (fields 7, 8), then
//  LogicalType DECIMAL {scale, precision}.
static void
s_enc_decimal (zs_thrift_enc_t *e, const zs_column_t *col)
{
    int p = zs_column_precision (col), s = zs_column_scale (col);
    zs_thrift_enc_field_i32 (e, 6, ZS_PQ_CT_DECIMAL);
    zs_thrift_enc_field_i32 (e, 7, s);
    zs_thrift_enc_field_i32 (e, 8, p);
    zs_thrift_enc_field_struct (e, 10);
    zs_thrift_enc_field_struct (e, ZS_PQ_LT_DECIMAL);
    zs_thrift_enc_field_i32 (e, 1, s);
    zs_thrift_enc_field_i32 (e, 2, p);
    zs_thrift_enc_struct_end (e);
    zs_thrift_enc_struct_end (e);
}

//  SchemaElement of a leaf: type, [type_length,] repetition, name, and for
//  the annotated types both the converted type (old readers) and the
//  LogicalType union (new ones), as parquet-mr writes Paimon's schema.
static void
s_enc_schema (zs_thrift_enc_t *e, const s_column_t *c)
{
    const zs_column_t *col = &c->col;
    zs_thrift_enc_struct_begin (e);
    zs_thrift_enc_field_i32 (e, 1, c->ptype);
    if (c->ptype == ZS_PQ_FIXED_LEN_BYTE_ARRAY)
        zs_thrift_enc_field_i32 (e, 2, c->width);
    zs_thrift_enc_field_i32 (e, 3, col->nullable ? ZS_PQ_OPTIONAL : ZS_PQ_REQUIRED);
    zs_thrift_enc_field_string (e, 4, col->name);
    switch (col->type) {
    case ZS_TYPE_STRING:
    case ZS_TYPE_CHAR:
        s_enc_simple (e, ZS_PQ_CT_UTF8, ZS_PQ_LT_STRING);
        break;
    case ZS_TYPE_DATE:
        s_enc_simple (e, ZS_PQ_CT_DATE, ZS_PQ_LT_DATE);
        break;
    case ZS_TYPE_TIME:
        s_enc_time (e, ZS_PQ_CT_TIME_MILLIS, ZS_PQ_LT_TIME, true, 1);
        break;
    case ZS_TYPE_TIMESTAMP3:
        s_enc_time (e, ZS_PQ_CT_TIMESTAMP_MILLIS, ZS_PQ_LT_TIMESTAMP, col->ltz, 1);
        break;
    case ZS_TYPE_TIMESTAMP6:
        s_enc_time (e, ZS_PQ_CT_TIMESTAMP_MICROS, ZS_PQ_LT_TIMESTAMP, col->ltz, 2);
        break;
    case ZS_TYPE_TINYINT:
        s_enc_int (e, ZS_PQ_CT_INT_8, 8);
        break;
    case ZS_TYPE_SMALLINT:
        s_enc_int (e, ZS_PQ_CT_INT_16, 16);
        break;
    case ZS_TYPE_DECIMAL:
        s_enc_decimal (e, col);
        break;
    default: //  BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, BYTES, BINARY, INT96
        break;
    }
    zs_thrift_enc_struct_end (e);
}

//  ColumnChunk of a leaf: its physical type, whether it has levels, its
//  path (components split by ZS_PQ_PATH_SEP).
static void
s_enc_chunk (zs_thrift_enc_t *e, const zs_parquet_writer_t *self, int ptype, bool levels,
             const char *path, const s_chunk_t *ch)
{
    zs_thrift_enc_struct_begin (e); //  ColumnChunk
    zs_thrift_enc_field_i64 (e, 2, 0);
    zs_thrift_enc_field_struct (e, 3); //  ColumnMetaData
    zs_thrift_enc_field_i32 (e, 1, ptype);
    bool dict = ch->dict_page_offset >= 0;
    //  The encodings of its pages (the dictionary page's PLAIN too), and
    //  RLE for the levels.
    uint32_t set = ch->encodings | (levels ? UINT32_C (1) << ZS_PQ_RLE : 0);
    int encodings[32], nenc = 0;
    for (int k = 0; k < 32; k++)
        if (set >> k & 1)
            encodings[nenc++] = k;
    zs_thrift_enc_field_list (e, 2, ZS_THRIFT_I32, (uint32_t) nenc);
    for (int i = 0; i < nenc; i++)
        zs_thrift_enc_i32 (e, encodings[i]);
    uint32_t parts = 1;
    for (const char *p = path; *p; p++)
        parts += *p == ZS_PQ_PATH_SEP;
    zs_thrift_enc_field_list (e, 3, ZS_THRIFT_BINARY, parts);
    for (const char *p = path;;) {
        const char *q = strchr (p, ZS_PQ_PATH_SEP);
        size_t n = q ? (size_t) (q - p) : strlen (p);
        zs_thrift_enc_binary (e, p, n);
        if (!q)
            break;
        p = q + 1;
    }
    zs_thrift_enc_field_i32 (e, 4, self->cctx ? ZS_PQ_ZSTD : ZS_PQ_UNCOMPRESSED);
    zs_thrift_enc_field_i64 (e, 5, ch->num_values);
    zs_thrift_enc_field_i64 (e, 6, ch->unc_size);
    zs_thrift_enc_field_i64 (e, 7, ch->comp_size);
    zs_thrift_enc_field_i64 (e, 9, ch->data_page_offset);
    if (dict)
        zs_thrift_enc_field_i64 (e, 11, ch->dict_page_offset);
    zs_thrift_enc_field_struct (e, 12); //  Statistics
    zs_thrift_enc_field_i64 (e, 3, ch->null_count);
    if (ch->has_minmax) {
        zs_thrift_enc_field_binary (e, 5, ch->max, ch->max_len);
        zs_thrift_enc_field_binary (e, 6, ch->min, ch->min_len);
    }
    if ((ptype == ZS_PQ_FLOAT || ptype == ZS_PQ_DOUBLE))
        zs_thrift_enc_field_i64 (e, 9, ch->nan_count);
    zs_thrift_enc_struct_end (e); //  Statistics
    zs_thrift_enc_struct_end (e); //  ColumnMetaData
    zs_thrift_enc_struct_end (e); //  ColumnChunk
}

//  Chunk k: column k of a flat file, else leaf k of the layout.
static void
s_enc_leaf_chunk (zs_thrift_enc_t *e, const zs_parquet_writer_t *self, int k, const s_chunk_t *ch)
{
    if (!self->layout) {
        const s_column_t *c = &self->cols[k];
        s_enc_chunk (e, self, c->ptype, c->col.nullable, c->col.name, ch);
        return;
    }
    const zs_pq_layout_t *L = self->layout;
    int top = L->top[k];
    if (!zs_type_is_nested (self->schema.cols[top].type)) {
        const s_column_t *c = &self->cols[top];
        s_enc_chunk (e, self, c->ptype, c->col.nullable, c->col.name, ch);
        return;
    }
    s_enc_chunk (e, self, self->leafbufs[k].ptype, L->max_def[k] || L->max_rep[k], L->path[k], ch);
}

//  SchemaElements of a nested column or node, depth first: a ROW is a
//  group of its fields; ARRAY and MAP the three-level forms of
//  parquet_nested.h, annotated (converted type and LogicalType) LIST or
//  MAP. Scalars are leaves as s_enc_schema writes them.
static int
s_enc_node (zs_thrift_enc_t *e, const zs_schema_t *schema, const zs_column_t *col, bool encode)
{
    if (!zs_type_is_nested (col->type)) {
        s_column_t leaf = {.col = *col};
        leaf.ptype = zs_pq_physical_type (col);
        leaf.width = zs_pq_column_width (col);
        if (encode)
            s_enc_schema (e, &leaf);
        return 1;
    }
    bool list = col->type == ZS_TYPE_ARRAY, map = col->type == ZS_TYPE_MAP;
    if (encode) {
        zs_thrift_enc_struct_begin (e);
        zs_thrift_enc_field_i32 (e, 3, col->nullable ? ZS_PQ_OPTIONAL : ZS_PQ_REQUIRED);
        zs_thrift_enc_field_string (e, 4, col->name);
        zs_thrift_enc_field_i32 (e, 5, list || map ? 1 : col->nchild);
        if (list || map) {
            zs_thrift_enc_field_i32 (e, 6, list ? 3 : 1); //  ConvertedType LIST, MAP
            zs_thrift_enc_field_struct (e, 10);
            zs_thrift_enc_field_struct (e, list ? 3 : 2); //  LogicalType LIST, MAP
            zs_thrift_enc_struct_end (e);
            zs_thrift_enc_struct_end (e);
        }
        zs_thrift_enc_struct_end (e);
        if (list || map) {
            zs_thrift_enc_struct_begin (e);
            zs_thrift_enc_field_i32 (e, 3, ZS_PQ_REPEATED);
            zs_thrift_enc_field_string (e, 4, list ? "list" : "key_value");
            zs_thrift_enc_field_i32 (e, 5, col->nchild);
            zs_thrift_enc_struct_end (e);
        }
    }
    int count = list || map ? 2 : 1;
    for (int i = 0; i < col->nchild; i++)
        count += s_enc_node (e, schema, zs_schema_child (schema, col, i), encode);
    return count;
}

//  FileMetaData: version 1, the schema (a root group, then the leaves),
//  rows, row groups with their chunks' metadata and statistics,
//  created_by, column orders; then its length and the closing magic.
static int
s_write_footer (zs_parquet_writer_t *self, char *err, size_t errlen)
{
    int n = self->schema.n;
    int nleaves = self->layout ? self->layout->nleaves : n;
    zs_thrift_enc_t *e = &self->enc;
    zs_thrift_enc_reset (e);
    zs_thrift_enc_struct_begin (e); //  FileMetaData
    zs_thrift_enc_field_i32 (e, 1, 1);
    int nelems = 0;
    for (int i = 0; i < n; i++)
        nelems += s_enc_node (e, &self->schema, &self->schema.cols[i], false);
    zs_thrift_enc_field_list (e, 2, ZS_THRIFT_STRUCT, (uint32_t) nelems + 1);
    zs_thrift_enc_struct_begin (e); //  the root
    zs_thrift_enc_field_string (e, 4, "schema");
    zs_thrift_enc_field_i32 (e, 5, n);
    zs_thrift_enc_struct_end (e);
    for (int i = 0; i < n; i++)
        if (zs_type_is_nested (self->schema.cols[i].type))
            s_enc_node (e, &self->schema, &self->schema.cols[i], true);
        else
            s_enc_schema (e, &self->cols[i]);
    zs_thrift_enc_field_i64 (e, 3, self->rows);
    zs_thrift_enc_field_list (e, 4, ZS_THRIFT_STRUCT, (uint32_t) self->ngroups);
    for (int g = 0; g < self->ngroups; g++) {
        const s_group_t *gr = &self->groups[g];
        zs_thrift_enc_struct_begin (e); //  RowGroup
        zs_thrift_enc_field_list (e, 1, ZS_THRIFT_STRUCT, (uint32_t) nleaves);
        for (int k = 0; k < nleaves; k++)
            s_enc_leaf_chunk (e, self, k, &gr->chunks[k]);
        zs_thrift_enc_field_i64 (e, 2, gr->unc_size);
        zs_thrift_enc_field_i64 (e, 3, gr->num_rows);
        zs_thrift_enc_field_i64 (e, 5, gr->file_offset);
        zs_thrift_enc_field_i64 (e, 6, gr->comp_size);
        zs_thrift_enc_struct_end (e);
    }
    zs_thrift_enc_field_string (e, 6, S_CREATED_BY);
    //  TypeDefinedOrder for every column: readers may then trust
    //  min_value / max_value.
    zs_thrift_enc_field_list (e, 7, ZS_THRIFT_STRUCT, (uint32_t) nleaves);
    for (int i = 0; i < nleaves; i++) {
        zs_thrift_enc_struct_begin (e);
        zs_thrift_enc_field_struct (e, 1);
        zs_thrift_enc_struct_end (e);
        zs_thrift_enc_struct_end (e);
    }
    zs_thrift_enc_struct_end (e);
    if (!e->ok || e->len > UINT32_MAX) {
        snprintf (err, errlen, "%s: out of memory", self->path);
        return -1;
    }
    uint8_t tail[8];
    uint32_t len = (uint32_t) e->len;
    memcpy (tail, &len, 4);
    memcpy (tail + 4, "PAR1", 4);
    if (s_write (self, e->data, e->len, err, errlen) != 0
        || s_write (self, tail, sizeof tail, err, errlen) != 0)
        return -1;
    return 0;
}

int
zs_parquet_writer_close (zs_parquet_writer_t **self_p, int64_t *size, zs_column_stats_t *stats,
                         char *err, size_t errlen)
{
    if (!self_p || !*self_p) {
        snprintf (err, errlen, "parquet writer: nothing to close");
        return -1;
    }
    zs_parquet_writer_t *self = *self_p;
    int rc = 0;
    if (self->failed) {
        snprintf (err, errlen, "%s: writer failed earlier", self->path);
        rc = -1;
    }
    if (rc == 0)
        rc = s_flush_group (self, err, errlen);
    if (rc == 0)
        rc = s_write_footer (self, err, errlen);
    if (rc == 0) {
        int64_t bytes = zs_io_file_offset (self->file);
        rc = zs_io_file_close (&self->file, err, errlen);
        if (rc != 0)
            zs_io_unlink (self->path);
        else if (size)
            *size = bytes;
    } else
        zs_io_file_abort (&self->file);
    if (rc == 0 && stats) {
        for (int i = 0; i < self->schema.n; i++) {
            s_column_t *c = &self->cols[i];
            zs_pq_stats_copy (&stats[i], &c->stats, c->col.type);
            if (c->ptype == ZS_PQ_INT96)
                stats[i].has_minmax = false;
            if (c->stats_unknown)
                stats[i].has_minmax = false;
            if (zs_type_is_nested (c->col.type))
                stats[i].null_count = -1; //  none kept: Paimon has none for nested columns
            zs_pq_stats_fix_zeros (&stats[i], c->col.type);
        }
    }
    s_free (self);
    *self_p = NULL;
    return rc;
}

void
zs_parquet_writer_abort (zs_parquet_writer_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_io_file_abort (&(*self_p)->file);
    s_free (*self_p);
    *self_p = NULL;
}

//  --------------------------------------------------------------------------
//  Memory pressure (a writer with many partitions' files open)

int64_t
zs_parquet_writer_buffered (zs_parquet_writer_t *self)
{
    return self->buffered;
}

int
zs_parquet_writer_flush (zs_parquet_writer_t *self, char *err, size_t errlen)
{
    if (self->failed)
        return zs_pq_err (err, errlen, "%s: the writer failed before", self->path);
    if (self->group_rows > 0 && s_flush_group (self, err, errlen) != 0) {
        self->failed = true;
        return -1;
    }
    //  Give back what the row group and its encoding held: the next row
    //  grows the buffers again from their smallest size.
    for (int i = 0; i < self->schema.n; i++) {
        s_column_t *c = &self->cols[i];
        free (c->defs);
        free (c->vals);
        c->defs = c->vals = NULL;
        zs_bytes_fini (&c->bin);
        zs_bytes_init (&c->bin);
    }
    self->row_cap = 0;
    zs_bytes_fini (&self->page);
    zs_bytes_init (&self->page);
    zs_bytes_fini (&self->zpage);
    zs_bytes_init (&self->zpage);
    zs_bytes_fini (&self->dict);
    zs_bytes_init (&self->dict);
    free (self->dict_off);
    free (self->slots);
    free (self->indices);
    self->dict_off = NULL;
    self->slots = NULL;
    self->indices = NULL;
    self->dict_off_cap = self->nslots = self->indices_cap = 0;
    self->ndict = 0;
    if (zs_io_file_release (self->file, err, errlen) != 0) {
        self->failed = true;
        return -1;
    }
    if (self->cctx) {
        //  zstd's tables are sized by the inputs seen; an empty context is
        //  small (and says the file is compressed, as before)
        ZSTD_freeCCtx (self->cctx);
        if (!(self->cctx = ZSTD_createCCtx ())) {
            self->failed = true;
            return zs_pq_err (err, errlen, "%s: out of memory", self->path);
        }
    }
    return 0;
}
