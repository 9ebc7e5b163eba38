/*  test_kafka_enum.c - the Kafka source's enumerator (coordinator/
    kafka_enum.c): zs_kafka_owner against values computed by Java, with no
    broker; the rest against a real broker (Apache Kafka, KRaft, started by
    scripts/kafka-server.sh in a scratch directory of the build tree), its
    topics made and its records written by librdkafka here.

    Without the broker's jars (scripts/setup-kafka.sh BUILD_DIR installs
    them into BUILD_DIR/kafka/libs; env ZSINK_KAFKA_LIBS overrides) the
    broker tests are skipped, saying why, unless ZSINK_KAFKA_REQUIRED=1:
    then they fail. Env ZSINK_KAFKA_SERVER names another kafka-server.sh.
    The last test stops and restarts the broker.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kafka_enum.h"
#include <inttypes.h>
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define S_DEADLINE_MS 30000 //  for a condition the broker must reach

static struct {
    bool up;           //  the broker answers
    char why[512];     //  why not (skip or fail message)
    char dir[1024];    //  the broker's directory
    char script[1024]; //  scripts/kafka-server.sh
    char libs[1024];   //  the jars
    char bootstrap[128];
    rd_kafka_t *producer; //  plain records, and the admin calls
} s_k;

//  --------------------------------------------------------------------------
//  zs_kafka_owner: Flink's KafkaSourceEnumerator.getSplitOwner

//  The expected values were printed by Java 17's jshell (Flink's formula
//  as owner), for each topic below and (p, n) = (0,1) (0,3) (5,3) (7,4)
//  (1,7) (100,16) (0,2147483647), the last showing nearly all of the
//  masked hash:
//    printf 'int owner(String t,int p,int n){int s=((t.hashCode()*31)&0x7FFFFFFF)%%n;
//      return (s+p)%%n;}\nfor (String t : new String[]{"orders","events","a","",
//      "topic-with-a-long-name.v2","z\\u00fcrich","t\\uD83D\\uDE00","clicks_2026"})
//      System.out.println(owner(t,0,1)+" "+owner(t,0,3)+" "+owner(t,5,3)+" "+owner(t,7,4)
//      +" "+owner(t,1,7)+" "+owner(t,100,16)+" "+owner(t,0,2147483647));\n/exit\n' | jshell -q
//  (one line: the breaks here are for the width). "z\u00fcrich" and
//  "t\uD83D\uDE00" check the UTF-16 code units: one unit for ü, a
//  surrogate pair for U+1F600.
static void
test_owner_java (void **state)
{
    static const struct {
        const char *topic;
        int owners[7];
    } cases[] = {
        {"orders", {0, 0, 2, 2, 4, 15, 940374459}},
        {"events", {0, 2, 1, 2, 0, 11, 770982407}},
        {"a", {0, 1, 0, 2, 5, 3, 3007}},
        {"", {0, 0, 2, 3, 1, 4, 0}},
        {"topic-with-a-long-name.v2", {0, 2, 1, 0, 2, 1, 248710589}},
        {"z\xc3\xbc"
         "rich",
         {0, 0, 2, 1, 3, 6, 1781869602}},
        {"t\xf0\x9f\x98\x80", {0, 0, 2, 0, 3, 13, 58415625}},
        {"clicks_2026", {0, 0, 2, 1, 4, 14, 641900010}},
    };
    static const int pn[7][2] = {{0, 1}, {0, 3},    {5, 3},         {7, 4},
                                 {1, 7}, {100, 16}, {0, 2147483647}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int k = 0; k < 7; k++) {
            int got = zs_kafka_owner (cases[c].topic, pn[k][0], pn[k][1]);
            if (got != cases[c].owners[k])
                fail_msg ("owner ('%s', %d, %d) = %d, Java says %d", cases[c].topic, pn[k][0],
                          pn[k][1], got, cases[c].owners[k]);
        }
}

//  The partitions of a topic go round the writers from the topic's own
//  start: consecutive partitions, consecutive owners.
static void
test_owner_round_robin (void **state)
{
    int first = zs_kafka_owner ("orders", 0, 5);
    for (int p = 0; p < 20; p++)
        assert_int_equal (zs_kafka_owner ("orders", p, 5), (first + p) % 5);
    assert_int_equal (zs_kafka_owner ("orders", 3, 0), -1);
    assert_int_equal (zs_kafka_owner ("orders", -1, 3), -1);
    assert_int_equal (zs_kafka_owner (NULL, 0, 3), -1);
}

//  --------------------------------------------------------------------------
//  Settings refused at _new (no broker needed: nothing is asked of it)

static zs_config_t *
s_config (const char *const *kv)
{
    zs_config_t *cfg = calloc (1, sizeof *cfg);
    zs_config_defaults (cfg);
    char err[ZS_ERRLEN];
    const char *base[] = {"source.kind",
                          "kafka",
                          "source.kafka.properties.bootstrap.servers",
                          *s_k.bootstrap ? s_k.bootstrap : "127.0.0.1:9",
                          "source.kafka.scan.startup.mode",
                          "earliest-offset",
                          NULL};
    for (int i = 0; base[i]; i += 2)
        if (zs_config_set (cfg, base[i], base[i + 1], err, sizeof err) != 0)
            fail_msg ("%s", err);
    for (int i = 0; kv && kv[i]; i += 2)
        if (zs_config_set (cfg, kv[i], kv[i + 1], err, sizeof err) != 0)
            fail_msg ("%s", err);
    return cfg;
}

static zs_kafka_enum_t *
s_enum (const char *const *kv)
{
    zs_config_t *cfg = s_config (kv);
    char err[ZS_ERRLEN];
    zs_kafka_enum_t *e = zs_kafka_enum_new (cfg, err, sizeof err);
    free (cfg);
    if (!e)
        fail_msg ("zs_kafka_enum_new: %s", err);
    return e;
}

//  _new fails, its error holding want.
static void
s_enum_refused (const char *const *kv, const char *want)
{
    zs_config_t *cfg = s_config (kv);
    char err[ZS_ERRLEN] = "";
    zs_kafka_enum_t *e = zs_kafka_enum_new (cfg, err, sizeof err);
    free (cfg);
    if (e)
        fail_msg ("zs_kafka_enum_new took it (want an error with '%s')", want);
    if (!strstr (err, want))
        fail_msg ("error '%s' does not say '%s'", err, want);
}

static void
test_bad_settings (void **state)
{
    s_enum_refused ((const char *[]){"source.kafka.topic-pattern", "orders(", NULL},
                    "source.kafka.topic-pattern: 'orders(' is not a regular expression");
    s_enum_refused ((const char *[]){"source.kafka.topic", "a;;b", NULL},
                    "source.kafka.topic: an empty topic name in 'a;;b'");
    s_enum_refused ((const char *[]){"source.kafka.topic", "a", "source.kafka.scan.startup.mode",
                                     "specific-offsets",
                                     "source.kafka.scan.startup.specific-offsets",
                                     "partition:0,offset:4;partition:1", NULL},
                    "source.kafka.scan.startup.specific-offsets: 'partition:1' is not "
                    "partition:P,offset:O");
    s_enum_refused ((const char *[]){"source.kafka.topic", "a", "source.kafka.scan.bounded.mode",
                                     "specific-offsets",
                                     "source.kafka.scan.bounded.specific-offsets",
                                     "partition:x,offset:4", NULL},
                    "source.kafka.scan.bounded.specific-offsets: 'partition:x,offset:4'");
    s_enum_refused ((const char *[]){"source.kafka.topic", "a",
                                     "source.kafka.properties.auto.offset.reset", "sometimes",
                                     NULL},
                    "source.kafka.properties.auto.offset.reset: 'sometimes' is not earliest");
    s_enum_refused ((const char *[]){"source.kafka.topic", "a",
                                     "source.kafka.properties.no.such.property", "1", NULL},
                    "source.kafka.properties.no.such.property: ");
    //  Flink's value names (any case) and Flink's own property are taken
    zs_kafka_enum_t *e = s_enum ((const char *[]){
        "source.kafka.topic", " a ; b", "source.kafka.properties.auto.offset.reset", "LATEST",
        "source.kafka.properties.commit.offsets.on.checkpoint", "false", NULL});
    zs_kafka_enum_destroy (&e);
    assert_null (e);
    zs_kafka_enum_destroy (&e);
}

//  --------------------------------------------------------------------------
//  The broker, once for the whole run

static int
s_fixture (const char *cmd)
{
    char line[4400];
    snprintf (line, sizeof line, "ZSINK_KAFKA_LIBS='%s' sh '%s' %s '%s' >>'%s.out' 2>&1", s_k.libs,
              s_k.script, cmd, s_k.dir, s_k.dir);
    return system (line);
}

//  Wait (deadline) until the broker's metadata shows topic with n
//  partitions, each led.
static void
s_wait_topic (const char *topic, int n)
{
    int64_t end = zclock_mono () + S_DEADLINE_MS;
    while (true) {
        const struct rd_kafka_metadata *md = NULL;
        int led = -1;
        if (rd_kafka_metadata (s_k.producer, 1, NULL, &md, 5000) == 0) {
            for (int t = 0; t < md->topic_cnt; t++)
                if (!strcmp (md->topics[t].topic, topic) && !md->topics[t].err) {
                    led = 0;
                    for (int p = 0; p < md->topics[t].partition_cnt; p++)
                        led += md->topics[t].partitions[p].leader >= 0;
                }
            rd_kafka_metadata_destroy (md);
        }
        if (led == n)
            return;
        if (zclock_mono () > end)
            fail_msg ("topic %s: %d of %d partitions led after %d ms", topic, led, n,
                      S_DEADLINE_MS);
        zclock_sleep (50); //  polling a condition, with its deadline
    }
}

static void
s_create_topic (const char *topic, int partitions)
{
    char why[512];
    rd_kafka_NewTopic_t *nt = rd_kafka_NewTopic_new (topic, partitions, 1, why, sizeof why);
    if (!nt)
        fail_msg ("NewTopic %s: %s", topic, why);
    rd_kafka_queue_t *q = rd_kafka_queue_new (s_k.producer);
    rd_kafka_CreateTopics (s_k.producer, &nt, 1, NULL, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll (q, S_DEADLINE_MS);
    if (!ev)
        fail_msg ("CreateTopics %s: no answer", topic);
    size_t n = 0;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreateTopics_result_topics (rd_kafka_event_CreateTopics_result (ev), &n);
    if (rd_kafka_event_error (ev) || n != 1 || rd_kafka_topic_result_error (res[0]))
        fail_msg ("CreateTopics %s: %s %s", topic, rd_kafka_event_error_string (ev),
                  n == 1 ? rd_kafka_topic_result_error_string (res[0]) : "");
    rd_kafka_event_destroy (ev);
    rd_kafka_queue_destroy (q);
    rd_kafka_NewTopic_destroy (nt);
    s_wait_topic (topic, partitions);
}

//  CreatePartitions: topic up to total partitions.
static void
s_add_partitions (const char *topic, int total)
{
    char why[512];
    rd_kafka_NewPartitions_t *np =
        rd_kafka_NewPartitions_new (topic, (size_t) total, why, sizeof why);
    if (!np)
        fail_msg ("NewPartitions %s: %s", topic, why);
    rd_kafka_queue_t *q = rd_kafka_queue_new (s_k.producer);
    rd_kafka_CreatePartitions (s_k.producer, &np, 1, NULL, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll (q, S_DEADLINE_MS);
    if (!ev)
        fail_msg ("CreatePartitions %s: no answer", topic);
    size_t n = 0;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreatePartitions_result_topics (rd_kafka_event_CreatePartitions_result (ev), &n);
    if (rd_kafka_event_error (ev) || n != 1 || rd_kafka_topic_result_error (res[0]))
        fail_msg ("CreatePartitions %s: %s %s", topic, rd_kafka_event_error_string (ev),
                  n == 1 ? rd_kafka_topic_result_error_string (res[0]) : "");
    rd_kafka_event_destroy (ev);
    rd_kafka_queue_destroy (q);
    rd_kafka_NewPartitions_destroy (np);
    s_wait_topic (topic, total);
}

//  count records into topic's partition, record i stamped ts0 + i * step
//  (ms), each delivery checked.
static void
s_produce (rd_kafka_t *rk, const char *topic, int partition, int count, int64_t ts0, int64_t step)
{
    for (int i = 0; i < count; i++) {
        char value[32];
        snprintf (value, sizeof value, "{\"id\": %d}", i);
        rd_kafka_resp_err_t rc = rd_kafka_producev (
            rk, RD_KAFKA_V_TOPIC (topic), RD_KAFKA_V_PARTITION (partition),
            RD_KAFKA_V_VALUE (value, strlen (value)), RD_KAFKA_V_MSGFLAGS (RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_TIMESTAMP (ts0 + i * step), RD_KAFKA_V_END);
        if (rc)
            fail_msg ("produce to %s [%d]: %s", topic, partition, rd_kafka_err2str (rc));
    }
    rd_kafka_resp_err_t rc = rd_kafka_flush (rk, S_DEADLINE_MS);
    if (rc)
        fail_msg ("flush: %s", rd_kafka_err2str (rc));
}

static int s_delivery_errors;

static void
s_delivery (rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    if (m->err)
        s_delivery_errors++;
}

static rd_kafka_t *
s_producer (const char *txn_id)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    char why[512];
    if (rd_kafka_conf_set (conf, "bootstrap.servers", s_k.bootstrap, why, sizeof why)
            != RD_KAFKA_CONF_OK
        || (txn_id
            && rd_kafka_conf_set (conf, "transactional.id", txn_id, why, sizeof why)
                   != RD_KAFKA_CONF_OK))
        fail_msg ("producer conf: %s", why);
    rd_kafka_conf_set_dr_msg_cb (conf, s_delivery);
    rd_kafka_t *rk = rd_kafka_new (RD_KAFKA_PRODUCER, conf, why, sizeof why);
    if (!rk)
        fail_msg ("producer: %s", why);
    return rk;
}

static int
s_group_setup (void **state)
{
    const char *script = getenv ("ZSINK_KAFKA_SERVER"), *libs = getenv ("ZSINK_KAFKA_LIBS");
    snprintf (s_k.script, sizeof s_k.script, "%s",
              script ? script : ZSINK_SOURCE_DIR "/scripts/kafka-server.sh");
    snprintf (s_k.libs, sizeof s_k.libs, "%s", libs ? libs : ZSINK_BUILD_DIR "/kafka/libs");
    snprintf (s_k.dir, sizeof s_k.dir, "%s", ZSINK_BUILD_DIR "/tests/scratch/test_kafka_enum");
    char jar[1100];
    snprintf (jar, sizeof jar, "%s/kafka_2.13-4.4.0.jar", s_k.libs);
    if (access (s_k.script, R_OK) != 0) {
        snprintf (s_k.why, sizeof s_k.why,
                  "no Kafka broker: no %s (env ZSINK_KAFKA_SERVER names another)", s_k.script);
        return 0;
    }
    if (access (jar, R_OK) != 0) {
        snprintf (s_k.why, sizeof s_k.why,
                  "no Kafka broker: no %s (install it: sh scripts/setup-kafka.sh %s)", jar,
                  ZSINK_BUILD_DIR);
        return 0;
    }
    char cmd[2200];
    snprintf (cmd, sizeof cmd, "mkdir -p '%s'", ZSINK_BUILD_DIR "/tests/scratch");
    if (system (cmd) != 0) {
        snprintf (s_k.why, sizeof s_k.why, "cannot make %s/tests/scratch", ZSINK_BUILD_DIR);
        return 0;
    }
    s_fixture ("stop"); //  a broker left by a run that crashed
    snprintf (cmd, sizeof cmd, "rm -rf '%s' '%s.out' && mkdir -p '%s'", s_k.dir, s_k.dir, s_k.dir);
    if (system (cmd) != 0 || s_fixture ("start") != 0) {
        snprintf (s_k.why, sizeof s_k.why, "the broker did not start: see %s.out", s_k.dir);
        return 0;
    }
    char path[1100];
    snprintf (path, sizeof path, "%s/bootstrap", s_k.dir);
    FILE *f = fopen (path, "r");
    if (!f || !fgets (s_k.bootstrap, sizeof s_k.bootstrap, f)) {
        snprintf (s_k.why, sizeof s_k.why, "no %s", path);
        if (f)
            fclose (f);
        return 0;
    }
    fclose (f);
    s_k.bootstrap[strcspn (s_k.bootstrap, "\n")] = 0;
    s_k.producer = s_producer (NULL);
    s_k.up = true;
    return 0;
}

static int
s_group_teardown (void **state)
{
    if (s_k.producer)
        rd_kafka_destroy (s_k.producer);
    if (s_k.up)
        s_fixture ("stop");
    return 0;
}

//  Skip (or fail, with ZSINK_KAFKA_REQUIRED=1) a test that needs the broker.
#define NEED_BROKER()                                                                              \
    do {                                                                                           \
        if (!s_k.up) {                                                                             \
            const char *req = getenv ("ZSINK_KAFKA_REQUIRED");                                     \
            if (req && !strcmp (req, "1"))                                                         \
                fail_msg ("Kafka broker required: %s", s_k.why);                                   \
            print_message ("skipped: %s\n", s_k.why);                                              \
            skip ();                                                                               \
        }                                                                                          \
    } while (0)

//  --------------------------------------------------------------------------
//  Requests and answers

//  The answer, within ms (else the test fails). 0, or -1 with err.
static int
s_answer (zs_kafka_enum_t *e, int ms, zs_kafka_answer_t want, Zsink__Split ***splits, size_t *n,
          char *err)
{
    zpoller_t *poller = zpoller_new (zs_kafka_enum_sock (e), NULL);
    void *which = zpoller_wait (poller, ms);
    zpoller_destroy (&poller);
    if (!which)
        fail_msg ("no answer in %d ms", ms);
    zs_kafka_answer_t kind = (zs_kafka_answer_t) -1;
    int rc = zs_kafka_enum_recv (e, &kind, splits, n, err, ZS_ERRLEN);
    assert_int_equal (kind, want);
    return rc;
}

//  The splits discover answers (it must work).
static size_t
s_discover (zs_kafka_enum_t *e, const char *const *known, size_t n_known, Zsink__Split ***splits)
{
    assert_int_equal (zs_kafka_enum_discover (e, known, n_known), 0);
    size_t n = 0;
    char err[ZS_ERRLEN];
    if (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_SPLITS, splits, &n, err) != 0)
        fail_msg ("discover: %s", err);
    return n;
}

//  discover's error, which must hold want.
static void
s_discover_fails (zs_kafka_enum_t *e, const char *want)
{
    assert_int_equal (zs_kafka_enum_discover (e, NULL, 0), 0);
    Zsink__Split **splits = NULL;
    size_t n = 0;
    char err[ZS_ERRLEN];
    if (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_SPLITS, &splits, &n, err) == 0)
        fail_msg ("discover worked (%zu splits), want an error with '%s'", n, want);
    assert_null (splits);
    if (!strstr (err, want))
        fail_msg ("error '%s' does not say '%s'", err, want);
}

static void
s_check_split (const Zsink__Split *s, const char *topic, int partition, int64_t offset,
               int64_t stop)
{
    char id[256];
    snprintf (id, sizeof id, "kafka:%s:%d", topic, partition);
    assert_string_equal (s->id, id);
    assert_string_equal (s->topic, topic);
    assert_true (s->has_partition);
    assert_int_equal (s->partition, partition);
    if (!s->has_offset || s->offset != offset || !s->has_stop || s->stop != stop)
        fail_msg ("%s: offset %" PRId64 " stop %" PRId64 ", want %" PRId64 " %" PRId64, id,
                  s->offset, s->stop, offset, stop);
    assert_false (s->finished);
    assert_int_equal (s->rows, 0);
    assert_int_equal (s->skipped, 0);
}

//  One enumerator's answer to discover over topic: the offset and stop of
//  each of its partitions (which must be n) into offsets[] and stops[].
static void
s_offsets (const char *const *kv, int n, int64_t *offsets, int64_t *stops)
{
    zs_kafka_enum_t *e = s_enum (kv);
    Zsink__Split **splits = NULL;
    size_t got = s_discover (e, NULL, 0, &splits);
    assert_int_equal (got, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal (splits[i]->partition, i);
        offsets[i] = splits[i]->offset;
        stops[i] = splits[i]->stop;
    }
    zs_kafka_splits_free (&splits, got);
    zs_kafka_enum_destroy (&e);
}

//  Commit these (topic, partition, offset) for group through an
//  enumerator. The group's first commit may find its coordinator not yet
//  there (the offsets topic is made on demand): asked again, as the
//  coordinator would, within the deadline.
static void
s_commit (const char *group, const char *topic, const int64_t *offsets, int n)
{
    zs_kafka_enum_t *e = s_enum ((const char *[]){"source.kafka.topic", topic,
                                                  "source.kafka.properties.group.id", group, NULL});
    Zsink__Split parts[16], *ptrs[16];
    char ids[16][64];
    for (int i = 0; i < n; i++) {
        zsink__split__init (&parts[i]);
        snprintf (ids[i], sizeof ids[i], "kafka:%s:%d", topic, i);
        parts[i].id = ids[i];
        parts[i].topic = (char *) topic;
        parts[i].has_partition = parts[i].has_offset = true;
        parts[i].partition = i;
        parts[i].offset = offsets[i];
        ptrs[i] = &parts[i];
    }
    int64_t end = zclock_mono () + S_DEADLINE_MS;
    char err[ZS_ERRLEN];
    while (true) {
        assert_int_equal (zs_kafka_enum_commit (e, ptrs, (size_t) n), 0);
        Zsink__Split **none = NULL;
        size_t got = 0;
        if (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_COMMITTED, &none, &got, err) == 0)
            break;
        if (zclock_mono () > end)
            fail_msg ("commit for %s: %s", group, err);
        print_message ("commit for %s, again: %s\n", group, err);
    }
    zs_kafka_enum_destroy (&e);
}

//  The group's committed offsets of topic's partitions 0..n-1 (-1: none),
//  asked by a handle of its own.
static void
s_read_committed (const char *group, const char *topic, int n, int64_t *out)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    char why[512];
    rd_kafka_conf_set (conf, "bootstrap.servers", s_k.bootstrap, why, sizeof why);
    rd_kafka_conf_set (conf, "group.id", group, why, sizeof why);
    rd_kafka_t *rk = rd_kafka_new (RD_KAFKA_CONSUMER, conf, why, sizeof why);
    assert_non_null (rk);
    rd_kafka_topic_partition_list_t *tp = rd_kafka_topic_partition_list_new (n);
    for (int i = 0; i < n; i++)
        rd_kafka_topic_partition_list_add (tp, topic, i);
    rd_kafka_resp_err_t rc = rd_kafka_committed (rk, tp, S_DEADLINE_MS);
    if (rc)
        fail_msg ("committed: %s", rd_kafka_err2str (rc));
    for (int i = 0; i < n; i++) {
        rd_kafka_topic_partition_t *e = rd_kafka_topic_partition_list_find (tp, topic, i);
        assert_int_equal (e->err, 0);
        out[i] = e->offset == RD_KAFKA_OFFSET_INVALID ? -1 : e->offset;
    }
    rd_kafka_topic_partition_list_destroy (tp);
    rd_kafka_destroy (rk);
}

#define KV(...) ((const char *[]){__VA_ARGS__, NULL})

//  --------------------------------------------------------------------------
//  Discovery

static void
test_discover (void **state)
{
    NEED_BROKER ();
    s_create_topic ("disc", 4);
    s_create_topic ("disc2", 1);
    zs_kafka_enum_t *e = s_enum (KV ("source.kafka.topic", "disc"));
    Zsink__Split **splits = NULL;
    size_t n = s_discover (e, NULL, 0, &splits);
    assert_int_equal (n, 4);
    for (int i = 0; i < 4; i++)
        s_check_split (splits[i], "disc", i, -2, -1);
    zs_kafka_splits_free (&splits, n);
    assert_null (splits);

    //  known ids are left out; the rest keep their order
    const char *known[] = {"kafka:disc:1", "kafka:disc:3", "kafka:other:0"};
    n = s_discover (e, known, 3, &splits);
    assert_int_equal (n, 2);
    s_check_split (splits[0], "disc", 0, -2, -1);
    s_check_split (splits[1], "disc", 2, -2, -1);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);

    //  a list, spaces trimmed, a name twice counted once, (topic,
    //  partition) order whatever the list's
    e = s_enum (KV ("source.kafka.topic", " disc2 ;disc ; disc2"));
    n = s_discover (e, known, 2, &splits);
    assert_int_equal (n, 3);
    s_check_split (splits[0], "disc", 0, -2, -1);
    s_check_split (splits[1], "disc", 2, -2, -1);
    s_check_split (splits[2], "disc2", 0, -2, -1);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);

    //  partitions added while running: only they are new (here with both
    //  modes at latest-offset, so that every lookup runs, also on none)
    e = s_enum (KV ("source.kafka.topic", "disc", "source.kafka.scan.startup.mode", "latest-offset",
                    "source.kafka.scan.bounded.mode", "latest-offset"));
    const char *all[] = {"kafka:disc:0", "kafka:disc:1", "kafka:disc:2", "kafka:disc:3"};
    n = s_discover (e, all, 4, &splits);
    assert_int_equal (n, 0);
    assert_null (splits);
    s_add_partitions ("disc", 6);
    n = s_discover (e, all, 4, &splits);
    assert_int_equal (n, 2);
    s_check_split (splits[0], "disc", 4, 0, 0);
    s_check_split (splits[1], "disc", 5, 0, 0);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);
}

static void
test_missing_topic (void **state)
{
    NEED_BROKER ();
    s_create_topic ("present", 1);
    zs_kafka_enum_t *e = s_enum (KV ("source.kafka.topic", "present;absent"));
    s_discover_fails (e, "source.kafka.topic: topic 'absent' does not exist");
    //  the actor still answers
    s_discover_fails (e, "topic 'absent' does not exist");
    zs_kafka_enum_destroy (&e);
}

//  After test_commit: the group offsets topic (__consumer_offsets) exists,
//  and ".*" must not take it.
static void
test_pattern (void **state)
{
    NEED_BROKER ();
    s_create_topic ("pat-a", 2);
    s_create_topic ("pat-b", 1);
    s_create_topic ("xpat-c", 1);
    zs_kafka_enum_t *e = s_enum (KV ("source.kafka.topic-pattern", "pat-.*"));
    Zsink__Split **splits = NULL;
    size_t n = s_discover (e, NULL, 0, &splits);
    assert_int_equal (n, 3); //  not xpat-c: the whole name matches
    s_check_split (splits[0], "pat-a", 0, -2, -1);
    s_check_split (splits[1], "pat-a", 1, -2, -1);
    s_check_split (splits[2], "pat-b", 0, -2, -1);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);

    e = s_enum (KV ("source.kafka.topic-pattern", "pat-a|pat"));
    n = s_discover (e, NULL, 0, &splits);
    assert_int_equal (n, 2); //  the alternation is anchored as a whole
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);

    e = s_enum (KV ("source.kafka.topic-pattern", "nothing-[0-9]+"));
    n = s_discover (e, NULL, 0, &splits);
    assert_int_equal (n, 0);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);

    //  the internal topics exist by now (test_commit ran) and never match
    const struct rd_kafka_metadata *md = NULL;
    assert_int_equal (rd_kafka_metadata (s_k.producer, 1, NULL, &md, S_DEADLINE_MS), 0);
    bool internal = false;
    for (int t = 0; t < md->topic_cnt; t++)
        internal |= !strcmp (md->topics[t].topic, "__consumer_offsets");
    rd_kafka_metadata_destroy (md);
    assert_true (internal);
    e = s_enum (KV ("source.kafka.topic-pattern", ".*"));
    n = s_discover (e, NULL, 0, &splits);
    assert_true (n >= 3);
    for (size_t i = 0; i < n; i++)
        if (!strncmp (splits[i]->topic, "__", 2))
            fail_msg ("the pattern took the internal topic %s", splits[i]->topic);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);
}

//  --------------------------------------------------------------------------
//  Offsets. Topic "offs": partition 0 holds 10 records stamped 1000,
//  2000, … 10000; partition 1 holds 5, stamped 1000 … 5000.

static void
s_offs_topic (void)
{
    static bool made;
    if (made)
        return;
    s_create_topic ("offs", 2);
    s_produce (s_k.producer, "offs", 0, 10, 1000, 1000);
    s_produce (s_k.producer, "offs", 1, 5, 1000, 1000);
    assert_int_equal (s_delivery_errors, 0);
    made = true;
}

#define S_OFFS "source.kafka.topic", "offs"
#define S_START "source.kafka.scan.startup.mode"
#define S_BOUND "source.kafka.scan.bounded.mode"

static void
s_expect (const char *const *kv, int64_t o0, int64_t o1, int64_t s0, int64_t s1)
{
    int64_t offsets[2], stops[2];
    s_offsets (kv, 2, offsets, stops);
    if (offsets[0] != o0 || offsets[1] != o1 || stops[0] != s0 || stops[1] != s1)
        fail_msg ("offsets %" PRId64 " %" PRId64 " stops %" PRId64 " %" PRId64 ", want %" PRId64
                  " %" PRId64 " and %" PRId64 " %" PRId64,
                  offsets[0], offsets[1], stops[0], stops[1], o0, o1, s0, s1);
}

static void
test_startup_modes (void **state)
{
    NEED_BROKER ();
    s_offs_topic ();
    s_expect (KV (S_OFFS, S_START, "earliest-offset"), -2, -2, -1, -1);
    s_expect (KV (S_OFFS, S_START, "latest-offset"), 10, 5, -1, -1);
    //  the first record at or after the time; none: the end
    s_expect (
        KV (S_OFFS, S_START, "timestamp", "source.kafka.scan.startup.timestamp-millis", "3500"), 3,
        3, -1, -1);
    s_expect (
        KV (S_OFFS, S_START, "timestamp", "source.kafka.scan.startup.timestamp-millis", "9000"), 8,
        5, -1, -1);
    s_expect (KV (S_OFFS, S_START, "timestamp", "source.kafka.scan.startup.timestamp-millis", "0"),
              0, 0, -1, -1);

    //  specific-offsets: as given; others the group's committed offset,
    //  else earliest (also with no group.id)
    s_expect (KV (S_OFFS, S_START, "specific-offsets", "source.kafka.scan.startup.specific-offsets",
                  "partition:0,offset:7"),
              7, -2, -1, -1);
    s_commit ("g-spec", "offs", (int64_t[]){1, 2}, 2);
    s_expect (KV (S_OFFS, S_START, "specific-offsets", "source.kafka.scan.startup.specific-offsets",
                  " partition : 0 , offset : 7 ;", "source.kafka.properties.group.id", "g-spec"),
              7, 2, -1, -1);
    s_expect (KV (S_OFFS, S_START, "specific-offsets", "source.kafka.scan.startup.specific-offsets",
                  "partition:1,offset:4;partition:9,offset:1", "source.kafka.properties.group.id",
                  "g-nothing"),
              -2, 4, -1, -1);

    //  group-offsets: committed; none, auto.offset.reset decides, and
    //  without it (Flink: none) it is an error naming the partition
    s_commit ("g-grp", "offs", (int64_t[]){4, -2}, 2); //  -2: left out
    s_expect (KV (S_OFFS, S_START, "group-offsets", "source.kafka.properties.group.id", "g-grp",
                  "source.kafka.properties.auto.offset.reset", "latest"),
              4, 5, -1, -1);
    s_expect (KV (S_OFFS, S_START, "group-offsets", "source.kafka.properties.group.id", "g-grp",
                  "source.kafka.properties.auto.offset.reset", "earliest"),
              4, -2, -1, -1);
    zs_kafka_enum_t *e =
        s_enum (KV (S_OFFS, S_START, "group-offsets", "source.kafka.properties.group.id", "g-grp"));
    s_discover_fails (e, "partition 1 of topic 'offs' has no offset committed by group 'g-grp' "
                         "and properties.auto.offset.reset is none");
    zs_kafka_enum_destroy (&e);
}

static void
test_bounded_modes (void **state)
{
    NEED_BROKER ();
    s_offs_topic ();
    s_expect (KV (S_OFFS, S_BOUND, "unbounded"), -2, -2, -1, -1);
    s_expect (KV (S_OFFS, S_BOUND, "latest-offset"), -2, -2, 10, 5);
    s_expect (
        KV (S_OFFS, S_BOUND, "timestamp", "source.kafka.scan.bounded.timestamp-millis", "3500"), -2,
        -2, 3, 3);
    s_expect (
        KV (S_OFFS, S_BOUND, "timestamp", "source.kafka.scan.bounded.timestamp-millis", "7000"), -2,
        -2, 6, 5);
    s_expect (KV (S_OFFS, S_BOUND, "specific-offsets", "source.kafka.scan.bounded.specific-offsets",
                  "partition:1,offset:4"),
              -2, -2, -1, 4);
    s_commit ("g-stop", "offs", (int64_t[]){6, 3}, 2);
    s_expect (KV (S_OFFS, S_BOUND, "group-offsets", "source.kafka.properties.group.id", "g-stop"),
              -2, -2, 6, 3);
    //  a stop at group-offsets with none committed: Flink's NONE
    zs_kafka_enum_t *e =
        s_enum (KV (S_OFFS, S_BOUND, "group-offsets", "source.kafka.properties.group.id", "g-x"));
    s_discover_fails (e, "partition 0 of topic 'offs' has no offset committed by group 'g-x'");
    zs_kafka_enum_destroy (&e);

    //  _stops: the splits given, stop set, the rest of each as it was
    e = s_enum (KV (S_OFFS, S_BOUND, "latest-offset"));
    Zsink__Split a = ZSINK__SPLIT__INIT, b = ZSINK__SPLIT__INIT;
    a.id = "kafka:offs:1", a.topic = "offs", a.has_partition = a.has_offset = true;
    a.partition = 1, a.offset = 3, a.has_rows = true, a.rows = 3;
    b.id = "kafka:offs:0", b.topic = "offs", b.has_partition = b.has_offset = true;
    b.partition = 0, b.offset = 9, b.has_stop = true, b.stop = 1;
    Zsink__Split *given[] = {&a, &b}, **splits = NULL;
    assert_int_equal (zs_kafka_enum_stops (e, given, 2), 0);
    size_t n = 0;
    char err[ZS_ERRLEN];
    if (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_STOPS, &splits, &n, err) != 0)
        fail_msg ("stops: %s", err);
    assert_int_equal (n, 2);
    assert_string_equal (splits[0]->id, "kafka:offs:1");
    assert_int_equal (splits[0]->offset, 3);
    assert_int_equal (splits[0]->rows, 3);
    assert_int_equal (splits[0]->stop, 5);
    assert_string_equal (splits[1]->id, "kafka:offs:0");
    assert_int_equal (splits[1]->offset, 9);
    assert_int_equal (splits[1]->stop, 10);
    zs_kafka_splits_free (&splits, n);
    //  a split that is not a Kafka one
    Zsink__Split c = ZSINK__SPLIT__INIT;
    c.id = "file:0";
    given[0] = &c;
    assert_int_equal (zs_kafka_enum_stops (e, given, 1), 0);
    assert_int_equal (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_STOPS, &splits, &n, err), -1);
    assert_non_null (strstr (err, "split 'file:0' is not a Kafka split"));
    zs_kafka_enum_destroy (&e);
}

//  The high watermark rd_kafka_query_watermark_offsets answers for
//  partition 0 to a consumer of that isolation.level.
static int64_t
s_watermark (const char *topic, const char *isolation)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    char why[512];
    rd_kafka_conf_set (conf, "bootstrap.servers", s_k.bootstrap, why, sizeof why);
    rd_kafka_conf_set (conf, "isolation.level", isolation, why, sizeof why);
    rd_kafka_t *rk = rd_kafka_new (RD_KAFKA_CONSUMER, conf, why, sizeof why);
    assert_non_null (rk);
    int64_t lo = -1, hi = -1;
    rd_kafka_resp_err_t rc =
        rd_kafka_query_watermark_offsets (rk, topic, 0, &lo, &hi, S_DEADLINE_MS);
    if (rc)
        fail_msg ("query_watermark_offsets: %s", rd_kafka_err2str (rc));
    rd_kafka_destroy (rk);
    return hi;
}

//  latest-offset under read_committed is the last stable offset: the
//  records of an open transaction are not below it (librdkafka 2.0.2 sends
//  ListOffsets with the handle's isolation.level). Under
//  read_uncommitted it is the high watermark, past them.
static void
test_latest_is_last_stable (void **state)
{
    NEED_BROKER ();
    s_create_topic ("txn", 1);
    s_produce (s_k.producer, "txn", 0, 3, 1000, 1);
    rd_kafka_t *tx = s_producer ("zsink-test-enum-txn");
    rd_kafka_error_t *error = rd_kafka_init_transactions (tx, S_DEADLINE_MS);
    if (!error)
        error = rd_kafka_begin_transaction (tx);
    if (error)
        fail_msg ("transaction: %s", rd_kafka_error_string (error));
    s_produce (tx, "txn", 0, 2, 2000, 1); //  flushed, the transaction still open
    assert_int_equal (s_delivery_errors, 0);

    int64_t offsets[1], stops[1];
    s_offsets (KV ("source.kafka.topic", "txn", S_BOUND, "latest-offset"), 1, offsets, stops);
    assert_int_equal (stops[0], 3);
    s_offsets (KV ("source.kafka.topic", "txn", S_START, "latest-offset"), 1, offsets, stops);
    assert_int_equal (offsets[0], 3);
    s_offsets (KV ("source.kafka.topic", "txn", S_BOUND, "latest-offset",
                   "source.kafka.properties.isolation.level", "read_uncommitted"),
               1, offsets, stops);
    assert_int_equal (stops[0], 5);
    //  rd_kafka_query_watermark_offsets (the writer's end offset) too
    assert_int_equal (s_watermark ("txn", "read_committed"), 3);
    assert_int_equal (s_watermark ("txn", "read_uncommitted"), 5);

    error = rd_kafka_commit_transaction (tx, S_DEADLINE_MS);
    if (error)
        fail_msg ("commit_transaction: %s", rd_kafka_error_string (error));
    rd_kafka_destroy (tx);
    //  committed: the two records and the commit marker are below it once
    //  the coordinator has written the marker (after EndTxn answered:
    //  until then the last stable offset stays at 3)
    int64_t end = zclock_mono () + S_DEADLINE_MS;
    do {
        s_offsets (KV ("source.kafka.topic", "txn", S_BOUND, "latest-offset"), 1, offsets, stops);
        if (stops[0] != 3 && stops[0] != 6)
            fail_msg ("latest-offset %" PRId64 ", want 3 then 6", stops[0]);
        if (zclock_mono () > end)
            fail_msg ("latest-offset still 3 %d ms after the commit", S_DEADLINE_MS);
    } while (stops[0] != 6);
}

//  --------------------------------------------------------------------------
//  Commits

static void
test_commit (void **state)
{
    NEED_BROKER ();
    s_create_topic ("cmt", 3);
    s_commit ("g-cmt", "cmt", (int64_t[]){5, -2, 0}, 3);
    int64_t got[3];
    s_read_committed ("g-cmt", "cmt", 3, got);
    assert_int_equal (got[0], 5);
    assert_int_equal (got[1], -1); //  nothing read: not committed
    assert_int_equal (got[2], 0);
    s_commit ("g-cmt", "cmt", (int64_t[]){7, 2, -2}, 3);
    s_read_committed ("g-cmt", "cmt", 3, got);
    assert_int_equal (got[0], 7);
    assert_int_equal (got[1], 2);
    assert_int_equal (got[2], 0); //  left as it was
    s_read_committed ("g-other", "cmt", 3, got);
    assert_int_equal (got[0], -1);

    //  no group.id: nothing to commit for
    zs_kafka_enum_t *e = s_enum (KV ("source.kafka.topic", "cmt"));
    Zsink__Split a = ZSINK__SPLIT__INIT, *given[] = {&a}, **none = NULL;
    a.id = "kafka:cmt:0", a.topic = "cmt", a.has_partition = a.has_offset = true, a.offset = 1;
    assert_int_equal (zs_kafka_enum_commit (e, given, 1), 0);
    size_t n = 0;
    char err[ZS_ERRLEN];
    assert_int_equal (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_COMMITTED, &none, &n, err), -1);
    assert_non_null (strstr (err, "group.id: not set"));
    zs_kafka_enum_destroy (&e);
}

//  --------------------------------------------------------------------------
//  No broker

//  The request asked at t0 answers an error within the timeout (10 s) and
//  a margin; the next request is served.
static void
s_down_answer (zs_kafka_enum_t *e, int64_t t0, zs_kafka_answer_t kind, const char *want)
{
    Zsink__Split **splits = NULL;
    size_t n = 0;
    char err[ZS_ERRLEN];
    int left = (int) (t0 + 15000 - zclock_mono ());
    assert_int_equal (s_answer (e, left > 0 ? left : 1, kind, &splits, &n, err), -1);
    print_message ("answered %" PRId64 " ms after the request: %s\n", zclock_mono () - t0, err);
    if (!strstr (err, want))
        fail_msg ("error '%s' does not say '%s'", err, want);
}

static void
test_broker_down (void **state)
{
    NEED_BROKER ();
    s_create_topic ("down", 2);
    zs_kafka_enum_t *e =
        s_enum (KV ("source.kafka.topic", "down", "source.kafka.properties.group.id", "g-down"));
    Zsink__Split **splits = NULL;
    size_t n = s_discover (e, NULL, 0, &splits);
    assert_int_equal (n, 2);
    assert_int_equal (s_fixture ("stop"), 0);

    int64_t t0 = zclock_mono ();
    assert_int_equal (zs_kafka_enum_discover (e, NULL, 0), 0);
    s_down_answer (e, t0, ZS_KAFKA_SPLITS, "Kafka metadata: ");
    splits[0]->offset = 1;
    t0 = zclock_mono ();
    assert_int_equal (zs_kafka_enum_commit (e, splits, n), 0);
    s_down_answer (e, t0, ZS_KAFKA_COMMITTED, "Kafka offset commit for group 'g-down'");

    //  up again: asked again until it works (the client reconnects with
    //  a backoff), within the deadline
    assert_int_equal (s_fixture ("restart"), 0);
    int64_t end = zclock_mono () + 3 * S_DEADLINE_MS;
    char err[ZS_ERRLEN];
    Zsink__Split **again = NULL;
    size_t m = 0;
    while (true) {
        assert_int_equal (zs_kafka_enum_discover (e, NULL, 0), 0);
        if (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_SPLITS, &again, &m, err) == 0)
            break;
        if (zclock_mono () > end)
            fail_msg ("the broker is back but discover still fails: %s", err);
    }
    assert_int_equal (m, 2);
    zs_kafka_splits_free (&again, m);
    splits[0]->offset = 8;
    end = zclock_mono () + 3 * S_DEADLINE_MS;
    while (true) {
        assert_int_equal (zs_kafka_enum_commit (e, splits, n), 0);
        if (s_answer (e, 2 * S_DEADLINE_MS, ZS_KAFKA_COMMITTED, &again, &m, err) == 0)
            break;
        if (zclock_mono () > end)
            fail_msg ("the broker is back but the commit still fails: %s", err);
    }
    int64_t got[2];
    s_read_committed ("g-down", "down", 2, got);
    assert_int_equal (got[0], 8);
    zs_kafka_splits_free (&splits, n);
    zs_kafka_enum_destroy (&e);
}

//  Nothing listens: each kind of request (metadata, ListOffsets, the
//  group's offsets, a commit) answers an error after the timeout, not a
//  hang; four enumerators at once, so the four waits overlap. Destroy with
//  a request under way waits for it, no longer.
static void
test_nothing_listens (void **state)
{
#define S_NOWHERE                                                                                  \
    "source.kafka.topic", "t", "source.kafka.properties.bootstrap.servers", "127.0.0.1:9"
    zs_kafka_enum_t *e[4] = {
        s_enum (KV (S_NOWHERE)), s_enum (KV (S_NOWHERE, S_BOUND, "latest-offset")),
        s_enum (KV (S_NOWHERE, S_BOUND, "group-offsets", "source.kafka.properties.group.id", "g")),
        s_enum (KV (S_NOWHERE, "source.kafka.properties.group.id", "g"))};
    Zsink__Split a = ZSINK__SPLIT__INIT, *given[] = {&a};
    a.id = "kafka:t:0", a.topic = "t", a.has_partition = a.has_offset = true, a.offset = 5;
    int64_t t0 = zclock_mono ();
    assert_int_equal (zs_kafka_enum_discover (e[0], NULL, 0), 0);
    assert_int_equal (zs_kafka_enum_stops (e[1], given, 1), 0);
    assert_int_equal (zs_kafka_enum_stops (e[2], given, 1), 0);
    assert_int_equal (zs_kafka_enum_commit (e[3], given, 1), 0);
    s_down_answer (e[0], t0, ZS_KAFKA_SPLITS, "Kafka metadata: ");
    s_down_answer (e[1], t0, ZS_KAFKA_STOPS, "Kafka ListOffsets of 1 partition(s): ");
    s_down_answer (e[2], t0, ZS_KAFKA_STOPS, "Kafka committed offsets of group 'g': ");
    s_down_answer (e[3], t0, ZS_KAFKA_COMMITTED, "Kafka offset commit for group 'g': ");

    //  (a commit librdkafka still held for want of the group's
    //  coordinator held rd_kafka_destroy 45 s, its session.timeout.ms)
    assert_int_equal (zs_kafka_enum_discover (e[0], NULL, 0), 0);
    assert_int_equal (zs_kafka_enum_commit (e[3], given, 1), 0);
    t0 = zclock_mono ();
    for (int i = 0; i < 4; i++) {
        zs_kafka_enum_destroy (&e[i]);
        print_message ("destroyed %d at %" PRId64 " ms\n", i, zclock_mono () - t0);
    }
    assert_null (e[0]);
    print_message ("destroyed in %" PRId64 " ms\n", zclock_mono () - t0);
    assert_true (zclock_mono () - t0 < 15000);
#undef S_NOWHERE
}

//  A broker that takes the connection and never answers (a socket that
//  listens and never accepts: the kernel completes the handshake and
//  keeps what is sent): every request still answers an error in time, and
//  destroy returns.
static void
test_never_answers (void **state)
{
    int fd = socket (AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    assert_int_equal (bind (fd, (struct sockaddr *) &sa, sizeof sa), 0);
    assert_int_equal (listen (fd, 16), 0);
    assert_int_equal (getsockname (fd, (struct sockaddr *) &sa, &len), 0);
    char where[64];
    snprintf (where, sizeof where, "127.0.0.1:%d", ntohs (sa.sin_port));
    zs_kafka_enum_t *e[3] = {
        s_enum (KV ("source.kafka.topic", "t", "source.kafka.properties.bootstrap.servers", where)),
        s_enum (KV ("source.kafka.topic", "t", "source.kafka.properties.bootstrap.servers", where,
                    S_BOUND, "latest-offset")),
        s_enum (KV ("source.kafka.topic", "t", "source.kafka.properties.bootstrap.servers", where,
                    "source.kafka.properties.group.id", "g"))};
    Zsink__Split a = ZSINK__SPLIT__INIT, *given[] = {&a};
    a.id = "kafka:t:0", a.topic = "t", a.has_partition = a.has_offset = true, a.offset = 5;
    int64_t t0 = zclock_mono ();
    assert_int_equal (zs_kafka_enum_discover (e[0], NULL, 0), 0);
    assert_int_equal (zs_kafka_enum_stops (e[1], given, 1), 0);
    assert_int_equal (zs_kafka_enum_commit (e[2], given, 1), 0);
    s_down_answer (e[0], t0, ZS_KAFKA_SPLITS, "Kafka metadata: ");
    s_down_answer (e[1], t0, ZS_KAFKA_STOPS, "Kafka ListOffsets of 1 partition(s): ");
    s_down_answer (e[2], t0, ZS_KAFKA_COMMITTED, "Kafka offset commit for group 'g': ");
    t0 = zclock_mono ();
    for (int i = 0; i < 3; i++)
        zs_kafka_enum_destroy (&e[i]);
    print_message ("destroyed in %" PRId64 " ms\n", zclock_mono () - t0);
    assert_true (zclock_mono () - t0 < 15000);
    close (fd);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_owner_java),    cmocka_unit_test (test_owner_round_robin),
        cmocka_unit_test (test_bad_settings),  cmocka_unit_test (test_nothing_listens),
        cmocka_unit_test (test_never_answers), cmocka_unit_test (test_discover),
        cmocka_unit_test (test_missing_topic), cmocka_unit_test (test_commit),
        cmocka_unit_test (test_pattern),       cmocka_unit_test (test_startup_modes),
        cmocka_unit_test (test_bounded_modes), cmocka_unit_test (test_latest_is_last_stable),
        cmocka_unit_test (test_broker_down),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
