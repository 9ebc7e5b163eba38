/*  rowtype.h - a table's row type: columns, their types and nullability,
    the text form a job config gives ("id BIGINT NOT NULL, name STRING"),
    and the value cell every module passes rows around in. (The table's
    schema file, schema-0, is table/schema.h.)

    Types and their in-memory values (zs_value_t.v):
        BOOLEAN       b     (Parquet BOOLEAN)
        INT           i32   (INT32)
        BIGINT        i64   (INT64)
        FLOAT         f32   (FLOAT)
        DOUBLE        f64   (DOUBLE)
        STRING        bin   (BYTE_ARRAY, UTF-8; STRING logical type)
        BYTES         bin   (BYTE_ARRAY)
        DATE          i32   days since 1970-01-01 (INT32, DATE)
        TIMESTAMP(3)  i64   milliseconds since the epoch, no time zone
                            (INT64, TIMESTAMP(MILLIS, isAdjustedToUTC=false))
        TIMESTAMP(6)  i64   microseconds, likewise (TIMESTAMP(MICROS))
        TINYINT       i32   -128..127 (INT32, INT(8, signed))
        SMALLINT      i32   -32768..32767 (INT32, INT(16, signed))
        DECIMAL(p,s)  dec   the unscaled value, 128-bit two's complement
                            (lo, hi) for every precision 1..38; |value|
                            < 10^p (INT32 p <= 9, INT64 p <= 18, else
                            FIXED_LEN_BYTE_ARRAY; DECIMAL(p, s))
        CHAR(n)       bin   as STRING; VARCHAR(n) is STRING with length n
        BINARY(n)     bin   as BYTES; VARBINARY(n) is BYTES with length n
        TIME(p)       i32   milliseconds of the day, as Paimon keeps TIME
                            whatever p (INT32, TIME(MILLIS, UTC))
        TIMESTAMP(p)  p 0..3 is kind TIMESTAMP3 (i64 millis), 4..6 kind
                            TIMESTAMP6 (i64 micros), 7..9 kind TIMESTAMP9
                            (i64 nanoseconds since the epoch: 1677-09-21
                            to 2262-04-11; INT96 as Paimon writes p > 6)
        TIMESTAMP(p) WITH LOCAL TIME ZONE   the same kinds and values (an
                            instant, UTC) with col.ltz set; Parquet
                            isAdjustedToUTC = true

    The kind (zs_column_t.type) decides the value's form; the parameters
    (precision, scale, length, ltz) the SQL type. Read them through
    zs_column_precision/scale/length: a column whose params is false (built
    by hand, memset) has its kind's defaults (TIMESTAMP3 -> 3, TIMESTAMP6
    -> 6, TIMESTAMP9 -> 9, TIME -> 0, DECIMAL -> (10, 0), STRING/BYTES ->
    2147483647, CHAR/BINARY -> 1).

    Nested types: ARRAY<T>, MAP<K, V>, ROW<name T, ...> (also ROW(...)),
    to any depth, each element, key, value or field nullable or NOT NULL.
    zs_schema_t stays a plain value (it is memcpy'd about): the types
    inside a nested column are nodes in the schema's own pool,
    schema->nodes[], and a nested column (or node) names its children by
    index: nodes[col->child .. col->child + col->nchild), contiguous.
    ARRAY has one child (named "element"), MAP two ("key", "value"; the
    key is NOT NULL as Paimon's Parquet files have it), ROW one per field
    (the field's name). Read them with zs_schema_child. Values:
        ARRAY    nest  elems[0..n)
        MAP      nest  elems[0..n) the keys, vals[0..n) their values
        ROW      nest  elems[0..n) the fields, n = the field count
    The values a nested value points at belong, like STRING bytes, to
    whoever made the row until its next row.

    A row is an array of schema->n values in column order. The bytes a
    STRING/BYTES value points at belong to whoever made the row and stay
    valid only until that producer makes its next row: consumers copy.
*/
#ifndef ZS_ROWTYPE_H_INCLUDED
#define ZS_ROWTYPE_H_INCLUDED

#include "zs.h"

