/*  parquet.c - what the Parquet writer and reader share: options, names,
    the RLE/bit-packed hybrid and statistics arithmetic.
    The writer is parquet_write.c, the reader parquet_read.c.
*/
#include "parquet_priv.h"
#include "varint.h"
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
zs_parquet_options_defaults (zs_parquet_options_t *opts)
{
    opts->row_group_rows = 131072;
    opts->compression = ZS_COMPRESSION_ZSTD;
    opts->zstd_level = 1;
    //  Not Paimon's 1 MiB: zstd picks its parameters by input size, and
    //  level 1 takes 6-byte matches up to 256 KiB but only 7-byte ones
    //  beyond, missing the repeats of nearby 8-byte numbers (timestamps,
    //  prices). docs/decisions.md, "The writer's CPU".
    opts->page_bytes = 256 << 10;
    opts->dictionary = true;
    //  DELTA_BINARY_PACKED integers: ids and timestamps shrink to a few
    //  bits a row before zstd sees them (docs/decisions.md, "DELTA_BINARY_PACKED").
    opts->delta = true;
}

const char *
zs_pq_codec_name (int codec)
{
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                        "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    return codec >= 0 && codec < 8 ? names[codec] : "unknown";
}

const char *
zs_pq_encoding_name (int encoding)
{
    static const char *const names[] = {
        "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
        "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
        "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
    return encoding >= 0 && encoding < 10 ? names[encoding] : "unknown";
}

const char *
zs_pq_type_name (int ptype)
{
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return ptype >= 0 && ptype < 8 ? names[ptype] : "unknown";
}

int
zs_pq_decimal_bytes (int precision)
{
    //  ParquetSchemaConverter.computeMinBytesForDecimalPrecision: the
    //  fewest bytes whose signed range holds 10^p - 1.
    int n = 1;
    while (n < 16 && ((__int128) 1 << (8 * n - 1)) < zs_pow10 (precision))
        n++;
    return n;
}

int
zs_pq_physical_type (const zs_column_t *col)
{
    switch (col->type) {
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  groups, not leaves: their leaves have types (parquet_nested.c)
        return -1;
    case ZS_TYPE_BOOLEAN:
        return ZS_PQ_BOOLEAN;
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
    case ZS_TYPE_TIME:
        return ZS_PQ_INT32;
    case ZS_TYPE_BIGINT:
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
        return ZS_PQ_INT64;
    case ZS_TYPE_TIMESTAMP9:
        return ZS_PQ_INT96;
    case ZS_TYPE_DECIMAL: {
        int p = zs_column_precision (col);
        return p <= 9 ? ZS_PQ_INT32 : p <= 18 ? ZS_PQ_INT64 : ZS_PQ_FIXED_LEN_BYTE_ARRAY;
    }
    case ZS_TYPE_FLOAT:
        return ZS_PQ_FLOAT;
    case ZS_TYPE_DOUBLE:
        return ZS_PQ_DOUBLE;
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY:
        return ZS_PQ_BYTE_ARRAY;
    }
    return -1;
}

int
zs_pq_column_width (const zs_column_t *col)
{
    int ptype = zs_pq_physical_type (col);
    if (ptype == ZS_PQ_FIXED_LEN_BYTE_ARRAY)
        return zs_pq_decimal_bytes (zs_column_precision (col));
    if (ptype == ZS_PQ_INT96)
        return 12;
    return zs_pq_value_width (ptype);
}

int
zs_pq_err (char *err, size_t errlen, const char *fmt, ...)
{
    va_list args;
    va_start (args, fmt);
    vsnprintf (err, errlen, fmt, args);
    va_end (args);
    return -1;
}

//  --------------------------------------------------------------------------
//  RLE / bit-packed hybrid

static inline uint32_t
s_get (const uint8_t *u8, const uint32_t *u32, size_t i)
{
    return u8 ? u8[i] : u32[i];
}

//  Values [start, start + count) as one bit-packed run, count rounded up to
//  groups of 8 with zeros past n. Header: varint(groups << 1 | 1). Values
//  are packed LSB first: value i occupies bits i*width … i*width+width-1
//  of the run, so a group of 8 values is exactly `width` bytes.
static void
s_put_packed (zs_bytes_t *out, const uint8_t *u8, const uint32_t *u32, size_t n, size_t start,
              size_t count, int width)
{
    if (count == 0)
        return;
    size_t groups = (count + 7) / 8;
    zs_bytes_put_varint (out, (uint64_t) groups << 1 | 1);
    if (!zs_bytes_reserve (out, groups * (size_t) width))
        return;
    uint8_t *o = out->data + out->len;
    uint64_t acc = 0;
    int bits = 0;
    size_t end = start + groups * 8;
    for (size_t i = start; i < end; i++) {
        acc |= (uint64_t) (i < n ? s_get (u8, u32, i) : 0) << bits;
        bits += width;
        while (bits >= 8) {
            *o++ = (uint8_t) acc;
            acc >>= 8;
            bits -= 8;
        }
    }
    out->len = (size_t) (o - out->data);
}

//  An RLE run: varint(count << 1), then the value in ceil(width / 8)
//  little-endian bytes.
static void
s_put_run (zs_bytes_t *out, uint32_t value, size_t count, int width)
{
    zs_bytes_put_varint (out, (uint64_t) count << 1);
    zs_bytes_put_le (out, value, (width + 7) / 8);
}

void
zs_pq_rle_encode (zs_bytes_t *out, const uint8_t *u8, const uint32_t *u32, size_t n, int width)
{
    //  [bp_start, i) are values waiting to go out bit-packed. A bit-packed
    //  run other than the last must hold a multiple of 8 values, so a long
    //  repeat lends the waiting values the few it takes to round them up.
    size_t i = 0, bp_start = 0;
    while (i < n) {
        uint32_t v = s_get (u8, u32, i);
        size_t run = 1;
        while (i + run < n && s_get (u8, u32, i + run) == v)
            run++;
        if (run >= 8) {
            size_t waiting = i - bp_start;
            size_t pad = (8 - waiting % 8) % 8;
            if (run - pad >= 8) {
                s_put_packed (out, u8, u32, n, bp_start, waiting + pad, width);
                s_put_run (out, v, run - pad, width);
                i += run;
                bp_start = i;
                continue;
            }
        }
        i += run;
    }
    s_put_packed (out, u8, u32, n, bp_start, n - bp_start, width);
}

void
zs_pq_rle_dec_init (zs_pq_rle_dec_t *self, const uint8_t *data, size_t len, int width)
{
    memset (self, 0, sizeof *self);
    self->p = data;
    self->end = data ? data + len : data; //  NULL + 0 is undefined in C
    self->width = width;
}

//  Runs are decoded lazily, one value a call: a page's levels and indices
//  are read in step with its values, never expanded into an array.
int
zs_pq_rle_dec_next (zs_pq_rle_dec_t *self, uint32_t *value)
{
    int width = self->width;
    //  Each pass consumes at least the header byte: garbage cannot loop.
    while (self->run_left == 0) {
        uint64_t header;
        if (zs_varint_get (&self->p, self->end, &header) != 0)
            return -1;
        if (header & 1) {
            uint64_t groups = header >> 1;
            //  width 0 (one distinct value) takes no bytes however many
            //  groups: only the multiplication below must not overflow
            if (width ? groups > (uint64_t) (self->end - self->p) / (uint64_t) width
                      : groups > UINT64_MAX / 8)
                return -1;
            self->packed = true;
            self->bp = self->p;
            self->bit = 0;
            self->run_left = groups * 8;
            self->p += groups * (uint64_t) width;
        } else {
            int nbytes = (width + 7) / 8;
            if (self->end - self->p < nbytes)
                return -1;
            self->value = (uint32_t) zs_le_get (self->p, nbytes);
            self->p += nbytes;
            self->packed = false;
            self->run_left = header >> 1;
        }
    }
    self->run_left--;
    if (!self->packed) {
        *value = self->value;
        return 0;
    }
    //  The run holds run_left + 1 more values: bit + width stays inside it.
    size_t byte = (size_t) (self->bit >> 3);
    int shift = (int) (self->bit & 7);
    int need = (shift + width + 7) / 8;
    uint64_t acc = 0;
    for (int k = 0; k < need; k++)
        acc |= (uint64_t) self->bp[byte + (size_t) k] << (8 * k);
    self->bit += (uint64_t) width;
    *value = width ? (uint32_t) ((acc >> shift) & ((UINT64_C (1) << width) - 1)) : 0;
    return 0;
}

//  --------------------------------------------------------------------------
//  DELTA_BINARY_PACKED (Encodings.md)
//
//  Header: block size (128), miniblocks per block (4), value count, first
//  value (zigzag); then per block of 128 deltas: the least delta
//  (zigzag), one bit width byte per miniblock, and the miniblocks' deltas
//  less the least one, bit-packed LSB first, 32 to a miniblock. Deltas
//  are taken in the type's own width with wrap-around (INT64_MIN after
//  INT64_MAX is a delta of 1): the spec's arithmetic, which every reader
//  undoes the same way.

#define S_DBP_BLOCK 128
#define S_DBP_MINIS 4
#define S_DBP_MINI (S_DBP_BLOCK / S_DBP_MINIS)

static inline int64_t
s_dbp_value (const uint8_t *vals, size_t i, int width)
{
    if (width == 4) {
        int32_t v;
        memcpy (&v, vals + i * 4, 4);
        return v;
    }
    int64_t v;
    memcpy (&v, vals + i * 8, 8);
    return v;
}

//  32 values of width bits, LSB first: exactly 4 * width bytes at o.
static uint8_t *
s_dbp_pack (uint8_t *o, const uint64_t *x, int width)
{
    if (width == 0)
        return o;
    //  acc holds bits (< 64) not yet stored; a value that fills it spills
    //  its high bits into the next word.
    uint64_t acc = 0;
    int bits = 0;
    for (int i = 0; i < S_DBP_MINI; i++) {
        acc |= x[i] << bits;
        if (bits + width >= 64) {
            memcpy (o, &acc, 8);
            o += 8;
            acc = bits ? x[i] >> (64 - bits) : 0;
            bits = bits + width - 64;
        } else
            bits += width;
    }
    //  32 * width bits: whole 64-bit words but for 32 bits when width is odd
    if (bits) {
        uint32_t w = (uint32_t) acc;
        memcpy (o, &w, 4);
        o += 4;
    }
    return o;
}

//  One block: deltas d[0..n) (n <= 128) as zigzag least delta, 4 widths,
//  and the miniblocks that hold deltas (the last one padded with zeros).
static uint8_t *
s_dbp_block (uint8_t *o, const int64_t *d, size_t n)
{
    int64_t min = d[0];
    for (size_t i = 1; i < n; i++)
        min = d[i] < min ? d[i] : min;
    o += zs_varint_put (o, zs_zigzag (min));
    uint8_t *widths = o;
    o += S_DBP_MINIS;
    for (int m = 0; m < S_DBP_MINIS; m++) {
        size_t from = (size_t) m * S_DBP_MINI;
        if (from >= n) {
            widths[m] = 0; //  not needed: no bytes follow for it
            continue;
        }
        uint64_t x[S_DBP_MINI], any = 0;
        for (size_t i = 0; i < S_DBP_MINI; i++) {
            x[i] = from + i < n ? (uint64_t) d[from + i] - (uint64_t) min : 0;
            any |= x[i];
        }
        int width = any ? 64 - __builtin_clzll (any) : 0;
        widths[m] = (uint8_t) width;
        o = s_dbp_pack (o, x, width);
    }
    return o;
}

void
zs_pq_delta_encode (zs_bytes_t *out, const uint8_t *vals, size_t n, int width)
{
    size_t blocks = n > 1 ? (n - 2) / S_DBP_BLOCK + 1 : 0;
    size_t most = 4 * ZS_VARINT_MAX + blocks * (ZS_VARINT_MAX + S_DBP_MINIS + S_DBP_BLOCK * 8);
    if (!zs_bytes_reserve (out, most))
        return;
    uint8_t *o = out->data + out->len;
    o += zs_varint_put (o, S_DBP_BLOCK);
    o += zs_varint_put (o, S_DBP_MINIS);
    o += zs_varint_put (o, n);
    int64_t prev = n ? s_dbp_value (vals, 0, width) : 0;
    o += zs_varint_put (o, zs_zigzag (prev));
    int64_t d[S_DBP_BLOCK];
    for (size_t i = 1; i < n;) {
        size_t k = n - i < S_DBP_BLOCK ? n - i : S_DBP_BLOCK;
        //  in the type's width, wrapping: an INT32 delta stays an int32
        if (width == 4)
            for (size_t j = 0; j < k; j++) {
                int32_t v;
                memcpy (&v, vals + (i + j) * 4, 4);
                d[j] = (int32_t) ((uint32_t) v - (uint32_t) prev);
                prev = v;
            }
        else
            for (size_t j = 0; j < k; j++) {
                int64_t v;
                memcpy (&v, vals + (i + j) * 8, 8);
                d[j] = (int64_t) ((uint64_t) v - (uint64_t) prev);
                prev = v;
            }
        i += k;
        o = s_dbp_block (o, d, k);
    }
    out->len = (size_t) (o - out->data);
}

//  n values of width bits, LSB first, from p[0..avail) (at least
//  ceil(n * width / 8) bytes), each added to the running value and stored
//  in vwidth bytes at out.
static void
s_dbp_unpack (const uint8_t *p, size_t avail, size_t n, int width, uint64_t min, uint64_t *prev,
              uint8_t *out, int vwidth)
{
    uint64_t mask = width == 64 ? UINT64_MAX : (UINT64_C (1) << width) - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t bit = (uint64_t) i * (uint64_t) width, x = 0;
        size_t byte = (size_t) (bit >> 3);
        int shift = (int) (bit & 7);
        if (width && shift + width <= 64 && byte + 8 <= avail) {
            memcpy (&x, p + byte, 8); //  the common case: one load
            x = (x >> shift) & mask;
        } else if (width) {
            size_t need = ((size_t) shift + (size_t) width + 7) / 8;
            unsigned __int128 acc = 0;
            for (size_t k = 0; k < need; k++)
                acc |= (unsigned __int128) p[byte + k] << (8 * k);
            x = (uint64_t) (acc >> shift) & mask;
        }
        *prev += min + x;
        if (vwidth == 4) {
            uint32_t v = (uint32_t) *prev;
            memcpy (out + i * 4, &v, 4);
        } else
            memcpy (out + i * 8, prev, 8);
    }
}

