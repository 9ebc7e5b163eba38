/*  parquet_read.c - the Parquet reader (parquet.h), its second half:
    opening a file, then its rows. parquet_meta.c decodes and checks the
    footer (parquet_priv.h: zs_pq_footer_decode).

    Open checks the file's ends: magic at both, footer length within the
    file; the footer is then decoded and checked whole (a flat schema of
    supported types, every column chunk's byte range inside the data
    region, value counts adding up). Rows are decoded lazily: a row group's
    column chunks are read whole (each within the file, so memory is
    bounded by the file's size), and each column is a cursor that decodes
    one page at a time and hands out one value per row.

    Invariants:
    1. Nothing read from the file is trusted before it is checked: every
       offset and length against the bytes it may address, every count
       against the bytes that must hold it, so allocations are bounded by
       the file size (pages also by S_PAGE_MAX and the codec's largest
       possible expansion).
    2. Every error names the file, and from row decoding also the row
       group and column.
    3. A column cursor never reads a value past its page, nor a page past
       its chunk: a short page or chunk is an error, not a shorter file.
*/
#include "parquet_priv.h"
#include "parquet_nested.h"
#include "snappy.h"
#include "thrift.h"
#include "io.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define S_PAGE_MAX (512 << 20) //  largest page (uncompressed) accepted

//  A column's decoding cursor over the current row group.
typedef struct {
    int ptype;
    int width; //  PLAIN bytes of a FIXED_LEN_BYTE_ARRAY or INT96 value
    const zs_column_t *col;
    bool optional;   //  has definition levels (max_def > 0)
    uint8_t max_def; //  1 for a flat column's, more inside nested types
    uint8_t max_rep; //  0 outside lists and maps
    int codec;
    uint8_t *chunk; //  the chunk's bytes, read whole
    size_t chunk_cap;
    size_t chunk_len;
    size_t pos;          //  next page header in chunk
    int64_t values_left; //  in the chunk, pages not yet started
    bool data_seen;      //  a data page was started: no dictionary after
    //  Dictionary
    bool has_dict;
    zs_value_t *dict;
    uint32_t dict_n;
    uint8_t *dict_buf; //  decompressed dictionary page
    size_t dict_cap;
    //  Current data page
    uint8_t *page_buf; //  decompressed page
    size_t page_cap;
    int64_t page_left; //  values (nulls included) left in the page
    zs_pq_rle_dec_t defs;
    zs_pq_rle_dec_t reps;
    bool dict_page; //  values are dictionary indices
    zs_pq_rle_dec_t idx;
    const uint8_t *vp; //  PLAIN values
    const uint8_t *vend;
    zs_bytes_t plain;   //  a DELTA_* page's values decoded to PLAIN
    zs_bytes_t scratch; //  DELTA_BYTE_ARRAY's lengths
    uint64_t bool_bit;  //  PLAIN booleans: next bit at vp
} s_col_t;

struct _zs_parquet_reader_t {
    char path[ZS_PATH_MAX];
    zs_io_reader_t *in; //  local pread or S3 ranged GETs
    int64_t file_size;
    int64_t data_end;    //  where the footer starts
    zs_pq_footer_t meta; //  schema, row groups, statistics
    uint32_t next_group;
    int cur_group;
    int64_t group_left;           //  rows left in the current row group
    s_col_t cols[ZS_MAX_COLUMNS]; //  by chunk (a nested file's: by leaf)
    ZSTD_DCtx *dctx;
    zs_pq_assembler_t assembler; //  nested columns' rows
};

static int s_triple (void *ctx, int leaf, uint32_t *rep, uint32_t *def, zs_value_t *v, char *why,
                     size_t len);

//  Read exactly len bytes at offset.
static int
s_pread (zs_parquet_reader_t *self, void *buf, size_t len, int64_t offset, char *err, size_t errlen)
{
    return zs_io_reader_pread (self->in, buf, len, offset, err, errlen);
}

//  *buf holding n bytes at least, and never NULL: grown to exactly n, as
//  what is read whole (a chunk, a page) needs no room to grow into.
static bool
s_fit (uint8_t **buf, size_t *cap, size_t n)
{
    if (*buf && *cap >= n)
        return true;
    uint8_t *b = realloc (*buf, n ? n : 1);
    if (!b)
        return false;
    *buf = b;
    *cap = n;
    return true;
}

//  --------------------------------------------------------------------------
//  Open

static void
s_free (zs_parquet_reader_t *self)
{
    for (int i = 0; i < ZS_MAX_COLUMNS; i++) {
        free (self->cols[i].chunk);
        free (self->cols[i].dict);
        free (self->cols[i].dict_buf);
        free (self->cols[i].page_buf);
        zs_bytes_fini (&self->cols[i].plain);
        zs_bytes_fini (&self->cols[i].scratch);
    }
    zs_pq_footer_fini (&self->meta);
    zs_pq_assembler_fini (&self->assembler);
    ZSTD_freeDCtx (self->dctx);
    zs_io_reader_close (&self->in);
    free (self);
}

