/*  thrift.c - Thrift compact protocol encoder and decoder (see thrift.h).

    The decoder's invariants, kept by every function below (1 and 2 by
    the cursor of bytes.h, self->in, which every read goes through):
    1. p never moves past end; a read that needs more bytes than are left
       fails ("truncated") before touching them.
    2. Once error is set it stays set, and every call returns -1: callers
       may check only at the end of a struct without reading garbage.
    3. depth counts entered structs and lists (skip included) and is
       limited to ZS_THRIFT_MAX_DEPTH, so hostile nesting cannot exhaust
       the stack.
*/
#include "thrift.h"
#include <string.h>

//  --------------------------------------------------------------------------
//  Encoder: the byte buffer of bytes.h, as self->out.

void
zs_thrift_enc_init (zs_thrift_enc_t *self)
{
    memset (self, 0, sizeof *self);
    zs_bytes_init (&self->out);
}

void
zs_thrift_enc_reset (zs_thrift_enc_t *self)
{
    zs_bytes_reset (&self->out);
    self->depth = 0;
    self->last_id[0] = 0;
}

void
zs_thrift_enc_fini (zs_thrift_enc_t *self)
{
    zs_bytes_fini (&self->out);
    memset (self, 0, sizeof *self);
}

//  The short form needs ids to rise by 1…15 within a struct; anything else
//  (the first field above 15, ids going down) takes the long form. Each
//  open struct remembers its own last id, hence the per-depth array.
static void
s_field_header (zs_thrift_enc_t *self, int16_t id, int type)
{
    int16_t last = self->last_id[self->depth];
    int delta = (int) id - (int) last;
    if (delta > 0 && delta <= 15)
        zs_bytes_put_byte (&self->out, (uint8_t) (delta << 4 | type));
    else {
        zs_bytes_put_byte (&self->out, (uint8_t) type);
        zs_bytes_put_varint (&self->out, zs_zigzag (id));
    }
    self->last_id[self->depth] = id;
}

void
zs_thrift_enc_field_i32 (zs_thrift_enc_t *self, int16_t id, int32_t value)
{
    s_field_header (self, id, ZS_THRIFT_I32);
    zs_bytes_put_varint (&self->out, zs_zigzag (value));
}

void
zs_thrift_enc_field_i64 (zs_thrift_enc_t *self, int16_t id, int64_t value)
{
    s_field_header (self, id, ZS_THRIFT_I64);
    zs_bytes_put_varint (&self->out, zs_zigzag (value));
}

void
zs_thrift_enc_field_bool (zs_thrift_enc_t *self, int16_t id, bool value)
{
    s_field_header (self, id, value ? ZS_THRIFT_TRUE : ZS_THRIFT_FALSE);
}

//  An i8 is a single byte in the compact protocol (type 3), not a varint.
void
zs_thrift_enc_field_i8 (zs_thrift_enc_t *self, int16_t id, int8_t value)
{
    s_field_header (self, id, ZS_THRIFT_I8);
    zs_bytes_put_byte (&self->out, (uint8_t) value);
}

void
zs_thrift_enc_field_double (zs_thrift_enc_t *self, int16_t id, double value)
{
    s_field_header (self, id, ZS_THRIFT_DOUBLE);
    uint64_t bits;
    memcpy (&bits, &value, 8);
    zs_bytes_put_le (&self->out, bits, 8);
}

void
zs_thrift_enc_field_binary (zs_thrift_enc_t *self, int16_t id, const void *data, size_t len)
{
    s_field_header (self, id, ZS_THRIFT_BINARY);
    zs_thrift_enc_binary (self, data, len);
}

void
zs_thrift_enc_field_string (zs_thrift_enc_t *self, int16_t id, const char *text)
{
    zs_thrift_enc_field_binary (self, id, text, strlen (text));
}

void
zs_thrift_enc_field_struct (zs_thrift_enc_t *self, int16_t id)
{
    s_field_header (self, id, ZS_THRIFT_STRUCT);
    zs_thrift_enc_struct_begin (self);
}

void
zs_thrift_enc_field_list (zs_thrift_enc_t *self, int16_t id, int elem_type, uint32_t size)
{
    s_field_header (self, id, ZS_THRIFT_LIST);
    if (size < 15)
        zs_bytes_put_byte (&self->out, (uint8_t) (size << 4 | (uint32_t) elem_type));
    else {
        zs_bytes_put_byte (&self->out, (uint8_t) (0xF0 | elem_type));
        zs_bytes_put_varint (&self->out, size);
    }
}

