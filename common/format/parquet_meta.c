/*  parquet_meta.c - the reader's first half (parquet_priv.h): a file's
    footer, FileMetaData, decoded and checked before any page is read.
    parquet_read.c reads the footer's bytes and then the pages.

    Each Thrift struct of the footer is a table of the fields kept
    (zs_thrift_dec_struct): the table says where a field's value goes,
    fields not listed are skipped. What a table cannot say (lists of
    structs, the LogicalType union, the first of a repeated field) is a
    handler of a few lines.

    Invariants:
    1. Nothing read from the footer is trusted before it is checked: a
       list's length against the bytes that must hold it (so allocations
       are bounded by the footer's size), every column chunk's byte range
       against the data region, every chunk's type, codec, encodings and
       value count against the schema and its row group, the row counts
       against the file's.
    2. Every error names the file; a decoding error also says at which
       footer byte.
    3. Nothing decoded points into the footer's bytes once
       zs_pq_footer_decode returns: chunk statistics are merged into the
       file's (copied), and the schema's names are copied.
*/
#include "parquet_priv.h"
#include "parquet_nested.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  SchemaElement as decoded.
typedef struct {
    bool has_type, has_rep, has_children, has_ct;
    int32_t type, rep, num_children, ct;
    zs_thrift_binary_t name;
    int lt;          //  LogicalType union member, 0 = none
    bool lt_utc;     //  TIMESTAMP
    int lt_unit;     //  TIMESTAMP: 1 MILLIS, 2 MICROS, 3 NANOS
    int64_t lt_bits; //  INTEGER
    bool lt_signed;
    int32_t lt_scale, lt_precision; //  DECIMAL
    bool has_len, has_scale, has_precision;
    int32_t type_length, scale, precision; //  FIXED_LEN_BYTE_ARRAY; DECIMAL (converted)
} s_elem_t;

//  FileMetaData as decoded. The row groups go to the footer as soon as
//  decoding ends (whether it failed or not): zs_pq_footer_fini frees
//  them and their chunks.
typedef struct {
    s_elem_t *elems;
    uint32_t nelems;
    int64_t num_rows;
    zs_pq_group_meta_t *groups;
    uint32_t ngroups;
} s_file_meta_t;

//  What the checks after decoding work on, and what their errors name.
typedef struct {
    zs_pq_footer_t *footer;
    const char *path;
    int64_t data_end; //  where the pages end (the footer starts)
    char *err;
    size_t errlen;
} s_ctx_t;

#define S_COUNT(table) (sizeof (table) / sizeof (table)[0])
#define S_NO ZS_THRIFT_NO_FLAG
#define S_EL(member) offsetof (s_elem_t, member)
#define S_CH(member) offsetof (zs_pq_chunk_meta_t, member)

//  --------------------------------------------------------------------------
//  Field tables, innermost first. Field ids as parquet.thrift numbers
//  them; a field the reader does not need is not listed.

//  TimeUnit is a union: the id of its one field names the unit.
static int
s_dec_time_unit (zs_thrift_dec_t *d, int type, void *obj)
{
    s_elem_t *el = obj;
    int16_t id;
    int rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        el->lt_unit = id;
        if (zs_thrift_dec_skip (d, type) != 0)
            return -1;
    }
    return rc;
}

//  TimestampType
static const zs_thrift_field_t s_timestamp_fields[] = {
    {1, ZS_THRIFT_KEEP_BOOL, S_EL (lt_utc), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_time_unit},
};

//  IntType
static const zs_thrift_field_t s_integer_fields[] = {
    {1, ZS_THRIFT_KEEP_I64, S_EL (lt_bits), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_BOOL, S_EL (lt_signed), S_NO, NULL},
};

//  DecimalType
static const zs_thrift_field_t s_decimal_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_EL (lt_scale), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_I32, S_EL (lt_precision), S_NO, NULL},
};

//  LogicalType is a union of structs: the id of the one present names the
//  type. TIMESTAMP, TIME (the same fields), INTEGER and DECIMAL have
//  parameters the reader needs.
static int
s_dec_logical (zs_thrift_dec_t *d, int type, void *obj)
{
    s_elem_t *el = obj;
    int16_t id;
    int rc;
    if (zs_thrift_dec_struct_begin (d) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        if (type == ZS_THRIFT_STRUCT)
            el->lt = id;
        if (type == ZS_THRIFT_STRUCT && (id == ZS_PQ_LT_TIMESTAMP || id == ZS_PQ_LT_TIME))
            rc = zs_thrift_dec_struct (d, s_timestamp_fields, S_COUNT (s_timestamp_fields), el);
        else if (type == ZS_THRIFT_STRUCT && id == ZS_PQ_LT_DECIMAL)
            rc = zs_thrift_dec_struct (d, s_decimal_fields, S_COUNT (s_decimal_fields), el);
        else if (type == ZS_THRIFT_STRUCT && id == ZS_PQ_LT_INTEGER)
            rc = zs_thrift_dec_struct (d, s_integer_fields, S_COUNT (s_integer_fields), el);
        else
            rc = zs_thrift_dec_skip (d, type);
        if (rc != 0)
            return -1;
    }
    return rc;
}

//  SchemaElement
static const zs_thrift_field_t s_elem_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_EL (type), S_EL (has_type), NULL},
    {2, ZS_THRIFT_KEEP_I32, S_EL (type_length), S_EL (has_len), NULL},
    {3, ZS_THRIFT_KEEP_I32, S_EL (rep), S_EL (has_rep), NULL},
    {4, ZS_THRIFT_KEEP_BINARY, S_EL (name), S_NO, NULL},
    {5, ZS_THRIFT_KEEP_I32, S_EL (num_children), S_EL (has_children), NULL},
    {6, ZS_THRIFT_KEEP_I32, S_EL (ct), S_EL (has_ct), NULL},
    {7, ZS_THRIFT_KEEP_I32, S_EL (scale), S_EL (has_scale), NULL},
    {8, ZS_THRIFT_KEEP_I32, S_EL (precision), S_EL (has_precision), NULL},
    {10, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_logical},
};