//  zs_pq_delta_decode, and *used the bytes the values took (where the
//  next stream of a DELTA_BYTE_ARRAY page starts).
static int
s_dbp_decode (const uint8_t *data, size_t len, int width, size_t max_values, zs_bytes_t *out,
              size_t *count, size_t *used)
{
    const uint8_t *p = data, *end = data + len;
    uint64_t block, minis, n, first;
    if (zs_varint_get (&p, end, &block) != 0 || zs_varint_get (&p, end, &minis) != 0
        || zs_varint_get (&p, end, &n) != 0 || zs_varint_get (&p, end, &first) != 0)
        return -1;
    //  The spec's shape: blocks a multiple of 128, miniblocks of a multiple
    //  of 32 values; a count the page cannot hold is corrupt.
    if (block == 0 || block % 128 || block > 1 << 20 || minis == 0 || block % minis
        || (block / minis) % 32 || n > max_values)
        return -1;
    size_t mini = (size_t) (block / minis);
    if (n && !zs_bytes_reserve (out, (size_t) n * (size_t) width))
        return -1;
    uint8_t *o = n ? out->data + out->len : NULL;
    uint64_t prev = (uint64_t) zs_unzigzag (first);
    if (n > 0)
        zs_le_put (o, prev, width);
    size_t done = n ? 1 : 0;
    while (done < n) {
        uint64_t zmin;
        if (zs_varint_get (&p, end, &zmin) != 0 || (uint64_t) (end - p) < minis)
            return -1;
        uint64_t min = (uint64_t) zs_unzigzag (zmin);
        const uint8_t *widths = p;
        p += minis;
        for (uint64_t m = 0; m < minis && done < n; m++) {
            int w = widths[m];
            if (w > 8 * width)
                return -1;
            size_t take = n - done < mini ? (size_t) (n - done) : mini;
            size_t need = (take * (size_t) w + 7) / 8, full = mini * (size_t) w / 8;
            if ((size_t) (end - p) < need)
                return -1;
            s_dbp_unpack (p, (size_t) (end - p), take, w, min, &prev, o + done * (size_t) width,
                          width);
            done += take;
            //  a miniblock is padded to its full size; the last may be cut
            p += (size_t) (end - p) < full ? (size_t) (end - p) : full;
        }
    }
    out->len += (size_t) n * (size_t) width;
    *count = (size_t) n;
    *used = (size_t) (p - data);
    return 0;
}

