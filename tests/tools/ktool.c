/*  zsink-ktool - a Kafka client for the kafka tests, with librdkafka:
    topics, test records with known ids, transactions that abort, offsets.

    usage: zsink-ktool [-b] BOOTSTRAP [-X KEY=VALUE]... COMMAND ARGS...
           (BOOTSTRAP may be left out when KAFKA_BOOTSTRAP is set;
            -X passes a librdkafka property to every client made)

      create TOPIC PARTITIONS        CreateTopics (replication 1); waits until
                                     the metadata shows every partition led
      add-partitions TOPIC TOTAL     CreatePartitions up to TOTAL; waits too
      metadata TOPIC                 "partition P leader L" for each
      delete-records TOPIC P=OFFSET...
                                     DeleteRecords: the records before OFFSET
                                     are gone, as by retention ("partition P
                                     low L" for each)
      produce TOPIC --from A --to B [--format json|csv] [--schema S]
              [--partition P | --keyed] [--rate R] [--timestamp-base MS]
                                     the rows of ids A..B-1 (B excluded), one
                                     record each, with the idempotent producer;
                                     round robin over the partitions by id
                                     (id - A) % n, or all to P, or keyed by the
                                     id's decimal text (murmur2, as the Java
                                     client); every delivery report checked;
                                     prints "partition P produced N" for each,
                                     then "produced N". Record timestamps:
                                     now, or MS + id * 1000 (with MS
                                     1700000000000 the row's ts column)
                                     --stamp-ts (for bench/kafka.sh): every
                                     TIMESTAMP(3) column of the row holds
                                     the wall clock (epoch ms) when the
                                     record is handed to the producer, never
                                     null: the table then says when each of
                                     its rows was produced
      produce-txn TOPIC --from A --to B --abort-every K [--batch N] [--txn-id T]
              [--open-ms MS] [same options as produce]
                                     one transaction per N rows (100), the
                                     K-th, 2K-th, ... aborted (K 0: none);
                                     an aborted one's records are written
                                     before the abort (the log holds them);
                                     prints "committed A B" or "aborted A B"
                                     for each (ids A..B-1), then
                                     "committed-rows N aborted-rows M".
                                     --open-ms: the last transaction is held
                                     open MS ms, its records written ("open
                                     A B" then), before it ends (a kill -9
                                     meanwhile leaves it open until the
                                     broker aborts it: transaction.timeout.ms,
                                     60 s, -X to change)
      produce-raw TOPIC PARTITION VALUE | --null
                                     one record with this literal value (or
                                     a null value), for malformed records
      offsets TOPIC [--committed-isolation]
                                     "partition P low L high H" for each (and
                                     " lso S", the last stable offset, the end
                                     a read_committed reader sees)
      times TOPIC MS                 "partition P offset O" for each: the first
                                     record with a timestamp >= MS (epoch ms),
                                     or the end (-1 from the broker: none yet)
      committed GROUP TOPIC          "partition P committed O" for each (O -1:
                                     the group has none)
      commit GROUP TOPIC P=OFFSET... commits these offsets for GROUP, as a
                                     consumer with manual assignment does
      consume TOPIC [--read-uncommitted]
                                     every record up to the current end of
                                     every partition: "P OFFSET VALUE" a line
                                     (read_committed by default)

    Rows. The values are zsink's datagen's for the id (writer/datagen.c),
    in the schema --schema (zsink's text form, "id BIGINT NOT NULL, name
    STRING"), else zsink's default schema (id, name, price, ts): the same
    table a datagen job of those ids writes. json is one object (zsink's
    JSONL spelling without the newline), csv one RFC 4180 record of the
    columns in order (a null is an empty field).

    Exit 0; 1 when anything failed (the reason on stderr); 2 on bad usage.
    Every wait has a deadline (30 s).
*/
#include "datagen.h"
#include "rowfmt.h"
#include "rowtype.h"
#include <librdkafka/rdkafka.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define S_TIMEOUT_MS 30000
#define S_MAX_PROPS 32
#define S_MAX_PARTS 1024

static const char *s_bootstrap;
static const char *s_props[S_MAX_PROPS];
static int s_nprops;

//  Delivery reports of the producer: counted per partition.
static int64_t s_delivered[S_MAX_PARTS];
static int64_t s_delivered_total, s_failed;
static char s_first_failure[256];

static void
s_die (const char *fmt, ...)
{
    va_list ap;
    va_start (ap, fmt);
    fprintf (stderr, "zsink-ktool: ");
    vfprintf (stderr, fmt, ap);
    fprintf (stderr, "\n");
    va_end (ap);
    exit (1);
}