//  Statistics, into the chunk. Fields 1 and 2 are the deprecated
//  signed-order min/max.
static const zs_thrift_field_t s_stats_fields[] = {
    {1, ZS_THRIFT_KEEP_BINARY, S_CH (max_old), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_BINARY, S_CH (min_old), S_NO, NULL},
    {3, ZS_THRIFT_KEEP_I64, S_CH (null_count), S_CH (has_null_count), NULL},
    {5, ZS_THRIFT_KEEP_BINARY, S_CH (max_value), S_NO, NULL},
    {6, ZS_THRIFT_KEEP_BINARY, S_CH (min_value), S_NO, NULL},
    {9, ZS_THRIFT_KEEP_I64, S_CH (nan_count), S_CH (has_nan_count), NULL},
};

static int
s_dec_stats (zs_thrift_dec_t *d, int type, void *obj)
{
    return zs_thrift_dec_struct (d, s_stats_fields, S_COUNT (s_stats_fields), obj);
}

//  The encodings list: a bit per encoding (31 for any beyond).
static int
s_dec_encodings (zs_thrift_dec_t *d, int type, void *obj)
{
    zs_pq_chunk_meta_t *ch = obj;
    int et;
    uint32_t n;
    int32_t e;
    if (zs_thrift_dec_list (d, type, &et, &n) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (zs_thrift_dec_i32 (d, et, &e) == 0)
            ch->encodings |= e >= 0 && e < 32 ? UINT32_C (1) << e : UINT32_C (1) << 31;
    return d->error ? -1 : 0;
}

//  ColumnMetaData: what the reader needs of it (type, encodings, codec,
//  counts, offsets, statistics).
static const zs_thrift_field_t s_col_meta_fields[] = {
    {1, ZS_THRIFT_KEEP_I32, S_CH (ptype), S_NO, NULL},
    {2, ZS_THRIFT_KEEP_CALL, 0, S_NO, s_dec_encodings},
    {4, ZS_THRIFT_KEEP_I32, S_CH (codec), S_NO, NULL},
    {5, ZS_THRIFT_KEEP_I64, S_CH (num_values), S_NO, NULL},
    {7, ZS_THRIFT_KEEP_I64, S_CH (len), S_NO, NULL},
    {9, ZS_THRIFT_KEEP_I64, S_CH (data_page_offset), S_NO, NULL},
    {11, ZS_THRIFT_KEEP_I64, S_CH (dict_page_offset), S_NO, NULL},
    {12, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_stats},
};

//  The first ColumnMetaData of a chunk (a repeat is skipped). The -1
//  defaults make a missing required field fail the checks in
//  s_check_chunk.
static int
s_dec_col_meta (zs_thrift_dec_t *d, int type, void *obj)
{
    zs_pq_chunk_meta_t *ch = obj;
    if (ch->has_meta)
        return zs_thrift_dec_skip (d, type);
    ch->has_meta = true;
    ch->ptype = -1;
    ch->codec = -1;
    ch->num_values = ch->data_page_offset = ch->len = -1;
    return zs_thrift_dec_struct (d, s_col_meta_fields, S_COUNT (s_col_meta_fields), ch);
}

//  ColumnChunk.file_path: only whether it is there (data in another file).
static int
s_dec_file_path (zs_thrift_dec_t *d, int type, void *obj)
{
    ((zs_pq_chunk_meta_t *) obj)->has_file_path = true;
    return zs_thrift_dec_skip (d, type);
}

//  ColumnChunk
static const zs_thrift_field_t s_chunk_fields[] = {
    {1, ZS_THRIFT_KEEP_CALL, 0, S_NO, s_dec_file_path},
    {3, ZS_THRIFT_KEEP_STRUCT, 0, S_NO, s_dec_col_meta},
};

//  --------------------------------------------------------------------------
//  Lists of structs: the schema, the row groups, a row group's chunks

typedef struct {
    size_t size;           //  of an element
    uint32_t max;          //  elements at most
    const char *malformed; //  the error for more, or for elements not structs
    int (*dec) (zs_thrift_dec_t *d, void *item);
} s_list_t;

//  A list of structs, decoded into a new array (never NULL when the list
//  is empty) of *n elements. NULL with the error set when the list header
//  is wrong or memory runs out. When an element fails, the array is still
//  returned, with the error set: the caller owns it, and what its
//  elements hold, either way. When the field comes again (first, the
//  array of the first time, is not NULL) it is skipped and first kept.
static void *
s_dec_list (zs_thrift_dec_t *d, int type, const s_list_t *list, void *first, uint32_t *n)
{
    int et;
    uint32_t count;
    if (first) {
        zs_thrift_dec_skip (d, type);
        return first;
    }
    if (zs_thrift_dec_list (d, type, &et, &count) != 0)
        return NULL;
    if (et != ZS_THRIFT_STRUCT || count > list->max) {
        zs_thrift_dec_fail (d, list->malformed);
        return NULL;
    }
    uint8_t *items = calloc (count ? count : 1, list->size);
    if (!items) {
        zs_thrift_dec_fail (d, "out of memory");
        return NULL;
    }
    *n = count;
    for (uint32_t i = 0; i < count; i++)
        if (list->dec (d, items + i * list->size) != 0)
            break;
    return items;
}

static int
s_dec_chunk (zs_thrift_dec_t *d, void *item)
{
    zs_pq_chunk_meta_t *ch = item;
    ch->dict_page_offset = -1;
    return zs_thrift_dec_struct (d, s_chunk_fields, S_COUNT (s_chunk_fields), ch);
}

static const s_list_t s_chunk_list = {sizeof (zs_pq_chunk_meta_t), ZS_MAX_COLUMNS,
                                      "row group column list malformed", s_dec_chunk};

//  RowGroup.columns
static int
s_dec_columns (zs_thrift_dec_t *d, int type, void *obj)
{
    zs_pq_group_meta_t *g = obj;
    g->cols = s_dec_list (d, type, &s_chunk_list, g->cols, &g->ncols);
    return d->error ? -1 : 0;
}

//  RowGroup
static const zs_thrift_field_t s_group_fields[] = {
    {1, ZS_THRIFT_KEEP_CALL, 0, S_NO, s_dec_columns},
    {3, ZS_THRIFT_KEEP_I64, offsetof (zs_pq_group_meta_t, num_rows), S_NO, NULL},
};

static int
s_dec_group (zs_thrift_dec_t *d, void *item)
{
    zs_pq_group_meta_t *g = item;
    g->num_rows = -1;
    return zs_thrift_dec_struct (d, s_group_fields, S_COUNT (s_group_fields), g);
}

static int
s_dec_elem (zs_thrift_dec_t *d, void *item)
{
    return zs_thrift_dec_struct (d, s_elem_fields, S_COUNT (s_elem_fields), item);
}

static const s_list_t s_group_list = {sizeof (zs_pq_group_meta_t), UINT32_MAX,
                                      "row group list malformed", s_dec_group};
static const s_list_t s_schema_list = {sizeof (s_elem_t), UINT32_MAX, "schema list malformed",
                                       s_dec_elem};

//  FileMetaData.schema
static int
s_dec_schema (zs_thrift_dec_t *d, int type, void *obj)
{
    s_file_meta_t *fm = obj;
    fm->elems = s_dec_list (d, type, &s_schema_list, fm->elems, &fm->nelems);
    return d->error ? -1 : 0;
}

//  FileMetaData.row_groups
static int
s_dec_groups (zs_thrift_dec_t *d, int type, void *obj)
{
    s_file_meta_t *fm = obj;
    fm->groups = s_dec_list (d, type, &s_group_list, fm->groups, &fm->ngroups);
    return d->error ? -1 : 0;
}

//  FileMetaData
static const zs_thrift_field_t s_file_fields[] = {
    {2, ZS_THRIFT_KEEP_CALL, 0, S_NO, s_dec_schema},
    {3, ZS_THRIFT_KEEP_I64, offsetof (s_file_meta_t, num_rows), S_NO, NULL},
    {4, ZS_THRIFT_KEEP_CALL, 0, S_NO, s_dec_groups},
};

//  Decode FileMetaData into fm; its row groups and row count go to the
//  footer whatever happens.
static int
s_dec_file_meta (s_ctx_t *x, const uint8_t *footer, size_t len, s_file_meta_t *fm)
{
    zs_thrift_dec_t d;
    zs_thrift_dec_init (&d, footer, len);
    fm->num_rows = -1;
    int rc = zs_thrift_dec_struct (&d, s_file_fields, S_COUNT (s_file_fields), fm);
    x->footer->groups = fm->groups;
    x->footer->ngroups = fm->ngroups;
    x->footer->num_rows = fm->num_rows;
    if (rc != 0 || d.error)
        return zs_pq_err (x->err, x->errlen, "%s: footer: %s at byte %zu", x->path,
                          d.error ? d.error : "malformed", zs_thrift_dec_offset (&d));
    if (!fm->elems || !fm->groups || fm->num_rows < 0)
        return zs_pq_err (x->err, x->errlen, "%s: footer: schema, row groups or row count missing",
                          x->path);
    return 0;
}

//  --------------------------------------------------------------------------
//  Schema

#define S_NO_CT -1 //  no converted type

//  Checks the parameters of a logical type once its rule matched: 0 (and
//  maybe another type or parameters in *col), or -1 with why.
typedef int (s_refine_fn) (const s_elem_t *el, zs_column_t *col, char *why, size_t len);

//  IntType: signed, and as wide as the zsink type (8 TINYINT, 16
//  SMALLINT, 32 INT on INT32; 64 on INT64).
static int
s_refine_integer (const s_elem_t *el, zs_column_t *col, char *why, size_t len)
{
    int bits = (int) el->lt_bits; //  read as int, as the reader always has
    bool width_ok =
        col->type == ZS_TYPE_BIGINT ? bits == 64 : bits == 8 || bits == 16 || bits == 32;
    if (el->lt_signed && width_ok) {
        if (col->type != ZS_TYPE_BIGINT)
            col->type = bits == 8 ? ZS_TYPE_TINYINT : bits == 16 ? ZS_TYPE_SMALLINT : ZS_TYPE_INT;
        return 0;
    }
    snprintf (why, len, "%s INTEGER(%d, %s) not supported", zs_pq_type_name (el->type), bits,
              el->lt_signed ? "signed" : "unsigned");
    return -1;
}

//  TimestampType: milliseconds, microseconds or nanoseconds; adjusted to
//  UTC is WITH LOCAL TIME ZONE.
static int
s_refine_timestamp (const s_elem_t *el, zs_column_t *col, char *why, size_t len)
{
    if (el->lt_unit < 1 || el->lt_unit > 3) {
        snprintf (why, len, "INT64 TIMESTAMP(unknown unit) not supported");
        return -1;
    }
    static const zs_type_t kinds[] = {0, ZS_TYPE_TIMESTAMP3, ZS_TYPE_TIMESTAMP6,
                                      ZS_TYPE_TIMESTAMP9};
    col->type = kinds[el->lt_unit];
    col->params = true;
    col->precision = (uint8_t) (3 * el->lt_unit);
    col->ltz = el->lt_utc;
    return 0;
}

//  TimeType: milliseconds (INT32) or microseconds (INT64, DuckDB's),
//  read as Paimon's TIME: milliseconds of the day.
static int
s_refine_time (const s_elem_t *el, zs_column_t *col, char *why, size_t len)
{
    bool ok = el->type == ZS_PQ_INT32 ? el->lt_unit == 1 : el->lt_unit == 2;
    if (!ok) {
        snprintf (why, len, "%s TIME(%s) not supported", zs_pq_type_name (el->type),
                  el->lt_unit == 1   ? "MILLIS"
                  : el->lt_unit == 2 ? "MICROS"
                                     : "NANOS");
        return -1;
    }
    col->params = true;
    col->precision = 3;
    return 0;
}

//  DECIMAL (logical or converted): 1 <= precision <= 38, 0 <= scale <=
//  precision, and the physical type wide enough.
static int
s_refine_decimal (const s_elem_t *el, zs_column_t *col, char *why, size_t len)
{
    int p = el->lt == ZS_PQ_LT_DECIMAL ? el->lt_precision : el->precision;
    int s = el->lt == ZS_PQ_LT_DECIMAL ? el->lt_scale : el->scale;
    int most = el->type == ZS_PQ_INT32   ? 9
               : el->type == ZS_PQ_INT64 ? 18
               : el->type == ZS_PQ_FIXED_LEN_BYTE_ARRAY && el->has_len
                   ? (el->type_length >= 1 && el->type_length <= 16 ? 38 : 0)
                   : 38;
    if (p < 1 || p > most || s < 0 || s > p) {
        snprintf (why, len, "%s DECIMAL(%d, %d) not supported", zs_pq_type_name (el->type), p, s);
        return -1;
    }
    col->params = true;
    col->precision = (uint8_t) p;
    col->scale = (uint8_t) s;
    return 0;
}

//  What a rule matches a leaf's annotation by. The logical type decides
//  when present (it is the newer and more precise annotation); without one
//  the converted type does; without either (S_NO_CT) the physical type.
enum { S_BY_ANY, S_BY_LOGICAL, S_BY_CONVERTED };

typedef struct {
    int32_t ptype;
    int by;         //  S_BY_*
    int annotation; //  the logical or converted type (or S_NO_CT) matched
    zs_type_t type;
    s_refine_fn *refine; //  or NULL
} s_type_rule_t;

static const s_type_rule_t s_type_rules[] = {
    {ZS_PQ_BOOLEAN, S_BY_ANY, 0, ZS_TYPE_BOOLEAN, NULL},
    {ZS_PQ_FLOAT, S_BY_ANY, 0, ZS_TYPE_FLOAT, NULL},
    {ZS_PQ_DOUBLE, S_BY_ANY, 0, ZS_TYPE_DOUBLE, NULL},
    {ZS_PQ_INT96, S_BY_ANY, 0, ZS_TYPE_TIMESTAMP9, NULL},
    {ZS_PQ_INT32, S_BY_LOGICAL, ZS_PQ_LT_DATE, ZS_TYPE_DATE, NULL},
    {ZS_PQ_INT32, S_BY_CONVERTED, ZS_PQ_CT_DATE, ZS_TYPE_DATE, NULL},
    {ZS_PQ_INT32, S_BY_LOGICAL, ZS_PQ_LT_INTEGER, ZS_TYPE_INT, s_refine_integer},
    {ZS_PQ_INT32, S_BY_CONVERTED, S_NO_CT, ZS_TYPE_INT, NULL},
    {ZS_PQ_INT32, S_BY_CONVERTED, ZS_PQ_CT_INT_8, ZS_TYPE_TINYINT, NULL},
    {ZS_PQ_INT32, S_BY_CONVERTED, ZS_PQ_CT_INT_16, ZS_TYPE_SMALLINT, NULL},
    {ZS_PQ_INT32, S_BY_CONVERTED, ZS_PQ_CT_INT_32, ZS_TYPE_INT, NULL},
    {ZS_PQ_INT32, S_BY_LOGICAL, ZS_PQ_LT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_INT32, S_BY_CONVERTED, ZS_PQ_CT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_INT32, S_BY_LOGICAL, ZS_PQ_LT_TIME, ZS_TYPE_TIME, s_refine_time},
    {ZS_PQ_INT32, S_BY_CONVERTED, ZS_PQ_CT_TIME_MILLIS, ZS_TYPE_TIME, NULL},
    {ZS_PQ_INT64, S_BY_LOGICAL, ZS_PQ_LT_TIMESTAMP, ZS_TYPE_TIMESTAMP6, s_refine_timestamp},
    {ZS_PQ_INT64, S_BY_CONVERTED, ZS_PQ_CT_TIMESTAMP_MILLIS, ZS_TYPE_TIMESTAMP3, NULL},
    {ZS_PQ_INT64, S_BY_CONVERTED, ZS_PQ_CT_TIMESTAMP_MICROS, ZS_TYPE_TIMESTAMP6, NULL},
    {ZS_PQ_INT64, S_BY_LOGICAL, ZS_PQ_LT_INTEGER, ZS_TYPE_BIGINT, s_refine_integer},
    {ZS_PQ_INT64, S_BY_CONVERTED, S_NO_CT, ZS_TYPE_BIGINT, NULL},
    {ZS_PQ_INT64, S_BY_CONVERTED, ZS_PQ_CT_INT_64, ZS_TYPE_BIGINT, NULL},
    {ZS_PQ_INT64, S_BY_LOGICAL, ZS_PQ_LT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_INT64, S_BY_CONVERTED, ZS_PQ_CT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_INT64, S_BY_LOGICAL, ZS_PQ_LT_TIME, ZS_TYPE_TIME, s_refine_time},
    {ZS_PQ_FIXED_LEN_BYTE_ARRAY, S_BY_LOGICAL, ZS_PQ_LT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_FIXED_LEN_BYTE_ARRAY, S_BY_CONVERTED, ZS_PQ_CT_DECIMAL, ZS_TYPE_DECIMAL,
     s_refine_decimal},
    {ZS_PQ_BYTE_ARRAY, S_BY_LOGICAL, ZS_PQ_LT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_BYTE_ARRAY, S_BY_CONVERTED, ZS_PQ_CT_DECIMAL, ZS_TYPE_DECIMAL, s_refine_decimal},
    {ZS_PQ_BYTE_ARRAY, S_BY_LOGICAL, ZS_PQ_LT_STRING, ZS_TYPE_STRING, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_LOGICAL, ZS_PQ_LT_ENUM, ZS_TYPE_STRING, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_LOGICAL, ZS_PQ_LT_JSON, ZS_TYPE_STRING, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_CONVERTED, ZS_PQ_CT_UTF8, ZS_TYPE_STRING, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_CONVERTED, ZS_PQ_CT_ENUM, ZS_TYPE_STRING, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_CONVERTED, ZS_PQ_CT_JSON, ZS_TYPE_STRING, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_LOGICAL, ZS_PQ_LT_BSON, ZS_TYPE_BYTES, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_CONVERTED, S_NO_CT, ZS_TYPE_BYTES, NULL},
    {ZS_PQ_BYTE_ARRAY, S_BY_CONVERTED, ZS_PQ_CT_BSON, ZS_TYPE_BYTES, NULL},
};

static bool
s_rule_matches (const s_type_rule_t *r, int lt, int ct)
{
    if (r->by == S_BY_ANY)
        return true;
    if (r->by == S_BY_LOGICAL)
        return lt && lt == r->annotation;
    return !lt && ct == r->annotation;
}

//  why for a physical type we map, but not with this annotation.
static void
s_unsupported (const s_elem_t *el, int ct, char *why, size_t len)
{
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
    int lt = el->lt;
    if (lt)
        snprintf (why, len, "%s %s not supported", zs_pq_type_name (el->type),
                  lt > 0 && lt < 19 ? lt_names[lt] : "(unknown logical type)");
    else
        snprintf (why, len, "%s %s not supported", zs_pq_type_name (el->type),
                  ct >= 0 && ct < 22 ? ct_names[ct] : "(unknown converted type)");
}

//  zsink type of a leaf by the first rule that matches it, or -1 with why.
static int
s_map_type (const s_elem_t *el, zs_column_t *out, char *why, size_t len)
{
    int ct = el->has_ct ? el->ct : S_NO_CT;
    bool known = false; //  a physical type some rule maps
    for (size_t i = 0; i < S_COUNT (s_type_rules); i++) {
        const s_type_rule_t *r = &s_type_rules[i];
        if (r->ptype != el->type)
            continue;
        known = true;
        if (!s_rule_matches (r, el->lt, ct))
            continue;
        out->type = r->type;
        if (r->refine && r->refine (el, out, why, len) != 0)
            return -1;
        return 0;
    }
    if (known)
        s_unsupported (el, ct, why, len);
    else
        snprintf (why, len, "type %s not supported", zs_pq_type_name (el->type));
    return -1;
}

//  A flat schema: a root whose children are all the other elements, each
//  a leaf with a type.
static int
s_check_flat (s_ctx_t *x, const s_elem_t *elems, uint32_t nelems)
{
    if (nelems < 2 || !elems[0].has_children)
        return zs_pq_err (x->err, x->errlen, "%s: schema has no columns", x->path);
    //  Any group below the root means nesting; name the first one.
    for (uint32_t i = 1; i < nelems; i++) {
        const s_elem_t *el = &elems[i];
        int name_len = (int) (el->name.len < 64 ? el->name.len : 64);
        const char *name = el->name.data ? (const char *) el->name.data : "";
        if (el->has_children && el->num_children > 0)
            return zs_pq_err (x->err, x->errlen, "%s: column '%.*s': nested schemas not supported",
                              x->path, name_len, name);
        if (!el->has_type)
            return zs_pq_err (x->err, x->errlen, "%s: column '%.*s': no type", x->path, name_len,
                              name);
    }
    if (elems[0].num_children != (int32_t) (nelems - 1))
        return zs_pq_err (x->err, x->errlen, "%s: schema root has %d children, %u elements follow",
                          x->path, elems[0].num_children, nelems - 1);
    if (nelems - 1 > ZS_MAX_COLUMNS)
        return zs_pq_err (x->err, x->errlen, "%s: %u columns, at most %d supported", x->path,
                          nelems - 1, ZS_MAX_COLUMNS);
    return 0;
}

//  Column i of the schema, from its leaf.
static int
s_derive_column (s_ctx_t *x, int i, const s_elem_t *el)
{
    zs_column_t *c = &x->footer->schema.cols[i];
    if (!el->name.data || el->name.len == 0 || el->name.len >= ZS_COLUMN_NAME_MAX
        || memchr (el->name.data, 0, el->name.len))
        return zs_pq_err (x->err, x->errlen, "%s: column %d: name empty, too long or not text",
                          x->path, i + 1);
    memcpy (c->name, el->name.data, el->name.len);
    c->name[el->name.len] = 0;
    if (el->has_rep && el->rep == ZS_PQ_REPEATED)
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': repeated fields not supported",
                          x->path, c->name);
    if (el->has_rep && el->rep != ZS_PQ_REQUIRED && el->rep != ZS_PQ_OPTIONAL)
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': repetition %d not supported",
                          x->path, c->name, el->rep);
    c->nullable = el->has_rep && el->rep == ZS_PQ_OPTIONAL;
    char why[128];
    if (s_map_type (el, c, why, sizeof why) != 0)
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': %s", x->path, c->name, why);
    x->footer->ptypes[i] = el->type;
    x->footer->widths[i] = el->type == ZS_PQ_FIXED_LEN_BYTE_ARRAY ? el->type_length
                           : el->type == ZS_PQ_INT96              ? 12
                                                                  : zs_pq_value_width (el->type);
    if (el->type == ZS_PQ_FIXED_LEN_BYTE_ARRAY && (!el->has_len || el->type_length < 1))
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': no fixed length", x->path, c->name);
    return 0;
}