//  Open the file and check its ends: 12 bytes at least, "PAR1" at both,
//  a footer length that fits. Sets in, file_size, data_end.
static int
s_open_file (zs_parquet_reader_t *self, uint32_t *footer_len, char *err, size_t errlen)
{
    const char *path = self->path;
    self->in = zs_io_reader_open (path, err, errlen);
    if (!self->in)
        return -1;
    self->file_size = zs_io_reader_size (self->in);
    uint8_t head[4], tail[8];
    if (self->file_size < 12)
        return zs_pq_err (err, errlen, "%s: %lld bytes: too short for Parquet", path,
                          (long long) self->file_size);
    if (s_pread (self, head, 4, 0, err, errlen) != 0
        || s_pread (self, tail, 8, self->file_size - 8, err, errlen) != 0)
        return -1;
    if (memcmp (head, "PAR1", 4) != 0 || memcmp (tail + 4, "PAR1", 4) != 0)
        return zs_pq_err (err, errlen, "%s: not a Parquet file (no PAR1 magic at both ends)", path);
    memcpy (footer_len, tail, 4);
    if (*footer_len == 0 || (int64_t) *footer_len > self->file_size - 12)
        return zs_pq_err (err, errlen, "%s: footer length %u does not fit a file of %lld bytes",
                          path, *footer_len, (long long) self->file_size);
    self->data_end = self->file_size - 8 - *footer_len;
    return 0;
}

//  Read the footer's bytes and decode them (parquet_meta.c); they are not
//  needed afterwards.
static int
s_read_footer (zs_parquet_reader_t *self, uint32_t footer_len, char *err, size_t errlen)
{
    uint8_t *footer = malloc (footer_len);
    if (!footer)
        return zs_pq_err (err, errlen, "%s: out of memory", self->path);
    int rc = s_pread (self, footer, footer_len, self->data_end, err, errlen);
    if (rc == 0)
        rc = zs_pq_footer_decode (&self->meta, self->path, footer, footer_len, self->data_end, err,
                                  errlen);
    free (footer);
    return rc;
}