int
zs_pq_delta_decode (const uint8_t *data, size_t len, int width, size_t max_values, zs_bytes_t *out,
                    size_t *count)
{
    size_t used;
    return s_dbp_decode (data, len, width, max_values, out, count, &used);
}

//  --------------------------------------------------------------------------
//  DELTA_BYTE_ARRAY and DELTA_LENGTH_BYTE_ARRAY (Encodings.md)
//
//  DELTA_BYTE_ARRAY: the prefix each value shares with the one before
//  (DELTA_BINARY_PACKED lengths), then the suffixes as
//  DELTA_LENGTH_BYTE_ARRAY: their lengths (DELTA_BINARY_PACKED), then
//  their bytes one after another. Names, keys and URLs that share their
//  start keep only what differs.

static inline uint32_t
s_rd32 (const uint8_t *p)
{
    uint32_t v;
    memcpy (&v, p, 4);
    return v;
}

//  Bytes a and b share from their start, at most n.
static inline uint32_t
s_common (const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint32_t k = 0;
    while (k + 8 <= n) {
        uint64_t x, y;
        memcpy (&x, a + k, 8);
        memcpy (&y, b + k, 8);
        if (x != y)
            return k + (uint32_t) (__builtin_ctzll (x ^ y) >> 3);
        k += 8;
    }
    while (k < n && a[k] == b[k])
        k++;
    return k;
}

