/*  avro.c - Avro's binary encoding: the encoder and the decoder (avro.h).
    Schemas are in avro_schema.c, container files in avro_file.c.

    The decoder's invariants, kept by every function below:
    1. p never moves past end: a read that needs more bytes than are left
       fails before touching them.
    2. Once error is set it stays set and every call fails, so callers may
       check once, at the end of a datum.
    3. No count or length off the input is trusted before it is checked
       against the bytes that must hold it (one byte per array or map item
       at least), so a caller's loop over items is bounded by the input.
*/
#include "avro.h"
#include "varint.h"
#include <string.h>
#include <stdlib.h>

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
//  Encoder

void
zs_avro_enc_init (zs_avro_enc_t *self)
{
    memset (self, 0, sizeof *self);
    self->ok = true;
}

void
zs_avro_enc_reset (zs_avro_enc_t *self)
{
    self->len = 0;
    self->ok = true;
}

void
zs_avro_enc_fini (zs_avro_enc_t *self)
{
    free (self->data);
    memset (self, 0, sizeof *self);
}

//  Room for n more bytes; false (and ok = false from then on) when out of
//  memory.
static bool
s_reserve (zs_avro_enc_t *self, size_t n)
{
    if (!self->ok)
        return false;
    uint8_t *data = zs_grow (self->data, &self->cap, self->len, n, 256);
    if (!data)
        return self->ok = false;
    self->data = data;
    return true;
}

static void
s_put_varint (zs_avro_enc_t *self, uint64_t v)
{
    if (s_reserve (self, ZS_VARINT_MAX))
        self->len += zs_varint_put (self->data + self->len, v);
}

static void
s_put_bytes (zs_avro_enc_t *self, const void *data, size_t len)
{
    if (s_reserve (self, len) && len) {
        memcpy (self->data + self->len, data, len);
        self->len += len;
    }
}

void
zs_avro_enc_null (zs_avro_enc_t *self)
{
}

void
zs_avro_enc_bool (zs_avro_enc_t *self, bool value)
{
    uint8_t b = value ? 1 : 0;
    s_put_bytes (self, &b, 1);
}

void
zs_avro_enc_int (zs_avro_enc_t *self, int32_t value)
{
    s_put_varint (self, zs_zigzag (value));
}

void
zs_avro_enc_long (zs_avro_enc_t *self, int64_t value)
{
    s_put_varint (self, zs_zigzag (value));
}

static void
s_put_le (zs_avro_enc_t *self, uint64_t bits, int n)
{
    uint8_t le[8];
    for (int i = 0; i < n; i++)
        le[i] = (uint8_t) (bits >> (8 * i));
    s_put_bytes (self, le, (size_t) n);
}

void
zs_avro_enc_float (zs_avro_enc_t *self, float value)
{
    uint32_t bits;
    memcpy (&bits, &value, 4);
    s_put_le (self, bits, 4);
}

void
zs_avro_enc_double (zs_avro_enc_t *self, double value)
{
    uint64_t bits;
    memcpy (&bits, &value, 8);
    s_put_le (self, bits, 8);
}

void
zs_avro_enc_bytes (zs_avro_enc_t *self, const void *data, size_t len)
{
    s_put_varint (self, zs_zigzag ((int64_t) len));
    s_put_bytes (self, data, len);
}

void
zs_avro_enc_string (zs_avro_enc_t *self, const char *text)
{
    zs_avro_enc_bytes (self, text, strlen (text));
}

void
zs_avro_enc_fixed (zs_avro_enc_t *self, const void *data, size_t len)
{
    s_put_bytes (self, data, len);
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
//  Decoder

void
zs_avro_dec_init (zs_avro_dec_t *self, const void *data, size_t len)
{
    memset (self, 0, sizeof *self);
    self->start = data;
    self->p = data;
    //  NULL + 0 is undefined behaviour in C; an empty input may be NULL.
    self->end = data ? self->p + len : self->p;
}

size_t
zs_avro_dec_offset (const zs_avro_dec_t *self)
{
    return (size_t) (self->p - self->start);
}

size_t
zs_avro_dec_left (const zs_avro_dec_t *self)
{
    return (size_t) (self->end - self->p);
}

static int
s_fail (zs_avro_dec_t *self, const char *why)
{
    if (!self->error)
        self->error = why;
    return -1;
}

int
zs_avro_dec_fail (zs_avro_dec_t *self, const char *why)
{
    return s_fail (self, why);
}

//  At most 10 bytes make a 64-bit varint, and the 10th holds only the top
//  bit: anything longer or larger is garbage, not a number to keep reading.
static int
s_get_varint (zs_avro_dec_t *self, uint64_t *value)
{
    if (self->error)
        return -1;
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (self->p >= self->end)
            return s_fail (self, "truncated varint");
        uint8_t b = *self->p++;
        if (i == 9 && b > 1)
            return s_fail (self, "varint longer than 64 bits");
        v |= (uint64_t) (b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            *value = v;
            return 0;
        }
    }
    return -1; //  not reached: the 10th byte ends the loop one way or another
}

