/*  thrift.h - the Thrift compact protocol, as much of it as a Parquet footer
    and page header need: an encoder into a growable buffer, a
    bounds-checked decoder with a generic skip, and a reader of structs
    driven by a table of their fields.

    Wire format (Thrift's TCompactProtocol):
    - A struct is a sequence of fields ended by a 0 byte (STOP). A field
      header is one byte (id delta << 4 | type) when the id is 1…15 above
      the previous field's id in the same struct, else the type byte alone
      followed by the id as a zigzag varint.
    - Booleans in a field live in the header's type (1 = true, 2 = false);
      in a list they are one byte each.
    - i16/i32/i64 are zigzag varints; i8 one byte; double 8 bytes little
      endian; binary/string a varint length then the bytes.
    - list/set: one byte (size << 4 | element type) when size < 15, else
      0xF0 | element type followed by the size as a varint.
    - map: a varint size, then (unless empty) one byte key type << 4 | value
      type.

    The encoder never fails midway: an allocation failure is sticky
    (ok == false) and checked once when the buffer is used. The decoder
    checks every length against the bytes left, limits nesting, and on any
    error returns -1 with `error` naming the problem; it never reads outside
    [p, end) whatever the input.
*/
#ifndef ZS_THRIFT_H_INCLUDED
#define ZS_THRIFT_H_INCLUDED

#include "bytes.h"

//  Compact protocol type codes.
enum {
    ZS_THRIFT_STOP = 0,
    ZS_THRIFT_TRUE = 1,  //  boolean field, value true
    ZS_THRIFT_FALSE = 2, //  boolean field, value false
    ZS_THRIFT_I8 = 3,
    ZS_THRIFT_I16 = 4,
    ZS_THRIFT_I32 = 5,
    ZS_THRIFT_I64 = 6,
    ZS_THRIFT_DOUBLE = 7,
    ZS_THRIFT_BINARY = 8,
    ZS_THRIFT_LIST = 9,
    ZS_THRIFT_SET = 10,
    ZS_THRIFT_MAP = 11,
    ZS_THRIFT_STRUCT = 12,
};

//  Deepest struct/list nesting accepted (Parquet's footer needs 6).
#define ZS_THRIFT_MAX_DEPTH 32

//  --------------------------------------------------------------------------
//  Encoder. A value type: zs_thrift_enc_init, write, use data[0..len),
//  zs_thrift_enc_reset to reuse the buffer, zs_thrift_enc_fini to free it.
//
//  The bytes are the format layer's byte buffer (bytes.h) under two
//  names: out, which thrift.c writes through, and data, len, cap, ok, the
//  same four fields (C11's common initial sequence) as callers read them.
//  thrift.c uses out only and callers the old names only, so that no
//  function writes a field under one name and reads it under the other,
//  where a compiler's alias analysis may not see the union.

typedef struct {
    union {
        zs_bytes_t out;
        struct {
            uint8_t *data;
            size_t len;
            size_t cap;
            bool ok; //  false once an allocation failed; everything after is dropped
        };
    };
    int depth; //  open structs
    int16_t last_id[ZS_THRIFT_MAX_DEPTH + 1];
} zs_thrift_enc_t;

void zs_thrift_enc_init (zs_thrift_enc_t *self);
void zs_thrift_enc_reset (zs_thrift_enc_t *self);
void zs_thrift_enc_fini (zs_thrift_enc_t *self);

//  Fields of the struct being written.
void zs_thrift_enc_field_i32 (zs_thrift_enc_t *self, int16_t id, int32_t value);
void zs_thrift_enc_field_i64 (zs_thrift_enc_t *self, int16_t id, int64_t value);
void zs_thrift_enc_field_bool (zs_thrift_enc_t *self, int16_t id, bool value);
void zs_thrift_enc_field_i8 (zs_thrift_enc_t *self, int16_t id, int8_t value);
void zs_thrift_enc_field_double (zs_thrift_enc_t *self, int16_t id, double value);
void zs_thrift_enc_field_binary (zs_thrift_enc_t *self, int16_t id, const void *data, size_t len);
void zs_thrift_enc_field_string (zs_thrift_enc_t *self, int16_t id, const char *text);

//  A struct-valued field: its fields follow, then zs_thrift_enc_struct_end.
void zs_thrift_enc_field_struct (zs_thrift_enc_t *self, int16_t id);
//  A list-valued field of `size` elements of elem_type; write exactly that
//  many elements with the element writers below.
void zs_thrift_enc_field_list (zs_thrift_enc_t *self, int16_t id, int elem_type, uint32_t size);

//  List elements (and the top-level struct: zs_thrift_enc_struct_begin).
void zs_thrift_enc_struct_begin (zs_thrift_enc_t *self);
void zs_thrift_enc_struct_end (zs_thrift_enc_t *self);
void zs_thrift_enc_i32 (zs_thrift_enc_t *self, int32_t value);
void zs_thrift_enc_i64 (zs_thrift_enc_t *self, int64_t value);
void zs_thrift_enc_binary (zs_thrift_enc_t *self, const void *data, size_t len);

