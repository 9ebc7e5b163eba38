/*  test_parquet.c - the Parquet writer and reader: the RLE/bit-packed
    hybrid against the spec's example, every type through a file (nulls,
    extremes, NaN and -0.0, unicode and empty strings), dictionary and
    plain chunks, several row groups and pages, zstd and none, statistics
    by the spec's rules, NOT NULL refusal, pages other writers make (v2,
    snappy) crafted by hand, unsupported schemas refused by name, and that
    a truncated or bit-flipped file is an error naming it, never a crash.
    The cross-check against DuckDB lives with the DuckDB tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fs.h"
#include "io.h"
#include "parquet.h"
#include "parquet_priv.h"
#include "thrift.h"
#include <ftw.h>
#include <math.h>
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
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-parquet-XXXXXX");
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_teardown (void **state)
{
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *
s_path (const char *name)
{
    static char path[4][256];
    static int turn;
    turn = (turn + 1) % 4;
    snprintf (path[turn], sizeof path[turn], "%s/%s", s_dir, name);
    return path[turn];
}

static void
s_schema (zs_schema_t *schema, const char *text)
{
    char err[ZS_ERRLEN];
    if (zs_schema_parse (schema, text, err, sizeof err) != 0)
        fail_msg ("schema '%s': %s", text, err);
}

static bool
s_value_eq (zs_type_t type, const zs_value_t *a, const zs_value_t *b)
{
    if (a->null || b->null)
        return a->null == b->null;
    switch (type) {
    case ZS_TYPE_BOOLEAN:
        return a->v.b == b->v.b;
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_TIME:
    case ZS_TYPE_FLOAT: //  bitwise: NaN and -0.0 must survive as they were
        return memcmp (&a->v, &b->v, 4) == 0;
    case ZS_TYPE_DECIMAL:
        return zs_dec_get (a) == zs_dec_get (b);
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY:
        return a->v.bin.len == b->v.bin.len
               && (a->v.bin.len == 0 || memcmp (a->v.bin.ptr, b->v.bin.ptr, a->v.bin.len) == 0);
    default:
        return memcmp (&a->v, &b->v, 8) == 0;
    }
}

//  Makes row r into row[] (strings in buf, valid until the next call).
typedef void (s_gen_fn) (int64_t r, zs_value_t *row, char *buf);

static int64_t
s_write (const char *path, const char *schema_text, const zs_parquet_options_t *opts, int64_t rows,
         s_gen_fn *gen, zs_column_stats_t *stats)
{
    char err[ZS_ERRLEN], buf[4096];
    zs_schema_t schema;
    s_schema (&schema, schema_text);
    zs_parquet_writer_t *w = zs_parquet_writer_new (path, &schema, opts, err, sizeof err);
    if (!w)
        fail_msg ("writer_new: %s", err);
    zs_value_t row[ZS_MAX_COLUMNS];
    for (int64_t r = 0; r < rows; r++) {
        memset (row, 0, sizeof row);
        gen (r, row, buf);
        if (zs_parquet_writer_append (w, row, err, sizeof err) != 0)
            fail_msg ("append row %lld: %s", (long long) r, err);
    }
    assert_int_equal (zs_parquet_writer_rows (w), rows);
    int64_t size;
    if (zs_parquet_writer_close (&w, &size, stats, err, sizeof err) != 0)
        fail_msg ("close: %s", err);
    assert_null (w);
    assert_int_equal (size, zs_io_file_size (path));
    return size;
}

//  Read the file back and compare every value with gen's.
static void
s_verify (const char *path, const char *schema_text, int64_t rows, s_gen_fn *gen)
{
    char err[ZS_ERRLEN], buf[4096];
    zs_schema_t want;
    s_schema (&want, schema_text);
    zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
    if (!r)
        fail_msg ("open: %s", err);
    const zs_schema_t *got = zs_parquet_reader_schema (r);
    char a[2048], b[2048];
    zs_schema_format (&want, a, sizeof a);
    zs_schema_format (got, b, sizeof b);
    assert_string_equal (a, b);
    assert_int_equal (got->id_col, want.id_col);
    assert_int_equal (zs_parquet_reader_num_rows (r), rows);
    zs_value_t row[ZS_MAX_COLUMNS], exp[ZS_MAX_COLUMNS];
    int64_t n = 0;
    int rc;
    while ((rc = zs_parquet_reader_next (r, row, err, sizeof err)) == 1) {
        memset (exp, 0, sizeof exp);
        gen (n, exp, buf);
        for (int i = 0; i < want.n; i++)
            if (!s_value_eq (want.cols[i].type, &row[i], &exp[i]))
                fail_msg ("row %lld column %s differs", (long long) n, want.cols[i].name);
        n++;
    }
    if (rc != 0)
        fail_msg ("next: %s", err);
    assert_int_equal (n, rows);
    assert_int_equal (zs_parquet_reader_next (r, row, err, sizeof err), 0);
    zs_parquet_reader_destroy (&r);
    assert_null (r);
}

//  --------------------------------------------------------------------------
//  RLE / bit-packed hybrid

static void
test_rle_hybrid (void **state)
{
    //  Encodings.md: 0…7 bit-packed at width 3 is 0x88 0xC6 0xFA after the
    //  header (1 group: (1 << 1) | 1).
    uint32_t seq[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    zs_pq_buf_t out;
    zs_pq_buf_init (&out);
    zs_pq_rle_encode (&out, NULL, seq, 8, 3);
    const uint8_t want[] = {0x03, 0x88, 0xC6, 0xFA};
    assert_int_equal (out.len, sizeof want);
    assert_memory_equal (out.data, want, sizeof want);

    //  100 ones at width 1: one RLE run, header varint(200), value byte.
    uint8_t ones[100];
    memset (ones, 1, sizeof ones);
    out.len = 0;
    zs_pq_rle_encode (&out, ones, NULL, 100, 1);
    const uint8_t want_run[] = {0xC8, 0x01, 0x01};
    assert_int_equal (out.len, sizeof want_run);
    assert_memory_equal (out.data, want_run, sizeof want_run);

    //  Round trips: runs of random lengths, at many widths and sizes.
    srand (7);
    const int widths[] = {1, 2, 3, 7, 8, 13, 20, 31, 32};
    const size_t sizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 100, 1000, 10007};
    uint32_t *vals = malloc (10007 * sizeof *vals);
    uint8_t *levels = malloc (10007);
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            int width = widths[wi];
            size_t n = sizes[si];
            uint32_t mask = width == 32 ? UINT32_MAX : (1u << width) - 1;
            for (size_t i = 0; i < n;) {
                uint32_t v = ((uint32_t) rand () * 2654435761u) & mask;
                size_t run = rand () % 3 == 0 ? (size_t) (rand () % 40) + 1 : 1;
                for (size_t k = 0; k < run && i < n; k++, i++) {
                    vals[i] = v;
                    levels[i] = (uint8_t) (v & 1);
                }
            }
            for (int pass = 0; pass < 2; pass++) {
                bool u8 = pass == 1;
                if (u8 && width != 1)
                    continue;
                out.len = 0;
                zs_pq_rle_encode (&out, u8 ? levels : NULL, u8 ? NULL : vals, n, width);
                assert_true (out.ok);
                //  Exact-size copy: ASan catches any read past the end.
                uint8_t *copy = malloc (out.len ? out.len : 1);
                memcpy (copy, out.data, out.len);
                zs_pq_rle_dec_t d;
                zs_pq_rle_dec_init (&d, copy, out.len, width);
                for (size_t i = 0; i < n; i++) {
                    uint32_t v;
                    assert_int_equal (zs_pq_rle_dec_next (&d, &v), 0);
                    assert_int_equal (v, u8 ? levels[i] : vals[i]);
                }
                //  Any cut short of the whole fails before n values.
                for (size_t cut = 0; n && cut < out.len; cut += 1 + out.len / 50) {
                    zs_pq_rle_dec_init (&d, copy, cut, width);
                    int rc = 0;
                    uint32_t v;
                    for (size_t i = 0; i < n && rc == 0; i++)
                        rc = zs_pq_rle_dec_next (&d, &v);
                    assert_int_equal (rc, -1);
                }
                free (copy);
            }
        }
    free (vals);
    free (levels);
    zs_pq_buf_fini (&out);

    //  Garbage never reads outside its bytes.
    for (int round = 0; round < 5000; round++) {
        size_t len = (size_t) (rand () % 24);
        uint8_t *buf = malloc (len ? len : 1);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t) rand ();
        zs_pq_rle_dec_t d;
        zs_pq_rle_dec_init (&d, buf, len, rand () % 33);
        uint32_t v;
        for (int i = 0; i < 200 && zs_pq_rle_dec_next (&d, &v) == 0; i++)
            ;
        free (buf);
    }
}

//  --------------------------------------------------------------------------
//  Every type through a file

#define S_ALL_TYPES                                                                                \
    "b BOOLEAN, i INT NOT NULL, n BIGINT, f FLOAT, d DOUBLE, s STRING, y BYTES, dt DATE, "         \
    "t3 TIMESTAMP(3), t6 TIMESTAMP(6) NOT NULL, id BIGINT NOT NULL"

static void
s_gen_all (int64_t r, zs_value_t *row, char *buf)
{
    static const char *const words[] = {"", "ünïcødé ✓", "plain", "日本語", "a\tb\nc"};
    row[0].null = r % 7 == 3;
    row[0].v.b = r % 3 == 0;
    row[1].v.i32 = r == 0 ? INT32_MIN : r == 1 ? INT32_MAX : (int32_t) (r * 2654435761u);
    row[2].null = r % 5 == 4;
    row[2].v.i64 = r == 2 ? INT64_MIN : r == 3 ? INT64_MAX : (int64_t) r * -1000003;
    row[3].null = r % 11 == 10;
    row[3].v.f32 = r == 5   ? NAN
                   : r == 6 ? -0.0f
                   : r == 7 ? INFINITY
                   : r == 8 ? -INFINITY
                            : (float) r / 3.0f - 100;
    row[4].null = r % 13 == 12;
    row[4].v.f64 = r == 5 ? -NAN : r == 6 ? -0.0 : r == 9 ? 1e308 : (double) r / 7.0 - 1e6;
    row[5].null = r % 4 == 1;
    if (r % 3 == 0) {
        int n = snprintf (buf, 64, "row-%lld-%s", (long long) r, words[r % 5]);
        row[5].v.bin.ptr = (const uint8_t *) buf;
        row[5].v.bin.len = (uint32_t) n;
    } else {
        row[5].v.bin.ptr = (const uint8_t *) words[r % 5];
        row[5].v.bin.len = (uint32_t) strlen (words[r % 5]);
    }
    row[6].null = r % 9 == 0;
    uint8_t *bytes = (uint8_t *) buf + 64;
    for (int k = 0; k < 20; k++)
        bytes[k] = (uint8_t) (r * 31 + k * 7);
    row[6].v.bin.ptr = bytes;
    row[6].v.bin.len = (uint32_t) (r % 21);
    row[7].null = r % 6 == 5;
    row[7].v.i32 = (int32_t) (r % 40000) - 20000;
    row[8].null = r % 8 == 7;
    row[8].v.i64 = INT64_C (1700000000000) + r * 997;
    row[9].v.i64 = INT64_C (1700000000000000) - r * 1000001;
    row[10].v.i64 = r;
}

static void
test_all_types_round_trip (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    assert_int_equal (opts.row_group_rows, 131072);
    assert_int_equal (opts.compression, ZS_COMPRESSION_ZSTD);
    assert_int_equal (opts.zstd_level, 1);
    for (int comp = 0; comp < 2; comp++) {
        opts.compression = comp ? ZS_COMPRESSION_ZSTD : ZS_COMPRESSION_NONE;
        opts.row_group_rows = 1000;
        const char *path = s_path (comp ? "all-zstd.parquet" : "all-none.parquet");
        s_write (path, S_ALL_TYPES, &opts, 5500, s_gen_all, NULL);
        s_verify (path, S_ALL_TYPES, 5500, s_gen_all);
        char err[ZS_ERRLEN];
        zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
        assert_non_null (r);
        assert_int_equal (zs_parquet_reader_num_row_groups (r), 6);
        assert_int_equal (zs_parquet_reader_schema (r)->id_col, 10);
        zs_parquet_reader_destroy (&r);
    }
    //  One row, and a row group of one row.
    opts.row_group_rows = 1;
    s_write (s_path ("one.parquet"), S_ALL_TYPES, &opts, 3, s_gen_all, NULL);
    s_verify (s_path ("one.parquet"), S_ALL_TYPES, 3, s_gen_all);
}

static void
test_empty_file (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    s_write (s_path ("empty.parquet"), S_ALL_TYPES, &opts, 0, s_gen_all, NULL);
    s_verify (s_path ("empty.parquet"), S_ALL_TYPES, 0, s_gen_all);
}

//  --------------------------------------------------------------------------
//  Dictionary and plain chunks, pages

static void
s_gen_lowcard (int64_t r, zs_value_t *row, char *buf)
{
    static const char *const v[] = {"first-value-of-forty-bytes-0123456789ab",
                                    "second-value-of-forty-bytes-0123456789a",
                                    "third-value-of-forty-bytes-0123456789ab", ""};
    row[0].v.bin.ptr = (const uint8_t *) v[r % 4];
    row[0].v.bin.len = (uint32_t) strlen (v[r % 4]);
}

static void
s_gen_unique (int64_t r, zs_value_t *row, char *buf)
{
    int n = snprintf (buf, 64, "unique-%012lld-padding", (long long) r);
    row[0].v.bin.ptr = (const uint8_t *) buf;
    row[0].v.bin.len = (uint32_t) n;
}

//  Row groups of 1000 rows alternate: few distinct values (dictionary,
//  with nulls and a 9-bit index), all distinct (plain), one value.
static void
s_gen_mixed (int64_t r, zs_value_t *row, char *buf)
{
    int64_t group = r / 1000;
    if (group % 3 == 0) {
        row[0].null = r % 10 == 3;
        int n = snprintf (buf, 64, "v%lld", (long long) (r * 7 % 300));
        row[0].v.bin.ptr = (const uint8_t *) buf;
        row[0].v.bin.len = (uint32_t) n;
    } else if (group % 3 == 1)
        s_gen_unique (r, row, buf);
    else {
        row[0].v.bin.ptr = (const uint8_t *) "same";
        row[0].v.bin.len = 4;
    }
    row[1].v.bin.ptr = (const uint8_t *) "\x00\x01\x02";
    row[1].v.bin.len = (uint32_t) (r % 4);
}

//  3000 values of 30 bytes: drawn at random (a hash of r), or in turn.
static void
s_gen_drawn (int64_t r, zs_value_t *row, char *buf)
{
    uint64_t h = (uint64_t) r * UINT64_C (0x9E3779B97F4A7C15);
    int n = snprintf (buf, 64, "drawn-value-%018llu", (unsigned long long) ((h >> 20) % 3000));
    row[0].v.bin.ptr = (const uint8_t *) buf;
    row[0].v.bin.len = (uint32_t) n;
}

static void
s_gen_in_turn (int64_t r, zs_value_t *row, char *buf)
{
    int n = snprintf (buf, 64, "value-in-turn-%016lld", (long long) (r % 3000));
    row[0].v.bin.ptr = (const uint8_t *) buf;
    row[0].v.bin.len = (uint32_t) n;
}

static void
test_dictionary (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.compression = ZS_COMPRESSION_NONE;
    //  Plain would be 100000 * ~34 bytes; indices take 2 bits a row.
    int64_t size =
        s_write (s_path ("low.parquet"), "s STRING NOT NULL", &opts, 100000, s_gen_lowcard, NULL);
    assert_true (size < 60000);
    s_verify (s_path ("low.parquet"), "s STRING NOT NULL", 100000, s_gen_lowcard);

    //  All distinct: plain, so at least the bytes themselves.
    size =
        s_write (s_path ("unique.parquet"), "s STRING NOT NULL", &opts, 100000, s_gen_unique, NULL);
    assert_true (size > 100000 * 27);
    s_verify (s_path ("unique.parquet"), "s STRING NOT NULL", 100000, s_gen_unique);

    //  The early give-up (s_build_dict): 16000 values of 3000 drawn at
    //  random show ~73% distinct in their first eighth, and keep their
    //  dictionary (12-bit indices, 30-byte values)...
    opts.row_group_rows = 16000;
    size = s_write (s_path ("drawn.parquet"), "s STRING NOT NULL", &opts, 32000, s_gen_drawn, NULL);
    assert_true (size < 2 * (3000 * 34 + 16000 * 2));
    s_verify (s_path ("drawn.parquet"), "s STRING NOT NULL", 32000, s_gen_drawn);
    //  ... but in turn their first eighth is all distinct, so the attempt
    //  stops there and the chunk is PLAIN (the trade-off it makes: zstd
    //  still finds the repeats), and reads back the same.
    size = s_write (s_path ("in-turn.parquet"), "s STRING NOT NULL", &opts, 32000, s_gen_in_turn,
                    NULL);
    assert_true (size > 32000 * 34);
    s_verify (s_path ("in-turn.parquet"), "s STRING NOT NULL", 32000, s_gen_in_turn);

    opts.row_group_rows = 1000;
    for (int comp = 0; comp < 2; comp++) {
        opts.compression = comp ? ZS_COMPRESSION_ZSTD : ZS_COMPRESSION_NONE;
        s_write (s_path ("mixed.parquet"), "s STRING, y BYTES NOT NULL", &opts, 9000, s_gen_mixed,
                 NULL);
        s_verify (s_path ("mixed.parquet"), "s STRING, y BYTES NOT NULL", 9000, s_gen_mixed);
        unlink (s_path ("mixed.parquet"));
    }
}

static void
s_gen_pages (int64_t r, zs_value_t *row, char *buf)
{
    //  ~100-byte distinct strings: 40000 rows are ~4 MiB, several pages.
    int n = snprintf (buf, 200, "%0100lld", (long long) r * 7919);
    row[0].v.bin.ptr = (const uint8_t *) buf;
    row[0].v.bin.len = (uint32_t) n;
    row[0].null = r % 1000 == 999;
    row[1].v.i64 = r;
    row[2].null = r % 3 == 0;
    row[2].v.b = r % 5 == 0;
    row[3].v.f64 = (double) r;
}

static void
test_pages (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.row_group_rows = 400000;
    const char *schema = "s STRING, n BIGINT NOT NULL, b BOOLEAN, d DOUBLE NOT NULL";
    s_write (s_path ("pages.parquet"), schema, &opts, 400000, s_gen_pages, NULL);
    s_verify (s_path ("pages.parquet"), schema, 400000, s_gen_pages);
}

//  Timestamps a second apart, in a nullable column without a null.
static void
s_gen_seconds (int64_t r, zs_value_t *row, char *buf)
{
    row[0].v.i64 = INT64_C (1700000000000) + r * 1000 + (r * 7919) % 997;
}

//  A page body stays within the page size, levels included: zstd picks its
//  parameters by input size, and at 256 KiB pages a nullable column's page
//  a few bytes over compressed to 1.7x the bytes of the NOT NULL column's.
static void
test_page_within_size (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.page_bytes = 256 << 10;
    int64_t plain = s_write (s_path ("nn.parquet"), "ts TIMESTAMP(3) NOT NULL", &opts, 300000,
                             s_gen_seconds, NULL);
    int64_t nullable = s_write (s_path ("nullable.parquet"), "ts TIMESTAMP(3)", &opts, 300000,
                                s_gen_seconds, NULL);
    s_verify (s_path ("nullable.parquet"), "ts TIMESTAMP(3)", 300000, s_gen_seconds);
    assert_true (nullable < plain + plain / 20);
}

//  parquet.page.size, the smallest the writer takes: many pages per
//  chunk of every kind (plain strings, dictionary indices, fixed width,
//  booleans, with and without nulls), with and without dictionaries, and
//  a negative (fast) zstd level.
static void
test_page_size_and_options (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    assert_int_equal (opts.page_bytes, 256 << 10);
    assert_true (opts.dictionary);
    opts.row_group_rows = 30000;
    opts.page_bytes = ZS_PARQUET_PAGE_MIN;
    opts.zstd_level = -5;
    const char *schema = "s STRING, n BIGINT NOT NULL, b BOOLEAN, d DOUBLE NOT NULL";
    s_write (s_path ("small-pages.parquet"), schema, &opts, 70000, s_gen_pages, NULL);
    s_verify (s_path ("small-pages.parquet"), schema, 70000, s_gen_pages);
    for (int dict = 0; dict < 2; dict++) {
        opts.dictionary = dict;
        opts.row_group_rows = 1000;
        opts.zstd_level = 1;
        s_write (s_path ("low-pages.parquet"), "s STRING NOT NULL", &opts, 20000, s_gen_lowcard,
                 NULL);
        s_verify (s_path ("low-pages.parquet"), "s STRING NOT NULL", 20000, s_gen_lowcard);
        unlink (s_path ("low-pages.parquet"));
        opts.compression = ZS_COMPRESSION_NONE;
        int64_t size = s_write (s_path ("low-pages.parquet"), "s STRING NOT NULL", &opts, 20000,
                                s_gen_lowcard, NULL);
        //  Without a dictionary every value is there; with one, 2 bits.
        assert_true (dict ? size < 20000 : size > 20000 * 30);
        unlink (s_path ("low-pages.parquet"));
        opts.compression = ZS_COMPRESSION_ZSTD;
    }
}

//  --------------------------------------------------------------------------
//  Statistics

static void
s_gen_stats (int64_t r, zs_value_t *row, char *buf)
{
    //  3 row groups of 10 rows (see test_statistics).
    static const double dv[] = {NAN, 0.0, 3.0, -0.0, NAN, 2.5, -1e9, 7.0, 0.0, 1.0};
    row[0].v.i64 = r == 17 ? -5 : r == 25 ? 900 : r;
    row[1].null = r % 4 == 0;
    row[1].v.i32 = r == 9 ? INT32_MIN : (int32_t) r - 15;
    row[2].v.f64 = r < 10 ? NAN : dv[r % 10]; //  group 0 all NaN
    row[2].null = r == 11;
    //  Zeros only: min -0.0, max +0.0 whatever their signs were.
    row[3].v.f32 = r % 2 ? 0.0f : -0.0f;
    row[4].null = true; //  all null
    const char *s = r == 4 ? "é" : r == 8 ? "A" : r % 2 ? "m" : "zz";
    row[5].v.bin.ptr = (const uint8_t *) s;
    row[5].v.bin.len = (uint32_t) strlen (s);
    //  A long value in group 1 only: the file has no min/max.
    memset (buf, 'x', 100);
    row[6].v.bin.ptr = (const uint8_t *) buf;
    row[6].v.bin.len = r == 14 ? 100 : 3;
    row[7].v.b = r != 5;
    row[8].v.f32 = NAN;
    row[8].null = r % 2 == 0;
}

static void
s_stats_eq (zs_type_t type, const zs_column_stats_t *a, const zs_column_stats_t *b)
{
    assert_int_equal (a->null_count, b->null_count);
    assert_int_equal (a->has_minmax, b->has_minmax);
    if (a->has_minmax) {
        assert_true (s_value_eq (type, &a->min, &b->min));
        assert_true (s_value_eq (type, &a->max, &b->max));
    }
}

static void
test_statistics (void **state)
{
    const char *text = "n BIGINT NOT NULL, i INT, d DOUBLE, z FLOAT, e INT, s STRING NOT NULL, "
                       "l BYTES, b BOOLEAN, nan FLOAT";
    zs_schema_t schema;
    s_schema (&schema, text);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.row_group_rows = 10;
    zs_column_stats_t ws[ZS_MAX_COLUMNS];
    s_write (s_path ("stats.parquet"), text, &opts, 30, s_gen_stats, ws);
    s_verify (s_path ("stats.parquet"), text, 30, s_gen_stats);

    assert_true (ws[0].has_minmax);
    assert_int_equal (ws[0].min.v.i64, -5);
    assert_int_equal (ws[0].max.v.i64, 900);
    assert_int_equal (ws[0].null_count, 0);
    assert_int_equal (ws[1].null_count, 8);
    assert_int_equal (ws[1].min.v.i32, INT32_MIN);
    assert_int_equal (ws[1].max.v.i32, 14);
    //  NaN ignored; a chunk of NaN only bounds nothing and loses nothing.
    assert_true (ws[2].has_minmax);
    assert_true (ws[2].min.v.f64 == -1e9);
    assert_true (ws[2].max.v.f64 == 7.0);
    assert_int_equal (ws[2].null_count, 1);
    assert_true (ws[3].has_minmax);
    assert_true (ws[3].min.v.f32 == 0 && signbit (ws[3].min.v.f32));
    assert_true (ws[3].max.v.f32 == 0 && !signbit (ws[3].max.v.f32));
    assert_false (ws[4].has_minmax);
    assert_int_equal (ws[4].null_count, 30);
    //  Unsigned bytewise: "é" (0xC3 0xA9) sorts after "zz".
    assert_true (ws[5].has_minmax);
    assert_int_equal (ws[5].min.v.bin.len, 1);
    assert_memory_equal (ws[5].min.v.bin.ptr, "A", 1);
    assert_int_equal (ws[5].max.v.bin.len, 2);
    assert_memory_equal (ws[5].max.v.bin.ptr, "é", 2);
    //  The writer's summary keeps a value over ZS_STATS_BIN_MAX cut (and
    //  says so) for the manifest's truncated statistics; the footer has
    //  no min/max for that chunk, so the reader's merge has none.
    assert_true (ws[6].has_minmax);
    assert_int_equal (ws[6].min.v.bin.len, 3);
    assert_int_equal (ws[6].max.v.bin.len, ZS_STATS_BIN_MAX);
    assert_false (ws[6].min_cut);
    assert_true (ws[6].max_cut);
    assert_true (ws[7].has_minmax);
    assert_false (ws[7].min.v.b);
    assert_true (ws[7].max.v.b);
    assert_false (ws[8].has_minmax);
    assert_int_equal (ws[8].null_count, 15);

    //  The reader's merge of the footer says the same.
    char err[ZS_ERRLEN];
    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path ("stats.parquet"), err, sizeof err);
    assert_non_null (r);
    assert_int_equal (zs_parquet_reader_num_row_groups (r), 3);
    for (int i = 0; i < schema.n; i++)
        if (i != 6)
            s_stats_eq (schema.cols[i].type, zs_parquet_reader_stats (r, i), &ws[i]);
    assert_false (zs_parquet_reader_stats (r, 6)->has_minmax);
    assert_null (zs_parquet_reader_stats (r, schema.n));
    zs_parquet_reader_destroy (&r);
}

//  --------------------------------------------------------------------------
//  Writer behaviour

static void
test_not_null_refused (void **state)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    s_schema (&schema, "id BIGINT NOT NULL, name STRING NOT NULL, note STRING");
    zs_parquet_writer_t *w =
        zs_parquet_writer_new (s_path ("nn.parquet"), &schema, NULL, err, sizeof err);
    assert_non_null (w);
    zs_value_t row[3] = {{.v.i64 = 1}, {.null = true}, {.null = true}};
    assert_int_equal (zs_parquet_writer_append (w, row, err, sizeof err), -1);
    assert_non_null (strstr (err, "'name'"));
    assert_non_null (strstr (err, "NOT NULL"));
    assert_int_equal (zs_parquet_writer_rows (w), 0);
    row[1].null = false;
    row[1].v.bin.ptr = (const uint8_t *) "x";
    row[1].v.bin.len = 1;
    assert_int_equal (zs_parquet_writer_append (w, row, err, sizeof err), 0);
    int64_t before = zs_parquet_writer_bytes (w);
    assert_int_equal (zs_parquet_writer_append (w, row, err, sizeof err), 0);
    assert_true (zs_parquet_writer_bytes (w) > before);
    assert_int_equal (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err), 0);

    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path ("nn.parquet"), err, sizeof err);
    assert_non_null (r);
    assert_int_equal (zs_parquet_reader_num_rows (r), 2);
    assert_int_equal (zs_parquet_reader_next (r, row, err, sizeof err), 1);
    assert_int_equal (row[0].v.i64, 1);
    assert_true (row[2].null);
    zs_parquet_reader_destroy (&r);
}

static void
test_writer_files (void **state)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    s_schema (&schema, "id BIGINT NOT NULL");
    //  Abort removes the file; an existing file is never overwritten.
    zs_parquet_writer_t *w =
        zs_parquet_writer_new (s_path ("ab.parquet"), &schema, NULL, err, sizeof err);
    assert_non_null (w);
    zs_value_t row = {.v.i64 = 5};
    assert_int_equal (zs_parquet_writer_append (w, &row, err, sizeof err), 0);
    zs_parquet_writer_abort (&w);
    assert_null (w);
    assert_int_equal (zs_io_file_size (s_path ("ab.parquet")), -1);
    zs_parquet_writer_abort (&w);

    w = zs_parquet_writer_new (s_path ("ab.parquet"), &schema, NULL, err, sizeof err);
    assert_int_equal (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err), 0);
    assert_null (zs_parquet_writer_new (s_path ("ab.parquet"), &schema, NULL, err, sizeof err));
    assert_null (
        zs_parquet_writer_new (s_path ("no/such/dir.parquet"), &schema, NULL, err, sizeof err));
    assert_non_null (strstr (err, "no/such/dir"));

    //  Options out of range are refused.
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.zstd_level = 0;
    assert_null (zs_parquet_writer_new (s_path ("opt.parquet"), &schema, &opts, err, sizeof err));
    assert_non_null (strstr (err, "zstd level"));
    zs_parquet_options_defaults (&opts);
    opts.row_group_rows = 0;
    assert_null (zs_parquet_writer_new (s_path ("opt.parquet"), &schema, &opts, err, sizeof err));
    zs_parquet_options_defaults (&opts);
    opts.page_bytes = ZS_PARQUET_PAGE_MIN - 1;
    assert_null (zs_parquet_writer_new (s_path ("opt.parquet"), &schema, &opts, err, sizeof err));
    assert_non_null (strstr (err, "page size"));
    opts.page_bytes = (int64_t) ZS_PARQUET_PAGE_MAX + 1;
    assert_null (zs_parquet_writer_new (s_path ("opt.parquet"), &schema, &opts, err, sizeof err));
    zs_parquet_options_defaults (&opts);
    opts.zstd_level = 23;
    assert_null (zs_parquet_writer_new (s_path ("opt.parquet"), &schema, &opts, err, sizeof err));
    assert_non_null (strstr (err, "zstd level"));

    //  id_col: the first column named id of type BIGINT.
    s_schema (&schema, "x BIGINT, id INT");
    w = zs_parquet_writer_new (s_path ("id1.parquet"), &schema, NULL, err, sizeof err);
    assert_int_equal (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err), 0);
    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path ("id1.parquet"), err, sizeof err);
    assert_int_equal (zs_parquet_reader_schema (r)->id_col, -1);
    zs_parquet_reader_destroy (&r);
    s_schema (&schema, "x INT, id BIGINT");
    w = zs_parquet_writer_new (s_path ("id2.parquet"), &schema, NULL, err, sizeof err);
    assert_int_equal (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err), 0);
    r = zs_parquet_reader_open (s_path ("id2.parquet"), err, sizeof err);
    assert_int_equal (zs_parquet_reader_schema (r)->id_col, 1);
    zs_parquet_reader_destroy (&r);
}

//  --------------------------------------------------------------------------
//  Damage

//  Open and read everything: 0, or -1 with err naming the file.
static int
s_read_any (const char *path, char *err, size_t errlen)
{
    zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, errlen);
    if (!r)
        return -1;
    zs_value_t row[ZS_MAX_COLUMNS];
    int rc;
    int64_t n = 0, max = zs_parquet_reader_num_rows (r);
    while ((rc = zs_parquet_reader_next (r, row, err, errlen)) == 1)
        n++;
    assert_true (n <= max);
    zs_parquet_reader_destroy (&r);
    return rc;
}

static void
s_write_file (const char *path, const uint8_t *data, size_t len)
{
    unlink (path);
    FILE *f = fopen (path, "wb");
    assert_non_null (f);
    assert_int_equal (fwrite (data, 1, len, f), len);
    fclose (f);
}

static void
test_truncated_file (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.row_group_rows = 40;
    const char *src = s_path ("whole.parquet");
    s_write (src, S_ALL_TYPES, &opts, 100, s_gen_all, NULL);
    size_t len;
    char err[ZS_ERRLEN];
    uint8_t *data = (uint8_t *) zs_io_read_file (src, 1 << 20, &len, err, sizeof err);
    assert_non_null (data);
    const char *cut = s_path ("cut.parquet");
    for (size_t n = 0; n < len; n++) {
        s_write_file (cut, data, n);
        err[0] = 0;
        if (s_read_any (cut, err, sizeof err) != -1)
            fail_msg ("cut at %zu of %zu read without error", n, len);
        assert_non_null (strstr (err, cut));
    }
    free (data);
}

//  Flip every bit of the footer region and many bits of the pages: any
//  outcome but a crash, and an error always names the file.
static void
s_flip_all (const char *src, size_t data_flips)
{
    size_t len;
    char err[ZS_ERRLEN];
    uint8_t *data = (uint8_t *) zs_io_read_file (src, 1 << 22, &len, err, sizeof err);
    assert_non_null (data);
    uint32_t footer;
    memcpy (&footer, data + len - 8, 4);
    size_t footer_start = len - 8 - footer;
    const char *bad = s_path ("flipped.parquet");
    int errors = 0, runs = 0;
    for (size_t pos = footer_start; pos < len; pos++)
        for (int bit = 0; bit < 8; bit++) {
            data[pos] ^= (uint8_t) (1 << bit);
            s_write_file (bad, data, len);
            data[pos] ^= (uint8_t) (1 << bit);
            err[0] = 0;
            runs++;
            if (s_read_any (bad, err, sizeof err) != 0) {
                errors++;
                assert_non_null (strstr (err, bad));
            }
        }
    int footer_errors = errors, footer_runs = runs;
    srand (99);
    for (size_t i = 0; i < data_flips; i++) {
        size_t pos = 4 + (size_t) rand () % (footer_start - 4);
        int bit = rand () % 8;
        data[pos] ^= (uint8_t) (1 << bit);
        s_write_file (bad, data, len);
        data[pos] ^= (uint8_t) (1 << bit);
        err[0] = 0;
        runs++;
        if (s_read_any (bad, err, sizeof err) != 0) {
            errors++;
            assert_non_null (strstr (err, bad));
        }
    }
    print_message ("%s: footer %d of %d flips detected, pages %d of %d\n", src, footer_errors,
                   footer_runs, errors - footer_errors, runs - footer_runs);
    assert_true (footer_errors > 0);
    //  Page checksums catch nearly every flip in the pages (a few land in
    //  header fields nobody reads).
    assert_true ((errors - footer_errors) * 100 >= (runs - footer_runs) * 95);
    free (data);
}

static void
test_bit_flips (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.row_group_rows = 30;
    const char *z = s_path ("flip-zstd.parquet");
    s_write (z, S_ALL_TYPES, &opts, 60, s_gen_all, NULL);
    s_flip_all (z, 3000);
    opts.compression = ZS_COMPRESSION_NONE;
    const char *p = s_path ("flip-none.parquet");
    s_write (p, "s STRING, y BYTES NOT NULL", &opts, 60, s_gen_mixed, NULL);
    s_flip_all (p, 3000);
}

//  --------------------------------------------------------------------------
//  Files other writers make, crafted by hand

typedef struct {
    const char *name;
    int type; //  -1: a group
    int rep;
    int ct;       //  converted type, -1 none
    int children; //  groups only
} s_elem_t;

//  "PAR1", pages, footer: the schema, and when pages are given one row
//  group of `rows` rows whose single column chunk is those pages.
static void
s_craft (const char *path, const s_elem_t *els, int nels, const uint8_t *pages, size_t pages_len,
         int codec, int64_t rows)
{
    zs_pq_buf_t f;
    zs_pq_buf_init (&f);
    zs_pq_buf_put (&f, "PAR1", 4);
    if (pages)
        zs_pq_buf_put (&f, pages, pages_len);
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, 1);
    zs_thrift_enc_field_list (&e, 2, ZS_THRIFT_STRUCT, (uint32_t) nels + 1);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_string (&e, 4, "root");
    zs_thrift_enc_field_i32 (&e, 5, els[0].type == -1 ? 1 : nels);
    zs_thrift_enc_struct_end (&e);
    for (int i = 0; i < nels; i++) {
        zs_thrift_enc_struct_begin (&e);
        if (els[i].type >= 0)
            zs_thrift_enc_field_i32 (&e, 1, els[i].type);
        zs_thrift_enc_field_i32 (&e, 3, els[i].rep);
        zs_thrift_enc_field_string (&e, 4, els[i].name);
        if (els[i].type == -1)
            zs_thrift_enc_field_i32 (&e, 5, els[i].children);
        if (els[i].ct >= 0)
            zs_thrift_enc_field_i32 (&e, 6, els[i].ct);
        zs_thrift_enc_struct_end (&e);
    }
    zs_thrift_enc_field_i64 (&e, 3, pages ? rows : 0);
    zs_thrift_enc_field_list (&e, 4, ZS_THRIFT_STRUCT, pages ? 1 : 0);
    if (pages) {
        zs_thrift_enc_struct_begin (&e);
        zs_thrift_enc_field_list (&e, 1, ZS_THRIFT_STRUCT, 1);
        zs_thrift_enc_struct_begin (&e);
        zs_thrift_enc_field_i64 (&e, 2, 0);
        zs_thrift_enc_field_struct (&e, 3);
        zs_thrift_enc_field_i32 (&e, 1, els[0].type);
        zs_thrift_enc_field_list (&e, 2, ZS_THRIFT_I32, 1);
        zs_thrift_enc_i32 (&e, ZS_PQ_PLAIN);
        zs_thrift_enc_field_list (&e, 3, ZS_THRIFT_BINARY, 1);
        zs_thrift_enc_binary (&e, els[0].name, strlen (els[0].name));
        zs_thrift_enc_field_i32 (&e, 4, codec);
        zs_thrift_enc_field_i64 (&e, 5, rows);
        zs_thrift_enc_field_i64 (&e, 6, (int64_t) pages_len);
        zs_thrift_enc_field_i64 (&e, 7, (int64_t) pages_len);
        zs_thrift_enc_field_i64 (&e, 9, 4);
        zs_thrift_enc_struct_end (&e);
        zs_thrift_enc_struct_end (&e);
        zs_thrift_enc_field_i64 (&e, 2, (int64_t) pages_len);
        zs_thrift_enc_field_i64 (&e, 3, rows);
        zs_thrift_enc_struct_end (&e);
    }
    zs_thrift_enc_struct_end (&e);
    assert_true (e.ok);
    uint32_t flen = (uint32_t) e.len;
    zs_pq_buf_put (&f, e.data, e.len);
    zs_pq_buf_put (&f, &flen, 4);
    zs_pq_buf_put (&f, "PAR1", 4);
    assert_true (f.ok);
    s_write_file (path, f.data, f.len);
    zs_thrift_enc_fini (&e);
    zs_pq_buf_fini (&f);
}

static void
s_page_header (zs_pq_buf_t *out, int type, int unc, int comp, int num_values, int num_nulls,
               int def_len)
{
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, type);
    zs_thrift_enc_field_i32 (&e, 2, unc);
    zs_thrift_enc_field_i32 (&e, 3, comp);
    if (type == ZS_PQ_DATA_PAGE_V2) {
        zs_thrift_enc_field_struct (&e, 8);
        zs_thrift_enc_field_i32 (&e, 1, num_values);
        zs_thrift_enc_field_i32 (&e, 2, num_nulls);
        zs_thrift_enc_field_i32 (&e, 3, num_values);
        zs_thrift_enc_field_i32 (&e, 4, ZS_PQ_PLAIN);
        zs_thrift_enc_field_i32 (&e, 5, def_len);
        zs_thrift_enc_field_i32 (&e, 6, 0);
        zs_thrift_enc_struct_end (&e);
    } else {
        zs_thrift_enc_field_struct (&e, 5);
        zs_thrift_enc_field_i32 (&e, 1, num_values);
        zs_thrift_enc_field_i32 (&e, 2, ZS_PQ_PLAIN);
        zs_thrift_enc_field_i32 (&e, 3, ZS_PQ_RLE);
        zs_thrift_enc_field_i32 (&e, 4, ZS_PQ_RLE);
        zs_thrift_enc_struct_end (&e);
    }
    zs_thrift_enc_struct_end (&e);
    zs_pq_buf_put (out, e.data, e.len);
    zs_thrift_enc_fini (&e);
}

//  A snappy column of an OPTIONAL INT64 in a v2 page then a v1 page:
//  7, null, 7, 7 | 9, null.
static void
test_v2_and_snappy (void **state)
{
    zs_pq_buf_t pages;
    zs_pq_buf_init (&pages);
    //  v2: levels (uncompressed, no length prefix): one bit-packed group
    //  1,0,1,1; values snappy: length 24, a literal of 8 bytes (7), a
    //  2-byte-offset copy of 16 bytes from 8 back (overlapping).
    const uint8_t v2_levels[] = {0x03, 0x0D};
    const uint8_t v2_values[] = {0x18, 0x1C, 7, 0, 0, 0, 0, 0, 0, 0, 0x3E, 0x08, 0x00};
    s_page_header (&pages, ZS_PQ_DATA_PAGE_V2, 2 + 24, 2 + (int) sizeof v2_values, 4, 1, 2);
    zs_pq_buf_put (&pages, v2_levels, 2);
    zs_pq_buf_put (&pages, v2_values, sizeof v2_values);
    //  v1: the whole page snappy: one literal of 14 bytes: level length 2,
    //  levels 1,0 bit-packed, the value 9.
    const uint8_t v1[] = {0x0E, 0x34, 2, 0, 0, 0, 0x03, 0x01, 9, 0, 0, 0, 0, 0, 0, 0};
    s_page_header (&pages, ZS_PQ_DATA_PAGE, 14, (int) sizeof v1, 2, 0, 0);
    zs_pq_buf_put (&pages, v1, sizeof v1);
    s_elem_t el = {"v", ZS_PQ_INT64, ZS_PQ_OPTIONAL, -1, 0};
    const char *path = s_path ("v2.parquet");
    s_craft (path, &el, 1, pages.data, pages.len, ZS_PQ_SNAPPY, 6);

    char err[ZS_ERRLEN];
    zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
    if (!r)
        fail_msg ("open: %s", err);
    const int64_t want[] = {7, -1, 7, 7, 9, -1};
    zs_value_t row;
    for (int i = 0; i < 6; i++) {
        if (zs_parquet_reader_next (r, &row, err, sizeof err) != 1)
            fail_msg ("row %d: %s", i, err);
        assert_int_equal (row.null, want[i] < 0);
        if (want[i] >= 0)
            assert_int_equal (row.v.i64, want[i]);
    }
    assert_int_equal (zs_parquet_reader_next (r, &row, err, sizeof err), 0);
    zs_parquet_reader_destroy (&r);

    //  The copy reaching before the start of the output is corrupt.
    uint8_t *p = memmem (pages.data, pages.len, v2_values, sizeof v2_values);
    assert_non_null (p);
    p[11] = 0x09; //  offset 9 > 8 bytes written
    s_craft (path, &el, 1, pages.data, pages.len, ZS_PQ_SNAPPY, 6);
    assert_int_equal (s_read_any (path, err, sizeof err), -1);
    assert_non_null (strstr (err, "snappy"));
    zs_pq_buf_fini (&pages);
}

static void
s_expect_refused (const s_elem_t *els, int nels, const char *want1, const char *want2)
{
    char err[ZS_ERRLEN];
    const char *path = s_path ("refused.parquet");
    const uint8_t page[16] = {0};
    s_craft (path, els, nels, els[0].type >= 0 ? page : NULL, sizeof page, ZS_PQ_GZIP, 1);
    zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
    assert_null (r);
    if (!strstr (err, want1) || !strstr (err, want2) || !strstr (err, path))
        fail_msg ("error '%s' lacks '%s' or '%s'", err, want1, want2);
}

static void
test_unsupported_refused (void **state)
{
    s_elem_t repeated[] = {{"tags", ZS_PQ_INT32, ZS_PQ_REPEATED, -1, 0}};
    s_expect_refused (repeated, 1, "'tags'", "repeated");
    //  A group is a ROW now (test_parquet_nested.c); a two-level list (a
    //  LIST whose child is the repeated leaf itself) is still refused.
    s_elem_t nested[] = {{"grp", -1, ZS_PQ_OPTIONAL, 3 /* LIST */, 1},
                         {"leaf", ZS_PQ_INT32, ZS_PQ_REPEATED, -1, 0}};
    s_expect_refused (nested, 2, "'grp'", "two-level lists not supported");
    s_elem_t flba[] = {{"uuid", ZS_PQ_FIXED_LEN_BYTE_ARRAY, ZS_PQ_OPTIONAL, -1, 0}};
    s_expect_refused (flba, 1, "'uuid'", "not supported");
    s_elem_t uint[] = {{"u", ZS_PQ_INT32, ZS_PQ_OPTIONAL, 13 /* UINT_32 */, 0}};
    s_expect_refused (uint, 1, "'u'", "not supported");
    s_elem_t dec[] = {{"price", ZS_PQ_INT64, ZS_PQ_REQUIRED, ZS_PQ_CT_DECIMAL, 0}};
    s_expect_refused (dec, 1, "'price'", "not supported");
    s_elem_t gz[] = {{"g", ZS_PQ_INT64, ZS_PQ_REQUIRED, -1, 0}};
    //  With a chunk: its codec GZIP.
    s_expect_refused (gz, 1, "'g'", "compression GZIP not supported");
}