void
zs_thrift_enc_struct_begin (zs_thrift_enc_t *self)
{
    //  Our own footer nests 6 deep; deeper is a bug in the caller.
    if (self->depth >= ZS_THRIFT_MAX_DEPTH) {
        self->out.ok = false;
        return;
    }
    self->last_id[++self->depth] = 0;
}

void
zs_thrift_enc_struct_end (zs_thrift_enc_t *self)
{
    zs_bytes_put_byte (&self->out, ZS_THRIFT_STOP);
    if (self->depth > 0)
        self->depth--;
}

void
zs_thrift_enc_i32 (zs_thrift_enc_t *self, int32_t value)
{
    zs_bytes_put_varint (&self->out, zs_zigzag (value));
}

void
zs_thrift_enc_i64 (zs_thrift_enc_t *self, int64_t value)
{
    zs_bytes_put_varint (&self->out, zs_zigzag (value));
}

void
zs_thrift_enc_binary (zs_thrift_enc_t *self, const void *data, size_t len)
{
    zs_bytes_put_varint (&self->out, len);
    zs_bytes_put (&self->out, data, len);
}

//  --------------------------------------------------------------------------
//  Decoder

void
zs_thrift_dec_init (zs_thrift_dec_t *self, const void *data, size_t len)
{
    memset (self, 0, sizeof *self);
    zs_cursor_init (&self->in, data, len);
}

size_t
zs_thrift_dec_offset (const zs_thrift_dec_t *self)
{
    return zs_cursor_offset (&self->in);
}

static int
s_get_byte (zs_thrift_dec_t *self, uint8_t *byte)
{
    return zs_cursor_byte (&self->in, byte, "truncated");
}

//  A binary's length and bytes (the type already checked).
static int
s_get_binary (zs_thrift_dec_t *self, const uint8_t **data, uint32_t *len)
{
    uint64_t n;
    if (zs_cursor_varint (&self->in, &n) != 0
        || zs_cursor_take (&self->in, n, data, "binary longer than the bytes left") != 0)
        return -1;
    *len = (uint32_t) n;
    return 0;
}

//  One level deeper (a struct, list or map), within the limit.
static int
s_enter (zs_thrift_dec_t *self)
{
    if (self->depth >= ZS_THRIFT_MAX_DEPTH)
        return zs_cursor_fail (&self->in, "nested too deep");
    self->depth++;
    return 0;
}

int
zs_thrift_dec_struct_begin (zs_thrift_dec_t *self)
{
    if (self->in.error || s_enter (self) != 0)
        return -1;
    self->last_id[self->depth] = 0;
    return 0;
}

//  The mirror of s_field_header. STOP closes the struct entered last, so
//  the caller's loop and the depth count stay in step.
int
zs_thrift_dec_field (zs_thrift_dec_t *self, int16_t *id, int *type)
{
    uint8_t byte;
    if (s_get_byte (self, &byte) != 0)
        return -1;
    if (byte == ZS_THRIFT_STOP) {
        if (self->depth > 0)
            self->depth--;
        return 0;
    }
    int t = byte & 0x0F;
    if (t > ZS_THRIFT_STRUCT)
        return zs_cursor_fail (&self->in, "unknown field type");
    int delta = byte >> 4;
    int64_t fid;
    if (delta)
        fid = (int64_t) self->last_id[self->depth] + delta;
    else if (zs_cursor_zigzag (&self->in, &fid) != 0)
        return -1;
    if (fid < INT16_MIN || fid > INT16_MAX)
        return zs_cursor_fail (&self->in, "field id out of range");
    self->last_id[self->depth] = (int16_t) fid;
    *id = (int16_t) fid;
    *type = t;
    return 1;
}

//  Parquet's footer mixes i8 (IntType.bitWidth), i16, i32 and i64; a
//  reader that accepts any width for any integer field is simpler and
//  loses nothing: callers range-check what they keep.
int
zs_thrift_dec_int (zs_thrift_dec_t *self, int type, int64_t *value)
{
    if (type == ZS_THRIFT_I8) {
        uint8_t byte;
        if (s_get_byte (self, &byte) != 0)
            return -1;
        *value = (int8_t) byte;
        return 0;
    }
    if (type != ZS_THRIFT_I16 && type != ZS_THRIFT_I32 && type != ZS_THRIFT_I64)
        return zs_cursor_fail (&self->in, "wrong type (integer expected)");
    return zs_cursor_zigzag (&self->in, value);
}

