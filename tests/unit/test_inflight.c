/*  test_inflight.c - the coordinator's classes for the checkpoint in
    flight (inflight.h) and the stop and end (ending.h): a checkpoint's
    splits are the acked ones over the known ones, the committer's state
    is taken over once; failures count in a row until one completes, an
    abort is counted as failed but not in a row; a stop awaits its
    savepoint's commit, or gives up after a while; the end, once decided,
    waits for the participants a bounded time.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ending.h"
#include "inflight.h"
#include <string.h>

static void
s_split (zs_splits_t *splits, const char *id, int64_t offset)
{
    Zsink__Split sp;
    zsink__split__init (&sp);
    sp.id = (char *) id;
    sp.has_offset = true;
    sp.offset = offset;
    assert_int_equal (zs_splits_put (splits, &sp), 0);
}

static void
test_checkpoint (void **state)
{
    zs_inflight_t *f = zs_inflight_new ();
    assert_int_equal (zs_inflight_id (f), 0);
    zs_inflight_begin (f, 7, false, 1000);
    assert_int_equal (zs_inflight_id (f), 7);
    assert_false (zs_inflight_expired (f, 1500, 600));
    assert_true (zs_inflight_expired (f, 1601, 600));
    zs_splits_t *known = zs_splits_new ();
    s_split (known, "datagen:0/3", 10);
    s_split (known, "datagen:1/3", 20);
    s_split (known, "datagen:2/3", 30);
    zs_splits_t *acked = zs_splits_new ();
    s_split (acked, "datagen:1/3", 25);
    Zsink__Split *const *a = zs_splits_all (acked, &(size_t){0});
    assert_int_equal (zs_inflight_put_split (f, a[0]), 0);
    Zsink__CommitterState cs;
    zsink__committer_state__init (&cs);
    cs.commit_user = "u";
    assert_int_equal (zs_inflight_set_state (f, &cs), 0);
    Zsink__SourcePosition pos[2];
    for (int i = 0; i < 2; i++) {
        zsink__source_position__init (&pos[i]);
        pos[i].writer = i;
        pos[i].offset = 100 * (i + 1);
        pos[i].file = "f";
    }
    zs_chk_t chk;
    zs_inflight_take_chk (f, "job", 2, pos, known, &chk);
    assert_int_equal (chk.id, 7);
    assert_int_equal (chk.n_splits, 3);
    assert_int_equal (chk.splits[0]->offset, 10); //  not acked: as known
    assert_int_equal (chk.splits[1]->offset, 25); //  acked
    assert_int_equal (chk.splits[2]->offset, 30);
    assert_int_equal (chk.positions[1].offset, 200);
    assert_null (chk.positions[0].file); //  rows read only
    assert_non_null (chk.state);
    assert_string_equal (chk.state->commit_user, "u");
    zs_chk_clear (&chk);
    zs_inflight_completed (f);
    assert_int_equal (zs_inflight_id (f), 0);
    //  failures in a row; an abort between does not count as one
    zs_inflight_begin (f, 8, false, 2000);
    assert_int_equal (zs_inflight_failed (f), 1);
    zs_inflight_begin (f, 9, false, 3000);
    zs_inflight_aborted (f);
    zs_inflight_begin (f, 10, false, 4000);
    assert_int_equal (zs_inflight_failed (f), 2);
    zs_inflight_begin (f, 11, true, 5000);
    zs_inflight_completed (f);
    zs_inflight_begin (f, 12, false, 6000);
    assert_int_equal (zs_inflight_failed (f), 1); //  a completion starts again
    assert_int_equal (zs_inflight_completed_count (f), 2);
    assert_int_equal (zs_inflight_failed_count (f), 4);
    assert_int_equal (zs_inflight_total_count (f), 6);
    zs_splits_destroy (&known);
    zs_splits_destroy (&acked);
    zs_inflight_destroy (&f);
    assert_null (f);
    zs_inflight_destroy (&f); //  NULL is fine
}

static void
test_ending (void **state)
{
    zs_ending_t *e = zs_ending_new ();
    assert_false (zs_ending_stopping (e));
    assert_false (zs_ending_is_decided (e));
    zs_ending_stop_asked (e, "client-1");
    assert_true (zs_ending_stopping (e));
    assert_string_equal (zs_ending_client (e), "client-1");
    assert_int_equal (zs_ending_savepoint (e), 0);
    assert_false (zs_ending_savepoint_committed (e, 100)); //  no savepoint yet
    assert_false (zs_ending_commit_overdue (e, 1000000));
    zs_ending_savepoint_done (e, 5, 1000);
    assert_false (zs_ending_savepoint_committed (e, 4));
    assert_true (zs_ending_savepoint_committed (e, 5));
    assert_false (zs_ending_commit_overdue (e, 1000 + 10000));
    assert_true (zs_ending_commit_overdue (e, 1000 + 10001));
    zs_ending_stop_over (e);
    assert_false (zs_ending_stopping (e));
    assert_false (zs_ending_commit_overdue (e, 1000000));
    zs_ending_decided (e, 1, 50000);
    assert_true (zs_ending_is_decided (e));
    assert_int_equal (zs_ending_code (e), 1);
    assert_false (zs_ending_waited_out (e, 52000));
    assert_true (zs_ending_waited_out (e, 52001));
    zs_ending_at_once (e, 75);
    assert_true (zs_ending_waited_out (e, 1));
    assert_int_equal (zs_ending_code (e), 75);
    zs_ending_destroy (&e);
    assert_null (e);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_checkpoint),
        cmocka_unit_test (test_ending),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