//  --------------------------------------------------------------------------
//  DELTA_BINARY_PACKED

//  n values of a pattern, width 4 or 8, PLAIN little endian into vals.
static void
s_delta_values (uint8_t *vals, size_t n, int width, int pattern)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t x;
        switch (pattern) {
        case 0: //  constant
            x = 42;
            break;
        case 1: //  ascending by one: ids
            x = (uint64_t) i + 1;
            break;
        case 2: //  a second apart in ms from 2023, with jitter: timestamps
            x = UINT64_C (1700000000000) + i * 1000 + (i * 7919) % 997;
            break;
        case 3: //  extremes in turn: every delta overflows the type
            x = i % 2 ? (width == 4 ? (uint64_t) INT32_MAX : (uint64_t) INT64_MAX)
                      : (width == 4 ? (uint64_t) (uint32_t) INT32_MIN : (uint64_t) INT64_MIN);
            break;
        case 4: //  descending negatives
            x = (uint64_t) - (int64_t) (i * 3);
            break;
        default: //  random bits
            x = (uint64_t) rand () << 40 ^ (uint64_t) rand () << 20 ^ (uint64_t) rand ();
            break;
        }
        zs_le_put (vals + i * (size_t) width, x, width);
    }
}

static void
test_delta_codec (void **state)
{
    srand (11);
    const size_t sizes[] = {0, 1, 2, 3, 32, 33, 128, 129, 130, 161, 257, 1000, 4099};
    uint8_t *vals = malloc (4099 * 8);
    zs_pq_buf_t out, back;
    zs_pq_buf_init (&out);
    zs_pq_buf_init (&back);
    for (int width = 4; width <= 8; width += 4)
        for (int pattern = 0; pattern < 6; pattern++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                size_t n = sizes[si], got = 99;
                s_delta_values (vals, n, width, pattern);
                out.len = 0;
                zs_pq_delta_encode (&out, vals, n, width);
                assert_true (out.ok);
                //  Exact-size copy: ASan catches any read past the end.
                uint8_t *copy = malloc (out.len);
                memcpy (copy, out.data, out.len);
                back.len = 0;
                assert_int_equal (zs_pq_delta_decode (copy, out.len, width, n, &back, &got), 0);
                assert_int_equal (got, n);
                assert_int_equal (back.len, n * (size_t) width);
                if (n)
                    assert_memory_equal (back.data, vals, n * (size_t) width);
                //  A count above what the page holds is refused.
                if (n) {
                    back.len = 0;
                    assert_int_equal (zs_pq_delta_decode (copy, out.len, width, n - 1, &back, &got),
                                      -1);
                    zs_pq_buf_fini (&back);
                    zs_pq_buf_init (&back);
                }
                //  Cut short: refused, or (only the last miniblock's padding
                //  gone) the same values.
                for (size_t cut = 0; n > 1 && cut < out.len; cut += 1 + out.len / 40) {
                    back.len = 0;
                    if (zs_pq_delta_decode (copy, cut, width, n, &back, &got) == 0) {
                        assert_true (cut + 4 * 64 >= out.len);
                        assert_memory_equal (back.data, vals, n * (size_t) width);
                    }
                    if (!back.ok)
                        zs_pq_buf_fini (&back), zs_pq_buf_init (&back);
                }
                free (copy);
            }
    //  The constant and the ascending ids take no bits per value: a header
    //  and per block of 128 a delta and 4 widths.
    s_delta_values (vals, 1000, 8, 1);
    out.len = 0;
    zs_pq_delta_encode (&out, vals, 1000, 8);
    assert_true (out.len < 8 * 6 + 4);
    //  Garbage never reads outside its bytes.
    for (int round = 0; round < 5000; round++) {
        size_t len = (size_t) (rand () % 40);
        uint8_t *buf = malloc (len ? len : 1);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t) (round % 3 ? rand () : rand () % 4);
        size_t got;
        back.len = 0;
        zs_pq_delta_decode (buf, len, round % 2 ? 4 : 8, 5000, &back, &got);
        if (!back.ok)
            zs_pq_buf_fini (&back), zs_pq_buf_init (&back);
        free (buf);
    }
    free (vals);
    zs_pq_buf_fini (&out);
    zs_pq_buf_fini (&back);
}