static void
s_usage (const char *why)
{
    fprintf (stderr,
             "zsink-ktool: %s\n"
             "usage: zsink-ktool [-b] BOOTSTRAP [-X KEY=VALUE]... COMMAND ARGS...\n"
             "  create TOPIC PARTITIONS | add-partitions TOPIC TOTAL | metadata TOPIC\n"
             "  delete-records TOPIC P=OFFSET...\n"
             "  produce TOPIC --from A --to B [--format json|csv] [--schema S]\n"
             "          [--partition P | --keyed] [--rate R] [--timestamp-base MS]\n"
             "          [--stamp-ts]\n"
             "  produce-txn TOPIC --from A --to B --abort-every K [--batch N] [--txn-id T]\n"
             "          [--open-ms MS] ...\n"
             "  produce-raw TOPIC PARTITION VALUE|--null\n"
             "  offsets TOPIC [--committed-isolation] | times TOPIC MS | committed GROUP TOPIC\n"
             "  commit GROUP TOPIC P=OFFSET... | consume TOPIC [--read-uncommitted]\n",
             why);
    exit (2);
}

//  The wall clock, epoch ms (what a snapshot's timeMillis is in).
static int64_t
s_wall_ms (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t
s_now_ms (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

//  A whole decimal number, else usage error naming what.
static int64_t
s_number (const char *text, const char *what)
{
    char *end;
    long long v = strtoll (text, &end, 10);
    if (!*text || *end) {
        char why[160];
        snprintf (why, sizeof why, "%s: '%s' is not a number", what, text);
        s_usage (why);
    }
    return v;
}

static void
s_set (rd_kafka_conf_t *conf, const char *key, const char *value)
{
    char err[512];
    if (rd_kafka_conf_set (conf, key, value, err, sizeof err) != RD_KAFKA_CONF_OK)
        s_die ("property %s=%s: %s", key, value, err);
}

//  A configuration with the bootstrap address and every -X property.
static rd_kafka_conf_t *
s_conf (void)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    s_set (conf, "bootstrap.servers", s_bootstrap);
    for (int i = 0; i < s_nprops; i++) {
        char kv[512];
        snprintf (kv, sizeof kv, "%s", s_props[i]);
        char *eq = strchr (kv, '=');
        if (!eq)
            s_usage ("-X wants KEY=VALUE");
        *eq = '\0';
        s_set (conf, kv, eq + 1);
    }
    return conf;
}

static rd_kafka_t *
s_client (rd_kafka_type_t type, rd_kafka_conf_t *conf)
{
    char err[512];
    rd_kafka_t *rk = rd_kafka_new (type, conf, err, sizeof err);
    if (!rk)
        s_die ("cannot make a client: %s", err);
    return rk;
}

//  --------------------------------------------------------------------------
//  Metadata and admin

//  The topic's partition count from the broker's metadata: -1 when the
//  broker did not answer, or not every partition has a leader yet when led
//  is asked; -2 when the broker's answer has no such topic.
static int
s_partitions (rd_kafka_t *rk, const char *topic, bool led)
{
    const struct rd_kafka_metadata *md;
    rd_kafka_resp_err_t rc = rd_kafka_metadata (rk, 1, NULL, &md, 5000);
    if (rc)
        return -1;
    int n = -2;
    for (int t = 0; t < md->topic_cnt; t++) {
        const rd_kafka_metadata_topic_t *mt = &md->topics[t];
        if (strcmp (mt->topic, topic) || mt->err)
            continue;
        n = mt->partition_cnt;
        for (int p = 0; p < mt->partition_cnt && led; p++)
            if (mt->partitions[p].err || mt->partitions[p].leader < 0)
                n = -1;
    }
    rd_kafka_metadata_destroy (md);
    return n;
}

//  The partition count, waited for until it is at least want (30 s).
static int
s_wait_partitions (rd_kafka_t *rk, const char *topic, int want)
{
    int64_t end = s_now_ms () + S_TIMEOUT_MS;
    int n;
    while ((n = s_partitions (rk, topic, true)) < want) {
        if (s_now_ms () > end)
            s_die ("topic %s: %d partitions led after %d s, expected %d", topic, n,
                   S_TIMEOUT_MS / 1000, want);
        usleep (50 * 1000);
    }
    return n;
}

//  The topic's partition count, or exit when there is no such topic.
static int
s_existing_partitions (rd_kafka_t *rk, const char *topic)
{
    //  a topic just made may take a moment to show: 3 s for that
    int64_t t0 = s_now_ms ();
    int n;
    while ((n = s_partitions (rk, topic, false)) < 0) {
        if (n == -2 && s_now_ms () > t0 + 3000)
            s_die ("topic %s: no such topic", topic);
        if (s_now_ms () > t0 + S_TIMEOUT_MS)
            s_die ("topic %s: no metadata from %s after %d s", topic, s_bootstrap,
                   S_TIMEOUT_MS / 1000);
        usleep (50 * 1000);
    }
    if (n > S_MAX_PARTS)
        s_die ("topic %s has %d partitions, more than %d", topic, n, S_MAX_PARTS);
    return n;
}

//  Waits for the admin result on q; exits on a request error.
static rd_kafka_event_t *
s_admin_result (rd_kafka_queue_t *q, const char *what)
{
    rd_kafka_event_t *ev = rd_kafka_queue_poll (q, S_TIMEOUT_MS + 5000);
    if (!ev)
        s_die ("%s: no answer", what);
    if (rd_kafka_event_error (ev))
        s_die ("%s: %s", what, rd_kafka_event_error_string (ev));
    return ev;
}

//  Exits when one of the topic results is an error.
static void
s_topic_results (const rd_kafka_topic_result_t **res, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (rd_kafka_topic_result_error (res[i]))
            s_die ("%s %s: %s (%s)", what, rd_kafka_topic_result_name (res[i]),
                   rd_kafka_topic_result_error_string (res[i]),
                   rd_kafka_err2name (rd_kafka_topic_result_error (res[i])));
}

static int
s_cmd_create (rd_kafka_t *rk, const char *topic, int partitions)
{
    char err[512];
    rd_kafka_NewTopic_t *nt = rd_kafka_NewTopic_new (topic, partitions, 1, err, sizeof err);
    if (!nt)
        s_die ("create %s: %s", topic, err);
    rd_kafka_queue_t *q = rd_kafka_queue_new (rk);
    rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new (rk, RD_KAFKA_ADMIN_OP_CREATETOPICS);
    rd_kafka_AdminOptions_set_operation_timeout (opt, S_TIMEOUT_MS, err, sizeof err);
    rd_kafka_CreateTopics (rk, &nt, 1, opt, q);
    rd_kafka_event_t *ev = s_admin_result (q, "CreateTopics");
    size_t n;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreateTopics_result_topics (rd_kafka_event_CreateTopics_result (ev), &n);
    s_topic_results (res, n, "create");
    rd_kafka_event_destroy (ev);
    rd_kafka_AdminOptions_destroy (opt);
    rd_kafka_NewTopic_destroy (nt);
    rd_kafka_queue_destroy (q);
    s_wait_partitions (rk, topic, partitions);
    printf ("created %s %d\n", topic, partitions);
    return 0;
}

static int
s_cmd_add_partitions (rd_kafka_t *rk, const char *topic, int total)
{
    char err[512];
    rd_kafka_NewPartitions_t *np =
        rd_kafka_NewPartitions_new (topic, (size_t) total, err, sizeof err);
    if (!np)
        s_die ("add-partitions %s: %s", topic, err);
    rd_kafka_queue_t *q = rd_kafka_queue_new (rk);
    rd_kafka_AdminOptions_t *opt =
        rd_kafka_AdminOptions_new (rk, RD_KAFKA_ADMIN_OP_CREATEPARTITIONS);
    rd_kafka_AdminOptions_set_operation_timeout (opt, S_TIMEOUT_MS, err, sizeof err);
    rd_kafka_CreatePartitions (rk, &np, 1, opt, q);
    rd_kafka_event_t *ev = s_admin_result (q, "CreatePartitions");
    size_t n;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreatePartitions_result_topics (rd_kafka_event_CreatePartitions_result (ev), &n);
    s_topic_results (res, n, "add-partitions");
    rd_kafka_event_destroy (ev);
    rd_kafka_AdminOptions_destroy (opt);
    rd_kafka_NewPartitions_destroy (np);
    rd_kafka_queue_destroy (q);
    s_wait_partitions (rk, topic, total);
    printf ("partitions %s %d\n", topic, total);
    return 0;
}

//  Deletes the records before OFFSET in each partition P named (the log
//  start moves there, as retention would: a reader behind it is out of
//  range).
static int
s_cmd_delete_records (rd_kafka_t *rk, const char *topic, int argc, char **argv)
{
    if (argc < 1)
        s_usage ("delete-records wants P=OFFSET...");
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new (argc);
    for (int i = 0; i < argc; i++) {
        char *eq = strchr (argv[i], '=');
        if (!eq)
            s_usage ("delete-records wants P=OFFSET...");
        *eq = '\0';
        rd_kafka_topic_partition_list_add (list, topic, (int32_t) s_number (argv[i], "P"))->offset =
            s_number (eq + 1, "OFFSET");
    }
    char err[512];
    rd_kafka_DeleteRecords_t *dr = rd_kafka_DeleteRecords_new (list);
    rd_kafka_queue_t *q = rd_kafka_queue_new (rk);
    rd_kafka_AdminOptions_t *opt = rd_kafka_AdminOptions_new (rk, RD_KAFKA_ADMIN_OP_DELETERECORDS);
    rd_kafka_AdminOptions_set_operation_timeout (opt, S_TIMEOUT_MS, err, sizeof err);
    rd_kafka_DeleteRecords (rk, &dr, 1, opt, q);
    rd_kafka_event_t *ev = s_admin_result (q, "DeleteRecords");
    const rd_kafka_topic_partition_list_t *res =
        rd_kafka_DeleteRecords_result_offsets (rd_kafka_event_DeleteRecords_result (ev));
    for (int i = 0; res && i < res->cnt; i++) {
        if (res->elems[i].err)
            s_die ("delete-records %s [%d]: %s", topic, res->elems[i].partition,
                   rd_kafka_err2str (res->elems[i].err));
        printf ("partition %d low %" PRId64 "\n", res->elems[i].partition, res->elems[i].offset);
    }
    rd_kafka_event_destroy (ev);
    rd_kafka_AdminOptions_destroy (opt);
    rd_kafka_DeleteRecords_destroy (dr);
    rd_kafka_queue_destroy (q);
    rd_kafka_topic_partition_list_destroy (list);
    return 0;
}

static int
s_cmd_metadata (rd_kafka_t *rk, const char *topic)
{
    s_existing_partitions (rk, topic);
    const struct rd_kafka_metadata *md;
    rd_kafka_resp_err_t rc = rd_kafka_metadata (rk, 1, NULL, &md, 5000);
    if (rc)
        s_die ("metadata: %s", rd_kafka_err2str (rc));
    for (int t = 0; t < md->topic_cnt; t++) {
        if (strcmp (md->topics[t].topic, topic))
            continue;
        for (int p = 0; p < md->topics[t].partition_cnt; p++)
            printf ("partition %d leader %d\n", md->topics[t].partitions[p].id,
                    md->topics[t].partitions[p].leader);
    }
    rd_kafka_metadata_destroy (md);
    return 0;
}

//  --------------------------------------------------------------------------
//  Producing

typedef struct {
    int64_t from, to; //  ids from .. to-1
    bool csv;
    zs_schema_t schema;
    int partition; //  -1: round robin, or keyed
    bool keyed;
    double rate; //  rows/s, 0: as fast as it goes
    int64_t abort_every, batch, open_ms;
    int64_t ts_base; //  record timestamps ts_base + id * 1000, or -1: now
    bool stamp_ts;   //  TIMESTAMP(3) columns: the wall clock at produce
    const char *txn_id;
} s_opts_t;

static void
s_parse_opts (s_opts_t *o, int argc, char **argv, bool txn)
{
    memset (o, 0, sizeof *o);
    o->from = o->to = -1;
    o->partition = -1;
    o->batch = 100;
    o->abort_every = -1;
    o->ts_base = -1;
    zs_schema_default (&o->schema);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool flag = !strcmp (a, "--keyed") || !strcmp (a, "--stamp-ts");
        if (!flag && !v)
            s_usage ("an option wants a value");
        if (!strcmp (a, "--from"))
            o->from = s_number (v, a);
        else if (!strcmp (a, "--to"))
            o->to = s_number (v, a);
        else if (!strcmp (a, "--format") && (!strcmp (v, "json") || !strcmp (v, "csv")))
            o->csv = !strcmp (v, "csv");
        else if (!strcmp (a, "--schema")) {
            char err[256];
            if (zs_schema_parse (&o->schema, v, err, sizeof err) != 0)
                s_die ("--schema: %s", err);
        } else if (!strcmp (a, "--partition"))
            o->partition = (int) s_number (v, a);
        else if (!strcmp (a, "--stamp-ts"))
            o->stamp_ts = true;
        else if (flag)
            o->keyed = true;
        else if (!strcmp (a, "--timestamp-base"))
            o->ts_base = s_number (v, a);
        else if (!strcmp (a, "--rate"))
            o->rate = (double) s_number (v, a);
        else if (txn && !strcmp (a, "--abort-every"))
            o->abort_every = s_number (v, a);
        else if (txn && !strcmp (a, "--batch"))
            o->batch = s_number (v, a);
        else if (txn && !strcmp (a, "--open-ms"))
            o->open_ms = s_number (v, a);
        else if (txn && !strcmp (a, "--txn-id"))
            o->txn_id = v;
        else
            s_usage ("unknown option, or a value it does not take");
        i += !flag;
    }
    if (o->from < 0 || o->to < o->from)
        s_usage ("--from A --to B wanted, 0 <= A <= B");
    if (o->keyed && o->partition >= 0)
        s_usage ("--partition and --keyed exclude each other");
    if (txn && (o->abort_every < 0 || o->batch < 1))
        s_usage ("produce-txn wants --abort-every K >= 0 (and --batch N >= 1)");
}