zs_parquet_reader_t *
zs_parquet_reader_open (const char *path, char *err, size_t errlen)
{
    zs_parquet_reader_t *self = calloc (1, sizeof *self);
    if (!self) {
        zs_pq_err (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    uint32_t footer_len = 0;
    int rc = 0;
    if (snprintf (self->path, sizeof self->path, "%s", path) >= (int) sizeof self->path)
        rc = zs_pq_err (err, errlen, "%s: path too long", path);
    if (rc == 0)
        rc = s_open_file (self, &footer_len, err, errlen);
    if (rc == 0)
        rc = s_read_footer (self, footer_len, err, errlen);
    if (rc == 0 && !(self->dctx = ZSTD_createDCtx ()))
        rc = zs_pq_err (err, errlen, "%s: out of memory", path);
    if (rc != 0) {
        s_free (self);
        return NULL;
    }
    const zs_pq_layout_t *L = self->meta.layout;
    for (int i = 0; i < self->meta.nchunks; i++) {
        self->cols[i].ptype = self->meta.ptypes[i];
        self->cols[i].width = self->meta.widths[i];
        self->cols[i].col = &self->meta.chunk_cols[i];
        self->cols[i].max_def = L ? L->max_def[i] : self->meta.chunk_cols[i].nullable;
        self->cols[i].max_rep = L ? L->max_rep[i] : 0;
        self->cols[i].optional = self->cols[i].max_def > 0;
    }
    self->assembler.next = s_triple;
    self->assembler.ctx = self;
    self->cur_group = -1;
    return self;
}

const zs_schema_t *
zs_parquet_reader_schema (zs_parquet_reader_t *self)
{
    return &self->meta.schema;
}

int64_t
zs_parquet_reader_num_rows (zs_parquet_reader_t *self)
{
    return self->meta.num_rows;
}

int
zs_parquet_reader_num_row_groups (zs_parquet_reader_t *self)
{
    return (int) self->meta.ngroups;
}

const zs_column_stats_t *
zs_parquet_reader_stats (zs_parquet_reader_t *self, int col)
{
    //  Nested columns have none (Paimon keeps none for them).
    static const zs_column_stats_t none = {.null_count = -1};
    if (col < 0 || col >= self->meta.schema.n)
        return NULL;
    if (!self->meta.layout)
        return &self->meta.stats[col];
    if (zs_type_is_nested (self->meta.schema.cols[col].type))
        return &none;
    return &self->meta.stats[self->meta.layout->col[col].first_leaf];
}

void
zs_parquet_reader_destroy (zs_parquet_reader_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    s_free (*self_p);
    *self_p = NULL;
}

//  --------------------------------------------------------------------------
//  Decompression

//  Make *data (len bytes, compressed with codec) unc_len plain bytes,
//  decompressing into *buf when needed. 0, or -1 with why.
static int
s_decompress (zs_parquet_reader_t *self, int codec, const uint8_t **data, size_t len,
              size_t unc_len, uint8_t **buf, size_t *cap, char *why, size_t why_len)
{
    if (codec == ZS_PQ_UNCOMPRESSED)
        return unc_len == len ? 0 : zs_pq_err (why, why_len, "uncompressed page sizes differ");
    //  A size the codec cannot reach from this input is corrupt: refuse it
    //  before allocating (snappy expands at most 64/3 per byte; zstd about
    //  32768 in an RLE block).
    uint64_t most =
        codec == ZS_PQ_SNAPPY ? (uint64_t) len * 22 + 64 : (uint64_t) len * 32768 + 65536;
    if (unc_len > S_PAGE_MAX || unc_len > most)
        return zs_pq_err (why, why_len, "page size implausible");
    if (!s_fit (buf, cap, unc_len))
        return zs_pq_err (why, why_len, "out of memory");
    if (codec == ZS_PQ_SNAPPY) {
        if (zs_snappy_decompress (*data, len, *buf, unc_len) != 0)
            return zs_pq_err (why, why_len, "snappy data corrupt");
    } else {
        unsigned long long fcs = ZSTD_getFrameContentSize (*data, len);
        if (fcs == ZSTD_CONTENTSIZE_ERROR || (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs > unc_len))
            return zs_pq_err (why, why_len, "zstd data corrupt");
        size_t n = ZSTD_decompressDCtx (self->dctx, *buf, unc_len, *data, len);
        if (ZSTD_isError (n) || n != unc_len)
            return zs_pq_err (why, why_len, "zstd data corrupt");
    }
    *data = *buf;
    return 0;
}

//  --------------------------------------------------------------------------
//  Page headers

typedef struct {
    int32_t type;
    int32_t unc_size;
    int32_t comp_size;
    int32_t crc;
    bool has_type, has_unc, has_comp, has_crc;
    //  data page (v1 and v2), dictionary page
    bool has_sub;
    int32_t num_values;
    int32_t encoding;
    int32_t def_encoding; //  v1
    int32_t num_nulls;    //  v2
    int32_t def_len;      //  v2
    int32_t rep_len;      //  v2
    bool is_compressed;   //  v2
} s_page_header_t;

#define S_COUNT(table) (sizeof (table) / sizeof (table)[0])
#define S_NO ZS_THRIFT_NO_FLAG
#define S_PH(member) offsetof (s_page_header_t, member)

//  DataPageHeader
static const zs_thrift_field_t s_data_v1_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_PH (num_values), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_I32, S_PH (encoding), S_NO, NULL},
    {3, ZS_THRIFT_KEEP_I32, S_PH (def_encoding), S_NO, NULL},
};

//  DictionaryPageHeader
static const zs_thrift_field_t s_dict_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_PH (num_values), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_I32, S_PH (encoding), S_NO, NULL},
};

//  DataPageHeaderV2
static const zs_thrift_field_t s_data_v2_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_PH (num_values), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_I32, S_PH (num_nulls), S_NO, NULL},
    {4, ZS_THRIFT_KEEP_I32, S_PH (encoding), S_NO, NULL},
    {5, ZS_THRIFT_KEEP_I32, S_PH (def_len), S_NO, NULL},
    {6, ZS_THRIFT_KEEP_I32, S_PH (rep_len), S_NO, NULL},
    {7, ZS_THRIFT_KEEP_BOOL, S_PH (is_compressed), S_NO, NULL},
};

//  The header of the page's own type, field id: 5 for a data page, 7 for
//  a dictionary page, 8 (v2) for any other type (index pages are skipped
//  later). Read the first time it comes after the page type; skipped
//  otherwise.
static int
s_dec_sub_header (zs_thrift_dec_t *d, int type, s_page_header_t *h, int16_t id,
                  const zs_thrift_field_t *fields, size_t nfields)
{
    int16_t own = h->type == ZS_PQ_DATA_PAGE ? 5 : h->type == ZS_PQ_DICTIONARY_PAGE ? 7 : 8;
    if (h->has_sub || !h->has_type || id != own)
        return zs_thrift_dec_skip (d, type);
    h->has_sub = true;
    return zs_thrift_dec_struct (d, fields, nfields, h);
}

static int
s_dec_data_v1 (zs_thrift_dec_t *d, int type, void *obj)
{
    return s_dec_sub_header (d, type, obj, 5, s_data_v1_fields, S_COUNT (s_data_v1_fields));
}