static uint32_t
s_rd32_test (const uint8_t *p)
{
    uint32_t v;
    memcpy (&v, p, 4);
    return v;
}

//  n byte arrays of a pattern in PLAIN form into plain (4-byte length +
//  bytes); returns the bytes.
static size_t
s_dba_values (uint8_t *plain, size_t n, int pattern)
{
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        char v[80];
        int len;
        switch (pattern) {
        case 0: //  datagen's names: a long shared prefix
            len = snprintf (v, sizeof v, "name-%zu", i + 1);
            break;
        case 1: //  empty strings among others, prefixes of each other
            len = snprintf (v, sizeof v, "%.*s", (int) (i % 4) * 5, "abcdeabcdeabcdeabcde");
            break;
        case 2: //  nothing shared, zero bytes and high bytes inside
            len = (int) (i % 23);
            for (int k = 0; k < len; k++)
                v[k] = (char) (rand () % 3 ? rand () : 0);
            break;
        default: //  long values sharing 40 bytes, then differing anywhere
            len = snprintf (v, sizeof v, "0123456789012345678901234567890123456789-%u-%zu",
                            (unsigned) rand () % 7, i % 3);
            break;
        }
        uint32_t l = (uint32_t) len;
        memcpy (plain + pos, &l, 4);
        memcpy (plain + pos + 4, v, l);
        pos += 4 + l;
    }
    return pos;
}

