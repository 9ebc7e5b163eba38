/*  test_parquet_nested.c - nested columns (ARRAY, MAP, ROW) through the
    Parquet writer and reader: JSON in (record.c), a file, rows back out
    as JSON, equal; nulls at every level, empty lists and maps, several
    row groups and pages; a NOT NULL violation deep inside refused with
    its path and the row group left as it was; the levels of a small file
    byte-exact against what parquet-mr writes for the same rows; a
    corrupt level an error, not a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "parquet.h"
#include "parquet_nested.h"
#include "parquet_priv.h"
#include "record.h"
#include "rowfmt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char s_path[128];

static int
s_setup (void **state)
{
    snprintf (s_path, sizeof s_path, "/tmp/zsink-test-pqnested-%d.parquet", (int) getpid ());
    unlink (s_path);
    return 0;
}

static int
s_teardown (void **state)
{
    if (getenv ("ZS_KEEP_PARQUET")) { //  for a look with other readers
        static int n;
        char keep[160];
        snprintf (keep, sizeof keep, "%s.%d", s_path, n++);
        rename (s_path, keep);
    }
    unlink (s_path);
    return 0;
}

//  Write lines (JSON objects) with schema text into s_path, read them
//  back and compare each row's JSON with want[i] (the line when NULL).
static void
s_round_trip (const char *schema_text, const char *const *lines, int n, const char *const *want,
              const zs_parquet_options_t *opts)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    if (zs_schema_parse (&schema, schema_text, err, sizeof err) != 0)
        fail_msg ("%s", err);
    zs_record_t *rec = zs_record_new (&schema);
    unlink (s_path);
    zs_parquet_writer_t *w = zs_parquet_writer_new (s_path, &schema, opts, err, sizeof err);
    if (!w)
        fail_msg ("%s", err);
    zs_value_t row[ZS_MAX_COLUMNS];
    for (int i = 0; i < n; i++) {
        if (zs_record_json (rec, (const uint8_t *) lines[i], strlen (lines[i]), row, err,
                            sizeof err)
            != 0)
            fail_msg ("line %d: %s", i, err);
        if (zs_parquet_writer_append (w, row, err, sizeof err) != 0)
            fail_msg ("append %d: %s", i, err);
    }
    int64_t size;
    zs_column_stats_t stats[ZS_MAX_COLUMNS];
    if (zs_parquet_writer_close (&w, &size, stats, err, sizeof err) != 0)
        fail_msg ("%s", err);
    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path, err, sizeof err);
    if (!r)
        fail_msg ("%s", err);
    const zs_schema_t *got = zs_parquet_reader_schema (r);
    char a[8192], b[8192];
    zs_schema_format (&schema, a, sizeof a);
    zs_schema_format (got, b, sizeof b);
    assert_string_equal (a, b);
    zs_strbuf_t out = {0};
    for (int i = 0; i < n; i++) {
        int rc = zs_parquet_reader_next (r, row, err, sizeof err);
        if (rc != 1)
            fail_msg ("row %d: rc %d %s", i, rc, err);
        out.len = 0;
        zs_row_jsonl (&out, got, row);
        out.data[out.len - 1] = '\0'; //  the newline
        const char *w_line = want && want[i] ? want[i] : lines[i];
        if (strcmp (out.data, w_line) != 0)
            fail_msg ("row %d: got %s, want %s", i, out.data, w_line);
    }
    assert_int_equal (zs_parquet_reader_next (r, row, err, sizeof err), 0);
    zs_strbuf_free (&out);
    zs_parquet_reader_destroy (&r);
    zs_record_destroy (&rec);
}

static void
test_array_round_trip (void **state)
{
    const char *lines[] = {
        "{\"id\":1,\"xs\":[1,2,3]}",       "{\"id\":2,\"xs\":[]}",  "{\"id\":3,\"xs\":null}",
        "{\"id\":4,\"xs\":[null,5,null]}", "{\"id\":5,\"xs\":[7]}",
    };
    s_round_trip ("id BIGINT NOT NULL, xs ARRAY<INT>", lines, 5, NULL, NULL);
    //  a leaf without a single value in the row group (fuzz_nested found
    //  the writer offsetting its empty buffer's NULL)
    const char *none[] = {"{\"xs\":null}", "{\"xs\":[]}", "{\"xs\":[null]}"};
    s_round_trip ("xs ARRAY<INT>", none, 3, NULL, NULL);
}

static void
test_row_round_trip (void **state)
{
    const char *lines[] = {
        "{\"r\":{\"a\":1,\"b\":\"x\"},\"n\":2}",
        "{\"r\":null,\"n\":null}",
        "{\"r\":{\"a\":null,\"b\":\"\"},\"n\":3}",
    };
    s_round_trip ("r ROW<a INT, b STRING NOT NULL>, n BIGINT", lines, 3, NULL, NULL);
}

static void
test_map_round_trip (void **state)
{
    const char *lines[] = {
        "{\"m\":{\"a\":1,\"b\":null}}",
        "{\"m\":{}}",
        "{\"m\":null}",
        "{\"m\":{\"zz\":-4}}",
    };
    s_round_trip ("m MAP<STRING, BIGINT>", lines, 4, NULL, NULL);
    const char *ints[] = {"{\"m\":{\"1\":true,\"-2\":false}}", "{\"m\":[[3,null]]}"};
    const char *want[] = {NULL, "{\"m\":{\"3\":null}}"};
    s_round_trip ("m MAP<INT, BOOLEAN>", ints, 2, want, NULL);
}

static void
test_deep_nesting (void **state)
{
    const char *schema = "id INT, items ARRAY<ROW<name STRING, price DECIMAL(10, 2), "
                         "tags ARRAY<STRING NOT NULL>, attrs MAP<STRING, ARRAY<DOUBLE>>>>, "
                         "o ROW<p ROW<q ARRAY<ARRAY<INT>>> NOT NULL>, ts TIMESTAMP(9)";
    const char *lines[] = {
        "{\"id\":1,\"items\":[{\"name\":\"a\",\"price\":\"1.50\",\"tags\":[\"x\",\"y\"],"
        "\"attrs\":{\"k\":[1.5,null],\"e\":[]}},null,{\"name\":null,\"price\":null,\"tags\":[],"
        "\"attrs\":null}],\"o\":{\"p\":{\"q\":[[1,2],[],null,[null]]}},"
        "\"ts\":\"2024-01-02 03:04:05.123456789\"}",
        "{\"id\":2,\"items\":[],\"o\":{\"p\":{\"q\":null}},\"ts\":null}",
        "{\"id\":3,\"items\":null,\"o\":null,\"ts\":null}",
        "{\"id\":null,\"items\":[null],\"o\":{\"p\":{\"q\":[]}},\"ts\":null}",
    };
    s_round_trip (schema, lines, 4, NULL, NULL);
}

//  Many rows, small row groups and pages: chunks of several pages cut at
//  row starts, and rows that are long lists.
static void
test_many_rows_pages_and_groups (void **state)
{
    enum { N = 3000 };
    static char bufs[N][200];
    const char *lines[N];
    for (int i = 0; i < N; i++) {
        int n = 0;
        n += snprintf (bufs[i] + n, sizeof bufs[i] - (size_t) n, "{\"id\":%d,\"xs\":", i);
        if (i % 7 == 0)
            n += snprintf (bufs[i] + n, sizeof bufs[i] - (size_t) n, "null");
        else {
            n += snprintf (bufs[i] + n, sizeof bufs[i] - (size_t) n, "[");
            for (int k = 0; k < i % 11; k++)
                n += snprintf (bufs[i] + n, sizeof bufs[i] - (size_t) n, "%s\"v%d\"", k ? "," : "",
                               i * k);
            n += snprintf (bufs[i] + n, sizeof bufs[i] - (size_t) n, "]");
        }
        snprintf (bufs[i] + n, sizeof bufs[i] - (size_t) n, "}");
        lines[i] = bufs[i];
    }
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.row_group_rows = 1000;
    opts.page_bytes = ZS_PARQUET_PAGE_MIN;
    s_round_trip ("id INT NOT NULL, xs ARRAY<STRING>", lines, N, NULL, &opts);
    opts.compression = ZS_COMPRESSION_NONE;
    s_round_trip ("id INT NOT NULL, xs ARRAY<STRING>", lines, N, NULL, &opts);
}

//  A null deep inside where the type says NOT NULL: refused with the
//  path, and the rows before and after are the file's whole content.
static void
test_not_null_inside_refused (void **state)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&schema, "xs ARRAY<ROW<a INT NOT NULL>>", err, sizeof err),
                      0);
    zs_parquet_writer_t *w = zs_parquet_writer_new (s_path, &schema, NULL, err, sizeof err);
    assert_non_null (w);
    zs_value_t a_ok = {.v.i32 = 1}, a_null = {.null = true};
    zs_value_t r_ok = {.v.nest = {&a_ok, NULL, 1}}, r_bad = {.v.nest = {&a_null, NULL, 1}};
    zs_value_t elems[2] = {r_ok, r_bad};
    zs_value_t good = {.v.nest = {elems, NULL, 1}}, bad = {.v.nest = {elems, NULL, 2}};
    assert_int_equal (zs_parquet_writer_append (w, &good, err, sizeof err), 0);
    assert_int_equal (zs_parquet_writer_append (w, &bad, err, sizeof err), -1);
    assert_non_null (strstr (err, "xs[1].a"));
    assert_int_equal (zs_parquet_writer_append (w, &good, err, sizeof err), 0);
    assert_int_equal (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err), 0);
    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path, err, sizeof err);
    assert_non_null (r);
    zs_value_t row[1];
    zs_strbuf_t out = {0};
    for (int i = 0; i < 2; i++) {
        assert_int_equal (zs_parquet_reader_next (r, row, err, sizeof err), 1);
        zs_row_jsonl (&out, zs_parquet_reader_schema (r), row);
    }
    assert_int_equal (zs_parquet_reader_next (r, row, err, sizeof err), 0);
    assert_string_equal (out.data, "{\"xs\":[{\"a\":1}]}\n{\"xs\":[{\"a\":1}]}\n");
    zs_strbuf_free (&out);
    zs_parquet_reader_destroy (&r);
}

//  The page of a small file, byte for byte: xs ARRAY<INT> holding [1, 2],
//  null, [] and [null] has repetition levels 0 1 0 0 0 (bit width 1) and
//  definition levels 3 3 0 1 2 (width 2: the list optional 1, the repeated
//  group 2, the element 3), each RLE/bit-packed hybrid as one bit-packed
//  group of 8 (header 0x03), as parquet-mr's hybrid encoder writes fewer
//  than 8 repeats, then the PLAIN values 1 and 2.
static void
test_levels_byte_exact (void **state)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&schema, "xs ARRAY<INT>", err, sizeof err), 0);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.compression = ZS_COMPRESSION_NONE;
    zs_parquet_writer_t *w = zs_parquet_writer_new (s_path, &schema, &opts, err, sizeof err);
    assert_non_null (w);
    zs_value_t e[2] = {{.v.i32 = 1}, {.v.i32 = 2}}, n1 = {.null = true};
    zs_value_t rows[4] = {{.v.nest = {e, NULL, 2}},
                          {.null = true},
                          {.v.nest = {NULL, NULL, 0}},
                          {.v.nest = {&n1, NULL, 1}}};
    for (int i = 0; i < 4; i++)
        assert_int_equal (zs_parquet_writer_append (w, &rows[i], err, sizeof err), 0);
    assert_int_equal (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err), 0);
    static const uint8_t page[] = {
        2, 0, 0, 0, 0x03, 0x02,          //  repetition levels
        3, 0, 0, 0, 0x03, 0x4F, 0x02,    //  definition levels
        1, 0, 0, 0, 2,    0,    0,    0, //  values
    };
    FILE *f = fopen (s_path, "rb");
    assert_non_null (f);
    uint8_t buf[4096];
    size_t n = fread (buf, 1, sizeof buf, f);
    fclose (f);
    assert_non_null (memmem (buf, n, page, sizeof page));
}

//  The layout's levels: Dremel's rules for each leaf.
static void
test_layout_levels (void **state)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_schema_parse (&schema,
                         "a INT NOT NULL, xs ARRAY<INT NOT NULL> NOT NULL, "
                         "m MAP<STRING, ARRAY<INT>>, r ROW<b INT, c ROW<d INT NOT NULL>>",
                         err, sizeof err),
        0);
    static zs_pq_layout_t L;
    assert_int_equal (zs_pq_layout (&schema, &L, err, sizeof err), 0);
    assert_int_equal (L.nleaves, 6);
    struct {
        const char *name;
        int def, rep;
    } want[] = {
        {"a", 0, 0},
        {"xs.list.element", 1, 1},
        {"m.key_value.key", 2, 1},
        {"m.key_value.value.list.element", 5, 2},
        {"r.b", 2, 0},
        {"r.c.d", 2, 0},
    };
    int k[] = {0, 1, 2, 3, 4, 5};
    for (int i = 0; i < 6; i++) {
        char name[ZS_PQ_PATH_MAX];
        assert_string_equal (zs_pq_leaf_name (&L, k[i], name, sizeof name), want[i].name);
        assert_int_equal (L.max_def[k[i]], want[i].def);
        assert_int_equal (L.max_rep[k[i]], want[i].rep);
    }
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_array_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_row_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_map_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_deep_nesting, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_many_rows_pages_and_groups, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_not_null_inside_refused, s_setup, s_teardown),
        cmocka_unit_test (test_layout_levels),
        cmocka_unit_test_setup_teardown (test_levels_byte_exact, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
