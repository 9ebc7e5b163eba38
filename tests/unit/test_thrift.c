/*  test_thrift.c - the compact protocol: exact bytes for the encodings the
    spec pins down, a round trip of every type the footer uses, the generic
    skip over nested structs, lists and maps, and that truncated or random
    input is an error, never a crash or a read past the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "thrift.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Field headers: a short-form delta, the long form for a delta over 15 or
//  a backwards id, zigzag values, and the bool-in-header form.
static void
test_wire_bytes (void **state)
{
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, 5);      //  0x15 0x0A
    zs_thrift_enc_field_i32 (&e, 20, -1);    //  0x05 0x28 0x01
    zs_thrift_enc_field_bool (&e, 21, true); //  0x11
    zs_thrift_enc_field_bool (&e, 3, false); //  0x02 0x06
    zs_thrift_enc_field_i64 (&e, 4, -64);    //  0x16 0x7F
    zs_thrift_enc_struct_end (&e);           //  0x00
    const uint8_t want[] = {0x15, 0x0A, 0x05, 0x28, 0x01, 0x11, 0x02, 0x06, 0x16, 0x7F, 0x00};
    assert_true (e.ok);
    assert_int_equal (e.len, sizeof want);
    assert_memory_equal (e.data, want, sizeof want);

    //  A list of 3 i32 then one of 20 binaries: short and long size forms.
    zs_thrift_enc_reset (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_list (&e, 1, ZS_THRIFT_I32, 3);
    for (int i = 0; i < 3; i++)
        zs_thrift_enc_i32 (&e, i);
    zs_thrift_enc_field_list (&e, 2, ZS_THRIFT_BINARY, 20);
    for (int i = 0; i < 20; i++)
        zs_thrift_enc_binary (&e, "x", 1);
    zs_thrift_enc_struct_end (&e);
    assert_int_equal (e.data[0], 0x19);
    assert_int_equal (e.data[1], 0x35);
    assert_int_equal (e.data[5], 0x19);
    assert_int_equal (e.data[6], 0xF8);
    assert_int_equal (e.data[7], 20);
    zs_thrift_enc_fini (&e);
}

static void
test_round_trip (void **state)
{
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, INT32_MIN);
    zs_thrift_enc_field_i64 (&e, 2, INT64_MIN);
    zs_thrift_enc_field_i64 (&e, 40, INT64_MAX);
    zs_thrift_enc_field_bool (&e, 41, true);
    zs_thrift_enc_field_bool (&e, 42, false);
    zs_thrift_enc_field_double (&e, 43, -2.5);
    zs_thrift_enc_field_string (&e, 44, "héllo");
    zs_thrift_enc_field_binary (&e, 45, "", 0);
    zs_thrift_enc_field_struct (&e, 300); //  nested, big id
    zs_thrift_enc_field_i32 (&e, 1, -7);
    zs_thrift_enc_field_list (&e, 2, ZS_THRIFT_STRUCT, 17);
    for (int i = 0; i < 17; i++) {
        zs_thrift_enc_struct_begin (&e);
        zs_thrift_enc_field_i64 (&e, 5, -i);
        zs_thrift_enc_struct_end (&e);
    }
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_field_i32 (&e, 301, 99); //  after the nested struct: delta 1
    zs_thrift_enc_struct_end (&e);
    assert_true (e.ok);

    zs_thrift_dec_t d;
    zs_thrift_dec_init (&d, e.data, e.len);
    assert_int_equal (zs_thrift_dec_struct_begin (&d), 0);
    int16_t id;
    int type, seen = 0;
    int64_t v;
    int32_t v32;
    bool b;
    double dbl;
    const uint8_t *bin;
    uint32_t len;
    while (zs_thrift_dec_field (&d, &id, &type) == 1) {
        seen++;
        switch (id) {
        case 1:
            assert_int_equal (zs_thrift_dec_i32 (&d, type, &v32), 0);
            assert_true (v32 == INT32_MIN);
            break;
        case 2:
            assert_int_equal (zs_thrift_dec_int (&d, type, &v), 0);
            assert_true (v == INT64_MIN);
            break;
        case 40:
            assert_int_equal (zs_thrift_dec_int (&d, type, &v), 0);
            assert_true (v == INT64_MAX);
            //  Out of i32 range: refused.
            break;
        case 41:
        case 42:
            assert_int_equal (zs_thrift_dec_bool (&d, type, &b), 0);
            assert_int_equal (b, id == 41);
            break;
        case 43:
            assert_int_equal (zs_thrift_dec_double (&d, type, &dbl), 0);
            assert_true (dbl == -2.5);
            break;
        case 44:
            assert_int_equal (zs_thrift_dec_binary (&d, type, &bin, &len), 0);
            assert_int_equal (len, strlen ("héllo"));
            assert_memory_equal (bin, "héllo", len);
            break;
        case 45:
            assert_int_equal (zs_thrift_dec_binary (&d, type, &bin, &len), 0);
            assert_int_equal (len, 0);
            break;
        case 300: {
            assert_int_equal (type, ZS_THRIFT_STRUCT);
            assert_int_equal (zs_thrift_dec_struct_begin (&d), 0);
            int16_t sid;
            int st;
            assert_int_equal (zs_thrift_dec_field (&d, &sid, &st), 1);
            assert_int_equal (sid, 1);
            assert_int_equal (zs_thrift_dec_i32 (&d, st, &v32), 0);
            assert_int_equal (v32, -7);
            assert_int_equal (zs_thrift_dec_field (&d, &sid, &st), 1);
            int et;
            uint32_t n;
            assert_int_equal (zs_thrift_dec_list (&d, st, &et, &n), 0);
            assert_int_equal (et, ZS_THRIFT_STRUCT);
            assert_int_equal (n, 17);
            for (uint32_t i = 0; i < n; i++) {
                assert_int_equal (zs_thrift_dec_struct_begin (&d), 0);
                assert_int_equal (zs_thrift_dec_field (&d, &sid, &st), 1);
                assert_int_equal (sid, 5);
                assert_int_equal (zs_thrift_dec_int (&d, st, &v), 0);
                assert_true (v == -(int64_t) i);
                assert_int_equal (zs_thrift_dec_field (&d, &sid, &st), 0);
            }
            assert_int_equal (zs_thrift_dec_field (&d, &sid, &st), 0);
            break;
        }
        case 301:
            assert_int_equal (zs_thrift_dec_i32 (&d, type, &v32), 0);
            assert_int_equal (v32, 99);
            break;
        default:
            fail_msg ("unexpected field %d", id);
        }
    }
    assert_null (d.error);
    assert_int_equal (seen, 10);
    assert_int_equal (zs_thrift_dec_offset (&d), e.len);

    //  Type mismatches are errors, and sticky.
    zs_thrift_dec_init (&d, e.data, e.len);
    zs_thrift_dec_struct_begin (&d);
    assert_int_equal (zs_thrift_dec_field (&d, &id, &type), 1);
    assert_int_equal (zs_thrift_dec_binary (&d, type, &bin, &len), -1);
    assert_non_null (strstr (d.error, "wrong type"));
    assert_int_equal (zs_thrift_dec_field (&d, &id, &type), -1);
    zs_thrift_enc_fini (&e);
}

//  A reader skips what it does not know: nested structs, lists of structs,
//  a map and a list of bools, then finds the field after them.
static void
test_skip_nested (void **state)
{
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_struct (&e, 7);
    zs_thrift_enc_field_struct (&e, 1);
    zs_thrift_enc_field_list (&e, 2, ZS_THRIFT_STRUCT, 2);
    for (int i = 0; i < 2; i++) {
        zs_thrift_enc_struct_begin (&e);
        zs_thrift_enc_field_string (&e, 1, "deep");
        zs_thrift_enc_field_double (&e, 2, 1.0);
        zs_thrift_enc_field_bool (&e, 3, true);
        zs_thrift_enc_struct_end (&e);
    }
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_struct_end (&e);
    assert_true (e.ok);
    //  By hand: field 8 a map<i32,binary> of 2, field 9 a list<bool> of 3,
    //  field 10 an i64 (12345), the struct's STOP.
    const uint8_t raw[] = {0x1B, 0x02, 0x58, 0x02, 0x01, 'a',  0x04, 0x01, 'b', 0x19,
                           0x31, 0x01, 0x02, 0x01, 0x16, 0xF2, 0xC0, 0x01, 0x00};
    size_t len = e.len + sizeof raw;
    uint8_t *buf = malloc (len);
    memcpy (buf, e.data, e.len);
    memcpy (buf + e.len, raw, sizeof raw);

    zs_thrift_dec_t d;
    zs_thrift_dec_init (&d, buf, len);
    zs_thrift_dec_struct_begin (&d);
    int16_t id;
    int type, rc;
    int64_t v = 0;
    while ((rc = zs_thrift_dec_field (&d, &id, &type)) == 1) {
        if (id == 10)
            assert_int_equal (zs_thrift_dec_int (&d, type, &v), 0);
        else
            assert_int_equal (zs_thrift_dec_skip (&d, type), 0);
    }
    assert_int_equal (rc, 0);
    assert_null (d.error);
    assert_true (v == 12345);
    assert_int_equal (zs_thrift_dec_offset (&d), len);
    free (buf);
    zs_thrift_enc_fini (&e);
}

//  Walk a whole buffer, skipping every field: 0 if it decodes.
static int
s_walk (const uint8_t *data, size_t len, const char **why)
{
    zs_thrift_dec_t d;
    zs_thrift_dec_init (&d, data, len);
    int16_t id;
    int type, rc;
    zs_thrift_dec_struct_begin (&d);
    while ((rc = zs_thrift_dec_field (&d, &id, &type)) == 1)
        if (zs_thrift_dec_skip (&d, type) != 0)
            break;
    *why = d.error;
    assert_true (d.p >= data && d.p <= data + len);
    return d.error ? -1 : 0;
}

static void
test_truncated_and_garbage (void **state)
{
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i64 (&e, 1, 1234567890123);
    zs_thrift_enc_field_string (&e, 2, "a string of some length");
    zs_thrift_enc_field_list (&e, 3, ZS_THRIFT_STRUCT, 3);
    for (int i = 0; i < 3; i++) {
        zs_thrift_enc_struct_begin (&e);
        zs_thrift_enc_field_double (&e, 1, 3.5);
        zs_thrift_enc_field_bool (&e, 2, false);
        zs_thrift_enc_struct_end (&e);
    }
    zs_thrift_enc_struct_end (&e);
    const char *why;
    assert_int_equal (s_walk (e.data, e.len, &why), 0);
    //  Every cut short of the whole is an error (copied to exact-size
    //  buffers so that ASan sees any read past the end).
    for (size_t cut = 0; cut < e.len; cut++) {
        uint8_t *copy = malloc (cut ? cut : 1);
        memcpy (copy, e.data, cut);
        assert_int_equal (s_walk (copy, cut, &why), -1);
        assert_non_null (why);
        free (copy);
    }
    //  Random bytes: any answer, no crash.
    srand (42);
    for (int round = 0; round < 20000; round++) {
        size_t len = (size_t) (rand () % 64);
        uint8_t *buf = malloc (len ? len : 1);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t) rand ();
        s_walk (buf, len, &why);
        free (buf);
    }
    zs_thrift_enc_fini (&e);
}

static void
test_hostile_lengths (void **state)
{
    const char *why;
    //  A binary claiming more bytes than there are.
    const uint8_t big_bin[] = {0x18, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'};
    assert_int_equal (s_walk (big_bin, sizeof big_bin, &why), -1);
    assert_non_null (strstr (why, "binary"));
    //  A list of 2^31 elements in 3 bytes.
    const uint8_t big_list[] = {0x19, 0xF5, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00};
    assert_int_equal (s_walk (big_list, sizeof big_list, &why), -1);
    assert_non_null (strstr (why, "list"));
    //  An endless varint.
    uint8_t varint[16] = {0x16};
    memset (varint + 1, 0xFF, 15);
    assert_int_equal (s_walk (varint, sizeof varint, &why), -1);
    //  Ten bytes are the most a 64-bit varint takes, and the tenth holds
    //  the top bit only: an i64 field of the largest varint is read, one
    //  with more bits in its tenth byte is refused (it used to be read,
    //  the bits beyond 64 dropped).
    uint8_t i64[12] = {0x16};
    memset (i64 + 1, 0xFF, 9);
    i64[10] = 0x01;
    i64[11] = 0x00;
    assert_int_equal (s_walk (i64, sizeof i64, &why), 0);
    i64[10] = 0x7F;
    assert_int_equal (s_walk (i64, sizeof i64, &why), -1);
    assert_non_null (strstr (why, "64 bits"));
    //  Structs nested 100 deep.
    uint8_t deep[101];
    memset (deep, 0x1C, 100);
    deep[100] = 0;
    assert_int_equal (s_walk (deep, sizeof deep, &why), -1);
    assert_non_null (strstr (why, "deep"));
    //  Lists nested deep.
    uint8_t lists[200];
    lists[0] = 0x19;
    for (int i = 1; i < 200; i++)
        lists[i] = 0x19; //  list of 1 list …
    assert_int_equal (s_walk (lists, sizeof lists, &why), -1);
    //  Unknown type nibble.
    const uint8_t bad_type[] = {0x1E, 0x00};
    assert_int_equal (s_walk (bad_type, sizeof bad_type, &why), -1);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_wire_bytes),      cmocka_unit_test (test_round_trip),
        cmocka_unit_test (test_skip_nested),     cmocka_unit_test (test_truncated_and_garbage),
        cmocka_unit_test (test_hostile_lengths),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