//  --------------------------------------------------------------------------
//  Nested schemas (parquet_nested.h): LIST and MAP in their three-level
//  form, other groups as ROW. Leaves are collected in depth-first order,
//  the order of the file's column chunks and of zs_pq_layout's leaves.

typedef struct {
    s_ctx_t *x;
    const s_elem_t *elems;
    uint32_t nelems;
    uint32_t pos;                           //  next element
    const s_elem_t *leaves[ZS_MAX_COLUMNS]; //  in order
    int nleaves;
} s_tree_t;

//  An element's name into col->name. 0 or -1.
static int
s_elem_name (s_tree_t *t, const s_elem_t *el, zs_column_t *col)
{
    if (!el->name.data || el->name.len == 0 || el->name.len >= ZS_COLUMN_NAME_MAX
        || memchr (el->name.data, 0, el->name.len))
        return zs_pq_err (t->x->err, t->x->errlen,
                          "%s: schema element %u: name empty, too long or not text", t->x->path,
                          t->pos);
    memcpy (col->name, el->name.data, el->name.len);
    col->name[el->name.len] = 0;
    return 0;
}

static int s_tree_node (s_tree_t *t, zs_column_t *col, int depth);

//  The children of a group into nodes reserved together (rowtype.h).
static int
s_tree_children (s_tree_t *t, zs_column_t *col, int n, int depth)
{
    zs_schema_t *s = &t->x->footer->schema;
    if (n < 1 || s->nnodes + n > ZS_MAX_NODES)
        return zs_pq_err (t->x->err, t->x->errlen,
                          "%s: column '%s': %d children (nested types at most %d in all)",
                          t->x->path, col->name, n, ZS_MAX_NODES);
    col->child = (int16_t) s->nnodes;
    col->nchild = (uint16_t) n;
    s->nnodes += n;
    for (int i = 0; i < n; i++)
        if (s_tree_node (t, &s->nodes[col->child + i], depth + 1) != 0)
            return -1;
    return 0;
}

