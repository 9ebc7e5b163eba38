/*  test_source_kafka.c - the Kafka source's reader (writer/source_kafka.c)
    against a real broker (Apache Kafka, KRaft, started by
    scripts/kafka-server.sh in a scratch directory of the build tree): rows
    exactly once from explicit offsets and from earliest, the splits' state
    after every row, a fresh reader resuming from a mid state, bounded
    splits ending also behind aborted transactions, malformed values under
    fail and skip, a split added while reading, an offset out of range, and
    the broker killed -9 and restarted while reading.

    The records are produced here with librdkafka (an idempotent producer,
    and a transactional one for the aborted transactions). Each record's
    value names its partition and offset in its id, id = 1000000 * (P + 1)
    + OFFSET for the plain topics, so a row says where it came from.

    Without the broker (the jars: BUILD/kafka/libs or env ZSINK_KAFKA_LIBS,
    from scripts/setup-kafka.sh; the script: scripts/kafka-server.sh or env
    ZSINK_KAFKA_SCRIPT) the tests that need it are skipped, saying why,
    unless ZSINK_KAFKA_REQUIRED=1: then they fail.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "log.h"
#include "source_kafka.h"
#include <inttypes.h>
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define S_WAIT_MS 30000 //  every wait's deadline
#define S_ID(p, off) (1000000 * ((int64_t) (p) + 1) + (off))

static struct {
    bool up;
    char why[512];
    char dir[1024];
    char script[1024];
    char libs[1024];
    char bootstrap[128];
} s_srv;

//  --------------------------------------------------------------------------
//  The broker, once for the whole run

static int
s_fixture (const char *cmd)
{
    char line[4096];
    snprintf (line, sizeof line, "ZSINK_KAFKA_LIBS='%s' sh '%s' %s '%s' >>'%s.out' 2>&1",
              s_srv.libs, s_srv.script, cmd, s_srv.dir, s_srv.dir);
    return system (line);
}

//  The jars in the build tree are whole and up to date (setup-kafka.sh
//  --check, beside the server script): 0, or -1 with why.
static int
s_installed (void)
{
    char cmd[2300];
    const char *slash = strrchr (s_srv.script, '/');
    int dirlen = slash ? (int) (slash - s_srv.script) : 1;
    snprintf (cmd, sizeof cmd, "sh '%.*s/setup-kafka.sh' --check '%s' 2>&1", dirlen,
              slash ? s_srv.script : ".", ZSINK_BUILD_DIR);
    FILE *p = popen (cmd, "r");
    char line[400] = "";
    if (!p || !fgets (line, sizeof line, p))
        line[0] = 0;
    int rc = p ? pclose (p) : -1;
    if (rc == 0)
        return 0;
    line[strcspn (line, "\n")] = 0;
    snprintf (s_srv.why, sizeof s_srv.why, "Kafka broker: %s", line[0] ? line : cmd);
    return -1;
}

static int
s_group_setup (void **state)
{
    zs_log_set_level (ZS_LOG_WARN);
    const char *env = getenv ("ZSINK_KAFKA_SCRIPT");
    snprintf (s_srv.script, sizeof s_srv.script, "%s",
              env ? env : ZSINK_SOURCE_DIR "/scripts/kafka-server.sh");
    env = getenv ("ZSINK_KAFKA_LIBS");
    snprintf (s_srv.libs, sizeof s_srv.libs, "%s", env ? env : ZSINK_BUILD_DIR "/kafka/libs");
    snprintf (s_srv.dir, sizeof s_srv.dir, "%s",
              ZSINK_BUILD_DIR "/tests/scratch/test_source_kafka");
    struct stat st;
    if (access (s_srv.script, R_OK) != 0 || stat (s_srv.libs, &st) != 0) {
        snprintf (s_srv.why, sizeof s_srv.why,
                  "no Kafka broker (%s and %s; install it: sh scripts/setup-kafka.sh %s)",
                  s_srv.script, s_srv.libs, ZSINK_BUILD_DIR);
        return 0;
    }
    if (!env && s_installed () != 0)
        return 0;
    if (access (s_srv.dir, F_OK) == 0)
        s_fixture ("stop"); //  a broker left by a run that crashed
    char cmd[2200];
    snprintf (cmd, sizeof cmd, "rm -rf '%s' '%s.out' && mkdir -p '%s'", s_srv.dir, s_srv.dir,
              s_srv.dir);
    if (system (cmd) != 0 || s_fixture ("start") != 0) {
        snprintf (s_srv.why, sizeof s_srv.why, "the broker did not start: see %s.out", s_srv.dir);
        return 0;
    }
    char path[1100];
    snprintf (path, sizeof path, "%s/bootstrap", s_srv.dir);
    FILE *f = fopen (path, "r");
    if (!f || !fgets (s_srv.bootstrap, sizeof s_srv.bootstrap, f)) {
        snprintf (s_srv.why, sizeof s_srv.why, "no %s", path);
        if (f)
            fclose (f);
        return 0;
    }
    fclose (f);
    s_srv.bootstrap[strcspn (s_srv.bootstrap, "\n")] = 0;
    s_srv.up = true;
    return 0;
}

static int
s_group_teardown (void **state)
{
    if (s_srv.up)
        s_fixture ("stop");
    return 0;
}

//  Skip (or fail, with ZSINK_KAFKA_REQUIRED=1) a test that needs the broker.
#define NEED_BROKER()                                                                              \
    do {                                                                                           \
        if (!s_srv.up) {                                                                           \
            const char *req = getenv ("ZSINK_KAFKA_REQUIRED");                                     \
            if (req && !strcmp (req, "1"))                                                         \
                fail_msg ("Kafka broker required: %s", s_srv.why);                                 \
            print_message ("skipped: %s\n", s_srv.why);                                            \
            skip ();                                                                               \
        }                                                                                          \
    } while (0)

//  --------------------------------------------------------------------------
//  Producing

static rd_kafka_t *
s_producer (const char *txn_id)
{
    char why[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    if (rd_kafka_conf_set (conf, "bootstrap.servers", s_srv.bootstrap, why, sizeof why)
        || rd_kafka_conf_set (conf, "enable.idempotence", "true", why, sizeof why)
        || (txn_id && rd_kafka_conf_set (conf, "transactional.id", txn_id, why, sizeof why)))
        fail_msg ("producer conf: %s", why);
    rd_kafka_t *rk = rd_kafka_new (RD_KAFKA_PRODUCER, conf, why, sizeof why);
    if (!rk)
        fail_msg ("producer: %s", why);
    if (txn_id) {
        rd_kafka_error_t *e = rd_kafka_init_transactions (rk, S_WAIT_MS);
        if (e)
            fail_msg ("init_transactions: %s", rd_kafka_error_string (e));
    }
    return rk;
}

static void
s_send (rd_kafka_t *rk, const char *topic, int partition, const char *value)
{
    rd_kafka_resp_err_t err;
    //  a full queue empties as deliveries come back
    while ((err = rd_kafka_producev (rk, RD_KAFKA_V_TOPIC (topic), RD_KAFKA_V_PARTITION (partition),
                                     RD_KAFKA_V_VALUE ((void *) value, value ? strlen (value) : 0),
                                     RD_KAFKA_V_MSGFLAGS (RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END))
           == RD_KAFKA_RESP_ERR__QUEUE_FULL)
        rd_kafka_poll (rk, 100);
    if (err)
        fail_msg ("produce: %s", rd_kafka_err2str (err));
}

static void
s_flush (rd_kafka_t *rk)
{
    rd_kafka_resp_err_t err = rd_kafka_flush (rk, S_WAIT_MS);
    if (err)
        fail_msg ("flush: %s", rd_kafka_err2str (err));
}

//  Rows ids S_ID(p, from..to-1) to partition p, which must hold `from`
//  records before (so each id names its own offset).
static void
s_produce_rows (const char *topic, int p, int64_t from, int64_t to)
{
    rd_kafka_t *rk = s_producer (NULL);
    char value[128];
    for (int64_t off = from; off < to; off++) {
        snprintf (value, sizeof value, "{\"id\": %" PRId64 ", \"name\": \"n%" PRId64 "\"}",
                  S_ID (p, off), off);
        s_send (rk, topic, p, value);
    }
    s_flush (rk);
    rd_kafka_destroy (rk);
}

//  The answer to an admin request about one topic (CreateTopics,
//  CreatePartitions) on q: the test fails unless it succeeded.
static void
s_admin_wait (rd_kafka_queue_t *q, const char *what)
{
    rd_kafka_event_t *ev = rd_kafka_queue_poll (q, S_WAIT_MS);
    if (!ev)
        fail_msg ("%s: no answer in %d ms", what, S_WAIT_MS);
    size_t n = 0;
    const rd_kafka_topic_result_t **res = NULL;
    if (rd_kafka_event_type (ev) == RD_KAFKA_EVENT_CREATETOPICS_RESULT)
        res = rd_kafka_CreateTopics_result_topics (rd_kafka_event_CreateTopics_result (ev), &n);
    else if (rd_kafka_event_type (ev) == RD_KAFKA_EVENT_CREATEPARTITIONS_RESULT)
        res = rd_kafka_CreatePartitions_result_topics (rd_kafka_event_CreatePartitions_result (ev),
                                                       &n);
    if (rd_kafka_event_error (ev) || n != 1 || rd_kafka_topic_result_error (res[0]))
        fail_msg ("%s: %s %s", what, rd_kafka_event_error_string (ev),
                  n == 1 ? rd_kafka_topic_result_error_string (res[0]) : "");
    rd_kafka_event_destroy (ev);
    rd_kafka_queue_destroy (q);
}

//  A topic of that many partitions, each with a leader.
static void
s_create_topic (const char *topic, int partitions)
{
    char why[512];
    rd_kafka_t *rk = s_producer (NULL);
    rd_kafka_NewTopic_t *nt = rd_kafka_NewTopic_new (topic, partitions, 1, why, sizeof why);
    assert_non_null (nt);
    rd_kafka_queue_t *q = rd_kafka_queue_new (rk);
    rd_kafka_CreateTopics (rk, &nt, 1, NULL, q);
    s_admin_wait (q, topic);
    rd_kafka_NewTopic_destroy (nt);
    //  led: every partition has a leader in the metadata
    int64_t deadline = zs_clock_mono_ms () + S_WAIT_MS;
    for (bool led = false; !led;) {
        if (zs_clock_mono_ms () > deadline)
            fail_msg ("topic %s: no leaders after %d ms", topic, S_WAIT_MS);
        rd_kafka_topic_t *rkt = rd_kafka_topic_new (rk, topic, NULL);
        const struct rd_kafka_metadata *md;
        if (rd_kafka_metadata (rk, 0, rkt, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
            led = md->topic_cnt == 1 && !md->topics[0].err
                  && md->topics[0].partition_cnt == partitions;
            for (int i = 0; led && i < md->topics[0].partition_cnt; i++)
                led = md->topics[0].partitions[i].leader >= 0;
            rd_kafka_metadata_destroy (md);
        }
        rd_kafka_topic_destroy (rkt);
        if (!led)
            usleep (100 * 1000); //  the next look, within the deadline
    }
    rd_kafka_destroy (rk);
}

//  A partition's end offset (high watermark), asked of the broker: with
//  read_uncommitted, whatever is written; read_committed, the last stable
//  offset.
static int64_t
s_end (const char *topic, int p, const char *isolation)
{
    char why[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    if (rd_kafka_conf_set (conf, "bootstrap.servers", s_srv.bootstrap, why, sizeof why)
        || rd_kafka_conf_set (conf, "group.id", "zsink-test", why, sizeof why)
        || rd_kafka_conf_set (conf, "isolation.level", isolation, why, sizeof why))
        fail_msg ("conf: %s", why);
    rd_kafka_t *rk = rd_kafka_new (RD_KAFKA_CONSUMER, conf, why, sizeof why);
    assert_non_null (rk);
    int64_t lo, hi;
    rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets (rk, topic, p, &lo, &hi, S_WAIT_MS);
    if (err)
        fail_msg ("watermarks: %s", rd_kafka_err2str (err));
    rd_kafka_destroy (rk);
    return hi;
}

//  --------------------------------------------------------------------------
//  The reader

static zs_config_t s_cfg;

static zs_source_kafka_t *
s_reader (const char *const *kv)
{
    char err[ZS_ERRLEN];
    zs_config_defaults (&s_cfg);
    char b[256];
    snprintf (b, sizeof b, "source.kafka.properties.bootstrap.servers=%s", s_srv.bootstrap);
    if (zs_config_set_kv (&s_cfg, b, err, sizeof err)
        || zs_config_set_kv (&s_cfg, "table.schema=id BIGINT NOT NULL, name STRING", err,
                             sizeof err))
        fail_msg ("config: %s", err);
    for (int i = 0; kv && kv[i]; i++)
        if (zs_config_set_kv (&s_cfg, kv[i], err, sizeof err))
            fail_msg ("config %s: %s", kv[i], err);
    zs_source_kafka_t *r = zs_source_kafka_new (&s_cfg, 0, err, sizeof err);
    if (!r)
        fail_msg ("zs_source_kafka_new: %s", err);
    return r;
}

typedef struct {
    Zsink__Split pb;
    char id[128];
    char topic[64];
} s_split_t;

static Zsink__Split *
s_split (s_split_t *s, const char *topic, int p, int64_t offset, int64_t stop)
{
    zsink__split__init (&s->pb);
    snprintf (s->topic, sizeof s->topic, "%s", topic);
    snprintf (s->id, sizeof s->id, "kafka:%s:%d", topic, p);
    s->pb.id = s->id;
    s->pb.topic = s->topic;
    s->pb.has_partition = s->pb.has_offset = s->pb.has_stop = true;
    s->pb.partition = p;
    s->pb.offset = offset;
    s->pb.stop = stop;
    return &s->pb;
}

static void
s_assign (zs_source_kafka_t *r, Zsink__Split **splits, size_t n)
{
    char err[ZS_ERRLEN];
    if (zs_source_kafka_assign (r, splits, n, err, sizeof err) != 0)
        fail_msg ("assign: %s", err);
}

//  The held split of partition p.
static const Zsink__Split *
s_state (zs_source_kafka_t *r, const char *topic, int p)
{
    Zsink__Split **all;
    size_t n = zs_source_kafka_splits (r, &all);
    for (size_t i = 0; i < n; i++)
        if (all[i]->partition == p && !strcmp (all[i]->topic, topic))
            return all[i];
    fail_msg ("no split %s:%d", topic, p);
    return NULL;
}

typedef struct {
    int64_t *ids;
    int n;
    int cap;
    int rc; //  the last _next's answer other than 0 and 1 (0: none)
    char err[ZS_ERRLEN];
} s_got_t;

//  _next until `want` rows in all, ZS_EOF, -1 or wait_ms. With topic,
//  checks the split's state after each row (the plain topics' ids).
static void
s_read_for (zs_source_kafka_t *r, s_got_t *got, int want, const char *topic, int64_t wait_ms)
{
    zs_value_t row[2];
    int64_t deadline = zs_clock_mono_ms () + wait_ms;
    got->rc = 0;
    while (got->n < want && zs_clock_mono_ms () < deadline) {
        int rc = zs_source_kafka_next (r, row, got->err, sizeof got->err);
        if (rc == 0) {
            usleep (1000); //  a poll interval, within the deadline
            continue;
        }
        if (rc != 1) {
            got->rc = rc;
            return;
        }
        if (got->n == got->cap) {
            got->cap = got->cap ? 2 * got->cap : 256;
            got->ids = realloc (got->ids, (size_t) got->cap * sizeof *got->ids);
            assert_non_null (got->ids);
        }
        int64_t id = row[0].v.i64;
        got->ids[got->n++] = id;
        if (topic) {
            int p = (int) (id / 1000000) - 1;
            int64_t off = id % 1000000;
            const Zsink__Split *s = s_state (r, topic, p);
            assert_int_equal (s->offset, off + 1);
            char name[32];
            int len = snprintf (name, sizeof name, "n%" PRId64, off);
            assert_int_equal (row[1].v.bin.len, len);
            assert_memory_equal (row[1].v.bin.ptr, name, (size_t) len);
        }
    }
}

static void
s_read (zs_source_kafka_t *r, s_got_t *got, int want, const char *topic)
{
    s_read_for (r, got, want, topic, S_WAIT_MS);
}

//  A reader (settings kv) of one split, read for `want` rows.
static zs_source_kafka_t *
s_read_split (const char *const *kv, const char *topic, int p, int64_t offset, int want,
              s_got_t *got)
{
    zs_source_kafka_t *r = s_reader (kv);
    s_split_t a;
    Zsink__Split *splits[] = {s_split (&a, topic, p, offset, -1)};
    s_assign (r, splits, 1);
    s_read (r, got, want, NULL);
    return r;
}

//  The read ended with -1 after `rows` rows, err saying `what`.
static void
s_failed (s_got_t *got, int rows, const char *what)
{
    assert_int_equal (got->n, rows);
    if (got->rc != -1 || !strstr (got->err, what))
        fail_msg ("_next %d: '%s', want -1: '%s'", got->rc, got->err, what);
}

//  got holds exactly the ids of partitions' offsets [from[p], to[p]).
static void
s_exactly (s_got_t *got, int np, const int64_t *from, const int64_t *to)
{
    int want = 0;
    for (int p = 0; p < np; p++)
        want += (int) (to[p] - from[p]);
    if (got->n != want)
        fail_msg ("%d rows, want %d", got->n, want);
    for (int p = 0; p < np; p++)
        for (int64_t off = from[p]; off < to[p]; off++) {
            int seen = 0;
            for (int i = 0; i < got->n; i++)
                seen += got->ids[i] == S_ID (p, off);
            if (seen != 1)
                fail_msg ("partition %d offset %" PRId64 ": read %d times", p, off, seen);
        }
}

static void
s_got_free (s_got_t *got)
{
    free (got->ids);
    memset (got, 0, sizeof *got);
}

//  _next answers 0 (nothing more now), several times.
static void
s_nothing_more (zs_source_kafka_t *r)
{
    zs_value_t row[2];
    char err[ZS_ERRLEN];
    for (int i = 0; i < 50; i++) {
        int rc = zs_source_kafka_next (r, row, err, sizeof err);
        if (rc != 0)
            fail_msg ("_next %d, want 0 (%s)", rc, rc < 0 ? err : "");
        usleep (1000);
    }
}

//  --------------------------------------------------------------------------
//  The tests

//  Topic "plain": 2 partitions, 60 and 40 rows, made once.
static void
s_plain (void)
{
    static bool made;
    if (made)
        return;
    s_create_topic ("plain", 2);
    s_produce_rows ("plain", 0, 0, 60);
    s_produce_rows ("plain", 1, 0, 40);
    made = true;
}

static void
test_exact_from_offsets (void **state)
{
    NEED_BROKER ();
    s_plain ();
    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a, b;
    Zsink__Split *splits[] = {s_split (&a, "plain", 0, 0, -1), s_split (&b, "plain", 1, 0, -1)};
    s_assign (r, splits, 2);
    s_got_t got = {0};
    s_read (r, &got, 100, "plain");
    assert_int_equal (got.rc, 0);
    s_exactly (&got, 2, (int64_t[]){0, 0}, (int64_t[]){60, 40});
    s_nothing_more (r);
    assert_int_equal (s_state (r, "plain", 0)->rows, 60);
    assert_int_equal (s_state (r, "plain", 1)->rows, 40);
    assert_false (s_state (r, "plain", 0)->finished);
    //  the end for heartbeats (lag): what the client saw of the partitions
    assert_int_equal (s_state (r, "plain", 0)->end, 60);
    assert_int_equal (s_state (r, "plain", 1)->end, 40);
    //  more records come to the reader that waits for them
    s_produce_rows ("plain", 1, 40, 45);
    s_got_free (&got);
    s_read (r, &got, 5, "plain");
    s_exactly (&got, 2, (int64_t[]){0, 40}, (int64_t[]){0, 45});
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
    assert_null (r);
}

//  A fresh reader at a mid state reads exactly what followed it, and its
//  counters go on from the state's.
static void
test_resume_mid_state (void **state)
{
    NEED_BROKER ();
    s_plain ();
    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a, b;
    Zsink__Split *splits[] = {s_split (&a, "plain", 0, 17, -1), s_split (&b, "plain", 1, 33, -1)};
    a.pb.has_rows = b.pb.has_rows = true;
    a.pb.rows = 17;
    b.pb.rows = 33;
    s_assign (r, splits, 2);
    s_got_t got = {0};
    s_read (r, &got, 43 + 12, "plain");
    s_exactly (&got, 2, (int64_t[]){17, 33}, (int64_t[]){60, 45});
    assert_int_equal (s_state (r, "plain", 0)->rows, 60);
    assert_int_equal (s_state (r, "plain", 1)->rows, 45);
    //  assigned again at other states: the old ones are dropped
    Zsink__Split *again[] = {s_split (&a, "plain", 0, 58, -1)};
    s_assign (r, again, 1);
    Zsink__Split **all;
    assert_int_equal (zs_source_kafka_splits (r, &all), 1);
    s_got_free (&got);
    s_read (r, &got, 2, "plain");
    s_exactly (&got, 1, (int64_t[]){58}, (int64_t[]){60});
    s_nothing_more (r);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

static void
test_earliest (void **state)
{
    NEED_BROKER ();
    s_plain ();
    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a;
    Zsink__Split *splits[] = {s_split (&a, "plain", 0, -2, -1)};
    s_assign (r, splits, 1);
    assert_int_equal (s_state (r, "plain", 0)->offset, -2);
    s_got_t got = {0};
    s_read (r, &got, 60, "plain");
    s_exactly (&got, 1, (int64_t[]){0}, (int64_t[]){60});
    s_nothing_more (r);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  Bounded splits: rows before stop only, then finished (ZS_EOF); a
//  partition whose offsets up to stop end in an aborted transaction, and
//  one that holds aborted records between committed ones, return only the
//  committed rows and still finish.
static void
test_bounded_and_aborted (void **state)
{
    NEED_BROKER ();
    s_plain ();
    s_create_topic ("txn", 1);
    rd_kafka_t *tx = s_producer ("zsink-test-txn");
    char value[128];
    int64_t committed = 0;
    for (int t = 0; t < 4; t++) {
        assert_null (rd_kafka_begin_transaction (tx));
        for (int i = 0; i < 5; i++) {
            int64_t id = t % 2 ? -(t * 100 + i) : committed + i;
            snprintf (value, sizeof value, "{\"id\": %" PRId64 ", \"name\": \"t%d\"}", id, t);
            s_send (tx, "txn", 0, value);
        }
        s_flush (tx); //  else abort drops the records before they are sent
        rd_kafka_error_t *e = t % 2 ? rd_kafka_abort_transaction (tx, S_WAIT_MS)
                                    : rd_kafka_commit_transaction (tx, S_WAIT_MS);
        if (e)
            fail_msg ("transaction %d: %s", t, rd_kafka_error_string (e));
        if (t % 2 == 0)
            committed += 5;
    }
    rd_kafka_destroy (tx);
    //  4 x (5 records + a marker); the coordinator writes the last marker
    //  after the commit returns
    int64_t end, deadline = zs_clock_mono_ms () + S_WAIT_MS;
    while ((end = s_end ("txn", 0, "read_uncommitted")) < 24 && zs_clock_mono_ms () < deadline)
        usleep (10 * 1000);
    assert_int_equal (end, 24);

    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a, b, c;
    Zsink__Split *splits[] = {s_split (&a, "plain", 0, 10, 25), s_split (&b, "plain", 1, 0, 40),
                              s_split (&c, "txn", 0, 0, end)};
    s_assign (r, splits, 3);
    s_got_t got = {0};
    s_read (r, &got, 1000, NULL);
    if (got.rc != ZS_EOF)
        fail_msg ("_next %d after %d rows, want ZS_EOF (%s)", got.rc, got.n, got.err);
    //  the committed transactions' rows are ids 0..9, the aborted negative
    assert_int_equal (got.n, 15 + 40 + 10);
    int txn_rows = 0;
    for (int i = 0; i < got.n; i++) {
        assert_true (got.ids[i] >= 0);
        txn_rows += got.ids[i] < 1000000;
    }
    assert_int_equal (txn_rows, 10);
    const Zsink__Split *sa = s_state (r, "plain", 0), *sb = s_state (r, "plain", 1),
                       *sc = s_state (r, "txn", 0);
    assert_true (sa->finished && sb->finished && sc->finished);
    assert_int_equal (sa->offset, 25);
    assert_int_equal (sb->offset, 40);
    assert_int_equal (sc->offset, end);
    assert_int_equal (sc->rows, 10);
    zs_value_t row[2];
    char err[ZS_ERRLEN];
    assert_int_equal (zs_source_kafka_next (r, row, err, sizeof err), ZS_EOF);
    //  a split finished already is finished from the start
    Zsink__Split *done[] = {s_split (&a, "plain", 0, 25, 25)};
    s_assign (r, done, 1);
    assert_int_equal (zs_source_kafka_next (r, row, err, sizeof err), ZS_EOF);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);

    //  the job's isolation.level is the client's: read_uncommitted returns
    //  the aborted rows too
    r = s_reader (
        (const char *[]){"source.kafka.properties.isolation.level=read_uncommitted", NULL});
    Zsink__Split *all[] = {s_split (&c, "txn", 0, 0, end)};
    s_assign (r, all, 1);
    s_read (r, &got, 1000, NULL);
    if (got.rc != ZS_EOF)
        fail_msg ("_next %d after %d rows, want ZS_EOF (%s)", got.rc, got.n, got.err);
    assert_int_equal (got.n, 20);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  An open transaction holds back what follows it (read_committed): the
//  reader waits at the last stable offset, its state never beyond (the
//  end-of-partition event is there, not at the high watermark), and gets
//  the transaction's rows and those after once it commits.
static void
test_open_transaction (void **state)
{
    NEED_BROKER ();
    s_create_topic ("open", 1);
    s_produce_rows ("open", 0, 0, 5);
    rd_kafka_t *tx = s_producer ("zsink-test-open");
    assert_null (rd_kafka_begin_transaction (tx));
    char value[128];
    for (int64_t off = 5; off < 10; off++) {
        snprintf (value, sizeof value, "{\"id\": %" PRId64 ", \"name\": \"n%" PRId64 "\"}",
                  S_ID (0, off), off);
        s_send (tx, "open", 0, value);
    }
    s_flush (tx);
    s_produce_rows ("open", 0, 10, 15); //  after the open transaction's records
    assert_int_equal (s_end ("open", 0, "read_uncommitted"), 15);
    assert_int_equal (s_end ("open", 0, "read_committed"), 5);

    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a;
    Zsink__Split *splits[] = {s_split (&a, "open", 0, 0, -1)};
    s_assign (r, splits, 1);
    s_got_t got = {0};
    s_read (r, &got, 5, "open");
    s_read_for (r, &got, 6, "open", 2000);
    assert_int_equal (got.n, 5);
    assert_int_equal (s_state (r, "open", 0)->offset, 5);
    rd_kafka_error_t *e = rd_kafka_commit_transaction (tx, S_WAIT_MS);
    if (e)
        fail_msg ("commit: %s", rd_kafka_error_string (e));
    rd_kafka_destroy (tx);
    s_read (r, &got, 15, "open");
    s_exactly (&got, 1, (int64_t[]){0}, (int64_t[]){15});
    //  after the commit marker (offset 15)
    int64_t deadline = zs_clock_mono_ms () + S_WAIT_MS;
    while (s_state (r, "open", 0)->offset < 16 && zs_clock_mono_ms () < deadline) {
        zs_value_t row[2];
        char err[ZS_ERRLEN];
        assert_int_equal (zs_source_kafka_next (r, row, err, sizeof err), 0);
        usleep (1000);
    }
    assert_int_equal (s_state (r, "open", 0)->offset, 16);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  A value that does not parse: with fail, -1 naming topic, partition and
//  offset, the position before it, and again on the next call; with skip,
//  consumed and counted.
static void
test_malformed (void **state)
{
    NEED_BROKER ();
    s_create_topic ("bad", 1);
    rd_kafka_t *pr = s_producer (NULL);
    s_send (pr, "bad", 0, "{\"id\": 1, \"name\": \"a\"}");
    s_send (pr, "bad", 0, "{\"id\": \"x\"}");
    s_send (pr, "bad", 0, NULL);
    s_send (pr, "bad", 0, "{\"id\": 4, \"name\": \"d\"}");
    s_flush (pr);
    rd_kafka_destroy (pr);

    s_got_t got = {0};
    zs_source_kafka_t *r = s_read_split (NULL, "bad", 0, 0, 2, &got);
    s_failed (&got, 1, "topic 'bad' partition 0 offset 1: column 'id'");
    assert_int_equal (s_state (r, "bad", 0)->offset, 1);
    zs_value_t row[2];
    char err[ZS_ERRLEN];
    assert_int_equal (zs_source_kafka_next (r, row, err, sizeof err), -1);
    assert_string_equal (err, got.err);
    assert_int_equal (s_state (r, "bad", 0)->offset, 1);
    zs_source_kafka_destroy (&r);
    s_got_free (&got);

    r = s_read_split ((const char *[]){"source.kafka.on-error=skip", NULL}, "bad", 0, 0, 2, &got);
    assert_int_equal (got.n, 2);
    assert_int_equal (got.ids[0], 1);
    assert_int_equal (got.ids[1], 4);
    assert_int_equal (s_state (r, "bad", 0)->skipped, 2);
    assert_int_equal (s_state (r, "bad", 0)->offset, 4);
    assert_int_equal (zs_source_kafka_skipped (r), 2);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  csv values: the columns in the schema's order.
static void
test_csv (void **state)
{
    NEED_BROKER ();
    s_create_topic ("csv", 1);
    rd_kafka_t *pr = s_producer (NULL);
    s_send (pr, "csv", 0, "7,\"seven, with a comma\"");
    s_send (pr, "csv", 0, "8,\n");
    s_flush (pr);
    rd_kafka_destroy (pr);
    zs_source_kafka_t *r = s_reader ((const char *[]){"source.kafka.value.format=csv", NULL});
    s_split_t a;
    Zsink__Split *splits[] = {s_split (&a, "csv", 0, 0, 2)};
    s_assign (r, splits, 1);
    zs_value_t row[2];
    char err[ZS_ERRLEN];
    int64_t deadline = zs_clock_mono_ms () + S_WAIT_MS;
    int rc;
    while ((rc = zs_source_kafka_next (r, row, err, sizeof err)) == 0
           && zs_clock_mono_ms () < deadline)
        usleep (1000);
    assert_int_equal (rc, 1);
    assert_int_equal (row[0].v.i64, 7);
    assert_int_equal (row[1].v.bin.len, 19);
    assert_memory_equal (row[1].v.bin.ptr, "seven, with a comma", 19);
    while ((rc = zs_source_kafka_next (r, row, err, sizeof err)) == 0
           && zs_clock_mono_ms () < deadline)
        usleep (1000);
    assert_int_equal (rc, 1);
    assert_int_equal (row[0].v.i64, 8);
    assert_true (row[1].null);
    assert_int_equal (zs_source_kafka_next (r, row, err, sizeof err), ZS_EOF);
    zs_source_kafka_destroy (&r);
}

static void
test_add_split (void **state)
{
    NEED_BROKER ();
    s_plain ();
    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a, b;
    Zsink__Split *first[] = {s_split (&a, "plain", 0, 0, -1)};
    s_assign (r, first, 1);
    s_got_t got = {0};
    s_read (r, &got, 30, "plain");
    //  partition 1 found while running; partition 0 again is left as it is
    Zsink__Split *more[] = {s_split (&b, "plain", 1, 0, -1), s_split (&a, "plain", 0, 0, -1)};
    char err[ZS_ERRLEN];
    if (zs_source_kafka_add (r, more, 2, err, sizeof err) != 0)
        fail_msg ("add: %s", err);
    Zsink__Split **all;
    assert_int_equal (zs_source_kafka_splits (r, &all), 2);
    assert_int_equal (s_state (r, "plain", 0)->offset, 30);
    s_read (r, &got, 30 + 30 + 45, "plain");
    s_exactly (&got, 2, (int64_t[]){0, 0}, (int64_t[]){60, 45});
    s_nothing_more (r);
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  A partition made while reading (CreatePartitions), then added: read at
//  once, with no error while the client learns of it.
static void
test_new_partition (void **state)
{
    NEED_BROKER ();
    s_create_topic ("grows", 1);
    s_produce_rows ("grows", 0, 0, 20);
    zs_source_kafka_t *r = s_reader (NULL);
    s_split_t a, b;
    Zsink__Split *first[] = {s_split (&a, "grows", 0, 0, -1)};
    s_assign (r, first, 1);
    s_got_t got = {0};
    s_read (r, &got, 20, "grows");

    char why[512];
    rd_kafka_t *admin = s_producer (NULL);
    rd_kafka_NewPartitions_t *np = rd_kafka_NewPartitions_new ("grows", 2, why, sizeof why);
    assert_non_null (np);
    rd_kafka_queue_t *q = rd_kafka_queue_new (admin);
    rd_kafka_CreatePartitions (admin, &np, 1, NULL, q);
    s_admin_wait (q, "grows: partitions");
    rd_kafka_NewPartitions_destroy (np);
    rd_kafka_destroy (admin);

    //  added before anything is in it, and before the producer knows it
    char err[ZS_ERRLEN];
    Zsink__Split *more[] = {s_split (&b, "grows", 1, 0, -1)};
    if (zs_source_kafka_add (r, more, 1, err, sizeof err) != 0)
        fail_msg ("add: %s", err);
    s_read_for (r, &got, 21, "grows", 500);
    assert_int_equal (got.rc, 0);
    s_produce_rows ("grows", 1, 0, 25);
    s_produce_rows ("grows", 0, 20, 30);
    s_read (r, &got, 55, "grows");
    if (got.rc != 0)
        fail_msg ("_next %d: %s", got.rc, got.err);
    s_exactly (&got, 2, (int64_t[]){0, 0}, (int64_t[]){30, 25});
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  Offsets gone (or never there) are an error naming the partition, with
//  the default auto.offset.reset (error).
static void
test_offset_out_of_range (void **state)
{
    NEED_BROKER ();
    s_plain ();
    s_got_t got = {0};
    zs_source_kafka_t *r = s_read_split (NULL, "plain", 1, 5000, 1, &got);
    s_failed (&got, 0, "topic 'plain' partition 1 offset 5000: ");
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

//  The read ended with -1, err saying `what`: 0, else 1 (said on stderr).
//  No cmocka assertion: this runs in a child process.
static int
s_child_failed (s_got_t *got, const char *what)
{
    if (got->n == 0 && got->rc == -1 && strstr (got->err, what))
        return 0;
    fprintf (stderr, "%d rows, _next %d: '%s', want -1: '%s'\n", got->n, got->rc, got->err, what);
    return 1;
}

static int
s_unknown_child (void)
{
    //  librdkafka waits this long for a topic to appear (30 s by default)
    s_got_t got = {0};
    zs_source_kafka_t *r = s_read_split (
        (const char *[]){"source.kafka.properties.topic.metadata.propagation.max.ms=1000", NULL},
        "nosuchtopic", 0, 0, 1, &got);
    int rc = s_child_failed (&got, "topic 'nosuchtopic' partition 0 offset 0: ");
    s_got_free (&got);
    //  a partition the topic does not have; assigned again, the reader
    //  forgets the error before
    s_split_t a;
    Zsink__Split *beyond[] = {s_split (&a, "plain", 7, 3, -1)};
    s_assign (r, beyond, 1);
    s_read (r, &got, 1, NULL);
    rc |= s_child_failed (&got, "topic 'plain' partition 7 offset 3: ");
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
    return rc;
}

//  A topic that is not there (deleted since the checkpoint): an error
//  naming it, not a reader waiting for ever. In a child process that
//  leaves by _exit: librdkafka 2.0.2 leaks a block at destroy for a
//  partition of a topic that does not exist (reproduced alone), which
//  LeakSanitizer would count against this test.
static void
test_unknown_topic (void **state)
{
    NEED_BROKER ();
    s_plain ();
    fflush (NULL);
    pid_t pid = fork ();
    assert_true (pid >= 0);
    if (pid == 0)
        _exit (s_unknown_child ());
    int status;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        fail_msg ("the reader of a missing topic failed (status %d)", status);
}

//  No broker needed: a property the client does not know, a split that is
//  not a Kafka one.
static void
test_bad_config (void **state)
{
    char err[ZS_ERRLEN];
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    assert_int_equal (
        zs_config_set_kv (&cfg, "source.kafka.properties.no.such.thing=1", err, sizeof err), 0);
    assert_null (zs_source_kafka_new (&cfg, 0, err, sizeof err));
    if (!strstr (err, "source.kafka.properties.no.such.thing"))
        fail_msg ("err: %s", err);
    zs_config_defaults (&cfg);
    assert_int_equal (
        zs_config_set_kv (&cfg, "source.kafka.properties.fetch.wait.max.ms=x", err, sizeof err), 0);
    assert_null (zs_source_kafka_new (&cfg, 0, err, sizeof err));
    if (!strstr (err, "source.kafka.properties.fetch.wait.max.ms"))
        fail_msg ("err: %s", err);
    //  zsink's own property is not the client's
    zs_config_defaults (&cfg);
    assert_int_equal (zs_config_set_kv (&cfg,
                                        "source.kafka.properties.commit.offsets.on.checkpoint="
                                        "false",
                                        err, sizeof err),
                      0);
    zs_source_kafka_t *r = zs_source_kafka_new (&cfg, 0, err, sizeof err);
    if (!r)
        fail_msg ("new: %s", err);
    Zsink__Split s;
    zsink__split__init (&s);
    s.id = "file:a.jsonl";
    Zsink__Split *splits[] = {&s};
    assert_int_equal (zs_source_kafka_assign (r, splits, 1, err, sizeof err), -1);
    if (!strstr (err, "'file:a.jsonl' is not a Kafka split"))
        fail_msg ("err: %s", err);
    s_split_t k;
    splits[0] = s_split (&k, "t", 0, -1, -1); //  "latest" is not a position
    assert_int_equal (zs_source_kafka_assign (r, splits, 1, err, sizeof err), -1);
    Zsink__Split **all;
    assert_int_equal (zs_source_kafka_splits (r, &all), 0);
    //  a partition twice in an assignment would be read twice
    s_split_t k2;
    Zsink__Split *twice[] = {s_split (&k, "t", 0, 5, -1), s_split (&k2, "t", 0, 7, -1)};
    assert_int_equal (zs_source_kafka_assign (r, twice, 2, err, sizeof err), -1);
    if (!strstr (err, "split 'kafka:t:0' given twice"))
        fail_msg ("err: %s", err);
    assert_int_equal (zs_source_kafka_splits (r, &all), 0);
    //  a bad one among good ones: none taken
    Zsink__Split *mixed[] = {s_split (&k2, "t", 1, 0, -1), &s};
    assert_int_equal (zs_source_kafka_add (r, mixed, 2, err, sizeof err), -1);
    assert_int_equal (zs_source_kafka_splits (r, &all), 0);
    assert_int_equal (zs_source_kafka_assign (r, NULL, 0, err, sizeof err), 0);
    zs_value_t row[2];
    assert_int_equal (zs_source_kafka_next (r, row, err, sizeof err), 0);
    zs_source_kafka_destroy (&r);
}

//  The broker killed -9 and restarted while reading: no error, reading
//  resumes where it was, no row twice, none lost.
static void
test_broker_restart (void **state)
{
    NEED_BROKER ();
    s_create_topic ("restart", 2);
    s_produce_rows ("restart", 0, 0, 300);
    s_produce_rows ("restart", 1, 0, 300);
    zs_source_kafka_t *r =
        s_reader ((const char *[]){"source.kafka.properties.fetch.message.max.bytes=1024",
                                   "source.kafka.properties.queued.max.messages."
                                   "kbytes=1",
                                   NULL});
    s_split_t a, b;
    Zsink__Split *splits[] = {s_split (&a, "restart", 0, 0, -1), s_split (&b, "restart", 1, 0, -1)};
    s_assign (r, splits, 2);
    s_got_t got = {0};
    s_read (r, &got, 200, "restart");
    assert_int_equal (got.rc, 0);
    if (s_fixture ("kill9") != 0)
        fail_msg ("kill9 failed: see %s.out", s_srv.dir);
    //  reading on with the broker gone: what was fetched, then nothing, no
    //  error
    s_read_for (r, &got, 600, "restart", 3000);
    assert_int_equal (got.rc, 0);
    int before = got.n;
    if (s_fixture ("restart") != 0)
        fail_msg ("restart failed: see %s.out", s_srv.dir);
    s_produce_rows ("restart", 0, 300, 350);
    s_produce_rows ("restart", 1, 300, 350);
    s_read (r, &got, 700, "restart");
    print_message ("%d rows before the kill, %d while the broker was down, 700 in all\n", 200,
                   before - 200);
    if (got.rc != 0)
        fail_msg ("_next %d: %s", got.rc, got.err);
    s_exactly (&got, 2, (int64_t[]){0, 0}, (int64_t[]){350, 350});
    s_got_free (&got);
    zs_source_kafka_destroy (&r);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_bad_config),          cmocka_unit_test (test_exact_from_offsets),
        cmocka_unit_test (test_resume_mid_state),    cmocka_unit_test (test_earliest),
        cmocka_unit_test (test_bounded_and_aborted), cmocka_unit_test (test_open_transaction),
        cmocka_unit_test (test_malformed),           cmocka_unit_test (test_csv),
        cmocka_unit_test (test_add_split),           cmocka_unit_test (test_new_partition),
        cmocka_unit_test (test_offset_out_of_range), cmocka_unit_test (test_unknown_topic),
        cmocka_unit_test (test_broker_restart),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
