/*  test_source_file.c - the bounded file source: listing and the split
    across writers, every type from JSONL and CSV, each kind of error with
    its file:line and column, on-error skip, and positions that resume
    exactly (for every row count, at every read size). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "log.h"
#include "source_file.h"
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-source-file-XXXXXX");
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_teardown (void **state)
{
    zs_log_set_level (ZS_LOG_INFO);
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
s_join (char *buf, size_t len, const char *rel)
{
    snprintf (buf, len, "%s/%s", s_dir, rel);
}

static void
s_write_n (const char *rel, const char *text, size_t n)
{
    char path[256];
    s_join (path, sizeof path, rel);
    FILE *f = fopen (path, "wb");
    assert_non_null (f);
    assert_int_equal (fwrite (text, 1, n, f), n);
    fclose (f);
}

static void
s_write (const char *rel, const char *text)
{
    s_write_n (rel, text, strlen (text));
}

static void
s_mkdir (const char *rel)
{
    char path[256];
    s_join (path, sizeof path, rel);
    assert_int_equal (mkdir (path, 0755), 0);
}

static void
s_col (zs_schema_t *s, const char *name, zs_type_t type, bool nullable)
{
    zs_column_t *c = &s->cols[s->n++];
    snprintf (c->name, sizeof c->name, "%s", name);
    c->type = type;
    c->nullable = nullable;
}

//  id BIGINT NOT NULL, ok BOOLEAN, qty INT, price FLOAT, amount DOUBLE,
//  name STRING, raw BYTES, d DATE, ts3 TIMESTAMP(3), ts6 TIMESTAMP(6)
static void
s_schema_all (zs_schema_t *s)
{
    memset (s, 0, sizeof *s);
    s_col (s, "id", ZS_TYPE_BIGINT, false);
    s_col (s, "ok", ZS_TYPE_BOOLEAN, true);
    s_col (s, "qty", ZS_TYPE_INT, true);
    s_col (s, "price", ZS_TYPE_FLOAT, true);
    s_col (s, "amount", ZS_TYPE_DOUBLE, true);
    s_col (s, "name", ZS_TYPE_STRING, true);
    s_col (s, "raw", ZS_TYPE_BYTES, true);
    s_col (s, "d", ZS_TYPE_DATE, true);
    s_col (s, "ts3", ZS_TYPE_TIMESTAMP3, true);
    s_col (s, "ts6", ZS_TYPE_TIMESTAMP6, true);
    s->id_col = 0;
}

//  id BIGINT NOT NULL, name STRING
static void
s_schema_small (zs_schema_t *s)
{
    memset (s, 0, sizeof *s);
    s_col (s, "id", ZS_TYPE_BIGINT, false);
    s_col (s, "name", ZS_TYPE_STRING, true);
    s->id_col = 0;
}

static zs_source_file_t *
s_open (const zs_schema_t *schema, const char *rel, const char *format, bool skip, int index,
        int parallelism)
{
    char path[256];
    char err[ZS_ERRLEN] = "";
    if (rel)
        s_join (path, sizeof path, rel);
    else
        snprintf (path, sizeof path, "%s", s_dir);
    zs_source_file_t *src =
        zs_source_file_new (schema, path, format, skip, true, index, parallelism, err, sizeof err);
    if (!src)
        fail_msg ("zs_source_file_new: %s", err);
    return src;
}

//  A row as text, for comparing whole reads: values '|'-separated, NULL as
//  "N", bytes as printable ASCII or \xHH.
static void
s_fmt_row (const zs_schema_t *s, const zs_value_t *row, char *out, size_t len)
{
    size_t o = 0;
    for (int c = 0; c < s->n && o + 64 < len; c++) {
        if (c > 0)
            out[o++] = '|';
        const zs_value_t *v = &row[c];
        if (v->null) {
            out[o++] = 'N';
            continue;
        }
        switch (s->cols[c].type) {
        case ZS_TYPE_BOOLEAN:
            out[o++] = v->v.b ? 't' : 'f';
            break;
        case ZS_TYPE_INT:
        case ZS_TYPE_DATE:
            o += (size_t) snprintf (out + o, len - o, "%" PRId32, v->v.i32);
            break;
        case ZS_TYPE_BIGINT:
        case ZS_TYPE_TIMESTAMP3:
        case ZS_TYPE_TIMESTAMP6:
            o += (size_t) snprintf (out + o, len - o, "%" PRId64, v->v.i64);
            break;
        case ZS_TYPE_FLOAT:
            o += (size_t) snprintf (out + o, len - o, "%.9g", v->v.f32);
            break;
        case ZS_TYPE_DOUBLE:
            o += (size_t) snprintf (out + o, len - o, "%.17g", v->v.f64);
            break;
        case ZS_TYPE_STRING:
        case ZS_TYPE_BYTES:
            out[o++] = '"';
            for (uint32_t i = 0; i < v->v.bin.len && o + 8 < len; i++) {
                uint8_t b = v->v.bin.ptr[i];
                if (b >= 0x20 && b < 0x7F && b != '\\')
                    out[o++] = (char) b;
                else
                    o += (size_t) snprintf (out + o, len - o, "\\x%02X", b);
            }
            out[o++] = '"';
            break;
        default: //  types the tests here do not use
            out[o++] = '?';
            break;
        }
    }
    out[o] = '\0';
}

static void
s_assert_bin (const zs_value_t *v, const char *text, size_t n)
{
    assert_false (v->null);
    assert_int_equal (v->v.bin.len, n);
    if (n > 0)
        assert_memory_equal (v->v.bin.ptr, text, n);
}

// --------------------------------------------------------------------------
//  Listing

static void
test_listing_and_split (void **state)
{
    //  sorted by bytes: B.jsonl a.jsonl b.json c.jsonl d.jsonl
    s_write ("a.jsonl", "{\"id\":2}\n");
    s_write ("B.jsonl", "{\"id\":1}\n");
    s_write ("b.json", "{\"id\":3}\n");
    s_write ("c.jsonl", "{\"id\":4}\n");
    s_write ("d.jsonl", "{\"id\":5}\n");
    s_write (".hidden.jsonl", "{\"id\":99}\n");
    s_write ("notes.txt", "{\"id\":98}\n");
    s_write ("e.csv", "id\n97\n");
    s_write ("x.JSONL", "{\"id\":96}\n"); //  suffixes are case-sensitive
    s_mkdir ("sub.jsonl");                //  not a regular file
    s_write ("sub.jsonl/f.jsonl", "{\"id\":95}\n");
    char target[256], link[256];
    s_join (target, sizeof target, "c.jsonl");
    s_join (link, sizeof link, "l.jsonl"); //  a symlink to a regular file counts
    assert_int_equal (symlink (target, link), 0);

    zs_schema_t schema;
    s_schema_small (&schema);
    //  B a b.json c d l → writer 0: B c; 1: a d; 2: b.json l
    static const char *first[] = {"B.jsonl", "a.jsonl", "b.json"};
    static const int64_t ids[3][2] = {{1, 4}, {2, 5}, {3, 4}};
    char err[ZS_ERRLEN];
    for (int w = 0; w < 3; w++) {
        zs_source_file_t *src = s_open (&schema, NULL, "jsonl", false, w, 3);
        assert_int_equal (zs_source_file_count (src), 2);
        assert_string_equal (zs_source_file_pos_file (src), first[w]);
        assert_int_equal (zs_source_file_pos_offset (src), 0);
        zs_value_t row[2];
        for (int k = 0; k < 2; k++) {
            assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
            assert_int_equal (row[0].v.i64, ids[w][k]);
            assert_true (row[1].null);
        }
        assert_false (zs_source_file_done (src));
        assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
        assert_true (zs_source_file_done (src));
        assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
        assert_int_equal (zs_source_file_rows (src), 2);
        zs_source_file_destroy (&src);
        assert_null (src);
    }
    //  CSV lists only *.csv
    zs_source_file_t *src = s_open (&schema, NULL, "csv", false, 0, 1);
    assert_int_equal (zs_source_file_count (src), 1);
    assert_string_equal (zs_source_file_pos_file (src), "e.csv");
    zs_source_file_destroy (&src);
    //  a single file: writer 0 has it (by its base name), writer 1 nothing
    src = s_open (&schema, "d.jsonl", "jsonl", false, 0, 2);
    assert_int_equal (zs_source_file_count (src), 1);
    assert_string_equal (zs_source_file_pos_file (src), "d.jsonl");
    zs_value_t row[2];
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 5);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    zs_source_file_destroy (&src);
    src = s_open (&schema, "d.jsonl", "jsonl", false, 1, 2);
    assert_int_equal (zs_source_file_count (src), 0);
    assert_string_equal (zs_source_file_pos_file (src), "");
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_int_equal (zs_source_file_seek (src, "", 0, 0, 0, err, sizeof err), 0);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    zs_source_file_destroy (&src);
    zs_source_file_destroy (&src); //  NULL is fine
}

static void
test_new_refuses_bad_arguments (void **state)
{
    zs_schema_t schema;
    s_schema_small (&schema);
    char err[ZS_ERRLEN], path[256];
    s_join (path, sizeof path, "missing");
    assert_null (zs_source_file_new (&schema, path, "jsonl", false, false, 0, 1, err, sizeof err));
    assert_non_null (strstr (err, "missing"));
    assert_null (
        zs_source_file_new (&schema, s_dir, "parquet", false, false, 0, 1, err, sizeof err));
    assert_non_null (strstr (err, "parquet"));
    assert_null (zs_source_file_new (&schema, s_dir, "csv", false, false, 2, 2, err, sizeof err));
    assert_null (zs_source_file_new (&schema, s_dir, "csv", false, false, 0, 0, err, sizeof err));
    //  a directory holding no input file: refused, naming what it holds,
    //  unless source.file.allow-empty
    assert_null (zs_source_file_new (&schema, s_dir, "csv", false, false, 0, 1, err, sizeof err));
    assert_non_null (strstr (err, "holds no .csv file"));
    assert_non_null (strstr (err, "source.file.allow-empty"));
    s_write ("rows.jsonl", "{\"id\": 1}\n");
    assert_null (zs_source_file_new (&schema, s_dir, "csv", false, false, 0, 1, err, sizeof err));
    assert_non_null (strstr (err, "it holds 'rows.jsonl': is source.file.format right?"));
    //  allowed, an empty directory is an input with no files
    zs_source_file_t *src = s_open (&schema, NULL, "csv", false, 0, 1);
    assert_int_equal (zs_source_file_count (src), 0);
    zs_value_t row[2];
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_true (zs_source_file_done (src));
    zs_source_file_destroy (&src);
}

// --------------------------------------------------------------------------
//  Every type

static void
test_jsonl_every_type (void **state)
{
    s_write ("t.jsonl",
             "{\"id\": 9223372036854775807, \"ok\": true, \"qty\": 2147483647, \"price\": 2.5, "
             "\"amount\": 1e300, \"name\": \"h\u00e9llo \u2713 \xf0\x9d\x84\x9e\", \"raw\": "
             "\"a\\u0000b\", \"d\": \"2024-02-29\", \"ts3\": \"2024-01-02 03:04:05.123\", "
             "\"ts6\": \"2024-01-02T03:04:05.123456\", \"extra\": [1, {\"x\": 2}]}\n"
             "{\"id\": -9223372036854775808, \"ok\": false, \"qty\": -2147483648, \"price\": 3, "
             "\"amount\": -7, \"name\": \"\", \"raw\": \"\", \"d\": \"0001-01-01\", \"ts3\": "
             "\"1969-12-31 23:59:59.5\", \"ts6\": \"9999-12-31 23:59:59.999999\"}\n"
             "   \t\n"
             "{\"id\": 3, \"ok\": null, \"qty\": null}\r\n"
             "\n"
             "{\"id\": 4, \"d\": \"9999-12-31\", \"ts3\": \"2024-01-02 03:04:05.120000\", "
             "\"ts6\": \"1970-01-01 00:00:00\", \"name\": \"tab\\tquote\\\"\"}\n"
             "{\"id\": 9007199254740993, \"amount\": 9007199254740993}");
    zs_schema_t schema;
    s_schema_all (&schema);
    zs_source_file_t *src = s_open (&schema, "t.jsonl", "jsonl", false, 0, 1);
    char err[ZS_ERRLEN];
    zs_value_t row[10];

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, INT64_MAX);
    assert_true (row[1].v.b);
    assert_int_equal (row[2].v.i32, INT32_MAX);
    assert_true (row[3].v.f32 == 2.5f);
    assert_true (row[4].v.f64 == 1e300);
    s_assert_bin (&row[5], "h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9d\x84\x9e", 15);
    s_assert_bin (&row[6], "a\0b", 3);
    assert_int_equal (row[7].v.i32, 19782);
    assert_int_equal (row[8].v.i64, 1704164645123LL);
    assert_int_equal (row[9].v.i64, 1704164645123456LL);
    assert_int_equal (zs_source_file_pos_line (src), 1);

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, INT64_MIN);
    assert_false (row[1].null);
    assert_false (row[1].v.b);
    assert_int_equal (row[2].v.i32, INT32_MIN);
    assert_true (row[3].v.f32 == 3.0f);
    assert_true (row[4].v.f64 == -7.0);
    s_assert_bin (&row[5], "", 0);
    s_assert_bin (&row[6], "", 0);
    assert_int_equal (row[7].v.i32, -719162);
    assert_int_equal (row[8].v.i64, -500);
    assert_int_equal (row[9].v.i64, 253402300799999999LL);

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 3);
    for (int c = 1; c < 10; c++)
        assert_true (row[c].null);
    assert_int_equal (zs_source_file_pos_line (src), 4); //  the blank line counts

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 4);
    assert_int_equal (row[7].v.i32, 2932896);
    assert_int_equal (row[8].v.i64, 1704164645120LL); //  zeros past the precision are fine
    assert_int_equal (row[9].v.i64, 0);
    s_assert_bin (&row[5], "tab\tquote\"", 10);

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 9007199254740993LL); //  exact beyond 2^53
    assert_true (row[4].v.f64 == 9007199254740992.0);
    //  the last line has no newline: it still counts, and the end is its end
    assert_int_equal (zs_source_file_pos_line (src), 7);
    char path[256];
    s_join (path, sizeof path, "t.jsonl");
    struct stat st;
    assert_int_equal (stat (path, &st), 0);
    assert_int_equal (zs_source_file_pos_offset (src), st.st_size);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_string_equal (zs_source_file_pos_file (src), "t.jsonl");
    assert_int_equal (zs_source_file_pos_offset (src), st.st_size);
    assert_int_equal (zs_source_file_rows (src), 5);
    assert_int_equal (zs_source_file_skipped (src), 0);
    zs_source_file_destroy (&src);
}

static void
test_csv_every_type (void **state)
{
    //  header in its own order, an unknown column, ts6 missing (NULL)
    static const char text[] =
        "\xEF\xBB\xBFqty, id ,name,\"raw\",extra,ok,price,amount,d,ts3\r\n"
        "1,9223372036854775807,\"hello, world\",\"a\"\"b\",x,TRUE,2.5,1e300,2024-02-29,"
        "2024-01-02 03:04:05.123\r\n"
        "-2147483648,-9223372036854775808,\"multi\r\nline \"\"q\"\"\",,ignored,false,-0.25,-7,"
        "0001-01-01,1969-12-31T23:59:59.5\n"
        "\n"
        ",3,\"\",,,,,,,\n"
        "+5,4,h\xc3\xa9llo \xe2\x9c\x93,\x01\xff,,True,3,4,9999-12-31,2024-01-02 03:04:05.120000";
    s_write ("t.csv", text);
    zs_schema_t schema;
    s_schema_all (&schema);
    zs_source_file_t *src = s_open (&schema, "t.csv", "csv", false, 0, 1);
    char err[ZS_ERRLEN];
    zs_value_t row[10];

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, INT64_MAX);
    assert_true (row[1].v.b);
    assert_int_equal (row[2].v.i32, 1);
    assert_true (row[3].v.f32 == 2.5f);
    assert_true (row[4].v.f64 == 1e300);
    s_assert_bin (&row[5], "hello, world", 12);
    s_assert_bin (&row[6], "a\"b", 3);
    assert_int_equal (row[7].v.i32, 19782);
    assert_int_equal (row[8].v.i64, 1704164645123LL);
    assert_true (row[9].null);
    assert_int_equal (zs_source_file_pos_line (src), 2);

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, INT64_MIN);
    assert_false (row[1].v.b);
    assert_int_equal (row[2].v.i32, INT32_MIN);
    assert_true (row[3].v.f32 == -0.25f);
    assert_true (row[4].v.f64 == -7.0);
    s_assert_bin (&row[5], "multi\r\nline \"q\"", 15);
    assert_true (row[6].null);
    assert_int_equal (row[7].v.i32, -719162);
    assert_int_equal (row[8].v.i64, -500);
    assert_int_equal (zs_source_file_pos_line (src), 4); //  the record spans lines 3-4

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 3);
    assert_true (row[2].null);
    s_assert_bin (&row[5], "", 0); //  "" is the empty string, not NULL
    for (int c = 6; c < 10; c++)
        assert_true (row[c].null);
    assert_true (row[1].null);

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 4);
    assert_int_equal (row[2].v.i32, 5);
    assert_true (row[1].v.b);
    s_assert_bin (&row[5], "h\xc3\xa9llo \xe2\x9c\x93", 10);
    s_assert_bin (&row[6], "\x01\xff", 2); //  BYTES are taken as they are
    assert_int_equal (row[7].v.i32, 2932896);
    assert_int_equal (row[8].v.i64, 1704164645120LL);
    assert_int_equal (zs_source_file_pos_line (src), 7);
    assert_int_equal (zs_source_file_pos_offset (src), (int64_t) sizeof text - 1);

    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_int_equal (zs_source_file_rows (src), 4);
    zs_source_file_destroy (&src);
}

// --------------------------------------------------------------------------
//  Errors

//  `good` then `bad` in file rel: one row, then the error "<path>:<line>:
//  <why>", with the position at the start of the bad record; again the same.
static void
s_expect_error (const zs_schema_t *schema, const char *rel, const char *format, const char *good,
                const char *bad, int64_t line, const char *why)
{
    char text[2048];
    snprintf (text, sizeof text, "%s%s", good, bad);
    s_write (rel, text);
    zs_source_file_t *src = s_open (schema, rel, format, false, 0, 1);
    zs_source_file_set_chunk (src, 3);
    char err[ZS_ERRLEN], want[ZS_ERRLEN], path[256];
    zs_value_t row[ZS_MAX_COLUMNS];
    s_join (path, sizeof path, rel);
    snprintf (want, sizeof want, "%s:%" PRId64 ": %s", path, line, why);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    for (int k = 0; k < 2; k++) {
        err[0] = '\0';
        assert_int_equal (zs_source_file_next (src, row, err, sizeof err), -1);
        if (strcmp (err, want) != 0)
            fail_msg ("for %s\n got: %s\nwant: %s", bad, err, want);
        assert_int_equal (zs_source_file_pos_offset (src), (int64_t) strlen (good));
        assert_int_equal (zs_source_file_pos_line (src), line - 1);
        assert_int_equal (zs_source_file_rows (src), 1);
    }
    zs_source_file_destroy (&src);
}

static void
test_jsonl_errors (void **state)
{
    zs_schema_t schema;
    s_schema_all (&schema);
    const char *good = "{\"id\": 1}\n\n";
    static const char *cases[][2] = {
        {"{\"id\":1,\"qty\":\"abc\"}\n", "column 'qty': \"abc\" is not an INT"},
        {"{\"id\":1,\"qty\":1.5}", "column 'qty': 1.5 is not an INT"},
        {"{\"id\":1,\"qty\":2147483648}\n", "column 'qty': 2147483648 is out of range for INT"},
        {"{\"id\":1,\"qty\":-2147483649}\n", "column 'qty': -2147483649 is out of range for INT"},
        {"{\"id\":9223372036854775808}\n", "column 'id': integer out of range for BIGINT"},
        {"{\"id\":-9223372036854775809,\"x\":1}\n", "column 'id': integer out of range for BIGINT"},
        {"{\"id\":1,\"x\":99999999999999999999}\n",
         "invalid JSON: number out of range (integers must fit in 64 bits)"},
        {"{\"id\":\"1\"}\n", "column 'id': \"1\" is not a BIGINT"},
        {"{\"id\":null}\n", "column 'id': NULL in a NOT NULL column"},
        {"{\"name\":\"x\"}\r\n", "column 'id': NULL in a NOT NULL column"},
        {"{\"id\":1,\"ok\":1}\n", "column 'ok': 1 is not a BOOLEAN"},
        {"{\"id\":1,\"ok\":\"true\"}\n", "column 'ok': \"true\" is not a BOOLEAN"},
        {"{\"id\":1,\"price\":\"2.5\"}\n", "column 'price': \"2.5\" is not a FLOAT"},
        {"{\"id\":1,\"price\":1e39}\n", "column 'price': 1e39 is out of range for FLOAT"},
        {"{\"id\":1,\"amount\":true}\n", "column 'amount': true is not a DOUBLE"},
        {"{\"id\":1,\"name\":5}\n", "column 'name': 5 is not a STRING"},
        {"{\"id\":1,\"raw\":[1]}\n", "column 'raw': [1] is not a BYTES"},
        {"{\"id\":1,\"d\":\"2023-02-29\"}\n", "column 'd': \"2023-02-29\" is not a DATE"},
        {"{\"id\":1,\"d\":\"2023-13-01\"}\n", "column 'd': \"2023-13-01\" is not a DATE"},
        {"{\"id\":1,\"d\":\"0000-01-01\"}\n", "column 'd': \"0000-01-01\" is not a DATE"},
        {"{\"id\":1,\"d\":\"2023-1-01\"}\n", "column 'd': \"2023-1-01\" is not a DATE"},
        {"{\"id\":1,\"d\":19000}\n", "column 'd': 19000 is not a DATE"},
        {"{\"id\":1,\"ts3\":\"2024-01-02 03:04:05Z\"}\n",
         "column 'ts3': \"2024-01-02 03:04:05Z\" is not a TIMESTAMP(3): time zones are not "
         "supported"},
        {"{\"id\":1,\"ts6\":\"2024-01-02T03:04:05.5+01:00\"}\n",
         "column 'ts6': \"2024-01-02T03:04:05.5+01:00\" is not a TIMESTAMP(6): time zones are "
         "not supported"},
        {"{\"id\":1,\"ts3\":\"2024-01-02 03:04:05.1234\"}\n",
         "column 'ts3': \"2024-01-02 03:04:05.1234\" is not a TIMESTAMP(3): more fractional "
         "digits than TIMESTAMP(3) keeps"},
        {"{\"id\":1,\"ts6\":\"2024-01-02 03:04:05.1234567\"}\n",
         "column 'ts6': \"2024-01-02 03:04:05.1234567\" is not a TIMESTAMP(6): more fractional "
         "digits than TIMESTAMP(6) keeps"},
        {"{\"id\":1,\"ts6\":\"2024-01-02 03:04:05.0000000000\"}\n",
         "column 'ts6': \"2024-01-02 03:04:05.0000000000\" is not a TIMESTAMP(6)"},
        {"{\"id\":1,\"ts6\":\"2024-01-02 24:00:00\"}\n",
         "column 'ts6': \"2024-01-02 24:00:00\" is not a TIMESTAMP(6)"},
        {"{\"id\":1,\"ts6\":\"2024-01-02 23:59:60\"}\n",
         "column 'ts6': \"2024-01-02 23:59:60\" is not a TIMESTAMP(6)"},
        {"{\"id\":1,\"ts6\":\"2024-01-02\"}\n",
         "column 'ts6': \"2024-01-02\" is not a TIMESTAMP(6)"},
        {"{\"id\":1,\"ts6\":\"2024-01-02 03:04:05.\"}\n",
         "column 'ts6': \"2024-01-02 03:04:05.\" is not a TIMESTAMP(6)"},
        {"{\"id\":1,\"qty\":\"0123456789012345678901234567890123456789xyz\"}\n",
         "column 'qty': \"012345678901234567890123456789012345678... is not an INT"},
        {"[1, 2]\n", "not a JSON object"},
        {"\"x\"\n", "not a JSON object"},
        {"{\"id\":1,\"id\":2}\n", "invalid JSON at byte 12: duplicate object key near '\"id\"'"},
        {"{\"id\": 1,\n", "invalid JSON at byte 9: string or '}' expected near end of file"},
        {"{\"id\": 1} x\n", "invalid JSON at byte 11: end of file expected near 'x'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        s_expect_error (&schema, "e.jsonl", "jsonl", good, cases[i][0], 3, cases[i][1]);
}

static void
test_csv_errors (void **state)
{
    zs_schema_t schema;
    s_schema_all (&schema);
    const char *good = "id,qty,ok,d,ts3,ts6,price,name,raw\n1,,,,,,,,\n";
    static const char *cases[][2] = {
        {"1,abc,,,,,,,\n", "column 'qty': 'abc' is not an INT"},
        {"1, 5,,,,,,,\n", "column 'qty': ' 5' is not an INT"},
        {"1,5 ,,,,,,,\n", "column 'qty': '5 ' is not an INT"},
        {"1,0x10,,,,,,,\n", "column 'qty': '0x10' is not an INT"},
        {"1,\"\",,,,,,,\n", "column 'qty': '' is not an INT"},
        {"1,2147483648,,,,,,,\n", "column 'qty': '2147483648' is out of range for INT"},
        {"99999999999999999999,,,,,,,,\n",
         "column 'id': '99999999999999999999' is out of range for BIGINT"},
        {",1,,,,,,,\n", "column 'id': NULL in a NOT NULL column"},
        {"1,,yes,,,,,,\r\n", "column 'ok': 'yes' is not a BOOLEAN"},
        {"1,,,2023-02-29,,,,,\n", "column 'd': '2023-02-29' is not a DATE"},
        {"1,,,,2024-01-02 03:04:05Z,,,,\n",
         "column 'ts3': '2024-01-02 03:04:05Z' is not a TIMESTAMP(3): time zones are not "
         "supported"},
        {"1,,,,,2024-01-02 03:04:05.1234567,,,\n",
         "column 'ts6': '2024-01-02 03:04:05.1234567' is not a TIMESTAMP(6): more fractional "
         "digits than TIMESTAMP(6) keeps"},
        {"1,,,,,,1e39,,\n", "column 'price': '1e39' is out of range for FLOAT"},
        {"1,,,,,,abc,,\n", "column 'price': 'abc' is not a FLOAT"},
        {"1,,,,,, 1,,\n", "column 'price': ' 1' is not a FLOAT"},
        {"1,,,,,,,\"a\xff\",\n", "column 'name': 'a\\xFF' is not valid UTF-8"},
        {"1,,,,,,,\"a\nb\xc0\xaf\",\n", "column 'name': 'a?b\\xC0\\xAF' is not valid UTF-8"},
        {"1,2\n", "2 fields, the header has 9"},
        {"1,,,,,,,,,\n", "10 fields, the header has 9"},
        {"1,,,,,,,ab\"c,\n", "field 8: quote in an unquoted field"},
        {"1,,,,,,,\"ab\"c,\n", "field 8: text after the closing quote"},
        {"1,,,,,,,\"ab\" ,\n", "field 8: text after the closing quote"},
        {"1,,,,,,,\"abc,\n2,,,,,,,,\n", "quoted field not closed before the end of the file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        s_expect_error (&schema, "e.csv", "csv", good, cases[i][0], 3, cases[i][1]);
    //  an error after a multi-line record names its own first line
    s_expect_error (&schema, "e.csv", "csv", "id,name\n1,\"a\nb\nc\"\n\n", "x,\"p\nq\"\n", 6,
                    "column 'id': 'x' is not a BIGINT");
}

static void
test_csv_header_errors (void **state)
{
    zs_schema_t schema;
    s_schema_all (&schema);
    static const char *cases[][3] = {
        {"qty,name\n1,x\n", "1", "header: no column 'id', which is NOT NULL"},
        {"\n  \nid,qty,id\n1,2,3\n", "3", "header: column 'id' appears twice"},
        {"id,\"qty\n", "1", "quoted field not closed before the end of the file"},
        {"id,\"q\"ty\n", "1", "field 2: text after the closing quote"},
    };
    char err[ZS_ERRLEN], want[ZS_ERRLEN], path[256];
    zs_value_t row[10];
    s_join (path, sizeof path, "h.csv");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int skip = 0; skip < 2; skip++) {
            //  a bad header fails even with on-error skip
            s_write ("h.csv", cases[i][0]);
            snprintf (want, sizeof want, "%s:%s: %s", path, cases[i][1], cases[i][2]);
            zs_source_file_t *src = s_open (&schema, "h.csv", "csv", skip, 0, 1);
            assert_int_equal (zs_source_file_next (src, row, err, sizeof err), -1);
            assert_string_equal (err, want);
            assert_int_equal (zs_source_file_pos_offset (src), 0);
            assert_int_equal (zs_source_file_next (src, row, err, sizeof err), -1);
            assert_string_equal (err, want);
            //  _seek reads the header too
            assert_int_equal (zs_source_file_seek (src, "h.csv", 0, 0, 0, err, sizeof err), -1);
            assert_string_equal (err, want);
            zs_source_file_destroy (&src);
        }
}

// --------------------------------------------------------------------------
//  on-error skip

static void
test_skip_counts_and_logs_five (void **state)
{
    //  8 bad records among 5 good ones, in two files
    s_write ("a.jsonl", "{\"id\":1}\nnope\n{\"id\":\"x\"}\n{\"id\":2}\n[]\n{}\n\n{\"id\":3}\n");
    s_write ("b.jsonl", "{\"qty\":1}\n{\"id\":4}\n{\"id\":1,\"qty\":1e3}\n{\"id\":1,\"d\":\"x\"}\n"
                        "{\"id\":5}\n{");
    zs_schema_t schema;
    s_schema_all (&schema);
    char logpath[256];
    s_join (logpath, sizeof logpath, "log.txt");
    fflush (stderr);
    int saved = dup (2);
    int fd = open (logpath, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    assert_true (fd >= 0);
    dup2 (fd, 2);
    close (fd);

    zs_source_file_t *src = s_open (&schema, NULL, "jsonl", true, 0, 1);
    zs_source_file_set_chunk (src, 5);
    char err[ZS_ERRLEN];
    zs_value_t row[10];
    int64_t ids[8];
    int n = 0, rc;
    while ((rc = zs_source_file_next (src, row, err, sizeof err)) == 1)
        ids[n++] = row[0].v.i64;
    fflush (stderr);
    dup2 (saved, 2);
    close (saved);
    assert_int_equal (rc, 0);
    assert_int_equal (n, 5);
    for (int k = 0; k < 5; k++)
        assert_int_equal (ids[k], k + 1);
    assert_int_equal (zs_source_file_skipped (src), 8);
    assert_int_equal (zs_source_file_pos_line (src), 6);
    zs_source_file_destroy (&src);

    size_t len;
    FILE *f = fopen (logpath, "r");
    assert_non_null (f);
    char log[8192];
    len = fread (log, 1, sizeof log - 1, f);
    fclose (f);
    log[len] = '\0';
    int logged = 0;
    for (const char *p = log; (p = strstr (p, "Skipped bad record")); p++)
        logged++;
    assert_int_equal (logged, 5);
    char want[512];
    s_join (want, sizeof want, "a.jsonl:2: invalid JSON");
    assert_non_null (strstr (log, want));
    s_join (want, sizeof want, "a.jsonl:3: column 'id': \"x\" is not a BIGINT");
    assert_non_null (strstr (log, want));
    s_join (want, sizeof want, "b.jsonl:1: column 'id': NULL in a NOT NULL column");
    assert_non_null (strstr (log, want));
    assert_non_null (strstr (log, "further bad records are only counted"));
    assert_null (strstr (log, "b.jsonl:3")); //  the 6th: counted only
}

// --------------------------------------------------------------------------
//  Positions

typedef struct {
    char file[128];
    int64_t offset;
    int64_t line;
    int64_t skipped;
} s_pos_t;

static void
s_pos (zs_source_file_t *src, s_pos_t *pos)
{
    snprintf (pos->file, sizeof pos->file, "%s", zs_source_file_pos_file (src));
    pos->offset = zs_source_file_pos_offset (src);
    pos->line = zs_source_file_pos_line (src);
    pos->skipped = zs_source_file_skipped (src);
}

//  Lines before offset in a file, counted independently of the source: the
//  newlines before it, plus one at the very end of a file whose last line
//  has none.
static int64_t
s_lines_before (const char *rel, int64_t offset)
{
    char path[256];
    s_join (path, sizeof path, rel);
    FILE *f = fopen (path, "rb");
    assert_non_null (f);
    int64_t lines = 0, i = 0;
    int c, last = '\n';
    while (i < offset && (c = fgetc (f)) != EOF) {
        lines += c == '\n';
        last = c;
        i++;
    }
    if (fgetc (f) == EOF && last != '\n')
        lines++;
    fclose (f);
    return lines;
}

#define S_MAX_ROWS 64

//  Read everything uninterrupted, then for every N resume a fresh source
//  at the position after N rows: the rest must equal the tail, down to the
//  final result (0, or the same error text), the skip count and the final
//  position.
static void
s_check_resume (const zs_schema_t *schema, const char *format, bool skip, int index,
                int parallelism, size_t chunk)
{
    static char rows[S_MAX_ROWS][512];
    s_pos_t pos[S_MAX_ROWS + 1], end, got;
    char err[ZS_ERRLEN], end_err[ZS_ERRLEN] = "";
    zs_value_t row[ZS_MAX_COLUMNS];

    zs_source_file_t *src = s_open (schema, NULL, format, skip, index, parallelism);
    if (chunk)
        zs_source_file_set_chunk (src, chunk);
    int n = 0, end_rc;
    s_pos (src, &pos[0]);
    while ((end_rc = zs_source_file_next (src, row, end_err, sizeof end_err)) == 1) {
        assert_true (n < S_MAX_ROWS);
        s_fmt_row (schema, row, rows[n], sizeof rows[n]);
        s_pos (src, &pos[++n]);
        assert_int_equal (pos[n].line, s_lines_before (pos[n].file, pos[n].offset));
    }
    s_pos (src, &end);
    assert_true (n > 0);
    zs_source_file_destroy (&src);

    for (int start = 0; start <= n; start++) {
        src = s_open (schema, NULL, format, skip, index, parallelism);
        if (chunk)
            zs_source_file_set_chunk (src, chunk);
        s_pos_t *p = &pos[start];
        if (zs_source_file_seek (src, p->file, p->offset, p->line, p->skipped, err, sizeof err)
            != 0)
            fail_msg ("seek %s@%" PRId64 ": %s", p->file, p->offset, err);
        int k = start, rc;
        char text[512];
        while ((rc = zs_source_file_next (src, row, err, sizeof err)) == 1) {
            assert_true (k < n);
            s_fmt_row (schema, row, text, sizeof text);
            assert_string_equal (text, rows[k]);
            k++;
            s_pos (src, &got);
            assert_string_equal (got.file, pos[k].file);
            assert_int_equal (got.offset, pos[k].offset);
            assert_int_equal (got.line, pos[k].line);
            assert_int_equal (got.skipped, pos[k].skipped);
        }
        assert_int_equal (k, n);
        assert_int_equal (rc, end_rc);
        if (rc < 0)
            assert_string_equal (err, end_err);
        assert_int_equal (zs_source_file_rows (src), n - start);
        s_pos (src, &got);
        assert_string_equal (got.file, end.file);
        assert_int_equal (got.offset, end.offset);
        assert_int_equal (got.line, end.line);
        assert_int_equal (got.skipped, end.skipped);
        zs_source_file_destroy (&src);
    }
    //  resuming at the final position yields nothing more
    if (end_rc == 0) {
        src = s_open (schema, NULL, format, skip, index, parallelism);
        assert_int_equal (
            zs_source_file_seek (src, end.file, end.offset, end.line, end.skipped, err, sizeof err),
            0);
        assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
        assert_int_equal (zs_source_file_skipped (src), end.skipped);
        zs_source_file_destroy (&src);
    }
}

static const size_t s_chunks[] = {1, 2, 3, 7, 64, 0};

static void
test_resume_jsonl (void **state)
{
    s_write ("a.jsonl", "{\"id\":1,\"name\":\"a\"}\n"
                        "\n"
                        "{\"id\":2,\"name\":\"b\\nc\"}\r\n"
                        "  \r\n"
                        "{\"id\":3}\n"
                        "{\"id\":\"bad\"}\n"
                        "{\"id\":4,\"name\":\"\xe2\x9c\x93\"}\n");
    s_write ("b.jsonl", "");
    s_write ("c.jsonl", "{\"id\":5}\n\n\n");
    s_write ("d.jsonl", "not json\n{\"id\":6}\n{\"id\":7,\"name\":null}");
    s_write ("e.jsonl", "\n");
    zs_schema_t schema;
    s_schema_small (&schema);
    zs_log_set_level (ZS_LOG_ERROR); //  the skipped records, over and over
    for (size_t i = 0; i < sizeof s_chunks / sizeof s_chunks[0]; i++) {
        s_check_resume (&schema, "jsonl", true, 0, 1, s_chunks[i]);
        s_check_resume (&schema, "jsonl", true, 0, 2, s_chunks[i]);
        s_check_resume (&schema, "jsonl", true, 1, 2, s_chunks[i]);
        //  with fail: the error ends the read, the same after every resume
        s_check_resume (&schema, "jsonl", false, 0, 1, s_chunks[i]);
    }
}

static void
test_resume_csv (void **state)
{
    s_write ("a.csv", "name,id\n"
                      "a,1\n"
                      "\n"
                      "\"b,\n\nc\",2\r\n"
                      "\"\"\"q\"\"\",3\n"
                      "x,bad\n"
                      "\"multi\r\nline\",4\n"
                      ",5\n");
    s_write ("b.csv", "id,name\n");
    s_write ("c.csv", "");
    s_write ("d.csv", "\n\nid , extra, name\n6,\"x\ny\",\"\"\n"
                      "7,\"unterminated\n8,,\n");
    s_write ("e.csv", "id\n9\n10");
    zs_schema_t schema;
    s_schema_small (&schema);
    zs_log_set_level (ZS_LOG_ERROR); //  the skipped records, over and over
    for (size_t i = 0; i < sizeof s_chunks / sizeof s_chunks[0]; i++) {
        s_check_resume (&schema, "csv", true, 0, 1, s_chunks[i]);
        s_check_resume (&schema, "csv", true, 0, 2, s_chunks[i]);
        s_check_resume (&schema, "csv", true, 1, 2, s_chunks[i]);
        s_check_resume (&schema, "csv", false, 0, 1, s_chunks[i]);
    }
}

static void
test_seek_refuses_what_is_not_a_position (void **state)
{
    s_write ("a.csv", "id,name\n1,a\n2,b\n");
    s_write ("b.csv", "id\n3\n");
    zs_schema_t schema;
    s_schema_small (&schema);
    char err[ZS_ERRLEN];
    zs_value_t row[2];
    zs_source_file_t *src = s_open (&schema, NULL, "csv", false, 0, 2);
    assert_int_equal (zs_source_file_seek (src, "gone.csv", 0, 0, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "'gone.csv'"));
    assert_int_equal (zs_source_file_seek (src, "b.csv", 0, 0, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "belongs to writer 1"));
    assert_int_equal (zs_source_file_seek (src, "a.csv", 100, 3, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "past its end"));
    assert_int_equal (zs_source_file_seek (src, "a.csv", 10, 1, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "not at the start of a line"));
    assert_int_equal (zs_source_file_seek (src, "a.csv", 3, 0, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "inside the header"));
    //  a failed seek leaves the source at its start
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 1);
    assert_int_equal (zs_source_file_skipped (src), 0);
    //  a good position after failed seeks: the header mapping is rebuilt
    assert_int_equal (zs_source_file_seek (src, "a.csv", 12, 2, 4, err, sizeof err), 0);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 2);
    s_assert_bin (&row[1], "b", 1);
    assert_int_equal (zs_source_file_skipped (src), 4);
    assert_int_equal (zs_source_file_pos_line (src), 3);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    //  "" is the first file of ours
    assert_int_equal (zs_source_file_seek (src, "", 0, 0, 0, err, sizeof err), 0);
    assert_false (zs_source_file_done (src));
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 1);
    zs_source_file_destroy (&src);
}

static void
test_empty_files (void **state)
{
    s_write ("a.jsonl", "");
    s_write ("b.jsonl", "\n \n\r\n");
    s_write ("c.csv", "");
    s_write ("d.csv", "id,name\n");
    s_write ("e.csv", "id,name");
    zs_schema_t schema;
    s_schema_small (&schema);
    char err[ZS_ERRLEN];
    zs_value_t row[2];
    zs_source_file_t *src = s_open (&schema, NULL, "jsonl", false, 0, 1);
    assert_int_equal (zs_source_file_count (src), 2);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_string_equal (zs_source_file_pos_file (src), "b.jsonl");
    assert_int_equal (zs_source_file_pos_offset (src), 5);
    assert_int_equal (zs_source_file_pos_line (src), 3);
    assert_int_equal (zs_source_file_skipped (src), 0);
    zs_source_file_destroy (&src);
    src = s_open (&schema, NULL, "csv", false, 0, 1);
    assert_int_equal (zs_source_file_count (src), 3);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_string_equal (zs_source_file_pos_file (src), "e.csv");
    assert_int_equal (zs_source_file_pos_offset (src), 7);
    assert_int_equal (zs_source_file_pos_line (src), 1);
    //  the end of a header-only file is a position too
    assert_int_equal (zs_source_file_seek (src, "d.csv", 8, 1, 0, err, sizeof err), 0);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    assert_int_equal (zs_source_file_seek (src, "e.csv", 7, 1, 0, err, sizeof err), 0);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    zs_source_file_destroy (&src);
}

static void
test_no_trailing_newline (void **state)
{
    s_write ("a.jsonl", "{\"id\":1}\r\n{\"id\":2}");
    s_write ("b.csv", "id,name\r\n1,\"x\r\ny\"");
    zs_schema_t schema;
    s_schema_small (&schema);
    char err[ZS_ERRLEN];
    zs_value_t row[2];
    zs_source_file_t *src = s_open (&schema, "a.jsonl", "jsonl", false, 0, 1);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (zs_source_file_pos_offset (src), 10);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 2);
    assert_int_equal (zs_source_file_pos_offset (src), 18);
    assert_int_equal (zs_source_file_pos_line (src), 2);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    zs_source_file_destroy (&src);
    src = s_open (&schema, "b.csv", "csv", false, 0, 1);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 1);
    s_assert_bin (&row[1], "x\r\ny", 4);
    assert_int_equal (zs_source_file_pos_offset (src), 17);
    assert_int_equal (zs_source_file_pos_line (src), 3);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    zs_source_file_destroy (&src);
}

//  A record longer than a read, much longer: the buffer grows and the
//  values come out whole.
static void
test_long_records (void **state)
{
    size_t n = 3 * 1024 * 1024;
    char *text = malloc (n + 64);
    if (!text) { //  an explicit return: gcc's array-bounds check under ASan
        fail_msg ("out of memory");
        return;
    }
    size_t o = (size_t) sprintf (text, "{\"id\":1,\"name\":\"");
    memset (text + o, 'x', n);
    o += n;
    o += (size_t) sprintf (text + o, "\"}\n{\"id\":2}\n");
    s_write_n ("a.jsonl", text, o);
    free (text);
    zs_schema_t schema;
    s_schema_small (&schema);
    char err[ZS_ERRLEN];
    zs_value_t row[2];
    zs_source_file_t *src = s_open (&schema, "a.jsonl", "jsonl", false, 0, 1);
    zs_source_file_set_chunk (src, 4096);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[1].v.bin.len, n);
    assert_int_equal (row[1].v.bin.ptr[n - 1], 'x');
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 2);
    assert_int_equal (zs_source_file_next (src, row, err, sizeof err), 0);
    zs_source_file_destroy (&src);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_listing_and_split, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_new_refuses_bad_arguments, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_jsonl_every_type, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_csv_every_type, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_jsonl_errors, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_csv_errors, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_csv_header_errors, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_skip_counts_and_logs_five, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_resume_jsonl, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_resume_csv, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_seek_refuses_what_is_not_a_position, s_setup,
                                         s_teardown),
        cmocka_unit_test_setup_teardown (test_empty_files, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_no_trailing_newline, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_long_records, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
