/*  evolve.h - schema evolution as Paimon reads it: a table's schema files
    (schema/schema-0 … schema-N, one per ALTER TABLE), and a data file
    written with schema k read as schema N (SchemaEvolutionUtil's index
    mapping and casts, DataFileRecordReader).

    Rules (docs/decisions.md, "Schema evolution"):
    1. Columns are matched by field id, never by position or name: a
       renamed column keeps its id, a dropped column's id is never reused.
    2. A column of N whose field id the file's schema lacks (added after
       the file was written) reads as NULL.
    3. A column whose type changed converts as Paimon's cast does, for the
       widenings zsink takes: INT to BIGINT, FLOAT or DOUBLE; BIGINT to
       FLOAT or DOUBLE; FLOAT to DOUBLE; TIMESTAMP(3) to TIMESTAMP(6); NOT
       NULL to nullable. Any other change (a narrowing, a cast between
       families, nullable to NOT NULL) is refused by name: zsink cannot
       give the value Paimon's reader gives, so it reads nothing rather
       than something else.
    4. The Parquet file holds the columns of ITS schema, under their names
       there: a file's column is found by its schema's name, and must have
       its schema's type (the file is corrupt otherwise).
*/
#ifndef ZS_EVOLVE_H_INCLUDED
#define ZS_EVOLVE_H_INCLUDED

#include "schema.h"

//  Every schema file of a table, ascending id.
typedef struct {
    zs_table_schema_t *s;
    size_t n;
} zs_schemas_t;

//  Read <table_path>/schema/schema-*. 0, ZS_ENOENT (none), or -1 /
//  ZS_ECORRUPT + err naming the file. On success self owns them.
int zs_schemas_load (zs_schemas_t *self, const char *table_path, char *err, size_t errlen);
void zs_schemas_free (zs_schemas_t *self);
//  A copy (a thread's own). 0 or -1 when out of memory.
int zs_schemas_copy (zs_schemas_t *dst, const zs_schemas_t *src);
//  Schema id, or NULL.
const zs_table_schema_t *zs_schemas_find (const zs_schemas_t *self, int64_t id);
//  The latest, or NULL when there is none.
const zs_table_schema_t *zs_schemas_latest (const zs_schemas_t *self);
//  Can every schema be read as the latest (rule 3)? 0, or -1 with err
//  naming the first change zsink cannot honour, or saying that the table
//  has primary keys (zs_schema_append_table: no file of it is read).
int zs_schemas_check (const zs_schemas_t *self, char *err, size_t errlen);

//  How to read a row of schema `from` as schema `to`.
typedef struct {
    int n;                          //  to's columns
    int src[ZS_MAX_COLUMNS];        //  from's column for each, -1: NULL (rule 2)
    zs_type_t from[ZS_MAX_COLUMNS]; //  its type in from
    zs_type_t to[ZS_MAX_COLUMNS];   //  its type in to
    int8_t rescale[ZS_MAX_COLUMNS]; //  DECIMAL: to's scale - from's (unscaled * 10^it)
    bool identity;                  //  same columns, same types, same order
} zs_evolve_t;

//  Plan it (rules 1-3). 0, or -1 with err naming the column and both
//  schema ids ("column 'qty' (field 4): schema 0 has INT, schema 2 has
//  STRING: a type change zsink cannot convert").
int zs_evolve_plan (const zs_table_schema_t *from, const zs_table_schema_t *to, zs_evolve_t *self,
                    char *err, size_t errlen);
//  Does zsink convert a value of type a to type b (rule 3; same type too)?
//  The kinds only, parameters at their defaults: zs_evolve_casts_col.
bool zs_evolve_casts (zs_type_t a, bool a_nullable, zs_type_t b, bool b_nullable);

//  The same for two columns' whole types: also TINYINT/SMALLINT to a wider
//  integer, FLOAT or DOUBLE; DECIMAL(p, s) to DECIMAL(p', s') with s' >= s
//  and p' - s' >= p - s (exact); CHAR/VARCHAR(n) to VARCHAR(m >= n) or
//  STRING, BINARY/VARBINARY(n) to VARBINARY(m >= n) or BYTES; TIMESTAMP(p)
//  to TIMESTAMP(q >= p), the same for WITH LOCAL TIME ZONE; TIME(p) to
//  TIME(q).
bool zs_evolve_casts_col (const zs_column_t *a, const zs_column_t *b);

//  Are a Parquet file's column (as the reader derives it) and its schema's
//  column stored alike, so that its values read as the schema's type?
//  (CHAR is STRING in Parquet, BINARY is BYTES, a DECIMAL of the same
//  scale and no more digits, TIMESTAMP(0..3) all MILLIS.)
bool zs_evolve_same_storage (const zs_column_t *parquet, const zs_column_t *col);
//  in (a row of from) as a row of to, into out. Binary values point where
//  in's do.
void zs_evolve_row (const zs_evolve_t *self, const zs_value_t *in, zs_value_t *out);

//  A data file written with schema `file`, read as schema `want`.
typedef struct _zs_evolved_reader_t zs_evolved_reader_t;
//  Open path. NULL + err: unreadable, or its columns are not those of its
//  schema (rule 4), or the change cannot be honoured.
zs_evolved_reader_t *zs_evolved_reader_open (const char *path, const zs_table_schema_t *file,
                                             const zs_table_schema_t *want, char *err,
                                             size_t errlen);
//  Next row into row[want->row.n]: 1, 0 at the end, -1 + err. Binary
//  values stay valid until the next call.
int zs_evolved_reader_next (zs_evolved_reader_t *self, zs_value_t *row, char *err, size_t errlen);
void zs_evolved_reader_destroy (zs_evolved_reader_t **self_p);

//  One change from a schema to the next, by field id: "added" (text
//  "name TYPE"), "dropped" ("name"), "renamed" ("old -> new"), "retyped"
//  ("name OLD -> NEW", nullability included).
typedef struct {
    char what[8];
    int field_id;
    char text[2 * ZS_COLUMN_NAME_MAX + 64];
} zs_schema_change_t;
//  The changes from prev to cur, in cur's column order then the dropped,
//  at most max into out; how many there are.
int zs_evolve_changes (const zs_table_schema_t *prev, const zs_table_schema_t *cur,
                       zs_schema_change_t *out, int max);

//  Rule 4 alone: are the file's columns (its Parquet schema) those of
//  its schema, by name and type, and no others? 0, or -1 + err naming the
//  column. map (may be NULL): each schema column's Parquet column.
int zs_evolve_check_file (const zs_schema_t *parquet, const zs_table_schema_t *file, int *map,
                          char *err, size_t errlen);

#endif
