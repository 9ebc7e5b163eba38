/*  test_checkpoint.c - the coordinator's durable state: job.json and chk-N
    round-trip; corrupt files are refused with a reason; pruning keeps the
    newest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checkpoint.h"
#include "fs.h"
#include "io.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char s_dir[64];

static int
s_setup (void **state)
{
    snprintf (s_dir, sizeof s_dir, "/tmp/zs-test-chk-XXXXXX");
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_teardown (void **state)
{
    char cmd[128];
    snprintf (cmd, sizeof cmd, "rm -rf %s", s_dir);
    return system (cmd);
}

static void
test_job_meta_round_trip (void **state)
{
    char err[ZS_ERRLEN];
    zs_job_meta_t meta, back;
    assert_int_equal (zs_job_meta_read (s_dir, &back, err, sizeof err), ZS_ENOENT);
    memset (&meta, 0, sizeof meta);
    snprintf (meta.job_id, sizeof meta.job_id, "job-a");
    snprintf (meta.commit_user, sizeof meta.commit_user, "user-1");
    snprintf (meta.status, sizeof meta.status, "RUNNING");
    meta.epoch = 4;
    meta.next_checkpoint_id = 17;
    meta.fail_at_id_fired = true;
    assert_int_equal (zs_job_meta_write (s_dir, &meta, err, sizeof err), 0);
    assert_int_equal (zs_job_meta_read (s_dir, &back, err, sizeof err), 0);
    assert_string_equal (back.job_id, "job-a");
    assert_string_equal (back.commit_user, "user-1");
    assert_int_equal (back.epoch, 4);
    assert_int_equal (back.next_checkpoint_id, 17);
    assert_true (back.fail_at_id_fired);
    //  a torn or foreign file is refused, not half-read
    char path[128];
    snprintf (path, sizeof path, "%s/job.json", s_dir);
    assert_int_equal (zs_io_write_atomic (path, "{\"job_id\":\"x\"}", 14, err, sizeof err), 0);
    assert_int_equal (zs_job_meta_read (s_dir, &back, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "corrupt job file"));
}

static void
test_checkpoint_round_trip (void **state)
{
    char err[ZS_ERRLEN];
    Zsink__SourcePosition pos[2];
    for (int i = 0; i < 2; i++) {
        zsink__source_position__init (&pos[i]);
        pos[i].writer = i;
        pos[i].offset = 100 + i;
        pos[i].has_finished = true;
        pos[i].finished = i == 1;
    }
    Zsink__FileMeta f;
    zsink__file_meta__init (&f);
    f.path = "bucket-0/data-x.parquet";
    f.rows = 5;
    f.size = 99;
    f.has_min_id = f.has_max_id = true;
    f.min_id = 2;
    f.max_id = 10;
    Zsink__FileMeta *fp = &f;
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = 3;
    c.writer = 1;
    c.n_files = 1;
    c.files = &fp;
    Zsink__Committable *cp = &c;
    Zsink__ManifestCommittable m;
    zsink__manifest_committable__init (&m);
    m.identifier = 3;
    m.n_committables = 1;
    m.committables = &cp;
    Zsink__ManifestCommittable *mp = &m;
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = "user-9";
    st.n_pending = 1;
    st.pending = &mp;
    int32_t ended = 1;
    st.n_ended_writers = 1;
    st.ended_writers = &ended;

    zs_chk_t chk;
    memset (&chk, 0, sizeof chk);
    snprintf (chk.job_id, sizeof chk.job_id, "job-a");
    chk.id = 3;
    chk.time_millis = 1234;
    chk.parallelism = 2;
    chk.positions = pos;
    chk.state = &st;
    int64_t bytes = 0;
    assert_int_equal (zs_chk_write (s_dir, &chk, &bytes, err, sizeof err), 0);
    assert_true (bytes > 0);
    assert_int_equal (zs_chk_latest (s_dir, err, sizeof err), 3);

    char path[128];
    snprintf (path, sizeof path, "%s/chk-3", s_dir);
    zs_chk_t back;
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), 0);
    assert_int_equal (back.id, 3);
    assert_int_equal (back.parallelism, 2);
    assert_int_equal (back.positions[0].offset, 100);
    assert_true (back.positions[1].finished);
    assert_string_equal (back.state->commit_user, "user-9");
    assert_int_equal (back.state->n_pending, 1);
    assert_int_equal (back.state->pending[0]->identifier, 3);
    assert_string_equal (back.state->pending[0]->committables[0]->files[0]->path,
                         "bucket-0/data-x.parquet");
    assert_int_equal (back.state->pending[0]->committables[0]->files[0]->max_id, 10);
    assert_int_equal (back.state->n_ended_writers, 1);
    zs_chk_clear (&back);

    //  decodes as JSON but a file escapes the table: refused on read, not
    //  handed to the committer (which would refuse the Reset)
    f.path = "../../etc/passwd";
    assert_int_equal (zs_chk_write (s_dir, &chk, NULL, err, sizeof err), 0);
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "not valid"));
    f.path = "bucket-0/data-x.parquet";

    //  truncated: refused with the file named
    assert_int_equal (zs_io_write_atomic (path, "{\"version\":1,", 13, err, sizeof err), 0);
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "chk-3"));
}

//  Version 2: the splits of every kind round-trip, in id order; a split
//  that escapes the input or is there twice is refused. Version 1 (no
//  splits) reads as legacy, its file positions intact.
static void
test_checkpoint_splits (void **state)
{
    char err[ZS_ERRLEN], path[128];
    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    pos.has_finished = true;
    Zsink__Split sp[3];
    for (int i = 0; i < 3; i++) {
        zsink__split__init (&sp[i]);
        sp[i].has_offset = sp[i].has_rows = sp[i].has_finished = true;
        sp[i].offset = 10 * i;
        sp[i].rows = 7 * i;
    }
    sp[0].id = "kafka:orders:3";
    sp[0].topic = "orders";
    sp[0].has_partition = sp[0].has_stop = true;
    sp[0].partition = 3;
    sp[0].stop = 99;
    sp[0].offset = -2; //  earliest, nothing read
    sp[1].id = "file:b.csv";
    sp[1].has_line = sp[1].has_skipped = true;
    sp[1].line = 4;
    sp[1].skipped = 1;
    sp[1].finished = true;
    sp[2].id = "datagen:1/4";
    sp[2].has_index = sp[2].has_count = true;
    sp[2].index = 1;
    sp[2].count = 4;
    Zsink__Split *splits[3] = {&sp[0], &sp[1], &sp[2]};
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = "user-9";
    zs_chk_t chk;
    memset (&chk, 0, sizeof chk);
    snprintf (chk.job_id, sizeof chk.job_id, "job-a");
    chk.id = 4;
    chk.parallelism = 1;
    chk.positions = &pos;
    chk.state = &st;
    chk.splits = splits;
    chk.n_splits = 3;
    assert_int_equal (zs_chk_write (s_dir, &chk, NULL, err, sizeof err), 0);
    snprintf (path, sizeof path, "%s/chk-4", s_dir);
    zs_chk_t back;
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), 0);
    assert_false (back.legacy);
    assert_int_equal (back.n_splits, 3);
    assert_string_equal (back.splits[0]->id, "datagen:1/4");
    assert_int_equal (back.splits[0]->count, 4);
    assert_string_equal (back.splits[1]->id, "file:b.csv");
    assert_int_equal (back.splits[1]->line, 4);
    assert_true (back.splits[1]->finished);
    assert_string_equal (back.splits[2]->id, "kafka:orders:3");
    assert_string_equal (back.splits[2]->topic, "orders");
    assert_int_equal (back.splits[2]->partition, 3);
    assert_int_equal (back.splits[2]->stop, 99);
    assert_int_equal (back.splits[2]->offset, -2);
    zs_chk_clear (&back);

    sp[1].id = "file:../x.csv";
    assert_int_equal (zs_chk_write (s_dir, &chk, NULL, err, sizeof err), 0);
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "not a valid split"));
    sp[1].id = "kafka:orders:3";
    assert_int_equal (zs_chk_write (s_dir, &chk, NULL, err, sizeof err), 0);
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "twice"));

    //  version 1, as zsink wrote it before splits
    const char *v1 = "{\"version\":1,\"job_id\":\"j\",\"checkpoint_id\":2,\"time_millis\":1,"
                     "\"savepoint\":true,\"parallelism\":1,\"writers\":[{\"writer\":0,"
                     "\"offset\":5,\"finished\":false,\"file\":\"a.csv\",\"file_offset\":"
                     "120,\"line\":6,\"skipped\":0}],\"committer\":{\"commit_user\":\"u\","
                     "\"pending\":[],\"ended_writers\":[]}}";
    assert_int_equal (zs_io_write_atomic (path, v1, strlen (v1), err, sizeof err), 0);
    assert_int_equal (zs_chk_read (path, &back, err, sizeof err), 0);
    assert_true (back.legacy);
    assert_int_equal (back.n_splits, 0);
    assert_string_equal (back.positions[0].file, "a.csv");
    assert_int_equal (back.positions[0].file_offset, 120);
    zs_chk_clear (&back);
}

static void
test_prune_keeps_newest (void **state)
{
    char err[ZS_ERRLEN], path[128];
    for (int id = 1; id <= 5; id++) {
        snprintf (path, sizeof path, "%s/chk-%d", s_dir, id);
        assert_int_equal (zs_io_write_atomic (path, "{}", 2, err, sizeof err), 0);
    }
    snprintf (path, sizeof path, "%s/chk-6.tmp-123-0", s_dir);
    assert_int_equal (zs_io_write_atomic (path, "{", 1, err, sizeof err), 0);
    assert_int_equal (zs_chk_clean_temp (s_dir), 1);
    assert_int_equal (access (path, F_OK), -1);
    zs_chk_prune (s_dir, 2);
    for (int id = 1; id <= 5; id++) {
        snprintf (path, sizeof path, "%s/chk-%d", s_dir, id);
        assert_int_equal (access (path, F_OK) == 0, id >= 4);
    }
    assert_int_equal (zs_chk_latest (s_dir, err, sizeof err), 5);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_job_meta_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_checkpoint_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_checkpoint_splits, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_prune_keeps_newest, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