//  A LIST or MAP group: its one repeated group, then what that holds.
static int
s_tree_repeated (s_tree_t *t, zs_column_t *col, const s_elem_t *el, bool list, int depth)
{
    if (el->num_children != 1 || t->pos >= t->nelems)
        return zs_pq_err (t->x->err, t->x->errlen, "%s: column '%s': %s group of %d children",
                          t->x->path, col->name, list ? "LIST" : "MAP", el->num_children);
    const s_elem_t *rg = &t->elems[t->pos++];
    int want = list ? 1 : 2;
    if (!rg->has_rep || rg->rep != ZS_PQ_REPEATED || !rg->has_children || rg->num_children != want)
        return zs_pq_err (t->x->err, t->x->errlen,
                          "%s: column '%s': %s without its repeated group of %d "
                          "(two-level lists not supported)",
                          t->x->path, col->name, list ? "LIST" : "MAP", want);
    col->type = list ? ZS_TYPE_ARRAY : ZS_TYPE_MAP;
    if (s_tree_children (t, col, want, depth) != 0)
        return -1;
    zs_schema_t *s = &t->x->footer->schema;
    static const char *const names[] = {"element", "key", "value"};
    for (int i = 0; i < want; i++)
        snprintf (s->nodes[col->child + i].name, ZS_COLUMN_NAME_MAX, "%s", names[list ? 0 : 1 + i]);
    return 0;
}

