/*  test_coordinator_proto.c - the real zsink-coordinator process against
    fake participants: DEALERs that say Hello and Register as the committer
    and as two writers, and are then driven message by message through the
    contract of docs/protocol.md. No real writer or committer runs.

    Covered: registration -> Reset to the committer first, naming the
    writers' routing ids, and to the writers only once the committer is
    Ready; Start; Barrier(N) to every writer; acks in any order (the
    committer's first), a duplicate ack and an ack of an unknown checkpoint
    (neither counts); all acks -> chk-N durable -> Notify(N) to the
    committer; a message of a stale epoch, of another job, and from an
    unregistered routing id dropped and counted (STATUS: dropped.*), the
    stranger Refused; a Failure while FINISHING -> RESTARTING in a new
    epoch -> Reset to chk-N; Committed(INT64_MAX) -> FINISHED, Shutdown,
    exit 0 once everyone said Bye; bad arguments -> exit 2.

    "Nothing was sent" is checked without sleeping (s_sync): a Hello is
    answered with a Welcome on the same pipe, and a pipe keeps order, so
    whatever the coordinator sent that participant before it handled the
    Hello arrives before the Welcome.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "checkpoint.h"
#include "config.h"
#include "children.h"
#include "codec.h"
#include "log.h"
#include "net.h"
#include <czmq.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

//  A Kafka client property of every coordinator here: the Welcome must
//  carry it, after every key of the configuration (none cut off).
#define S_CLIENT_ID "zsink-test-client-with-a-long-name-to-go-past-sixty-four-bytes-of-key"

#define DEADLINE_MS 5000
#define NW 2        //  writers
#define NP (1 + NW) //  participants
#define CMT 0       //  the committer's peer
#define WRT(i) (1 + (i))

static char s_dir[] = "/tmp/zsink-test-coordinator-proto-XXXXXX";
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
    snprintf (s_bin, sizeof s_bin, "%s/../bin/zsink-coordinator", dirname (self));
    return access (s_bin, X_OK);
}

static int
s_group_teardown (void **state)
{
    char cmd[128];
    snprintf (cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system (cmd) == 0 ? 0 : -1;
}

//  ---- a coordinator and its fake participants ------------------------------

typedef struct {
    char job[64];
    char ctl[ZS_PATH_MAX];
    char job_dir[ZS_PATH_MAX]; //  <state.checkpoints.dir>/<job>
    char log[ZS_PATH_MAX];     //  the coordinator's stderr
    pid_t pid;
    int64_t epoch;        //  the job's, as the coordinator's envelopes carry it
    char commit_user[40]; //  from the first Reset
    zsock_t *peer[NP];    //  [CMT] the committer, [WRT(i)] writer i
    char rid[NP][64];
    char instance[NP][16];
    zs_sender_t from[NP];
    uint64_t seq[NP];
    zsock_t *client; //  zsink status
} s_job_t;

static Zsink__Role
s_role (int p)
{
    return p == CMT ? ZSINK__ROLE__ROLE_COMMITTER : ZSINK__ROLE__ROLE_WRITER;
}

//  Start the coordinator of a new job with parallelism NW; extra is one more
//  -D override (NULL: none).
static void
s_spawn (s_job_t *j, int64_t interval_ms, const char *extra)
{
    s_run++;
    snprintf (j->job, sizeof j->job, "job-coord-%d", s_run);
    snprintf (j->ctl, sizeof j->ctl, "ipc://%s/ctl-%d", s_dir, s_run);
    snprintf (j->job_dir, sizeof j->job_dir, "%s/chk/%s", s_dir, j->job);
    snprintf (j->log, sizeof j->log, "%s/coordinator-%d.log", s_dir, s_run);
    char table[ZS_PATH_MAX + 16], chk[ZS_PATH_MAX + 32], interval[64];
    snprintf (table, sizeof table, "table.path=%s/table", s_dir);
    snprintf (chk, sizeof chk, "state.checkpoints.dir=%s/chk", s_dir);
    snprintf (interval, sizeof interval, "execution.checkpointing.interval=%lldms",
              (long long) interval_ms);
    j->pid = test_child_fork ();
    assert_true (j->pid >= 0);
    if (j->pid == 0) {
        unsetenv ("ZSINK_FAILPOINTS");
        unsetenv ("ZSINK_JOB_ID");
        unsetenv ("ZSINK_COORDINATOR_BIND");
        int fd = open (j->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0)
            dup2 (fd, 2);
        //  no heartbeat timeouts while a test takes its time; a quick restart
        execl (s_bin, "zsink-coordinator", "-D", "parallelism=2", "-D", table, "-D", chk, "-D",
               interval, "-D", "heartbeat.timeout=60s", "-D",
               "restart-strategy.fixed-delay.delay=20ms", "-D",
               "source.kafka.properties.client.id=" S_CLIENT_ID, "-D",
               extra ? extra : "heartbeat.interval=500ms", "--bind", j->ctl, "--job-id", j->job,
               NULL);
        _exit (127);
    }
    char err[ZS_ERRLEN];
    for (int p = 0; p < NP; p++) {
        if (p == CMT)
            snprintf (j->rid[p], sizeof j->rid[p], "committer-t%04d", s_run);
        else
            snprintf (j->rid[p], sizeof j->rid[p], "writer-%d-t%04d", p - 1, s_run);
        snprintf (j->instance[p], sizeof j->instance[p], "t%04d-%d", s_run, p);
        j->peer[p] = zs_net_dealer (j->ctl, j->rid[p], err, sizeof err);
        assert_non_null (j->peer[p]);
        j->from[p].role = s_role (p);
        j->from[p].index = p == CMT ? -1 : p - 1;
        j->seq[p] = 0;
    }
    char id[64];
    snprintf (id, sizeof id, "client-%d-t%04d", (int) getpid (), s_run);
    j->client = zs_net_dealer (j->ctl, id, err, sizeof err);
    assert_non_null (j->client);
}

//  The coordinator's exit status within the deadline (it is killed after).
static int
s_wait_exit (s_job_t *j)
{
    int code = test_child_wait (j->pid, DEADLINE_MS);
    j->pid = 0;
    if (code < 0)
        fail_msg ("the coordinator did not exit within %d ms", DEADLINE_MS);
    return code;
}

//  SIGTERM (the job stays resumable: exit 0), and the sockets go.
static void
s_stop (s_job_t *j)
{
    if (j->pid > 0) {
        kill (j->pid, SIGTERM);
        assert_int_equal (s_wait_exit (j), 0);
    }
    for (int p = 0; p < NP; p++)
        zsock_destroy (&j->peer[p]);
    zsock_destroy (&j->client);
}

//  Send env on sock. IMMEDIATE: a DEALER takes a message only once its
//  connection is up; wait for that, with a deadline.
static void
s_send_on (zsock_t *sock, const zs_env_t *env)
{
    zmq_pollitem_t item = {zsock_resolve (sock), 0, ZMQ_POLLOUT, 0};
    int64_t deadline = zs_clock_mono_ms () + DEADLINE_MS;
    while (zs_env_send (sock, NULL, env) < 0) {
        assert_int_equal (errno, EAGAIN);
        if (zs_clock_mono_ms () >= deadline)
            fail_msg ("no connection to the coordinator within %d ms", DEADLINE_MS);
        zmq_poll (&item, 1, 10);
    }
}

//  Send env as participant p: its job, epoch and next sequence number.
static void
s_send (s_job_t *j, int p, zs_env_t *env)
{
    zs_env_stamp (env, &j->from[p], ++j->seq[p]);
    s_send_on (j->peer[p], env);
}

//  The next message on sock that is not a heartbeat, within the deadline.
static zs_env_t *
s_recv_on (zsock_t *sock)
{
    int64_t deadline = zs_clock_mono_ms () + DEADLINE_MS;
    while (zs_clock_mono_ms () < deadline) {
        zmq_pollitem_t item = {zsock_resolve (sock), 0, ZMQ_POLLIN, 0};
        zmq_poll (&item, 1, 50);
        char err[ZS_ERRLEN];
        zs_env_t *env = NULL;
        int rc = zs_env_recv (sock, NULL, 0, &env, err, sizeof err);
        if (rc < 0)
            fail_msg ("the coordinator sent garbage: %s", err);
        if (rc == 0)
            continue;
        if (env->body_case == ZSINK__ENVELOPE__BODY_HEARTBEAT) {
            zs_env_free (&env);
            continue;
        }
        return env;
    }
    fail_msg ("nothing from the coordinator within %d ms", DEADLINE_MS);
    return NULL;
}

//  The next message to participant p must be of this kind, stamped with
//  the job and the epoch the test expects (invariant 2 of coordinator.c).
static zs_env_t *
s_expect (s_job_t *j, int p, Zsink__Envelope__BodyCase kind)
{
    zs_env_t *env = s_recv_on (j->peer[p]);
    if (env->body_case != kind)
        fail_msg ("%s: expected body %d, got %s", j->rid[p], kind, zs_env_kind (env));
    assert_string_equal (env->job_id, j->job);
    assert_true (env->epoch == j->epoch);
    assert_int_equal (env->sender, ZSINK__ROLE__ROLE_COORDINATOR);
    return env;
}

static void
s_hello (s_job_t *j, int p)
{
    Zsink__Hello hello;
    zsink__hello__init (&hello);
    hello.role = s_role (p);
    hello.has_index = true;
    hello.index = j->from[p].index;
    hello.pid = getpid ();
    hello.instance = j->instance[p];
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_HELLO;
    env.hello = &hello;
    //  a first Hello knows no job and no epoch
    zs_sender_t anon = j->from[p];
    anon.job_id[0] = 0;
    anon.epoch = 0;
    zs_env_stamp (&env, &anon, 1);
    s_send_on (j->peer[p], &env);
}

//  Everything the coordinator sent p so far has arrived, and it was
//  nothing but heartbeats: the Welcome to a Hello comes next.
static void
s_sync (s_job_t *j, int p)
{
    s_hello (j, p);
    zs_env_t *welcome = s_expect (j, p, ZSINK__ENVELOPE__BODY_WELCOME);
    zs_env_free (&welcome);
}

static void
s_ignore_key (const char *key, const char *value, void *arg)
{
    (void) key, (void) value, (void) arg;
}

//  The Welcome's configuration, applied to defaults: every key there
//  (zs_config_foreach's count, plus the client property) and taken.
static void
s_check_welcome_config (const Zsink__Welcome *w)
{
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    int keys = zs_config_foreach (&cfg, s_ignore_key, NULL);
    assert_int_equal (w->n_config, keys + 1);
    char err[ZS_ERRLEN];
    for (size_t i = 0; i < w->n_config; i++)
        if (zs_config_set (&cfg, w->config[i]->key, w->config[i]->value, err, sizeof err) != 0)
            fail_msg ("Welcome config %s: %s", w->config[i]->key, err);
    size_t len;
    const char *v = zs_config_kafka_property (&cfg, "client.id", &len);
    assert_non_null (v);
    assert_int_equal (len, strlen (S_CLIENT_ID));
}

//  Hello -> Welcome (the job and its epoch) -> Register.
static void
s_join (s_job_t *j, int p)
{
    s_hello (j, p);
    zs_env_t *welcome = s_recv_on (j->peer[p]);
    assert_int_equal (welcome->body_case, ZSINK__ENVELOPE__BODY_WELCOME);
    assert_int_equal (welcome->welcome->parallelism, NW);
    s_check_welcome_config (welcome->welcome);
    assert_string_equal (welcome->job_id, j->job);
    j->epoch = welcome->epoch;
    zs_env_free (&welcome);
    //  (memcpy, not snprintf: gcc -O2 cannot tell the two fields of j apart)
    size_t len = strnlen (j->job, sizeof j->from[p].job_id - 1);
    memcpy (j->from[p].job_id, j->job, len);
    j->from[p].job_id[len] = '\0';
    j->from[p].epoch = j->epoch;
    Zsink__Register reg;
    zsink__register__init (&reg);
    reg.role = s_role (p);
    reg.has_index = true;
    reg.index = j->from[p].index;
    reg.pid = getpid ();
    reg.instance = j->instance[p];
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_REGISTER;
    env.register_ = &reg;
    s_send (j, p, &env);
}

//  A new epoch for every participant (after the coordinator's Reset).
static void
s_enter_epoch (s_job_t *j, int64_t epoch)
{
    j->epoch = epoch;
    for (int p = 0; p < NP; p++) {
        j->from[p].epoch = epoch;
        j->seq[p] = 0;
    }
}

static void
s_ready (s_job_t *j, int p, int64_t last_committed)
{
    Zsink__Ready ready;
    zsink__ready__init (&ready);
    if (p == CMT) {
        ready.has_last_committed = true;
        ready.last_committed = last_committed;
    }
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_READY;
    env.ready = &ready;
    s_send (j, p, &env);
}

//  The committer's Reset: restore id, commit user, the writers' routing
//  ids; then, and only then, the writers' (positions of chk-restore_id,
//  offsets[i] when restore_id > 0); everyone Ready; Start to all.
static void
s_restore (s_job_t *j, int64_t restore_id, const int64_t *offsets)
{
    zs_env_t *reset = s_expect (j, CMT, ZSINK__ENVELOPE__BODY_RESET);
    Zsink__Reset *r = reset->reset;
    assert_true (r->restore_id == restore_id);
    assert_non_null (r->state);
    assert_true (*r->commit_user && strlen (r->commit_user) < sizeof j->commit_user);
    assert_string_equal (r->state->commit_user, r->commit_user);
    if (restore_id == 0)
        snprintf (j->commit_user, sizeof j->commit_user, "%s", r->commit_user);
    assert_string_equal (r->commit_user, j->commit_user);
    assert_int_equal (r->n_writer_ids, NW);
    for (int i = 0; i < NW; i++)
        assert_string_equal (r->writer_ids[i], j->rid[WRT (i)]);
    zs_env_free (&reset);
    for (int i = 0; i < NW; i++)
        s_sync (j, WRT (i)); //  invariant 5: no writer Reset before Ready
    s_ready (j, CMT, -1);
    for (int i = 0; i < NW; i++) {
        reset = s_expect (j, WRT (i), ZSINK__ENVELOPE__BODY_RESET);
        r = reset->reset;
        assert_true (r->restore_id == restore_id);
        assert_string_equal (r->commit_user, j->commit_user);
        assert_int_equal (r->n_writer_ids, 0);
        assert_null (r->state);
        //  no position: a first start (each writer takes its own share), or
        //  the splits of chk-restore_id dealt out: writer i reads split i
        assert_null (r->position);
        if (restore_id == 0)
            assert_int_equal (r->n_splits, 0);
        else {
            assert_true (r->has_assigned && r->assigned);
            assert_int_equal (r->n_splits, 1);
            assert_int_equal (r->splits[0]->index, i);
            assert_true (r->splits[0]->offset == offsets[i]);
        }
        zs_env_free (&reset);
    }
    s_sync (j, CMT); //  no Start before the writers are Ready
    for (int i = 0; i < NW; i++)
        s_ready (j, WRT (i), -1);
    for (int p = 0; p < NP; p++) {
        zs_env_t *start = s_expect (j, p, ZSINK__ENVELOPE__BODY_START);
        zs_env_free (&start);
    }
}

//  A new job up to RUNNING: the writers register first, the committer last
//  (nothing is reset before every slot is registered), then restore from
//  nothing.
static void
s_start_job (s_job_t *j, int64_t interval_ms, const char *extra)
{
    s_spawn (j, interval_ms, extra);
    s_join (j, WRT (0));
    s_join (j, WRT (1));
    s_sync (j, WRT (0));
    s_join (j, CMT);
    s_restore (j, 0, NULL);
}

static void
s_expect_barrier (s_job_t *j, int64_t id)
{
    for (int i = 0; i < NW; i++) {
        zs_env_t *b = s_expect (j, WRT (i), ZSINK__ENVELOPE__BODY_BARRIER);
        assert_true (b->barrier->checkpoint_id == id);
        assert_false (b->barrier->savepoint);
        zs_env_free (&b);
    }
}

static void
s_expect_notify (s_job_t *j, int64_t id)
{
    zs_env_t *n = s_expect (j, CMT, ZSINK__ENVELOPE__BODY_NOTIFY);
    assert_true (n->notify->checkpoint_id == id);
    zs_env_free (&n);
}

//  WriterAck(id) as writer i, with its position: its one datagen split,
//  "datagen:i/NW" at offset.
static void
s_writer_ack (s_job_t *j, int i, int64_t id, int64_t offset, bool finished)
{
    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    pos.writer = i;
    pos.offset = offset;
    pos.has_finished = true;
    pos.finished = finished;
    char split_id[32];
    snprintf (split_id, sizeof split_id, "datagen:%d/%d", i, NW);
    Zsink__Split split, *splits[1] = {&split};
    zsink__split__init (&split);
    split.id = split_id;
    split.has_index = split.has_count = split.has_offset = split.has_finished = true;
    split.index = i;
    split.count = NW;
    split.offset = offset;
    split.finished = finished;
    pos.n_splits = 1;
    pos.splits = splits;
    Zsink__WriterAck ack;
    zsink__writer_ack__init (&ack);
    ack.checkpoint_id = id;
    ack.position = &pos;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_WRITER_ACK;
    env.writer_ack = &ack;
    s_send (j, WRT (i), &env);
}

//  CommitterAck(id) with an empty state of the job's commit user.
static void
s_committer_ack (s_job_t *j, int64_t id)
{
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = j->commit_user;
    Zsink__CommitterAck ack;
    zsink__committer_ack__init (&ack);
    ack.checkpoint_id = id;
    ack.state = &st;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTER_ACK;
    env.committer_ack = &ack;
    s_send (j, CMT, &env);
}

static void
s_finished (s_job_t *j, int i, int64_t offset)
{
    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    pos.writer = i;
    pos.offset = offset;
    pos.has_finished = true;
    pos.finished = true;
    Zsink__Finished fin;
    zsink__finished__init (&fin);
    fin.position = &pos;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_FINISHED;
    env.finished = &fin;
    s_send (j, WRT (i), &env);
}

static void
s_committed (s_job_t *j, int64_t identifier, int64_t snapshot)
{
    Zsink__Committed c;
    zsink__committed__init (&c);
    c.identifier = identifier;
    c.snapshot_id = snapshot;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTED;
    env.committed = &c;
    s_send (j, CMT, &env);
}

static void
s_failure (s_job_t *j, int p, const char *reason)
{
    Zsink__Failure f;
    zsink__failure__init (&f);
    f.reason = (char *) reason;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_FAILURE;
    env.failure = &f;
    s_send (j, p, &env);
}

static void
s_bye (s_job_t *j, int p)
{
    Zsink__Bye bye;
    zsink__bye__init (&bye);
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_BYE;
    env.bye = &bye;
    s_send (j, p, &env);
}

//  The STATUS document (zsink status), parsed.
static json_t *
s_status (s_job_t *j)
{
    Zsink__ClientRequest req;
    zsink__client_request__init (&req);
    req.kind = ZSINK__CLIENT_REQUEST__KIND__STATUS;
    zs_env_t env;
    zsink__envelope__init (&env);
    env.body_case = ZSINK__ENVELOPE__BODY_CLIENT_REQUEST;
    env.client_request = &req;
    zs_sender_t client = {"", 0, ZSINK__ROLE__ROLE_CLIENT, -1};
    zs_env_stamp (&env, &client, 1);
    s_send_on (j->client, &env);
    zs_env_t *reply = s_recv_on (j->client);
    assert_int_equal (reply->body_case, ZSINK__ENVELOPE__BODY_CLIENT_REPLY);
    assert_true (reply->client_reply->ok);
    json_error_t jerr;
    json_t *doc = json_loads (reply->client_reply->json, 0, &jerr);
    zs_env_free (&reply);
    assert_non_null (doc);
    return doc;
}

static int64_t
s_dropped (json_t *doc, const char *why)
{
    return json_integer_value (json_object_get (json_object_get (doc, "dropped"), why));
}

//  Wait until the coordinator has counted n drops of why (messages on
//  different pipes arrive in no particular order), then exactly n.
static void
s_wait_dropped (s_job_t *j, const char *why, int64_t n)
{
    int64_t deadline = zs_clock_mono_ms () + DEADLINE_MS, got = -1;
    while (zs_clock_mono_ms () < deadline) {
        json_t *doc = s_status (j);
        got = s_dropped (doc, why);
        json_decref (doc);
        if (got >= n)
            break;
    }
    if (got != n)
        fail_msg ("dropped.%s is %lld, expected %lld", why, (long long) got, (long long) n);
}

static void
s_assert_status (s_job_t *j, const char *state, int64_t completed, int64_t last)
{
    json_t *doc = s_status (j);
    assert_string_equal (json_string_value (json_object_get (doc, "state")), state);
    json_t *chk = json_object_get (doc, "checkpoints");
    assert_true (json_integer_value (json_object_get (chk, "completed")) == completed);
    assert_true (json_integer_value (json_object_get (doc, "last_completed_checkpoint")) == last);
    json_decref (doc);
}

//  chk-id is durable (it is, once its Notify is out) with these positions.
static void
s_assert_chk (s_job_t *j, int64_t id, const int64_t *offsets, bool finished)
{
    char path[2 * ZS_PATH_MAX], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/chk-%lld", j->job_dir, (long long) id);
    zs_chk_t chk;
    if (zs_chk_read (path, &chk, err, sizeof err) != 0)
        fail_msg ("%s", err);
    assert_true (chk.id == id);
    assert_string_equal (chk.job_id, j->job);
    assert_int_equal (chk.parallelism, NW);
    assert_string_equal (chk.state->commit_user, j->commit_user);
    assert_false (chk.legacy);
    assert_int_equal (chk.n_splits, NW);
    for (int i = 0; i < NW; i++) {
        assert_int_equal (chk.positions[i].writer, i);
        assert_true (chk.positions[i].offset == offsets[i]);
        assert_int_equal (chk.positions[i].finished, finished);
        assert_int_equal (chk.splits[i]->index, i); //  "datagen:0/2" < "datagen:1/2"
        assert_true (chk.splits[i]->offset == offsets[i]);
        assert_int_equal (chk.splits[i]->finished, finished);
    }
    zs_chk_clear (&chk);
}

static bool
s_logged (s_job_t *j, const char *line)
{
    FILE *f = fopen (j->log, "r");
    assert_non_null (f);
    char buf[1024];
    bool found = false;
    while (!found && fgets (buf, sizeof buf, f))
        found = strstr (buf, line) != NULL;
    fclose (f);
    return found;
}

//  ---- tests ----------------------------------------------------------------

//  Restore order, Start, barriers to every writer, and the acks of a
//  checkpoint in any order: a checkpoint completes with an ack from every
//  writer and the committer of its own id, no sooner (invariant 3).
static void
test_checkpoint_acks_in_any_order (void **state)
{
    s_job_t j = {0};
    s_start_job (&j, 50, NULL);
    s_expect_barrier (&j, 1);
    //  the committer first (it acks only after every writer's marker on
    //  the data pipe, so its ack may well overtake theirs)
    s_committer_ack (&j, 1);
    s_sync (&j, CMT);
    s_writer_ack (&j, 1, 1, 7, false);
    s_writer_ack (&j, 1, 1, 7, false);  //  duplicate
    s_writer_ack (&j, 0, 99, 5, false); //  no such checkpoint
    s_sync (&j, CMT);                   //  so: no Notify
    s_assert_status (&j, "RUNNING", 0, 0);
    s_writer_ack (&j, 0, 1, 5, false);
    s_expect_notify (&j, 1);
    int64_t one[NW] = {5, 7};
    s_assert_chk (&j, 1, one, false);
    s_assert_status (&j, "RUNNING", 1, 1);
    assert_true (s_logged (&j, "Completed checkpoint 1 for job"));

    //  Checkpoint 2: writer 0 first, the committer last; late acks of 1 do
    //  not count for 2.
    s_expect_barrier (&j, 2);
    s_writer_ack (&j, 0, 2, 9, false);
    s_writer_ack (&j, 1, 1, 7, false);
    s_committer_ack (&j, 1);
    s_sync (&j, CMT);
    s_writer_ack (&j, 1, 2, 11, false);
    s_sync (&j, CMT); //  every writer, but not the committer: no Notify
    s_committer_ack (&j, 2);
    s_expect_notify (&j, 2);
    int64_t two[NW] = {9, 11};
    s_assert_chk (&j, 2, two, false);
    s_assert_status (&j, "RUNNING", 2, 2);
    s_stop (&j);
}

//  Messages the coordinator must not believe: of a stale (or any other)
//  epoch, of another job, from a routing id that registered no slot. Each
//  is dropped and counted; the stranger is Refused; none is applied.
static void
test_stale_foreign_unregistered_dropped (void **state)
{
    s_job_t j = {0};
    s_start_job (&j, 50, NULL);
    s_expect_barrier (&j, 1);
    s_committer_ack (&j, 1);
    s_writer_ack (&j, 1, 1, 7, false);
    //  writer 0's own connection, of epoch 0 and of epoch 2
    j.from[WRT (0)].epoch = j.epoch - 1;
    s_writer_ack (&j, 0, 1, 5, false);
    j.from[WRT (0)].epoch = j.epoch + 1;
    s_writer_ack (&j, 0, 1, 5, false);
    //  of another job
    snprintf (j.from[WRT (0)].job_id, sizeof j.from[0].job_id, "other-job");
    j.from[WRT (0)].epoch = j.epoch;
    s_writer_ack (&j, 0, 1, 5, false);
    snprintf (j.from[WRT (0)].job_id, sizeof j.from[0].job_id, "%s", j.job);
    //  a stranger claiming to be writer 0, job and epoch right
    char err[ZS_ERRLEN], id[64];
    snprintf (id, sizeof id, "writer-0-evil%04d", s_run);
    zsock_t *evil = zs_net_dealer (j.ctl, id, err, sizeof err);
    assert_non_null (evil);
    zsock_t *own = j.peer[WRT (0)];
    j.peer[WRT (0)] = evil;
    s_writer_ack (&j, 0, 1, 5, false);
    j.peer[WRT (0)] = own;
    zs_env_t *refused = s_recv_on (evil);
    assert_int_equal (refused->body_case, ZSINK__ENVELOPE__BODY_REFUSED);
    assert_string_equal (refused->refused->reason, "unknown participant");
    zs_env_free (&refused);
    zsock_destroy (&evil);

    s_wait_dropped (&j, "stale", 2);
    s_wait_dropped (&j, "foreign", 1);
    s_wait_dropped (&j, "unregistered", 1);
    s_sync (&j, CMT); //  none of them acked for writer 0: no Notify
    s_assert_status (&j, "RUNNING", 0, 0);
    s_writer_ack (&j, 0, 1, 5, false);
    s_expect_notify (&j, 1);
    int64_t one[NW] = {5, 7};
    s_assert_chk (&j, 1, one, false);
    json_t *doc = s_status (&j);
    assert_true (s_dropped (doc, "stale") == 2 && s_dropped (doc, "foreign") == 1);
    assert_true (s_dropped (doc, "unregistered") == 1 && s_dropped (doc, "garbage") == 0);
    json_decref (doc);
    s_stop (&j);
}

//  End of input: every writer Finished -> FINISHING and a final checkpoint
//  at once. A Failure after it (the committer could not commit end of
//  input) fails the job over: RESTARTING, a new persisted epoch, Reset to
//  that checkpoint; the old epoch is stale from then on. The second time
//  through, Committed(INT64_MAX) ends the job: FINISHED, Shutdown to all,
//  exit 0 once everyone said Bye.
static void
test_failure_while_finishing_then_finished (void **state)
{
    s_job_t j = {0};
    //  no periodic checkpoint comes in a test's time: only the final ones
    s_start_job (&j, 60000, NULL);
    s_finished (&j, 0, 6);
    s_finished (&j, 1, 8);
    s_expect_barrier (&j, 1);
    s_assert_status (&j, "FINISHING", 0, 0);
    s_writer_ack (&j, 1, 1, 8, true);
    s_writer_ack (&j, 0, 1, 6, true);
    s_committer_ack (&j, 1);
    s_expect_notify (&j, 1);
    int64_t final[NW] = {6, 8};
    s_assert_chk (&j, 1, final, true);
    s_committed (&j, 1, 1);
    s_failure (&j, CMT, "cannot commit end of input");

    int64_t old_epoch = j.epoch;
    s_enter_epoch (&j, old_epoch + 1);
    s_restore (&j, 1, final);
    char line[256];
    snprintf (line, sizeof line,
              "Job %s switched from state FINISHING to RESTARTING: committer failed: cannot "
              "commit end of input",
              j.job);
    assert_true (s_logged (&j, line));
    zs_job_meta_t meta;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_job_meta_read (j.job_dir, &meta, err, sizeof err), 0);
    assert_true (meta.epoch == j.epoch);
    assert_true (meta.next_checkpoint_id == 1 + ZS_CHECKPOINT_ID_BLOCK); //  a block reserved
    //  the old epoch is stale now
    j.from[WRT (1)].epoch = old_epoch;
    s_writer_ack (&j, 1, 1, 8, true);
    j.from[WRT (1)].epoch = j.epoch;
    s_wait_dropped (&j, "stale", 1);

    s_finished (&j, 0, 6);
    s_finished (&j, 1, 8);
    s_expect_barrier (&j, 2);
    s_committer_ack (&j, 2);
    s_writer_ack (&j, 1, 2, 8, true);
    s_writer_ack (&j, 0, 2, 6, true);
    s_expect_notify (&j, 2);
    s_assert_chk (&j, 2, final, true);
    s_committed (&j, 2, 2);
    s_committed (&j, INT64_MAX, 3);
    for (int p = 0; p < NP; p++) {
        zs_env_t *sd = s_expect (&j, p, ZSINK__ENVELOPE__BODY_SHUTDOWN);
        zs_env_free (&sd);
        s_bye (&j, p);
    }
    assert_int_equal (s_wait_exit (&j), 0);
    snprintf (line, sizeof line, "Job %s switched from state FINISHING to FINISHED.", j.job);
    assert_true (s_logged (&j, line));
    assert_int_equal (zs_job_meta_read (j.job_dir, &meta, err, sizeof err), 0);
    assert_string_equal (meta.status, "FINISHED");
    s_stop (&j);
}

static void
test_bad_arguments (void **state)
{
    pid_t pid = test_child_fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        int fd = open ("/dev/null", O_WRONLY);
        dup2 (fd, 2);
        execl (s_bin, "zsink-coordinator", "--bogus", NULL);
        _exit (127);
    }
    assert_int_equal (test_child_wait (pid, DEADLINE_MS), 2);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown (test_checkpoint_acks_in_any_order, test_child_teardown),
        cmocka_unit_test_teardown (test_stale_foreign_unregistered_dropped, test_child_teardown),
        cmocka_unit_test_teardown (test_failure_while_finishing_then_finished, test_child_teardown),
        cmocka_unit_test_teardown (test_bad_arguments, test_child_teardown),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