//  --------------------------------------------------------------------------
//  Decoder. A cursor over caller-owned bytes:
//
//      zs_thrift_dec_t d;
//      zs_thrift_dec_init (&d, buf, len);
//      zs_thrift_dec_struct_begin (&d);
//      while ((rc = zs_thrift_dec_field (&d, &id, &type)) == 1)
//          switch (id) { case 1: zs_thrift_dec_int (&d, type, &v); …
//                        default: zs_thrift_dec_skip (&d, type); }
//
//  Every call returns 0 (or 1 for a field) / -1; after -1 `error` says what
//  was wrong and every later call fails too.
//
//  As the encoder's bytes, the input is the cursor of bytes.h under two
//  names, kept apart the same way: in for thrift.c, start, p, end, error
//  for callers.

typedef struct {
    union {
        zs_cursor_t in;
        struct {
            const uint8_t *start;
            const uint8_t *p;
            const uint8_t *end;
            const char *error; //  NULL while all is well
        };
    };
    int depth;
    int16_t last_id[ZS_THRIFT_MAX_DEPTH + 1];
} zs_thrift_dec_t;

void zs_thrift_dec_init (zs_thrift_dec_t *self, const void *data, size_t len);

//  Bytes consumed so far.
size_t zs_thrift_dec_offset (const zs_thrift_dec_t *self);

//  Enter a struct: the top-level one, a struct-typed field just read by
//  zs_thrift_dec_field, or a struct element of a list.
int zs_thrift_dec_struct_begin (zs_thrift_dec_t *self);

//  Next field of the current struct: 1 with *id and *type, or 0 at its STOP
//  (the struct is then left), or -1.
int zs_thrift_dec_field (zs_thrift_dec_t *self, int16_t *id, int *type);

//  The value of a field (or list element) of the given wire type. _int
//  takes any integer type (I8, I16, I32, I64); _bool a boolean field's type
//  (TRUE/FALSE: the value is the type, nothing is read), _bool_elem a
//  boolean list element (one byte). A type that does not fit is an error
//  ("wrong type").
int zs_thrift_dec_int (zs_thrift_dec_t *self, int type, int64_t *value);
int zs_thrift_dec_i32 (zs_thrift_dec_t *self, int type, int32_t *value); //  range checked
int zs_thrift_dec_bool (zs_thrift_dec_t *self, int type, bool *value);
int zs_thrift_dec_bool_elem (zs_thrift_dec_t *self, bool *value);
int zs_thrift_dec_double (zs_thrift_dec_t *self, int type, double *value);
//  Binary: *data points into the input, valid as long as it is.
int zs_thrift_dec_binary (zs_thrift_dec_t *self, int type, const uint8_t **data, uint32_t *len);

//  A list (or set) header: its element type and size. The size is checked
//  against the bytes left (every element takes at least one byte).
int zs_thrift_dec_list (zs_thrift_dec_t *self, int type, int *elem_type, uint32_t *size);

//  Skip the value of the field just read, whatever it contains (nested
//  structs, lists and maps included, within the depth limit).
int zs_thrift_dec_skip (zs_thrift_dec_t *self, int type);

//  Fail the decoder for a reason of the caller's (a value it refuses): as
//  any error, `error` is then set (unless it was already) and sticks.
//  Returns -1.
int zs_thrift_dec_fail (zs_thrift_dec_t *self, const char *why);

//  --------------------------------------------------------------------------
//  A struct decoded by a table of the fields kept, one entry a field, the
//  way the option tables (opts.h) drive the configuration keys: each entry says
//  where the field's value goes in the caller's object (offsetof), and
//  zs_thrift_dec_struct reads the struct, storing what the table names and
//  skipping the rest. A field that comes twice is stored twice (the last
//  wins), unless a handler decides otherwise.

//  A binary value, pointing into the decoder's input.
typedef struct {
    const uint8_t *data;
    uint32_t len;
} zs_thrift_binary_t;

typedef enum {
    ZS_THRIFT_KEEP_I32 = 1, //  int32_t at `at` (zs_thrift_dec_i32)
    ZS_THRIFT_KEEP_I64,     //  int64_t at `at`, any integer type (zs_thrift_dec_int)
    ZS_THRIFT_KEEP_BOOL,    //  bool at `at` (a boolean field)
    ZS_THRIFT_KEEP_BINARY,  //  zs_thrift_binary_t at `at`
    ZS_THRIFT_KEEP_STRUCT,  //  a struct read by fn; a field of another type is skipped
    ZS_THRIFT_KEEP_CALL,    //  fn reads the value, whatever its type
} zs_thrift_keep_t;

//  A handler: reads (or skips) the value of a field of the given type into
//  obj, the object the whole table fills. 0 / -1 with the decoder's error
//  set.
typedef int (zs_thrift_field_fn) (zs_thrift_dec_t *dec, int type, void *obj);

#define ZS_THRIFT_NO_FLAG SIZE_MAX

typedef struct {
    int16_t id;
    zs_thrift_keep_t keep;
    size_t at;              //  the value's offset in obj (KEEP_I32 … KEEP_BINARY)
    size_t has;             //  offset of a bool set once the value is read, or ZS_THRIFT_NO_FLAG
    zs_thrift_field_fn *fn; //  KEEP_STRUCT, KEEP_CALL
} zs_thrift_field_t;

//  Enter a struct (as zs_thrift_dec_struct_begin) and read all its fields
//  by the table fields[0..nfields): 0 at its end, or -1 with `error` set.
int zs_thrift_dec_struct (zs_thrift_dec_t *self, const zs_thrift_field_t *fields, size_t nfields,
                          void *obj);

#endif
