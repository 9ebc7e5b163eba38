/*  parquet.h - Apache Parquet files: a writer and a reader for the subset
    zsink needs (Debian has no Parquet library for C; this one is ours).

    Subset, written and read:
    - schemas of zsink's types (rowtype.h), REQUIRED or OPTIONAL, nested
      ARRAY/MAP/ROW too (parquet_nested.h: three-level LIST and MAP groups,
      repetition and definition levels; at most 64 leaf columns),
      mapped as Paimon's ParquetSchemaConverter maps them (docs/formats.md,
      "Types"): DECIMAL as INT32, INT64 or FIXED_LEN_BYTE_ARRAY by
      precision, TIMESTAMP(7..9) as INT96, TIME as INT32 TIME(MILLIS)
    - data page v1; PLAIN encoding, or DELTA_BINARY_PACKED for INT32/INT64
      columns (opts.delta, the default); definition levels RLE/bit-packed
      hybrid; dictionary encoding (dictionary page + RLE_DICTIONARY) for
      byte-array columns when the dictionary is small enough to pay
    - compression UNCOMPRESSED or ZSTD (libzstd)
    - column statistics min_value / max_value / null_count per chunk
      (nan_count too for FLOAT/DOUBLE; none for INT96), column orders
      TypeDefinedOrder
    - logical types STRING, DATE, TIME, TIMESTAMP(MILLIS|MICROS, adjusted
      to UTC for WITH LOCAL TIME ZONE), INTEGER(8|16), DECIMAL, with
      their converted types where the spec has one (as LogicalTypes.md
      asks of writers)
    - the page CRC-32 (PageHeader.crc), checked when read
    Read in addition (files other writers make): PLAIN_DICTIONARY and
    dictionary pages for any type, DELTA_BYTE_ARRAY and
    DELTA_LENGTH_BYTE_ARRAY byte arrays, data page v2, SNAPPY (our own
    decoder), TIMESTAMP(NANOS), TIME(MICROS), DECIMAL as BYTE_ARRAY or a
    FIXED_LEN_BYTE_ARRAY of any length up to 16, the legacy converted
    types (TIMESTAMP_MILLIS|MICROS, TIME_MILLIS, INT_8/16/32/64, DECIMAL,
    ENUM/JSON as STRING, BSON as BYTES). Refused at open with an error
    naming the column: two-level lists and repeated fields outside a LIST
    or MAP, other FIXED_LEN_BYTE_ARRAY
    columns, unsigned, encodings other than the above (BYTE_STREAM_SPLIT)
    and codecs other than the above ("compression GZIP
    not supported").

    The footer is Thrift compact protocol (thrift.h). Everything read from a
    file is checked against the file's size before use: a truncated or
    corrupt file is an error naming the file and what is wrong, never a
    crash.
*/
#ifndef ZS_PARQUET_H_INCLUDED
#define ZS_PARQUET_H_INCLUDED

#include "rowtype.h"

typedef enum {
    ZS_COMPRESSION_NONE = 0,
    ZS_COMPRESSION_ZSTD = 1,
} zs_compression_t;

//  A row group ends after row_group_rows rows, or earlier once ~128 MiB
//  are buffered (long strings), to bound the writer's memory.
typedef struct {
    int64_t row_group_rows;       //  parquet.row-group-rows: rows per row group
    zs_compression_t compression; //  file.compression
    int zstd_level;               //  ZSTD_minCLevel () … 19, not 0 (negative: zstd's fast levels)
    int64_t page_bytes;           //  parquet.page.size: data page target, uncompressed
    bool dictionary;              //  parquet.enable.dictionary: for STRING/BYTES chunks
    bool delta;                   //  parquet.writer.encoding delta: DELTA_BINARY_PACKED for
                                  //  INT32/INT64 columns (not nested ones), else PLAIN
} zs_parquet_options_t;

//  Page sizes the writer takes.
#define ZS_PARQUET_PAGE_MIN 1024
#define ZS_PARQUET_PAGE_MAX (512 << 20)

//  Defaults: 131072 rows per row group, zstd level 1, 256 KiB pages,
//  dictionaries on.
void zs_parquet_options_defaults (zs_parquet_options_t *opts);

//  Longest STRING/BYTES min or max kept in statistics; a chunk with a longer
//  min or max value records no min/max for that column (null count only).
#define ZS_STATS_BIN_MAX 64

