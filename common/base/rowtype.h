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
} zs_type_t;

#define ZS_MAX_COLUMNS 64
#define ZS_COLUMN_NAME_MAX 64 //  bytes including the NUL
#define ZS_PARTITION_MAX 8    //  partition keys a table may have

typedef struct {
    char name[ZS_COLUMN_NAME_MAX];
    zs_type_t type;
    bool nullable;
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
} zs_schema_t;

typedef struct {
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
    } v;
} zs_value_t;

//  The schema of a job that names none: the datagen columns of the first
//  releases, "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)".
void zs_schema_default (zs_schema_t *self);

//  Parse "col TYPE [NOT NULL], …". Names are [A-Za-z_][A-Za-z0-9_]*, unique
//  (case-insensitively, as SQL engines compare them); type names are
//  case-insensitive; STRING also spelt VARCHAR, BYTES also BINARY/VARBINARY/
//  BLOB, INT also INTEGER, TIMESTAMP alone means TIMESTAMP(6) as in Flink
//  SQL. 0, or -1 with err naming the column and what is wrong.
int zs_schema_parse (zs_schema_t *self, const char *text, char *err, size_t errlen);

//  The canonical text form ("id BIGINT NOT NULL, name STRING"). 0, or -1 if
//  buf is too small.
int zs_schema_format (const zs_schema_t *self, char *buf, size_t len);

//  Type name as the text form spells it ("TIMESTAMP(3)").
const char *zs_type_name (zs_type_t type);

//  Is the type stored as a byte array (STRING, BYTES)?
bool zs_type_is_binary (zs_type_t type);

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
