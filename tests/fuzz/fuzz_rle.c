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
    The delta decoders get the same bytes (width 4 or 8 by byte 0's low
    bit, prefixes or not by its next one):
    3. DELTA_BINARY_PACKED and DELTA_(LENGTH_)BYTE_ARRAY decode or refuse
       within their bounds; what decodes, encoded again, decodes to the same
       values;
    4. the bytes taken as INT32/INT64 values encode and decode back exactly.
*/
#include "fuzz_common.h"
#include "parquet_priv.h"

#define S_MAX_VALUES 8192 //  runs may stand for 2^63 values: stop early

//  Properties 3 and 4 (the delta encodings).
static void
s_delta (const uint8_t *body, size_t len, int width, bool prefixes)
{
    zs_pq_buf_t a, b, scratch;
    zs_pq_buf_init (&a);
    zs_pq_buf_init (&b);
    zs_pq_buf_init (&scratch);
    size_t n, n2;
    if (zs_pq_delta_decode (body, len, width, S_MAX_VALUES, &a, &n) == 0) {
        ZS_FUZZ_CHECK (a.len == n * (size_t) width);
        zs_pq_delta_encode (&b, a.data, n, width);
        ZS_FUZZ_CHECK (b.ok);
        zs_pq_buf_t c;
        zs_pq_buf_init (&c);
        ZS_FUZZ_CHECK (zs_pq_delta_decode (b.data, b.len, width, n, &c, &n2) == 0 && n2 == n);
        ZS_FUZZ_CHECK (n == 0 || memcmp (c.data, a.data, a.len) == 0);
        zs_pq_buf_fini (&c);
    }
    zs_bytes_reset (&a);
    zs_bytes_reset (&b);
    if (zs_pq_dba_decode (body, len, prefixes, S_MAX_VALUES, 1 << 20, &a, &scratch, &n) == 0) {
        zs_pq_dba_encode (&b, a.data, n, prefixes, &scratch);
        ZS_FUZZ_CHECK (b.ok);
        zs_pq_buf_t c;
        zs_pq_buf_init (&c);
        ZS_FUZZ_CHECK (zs_pq_dba_decode (b.data, b.len, prefixes, n, 1 << 20, &c, &scratch, &n2)
                           == 0
                       && n2 == n && c.len == a.len);
        ZS_FUZZ_CHECK (n == 0 || memcmp (c.data, a.data, a.len) == 0);
        zs_pq_buf_fini (&c);
    }
    //  4: the bytes as values
    n = len / (size_t) width;
    zs_bytes_reset (&a);
    zs_bytes_reset (&b);
    zs_pq_delta_encode (&a, body, n, width);
    ZS_FUZZ_CHECK (a.ok);
    ZS_FUZZ_CHECK (zs_pq_delta_decode (a.data, a.len, width, n, &b, &n2) == 0 && n2 == n);
    ZS_FUZZ_CHECK (n == 0 || memcmp (b.data, body, n * (size_t) width) == 0);
    zs_pq_buf_fini (&a);
    zs_pq_buf_fini (&b);
    zs_pq_buf_fini (&scratch);
}

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
    s_delta (body, len, data[0] & 1 ? 8 : 4, data[0] & 2);
    return 0;
}