static int
s_dec_dict (zs_thrift_dec_t *d, int type, void *obj)
{
    return s_dec_sub_header (d, type, obj, 7, s_dict_fields, S_COUNT (s_dict_fields));
}

static int
s_dec_data_v2 (zs_thrift_dec_t *d, int type, void *obj)
{
    return s_dec_sub_header (d, type, obj, 8, s_data_v2_fields, S_COUNT (s_data_v2_fields));
}

//  PageHeader
static const zs_thrift_field_t s_page_header_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_PH (type), S_PH (has_type), NULL},
    {2, ZS_THRIFT_KEEP_I32, S_PH (unc_size), S_PH (has_unc), NULL},
    {3, ZS_THRIFT_KEEP_I32, S_PH (comp_size), S_PH (has_comp), NULL},
    {4, ZS_THRIFT_KEEP_I32, S_PH (crc), S_PH (has_crc), NULL},
    {5, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_data_v1},
    {7, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_dict},
    {8, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_data_v2},
};

static int
s_dec_page_header (zs_thrift_dec_t *d, s_page_header_t *h)
{
    memset (h, 0, sizeof *h);
    h->def_encoding = ZS_PQ_RLE;
    h->is_compressed = true;
    return zs_thrift_dec_struct (d, s_page_header_fields, S_COUNT (s_page_header_fields), h);
}

//  The page header at c->pos, its sizes checked against the chunk and its
//  checksum against the page: *body is the page's stored bytes, and c->pos
//  moves past them.
static int
s_read_page_header (s_col_t *c, s_page_header_t *h, const uint8_t **body, char *why, size_t why_len)
{
    if (c->pos >= c->chunk_len)
        return zs_pq_err (why, why_len, "column chunk ends before its last value");
    zs_thrift_dec_t d;
    zs_thrift_dec_init (&d, c->chunk + c->pos, c->chunk_len - c->pos);
    if (s_dec_page_header (&d, h) != 0 || d.error)
        return zs_pq_err (why, why_len, "page header at chunk byte %zu: %s", c->pos,
                          d.error ? d.error : "malformed");
    size_t hlen = zs_thrift_dec_offset (&d);
    if (!h->has_type || !h->has_unc || !h->has_comp || h->unc_size < 0 || h->comp_size < 0
        || (size_t) h->comp_size > c->chunk_len - c->pos - hlen)
        return zs_pq_err (why, why_len,
                          "page header at chunk byte %zu: sizes missing or beyond the chunk",
                          c->pos);
    *body = c->chunk + c->pos + hlen;
    if (h->has_crc && (uint32_t) h->crc != zs_pq_crc32 (0, *body, (size_t) h->comp_size))
        return zs_pq_err (why, why_len, "page at chunk byte %zu: checksum mismatch", c->pos);
    c->pos += hlen + (size_t) h->comp_size;
    return 0;
}

//  --------------------------------------------------------------------------
//  Pages and values

//  One PLAIN value of the column's physical type from [*p, end). Booleans
//  are bits, LSB first, counted from the start of the values.
static int
s_plain_value (const s_col_t *c, const uint8_t **p, const uint8_t *end, uint64_t *bool_bit,
               zs_value_t *out)
{
    size_t left = (size_t) (end - *p);
    int ptype = c->ptype;
    out->null = false;
    switch (ptype) {
    case ZS_PQ_FIXED_LEN_BYTE_ARRAY:
    case ZS_PQ_INT96:
        if (left < (size_t) c->width)
            return -1;
        out->v.bin.ptr = *p;
        out->v.bin.len = (uint32_t) c->width;
        *p += c->width;
        return 0;
    case ZS_PQ_BOOLEAN: {
        uint64_t byte = *bool_bit >> 3;
        if (byte >= left)
            return -1;
        out->v.b = ((*p)[byte] >> (*bool_bit & 7)) & 1;
        (*bool_bit)++;
        return 0;
    }
    case ZS_PQ_INT32:
    case ZS_PQ_FLOAT:
    case ZS_PQ_INT64:
    case ZS_PQ_DOUBLE: {
        size_t width = (size_t) zs_pq_value_width (ptype);
        if (left < width)
            return -1;
        memcpy (&out->v, *p, width);
        *p += width;
        return 0;
    }
    case ZS_PQ_BYTE_ARRAY: {
        uint32_t len;
        if (left < 4)
            return -1;
        memcpy (&len, *p, 4);
        if (len > left - 4)
            return -1;
        out->v.bin.ptr = *p + 4;
        out->v.bin.len = len;
        *p += 4 + (size_t) len;
        return 0;
    }
    }
    return -1;
}