typedef enum {
    ZS_TYPE_BOOLEAN = 1,
    ZS_TYPE_INT,
    ZS_TYPE_BIGINT,
    ZS_TYPE_FLOAT,
    ZS_TYPE_DOUBLE,
    ZS_TYPE_STRING,
    ZS_TYPE_BYTES,
    ZS_TYPE_DATE,
    ZS_TYPE_TIMESTAMP3,
    ZS_TYPE_TIMESTAMP6,
    ZS_TYPE_TINYINT,
    ZS_TYPE_SMALLINT,
    ZS_TYPE_DECIMAL,
    ZS_TYPE_CHAR,
    ZS_TYPE_BINARY,
    ZS_TYPE_TIME,
    ZS_TYPE_TIMESTAMP9,
    //  Nested kinds, numbered apart from the scalars (ZS_TYPE_LAST is the
    //  last scalar: BinaryRow and statistics take scalars only).
    ZS_TYPE_ARRAY = 32,
    ZS_TYPE_MAP,
    ZS_TYPE_ROW,
} zs_type_t;

#define ZS_TYPE_LAST ZS_TYPE_TIMESTAMP9
#define ZS_DECIMAL_MAX_PRECISION 38
#define ZS_LENGTH_MAX 2147483647 //  STRING = VARCHAR(2147483647)

#define ZS_MAX_COLUMNS 64
#define ZS_COLUMN_NAME_MAX 64 //  bytes including the NUL
#define ZS_PARTITION_MAX 8    //  partition keys a table may have
#define ZS_MAX_NODES 128      //  types inside nested columns, all columns together
#define ZS_MAX_DEPTH 16       //  nesting levels of one column

typedef struct {
    char name[ZS_COLUMN_NAME_MAX];
    zs_type_t type;
    bool nullable;
    bool params;       //  precision, scale, length, ltz are set (see above)
    bool ltz;          //  TIMESTAMP WITH LOCAL TIME ZONE
    uint8_t precision; //  DECIMAL 1..38; TIME, TIMESTAMP 0..9
    uint8_t scale;     //  DECIMAL 0..precision
    int32_t length;    //  CHAR, VARCHAR, BINARY, VARBINARY 1..2147483647
    int16_t child;     //  ARRAY, MAP, ROW: first child in schema->nodes
    uint16_t nchild;   //  and how many (ARRAY 1, MAP 2, ROW its fields)
} zs_column_t;

typedef struct {
    int n;
    zs_column_t cols[ZS_MAX_COLUMNS];
    //  Index of the first column named "id" of type BIGINT, or -1: the
    //  column `zsink table stats` and the manifest's minId/maxId are about.
    int id_col;
    //  FNV-1a of the canonical text, set by zs_schema_parse: equal schemas
    //  have equal fingerprints (caches key on it).
    uint64_t fingerprint;
    //  The table's partition keys (table/partition.h): column indexes in
    //  key order; 0 keys: unpartitioned. zs_schema_parse leaves none; the
    //  job config's table.partition-keys and a table's schema file set them.
    int n_partition;
    int partition[ZS_PARTITION_MAX];
    //  The types inside nested columns (see above); nnodes in use.
    int nnodes;
    zs_column_t nodes[ZS_MAX_NODES];
} zs_schema_t;

typedef struct zs_value_s {
    bool null;
    union {
        bool b;
        int32_t i32;
        int64_t i64;
        float f32;
        double f64;
        struct {
            const uint8_t *ptr;
            uint32_t len;
        } bin;
        struct {
            uint64_t lo;
            int64_t hi;
        } dec;
        struct {
            const struct zs_value_s *elems; //  elements, keys, fields
            const struct zs_value_s *vals;  //  MAP values
            uint32_t n;
        } nest;
    } v;
} zs_value_t;

//  DECIMAL values as one 128-bit integer.
static inline __int128
zs_dec_get (const zs_value_t *v)
{
    return (__int128) ((unsigned __int128) (uint64_t) v->v.dec.hi << 64 | v->v.dec.lo);
}

static inline void
zs_dec_set (zs_value_t *v, __int128 x)
{
    v->v.dec.lo = (uint64_t) x;
    v->v.dec.hi = (int64_t) (x >> 64);
}

//  10^n for n 0..38.
__int128 zs_pow10 (int n);

//  The schema of a job that names none: the datagen columns of the first
//  releases, "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)".
void zs_schema_default (zs_schema_t *self);