static void
s_dr (rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void) rk;
    (void) opaque;
    if (m->err) {
        if (s_failed++ == 0)
            snprintf (s_first_failure, sizeof s_first_failure, "partition %" PRId32 ": %s",
                      m->partition, rd_kafka_err2str (m->err));
        return;
    }
    s_delivered_total++;
    if (m->partition >= 0 && m->partition < S_MAX_PARTS)
        s_delivered[m->partition]++;
}

//  A producer: idempotent, or transactional with txn_id; delivery reports
//  to s_dr.
static rd_kafka_t *
s_producer (const char *txn_id)
{
    rd_kafka_conf_t *conf = s_conf ();
    s_set (conf, "enable.idempotence", "true");
    s_set (conf, "partitioner", "murmur2_random");
    s_set (conf, "linger.ms", "5");
    if (txn_id)
        s_set (conf, "transactional.id", txn_id);
    rd_kafka_conf_set_dr_msg_cb (conf, s_dr);
    return s_client (RD_KAFKA_PRODUCER, conf);
}

//  The record value of id: datagen's row in the format, no newline.
static void
s_value_of (const s_opts_t *o, int64_t id, zs_strbuf_t *out)
{
    static zs_datagen_buf_t buf;
    zs_value_t row[ZS_MAX_COLUMNS];
    zs_datagen_row (&o->schema, id, row, &buf);
    for (int c = 0; o->stamp_ts && c < o->schema.n; c++)
        if (o->schema.cols[c].type == ZS_TYPE_TIMESTAMP3)
            row[c] = (zs_value_t){.v.i64 = s_wall_ms ()};
    out->len = 0;
    if (o->csv)
        zs_row_csv (out, &o->schema, row);
    else
        zs_row_jsonl (out, &o->schema, row);
    if (out->oom)
        s_die ("out of memory");
    if (out->len && out->data[out->len - 1] == '\n')
        out->len--;
}