int
zs_avro_dec_null (zs_avro_dec_t *self)
{
    return self->error ? -1 : 0;
}

int
zs_avro_dec_bool (zs_avro_dec_t *self, bool *value)
{
    if (self->error)
        return -1;
    if (self->p >= self->end)
        return s_fail (self, "truncated boolean");
    //  Java and Python readers take anything but 1 as false; a byte other
    //  than 0 or 1 is still not something a writer makes.
    if (*self->p > 1)
        return s_fail (self, "boolean neither 0 nor 1");
    *value = *self->p++ == 1;
    return 0;
}

int
zs_avro_dec_long (zs_avro_dec_t *self, int64_t *value)
{
    uint64_t raw;
    if (s_get_varint (self, &raw) != 0)
        return -1;
    *value = zs_unzigzag (raw);
    return 0;
}

int
zs_avro_dec_int (zs_avro_dec_t *self, int32_t *value)
{
    int64_t v;
    if (zs_avro_dec_long (self, &v) != 0)
        return -1;
    if (v < INT32_MIN || v > INT32_MAX)
        return s_fail (self, "int out of range");
    *value = (int32_t) v;
    return 0;
}

static int
s_get_le (zs_avro_dec_t *self, int n, uint64_t *bits)
{
    if (self->error)
        return -1;
    if (self->end - self->p < n)
        return s_fail (self, n == 4 ? "truncated float" : "truncated double");
    *bits = 0;
    for (int i = 0; i < n; i++)
        *bits |= (uint64_t) self->p[i] << (8 * i);
    self->p += n;
    return 0;
}

int
zs_avro_dec_float (zs_avro_dec_t *self, float *value)
{
    uint64_t bits;
    if (s_get_le (self, 4, &bits) != 0)
        return -1;
    uint32_t b32 = (uint32_t) bits;
    memcpy (value, &b32, 4);
    return 0;
}

int
zs_avro_dec_double (zs_avro_dec_t *self, double *value)
{
    uint64_t bits;
    if (s_get_le (self, 8, &bits) != 0)
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
        return s_fail (self, "negative bytes/string length");
    if ((uint64_t) n > (uint64_t) (self->end - self->p))
        return s_fail (self, "bytes/string longer than the bytes left");
    *data = self->p;
    *len = (size_t) n;
    self->p += n;
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
    if (self->error)
        return -1;
    if (size > (size_t) (self->end - self->p))
        return s_fail (self, "truncated fixed");
    *data = self->p;
    self->p += size;
    return 0;
}

static int
s_get_index (zs_avro_dec_t *self, int n, int *index, const char *why)
{
    int64_t i;
    if (zs_avro_dec_long (self, &i) != 0)
        return -1;
    if (i < 0 || i >= n)
        return s_fail (self, why);
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
            return s_fail (self, "array/map block count out of range");
        n = -n;
        int64_t s;
        if (zs_avro_dec_long (self, &s) != 0)
            return -1;
        if (s < 0)
            return s_fail (self, "negative array/map block size");
        if ((uint64_t) s > (uint64_t) (self->end - self->p))
            return s_fail (self, "array/map block longer than the bytes left");
        if (n > s)
            return s_fail (self, "array/map block of more items than bytes");
        *size = s;
    }
    if ((uint64_t) n > (uint64_t) (self->end - self->p))
        return s_fail (self, "array/map block of more items than bytes left");
    *count = n;
    return 0;
}

int
zs_avro_dec_skip_bytes (zs_avro_dec_t *self, size_t n)
{
    if (self->error)
        return -1;
    if (n > (size_t) (self->end - self->p))
        return s_fail (self, "truncated");
    self->p += n;
    return 0;
}