//  Parse "col TYPE [NOT NULL], …". Names are [A-Za-z_][A-Za-z0-9_]*, unique
//  (case-insensitively, as SQL engines compare them); type names are
//  case-insensitive; STRING also spelt VARCHAR, BYTES also BINARY/VARBINARY/
//  BLOB (without a length: zsink's first releases took them so), INT also
//  INTEGER, TIMESTAMP alone means TIMESTAMP(6) as in Flink SQL; DECIMAL(p,
//  s) (NUMERIC, DEC; DECIMAL alone is DECIMAL(10, 0), DECIMAL(p) is scale
//  0), CHAR(n), VARCHAR(n), BINARY(n), VARBINARY(n), TIME[(p)],
//  TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE or TIMESTAMP_LTZ(p),
//  TINYINT, SMALLINT. 0, or -1 with err naming the column and what is
//  wrong.
int zs_schema_parse (zs_schema_t *self, const char *text, char *err, size_t errlen);

//  The next comma in [p, end) outside parentheses and angle brackets
//  ("DECIMAL(10, 2)", "MAP<STRING, INT>"), or end.
const char *zs_type_comma (const char *p, const char *end);

//  The canonical text form ("id BIGINT NOT NULL, name STRING"). 0, or -1 if
//  buf is too small.
int zs_schema_format (const zs_schema_t *self, char *buf, size_t len);

//  Type name as the text form spells it ("TIMESTAMP(3)"; "DECIMAL" for a
//  parametrized kind: zs_column_type names the whole type).
const char *zs_type_name (zs_type_t type);

//  Is the type stored as a byte array (STRING, BYTES, CHAR, BINARY)?
bool zs_type_is_binary (zs_type_t type);

//  Is it text (STRING, CHAR)?
bool zs_type_is_text (zs_type_t type);

//  A column's parameters, its kind's defaults when not set.
int zs_column_precision (const zs_column_t *col);
int zs_column_scale (const zs_column_t *col);
int32_t zs_column_length (const zs_column_t *col);

//  The column's SQL type as Paimon spells it in a schema file and the
//  canonical text form: "DECIMAL(10, 2)", "VARCHAR(20)", "STRING",
//  "TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIME(0)". Into buf, returned.
const char *zs_column_type (const zs_column_t *col, char *buf, size_t len);
#define ZS_TYPE_TEXT_MAX 48

//  Parse one SQL type (no NOT NULL) into col's type and parameters. The
//  spellings of zs_schema_parse. 0, or -1 with why ("precision 40 out of
//  range 1..38").
int zs_column_type_parse (zs_column_t *col, const char *text, size_t len, char *why, size_t whylen);

//  Nested types ------------------------------------------------------------

//  Is the kind ARRAY, MAP or ROW?
bool zs_type_is_nested (zs_type_t type);

//  Child i of a nested column or node (see above).
static inline const zs_column_t *
zs_schema_child (const zs_schema_t *schema, const zs_column_t *col, int i)
{
    return &schema->nodes[col->child + i];
}

//  Does the schema have a nested column?
bool zs_schema_has_nested (const zs_schema_t *self);

//  The whole SQL type of a column or node, nested ones spelt out
//  ("ARRAY<ROW<a INT NOT NULL, b STRING>>", "MAP<STRING NOT NULL, INT>");
//  scalars as zs_column_type. Into buf (cut when too small), returned.
const char *zs_schema_type_text (const zs_schema_t *self, const zs_column_t *col, char *buf,
                                 size_t len);

#define ZS_SCHEMA_TYPE_TEXT_MAX 2048

//  Parse one SQL type, nested ones too (children into self->nodes), into
//  col; nullable from a trailing NOT NULL is the caller's. 0, or -1 with
//  why.
int zs_schema_type_parse (zs_schema_t *self, zs_column_t *col, const char *text, size_t len,
                          char *why, size_t whylen);

//  Compare a job's schema with a table's. 0 when equal; -1 with why naming
//  the first differing column ("column 3 'qty': job has INT, table has
//  BIGINT", "column 5 'ok': job has it, table has no such column").
int zs_schema_diff (const zs_schema_t *job, const zs_schema_t *table, char *why, size_t len);

//  Set schema's partition keys from "k1,k2" (column names, spaces around
//  them allowed; "" or NULL: none). 0, or -1 with err naming a key that
//  names no column, comes twice, or one too many.
int zs_schema_partition_parse (zs_schema_t *schema, const char *keys, char *err, size_t errlen);

//  The keys as "k1,k2" (the config's spelling). 0, or -1 if buf is small.
int zs_schema_partition_format (const zs_schema_t *schema, char *buf, size_t len);

#endif
