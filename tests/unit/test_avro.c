/*  test_avro.c - Avro encoding, schemas and object container files: exact
    bytes where the specification pins them down (zigzag varints, blocks),
    round trips of every primitive, the decoder's refusals, negative array
    block counts, schema parsing and skipping, OCF round trips with every
    codec over several blocks, a snappy file made by python3-avro (an
    independent writer), and that a truncation at any byte, bit flips,
    hostile headers and compression bombs are errors, never a crash or an
    unbounded allocation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "avro.h"
#include "snappy.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST
#include <zlib.h>
#include <zstd.h>

static const uint8_t s_sync[16] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67,
                                   0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98};

//  Exact-size heap copy, so that ASan sees any read past the end.
static uint8_t *
s_copy (const void *data, size_t len)
{
    uint8_t *copy = malloc (len ? len : 1);
    assert_non_null (copy);
    if (len)
        memcpy (copy, data, len);
    return copy;
}

static void
s_expect (const zs_avro_enc_t *e, const char *hex)
{
    char got[256] = "";
    for (size_t i = 0; i < e->len && 2 * i + 2 < sizeof got; i++)
        sprintf (got + 2 * i, "%02x", e->data[i]);
    assert_string_equal (got, hex);
}

//  --------------------------------------------------------------------------
//  Encoding

static void
test_wire_bytes (void **state)
{
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    struct {
        int64_t v;
        const char *hex;
    } longs[] = {
        {0, "00"},
        {-1, "01"},
        {1, "02"},
        {-64, "7f"},
        {64, "8001"},
        {-65, "8101"},
        {INT64_MAX, "feffffffffffffffff01"},
        {INT64_MIN, "ffffffffffffffffff01"},
    };
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
        zs_avro_enc_reset (&e);
        zs_avro_enc_long (&e, longs[i].v);
        s_expect (&e, longs[i].hex);
    }
    zs_avro_enc_fini (&e);

    //  Nothing written into a new encoder (a zero-size fixed) is no
    //  failure: it used to read as out of memory, having no buffer yet.
    zs_avro_enc_init (&e);
    zs_avro_enc_fixed (&e, "", 0);
    assert_true (e.ok);
    zs_avro_enc_bool (&e, true);
    assert_true (e.ok);
    s_expect (&e, "01");
    zs_avro_enc_fini (&e);
}

static void
test_wire_bytes_more (void **state)
{
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_int (&e, INT32_MIN);
    s_expect (&e, "ffffffff0f");
    zs_avro_enc_reset (&e);
    zs_avro_enc_int (&e, INT32_MAX);
    s_expect (&e, "feffffff0f");
    zs_avro_enc_reset (&e);
    zs_avro_enc_string (&e, "foo");
    zs_avro_enc_bool (&e, true);
    zs_avro_enc_bool (&e, false);
    zs_avro_enc_null (&e);
    s_expect (&e, "06666f6f0100");
    zs_avro_enc_reset (&e);
    zs_avro_enc_double (&e, 1.0);
    zs_avro_enc_float (&e, 1.0f);
    s_expect (&e, "000000000000f03f0000803f");
    //  Arrays: one block then 0; an empty one is the 0 alone. Unions and
    //  enums: the index as a varint.
    zs_avro_enc_reset (&e);
    zs_avro_enc_array_start (&e, 2);
    zs_avro_enc_long (&e, 1);
    zs_avro_enc_long (&e, 2);
    zs_avro_enc_array_end (&e);
    zs_avro_enc_array_start (&e, 0);
    zs_avro_enc_array_end (&e);
    zs_avro_enc_union (&e, 1);
    zs_avro_enc_enum (&e, 3);
    zs_avro_enc_map_start (&e, 1);
    zs_avro_enc_string (&e, "k");
    zs_avro_enc_bytes (&e, "\x00\xff", 2);
    zs_avro_enc_map_end (&e);
    zs_avro_enc_fixed (&e, "AB", 2);
    s_expect (&e, "040204000002060202"
                  "6b0400ff004142");
    assert_true (e.ok);
    zs_avro_enc_fini (&e);
}

static void
test_round_trip (void **state)
{
    static const int64_t longs[] = {0,
                                    1,
                                    -1,
                                    63,
                                    64,
                                    -64,
                                    -65,
                                    127,
                                    128,
                                    8191,
                                    8192,
                                    INT32_MIN,
                                    INT32_MAX,
                                    (int64_t) INT32_MAX + 1,
                                    INT64_MIN,
                                    INT64_MAX,
                                    INT64_MIN + 1,
                                    INT64_MAX - 1,
                                    1LL << 62,
                                    -(1LL << 62)};
    static const int32_t ints[] = {0, 1, -1, 63, -64, 64, INT32_MIN, INT32_MAX, 1 << 20};
    static const double doubles[] = {0.0, -0.0, 1.5, -2.25e300, 5e-324, INFINITY, -INFINITY};
    static const float floats[] = {0.0f, -0.0f, 1.5f, 3.4e38f, 1e-45f, INFINITY};
    const size_t nl = sizeof longs / sizeof longs[0], ni = sizeof ints / sizeof ints[0];
    const size_t nd = sizeof doubles / sizeof doubles[0], nf = sizeof floats / sizeof floats[0];

    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    for (size_t i = 0; i < nl; i++)
        zs_avro_enc_long (&e, longs[i]);
    for (size_t i = 0; i < ni; i++)
        zs_avro_enc_int (&e, ints[i]);
    for (size_t i = 0; i < nd; i++)
        zs_avro_enc_double (&e, doubles[i]);
    for (size_t i = 0; i < nf; i++)
        zs_avro_enc_float (&e, floats[i]);
    zs_avro_enc_double (&e, NAN);
    zs_avro_enc_float (&e, NAN);
    zs_avro_enc_bool (&e, true);
    zs_avro_enc_bool (&e, false);
    zs_avro_enc_string (&e, "");
    zs_avro_enc_string (&e, "héllo, wörld");
    zs_avro_enc_bytes (&e, "a\0b", 3);
    char big[300];
    memset (big, 'x', sizeof big);
    zs_avro_enc_bytes (&e, big, sizeof big); //  two-byte length
    zs_avro_enc_fixed (&e, "0123456789abcdef", 16);
    zs_avro_enc_enum (&e, 2);
    zs_avro_enc_union (&e, 0);
    zs_avro_enc_null (&e);
    zs_avro_enc_union (&e, 1);
    zs_avro_enc_long (&e, -42);
    zs_avro_enc_map_start (&e, 2);
    zs_avro_enc_string (&e, "a");
    zs_avro_enc_long (&e, 1);
    zs_avro_enc_string (&e, "b");
    zs_avro_enc_long (&e, 2);
    zs_avro_enc_map_end (&e);
    assert_true (e.ok);

    zs_avro_dec_t d;
    zs_avro_dec_init (&d, e.data, e.len);
    for (size_t i = 0; i < nl; i++) {
        int64_t v;
        assert_int_equal (zs_avro_dec_long (&d, &v), 0);
        assert_true (v == longs[i]);
    }
    for (size_t i = 0; i < ni; i++) {
        int32_t v;
        assert_int_equal (zs_avro_dec_int (&d, &v), 0);
        assert_int_equal (v, ints[i]);
    }
    for (size_t i = 0; i < nd; i++) {
        double v;
        assert_int_equal (zs_avro_dec_double (&d, &v), 0);
        assert_memory_equal (&v, &doubles[i], 8); //  -0.0 stays -0.0
    }
    for (size_t i = 0; i < nf; i++) {
        float v;
        assert_int_equal (zs_avro_dec_float (&d, &v), 0);
        assert_memory_equal (&v, &floats[i], 4);
    }
    double dn;
    float fn;
    assert_int_equal (zs_avro_dec_double (&d, &dn), 0);
    assert_int_equal (zs_avro_dec_float (&d, &fn), 0);
    assert_true (isnan (dn) && isnan (fn));
    bool b;
    assert_int_equal (zs_avro_dec_bool (&d, &b), 0);
    assert_true (b);
    assert_int_equal (zs_avro_dec_bool (&d, &b), 0);
    assert_false (b);
    const uint8_t *p;
    size_t len;
    assert_int_equal (zs_avro_dec_string (&d, &p, &len), 0);
    assert_int_equal (len, 0);
    assert_int_equal (zs_avro_dec_string (&d, &p, &len), 0);
    assert_int_equal (len, strlen ("héllo, wörld"));
    assert_memory_equal (p, "héllo, wörld", len);
    assert_int_equal (zs_avro_dec_bytes (&d, &p, &len), 0);
    assert_int_equal (len, 3);
    assert_memory_equal (p, "a\0b", 3);
    assert_int_equal (zs_avro_dec_bytes (&d, &p, &len), 0);
    assert_int_equal (len, sizeof big);
    assert_memory_equal (p, big, sizeof big);
    assert_int_equal (zs_avro_dec_fixed (&d, 16, &p), 0);
    assert_memory_equal (p, "0123456789abcdef", 16);
    int idx;
    assert_int_equal (zs_avro_dec_enum (&d, 3, &idx), 0);
    assert_int_equal (idx, 2);
    assert_int_equal (zs_avro_dec_union (&d, 2, &idx), 0);
    assert_int_equal (idx, 0);
    assert_int_equal (zs_avro_dec_null (&d), 0);
    assert_int_equal (zs_avro_dec_union (&d, 2, &idx), 0);
    assert_int_equal (idx, 1);
    int64_t v, count, size;
    assert_int_equal (zs_avro_dec_long (&d, &v), 0);
    assert_true (v == -42);
    assert_int_equal (zs_avro_dec_block (&d, &count, &size), 0);
    assert_true (count == 2 && size == -1);
    for (int i = 0; i < 2; i++) {
        assert_int_equal (zs_avro_dec_string (&d, &p, &len), 0);
        assert_int_equal (zs_avro_dec_long (&d, &v), 0);
        assert_true (len == 1 && p[0] == "ab"[i] && v == i + 1);
    }
    assert_int_equal (zs_avro_dec_block (&d, &count, &size), 0);
    assert_true (count == 0);
    assert_null (d.error);
    assert_int_equal (zs_avro_dec_left (&d), 0);
    assert_int_equal (zs_avro_dec_offset (&d), e.len);
    //  Past the end: an error that stays.
    assert_int_equal (zs_avro_dec_long (&d, &v), -1);
    assert_non_null (d.error);
    assert_int_equal (zs_avro_dec_null (&d), -1);
    zs_avro_enc_fini (&e);
}

//  One value decoded from hex bytes: the call's result and error.
typedef enum { S_LONG, S_INT, S_BOOL, S_BYTES, S_UNION, S_ENUM, S_DOUBLE, S_FIXED } s_what_t;

static const char *
s_decode_one (const char *hex, s_what_t what)
{
    uint8_t raw[64];
    size_t n = strlen (hex) / 2;
    for (size_t i = 0; i < n; i++)
        sscanf (hex + 2 * i, "%2hhx", &raw[i]);
    uint8_t *buf = s_copy (raw, n);
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, buf, n);
    int64_t l;
    int32_t i32;
    bool b;
    const uint8_t *p;
    size_t len;
    int idx;
    double x;
    int rc = what == S_LONG    ? zs_avro_dec_long (&d, &l)
             : what == S_INT   ? zs_avro_dec_int (&d, &i32)
             : what == S_BOOL  ? zs_avro_dec_bool (&d, &b)
             : what == S_BYTES ? zs_avro_dec_bytes (&d, &p, &len)
             : what == S_UNION ? zs_avro_dec_union (&d, 2, &idx)
             : what == S_ENUM  ? zs_avro_dec_enum (&d, 3, &idx)
             : what == S_FIXED ? zs_avro_dec_fixed (&d, 4, &p)
                               : zs_avro_dec_double (&d, &x);
    assert_true (d.p >= buf && d.p <= buf + n);
    free (buf);
    assert_true ((rc == 0) == (d.error == NULL));
    return rc == 0 ? NULL : d.error;
}

static void
test_decode_errors (void **state)
{
    assert_null (s_decode_one ("ffffffffffffffffff01", S_LONG));
    assert_non_null (strstr (s_decode_one ("ffffffffffffffffff02", S_LONG), "64 bits"));
    assert_non_null (strstr (s_decode_one ("ffffffffffffffffffff01", S_LONG), "64 bits"));
    assert_non_null (strstr (s_decode_one ("ff", S_LONG), "truncated"));
    assert_non_null (strstr (s_decode_one ("", S_LONG), "truncated"));
    assert_null (s_decode_one ("feffffff0f", S_INT));
    assert_non_null (strstr (s_decode_one ("8080808010", S_INT), "int out of range"));
    assert_non_null (strstr (s_decode_one ("02", S_BOOL), "boolean"));
    assert_non_null (strstr (s_decode_one ("", S_BOOL), "truncated"));
    assert_non_null (strstr (s_decode_one ("01", S_BYTES), "negative"));
    assert_non_null (strstr (s_decode_one ("0661", S_BYTES), "longer than the bytes left"));
    assert_non_null (strstr (s_decode_one ("feffffffffffffffff01", S_BYTES), "longer"));
    assert_null (s_decode_one ("02", S_UNION));
    assert_non_null (strstr (s_decode_one ("04", S_UNION), "union"));
    assert_non_null (strstr (s_decode_one ("01", S_UNION), "union"));
    assert_non_null (strstr (s_decode_one ("06", S_ENUM), "enum"));
    assert_non_null (strstr (s_decode_one ("00000000000000", S_DOUBLE), "truncated"));
    assert_non_null (strstr (s_decode_one ("000000", S_FIXED), "truncated fixed"));
}

//  Arrays and maps whose blocks carry their byte size (a negative count),
//  as Avro writers with a buffering encoder make them.
static void
test_negative_block_counts (void **state)
{
    //  [1, 2] in a sized block, [3] in a plain one, the end; then a map
    //  {"k": 5} in a sized block.
    const uint8_t data[] = {0x03, 0x04, 0x02, 0x04, 0x02, 0x06, 0x00,
                            0x01, 0x06, 0x02, 'k',  0x0a, 0x00};
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, data, sizeof data);
    int64_t count, size, v, want = 1;
    while (zs_avro_dec_block (&d, &count, &size) == 0 && count > 0) {
        assert_true (size == (want == 1 ? 2 : -1));
        for (int64_t i = 0; i < count; i++) {
            assert_int_equal (zs_avro_dec_long (&d, &v), 0);
            assert_true (v == want++);
        }
    }
    assert_null (d.error);
    assert_true (want == 4);
    assert_int_equal (zs_avro_dec_block (&d, &count, &size), 0);
    assert_true (count == 1 && size == 3);
    const uint8_t *key;
    size_t len;
    assert_int_equal (zs_avro_dec_string (&d, &key, &len), 0);
    assert_int_equal (zs_avro_dec_long (&d, &v), 0);
    assert_true (len == 1 && key[0] == 'k' && v == 5);
    assert_int_equal (zs_avro_dec_block (&d, &count, &size), 0);
    assert_true (count == 0 && zs_avro_dec_left (&d) == 0);

    //  The same bytes skipped by schema: sized blocks are jumped over.
    char err[ZS_ERRLEN];
    const char *js =
        "[{\"type\":\"array\",\"items\":\"long\"},{\"type\":\"map\",\"values\":\"long\"}]";
    zs_avro_schema_t *s = zs_avro_schema_parse (js, strlen (js), err, sizeof err);
    assert_non_null (s);
    const zs_avro_node_t *u = zs_avro_schema_root (s);
    zs_avro_dec_init (&d, data, sizeof data);
    assert_int_equal (zs_avro_dec_skip (&d, u->types[0]), 0);
    assert_int_equal (zs_avro_dec_skip (&d, u->types[1]), 0);
    assert_int_equal (zs_avro_dec_left (&d), 0);
    zs_avro_schema_destroy (&s);

    //  Hostile headers: a count of INT64_MIN, a size past the end, more
    //  items than bytes (sized and not), a negative size.
    const struct {
        const char *bytes;
        size_t len;
        const char *why;
    } bad[] = {
        {"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, "out of range"},
        {"\x03\x10\x02\x04", 4, "longer than the bytes left"},
        {"\x05\x02\x02\x04", 4, "more items than bytes"},
        {"\x08\x02\x04", 3, "more items than bytes left"},
        {"\x03\x01\x02\x04", 4, "negative"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *buf = s_copy (bad[i].bytes, bad[i].len);
        zs_avro_dec_init (&d, buf, bad[i].len);
        assert_int_equal (zs_avro_dec_block (&d, &count, &size), -1);
        assert_non_null (strstr (d.error, bad[i].why));
        free (buf);
    }
}

//  --------------------------------------------------------------------------
//  Schemas

//  A manifest-like schema: namespaces, a record used by name twice,
//  unions, arrays, maps, enum, fixed, logical types, and a recursive
//  record (through a union).
static const char *s_rich_schema =
    "{\"type\":\"record\",\"name\":\"Entry\",\"namespace\":\"org.example\",\"fields\":["
    "{\"name\":\"_KIND\",\"type\":\"int\"},"
    "{\"name\":\"_MIN\",\"type\":{\"type\":\"record\",\"name\":\"Stats\",\"fields\":["
    "{\"name\":\"nulls\",\"type\":{\"type\":\"array\",\"items\":[\"null\",\"long\"]}}]}},"
    "{\"name\":\"_MAX\",\"type\":\"Stats\"},"
    "{\"name\":\"_TIME\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-"
    "millis\"}]},"
    "{\"name\":\"color\",\"type\":{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"R\",\"G\","
    "\"B\"]}},"
    "{\"name\":\"id\",\"type\":{\"type\":\"fixed\",\"name\":\"other.Id\",\"size\":4}},"
    "{\"name\":\"props\",\"type\":{\"type\":\"map\",\"values\":\"string\"}},"
    "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"},"
    "{\"name\":\"b\",\"type\":\"boolean\"},{\"name\":\"raw\",\"type\":\"bytes\"},"
    "{\"name\":\"next\",\"type\":[\"null\",\"Entry\"]}]}";

//  One Entry of s_rich_schema; depth more follow through "next".
static void
s_rich_datum (zs_avro_enc_t *e, int depth)
{
    zs_avro_enc_int (e, 1);
    for (int s = 0; s < 2; s++) {
        zs_avro_enc_array_start (e, 2);
        zs_avro_enc_union (e, 0);
        zs_avro_enc_union (e, 1);
        zs_avro_enc_long (e, 7);
        zs_avro_enc_array_end (e);
    }
    zs_avro_enc_union (e, 1);
    zs_avro_enc_long (e, 1700000000000);
    zs_avro_enc_enum (e, 2);
    zs_avro_enc_fixed (e, "\x01\x02\x03\x04", 4);
    zs_avro_enc_map_start (e, 1);
    zs_avro_enc_string (e, "k");
    zs_avro_enc_string (e, "v");
    zs_avro_enc_map_end (e);
    zs_avro_enc_float (e, 1.0f);
    zs_avro_enc_double (e, 2.0);
    zs_avro_enc_bool (e, true);
    zs_avro_enc_bytes (e, "xyz", 3);
    zs_avro_enc_union (e, depth > 0 ? 1 : 0);
    if (depth > 0)
        s_rich_datum (e, depth - 1);
}

static void
test_schema (void **state)
{
    char err[ZS_ERRLEN];
    zs_avro_schema_t *s =
        zs_avro_schema_parse (s_rich_schema, strlen (s_rich_schema), err, sizeof err);
    if (!s)
        fail_msg ("%s", err);
    const zs_avro_node_t *root = zs_avro_schema_root (s);
    assert_int_equal (root->kind, ZS_AVRO_RECORD);
    assert_string_equal (root->name, "org.example.Entry");
    assert_int_equal (root->size, 12);
    assert_int_equal (zs_avro_field_index (root, "_KIND"), 0);
    assert_int_equal (zs_avro_field_index (root, "next"), 11);
    assert_int_equal (zs_avro_field_index (root, "nope"), -1);
    const zs_avro_node_t *min = root->types[1], *max = root->types[2];
    assert_ptr_equal (min, max); //  one node for a named type
    assert_string_equal (min->name, "org.example.Stats");
    assert_int_equal (min->types[0]->kind, ZS_AVRO_ARRAY);
    assert_int_equal (min->types[0]->types[0]->kind, ZS_AVRO_UNION);
    const zs_avro_node_t *time = root->types[3];
    assert_int_equal (time->kind, ZS_AVRO_UNION);
    assert_int_equal (time->types[0]->kind, ZS_AVRO_NULL);
    assert_string_equal (time->types[1]->logical_type, "timestamp-millis");
    assert_int_equal (root->types[4]->kind, ZS_AVRO_ENUM);
    assert_int_equal (root->types[4]->size, 3);
    assert_string_equal (root->types[4]->names[2], "B");
    assert_string_equal (root->types[5]->name, "other.Id");
    assert_int_equal (root->types[5]->size, 4);
    assert_ptr_equal (root->types[11]->types[1], root); //  recursion

    //  Skipping a datum lands exactly at its end.
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    s_rich_datum (&e, 3);
    size_t datum_len = e.len;
    zs_avro_enc_long (&e, 99);
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, e.data, e.len);
    assert_int_equal (zs_avro_dec_skip (&d, root), 0);
    int64_t v;
    assert_int_equal (zs_avro_dec_long (&d, &v), 0);
    assert_true (v == 99 && zs_avro_dec_left (&d) == 0);
    //  …and every shorter input fails.
    for (size_t cut = 0; cut < datum_len; cut++) {
        uint8_t *buf = s_copy (e.data, cut);
        zs_avro_dec_init (&d, buf, cut);
        assert_int_equal (zs_avro_dec_skip (&d, root), -1);
        free (buf);
    }
    zs_avro_enc_fini (&e);
    zs_avro_schema_destroy (&s);
    zs_avro_schema_destroy (&s); //  NULL is fine

    //  A primitive alone, and in an object.
    s = zs_avro_schema_parse ("\"long\"", 6, err, sizeof err);
    assert_non_null (s);
    assert_int_equal (zs_avro_schema_root (s)->kind, ZS_AVRO_LONG);
    zs_avro_schema_destroy (&s);
    const char *date = "{\"type\":\"int\",\"logicalType\":\"date\"}";
    s = zs_avro_schema_parse (date, strlen (date), err, sizeof err);
    assert_non_null (s);
    assert_string_equal (zs_avro_schema_root (s)->logical_type, "date");
    zs_avro_schema_destroy (&s);
}

static void
test_schema_errors (void **state)
{
    const struct {
        const char *json;
        const char *why;
    } bad[] = {
        {"{", "not JSON"},
        {"\"foo\"", "unknown type 'foo'"},
        {"{\"type\":\"record\",\"fields\":[]}", "without a name"},
        {"{\"type\":\"record\",\"name\":\"R\"}", "no fields"},
        {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
         "{\"name\":\"a\",\"type\":\"long\"}]}",
         "two fields named 'a'"},
        {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\"}]}", "has no type"},
        {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"me\",\"type\":\"R\"}]}",
         "contains itself"},
        {"[{\"type\":\"fixed\",\"name\":\"F\",\"size\":1},{\"type\":\"fixed\",\"name\":\"F\","
         "\"size\":2}]",
         "defined twice"},
        {"{\"type\":\"fixed\",\"name\":\"F\",\"size\":-1}", "size"},
        {"{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[]}", "without symbols"},
        {"{\"type\":\"array\"}", "without 'items'"},
        {"[]", "without branches"},
        {"[\"null\",[\"int\"]]", "union directly inside a union"},
        {"42", "neither"},
        {"{\"type\":42}", "without a type"},
    };
    char err[ZS_ERRLEN];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        zs_avro_schema_t *s =
            zs_avro_schema_parse (bad[i].json, strlen (bad[i].json), err, sizeof err);
        assert_null (s);
        if (!strstr (err, bad[i].why))
            fail_msg ("%s: got '%s', want '%s'", bad[i].json, err, bad[i].why);
    }
    //  Nesting beyond the limit, in JSON and through named records.
    char deep[4096] = "";
    for (int i = 0; i < 80; i++)
        strcat (deep, "{\"type\":\"array\",\"items\":");
    strcat (deep, "\"int\"");
    for (int i = 0; i < 80; i++)
        strcat (deep, "}");
    assert_null (zs_avro_schema_parse (deep, strlen (deep), err, sizeof err));
    assert_non_null (strstr (err, "nested deeper"));
    //  R<i> holds R<i-1>: 80 records deep, each defined apart.
    char *fixed = malloc (32768);
    fixed[0] = 0;
    strcat (fixed, "[");
    for (int i = 0; i < 80; i++) {
        char one[256];
        if (i == 0)
            sprintf (one, "{\"type\":\"record\",\"name\":\"R0\",\"fields\":[{\"name\":\"x\","
                          "\"type\":\"int\"}]}");
        else
            sprintf (one,
                     ",{\"type\":\"record\",\"name\":\"R%d\",\"fields\":[{\"name\":\"x\","
                     "\"type\":\"R%d\"}]}",
                     i, i - 1);
        strcat (fixed, one);
    }
    strcat (fixed, "]");
    assert_null (zs_avro_schema_parse (fixed, strlen (fixed), err, sizeof err));
    assert_non_null (strstr (err, "records nested deeper"));
    free (fixed);
}

//  Records of records of nulls, each used twice: walked naively, skipping
//  one value would take 2^60 steps although it encodes to no bytes.
static void
test_schema_zero_bytes (void **state)
{
    char *json = malloc (65536);
    strcpy (json,
            "[{\"type\":\"record\",\"name\":\"Z0\",\"fields\":[{\"name\":\"a\",\"type\":\"null\"},"
            "{\"name\":\"b\",\"type\":\"null\"}]}");
    for (int i = 1; i <= 60; i++)
        sprintf (
            json + strlen (json),
            ",{\"type\":\"record\",\"name\":\"Z%d\",\"fields\":[{\"name\":\"a\",\"type\":\"Z%d\"},"
            "{\"name\":\"b\",\"type\":\"Z%d\"}]}",
            i, i - 1, i - 1);
    strcat (json, ",{\"type\":\"array\",\"items\":\"Z60\"}]");
    char err[ZS_ERRLEN];
    zs_avro_schema_t *s = zs_avro_schema_parse (json, strlen (json), err, sizeof err);
    if (!s)
        fail_msg ("%s", err);
    const zs_avro_node_t *u = zs_avro_schema_root (s);
    assert_int_equal (u->size, 62);
    //  Branch 60 (Z60 itself), then branch 61 (the array) of 1 item.
    const uint8_t bytes[] = {0x78, 0x7a, 0x02, 0x00};
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, bytes, sizeof bytes);
    assert_int_equal (zs_avro_dec_skip (&d, u), 0);
    assert_int_equal (zs_avro_dec_offset (&d), 1);
    assert_int_equal (zs_avro_dec_skip (&d, u), 0);
    assert_int_equal (zs_avro_dec_left (&d), 0);
    zs_avro_schema_destroy (&s);
    free (json);
}

//  --------------------------------------------------------------------------
//  Container files

static const char *s_row_schema =
    "{\"type\":\"record\",\"name\":\"Row\",\"namespace\":\"zsink.test\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"long\"},"
    "{\"name\":\"name\",\"type\":\"string\"},"
    "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
    "{\"name\":\"ts\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}]}"
    ","
    "{\"name\":\"score\",\"type\":\"double\"},"
    "{\"name\":\"ok\",\"type\":\"boolean\"}]}";

static void
s_row (zs_avro_enc_t *e, int i)
{
    char text[32];
    zs_avro_enc_long (e, (int64_t) i * 7919 - 5000);
    snprintf (text, sizeof text, "name-%d", i);
    zs_avro_enc_string (e, text);
    zs_avro_enc_array_start (e, (size_t) (i % 3));
    for (int t = 0; t < i % 3; t++) {
        snprintf (text, sizeof text, "t%d", t);
        zs_avro_enc_string (e, text);
    }
    zs_avro_enc_array_end (e);
    zs_avro_enc_union (e, i % 2 ? 0 : 1);
    if (i % 2 == 0)
        zs_avro_enc_long (e, 1700000000000 + i);
    zs_avro_enc_double (e, i / 4.0);
    zs_avro_enc_bool (e, i % 5 == 0);
}

//  Decode object i and compare with s_row's: 0 when equal.
static int
s_check_row (zs_avro_dec_t *d, int i)
{
    char text[32];
    int64_t id, ts, count, size;
    const uint8_t *p;
    size_t len;
    int branch;
    double score;
    bool ok;
    if (zs_avro_dec_long (d, &id) != 0 || id != (int64_t) i * 7919 - 5000)
        return -1;
    snprintf (text, sizeof text, "name-%d", i);
    if (zs_avro_dec_string (d, &p, &len) != 0 || len != strlen (text) || memcmp (p, text, len))
        return -1;
    int t = 0;
    while (zs_avro_dec_block (d, &count, &size) == 0 && count > 0)
        for (int64_t k = 0; k < count; k++, t++) {
            snprintf (text, sizeof text, "t%d", t);
            if (zs_avro_dec_string (d, &p, &len) != 0 || len != strlen (text)
                || memcmp (p, text, len))
                return -1;
        }
    if (d->error || t != i % 3)
        return -1;
    if (zs_avro_dec_union (d, 2, &branch) != 0 || branch != (i % 2 ? 0 : 1))
        return -1;
    if (branch == 1 && (zs_avro_dec_long (d, &ts) != 0 || ts != 1700000000000 + i))
        return -1;
    if (zs_avro_dec_double (d, &score) != 0 || score != i / 4.0)
        return -1;
    if (zs_avro_dec_bool (d, &ok) != 0 || ok != (i % 5 == 0))
        return -1;
    return 0;
}

//  A file of n rows, blocks ending at block_size bytes; exact-size copy.
static uint8_t *
s_make_file (zs_avro_codec_t codec, int n, size_t block_size, size_t *len)
{
    char err[ZS_ERRLEN];
    zs_avro_writer_t *w = zs_avro_writer_new (s_row_schema, codec, 0, err, sizeof err);
    if (!w)
        fail_msg ("%s", err);
    assert_int_equal (zs_avro_writer_set_sync (w, s_sync), 0);
    zs_avro_writer_set_block_size (w, block_size);
    for (int i = 0; i < n; i++) {
        s_row (zs_avro_writer_object (w), i);
        assert_int_equal (zs_avro_writer_object_end (w), 0);
    }
    assert_true (zs_avro_writer_count (w) == n);
    const uint8_t *data = zs_avro_writer_finish (w, len);
    assert_non_null (data);
    uint8_t *copy = s_copy (data, *len);
    zs_avro_writer_destroy (&w);
    assert_null (w);
    return copy;
}

//  Read a whole file of rows: 0 with the rows and blocks seen, or the
//  error (ZS_ECORRUPT for the reader's, -1 for rows that do not match).
static int
s_read_file (const uint8_t *data, size_t len, int *rows, int *blocks, char *err, size_t errlen)
{
    *rows = *blocks = 0;
    zs_avro_reader_t *r = zs_avro_reader_new (data, len, err, errlen);
    if (!r)
        return ZS_ECORRUPT;
    zs_avro_reader_set_block_max (r, 64 << 20);
    int64_t count;
    zs_avro_dec_t d;
    int rc;
    while ((rc = zs_avro_reader_next (r, &count, &d, err, errlen)) == 1) {
        (*blocks)++;
        for (int64_t i = 0; i < count; i++)
            if (s_check_row (&d, (*rows)++) != 0) {
                snprintf (err, errlen, "row %d: %s", *rows - 1, d.error ? d.error : "differs");
                rc = -1;
                break;
            }
        if (rc == 1 && zs_avro_dec_left (&d) != 0) {
            snprintf (err, errlen, "bytes left after the block's objects");
            rc = -1;
        }
        if (rc != 1)
            break;
    }
    zs_avro_reader_destroy (&r);
    return rc;
}

static void
test_ocf_round_trip (void **state)
{
    const zs_avro_codec_t codecs[] = {ZS_AVRO_CODEC_NULL, ZS_AVRO_CODEC_DEFLATE,
                                      ZS_AVRO_CODEC_ZSTANDARD};
    for (size_t c = 0; c < 3; c++) {
        size_t len;
        uint8_t *data = s_make_file (codecs[c], 1000, 2000, &len);
        assert_memory_equal (data, "Obj\1", 4);
        char err[ZS_ERRLEN];
        zs_avro_reader_t *r = zs_avro_reader_new (data, len, err, sizeof err);
        if (!r)
            fail_msg ("%s", err);
        size_t slen;
        assert_string_equal (zs_avro_reader_schema (r, &slen), s_row_schema); //  verbatim
        assert_int_equal (slen, strlen (s_row_schema));
        assert_int_equal (zs_avro_reader_codec (r), codecs[c]);
        const uint8_t *v;
        size_t vlen;
        assert_int_equal (zs_avro_reader_meta (r, "avro.codec", &v, &vlen), 0);
        assert_int_equal (vlen, strlen (zs_avro_codec_name (codecs[c])));
        assert_memory_equal (v, zs_avro_codec_name (codecs[c]), vlen);
        assert_int_equal (zs_avro_reader_meta (r, "nope", &v, &vlen), ZS_ENOENT);
        zs_avro_reader_destroy (&r);

        int rows, blocks;
        int rc = s_read_file (data, len, &rows, &blocks, err, sizeof err);
        if (rc != 0)
            fail_msg ("%s: %s", zs_avro_codec_name (codecs[c]), err);
        assert_int_equal (rows, 1000);
        assert_true (blocks > 5); //  several blocks
        //  The sync marker follows the header and every block.
        assert_memory_equal (data + len - 16, s_sync, 16);
        free (data);
    }
    //  A file without objects is the header alone, and reads as empty.
    size_t len;
    uint8_t *data = s_make_file (ZS_AVRO_CODEC_ZSTANDARD, 0, 100, &len);
    int rows, blocks;
    char err[ZS_ERRLEN];
    assert_int_equal (s_read_file (data, len, &rows, &blocks, err, sizeof err), 0);
    assert_int_equal (rows + blocks, 0);
    assert_memory_equal (data + len - 16, s_sync, 16);
    free (data);
    //  Compression works: 1000 rows compress.
    size_t plain, packed;
    uint8_t *a = s_make_file (ZS_AVRO_CODEC_NULL, 1000, 64000, &plain);
    uint8_t *b = s_make_file (ZS_AVRO_CODEC_ZSTANDARD, 1000, 64000, &packed);
    assert_true (packed < plain / 2);
    free (a);
    free (b);
}

static void
test_writer_api (void **state)
{
    char err[ZS_ERRLEN];
    assert_null (zs_avro_writer_new (s_row_schema, ZS_AVRO_CODEC_SNAPPY, 0, err, sizeof err));
    assert_non_null (strstr (err, "snappy"));
    assert_null (
        zs_avro_writer_new ("{\"type\":\"recod\"}", ZS_AVRO_CODEC_NULL, 0, err, sizeof err));
    assert_non_null (strstr (err, "recod"));
    assert_null (zs_avro_writer_new (s_row_schema, ZS_AVRO_CODEC_DEFLATE, 10, err, sizeof err));
    assert_non_null (strstr (err, "level"));
    assert_null (zs_avro_writer_new (s_row_schema, ZS_AVRO_CODEC_ZSTANDARD, 1000, err, sizeof err));
    assert_non_null (strstr (err, "level"));

    zs_avro_writer_t *w =
        zs_avro_writer_new (s_row_schema, ZS_AVRO_CODEC_ZSTANDARD, 1, err, sizeof err);
    assert_non_null (w);
    zs_avro_writer_set_block_size (w, 1); //  a block per object
    s_row (zs_avro_writer_object (w), 0);
    assert_int_equal (zs_avro_writer_object_end (w), 0);
    assert_int_equal (zs_avro_writer_set_sync (w, s_sync), -1); //  too late
    size_t len1, len2;
    const uint8_t *d1 = zs_avro_writer_finish (w, &len1);
    const uint8_t *d2 = zs_avro_writer_finish (w, &len2);
    assert_true (d1 && d1 == d2 && len1 == len2);
    assert_int_equal (zs_avro_writer_object_end (w), -1); //  finished
    zs_avro_writer_destroy (&w);
    zs_avro_writer_destroy (&w);

    //  Random sync markers differ between files.
    uint8_t syncs[2][16];
    for (int i = 0; i < 2; i++) {
        w = zs_avro_writer_new (s_row_schema, ZS_AVRO_CODEC_NULL, 0, err, sizeof err);
        const uint8_t *data = zs_avro_writer_finish (w, &len1);
        memcpy (syncs[i], data + len1 - 16, 16);
        zs_avro_writer_destroy (&w);
    }
    assert_memory_not_equal (syncs[0], syncs[1], 16);
}

//  A container file by hand: header with the given codec name (NULL: no
//  avro.codec) and extra metadata, then raw block bytes.
static uint8_t *
s_hand_file (const char *codec, const void *blocks, size_t blen, size_t *len)
{
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_fixed (&e, "Obj\1", 4);
    zs_avro_enc_map_start (&e, codec ? 2 : 1);
    zs_avro_enc_string (&e, "avro.schema");
    zs_avro_enc_string (&e, s_row_schema);
    if (codec) {
        zs_avro_enc_string (&e, "avro.codec");
        zs_avro_enc_string (&e, codec);
    }
    zs_avro_enc_map_end (&e);
    zs_avro_enc_fixed (&e, s_sync, 16);
    zs_avro_enc_fixed (&e, blocks, blen);
    uint8_t *copy = s_copy (e.data, e.len);
    *len = e.len;
    zs_avro_enc_fini (&e);
    return copy;
}

static void
s_hand_block (zs_avro_enc_t *e, int64_t count, const void *data, size_t len)
{
    zs_avro_enc_long (e, count);
    zs_avro_enc_long (e, (int64_t) len);
    zs_avro_enc_fixed (e, data, len);
    zs_avro_enc_fixed (e, s_sync, 16);
}

//  Snappy as a minimal compressor makes it: literals only, 60 bytes each.
static void
s_snappy_literals (zs_avro_enc_t *out, const uint8_t *data, size_t len)
{
    uint8_t v[5];
    size_t n = 0;
    uint64_t l = len;
    do {
        v[n++] = (uint8_t) (l & 0x7F) | (l > 0x7F ? 0x80 : 0);
        l >>= 7;
    } while (l);
    zs_avro_enc_fixed (out, v, n);
    for (size_t at = 0; at < len; at += 60) {
        size_t k = len - at < 60 ? len - at : 60;
        uint8_t tag = (uint8_t) ((k - 1) << 2);
        zs_avro_enc_fixed (out, &tag, 1);
        zs_avro_enc_fixed (out, data + at, k);
    }
    uint32_t crc = (uint32_t) crc32 (0, data, (uInt) len);
    uint8_t be[4] = {(uint8_t) (crc >> 24), (uint8_t) (crc >> 16), (uint8_t) (crc >> 8),
                     (uint8_t) crc};
    zs_avro_enc_fixed (out, be, 4);
}

//  A snappy file written by python3-avro (s_py_snappy, s_py_schema_text).
#include "avro_py_snappy.h"

static void
test_snappy (void **state)
{
    //  The snappy module itself: a literal then an overlapping copy
    //  ("ab" then 6 more bytes from 2 back) is "abababab".
    const uint8_t block[] = {0x08, 0x04, 'a', 'b', 0x09, 0x02};
    uint8_t out[8];
    size_t len;
    assert_int_equal (zs_snappy_length (block, sizeof block, &len), 0);
    assert_int_equal (len, 8);
    assert_int_equal (zs_snappy_decompress (block, sizeof block, out, 8), 0);
    assert_memory_equal (out, "abababab", 8);
    assert_int_equal (zs_snappy_decompress (block, sizeof block, out, 7), -1);
    const uint8_t far[] = {0x08, 0x04, 'a', 'b', 0x09, 0x03}; //  copy from before the start
    assert_int_equal (zs_snappy_decompress (far, sizeof far, out, 8), -1);

    //  A snappy container file of 300 rows in two blocks.
    zs_avro_enc_t rows, blocks;
    zs_avro_enc_init (&rows);
    zs_avro_enc_init (&blocks);
    for (int half = 0; half < 2; half++) {
        zs_avro_enc_t z;
        zs_avro_enc_init (&z);
        zs_avro_enc_reset (&rows);
        for (int i = half * 150; i < half * 150 + 150; i++)
            s_row (&rows, i);
        s_snappy_literals (&z, rows.data, rows.len);
        s_hand_block (&blocks, 150, z.data, z.len);
        zs_avro_enc_fini (&z);
    }
    size_t flen;
    uint8_t *file = s_hand_file ("snappy", blocks.data, blocks.len, &flen);
    int nrows, nblocks;
    char err[ZS_ERRLEN];
    if (s_read_file (file, flen, &nrows, &nblocks, err, sizeof err) != 0)
        fail_msg ("%s", err);
    assert_int_equal (nrows, 300);
    assert_int_equal (nblocks, 2);
    //  A wrong CRC (last byte before the first block's sync).
    file[flen - 16 - 1] ^= 1;
    assert_int_equal (s_read_file (file, flen, &nrows, &nblocks, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "CRC"));
    assert_non_null (strstr (err, "block 1"));
    free (file);
    zs_avro_enc_fini (&rows);
    zs_avro_enc_fini (&blocks);

    //  python3-avro's file: real snappy, and its CRC.
    uint8_t *py = s_copy (s_py_snappy, sizeof s_py_snappy);
    zs_avro_reader_t *r = zs_avro_reader_new (py, sizeof s_py_snappy, err, sizeof err);
    if (!r)
        fail_msg ("%s", err);
    assert_int_equal (zs_avro_reader_codec (r), ZS_AVRO_CODEC_SNAPPY);
    assert_string_equal (zs_avro_reader_schema (r, NULL), s_py_schema_text);
    int64_t count, total = 0;
    zs_avro_dec_t d;
    int rc;
    while ((rc = zs_avro_reader_next (r, &count, &d, err, sizeof err)) == 1) {
        for (int64_t i = 0; i < count; i++, total++) {
            int64_t id;
            const uint8_t *p;
            size_t plen;
            char want[16];
            snprintf (want, sizeof want, "name-%d", (int) (total % 3));
            assert_int_equal (zs_avro_dec_long (&d, &id), 0);
            assert_int_equal (zs_avro_dec_string (&d, &p, &plen), 0);
            assert_true (id == total);
            assert_int_equal (plen, strlen (want));
            assert_memory_equal (p, want, plen);
        }
        assert_int_equal (zs_avro_dec_left (&d), 0);
    }
    if (rc != 0)
        fail_msg ("%s", err);
    assert_true (total == 50);
    zs_avro_reader_destroy (&r);
    free (py);
}

static void
test_unknown_codec (void **state)
{
    const char *names[] = {"bzip2", "xz", "zstd", "", "Snappy"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len;
        uint8_t *file = s_hand_file (names[i], NULL, 0, &len);
        char err[ZS_ERRLEN], want[64];
        assert_null (zs_avro_reader_new (file, len, err, sizeof err));
        snprintf (want, sizeof want, "unsupported codec '%s'", names[i]);
        if (!strstr (err, want))
            fail_msg ("got '%s', want '%s'", err, want);
        free (file);
    }
    //  No avro.codec at all means null.
    size_t len;
    uint8_t *file = s_hand_file (NULL, NULL, 0, &len);
    char err[ZS_ERRLEN];
    zs_avro_reader_t *r = zs_avro_reader_new (file, len, err, sizeof err);
    assert_non_null (r);
    assert_int_equal (zs_avro_reader_codec (r), ZS_AVRO_CODEC_NULL);
    zs_avro_reader_destroy (&r);
    free (file);
}

//  Every cut of a file is an error, except right after a block (or the
//  header): Avro has no end marker, so that is a valid shorter file.
static void
test_truncation (void **state)
{
    const zs_avro_codec_t codecs[] = {ZS_AVRO_CODEC_NULL, ZS_AVRO_CODEC_DEFLATE,
                                      ZS_AVRO_CODEC_ZSTANDARD};
    for (size_t c = 0; c < 3; c++) {
        size_t len;
        uint8_t *data = s_make_file (codecs[c], 40, 300, &len);
        int boundaries = 0;
        for (size_t cut = 0; cut < len; cut++) {
            uint8_t *copy = s_copy (data, cut);
            int rows, blocks;
            char err[ZS_ERRLEN] = "";
            int rc = s_read_file (copy, cut, &rows, &blocks, err, sizeof err);
            bool boundary = cut >= 16 && memcmp (data + cut - 16, s_sync, 16) == 0;
            if (boundary) {
                assert_int_equal (rc, 0);
                assert_true (rows < 40);
                boundaries++;
            } else {
                if (rc != ZS_ECORRUPT)
                    fail_msg ("%s cut at %zu of %zu: rc %d", zs_avro_codec_name (codecs[c]), cut,
                              len, rc);
                assert_true (strlen (err) > 0);
            }
            free (copy);
        }
        assert_true (boundaries > 3);
        free (data);
    }
}

//  Bit flips: never a crash, whatever the codec. A flip may leave the data
//  as it was (a zstd frame header's unused bit, a don't-care bit of an
//  entropy-coded stream): the file then reads whole and equal. With null
//  and deflate a flip inside a value goes unnoticed by the reader (the
//  rows differ), which is those codecs' nature; with zstandard the frame
//  checksum catches it, so no flip ever yields different values.
static void
test_bit_flips (void **state)
{
    const zs_avro_codec_t codecs[] = {ZS_AVRO_CODEC_ZSTANDARD, ZS_AVRO_CODEC_NULL,
                                      ZS_AVRO_CODEC_DEFLATE};
    for (size_t c = 0; c < 3; c++) {
        size_t len;
        uint8_t *data = s_make_file (codecs[c], 60, 400, &len);
        size_t header = (size_t) ((uint8_t *) memmem (data, len, s_sync, 16) - data) + 16;
        int caught = 0, same = 0, differ = 0;
        for (size_t bit = 8 * header; bit < 8 * len; bit++) {
            uint8_t *copy = s_copy (data, len);
            copy[bit / 8] ^= (uint8_t) (1u << (bit % 8));
            int rows, blocks;
            char err[ZS_ERRLEN] = "";
            int rc = s_read_file (copy, len, &rows, &blocks, err, sizeof err);
            if (rc == 0 && rows == 60)
                same++;
            else if (rc == -1 && strstr (err, "differs"))
                differ++;
            else
                caught++;
            free (copy);
        }
        printf ("# %s: of %zu flips after the header, %d caught, %d read back equal, %d "
                "differ\n",
                zs_avro_codec_name (codecs[c]), 8 * (len - header), caught, same, differ);
        if (codecs[c] == ZS_AVRO_CODEC_ZSTANDARD)
            assert_int_equal (differ, 0);
        free (data);
    }
    //  Flips in the header: anything but a crash.
    size_t len;
    uint8_t *data = s_make_file (ZS_AVRO_CODEC_ZSTANDARD, 5, 400, &len);
    for (size_t bit = 0; bit < 8 * 400; bit++) {
        uint8_t *copy = s_copy (data, len);
        copy[bit / 8] ^= (uint8_t) (1u << (bit % 8));
        int rows, blocks;
        char err[ZS_ERRLEN];
        s_read_file (copy, len, &rows, &blocks, err, sizeof err);
        free (copy);
    }
    free (data);
}

//  A zstd frame of n zero bytes, made a MiB at a time.
static uint8_t *
s_zstd_zeros (size_t n, size_t *zlen)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx ();
    size_t cap = 1 << 20, chunk = 1 << 20;
    uint8_t *z = malloc (cap), *zeros = calloc (1, chunk);
    ZSTD_outBuffer out = {z, cap, 0};
    for (size_t done = 0; done < n;) {
        size_t k = n - done < chunk ? n - done : chunk;
        ZSTD_inBuffer in = {zeros, k, 0};
        ZSTD_EndDirective end = done + k == n ? ZSTD_e_end : ZSTD_e_continue;
        size_t rc;
        do
            rc = ZSTD_compressStream2 (cctx, &out, &in, end);
        while (!ZSTD_isError (rc) && (in.pos < in.size || (end == ZSTD_e_end && rc != 0)));
        assert_false (ZSTD_isError (rc));
        done += k;
    }
    ZSTD_freeCCtx (cctx);
    free (zeros);
    *zlen = out.pos;
    return z;
}

static int
s_read_raw (const uint8_t *file, size_t len, size_t block_max, char *err, size_t errlen)
{
    zs_avro_reader_t *r = zs_avro_reader_new (file, len, err, errlen);
    if (!r)
        return -1;
    if (block_max)
        zs_avro_reader_set_block_max (r, block_max);
    int64_t count;
    zs_avro_dec_t d;
    int rc;
    while ((rc = zs_avro_reader_next (r, &count, &d, err, errlen)) == 1)
        ;
    zs_avro_reader_destroy (&r);
    return rc;
}

static void
test_bombs (void **state)
{
    char err[ZS_ERRLEN];
    //  300 MB of zeros in a few kB of zstd: refused at the default cap.
    size_t zlen, flen;
    uint8_t *z = s_zstd_zeros ((size_t) 300 << 20, &zlen);
    assert_true (zlen < 100000);
    zs_avro_enc_t b;
    zs_avro_enc_init (&b);
    s_hand_block (&b, 1, z, zlen);
    uint8_t *file = s_hand_file ("zstandard", b.data, b.len, &flen);
    assert_int_equal (s_read_raw (file, flen, 0, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "larger than the limit"));
    //  A lower cap stops it sooner.
    assert_int_equal (s_read_raw (file, flen, 1 << 20, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "larger than the limit"));
    free (file);
    free (z);

    //  Deflate: 20 MB of zeros, cap 1 MB.
    size_t n = 20 << 20;
    uint8_t *zeros = calloc (1, n);
    uLong bound = compressBound (n);
    uint8_t *d = malloc (bound);
    z_stream zs;
    memset (&zs, 0, sizeof zs);
    assert_int_equal (deflateInit2 (&zs, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = zeros;
    zs.avail_in = (uInt) n;
    zs.next_out = d;
    zs.avail_out = (uInt) bound;
    assert_int_equal (deflate (&zs, Z_FINISH), Z_STREAM_END);
    zs_avro_enc_reset (&b);
    s_hand_block (&b, 1, d, zs.total_out);
    deflateEnd (&zs);
    file = s_hand_file ("deflate", b.data, b.len, &flen);
    assert_int_equal (s_read_raw (file, flen, 1 << 20, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "larger than the limit"));
    //  …and read whole under a cap above it.
    assert_int_equal (s_read_raw (file, flen, 32 << 20, err, sizeof err), 0);
    free (file);
    free (d);
    free (zeros);

    //  Snappy announcing 2^32 bytes from 10: refused before allocating.
    const uint8_t liar[] = {0x80, 0x80, 0x80, 0x80, 0x10, 0x00, 'x', 0, 0, 0, 0};
    zs_avro_enc_reset (&b);
    s_hand_block (&b, 1, liar, sizeof liar);
    file = s_hand_file ("snappy", b.data, b.len, &flen);
    assert_int_equal (s_read_raw (file, flen, 0, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "snappy length"));
    free (file);
    zs_avro_enc_fini (&b);
}

static void
test_hostile_files (void **state)
{
    char err[ZS_ERRLEN];
    assert_null (zs_avro_reader_new (NULL, 0, err, sizeof err));
    assert_non_null (strstr (err, "magic"));
    assert_null (zs_avro_reader_new ("Obj\2", 4, err, sizeof err));
    assert_non_null (strstr (err, "magic"));
    assert_null (zs_avro_reader_new ("Obj\1", 4, err, sizeof err));
    assert_non_null (strstr (err, "header"));

    //  Headers by hand: a huge metadata count, a duplicate key, no schema,
    //  a NUL in the schema, a truncated sync marker.
    const struct {
        const char *bytes;
        size_t len;
        const char *why;
    } bad[] = {
        {"Obj\1\xfe\xff\xff\xff\x0f", 9, "more items than bytes left"},
        {"Obj\1\x04\x02k\x00\x02k\x00\x00", 12, "given twice"},
        {"Obj\1\x02\x02k\x00\x00"
         "0123456789abcdef",
         25, "no avro.schema"},
        {"Obj\1\x02\x16"
         "avro.schema"
         "\x02\x00\x00"
         "0123456789abcdef",
         36, "NUL"},
        {"Obj\1\x00"
         "0123456789",
         15, "truncated sync"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *buf = s_copy (bad[i].bytes, bad[i].len);
        assert_null (zs_avro_reader_new (buf, bad[i].len, err, sizeof err));
        if (!strstr (err, bad[i].why))
            fail_msg ("header %zu: got '%s', want '%s'", i, err, bad[i].why);
        free (buf);
    }

    //  Blocks: negative count or size, size past the end, a wrong sync,
    //  more objects than bytes.
    zs_avro_enc_t b;
    zs_avro_enc_init (&b);
    const struct {
        int64_t count, size;
        const char *why;
    } blocks[] = {
        {-1, 2, "negative object count"},
        {1, -2, "negative byte size"},
        {1, 1000, "beyond the end"},
        {5, 2, "more objects than bytes"},
    };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        zs_avro_enc_reset (&b);
        zs_avro_enc_long (&b, blocks[i].count);
        zs_avro_enc_long (&b, blocks[i].size);
        zs_avro_enc_fixed (&b, "\x02\x04", 2);
        zs_avro_enc_fixed (&b, s_sync, 16);
        size_t flen;
        uint8_t *file = s_hand_file (NULL, b.data, b.len, &flen);
        assert_int_equal (s_read_raw (file, flen, 0, err, sizeof err), ZS_ECORRUPT);
        if (!strstr (err, blocks[i].why) || !strstr (err, "block 0 at offset"))
            fail_msg ("block %zu: got '%s', want '%s'", i, err, blocks[i].why);
        free (file);
    }
    zs_avro_enc_reset (&b);
    s_hand_block (&b, 1, "\x02", 1);
    b.data[b.len - 1] ^= 0xff;
    size_t flen;
    uint8_t *file = s_hand_file (NULL, b.data, b.len, &flen);
    zs_avro_reader_t *r = zs_avro_reader_new (file, flen, err, sizeof err);
    assert_non_null (r);
    int64_t count;
    zs_avro_dec_t d;
    assert_int_equal (zs_avro_reader_next (r, &count, &d, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "sync marker differs"));
    err[0] = 0; //  sticky
    assert_int_equal (zs_avro_reader_next (r, &count, &d, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "sync marker differs"));
    zs_avro_reader_destroy (&r);
    free (file);

    //  Corrupt compressed data; bytes after a deflate stream are ignored.
    const char *codecs[] = {"zstandard", "deflate"};
    for (int c = 0; c < 2; c++) {
        zs_avro_enc_reset (&b);
        s_hand_block (&b, 1, "\x28\xb5\x2f\xfd\x00\x00\x00", 7);
        file = s_hand_file (codecs[c], b.data, b.len, &flen);
        assert_int_equal (s_read_raw (file, flen, 0, err, sizeof err), ZS_ECORRUPT);
        assert_non_null (strstr (err, codecs[c][0] == 'z' ? "zstd" : "deflate"));
        free (file);
    }
    uint8_t raw[64];
    z_stream zs;
    memset (&zs, 0, sizeof zs);
    deflateInit2 (&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = (const Bytef *) "\x02\x04";
    zs.avail_in = 2;
    zs.next_out = raw;
    zs.avail_out = sizeof raw;
    assert_int_equal (deflate (&zs, Z_FINISH), Z_STREAM_END);
    size_t zl = zs.total_out;
    deflateEnd (&zs);
    //  python3-avro writes zlib.compress (data)[2:-1]: 3 bytes of the
    //  zlib trailer (Adler-32) follow the raw stream. They must not make
    //  its files unreadable (they did, until the interop check).
    raw[zl] = 0x55;
    raw[zl + 1] = 0x66;
    raw[zl + 2] = 0x77;
    zs_avro_enc_reset (&b);
    s_hand_block (&b, 1, raw, zl + 3);
    file = s_hand_file ("deflate", b.data, b.len, &flen);
    zs_avro_reader_t *rd = zs_avro_reader_new (file, flen, err, sizeof err);
    assert_non_null (rd);
    int64_t one;
    zs_avro_dec_t dd;
    assert_int_equal (zs_avro_reader_next (rd, &one, &dd, err, sizeof err), 1);
    assert_true (one == 1 && zs_avro_dec_left (&dd) == 2);
    assert_int_equal (zs_avro_reader_next (rd, &one, &dd, err, sizeof err), 0);
    zs_avro_reader_destroy (&rd);
    free (file);
    zs_avro_enc_fini (&b);

    //  Random bytes after a valid header: any answer, no crash.
    srand (7);
    for (int round = 0; round < 3000; round++) {
        uint8_t junk[48];
        size_t jl = (size_t) (rand () % 48);
        for (size_t i = 0; i < jl; i++)
            junk[i] = (uint8_t) rand ();
        const char *codec = (const char *[]){"null", "deflate", "snappy", "zstandard"}[round % 4];
        file = s_hand_file (codec, junk, jl, &flen);
        s_read_raw (file, flen, 1 << 20, err, sizeof err);
        free (file);
    }
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_wire_bytes),
        cmocka_unit_test (test_wire_bytes_more),
        cmocka_unit_test (test_round_trip),
        cmocka_unit_test (test_decode_errors),
        cmocka_unit_test (test_negative_block_counts),
        cmocka_unit_test (test_schema),
        cmocka_unit_test (test_schema_errors),
        cmocka_unit_test (test_schema_zero_bytes),
        cmocka_unit_test (test_ocf_round_trip),
        cmocka_unit_test (test_writer_api),
        cmocka_unit_test (test_snappy),
        cmocka_unit_test (test_unknown_codec),
        cmocka_unit_test (test_truncation),
        cmocka_unit_test (test_bit_flips),
        cmocka_unit_test (test_bombs),
        cmocka_unit_test (test_hostile_files),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