void
zs_pq_dba_encode (zs_bytes_t *out, const uint8_t *plain, size_t n, bool prefixes,
                  zs_bytes_t *scratch)
{
    scratch->len = 0;
    if (!zs_bytes_reserve (scratch, 2 * 4 * n + 1)) {
        scratch->ok = true;
        out->ok = false; //  the caller sees out of memory
        return;
    }
    uint8_t *pre = scratch->data, *suf = scratch->data + 4 * n;
    const uint8_t *prev = NULL;
    uint32_t prev_len = 0;
    size_t pos = 0, bytes = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t len = s_rd32 (plain + pos);
        const uint8_t *v = plain + pos + 4;
        uint32_t k = prefixes && prev ? s_common (prev, v, len < prev_len ? len : prev_len) : 0;
        uint32_t rest = len - k;
        memcpy (pre + 4 * i, &k, 4);
        memcpy (suf + 4 * i, &rest, 4);
        bytes += rest;
        prev = v;
        prev_len = len;
        pos += 4 + (size_t) len;
    }
    if (prefixes)
        zs_pq_delta_encode (out, pre, n, 4);
    zs_pq_delta_encode (out, suf, n, 4);
    if (!zs_bytes_reserve (out, bytes))
        return;
    uint8_t *o = out->data + out->len;
    pos = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t len = s_rd32 (plain + pos), k = s_rd32 (pre + 4 * i);
        if (len > k) {
            memcpy (o, plain + pos + 4 + k, len - k);
            o += len - k;
        }
        pos += 4 + (size_t) len;
    }
    out->len = (size_t) (o - out->data);
}