static void
test_delta_byte_array_codec (void **state)
{
    srand (13);
    const size_t sizes[] = {0, 1, 2, 33, 129, 1000};
    uint8_t *plain = malloc (1000 * 84);
    zs_pq_buf_t out, back, scratch;
    zs_pq_buf_init (&out);
    zs_pq_buf_init (&back);
    zs_pq_buf_init (&scratch);
    for (int pattern = 0; pattern < 4; pattern++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            size_t n = sizes[si], got = 99;
            size_t bytes = s_dba_values (plain, n, pattern);
            out.len = 0;
            zs_pq_dba_encode (&out, plain, n, true, &scratch);
            assert_true (out.ok);
            uint8_t *copy = malloc (out.len);
            memcpy (copy, out.data, out.len);
            back.len = 0;
            assert_int_equal (
                zs_pq_dba_decode (copy, out.len, true, n, SIZE_MAX, &back, &scratch, &got), 0);
            assert_int_equal (got, n);
            assert_int_equal (back.len, bytes);
            if (n)
                assert_memory_equal (back.data, plain, bytes);
            //  Bounds: fewer values, fewer bytes than it holds: refused.
            if (n) {
                back.len = 0;
                assert_int_equal (
                    zs_pq_dba_decode (copy, out.len, true, n - 1, SIZE_MAX, &back, &scratch, &got),
                    -1);
                back.len = 0;
                assert_int_equal (
                    zs_pq_dba_decode (copy, out.len, true, n, bytes - 1, &back, &scratch, &got),
                    -1);
            }
            //  Cut short: refused, or the same values.
            for (size_t cut = 0; n > 1 && cut < out.len; cut += 1 + out.len / 30) {
                back.len = 0;
                if (zs_pq_dba_decode (copy, cut, true, n, SIZE_MAX, &back, &scratch, &got) == 0)
                    assert_memory_equal (back.data, plain, bytes);
                zs_bytes_reset (&back);
                zs_bytes_reset (&scratch);
            }
            free (copy);
            //  DELTA_LENGTH_BYTE_ARRAY: the lengths, then the bytes, as
            //  the encoder writes them (and by hand)
            uint8_t *lens = malloc (4 * n + 1);
            size_t pos = 0;
            for (size_t i = 0; i < n; i++) {
                memcpy (lens + 4 * i, plain + pos, 4);
                pos += 4 + s_rd32_test (plain + pos);
            }
            zs_pq_buf_t hand;
            zs_pq_buf_init (&hand);
            zs_pq_delta_encode (&hand, lens, n, 4);
            for (size_t i = 0, p = 0; i < n; i++) {
                uint32_t l = s_rd32_test (plain + p);
                zs_pq_buf_put (&hand, plain + p + 4, l);
                p += 4 + l;
            }
            out.len = 0;
            zs_pq_dba_encode (&out, plain, n, false, &scratch);
            assert_int_equal (out.len, hand.len);
            assert_memory_equal (out.data, hand.data, hand.len);
            zs_pq_buf_fini (&hand);
            back.len = 0;
            assert_int_equal (
                zs_pq_dba_decode (out.data, out.len, false, n, SIZE_MAX, &back, &scratch, &got), 0);
            assert_int_equal (got, n);
            if (n)
                assert_memory_equal (back.data, plain, bytes);
            free (lens);
        }
    //  datagen's names: a few bytes a value, not ~15.
    s_dba_values (plain, 1000, 0);
    out.len = 0;
    zs_pq_dba_encode (&out, plain, 1000, true, &scratch);
    assert_true (out.len < 1000 * 3);
    //  Garbage never reads outside its bytes.
    for (int round = 0; round < 5000; round++) {
        size_t len = (size_t) (rand () % 48);
        uint8_t *buf = malloc (len ? len : 1);
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t) (round % 3 ? rand () : rand () % 4);
        size_t got;
        zs_bytes_reset (&back);
        zs_bytes_reset (&scratch);
        back.len = 0;
        zs_pq_dba_decode (buf, len, round % 2, 5000, 1 << 20, &back, &scratch, &got);
        free (buf);
    }
    free (plain);
    zs_pq_buf_fini (&out);
    zs_pq_buf_fini (&back);
    zs_pq_buf_fini (&scratch);
}

