/*  snappy.c - Snappy raw block decompression (snappy.h). Moved here from
    parquet_read.c so that the Avro reader can share it; behaviour is
    unchanged.
*/
#include "snappy.h"
#include <string.h>

//  The length varint: at most 5 bytes (32 bits and a little), so a
//  hostile one cannot announce more than a size_t holds.
static const uint8_t *
s_length (const uint8_t *p, const uint8_t *end, uint64_t *len)
{
    *len = 0;
    for (int shift = 0;; shift += 7) {
        if (p >= end || shift > 28)
            return NULL;
        uint8_t b = *p++;
        *len |= (uint64_t) (b & 0x7F) << shift;
        if (!(b & 0x80))
            return p;
    }
}

int
zs_snappy_length (const uint8_t *src, size_t n, size_t *len)
{
    uint64_t l;
    if (!s_length (src, src + n, &l))
        return -1;
    *len = (size_t) l;
    return 0;
}

int
zs_snappy_decompress (const uint8_t *src, size_t n, uint8_t *dst, size_t dst_len)
{
    const uint8_t *end = src + n;
    uint64_t len;
    const uint8_t *p = s_length (src, end, &len);
    if (!p || len != dst_len)
        return -1;
    size_t o = 0;
    while (p < end) {
        uint8_t tag = *p++;
        size_t l, off;
        switch (tag & 3) {
        case 0:
            l = tag >> 2;
            if (l >= 60) {
                size_t nb = l - 59;
                if ((size_t) (end - p) < nb)
                    return -1;
                l = 0;
                for (size_t i = 0; i < nb; i++)
                    l |= (size_t) p[i] << (8 * i);
                p += nb;
            }
            l += 1;
            if (l > (size_t) (end - p) || l > dst_len - o)
                return -1;
            memcpy (dst + o, p, l);
            o += l;
            p += l;
            continue;
        case 1:
            if (p >= end)
                return -1;
            l = 4 + ((tag >> 2) & 7);
            off = (size_t) (tag >> 5) << 8 | *p++;
            break;
        case 2:
            if (end - p < 2)
                return -1;
            l = (size_t) (tag >> 2) + 1;
            off = (size_t) p[0] | (size_t) p[1] << 8;
            p += 2;
            break;
        default:
            if (end - p < 4)
                return -1;
            l = (size_t) (tag >> 2) + 1;
            off = (size_t) p[0] | (size_t) p[1] << 8 | (size_t) p[2] << 16 | (size_t) p[3] << 24;
            p += 4;
            break;
        }
        if (off == 0 || off > o || l > dst_len - o)
            return -1;
        if (off >= l)
            memcpy (dst + o, dst + o - off, l);
        else //  overlapping: a repeating pattern, byte by byte
            for (size_t i = 0; i < l; i++)
                dst[o + i] = dst[o - off + i];
        o += l;
    }
    return o == dst_len ? 0 : -1;
}
