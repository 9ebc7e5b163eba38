/*  schema.h - the table's schema files, <table>/schema/schema-<id>:
    Paimon's TableSchema JSON (version 3): the row type (base/rowtype.h),
    partition and primary keys, and the table's options.

    zsink writes schema-0 of a new table with the options that make it the
    table it writes: an append-only, bucket-unaware table of Parquet files
    with Avro manifests (bucket -1, file.format parquet, manifest.format
    avro, manifest.compression zstd, file.compression zstd). A table
    another writer made is read with its latest schema; zs_schema_writable
    says whether zsink can write it exactly once, naming what it cannot.
*/
#ifndef ZS_SCHEMA_H_INCLUDED
#define ZS_SCHEMA_H_INCLUDED

#include "rowtype.h"

#define ZS_SCHEMA_OPTIONS_MAX 64

//  The whole schema file. Options are kept as text, in file order.
typedef struct {
    int64_t id; //  the N of schema-N
    zs_schema_t row;
    //  Paimon's field ids, column by column (row.cols[i] is field
    //  field_id[i]): a column keeps its id across renames and type changes,
    //  a dropped column's id is never reused (evolve.h matches by it).
    int field_id[ZS_MAX_COLUMNS];
    int highest_field_id;
    int n_partition_keys, n_primary_keys; //  the partition keys: row.partition
    int primary_key[ZS_MAX_COLUMNS];      //  primaryKeys, as column indexes
    int n_options;
    char option_key[ZS_SCHEMA_OPTIONS_MAX][96];
    char option_value[ZS_SCHEMA_OPTIONS_MAX][160];
    int64_t time_millis;
} zs_table_schema_t;

//  The schema file zsink writes for a new table of this row type.
//  malloc'd JSON, NULL when out of memory.
char *zs_schema_to_json (const zs_schema_t *row, int64_t time_millis);
//  The same, with the row's partition keys as partitionKeys and, when
//  default_name is set, the option partition.default-name.
char *zs_schema_to_json_with (const zs_schema_t *row, int64_t time_millis,
                              const char *default_name);

//  Decode a schema file (any Paimon version's, by field name). A column of
//  a type zsink does not read is an error naming it, and so is a field id
//  that is missing or used twice. 0, or ZS_ECORRUPT
//  with err saying what is wrong.
int zs_schema_from_json (zs_table_schema_t *self, const char *text, char *err, size_t errlen);

//  An option's value, or dflt when the schema does not set it.
const char *zs_schema_option (const zs_table_schema_t *self, const char *key, const char *dflt);

//  What zsink says of a table with primary keys, reading or writing it:
//  the same words everywhere (zs_schema_append_table).
#define ZS_SCHEMA_APPEND_TABLES "zsink reads and writes append tables (tables without primary keys)"

//  The primary keys, comma-separated as Paimon's option primary-key spells
//  them ("" when none), into buf. 0, or -1 when they do not fit (cut short).
int zs_schema_primary_format (const zs_table_schema_t *self, char *buf, size_t len);

//  An append table (no primary keys)? 0, or -1 with why: "a primary-key
//  table (primary key K1,K2): " and ZS_SCHEMA_APPEND_TABLES. Its data
//  files hold Paimon's key columns (_KEY_<k>, _SEQUENCE_NUMBER,
//  _VALUE_KIND) and rows that only a merge of its levels makes true.
int zs_schema_append_table (const zs_table_schema_t *self, char *why, size_t len);

//  Can zsink write this table exactly once? 0, or -1 with why naming the
//  key or option that prevents it (primary keys, a partition key zsink
//  cannot name directories by, a fixed bucket count, another file or
//  manifest format, deletion vectors, …).
int zs_schema_writable (const zs_table_schema_t *self, char *why, size_t len);

#endif