//  Integer columns of every INT32/INT64 kind, with nulls, pages that are
//  all null, pages of one value, extremes and decimals on INT32/INT64.
#define S_DELTA_SCHEMA                                                                             \
    "id BIGINT NOT NULL, n BIGINT, i INT, t TINYINT, s SMALLINT, dt DATE, tm TIME(3), "            \
    "ts TIMESTAMP(3), t6 TIMESTAMP(6), d9 DECIMAL(9, 2), d18 DECIMAL(18, 4), nul INT, "            \
    "nm STRING"

static void
s_gen_delta (int64_t r, zs_value_t *row, char *buf)
{
    row[0].v.i64 = r;
    //  rows 0..999: nulls in bursts (all-null pages at the smallest page
    //  size); then extremes in turn
    row[1].null = (r / 300) % 2 == 1;
    row[1].v.i64 = r < 1000 ? r * r : r % 2 ? INT64_MAX : INT64_MIN;
    row[2].null = r % 5 == 0;
    row[2].v.i32 = r % 3 == 0 ? INT32_MIN : r % 3 == 1 ? INT32_MAX : (int32_t) (r * 2654435761u);
    row[3].v.i32 = (int8_t) (r * 37);
    row[4].v.i32 = (int16_t) (r * 4099);
    row[5].v.i32 = (int32_t) (r % 73049) - 25567;
    row[6].v.i32 = (int32_t) ((r * 1013) % 86400000);
    row[7].null = r % 13 == 0;
    row[7].v.i64 = INT64_C (1700000000000) + r * 1000;
    row[8].v.i64 = -INT64_C (2208988800000000) + r * 999999937;
    zs_dec_set (&row[9], r % 2 ? 999999999 - r : -999999999 + r);
    zs_dec_set (&row[10], (r % 2 ? 1 : -1) * (INT64_C (999999999999999999) - r * 7));
    row[11].null = true; //  every page all null
    //  names sharing prefixes, empty ones, and the same bursts of nulls
    row[12].null = row[1].null;
    int n = r % 7 == 0 ? 0 : snprintf (buf, 64, "name-%lld-ü", (long long) (r * 37));
    row[12].v.bin.ptr = (const uint8_t *) buf;
    row[12].v.bin.len = (uint32_t) n;
}

