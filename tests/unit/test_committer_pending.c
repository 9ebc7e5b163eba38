/*  test_committer_pending.c - the committer's sorted map of checkpoint id ->
    committables: order, headMap(N, inclusive), end input held back, and the
    CommitterState round trip (through the codec's own validation).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "codec.h"
#include "pending.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Add a committable of writer w for id with nfiles files named after them.
static void
s_add (zs_pending_t *p, int64_t id, int w, int nfiles, int64_t tag)
{
    Zsink__FileMeta metas[4];
    Zsink__FileMeta *ptrs[4];
    char paths[4][64];
    assert_true (nfiles <= 4);
    for (int i = 0; i < nfiles; i++) {
        zsink__file_meta__init (&metas[i]);
        snprintf (paths[i], sizeof paths[i], "bucket-0/data-w%d-c%lld-%d.parquet", w,
                  (long long) (id == ZS_END_INPUT_ID ? 0 : id), i);
        metas[i].path = paths[i];
        metas[i].rows = 10 + i;
        metas[i].size = 100 + i;
        metas[i].has_min_id = metas[i].has_max_id = true;
        metas[i].min_id = 1;
        metas[i].max_id = 10 + i;
        ptrs[i] = &metas[i];
    }
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = id;
    c.writer = w;
    c.n_files = (size_t) nfiles;
    c.files = ptrs;
    assert_int_equal (zs_pending_add (p, &c, tag), 0);
}

static void
s_expect_head (zs_pending_t *p, int64_t n, bool with_end, const int64_t *want, int nwant)
{
    int64_t *ids = NULL;
    int got = zs_pending_head (p, n, with_end, &ids);
    assert_int_equal (got, nwant);
    for (int i = 0; i < nwant; i++)
        assert_true (ids[i] == want[i]);
    free (ids);
}

static void
test_out_of_order_insert_heads_ascending (void **state)
{
    zs_pending_t *p = zs_pending_new ();
    s_add (p, 5, 0, 1, 0);
    s_add (p, 2, 1, 1, 0);
    s_add (p, ZS_END_INPUT_ID, 0, 2, 0);
    s_add (p, 9, 0, 1, 0);
    s_add (p, 3, 0, 0, 0);
    s_add (p, 2, 0, 2, 0);
    assert_int_equal (zs_pending_size (p), 5);
    assert_true (zs_pending_first (p) == 2);
    assert_int_equal (zs_pending_items (p, 2), 2);

    s_expect_head (p, 1, false, NULL, 0);
    s_expect_head (p, 2, false, (int64_t[]){2}, 1);
    s_expect_head (p, 5, false, (int64_t[]){2, 3, 5}, 3);
    s_expect_head (p, 8, false, (int64_t[]){2, 3, 5}, 3);
    //  Invariant: end input is held back until asked for, also at INT64_MAX.
    s_expect_head (p, INT64_MAX, false, (int64_t[]){2, 3, 5, 9}, 4);
    s_expect_head (p, INT64_MAX, true, (int64_t[]){2, 3, 5, 9, INT64_MAX}, 5);
    //  Every writer ended before checkpoint 5: 5 and below, then end input.
    s_expect_head (p, 5, true, (int64_t[]){2, 3, 5, INT64_MAX}, 4);

    zs_file_meta_t *files;
    size_t n;
    assert_int_equal (zs_pending_files (p, 2, &files, &n), 0);
    assert_int_equal (n, 3); //  writer 1's one file and writer 0's two
    free (files);
    assert_int_equal (zs_pending_files (p, 3, &files, &n), 0);
    assert_int_equal (n, 0);
    assert_null (files);
    assert_int_equal (zs_pending_files (p, 4, &files, &n), ZS_ENOENT);

    zs_pending_remove (p, 2);
    zs_pending_remove (p, 4); //  absent: no-op
    assert_false (zs_pending_has (p, 2));
    assert_true (zs_pending_first (p) == 3);
    s_expect_head (p, 5, false, (int64_t[]){3, 5}, 2);
    zs_pending_destroy (&p);
    assert_null (p);
    zs_pending_destroy (&p); //  NULL is fine
}

static void
test_touch_makes_empty_entry (void **state)
{
    zs_pending_t *p = zs_pending_new ();
    assert_int_equal (zs_pending_touch (p, 7), 0);
    assert_int_equal (zs_pending_touch (p, 7), 0);
    s_add (p, 7, 0, 1, 0);
    assert_int_equal (zs_pending_touch (p, 7), 0); //  keeps the items
    assert_int_equal (zs_pending_size (p), 1);
    assert_int_equal (zs_pending_items (p, 7), 1);
    zs_pending_clear (p);
    assert_int_equal (zs_pending_size (p), 0);
    assert_true (zs_pending_first (p) == -1);
    zs_pending_destroy (&p);
}

//  Pack the state into a CommitterAck envelope and decode it back through
//  the codec: what we ack must pass the coordinator's validation.
static zs_env_t *
s_through_codec (Zsink__CommitterState *st, int64_t n)
{
    zs_env_t env;
    zs_sender_t from = {
        .job_id = "job1", .epoch = 1, .role = ZSINK__ROLE__ROLE_COMMITTER, .index = -1};
    zs_env_init (&env, &from, 1);
    Zsink__CommitterAck ack;
    zsink__committer_ack__init (&ack);
    ack.checkpoint_id = n;
    ack.state = st;
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTER_ACK;
    env.committer_ack = &ack;
    size_t len = zsink__envelope__get_packed_size (&env);
    uint8_t *buf = malloc (len);
    assert_non_null (buf);
    zsink__envelope__pack (&env, buf);
    char err[ZS_ERRLEN] = "";
    zs_env_t *out = zs_env_decode (buf, len, err, sizeof err);
    free (buf);
    if (!out)
        fail_msg ("state does not decode: %s", err);
    return out;
}

static void
test_state_as_of_checkpoint (void **state)
{
    zs_pending_t *p = zs_pending_new ();
    s_add (p, 3, 0, 2, 0);
    s_add (p, 3, 1, 1, 0);
    s_add (p, 4, 1, 1, 0);
    assert_int_equal (zs_pending_touch (p, 2), 0);
    //  writer 0's last files came before its marker 3; writer 1's after
    //  its marker 4: only the first belongs to checkpoint 4's state.
    s_add (p, ZS_END_INPUT_ID, 0, 1, 2);
    s_add (p, ZS_END_INPUT_ID, 1, 1, 4);

    int ended[] = {0};
    Zsink__CommitterState *st = zs_pending_state (p, "user-a", 4, false, ended, 1);
    assert_non_null (st);
    assert_string_equal (st->commit_user, "user-a");
    assert_int_equal (st->n_pending, 4);
    assert_true (st->pending[0]->identifier == 2);
    assert_int_equal (st->pending[0]->n_committables, 0);
    assert_true (st->pending[1]->identifier == 3);
    assert_int_equal (st->pending[1]->n_committables, 2);
    assert_true (st->pending[2]->identifier == 4);
    assert_true (st->pending[3]->identifier == ZS_END_INPUT_ID);
    assert_int_equal (st->pending[3]->n_committables, 1);
    assert_int_equal (st->pending[3]->committables[0]->writer, 0);
    assert_int_equal (st->n_ended_writers, 1);

    //  Round trip: decode, load into a fresh map, same contents.
    zs_env_t *env = s_through_codec (st, 4);
    zs_pending_state_free (&st);
    assert_null (st);
    zs_pending_t *q = zs_pending_new ();
    assert_int_equal (zs_pending_load (q, env->committer_ack->state), 0);
    assert_int_equal (env->committer_ack->state->n_ended_writers, 1);
    assert_int_equal (env->committer_ack->state->ended_writers[0], 0);
    zs_env_free (&env);
    assert_int_equal (zs_pending_size (q), 4);
    zs_file_meta_t *files;
    size_t n;
    assert_int_equal (zs_pending_files (q, 3, &files, &n), 0);
    assert_int_equal (n, 3);
    assert_string_equal (files[0].path, "bucket-0/data-w0-c3-0.parquet");
    assert_true (files[1].rows == 11 && files[1].size == 101 && files[1].max_id == 11);
    free (files);
    assert_int_equal (zs_pending_files (q, ZS_END_INPUT_ID, &files, &n), 0);
    assert_int_equal (n, 1);
    free (files);
    assert_int_equal (zs_pending_files (q, 2, &files, &n), 0);
    assert_int_equal (n, 0);

    //  A state as of 3 leaves 4 (a later checkpoint) out.
    st = zs_pending_state (p, "user-a", 3, false, NULL, 0);
    assert_int_equal (st->n_pending, 3);
    assert_true (st->pending[2]->identifier == ZS_END_INPUT_ID);
    zs_pending_state_free (&st);
    zs_pending_state_free (&st); //  NULL is fine
    zs_pending_destroy (&q);
    zs_pending_destroy (&p);
}

static void
test_state_end_entry_even_when_empty (void **state)
{
    zs_pending_t *p = zs_pending_new ();
    assert_int_equal (zs_pending_touch (p, 6), 0);
    int ended[] = {0, 1};
    Zsink__CommitterState *st = zs_pending_state (p, "u", 6, true, ended, 2);
    assert_int_equal (st->n_pending, 2);
    assert_true (st->pending[1]->identifier == ZS_END_INPUT_ID);
    assert_int_equal (st->pending[1]->n_committables, 0);
    zs_env_t *env = s_through_codec (st, 6);
    zs_env_free (&env);
    zs_pending_state_free (&st);
    //  Without end_entry an end-input entry with no items of the state is
    //  left out.
    s_add (p, ZS_END_INPUT_ID, 0, 1, 6);
    st = zs_pending_state (p, "u", 6, false, NULL, 0);
    assert_int_equal (st->n_pending, 1);
    zs_pending_state_free (&st);
    zs_pending_destroy (&p);
}

static void
test_empty_state (void **state)
{
    zs_pending_t *p = zs_pending_new ();
    Zsink__CommitterState *st = zs_pending_state (p, "u", 1, false, NULL, 0);
    assert_non_null (st);
    assert_int_equal (st->n_pending, 0);
    zs_env_t *env = s_through_codec (st, 1);
    zs_env_free (&env);
    zs_pending_state_free (&st);
    zs_pending_destroy (&p);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_out_of_order_insert_heads_ascending),
        cmocka_unit_test (test_touch_makes_empty_entry),
        cmocka_unit_test (test_state_as_of_checkpoint),
        cmocka_unit_test (test_state_end_entry_even_when_empty),
        cmocka_unit_test (test_empty_state),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
