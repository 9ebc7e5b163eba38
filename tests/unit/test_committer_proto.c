/*  test_committer_proto.c - the real zsink-committer process against a fake
    coordinator (a ROUTER in this test) and fake writers (DEALERs): the
    message-level contract of docs/protocol.md.

    Covered: Hello/Welcome/Register, Reset -> Ready(last_committed, its snapshot), markers
    from every writer -> CommitterAck with the state, Notify -> Committed,
    filterCommitted on a Reset to an already committed checkpoint, a
    sequence gap -> Failure at once, a hostile committable -> Failure at
    once, a peer on an unregistered connection dropped whatever it claims,
    a file absent/resized/live/pending refused before the ack, stale epochs
    dropped, end of input
    with checkpointing off and on (end-input files a writer sent after its
    marker N stay out of checkpoint N), a second committer of the job exits
    3, Shutdown -> exit 0, bad arguments -> exit 2.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "children.h"
#include "codec.h"
#include "datafile.h"
#include "datafiles.h"
#include "log.h"
#include "net.h"
#include "table.h"
#include <czmq.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define JOB "job-proto"
#define DEADLINE_MS 5000

static char s_dir[] = "/tmp/zsink-test-committer-proto-XXXXXX";
static char s_bin[ZS_PATH_MAX];
static int s_run;

static int
s_group_setup (void **state)
{
    zs_log_set_level (ZS_LOG_WARN);
    char self[ZS_PATH_MAX] = "";
    ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || !mkdtemp (s_dir))
        return -1;
    self[n] = 0;
    snprintf (s_bin, sizeof s_bin, "%s/../bin/zsink-committer", dirname (self));
    return access (s_bin, X_OK);
}

static int
s_group_teardown (void **state)
{
    char cmd[128];
    snprintf (cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system (cmd) == 0 ? 0 : -1;
}

//  ---- a fake cluster -------------------------------------------------------

typedef struct {
    char table[ZS_PATH_MAX];
    char ctl[ZS_PATH_MAX];
    char data[ZS_PATH_MAX];
    zsock_t *coord;
    char committer_id[256];
    pid_t pid;
    zs_sender_t from; //  the coordinator's stamp
    uint64_t seq;
    zsock_t *writer[2];
    char writer_id[2][64]; //  the routing ids the Reset names
    zs_sender_t wfrom[2];
    uint64_t wseq[2];
} s_cluster_t;

static pid_t
s_spawn (s_cluster_t *c, const char *extra)
{
    pid_t pid = test_child_fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        unsetenv ("ZSINK_FAILPOINTS");
        if (extra)
            execl (s_bin, "zsink-committer", "--coordinator", c->ctl, "--bind", extra, NULL);
        else
            execl (s_bin, "zsink-committer", "--coordinator", c->ctl, "--bind", c->data, NULL);
        _exit (127);
    }
    return pid;
}

//  Next message to the coordinator that is not a heartbeat.
static zs_env_t *
s_recv (s_cluster_t *c, char *rid)
{
    int64_t deadline = zs_clock_mono_ms () + DEADLINE_MS;
    while (zs_clock_mono_ms () < deadline) {
        zmq_pollitem_t item = {zsock_resolve (c->coord), 0, ZMQ_POLLIN, 0};
        zmq_poll (&item, 1, 50);
        char id[256], err[ZS_ERRLEN];
        zs_env_t *env = NULL;
        int rc = zs_env_recv (c->coord, id, sizeof id, &env, err, sizeof err);
        if (rc < 0)
            fail_msg ("coordinator got garbage: %s", err);
        if (rc == 0)
            continue;
        if (env->body_case == ZSINK__ENVELOPE__BODY_HEARTBEAT) {
            zs_env_free (&env);
            continue;
        }
        if (rid)
            strcpy (rid, id);
        return env;
    }
    fail_msg ("nothing from the committer within %d ms", DEADLINE_MS);
    return NULL;
}

static zs_env_t *
s_expect (s_cluster_t *c, Zsink__Envelope__BodyCase kind)
{
    zs_env_t *env = s_recv (c, NULL);
    if (env->body_case != kind)
        fail_msg ("expected body %d, got %s%s%s", kind, zs_env_kind (env),
                  env->body_case == ZSINK__ENVELOPE__BODY_FAILURE ? ": " : "",
                  env->body_case == ZSINK__ENVELOPE__BODY_FAILURE ? env->failure->reason : "");
    return env;
}

static void
s_to_committer (s_cluster_t *c, zs_env_t *env)
{
    zs_env_stamp (env, &c->from, ++c->seq);
    assert_int_equal (zs_env_send (c->coord, c->committer_id, env), 0);
}

static void
s_welcome (s_cluster_t *c, int64_t interval_ms)
{
    zs_env_t *hello = s_recv (c, c->committer_id);
    assert_int_equal (hello->body_case, ZSINK__ENVELOPE__BODY_HELLO);
    assert_int_equal (hello->hello->role, ZSINK__ROLE__ROLE_COMMITTER);
    zs_env_free (&hello);
    char interval[32];
    snprintf (interval, sizeof interval, "%lldms", (long long) interval_ms);
    Zsink__KeyValue kv[3];
    Zsink__KeyValue *kvs[3] = {&kv[0], &kv[1], &kv[2]};
    const char *keys[] = {"table.path", "execution.checkpointing.interval", "heartbeat.timeout"};
    const char *values[] = {c->table, interval, "60s"};
    for (int i = 0; i < 3; i++) {
        zsink__key_value__init (&kv[i]);
        kv[i].key = (char *) keys[i];
        kv[i].value = (char *) values[i];
    }
    zs_env_t env;
    zsink__envelope__init (&env);
    Zsink__Welcome w;
    zsink__welcome__init (&w);
    w.parallelism = 2;
    w.n_config = 3;
    w.config = kvs;
    env.body_case = ZSINK__ENVELOPE__BODY_WELCOME;
    env.welcome = &w;
    s_to_committer (c, &env);
}

static void
s_start (s_cluster_t *c, int64_t interval_ms)
{
    snprintf (c->table, sizeof c->table, "%s/table-%d", s_dir, ++s_run);
    snprintf (c->ctl, sizeof c->ctl, "ipc://%s/ctl-%d", s_dir, s_run);
    snprintf (c->data, sizeof c->data, "ipc://%s/data-%d", s_dir, s_run);
    char err[ZS_ERRLEN];
    c->coord = zs_net_router (c->ctl, err, sizeof err);
    assert_non_null (c->coord);
    snprintf (c->from.job_id, sizeof c->from.job_id, JOB);
    c->from.epoch = 1;
    c->from.role = ZSINK__ROLE__ROLE_COORDINATOR;
    c->from.index = -1;
    c->pid = s_spawn (c, NULL);
    s_welcome (c, interval_ms);
    zs_env_t *reg = s_expect (c, ZSINK__ENVELOPE__BODY_REGISTER);
    zs_env_free (&reg);
    for (int i = 0; i < 2; i++) {
        snprintf (c->writer_id[i], sizeof c->writer_id[i], "writer-%d-test%04d", i, s_run);
        c->writer[i] = zs_net_dealer (c->data, c->writer_id[i], err, sizeof err);
        assert_non_null (c->writer[i]);
        snprintf (c->wfrom[i].job_id, sizeof c->wfrom[i].job_id, JOB);
        c->wfrom[i].role = ZSINK__ROLE__ROLE_WRITER;
        c->wfrom[i].index = i;
    }
}

//  Shutdown; last >= 0: the job ended CANCELED or FAILED at checkpoint last.
static int
s_stop_at (s_cluster_t *c, int64_t last)
{
    zs_env_t env;
    zsink__envelope__init (&env);
    Zsink__Shutdown sd;
    zsink__shutdown__init (&sd);
    sd.reason = "test over";
    sd.has_last_checkpoint = last >= 0;
    sd.last_checkpoint = last;
    env.body_case = ZSINK__ENVELOPE__BODY_SHUTDOWN;
    env.shutdown = &sd;
    s_to_committer (c, &env);
    int code = test_child_wait (c->pid, DEADLINE_MS);
    if (code < 0)
        fail_msg ("the committer did not exit within %d ms of its Shutdown", DEADLINE_MS);
    for (int i = 0; i < 2; i++)
        zsock_destroy (&c->writer[i]);
    zsock_destroy (&c->coord);
    return code;
}

static int
s_stop (s_cluster_t *c)
{
    return s_stop_at (c, -1);
}

static void
s_send_reset (s_cluster_t *c, int64_t epoch, int64_t restore_id, Zsink__CommitterState *state,
              size_t n_ids)
{
    c->from.epoch = epoch;
    for (int i = 0; i < 2; i++) {
        c->wfrom[i].epoch = epoch;
        c->wseq[i] = 0;
    }
    zs_env_t env;
    zsink__envelope__init (&env);
    Zsink__Reset r;
    zsink__reset__init (&r);
    r.restore_id = restore_id;
    r.commit_user = "user-proto";
    r.state = state;
    char *ids[2] = {c->writer_id[0], c->writer_id[1]};
    r.n_writer_ids = n_ids;
    r.writer_ids = ids;
    env.body_case = ZSINK__ENVELOPE__BODY_RESET;
    env.reset = &r;
    s_to_committer (c, &env);
}

static void
s_reset (s_cluster_t *c, int64_t epoch, int64_t restore_id, Zsink__CommitterState *state,
         int64_t expect_last)
{
    s_send_reset (c, epoch, restore_id, state, 2);
    zs_env_t *ready = s_expect (c, ZSINK__ENVELOPE__BODY_READY);
    assert_true (ready->ready->last_committed == expect_last);
    //  the snapshot of that commit, for the coordinator's history
    assert_true (ready->ready->has_last_snapshot == (expect_last > 0));
    if (expect_last > 0)
        assert_true (ready->ready->last_snapshot > 0);
    zs_env_free (&ready);
}

//  Writer i sends env on its data pipe (waits for the connection: IMMEDIATE).
static void
s_wsend (s_cluster_t *c, int i, zs_env_t *env, uint64_t seq)
{
    zs_env_stamp (env, &c->wfrom[i], seq);
    int64_t deadline = zs_clock_mono_ms () + DEADLINE_MS;
    while (zs_env_send (c->writer[i], NULL, env) < 0) {
        assert_true (zs_clock_mono_ms () < deadline);
        zclock_sleep (5);
    }
}

//  Committable(id, files) as writer i, on sock (NULL: writer i's own).
static void
s_committable_on (s_cluster_t *c, zsock_t *sock, int i, int64_t id, const zs_file_meta_t *f,
                  size_t n)
{
    Zsink__FileMeta fm[4];
    Zsink__FileMeta *fms[4];
    assert_true (n <= 4);
    Zsink__Committable cm;
    zsink__committable__init (&cm);
    cm.checkpoint_id = id;
    cm.writer = i;
    for (size_t k = 0; k < n; k++) {
        zsink__file_meta__init (&fm[k]);
        fm[k].path = (char *) f[k].path;
        fm[k].rows = f[k].rows;
        fm[k].size = f[k].size;
        fms[k] = &fm[k];
    }
    cm.n_files = n;
    cm.files = fms;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTABLE;
    env.committable = &cm;
    zsock_t *own = c->writer[i];
    if (sock)
        c->writer[i] = sock;
    s_wsend (c, i, &env, ++c->wseq[i]);
    c->writer[i] = own;
}

static void
s_committable (s_cluster_t *c, int i, int64_t id, const zs_file_meta_t *f)
{
    s_committable_on (c, NULL, i, id, f, f ? 1 : 0);
}

//  Wait until the committer's heartbeat reports at least n drops of why.
static void
s_wait_drops (s_cluster_t *c, zs_drop_t why, int64_t n)
{
    int64_t deadline = zs_clock_mono_ms () + DEADLINE_MS;
    while (zs_clock_mono_ms () < deadline) {
        zmq_pollitem_t item = {zsock_resolve (c->coord), 0, ZMQ_POLLIN, 0};
        zmq_poll (&item, 1, 50);
        char id[ZS_RID_MAX], err[ZS_ERRLEN];
        zs_env_t *env = NULL;
        if (zs_env_recv (c->coord, id, sizeof id, &env, err, sizeof err) <= 0)
            continue;
        if (env->body_case != ZSINK__ENVELOPE__BODY_HEARTBEAT)
            fail_msg ("expected a heartbeat, got %s", zs_env_kind (env));
        bool enough = env->heartbeat->n_dropped > (size_t) why && env->heartbeat->dropped[why] >= n;
        zs_env_free (&env);
        if (enough)
            return;
    }
    fail_msg ("the committer did not report %lld %s drops", (long long) n, zs_drop_name (why));
}

static void
s_marker (s_cluster_t *c, int i, int64_t id, int count)
{
    Zsink__BarrierMarker m;
    zsink__barrier_marker__init (&m);
    m.checkpoint_id = id;
    m.count = count;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_MARKER;
    env.marker = &m;
    s_wsend (c, i, &env, ++c->wseq[i]);
}

static void
s_end_of_input (s_cluster_t *c, int i, int count)
{
    Zsink__EndOfInput e;
    zsink__end_of_input__init (&e);
    e.count = count;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_END_OF_INPUT;
    env.end_of_input = &e;
    s_wsend (c, i, &env, ++c->wseq[i]);
}

static void
s_notify (s_cluster_t *c, int64_t id)
{
    Zsink__Notify n;
    zsink__notify__init (&n);
    n.checkpoint_id = id;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_NOTIFY;
    env.notify = &n;
    s_to_committer (c, &env);
}

static zs_file_meta_t
s_datafile (s_cluster_t *c, int writer, int64_t first, int rows)
{
    static int n;
    char rel[128];
    snprintf (rel, sizeof rel, "bucket-0/data-proto-w%d-%d.parquet", writer, ++n);
    return test_write_datafile (c->table, rel, first, rows);
}

//  ---- tests ----------------------------------------------------------------

static void
test_checkpoint_ack_notify_commit (void **state)
{
    s_cluster_t c = {0};
    s_start (&c, 1000);
    s_reset (&c, 1, 0, NULL, -1);
    zs_file_meta_t a = s_datafile (&c, 0, 1, 5);
    zs_file_meta_t b = s_datafile (&c, 1, 6, 3);

    //  Checkpoint 1: writer 0 has a file, writer 1 none.
    s_committable (&c, 0, 1, &a);
    s_marker (&c, 0, 1, 1);
    s_marker (&c, 1, 1, 0);
    zs_env_t *ack = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    assert_true (ack->committer_ack->checkpoint_id == 1);
    Zsink__CommitterState *st = ack->committer_ack->state;
    assert_string_equal (st->commit_user, "user-proto");
    assert_int_equal (st->n_pending, 1);
    assert_true (st->pending[0]->identifier == 1);
    assert_int_equal (st->pending[0]->n_committables, 1);
    assert_int_equal (st->n_ended_writers, 0);

    //  Checkpoint 2 gets writer 1's file; not acked before writer 0's marker.
    s_committable (&c, 1, 2, &b);
    s_marker (&c, 1, 2, 1);
    s_notify (&c, 1);
    zs_env_t *done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
    assert_true (done->committed->identifier == 1 && done->committed->snapshot_id == 1);
    assert_true (done->committed->total_rows == 5);
    zs_env_free (&done);
    s_marker (&c, 0, 2, 0);
    zs_env_t *ack2 = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    assert_true (ack2->committer_ack->checkpoint_id == 2);
    assert_int_equal (ack2->committer_ack->state->n_pending, 1); //  1 is committed
    zs_env_free (&ack2);

    //  Failover to checkpoint 1 (its state still lists 1): filtered, Ready
    //  says 1 is the last committed; data of epoch 1 is stale now.
    s_reset (&c, 2, 1, st, 1);
    zs_env_free (&ack);
    //  A stale writer message (epoch 1) must not count as the first of
    //  epoch 2: the next in-sequence message is still seq 1.
    c.wfrom[0].epoch = 1;
    s_marker (&c, 0, 9, 0);
    c.wfrom[0].epoch = 2;
    c.wseq[0] = 0;
    //  Checkpoint 3 in epoch 2, empty: an empty snapshot on Notify.
    s_marker (&c, 0, 3, 0);
    s_marker (&c, 1, 3, 0);
    zs_env_t *ack3 = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    assert_true (ack3->committer_ack->checkpoint_id == 3);
    zs_env_free (&ack3);
    s_notify (&c, 3);
    done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
    assert_true (done->committed->identifier == 3 && done->committed->snapshot_id == 2);
    zs_env_free (&done);

    //  A sequence gap is a Failure at once.
    c.wseq[1] += 3;
    s_marker (&c, 1, 4, 0);
    zs_env_t *fail = s_expect (&c, ZSINK__ENVELOPE__BODY_FAILURE);
    assert_non_null (
        strstr (fail->failure->reason, "sequence gap from writer 1: expected 2, got 5"));
    zs_env_free (&fail);
    assert_int_equal (s_stop (&c), 0);
}

//  Hostile committables: a file path outside the table (absolute, "..",
//  not under bucket-N/) or a symbolic link out of it is refused, counted,
//  and fails the job over at once; nothing of it is committed.
static void
test_hostile_committable (void **state)
{
    static const char *bad[] = {"/etc/passwd", "bucket-0/../../../etc/passwd", "schema/schema-0",
                                "bucket-0/link.parquet"};
    for (int k = 0; k < 4; k++) {
        s_cluster_t c = {0};
        s_start (&c, 1000);
        s_reset (&c, 1, 0, NULL, -1);
        zs_file_meta_t f = s_datafile (&c, 0, 1, 5);
        if (k == 3) {
            char link[ZS_PATH_MAX];
            snprintf (link, sizeof link, "%s/bucket-0/link.parquet", c.table);
            assert_int_equal (symlink ("/etc/passwd", link), 0);
        }
        snprintf (f.path, sizeof f.path, "%s", bad[k]);
        s_committable (&c, 0, 1, &f);
        s_marker (&c, 0, 1, 1);
        s_marker (&c, 1, 1, 0);
        //  refused on arrival, never acked
        zs_env_t *fail = s_expect (&c, ZSINK__ENVELOPE__BODY_FAILURE);
        assert_non_null (strstr (fail->failure->reason, "refused committable of writer 0"));
        assert_non_null (strstr (fail->failure->reason, "(1 refused so far)"));
        if (k == 3)
            assert_non_null (strstr (fail->failure->reason, "not a regular file"));
        zs_env_free (&fail);
        assert_int_equal (s_stop (&c), 0);
        char err[ZS_ERRLEN];
        zs_table_t *t = zs_table_open (c.table, NULL, err, sizeof err);
        zs_snapshot_t snap;
        if (t)
            assert_int_equal (zs_table_latest_snapshot (t, &snap, err, sizeof err), ZS_ENOENT);
        zs_table_destroy (&t);
    }
}

//  A peer on a connection the Reset did not name is no writer, whatever its
//  envelope says: its committables and markers are dropped and counted
//  (unregistered), never applied, and its sequence numbers cannot fake a
//  gap. A writer's own connection cannot speak for another writer either.
static void
test_unregistered_peer (void **state)
{
    s_cluster_t c = {0};
    s_start (&c, 1000);
    s_reset (&c, 1, 0, NULL, -1);
    zs_file_meta_t forged = s_datafile (&c, 0, 100, 5);
    zs_file_meta_t a = s_datafile (&c, 0, 1, 5);
    char err[ZS_ERRLEN], id[64];
    //  "writer-0-evil…": the prefix of writer 0 (the old check took it)
    snprintf (id, sizeof id, "writer-0-evil%04d", s_run);
    zsock_t *evil0 = zs_net_dealer (c.data, id, err, sizeof err);
    snprintf (id, sizeof id, "writer-1-evil%04d", s_run);
    zsock_t *evil1 = zs_net_dealer (c.data, id, err, sizeof err);
    assert_true (evil0 && evil1);
    //  the next sequence numbers of both writers, job and epoch right
    s_committable_on (&c, evil0, 0, 1, &forged, 1);
    zsock_t *own0 = c.writer[0], *own1 = c.writer[1];
    c.writer[0] = evil0;
    s_marker (&c, 0, 1, 1);
    c.writer[1] = evil1;
    s_marker (&c, 1, 1, 0);
    //  and writer 1's real connection claiming to be writer 0
    c.writer[0] = own1;
    s_marker (&c, 0, 1, 0);
    c.writer[0] = own0;
    c.writer[1] = own1;
    s_wait_drops (&c, ZS_DROP_UNREGISTERED, 4);
    //  None of that counted: the real writers still start at seq 1.
    c.wseq[0] = c.wseq[1] = 0;
    s_committable (&c, 0, 1, &a);
    s_marker (&c, 0, 1, 1);
    s_marker (&c, 1, 1, 0);
    zs_env_t *ack = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    Zsink__CommitterState *st = ack->committer_ack->state;
    assert_int_equal (st->n_pending, 1);
    assert_int_equal (st->pending[0]->n_committables, 1);
    assert_int_equal (st->pending[0]->committables[0]->n_files, 1);
    assert_string_equal (st->pending[0]->committables[0]->files[0]->path, a.path);
    zs_env_free (&ack);
    zsock_destroy (&evil0);
    zsock_destroy (&evil1);
    assert_int_equal (s_stop (&c), 0);
}

//  A committable the table would refuse is refused as it arrives, so it
//  fails checkpoint N (Failure, no ack) instead of sitting in a completed
//  checkpoint whose every restore would then fail: a file that is absent,
//  of another size, already live in the table, pending already, or listed
//  twice.
static void
test_bad_file_refused_before_ack (void **state)
{
    static const char *expect[] = {
        "data file to commit is missing", "has size",        "which is already added",
        "is in a committable already",    "is listed twice", "Reset names 1 writer connections"};
    for (int k = 0; k < 6; k++) {
        s_cluster_t c = {0};
        s_start (&c, 1000);
        if (k == 5) {
            s_send_reset (&c, 1, 0, NULL, 1);
        } else {
            s_reset (&c, 1, 0, NULL, -1);
            zs_file_meta_t a = s_datafile (&c, 0, 1, 5);
            zs_file_meta_t two[2] = {a, a};
            if (k == 2 || k == 3) {
                //  a is committed (2) or pending (3) under checkpoint 1
                s_committable (&c, 0, 1, &a);
                s_marker (&c, 0, 1, 1);
                s_marker (&c, 1, 1, 0);
                zs_env_t *ack = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
                zs_env_free (&ack);
                if (k == 2) {
                    s_notify (&c, 1);
                    zs_env_t *done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
                    zs_env_free (&done);
                }
            }
            if (k == 0)
                snprintf (two[0].path, sizeof two[0].path, "bucket-0/data-never-written.parquet");
            if (k == 1)
                two[0].size += 1;
            s_committable_on (&c, NULL, 0, 2, two, k == 4 ? 2 : 1);
            s_marker (&c, 0, 2, 1);
            s_marker (&c, 1, 2, 0);
        }
        zs_env_t *fail = s_expect (&c, ZSINK__ENVELOPE__BODY_FAILURE);
        if (!strstr (fail->failure->reason, expect[k]))
            fail_msg ("case %d: '%s' does not say '%s'", k, fail->failure->reason, expect[k]);
        zs_env_free (&fail);
        assert_int_equal (s_stop (&c), 0);
    }
}

static void
test_end_of_input_without_checkpoints (void **state)
{
    s_cluster_t c = {0};
    s_start (&c, 0);
    s_reset (&c, 1, 0, NULL, -1);
    zs_file_meta_t a = s_datafile (&c, 0, 1, 4);
    s_committable (&c, 0, INT64_MAX, &a);
    s_end_of_input (&c, 0, 1);
    s_end_of_input (&c, 0, 1); //  repeat: no-op
    s_end_of_input (&c, 1, 0);
    zs_env_t *done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
    assert_true (done->committed->identifier == INT64_MAX);
    assert_true (done->committed->total_rows == 4);
    zs_env_free (&done);
    assert_int_equal (s_stop (&c), 0);

    //  The table agrees: the commit user finished.
    char err[ZS_ERRLEN];
    zs_table_t *t = zs_table_open (c.table, NULL, err, sizeof err);
    assert_non_null (t);
    int64_t last = 0;
    assert_int_equal (zs_table_last_committed (t, "user-proto", &last, err, sizeof err), 0);
    assert_true (last == INT64_MAX);
    zs_table_destroy (&t);
}

//  With checkpointing on: end-input files count for checkpoint N only when
//  their writer sent them before its marker N, and end input is committed
//  only on the Notify of a checkpoint every writer had ended before.
static void
test_end_of_input_with_checkpoints (void **state)
{
    s_cluster_t c = {0};
    s_start (&c, 1000);
    s_reset (&c, 1, 0, NULL, -1);
    zs_file_meta_t a = s_datafile (&c, 0, 1, 2);
    zs_file_meta_t b = s_datafile (&c, 1, 3, 7);
    //  writer 0 ends before barrier 1, writer 1 right after it
    s_committable (&c, 0, INT64_MAX, &a);
    s_end_of_input (&c, 0, 1);
    s_marker (&c, 0, 1, 0);
    s_marker (&c, 1, 1, 0);
    s_committable (&c, 1, INT64_MAX, &b);
    s_end_of_input (&c, 1, 1);
    zs_env_t *ack = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    Zsink__CommitterState *st = ack->committer_ack->state;
    //  1 (empty) and writer 0's end-input file; writer 1 had not ended
    assert_int_equal (st->n_pending, 2);
    assert_true (st->pending[1]->identifier == INT64_MAX);
    assert_int_equal (st->pending[1]->n_committables, 1);
    assert_int_equal (st->pending[1]->committables[0]->writer, 0);
    assert_int_equal (st->n_ended_writers, 1);
    zs_env_free (&ack);
    s_notify (&c, 1);
    zs_env_t *done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
    assert_true (done->committed->identifier == 1 && done->committed->total_rows == 0);
    zs_env_free (&done);
    //  The last checkpoint: everyone ended before it; its Notify commits
    //  end input with both files.
    s_marker (&c, 0, 2, 0);
    s_marker (&c, 1, 2, 0);
    ack = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    st = ack->committer_ack->state;
    assert_int_equal (st->n_pending, 2);
    assert_int_equal (st->pending[1]->n_committables, 2);
    assert_int_equal (st->n_ended_writers, 2);
    zs_env_free (&ack);
    s_notify (&c, 2);
    done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
    assert_true (done->committed->identifier == 2);
    zs_env_free (&done);
    done = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTED);
    assert_true (done->committed->identifier == INT64_MAX && done->committed->total_rows == 9);
    zs_env_free (&done);
    assert_int_equal (s_stop (&c), 0);
}

static bool
s_exists (s_cluster_t *c, const zs_file_meta_t *f)
{
    char path[2 * ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/%s", c->table, f->path);
    return access (path, F_OK) == 0;
}

//  A job that ends CANCELED or FAILED at checkpoint R: the committer
//  deletes the files of its pending checkpoints after R (R = 0: none
//  completed), and with checkpointing off the end of input it never
//  committed (the writers leave those to it); a checkpoint <= R keeps its
//  files (a restore of R commits them), and so does a finished job.
static void
test_shutdown_deletes_after_last_checkpoint (void **state)
{
    //  checkpointing off: writer 0 ended, writer 1 failed before its end
    s_cluster_t c = {0};
    s_start (&c, 0);
    s_reset (&c, 1, 0, NULL, -1);
    zs_file_meta_t a = s_datafile (&c, 0, 1, 4);
    s_committable (&c, 0, INT64_MAX, &a);
    s_end_of_input (&c, 0, 1);
    //  (a savepoint's barrier: its ack says the committer holds the file)
    s_marker (&c, 0, 1, 0);
    s_marker (&c, 1, 1, 0);
    zs_env_t *ack = s_expect (&c, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    zs_env_free (&ack);
    assert_true (s_exists (&c, &a));
    assert_int_equal (s_stop_at (&c, 0), 0);
    assert_false (s_exists (&c, &a));

    //  checkpointing on: checkpoint 1 completed, 2 in flight at the end
    s_cluster_t d = {0};
    s_start (&d, 1000);
    s_reset (&d, 1, 0, NULL, -1);
    zs_file_meta_t x = s_datafile (&d, 0, 1, 2);
    zs_file_meta_t y = s_datafile (&d, 1, 3, 2);
    s_committable (&d, 0, 1, &x);
    s_marker (&d, 0, 1, 1);
    s_marker (&d, 1, 1, 0);
    ack = s_expect (&d, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    zs_env_free (&ack);
    s_committable (&d, 1, 2, &y);
    s_marker (&d, 1, 2, 1);
    s_marker (&d, 0, 2, 0);
    ack = s_expect (&d, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    zs_env_free (&ack);
    assert_int_equal (s_stop_at (&d, 1), 0);
    assert_true (s_exists (&d, &x));
    assert_false (s_exists (&d, &y));

    //  a finished job (no last checkpoint): nothing deleted
    s_cluster_t e = {0};
    s_start (&e, 1000);
    s_reset (&e, 1, 0, NULL, -1);
    zs_file_meta_t z = s_datafile (&e, 0, 1, 2);
    s_committable (&e, 0, 2, &z);
    s_marker (&e, 0, 2, 1);
    s_marker (&e, 1, 2, 0);
    ack = s_expect (&e, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    zs_env_free (&ack);
    assert_int_equal (s_stop (&e), 0);
    assert_true (s_exists (&e, &z));
}

static void
test_second_committer_refused (void **state)
{
    s_cluster_t c = {0};
    s_start (&c, 1000);
    //  A second process of the same job: Welcome, then exit 3 before Register.
    char data2[ZS_PATH_MAX];
    snprintf (data2, sizeof data2, "ipc://%s/data-second", s_dir);
    pid_t second = s_spawn (&c, data2);
    char first_id[256];
    strcpy (first_id, c.committer_id);
    s_welcome (&c, 1000);
    assert_int_equal (test_child_wait (second, DEADLINE_MS), 3);
    strcpy (c.committer_id, first_id);
    assert_int_equal (s_stop (&c), 0);
}

static void
test_bad_arguments (void **state)
{
    pid_t pid = test_child_fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        int fd = open ("/dev/null", O_WRONLY);
        dup2 (fd, 2);
        unsetenv ("ZSINK_COORDINATOR");
        execl (s_bin, "zsink-committer", "--bogus", NULL);
        _exit (127);
    }
    assert_int_equal (test_child_wait (pid, DEADLINE_MS), 2);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown (test_checkpoint_ack_notify_commit, test_child_teardown),
        cmocka_unit_test_teardown (test_hostile_committable, test_child_teardown),
        cmocka_unit_test_teardown (test_unregistered_peer, test_child_teardown),
        cmocka_unit_test_teardown (test_bad_file_refused_before_ack, test_child_teardown),
        cmocka_unit_test_teardown (test_end_of_input_without_checkpoints, test_child_teardown),
        cmocka_unit_test_teardown (test_end_of_input_with_checkpoints, test_child_teardown),
        cmocka_unit_test_teardown (test_shutdown_deletes_after_last_checkpoint,
                                   test_child_teardown),
        cmocka_unit_test_teardown (test_second_committer_refused, test_child_teardown),
        cmocka_unit_test_teardown (test_bad_arguments, test_child_teardown),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