static int
s_tree_node (s_tree_t *t, zs_column_t *col, int depth)
{
    if (t->pos >= t->nelems)
        return zs_pq_err (t->x->err, t->x->errlen, "%s: schema ends inside a group", t->x->path);
    const s_elem_t *el = &t->elems[t->pos++];
    memset (col, 0, sizeof *col);
    if (s_elem_name (t, el, col) != 0)
        return -1;
    if (el->has_rep && el->rep == ZS_PQ_REPEATED)
        return zs_pq_err (t->x->err, t->x->errlen,
                          "%s: column '%s': repeated field outside a LIST or MAP not supported",
                          t->x->path, col->name);
    col->nullable = el->has_rep && el->rep == ZS_PQ_OPTIONAL;
    if (!el->has_children || el->num_children == 0) {
        if (!el->has_type)
            return zs_pq_err (t->x->err, t->x->errlen, "%s: column '%s': no type", t->x->path,
                              col->name);
        if (t->nleaves == ZS_MAX_COLUMNS)
            return zs_pq_err (t->x->err, t->x->errlen, "%s: more than %d leaf columns", t->x->path,
                              ZS_MAX_COLUMNS);
        char why[128];
        if (s_map_type (el, col, why, sizeof why) != 0)
            return zs_pq_err (t->x->err, t->x->errlen, "%s: column '%s': %s", t->x->path, col->name,
                              why);
        t->leaves[t->nleaves++] = el;
        return 0;
    }
    if (depth >= ZS_MAX_DEPTH)
        return zs_pq_err (t->x->err, t->x->errlen, "%s: column '%s': nested deeper than %d",
                          t->x->path, col->name, ZS_MAX_DEPTH);
    bool list = (el->has_ct && el->ct == 3) || el->lt == 3;
    bool map = (el->has_ct && (el->ct == 1 || el->ct == 2)) || el->lt == 2;
    if (list || map)
        return s_tree_repeated (t, col, el, list, depth);
    col->type = ZS_TYPE_ROW;
    return s_tree_children (t, col, el->num_children, depth);
}