static int
s_load_dict (zs_parquet_reader_t *self, s_col_t *c, const s_page_header_t *h, const uint8_t *body,
             char *why, size_t why_len)
{
    if (c->has_dict || c->data_seen)
        return zs_pq_err (why, why_len, "second or late dictionary page");
    if (h->encoding != ZS_PQ_PLAIN && h->encoding != ZS_PQ_PLAIN_DICTIONARY)
        return zs_pq_err (why, why_len, "dictionary page encoding not supported");
    if (s_decompress (self, c->codec, &body, (size_t) h->comp_size, (size_t) h->unc_size,
                      &c->dict_buf, &c->dict_cap, why, why_len)
        != 0)
        return -1;
    //  Every entry takes at least a bit (booleans) or a byte: a count the
    //  page cannot hold is corrupt, and bounds the allocation.
    uint64_t n = (uint32_t) h->num_values;
    uint64_t unc = (uint64_t) h->unc_size;
    uint64_t most = c->ptype == ZS_PQ_BOOLEAN                             ? unc * 8
                    : c->ptype == ZS_PQ_INT64 || c->ptype == ZS_PQ_DOUBLE ? unc / 8
                    : c->width > 0 && c->ptype != ZS_PQ_INT32 && c->ptype != ZS_PQ_FLOAT
                        ? unc / (uint64_t) c->width
                        : unc / 4;
    if (h->num_values < 0 || n > most)
        return zs_pq_err (why, why_len, "dictionary size implausible");
    free (c->dict);
    c->dict = malloc ((n ? n : 1) * sizeof *c->dict);
    if (!c->dict)
        return zs_pq_err (why, why_len, "out of memory");
    const uint8_t *p = body, *end = body + h->unc_size;
    uint64_t bit = 0;
    for (uint64_t i = 0; i < n; i++)
        if (s_plain_value (c, &p, end, &bit, &c->dict[i]) != 0)
            return zs_pq_err (why, why_len, "dictionary page truncated");
    c->dict_n = (uint32_t) n;
    c->has_dict = true;
    return 0;
}

//  DELTA_BINARY_PACKED values [p, end) of an INT32/INT64 page of
//  num_values entries, decoded whole into c->plain; the cursor then reads
//  them as PLAIN. At most num_values values, and no more bytes than a page
//  may have: a count in the header cannot make the allocation.
static int
s_start_delta (s_col_t *c, int64_t num_values, const uint8_t *p, const uint8_t *end, char *why,
               size_t why_len)
{
    int width = zs_pq_value_width (c->ptype);
    if (c->ptype != ZS_PQ_INT32 && c->ptype != ZS_PQ_INT64)
        return zs_pq_err (why, why_len, "encoding DELTA_BINARY_PACKED for a %s column",
                          zs_pq_type_name (c->ptype));
    size_t most = (size_t) num_values < S_PAGE_MAX / (size_t) width ? (size_t) num_values
                                                                    : S_PAGE_MAX / (size_t) width;
    size_t n;
    zs_bytes_reset (&c->plain);
    if (zs_pq_delta_decode (p, (size_t) (end - p), width, most, &c->plain, &n) != 0)
        return zs_pq_err (why, why_len, "DELTA_BINARY_PACKED values corrupt or truncated");
    if (n > 0) {
        c->vp = c->plain.data;
        c->vend = c->plain.data + n * (size_t) width;
    } else
        c->vp = c->vend = end; //  no values (an all-null page)
    return 0;
}

//  DELTA_BYTE_ARRAY (or DELTA_LENGTH_BYTE_ARRAY) values [p, end) of a
//  BYTE_ARRAY page of num_values entries, decoded whole into c->plain as
//  PLAIN byte arrays, within S_PAGE_MAX bytes.
static int
s_start_dba (s_col_t *c, int encoding, int64_t num_values, const uint8_t *p, const uint8_t *end,
             char *why, size_t why_len)
{
    if (c->ptype != ZS_PQ_BYTE_ARRAY)
        return zs_pq_err (why, why_len, "encoding %s for a %s column",
                          zs_pq_encoding_name (encoding), zs_pq_type_name (c->ptype));
    size_t n;
    zs_bytes_reset (&c->plain);
    zs_bytes_reset (&c->scratch);
    if (zs_pq_dba_decode (p, (size_t) (end - p), encoding == ZS_PQ_DELTA_BYTE_ARRAY,
                          (size_t) num_values, S_PAGE_MAX, &c->plain, &c->scratch, &n)
        != 0)
        return zs_pq_err (why, why_len, "%s values corrupt or truncated",
                          zs_pq_encoding_name (encoding));
    if (n > 0) {
        c->vp = c->plain.data;
        c->vend = c->plain.data + c->plain.len;
    } else
        c->vp = c->vend = end;
    return 0;
}

