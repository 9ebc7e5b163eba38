/*  test_source.c - a writer's source as splits (writer/source.h): a first
    start's share, a legacy (version 1) position turned into splits, file
    splits dealt to one writer from two (each resumes at its own offset),
    and datagen splits read round robin with their states exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config.h"
#include "source.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char s_dir[64];

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st, (void) flag, (void) ftw;
    return remove (path);
}

static int
s_setup (void **state)
{
    (void) state;
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-source-XXXXXX");
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_teardown (void **state)
{
    (void) state;
    return nftw (s_dir, s_rm, 8, FTW_DEPTH | FTW_PHYS);
}

//  Files a.jsonl … d.jsonl, file k holding ids 10k+1 … 10k+3, one a line.
static void
s_input (void)
{
    for (int k = 0; k < 4; k++) {
        char path[128];
        snprintf (path, sizeof path, "%s/%c.jsonl", s_dir, 'a' + k);
        FILE *f = fopen (path, "w");
        assert_non_null (f);
        for (int i = 1; i <= 3; i++)
            fprintf (f, "{\"id\": %d}\n", 10 * k + i);
        fclose (f);
    }
}

static void
s_config (zs_config_t *cfg, const char *kind)
{
    zs_config_defaults (cfg);
    char err[ZS_ERRLEN];
    assert_int_equal (zs_config_set (cfg, "source.kind", kind, err, sizeof err), 0);
    assert_int_equal (zs_config_set (cfg, "source.file.path", s_dir, err, sizeof err), 0);
    assert_int_equal (zs_config_set (cfg, "table.schema", "id BIGINT NOT NULL", err, sizeof err),
                      0);
    assert_int_equal (zs_config_set (cfg, "datagen.number-of-rows", "12", err, sizeof err), 0);
}

//  Read everything; the ids in order into ids[], their count returned.
static int
s_drain (zs_source_t *src, int64_t *ids, int max)
{
    int n = 0;
    char err[ZS_ERRLEN];
    zs_value_t row[ZS_MAX_COLUMNS];
    for (;;) {
        int64_t id;
        int got = zs_source_next (src, row, &id, err, sizeof err);
        if (got == ZS_SOURCE_END)
            return n;
        assert_int_equal (got, 1);
        assert_true (n < max);
        ids[n++] = row[0].v.i64;
    }
}

//  A first start: writer 1 of 2 takes b and d; a legacy position in d
//  (after its first line) makes b finished and d resume there.
static void
test_file_share_and_legacy (void **state)
{
    (void) state;
    s_input ();
    zs_config_t cfg;
    s_config (&cfg, "file");
    char err[ZS_ERRLEN];
    zs_source_t *src = zs_source_new (&cfg, 1, 2, err, sizeof err);
    assert_non_null (src);
    assert_int_equal (zs_source_reset (src, NULL, 0, false, NULL, err, sizeof err), 0);
    Zsink__Split **splits;
    assert_int_equal (zs_source_splits (src, &splits), 2);
    assert_string_equal (splits[0]->id, "file:b.jsonl");
    assert_string_equal (splits[1]->id, "file:d.jsonl");
    int64_t ids[16];
    assert_int_equal (s_drain (src, ids, 16), 6);
    assert_int_equal (ids[0], 11);
    assert_int_equal (ids[5], 33);

    Zsink__SourcePosition legacy;
    zsink__source_position__init (&legacy);
    legacy.writer = 1;
    legacy.offset = 4;
    legacy.file = "d.jsonl";
    legacy.has_file_offset = legacy.has_line = true;
    legacy.file_offset = (int64_t) strlen ("{\"id\": 31}\n");
    legacy.line = 1;
    assert_int_equal (zs_source_reset (src, NULL, 0, false, &legacy, err, sizeof err), 0);
    size_t finished;
    assert_int_equal (zs_source_count (src, &finished), 2);
    assert_int_equal (finished, 1);
    assert_int_equal (s_drain (src, ids, 16), 2);
    assert_int_equal (ids[0], 32);
    assert_int_equal (ids[1], 33);

    //  a legacy file not among ours: the input or the parallelism changed
    legacy.file = "c.jsonl";
    assert_int_equal (zs_source_reset (src, NULL, 0, false, &legacy, err, sizeof err), -1);
    assert_non_null (strstr (err, "c.jsonl"));
    zs_source_destroy (&src);
}

//  Rescaled down: writer 0 of 1 gets a's and c's splits, each part read,
//  and reads exactly the rest of each, in name order; their states after.
static void
test_file_splits_dealt (void **state)
{
    (void) state;
    s_input ();
    zs_config_t cfg;
    s_config (&cfg, "file");
    char err[ZS_ERRLEN];
    Zsink__Split sp[2], *in[2] = {&sp[1], &sp[0]}; //  out of order on purpose
    const char *names[2] = {"file:a.jsonl", "file:c.jsonl"};
    const int64_t lines[2] = {2, 1};
    for (int i = 0; i < 2; i++) {
        zsink__split__init (&sp[i]);
        sp[i].id = (char *) names[i];
        sp[i].has_offset = sp[i].has_line = sp[i].has_rows = true;
        sp[i].offset = lines[i] * (int64_t) strlen ("{\"id\": 31}\n");
        sp[i].line = sp[i].rows = lines[i];
    }
    sp[0].offset = 2 * (int64_t) strlen ("{\"id\": 1}\n"); //  a's ids have one digit
    zs_source_t *src = zs_source_new (&cfg, 0, 1, err, sizeof err);
    assert_non_null (src);
    assert_int_equal (zs_source_reset (src, in, 2, true, NULL, err, sizeof err), 0);
    int64_t ids[16];
    assert_int_equal (s_drain (src, ids, 16), 3);
    assert_int_equal (ids[0], 3);
    assert_int_equal (ids[1], 22);
    assert_int_equal (ids[2], 23);
    Zsink__Split **splits;
    assert_int_equal (zs_source_splits (src, &splits), 2);
    for (int i = 0; i < 2; i++) {
        assert_true (splits[i]->finished);
        assert_int_equal (splits[i]->rows, 3);
        assert_int_equal (splits[i]->line, 3);
    }
    assert_int_equal (zs_source_rows (src), 6);
    zs_source_destroy (&src);
}

//  Datagen: a first start is split index/parallelism; two splits dealt to
//  one writer are read round robin, each exhausted at its own end.
static void
test_datagen_splits (void **state)
{
    (void) state;
    zs_config_t cfg;
    s_config (&cfg, "datagen");
    char err[ZS_ERRLEN];
    zs_source_t *src = zs_source_new (&cfg, 1, 3, err, sizeof err);
    assert_non_null (src);
    assert_int_equal (zs_source_reset (src, NULL, 0, false, NULL, err, sizeof err), 0);
    int64_t ids[16];
    assert_int_equal (s_drain (src, ids, 16), 4); //  2, 5, 8, 11
    assert_int_equal (ids[3], 11);
    Zsink__Split sp[2], *in[2] = {&sp[0], &sp[1]};
    char id0[] = "datagen:0/2", id1[] = "datagen:1/2";
    zsink__split__init (&sp[0]);
    zsink__split__init (&sp[1]);
    sp[0].id = id0, sp[1].id = id1;
    sp[0].has_index = sp[0].has_count = sp[1].has_index = sp[1].has_count = true;
    sp[0].index = 0, sp[1].index = 1, sp[0].count = sp[1].count = 2;
    sp[0].has_offset = sp[1].has_offset = true;
    sp[0].offset = 4; //  ids 1, 3, 5, 7 done: 9, 11 left
    sp[1].offset = 1; //  id 2 done: 4 … 12 left
    assert_int_equal (zs_source_reset (src, in, 2, true, NULL, err, sizeof err), 0);
    int n = s_drain (src, ids, 16);
    assert_int_equal (n, 7);
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += ids[i];
    assert_int_equal (sum, 9 + 11 + 4 + 6 + 8 + 10 + 12);
    assert_int_equal (ids[0], 9); //  round robin: 9, 4, 11, 6, 8, …
    assert_int_equal (ids[1], 4);
    assert_int_equal (ids[2], 11);
    Zsink__Split **splits;
    assert_int_equal (zs_source_splits (src, &splits), 2);
    assert_int_equal (splits[0]->offset, 6);
    assert_int_equal (splits[1]->offset, 6);
    //  a split of another kind is refused, naming it
    char bad[] = "file:x.csv";
    sp[0].id = bad;
    assert_int_equal (zs_source_reset (src, in, 1, true, NULL, err, sizeof err), -1);
    assert_non_null (strstr (err, "file:x.csv"));
    zs_source_destroy (&src);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_file_share_and_legacy, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_file_splits_dealt, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_datagen_splits, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
