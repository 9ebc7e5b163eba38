/*  avro.h - Avro's binary encoding and its object container files (OCF):
    an encoder into a growable buffer, a bounds-checked decoder, a schema
    parser (enough to walk and skip any datum), an OCF writer into memory
    and an OCF reader over memory. Generic: nothing here knows Paimon.

    Binary encoding (Avro 1.11 specification, "Binary Encoding"):
    - int and long are zigzag varints (at most 5 and 10 bytes); boolean one
      byte 0/1; float and double 4/8 bytes little endian; null nothing.
    - bytes and string: a long length, then the bytes. fixed: the bytes.
    - enum: the symbol's index as an int; union: the branch index as a long,
      then the branch's value.
    - array and map: blocks, each a long count then that many items (map
      items are a string key then the value), ended by a block of count 0.
      A negative count means -count items, preceded by the block's size in
      bytes (so readers can skip it). The encoder writes one block.

    Object container file ("Object Container Files"): "Obj" 1, a metadata
    map of bytes (avro.schema = the writer's schema as JSON text,
    avro.codec), a 16-byte random sync marker, then blocks: a long object
    count, a long byte size, that many compressed bytes, the sync marker.
    The file has no end marker: a file cut just after a block reads as a
    shorter valid file, so whoever stores it must know its exact size.

    Codecs: null, deflate (raw RFC 1951, no zlib header), zstandard (zstd
    frames), all read and written; snappy (a Snappy block followed by the
    big-endian CRC-32 of the uncompressed bytes) read only. Anything else
    (bzip2, xz) is refused by name.

    The encoder never fails midway: an allocation failure is sticky (ok ==
    false) and checked once when the buffer is used. The decoder and the
    reader check every length and count against the bytes left, cap what
    decompression may produce, and on any error say what is wrong; they
    never read outside their input, whatever it holds.
*/
#ifndef ZS_AVRO_H_INCLUDED
#define ZS_AVRO_H_INCLUDED

#include "bytes.h"

//  Largest block a reader decompresses, by default (zs_avro_reader_set_
//  block_max): a bound on memory against compression bombs. Avro writers
//  end a block at about 64 kB.
#define ZS_AVRO_BLOCK_MAX ((size_t) 256 << 20)

//  Deepest nesting of schema types accepted, and of values skipped.
#define ZS_AVRO_MAX_DEPTH 64

//  Size of a sync marker.
#define ZS_AVRO_SYNC_SIZE 16

typedef enum {
    ZS_AVRO_CODEC_NULL = 0,
    ZS_AVRO_CODEC_DEFLATE,
    ZS_AVRO_CODEC_SNAPPY, //  read only
    ZS_AVRO_CODEC_ZSTANDARD,
} zs_avro_codec_t;

//  The codec's name as avro.codec spells it ("zstandard"), or "?".
const char *zs_avro_codec_name (zs_avro_codec_t codec);

//  --------------------------------------------------------------------------
//  Encoder. A value type: zs_avro_enc_init, write, use data[0..len),
//  zs_avro_enc_reset to reuse the buffer, zs_avro_enc_fini to free it.
//  It is the format layer's byte buffer (bytes.h): data, len, cap, ok.

typedef zs_bytes_t zs_avro_enc_t;

void zs_avro_enc_init (zs_avro_enc_t *self);
void zs_avro_enc_reset (zs_avro_enc_t *self);
void zs_avro_enc_fini (zs_avro_enc_t *self);

//  null writes nothing; it is there so that call sites read like the schema.
void zs_avro_enc_null (zs_avro_enc_t *self);
void zs_avro_enc_bool (zs_avro_enc_t *self, bool value);
void zs_avro_enc_int (zs_avro_enc_t *self, int32_t value);
void zs_avro_enc_long (zs_avro_enc_t *self, int64_t value);
void zs_avro_enc_float (zs_avro_enc_t *self, float value);
void zs_avro_enc_double (zs_avro_enc_t *self, double value);
void zs_avro_enc_bytes (zs_avro_enc_t *self, const void *data, size_t len);
void zs_avro_enc_string (zs_avro_enc_t *self, const char *text); //  NUL-terminated
void zs_avro_enc_fixed (zs_avro_enc_t *self, const void *data, size_t len);
void zs_avro_enc_enum (zs_avro_enc_t *self, int index);
//  The branch of a union; its value follows (nothing for null).
void zs_avro_enc_union (zs_avro_enc_t *self, int index);
//  An array or map of count items: _start, the items (map: key string,
//  then value), _end. Written as one block (none when count is 0) and the
//  closing 0.
void zs_avro_enc_array_start (zs_avro_enc_t *self, size_t count);
void zs_avro_enc_array_end (zs_avro_enc_t *self);
void zs_avro_enc_map_start (zs_avro_enc_t *self, size_t count);
void zs_avro_enc_map_end (zs_avro_enc_t *self);