static void
s_gen_id_ts (int64_t r, zs_value_t *row, char *buf)
{
    row[0].v.i64 = r + 1;
    s_gen_seconds (r, row + 1, buf);
}

static void
test_delta_file (void **state)
{
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    assert_true (opts.delta);
    for (int round = 0; round < 3; round++) {
        //  small pages (many, some all null, some of one value), then the
        //  default, then PLAIN for comparison
        opts.page_bytes = round == 0 ? ZS_PARQUET_PAGE_MIN : 256 << 10;
        opts.delta = round < 2;
        opts.row_group_rows = round == 0 ? 1500 : 131072;
        const char *path = s_path (round == 0   ? "delta-small.parquet"
                                   : round == 1 ? "delta.parquet"
                                                : "plain.parquet");
        s_write (path, S_DELTA_SCHEMA, &opts, 5001, s_gen_delta, NULL);
        s_verify (path, S_DELTA_SCHEMA, 5001, s_gen_delta);
    }
    //  A single row, and a row group of one row: pages of one value.
    opts.delta = true;
    opts.row_group_rows = 1;
    s_write (s_path ("delta-one.parquet"), S_DELTA_SCHEMA, &opts, 3, s_gen_delta, NULL);
    s_verify (s_path ("delta-one.parquet"), S_DELTA_SCHEMA, 3, s_gen_delta);
    //  Ascending ids and timestamps a second apart: delta is far smaller.
    opts.row_group_rows = 131072;
    int64_t delta = s_write (s_path ("ids-delta.parquet"), "id BIGINT NOT NULL, ts TIMESTAMP(3)",
                             &opts, 100000, s_gen_id_ts, NULL);
    opts.delta = false;
    int64_t plain = s_write (s_path ("ids-plain.parquet"), "id BIGINT NOT NULL, ts TIMESTAMP(3)",
                             &opts, 100000, s_gen_id_ts, NULL);
    assert_true (delta < plain / 2);
}