//  Physical type and width of leaf k (the footer's arrays by chunk).
static int
s_leaf_phys (s_ctx_t *x, int k, const s_elem_t *el, const char *name)
{
    x->footer->ptypes[k] = el->type;
    x->footer->widths[k] = el->type == ZS_PQ_FIXED_LEN_BYTE_ARRAY ? el->type_length
                           : el->type == ZS_PQ_INT96              ? 12
                                                                  : zs_pq_value_width (el->type);
    if (el->type == ZS_PQ_FIXED_LEN_BYTE_ARRAY && (!el->has_len || el->type_length < 1))
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': no fixed length", x->path, name);
    return 0;
}

static int
s_derive_nested (s_ctx_t *x, const s_elem_t *elems, uint32_t nelems)
{
    zs_pq_footer_t *f = x->footer;
    zs_schema_t *s = &f->schema;
    s_tree_t *t = calloc (1, sizeof *t);
    if (!t)
        return zs_pq_err (x->err, x->errlen, "%s: out of memory", x->path);
    *t = (s_tree_t){x, elems, nelems, 1, {0}, 0};
    int rc = 0, n = elems[0].num_children;
    if (n < 1 || n > ZS_MAX_COLUMNS)
        rc = zs_pq_err (x->err, x->errlen, "%s: %d columns (1 to %d)", x->path, n, ZS_MAX_COLUMNS);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = s_tree_node (t, &s->cols[i], 0);
    if (rc == 0 && t->pos != nelems)
        rc = zs_pq_err (x->err, x->errlen, "%s: schema root has %d children, %u elements follow",
                        x->path, n, nelems - 1);
    s->n = rc == 0 ? n : 0;
    s->id_col = -1;
    char why[ZS_ERRLEN];
    if (rc == 0 && !(f->layout = malloc (sizeof *f->layout)))
        rc = zs_pq_err (x->err, x->errlen, "%s: out of memory", x->path);
    if (rc == 0 && zs_pq_layout (s, f->layout, why, sizeof why) != 0)
        rc = zs_pq_err (x->err, x->errlen, "%s: %s", x->path, why);
    for (int k = 0; rc == 0 && k < t->nleaves; k++) {
        f->chunk_cols[k] = f->layout->leaf[k];
        rc = s_leaf_phys (x, k, t->leaves[k], f->layout->leaf[k].name);
    }
    f->nchunks = rc == 0 ? t->nleaves : 0;
    free (t);
    return rc;
}

