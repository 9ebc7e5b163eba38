/*  test_schema.c - table.schema's text form (types, spellings, NOT NULL,
    errors naming the column), schema-0 JSON both ways, the diff that
    refuses a job of another schema, and rowfmt's spelling of values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rowfmt.h"
#include "schema.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
test_parse_all_types (void **state)
{
    zs_schema_t s;
    char err[ZS_ERRLEN], text[1024];
    assert_int_equal (zs_schema_parse (&s,
                                       " id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, "
                                       "ok BOOLEAN, ts TIMESTAMP(3), day DATE, raw BYTES,"
                                       "f float, t timestamp ( 6 ) not  null ",
                                       err, sizeof err),
                      0);
    assert_int_equal (s.n, 10);
    assert_int_equal (s.id_col, 0);
    assert_false (s.cols[0].nullable);
    assert_true (s.cols[1].nullable);
    assert_int_equal (s.cols[5].type, ZS_TYPE_TIMESTAMP3);
    assert_int_equal (s.cols[9].type, ZS_TYPE_TIMESTAMP6);
    assert_false (s.cols[9].nullable);
    assert_int_equal (zs_schema_format (&s, text, sizeof text), 0);
    assert_string_equal (text,
                         "id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, "
                         "ts TIMESTAMP(3), day DATE, raw BYTES, f FLOAT, "
                         "t TIMESTAMP(6) NOT NULL");
    //  the canonical text parses back to the same schema
    zs_schema_t again;
    assert_int_equal (zs_schema_parse (&again, text, err, sizeof err), 0);
    assert_int_equal (zs_schema_diff (&again, &s, err, sizeof err), 0);

    //  aliases from Flink SQL and DuckDB
    assert_int_equal (
        zs_schema_parse (&s, "a INTEGER, b VARCHAR, c BLOB, d TIMESTAMP", err, sizeof err), 0);
    assert_int_equal (s.cols[0].type, ZS_TYPE_INT);
    assert_int_equal (s.cols[1].type, ZS_TYPE_STRING);
    assert_int_equal (s.cols[2].type, ZS_TYPE_BYTES);
    assert_int_equal (s.cols[3].type, ZS_TYPE_TIMESTAMP6);
    assert_int_equal (s.id_col, -1);
}

static void
test_parse_errors_name_the_column (void **state)
{
    zs_schema_t s;
    char err[ZS_ERRLEN];
    struct {
        const char *text, *want;
    } cases[] = {
        {"id BIGINT, qty INTT", "column 2 'qty': unknown type 'INTT'"},
        {"id BIGINT, ", "column 2 is empty"},
        {"id BIGINT, ID INT", "column 2 'ID' repeats column 1 'id'"},
        {"id", "column 1 'id': no type"},
        {"1x INT", "column 1: '1x INT' does not start with a name"},
        {"a-b INT", "column 1 'a': unexpected '-'"},
        {"a DECIMAL(40,2)", "column 1 'a': precision 40 out of range 1..38"},
        {"a DECIMAL(5, 6)", "column 1 'a': scale 6 out of range 0..5 (the precision)"},
        {"a DECIMAL(0)", "column 1 'a': precision 0 out of range 1..38"},
        {"a TIMESTAMP(10)", "column 1 'a': precision 10 out of range 0..9"},
        {"a TIME(12)", "column 1 'a': precision 12 out of range 0..9"},
        {"a VARCHAR(0)", "column 1 'a': length 0 out of range 1..2147483647"},
        {"a CHAR(1,2)", "column 1 'a': too many parameters"},
        {"a INT(3)", "column 1 'a': takes no parameters"},
        {"a DECIMAL(1", "column 1 'a': bad parameters in 'DECIMAL(1'"},
        {"a INT WITH LOCAL TIME ZONE", "unknown type 'INT WITH LOCAL TIME ZONE'"},
        {"a INT NOT", "unknown type 'INT NOT'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal (zs_schema_parse (&s, cases[i].text, err, sizeof err), -1);
        if (!strstr (err, cases[i].want))
            fail_msg ("'%s': got '%s', want '%s'", cases[i].text, err, cases[i].want);
        assert_non_null (strstr (err, "table.schema"));
    }
}

//  The "id" of the field named name in a schema file's JSON (the last
//  "id" before its "name"), or -1.
static int
s_field_id (const char *json, const char *name)
{
    char key[80];
    snprintf (key, sizeof key, "\"name\": \"%s\"", name);
    const char *at = strstr (json, key), *id = NULL;
    for (const char *p = json; at && (p = strstr (p, "\"id\": ")) && p < at; p++)
        id = p;
    return id ? atoi (id + 6) : -1;
}

//  Nested types: the text form round trips (ROW(...) and backticks too),
//  errors name the column and what is wrong, and the schema file spells
//  them as Paimon's DataType JSON with ReassignFieldId's ids.
static void
test_nested_types (void **state)
{
    zs_schema_t s, again;
    char err[ZS_ERRLEN], text[4096], text2[4096];
    const char *in = "id BIGINT NOT NULL, xs array<int not null>, "
                     "m MAP<STRING, ROW(`a b` INT, c ARRAY<ROW<d DOUBLE>>)> NOT NULL, "
                     "r ROW<e MAP<INT, STRING>, f ROW<g BOOLEAN NOT NULL>>";
    if (zs_schema_parse (&s, in, err, sizeof err) != 0)
        fail_msg ("%s", err);
    assert_int_equal (zs_schema_format (&s, text, sizeof text), 0);
    assert_string_equal (text,
                         "id BIGINT NOT NULL, xs ARRAY<INT NOT NULL>, "
                         "m MAP<STRING NOT NULL, ROW<`a b` INT, c ARRAY<ROW<d DOUBLE>>>> NOT "
                         "NULL, r ROW<e MAP<INT NOT NULL, STRING>, f ROW<g BOOLEAN NOT NULL>>");
    char *json = zs_schema_to_json (&s, 1);
    assert_non_null (json);
    //  ids: a column first, then its nested fields, each after its own type's
    assert_non_null (strstr (json, "\"highestFieldId\": 9"));
    assert_non_null (strstr (json, "\"type\": \"ARRAY\",\n        \"element\": \"INT NOT NULL\""));
    assert_int_equal (s_field_id (json, "d"), 4);
    assert_int_equal (s_field_id (json, "c"), 5);
    assert_int_equal (s_field_id (json, "r"), 6);
    assert_int_equal (s_field_id (json, "f"), 9);
    zs_table_schema_t back;
    if (zs_schema_from_json (&back, json, err, sizeof err) != 0)
        fail_msg ("%s", err);
    free (json);
    assert_int_equal (back.highest_field_id, 9);
    assert_int_equal (zs_schema_format (&back.row, text2, sizeof text2), 0);
    assert_string_equal (text, text2);
    assert_int_equal (back.row.fingerprint, s.fingerprint);
    assert_int_equal (zs_schema_parse (&again, text, err, sizeof err), 0); //  a fixed point
    assert_int_equal (again.fingerprint, s.fingerprint);
    struct {
        const char *text, *want;
    } bad[] = {
        {"x ARRAY<INT, INT>", "column 1 'x': ARRAY takes one element type"},
        {"x MAP<INT>", "MAP takes a key and a value type"},
        {"x ROW<>", "ROW takes one field at least"},
        {"x ARRAY", "ARRAY needs its types in <...>"},
        {"x ARRAY<INTT>", "unknown type 'INTT'"},
        {"x ROW<a INT, A INT>", "ROW field 'A' repeats"},
        {"`` BYTES", "does not start with a name"}, //  fuzz_schema: names stay plain
        {"x ROW<`` INT>", "ROW field with an empty name"},
        {"x ROW<a INT, b>", "field 'b'"},
        {"x ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<ARRAY<"
         "ARRAY<ARRAY<ARRAY<INT>>>>>>>>>>>>>>>>>",
         "nested deeper than 16"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal (zs_schema_parse (&s, bad[i].text, err, sizeof err), -1);
        if (!strstr (err, bad[i].want))
            fail_msg ("'%s': got '%s', want '%s'", bad[i].text, err, bad[i].want);
    }
}

static void
test_json_round_trip_and_corrupt (void **state)
{
    zs_schema_t s;
    zs_table_schema_t back;
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_schema_parse (&s, "id BIGINT NOT NULL, raw BYTES, day DATE", err, sizeof err), 0);
    char *json = zs_schema_to_json (&s, 123);
    assert_non_null (json);
    assert_non_null (strstr (json, "\"type\": \"BIGINT NOT NULL\""));
    //  Paimon's version 3, and the options that make it the table zsink writes
    assert_non_null (strstr (json, "\"version\": 3"));
    assert_int_equal (zs_schema_from_json (&back, json, err, sizeof err), 0);
    assert_int_equal (zs_schema_diff (&back.row, &s, err, sizeof err), 0);
    assert_int_equal (back.row.id_col, 0);
    assert_string_equal (zs_schema_option (&back, "bucket", "?"), "-1");
    assert_string_equal (zs_schema_option (&back, "file.format", "?"), "parquet");
    assert_string_equal (zs_schema_option (&back, "manifest.compression", "?"), "zstd");
    assert_int_equal (zs_schema_writable (&back, err, sizeof err), 0);
    free (json);

    const char *bad[] = {"",
                         "{",
                         "[]",
                         "{\"id\":0}",
                         "{\"id\":0,\"fields\":[]}",
                         "{\"id\":0,\"fields\":[{\"name\":\"a\"}]}",
                         "{\"id\":0,\"fields\":[{\"name\":\"a\",\"type\":\"NOPE\"}]}",
                         "{\"id\":0,\"fields\":[{\"name\":\"a,b\",\"type\":\"INT\"}]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal (zs_schema_from_json (&back, bad[i], err, sizeof err), ZS_ECORRUPT);
}

static void
test_diff_names_first_difference (void **state)
{
    zs_schema_t job, table;
    char err[ZS_ERRLEN], why[ZS_ERRLEN];
    zs_schema_parse (&table, "id BIGINT NOT NULL, qty BIGINT, ok BOOLEAN", err, sizeof err);
    zs_schema_parse (&job, "id BIGINT NOT NULL, qty INT, ok BOOLEAN", err, sizeof err);
    assert_int_equal (zs_schema_diff (&job, &table, why, sizeof why), -1);
    assert_string_equal (why, "column 2 'qty': job has 'qty INT', table has 'qty BIGINT'");
    zs_schema_parse (&job, "id BIGINT NOT NULL, qty BIGINT, ok BOOLEAN, x DATE", err, sizeof err);
    assert_int_equal (zs_schema_diff (&job, &table, why, sizeof why), -1);
    assert_non_null (strstr (why, "column 4 'x': job has 'x DATE', the table has no such column"));
    zs_schema_parse (&job, "id BIGINT, qty BIGINT, ok BOOLEAN", err, sizeof err);
    assert_int_equal (zs_schema_diff (&job, &table, why, sizeof why), -1);
    assert_non_null (strstr (why, "column 1 'id'"));
}

static char *
s_text (zs_type_t type, zs_value_t v)
{
    static zs_strbuf_t b;
    b.len = 0;
    zs_value_text (&b, type, &v);
    return b.data;
}

static void
test_rowfmt_values (void **state)
{
    assert_string_equal (s_text (ZS_TYPE_DATE, (zs_value_t){.v.i32 = 0}), "1970-01-01");
    assert_string_equal (s_text (ZS_TYPE_DATE, (zs_value_t){.v.i32 = -1}), "1969-12-31");
    assert_string_equal (s_text (ZS_TYPE_DATE, (zs_value_t){.v.i32 = 11016}), "2000-02-29");
    assert_string_equal (s_text (ZS_TYPE_TIMESTAMP3, (zs_value_t){.v.i64 = -1}),
                         "1969-12-31 23:59:59.999");
    assert_string_equal (s_text (ZS_TYPE_TIMESTAMP6, (zs_value_t){.v.i64 = 1700000000123456}),
                         "2023-11-14 22:13:20.123456");
    assert_string_equal (s_text (ZS_TYPE_FLOAT, (zs_value_t){.v.f32 = 0.1f}), "0.1");
    assert_string_equal (s_text (ZS_TYPE_DOUBLE, (zs_value_t){.v.f64 = 0.1}), "0.1");
    assert_string_equal (s_text (ZS_TYPE_DOUBLE, (zs_value_t){.v.f64 = 0.1 + 0.2}),
                         "0.30000000000000004");
    assert_string_equal (s_text (ZS_TYPE_DOUBLE, (zs_value_t){.v.f64 = -INFINITY}), "-inf");
    zs_value_t bytes = {.v.bin = {(const uint8_t *) "\x00\xff\x10", 3}};
    assert_string_equal (s_text (ZS_TYPE_BYTES, bytes), "00ff10");
    for (int32_t d = -800000; d <= 800000; d += 997) {
        int64_t y;
        unsigned m, dd;
        zs_civil_from_days (d, &y, &m, &dd);
        assert_int_equal (zs_days_from_civil (y, m, dd), d);
    }
}

static void
test_rowfmt_rows (void **state)
{
    zs_schema_t s;
    char err[ZS_ERRLEN];
    zs_schema_parse (&s, "id BIGINT, s STRING, d DOUBLE", err, sizeof err);
    zs_value_t row[3] = {
        {.v.i64 = 7}, {.v.bin = {(const uint8_t *) "a,\"b\"\n\x01\xc3", 8}}, {.v.f64 = NAN}};
    zs_strbuf_t out = {0};
    zs_row_jsonl (&out, &s, row);
    //  the stray 0xc3 (not UTF-8) and the control byte are escaped
    assert_string_equal (out.data,
                         "{\"id\":7,\"s\":\"a,\\\"b\\\"\\n\\u0001\\u00c3\",\"d\":\"NaN\"}\n");
    out.len = 0;
    zs_row_csv_header (&out, &s);
    zs_row_csv (&out, &s, row);
    row[1].v.bin.len = 0; //  empty string, quoted
    row[2].null = true;   //  null, empty field
    zs_row_csv (&out, &s, row);
    assert_string_equal (out.data, "id,s,d\n7,\"a,\"\"b\"\"\n\x01\xc3\",nan\n7,\"\",\n");
    zs_strbuf_free (&out);
}

//  A table Paimon made: its long type spellings read, and what zsink cannot
//  write exactly once is named.
static void
test_paimon_tables (void **state)
{
    zs_table_schema_t t;
    char err[ZS_ERRLEN];
    const char *paimon =
        "{\"version\":3,\"id\":2,\"fields\":[{\"id\":0,\"name\":\"id\",\"type\":"
        "\"BIGINT NOT NULL\"},{\"id\":1,\"name\":\"s\",\"type\":\"VARCHAR(2147483647)\"},"
        "{\"id\":2,\"name\":\"b\",\"type\":\"VARBINARY(2147483647) NOT NULL\"}],"
        "\"highestFieldId\":2,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}";
    assert_int_equal (zs_schema_from_json (&t, paimon, err, sizeof err), 0);
    assert_int_equal (t.id, 2);
    assert_int_equal (t.row.cols[1].type, ZS_TYPE_STRING);
    assert_int_equal (t.row.cols[2].type, ZS_TYPE_BYTES);
    assert_false (t.row.cols[2].nullable);
    //  defaults of an absent option are Paimon 2.0's
    assert_int_equal (zs_schema_writable (&t, err, sizeof err), 0);

    static const struct {
        const char *keys, *options, *want;
    } refuse[] = {
        {"\"primaryKeys\":[\"id\"]", "{}",
         "it is a primary-key table (primary key id): " ZS_SCHEMA_APPEND_TABLES},
        {"\"partitionKeys\":[\"id\"]", "{\"partition.legacy-name\":\"false\"}",
         "option 'partition.legacy-name' is 'false'"},
        {"\"primaryKeys\":[]", "{\"bucket\":\"4\"}", "option 'bucket' is '4'"},
        {"\"primaryKeys\":[]", "{\"file.format\":\"orc\"}", "option 'file.format' is 'orc'"},
        {"\"primaryKeys\":[]", "{\"deletion-vectors.enabled\":\"true\"}",
         "option 'deletion-vectors.enabled' is 'true'"},
    };
    for (size_t i = 0; i < sizeof refuse / sizeof refuse[0]; i++) {
        char json[512];
        snprintf (json, sizeof json,
                  "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"id\",\"type\":"
                  "\"BIGINT\"}],%s,\"options\":%s}",
                  refuse[i].keys, refuse[i].options);
        assert_int_equal (zs_schema_from_json (&t, json, err, sizeof err), 0);
        assert_int_equal (zs_schema_writable (&t, err, sizeof err), -1);
        if (!strstr (err, refuse[i].want))
            fail_msg ("case %zu: '%s' does not say '%s'", i, err, refuse[i].want);
    }
    //  a partitioned table: its keys as column indexes, written back the
    //  same, with the default name when one is given
    zs_schema_t row;
    assert_int_equal (zs_schema_parse (&row, "id BIGINT, dt DATE, s STRING", err, sizeof err), 0);
    assert_int_equal (zs_schema_partition_parse (&row, "s, dt", err, sizeof err), 0);
    char *json = zs_schema_to_json_with (&row, 1, "none");
    assert_non_null (strstr (json, "\"partition.default-name\": \"none\""));
    assert_int_equal (zs_schema_from_json (&t, json, err, sizeof err), 0);
    free (json);
    assert_int_equal (t.row.n_partition, 2);
    assert_int_equal (t.row.partition[0], 2);
    assert_int_equal (t.row.partition[1], 1);
    assert_int_equal (zs_schema_writable (&t, err, sizeof err), 0);
    assert_int_equal (zs_schema_from_json (&t,
                                           "{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"d\","
                                           "\"type\":\"INT\"}],\"partitionKeys\":[\"x\"]}",
                                           err, sizeof err),
                      ZS_ECORRUPT);
    assert_non_null (strstr (err, "'x': names no column"));
    //  primary keys: the columns they name, in order (zsink table schema
    //  shows them), each a column, once
    static const char pk_fields[] = "{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":"
                                    "\"INT NOT NULL\"},{\"id\":1,\"name\":\"b\",\"type\":"
                                    "\"STRING NOT NULL\"}],\"primaryKeys\":%s}";
    char text[512], keys[64];
    snprintf (text, sizeof text, pk_fields, "[\"b\",\"a\"]");
    assert_int_equal (zs_schema_from_json (&t, text, err, sizeof err), 0);
    assert_int_equal (t.n_primary_keys, 2);
    assert_int_equal (t.primary_key[0], 1);
    assert_int_equal (t.primary_key[1], 0);
    assert_int_equal (zs_schema_primary_format (&t, keys, sizeof keys), 0);
    assert_string_equal (keys, "b,a");
    assert_int_equal (zs_schema_primary_format (&t, keys, 3), -1);
    assert_int_equal (zs_schema_append_table (&t, err, sizeof err), -1);
    assert_string_equal (err, "a primary-key table (primary key b,a): " ZS_SCHEMA_APPEND_TABLES);
    snprintf (text, sizeof text, pk_fields, "[]");
    assert_int_equal (zs_schema_from_json (&t, text, err, sizeof err), 0);
    assert_int_equal (zs_schema_append_table (&t, err, sizeof err), 0);
    snprintf (text, sizeof text, pk_fields, "[\"c\"]");
    assert_int_equal (zs_schema_from_json (&t, text, err, sizeof err), ZS_ECORRUPT);
    assert_string_equal (err, "primary key 1 'c': names no column");
    snprintf (text, sizeof text, pk_fields, "[\"a\",\"b\",\"a\"]");
    assert_int_equal (zs_schema_from_json (&t, text, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "primary keys, 2 columns"));
    snprintf (text, sizeof text, pk_fields, "[\"a\",\"a\"]");
    assert_int_equal (zs_schema_from_json (&t, text, err, sizeof err), ZS_ECORRUPT);
    assert_string_equal (err, "primary key 2 'a': named twice");
    //  a type zsink does not read is named
    assert_int_equal (zs_schema_from_json (&t,
                                           "{\"id\":0,\"fields\":[{\"name\":\"d\",\"type\":"
                                           "\"DECIMAL(40, 2)\"}]}",
                                           err, sizeof err),
                      ZS_ECORRUPT);
    assert_non_null (strstr (err, "precision 40"));
}

//  The types of issue 25: Flink SQL's spellings in, Paimon's out (the
//  canonical text and the schema file's JSON), and back.
static void
test_paimon_type_spellings (void **state)
{
    struct {
        const char *in, *canonical;
        zs_type_t kind;
    } cases[] = {
        {"TINYINT", "TINYINT", ZS_TYPE_TINYINT},
        {"smallint", "SMALLINT", ZS_TYPE_SMALLINT},
        {"DECIMAL", "DECIMAL(10, 0)", ZS_TYPE_DECIMAL},
        {"DECIMAL(7)", "DECIMAL(7, 0)", ZS_TYPE_DECIMAL},
        {"decimal( 10 ,2 )", "DECIMAL(10, 2)", ZS_TYPE_DECIMAL},
        {"NUMERIC(38, 38)", "DECIMAL(38, 38)", ZS_TYPE_DECIMAL},
        {"DEC(1,0)", "DECIMAL(1, 0)", ZS_TYPE_DECIMAL},
        {"CHAR(3)", "CHAR(3)", ZS_TYPE_CHAR},
        {"CHAR", "CHAR(1)", ZS_TYPE_CHAR},
        {"VARCHAR(20)", "VARCHAR(20)", ZS_TYPE_STRING},
        {"VARCHAR(2147483647)", "STRING", ZS_TYPE_STRING},
        {"VARCHAR", "STRING", ZS_TYPE_STRING},
        {"BINARY(4)", "BINARY(4)", ZS_TYPE_BINARY},
        {"BINARY", "BYTES", ZS_TYPE_BYTES},
        {"VARBINARY(8)", "VARBINARY(8)", ZS_TYPE_BYTES},
        {"VARBINARY(2147483647)", "BYTES", ZS_TYPE_BYTES},
        {"TIME", "TIME(0)", ZS_TYPE_TIME},
        {"TIME(3)", "TIME(3)", ZS_TYPE_TIME},
        {"TIMESTAMP(0)", "TIMESTAMP(0)", ZS_TYPE_TIMESTAMP3},
        {"TIMESTAMP(3)", "TIMESTAMP(3)", ZS_TYPE_TIMESTAMP3},
        {"TIMESTAMP(4)", "TIMESTAMP(4)", ZS_TYPE_TIMESTAMP6},
        {"TIMESTAMP", "TIMESTAMP(6)", ZS_TYPE_TIMESTAMP6},
        {"TIMESTAMP(7)", "TIMESTAMP(7)", ZS_TYPE_TIMESTAMP9},
        {"TIMESTAMP(9) WITHOUT TIME ZONE", "TIMESTAMP(9)", ZS_TYPE_TIMESTAMP9},
        {"TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
         ZS_TYPE_TIMESTAMP3},
        {"timestamp_ltz(9)", "TIMESTAMP(9) WITH LOCAL TIME ZONE", ZS_TYPE_TIMESTAMP9},
        {"TIMESTAMP_LTZ", "TIMESTAMP(6) WITH LOCAL TIME ZONE", ZS_TYPE_TIMESTAMP6},
        {"TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE", ZS_TYPE_TIMESTAMP6},
    };
    char err[ZS_ERRLEN], text[256], buf[ZS_TYPE_TEXT_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zs_schema_t s;
        snprintf (text, sizeof text, "a %s NOT NULL, b INT", cases[i].in);
        if (zs_schema_parse (&s, text, err, sizeof err) != 0)
            fail_msg ("'%s': %s", text, err);
        assert_int_equal (s.n, 2);
        assert_int_equal (s.cols[0].type, cases[i].kind);
        assert_false (s.cols[0].nullable);
        assert_string_equal (zs_column_type (&s.cols[0], buf, sizeof buf), cases[i].canonical);
        //  through the schema file's JSON, as Paimon spells it
        char *json = zs_schema_to_json (&s, 1);
        char want[128];
        snprintf (want, sizeof want, "\"type\": \"%s NOT NULL\"", cases[i].canonical);
        if (!strstr (json, want))
            fail_msg ("%s lacks %s", json, want);
        zs_table_schema_t back;
        assert_int_equal (zs_schema_from_json (&back, json, err, sizeof err), 0);
        assert_int_equal (zs_schema_diff (&back.row, &s, err, sizeof err), 0);
        assert_int_equal (back.row.fingerprint, s.fingerprint);
        free (json);
    }
    //  the existing types keep their text, so their fingerprints too
    zs_schema_t s;
    assert_int_equal (
        zs_schema_parse (&s, "ts TIMESTAMP(3), t6 TIMESTAMP, v VARCHAR", err, sizeof err), 0);
    assert_int_equal (zs_schema_format (&s, text, sizeof text), 0);
    assert_string_equal (text, "ts TIMESTAMP(3), t6 TIMESTAMP(6), v STRING");
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_parse_all_types),
        cmocka_unit_test (test_parse_errors_name_the_column),
        cmocka_unit_test (test_json_round_trip_and_corrupt),
        cmocka_unit_test (test_nested_types),
        cmocka_unit_test (test_paimon_tables),
        cmocka_unit_test (test_diff_names_first_difference),
        cmocka_unit_test (test_rowfmt_values),
        cmocka_unit_test (test_rowfmt_rows),
        cmocka_unit_test (test_paimon_type_spellings),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