//  Aim the value cursor at a data page's values [p, end): PLAIN,
//  DELTA_BINARY_PACKED integers, or dictionary indices (a bit width byte,
//  then RLE/bit-packed).
static int
s_start_values (s_col_t *c, int encoding, int64_t num_values, const uint8_t *p, const uint8_t *end,
                char *why, size_t why_len)
{
    c->vp = p;
    c->vend = end;
    c->bool_bit = 0;
    c->dict_page = false;
    if (encoding == ZS_PQ_PLAIN)
        return 0;
    if (encoding == ZS_PQ_DELTA_BINARY_PACKED)
        return s_start_delta (c, num_values, p, end, why, why_len);
    if (encoding == ZS_PQ_DELTA_BYTE_ARRAY || encoding == ZS_PQ_DELTA_LENGTH_BYTE_ARRAY)
        return s_start_dba (c, encoding, num_values, p, end, why, why_len);
    if (encoding != ZS_PQ_PLAIN_DICTIONARY && encoding != ZS_PQ_RLE_DICTIONARY)
        return zs_pq_err (why, why_len, "encoding %s not supported",
                          zs_pq_encoding_name (encoding));
    if (!c->has_dict)
        return zs_pq_err (why, why_len, "dictionary-encoded page without a dictionary");
    if (p >= end) {
        //  Only an all-null page may have no bit width.
        zs_pq_rle_dec_init (&c->idx, p, 0, 0);
    } else {
        if (*p > 32)
            return zs_pq_err (why, why_len, "dictionary index bit width out of range");
        zs_pq_rle_dec_init (&c->idx, p + 1, (size_t) (end - p - 1), *p);
    }
    c->dict_page = true;
    return 0;
}

//  Bits of the levels up to max (RLE hybrid width).
static int
s_level_bits (uint32_t max)
{
    int bits = 0;
    while (max >> bits)
        bits++;
    return bits;
}

//  A v1 data page: all of it compressed; [4-byte length + RLE definition
//  levels] for a nullable column, then the values in [*p, *end).
static int
s_page_v1 (zs_parquet_reader_t *self, s_col_t *c, const s_page_header_t *h, const uint8_t *body,
           const uint8_t **p, const uint8_t **end, char *why, size_t why_len)
{
    if (s_decompress (self, c->codec, &body, (size_t) h->comp_size, (size_t) h->unc_size,
                      &c->page_buf, &c->page_cap, why, why_len)
        != 0)
        return -1;
    *p = body;
    *end = body + h->unc_size;
    uint32_t len;
    if (c->max_rep) {
        if (*end - *p < 4 || (memcpy (&len, *p, 4), len > (size_t) (*end - *p) - 4))
            return zs_pq_err (why, why_len, "repetition levels truncated");
        zs_pq_rle_dec_init (&c->reps, *p + 4, len, s_level_bits (c->max_rep));
        *p += 4 + (size_t) len;
    }
    if (!c->optional)
        return 0;
    if (h->def_encoding != ZS_PQ_RLE)
        return zs_pq_err (why, why_len, "definition levels %s not supported",
                          zs_pq_encoding_name (h->def_encoding));
    if (*end - *p < 4 || (memcpy (&len, *p, 4), len > (size_t) (*end - *p) - 4))
        return zs_pq_err (why, why_len, "definition levels truncated");
    zs_pq_rle_dec_init (&c->defs, *p + 4, len, s_level_bits (c->max_def));
    *p += 4 + (size_t) len;
    return 0;
}

//  A v2 data page: the levels first, never compressed; then the values,
//  compressed unless is_compressed says otherwise, in [*p, *end).
static int
s_page_v2 (zs_parquet_reader_t *self, s_col_t *c, const s_page_header_t *h, const uint8_t *body,
           const uint8_t **p, const uint8_t **end, char *why, size_t why_len)
{
    size_t levels = (size_t) h->def_len + (size_t) h->rep_len;
    if (h->def_len < 0 || h->rep_len < 0 || levels > (size_t) h->comp_size
        || levels > (size_t) h->unc_size)
        return zs_pq_err (why, why_len, "level lengths beyond the page");
    if (c->max_rep)
        zs_pq_rle_dec_init (&c->reps, body, (size_t) h->rep_len, s_level_bits (c->max_rep));
    if (c->optional)
        zs_pq_rle_dec_init (&c->defs, body + h->rep_len, (size_t) h->def_len,
                            s_level_bits (c->max_def));
    const uint8_t *vals = body + levels;
    size_t vlen = (size_t) h->comp_size - levels;
    size_t ulen = (size_t) h->unc_size - levels;
    int codec = h->is_compressed ? c->codec : ZS_PQ_UNCOMPRESSED;
    if (s_decompress (self, codec, &vals, vlen, ulen, &c->page_buf, &c->page_cap, why, why_len)
        != 0)
        return -1;
    *p = vals;
    *end = vals + ulen;
    return 0;
}

