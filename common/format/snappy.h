/*  snappy.h - decompression of Snappy's raw block format, as Parquet pages
    (SNAPPY codec) and Avro blocks (the "snappy" codec, with a CRC after
    it) carry it. No compressor: zsink writes zstd.

    A block is a varint uncompressed length, then elements: a literal
    (tag & 3 == 0) or a copy of earlier output (1: 1-byte offset, 2: 2-byte,
    3: 4-byte). Both functions read only [src, src + n) and write only
    [dst, dst + dst_len), whatever the input.
*/
#ifndef ZS_SNAPPY_H_INCLUDED
#define ZS_SNAPPY_H_INCLUDED

#include "zs.h"

//  The uncompressed length a block announces, into *len: 0, or -1 when the
//  varint is truncated or longer than 5 bytes.
int zs_snappy_length (const uint8_t *src, size_t n, size_t *len);

//  Decompress a block whose output must come out exactly dst_len long
//  (the announced length too). 0, or -1 when the block is corrupt.
int zs_snappy_decompress (const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len);

#endif
