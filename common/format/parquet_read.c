/*  parquet_read.c - the Parquet reader (parquet.h).

    Open reads and checks the footer: magic at both ends, footer length
    within the file, FileMetaData decodable, a flat schema of supported
    types, every column chunk's byte range inside the data region, value
    counts adding up. Rows are then decoded lazily: a row group's column
    chunks are read whole (each within the file, so memory is bounded by
    the file's size), and each column is a cursor that decodes one page at
    a time and hands out one value per row.

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
#include "snappy.h"
#include "thrift.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define S_PAGE_MAX (512 << 20) //  largest page (uncompressed) accepted

//  Column chunk as the footer describes it.
typedef struct {
    int ptype;
    int codec;
    int64_t num_values;
    int64_t start; //  first page (dictionary or data)
    int64_t len;   //  total_compressed_size
    int64_t data_page_offset;
    int64_t dict_page_offset; //  -1: none
    uint32_t encodings;       //  bit per Encoding listed (those < 32)
    bool has_meta;
    bool has_file_path;
    //  Statistics, pointing into the footer
    bool has_null_count;
    int64_t null_count;
    bool has_nan_count;
    int64_t nan_count;
    const uint8_t *min_value, *max_value, *min_old, *max_old;
    uint32_t min_value_len, max_value_len, min_old_len, max_old_len;
} s_chunk_meta_t;

typedef struct {
    int64_t num_rows;
    uint32_t ncols;
    s_chunk_meta_t *cols;
} s_group_meta_t;

//  SchemaElement as decoded.
typedef struct {
    bool has_type, has_rep, has_children, has_ct;
    int32_t type, rep, num_children, ct;
    const uint8_t *name;
    uint32_t name_len;
    int lt;      //  LogicalType union member, 0 = none
    bool lt_utc; //  TIMESTAMP
    int lt_unit; //  TIMESTAMP: 1 MILLIS, 2 MICROS, 3 NANOS
    int lt_bits; //  INTEGER
    bool lt_signed;
} s_elem_t;

//  A column's decoding cursor over the current row group.
typedef struct {
    int ptype;
    bool optional;
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
    bool dict_page; //  values are dictionary indices
    zs_pq_rle_dec_t idx;
    const uint8_t *vp; //  PLAIN values
    const uint8_t *vend;
    uint64_t bool_bit; //  PLAIN booleans: next bit at vp
} s_col_t;

struct _zs_parquet_reader_t {
    char path[ZS_PATH_MAX];
    int fd;
    int64_t file_size;
    int64_t data_end; //  where the footer starts
    zs_schema_t schema;
    int64_t num_rows;
    s_group_meta_t *groups;
    uint32_t ngroups;
    uint32_t next_group;
    int cur_group;
    int64_t group_left; //  rows left in the current row group
    zs_column_stats_t stats[ZS_MAX_COLUMNS];
    s_col_t cols[ZS_MAX_COLUMNS];
    ZSTD_DCtx *dctx;
};

static int
s_err (char *err, size_t errlen, const char *fmt, ...)
{
    va_list args;
    va_start (args, fmt);
    vsnprintf (err, errlen, fmt, args);
    va_end (args);
    return -1;
}

//  Read exactly len bytes at offset.
static int
s_pread (zs_parquet_reader_t *self, void *buf, size_t len, int64_t offset, char *err, size_t errlen)
{
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = pread (self->fd, p, len, (off_t) offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return s_err (err, errlen, "%s: read: %s", self->path, strerror (errno));
        if (n == 0)
            return s_err (err, errlen, "%s: read: file shorter than expected", self->path);
        p += n;
        len -= (size_t) n;
        offset += n;
    }
    return 0;
}

//  --------------------------------------------------------------------------
//  Footer decoding. Each s_dec_* enters its struct and returns 0 / -1 with
//  the decoder's error set (or a message of its own in *why).

static int
s_dec_logical (zs_thrift_dec_t *d, s_elem_t *el)
{
    int16_t id, sid;
    int type, stype, rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        if (type != ZS_THRIFT_STRUCT) {
            zs_thrift_dec_skip (d, type);
            continue;
        }
        el->lt = id;
        if (id != ZS_PQ_LT_TIMESTAMP && id != ZS_PQ_LT_INTEGER) {
            zs_thrift_dec_skip (d, type);
            continue;
        }
        zs_thrift_dec_struct_begin (d);
        while ((rc = zs_thrift_dec_field (d, &sid, &stype)) == 1) {
            int64_t v;
            if (id == ZS_PQ_LT_TIMESTAMP && sid == 1)
                zs_thrift_dec_bool (d, stype, &el->lt_utc);
            else if (id == ZS_PQ_LT_TIMESTAMP && sid == 2 && stype == ZS_THRIFT_STRUCT) {
                int16_t uid;
                int utype;
                zs_thrift_dec_struct_begin (d);
                while ((rc = zs_thrift_dec_field (d, &uid, &utype)) == 1) {
                    el->lt_unit = uid;
                    zs_thrift_dec_skip (d, utype);
                }
            } else if (id == ZS_PQ_LT_INTEGER && sid == 1 && zs_thrift_dec_int (d, stype, &v) == 0)
                el->lt_bits = (int) v;
            else if (id == ZS_PQ_LT_INTEGER && sid == 2)
                zs_thrift_dec_bool (d, stype, &el->lt_signed);
            else
                zs_thrift_dec_skip (d, stype);
            if (rc < 0 || d->error)
                return -1;
        }
        if (rc < 0)
            return -1;
    }
    return rc;
}

static int
s_dec_elem (zs_thrift_dec_t *d, s_elem_t *el)
{
    int16_t id;
    int type, rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        switch (id) {
        case 1:
            el->has_type = zs_thrift_dec_i32 (d, type, &el->type) == 0;
            break;
        case 3:
            el->has_rep = zs_thrift_dec_i32 (d, type, &el->rep) == 0;
            break;
        case 4:
            zs_thrift_dec_binary (d, type, &el->name, &el->name_len);
            break;
        case 5:
            el->has_children = zs_thrift_dec_i32 (d, type, &el->num_children) == 0;
            break;
        case 6:
            el->has_ct = zs_thrift_dec_i32 (d, type, &el->ct) == 0;
            break;
        case 10:
            if (type == ZS_THRIFT_STRUCT)
                s_dec_logical (d, el);
            else
                zs_thrift_dec_skip (d, type);
            break;
        default:
            zs_thrift_dec_skip (d, type);
        }
        if (d->error)
            return -1;
    }
    return rc;
}

static int
s_dec_stats (zs_thrift_dec_t *d, s_chunk_meta_t *ch)
{
    int16_t id;
    int type, rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        switch (id) {
        case 1:
            zs_thrift_dec_binary (d, type, &ch->max_old, &ch->max_old_len);
            break;
        case 2:
            zs_thrift_dec_binary (d, type, &ch->min_old, &ch->min_old_len);
            break;
        case 3:
            ch->has_null_count = zs_thrift_dec_int (d, type, &ch->null_count) == 0;
            break;
        case 5:
            zs_thrift_dec_binary (d, type, &ch->max_value, &ch->max_value_len);
            break;
        case 6:
            zs_thrift_dec_binary (d, type, &ch->min_value, &ch->min_value_len);
            break;
        case 9:
            ch->has_nan_count = zs_thrift_dec_int (d, type, &ch->nan_count) == 0;
            break;
        default:
            zs_thrift_dec_skip (d, type);
        }
        if (d->error)
            return -1;
    }
    return rc;
}

//  ColumnMetaData: what the reader needs of it (type, encodings, codec,
//  counts, offsets, statistics); the -1 defaults make a missing required
//  field fail the checks in s_check_groups.
static int
s_dec_col_meta (zs_thrift_dec_t *d, s_chunk_meta_t *ch)
{
    int16_t id;
    int type, rc;
    int32_t i32;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    ch->ptype = -1;
    ch->codec = -1;
    ch->num_values = ch->data_page_offset = ch->len = -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        switch (id) {
        case 1:
            if (zs_thrift_dec_i32 (d, type, &i32) == 0)
                ch->ptype = i32;
            break;
        case 2: {
            int et;
            uint32_t n;
            if (zs_thrift_dec_list (d, type, &et, &n) != 0)
                return -1;
            for (uint32_t i = 0; i < n; i++)
                if (zs_thrift_dec_i32 (d, et, &i32) == 0)
                    ch->encodings |=
                        i32 >= 0 && i32 < 32 ? UINT32_C (1) << i32 : UINT32_C (1) << 31;
            break;
        }
        case 4:
            if (zs_thrift_dec_i32 (d, type, &i32) == 0)
                ch->codec = i32;
            break;
        case 5:
            zs_thrift_dec_int (d, type, &ch->num_values);
            break;
        case 7:
            zs_thrift_dec_int (d, type, &ch->len);
            break;
        case 9:
            zs_thrift_dec_int (d, type, &ch->data_page_offset);
            break;
        case 11:
            zs_thrift_dec_int (d, type, &ch->dict_page_offset);
            break;
        case 12:
            if (type == ZS_THRIFT_STRUCT)
                s_dec_stats (d, ch);
            else
                zs_thrift_dec_skip (d, type);
            break;
        default:
            zs_thrift_dec_skip (d, type);
        }
        if (d->error)
            return -1;
    }
    return rc;
}

static int
s_dec_chunk (zs_thrift_dec_t *d, s_chunk_meta_t *ch)
{
    int16_t id;
    int type, rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    ch->dict_page_offset = -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        if (id == 1)
            ch->has_file_path = true;
        if (id == 3 && type == ZS_THRIFT_STRUCT && !ch->has_meta) {
            ch->has_meta = true;
            s_dec_col_meta (d, ch);
        } else
            zs_thrift_dec_skip (d, type);
        if (d->error)
            return -1;
    }
    return rc;
}

static int
s_dec_group (zs_thrift_dec_t *d, s_group_meta_t *g, const char **why)
{
    int16_t id;
    int type, rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    g->num_rows = -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        if (id == 1 && !g->cols) {
            int et;
            uint32_t n;
            if (zs_thrift_dec_list (d, type, &et, &n) != 0)
                return -1;
            if (et != ZS_THRIFT_STRUCT || n > ZS_MAX_COLUMNS) {
                *why = "row group column list malformed";
                return -1;
            }
            g->cols = calloc (n ? n : 1, sizeof *g->cols);
            if (!g->cols) {
                *why = "out of memory";
                return -1;
            }
            g->ncols = n;
            for (uint32_t i = 0; i < g->ncols; i++)
                if (s_dec_chunk (d, &g->cols[i]) != 0)
                    return -1;
        } else if (id == 3)
            zs_thrift_dec_int (d, type, &g->num_rows);
        else
            zs_thrift_dec_skip (d, type);
        if (d->error)
            return -1;
    }
    return rc;
}

static int
s_dec_file_meta (zs_parquet_reader_t *self, zs_thrift_dec_t *d, s_elem_t **elems, uint32_t *nelems,
                 const char **why)
{
    int16_t id;
    int type, et, rc;
    self->num_rows = -1;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        if (id == 2 && !*elems) {
            if (zs_thrift_dec_list (d, type, &et, nelems) != 0)
                return -1;
            if (et != ZS_THRIFT_STRUCT) {
                *why = "schema list malformed";
                return -1;
            }
            *elems = calloc (*nelems ? *nelems : 1, sizeof **elems);
            if (!*elems) {
                *why = "out of memory";
                return -1;
            }
            for (uint32_t i = 0; i < *nelems; i++)
                if (s_dec_elem (d, &(*elems)[i]) != 0)
                    return -1;
        } else if (id == 3)
            zs_thrift_dec_int (d, type, &self->num_rows);
        else if (id == 4 && !self->groups) {
            uint32_t n;
            if (zs_thrift_dec_list (d, type, &et, &n) != 0)
                return -1;
            if (et != ZS_THRIFT_STRUCT) {
                *why = "row group list malformed";
                return -1;
            }
            self->groups = calloc (n ? n : 1, sizeof *self->groups);
            if (!self->groups) {
                *why = "out of memory";
                return -1;
            }
            self->ngroups = n;
            for (uint32_t i = 0; i < self->ngroups; i++)
                if (s_dec_group (d, &self->groups[i], why) != 0)
                    return -1;
        } else
            zs_thrift_dec_skip (d, type);
        if (d->error)
            return -1;
    }
    return rc;
}

//  --------------------------------------------------------------------------
//  Schema

//  zsink type of a leaf, or -1 with why. The logical type wins when
//  present (it is the newer and more precise annotation); without one the
//  converted type decides; without either the physical type does.
static int
s_map_type (const s_elem_t *el, zs_type_t *out, char *why, size_t len)
{
    int ct = el->has_ct ? el->ct : -1;
    int lt = el->lt;
    switch (el->type) {
    case ZS_PQ_BOOLEAN:
        *out = ZS_TYPE_BOOLEAN;
        return 0;
    case ZS_PQ_FLOAT:
        *out = ZS_TYPE_FLOAT;
        return 0;
    case ZS_PQ_DOUBLE:
        *out = ZS_TYPE_DOUBLE;
        return 0;
    case ZS_PQ_INT32:
        if (lt == ZS_PQ_LT_DATE || (!lt && ct == ZS_PQ_CT_DATE)) {
            *out = ZS_TYPE_DATE;
            return 0;
        }
        if (lt == ZS_PQ_LT_INTEGER) {
            if (el->lt_signed && (el->lt_bits == 8 || el->lt_bits == 16 || el->lt_bits == 32)) {
                *out = ZS_TYPE_INT;
                return 0;
            }
            snprintf (why, len, "INT32 INTEGER(%d, %s) not supported", el->lt_bits,
                      el->lt_signed ? "signed" : "unsigned");
            return -1;
        }
        if (!lt
            && (ct == -1 || ct == ZS_PQ_CT_INT_8 || ct == ZS_PQ_CT_INT_16
                || ct == ZS_PQ_CT_INT_32)) {
            *out = ZS_TYPE_INT;
            return 0;
        }
        break;
    case ZS_PQ_INT64:
        if (lt == ZS_PQ_LT_TIMESTAMP
            || (!lt && (ct == ZS_PQ_CT_TIMESTAMP_MILLIS || ct == ZS_PQ_CT_TIMESTAMP_MICROS))) {
            int unit = lt ? el->lt_unit : ct == ZS_PQ_CT_TIMESTAMP_MILLIS ? 1 : 2;
            if (unit == 1 || unit == 2) {
                *out = unit == 1 ? ZS_TYPE_TIMESTAMP3 : ZS_TYPE_TIMESTAMP6;
                return 0;
            }
            snprintf (why, len, "INT64 TIMESTAMP(%s) not supported",
                      unit == 3 ? "NANOS" : "unknown unit");
            return -1;
        }
        if (lt == ZS_PQ_LT_INTEGER) {
            if (el->lt_signed && el->lt_bits == 64) {
                *out = ZS_TYPE_BIGINT;
                return 0;
            }
            snprintf (why, len, "INT64 INTEGER(%d, %s) not supported", el->lt_bits,
                      el->lt_signed ? "signed" : "unsigned");
            return -1;
        }
        if (!lt && (ct == -1 || ct == ZS_PQ_CT_INT_64)) {
            *out = ZS_TYPE_BIGINT;
            return 0;
        }
        break;
    case ZS_PQ_BYTE_ARRAY:
        if (lt == ZS_PQ_LT_STRING || lt == ZS_PQ_LT_ENUM || lt == ZS_PQ_LT_JSON
            || (!lt && (ct == ZS_PQ_CT_UTF8 || ct == ZS_PQ_CT_ENUM || ct == ZS_PQ_CT_JSON))) {
            *out = ZS_TYPE_STRING;
            return 0;
        }
        if (lt == ZS_PQ_LT_BSON || (!lt && (ct == -1 || ct == ZS_PQ_CT_BSON))) {
            *out = ZS_TYPE_BYTES;
            return 0;
        }
        break;
    default:
        snprintf (why, len, "type %s not supported", zs_pq_type_name (el->type));
        return -1;
    }
    static const char *const lt_names[] = {"?",       "STRING",  "MAP",      "LIST",      "ENUM",
                                           "DECIMAL", "DATE",    "TIME",     "TIMESTAMP", "?",
                                           "INTEGER", "UNKNOWN", "JSON",     "BSON",      "UUID",
                                           "FLOAT16", "VARIANT", "GEOMETRY", "GEOGRAPHY"};
    static const char *const ct_names[] = {"UTF8",
                                           "MAP",
                                           "MAP_KEY_VALUE",
                                           "LIST",
                                           "ENUM",
                                           "DECIMAL",
                                           "DATE",
                                           "TIME_MILLIS",
                                           "TIME_MICROS",
                                           "TIMESTAMP_MILLIS",
                                           "TIMESTAMP_MICROS",
                                           "UINT_8",
                                           "UINT_16",
                                           "UINT_32",
                                           "UINT_64",
                                           "INT_8",
                                           "INT_16",
                                           "INT_32",
                                           "INT_64",
                                           "JSON",
                                           "BSON",
                                           "INTERVAL"};
    if (lt)
        snprintf (why, len, "%s %s not supported", zs_pq_type_name (el->type),
                  lt > 0 && lt < 19 ? lt_names[lt] : "(unknown logical type)");
    else
        snprintf (why, len, "%s %s not supported", zs_pq_type_name (el->type),
                  ct >= 0 && ct < 22 ? ct_names[ct] : "(unknown converted type)");
    return -1;
}

static int
s_derive_schema (zs_parquet_reader_t *self, const s_elem_t *elems, uint32_t nelems, char *err,
                 size_t errlen)
{
    zs_schema_t *s = &self->schema;
    if (nelems < 2 || !elems[0].has_children)
        return s_err (err, errlen, "%s: schema has no columns", self->path);
    //  Any group below the root means nesting; name the first one.
    for (uint32_t i = 1; i < nelems; i++) {
        const s_elem_t *el = &elems[i];
        int name_len = (int) (el->name_len < 64 ? el->name_len : 64);
        const char *name = el->name ? (const char *) el->name : "";
        if (el->has_children && el->num_children > 0)
            return s_err (err, errlen, "%s: column '%.*s': nested schemas not supported",
                          self->path, name_len, name);
        if (!el->has_type)
            return s_err (err, errlen, "%s: column '%.*s': no type", self->path, name_len, name);
    }
    if (elems[0].num_children != (int32_t) (nelems - 1))
        return s_err (err, errlen, "%s: schema root has %d children, %u elements follow",
                      self->path, elems[0].num_children, nelems - 1);
    if (nelems - 1 > ZS_MAX_COLUMNS)
        return s_err (err, errlen, "%s: %u columns, at most %d supported", self->path, nelems - 1,
                      ZS_MAX_COLUMNS);
    s->n = (int) nelems - 1;
    s->id_col = -1;
    for (int i = 0; i < s->n; i++) {
        const s_elem_t *el = &elems[i + 1];
        zs_column_t *c = &s->cols[i];
        if (!el->name || el->name_len == 0 || el->name_len >= ZS_COLUMN_NAME_MAX
            || memchr (el->name, 0, el->name_len))
            return s_err (err, errlen, "%s: column %d: name empty, too long or not text",
                          self->path, i + 1);
        memcpy (c->name, el->name, el->name_len);
        c->name[el->name_len] = 0;
        if (el->has_rep && el->rep == ZS_PQ_REPEATED)
            return s_err (err, errlen, "%s: column '%s': repeated fields not supported", self->path,
                          c->name);
        if (el->has_rep && el->rep != ZS_PQ_REQUIRED && el->rep != ZS_PQ_OPTIONAL)
            return s_err (err, errlen, "%s: column '%s': repetition %d not supported", self->path,
                          c->name, el->rep);
        c->nullable = el->has_rep && el->rep == ZS_PQ_OPTIONAL;
        char why[128];
        if (s_map_type (el, &c->type, why, sizeof why) != 0)
            return s_err (err, errlen, "%s: column '%s': %s", self->path, c->name, why);
        if (s->id_col < 0 && strcmp (c->name, "id") == 0 && c->type == ZS_TYPE_BIGINT)
            s->id_col = i;
        self->cols[i].ptype = el->type;
        self->cols[i].optional = c->nullable;
    }
    return 0;
}

//  Check every row group against the schema and the file.
static int
s_check_groups (zs_parquet_reader_t *self, char *err, size_t errlen)
{
    int64_t rows = 0;
    for (uint32_t g = 0; g < self->ngroups; g++) {
        s_group_meta_t *gr = &self->groups[g];
        int64_t bytes = 0; //  chunks of a row group are read at once
        if (gr->ncols != (uint32_t) self->schema.n || gr->num_rows < 0)
            return s_err (err, errlen, "%s: row group %u: %u columns, %lld rows (schema has %d)",
                          self->path, g, gr->ncols, (long long) gr->num_rows, self->schema.n);
        if (gr->num_rows > INT64_MAX - rows)
            return s_err (err, errlen, "%s: row counts overflow", self->path);
        rows += gr->num_rows;
        for (int i = 0; i < self->schema.n; i++) {
            s_chunk_meta_t *ch = &gr->cols[i];
            const char *name = self->schema.cols[i].name;
            if (!ch->has_meta || ch->has_file_path)
                return s_err (err, errlen, "%s: row group %u, column '%s': %s", self->path, g, name,
                              ch->has_file_path ? "data in another file not supported"
                                                : "no column metadata");
            if (ch->ptype != self->cols[i].ptype)
                return s_err (err, errlen,
                              "%s: row group %u, column '%s': chunk type %s, schema %s", self->path,
                              g, name, zs_pq_type_name (ch->ptype),
                              zs_pq_type_name (self->cols[i].ptype));
            if (ch->codec != ZS_PQ_UNCOMPRESSED && ch->codec != ZS_PQ_SNAPPY
                && ch->codec != ZS_PQ_ZSTD)
                return s_err (err, errlen, "%s: column '%s': compression %s not supported",
                              self->path, name, zs_pq_codec_name (ch->codec));
            //  Levels may be listed as BIT_PACKED by old writers even
            //  where none are stored; a page that really uses it fails
            //  when read.
            uint32_t known = 1u << ZS_PQ_PLAIN | 1u << ZS_PQ_PLAIN_DICTIONARY | 1u << ZS_PQ_RLE
                             | 1u << ZS_PQ_BIT_PACKED | 1u << ZS_PQ_RLE_DICTIONARY;
            if (ch->encodings & ~known) {
                int e = 0;
                while (!((ch->encodings & ~known) >> e & 1))
                    e++;
                return s_err (err, errlen, "%s: column '%s': encoding %s not supported", self->path,
                              name, zs_pq_encoding_name (e));
            }
            if (ch->num_values != gr->num_rows)
                return s_err (
                    err, errlen, "%s: row group %u, column '%s': %lld values for %lld rows",
                    self->path, g, name, (long long) ch->num_values, (long long) gr->num_rows);
            ch->start = ch->data_page_offset;
            //  Some writers put 0 for "no dictionary".
            if (ch->dict_page_offset >= 4 && ch->dict_page_offset < ch->data_page_offset)
                ch->start = ch->dict_page_offset;
            if (ch->start < 4 || ch->len < 0 || ch->start > self->data_end
                || ch->len > self->data_end - ch->start)
                return s_err (err, errlen,
                              "%s: row group %u, column '%s': chunk at %lld, %lld bytes, "
                              "outside the data (%lld bytes)",
                              self->path, g, name, (long long) ch->start, (long long) ch->len,
                              (long long) self->data_end);
            bytes += ch->len;
        }
        //  Chunks do not overlap in a real file: more bytes than the data
        //  region holds would be memory for nothing.
        if (bytes > self->data_end - 4)
            return s_err (err, errlen,
                          "%s: row group %u: chunks of %lld bytes in a data region of %lld",
                          self->path, g, (long long) bytes, (long long) self->data_end);
    }
    if (rows != self->num_rows)
        return s_err (err, errlen, "%s: footer says %lld rows, row groups hold %lld", self->path,
                      (long long) self->num_rows, (long long) rows);
    return 0;
}

//  Merge chunk statistics into the file's. A chunk whose min/max is
//  missing, unusable or too long makes the file's unknown, unless it has
//  nothing to bound (all null, or all NaN).
static void
s_merge_stats (zs_parquet_reader_t *self)
{
    for (int i = 0; i < self->schema.n; i++) {
        zs_type_t type = self->schema.cols[i].type;
        zs_column_stats_t *st = &self->stats[i];
        bool unknown = false, nulls_unknown = false;
        memset (st, 0, sizeof *st);
        for (uint32_t g = 0; g < self->ngroups; g++) {
            const s_chunk_meta_t *ch = &self->groups[g].cols[i];
            //  A null count outside [0, num_values] is corrupt: unknown. This
            //  also bounds the sum by the file's rows (no overflow).
            bool nulls_ok =
                ch->has_null_count && ch->null_count >= 0 && ch->null_count <= ch->num_values;
            if (nulls_ok)
                st->null_count += ch->null_count;
            else
                nulls_unknown = true;
            const uint8_t *minp = ch->min_value, *maxp = ch->max_value;
            uint32_t minl = ch->min_value_len, maxl = ch->max_value_len;
            //  The deprecated fields are signed-order: usable for numbers
            //  only.
            if ((!minp || !maxp) && !zs_type_is_binary (type)) {
                minp = ch->min_old;
                maxp = ch->max_old;
                minl = ch->min_old_len;
                maxl = ch->max_old_len;
            }
            zs_value_t min, max;
            if (minp && maxp && minl <= ZS_STATS_BIN_MAX && maxl <= ZS_STATS_BIN_MAX
                && zs_pq_stats_decode (type, minp, minl, &min)
                && zs_pq_stats_decode (type, maxp, maxl, &max)) {
                zs_pq_stats_widen (st, type, &min, &max);
                continue;
            }
            int64_t nothing = nulls_ok ? ch->null_count : -1;
            if (ch->has_nan_count && nothing >= 0)
                nothing = ch->nan_count >= 0 && ch->nan_count <= ch->num_values - nothing
                              ? nothing + ch->nan_count
                              : -1;
            if (ch->num_values == 0 || nothing == ch->num_values)
                continue;
            unknown = true;
        }
        if (unknown) {
            st->has_minmax = false;
            memset (&st->min, 0, sizeof st->min);
            memset (&st->max, 0, sizeof st->max);
        }
        zs_pq_stats_fix_zeros (st, type);
        if (nulls_unknown)
            st->null_count = -1;
    }
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
    }
    for (uint32_t g = 0; g < self->ngroups && self->groups; g++)
        free (self->groups[g].cols);
    free (self->groups);
    ZSTD_freeDCtx (self->dctx);
    if (self->fd >= 0)
        close (self->fd);
    free (self);
}

zs_parquet_reader_t *
zs_parquet_reader_open (const char *path, char *err, size_t errlen)
{
    zs_parquet_reader_t *self = calloc (1, sizeof *self);
    if (!self) {
        s_err (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    self->fd = -1;
    if (snprintf (self->path, sizeof self->path, "%s", path) >= (int) sizeof self->path) {
        s_err (err, errlen, "%s: path too long", path);
        s_free (self);
        return NULL;
    }
    self->fd = open (path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (self->fd < 0 || fstat (self->fd, &st) != 0) {
        s_err (err, errlen, "%s: open: %s", path, strerror (errno));
        s_free (self);
        return NULL;
    }
    self->file_size = st.st_size;
    uint8_t head[4], tail[8];
    if (self->file_size < 12) {
        s_err (err, errlen, "%s: %lld bytes: too short for Parquet", path,
               (long long) self->file_size);
        s_free (self);
        return NULL;
    }
    if (s_pread (self, head, 4, 0, err, errlen) != 0
        || s_pread (self, tail, 8, self->file_size - 8, err, errlen) != 0) {
        s_free (self);
        return NULL;
    }
    if (memcmp (head, "PAR1", 4) != 0 || memcmp (tail + 4, "PAR1", 4) != 0) {
        s_err (err, errlen, "%s: not a Parquet file (no PAR1 magic at both ends)", path);
        s_free (self);
        return NULL;
    }
    uint32_t footer_len;
    memcpy (&footer_len, tail, 4);
    if (footer_len == 0 || (int64_t) footer_len > self->file_size - 12) {
        s_err (err, errlen, "%s: footer length %u does not fit a file of %lld bytes", path,
               footer_len, (long long) self->file_size);
        s_free (self);
        return NULL;
    }
    self->data_end = self->file_size - 8 - footer_len;
    uint8_t *footer = malloc (footer_len);
    if (!footer) {
        s_err (err, errlen, "%s: out of memory", path);
        s_free (self);
        return NULL;
    }
    s_elem_t *elems = NULL;
    uint32_t nelems = 0;
    int rc = s_pread (self, footer, footer_len, self->data_end, err, errlen);
    if (rc == 0) {
        zs_thrift_dec_t d;
        zs_thrift_dec_init (&d, footer, footer_len);
        const char *why = NULL;
        if (s_dec_file_meta (self, &d, &elems, &nelems, &why) != 0 || d.error)
            rc = s_err (err, errlen, "%s: footer: %s at byte %zu", path,
                        why       ? why
                        : d.error ? d.error
                                  : "malformed",
                        zs_thrift_dec_offset (&d));
        else if (!elems || !self->groups || self->num_rows < 0)
            rc = s_err (err, errlen, "%s: footer: schema, row groups or row count missing", path);
    }
    if (rc == 0)
        rc = s_derive_schema (self, elems, nelems, err, errlen);
    if (rc == 0)
        rc = s_check_groups (self, err, errlen);
    if (rc == 0)
        s_merge_stats (self);
    if (rc == 0 && !(self->dctx = ZSTD_createDCtx ()))
        rc = s_err (err, errlen, "%s: out of memory", path);
    //  Statistics are merged: the footer bytes (which chunk statistics
    //  point into) are no longer needed.
    free (elems);
    free (footer);
    if (rc != 0) {
        s_free (self);
        return NULL;
    }
    self->cur_group = -1;
    return self;
}

const zs_schema_t *
zs_parquet_reader_schema (zs_parquet_reader_t *self)
{
    return &self->schema;
}

int64_t
zs_parquet_reader_num_rows (zs_parquet_reader_t *self)
{
    return self->num_rows;
}

int
zs_parquet_reader_num_row_groups (zs_parquet_reader_t *self)
{
    return (int) self->ngroups;
}

const zs_column_stats_t *
zs_parquet_reader_stats (zs_parquet_reader_t *self, int col)
{
    if (col < 0 || col >= self->schema.n)
        return NULL;
    return &self->stats[col];
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
              size_t unc_len, uint8_t **buf, size_t *cap, const char **why)
{
    if (codec == ZS_PQ_UNCOMPRESSED) {
        if (unc_len != len) {
            *why = "uncompressed page sizes differ";
            return -1;
        }
        return 0;
    }
    //  A size the codec cannot reach from this input is corrupt: refuse it
    //  before allocating (snappy expands at most 64/3 per byte; zstd about
    //  32768 in an RLE block).
    uint64_t most =
        codec == ZS_PQ_SNAPPY ? (uint64_t) len * 22 + 64 : (uint64_t) len * 32768 + 65536;
    if (unc_len > S_PAGE_MAX || unc_len > most) {
        *why = "page size implausible";
        return -1;
    }
    if (*cap < unc_len || !*buf) {
        uint8_t *b = realloc (*buf, unc_len ? unc_len : 1);
        if (!b) {
            *why = "out of memory";
            return -1;
        }
        *buf = b;
        *cap = unc_len;
    }
    if (codec == ZS_PQ_SNAPPY) {
        if (zs_snappy_decompress (*data, len, *buf, unc_len) != 0) {
            *why = "snappy data corrupt";
            return -1;
        }
    } else {
        unsigned long long fcs = ZSTD_getFrameContentSize (*data, len);
        if (fcs == ZSTD_CONTENTSIZE_ERROR || (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs > unc_len)) {
            *why = "zstd data corrupt";
            return -1;
        }
        size_t n = ZSTD_decompressDCtx (self->dctx, *buf, unc_len, *data, len);
        if (ZSTD_isError (n) || n != unc_len) {
            *why = "zstd data corrupt";
            return -1;
        }
    }
    *data = *buf;
    return 0;
}

//  --------------------------------------------------------------------------
//  Pages and values

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

static int
s_dec_page_header (zs_thrift_dec_t *d, s_page_header_t *h)
{
    int16_t id, sid;
    int type, stype, rc;
    memset (h, 0, sizeof *h);
    h->def_encoding = ZS_PQ_RLE;
    h->is_compressed = true;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        if (id == 1)
            h->has_type = zs_thrift_dec_i32 (d, type, &h->type) == 0;
        else if (id == 2)
            h->has_unc = zs_thrift_dec_i32 (d, type, &h->unc_size) == 0;
        else if (id == 3)
            h->has_comp = zs_thrift_dec_i32 (d, type, &h->comp_size) == 0;
        else if (id == 4)
            h->has_crc = zs_thrift_dec_i32 (d, type, &h->crc) == 0;
        else if ((id == 5 || id == 7 || id == 8) && type == ZS_THRIFT_STRUCT && !h->has_sub
                 && h->has_type
                 && id
                        == (h->type == ZS_PQ_DATA_PAGE         ? 5
                            : h->type == ZS_PQ_DICTIONARY_PAGE ? 7
                                                               : 8)) {
            h->has_sub = true;
            zs_thrift_dec_struct_begin (d);
            while ((rc = zs_thrift_dec_field (d, &sid, &stype)) == 1) {
                int32_t *dst = NULL;
                if (sid == 1)
                    dst = &h->num_values;
                else if (id == 8 && sid == 2)
                    dst = &h->num_nulls;
                else if ((id != 8 && sid == 2) || (id == 8 && sid == 4))
                    dst = &h->encoding;
                else if (id == 5 && sid == 3)
                    dst = &h->def_encoding;
                else if (id == 8 && sid == 5)
                    dst = &h->def_len;
                else if (id == 8 && sid == 6)
                    dst = &h->rep_len;
                if (dst)
                    zs_thrift_dec_i32 (d, stype, dst);
                else if (id == 8 && sid == 7)
                    zs_thrift_dec_bool (d, stype, &h->is_compressed);
                else
                    zs_thrift_dec_skip (d, stype);
                if (d->error)
                    return -1;
            }
            if (rc < 0)
                return -1;
        } else
            zs_thrift_dec_skip (d, type);
        if (d->error)
            return -1;
    }
    return rc;
}

//  One PLAIN value of the column's physical type from [*p, end). Booleans
//  are bits, LSB first, counted from the start of the values.
static int
s_plain_value (int ptype, const uint8_t **p, const uint8_t *end, uint64_t *bool_bit,
               zs_value_t *out)
{
    size_t left = (size_t) (end - *p);
    out->null = false;
    switch (ptype) {
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
        if (left < 4)
            return -1;
        memcpy (&out->v, *p, 4);
        *p += 4;
        return 0;
    case ZS_PQ_INT64:
    case ZS_PQ_DOUBLE:
        if (left < 8)
            return -1;
        memcpy (&out->v, *p, 8);
        *p += 8;
        return 0;
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
             const char **why)
{
    if (c->has_dict || c->data_seen) {
        *why = "second or late dictionary page";
        return -1;
    }
    if (h->encoding != ZS_PQ_PLAIN && h->encoding != ZS_PQ_PLAIN_DICTIONARY) {
        *why = "dictionary page encoding not supported";
        return -1;
    }
    if (s_decompress (self, c->codec, &body, (size_t) h->comp_size, (size_t) h->unc_size,
                      &c->dict_buf, &c->dict_cap, why)
        != 0)
        return -1;
    //  Every entry takes at least a bit (booleans) or a byte: a count the
    //  page cannot hold is corrupt, and bounds the allocation.
    uint64_t n = (uint32_t) h->num_values;
    uint64_t unc = (uint64_t) h->unc_size;
    uint64_t most = c->ptype == ZS_PQ_BOOLEAN                             ? unc * 8
                    : c->ptype == ZS_PQ_INT64 || c->ptype == ZS_PQ_DOUBLE ? unc / 8
                                                                          : unc / 4;
    if (h->num_values < 0 || n > most) {
        *why = "dictionary size implausible";
        return -1;
    }
    free (c->dict);
    c->dict = malloc ((n ? n : 1) * sizeof *c->dict);
    if (!c->dict) {
        *why = "out of memory";
        return -1;
    }
    const uint8_t *p = body, *end = body + h->unc_size;
    uint64_t bit = 0;
    for (uint64_t i = 0; i < n; i++)
        if (s_plain_value (c->ptype, &p, end, &bit, &c->dict[i]) != 0) {
            *why = "dictionary page truncated";
            return -1;
        }
    c->dict_n = (uint32_t) n;
    c->has_dict = true;
    return 0;
}

static int
s_start_values (s_col_t *c, int encoding, const uint8_t *p, const uint8_t *end, const char **why)
{
    c->vp = p;
    c->vend = end;
    c->bool_bit = 0;
    c->dict_page = false;
    if (encoding == ZS_PQ_PLAIN)
        return 0;
    if (encoding == ZS_PQ_PLAIN_DICTIONARY || encoding == ZS_PQ_RLE_DICTIONARY) {
        if (!c->has_dict) {
            *why = "dictionary-encoded page without a dictionary";
            return -1;
        }
        if (p >= end) {
            //  Only an all-null page may have no bit width.
            zs_pq_rle_dec_init (&c->idx, p, 0, 0);
        } else {
            if (*p > 32) {
                *why = "dictionary index bit width out of range";
                return -1;
            }
            zs_pq_rle_dec_init (&c->idx, p + 1, (size_t) (end - p - 1), *p);
        }
        c->dict_page = true;
        return 0;
    }
    *why = "value encoding not supported";
    return -1;
}

//  Read page headers until a data page is ready to decode.
static int
s_next_page (zs_parquet_reader_t *self, s_col_t *c, char *why_buf, size_t why_len)
{
    const char *why = NULL;
    for (;;) {
        if (c->pos >= c->chunk_len) {
            snprintf (why_buf, why_len, "column chunk ends before its last value");
            return -1;
        }
        zs_thrift_dec_t d;
        s_page_header_t h;
        zs_thrift_dec_init (&d, c->chunk + c->pos, c->chunk_len - c->pos);
        if (s_dec_page_header (&d, &h) != 0 || d.error) {
            snprintf (why_buf, why_len, "page header at chunk byte %zu: %s", c->pos,
                      d.error ? d.error : "malformed");
            return -1;
        }
        size_t hlen = zs_thrift_dec_offset (&d);
        if (!h.has_type || !h.has_unc || !h.has_comp || h.unc_size < 0 || h.comp_size < 0
            || (size_t) h.comp_size > c->chunk_len - c->pos - hlen) {
            snprintf (why_buf, why_len,
                      "page header at chunk byte %zu: sizes missing or "
                      "beyond the chunk",
                      c->pos);
            return -1;
        }
        const uint8_t *body = c->chunk + c->pos + hlen;
        if (h.has_crc && (uint32_t) h.crc != zs_pq_crc32 (0, body, (size_t) h.comp_size)) {
            snprintf (why_buf, why_len, "page at chunk byte %zu: checksum mismatch", c->pos);
            return -1;
        }
        c->pos += hlen + (size_t) h.comp_size;
        if (h.type != ZS_PQ_DATA_PAGE && h.type != ZS_PQ_DATA_PAGE_V2
            && h.type != ZS_PQ_DICTIONARY_PAGE)
            continue; //  index pages and the like
        if (!h.has_sub) {
            snprintf (why_buf, why_len, "page without its page-type header");
            return -1;
        }
        if (h.type == ZS_PQ_DICTIONARY_PAGE) {
            if (s_load_dict (self, c, &h, body, &why) != 0)
                goto fail;
            continue;
        }
        c->data_seen = true;
        if (h.num_values < 0 || h.num_values > c->values_left) {
            why = "page holds more values than the chunk";
            goto fail;
        }
        c->values_left -= h.num_values;
        const uint8_t *p, *end;
        if (h.type == ZS_PQ_DATA_PAGE) {
            if (s_decompress (self, c->codec, &body, (size_t) h.comp_size, (size_t) h.unc_size,
                              &c->page_buf, &c->page_cap, &why)
                != 0)
                goto fail;
            p = body;
            end = body + h.unc_size;
            if (c->optional) {
                uint32_t len;
                if (h.def_encoding != ZS_PQ_RLE) {
                    snprintf (why_buf, why_len, "definition levels %s not supported",
                              zs_pq_encoding_name (h.def_encoding));
                    return -1;
                }
                if (end - p < 4 || (memcpy (&len, p, 4), len > (size_t) (end - p) - 4)) {
                    why = "definition levels truncated";
                    goto fail;
                }
                zs_pq_rle_dec_init (&c->defs, p + 4, len, 1);
                p += 4 + (size_t) len;
            }
        } else {
            //  v2: levels first, never compressed; then the values,
            //  compressed unless is_compressed says otherwise.
            size_t levels = (size_t) h.def_len + (size_t) h.rep_len;
            if (h.def_len < 0 || h.rep_len < 0 || levels > (size_t) h.comp_size
                || levels > (size_t) h.unc_size) {
                why = "level lengths beyond the page";
                goto fail;
            }
            if (c->optional)
                zs_pq_rle_dec_init (&c->defs, body + h.rep_len, (size_t) h.def_len, 1);
            const uint8_t *vals = body + levels;
            size_t vlen = (size_t) h.comp_size - levels;
            size_t ulen = (size_t) h.unc_size - levels;
            int codec = h.is_compressed ? c->codec : ZS_PQ_UNCOMPRESSED;
            if (s_decompress (self, codec, &vals, vlen, ulen, &c->page_buf, &c->page_cap, &why)
                != 0)
                goto fail;
            p = vals;
            end = vals + ulen;
        }
        if (s_start_values (c, h.encoding, p, end, &why) != 0) {
            if (strcmp (why, "value encoding not supported") == 0) {
                snprintf (why_buf, why_len, "encoding %s not supported",
                          zs_pq_encoding_name (h.encoding));
                return -1;
            }
            goto fail;
        }
        c->page_left = h.num_values;
        if (c->page_left > 0)
            return 0;
    }
fail:
    snprintf (why_buf, why_len, "%s", why);
    return -1;
}

//  The column's value for the next row: a definition level first (nullable
//  columns), then, for a non-null, the value or its dictionary entry.
static int
s_col_next (zs_parquet_reader_t *self, s_col_t *c, zs_value_t *out, char *why, size_t why_len)
{
    if (c->page_left == 0 && s_next_page (self, c, why, why_len) != 0)
        return -1;
    c->page_left--;
    if (c->optional) {
        uint32_t level;
        if (zs_pq_rle_dec_next (&c->defs, &level) != 0) {
            snprintf (why, why_len, "definition levels truncated or corrupt");
            return -1;
        }
        if (level > 1) {
            snprintf (why, why_len, "definition level %u out of range", level);
            return -1;
        }
        if (level == 0) {
            memset (out, 0, sizeof *out);
            out->null = true;
            return 0;
        }
    }
    if (c->dict_page) {
        uint32_t idx;
        if (zs_pq_rle_dec_next (&c->idx, &idx) != 0) {
            snprintf (why, why_len, "dictionary indices truncated or corrupt");
            return -1;
        }
        if (idx >= c->dict_n) {
            snprintf (why, why_len, "dictionary index %u beyond %u entries", idx, c->dict_n);
            return -1;
        }
        *out = c->dict[idx];
        return 0;
    }
    if (s_plain_value (c->ptype, &c->vp, c->vend, &c->bool_bit, out) != 0) {
        snprintf (why, why_len, "values truncated");
        return -1;
    }
    return 0;
}

//  Read a row group's column chunks whole (one pread each, ranges checked
//  at open) and reset each column's cursor to the chunk's first page.
static int
s_load_group (zs_parquet_reader_t *self, uint32_t g, char *err, size_t errlen)
{
    s_group_meta_t *gr = &self->groups[g];
    for (int i = 0; i < self->schema.n; i++) {
        s_chunk_meta_t *ch = &gr->cols[i];
        s_col_t *c = &self->cols[i];
        size_t len = (size_t) ch->len;
        if (c->chunk_cap < len || !c->chunk) {
            uint8_t *b = realloc (c->chunk, len ? len : 1);
            if (!b)
                return s_err (err, errlen, "%s: row group %u: out of memory", self->path, g);
            c->chunk = b;
            c->chunk_cap = len;
        }
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

int
zs_parquet_reader_next (zs_parquet_reader_t *self, zs_value_t *row, char *err, size_t errlen)
{
    while (self->group_left == 0) {
        if (self->next_group >= self->ngroups)
            return 0;
        if (s_load_group (self, self->next_group++, err, errlen) != 0)
            return -1;
    }
    for (int i = 0; i < self->schema.n; i++) {
        char why[160];
        if (s_col_next (self, &self->cols[i], &row[i], why, sizeof why) != 0)
            return s_err (err, errlen, "%s: row group %d, column '%s': %s", self->path,
                          self->cur_group, self->schema.cols[i].name, why);
    }
    self->group_left--;
    return 1;
}