//  Start a data page (v1 or v2): its definition levels and values.
static int
s_start_data_page (zs_parquet_reader_t *self, s_col_t *c, const s_page_header_t *h,
                   const uint8_t *body, char *why, size_t why_len)
{
    const uint8_t *p = NULL, *end = NULL;
    c->data_seen = true;
    if (h->num_values < 0 || h->num_values > c->values_left)
        return zs_pq_err (why, why_len, "page holds more values than the chunk");
    c->values_left -= h->num_values;
    if (h->type == ZS_PQ_DATA_PAGE) {
        if (s_page_v1 (self, c, h, body, &p, &end, why, why_len) != 0)
            return -1;
    } else if (s_page_v2 (self, c, h, body, &p, &end, why, why_len) != 0)
        return -1;
    if (s_start_values (c, h->encoding, h->num_values, p, end, why, why_len) != 0)
        return -1;
    c->page_left = h->num_values;
    return 0;
}

//  Read page headers until a data page with values is ready to decode:
//  a dictionary page is loaded on the way, index pages are passed over.
static int
s_next_page (zs_parquet_reader_t *self, s_col_t *c, char *why, size_t why_len)
{
    for (;;) {
        s_page_header_t h;
        const uint8_t *body = NULL;
        if (s_read_page_header (c, &h, &body, why, why_len) != 0)
            return -1;
        if (h.type != ZS_PQ_DATA_PAGE && h.type != ZS_PQ_DATA_PAGE_V2
            && h.type != ZS_PQ_DICTIONARY_PAGE)
            continue; //  index pages and the like
        if (!h.has_sub)
            return zs_pq_err (why, why_len, "page without its page-type header");
        if (h.type == ZS_PQ_DICTIONARY_PAGE) {
            if (s_load_dict (self, c, &h, body, why, why_len) != 0)
                return -1;
        } else if (s_start_data_page (self, c, &h, body, why, why_len) != 0)
            return -1;
        else if (c->page_left > 0)
            return 0;
    }
}

//  The column's next entry: a repetition level (inside lists and maps),
//  a definition level (unless every level is required), then, when
//  defined to the leaf, the value or its dictionary entry.
static int
s_col_levels (zs_parquet_reader_t *self, s_col_t *c, uint32_t *rep, uint32_t *def, zs_value_t *out,
              char *why, size_t why_len)
{
    if (c->page_left == 0 && s_next_page (self, c, why, why_len) != 0)
        return -1;
    c->page_left--;
    *rep = *def = 0;
    if (c->max_rep && zs_pq_rle_dec_next (&c->reps, rep) != 0)
        return zs_pq_err (why, why_len, "repetition levels truncated or corrupt");
    if (*rep > c->max_rep)
        return zs_pq_err (why, why_len, "repetition level %u out of range", *rep);
    if (c->optional) {
        if (zs_pq_rle_dec_next (&c->defs, def) != 0)
            return zs_pq_err (why, why_len, "definition levels truncated or corrupt");
        if (*def > c->max_def)
            return zs_pq_err (why, why_len, "definition level %u out of range", *def);
        if (*def < c->max_def) {
            memset (out, 0, sizeof *out);
            out->null = true;
            return 0;
        }
    }
    *def = c->max_def;
    if (c->dict_page) {
        uint32_t idx;
        if (zs_pq_rle_dec_next (&c->idx, &idx) != 0)
            return zs_pq_err (why, why_len, "dictionary indices truncated or corrupt");
        if (idx >= c->dict_n)
            return zs_pq_err (why, why_len, "dictionary index %u beyond %u entries", idx,
                              c->dict_n);
        *out = c->dict[idx];
        return 0;
    }
    if (s_plain_value (c, &c->vp, c->vend, &c->bool_bit, out) != 0)
        return zs_pq_err (why, why_len, "values truncated");
    return 0;
}

//  A flat column's value for the next row.
static int
s_col_next (zs_parquet_reader_t *self, s_col_t *c, zs_value_t *out, char *why, size_t why_len)
{
    uint32_t rep, def;
    return s_col_levels (self, c, &rep, &def, out, why, why_len);
}

//  Read a row group's column chunks whole (one pread each, ranges checked
//  at open) and reset each column's cursor to the chunk's first page.
static int
s_load_group (zs_parquet_reader_t *self, uint32_t g, char *err, size_t errlen)
{
    zs_pq_group_meta_t *gr = &self->meta.groups[g];
    zs_pq_assembler_group (&self->assembler);
    for (int i = 0; i < self->meta.nchunks; i++) {
        zs_pq_chunk_meta_t *ch = &gr->cols[i];
        s_col_t *c = &self->cols[i];
        size_t len = (size_t) ch->len;
        if (!s_fit (&c->chunk, &c->chunk_cap, len))
            return zs_pq_err (err, errlen, "%s: row group %u: out of memory", self->path, g);
        if (s_pread (self, c->chunk, len, ch->start, err, errlen) != 0)
            return -1;
        c->chunk_len = len;
        c->pos = 0;
        c->codec = ch->codec;
        c->values_left = ch->num_values;
        c->data_seen = false;
        c->has_dict = false;
        c->dict_n = 0;
        c->page_left = 0;
    }
    self->cur_group = (int) g;
    self->group_left = gr->num_rows;
    return 0;
}

