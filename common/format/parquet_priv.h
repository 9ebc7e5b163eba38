/*  parquet_priv.h - what parquet.c, parquet_write.c, parquet_read.c and
    parquet_meta.c share, and what tests/unit/test_parquet.c reaches into:
    the format's enum values (parquet.thrift), the RLE/bit-packed hybrid
    encoding, statistics arithmetic, and the footer as the reader's two
    halves pass it on. Not for other modules.
*/
#ifndef ZS_PARQUET_PRIV_H_INCLUDED
#define ZS_PARQUET_PRIV_H_INCLUDED

#include "parquet.h"
#include "thrift.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
//  PLAIN values are little endian and are copied as they lie in memory.
#error "parquet: little-endian hosts only"
#endif

//  parquet.thrift: Type
enum {
    ZS_PQ_BOOLEAN = 0,
    ZS_PQ_INT32 = 1,
    ZS_PQ_INT64 = 2,
    ZS_PQ_INT96 = 3,
    ZS_PQ_FLOAT = 4,
    ZS_PQ_DOUBLE = 5,
    ZS_PQ_BYTE_ARRAY = 6,
    ZS_PQ_FIXED_LEN_BYTE_ARRAY = 7,
};

//  ConvertedType (the ones we write or map)
enum {
    ZS_PQ_CT_UTF8 = 0,
    ZS_PQ_CT_ENUM = 4,
    ZS_PQ_CT_DECIMAL = 5,
    ZS_PQ_CT_DATE = 6,
    ZS_PQ_CT_TIME_MILLIS = 7,
    ZS_PQ_CT_TIME_MICROS = 8,
    ZS_PQ_CT_TIMESTAMP_MILLIS = 9,
    ZS_PQ_CT_TIMESTAMP_MICROS = 10,
    ZS_PQ_CT_INT_8 = 15,
    ZS_PQ_CT_INT_16 = 16,
    ZS_PQ_CT_INT_32 = 17,
    ZS_PQ_CT_INT_64 = 18,
    ZS_PQ_CT_JSON = 19,
    ZS_PQ_CT_BSON = 20,
};

//  LogicalType union field ids
enum {
    ZS_PQ_LT_STRING = 1,
    ZS_PQ_LT_ENUM = 4,
    ZS_PQ_LT_DECIMAL = 5,
    ZS_PQ_LT_DATE = 6,
    ZS_PQ_LT_TIME = 7,
    ZS_PQ_LT_TIMESTAMP = 8,
    ZS_PQ_LT_INTEGER = 10,
    ZS_PQ_LT_UNKNOWN = 11,
    ZS_PQ_LT_JSON = 12,
    ZS_PQ_LT_BSON = 13,
};

//  FieldRepetitionType
enum { ZS_PQ_REQUIRED = 0, ZS_PQ_OPTIONAL = 1, ZS_PQ_REPEATED = 2 };

//  Encoding
enum {
    ZS_PQ_PLAIN = 0,
    ZS_PQ_PLAIN_DICTIONARY = 2,
    ZS_PQ_RLE = 3,
    ZS_PQ_BIT_PACKED = 4,
    ZS_PQ_DELTA_BINARY_PACKED = 5,
    ZS_PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
    ZS_PQ_DELTA_BYTE_ARRAY = 7,
    ZS_PQ_RLE_DICTIONARY = 8,
};

//  CompressionCodec
enum {
    ZS_PQ_UNCOMPRESSED = 0,
    ZS_PQ_SNAPPY = 1,
    ZS_PQ_GZIP = 2,
    ZS_PQ_ZSTD = 6,
};

//  PageType
enum {
    ZS_PQ_DATA_PAGE = 0,
    ZS_PQ_INDEX_PAGE = 1,
    ZS_PQ_DICTIONARY_PAGE = 2,
    ZS_PQ_DATA_PAGE_V2 = 3,
};

//  Names for messages ("GZIP", "DELTA_BINARY_PACKED").
const char *zs_pq_codec_name (int codec);
const char *zs_pq_encoding_name (int encoding);
const char *zs_pq_type_name (int ptype);

//  Physical type of a column: Paimon's ParquetSchemaConverter (DECIMAL by
//  precision INT32, INT64 or FIXED_LEN_BYTE_ARRAY; TIMESTAMP(7..9) INT96).
int zs_pq_physical_type (const zs_column_t *col);

//  Bytes a DECIMAL(p > 18) takes as FIXED_LEN_BYTE_ARRAY.
int zs_pq_decimal_bytes (int precision);

//  Bytes one value of the column takes in PLAIN pages and the writer's
//  buffers: zs_pq_value_width, or the FIXED_LEN_BYTE_ARRAY length, or 12
//  for INT96; 0 for byte arrays.
int zs_pq_column_width (const zs_column_t *col);

