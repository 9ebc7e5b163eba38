/*  test_record.c - one record's text into a row (writer/record.c): JSON
    objects and positional CSV records (the Kafka source's value formats),
    every type, NULLs, quoting, and each kind of error with its column. The
    file source's JSONL and header-mapped CSV through the same code are
    tested by test_source_file.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "record.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static zs_schema_t s_schema;
static zs_record_t *s_rec;
static zs_value_t s_row[ZS_MAX_COLUMNS];
static char s_why[ZS_ERRLEN];

static int
s_setup (void **state)
{
    char err[ZS_ERRLEN];
    const char *text = "id BIGINT NOT NULL, ok BOOLEAN, qty INT, price FLOAT, amount DOUBLE, "
                       "name STRING, raw BYTES, d DATE, ts TIMESTAMP(3)";
    if (zs_schema_parse (&s_schema, text, err, sizeof err) != 0)
        fail_msg ("schema: %s", err);
    s_rec = zs_record_new (&s_schema);
    return s_rec ? 0 : -1;
}

static int
s_teardown (void **state)
{
    zs_record_destroy (&s_rec);
    assert_null (s_rec);
    zs_record_destroy (&s_rec); //  NULL is fine
    return 0;
}

static int
s_json (const char *text)
{
    s_why[0] = 0;
    return zs_record_json (s_rec, (const uint8_t *) text, strlen (text), s_row, s_why,
                           sizeof s_why);
}

static int
s_csv (const char *text)
{
    s_why[0] = 0;
    return zs_record_csv (s_rec, (const uint8_t *) text, strlen (text), s_row, s_why, sizeof s_why);
}

static void
s_fails (int rc, const char *want)
{
    assert_int_equal (rc, -1);
    if (!strstr (s_why, want))
        fail_msg ("why '%s' does not say '%s'", s_why, want);
}

static void
s_str_equal (const zs_value_t *v, const char *want, size_t len)
{
    assert_false (v->null);
    assert_int_equal (v->v.bin.len, len);
    assert_memory_equal (v->v.bin.ptr, want, len);
}

static void
test_json_types (void **state)
{
    assert_int_equal (s_json ("{\"id\": 9007199254740993, \"ok\": true, \"qty\": -7, "
                              "\"price\": 1.5, \"amount\": 2, \"name\": \"a\\u0000b\", "
                              "\"raw\": \"xy\", \"d\": \"1970-01-02\", "
                              "\"ts\": \"2024-01-01T00:00:01.5\", \"other\": [1]}"),
                      0);
    assert_int_equal (s_row[0].v.i64, 9007199254740993LL); //  exact, not via a double
    assert_true (s_row[1].v.b);
    assert_int_equal (s_row[2].v.i32, -7);
    assert_true (s_row[3].v.f32 == 1.5f);
    assert_true (s_row[4].v.f64 == 2.0);
    s_str_equal (&s_row[5], "a\0b", 3);
    s_str_equal (&s_row[6], "xy", 2);
    assert_int_equal (s_row[7].v.i32, 1);
    assert_int_equal (s_row[8].v.i64, 1704067201500LL);
    //  missing keys and nulls are NULL
    assert_int_equal (s_json ("{\"id\": 1, \"ok\": null}"), 0);
    for (int c = 1; c < s_schema.n; c++)
        assert_true (s_row[c].null);
}

static void
test_json_errors (void **state)
{
    s_fails (s_json ("{\"ok\": true}"), "'id'");
    s_fails (s_json ("[1]"), "not a JSON object");
    s_fails (s_json ("{\"id\": 1"), "invalid JSON");
    s_fails (s_json ("{\"id\": 1, \"id\": 2}"), "invalid JSON");
    s_fails (s_json ("{\"id\": 1, \"qty\": 3000000000}"), "'qty'");
    s_fails (s_json ("{\"id\": 99999999999999999999}"), "column 'id': integer out of range");
    s_fails (s_json ("{\"id\": 1, \"amount\": 1, \"x\": 99999999999999999999}"),
             "integers must fit in 64 bits");
    s_fails (s_json ("{\"id\": \"1\"}"), "'id'");
    s_fails (s_json ("{\"id\": 1, \"d\": \"2024-02-30\"}"), "'d'");
    s_fails (s_json ("{\"id\": 1, \"price\": 1e300}"), "'price'");
    s_fails (s_json (""), "invalid JSON");
}

static void
test_csv_positional (void **state)
{
    assert_int_equal (s_csv ("5,TRUE,12,0.25,-1e3,\"a,\"\"b\"\"\nc\",raw,2000-01-01,"
                             "2024-01-01 00:00:00.001\r\n"),
                      0);
    assert_int_equal (s_row[0].v.i64, 5);
    assert_true (s_row[1].v.b);
    assert_int_equal (s_row[2].v.i32, 12);
    assert_true (s_row[3].v.f32 == 0.25f);
    assert_true (s_row[4].v.f64 == -1000.0);
    s_str_equal (&s_row[5], "a,\"b\"\nc", 7);
    s_str_equal (&s_row[6], "raw", 3);
    assert_int_equal (s_row[7].v.i32, 10957);
    assert_int_equal (s_row[8].v.i64, 1704067200001LL);
    //  empty unquoted: NULL; quoted empty: the empty string
    assert_int_equal (s_csv ("6,,,,,\"\",,,"), 0);
    assert_int_equal (s_row[0].v.i64, 6);
    for (int c = 1; c < s_schema.n; c++)
        if (c != 5)
            assert_true (s_row[c].null);
    s_str_equal (&s_row[5], "", 0);
}

static void
test_csv_errors (void **state)
{
    s_fails (s_csv ("1,2"), "2 fields, the table has 9 columns");
    s_fails (s_csv ("1,,,,,,,,,"), "10 fields");
    s_fails (s_csv (",,,,,,,,"), "'id'");
    s_fails (s_csv ("x,,,,,,,,"), "'id': 'x' is not a BIGINT");
    s_fails (s_csv ("1,,,,,\"abc,,,"), "quoted field not closed");
    s_fails (s_csv ("1,,,,,\"a\"b,,,"), "text after the closing quote");
    s_fails (s_csv ("1,,,,,a\"b,,,"), "quote in an unquoted field");
    s_fails (s_csv ("1,,,,,\xff,,,"), "'name'");
    s_fails (s_csv (""), "1 field, the table has 9 columns");
}

//  A row's strings stay valid until the next call, whichever the format.
static void
test_lifetime (void **state)
{
    assert_int_equal (s_json ("{\"id\": 1, \"name\": \"json\"}"), 0);
    zs_value_t keep = s_row[5];
    char copy[] = "2,,,,,\"quoted\",,,";
    s_str_equal (&keep, "json", 4);
    assert_int_equal (s_csv (copy), 0);
    s_str_equal (&s_row[5], "quoted", 6);
    zs_record_clear (s_rec);
    zs_record_clear (s_rec);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_json_types),     cmocka_unit_test (test_json_errors),
        cmocka_unit_test (test_csv_positional), cmocka_unit_test (test_csv_errors),
        cmocka_unit_test (test_lifetime),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