int
zs_pq_dba_decode (const uint8_t *data, size_t len, bool prefixes, size_t max_values,
                  size_t max_bytes, zs_bytes_t *out, zs_bytes_t *scratch, size_t *count)
{
    const uint8_t *p = data, *end = data + len;
    size_t n = 0, n2 = 0, used;
    scratch->len = 0;
    if (prefixes) {
        if (s_dbp_decode (p, len, 4, max_values, scratch, &n, &used) != 0)
            return -1;
        p += used;
    }
    size_t at = scratch->len; //  the suffix lengths start here
    if (s_dbp_decode (p, (size_t) (end - p), 4, max_values, scratch, &n2, &used) != 0
        || (prefixes && n2 != n))
        return -1;
    p += used;
    n = n2;
    size_t start = out->len, prev = 0; //  prev: the last value's offset in out
    for (size_t i = 0; i < n; i++) {
        int32_t k = prefixes ? (int32_t) s_rd32 (scratch->data + 4 * i) : 0;
        int32_t rest = (int32_t) s_rd32 (scratch->data + at + 4 * i);
        uint32_t prev_len = i ? s_rd32 (out->data + prev) : 0;
        if (k < 0 || rest < 0 || (uint32_t) k > prev_len || (size_t) rest > (size_t) (end - p)
            || (uint64_t) k + (uint64_t) rest > UINT32_MAX
            || out->len - start + 4 + (size_t) k + (size_t) rest > max_bytes
            || !zs_bytes_reserve (out, 4 + (size_t) k + (size_t) rest))
            return -1;
        uint32_t vlen = (uint32_t) k + (uint32_t) rest;
        uint8_t *o = out->data + out->len;
        memcpy (o, &vlen, 4);
        if (k)
            memcpy (o + 4, out->data + prev + 4, (size_t) k); //  reserve may have moved it
        if (rest)
            memcpy (o + 4 + k, p, (size_t) rest);
        p += rest;
        prev = out->len;
        out->len += 4 + (size_t) vlen;
    }
    *count = n;
    return 0;
}