int
zs_thrift_dec_i32 (zs_thrift_dec_t *self, int type, int32_t *value)
{
    int64_t v;
    if (zs_thrift_dec_int (self, type, &v) != 0)
        return -1;
    if (v < INT32_MIN || v > INT32_MAX)
        return zs_cursor_fail (&self->in, "i32 out of range");
    *value = (int32_t) v;
    return 0;
}

int
zs_thrift_dec_bool (zs_thrift_dec_t *self, int type, bool *value)
{
    if (self->in.error)
        return -1;
    if (type != ZS_THRIFT_TRUE && type != ZS_THRIFT_FALSE)
        return zs_cursor_fail (&self->in, "wrong type (bool expected)");
    *value = type == ZS_THRIFT_TRUE;
    return 0;
}

int
zs_thrift_dec_bool_elem (zs_thrift_dec_t *self, bool *value)
{
    uint8_t byte;
    if (s_get_byte (self, &byte) != 0)
        return -1;
    *value = byte == ZS_THRIFT_TRUE;
    return 0;
}

int
zs_thrift_dec_double (zs_thrift_dec_t *self, int type, double *value)
{
    if (self->in.error)
        return -1;
    if (type != ZS_THRIFT_DOUBLE)
        return zs_cursor_fail (&self->in, "wrong type (double expected)");
    uint64_t bits;
    if (zs_cursor_le (&self->in, 8, &bits, "truncated") != 0)
        return -1;
    memcpy (value, &bits, 8);
    return 0;
}

int
zs_thrift_dec_binary (zs_thrift_dec_t *self, int type, const uint8_t **data, uint32_t *len)
{
    if (self->in.error)
        return -1;
    if (type != ZS_THRIFT_BINARY)
        return zs_cursor_fail (&self->in, "wrong type (binary expected)");
    return s_get_binary (self, data, len);
}

//  A list's, set's or map's element type: a value type (STOP is none).
static bool
s_elem_type_ok (int type)
{
    return type != ZS_THRIFT_STOP && type <= ZS_THRIFT_STRUCT;
}

int
zs_thrift_dec_list (zs_thrift_dec_t *self, int type, int *elem_type, uint32_t *size)
{
    if (self->in.error)
        return -1;
    if (type != ZS_THRIFT_LIST && type != ZS_THRIFT_SET)
        return zs_cursor_fail (&self->in, "wrong type (list expected)");
    uint8_t byte;
    if (s_get_byte (self, &byte) != 0)
        return -1;
    uint64_t n = byte >> 4;
    if (n == 15 && zs_cursor_varint (&self->in, &n) != 0)
        return -1;
    int et = byte & 0x0F;
    if (!s_elem_type_ok (et))
        return zs_cursor_fail (&self->in, "unknown list element type");
    //  Every element takes at least one byte: a size beyond the bytes left
    //  is garbage, and checking here bounds what callers allocate.
    if (n > zs_cursor_left (&self->in))
        return zs_cursor_fail (&self->in, "list longer than the bytes left");
    *elem_type = et;
    *size = (uint32_t) n;
    return 0;
}

static int s_skip (zs_thrift_dec_t *self, int type, bool in_field);

//  A list's or set's elements.
static int
s_skip_list (zs_thrift_dec_t *self, int type)
{
    int et;
    uint32_t size;
    if (zs_thrift_dec_list (self, type, &et, &size) != 0 || s_enter (self) != 0)
        return -1;
    for (uint32_t i = 0; i < size; i++)
        if (s_skip (self, et, false) != 0)
            return -1;
    self->depth--;
    return 0;
}

//  A map: a varint size, then (unless empty) a byte key type << 4 | value
//  type, then the keys and values in turn.
static int
s_skip_map (zs_thrift_dec_t *self)
{
    uint64_t n;
    uint8_t kv;
    if (zs_cursor_varint (&self->in, &n) != 0)
        return -1;
    if (n == 0)
        return 0;
    if (s_get_byte (self, &kv) != 0)
        return -1;
    int kt = kv >> 4, vt = kv & 0x0F;
    if (!s_elem_type_ok (kt) || !s_elem_type_ok (vt))
        return zs_cursor_fail (&self->in, "unknown map element type");
    if (n > zs_cursor_left (&self->in) / 2)
        return zs_cursor_fail (&self->in, "map longer than the bytes left");
    if (s_enter (self) != 0)
        return -1;
    for (uint64_t i = 0; i < n; i++)
        if (s_skip (self, kt, false) != 0 || s_skip (self, vt, false) != 0)
            return -1;
    self->depth--;
    return 0;
}