//  Statistics of one column over a whole file.
typedef struct {
    int64_t null_count; //  -1: unknown (another writer's chunk without one)
    int64_t nan_count;  //  FLOAT/DOUBLE NaNs (the writer's own files; 0 when read)
    bool has_minmax;    //  false: all null, longer than ZS_STATS_BIN_MAX, or NaN only
    zs_value_t min;     //  bin.ptr points into min_buf
    zs_value_t max;     //  bin.ptr points into max_buf
    //  The writer's file summary keeps a byte array's min/max longer than
    //  ZS_STATS_BIN_MAX cut to it (a UTF-8 boundary for text): max_cut says
    //  the real max is longer than max, enough for Paimon's truncate(16)
    //  statistics (stats.c). The footer has no min/max for such a chunk.
    bool min_cut, max_cut;
    uint8_t min_buf[ZS_STATS_BIN_MAX];
    uint8_t max_buf[ZS_STATS_BIN_MAX];
} zs_column_stats_t;

//  --------------------------------------------------------------------------
//  Writer: rows in, one file out. I/O goes through fs.h's durable file
//  writer, so closing is durable (fsync of the file and its directory).

typedef struct _zs_parquet_writer_t zs_parquet_writer_t;

//  Create path (it must not exist); opts NULL means the defaults. NULL + err.
zs_parquet_writer_t *zs_parquet_writer_new (const char *path, const zs_schema_t *schema,
                                            const zs_parquet_options_t *opts, char *err,
                                            size_t errlen);

//  Append one row of schema->n values (copied). A null in a NOT NULL column
//  is refused with err naming the column, and so is a STRING/BYTES value
//  over 256 MiB; nothing is appended then. An I/O error while a full row
//  group is written fails this call and every later one (close then
//  removes the file).
int zs_parquet_writer_append (zs_parquet_writer_t *self, const zs_value_t *row, char *err,
                              size_t errlen);

int64_t zs_parquet_writer_rows (zs_parquet_writer_t *self);

//  Bytes the file will have if closed now, estimated: bytes already written
//  plus the buffered row group's size, scaled by how much the row groups
//  written so far shrank (unscaled before the first). For rolling files.
int64_t zs_parquet_writer_bytes (zs_parquet_writer_t *self);
//  Bytes of rows buffered for the row group not yet written (estimate).
int64_t zs_parquet_writer_buffered (zs_parquet_writer_t *self);
//  Write the buffered rows as a row group now (none: nothing written), and
//  give back the memory the buffers and the encoder held: for a writer
//  holding many files open whose buffers together pass a budget. 0 or -1
//  + err (the writer is failed then: abort it).
int zs_parquet_writer_flush (zs_parquet_writer_t *self, char *err, size_t errlen);

//  Write the last row group and the footer, close durably. *size = bytes
//  on disk; stats (may be NULL) receives schema->n entries. 0 or -1 + err
//  (the file is removed on failure).
int zs_parquet_writer_close (zs_parquet_writer_t **self_p, int64_t *size, zs_column_stats_t *stats,
                             char *err, size_t errlen);

//  Close and remove the file.
void zs_parquet_writer_abort (zs_parquet_writer_t **self_p);

//  --------------------------------------------------------------------------
//  Reader: the footer is read and checked at open; rows are decoded one row
//  group at a time.

typedef struct _zs_parquet_reader_t zs_parquet_reader_t;

zs_parquet_reader_t *zs_parquet_reader_open (const char *path, char *err, size_t errlen);

//  The file's schema, derived from its footer (column names, types,
//  REQUIRED = NOT NULL). Columns of types outside the subset fail the open.
const zs_schema_t *zs_parquet_reader_schema (zs_parquet_reader_t *self);

int64_t zs_parquet_reader_num_rows (zs_parquet_reader_t *self);
int zs_parquet_reader_num_row_groups (zs_parquet_reader_t *self);

//  Footer statistics of a column merged over all row groups; has_minmax is
//  false when any chunk that has values to bound (not all null, not all
//  NaN) lacks them or has a min/max longer than ZS_STATS_BIN_MAX. NULL for
//  a column out of range.
const zs_column_stats_t *zs_parquet_reader_stats (zs_parquet_reader_t *self, int col);

//  Next row into row[schema->n]. 1 = a row, 0 = end, -1 = corrupt (err
//  names the file, row group, column and problem). STRING/BYTES values point
//  into the reader and stay valid until the next call.
int zs_parquet_reader_next (zs_parquet_reader_t *self, zs_value_t *row, char *err, size_t errlen);

void zs_parquet_reader_destroy (zs_parquet_reader_t **self_p);

#endif
