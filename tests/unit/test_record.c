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
#include "rowfmt.h"
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

//  The types of issue 25 from JSON and CSV, as Flink's JSON format spells
//  them, and what is refused (with the column and the value).
static void
test_paimon_types (void **state)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_schema_parse (&schema,
                         "ti TINYINT, si SMALLINT, d DECIMAL(5, 2), d38 DECIMAL(38, "
                         "0), c CHAR(2), v VARCHAR(3), b BINARY(2), t TIME(3), t0 "
                         "TIME, ts0 TIMESTAMP(0), ts9 TIMESTAMP(9), l TIMESTAMP_LTZ(3)",
                         err, sizeof err),
        0);
    zs_record_t *rec = zs_record_new (&schema);
    zs_value_t row[12];
    char why[ZS_ERRLEN];
    const char *ok =
        "{\"ti\": -128, \"si\": 32767, \"d\": -1.5, \"d38\": "
        "\"-99999999999999999999999999999999999999\", \"c\": \"日本\", \"v\": \"abc\", "
        "\"b\": \"xy\", \"t\": \"23:59:59.999\", \"t0\": \"12:00:00.000\", \"ts0\": "
        "\"1969-12-31 23:59:59\", \"ts9\": \"1677-09-21T00:12:43.145224192\", \"l\": "
        "\"2024-01-01T01:00:00.5+01:00\"}";
    if (zs_record_json (rec, (const uint8_t *) ok, strlen (ok), row, why, sizeof why) != 0)
        fail_msg ("%s", why);
    assert_int_equal (row[0].v.i32, -128);
    assert_int_equal (row[1].v.i32, 32767);
    assert_true (zs_dec_get (&row[2]) == -150);
    assert_true (zs_dec_get (&row[3]) == -(zs_pow10 (38) - 1));
    assert_int_equal (row[4].v.bin.len, 6); //  2 characters
    assert_int_equal (row[7].v.i32, 86399999);
    assert_int_equal (row[8].v.i32, 43200000);
    assert_int_equal (row[9].v.i64, -1000);
    assert_true (row[10].v.i64 == INT64_MIN);
    assert_int_equal (row[11].v.i64, INT64_C (1704067200500));
    const char *csv = "1,2,0.5e1,0,,,,00:00:00.001,00:00:01,1970-01-01T00:00:00,"
                      "1970-01-01 00:00:00.000000001,1970-01-01 00:00:00Z";
    if (zs_record_csv (rec, (const uint8_t *) csv, strlen (csv), row, why, sizeof why) != 0)
        fail_msg ("%s", why);
    assert_true (zs_dec_get (&row[2]) == 500);
    assert_true (row[4].null);
    assert_int_equal (row[10].v.i64, 1);
    assert_int_equal (row[11].v.i64, 0);

    struct {
        const char *json, *want;
    } bad[] = {
        {"{\"ti\": 128}", "column 'ti': 128 is out of range for TINYINT"},
        {"{\"si\": -32769}", "column 'si': -32769 is out of range for SMALLINT"},
        {"{\"d\": \"1000.00\"}", "column 'd': \"1000.00\" is out of range for DECIMAL(5, 2)"},
        {"{\"d\": \"1.005\"}", "more fractional digits than the type's scale keeps"},
        {"{\"d\": \"1.2.3\"}", "column 'd': \"1.2.3\" is not a DECIMAL(5, 2)"},
        {"{\"d38\": 1e40}", "column 'd38': 1e40 is out of range for DECIMAL(38, 0)"},
        {"{\"d38\": 0.12345678901234567}", "give it as a string"},
        {"{\"c\": \"abc\"}", "column 'c': \"abc\" is out of range for CHAR(2): longer than"},
        {"{\"v\": \"abcd\"}", "out of range for VARCHAR(3)"},
        {"{\"b\": \"xyz\"}", "out of range for BINARY(2)"},
        {"{\"t\": \"24:00:00\"}", "column 't': \"24:00:00\" is not a TIME(3)"},
        {"{\"t\": \"00:00:00.0001\"}", "more fractional digits than TIME(3) keeps"},
        {"{\"t0\": \"00:00:00.5\"}", "more fractional digits than TIME(0) keeps"},
        {"{\"ts0\": \"1970-01-01 00:00:00.1\"}", "more fractional digits than TIMESTAMP(0) keeps"},
        {"{\"ts9\": \"1677-09-21 00:12:43.145224191\"}", "is out of range for TIMESTAMP(9)"},
        {"{\"ts9\": \"2024-01-01 00:00:00Z\"}", "time zones are not supported"},
        {"{\"l\": \"2024-01-01 00:00:00+25:00\"}", "is not a TIMESTAMP(3) WITH LOCAL TIME ZONE"},
        {"{\"l\": 5}", "column 'l': 5 is not a TIMESTAMP(3) WITH LOCAL TIME ZONE"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        assert_int_equal (zs_record_json (rec, (const uint8_t *) bad[i].json, strlen (bad[i].json),
                                          row, why, sizeof why),
                          -1);
        if (!strstr (why, bad[i].want))
            fail_msg ("%s: got '%s', want '%s'", bad[i].json, why, bad[i].want);
    }
    zs_record_destroy (&rec);
}

//  Found by fuzz_value: a DECIMAL(38, 38) of 8 with zeros overflowed 128
//  bits while scaled up (UBSan), instead of being out of range.
static void
test_decimal_scale_overflow (void **state)
{
    zs_schema_t s;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&s, "v DECIMAL(38, 38)", err, sizeof err), 0);
    const char *texts[] = {"-8.0000000000000000000", "8", "1e1",
                           "0.99999999999999999999999999999999999999"};
    const int want[] = {ZS_PARSE_RANGE, ZS_PARSE_RANGE, ZS_PARSE_RANGE, 0};
    for (int i = 0; i < 4; i++) {
        zs_value_t v;
        const char *reason;
        assert_int_equal (zs_value_parse_col (&s.cols[0], (const uint8_t *) texts[i],
                                              strlen (texts[i]), &v, &reason),
                          want[i]);
    }
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_json_types),
        cmocka_unit_test (test_json_errors),
        cmocka_unit_test (test_csv_positional),
        cmocka_unit_test (test_csv_errors),
        cmocka_unit_test (test_lifetime),
        cmocka_unit_test (test_paimon_types),
        cmocka_unit_test (test_decimal_scale_overflow),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