//  --------------------------------------------------------------------------
//  Speed: the ingest hot path (append + close), datagen's four columns.

static void
s_gen_speed (int64_t r, zs_value_t *row, char *buf)
{
    int n = snprintf (buf, 32, "name-%lld", (long long) r);
    row[0].v.i64 = r;
    row[1].v.bin.ptr = (const uint8_t *) buf;
    row[1].v.bin.len = (uint32_t) n;
    row[2].v.f64 = (double) (r % 100000) / 100.0;
    row[3].v.i64 = INT64_C (1700000000000) + r * 1000;
}

static void
test_speed (void **state)
{
    const char *text = "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)";
    zs_schema_t schema;
    s_schema (&schema, text);
    enum { N = 1000000 };
    //  Rows made up front so that only the writer is timed.
    char *names = malloc ((size_t) N * 16);
    zs_value_t *rows = calloc ((size_t) N * 4, sizeof *rows);
    assert_non_null (names);
    assert_non_null (rows);
    for (int64_t r = 0; r < N; r++)
        s_gen_speed (r, rows + r * 4, names + r * 16);
    char err[ZS_ERRLEN];
    int64_t start = zs_clock_mono_ms ();
    zs_parquet_writer_t *w =
        zs_parquet_writer_new (s_path ("speed.parquet"), &schema, NULL, err, sizeof err);
    assert_non_null (w);
    for (int64_t r = 0; r < N; r++)
        if (zs_parquet_writer_append (w, rows + r * 4, err, sizeof err) != 0)
            fail_msg ("append: %s", err);
    int64_t size;
    assert_int_equal (zs_parquet_writer_close (&w, &size, NULL, err, sizeof err), 0);
    int64_t ms = zs_clock_mono_ms () - start;
    print_message ("parquet writer: %d rows in %lld ms (%.0f rows/s, %lld bytes, zstd 1)\n", N,
                   (long long) ms, ms ? N * 1000.0 / (double) ms : 0.0, (long long) size);

    start = zs_clock_mono_ms ();
    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path ("speed.parquet"), err, sizeof err);
    assert_non_null (r);
    zs_value_t row[4];
    int64_t n = 0, sum = 0;
    while (zs_parquet_reader_next (r, row, err, sizeof err) == 1) {
        sum += row[0].v.i64;
        n++;
    }
    zs_parquet_reader_destroy (&r);
    print_message ("parquet reader: %lld rows in %lld ms\n", (long long) n,
                   (long long) (zs_clock_mono_ms () - start));
    assert_int_equal (n, N);
    assert_true (sum == (int64_t) N * (N - 1) / 2);
    free (names);
    free (rows);
    //  Loose: a loaded 2-core box under sanitizers must not flake.
    assert_true (ms < 30000);
}