//  --------------------------------------------------------------------------
//  Decoder. A cursor over caller-owned bytes (bytes.h: start, p, end,
//  error). Every call returns 0 / -1; after -1 `error` says what was
//  wrong and every later call fails too.

typedef zs_cursor_t zs_avro_dec_t;

void zs_avro_dec_init (zs_avro_dec_t *self, const void *data, size_t len);
size_t zs_avro_dec_offset (const zs_avro_dec_t *self); //  bytes consumed
size_t zs_avro_dec_left (const zs_avro_dec_t *self);   //  bytes not yet read

int zs_avro_dec_null (zs_avro_dec_t *self); //  reads nothing
int zs_avro_dec_bool (zs_avro_dec_t *self, bool *value);
int zs_avro_dec_int (zs_avro_dec_t *self, int32_t *value); //  range checked
int zs_avro_dec_long (zs_avro_dec_t *self, int64_t *value);
int zs_avro_dec_float (zs_avro_dec_t *self, float *value);
int zs_avro_dec_double (zs_avro_dec_t *self, double *value);
//  bytes and string: *data points into the input, valid as long as it is.
//  A string's UTF-8 is not checked.
int zs_avro_dec_bytes (zs_avro_dec_t *self, const uint8_t **data, size_t *len);
int zs_avro_dec_string (zs_avro_dec_t *self, const uint8_t **data, size_t *len);
int zs_avro_dec_fixed (zs_avro_dec_t *self, size_t size, const uint8_t **data);
//  An enum index or union branch, checked to be below n.
int zs_avro_dec_enum (zs_avro_dec_t *self, int n, int *index);
int zs_avro_dec_union (zs_avro_dec_t *self, int n, int *index);

//  An array or map block header: *count items follow (0: the array or map
//  has ended); *size is the block's byte size when the writer gave one (a
//  negative count on the wire), else -1; a reader that reads the items
//  may check that they took exactly that. The count is checked against
//  the bytes left, every item taking at least one byte: arrays of more
//  zero-byte items (null, empty records) than that are refused, so that a
//  loop over the items is bounded by the input.
//
//      while (zs_avro_dec_block (&d, &count, &size) == 0 && count > 0)
//          for (int64_t i = 0; i < count; i++)
//              … one item …
//      if (d.error) …
int zs_avro_dec_block (zs_avro_dec_t *self, int64_t *count, int64_t *size);

//  Skip n bytes.
int zs_avro_dec_skip_bytes (zs_avro_dec_t *self, size_t n);

//  Fail the decoder for a reason of the caller's: `error` is then set
//  (unless it was already) and sticks. Returns -1.
int zs_avro_dec_fail (zs_avro_dec_t *self, const char *why);

//  --------------------------------------------------------------------------
//  Schemas: the JSON text parsed into a graph of types, read only for
//  callers. Named types referred to by name are the same node (a recursive
//  type makes a cycle). Defaults, aliases, order and doc are ignored.

typedef enum {
    ZS_AVRO_NULL = 1,
    ZS_AVRO_BOOLEAN,
    ZS_AVRO_INT,
    ZS_AVRO_LONG,
    ZS_AVRO_FLOAT,
    ZS_AVRO_DOUBLE,
    ZS_AVRO_BYTES,
    ZS_AVRO_STRING,
    ZS_AVRO_RECORD,
    ZS_AVRO_ENUM,
    ZS_AVRO_ARRAY,
    ZS_AVRO_MAP,
    ZS_AVRO_UNION,
    ZS_AVRO_FIXED,
} zs_avro_kind_t;

typedef struct zs_avro_node_t zs_avro_node_t;
struct zs_avro_node_t {
    zs_avro_kind_t kind;
    const char *name;         //  full name of a record, enum or fixed; else NULL
    const char *logical_type; //  "timestamp-millis", "decimal", …, or NULL
    //  record: fields; union: branches; enum: symbols; fixed: bytes;
    //  array, map: 1 (the item or value type)
    int size;
    //  record: the fields' types; union: the branches; array: the items';
    //  map: the values'. NULL for the rest.
    zs_avro_node_t **types;
    const char **names; //  record: the fields' names; enum: the symbols
};

typedef struct _zs_avro_schema_t zs_avro_schema_t;

//  Parse schema JSON (len bytes; it need not be NUL-terminated). NULL with
//  err saying what is wrong.
zs_avro_schema_t *zs_avro_schema_parse (const char *json, size_t len, char *err, size_t errlen);
void zs_avro_schema_destroy (zs_avro_schema_t **self_p);
const zs_avro_node_t *zs_avro_schema_root (const zs_avro_schema_t *self);

