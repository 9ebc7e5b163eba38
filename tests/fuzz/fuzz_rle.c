/*  fuzz_rle.c - the RLE / bit-packed hybrid decoder (parquet_priv.h),
    which reads every definition level and dictionary index of a Parquet
    page; and its encoder, checked against it.

    Input: byte 0 picks the bit width (0…32), the rest is
    1. decoded as encoded runs (as a page's levels or indices), and
    2. taken as values (bytes, or little-endian 32-bit words for widths
       over 8, masked to the width), encoded, and decoded back.
    Properties, beyond "no crash, leak or UB" (ASan checks the decoder
    never reads outside its bytes):
    1. a bit-packed value fits the width;
    2. encode then decode gives back exactly the values, then (after the
       zero padding of the last group) the end.
*/
#include "fuzz_common.h"
#include "parquet_priv.h"

#define S_MAX_VALUES 8192 //  runs may stand for 2^63 values: stop early

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int width = data[0] % 33;
    const uint8_t *body = data + 1;
    size_t len = size - 1;
    uint64_t mask = (UINT64_C (1) << width) - 1;

    //  1: decode whatever the bytes say
    zs_pq_rle_dec_t dec;
    zs_pq_rle_dec_init (&dec, body, len, width);
    uint32_t v;
    for (int i = 0; i < S_MAX_VALUES && zs_pq_rle_dec_next (&dec, &v) == 0; i++)
        if (dec.packed)
            ZS_FUZZ_CHECK (v <= mask);

    //  2: round trip
    size_t n;
    uint8_t *u8 = NULL;
    uint32_t *u32 = NULL;
    if (width <= 8) {
        n = len;
        u8 = malloc (n ? n : 1);
        ZS_FUZZ_CHECK (u8 != NULL);
        for (size_t i = 0; i < n; i++)
            u8[i] = (uint8_t) (body[i] & mask);
    } else {
        n = len / 4;
        u32 = malloc ((n ? n : 1) * sizeof *u32);
        ZS_FUZZ_CHECK (u32 != NULL);
        for (size_t i = 0; i < n; i++) {
            uint32_t w;
            memcpy (&w, body + 4 * i, 4);
            u32[i] = (uint32_t) (w & mask);
        }
    }
    zs_pq_buf_t out;
    zs_pq_buf_init (&out);
    zs_pq_rle_encode (&out, u8, u32, n, width);
    ZS_FUZZ_CHECK (out.ok);
    //  No values: nothing was written and out.data is NULL. The decoder's
    //  NULL + 0 is UB in C (parquet.c, zs_pq_rle_dec_init); the reader
    //  never passes NULL, so neither does this.
    static const uint8_t none[1];
    zs_pq_rle_dec_init (&dec, out.data ? out.data : none, out.len, width);
    for (size_t i = 0; i < n; i++) {
        ZS_FUZZ_CHECK (zs_pq_rle_dec_next (&dec, &v) == 0);
        ZS_FUZZ_CHECK (v == (u8 ? u8[i] : u32[i]));
    }
    //  At most 7 padding zeros, then the end.
    int extra = 0;
    while (zs_pq_rle_dec_next (&dec, &v) == 0) {
        ZS_FUZZ_CHECK (v == 0);
        ZS_FUZZ_CHECK (++extra <= 7);
    }
    //  The CRC of pages: any bytes, and in two pieces the same as in one.
    size_t cut = len / 2;
    ZS_FUZZ_CHECK (zs_pq_crc32 (zs_pq_crc32 (0, body, cut), body + cut, len - cut)
                   == zs_pq_crc32 (0, body, len));
    zs_pq_buf_fini (&out);
    free (u8);
    free (u32);
    return 0;
}