//  --------------------------------------------------------------------------
//  The types of issue 25: written as Paimon's ParquetSchemaConverter maps
//  them, read back exactly, with their statistics.

static void
test_paimon_types (void **state)
{
    const char *text =
        "ti TINYINT, si SMALLINT NOT NULL, d9 DECIMAL(9, 2), d18 DECIMAL(18, 4), "
        "d38 DECIMAL(38, 10) NOT NULL, d19 DECIMAL(19, 0), c CHAR(3), b BINARY(2), "
        "t TIME(3), t0 TIMESTAMP(0), t9 TIMESTAMP(9), l6 TIMESTAMP(6) WITH LOCAL TIME "
        "ZONE, l9 TIMESTAMP_LTZ(9)";
    zs_schema_t schema;
    s_schema (&schema, text);
    enum { NC = 13, NR = 4 };
    char err[ZS_ERRLEN];
    zs_parquet_writer_t *w =
        zs_parquet_writer_new (s_path ("types.parquet"), &schema, NULL, err, sizeof err);
    assert_non_null (w);
    __int128 max38 = zs_pow10 (38) - 1;
    zs_value_t rows[NR][NC];
    memset (rows, 0, sizeof rows);
    for (int r = 0; r < NR; r++) {
        zs_value_t *v = rows[r];
        int sign = r % 2 ? -1 : 1;
        v[0].v.i32 = sign * 127 - (r % 2);
        v[1].v.i32 = sign * 32767 - (r % 2);
        zs_dec_set (&v[2], sign * (__int128) (999999999 - r));
        zs_dec_set (&v[3], sign * (__int128) (INT64_C (999999999999999999) - r));
        zs_dec_set (&v[4], sign * (max38 - r));
        zs_dec_set (&v[5], sign * (__int128) (UINT64_C (9999999999999999999) - (uint64_t) r));
        v[6].v.bin.ptr = (const uint8_t *) "abc";
        v[6].v.bin.len = (uint32_t) r % 4;
        v[7].v.bin.ptr = (const uint8_t *) "\x00\xff";
        v[7].v.bin.len = 2;
        v[8].v.i32 = 86399999 - r;
        v[9].v.i64 = sign * INT64_C (1000) * (r + 1);
        v[10].v.i64 = r == 0 ? INT64_MIN : r == 1 ? INT64_MAX : sign * r; //  ns
        v[11].v.i64 = sign * INT64_C (1700000000123456);
        v[12].v.i64 = -1 - r;
        if (r == 3)
            v[0].null = v[2].null = v[3].null = v[5].null = v[6].null = v[7].null = v[8].null =
                v[9].null = v[10].null = v[11].null = v[12].null = true;
        assert_int_equal (zs_parquet_writer_append (w, v, err, sizeof err), 0);
    }
    zs_column_stats_t ws[NC];
    int64_t size;
    assert_int_equal (zs_parquet_writer_close (&w, &size, ws, err, sizeof err), 0);
    //  decimals bounded as numbers, TIMESTAMP(9) (INT96) not at all
    assert_true (zs_dec_get (&ws[4].min) == -max38 + 1 && zs_dec_get (&ws[4].max) == max38);
    assert_true (zs_dec_get (&ws[2].min) == -999999998 && zs_dec_get (&ws[2].max) == 999999999);
    assert_false (ws[10].has_minmax);
    assert_int_equal (ws[10].null_count, 1);

    zs_parquet_reader_t *r = zs_parquet_reader_open (s_path ("types.parquet"), err, sizeof err);
    if (!r)
        fail_msg ("%s", err);
    //  the reader derives the same types back (CHAR and BINARY are Parquet's
    //  STRING and BYTES; TIME keeps milliseconds, TIMESTAMP(0) is MILLIS)
    char got_text[1024];
    assert_int_equal (zs_schema_format (zs_parquet_reader_schema (r), got_text, sizeof got_text),
                      0);
    assert_string_equal (got_text,
                         "ti TINYINT, si SMALLINT NOT NULL, d9 DECIMAL(9, 2), d18 DECIMAL(18, 4), "
                         "d38 DECIMAL(38, 10) NOT NULL, d19 DECIMAL(19, 0), c STRING, b BYTES, "
                         "t TIME(3), t0 TIMESTAMP(3), t9 TIMESTAMP(9), l6 TIMESTAMP(6) WITH LOCAL "
                         "TIME ZONE, l9 TIMESTAMP(9)");
    for (int i = 0; i < NC; i++)
        if (i != 6 && i != 7 && i != 10 && i != 12)
            s_stats_eq (schema.cols[i].type, zs_parquet_reader_stats (r, i), &ws[i]);
    for (int k = 0; k < NR; k++) {
        zs_value_t got[NC];
        assert_int_equal (zs_parquet_reader_next (r, got, err, sizeof err), 1);
        for (int i = 0; i < NC; i++) {
            assert_int_equal (got[i].null, rows[k][i].null);
            if (got[i].null)
                continue;
            if (schema.cols[i].type == ZS_TYPE_DECIMAL)
                assert_true (zs_dec_get (&got[i]) == zs_dec_get (&rows[k][i]));
            else
                assert_true (s_value_eq (schema.cols[i].type, &got[i], &rows[k][i]));
        }
    }
    zs_parquet_reader_destroy (&r);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_rle_hybrid),
        cmocka_unit_test_setup_teardown (test_all_types_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_empty_file, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_dictionary, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_pages, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_page_size_and_options, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_page_within_size, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_statistics, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_not_null_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_writer_files, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_truncated_file, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_bit_flips, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_v2_and_snappy, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_unsupported_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_paimon_types, s_setup, s_teardown),
        cmocka_unit_test (test_delta_codec),
        cmocka_unit_test (test_delta_byte_array_codec),
        cmocka_unit_test_setup_teardown (test_delta_file, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_speed, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
