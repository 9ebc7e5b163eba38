/*  parquet_nested.h - nested columns in Parquet (parquet_nested.c): the
    leaves a schema's columns become, their definition and repetition
    levels, shredding values into levels (the writer) and assembling them
    back (the reader). Shared by parquet_write.c, parquet_read.c and
    parquet_meta.c only.

    Layout, as Paimon's ParquetSchemaConverter writes nested types:
        ARRAY  [optional|required] group name (LIST) {
                   repeated group list { <element> element; } }
        MAP    [optional|required] group name (MAP) {
                   repeated group key_value { required <key> key; <value> value; } }
        ROW    [optional|required] group name { <fields> }
    A scalar column is one leaf; a nested one the leaves below it, depth
    first. A value's definition level counts its optional and repeated
    ancestors (itself included) that are present; its repetition level is
    the depth of the repeated group that starts a new entry (0 = a new
    row).
*/
#ifndef ZS_PARQUET_NESTED_H_INCLUDED
#define ZS_PARQUET_NESTED_H_INCLUDED

#include "parquet_priv.h"
#include "varena.h"

#define ZS_PQ_PATH_MAX 512 //  a leaf's path, components split by ZS_PQ_PATH_SEP
#define ZS_PQ_PATH_SEP '\x1f'

//  Levels of a column or node.
typedef struct {
    uint8_t def;        //  definition level when this value is present (not null)
    uint8_t rdef;       //  ARRAY, MAP: the level when it has an entry (def + 1)
    uint8_t rep;        //  ARRAY, MAP: repetition level of its entries
    int16_t first_leaf; //  its leaves: [first_leaf, first_leaf + nleaves)
    int16_t nleaves;
} zs_pq_nest_t;

struct zs_pq_layout_s {
    bool nested; //  some column is
    int nleaves;
    zs_column_t leaf[ZS_MAX_COLUMNS]; //  the leaf's scalar type (name: its own)
    int16_t top[ZS_MAX_COLUMNS];      //  the column it is in
    uint8_t max_def[ZS_MAX_COLUMNS];
    uint8_t max_rep[ZS_MAX_COLUMNS];
    char path[ZS_MAX_COLUMNS][ZS_PQ_PATH_MAX];
    zs_pq_nest_t col[ZS_MAX_COLUMNS];
    zs_pq_nest_t node[ZS_MAX_NODES];
};

//  The leaves and levels of a schema. 0, or -1 with why (more than
//  ZS_MAX_COLUMNS leaves, a path too long).
int zs_pq_layout (const zs_schema_t *schema, zs_pq_layout_t *out, char *why, size_t len);

//  A leaf's path with dots ("items.list.element"), into buf.
const char *zs_pq_leaf_name (const zs_pq_layout_t *self, int leaf, char *buf, size_t len);

//  --------------------------------------------------------------------------
//  Writer: one buffer per leaf of a nested column, a row group's levels
//  and values (values as parquet_write.c buffers them: fixed width PLAIN,
//  byte arrays 4-byte length + bytes).

typedef struct {
    int ptype;
    int width; //  0: byte array
    zs_bytes_t reps, defs, vals;
    int64_t nlevels, nvals;
} zs_pq_leafbuf_t;

//  Shred a row's nested columns into their leaves' buffers (the scalar
//  columns' leaves are parquet_write.c's). A null where the type says NOT
//  NULL (a MAP key included) or a value too long is refused with why
//  naming the path, and leaves every buffer as it was. *added: bytes
//  buffered.
int zs_pq_shred (const zs_schema_t *schema, const zs_pq_layout_t *layout, zs_pq_leafbuf_t *bufs,
                 const zs_value_t *row, int64_t *added, char *why, size_t len);

//  Fixed-width PLAIN bytes of a FIXED_LEN_BYTE_ARRAY decimal or INT96
//  timestamp (parquet_write.c).
void zs_pq_put_wide (int ptype, int width, const zs_value_t *v, uint8_t *out);

//  --------------------------------------------------------------------------
//  Reader: rows assembled from each leaf's (rep, def, value) triples.

//  The next triple of a leaf: 1, 0 at the end of its chunk, -1 with why.
//  A value (def = max) is converted to the zsink form; its bytes may
//  point into a page that the next call replaces.
typedef int (zs_pq_triple_fn) (void *ctx, int leaf, uint32_t *rep, uint32_t *def, zs_value_t *v,
                               char *why, size_t len);

typedef struct {
    zs_pq_triple_fn *next;
    void *ctx;
    bool has[ZS_MAX_COLUMNS]; //  a triple looked ahead
    uint32_t rep[ZS_MAX_COLUMNS], def[ZS_MAX_COLUMNS];
    zs_value_t val[ZS_MAX_COLUMNS];
    zs_varena_t arena; //  the row's nested values and their bytes
    zs_value_t *stack; //  entries of the lists being assembled
    size_t stack_len, stack_cap;
} zs_pq_assembler_t;

//  A new row group (lookahead dropped) / a new row (arena reset).
void zs_pq_assembler_group (zs_pq_assembler_t *self);
void zs_pq_assembler_row (zs_pq_assembler_t *self);
void zs_pq_assembler_fini (zs_pq_assembler_t *self);

//  Column col's value for the next row. 0, or -1 with why.
int zs_pq_assemble (zs_pq_assembler_t *self, const zs_schema_t *schema,
                    const zs_pq_layout_t *layout, int col, zs_value_t *out, char *why, size_t len);

#endif