//  Sends one record (value NULL: a null value; ts 0: now), waiting while
//  the queue is full.
static void
s_send (rd_kafka_t *rk, const char *topic, int32_t partition, const char *key, const void *value,
        size_t len, int64_t ts)
{
    for (;;) {
        rd_kafka_resp_err_t rc = rd_kafka_producev (
            rk, RD_KAFKA_V_TOPIC (topic), RD_KAFKA_V_PARTITION (partition),
            RD_KAFKA_V_KEY (key, key ? strlen (key) : 0), RD_KAFKA_V_VALUE ((void *) value, len),
            RD_KAFKA_V_TIMESTAMP (ts), RD_KAFKA_V_MSGFLAGS (RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
        if (rc == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            rd_kafka_poll (rk, 100);
            continue;
        }
        if (rc)
            s_die ("produce to %s [%" PRId32 "]: %s", topic, partition, rd_kafka_err2str (rc));
        rd_kafka_poll (rk, 0);
        return;
    }
}

//  The row of id, to its partition (nparts: the topic's count).
static void
s_send_row (rd_kafka_t *rk, const char *topic, const s_opts_t *o, int nparts, int64_t id,
            zs_strbuf_t *value, int64_t t0)
{
    if (o->rate > 0) {
        int64_t due = t0 + (int64_t) ((double) (id - o->from) * 1000.0 / o->rate);
        while (s_now_ms () < due)
            rd_kafka_poll (rk, (int) (due - s_now_ms ()));
    }
    char key[24];
    snprintf (key, sizeof key, "%" PRId64, id);
    int32_t p = o->keyed            ? RD_KAFKA_PARTITION_UA
                : o->partition >= 0 ? o->partition
                                    : (int32_t) ((id - o->from) % nparts);
    s_value_of (o, id, value);
    s_send (rk, topic, p, o->keyed ? key : NULL, value->data, value->len,
            o->ts_base >= 0 ? o->ts_base + id * 1000 : 0);
}

//  Flushes; exits when a record was not delivered.
static void
s_flush (rd_kafka_t *rk)
{
    rd_kafka_resp_err_t rc = rd_kafka_flush (rk, S_TIMEOUT_MS * 2);
    if (rc)
        s_die ("flush: %s (%d records not delivered)", rd_kafka_err2str (rc),
               rd_kafka_outq_len (rk));
    if (s_failed)
        s_die ("%" PRId64 " records not delivered (first: %s)", s_failed, s_first_failure);
}

static int
s_cmd_produce (const char *topic, int argc, char **argv)
{
    s_opts_t o;
    s_parse_opts (&o, argc, argv, false);
    rd_kafka_t *rk = s_producer (NULL);
    int nparts = s_existing_partitions (rk, topic);
    if (o.partition >= nparts)
        s_die ("topic %s has no partition %d (it has %d)", topic, o.partition, nparts);
    zs_strbuf_t value = {0};
    int64_t t0 = s_now_ms ();
    for (int64_t id = o.from; id < o.to; id++)
        s_send_row (rk, topic, &o, nparts, id, &value, t0);
    s_flush (rk);
    for (int p = 0; p < nparts; p++)
        printf ("partition %d produced %" PRId64 "\n", p, s_delivered[p]);
    printf ("produced %" PRId64 "\n", s_delivered_total);
    zs_strbuf_free (&value);
    rd_kafka_destroy (rk);
    return s_delivered_total == o.to - o.from ? 0 : 1;
}

//  Exits with the error of a transactional call.
static void
s_txn_check (rd_kafka_error_t *error, const char *what)
{
    if (!error)
        return;
    fprintf (stderr, "zsink-ktool: %s: %s (%s%s)\n", what, rd_kafka_error_string (error),
             rd_kafka_error_name (error),
             rd_kafka_error_txn_requires_abort (error) ? ", abortable" : "");
    exit (1);
}

//  Writes the open transaction's records (else an abort purges those still
//  queued, and the log never holds them: an abort with nothing to hide).
static void
s_txn_flush (rd_kafka_t *rk, int64_t a, int64_t b)
{
    rd_kafka_resp_err_t rc = rd_kafka_flush (rk, S_TIMEOUT_MS);
    if (rc || s_failed)
        s_die ("records of ids %" PRId64 "..%" PRId64 " not written: %s", a, b - 1,
               rc ? rd_kafka_err2str (rc) : s_first_failure);
}

//  Ends the transaction of ids a..b-1: held open for open_ms first (its
//  records written, "open A B" printed), then aborted or committed.
static void
s_txn_end (rd_kafka_t *rk, int64_t a, int64_t b, bool abort, int64_t open_ms)
{
    if (abort || open_ms > 0)
        s_txn_flush (rk, a, b);
    if (open_ms > 0) {
        printf ("open %" PRId64 " %" PRId64 "\n", a, b);
        fflush (stdout);
        for (int64_t end = s_now_ms () + open_ms; s_now_ms () < end;)
            rd_kafka_poll (rk, 100);
    }
    if (abort)
        s_txn_check (rd_kafka_abort_transaction (rk, S_TIMEOUT_MS), "abort_transaction");
    else
        s_txn_check (rd_kafka_commit_transaction (rk, S_TIMEOUT_MS), "commit_transaction");
    printf ("%s %" PRId64 " %" PRId64 "\n", abort ? "aborted" : "committed", a, b);
    fflush (stdout);
}

static int
s_cmd_produce_txn (const char *topic, int argc, char **argv)
{
    s_opts_t o;
    s_parse_opts (&o, argc, argv, true);
    char txn_id[128];
    snprintf (txn_id, sizeof txn_id, "%s", o.txn_id ? o.txn_id : "");
    if (!o.txn_id)
        snprintf (txn_id, sizeof txn_id, "zsink-ktool-%s-%d", topic, (int) getpid ());
    rd_kafka_t *rk = s_producer (txn_id);
    int nparts = s_existing_partitions (rk, topic);
    if (o.partition >= nparts)
        s_die ("topic %s has no partition %d (it has %d)", topic, o.partition, nparts);
    s_txn_check (rd_kafka_init_transactions (rk, S_TIMEOUT_MS), "init_transactions");
    zs_strbuf_t value = {0};
    int64_t t0 = s_now_ms (), committed = 0, aborted = 0;
    for (int64_t a = o.from, k = 1; a < o.to; a += o.batch, k++) {
        int64_t b = a + o.batch < o.to ? a + o.batch : o.to;
        bool abort = o.abort_every > 0 && k % o.abort_every == 0;
        s_txn_check (rd_kafka_begin_transaction (rk), "begin_transaction");
        for (int64_t id = a; id < b; id++)
            s_send_row (rk, topic, &o, nparts, id, &value, t0);
        s_txn_end (rk, a, b, abort, b == o.to ? o.open_ms : 0);
        *(abort ? &aborted : &committed) += b - a;
    }
    printf ("committed-rows %" PRId64 " aborted-rows %" PRId64 "\n", committed, aborted);
    zs_strbuf_free (&value);
    rd_kafka_destroy (rk);
    return 0;
}

static int
s_cmd_produce_raw (const char *topic, const char *part, const char *value)
{
    int32_t p = (int32_t) s_number (part, "PARTITION");
    rd_kafka_t *rk = s_producer (NULL);
    int nparts = s_existing_partitions (rk, topic);
    if (p < 0 || p >= nparts)
        s_die ("topic %s has no partition %d (it has %d)", topic, p, nparts);
    bool null = !strcmp (value, "--null");
    s_send (rk, topic, p, NULL, null ? NULL : value, null ? 0 : strlen (value), 0);
    s_flush (rk);
    printf ("produced 1\n");
    rd_kafka_destroy (rk);
    return 0;
}

//  --------------------------------------------------------------------------
//  Offsets and consuming

//  A consumer (never subscribed): of group when given, at this isolation.
static rd_kafka_t *
s_consumer (const char *group, const char *isolation)
{
    rd_kafka_conf_t *conf = s_conf ();
    if (group)
        s_set (conf, "group.id", group);
    s_set (conf, "enable.auto.commit", "false");
    s_set (conf, "enable.partition.eof", "true");
    s_set (conf, "auto.offset.reset", "earliest");
    s_set (conf, "isolation.level", isolation);
    return s_client (RD_KAFKA_CONSUMER, conf);
}

static int
s_cmd_offsets (const char *topic, bool lso)
{
    rd_kafka_t *rk = s_consumer (NULL, "read_uncommitted");
    rd_kafka_t *rc = lso ? s_consumer (NULL, "read_committed") : NULL;
    int nparts = s_existing_partitions (rk, topic);
    for (int p = 0; p < nparts; p++) {
        int64_t low, high, slow, stable = -1;
        rd_kafka_resp_err_t err =
            rd_kafka_query_watermark_offsets (rk, topic, p, &low, &high, S_TIMEOUT_MS);
        if (!err && rc)
            err = rd_kafka_query_watermark_offsets (rc, topic, p, &slow, &stable, S_TIMEOUT_MS);
        if (err)
            s_die ("offsets of %s [%d]: %s", topic, p, rd_kafka_err2str (err));
        printf ("partition %d low %" PRId64 " high %" PRId64, p, low, high);
        if (rc)
            printf (" lso %" PRId64, stable);
        printf ("\n");
    }
    if (rc)
        rd_kafka_destroy (rc);
    rd_kafka_destroy (rk);
    return 0;
}

//  For each partition the offset of the first record whose timestamp is >=
//  ms (ListOffsets by time, as scan.startup.mode timestamp): the high
//  watermark when there is none.
static int
s_cmd_times (const char *topic, int64_t ms)
{
    rd_kafka_t *rk = s_consumer (NULL, "read_uncommitted");
    int nparts = s_existing_partitions (rk, topic);
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new (nparts);
    for (int p = 0; p < nparts; p++)
        rd_kafka_topic_partition_list_add (list, topic, p)->offset = ms;
    rd_kafka_resp_err_t err = rd_kafka_offsets_for_times (rk, list, S_TIMEOUT_MS);
    if (err)
        s_die ("offsets for time %" PRId64 " of %s: %s", ms, topic, rd_kafka_err2str (err));
    for (int i = 0; i < list->cnt; i++) {
        if (list->elems[i].err)
            s_die ("offset for time of %s [%d]: %s", topic, list->elems[i].partition,
                   rd_kafka_err2str (list->elems[i].err));
        printf ("partition %d offset %" PRId64 "\n", list->elems[i].partition,
                list->elems[i].offset);
    }
    rd_kafka_topic_partition_list_destroy (list);
    rd_kafka_destroy (rk);
    return 0;
}

//  Every partition of topic, offsets unset.
static rd_kafka_topic_partition_list_t *
s_all_partitions (rd_kafka_t *rk, const char *topic)
{
    int nparts = s_existing_partitions (rk, topic);
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new (nparts);
    for (int p = 0; p < nparts; p++)
        rd_kafka_topic_partition_list_add (list, topic, p);
    return list;
}

static int
s_cmd_committed (const char *group, const char *topic)
{
    rd_kafka_t *rk = s_consumer (group, "read_committed");
    rd_kafka_topic_partition_list_t *list = s_all_partitions (rk, topic);
    rd_kafka_resp_err_t err = rd_kafka_committed (rk, list, S_TIMEOUT_MS);
    if (err)
        s_die ("committed offsets of group %s: %s", group, rd_kafka_err2str (err));
    for (int i = 0; i < list->cnt; i++) {
        rd_kafka_topic_partition_t *tp = &list->elems[i];
        if (tp->err)
            s_die ("committed offset of group %s, %s [%d]: %s", group, topic, tp->partition,
                   rd_kafka_err2str (tp->err));
        printf ("partition %d committed %" PRId64 "\n", tp->partition,
                tp->offset < 0 ? (int64_t) -1 : tp->offset);
    }
    rd_kafka_topic_partition_list_destroy (list);
    rd_kafka_consumer_close (rk);
    rd_kafka_destroy (rk);
    return 0;
}

static int
s_cmd_commit (const char *group, const char *topic, int argc, char **argv)
{
    if (argc < 1)
        s_usage ("commit wants P=OFFSET...");
    rd_kafka_t *rk = s_consumer (group, "read_committed");
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new (argc);
    for (int i = 0; i < argc; i++) {
        char *eq = strchr (argv[i], '=');
        if (!eq)
            s_usage ("commit wants P=OFFSET...");
        *eq = '\0';
        rd_kafka_topic_partition_list_add (list, topic, (int32_t) s_number (argv[i], "P"))->offset =
            s_number (eq + 1, "OFFSET");
    }
    rd_kafka_resp_err_t err = rd_kafka_commit (rk, list, 0);
    if (err)
        s_die ("commit for group %s: %s", group, rd_kafka_err2str (err));
    for (int i = 0; i < list->cnt; i++)
        if (list->elems[i].err)
            s_die ("commit for group %s, %s [%d]: %s", group, topic, list->elems[i].partition,
                   rd_kafka_err2str (list->elems[i].err));
    printf ("committed %d\n", list->cnt);
    rd_kafka_topic_partition_list_destroy (list);
    rd_kafka_consumer_close (rk);
    rd_kafka_destroy (rk);
    return 0;
}

//  Every record from the start to the end each partition has now.
static int
s_cmd_consume (const char *topic, bool uncommitted)
{
    //  librdkafka 2.0.2 refuses rd_kafka_assign without a group.id (Local:
    //  Unknown group), though an assigned consumer never joins the group
    char group[64];
    snprintf (group, sizeof group, "zsink-ktool-consume-%d", (int) getpid ());
    rd_kafka_t *rk = s_consumer (group, uncommitted ? "read_uncommitted" : "read_committed");
    rd_kafka_topic_partition_list_t *list = s_all_partitions (rk, topic);
    for (int i = 0; i < list->cnt; i++)
        list->elems[i].offset = RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_resp_err_t err = rd_kafka_assign (rk, list);
    if (err)
        s_die ("assign: %s", rd_kafka_err2str (err));
    int left = list->cnt;
    int64_t end = s_now_ms () + S_TIMEOUT_MS;
    while (left > 0) {
        if (s_now_ms () > end)
            s_die ("consume %s: %d partitions not at their end after %d s", topic, left,
                   S_TIMEOUT_MS / 1000);
        rd_kafka_message_t *m = rd_kafka_consumer_poll (rk, 100);
        if (!m)
            continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF)
            left--;
        else if (m->err)
            s_die ("consume %s [%d]: %s", topic, m->partition, rd_kafka_message_errstr (m));
        else
            printf ("%d %" PRId64 " %.*s\n", m->partition, m->offset, (int) m->len,
                    m->payload ? (const char *) m->payload : "");
        rd_kafka_message_destroy (m);
    }
    rd_kafka_topic_partition_list_destroy (list);
    rd_kafka_consumer_close (rk);
    rd_kafka_destroy (rk);
    return 0;
}

//  --------------------------------------------------------------------------

//  The command, its arguments counted (want: exactly, or at least with min).
static bool
s_is (int argc, char **argv, const char *name, int want, bool min)
{
    if (strcmp (argv[0], name))
        return false;
    if (min ? argc - 1 < want : argc - 1 != want) {
        char why[96];
        snprintf (why, sizeof why, "%s: wrong number of arguments", name);
        s_usage (why);
    }
    return true;
}

static int
s_run (int argc, char **argv)
{
    if (s_is (argc, argv, "create", 2, false) || s_is (argc, argv, "add-partitions", 2, false)
        || s_is (argc, argv, "metadata", 1, false)) {
        rd_kafka_t *rk = s_client (RD_KAFKA_PRODUCER, s_conf ());
        int rc = argv[0][0] == 'c' ? s_cmd_create (rk, argv[1], (int) s_number (argv[2], "N"))
                 : argv[0][0] == 'a'
                     ? s_cmd_add_partitions (rk, argv[1], (int) s_number (argv[2], "TOTAL"))
                     : s_cmd_metadata (rk, argv[1]);
        rd_kafka_destroy (rk);
        return rc;
    }
    if (s_is (argc, argv, "delete-records", 2, true)) {
        rd_kafka_t *rk = s_client (RD_KAFKA_PRODUCER, s_conf ());
        int rc = s_cmd_delete_records (rk, argv[1], argc - 2, argv + 2);
        rd_kafka_destroy (rk);
        return rc;
    }
    if (s_is (argc, argv, "produce", 1, true))
        return s_cmd_produce (argv[1], argc - 2, argv + 2);
    if (s_is (argc, argv, "produce-txn", 1, true))
        return s_cmd_produce_txn (argv[1], argc - 2, argv + 2);
    if (s_is (argc, argv, "produce-raw", 3, false))
        return s_cmd_produce_raw (argv[1], argv[2], argv[3]);
    if (s_is (argc, argv, "offsets", 1, true))
        return s_cmd_offsets (argv[1], argc > 2 && !strcmp (argv[2], "--committed-isolation"));
    if (s_is (argc, argv, "times", 2, false))
        return s_cmd_times (argv[1], s_number (argv[2], "MS"));
    if (s_is (argc, argv, "committed", 2, false))
        return s_cmd_committed (argv[1], argv[2]);
    if (s_is (argc, argv, "commit", 2, true))
        return s_cmd_commit (argv[1], argv[2], argc - 3, argv + 3);
    if (s_is (argc, argv, "consume", 1, true))
        return s_cmd_consume (argv[1], argc > 2 && !strcmp (argv[2], "--read-uncommitted"));
    s_usage ("unknown command");
    return 2;
}

int
main (int argc, char **argv)
{
    int i = 1;
    if (i < argc && !strcmp (argv[i], "-b"))
        i++;
    if (i < argc && strchr (argv[i], ':'))
        s_bootstrap = argv[i++];
    else if (i > 1)
        s_usage ("-b wants HOST:PORT");
    else
        s_bootstrap = getenv ("KAFKA_BOOTSTRAP");
    if (!s_bootstrap || !*s_bootstrap)
        s_usage ("no bootstrap address (BOOTSTRAP or KAFKA_BOOTSTRAP)");
    while (i + 1 < argc && !strcmp (argv[i], "-X")) {
        if (s_nprops == S_MAX_PROPS)
            s_usage ("too many -X");
        s_props[s_nprops++] = argv[i + 1];
        i += 2;
    }
    if (i >= argc)
        s_usage ("no command");
    setvbuf (stdout, NULL, _IOLBF, 0);
    return s_run (argc - i, argv + i);
}
