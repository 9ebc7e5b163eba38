/*  binrow.h - Paimon's BinaryRow as SerializationUtils.serializeBinaryRow
    writes it: the bytes a manifest holds for a partition, a min/max key and
    the min/max rows of column statistics. Values are zsink's (schema.h), so
    a column's min/max from the Parquet writer go straight in.

    Layout (Paimon's BinaryRow, BinaryRowWriter, AbstractBinaryWriter; a
    MemorySegment uses the JVM's native byte order, little endian on every
    platform Paimon runs on):

        int32 big endian     arity n (SerializationUtils' prefix)
        W bytes              header and null bits, W = ((n + 63 + 8) / 64) * 8:
                             byte 0 the RowKind (0 = +I), field i null <=>
                             bit i + 8 (byte (i + 8) / 8, least significant
                             bit first)
        8 bytes per field    the fixed slots, little endian, at W + 8i
        variable part        long values, each padded with zeros to 8 bytes

    All offsets count from the row's first byte (after the arity). Slots:
        BOOLEAN               1 byte 0/1
        INT, DATE             int32 (DATE: days since 1970-01-01)
        BIGINT, TIMESTAMP(3)  int64 (TIMESTAMP(3): epoch milliseconds)
        FLOAT, DOUBLE         IEEE 754 bits
        STRING, BYTES         up to 7 bytes inline: the bytes from byte 0,
                              byte 7 = 0x80 | length; longer: (offset << 32)
                              | length, the bytes in the variable part
        TIMESTAMP(6)          (offset << 32) | nano-of-millisecond, the
                              int64 epoch milliseconds (floor) in the
                              variable part
    Unused slot bytes are zero, and so is a null field's slot, except a
    null TIMESTAMP(6): like Java's InternalRowSerializer it still takes 8
    zero bytes of the variable part, its slot pointing there. The empty
    row (n = 0) is 00000000 0000000000000000.

    TINYINT and SMALLINT (1 and 2 bytes in the slot) are left out: zsink
    tables have no such columns.
*/
#ifndef ZS_BINROW_H_INCLUDED
#define ZS_BINROW_H_INCLUDED

#include "rowtype.h"

//  Serialize n values of the given types (NULL for both when n is 0).
//  A TIMESTAMP(6) value is microseconds, as everywhere in zsink. malloc'd,
//  *len bytes; NULL with err when a type is unknown, the row would pass
//  2 GiB (Java's int sizes) or memory runs out.
uint8_t *zs_binrow_encode (const zs_type_t *types, const zs_value_t *values, int n, size_t *len,
                           char *err, size_t errlen);

//  The arity a serialized row announces, or -1 when it has no room for one
//  or the number is negative.
int zs_binrow_arity (const void *data, size_t len);

//  Decode a serialized row of n fields of the given types into values[n]:
//  the arity must be n, every slot, offset and length must lie inside the
//  row (bytes after its end are allowed, as Java does), the row kind must
//  be one of Paimon's four. STRING/BYTES values point into data. A
//  TIMESTAMP(6) comes back in microseconds; nanoseconds below a
//  microsecond (another writer's TIMESTAMP(9)) are dropped, as Paimon's
//  Timestamp.toMicros does. 0, or ZS_ECORRUPT with err naming the column
//  and what is wrong (-1 for a type the decoder does not know).
int zs_binrow_decode (const void *data, size_t len, const zs_type_t *types, int n,
                      zs_value_t *values, char *err, size_t errlen);

//  zs_binrow_encode into buf (no allocation): the length, or -1 with err
//  when a type is unknown or the row would pass cap bytes.
int zs_binrow_encode_into (const zs_type_t *types, const zs_value_t *values, int n, uint8_t *buf,
                           size_t cap, char *err, size_t errlen);

#endif
