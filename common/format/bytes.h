/*  bytes.h - what every binary format here is written into and read
    with: a growable output buffer (zs_bytes_t), which the Avro and Thrift
    encoders and the Parquet writer's pages fill, and a bounds-checked
    input cursor (zs_cursor_t), which the Avro and Thrift decoders read
    with; and little-endian integers at a pointer.

    zs_bytes_t never fails midway: an allocation failure is sticky (ok ==
    false), every write after it is dropped, and whoever uses the bytes
    checks ok once. It grows by doubling (zs_grow): appends are amortised
    O(1).

    zs_cursor_t reads caller-owned bytes [start, end) at p, and keeps two
    invariants its users build on:
    1. p never moves past end: a read that needs more bytes than are left
       fails before touching them.
    2. Once error is set it stays set and every read fails, so callers may
       check once, at the end of a datum. Errors are static strings.

    All of it is static inline: encoders call the writers once per value,
    on the hot path of Parquet writing, and the common case (room in the
    buffer, bytes in the input) is a compare and a store. Header only, so
    that whatever compiles a format module gets it (the fuzz build lists
    its sources one by one).
*/
#ifndef ZS_BYTES_H_INCLUDED
#define ZS_BYTES_H_INCLUDED

#include "zs.h"
#include "varint.h"
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------------
//  Little endian at a pointer: the low n bytes of v (n <= 8).

static inline void
zs_le_put (uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t) (v >> (8 * i));
}

static inline uint64_t
zs_le_get (const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t) p[i] << (8 * i);
    return v;
}

//  --------------------------------------------------------------------------
//  Output buffer. A value type: zs_bytes_init, write, use data[0..len),
//  zs_bytes_reset to reuse the memory, zs_bytes_fini to free it. A zeroed
//  one with ok set is an empty buffer.

typedef struct {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool ok; //  false once an allocation failed; everything after is dropped
} zs_bytes_t;

//  Smallest allocation: most Thrift headers and Avro objects fit, and
//  doubling from here reaches a page's megabyte in a dozen steps.
#define ZS_BYTES_FIRST_CAP 256

static inline void
zs_bytes_init (zs_bytes_t *self)
{
    memset (self, 0, sizeof *self);
    self->ok = true;
}

//  Empty again, keeping the memory; ok again too.
static inline void
zs_bytes_reset (zs_bytes_t *self)
{
    self->len = 0;
    self->ok = true;
}

static inline void
zs_bytes_fini (zs_bytes_t *self)
{
    free (self->data);
    memset (self, 0, sizeof *self);
}

//  zs_bytes_reserve's slow half: grows data, or fails for good.
static inline bool
zs_bytes_grow (zs_bytes_t *self, size_t n)
{
    if (!self->ok)
        return false;
    uint8_t *data = zs_grow (self->data, &self->cap, self->len, n, ZS_BYTES_FIRST_CAP);
    if (!data)
        return self->ok = false;
    self->data = data;
    return true;
}

//  Room for n more bytes: data + len is writable for n bytes. false (and
//  ok false from then on) when out of memory, or when ok was false.
static inline bool
zs_bytes_reserve (zs_bytes_t *self, size_t n)
{
    if (self->ok && n <= self->cap - self->len)
        return true;
    return zs_bytes_grow (self, n);
}

//  Append len bytes (data may be NULL when len is 0).
static inline void
zs_bytes_put (zs_bytes_t *self, const void *data, size_t len)
{
    if (len && zs_bytes_reserve (self, len)) {
        memcpy (self->data + self->len, data, len);
        self->len += len;
    }
}

static inline void
zs_bytes_put_byte (zs_bytes_t *self, uint8_t byte)
{
    if (zs_bytes_reserve (self, 1))
        self->data[self->len++] = byte;
}

static inline void
zs_bytes_put_varint (zs_bytes_t *self, uint64_t v)
{
    if (zs_bytes_reserve (self, ZS_VARINT_MAX))
        self->len += zs_varint_put (self->data + self->len, v);
}

//  The low n bytes of v, little endian (n <= 8).
static inline void
zs_bytes_put_le (zs_bytes_t *self, uint64_t v, int n)
{
    if (n > 0 && zs_bytes_reserve (self, (size_t) n)) {
        zs_le_put (self->data + self->len, v, n);
        self->len += (size_t) n;
    }
}

