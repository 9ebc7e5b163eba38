/*  binrow.c - Paimon BinaryRow encoder and decoder (binrow.h).

    Invariants:
    1. The encoder sizes the row once, before writing (fixed part plus
       every variable value rounded up to 8), allocates it zeroed, and then
       fills it: padding and unused slot bytes are zero because nothing
       ever writes them, which is what Java's writer produces too.
    2. The decoder reads nothing outside [row, row + rowlen): the fixed
       part is checked as a whole, and each variable value's offset and
       length against the row before its bytes are pointed at. Offsets into
       the fixed part are refused too: no writer makes them.
*/
#include "binrow.h"
#include "bytes.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_ARITY_SIZE 4      //  SerializationUtils' big-endian int prefix
#define S_INLINE_MAX 7      //  BinarySection.MAX_FIX_PART_DATA_SIZE
#define S_NANOS_MAX 999999  //  Timestamp: nanoOfMillisecond in 0…999 999
#define S_ROW_MAX INT32_MAX //  Java sizes and offsets are ints

static size_t
s_bitset_width (int arity)
{
    return ((size_t) arity + 63 + 8) / 64 * 8;
}

static size_t
s_round8 (size_t n)
{
    return (n + 7) & ~(size_t) 7;
}

static bool
s_known (zs_type_t type)
{
    return type >= ZS_TYPE_BOOLEAN && type <= ZS_TYPE_LAST;
}

//  Bytes of the variable part a non-compact TIMESTAMP (8) or DECIMAL (16)
//  takes, null or not; 0 for the other types.
static size_t
s_reserved (const zs_column_t *col)
{
    if (col->type == ZS_TYPE_TIMESTAMP6 || col->type == ZS_TYPE_TIMESTAMP9)
        return 8;
    if (col->type == ZS_TYPE_DECIMAL && zs_column_precision (col) > 18)
        return 16;
    return 0;
}

//  Bytes of the variable part a field takes (invariant 1).
static size_t
s_var_size (const zs_column_t *col, const zs_value_t *v)
{
    size_t r = s_reserved (col);
    if (r)
        return r; //  null or not, as Java's BinaryWriter writes it
    if (v->null || !zs_type_is_binary (col->type) || v->v.bin.len <= S_INLINE_MAX)
        return 0;
    return s_round8 (v->v.bin.len);
}

//  Epoch time in units per millisecond as Paimon's Timestamp splits it:
//  milliseconds rounded down, and the rest in nanoseconds.
static void
s_split_ts (int64_t t, int64_t per_ms, int64_t *millis, uint32_t *nanos)
{
    int64_t ms = t / per_ms, rest = t % per_ms;
    if (rest < 0) {
        ms -= 1;
        rest += per_ms;
    }
    *millis = ms;
    *nanos = (uint32_t) (rest * (1000000 / per_ms));
}

//  A non-compact timestamp or decimal into the variable part at *cursor.
static void
s_put_var (uint8_t *row, uint8_t *slot, size_t *cursor, const zs_column_t *col, const zs_value_t *v)
{
    if (col->type == ZS_TYPE_DECIMAL) {
        __int128 x = zs_dec_get (v);
        int n = zs_dec_min_bytes (x);
        zs_dec_put_be (row + *cursor, n, x);
        zs_le_put (slot, (uint64_t) *cursor << 32 | (uint64_t) n, 8);
        *cursor += 16;
        return;
    }
    int64_t millis;
    uint32_t nanos;
    s_split_ts (v->v.i64, col->type == ZS_TYPE_TIMESTAMP9 ? 1000000 : 1000, &millis, &nanos);
    zs_le_put (row + *cursor, (uint64_t) millis, 8);
    zs_le_put (slot, (uint64_t) *cursor << 32 | nanos, 8);
    *cursor += 8;
}

