/*  avro.c - Avro's binary encoding: the encoder and the decoder (avro.h).
    Schemas are in avro_schema.c, container files in avro_file.c.

    The decoder's invariants, kept by every function below (1 and 2 by
    the cursor of bytes.h, which every read goes through):
    1. p never moves past end: a read that needs more bytes than are left
       fails before touching them.
    2. Once error is set it stays set and every call fails, so callers may
       check once, at the end of a datum.
    3. No count or length off the input is trusted before it is checked
       against the bytes that must hold it (one byte per array or map item
       at least), so a caller's loop over items is bounded by the input.
*/
#include "avro.h"
#include <string.h>

const char *
zs_avro_codec_name (zs_avro_codec_t codec)
{
    switch (codec) {
    case ZS_AVRO_CODEC_NULL:
        return "null";
    case ZS_AVRO_CODEC_DEFLATE:
        return "deflate";
    case ZS_AVRO_CODEC_SNAPPY:
        return "snappy";
    case ZS_AVRO_CODEC_ZSTANDARD:
        return "zstandard";
    }
    return "?";
}

//  --------------------------------------------------------------------------
//  Encoder: the byte buffer of bytes.h, written as the specification says.

void
zs_avro_enc_init (zs_avro_enc_t *self)
{
    zs_bytes_init (self);
}

void
zs_avro_enc_reset (zs_avro_enc_t *self)
{
    zs_bytes_reset (self);
}

void
zs_avro_enc_fini (zs_avro_enc_t *self)
{
    zs_bytes_fini (self);
}

void
zs_avro_enc_null (zs_avro_enc_t *self)
{
}

void
zs_avro_enc_bool (zs_avro_enc_t *self, bool value)
{
    zs_bytes_put_byte (self, value ? 1 : 0);
}

void
zs_avro_enc_int (zs_avro_enc_t *self, int32_t value)
{
    zs_bytes_put_varint (self, zs_zigzag (value));
}

void
zs_avro_enc_long (zs_avro_enc_t *self, int64_t value)
{
    zs_bytes_put_varint (self, zs_zigzag (value));
}

void
zs_avro_enc_float (zs_avro_enc_t *self, float value)
{
    uint32_t bits;
    memcpy (&bits, &value, 4);
    zs_bytes_put_le (self, bits, 4);
}

void
zs_avro_enc_double (zs_avro_enc_t *self, double value)
{
    uint64_t bits;
    memcpy (&bits, &value, 8);
    zs_bytes_put_le (self, bits, 8);
}

void
zs_avro_enc_bytes (zs_avro_enc_t *self, const void *data, size_t len)
{
    zs_bytes_put_varint (self, zs_zigzag ((int64_t) len));
    zs_bytes_put (self, data, len);
}

void
zs_avro_enc_string (zs_avro_enc_t *self, const char *text)
{
    zs_avro_enc_bytes (self, text, strlen (text));
}

void
zs_avro_enc_fixed (zs_avro_enc_t *self, const void *data, size_t len)
{
    zs_bytes_put (self, data, len);
}

void
zs_avro_enc_enum (zs_avro_enc_t *self, int index)
{
    zs_avro_enc_int (self, index);
}

void
zs_avro_enc_union (zs_avro_enc_t *self, int index)
{
    zs_avro_enc_long (self, index);
}

void
zs_avro_enc_array_start (zs_avro_enc_t *self, size_t count)
{
    //  An empty array is the closing 0 alone (written by _end).
    if (count > 0)
        zs_avro_enc_long (self, (int64_t) count);
}

void
zs_avro_enc_array_end (zs_avro_enc_t *self)
{
    zs_avro_enc_long (self, 0);
}

void
zs_avro_enc_map_start (zs_avro_enc_t *self, size_t count)
{
    zs_avro_enc_array_start (self, count);
}

void
zs_avro_enc_map_end (zs_avro_enc_t *self)
{
    zs_avro_enc_array_end (self);
}

//  --------------------------------------------------------------------------
//  Decoder: the cursor of bytes.h, which keeps invariants 1 and 2.

void
zs_avro_dec_init (zs_avro_dec_t *self, const void *data, size_t len)
{
    zs_cursor_init (self, data, len);
}

size_t
zs_avro_dec_offset (const zs_avro_dec_t *self)
{
    return zs_cursor_offset (self);
}

size_t
zs_avro_dec_left (const zs_avro_dec_t *self)
{
    return zs_cursor_left (self);
}

