/*  varint.h - the integer spelling that Thrift's compact protocol, Avro and
    Parquet's RLE/bit-packed hybrid share: unsigned LEB128 varints (seven
    bits a byte, low bits first, the top bit set on every byte but the
    last) and zigzag for signed numbers. Encoding only, and the zigzag
    inverse: each decoder keeps its own varint reader, since they differ in
    what they refuse and how they say so.

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