//  Index of the record's field named name, or -1.
int zs_avro_field_index (const zs_avro_node_t *record, const char *name);

//  Skip one value of the type, whatever it contains (within
//  ZS_AVRO_MAX_DEPTH). Array and map blocks with a byte size are skipped
//  whole, without looking inside, as the specification intends.
int zs_avro_dec_skip (zs_avro_dec_t *self, const zs_avro_node_t *type);

//  --------------------------------------------------------------------------
//  OCF writer: builds the whole file in memory (manifests are small; the
//  caller writes it out and knows its exact size).
//
//      zs_avro_writer_t *w = zs_avro_writer_new (schema, ZS_AVRO_CODEC_ZSTANDARD, 0, err, len);
//      for each object:
//          zs_avro_enc_t *e = zs_avro_writer_object (w);
//          zs_avro_enc_long (e, …); …                      one datum
//          zs_avro_writer_object_end (w);
//      data = zs_avro_writer_finish (w, &size);            write it out
//      zs_avro_writer_destroy (&w);

typedef struct _zs_avro_writer_t zs_avro_writer_t;

//  schema is the JSON text written verbatim as avro.schema (readers such as
//  Paimon's need the exact text, logicalType and all); it must parse.
//  level: the codec's compression level, 0 for its default. NULL with err
//  when the schema does not parse, the codec cannot be written (snappy) or
//  memory runs out.
zs_avro_writer_t *zs_avro_writer_new (const char *schema, zs_avro_codec_t codec, int level,
                                      char *err, size_t errlen);
void zs_avro_writer_destroy (zs_avro_writer_t **self_p);

//  A fixed sync marker instead of a random one (tests, reproducible
//  files). Only before the first block is written.
int zs_avro_writer_set_sync (zs_avro_writer_t *self, const uint8_t sync[ZS_AVRO_SYNC_SIZE]);

//  End a block once its uncompressed bytes reach this many (default 64000,
//  as Avro's Java writer).
void zs_avro_writer_set_block_size (zs_avro_writer_t *self, size_t bytes);

//  The encoder to write the next object into: exactly one datum of the
//  schema, then zs_avro_writer_object_end, which counts it and ends the
//  block when full. 0, or -1 when memory ran out (the writer is then
//  unusable).
zs_avro_enc_t *zs_avro_writer_object (zs_avro_writer_t *self);
int zs_avro_writer_object_end (zs_avro_writer_t *self);

//  Objects written so far.
int64_t zs_avro_writer_count (const zs_avro_writer_t *self);

//  End the last block and return the whole file, *len bytes, valid until
//  the writer is destroyed; no more objects after this. NULL when memory
//  ran out or compression failed.
const uint8_t *zs_avro_writer_finish (zs_avro_writer_t *self, size_t *len);

//  --------------------------------------------------------------------------
//  OCF reader over a file in memory (not copied: it must outlive the
//  reader).
//
//      zs_avro_reader_t *r = zs_avro_reader_new (data, len, err, errlen);
//      … zs_avro_reader_schema (r) …
//      while ((rc = zs_avro_reader_next (r, &count, &d, err, errlen)) == 1)
//          for (int64_t i = 0; i < count; i++)
//              … one datum from d …
//      (then check zs_avro_dec_left (&d) == 0: a block holds count objects)
//
//  Errors are ZS_ECORRUPT with err naming the block (its number and file
//  offset) and what is wrong.

typedef struct _zs_avro_reader_t zs_avro_reader_t;

//  Read and check the header: magic, metadata (avro.schema present and
//  free of NUL bytes, avro.codec one of those above), sync marker. NULL
//  with err.
zs_avro_reader_t *zs_avro_reader_new (const void *data, size_t len, char *err, size_t errlen);
void zs_avro_reader_destroy (zs_avro_reader_t **self_p);

//  The writer's schema text (NUL-terminated) and its length.
const char *zs_avro_reader_schema (const zs_avro_reader_t *self, size_t *len);
zs_avro_codec_t zs_avro_reader_codec (const zs_avro_reader_t *self);
//  A metadata value: 0 with *value pointing into the file, or ZS_ENOENT.
int zs_avro_reader_meta (const zs_avro_reader_t *self, const char *key, const uint8_t **value,
                         size_t *len);

//  Lower (or raise) the cap on a block's decompressed size.
void zs_avro_reader_set_block_max (zs_avro_reader_t *self, size_t bytes);

//  Next block: 1 with *count objects (at most one per byte) and dec over
//  their bytes, valid until the next call; 0 at the end of the file; or
//  ZS_ECORRUPT with err (and every later call fails the same way).
int zs_avro_reader_next (zs_avro_reader_t *self, int64_t *count, zs_avro_dec_t *dec, char *err,
                         size_t errlen);

#endif