//  One non-null value into its slot (and the variable part at *cursor).
static void
s_put_value (uint8_t *row, uint8_t *slot, size_t *cursor, const zs_column_t *col,
             const zs_value_t *v)
{
    uint32_t bits32;
    uint64_t bits64;
    if (s_reserved (col)) {
        s_put_var (row, slot, cursor, col, v);
        return;
    }
    switch (col->type) {
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  nested: never in a BinaryRow (partition keys, bounds)
        break;
    case ZS_TYPE_BOOLEAN:
        slot[0] = v->v.b ? 1 : 0;
        break;
    case ZS_TYPE_TINYINT:
        slot[0] = (uint8_t) v->v.i32;
        break;
    case ZS_TYPE_SMALLINT:
        zs_le_put (slot, (uint16_t) v->v.i32, 2);
        break;
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
    case ZS_TYPE_TIME:
        zs_le_put (slot, (uint32_t) v->v.i32, 4);
        break;
    case ZS_TYPE_BIGINT:
    case ZS_TYPE_TIMESTAMP3:
        zs_le_put (slot, (uint64_t) v->v.i64, 8);
        break;
    case ZS_TYPE_DECIMAL: //  compact: p <= 18
        zs_le_put (slot, v->v.dec.lo, 8);
        break;
    case ZS_TYPE_FLOAT:
        memcpy (&bits32, &v->v.f32, 4);
        zs_le_put (slot, bits32, 4);
        break;
    case ZS_TYPE_DOUBLE:
        memcpy (&bits64, &v->v.f64, 8);
        zs_le_put (slot, bits64, 8);
        break;
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY: {
        size_t len = v->v.bin.len;
        if (len <= S_INLINE_MAX) {
            if (len)
                memcpy (slot, v->v.bin.ptr, len);
            slot[7] = (uint8_t) (0x80 | len);
        } else {
            memcpy (row + *cursor, v->v.bin.ptr, len);
            zs_le_put (slot, (uint64_t) *cursor << 32 | len, 8);
            *cursor += s_round8 (len);
        }
        break;
    }
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9:
        break; //  s_put_var
    }
}

//  Bytes the serialized row takes, its arity prefix included (invariant
//  1); 0 with err when a type is unknown or the row passes 2 GiB.
static size_t
s_row_size (const zs_column_t *cols, const zs_value_t *values, int n, char *err, size_t errlen)
{
    if (n < 0 || (n > 0 && (!cols || !values))) {
        snprintf (err, errlen, "binrow: no values");
        return 0;
    }
    size_t total = s_bitset_width (n) + 8 * (size_t) n;
    for (int i = 0; i < n; i++) {
        if (!s_known (cols[i].type)) {
            snprintf (err, errlen, "binrow: column %d: unknown type %d", i, (int) cols[i].type);
            return 0;
        }
        total += s_var_size (&cols[i], &values[i]);
        if (total > S_ROW_MAX) {
            snprintf (err, errlen, "binrow: row larger than 2 GiB");
            return 0;
        }
    }
    return S_ARITY_SIZE + total;
}

//  Fill a zeroed buffer of s_row_size bytes.
static void
s_fill (uint8_t *out, const zs_column_t *cols, const zs_value_t *values, int n)
{
    size_t width = s_bitset_width (n);
    out[0] = (uint8_t) ((uint32_t) n >> 24);
    out[1] = (uint8_t) ((uint32_t) n >> 16);
    out[2] = (uint8_t) ((uint32_t) n >> 8);
    out[3] = (uint8_t) n;
    uint8_t *row = out + S_ARITY_SIZE; //  row[0], the RowKind, stays 0 (+I)
    size_t cursor = width + 8 * (size_t) n;
    for (int i = 0; i < n; i++) {
        uint8_t *slot = row + width + 8 * (size_t) i;
        if (!values[i].null)
            s_put_value (row, slot, &cursor, &cols[i], &values[i]);
        else {
            row[(i + 8) / 8] |= (uint8_t) (1u << ((i + 8) % 8));
            size_t r = s_reserved (&cols[i]);
            if (r) {
                zs_le_put (slot, (uint64_t) cursor << 32, 8);
                cursor += r;
            }
        }
    }
}

uint8_t *
zs_binrow_encode (const zs_column_t *cols, const zs_value_t *values, int n, size_t *len, char *err,
                  size_t errlen)
{
    size_t size = s_row_size (cols, values, n, err, errlen);
    if (!size)
        return NULL;
    uint8_t *out = calloc (1, size);
    if (!out) {
        snprintf (err, errlen, "binrow: out of memory");
        return NULL;
    }
    s_fill (out, cols, values, n);
    *len = size;
    return out;
}

