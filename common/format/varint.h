/*  varint.h - the integer spelling that Thrift's compact protocol, Avro and
    Parquet's RLE/bit-packed hybrid share: unsigned LEB128 varints (seven
    bits a byte, low bits first, the top bit set on every byte but the
    last) and zigzag for signed numbers. One reader serves every decoder:
    they refuse the same things (a varint cut short, one past 64 bits) and
    each says so in its own way (bytes.h: zs_cursor_varint).

    Static inline: the encoders call these once per value.
*/
#ifndef ZS_VARINT_H_INCLUDED
#define ZS_VARINT_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

//  Bytes a 64-bit varint takes at most.
#define ZS_VARINT_MAX 10

//  Write v as a varint at out, which has room for ZS_VARINT_MAX bytes.
//  Returns the bytes written.
static inline size_t
zs_varint_put (uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t) (v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t) v;
    return n;
}

//  What zs_varint_get refuses.
enum {
    ZS_VARINT_TRUNCATED = -1, //  the input ends inside the varint
    ZS_VARINT_TOO_LONG = -2,  //  more than 64 bits
};

//  Read a varint from [*p, end) into *value and move *p past it: 0, or
//  ZS_VARINT_* with *p where it was. At most 10 bytes make a 64-bit
//  varint, and the 10th holds only the top bit: anything longer or larger
//  is garbage, not a number to keep reading.
static inline int
zs_varint_get (const uint8_t **p, const uint8_t *end, uint64_t *value)
{
    const uint8_t *q = *p;
    uint64_t v = 0;
    for (int i = 0; i < ZS_VARINT_MAX; i++) {
        if (q >= end)
            return ZS_VARINT_TRUNCATED;
        uint8_t b = *q++;
        if (i == ZS_VARINT_MAX - 1 && b > 1)
            return ZS_VARINT_TOO_LONG;
        v |= (uint64_t) (b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            *value = v;
            *p = q;
            return 0;
        }
    }
    return ZS_VARINT_TOO_LONG; //  not reached: the 10th byte ends the loop
}

//  Zigzag maps small negative numbers to small unsigned ones (-1 -> 1,
//  1 -> 2) so that their varints stay short. Written without shifting a
//  negative number right, which C leaves to the implementation.
static inline uint64_t
zs_zigzag (int64_t v)
{
    return ((uint64_t) v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static inline int64_t
zs_unzigzag (uint64_t v)
{
    return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

#endif