static bool
s_has_groups (const s_elem_t *elems, uint32_t nelems)
{
    for (uint32_t i = 1; i < nelems; i++)
        if (elems[i].has_children && elems[i].num_children > 0)
            return true;
    return false;
}

static int
s_derive_schema (s_ctx_t *x, const s_elem_t *elems, uint32_t nelems)
{
    zs_schema_t *s = &x->footer->schema;
    if (nelems >= 2 && elems[0].has_children && s_has_groups (elems, nelems)) {
        if (s_derive_nested (x, elems, nelems) != 0)
            return -1;
        for (int i = 0; i < s->n; i++)
            if (s->id_col < 0 && strcmp (s->cols[i].name, "id") == 0
                && s->cols[i].type == ZS_TYPE_BIGINT)
                s->id_col = i;
        return 0;
    }
    if (s_check_flat (x, elems, nelems) != 0)
        return -1;
    s->n = (int) nelems - 1;
    s->id_col = -1;
    x->footer->nchunks = s->n;
    for (int i = 0; i < s->n; i++) {
        if (s_derive_column (x, i, &elems[i + 1]) != 0)
            return -1;
        x->footer->chunk_cols[i] = s->cols[i];
        if (s->id_col < 0 && strcmp (s->cols[i].name, "id") == 0
            && s->cols[i].type == ZS_TYPE_BIGINT)
            s->id_col = i;
    }
    return 0;
}

//  --------------------------------------------------------------------------
//  Row groups

//  The lowest encoding listed that the reader does not decode, or -1.
//  Levels may be listed as BIT_PACKED by old writers even where none are
//  stored; a page that really uses it fails when read.
static int
s_unknown_encoding (uint32_t encodings)
{
    uint32_t known = 1u << ZS_PQ_PLAIN | 1u << ZS_PQ_PLAIN_DICTIONARY | 1u << ZS_PQ_RLE
                     | 1u << ZS_PQ_BIT_PACKED | 1u << ZS_PQ_RLE_DICTIONARY
                     | 1u << ZS_PQ_DELTA_BINARY_PACKED | 1u << ZS_PQ_DELTA_LENGTH_BYTE_ARRAY
                     | 1u << ZS_PQ_DELTA_BYTE_ARRAY;
    uint32_t unknown = encodings & ~known;
    if (!unknown)
        return -1;
    int e = 0;
    while (!(unknown >> e & 1))
        e++;
    return e;
}

//  Chunk i of row group g against the schema, its row group and the data
//  region; sets its start (the first page).
static int
s_check_chunk (s_ctx_t *x, uint32_t g, int i, zs_pq_chunk_meta_t *ch)
{
    const zs_pq_group_meta_t *gr = &x->footer->groups[g];
    char leaf_name[ZS_PQ_PATH_MAX];
    const char *name = x->footer->layout
                           ? zs_pq_leaf_name (x->footer->layout, i, leaf_name, sizeof leaf_name)
                           : x->footer->schema.cols[i].name;
    int32_t ptype = x->footer->ptypes[i];
    if (!ch->has_meta || ch->has_file_path)
        return zs_pq_err (x->err, x->errlen, "%s: row group %u, column '%s': %s", x->path, g, name,
                          ch->has_file_path ? "data in another file not supported"
                                            : "no column metadata");
    if (ch->ptype != ptype)
        return zs_pq_err (x->err, x->errlen,
                          "%s: row group %u, column '%s': chunk type %s, schema %s", x->path, g,
                          name, zs_pq_type_name (ch->ptype), zs_pq_type_name (ptype));
    if (ch->codec != ZS_PQ_UNCOMPRESSED && ch->codec != ZS_PQ_SNAPPY && ch->codec != ZS_PQ_ZSTD)
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': compression %s not supported",
                          x->path, name, zs_pq_codec_name (ch->codec));
    int e = s_unknown_encoding (ch->encodings);
    if (e >= 0)
        return zs_pq_err (x->err, x->errlen, "%s: column '%s': encoding %s not supported", x->path,
                          name, zs_pq_encoding_name (e));
    bool repeated = x->footer->layout && x->footer->layout->max_rep[i];
    if (repeated ? ch->num_values < gr->num_rows : ch->num_values != gr->num_rows)
        return zs_pq_err (x->err, x->errlen,
                          "%s: row group %u, column '%s': %lld values for %lld rows", x->path, g,
                          name, (long long) ch->num_values, (long long) gr->num_rows);
    ch->start = ch->data_page_offset;
    //  Some writers put 0 for "no dictionary".
    if (ch->dict_page_offset >= 4 && ch->dict_page_offset < ch->data_page_offset)
        ch->start = ch->dict_page_offset;
    if (ch->start < 4 || ch->len < 0 || ch->start > x->data_end
        || ch->len > x->data_end - ch->start)
        return zs_pq_err (x->err, x->errlen,
                          "%s: row group %u, column '%s': chunk at %lld, %lld bytes, "
                          "outside the data (%lld bytes)",
                          x->path, g, name, (long long) ch->start, (long long) ch->len,
                          (long long) x->data_end);
    return 0;
}