//  Julian day and nanoseconds of the day (INT96) into nanoseconds since
//  the epoch; -1 when that does not fit 64 bits.
static int
s_int96 (const uint8_t *p, int64_t *out)
{
    int64_t nod = (int64_t) zs_le_get (p, 8);
    int64_t day = (int32_t) (uint32_t) zs_le_get (p + 8, 4) - INT64_C (2440588);
    int64_t t;
    if (day < 0 && nod > 0) { //  so that the earliest value (INT64_MIN) fits too
        day += 1;
        nod -= INT64_C (86400000000000);
    }
    if (__builtin_mul_overflow (day, INT64_C (86400000000000), &t)
        || __builtin_add_overflow (t, nod, &t))
        return -1;
    *out = t;
    return 0;
}

//  A value of a physical type that is not the zsink value's form into
//  it: decimals of every physical type, INT96 and INT64 nanosecond
//  timestamps, microsecond TIMEs. 0 or -1 with why.
static int
s_convert (const s_col_t *c, zs_value_t *v, char *why, size_t why_len)
{
    if (v->null)
        return 0;
    zs_type_t type = c->col->type;
    if (type == ZS_TYPE_DECIMAL) {
        __int128 x;
        if (c->ptype == ZS_PQ_INT32)
            x = v->v.i32;
        else if (c->ptype == ZS_PQ_INT64)
            x = v->v.i64;
        else if (v->v.bin.len >= 1 && v->v.bin.len <= 16)
            x = zs_dec_get_be (v->v.bin.ptr, v->v.bin.len);
        else
            return zs_pq_err (why, why_len, "decimal of %u bytes", v->v.bin.len);
        __int128 lim = zs_pow10 (zs_column_precision (c->col));
        if (x >= lim || x <= -lim)
            return zs_pq_err (why, why_len, "decimal over %d digits", zs_column_precision (c->col));
        zs_dec_set (v, x);
    } else if (type == ZS_TYPE_TIMESTAMP9 && c->ptype == ZS_PQ_INT96) {
        if (s_int96 (v->v.bin.ptr, &v->v.i64) != 0)
            return zs_pq_err (why, why_len, "INT96 timestamp out of range in nanoseconds");
    } else if (type == ZS_TYPE_TIME && c->ptype == ZS_PQ_INT64) {
        int64_t us = v->v.i64;
        v->v.i32 = (int32_t) (us >= 0 ? us / 1000 : -((-us + 999) / 1000));
    }
    return 0;
}

//  The assembler's source (parquet_nested.h): leaf k's next triple.
static int
s_triple (void *ctx, int leaf, uint32_t *rep, uint32_t *def, zs_value_t *v, char *why, size_t len)
{
    zs_parquet_reader_t *self = ctx;
    s_col_t *c = &self->cols[leaf];
    if (c->page_left == 0 && c->values_left == 0)
        return 0;
    if (s_col_levels (self, c, rep, def, v, why, len) != 0 || s_convert (c, v, why, len) != 0)
        return -1;
    return 1;
}

int
zs_parquet_reader_next (zs_parquet_reader_t *self, zs_value_t *row, char *err, size_t errlen)
{
    while (self->group_left == 0) {
        if (self->next_group >= self->meta.ngroups)
            return 0;
        if (s_load_group (self, self->next_group++, err, errlen) != 0)
            return -1;
    }
    const zs_pq_layout_t *L = self->meta.layout;
    if (L)
        zs_pq_assembler_row (&self->assembler);
    for (int i = 0; i < self->meta.schema.n; i++) {
        char why[ZS_ERRLEN];
        int k = L ? L->col[i].first_leaf : i;
        int rc = L && zs_type_is_nested (self->meta.schema.cols[i].type) ? zs_pq_assemble (
                     &self->assembler, &self->meta.schema, L, i, &row[i], why, sizeof why)
                 : s_col_next (self, &self->cols[k], &row[i], why, sizeof why) != 0
                     ? -1
                     : s_convert (&self->cols[k], &row[i], why, sizeof why);
        if (rc != 0)
            return zs_pq_err (err, errlen, "%s: row group %d, column '%s': %s", self->path,
                              self->cur_group, self->meta.schema.cols[i].name, why);
    }
    self->group_left--;
    return 1;
}
