/*  test_datafile.c - the zrow format: round trip (awkward names and
    doubles), file metadata, and that every kind of damage - truncation at
    any byte, a wrong trailer, garbage - is an error naming the file, never
    a crash or a silently shorter file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafile.h"
#include "fs.h"
#include <float.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
    return zs_fs_mkdirs (p);
}

static int
s_teardown (void **state)
{
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

//  Read a whole file; returns rows read or -1 (err filled).
static int64_t
s_read_all (const char *path, zs_row_t *rows, int64_t max, char *err, size_t errlen)
{
    zs_datafile_reader_t *r = zs_datafile_reader_open (path, err, errlen);
    if (!r)
        return -1;
    int64_t n = 0;
    zs_row_t row;
    int rc;
    while ((rc = zs_datafile_reader_next (r, &row, err, errlen)) == 1) {
        if (rows && n < max)
            rows[n] = row;
        n++;
    }
    zs_datafile_reader_destroy (&r);
    assert_null (r);
    return rc == 0 ? n : -1;
}

static void
test_row_from_id (void **state)
{
    zs_row_t row;
    zs_row_from_id (&row, 123456);
    assert_int_equal (row.id, 123456);
    assert_string_equal (row.name, "name-123456");
    assert_true (row.price == 23456 / 100.0);
    assert_int_equal (row.ts_millis, INT64_C (1700000000000) + 123456000);
    assert_string_equal (zs_datafile_extension (), "zrow");
}

static void
test_round_trip (void **state)
{
    char err[ZS_ERRLEN];
    enum { N = 10000 };
    static zs_row_t in[N + 8], out[N + 8];
    int n = 0;
    for (int i = 1; i <= N; i++)
        zs_row_from_id (&in[n++], i);
    //  Rows that would break a naive text format.
    static const double odd[] = {0.1, -0.0, 1e300, -DBL_MAX, DBL_MIN, 5e-324, 1.0 / 3.0, 0};
    for (int i = 0; i < 8; i++) {
        zs_row_t *r = &in[n++];
        memset (r, 0, sizeof *r);
        r->id = i % 2 ? -(int64_t) i * 1000000007 : INT64_MAX - i;
        r->price = odd[i];
        r->ts_millis = -i;
    }
    snprintf (in[N].name, sizeof in[N].name, "tab\there\nnewline\\back\rcr");
    memset (in[N + 1].name, 'x', sizeof in[N + 1].name - 1); //  longest name
    in[N + 2].name[0] = '\0';                                //  empty name

    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/data-1.zrow", err, sizeof err);
    assert_non_null (w);
    for (int i = 0; i < n; i++)
        assert_int_equal (zs_datafile_writer_append (w, &in[i], err, sizeof err), 0);
    assert_int_equal (zs_datafile_writer_rows (w), n);
    assert_true (zs_datafile_writer_bytes (w) > 0);
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    assert_null (w);
    assert_string_equal (meta.path, "bucket-0/data-1.zrow");
    assert_int_equal (meta.rows, n);
    assert_int_equal (meta.min_id, -7 * INT64_C (1000000007));
    assert_int_equal (meta.max_id, INT64_MAX);

    char path[512];
    snprintf (path, sizeof path, "%s/%s", s_dir, meta.path);
    assert_int_equal (meta.size, zs_fs_file_size (path));
    assert_int_equal (s_read_all (path, out, n, err, sizeof err), n);
    for (int i = 0; i < n; i++) {
        assert_int_equal (out[i].id, in[i].id);
        assert_string_equal (out[i].name, in[i].name);
        //  Bit-exact, including the sign of -0.0.
        assert_memory_equal (&out[i].price, &in[i].price, sizeof (double));
        assert_int_equal (out[i].ts_millis, in[i].ts_millis);
    }
}

static void
test_empty_file_is_valid (void **state)
{
    char err[ZS_ERRLEN], path[512];
    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/empty.zrow", err, sizeof err);
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    assert_int_equal (meta.rows, 0);
    snprintf (path, sizeof path, "%s/bucket-0/empty.zrow", s_dir);
    assert_int_equal (s_read_all (path, NULL, 0, err, sizeof err), 0);
}

//  Cut a valid file at every length short of complete: each must read as
//  an error that names the file, and none may crash or read as valid.
static void
test_truncated_file_is_an_error (void **state)
{
    char err[ZS_ERRLEN], path[512];
    zs_datafile_writer_t *w = zs_datafile_writer_new (s_dir, "bucket-0/t.zrow", err, sizeof err);
    for (int i = 1; i <= 20; i++) {
        zs_row_t row;
        zs_row_from_id (&row, i);
        assert_int_equal (zs_datafile_writer_append (w, &row, err, sizeof err), 0);
    }
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    snprintf (path, sizeof path, "%s/bucket-0/t.zrow", s_dir);
    for (int64_t len = 0; len < meta.size; len++) {
        assert_int_equal (truncate (path, len), 0);
        err[0] = '\0';
        if (s_read_all (path, NULL, 0, err, sizeof err) != -1)
            fail_msg ("file cut to %lld of %lld bytes read as valid", (long long) len,
                      (long long) meta.size);
        assert_non_null (strstr (err, path));
        //  Rebuild the file for the next cut (truncate only shrinks).
        assert_int_equal (unlink (path), 0);
        w = zs_datafile_writer_new (s_dir, "bucket-0/t.zrow", err, sizeof err);
        for (int i = 1; i <= 20; i++) {
            zs_row_t row;
            zs_row_from_id (&row, i);
            zs_datafile_writer_append (w, &row, err, sizeof err);
        }
        assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    }
    //  Cut right after a row line: the message says where and why.
    assert_int_equal (s_read_all (path, NULL, 0, err, sizeof err), 20);
    assert_int_equal (truncate (path, meta.size - (int64_t) strlen ("#end rows=20\n")), 0);
    assert_int_equal (s_read_all (path, NULL, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "line 22"));
    assert_non_null (strstr (err, "truncated"));
}

static void
s_write_raw (const char *path, const char *text)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_fs_write_atomic (path, text, strlen (text), err, sizeof err), 0);
}

static void
test_damaged_files (void **state)
{
    char err[ZS_ERRLEN], path[512];
    snprintf (path, sizeof path, "%s/bucket-0/bad.zrow", s_dir);
    static const char *bad[] = {
        "",
        "not a zrow file\n",
        "#zrow v2 id:BIGINT\n#end rows=0\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n#end rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n1\tn\t1\t1\n#end rows=2\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\nx\tn\t1\t1\n#end rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n1\tn\t1\n#end rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n1\tn\tabc\t1\n#end "
        "rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n1\tn\\q\t1\t1\n#end "
        "rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n1\tn\t1\t1\t9\n#end "
        "rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n99999999999999999999\tn\t1"
        "\t1\n#end rows=1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n#end rows=0\n1\tn\t1\t1\n",
        "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)\n1\t"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\t1\t1\n#end rows=1\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s_write_raw (path, bad[i]);
        err[0] = '\0';
        if (s_read_all (path, NULL, 0, err, sizeof err) != -1)
            fail_msg ("damaged file %zu read as valid", i);
        assert_non_null (strstr (err, "bad.zrow"));
    }
    char missing[512];
    snprintf (missing, sizeof missing, "%s/bucket-0/none.zrow", s_dir);
    assert_null (zs_datafile_reader_open (missing, err, sizeof err));
    assert_non_null (strstr (err, "none.zrow"));
}

static void
test_writer_abort_and_no_overwrite (void **state)
{
    char err[ZS_ERRLEN], path[512];
    zs_datafile_writer_t *w = zs_datafile_writer_new (s_dir, "bucket-0/a.zrow", err, sizeof err);
    zs_row_t row;
    zs_row_from_id (&row, 1);
    zs_datafile_writer_append (w, &row, err, sizeof err);
    zs_datafile_writer_abort (&w);
    assert_null (w);
    snprintf (path, sizeof path, "%s/bucket-0/a.zrow", s_dir);
    assert_int_equal (zs_fs_file_size (path), -1);

    w = zs_datafile_writer_new (s_dir, "bucket-0/a.zrow", err, sizeof err);
    assert_int_equal (zs_datafile_writer_close (&w, NULL, err, sizeof err), 0);
    assert_null (zs_datafile_writer_new (s_dir, "bucket-0/a.zrow", err, sizeof err));
    assert_null (zs_datafile_writer_new (s_dir, "no-such-dir/a.zrow", err, sizeof err));
    assert_non_null (strstr (err, "no-such-dir"));
}

//  The writer must keep up with a fast source; a loose bound so that a
//  loaded 2-core box does not flake, tight enough to catch a 10x slip.
static void
test_writer_speed (void **state)
{
    char err[ZS_ERRLEN];
    zs_datafile_writer_t *w =
        zs_datafile_writer_new (s_dir, "bucket-0/speed.zrow", err, sizeof err);
    int64_t start = zs_clock_mono_ms ();
    enum { N = 1000000 };
    for (int i = 1; i <= N; i++) {
        zs_row_t row;
        zs_row_from_id (&row, i);
        zs_datafile_writer_append (w, &row, err, sizeof err);
    }
    zs_file_meta_t meta;
    assert_int_equal (zs_datafile_writer_close (&w, &meta, err, sizeof err), 0);
    int64_t ms = zs_clock_mono_ms () - start;
    print_message ("zrow writer: %d rows in %lld ms (%lld MB)\n", N, (long long) ms,
                   (long long) (meta.size >> 20));
    assert_true (ms < 10000);
    assert_int_equal (meta.min_id, 1);
    assert_int_equal (meta.max_id, N);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_row_from_id),
        cmocka_unit_test_setup_teardown (test_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_empty_file_is_valid, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_truncated_file_is_an_error, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_damaged_files, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_writer_abort_and_no_overwrite, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_writer_speed, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