//  The same into the caller's buffer, for the writers' partition keys (one
//  row per data row: no allocation).
int
zs_binrow_encode_into (const zs_column_t *cols, const zs_value_t *values, int n, uint8_t *buf,
                       size_t cap, char *err, size_t errlen)
{
    size_t size = s_row_size (cols, values, n, err, errlen);
    if (!size)
        return -1;
    if (size > cap) {
        snprintf (err, errlen, "binrow: row of %zu bytes, more than %zu", size, cap);
        return -1;
    }
    memset (buf, 0, size);
    s_fill (buf, cols, values, n);
    return (int) size;
}

int
zs_binrow_arity (const void *data, size_t len)
{
    const uint8_t *p = data;
    if (!data || len < S_ARITY_SIZE)
        return -1;
    uint32_t arity = (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
    return arity > INT32_MAX ? -1 : (int) arity;
}

static int
s_corrupt (char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start (ap, fmt);
    int n = snprintf (err, errlen, "binrow: ");
    if (n >= 0 && (size_t) n < errlen)
        vsnprintf (err + n, errlen - (size_t) n, fmt, ap);
    va_end (ap);
    return ZS_ECORRUPT;
}

//  A variable-part reference: [off, off + size) inside the row and past
//  the fixed part (invariant 2).
static bool
s_in_row (uint64_t off, uint64_t size, size_t fixed, size_t rowlen)
{
    return off >= fixed && off <= rowlen && size <= rowlen - off;
}

//  A non-compact timestamp: epoch milliseconds in the variable part, the
//  nanoseconds of the millisecond in the slot; into micros (TIMESTAMP6,
//  finer nanoseconds dropped as Paimon's Timestamp.toMicros does) or
//  nanos (TIMESTAMP9).
static int
s_get_timestamp (const uint8_t *row, size_t rowlen, size_t fixed, uint64_t u, int col,
                 zs_type_t type, zs_value_t *v, char *err, size_t errlen)
{
    uint64_t off = u >> 32;
    uint32_t nanos = (uint32_t) u;
    if (!s_in_row (off, 8, fixed, rowlen))
        return s_corrupt (err, errlen,
                          "column %d: timestamp at offset %llu outside the row's variable "
                          "part [%zu, %zu)",
                          col, (unsigned long long) off, fixed, rowlen);
    if (nanos > S_NANOS_MAX)
        return s_corrupt (err, errlen, "column %d: nano-of-millisecond %u over 999999", col, nanos);
    //  millis * unit + rest, the rest borrowed from the next millisecond
    //  up when millis is negative, so that every value the encoder takes
    //  (INT64_MIN too) comes back without overflowing.
    int64_t per_ms = type == ZS_TYPE_TIMESTAMP9 ? 1000000 : 1000;
    int64_t millis = (int64_t) zs_le_get (row + off, 8), t;
    int64_t rest = type == ZS_TYPE_TIMESTAMP9 ? (int64_t) nanos : (int64_t) nanos / 1000;
    if (millis < 0 && rest > 0) {
        millis += 1;
        rest -= per_ms;
    }
    if (__builtin_mul_overflow (millis, per_ms, &t) || __builtin_add_overflow (t, rest, &t))
        return s_corrupt (err, errlen, "column %d: timestamp out of range", col);
    v->v.i64 = t;
    return 0;
}

//  A non-compact decimal: 1 to 16 big-endian bytes in the variable part.
static int
s_get_decimal (const uint8_t *row, size_t rowlen, size_t fixed, uint64_t u, int col,
               const zs_column_t *c, zs_value_t *v, char *err, size_t errlen)
{
    uint64_t off = u >> 32, len = (uint32_t) u;
    if (len < 1 || len > 16 || !s_in_row (off, len, fixed, rowlen))
        return s_corrupt (err, errlen,
                          "column %d: decimal of %llu bytes at offset %llu outside the row's "
                          "variable part [%zu, %zu) or over 16 bytes",
                          col, (unsigned long long) len, (unsigned long long) off, fixed, rowlen);
    __int128 x = zs_dec_get_be (row + off, (size_t) len);
    __int128 lim = zs_pow10 (zs_column_precision (c));
    if (x >= lim || x <= -lim)
        return s_corrupt (err, errlen, "column %d: decimal over %d digits", col,
                          zs_column_precision (c));
    zs_dec_set (v, x);
    return 0;
}

//  STRING, BYTES, CHAR, BINARY: inline, or in the variable part.
static int
s_get_binary (const uint8_t *row, size_t rowlen, size_t fixed, const uint8_t *slot, uint64_t u,
              int col, zs_value_t *v, char *err, size_t errlen)
{
    if (u >> 63) {
        uint32_t len = (uint32_t) (u >> 56) & 0x7F;
        if (len > S_INLINE_MAX)
            return s_corrupt (err, errlen, "column %d: inline length %u over 7", col, len);
        v->v.bin.ptr = slot;
        v->v.bin.len = len;
        return 0;
    }
    uint64_t off = u >> 32, len = (uint32_t) u;
    if (!s_in_row (off, len, fixed, rowlen))
        return s_corrupt (err, errlen,
                          "column %d: %llu bytes at offset %llu outside the row's variable "
                          "part [%zu, %zu)",
                          col, (unsigned long long) len, (unsigned long long) off, fixed, rowlen);
    v->v.bin.ptr = row + off;
    v->v.bin.len = (uint32_t) len;
    return 0;
}

//  One non-null field from its slot. 0 or ZS_ECORRUPT.
static int
s_get_value (const uint8_t *row, size_t rowlen, size_t fixed, const uint8_t *slot, int col,
             const zs_column_t *c, zs_value_t *v, char *err, size_t errlen)
{
    uint64_t u = zs_le_get (slot, 8);
    uint32_t bits32 = (uint32_t) u;
    switch (c->type) {
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  nested: never in a BinaryRow (partition keys, bounds)
        return ZS_ECORRUPT;
    case ZS_TYPE_BOOLEAN:
        v->v.b = slot[0] != 0; //  Java's Unsafe.getBoolean: any non-zero byte
        return 0;
    case ZS_TYPE_TINYINT:
        v->v.i32 = (int8_t) slot[0];
        return 0;
    case ZS_TYPE_SMALLINT:
        v->v.i32 = (int16_t) (uint16_t) u;
        return 0;
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
    case ZS_TYPE_TIME:
        v->v.i32 = (int32_t) bits32;
        return 0;
    case ZS_TYPE_BIGINT:
    case ZS_TYPE_TIMESTAMP3:
        v->v.i64 = (int64_t) u;
        return 0;
    case ZS_TYPE_DECIMAL:
        if (zs_column_precision (c) > 18)
            return s_get_decimal (row, rowlen, fixed, u, col, c, v, err, errlen);
        zs_dec_set (v, (int64_t) u);
        return 0;
    case ZS_TYPE_FLOAT:
        memcpy (&v->v.f32, &bits32, 4);
        return 0;
    case ZS_TYPE_DOUBLE:
        memcpy (&v->v.f64, &u, 8);
        return 0;
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY:
        return s_get_binary (row, rowlen, fixed, slot, u, col, v, err, errlen);
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9:
        return s_get_timestamp (row, rowlen, fixed, u, col, c->type, v, err, errlen);
    }
    return -1;
}

int
zs_binrow_decode (const void *data, size_t len, const zs_column_t *cols, int n, zs_value_t *values,
                  char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (!s_known (cols[i].type)) {
            snprintf (err, errlen, "binrow: column %d: unknown type %d", i, (int) cols[i].type);
            return -1;
        }
    int arity = zs_binrow_arity (data, len);
    if (arity < 0)
        return s_corrupt (err, errlen, "%zu bytes: no arity", data ? len : 0);
    if (arity != n)
        return s_corrupt (err, errlen, "arity %d, expected %d", arity, n);
    const uint8_t *row = (const uint8_t *) data + S_ARITY_SIZE;
    size_t rowlen = len - S_ARITY_SIZE;
    size_t width = s_bitset_width (n);
    size_t fixed = width + 8 * (size_t) n;
    if (rowlen < fixed)
        return s_corrupt (err, errlen, "row of %zu bytes, its fixed part needs %zu", rowlen, fixed);
    if (row[0] > 3) //  RowKind: +I, -U, +U, -D
        return s_corrupt (err, errlen, "unknown row kind %u", row[0]);
    for (int i = 0; i < n; i++) {
        memset (&values[i], 0, sizeof values[i]);
        if (row[(i + 8) / 8] & (1u << ((i + 8) % 8))) {
            values[i].null = true;
            continue;
        }
        const uint8_t *slot = row + width + 8 * (size_t) i;
        int rc = s_get_value (row, rowlen, fixed, slot, i, &cols[i], &values[i], err, errlen);
        if (rc != 0)
            return rc;
    }
    return 0;
}
