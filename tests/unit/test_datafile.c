/*  test_datafile.c - a data file's meta as the manifest gets it: rows,
    size on disk, the id range, and the column statistics JSON; a table
    without an id column; a NOT NULL violation refused without a trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafile.h"
#include "parquet.h"
#include "stats.h"
#include "fs.h"
#include "io.h"
#include <ftw.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  A file's statistics as `zsink table files --json` shows them.
static json_t *
s_stats (const zs_file_meta_t *meta, const zs_schema_t *schema)
{
    zs_strbuf_t text = {0};
    zs_stats_json (&meta->stats, schema, &text);
    json_t *v = text.data ? json_loads (text.data, 0, NULL) : NULL;
    zs_strbuf_free (&text);
    return v;
}

static char s_dir[64];

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static int
s_setup (void **state)
{
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-datafile-XXXXXX");
    if (!mkdtemp (s_dir))
        return -1;
    char p[128];
    snprintf (p, sizeof p, "%s/bucket-0", s_dir);
    return zs_io_mkdirs (p);
}

static int
s_teardown (void **state)
{
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static zs_value_t
s_str (const char *s)
{
    zs_value_t v = {.null = false};
    v.v.bin.ptr = (const uint8_t *) s;
    v.v.bin.len = (uint32_t) strlen (s);
    return v;
}

static void
test_meta_and_stats (void **state)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    assert_int_equal (
        zs_schema_parse (&schema, "id BIGINT NOT NULL, name STRING, price DOUBLE", err, sizeof err),
        0);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/a.parquet", &schema, &opts, err, sizeof err);
    assert_non_null (w);
    assert_string_equal (zs_datafile_extension (), "parquet");
    const char *names[] = {"b", "a\"q", "z"};
    int64_t ids[] = {42, -7, 1000};
    for (int i = 0; i < 3; i++) {
        zs_value_t row[3] = {
            {.v.i64 = ids[i]}, s_str (names[i]), {.null = i == 1, .v.f64 = i * 1.5}};
        assert_int_equal (zs_datafile_writer_append (w, row, err, sizeof err), 0);
    }
    //  a null id is refused (NOT NULL) and not counted
    zs_value_t bad[3] = {{.null = true}, s_str ("x"), {.v.f64 = 1}};
    assert_int_equal (zs_datafile_writer_append (w, bad, err, sizeof err), -1);
    assert_non_null (strstr (err, "id"));
    assert_int_equal (zs_datafile_writer_rows (w), 3);
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    assert_null (w);
    assert_string_equal (meta.path, "bucket-0/a.parquet");
    assert_int_equal (meta.rows, 3);
    char p[256];
    snprintf (p, sizeof p, "%s/%s", s_dir, meta.path);
    assert_int_equal (meta.size, zs_io_file_size (p));
    assert_true (meta.has_id);
    assert_int_equal (meta.min_id, -7);
    assert_int_equal (meta.max_id, 1000);

    json_t *stats = s_stats (&meta, &schema);
    assert_non_null (stats);
    json_t *nulls = json_object_get (stats, "nullCounts");
    json_t *mins = json_object_get (stats, "minValues");
    json_t *maxs = json_object_get (stats, "maxValues");
    assert_int_equal (json_array_size (nulls), 3);
    assert_int_equal (json_integer_value (json_array_get (nulls, 0)), 0);
    assert_int_equal (json_integer_value (json_array_get (nulls, 2)), 1);
    assert_int_equal (json_integer_value (json_array_get (mins, 0)), -7);
    assert_int_equal (json_integer_value (json_array_get (maxs, 0)), 1000);
    assert_string_equal (json_string_value (json_array_get (mins, 1)), "a\"q");
    assert_string_equal (json_string_value (json_array_get (maxs, 1)), "z");
    assert_true (json_number_value (json_array_get (maxs, 2)) == 3.0);
    json_decref (stats);
}

//  zs_datafile_writer_flush (write-buffer-size): the buffered rows go out as
//  a row group, the buffers are given back, the file goes on taking rows,
//  and it reads back whole with statistics over every group.
static void
test_flush_buffers (void **state)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    assert_int_equal (zs_schema_parse (&schema, "id BIGINT NOT NULL, name STRING", err, sizeof err),
                      0);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/f.parquet", &schema, &opts, err, sizeof err);
    assert_non_null (w);
    assert_int_equal (zs_datafile_writer_flush (w, err, sizeof err), 0); //  nothing buffered
    char name[32];
    for (int64_t id = 1; id <= 3000; id++) {
        snprintf (name, sizeof name, "n%" PRId64, id);
        zs_value_t row[2] = {{.v.i64 = id}, s_str (name)};
        assert_int_equal (zs_datafile_writer_append (w, row, err, sizeof err), 0);
        if (id % 1000 == 0) {
            assert_true (zs_datafile_writer_buffered (w) > 0);
            assert_int_equal (zs_datafile_writer_flush (w, err, sizeof err), 0);
            assert_int_equal (zs_datafile_writer_buffered (w), 0);
        }
    }
    zs_value_t last[2] = {{.v.i64 = 0}, s_str ("a")};
    assert_int_equal (zs_datafile_writer_append (w, last, err, sizeof err), 0);
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    assert_int_equal (meta.rows, 3001);
    assert_int_equal (meta.min_id, 0);
    assert_int_equal (meta.max_id, 3000);
    char p[256];
    snprintf (p, sizeof p, "%s/%s", s_dir, meta.path);
    zs_parquet_reader_t *r = zs_parquet_reader_open (p, err, sizeof err);
    assert_non_null (r);
    assert_int_equal (zs_parquet_reader_num_row_groups (r), 4);
    assert_int_equal (zs_parquet_reader_num_rows (r), 3001);
    zs_value_t row[2];
    int64_t sum = 0, n = 0;
    int rc;
    while ((rc = zs_parquet_reader_next (r, row, err, sizeof err)) == 1) {
        snprintf (name, sizeof name, "n%" PRId64, row[0].v.i64);
        if (row[0].v.i64 > 0)
            assert_memory_equal (row[1].v.bin.ptr, name, row[1].v.bin.len);
        sum += row[0].v.i64;
        n++;
    }
    assert_int_equal (rc, 0);
    assert_int_equal (n, 3001);
    assert_int_equal (sum, 3000 * 3001 / 2);
    zs_parquet_reader_destroy (&r);
}

//  A table without an id column: no id range, stats still there.
static void
test_no_id_column (void **state)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    assert_int_equal (zs_schema_parse (&schema, "k INT, id STRING", err, sizeof err), 0);
    assert_int_equal (schema.id_col, -1); //  id, but not a BIGINT
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.compression = ZS_COMPRESSION_NONE;
    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/b.parquet", &schema, &opts, err, sizeof err);
    assert_non_null (w);
    zs_value_t row[2] = {{.v.i32 = 5}, s_str ("x")};
    assert_int_equal (zs_datafile_writer_append (w, row, err, sizeof err), 0);
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    assert_false (meta.has_id);
    json_t *stats = s_stats (&meta, &schema);
    char *text = json_dumps (stats, JSON_COMPACT);
    assert_non_null (strstr (text, "\"minValues\":[5,\"x\"]"));
    free (text);
    json_decref (stats);
}

//  An aborted file leaves nothing behind; a name taken is refused.
static void
test_abort_and_exclusive (void **state)
{
    char err[ZS_ERRLEN], p[256];
    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/c.parquet", &schema, &opts, err, sizeof err);
    assert_non_null (w);
    zs_datafile_writer_abort (&w);
    assert_null (w);
    snprintf (p, sizeof p, "%s/bucket-0/c.parquet", s_dir);
    assert_int_equal (access (p, F_OK), -1);
    //  a.parquet exists from the first test
    w = zs_datafile_writer_new (s_dir, "bucket-0/a.parquet", &schema, &opts, err, sizeof err);
    assert_null (w);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_meta_and_stats),
        cmocka_unit_test (test_no_id_column),
        cmocka_unit_test (test_flush_buffers),
        cmocka_unit_test (test_abort_and_exclusive),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
