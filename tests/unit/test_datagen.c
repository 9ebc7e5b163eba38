/*  test_datagen.c - the datagen split: every id exactly once across the
    writers, positions that replay the same ids, the rate share and the
    throttle schedule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafile.h"
#include <stdio.h>
#include <string.h>
#include "datagen.h"
#include <stdlib.h>
#include <string.h>

//  Every id 1..M is emitted by exactly one writer, for several N and M.
static void
test_split_covers_every_id_once (void **state)
{
    static const int ns[] = {1, 2, 3, 4, 7};
    static const int64_t ms[] = {0, 1, 2, 3, 10, 11, 99, 100, 1001};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof ms / sizeof ms[0]; b++) {
            int n = ns[a];
            int64_t m = ms[b];
            char *seen = calloc ((size_t) m + 2, 1);
            int64_t total = 0;
            for (int i = 0; i < n; i++) {
                zs_datagen_t g;
                zs_datagen_init (&g, i, n, m, 0);
                int64_t rows = 0;
                while (!zs_datagen_exhausted (&g)) {
                    int64_t id = zs_datagen_next_id (&g);
                    assert_true (id >= 1 && id <= m);
                    assert_int_equal ((id - 1) % n, i); //  writer i owns id ≡ i+1 mod N
                    assert_int_equal (seen[id], 0);
                    seen[id] = 1;
                    g.offset++;
                    rows++;
                }
                assert_int_equal (rows, zs_datagen_total (&g));
                total += rows;
            }
            assert_int_equal (total, m);
            free (seen);
        }
}

//  A position (offset) restarts the sequence exactly where it was, and the
//  rows derived from the ids are byte-identical on replay.
static void
test_replay_from_position_is_identical (void **state)
{
    zs_datagen_t a, b;
    zs_datagen_init (&a, 2, 4, -1, 0);
    int64_t ids[500];
    for (int k = 0; k < 500; k++) {
        ids[k] = zs_datagen_next_id (&a);
        a.offset++;
    }
    assert_int_equal (ids[0], 3);
    assert_int_equal (ids[1], 7);
    //  restore at offset 123: the next id is the 124th of the first run
    zs_datagen_init (&b, 2, 4, -1, 0);
    b.offset = 123;
    for (int k = 123; k < 500; k++) {
        int64_t id = zs_datagen_next_id (&b);
        assert_int_equal (id, ids[k]);
        b.offset++;
    }
}

//  Every column of every type is a pure function of the id: two buffers,
//  same values byte for byte; the id column is never null; nullable columns
//  do get nulls; strings include the empty one and multi-byte UTF-8.
static void
test_rows_deterministic_all_types (void **state)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&schema,
                                       "id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, "
                                       "ok BOOLEAN, ts TIMESTAMP(3), day DATE, raw BYTES, "
                                       "f FLOAT, t6 TIMESTAMP(6), s STRING NOT NULL, "
                                       "big BIGINT",
                                       err, sizeof err),
                      0);
    static zs_datagen_buf_t b1, b2;
    zs_value_t r1[ZS_MAX_COLUMNS], r2[ZS_MAX_COLUMNS];
    int nulls[ZS_MAX_COLUMNS] = {0};
    bool empty = false, utf8 = false;
    for (int64_t id = 1; id <= 5000; id++) {
        zs_datagen_row (&schema, id, r1, &b1);
        zs_datagen_row (&schema, id, r2, &b2);
        assert_false (r1[0].null);
        assert_int_equal (r1[0].v.i64, id);
        for (int c = 0; c < schema.n; c++) {
            assert_int_equal (r1[c].null, r2[c].null);
            nulls[c] += r1[c].null;
            if (r1[c].null)
                continue;
            if (zs_type_is_binary (schema.cols[c].type)) {
                assert_int_equal (r1[c].v.bin.len, r2[c].v.bin.len);
                assert_memory_equal (r1[c].v.bin.ptr, r2[c].v.bin.ptr, r1[c].v.bin.len);
                empty |= r1[c].v.bin.len == 0 && schema.cols[c].type == ZS_TYPE_STRING;
                for (uint32_t k = 0; k < r1[c].v.bin.len; k++)
                    utf8 |= schema.cols[c].type == ZS_TYPE_STRING && r1[c].v.bin.ptr[k] >= 0x80;
            } else
                assert_memory_equal (&r1[c].v, &r2[c].v, sizeof r1[c].v);
        }
        //  the default schema's columns keep their first-release values
        if (!r1[1].null) {
            char want[48];
            snprintf (want, sizeof want, "name-%lld", (long long) id);
            assert_int_equal (r1[1].v.bin.len, strlen (want));
            assert_memory_equal (r1[1].v.bin.ptr, want, strlen (want));
        }
        if (!r1[5].null)
            assert_int_equal (r1[5].v.i64, INT64_C (1700000000000) + id * 1000);
    }
    //  "name-<id>" at every digit count, up to the largest id, and ids
    //  spread over all of them
    int64_t ids[64 * 3 + 20000];
    int nids = 0;
    for (int64_t p = 1; p > 0 && p <= INT64_MAX / 10; p *= 10)
        for (int64_t id = p - 1; id <= p + 1; id++)
            ids[nids++] = id;
    ids[nids++] = INT64_MAX;
    for (int k = 0; k < 20000; k++)
        ids[nids++] = (int64_t) ((uint64_t) k * UINT64_C (0x9E3779B97F4A7C15) >> (k % 63 + 1));
    for (int k = 0; k < nids; k++) {
        char want[48];
        zs_datagen_row (&schema, ids[k], r1, &b1);
        snprintf (want, sizeof want, "name-%lld", (long long) ids[k]);
        if (!r1[1].null) {
            assert_int_equal (r1[1].v.bin.len, strlen (want));
            assert_memory_equal (r1[1].v.bin.ptr, want, strlen (want));
        }
    }
    assert_int_equal (nulls[0], 0);
    assert_int_equal (nulls[10], 0); //  NOT NULL
    for (int c = 1; c < 10; c++)
        assert_true (nulls[c] > 5000 / 30 && nulls[c] < 5000 / 6);
    assert_true (empty);
    assert_true (utf8);
}

static void
test_unbounded_never_exhausts (void **state)
{
    zs_datagen_t g;
    zs_datagen_init (&g, 0, 3, -1, 0);
    g.offset = INT64_C (1) << 40;
    assert_false (zs_datagen_exhausted (&g));
    assert_int_equal (zs_datagen_total (&g), -1);
    //  no wrap into negative ids even at absurd offsets
    g.offset = INT64_MAX / 2;
    assert_true (zs_datagen_next_id (&g) > 0);
}

static void
test_bounded_fewer_rows_than_writers (void **state)
{
    //  2 rows, 4 writers: writers 2 and 3 have nothing and are exhausted
    //  from the start (they must still report end of input).
    for (int i = 0; i < 4; i++) {
        zs_datagen_t g;
        zs_datagen_init (&g, i, 4, 2, 0);
        assert_int_equal (zs_datagen_total (&g), i < 2 ? 1 : 0);
        assert_int_equal (zs_datagen_exhausted (&g), i >= 2);
    }
    zs_datagen_t g;
    zs_datagen_init (&g, 0, 1, 0, 0);
    assert_true (zs_datagen_exhausted (&g));
}

//  The job rate splits as rate/N with the remainder on the low indexes.
static void
test_rate_share (void **state)
{
    assert_int_equal (zs_datagen_share (10, 3, 0), 4);
    assert_int_equal (zs_datagen_share (10, 3, 1), 3);
    assert_int_equal (zs_datagen_share (10, 3, 2), 3);
    assert_int_equal (zs_datagen_share (0, 3, 0), 0);
    assert_int_equal (zs_datagen_share (2, 4, 1), 1);
    assert_int_equal (zs_datagen_share (2, 4, 2), 0);
    for (int64_t rate = 1; rate < 50; rate++)
        for (int n = 1; n <= 6; n++) {
            int64_t sum = 0;
            for (int i = 0; i < n; i++) {
                zs_datagen_t g;
                zs_datagen_init (&g, i, n, -1, rate);
                //  over one second the schedule gives exactly the share
                assert_int_equal (zs_datagen_allowed (&g, 1000), zs_datagen_share (rate, n, i));
                sum += zs_datagen_share (rate, n, i);
            }
            assert_int_equal (sum, rate);
        }
}

//  allowed() and due_ms() agree: row e becomes allowed exactly at due(e).
static void
test_throttle_schedule (void **state)
{
    static const int64_t rates[] = {1, 3, 7, 1000, 10000, 123457};
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++)
        for (int n = 1; n <= 4; n++)
            for (int i = 0; i < n; i++) {
                zs_datagen_t g;
                zs_datagen_init (&g, i, n, -1, rates[r]);
                assert_int_equal (zs_datagen_allowed (&g, 0), 0);
                for (int64_t e = 0; e < 200; e++) {
                    int64_t due = zs_datagen_due_ms (&g, e);
                    assert_true (zs_datagen_allowed (&g, due) >= e + 1);
                    if (due > 0)
                        assert_true (zs_datagen_allowed (&g, due - 1) <= e);
                }
                //  allowed never decreases
                int64_t prev = 0;
                for (int64_t t = 0; t < 3000; t += 7) {
                    int64_t a = zs_datagen_allowed (&g, t);
                    assert_true (a >= prev);
                    prev = a;
                }
            }
}

static void
test_unthrottled (void **state)
{
    zs_datagen_t g;
    zs_datagen_init (&g, 1, 2, -1, 0);
    assert_int_equal (zs_datagen_allowed (&g, 0), INT64_MAX);
    assert_int_equal (zs_datagen_due_ms (&g, 1000000), 0);
    //  huge rate and long run: no overflow into a negative allowance
    zs_datagen_init (&g, 0, 1, -1, INT64_C (1000000000000));
    assert_true (zs_datagen_allowed (&g, INT64_C (1) << 40) > 0);
}

//  The types of issue 25 get values their types hold: a DECIMAL within its
//  precision (both signs, p > 18 too), CHAR/VARCHAR/BINARY within their
//  lengths (characters, whole UTF-8), TINYINT/SMALLINT in range, TIME in
//  the day, TIMESTAMP(p) with no digits beyond p; the existing types' values
//  are unchanged by the new code (the same schema gives the same bytes).
static void
test_paimon_types (void **state)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_schema_parse (&schema,
                         "id BIGINT NOT NULL, ti TINYINT, si SMALLINT, d DECIMAL(5, 2), "
                         "d38 DECIMAL(38, 10), c CHAR(2), v VARCHAR(3), b BINARY(2), "
                         "t TIME(0), ts0 TIMESTAMP(0), ts9 TIMESTAMP(7), "
                         "l TIMESTAMP_LTZ(4)",
                         err, sizeof err),
        0);
    static zs_datagen_buf_t buf;
    zs_value_t r[ZS_MAX_COLUMNS];
    bool neg38 = false, wide38 = false;
    for (int64_t id = 1; id <= 5000; id++) {
        zs_datagen_row (&schema, id, r, &buf);
        if (!r[1].null)
            assert_true (r[1].v.i32 >= -128 && r[1].v.i32 <= 127);
        if (!r[2].null)
            assert_true (r[2].v.i32 >= -32768 && r[2].v.i32 <= 32767);
        if (!r[3].null)
            assert_true (zs_dec_get (&r[3]) < 100000 && zs_dec_get (&r[3]) > -100000);
        if (!r[4].null) {
            __int128 x = zs_dec_get (&r[4]);
            assert_true (x < zs_pow10 (38) && x > -zs_pow10 (38));
            neg38 |= x < 0;
            wide38 |= x > zs_pow10 (30) || x < -zs_pow10 (30);
        }
        for (int c = 5; c <= 6; c++)
            if (!r[c].null) {
                size_t chars = 0;
                for (uint32_t k = 0; k < r[c].v.bin.len; k++)
                    chars += (r[c].v.bin.ptr[k] & 0xC0) != 0x80;
                assert_true ((int) chars <= (c == 5 ? 2 : 3));
                assert_true (r[c].v.bin.len == 0
                             || (r[c].v.bin.ptr[r[c].v.bin.len - 1] & 0xC0) != 0xC0);
            }
        if (!r[7].null)
            assert_true (r[7].v.bin.len <= 2);
        if (!r[8].null)
            assert_true (r[8].v.i32 >= 0 && r[8].v.i32 < 86400000 && r[8].v.i32 % 1000 == 0);
        if (!r[9].null)
            assert_true (r[9].v.i64 % 1000 == 0); //  whole seconds
        if (!r[10].null)
            assert_true (r[10].v.i64 % 100 == 0); //  TIMESTAMP(7): 100 ns
        if (!r[11].null)
            assert_true (r[11].v.i64 % 100 == 0); //  TIMESTAMP(4) in microseconds
    }
    assert_true (neg38 && wide38);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_split_covers_every_id_once),
        cmocka_unit_test (test_replay_from_position_is_identical),
        cmocka_unit_test (test_unbounded_never_exhausts),
        cmocka_unit_test (test_rows_deterministic_all_types),
        cmocka_unit_test (test_paimon_types),
        cmocka_unit_test (test_bounded_fewer_rows_than_writers),
        cmocka_unit_test (test_rate_share),
        cmocka_unit_test (test_throttle_schedule),
        cmocka_unit_test (test_unthrottled),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