//  Check every row group against the schema and the file.
static int
s_check_groups (s_ctx_t *x)
{
    zs_pq_footer_t *f = x->footer;
    int64_t rows = 0;
    for (uint32_t g = 0; g < f->ngroups; g++) {
        zs_pq_group_meta_t *gr = &f->groups[g];
        int64_t bytes = 0; //  chunks of a row group are read at once
        if (gr->ncols != (uint32_t) f->nchunks || gr->num_rows < 0)
            return zs_pq_err (x->err, x->errlen,
                              "%s: row group %u: %u columns, %lld rows (schema has %d)", x->path, g,
                              gr->ncols, (long long) gr->num_rows, f->nchunks);
        if (gr->num_rows > INT64_MAX - rows)
            return zs_pq_err (x->err, x->errlen, "%s: row counts overflow", x->path);
        rows += gr->num_rows;
        for (int i = 0; i < f->nchunks; i++) {
            if (s_check_chunk (x, g, i, &gr->cols[i]) != 0)
                return -1;
            bytes += gr->cols[i].len;
        }
        //  Chunks do not overlap in a real file: more bytes than the data
        //  region holds would be memory for nothing.
        if (bytes > x->data_end - 4)
            return zs_pq_err (x->err, x->errlen,
                              "%s: row group %u: chunks of %lld bytes in a data region of %lld",
                              x->path, g, (long long) bytes, (long long) x->data_end);
    }
    if (rows != f->num_rows)
        return zs_pq_err (x->err, x->errlen, "%s: footer says %lld rows, row groups hold %lld",
                          x->path, (long long) f->num_rows, (long long) rows);
    return 0;
}

//  --------------------------------------------------------------------------
//  Statistics

//  A statistics value of the file's physical type as a zsink value: the
//  file's own encoding (a decimal of any fixed length or as a byte array,
//  a TIME in microseconds) where it is not the writer's.
static bool
s_stats_value (const zs_column_t *col, int32_t ptype, zs_thrift_binary_t b, zs_value_t *v)
{
    if (col->type == ZS_TYPE_DECIMAL
        && (ptype == ZS_PQ_FIXED_LEN_BYTE_ARRAY || ptype == ZS_PQ_BYTE_ARRAY)) {
        if (b.len < 1 || b.len > 16)
            return false;
        memset (v, 0, sizeof *v);
        zs_dec_set (v, zs_dec_get_be (b.data, b.len));
        return true;
    }
    if (col->type == ZS_TYPE_TIME && ptype == ZS_PQ_INT64) {
        if (b.len != 8)
            return false;
        memset (v, 0, sizeof *v);
        v->v.i32 = (int32_t) ((int64_t) zs_le_get (b.data, 8) / 1000);
        return true;
    }
    if (col->type == ZS_TYPE_TIMESTAMP9 && ptype == ZS_PQ_INT64) {
        if (b.len != 8)
            return false;
        memset (v, 0, sizeof *v);
        v->v.i64 = (int64_t) zs_le_get (b.data, 8);
        return true;
    }
    return zs_pq_stats_decode (col, b.data, b.len, v);
}

//  Merge one chunk's statistics into st: false when the chunk leaves the
//  column's min/max unknown (missing, unusable or too long, and the chunk
//  has values to bound). A null count outside [0, num_values] is corrupt,
//  and leaves the column's null count unknown (*nulls_unknown); this also
//  bounds the sum by the file's rows (no overflow).
static bool
s_merge_chunk (zs_column_stats_t *st, const zs_column_t *col, int32_t ptype,
               const zs_pq_chunk_meta_t *ch, bool *nulls_unknown)
{
    zs_type_t type = col->type;
    bool nulls_ok = ch->has_null_count && ch->null_count >= 0 && ch->null_count <= ch->num_values;
    if (nulls_ok)
        st->null_count += ch->null_count;
    else
        *nulls_unknown = true;
    zs_thrift_binary_t minb = ch->min_value, maxb = ch->max_value;
    //  The deprecated fields are signed-order: usable for numbers only.
    if ((!minb.data || !maxb.data) && !zs_type_is_binary (type) && ptype != ZS_PQ_BYTE_ARRAY) {
        minb = ch->min_old;
        maxb = ch->max_old;
    }
    zs_value_t min, max;
    if (minb.data && maxb.data && minb.len <= ZS_STATS_BIN_MAX && maxb.len <= ZS_STATS_BIN_MAX
        && s_stats_value (col, ptype, minb, &min) && s_stats_value (col, ptype, maxb, &max)) {
        zs_pq_stats_widen (st, type, &min, &max);
        return true;
    }
    //  Nothing to bound: all null, or all NaN.
    int64_t nothing = nulls_ok ? ch->null_count : -1;
    if (ch->has_nan_count && nothing >= 0)
        nothing = ch->nan_count >= 0 && ch->nan_count <= ch->num_values - nothing
                      ? nothing + ch->nan_count
                      : -1;
    return ch->num_values == 0 || nothing == ch->num_values;
}

//  Merge chunk statistics into the file's. A chunk whose min/max is
//  missing, unusable or too long makes the file's unknown, unless it has
//  nothing to bound (all null, or all NaN).
static void
s_merge_stats (zs_pq_footer_t *f)
{
    for (int i = 0; i < f->nchunks; i++) {
        zs_type_t type = f->chunk_cols[i].type;
        zs_column_stats_t *st = &f->stats[i];
        bool unknown = false, nulls_unknown = false;
        memset (st, 0, sizeof *st);
        for (uint32_t g = 0; g < f->ngroups; g++)
            if (!s_merge_chunk (st, &f->chunk_cols[i], f->ptypes[i], &f->groups[g].cols[i],
                                &nulls_unknown))
                unknown = true;
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

int
zs_pq_footer_decode (zs_pq_footer_t *self, const char *path, const uint8_t *footer, size_t len,
                     int64_t data_end, char *err, size_t errlen)
{
    s_ctx_t x = {self, path, data_end, err, errlen};
    s_file_meta_t fm = {0};
    int rc = s_dec_file_meta (&x, footer, len, &fm);
    if (rc == 0)
        rc = s_derive_schema (&x, fm.elems, fm.nelems);
    if (rc == 0)
        rc = s_check_groups (&x);
    if (rc == 0)
        s_merge_stats (self);
    free (fm.elems);
    return rc;
}

void
zs_pq_footer_fini (zs_pq_footer_t *self)
{
    for (uint32_t g = 0; g < self->ngroups && self->groups; g++)
        free (self->groups[g].cols);
    free (self->groups);
    self->groups = NULL;
    self->ngroups = 0;
    free (self->layout);
    self->layout = NULL;
}