int
zs_avro_dec_fail (zs_avro_dec_t *self, const char *why)
{
    return zs_cursor_fail (self, why);
}

int
zs_avro_dec_null (zs_avro_dec_t *self)
{
    return self->error ? -1 : 0;
}

int
zs_avro_dec_bool (zs_avro_dec_t *self, bool *value)
{
    uint8_t b;
    if (zs_cursor_byte (self, &b, "truncated boolean") != 0)
        return -1;
    //  Java and Python readers take anything but 1 as false; a byte other
    //  than 0 or 1 is still not something a writer makes.
    if (b > 1)
        return zs_cursor_fail (self, "boolean neither 0 nor 1");
    *value = b == 1;
    return 0;
}

int
zs_avro_dec_long (zs_avro_dec_t *self, int64_t *value)
{
    return zs_cursor_zigzag (self, value);
}

int
zs_avro_dec_int (zs_avro_dec_t *self, int32_t *value)
{
    int64_t v;
    if (zs_avro_dec_long (self, &v) != 0)
        return -1;
    if (v < INT32_MIN || v > INT32_MAX)
        return zs_cursor_fail (self, "int out of range");
    *value = (int32_t) v;
    return 0;
}

int
zs_avro_dec_float (zs_avro_dec_t *self, float *value)
{
    uint64_t bits;
    if (zs_cursor_le (self, 4, &bits, "truncated float") != 0)
        return -1;
    uint32_t b32 = (uint32_t) bits;
    memcpy (value, &b32, 4);
    return 0;
}

int
zs_avro_dec_double (zs_avro_dec_t *self, double *value)
{
    uint64_t bits;
    if (zs_cursor_le (self, 8, &bits, "truncated double") != 0)
        return -1;
    memcpy (value, &bits, 8);
    return 0;
}

int
zs_avro_dec_bytes (zs_avro_dec_t *self, const uint8_t **data, size_t *len)
{
    int64_t n;
    if (zs_avro_dec_long (self, &n) != 0)
        return -1;
    if (n < 0)
        return zs_cursor_fail (self, "negative bytes/string length");
    if (zs_cursor_take (self, (uint64_t) n, data, "bytes/string longer than the bytes left") != 0)
        return -1;
    *len = (size_t) n;
    return 0;
}

int
zs_avro_dec_string (zs_avro_dec_t *self, const uint8_t **data, size_t *len)
{
    return zs_avro_dec_bytes (self, data, len);
}

int
zs_avro_dec_fixed (zs_avro_dec_t *self, size_t size, const uint8_t **data)
{
    return zs_cursor_take (self, size, data, "truncated fixed");
}

static int
s_get_index (zs_avro_dec_t *self, int n, int *index, const char *why)
{
    int64_t i;
    if (zs_avro_dec_long (self, &i) != 0)
        return -1;
    if (i < 0 || i >= n)
        return zs_cursor_fail (self, why);
    *index = (int) i;
    return 0;
}

int
zs_avro_dec_enum (zs_avro_dec_t *self, int n, int *index)
{
    return s_get_index (self, n, index, "enum index out of range");
}

int
zs_avro_dec_union (zs_avro_dec_t *self, int n, int *index)
{
    return s_get_index (self, n, index, "union branch out of range");
}

int
zs_avro_dec_block (zs_avro_dec_t *self, int64_t *count, int64_t *size)
{
    int64_t n;
    if (zs_avro_dec_long (self, &n) != 0)
        return -1;
    *size = -1;
    if (n < 0) {
        if (n == INT64_MIN)
            return zs_cursor_fail (self, "array/map block count out of range");
        n = -n;
        int64_t s;
        if (zs_avro_dec_long (self, &s) != 0)
            return -1;
        if (s < 0)
            return zs_cursor_fail (self, "negative array/map block size");
        if ((uint64_t) s > zs_cursor_left (self))
            return zs_cursor_fail (self, "array/map block longer than the bytes left");
        if (n > s)
            return zs_cursor_fail (self, "array/map block of more items than bytes");
        *size = s;
    }
    if ((uint64_t) n > zs_cursor_left (self))
        return zs_cursor_fail (self, "array/map block of more items than bytes left");
    *count = n;
    return 0;
}

int
zs_avro_dec_skip_bytes (zs_avro_dec_t *self, size_t n)
{
    return zs_cursor_take (self, n, NULL, "truncated");
}