//  --------------------------------------------------------------------------
//  CRC-32, slice by 8: eight bytes a step through eight tables, so that
//  checksumming pages costs little next to compressing them.

static uint32_t s_crc_table[8][256];
static pthread_once_t s_crc_once = PTHREAD_ONCE_INIT;

static void
s_crc_init (void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        s_crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) {
            uint32_t c = s_crc_table[t - 1][i];
            s_crc_table[t][i] = s_crc_table[0][c & 0xFF] ^ (c >> 8);
        }
}

uint32_t
zs_pq_crc32 (uint32_t crc, const void *data, size_t len)
{
    pthread_once (&s_crc_once, s_crc_init);
    const uint8_t *p = data;
    uint32_t c = ~crc;
    while (len >= 8) {
        uint32_t lo, hi;
        memcpy (&lo, p, 4);
        memcpy (&hi, p + 4, 4);
        lo ^= c;
        c = s_crc_table[7][lo & 0xFF] ^ s_crc_table[6][(lo >> 8) & 0xFF]
            ^ s_crc_table[5][(lo >> 16) & 0xFF] ^ s_crc_table[4][lo >> 24]
            ^ s_crc_table[3][hi & 0xFF] ^ s_crc_table[2][(hi >> 8) & 0xFF]
            ^ s_crc_table[1][(hi >> 16) & 0xFF] ^ s_crc_table[0][hi >> 24];
        p += 8;
        len -= 8;
    }
    while (len--)
        c = s_crc_table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}

//  --------------------------------------------------------------------------
//  Statistics

//  NaN never reaches here: writers skip it and the reader refuses it in
//  statistics, so the float comparisons are a total order on what comes.
int
zs_pq_value_cmp (zs_type_t type, const zs_value_t *a, const zs_value_t *b)
{
    switch (type) {
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  no order: nested columns have no statistics bounds
        return 0;
    case ZS_TYPE_BOOLEAN:
        return (int) a->v.b - (int) b->v.b;
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
    case ZS_TYPE_TIME:
        return (a->v.i32 > b->v.i32) - (a->v.i32 < b->v.i32);
    case ZS_TYPE_BIGINT:
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9:
        return (a->v.i64 > b->v.i64) - (a->v.i64 < b->v.i64);
    case ZS_TYPE_DECIMAL: {
        __int128 x = zs_dec_get (a), y = zs_dec_get (b);
        return (x > y) - (x < y);
    }
    case ZS_TYPE_FLOAT:
        return (a->v.f32 > b->v.f32) - (a->v.f32 < b->v.f32);
    case ZS_TYPE_DOUBLE:
        return (a->v.f64 > b->v.f64) - (a->v.f64 < b->v.f64);
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY: {
        uint32_t n = a->v.bin.len < b->v.bin.len ? a->v.bin.len : b->v.bin.len;
        int c = n ? memcmp (a->v.bin.ptr, b->v.bin.ptr, n) : 0;
        if (c)
            return c;
        return (a->v.bin.len > b->v.bin.len) - (a->v.bin.len < b->v.bin.len);
    }
    }
    return 0;
}

//  dst = src, a byte array copied into buf (memmove: src may be buf), cut
//  to ZS_STATS_BIN_MAX bytes (text on a character boundary): *cut then.
static void
s_set (zs_value_t *dst, uint8_t *buf, bool *cut, zs_type_t type, const zs_value_t *src,
       bool src_cut)
{
    if (zs_type_is_binary (type)) {
        uint32_t len = src->v.bin.len <= ZS_STATS_BIN_MAX ? src->v.bin.len : ZS_STATS_BIN_MAX;
        if (len < src->v.bin.len && zs_type_is_text (type))
            while (len > 0 && (src->v.bin.ptr[len] & 0xC0) == 0x80)
                len--;
        *cut = src_cut || len < src->v.bin.len;
        if (len)
            memmove (buf, src->v.bin.ptr, len);
        dst->null = false;
        dst->v.bin.ptr = buf;
        dst->v.bin.len = len;
    } else
        *dst = *src;
}

