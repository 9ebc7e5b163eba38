/*  test_writer.c - the writer: data file names and the deletion rule on
    Reset, then the protocol end to end against an in-process fake
    coordinator and committer (inproc sockets, the writer in a thread):
    barrier → committable, marker, ack in order; end of input; fail-at-id
    and the Reset that follows; failpoints; a restored finished writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "codec.h"
#include "datafile.h"
#include "dataname.h"
#include "failpoint.h"
#include "net.h"
#include "writer.h"
#include <dirent.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  --------------------------------------------------------------------------
//  File names

//  A name as the writer makes it (job8 is a hash of the whole job id).
static const char *
s_name (const char *job, int index, int64_t k, int64_t e, int64_t n)
{
    static char names[8][200];
    static int next = 0;
    char *name = names[next++ % 8];
    assert_int_equal (zs_dataname_format (name, 200, job, index, k, e, n, "parquet"), 0);
    return name;
}

static void
test_name_roundtrip (void **state)
{
    const char *name = s_name ("0123abcd-5678", 3, 17, 2, 5);
    //  data-<8 hex digits>-w3-a17-e2-5.parquet
    assert_int_equal (strlen (name), strlen ("data-01234567-w3-a17-e2-5.parquet"));
    assert_true (strncmp (name, "data-", 5) == 0);
    assert_int_equal (strspn (name + 5, "0123456789abcdef"), 8);
    assert_string_equal (name + 13, "-w3-a17-e2-5.parquet");
    int64_t k, e, n;
    assert_int_equal (zs_dataname_parse (name, "0123abcd-5678", 3, &k, &e, &n), 1);
    assert_int_equal (k, 17);
    assert_int_equal (e, 2);
    assert_int_equal (n, 5);
    //  too small a buffer is refused, not truncated into another name
    char small[10];
    assert_int_equal (zs_dataname_format (small, sizeof small, "0123abcd", 3, 17, 2, 5, "parquet"),
                      -1);
}

//  Only this writer's files of this job match: the rule must never touch
//  other writers' or other jobs' files.
static void
test_name_parse_rejects_others (void **state)
{
    const char *job = "0123abcd-ffff";
    int64_t k, e, n;
    //  ours
    assert_int_equal (zs_dataname_parse (s_name (job, 1, 0, 1, 0), job, 1, &k, &e, &n), 1);
    //  other index, including one whose digits start with ours
    assert_int_equal (zs_dataname_parse (s_name (job, 2, 0, 1, 0), job, 1, &k, &e, &n), 0);
    assert_int_equal (zs_dataname_parse (s_name (job, 12, 0, 1, 0), job, 1, &k, &e, &n), 0);
    assert_int_equal (zs_dataname_parse (s_name (job, 1, 0, 1, 0), job, 12, &k, &e, &n), 0);
    //  other jobs, also ones sharing a long prefix with ours
    assert_int_equal (zs_dataname_parse (s_name ("0123abcd-fffe", 1, 0, 1, 0), job, 1, &k, &e, &n),
                      0);
    assert_int_equal (zs_dataname_parse (s_name ("0123abcd", 1, 0, 1, 0), job, 1, &k, &e, &n), 0);
    //  malformed: take our own valid name and break it
    char good[200], bad[200];
    snprintf (good, sizeof good, "%s", s_name (job, 1, 0, 1, 0));
    const char *tail = good + 13; //  after "data-<8 hex>"
    char head[16];
    snprintf (head, sizeof head, "%.13s", good);
    static const char *bad_tails[] = {
        "-w1-a-e1-0.parquet",      "-w1-a0-e1-0",          "-w1-a0-e1-0.",
        "-w1-a0-e1-0.parquet.tmp", "-w1-a0-e1.parquet",    "-w1-a0-e-1-0.parquet",
        "-w1-a+5-e1-0.parquet",    "-w1-a0-e1-0x.parquet", "-w1-a99999999999999999999-e1-0.parquet",
    };
    assert_string_equal (tail, "-w1-a0-e1-0.parquet");
    for (size_t i = 0; i < sizeof bad_tails / sizeof bad_tails[0]; i++) {
        snprintf (bad, sizeof bad, "%s%s", head, bad_tails[i]);
        assert_int_equal (zs_dataname_parse (bad, job, 1, &k, &e, &n), 0);
    }
    snprintf (bad, sizeof bad, "x%s", good);
    assert_int_equal (zs_dataname_parse (bad, job, 1, &k, &e, &n), 0);
    snprintf (bad, sizeof bad, "manifest-%s", good + 5);
    assert_int_equal (zs_dataname_parse (bad, job, 1, &k, &e, &n), 0);
    assert_int_equal (zs_dataname_parse ("", job, 1, &k, &e, &n), 0);
    assert_int_equal (zs_dataname_parse (".", job, 1, &k, &e, &n), 0);
    assert_int_equal (zs_dataname_parse ("..", job, 1, &k, &e, &n), 0);
    //  a short job id works too
    assert_int_equal (zs_dataname_parse (s_name ("ab", 0, 4, 1, 0), "ab", 0, &k, &e, &n), 1);
    assert_int_equal (k, 4);
}

static void
s_touch (const char *dir, const char *name)
{
    char path[1024];
    snprintf (path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen (path, "w");
    assert_non_null (f);
    fclose (f);
}

static bool
s_exists (const char *dir, const char *name)
{
    char path[1024];
    snprintf (path, sizeof path, "%s/%s", dir, name);
    return access (path, F_OK) == 0;
}

static void
test_clean_deletes_only_own_files_after_r (void **state)
{
    char dir[] = "/tmp/zsink-test-writer-XXXXXX";
    assert_non_null (mkdtemp (dir));
    const char *job = "jobjob01xyz";
    const char *keep_old = s_name (job, 0, 2, 1, 0);          //  K < R: committed or restored
    const char *del_eq = s_name (job, 0, 3, 1, 1);            //  K = R: after barrier R
    const char *del_gt = s_name (job, 0, 7, 2, 0);            //  K > R
    const char *other_w = s_name (job, 1, 5, 1, 0);           //  other writer
    const char *other_j = s_name ("jobjob01xyy", 0, 5, 1, 0); //  other job
    s_touch (dir, keep_old);
    s_touch (dir, del_eq);
    s_touch (dir, del_gt);
    s_touch (dir, other_w);
    s_touch (dir, other_j);
    s_touch (dir, "notes.txt");
    char err[512];
    assert_int_equal (zs_dataname_clean (dir, job, 0, 3, err, sizeof err), 2);
    assert_true (s_exists (dir, keep_old));
    assert_false (s_exists (dir, del_eq));
    assert_false (s_exists (dir, del_gt));
    assert_true (s_exists (dir, other_w));
    assert_true (s_exists (dir, other_j));
    assert_true (s_exists (dir, "notes.txt"));
    //  R = 0 (from scratch): every own file of this job goes
    assert_int_equal (zs_dataname_clean (dir, job, 0, 0, err, sizeof err), 1);
    assert_false (s_exists (dir, "data-jobjob01-w0-a2-e1-0.parquet"));
    //  a missing directory is nothing to delete
    assert_int_equal (zs_dataname_clean ("/nonexistent/zsink", job, 0, 0, err, sizeof err), 0);
    char cmd[1100];
    snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal (system (cmd), 0);
}

//  --------------------------------------------------------------------------
//  The writer against a fake coordinator and committer

#define JOB "testjob0abc"

typedef struct {
    char dir[64]; //  scratch; the table is dir/table
    char table[128];
    char coord_ep[64];
    char commit_ep[64];
    zsock_t *coord;
    zsock_t *commit;
    char writer_id[64]; //  routing id of the writer
    int64_t epoch;
    pthread_t thread;
    char *argv[8];
    int rc;
} s_rig_t;

static void *
s_writer_thread (void *arg)
{
    s_rig_t *rig = arg;
    rig->rc = zs_writer_main (7, rig->argv);
    return NULL;
}

//  Receive one envelope within 5 s (asserts on timeout).
static zs_env_t *
s_recv (zsock_t *sock, char *routing_id)
{
    char rid[64];
    int64_t deadline = zs_clock_mono_ms () + 5000;
    while (zs_clock_mono_ms () < deadline) {
        zmq_pollitem_t item = {zsock_resolve (sock), 0, ZMQ_POLLIN, 0};
        zmq_poll (&item, 1, 50);
        zs_env_t *env = NULL;
        char err[512];
        int rc = zs_env_recv (sock, rid, sizeof rid, &env, err, sizeof err);
        if (rc == 1) {
            if (routing_id)
                strcpy (routing_id, rid);
            return env;
        }
    }
    fail_msg ("no message within 5 s");
    return NULL;
}

//  Next message from the writer on the control pipe that is not a
//  heartbeat or hello.
static zs_env_t *
s_recv_control (s_rig_t *rig)
{
    while (1) {
        zs_env_t *env = s_recv (rig->coord, rig->writer_id);
        if (env->body_case != ZSINK__ENVELOPE__BODY_HEARTBEAT
            && env->body_case != ZSINK__ENVELOPE__BODY_HELLO)
            return env;
        zs_env_free (&env);
    }
}

//  Wait (deadline 5 s) for a heartbeat that shows rows read.
static void
s_wait_rows (s_rig_t *rig)
{
    while (1) {
        zs_env_t *env = s_recv (rig->coord, rig->writer_id);
        assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_HEARTBEAT);
        bool rows = env->heartbeat->rows_read > 0;
        zs_env_free (&env);
        if (rows)
            return;
    }
}

static zs_env_t *
s_recv_data (s_rig_t *rig)
{
    char rid[64];
    zs_env_t *env = s_recv (rig->commit, rid);
    //  same routing id on both pipes
    assert_string_equal (rid, rig->writer_id);
    return env;
}

static void
s_send (s_rig_t *rig, zs_env_t *env)
{
    zs_sender_t from = {.epoch = rig->epoch, .role = ZSINK__ROLE__ROLE_COORDINATOR, .index = -1};
    snprintf (from.job_id, sizeof from.job_id, "%s", JOB);
    zs_env_stamp (env, &from, 1);
    assert_int_equal (zs_env_send (rig->coord, rig->writer_id, env), 0);
}

static void s_welcome (s_rig_t *rig, const char **config);

//  Start a writer thread against the fake roles; with late_committer the
//  committer's socket is bound only by s_bind_committer. config NULL: no
//  Welcome yet (the test sends its own).
static void
s_rig_start_ex (s_rig_t *rig, const char **config, bool late_committer)
{
    static int counter;
    memset (rig, 0, sizeof *rig);
    snprintf (rig->dir, sizeof rig->dir, "/tmp/zsink-test-writer-XXXXXX");
    assert_non_null (mkdtemp (rig->dir));
    snprintf (rig->table, sizeof rig->table, "%s/table", rig->dir);
    counter++;
    snprintf (rig->coord_ep, sizeof rig->coord_ep, "inproc://coord-%d", counter);
    snprintf (rig->commit_ep, sizeof rig->commit_ep, "inproc://commit-%d", counter);
    char err[512];
    rig->coord = zs_net_router (rig->coord_ep, err, sizeof err);
    assert_non_null (rig->coord);
    if (!late_committer) {
        rig->commit = zs_net_router (rig->commit_ep, err, sizeof err);
        assert_non_null (rig->commit);
    } else {
        //  inproc queues to an endpoint not bound yet; tcp with IMMEDIATE
        //  does not, which is the case to test. Borrow a free port from
        //  the kernel: libzmq's own '*' asks it for one, while czmq's
        //  zsock_bind takes the first free from 49152 up, the same port
        //  for every process probing at once (tests run in parallel).
        zsock_t *probe = zsock_new (ZMQ_ROUTER);
        assert_int_equal (zmq_bind (zsock_resolve (probe), "tcp://127.0.0.1:*"), 0);
        char *ep = zsock_last_endpoint (probe);
        assert_non_null (ep);
        snprintf (rig->commit_ep, sizeof rig->commit_ep, "%s", ep);
        zstr_free (&ep);
        zsock_destroy (&probe);
    }
    rig->argv[0] = "zsink-writer";
    rig->argv[1] = "--coordinator";
    rig->argv[2] = rig->coord_ep;
    rig->argv[3] = "--committer";
    rig->argv[4] = rig->commit_ep;
    rig->argv[5] = "--index";
    rig->argv[6] = "0";
    rig->epoch = 1;
    assert_int_equal (pthread_create (&rig->thread, NULL, s_writer_thread, rig), 0);

    //  Hello → Welcome(config) → Register
    zs_env_t *env = s_recv (rig->coord, rig->writer_id);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_HELLO);
    assert_int_equal (env->hello->index, 0);
    assert_true (strncmp (rig->writer_id, "writer-0-", 9) == 0);
    zs_env_free (&env);
    if (config)
        s_welcome (rig, config);
}

static void
s_rig_start (s_rig_t *rig, const char **config)
{
    s_rig_start_ex (rig, config, false);
}

static void
s_bind_committer (s_rig_t *rig)
{
    char err[512];
    rig->commit = zs_net_router (rig->commit_ep, err, sizeof err);
    assert_non_null (rig->commit);
}

//  Welcome(config), table.path first
static void
s_send_welcome (s_rig_t *rig, const char **config)
{
    Zsink__KeyValue kvs[16], *kvp[16];
    size_t n = 0;
    zsink__key_value__init (&kvs[n]);
    kvs[n].key = "table.path";
    kvs[n].value = rig->table;
    kvp[n] = &kvs[n];
    n++;
    for (size_t i = 0; config[i]; i += 2, n++) {
        zsink__key_value__init (&kvs[n]);
        kvs[n].key = (char *) config[i];
        kvs[n].value = (char *) config[i + 1];
        kvp[n] = &kvs[n];
    }
    Zsink__Welcome w;
    zsink__welcome__init (&w);
    w.parallelism = 1;
    w.n_config = n;
    w.config = kvp;
    zs_env_t out;
    zsink__envelope__init (&out);
    out.body_case = ZSINK__ENVELOPE__BODY_WELCOME;
    out.welcome = &w;
    s_send (rig, &out);
}

//  Welcome(config) → Register
static void
s_welcome (s_rig_t *rig, const char **config)
{
    s_send_welcome (rig, config);
    zs_env_t *env = s_recv_control (rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_REGISTER);
    zs_env_free (&env);
}

//  A Welcome whose configuration does not parse (a coordinator of another
//  version): the writer says so and exits 2, registering nothing; no
//  restart of it could help.
static void
test_welcome_config_refused (void **state)
{
    (void) state;
    s_rig_t rig;
    s_rig_start_ex (&rig, NULL, false);
    const char *config[] = {"target-file-size", "lots", NULL};
    s_send_welcome (&rig, config);
    pthread_join (rig.thread, NULL);
    assert_int_equal (rig.rc, 2);
    zsock_destroy (&rig.coord);
    zsock_destroy (&rig.commit);
    char cmd[200];
    snprintf (cmd, sizeof cmd, "rm -rf %s", rig.dir);
    assert_int_equal (system (cmd), 0);
}

static void
s_rig_stop (s_rig_t *rig)
{
    Zsink__Shutdown sd;
    zsink__shutdown__init (&sd);
    sd.reason = "test over";
    zs_env_t out;
    zsink__envelope__init (&out);
    out.body_case = ZSINK__ENVELOPE__BODY_SHUTDOWN;
    out.shutdown = &sd;
    s_send (rig, &out);
    zs_env_t *env = s_recv_control (rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_BYE);
    zs_env_free (&env);
    pthread_join (rig->thread, NULL);
    assert_int_equal (rig->rc, 0);
    zsock_destroy (&rig->coord);
    zsock_destroy (&rig->commit);
    char cmd[200];
    snprintf (cmd, sizeof cmd, "rm -rf %s", rig->dir);
    assert_int_equal (system (cmd), 0);
}

//  Reset(restore_id, position) → Ready.
static void
s_reset (s_rig_t *rig, int64_t restore_id, int64_t offset, bool finished, bool with_pos, bool armed)
{
    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    pos.writer = 0;
    pos.offset = offset;
    pos.has_finished = true;
    pos.finished = finished;
    Zsink__Reset r;
    zsink__reset__init (&r);
    r.restore_id = restore_id;
    r.commit_user = "user";
    r.position = with_pos ? &pos : NULL;
    r.has_fail_at_id_armed = true;
    r.fail_at_id_armed = armed;
    zs_env_t out;
    zsink__envelope__init (&out);
    out.body_case = ZSINK__ENVELOPE__BODY_RESET;
    out.reset = &r;
    s_send (rig, &out);
    zs_env_t *env = s_recv_control (rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_READY);
    assert_int_equal (env->epoch, rig->epoch);
    zs_env_free (&env);
}

static void
s_start (s_rig_t *rig)
{
    Zsink__Start st;
    zsink__start__init (&st);
    zs_env_t out;
    zsink__envelope__init (&out);
    out.body_case = ZSINK__ENVELOPE__BODY_START;
    out.start = &st;
    s_send (rig, &out);
}

static void
s_barrier (s_rig_t *rig, int64_t id)
{
    Zsink__Barrier b;
    zsink__barrier__init (&b);
    b.checkpoint_id = id;
    zs_env_t out;
    zsink__envelope__init (&out);
    out.body_case = ZSINK__ENVELOPE__BODY_BARRIER;
    out.barrier = &b;
    s_send (rig, &out);
}

//  Read a data file and count its rows into seen[id].
static int64_t
s_read_file (s_rig_t *rig, const char *rel, char *seen, int64_t max_id)
{
    char path[512], err[512];
    snprintf (path, sizeof path, "%s/%s", rig->table, rel);
    zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
    assert_non_null (r);
    zs_value_t row[ZS_MAX_COLUMNS];
    int64_t rows = 0;
    int rc;
    while ((rc = zs_parquet_reader_next (r, row, err, sizeof err)) == 1) {
        int64_t id = row[0].v.i64;
        assert_true (id >= 1 && id <= max_id);
        seen[id]++;
        rows++;
    }
    assert_int_equal (rc, 0);
    zs_parquet_reader_destroy (&r);
    return rows;
}

//  Data pipe messages until (and including) a marker or end-of-input;
//  checks the sequence numbers and returns rows in the files.
typedef struct {
    uint64_t seq;
    int committables;
    int64_t rows;
    int64_t files;
} s_pipe_t;

static zs_env_t *
s_next_data (s_rig_t *rig, s_pipe_t *pipe, char *seen, int64_t max_id)
{
    while (1) {
        zs_env_t *env = s_recv_data (rig);
        assert_int_equal (env->seq, ++pipe->seq);
        assert_int_equal (env->epoch, rig->epoch);
        assert_int_equal (env->sender, ZSINK__ROLE__ROLE_WRITER);
        if (env->body_case != ZSINK__ENVELOPE__BODY_COMMITTABLE)
            return env;
        Zsink__Committable *c = env->committable;
        assert_int_equal (c->writer, 0);
        pipe->committables++;
        for (size_t i = 0; i < c->n_files; i++) {
            char prefix[64];
            snprintf (prefix, sizeof prefix, "bucket-0/%.13s-w0-a", s_name (JOB, 0, 0, 0, 0));
            assert_true (strncmp (c->files[i]->path, prefix, strlen (prefix)) == 0);
            int64_t rows = s_read_file (rig, c->files[i]->path, seen, max_id);
            assert_int_equal (rows, c->files[i]->rows);
            pipe->rows += rows;
            pipe->files++;
        }
        zs_env_free (&env);
    }
}

//  Barrier → Committable, Marker on the data pipe in order, WriterAck with a
//  position equal to the rows handed over; end of input → INT64_MAX
//  committable, EndOfInput, Finished; every id exactly once; a finished
//  writer answers later barriers with no files.
static void
test_checkpoint_and_end_of_input (void **state)
{
    s_rig_t rig;
    const int64_t total = 30000;
    //  20000 rows/s: the source runs ~1.5 s, so barrier 1 lands mid-way
    const char *config[] = {"datagen.number-of-rows",
                            "30000",
                            "datagen.rows-per-second",
                            "20000",
                            "target-file-size",
                            "65536",
                            "heartbeat.interval",
                            "50ms",
                            NULL};
    s_rig_start (&rig, config);
    s_reset (&rig, 0, 0, false, false, true);
    s_start (&rig);
    s_wait_rows (&rig);
    s_barrier (&rig, 1);
    char *seen = calloc (total + 1, 1);
    s_pipe_t pipe = {0};
    zs_env_t *env = s_next_data (&rig, &pipe, seen, total);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_MARKER);
    assert_int_equal (env->marker->checkpoint_id, 1);
    assert_int_equal (env->marker->count, pipe.committables);
    assert_int_equal (pipe.committables, 1);
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_WRITER_ACK);
    assert_int_equal (env->writer_ack->checkpoint_id, 1);
    assert_int_equal (env->writer_ack->position->offset, pipe.rows);
    assert_false (env->writer_ack->position->finished);
    assert_true (pipe.rows > 0 && pipe.rows < total);
    zs_env_free (&env);
    env = s_next_data (&rig, &pipe, seen, total);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_END_OF_INPUT);
    assert_int_equal (env->end_of_input->count, 1);
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FINISHED);
    assert_int_equal (env->finished->position->offset, total);
    assert_true (env->finished->position->finished);
    zs_env_free (&env);
    assert_int_equal (pipe.rows, total);
    for (int64_t id = 1; id <= total; id++)
        assert_int_equal (seen[id], 1);
    assert_true (pipe.files >= 2); //  65 KiB files: rolled

    //  a finished writer: Marker(N, 0) and WriterAck(N, finished)
    s_barrier (&rig, 2);
    env = s_next_data (&rig, &pipe, seen, total);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_MARKER);
    assert_int_equal (env->marker->checkpoint_id, 2);
    assert_int_equal (env->marker->count, 0);
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_WRITER_ACK);
    assert_int_equal (env->writer_ack->checkpoint_id, 2);
    assert_true (env->writer_ack->position->finished);
    assert_int_equal (env->writer_ack->position->offset, total);
    zs_env_free (&env);
    free (seen);
    s_rig_stop (&rig);
}

//  fail-at-id: Failure(fail_at_id) without writing the row; Reset to 0
//  with the failure disarmed deletes the uncommitted files, and the replay
//  writes every row, including the failing one, exactly once.
static void
test_fail_at_id_then_reset (void **state)
{
    s_rig_t rig;
    const int64_t total = 5000;
    const char *config[] = {"datagen.number-of-rows",
                            "5000",
                            "datagen.rows-per-second",
                            "0",
                            "datagen.fail-at-id",
                            "4000",
                            NULL};
    s_rig_start (&rig, config);
    s_reset (&rig, 0, 0, false, false, true);
    s_start (&rig);
    zs_env_t *env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FAILURE);
    assert_true (env->failure->fail_at_id);
    assert_string_equal (env->failure->reason, "datagen.fail-at-id: row 4000 failed");
    zs_env_free (&env);

    rig.epoch = 2;
    s_reset (&rig, 0, 0, false, false, false);
    //  nothing of the failed attempt is left in the bucket
    char bucket[256];
    snprintf (bucket, sizeof bucket, "%s/bucket-0", rig.table);
    DIR *d = opendir (bucket);
    assert_non_null (d);
    struct dirent *de;
    while ((de = readdir (d)) != NULL)
        assert_true (de->d_name[0] == '.');
    closedir (d);
    s_start (&rig);
    char *seen = calloc (total + 1, 1);
    s_pipe_t pipe = {0};
    env = s_next_data (&rig, &pipe, seen, total);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_END_OF_INPUT);
    assert_int_equal (env->end_of_input->count, 1);
    assert_int_equal (pipe.seq, 2); //  restarted at 1 in the new epoch
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FINISHED);
    zs_env_free (&env);
    for (int64_t id = 1; id <= total; id++)
        assert_int_equal (seen[id], 1);
    free (seen);
    s_rig_stop (&rig);
}

//  Restored to a finished position: EndOfInput(0) and Finished again.
static void
test_restored_finished (void **state)
{
    s_rig_t rig;
    const char *config[] = {"datagen.number-of-rows", "100", NULL};
    s_rig_start (&rig, config);
    s_reset (&rig, 4, 100, true, true, true);
    s_start (&rig);
    s_pipe_t pipe = {0};
    zs_env_t *env = s_next_data (&rig, &pipe, NULL, 0);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_END_OF_INPUT);
    assert_int_equal (env->end_of_input->count, 0);
    assert_int_equal (pipe.committables, 0);
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FINISHED);
    assert_int_equal (env->finished->position->offset, 100);
    zs_env_free (&env);
    s_rig_stop (&rig);
}

//  A restore to checkpoint R keeps files named K < R and deletes K >= R,
//  and resumes ids at the position.
static void
test_restore_position (void **state)
{
    s_rig_t rig;
    const char *config[] = {"datagen.number-of-rows", "1000", "datagen.rows-per-second", "0", NULL};
    s_rig_start (&rig, config);
    char bucket[256];
    snprintf (bucket, sizeof bucket, "%s/bucket-0", rig.table);
    const char *before = s_name (JOB, 0, 2, 1, 0), *after = s_name (JOB, 0, 3, 1, 1);
    s_touch (bucket, before);
    s_touch (bucket, after);
    s_reset (&rig, 3, 600, false, true, true);
    assert_true (s_exists (bucket, before));
    assert_false (s_exists (bucket, after));
    s_start (&rig);
    char *seen = calloc (1001, 1);
    s_pipe_t pipe = {0};
    zs_env_t *env = s_next_data (&rig, &pipe, seen, 1000);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_END_OF_INPUT);
    zs_env_free (&env);
    assert_int_equal (pipe.rows, 400);
    for (int64_t id = 1; id <= 1000; id++)
        assert_int_equal (seen[id], id > 600 ? 1 : 0);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FINISHED);
    assert_int_equal (env->finished->position->offset, 1000);
    zs_env_free (&env);
    free (seen);
    s_rig_stop (&rig);
}

//  Rescaled down: the one writer of a job restored from 3 writers gets the
//  three datagen splits at their offsets, reads exactly the ids after them
//  and acks every split's state; a split dealt twice is taken once.
static void
test_restore_splits (void **state)
{
    s_rig_t rig;
    const char *config[] = {"datagen.number-of-rows", "900", "datagen.rows-per-second", "0", NULL};
    s_rig_start (&rig, config);
    Zsink__Split sp[4], *splits[4];
    char ids[3][32];
    const int64_t offsets[3] = {100, 300, 0}; //  split i: ids i+1, i+4, …
    for (int i = 0; i < 4; i++) {
        int k = i % 3;
        snprintf (ids[k], sizeof ids[k], "datagen:%d/3", k);
        zsink__split__init (&sp[i]);
        sp[i].id = ids[k];
        sp[i].has_index = sp[i].has_count = sp[i].has_offset = sp[i].has_rows = true;
        sp[i].index = k;
        sp[i].count = 3;
        sp[i].offset = sp[i].rows = offsets[k];
        splits[i] = &sp[i];
    }
    Zsink__Reset r;
    zsink__reset__init (&r);
    r.restore_id = 5;
    r.commit_user = "user";
    r.has_assigned = r.assigned = true;
    r.n_splits = 4;
    r.splits = splits;
    zs_env_t out;
    zsink__envelope__init (&out);
    out.body_case = ZSINK__ENVELOPE__BODY_RESET;
    out.reset = &r;
    s_send (&rig, &out);
    zs_env_t *env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_READY);
    zs_env_free (&env);
    s_start (&rig);
    char *seen = calloc (901, 1);
    s_pipe_t pipe = {0};
    env = s_next_data (&rig, &pipe, seen, 900);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_END_OF_INPUT);
    zs_env_free (&env);
    assert_int_equal (pipe.rows, 900 - 400);
    for (int64_t id = 1; id <= 900; id++)
        assert_int_equal (seen[id], (id - 1) / 3 >= offsets[(id - 1) % 3] ? 1 : 0);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FINISHED);
    assert_int_equal (env->finished->position->offset, 900);
    assert_int_equal (env->finished->position->n_splits, 3);
    for (int k = 0; k < 3; k++) {
        assert_int_equal (env->finished->position->splits[k]->offset, 300);
        assert_true (env->finished->position->splits[k]->finished);
    }
    zs_env_free (&env);
    free (seen);
    s_rig_stop (&rig);
}

//  writer.after-committables=error: Committable sent, then Failure, no
//  marker and no ack.
static void
test_failpoint_error (void **state)
{
    setenv ("ZSINK_FAILPOINTS", "writer.after-committables=error", 1);
    s_rig_t rig;
    const char *config[] = {"datagen.rows-per-second", "1000", "heartbeat.interval", "50ms", NULL};
    s_rig_start (&rig, config);
    s_reset (&rig, 0, 0, false, false, true);
    s_start (&rig);
    s_wait_rows (&rig);
    s_barrier (&rig, 1);
    //  the committable went out before the failpoint fired
    zs_env_t *env = s_recv_data (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_COMMITTABLE);
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_FAILURE);
    assert_string_equal (env->failure->reason, "failpoint writer.after-committables");
    zs_env_free (&env);
    unsetenv ("ZSINK_FAILPOINTS");
    s_rig_stop (&rig);
    zs_failpoint_init ("", NULL, 0);
}

//  Backpressure: with the committer not there, the data messages wait in
//  the outbox and the ack waits behind them (invariants 2 and 3); once the
//  committer binds, Committable, Marker, then WriterAck arrive in order.
static void
test_ack_waits_behind_data (void **state)
{
    s_rig_t rig;
    const char *config[] = {"datagen.rows-per-second", "1000", "heartbeat.interval", "50ms", NULL};
    s_rig_start_ex (&rig, config, true);
    s_reset (&rig, 0, 0, false, false, true);
    s_start (&rig);
    s_wait_rows (&rig);
    s_barrier (&rig, 1);
    //  five heartbeats after the barrier and still no ack
    for (int hb = 0; hb < 5;) {
        zs_env_t *env = s_recv (rig.coord, rig.writer_id);
        assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_HEARTBEAT);
        hb++;
        zs_env_free (&env);
    }
    s_bind_committer (&rig);
    zs_env_t *env = s_recv_data (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_COMMITTABLE);
    assert_int_equal (env->seq, 1);
    int64_t rows = 0;
    for (size_t i = 0; i < env->committable->n_files; i++)
        rows += env->committable->files[i]->rows;
    zs_env_free (&env);
    env = s_recv_data (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_MARKER);
    assert_int_equal (env->seq, 2);
    zs_env_free (&env);
    env = s_recv_control (&rig);
    assert_int_equal (env->body_case, ZSINK__ENVELOPE__BODY_WRITER_ACK);
    assert_int_equal (env->writer_ack->position->offset, rows);
    zs_env_free (&env);
    s_rig_stop (&rig);
}

//  A silent coordinator: the writer drops its open file and says Hello
//  again; a second Welcome and Reset bring it back.
static void
test_lost_coordinator (void **state)
{
    s_rig_t rig;
    const char *config[] = {"datagen.rows-per-second",
                            "1000",
                            "heartbeat.interval",
                            "50ms",
                            "heartbeat.timeout",
                            "300ms",
                            NULL};
    s_rig_start (&rig, config);
    s_reset (&rig, 0, 0, false, false, true);
    s_start (&rig);
    s_wait_rows (&rig);
    char bucket[256];
    snprintf (bucket, sizeof bucket, "%s/bucket-0", rig.table);
    //  the fake coordinator sends no heartbeats: lost within 300 ms
    while (1) {
        zs_env_t *env = s_recv (rig.coord, rig.writer_id);
        bool hello = env->body_case == ZSINK__ENVELOPE__BODY_HELLO;
        zs_env_free (&env);
        if (hello)
            break;
    }
    DIR *d = opendir (bucket);
    assert_non_null (d);
    struct dirent *de;
    while ((de = readdir (d)) != NULL)
        assert_true (de->d_name[0] == '.');
    closedir (d);
    rig.epoch = 2;
    s_welcome (&rig, config);
    s_reset (&rig, 0, 0, false, false, true);
    s_rig_stop (&rig);
}

int
main (void)
{
    unsetenv ("ZSINK_FAILPOINTS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_name_roundtrip),
        cmocka_unit_test (test_name_parse_rejects_others),
        cmocka_unit_test (test_clean_deletes_only_own_files_after_r),
        cmocka_unit_test (test_checkpoint_and_end_of_input),
        cmocka_unit_test (test_fail_at_id_then_reset),
        cmocka_unit_test (test_restored_finished),
        cmocka_unit_test (test_restore_position),
        cmocka_unit_test (test_restore_splits),
        cmocka_unit_test (test_failpoint_error),
        cmocka_unit_test (test_ack_waits_behind_data),
        cmocka_unit_test (test_lost_coordinator),
        cmocka_unit_test (test_welcome_config_refused),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
