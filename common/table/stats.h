/*  stats.h - a data file's value statistics as Paimon keeps them: the
    minimums and the maximums of some columns as two BinaryRows, their null
    counts, and which columns they are (SimpleStats, _VALUE_STATS_COLS).

    Engines skip files by these (Paimon's LeafPredicate; Spark answers
    MIN/MAX/COUNT from them), so a wrong bound loses rows silently. A
    column is covered only when its bounds and null count are right: every
    column of the Parquet writer's statistics but FLOAT and DOUBLE columns
    holding a NaN (Java orders NaN above every number, the Parquet
    statistics leave it out) and columns whose null count is unknown. An
    all-null column is covered with null bounds and null count = row
    count; so is a TIMESTAMP(7..9) (INT96: Paimon keeps no bounds). Strings
    and byte arrays are bounded as Paimon's default metadata.stats-mode,
    truncate(16), bounds them (docs/formats.md, "Types").

    zs_stats_t (filemeta.h) holds the Avro encoding of the two manifest
    fields back to back:
        _VALUE_STATS       record {_MIN_VALUES bytes, _MAX_VALUES bytes,
                                   _NULL_COUNTS union {null, array<union {null, long}>}}
        _VALUE_STATS_COLS  union {null, array<string>}    null: every column
*/
#ifndef ZS_STATS_H_INCLUDED
#define ZS_STATS_H_INCLUDED

#include "filemeta.h"
#include "parquet.h"
#include "rowfmt.h"
#include "rowtype.h"

//  No statistics: no columns covered, empty rows (what Paimon writes with
//  metadata.stats-mode none).
void zs_stats_none (zs_stats_t *self);

//  The statistics of a file of rows rows that the Parquet writer closed
//  with these column statistics (one per schema column). Falls back to
//  zs_stats_none when they do not fit in ZS_STATS_MAX bytes.
void zs_stats_from_columns (zs_stats_t *self, const zs_schema_t *schema,
                            const zs_column_stats_t *cols, int64_t rows);

//  The statistics decoded against a schema.
typedef struct {
    int n;                   //  columns covered
    int col[ZS_MAX_COLUMNS]; //  each one's index in the schema, -1: not in it
    bool has_bounds;         //  min and max decoded (every covered column known)
    zs_value_t min[ZS_MAX_COLUMNS], max[ZS_MAX_COLUMNS]; //  point into the blob
    bool nulls_known;                                    //  _NULL_COUNTS is not null
    int64_t nulls[ZS_MAX_COLUMNS];                       //  -1 when that count is null
} zs_stats_view_t;

//  Decode (and check) statistics. 0, or ZS_ECORRUPT with err.
int zs_stats_decode (const zs_stats_t *self, const zs_schema_t *schema, zs_stats_view_t *view,
                     char *err, size_t errlen);

//  Check that len bytes are one _VALUE_STATS and one _VALUE_STATS_COLS
//  encoding (from the wire, a checkpoint, a manifest) and fill self. 0, or
//  ZS_ECORRUPT with err.
int zs_stats_set (zs_stats_t *self, const uint8_t *blob, size_t len, char *err, size_t errlen);

//  As JSON for `zsink table files --json`: {"columns":[names],
//  "nullCounts":[…],"minValues":[…],"maxValues":[…]} in rowfmt's spelling
//  (null where unknown), or {} for no statistics.
void zs_stats_json (const zs_stats_t *self, const zs_schema_t *schema, zs_strbuf_t *out);

#endif
