/*  test_binrow.c - Paimon BinaryRow: the golden row from Java-written
    manifests, the empty row, every type, nulls, inline and long strings,
    TIMESTAMP(6), wide rows, and that truncated or corrupt rows are refused
    with a message, never read outside the input.

    Expected bytes other than the golden row come from pypaimon's own
    serializer (GenericRowSerializer.to_bytes, paimon-python in
    apache/paimon), run by hand; the null TIMESTAMP(6) row follows Java's
    InternalRowSerializer (RowHelper writes nulls of non-compact
    timestamps), which pypaimon does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "binrow.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binrow_types.h"

static char *
s_hex (const uint8_t *data, size_t len)
{
    char *hex = malloc (2 * len + 1);
    assert_non_null (hex);
    for (size_t i = 0; i < len; i++)
        sprintf (hex + 2 * i, "%02x", data[i]);
    hex[2 * len] = 0;
    return hex;
}

static uint8_t *
s_unhex (const char *hex, size_t *len)
{
    *len = strlen (hex) / 2;
    uint8_t *data = malloc (*len ? *len : 1);
    assert_non_null (data);
    for (size_t i = 0; i < *len; i++)
        sscanf (hex + 2 * i, "%2hhx", &data[i]);
    return data;
}

static zs_value_t
s_str (const char *text)
{
    zs_value_t v = {.null = false};
    v.v.bin.ptr = (const uint8_t *) text;
    v.v.bin.len = (uint32_t) strlen (text);
    return v;
}

static zs_value_t
s_i32 (int32_t x)
{
    zs_value_t v = {.null = false};
    v.v.i32 = x;
    return v;
}

static zs_value_t
s_i64 (int64_t x)
{
    zs_value_t v = {.null = false};
    v.v.i64 = x;
    return v;
}

static const zs_value_t s_null = {.null = true};

//  Encode, compare with want, decode and compare with the values.
static void
s_round_trip (const zs_type_t *types, const zs_value_t *values, int n, const char *want)
{
    char err[ZS_ERRLEN];
    size_t len;
    uint8_t *row = s_encode (types, values, n, &len, err, sizeof err);
    if (!row)
        fail_msg ("%s", err);
    char *hex = s_hex (row, len);
    assert_string_equal (hex, want);
    free (hex);
    assert_int_equal (zs_binrow_arity (row, len), n);
    zs_value_t got[64];
    assert_true (n <= 64);
    if (s_decode (row, len, types, n, got, err, sizeof err) != 0)
        fail_msg ("%s", err);
    for (int i = 0; i < n; i++) {
        assert_int_equal (got[i].null, values[i].null);
        if (values[i].null)
            continue;
        switch (types[i]) {
        case ZS_TYPE_BOOLEAN:
            assert_int_equal (got[i].v.b, values[i].v.b);
            break;
        case ZS_TYPE_INT:
        case ZS_TYPE_DATE:
            assert_int_equal (got[i].v.i32, values[i].v.i32);
            break;
        case ZS_TYPE_FLOAT:
            assert_memory_equal (&got[i].v.f32, &values[i].v.f32, 4);
            break;
        case ZS_TYPE_DOUBLE:
            assert_memory_equal (&got[i].v.f64, &values[i].v.f64, 8);
            break;
        case ZS_TYPE_STRING:
        case ZS_TYPE_BYTES:
            assert_int_equal (got[i].v.bin.len, values[i].v.bin.len);
            if (got[i].v.bin.len)
                assert_memory_equal (got[i].v.bin.ptr, values[i].v.bin.ptr, got[i].v.bin.len);
            //  Pointing into the row, inline or not.
            assert_true (got[i].v.bin.ptr >= row && got[i].v.bin.ptr <= row + len);
            break;
        default:
            assert_true (got[i].v.i64 == values[i].v.i64);
        }
    }
    free (row);
}

//  The row of Java-written manifests (docs/formats.md).
static void
test_golden (void **state)
{
    const zs_type_t types[] = {ZS_TYPE_INT, ZS_TYPE_STRING, ZS_TYPE_STRING};
    const zs_value_t values[] = {s_i32 (5), s_str ("name-5"), s_str ("even")};
    s_round_trip (types, values, 3,
                  "00000003"
                  "0000000000000000"
                  "0500000000000000"
                  "6e616d652d350086"
                  "6576656e00000084");
}

static void
test_empty_row (void **state)
{
    s_round_trip (NULL, NULL, 0, "000000000000000000000000");
    //  Arity 0 with a longer row: allowed (bytes after the row are).
    size_t len;
    uint8_t *row = s_unhex ("00000000000000000000000011", &len);
    char err[ZS_ERRLEN];
    assert_int_equal (s_decode (row, len, NULL, 0, NULL, err, sizeof err), 0);
    free (row);
}

static void
test_every_type (void **state)
{
    const zs_type_t types[] = {ZS_TYPE_BOOLEAN,    ZS_TYPE_INT,       ZS_TYPE_BIGINT, ZS_TYPE_FLOAT,
                               ZS_TYPE_DOUBLE,     ZS_TYPE_STRING,    ZS_TYPE_BYTES,  ZS_TYPE_DATE,
                               ZS_TYPE_TIMESTAMP3, ZS_TYPE_TIMESTAMP6};
    zs_value_t values[10];
    values[0] = (zs_value_t){.null = false, .v.b = true};
    values[1] = s_i32 (-2);
    values[2] = s_i64 (0x0102030405060708);
    values[3] = (zs_value_t){.null = false, .v.f32 = 1.5f};
    values[4] = (zs_value_t){.null = false, .v.f64 = -2.5};
    values[5] = s_str ("hello, paimon!");
    values[6] = (zs_value_t){.null = false, .v.bin = {(const uint8_t *) "\x00\x01\x02", 3}};
    values[7] = s_i32 (19000);            //  2022-01-08
    values[8] = s_i64 (1700000000123);    //  ms
    values[9] = s_i64 (1700000000123456); //  µs
    s_round_trip (types, values, 10,
                  "0000000a"
                  "0000000000000000" //  header, no nulls
                  "0100000000000000" //  true
                  "feffffff00000000" //  -2
                  "0807060504030201" //  0x0102030405060708
                  "0000c03f00000000" //  1.5f
                  "00000000000004c0" //  -2.5
                  "0e00000058000000" //  14 bytes at 88
                  "0001020000000083" //  3 bytes inline
                  "384a000000000000" //  19000
                  "7b68e5cf8b010000" //  1700000000123
                  "40f5060068000000" //  456 000 ns, millis at 104
                  "68656c6c6f2c207061696d6f6e210000"
                  "7b68e5cf8b010000");
}

static void
test_strings (void **state)
{
    const zs_type_t types[] = {ZS_TYPE_STRING, ZS_TYPE_STRING, ZS_TYPE_STRING, ZS_TYPE_STRING,
                               ZS_TYPE_BYTES};
    const zs_value_t values[] = {s_str (""), s_str ("x"), s_str ("1234567"), s_str ("12345678"),
                                 s_str ("a 16-byte string")};
    //  Empty and up to 7 bytes inline; 8 and 16 bytes in the variable
    //  part, each padded to 8.
    s_round_trip (types, values, 5,
                  "00000005"
                  "0000000000000000"
                  "0000000000000080"
                  "7800000000000081"
                  "3132333435363787"
                  "0800000030000000"
                  "1000000038000000"
                  "3132333435363738"
                  "612031362d6279746520737472696e67");
    //  A long one, not a multiple of 8: zero padding to 1008.
    char big[1002];
    memset (big, 'z', 1001);
    big[1001] = 0;
    const zs_type_t t1[] = {ZS_TYPE_BYTES};
    const zs_value_t v1[] = {s_str (big)};
    char err[ZS_ERRLEN];
    size_t len;
    uint8_t *row = s_encode (t1, v1, 1, &len, err, sizeof err);
    assert_non_null (row);
    assert_int_equal (len, 4 + 16 + 1008);
    for (size_t i = 4 + 16 + 1001; i < len; i++)
        assert_int_equal (row[i], 0);
    zs_value_t got;
    assert_int_equal (s_decode (row, len, t1, 1, &got, err, sizeof err), 0);
    assert_int_equal (got.v.bin.len, 1001);
    assert_memory_equal (got.v.bin.ptr, big, 1001);
    free (row);
}

static void
test_nulls (void **state)
{
    const zs_type_t types[] = {ZS_TYPE_INT, ZS_TYPE_STRING, ZS_TYPE_BIGINT};
    const zs_value_t values[] = {s_null, s_str ("abc"), s_null};
    s_round_trip (types, values, 3,
                  "00000003"
                  "0005000000000000" //  bits 8 and 10
                  "0000000000000000"
                  "6162630000000083"
                  "0000000000000000");
    //  A null TIMESTAMP(6) still takes its 8 bytes, as in Java.
    const zs_type_t t2[] = {ZS_TYPE_TIMESTAMP6, ZS_TYPE_INT};
    const zs_value_t v2[] = {s_null, s_i32 (7)};
    s_round_trip (t2, v2, 2,
                  "00000002"
                  "0001000000000000"
                  "0000000018000000"
                  "0700000000000000"
                  "0000000000000000");
    //  All null.
    const zs_type_t t3[] = {ZS_TYPE_DOUBLE, ZS_TYPE_BOOLEAN};
    const zs_value_t v3[] = {s_null, s_null};
    s_round_trip (t3, v3, 2, "00000002000300000000000000000000000000000000000000000000");
}

static void
test_timestamp6 (void **state)
{
    //  -1 µs: the millisecond before the epoch, 999 000 ns into it.
    const zs_type_t types[] = {ZS_TYPE_TIMESTAMP6};
    const zs_value_t values[] = {s_i64 (-1)};
    s_round_trip (types, values, 1,
                  "00000001"
                  "0000000000000000"
                  "583e0f0010000000"
                  "ffffffffffffffff");
    //  Edge values round trip.
    const int64_t edges[] = {0, 999, 1000, -999, -1000, -1001, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        zs_value_t v = s_i64 (edges[i]), got;
        char err[ZS_ERRLEN];
        size_t len;
        uint8_t *row = s_encode (types, &v, 1, &len, err, sizeof err);
        assert_non_null (row);
        assert_int_equal (s_decode (row, len, types, 1, &got, err, sizeof err), 0);
        assert_true (got.v.i64 == edges[i]);
        free (row);
    }
    //  Nanoseconds below a microsecond (a TIMESTAMP(9) writer) are
    //  dropped: 1 ms + 1 999 ns reads as 1001 µs.
    size_t len;
    uint8_t *row = s_unhex ("00000001"
                            "0000000000000000"
                            "cf07000010000000"
                            "0100000000000000",
                            &len);
    zs_value_t got;
    char err[ZS_ERRLEN];
    assert_int_equal (s_decode (row, len, types, 1, &got, err, sizeof err), 0);
    assert_true (got.v.i64 == 1001);
    free (row);
}

//  57 fields: the null bits take a second 8-byte word.
static void
test_wide (void **state)
{
    zs_type_t types[57];
    zs_value_t values[57];
    for (int i = 0; i < 57; i++) {
        types[i] = ZS_TYPE_INT;
        values[i] = i % 2 ? s_null : s_i32 (i);
    }
    char want[2 * (4 + 16 + 57 * 8) + 1] = "00000039"
                                           "00aaaaaaaaaaaaaa"
                                           "0000000000000000";
    for (int i = 0; i < 57; i++)
        sprintf (want + strlen (want), "%02x00000000000000", i % 2 ? 0 : i);
    s_round_trip (types, values, 57, want);
    //  56 fields still fit one word (8 header bits + 56).
    char err[ZS_ERRLEN];
    size_t len;
    uint8_t *row = s_encode (types, values, 56, &len, err, sizeof err);
    assert_int_equal (len, 4 + 8 + 56 * 8);
    free (row);
}

//  Decode hex as types: the error text, or NULL when it decodes.
static const char *
s_decode_err (const char *hex, const zs_type_t *types, int n, char *err, size_t errlen)
{
    size_t len;
    uint8_t *row = s_unhex (hex, &len);
    zs_value_t values[8];
    int rc = s_decode (row, len, types, n, values, err, errlen);
    free (row);
    if (rc == 0)
        return NULL;
    assert_int_equal (rc, ZS_ECORRUPT);
    return err;
}

static void
test_corrupt (void **state)
{
    char err[ZS_ERRLEN];
    const zs_type_t s1[] = {ZS_TYPE_STRING};
    const zs_type_t t6[] = {ZS_TYPE_TIMESTAMP6};
    const struct {
        const char *hex;
        const zs_type_t *types;
        int n;
        const char *why;
    } bad[] = {
        {"", s1, 1, "no arity"},
        {"000000", s1, 1, "no arity"},
        {"ffffffff", s1, 1, "no arity"},
        {"00000002"
         "0000000000000000"
         "0000000000000080",
         s1, 1, "arity 2, expected 1"},
        {"00000001"
         "0000000000000000"
         "00000000000000",
         s1, 1, "fixed part needs 16"},
        {"00000001"
         "0400000000000000"
         "0000000000000080",
         s1, 1, "row kind 4"},
        {"00000001"
         "0000000000000000"
         "00000000000000ff",
         s1, 1, "inline length 127"},
        {"00000001"
         "0000000000000000"
         "0800000010000000"
         "0102030405060708",
         s1, 1, NULL},
        {"00000001"
         "0000000000000000"
         "0900000010000000"
         "0102030405060708",
         s1, 1, "9 bytes at offset 16 outside"},
        {"00000001"
         "0000000000000000"
         "0100000008000000",
         s1, 1, "offset 8 outside"},
        {"00000001"
         "0000000000000000"
         "01000000ffffff7f",
         s1, 1, "outside"},
        {"00000001"
         "0000000000000000"
         "0000000018000000"
         "0000000000000000",
         t6, 1, "timestamp at offset 24 outside"},
        {"00000001"
         "0000000000000000"
         "40420f0010000000"
         "0000000000000000",
         t6, 1, "nano-of-millisecond 1000000"},
        {"00000001"
         "0000000000000000"
         "0000000010000000"
         "ffffffffffffff7f",
         t6, 1, "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        const char *got = s_decode_err (bad[i].hex, bad[i].types, bad[i].n, err, sizeof err);
        if (!bad[i].why) {
            assert_null (got);
            continue;
        }
        if (!got || !strstr (got, bad[i].why))
            fail_msg ("case %zu: got '%s', want '%s'", i, got ? got : "(decodes)", bad[i].why);
        assert_non_null (strstr (got, "binrow: "));
    }
    //  Every truncation of a row with variable parts fails; random bytes
    //  give some answer and never a read outside (ASan).
    const zs_type_t types[] = {ZS_TYPE_STRING, ZS_TYPE_TIMESTAMP6, ZS_TYPE_BYTES, ZS_TYPE_INT};
    const zs_value_t values[] = {s_str ("a long string value"), s_i64 (123456789), s_str ("short"),
                                 s_i32 (1)};
    size_t len;
    uint8_t *row = s_encode (types, values, 4, &len, err, sizeof err);
    assert_non_null (row);
    zs_value_t got[4];
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc (cut ? cut : 1);
        memcpy (copy, row, cut);
        assert_int_equal (s_decode (copy, cut, types, 4, got, err, sizeof err), ZS_ECORRUPT);
        free (copy);
    }
    srand (11);
    for (int round = 0; round < 20000; round++) {
        uint8_t *copy = malloc (len);
        memcpy (copy, row, len);
        for (int k = 0; k < 1 + round % 4; k++)
            copy[4 + (size_t) rand () % (len - 4)] ^= (uint8_t) (1u << (rand () % 8));
        int rc = s_decode (copy, len, types, 4, got, err, sizeof err);
        assert_true (rc == 0 || rc == ZS_ECORRUPT);
        for (int i = 0; rc == 0 && i < 4; i++)
            if (!got[i].null && (types[i] == ZS_TYPE_STRING || types[i] == ZS_TYPE_BYTES))
                assert_true (got[i].v.bin.ptr >= copy
                             && got[i].v.bin.ptr + got[i].v.bin.len <= copy + len);
        free (copy);
    }
    free (row);
}

static void
test_bad_input (void **state)
{
    char err[ZS_ERRLEN];
    size_t len;
    const zs_type_t bad[] = {ZS_TYPE_INT, (zs_type_t) 99};
    const zs_value_t values[] = {s_i32 (1), s_i32 (2)};
    assert_null (s_encode (bad, values, 2, &len, err, sizeof err));
    assert_non_null (strstr (err, "column 1: unknown type 99"));
    assert_null (s_encode (bad, values, -1, &len, err, sizeof err));
    zs_value_t got[2];
    assert_int_equal (s_decode ("\0\0\0\2", 4, bad, 2, got, err, sizeof err), -1);
    assert_non_null (strstr (err, "unknown type"));
}

//  The types of issue 25 as Paimon Java 1.4.2 serializes them
//  (InternalRowSerializer.toBinaryRow, SerializationUtils.serializeBinaryRow;
//  the bytes printed by a one-off Java program against paimon-bundle):
//  TINYINT -5, SMALLINT 1234, DECIMAL(10, 2) -123.45 (compact), DECIMAL(38,
//  10) -1234567890123456789.0123456789 (16 reserved bytes, BigInteger bytes
//  first), a null DECIMAL(20, 0) (its 16 bytes reserved all the same), TIME
//  23:59:59.999, TIMESTAMP(0) one second before 1970 (compact), TIMESTAMP(9)
//  one nanosecond before 1970, a null TIMESTAMP(9), TIMESTAMP(6) WITH LOCAL
//  TIME ZONE, CHAR(3) "abc", BINARY(4) 00010203, DECIMAL(19, 0) 10^19 - 1.
static void
test_paimon_types (void **state)
{
    static const char *want =
        "0000000d0010010000000000fb00000000000000d204000000000000c7cfffffffffffff0c00000070"
        "0000000000000080000000ff5b26050000000018fcffffffffffff3f420f0090000000000000009800"
        "000040f50600a00000006162630000000083000102030000008409000000a8000000d81be4cdb94136"
        "4e91c67eeb0000000000000000000000000000000000000000ffffffffffffffff00000000000000007b"
        "68e5cf8b010000008ac7230489e7ffff00000000000000";
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_schema_parse (
            &schema,
            "a TINYINT, b SMALLINT, c DECIMAL(10, 2), d DECIMAL(38, 10), e DECIMAL(20, "
            "0), f TIME(3), g TIMESTAMP(0), h TIMESTAMP(9), i TIMESTAMP(9), j "
            "TIMESTAMP_LTZ(6), k CHAR(3), l BINARY(4), m DECIMAL(19, 0)",
            err, sizeof err),
        0);
    zs_value_t v[13];
    memset (v, 0, sizeof v);
    v[0].v.i32 = -5;
    v[1].v.i32 = 1234;
    zs_dec_set (&v[2], -12345);
    __int128 big = (__int128) 1234567890123456789LL * 10000000000LL + 123456789;
    zs_dec_set (&v[3], -big);
    v[4].null = true;
    v[5].v.i32 = 86399999;
    v[6].v.i64 = -1000;
    v[7].v.i64 = -1;
    v[8].null = true;
    v[9].v.i64 = INT64_C (1700000000123456);
    v[10] = s_str ("abc");
    static const uint8_t raw[] = {0, 1, 2, 3};
    v[11].v.bin.ptr = raw;
    v[11].v.bin.len = 4;
    zs_dec_set (&v[12], (__int128) 9999999999999999999ULL);
    size_t len;
    uint8_t *row = zs_binrow_encode (schema.cols, v, 13, &len, err, sizeof err);
    assert_non_null (row);
    char *hex = s_hex (row, len);
    assert_string_equal (hex, want);
    free (hex);
    zs_value_t got[13];
    assert_int_equal (zs_binrow_decode (row, len, schema.cols, 13, got, err, sizeof err), 0);
    assert_int_equal (got[0].v.i32, -5);
    assert_int_equal (got[1].v.i32, 1234);
    assert_true (zs_dec_get (&got[2]) == -12345);
    assert_true (zs_dec_get (&got[3]) == -big);
    assert_true (got[4].null && got[8].null);
    assert_int_equal (got[5].v.i32, 86399999);
    assert_int_equal (got[6].v.i64, -1000);
    assert_int_equal (got[7].v.i64, -1);
    assert_int_equal (got[9].v.i64, INT64_C (1700000000123456));
    assert_int_equal (got[10].v.bin.len, 3);
    assert_memory_equal (got[11].v.bin.ptr, raw, 4);
    assert_true (zs_dec_get (&got[12]) == (__int128) 9999999999999999999ULL);
    free (row);

    //  the extremes of TIMESTAMP(9) and DECIMAL(38) come back
    zs_value_t x[2] = {{.v.i64 = INT64_MIN}, {.v.i64 = INT64_MAX}};
    zs_column_t c2[2] = {schema.cols[7], schema.cols[7]};
    row = zs_binrow_encode (c2, x, 2, &len, err, sizeof err);
    assert_int_equal (zs_binrow_decode (row, len, c2, 2, got, err, sizeof err), 0);
    assert_true (got[0].v.i64 == INT64_MIN && got[1].v.i64 == INT64_MAX);
    free (row);
    __int128 max38 = zs_pow10 (38) - 1;
    zs_dec_set (&x[0], -max38);
    zs_dec_set (&x[1], max38);
    c2[0] = c2[1] = schema.cols[3];
    row = zs_binrow_encode (c2, x, 2, &len, err, sizeof err);
    assert_int_equal (zs_binrow_decode (row, len, c2, 2, got, err, sizeof err), 0);
    assert_true (zs_dec_get (&got[0]) == -max38 && zs_dec_get (&got[1]) == max38);
    //  a decimal over its precision, or of 17 bytes, is corrupt
    c2[0] = c2[1] = schema.cols[12]; //  DECIMAL(19, 0): max38 has 38 digits
    assert_int_equal (zs_binrow_decode (row, len, c2, 2, got, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "over 19 digits"));
    free (row);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_golden),     cmocka_unit_test (test_empty_row),
        cmocka_unit_test (test_every_type), cmocka_unit_test (test_strings),
        cmocka_unit_test (test_nulls),      cmocka_unit_test (test_timestamp6),
        cmocka_unit_test (test_wide),       cmocka_unit_test (test_corrupt),
        cmocka_unit_test (test_bad_input),  cmocka_unit_test (test_paimon_types),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
