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
    return type >= ZS_TYPE_BOOLEAN && type <= ZS_TYPE_TIMESTAMP6;
}

//  Bytes of the variable part a field takes (invariant 1).
static size_t
s_var_size (zs_type_t type, const zs_value_t *v)
{
    if (type == ZS_TYPE_TIMESTAMP6)
        return 8; //  null or not, as Java's RowHelper writes it
    if (v->null || !zs_type_is_binary (type) || v->v.bin.len <= S_INLINE_MAX)
        return 0;
    return s_round8 (v->v.bin.len);
}

//  Epoch microseconds as Paimon's Timestamp.fromMicros splits them:
//  milliseconds rounded down, and the rest in nanoseconds (0…999 000).
static void
s_split_micros (int64_t micros, int64_t *millis, uint32_t *nanos)
{
    int64_t ms = micros / 1000, rest = micros % 1000;
    if (rest < 0) {
        ms -= 1;
        rest += 1000;
    }
    *millis = ms;
    *nanos = (uint32_t) rest * 1000;
}

//  One non-null value into its slot (and the variable part at *cursor).
static void
s_put_value (uint8_t *row, uint8_t *slot, size_t *cursor, zs_type_t type, const zs_value_t *v)
{
    uint32_t bits32;
    uint64_t bits64;
    switch (type) {
    case ZS_TYPE_BOOLEAN:
        slot[0] = v->v.b ? 1 : 0;
        break;
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
        zs_le_put (slot, (uint32_t) v->v.i32, 4);
        break;
    case ZS_TYPE_BIGINT:
    case ZS_TYPE_TIMESTAMP3:
        zs_le_put (slot, (uint64_t) v->v.i64, 8);
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
    case ZS_TYPE_BYTES: {
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
    case ZS_TYPE_TIMESTAMP6: {
        int64_t millis;
        uint32_t nanos;
        s_split_micros (v->v.i64, &millis, &nanos);
        zs_le_put (row + *cursor, (uint64_t) millis, 8);
        zs_le_put (slot, (uint64_t) *cursor << 32 | nanos, 8);
        *cursor += 8;
        break;
    }
    }
}

uint8_t *
zs_binrow_encode (const zs_type_t *types, const zs_value_t *values, int n, size_t *len, char *err,
                  size_t errlen)
{
    if (n < 0 || (n > 0 && (!types || !values))) {
        snprintf (err, errlen, "binrow: no values");
        return NULL;
    }
    size_t width = s_bitset_width (n);
    size_t fixed = width + 8 * (size_t) n;
    size_t total = fixed;
    for (int i = 0; i < n; i++) {
        if (!s_known (types[i])) {
            snprintf (err, errlen, "binrow: column %d: unknown type %d", i, (int) types[i]);
            return NULL;
        }
        total += s_var_size (types[i], &values[i]);
        if (total > S_ROW_MAX) {
            snprintf (err, errlen, "binrow: row larger than 2 GiB");
            return NULL;
        }
    }
    uint8_t *out = calloc (1, S_ARITY_SIZE + total);
    if (!out) {
        snprintf (err, errlen, "binrow: out of memory");
        return NULL;
    }
    out[0] = (uint8_t) ((uint32_t) n >> 24);
    out[1] = (uint8_t) ((uint32_t) n >> 16);
    out[2] = (uint8_t) ((uint32_t) n >> 8);
    out[3] = (uint8_t) n;
    uint8_t *row = out + S_ARITY_SIZE; //  row[0], the RowKind, stays 0 (+I)
    size_t cursor = fixed;
    for (int i = 0; i < n; i++) {
        uint8_t *slot = row + width + 8 * (size_t) i;
        if (!values[i].null)
            s_put_value (row, slot, &cursor, types[i], &values[i]);
        else {
            row[(i + 8) / 8] |= (uint8_t) (1u << ((i + 8) % 8));
            if (types[i] == ZS_TYPE_TIMESTAMP6) {
                zs_le_put (slot, (uint64_t) cursor << 32, 8);
                cursor += 8;
            }
        }
    }
    *len = S_ARITY_SIZE + total;
    return out;
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

//  One non-null field from its slot. 0 or ZS_ECORRUPT.
static int
s_get_value (const uint8_t *row, size_t rowlen, size_t fixed, const uint8_t *slot, int col,
             zs_type_t type, zs_value_t *v, char *err, size_t errlen)
{
    uint64_t u = zs_le_get (slot, 8);
    uint32_t bits32 = (uint32_t) u;
    switch (type) {
    case ZS_TYPE_BOOLEAN:
        v->v.b = slot[0] != 0; //  Java's Unsafe.getBoolean: any non-zero byte
        return 0;
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
        v->v.i32 = (int32_t) bits32;
        return 0;
    case ZS_TYPE_BIGINT:
    case ZS_TYPE_TIMESTAMP3:
        v->v.i64 = (int64_t) u;
        return 0;
    case ZS_TYPE_FLOAT:
        memcpy (&v->v.f32, &bits32, 4);
        return 0;
    case ZS_TYPE_DOUBLE:
        memcpy (&v->v.f64, &u, 8);
        return 0;
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
        if (u >> 63) {
            uint32_t len = (uint32_t) (u >> 56) & 0x7F;
            if (len > S_INLINE_MAX)
                return s_corrupt (err, errlen, "column %d: inline length %u over 7", col, len);
            v->v.bin.ptr = slot;
            v->v.bin.len = len;
        } else {
            uint64_t off = u >> 32, len = (uint32_t) u;
            if (!s_in_row (off, len, fixed, rowlen))
                return s_corrupt (err, errlen,
                                  "column %d: %llu bytes at offset %llu outside the row's variable "
                                  "part [%zu, %zu)",
                                  col, (unsigned long long) len, (unsigned long long) off, fixed,
                                  rowlen);
            v->v.bin.ptr = row + off;
            v->v.bin.len = (uint32_t) len;
        }
        return 0;
    case ZS_TYPE_TIMESTAMP6: {
        uint64_t off = u >> 32;
        if (!s_in_row (off, 8, fixed, rowlen))
            return s_corrupt (err, errlen,
                              "column %d: timestamp at offset %llu outside the row's variable "
                              "part [%zu, %zu)",
                              col, (unsigned long long) off, fixed, rowlen);
        if (bits32 > S_NANOS_MAX)
            return s_corrupt (err, errlen, "column %d: nano-of-millisecond %u over 999999", col,
                              bits32);
        //  millis * 1000 + µs, with the µs borrowed from the next
        //  millisecond up when millis is negative, so that every value the
        //  encoder takes (INT64_MIN µs too) comes back without overflowing.
        int64_t millis = (int64_t) zs_le_get (row + off, 8), micros;
        int64_t us = bits32 / 1000;
        if (millis < 0 && us > 0) {
            millis += 1;
            us -= 1000;
        }
        if (__builtin_mul_overflow (millis, 1000, &micros)
            || __builtin_add_overflow (micros, us, &micros))
            return s_corrupt (err, errlen, "column %d: timestamp out of range in microseconds",
                              col);
        v->v.i64 = micros;
        return 0;
    }
    }
    return -1;
}

int
zs_binrow_decode (const void *data, size_t len, const zs_type_t *types, int n, zs_value_t *values,
                  char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (!s_known (types[i])) {
            snprintf (err, errlen, "binrow: column %d: unknown type %d", i, (int) types[i]);
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
        int rc = s_get_value (row, rowlen, fixed, slot, i, types[i], &values[i], err, errlen);
        if (rc != 0)
            return rc;
    }
    return 0;
}

//  zs_binrow_encode into the caller's buffer (appended for the writers'
//  partition keys, one row per data row: no allocation). The same sizing
//  and filling as zs_binrow_encode above (invariant 1).
int
zs_binrow_encode_into (const zs_type_t *types, const zs_value_t *values, int n, uint8_t *buf,
                       size_t cap, char *err, size_t errlen)
{
    if (n < 0 || (n > 0 && (!types || !values))) {
        snprintf (err, errlen, "binrow: no values");
        return -1;
    }
    size_t width = s_bitset_width (n);
    size_t fixed = width + 8 * (size_t) n;
    size_t total = fixed;
    for (int i = 0; i < n; i++) {
        if (!s_known (types[i])) {
            snprintf (err, errlen, "binrow: column %d: unknown type %d", i, (int) types[i]);
            return -1;
        }
        total += s_var_size (types[i], &values[i]);
    }
    if (S_ARITY_SIZE + total > cap || S_ARITY_SIZE + total > S_ROW_MAX) {
        snprintf (err, errlen, "binrow: row of %zu bytes, more than %zu", S_ARITY_SIZE + total,
                  cap);
        return -1;
    }
    memset (buf, 0, S_ARITY_SIZE + total);
    buf[0] = (uint8_t) ((uint32_t) n >> 24);
    buf[1] = (uint8_t) ((uint32_t) n >> 16);
    buf[2] = (uint8_t) ((uint32_t) n >> 8);
    buf[3] = (uint8_t) n;
    uint8_t *row = buf + S_ARITY_SIZE;
    size_t cursor = fixed;
    for (int i = 0; i < n; i++) {
        uint8_t *slot = row + width + 8 * (size_t) i;
        if (!values[i].null)
            s_put_value (row, slot, &cursor, types[i], &values[i]);
        else {
            row[(i + 8) / 8] |= (uint8_t) (1u << ((i + 8) % 8));
            if (types[i] == ZS_TYPE_TIMESTAMP6) {
                zs_le_put (slot, (uint64_t) cursor << 32, 8);
                cursor += 8;
            }
        }
    }
    return (int) (S_ARITY_SIZE + total);
}