//  Bytes a value of a physical type takes in PLAIN pages, in statistics
//  and in the writer's buffers: INT32 and FLOAT 4, INT64 and DOUBLE 8;
//  BOOLEAN 1 (but PLAIN pages pack booleans into bits); 0 for byte arrays
//  and the types zsink does not read.
static inline int
zs_pq_value_width (int ptype)
{
    switch (ptype) {
    case ZS_PQ_BOOLEAN:
        return 1;
    case ZS_PQ_INT32:
    case ZS_PQ_FLOAT:
        return 4;
    case ZS_PQ_INT64:
    case ZS_PQ_DOUBLE:
        return 8;
    }
    return 0;
}

//  Format an error message into err[0..errlen); returns -1.
int zs_pq_err (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

//  --------------------------------------------------------------------------
//  Byte buffers are the format layer's (bytes.h: zs_bytes_t, ok false
//  once an allocation failed). zs_pq_buf_t and its functions are the same
//  under the names the tests and fuzzers build pages with.

typedef zs_bytes_t zs_pq_buf_t;

static inline void
zs_pq_buf_init (zs_pq_buf_t *self)
{
    zs_bytes_init (self);
}

static inline void
zs_pq_buf_fini (zs_pq_buf_t *self)
{
    zs_bytes_fini (self);
}

static inline bool
zs_pq_buf_reserve (zs_pq_buf_t *self, size_t n)
{
    return zs_bytes_reserve (self, n);
}

static inline void
zs_pq_buf_put (zs_pq_buf_t *self, const void *data, size_t len)
{
    zs_bytes_put (self, data, len);
}

//  --------------------------------------------------------------------------
//  RLE / bit-packed hybrid (Encodings.md), bit width 0…32, without the
//  length prefix. Values come from u8 (def levels) or, when u8 is NULL,
//  from u32 (dictionary indices). Runs of 8 or more equal values become RLE
//  runs, the rest bit-packed groups of 8; the last group is zero padded.

void zs_pq_rle_encode (zs_bytes_t *out, const uint8_t *u8, const uint32_t *u32, size_t n,
                       int width);

typedef struct {
    const uint8_t *p;
    const uint8_t *end;
    int width;
    uint64_t run_left; //  values left in the current run
    bool packed;       //  current run is bit-packed
    uint32_t value;    //  the current RLE run's value
    const uint8_t *bp; //  the current bit-packed run's bytes
    uint64_t bit;      //  next bit to read in bp
} zs_pq_rle_dec_t;

void zs_pq_rle_dec_init (zs_pq_rle_dec_t *self, const uint8_t *data, size_t len, int width);
//  Next value: 0, or -1 when the encoded data ends or is malformed.
int zs_pq_rle_dec_next (zs_pq_rle_dec_t *self, uint32_t *value);

//  DELTA_BINARY_PACKED (Encodings.md) of n values of width 4 (INT32) or 8
//  (INT64), PLAIN little endian at vals, appended to out: blocks of 128
//  deltas in 4 miniblocks of 32, deltas wrapping in the type's width.
void zs_pq_delta_encode (zs_bytes_t *out, const uint8_t *vals, size_t n, int width);

//  Decode DELTA_BINARY_PACKED data[0..len) into PLAIN values of width 4
//  or 8 appended to out, *count of them; -1 when the data is malformed,
//  ends early, or holds more than max_values values (or out of memory).
int zs_pq_delta_decode (const uint8_t *data, size_t len, int width, size_t max_values,
                        zs_bytes_t *out, size_t *count);

//  DELTA_BYTE_ARRAY (prefixes true) or DELTA_LENGTH_BYTE_ARRAY of n byte
//  arrays in PLAIN form (4-byte length + bytes, one after another) at
//  plain, appended to out; scratch is the caller's buffer for the lengths.
//  The writer does not use it (docs/decisions.md: Paimon Java misreads
//  DELTA_BYTE_ARRAY, DELTA_LENGTH_BYTE_ARRAY buys nothing after zstd);
//  tests and fuzzers check the reader's decoder against it.
void zs_pq_dba_encode (zs_bytes_t *out, const uint8_t *plain, size_t n, bool prefixes,
                       zs_bytes_t *scratch);

//  Decode DELTA_BYTE_ARRAY (prefixes true) or DELTA_LENGTH_BYTE_ARRAY
//  data[0..len) into PLAIN byte arrays appended to out, *count of them;
//  -1 when malformed, cut short, or over max_values values or max_bytes
//  bytes of PLAIN output (or out of memory). scratch: the lengths.
int zs_pq_dba_decode (const uint8_t *data, size_t len, bool prefixes, size_t max_values,
                      size_t max_bytes, zs_bytes_t *out, zs_bytes_t *scratch, size_t *count);

//  CRC-32 as gzip has it (PageHeader.crc): crc of data continued from crc
//  (start with 0).
uint32_t zs_pq_crc32 (uint32_t crc, const void *data, size_t len);

//  --------------------------------------------------------------------------
//  Statistics

//  Order of two non-null, non-NaN values of a type as Parquet's
//  TypeDefinedOrder has it: signed for integers, numeric for floats,
//  unsigned bytewise for byte arrays. <0, 0, >0.
int zs_pq_value_cmp (zs_type_t type, const zs_value_t *a, const zs_value_t *b);

//  Widen stats' min/max to include [min, max] (binary values no longer
//  than ZS_STATS_BIN_MAX; they are copied into stats' buffers).
void zs_pq_stats_widen (zs_column_stats_t *stats, zs_type_t type, const zs_value_t *min,
                        const zs_value_t *max);

//  Spec rule for floating-point zeros: a zero min is written -0.0, a zero
//  max +0.0, so that a reader may trust either.
void zs_pq_stats_fix_zeros (zs_column_stats_t *stats, zs_type_t type);

//  Copy stats (byte-array min/max re-aimed at the copy's own buffers).
void zs_pq_stats_copy (zs_column_stats_t *dst, const zs_column_stats_t *src, zs_type_t type);

//  PLAIN bytes of a statistics value (byte arrays without length): writes
//  to out (>= ZS_STATS_BIN_MAX bytes), returns the length.
size_t zs_pq_stats_encode (const zs_column_t *col, const zs_value_t *value, uint8_t *out);

//  Decode a statistics value; false when its length does not fit the type.
//  Byte arrays point at data.
bool zs_pq_stats_decode (const zs_column_t *col, const uint8_t *data, uint32_t len,
                         zs_value_t *value);

//  --------------------------------------------------------------------------
//  The footer, for the reader: parquet_meta.c decodes and checks it,
//  parquet_read.c reads the pages it points at.

//  A column chunk as the footer describes it.
typedef struct {
    int32_t ptype;
    int32_t codec;
    int64_t num_values;
    int64_t start; //  first page (dictionary or data)
    int64_t len;   //  total_compressed_size
    int64_t data_page_offset;
    int64_t dict_page_offset; //  -1: none
    uint32_t encodings;       //  bit per Encoding listed (those < 32)
    bool has_meta;
    bool has_file_path;
    //  Statistics, pointing into the footer bytes: valid during
    //  zs_pq_footer_decode only, which merges them into the file's.
    bool has_null_count;
    int64_t null_count;
    bool has_nan_count;
    int64_t nan_count;
    zs_thrift_binary_t min_value, max_value, min_old, max_old;
} zs_pq_chunk_meta_t;

typedef struct {
    int64_t num_rows;
    uint32_t ncols;
    zs_pq_chunk_meta_t *cols;
} zs_pq_group_meta_t;

//  The leaves and levels of nested columns (parquet_nested.h).
typedef struct zs_pq_layout_s zs_pq_layout_t;

//  What the reader knows of a file from its footer, all checked: every
//  row group has a chunk per column, of the column's type, a supported
//  codec, and a byte range inside the data region.
typedef struct {
    zs_schema_t schema;
    int32_t ptypes[ZS_MAX_COLUMNS]; //  each column's physical type
    int32_t widths[ZS_MAX_COLUMNS]; //  bytes of a PLAIN value (FIXED_LEN_BYTE_ARRAY: its
                                    //  length, INT96 12); 0 for BYTE_ARRAY
    int64_t num_rows;
    zs_pq_group_meta_t *groups;
    uint32_t ngroups;
    zs_column_stats_t stats[ZS_MAX_COLUMNS]; //  over all row groups
    //  Chunks per row group: schema.n for a flat file. A file with nested
    //  columns has one chunk per leaf (layout), and ptypes, widths and
    //  stats above are then by leaf, chunk_cols the leaves' types.
    int nchunks;
    zs_column_t chunk_cols[ZS_MAX_COLUMNS];
    zs_pq_layout_t *layout; //  NULL for a flat file
} zs_pq_footer_t;

//  Decode the FileMetaData footer[0..len) of the file at path, whose data
//  region (pages) ends at data_end, into self (zeroed by the caller), and
//  check it. 0, or -1 with err naming the file. Either way
//  zs_pq_footer_fini frees what self holds; nothing in it points into
//  footer.
int zs_pq_footer_decode (zs_pq_footer_t *self, const char *path, const uint8_t *footer, size_t len,
                         int64_t data_end, char *err, size_t errlen);
void zs_pq_footer_fini (zs_pq_footer_t *self);

#endif