static int
s_skip_struct (zs_thrift_dec_t *self)
{
    int16_t id;
    int type, rc;
    if (zs_thrift_dec_struct_begin (self) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (self, &id, &type)) == 1)
        if (s_skip (self, type, true) != 0)
            return -1;
    return rc;
}

//  Skip a value; in_field: a boolean's value is in the field header (else
//  it is one byte, as in lists and maps).
static int
s_skip (zs_thrift_dec_t *self, int type, bool in_field)
{
    if (self->in.error)
        return -1;
    uint64_t n;
    const uint8_t *data;
    uint32_t len;
    switch (type) {
    case ZS_THRIFT_TRUE:
    case ZS_THRIFT_FALSE:
        return in_field ? 0 : zs_cursor_take (&self->in, 1, NULL, "truncated");
    case ZS_THRIFT_I8:
        return zs_cursor_take (&self->in, 1, NULL, "truncated");
    case ZS_THRIFT_I16:
    case ZS_THRIFT_I32:
    case ZS_THRIFT_I64:
        return zs_cursor_varint (&self->in, &n);
    case ZS_THRIFT_DOUBLE:
        return zs_cursor_take (&self->in, 8, NULL, "truncated");
    case ZS_THRIFT_BINARY:
        return s_get_binary (self, &data, &len);
    case ZS_THRIFT_LIST:
    case ZS_THRIFT_SET:
        return s_skip_list (self, type);
    case ZS_THRIFT_MAP:
        return s_skip_map (self);
    case ZS_THRIFT_STRUCT:
        return s_skip_struct (self);
    default:
        return zs_cursor_fail (&self->in, "unknown type");
    }
}

int
zs_thrift_dec_skip (zs_thrift_dec_t *self, int type)
{
    return s_skip (self, type, true);
}

int
zs_thrift_dec_fail (zs_thrift_dec_t *self, const char *why)
{
    return zs_cursor_fail (&self->in, why);
}

//  --------------------------------------------------------------------------
//  Struct tables

static const zs_thrift_field_t *
s_find_field (const zs_thrift_field_t *fields, size_t nfields, int16_t id)
{
    for (size_t i = 0; i < nfields; i++)
        if (fields[i].id == id)
            return &fields[i];
    return NULL;
}

//  The value of a field of the given type, as its table entry says.
static int
s_keep (zs_thrift_dec_t *self, const zs_thrift_field_t *f, int type, void *obj)
{
    uint8_t *at = (uint8_t *) obj + f->at;
    int rc;
    switch (f->keep) {
    case ZS_THRIFT_KEEP_I32:
        rc = zs_thrift_dec_i32 (self, type, (int32_t *) at);
        break;
    case ZS_THRIFT_KEEP_I64:
        rc = zs_thrift_dec_int (self, type, (int64_t *) at);
        break;
    case ZS_THRIFT_KEEP_BOOL:
        rc = zs_thrift_dec_bool (self, type, (bool *) at);
        break;
    case ZS_THRIFT_KEEP_BINARY: {
        zs_thrift_binary_t *bin = (zs_thrift_binary_t *) at;
        rc = zs_thrift_dec_binary (self, type, &bin->data, &bin->len);
        break;
    }
    case ZS_THRIFT_KEEP_STRUCT:
        return type == ZS_THRIFT_STRUCT ? f->fn (self, type, obj) : s_skip (self, type, true);
    case ZS_THRIFT_KEEP_CALL:
        return f->fn (self, type, obj);
    default:
        return zs_cursor_fail (&self->in, "field table entry of unknown kind");
    }
    if (rc == 0 && f->has != ZS_THRIFT_NO_FLAG)
        *(bool *) ((uint8_t *) obj + f->has) = true;
    return rc;
}

int
zs_thrift_dec_struct (zs_thrift_dec_t *self, const zs_thrift_field_t *fields, size_t nfields,
                      void *obj)
{
    int16_t id;
    int type, rc;
    if (zs_thrift_dec_struct_begin (self) != 0)
        return -1;
    while ((rc = zs_thrift_dec_field (self, &id, &type)) == 1) {
        const zs_thrift_field_t *f = s_find_field (fields, nfields, id);
        rc = f ? s_keep (self, f, type, obj) : s_skip (self, type, true);
        if (rc != 0 || self->in.error)
            return -1;
    }
    return rc;
}