void
zs_pq_stats_widen (zs_column_stats_t *stats, zs_type_t type, const zs_value_t *min,
                   const zs_value_t *max)
{
    if (!stats->has_minmax || zs_pq_value_cmp (type, min, &stats->min) < 0)
        s_set (&stats->min, stats->min_buf, &stats->min_cut, type, min, false);
    if (!stats->has_minmax || zs_pq_value_cmp (type, max, &stats->max) > 0)
        s_set (&stats->max, stats->max_buf, &stats->max_cut, type, max, false);
    stats->has_minmax = true;
}

void
zs_pq_stats_fix_zeros (zs_column_stats_t *stats, zs_type_t type)
{
    if (!stats->has_minmax)
        return;
    if (type == ZS_TYPE_FLOAT) {
        if (stats->min.v.f32 == 0)
            stats->min.v.f32 = -0.0f;
        if (stats->max.v.f32 == 0)
            stats->max.v.f32 = 0.0f;
    } else if (type == ZS_TYPE_DOUBLE) {
        if (stats->min.v.f64 == 0)
            stats->min.v.f64 = -0.0;
        if (stats->max.v.f64 == 0)
            stats->max.v.f64 = 0.0;
    }
}

void
zs_pq_stats_copy (zs_column_stats_t *dst, const zs_column_stats_t *src, zs_type_t type)
{
    *dst = *src;
    if (zs_type_is_binary (type)) {
        dst->min.v.bin.ptr = dst->min_buf;
        dst->max.v.bin.ptr = dst->max_buf;
    }
}

size_t
zs_pq_stats_encode (const zs_column_t *col, const zs_value_t *value, uint8_t *out)
{
    zs_type_t type = col->type;
    if (zs_type_is_binary (type)) {
        size_t len = value->v.bin.len <= ZS_STATS_BIN_MAX ? value->v.bin.len : ZS_STATS_BIN_MAX;
        if (len)
            memcpy (out, value->v.bin.ptr, len);
        return len;
    }
    if (type == ZS_TYPE_BOOLEAN) {
        out[0] = value->v.b ? 1 : 0;
        return 1;
    }
    int ptype = zs_pq_physical_type (col);
    size_t width = (size_t) zs_pq_column_width (col);
    if (ptype == ZS_PQ_FIXED_LEN_BYTE_ARRAY) {
        zs_dec_put_be (out, (int) width, zs_dec_get (value));
        return width;
    }
    if (ptype == ZS_PQ_INT96)
        return 0;                   //  no statistics are kept for INT96
    memcpy (out, &value->v, width); //  a decimal's lo comes first: its low bytes
    return width;
}

bool
zs_pq_stats_decode (const zs_column_t *col, const uint8_t *data, uint32_t len, zs_value_t *value)
{
    zs_type_t type = col->type;
    memset (value, 0, sizeof *value);
    if (zs_type_is_binary (type)) {
        value->v.bin.ptr = data;
        value->v.bin.len = len;
        return true;
    }
    int ptype = zs_pq_physical_type (col);
    int width = zs_pq_column_width (col);
    if (width == 0 || ptype == ZS_PQ_INT96 || len != (uint32_t) width)
        return false;
    if (type == ZS_TYPE_BOOLEAN) {
        value->v.b = data[0] != 0;
        return true;
    }
    if (type == ZS_TYPE_DECIMAL) {
        if (ptype == ZS_PQ_FIXED_LEN_BYTE_ARRAY)
            zs_dec_set (value, zs_dec_get_be (data, len));
        else if (ptype == ZS_PQ_INT32)
            zs_dec_set (value, (int32_t) zs_le_get (data, 4));
        else
            zs_dec_set (value, (int64_t) zs_le_get (data, 8));
        return true;
    }
    memcpy (&value->v, data, len);
    //  A NaN bounds nothing: such a min or max is not a usable bound.
    if (type == ZS_TYPE_FLOAT)
        return !isnan (value->v.f32);
    return type != ZS_TYPE_DOUBLE || !isnan (value->v.f64);
}