//  --------------------------------------------------------------------------
//  Input cursor over caller-owned bytes (not copied). Every read returns
//  0, or -1 with error set (invariant 2).

typedef struct {
    const uint8_t *start;
    const uint8_t *p;
    const uint8_t *end;
    const char *error; //  NULL while all is well
} zs_cursor_t;

//  data may be NULL when len is 0.
static inline void
zs_cursor_init (zs_cursor_t *self, const void *data, size_t len)
{
    self->start = data;
    self->p = data;
    //  NULL + 0 is undefined behaviour in C; an empty input may be NULL.
    self->end = data ? self->p + len : self->p;
    self->error = NULL;
}

//  Bytes consumed so far, and bytes not yet read.
static inline size_t
zs_cursor_offset (const zs_cursor_t *self)
{
    return (size_t) (self->p - self->start);
}

static inline size_t
zs_cursor_left (const zs_cursor_t *self)
{
    return (size_t) (self->end - self->p);
}

//  Fail for why: error is set (unless it was already) and sticks. -1.
static inline int
zs_cursor_fail (zs_cursor_t *self, const char *why)
{
    if (!self->error)
        self->error = why;
    return -1;
}

//  The next n bytes: *data points at them (unless data is NULL: a skip)
//  and p moves past them; fails with why when fewer are left.
static inline int
zs_cursor_take (zs_cursor_t *self, uint64_t n, const uint8_t **data, const char *why)
{
    if (self->error)
        return -1;
    if (n > zs_cursor_left (self))
        return zs_cursor_fail (self, why);
    if (data)
        *data = self->p;
    self->p += n;
    return 0;
}

//  One byte; fails with why at the end of the input.
static inline int
zs_cursor_byte (zs_cursor_t *self, uint8_t *byte, const char *why)
{
    const uint8_t *b;
    if (zs_cursor_take (self, 1, &b, why) != 0)
        return -1;
    *byte = *b;
    return 0;
}

//  n bytes little endian (n <= 8); fails with why when fewer are left.
static inline int
zs_cursor_le (zs_cursor_t *self, int n, uint64_t *value, const char *why)
{
    const uint8_t *b;
    if (zs_cursor_take (self, (uint64_t) n, &b, why) != 0)
        return -1;
    *value = zs_le_get (b, n);
    return 0;
}

//  An unsigned varint (varint.h), refused when cut short or longer than
//  64 bits.
static inline int
zs_cursor_varint (zs_cursor_t *self, uint64_t *value)
{
    if (self->error)
        return -1;
    int rc = zs_varint_get (&self->p, self->end, value);
    if (rc == ZS_VARINT_TRUNCATED)
        return zs_cursor_fail (self, "truncated varint");
    if (rc != 0)
        return zs_cursor_fail (self, "varint longer than 64 bits");
    return 0;
}

//  A zigzag varint (varint.h): a signed number.
static inline int
zs_cursor_zigzag (zs_cursor_t *self, int64_t *value)
{
    uint64_t raw;
    if (zs_cursor_varint (self, &raw) != 0)
        return -1;
    *value = zs_unzigzag (raw);
    return 0;
}

//  --------------------------------------------------------------------------
//  DECIMAL unscaled values as big-endian two's complement bytes (Parquet's
//  FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals, Java's
//  BigInteger.toByteArray in a BinaryRow).

//  The fewest bytes that hold x signed (BigInteger.toByteArray's length).
static inline int
zs_dec_min_bytes (__int128 x)
{
    int n = 1;
    while (n < 16) {
        __int128 lim = (__int128) 1 << (8 * n - 1);
        if (x >= -lim && x < lim)
            break;
        n++;
    }
    return n;
}

//  x into out[0..n) big endian (sign extended).
static inline void
zs_dec_put_be (uint8_t *out, int n, __int128 x)
{
    for (int i = n - 1; i >= 0; i--) {
        out[i] = (uint8_t) x;
        x >>= 8; //  arithmetic: the sign fills in
    }
}

//  n big-endian bytes (1..16) as a signed number.
static inline __int128
zs_dec_get_be (const uint8_t *p, size_t n)
{
    __int128 x = (p[0] & 0x80) ? -1 : 0;
    for (size_t i = 0; i < n; i++)
        x = (__int128) ((unsigned __int128) x << 8) | p[i];
    return x;
}

#endif
