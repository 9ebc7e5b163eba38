/*  source_kafka.c - see source_kafka.h.

    Invariants the reader keeps (check the code against them):

    1. A split's offset moves only when a record is consumed whole: a row
       returned (offset = its offset + 1), a bad record skipped (the same),
       a record at or past stop (offset = stop), or an end-of-partition
       event at E >= offset (offset = E, or stop if that is smaller): the
       event comes after every record before E in the partition's queue, so
       what lies between was never meant for us (transaction markers,
       aborted records under read_committed; there E is the last stable
       offset, never past an open transaction). A bounded split's offset
       never passes stop, and it is finished exactly when offset >= stop.
    2. A record is accepted only for a split held and not finished, and
       only at an offset >= the split's offset (librdkafka's fetch versions
       already drop what an older assignment fetched; this makes a record
       returned twice impossible even if one got through).
    3. The consumer's assignment is the held splits that are not finished,
       each from its offset: set whole by _assign, grown by _add, shrunk
       when a split finishes. The reader never subscribes and never commits.
    4. A record that fails with on-error fail is kept (held) and not
       consumed: _next fails the same way again and the position stays
       before it. The message of the last row is kept until the next call
       (the row's CSV fields point into its payload).
    5. Every librdkafka callback (errors, logs) is served by
       rd_kafka_consume_batch_queue on the caller's thread (log.queue, the
       main queue forwarded to the consumer's), so nothing here is shared
       with the client's threads. A fatal error a callback saw fails every
       _next until the next _assign.
*/
#include "source_kafka.h"
#include "log.h"
#include "record.h"
#include "source_file.h"

#include <inttypes.h>
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Transient client errors (a broker down, a connection lost) are logged at
//  most once in this many milliseconds; librdkafka reconnects by itself.
#define S_WARN_INTERVAL_MS 10000

//  Messages taken off the consumer's queue at once: one call per message
//  costs the queue's lock and clock reads each time.
#define S_BATCH 256

typedef struct {
    Zsink__Split pb; //  what _splits hands out; id and topic are ours
    bool assigned;   //  in the consumer's assignment
} s_split_t;

struct _zs_source_kafka_t {
    rd_kafka_t *rk;
    zs_record_t *rec;
    bool csv;
    bool skip_errors;
    bool bounded; //  scan.bounded.mode is not unbounded
    int index;

    s_split_t **splits;
    Zsink__Split **out; //  for _splits
    size_t n;
    size_t cap;

    rd_kafka_queue_t *queue;            //  the consumer's
    rd_kafka_message_t *batch[S_BATCH]; //  taken off it, [batch_i, batch_n) not seen yet
    size_t batch_i;
    size_t batch_n;
    rd_kafka_message_t *held; //  a bad record not consumed (invariant 4)
    rd_kafka_message_t *last; //  the last row's record
    char fatal[ZS_ERRLEN];    //  a fatal client error seen by a callback
    int64_t warned_ms;        //  last transient warning
    int64_t unwarned;         //  transient errors not logged since
};

// --------------------------------------------------------------------------
//  The client

typedef struct {
    rd_kafka_conf_t *conf;
    char *err;
    size_t errlen;
    int rc;
} s_conf_ctx_t;

static int
s_conf_set (rd_kafka_conf_t *conf, const char *name, const char *value, char *err, size_t errlen)
{
    char why[512];
    if (rd_kafka_conf_set (conf, name, value, why, sizeof why) == RD_KAFKA_CONF_OK)
        return 0;
    snprintf (err, errlen, "source.kafka.properties.%s: %s", name, why);
    return -1;
}

static void
s_conf_property (const char *name, const char *value, void *arg)
{
    s_conf_ctx_t *ctx = arg;
    //  zsink's own, not the client's
    if (ctx->rc != 0 || strcmp (name, "commit.offsets.on.checkpoint") == 0)
        return;
    ctx->rc = s_conf_set (ctx->conf, name, value, ctx->err, ctx->errlen);
}

//  A transient error: logged now and then, with how many were not.
static void
s_transient (zs_source_kafka_t *self, const char *what)
{
    int64_t now = zs_clock_mono_ms ();
    if (self->warned_ms && now - self->warned_ms < S_WARN_INTERVAL_MS) {
        self->unwarned++;
        return;
    }
    if (self->unwarned > 0)
        zs_warn ("Kafka: %s (the client retries; %" PRId64 " more such errors since the last "
                 "warning)",
                 what, self->unwarned);
    else
        zs_warn ("Kafka: %s (the client retries)", what);
    self->warned_ms = now;
    self->unwarned = 0;
}

//  Errors no retry mends: the topic or partition is not there (librdkafka
//  says so only after topic.metadata.propagation.max.ms, 30 s, so a topic
//  still being made is not one), or we may not read it. Not the group's
//  authorization: the reader never uses its group.
static bool
s_fatal (int err)
{
    switch (err) {
    case RD_KAFKA_RESP_ERR__FATAL:
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
        return true;
    }
    return false;
}

static void
s_error_cb (rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
    zs_source_kafka_t *self = opaque;
    if (!s_fatal (err)) {
        s_transient (self, reason);
        return;
    }
    if (self->fatal[0])
        return; //  the first one says it
    if (err == RD_KAFKA_RESP_ERR__FATAL) {
        char why[512];
        rd_kafka_fatal_error (rk, why, sizeof why);
        snprintf (self->fatal, sizeof self->fatal, "Kafka client failed: %s", why);
        return;
    }
    //  librdkafka names the partition as "topic [partition]": one we read
    //  fails us, one we no longer read (assigned before) does not
    for (size_t i = 0; i < self->n; i++) {
        const Zsink__Split *s = &self->splits[i]->pb;
        char name[300];
        int len = snprintf (name, sizeof name, "%s [%" PRId32 "]", s->topic, s->partition);
        if (!s->finished && strncmp (reason, name, (size_t) len) == 0) {
            snprintf (self->fatal, sizeof self->fatal,
                      "Kafka topic '%s' partition %" PRId32 " offset %" PRId64 ": %s", s->topic,
                      s->partition, s->offset, reason);
            return;
        }
    }
    s_transient (self, reason);
}

static void
s_log_cb (const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    //  the errors worth a line come to s_error_cb; the client's own log is
    //  for debugging (log.level: debug)
    zs_debug ("librdkafka %s: %s", fac, buf);
}

//  The configuration: our defaults, then every properties.* of the job,
//  then what the reader's exactness depends on. NULL with err.
static rd_kafka_conf_t *
s_conf (zs_source_kafka_t *self, const zs_config_t *cfg, char *err, size_t errlen)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    char client_id[64];
    snprintf (client_id, sizeof client_id, "zsink-writer-%d", self->index);
    //  a consumer needs a group.id even with manual assignment; this one
    //  is never joined nor committed to
    //  queued.min.messages: librdkafka 2.0.2 prefetches up to 100,000
    //  messages a partition, then stops fetching it for a while; a writer
    //  reading faster than that waits (110-135k rows/s a writer with the
    //  default, 460k without the limit: docs/performance.md, "Kafka"). The
    //  prefetch stays bounded by queued.max.messages.kbytes (64 MB).
    const char *defaults[][2] = {{"group.id", "zsink-reader"},
                                 {"client.id", client_id},
                                 {"auto.offset.reset", "error"},
                                 {"isolation.level", "read_committed"},
                                 {"queued.min.messages", "1000000"}};
    const char *forced[][2] = {{"enable.auto.commit", "false"},
                               {"enable.auto.offset.store", "false"},
                               {"enable.partition.eof", "true"},
                               {"log.queue", "true"}};
    s_conf_ctx_t ctx = {conf, err, errlen, 0};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0] && ctx.rc == 0; i++)
        ctx.rc = s_conf_set (conf, defaults[i][0], defaults[i][1], err, errlen);
    if (ctx.rc == 0)
        zs_config_kafka_properties (cfg, s_conf_property, &ctx);
    for (size_t i = 0; i < sizeof forced / sizeof forced[0] && ctx.rc == 0; i++)
        ctx.rc = s_conf_set (conf, forced[i][0], forced[i][1], err, errlen);
    if (ctx.rc != 0) {
        rd_kafka_conf_destroy (conf);
        return NULL;
    }
    rd_kafka_conf_set_opaque (conf, self);
    rd_kafka_conf_set_error_cb (conf, s_error_cb);
    rd_kafka_conf_set_log_cb (conf, s_log_cb);
    return conf;
}

zs_source_kafka_t *
zs_source_kafka_new (const zs_config_t *cfg, int index, char *err, size_t errlen)
{
    zs_source_kafka_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    self->index = index;
    self->csv = strcmp (cfg->kafka_value_format, "csv") == 0;
    self->skip_errors = strcmp (cfg->kafka_on_error, "skip") == 0;
    self->bounded = cfg->kafka_bounded_mode[0] && strcmp (cfg->kafka_bounded_mode, "unbounded");
    self->rec = zs_record_new (&cfg->source_schema);
    rd_kafka_conf_t *conf = self->rec ? s_conf (self, cfg, err, errlen) : NULL;
    if (!conf) {
        if (!self->rec)
            snprintf (err, errlen, "out of memory");
        zs_source_kafka_destroy (&self);
        return NULL;
    }
    char why[512];
    self->rk = rd_kafka_new (RD_KAFKA_CONSUMER, conf, why, sizeof why);
    if (!self->rk) {
        rd_kafka_conf_destroy (conf);
        snprintf (err, errlen, "Kafka client: %s", why);
        zs_source_kafka_destroy (&self);
        return NULL;
    }
    //  invariant 5: callbacks and logs on our thread, in s_poll
    rd_kafka_set_log_queue (self->rk, NULL);
    rd_kafka_poll_set_consumer (self->rk);
    self->queue = rd_kafka_queue_get_consumer (self->rk);
    return self;
}

// --------------------------------------------------------------------------
//  Splits

static void
s_split_destroy (s_split_t **sp)
{
    if (!*sp)
        return;
    free ((*sp)->pb.id);
    free ((*sp)->pb.topic);
    free (*sp);
    *sp = NULL;
}

static s_split_t *
s_find (zs_source_kafka_t *self, const char *topic, int32_t partition)
{
    for (size_t i = 0; i < self->n; i++) {
        s_split_t *s = self->splits[i];
        if (s->pb.partition == partition && strcmp (s->pb.topic, topic) == 0)
            return s;
    }
    return NULL;
}

static bool
s_finished (const s_split_t *s)
{
    return s->pb.finished || (s->pb.stop >= 0 && s->pb.offset >= s->pb.stop);
}

//  A copy of a split's state. NULL with err when it is not a Kafka split.
static s_split_t *
s_split_new (const Zsink__Split *in, char *err, size_t errlen)
{
    const char *id = in->id ? in->id : "";
    if (!in->topic || !in->topic[0] || !in->has_partition || in->partition < 0
        || strncmp (id, "kafka:", 6) != 0) {
        snprintf (err, errlen, "split '%s' is not a Kafka split (topic and partition)", id);
        return NULL;
    }
    int64_t offset = in->has_offset ? in->offset : RD_KAFKA_OFFSET_BEGINNING;
    if (offset < 0 && offset != RD_KAFKA_OFFSET_BEGINNING) {
        snprintf (err, errlen, "split '%s': offset %" PRId64 " (an offset, or -2: earliest)", id,
                  offset);
        return NULL;
    }
    s_split_t *s = calloc (1, sizeof *s);
    if (!s) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    zsink__split__init (&s->pb);
    s->pb.id = strdup (id);
    s->pb.topic = strdup (in->topic);
    if (!s->pb.id || !s->pb.topic) {
        s_split_destroy (&s);
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    s->pb.has_partition = s->pb.has_offset = s->pb.has_stop = true;
    s->pb.has_finished = s->pb.has_skipped = s->pb.has_rows = s->pb.has_end = true;
    s->pb.partition = in->partition;
    s->pb.offset = offset;
    s->pb.stop = in->has_stop && in->stop >= 0 ? in->stop : -1;
    s->pb.skipped = in->has_skipped ? in->skipped : 0;
    s->pb.rows = in->has_rows ? in->rows : 0;
    s->pb.end = -1;
    s->pb.finished = (in->has_finished && in->finished) || s_finished (s);
    return s;
}

static int
s_append (zs_source_kafka_t *self, s_split_t *s)
{
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 8;
        s_split_t **a = realloc (self->splits, cap * sizeof *a);
        if (!a)
            return -1;
        self->splits = a;
        Zsink__Split **o = realloc (self->out, cap * sizeof *o);
        if (!o)
            return -1;
        self->out = o;
        self->cap = cap;
    }
    self->splits[self->n] = s;
    self->out[self->n++] = &s->pb;
    return 0;
}

static void
s_drop_messages (zs_source_kafka_t *self)
{
    if (self->held)
        rd_kafka_message_destroy (self->held);
    if (self->last)
        rd_kafka_message_destroy (self->last);
    self->held = self->last = NULL;
    while (self->batch_i < self->batch_n)
        rd_kafka_message_destroy (self->batch[self->batch_i++]);
    zs_record_clear (self->rec);
}

//  The splits of splits[from..] that are to be read, as a partition list
//  from their offsets (marked assigned). NULL when out of memory.
static rd_kafka_topic_partition_list_t *
s_to_read (zs_source_kafka_t *self, size_t from)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new ((int) self->n + 1);
    for (size_t i = from; l && i < self->n; i++) {
        s_split_t *s = self->splits[i];
        if (s->pb.finished)
            continue;
        rd_kafka_topic_partition_list_add (l, s->pb.topic, s->pb.partition)->offset = s->pb.offset;
        s->assigned = true;
    }
    return l;
}

//  Drop the splits from index `from` on (not assigned yet).
static void
s_truncate (zs_source_kafka_t *self, size_t from)
{
    while (self->n > from)
        s_split_destroy (&self->splits[--self->n]);
}

//  Append copies of splits, then read them too. A split held already is
//  skipped when adding, an error when assigning (read twice, its rows
//  would be twice in the table). 0, or -1 with err and nothing changed.
static int
s_take (zs_source_kafka_t *self, Zsink__Split *const *splits, size_t n, bool adding, char *err,
        size_t errlen)
{
    size_t from = self->n;
    for (size_t i = 0; i < n; i++) {
        s_split_t *s = s_split_new (splits[i], err, errlen);
        if (!s) {
            s_truncate (self, from);
            return -1;
        }
        if (s_find (self, s->pb.topic, s->pb.partition)) {
            bool dup = !adding;
            if (dup)
                snprintf (err, errlen, "split '%s' given twice", s->pb.id);
            s_split_destroy (&s);
            if (!dup)
                continue;
            s_truncate (self, from);
            return -1;
        }
        if (s_append (self, s) != 0) {
            s_split_destroy (&s);
            s_truncate (self, from);
            snprintf (err, errlen, "out of memory");
            return -1;
        }
    }
    rd_kafka_topic_partition_list_t *l = s_to_read (self, from);
    rd_kafka_error_t *e = l ? rd_kafka_incremental_assign (self->rk, l) : NULL;
    if (l)
        rd_kafka_topic_partition_list_destroy (l);
    if (!l || e) {
        snprintf (err, errlen, "Kafka assign: %s", e ? rd_kafka_error_string (e) : "out of memory");
        if (e)
            rd_kafka_error_destroy (e);
        s_truncate (self, from);
        return -1;
    }
    return 0;
}

static void
s_clear (zs_source_kafka_t *self)
{
    s_drop_messages (self);
    for (size_t i = 0; i < self->n; i++)
        s_split_destroy (&self->splits[i]);
    self->n = 0;
}

int
zs_source_kafka_assign (zs_source_kafka_t *self, Zsink__Split *const *splits, size_t n, char *err,
                        size_t errlen)
{
    s_clear (self);
    self->fatal[0] = 0; //  a fresh start: if it is still so, it is said again
    //  an empty assignment first: every partition held before stops, and
    //  what it fetched is dropped (invariant 3)
    rd_kafka_resp_err_t rc = rd_kafka_assign (self->rk, NULL);
    if (rc) {
        snprintf (err, errlen, "Kafka assign: %s", rd_kafka_err2str (rc));
        return -1;
    }
    if (s_take (self, splits, n, false, err, errlen) != 0) {
        s_clear (self);
        rd_kafka_assign (self->rk, NULL);
        return -1;
    }
    return 0;
}

int
zs_source_kafka_add (zs_source_kafka_t *self, Zsink__Split *const *splits, size_t n, char *err,
                     size_t errlen)
{
    return s_take (self, splits, n, true, err, errlen);
}

//  s is finished: stop fetching it (invariant 3).
static void
s_finish (zs_source_kafka_t *self, s_split_t *s)
{
    s->pb.finished = true;
    if (!s->assigned)
        return;
    s->assigned = false;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new (1);
    rd_kafka_topic_partition_list_add (l, s->pb.topic, s->pb.partition);
    rd_kafka_error_t *e = rd_kafka_incremental_unassign (self->rk, l);
    rd_kafka_topic_partition_list_destroy (l);
    if (e) {
        //  harmless: its records are dropped (invariant 2)
        zs_warn ("Kafka: cannot stop reading %s: %s", s->pb.id, rd_kafka_error_string (e));
        rd_kafka_error_destroy (e);
    }
}

//  The split is at offset (invariant 1).
static void
s_advance (zs_source_kafka_t *self, s_split_t *s, int64_t offset)
{
    if (s->pb.stop >= 0 && offset > s->pb.stop)
        offset = s->pb.stop;
    if (offset > s->pb.offset || s->pb.offset == RD_KAFKA_OFFSET_BEGINNING)
        s->pb.offset = offset;
    if (s_finished (s))
        s_finish (self, s);
}

size_t
zs_source_kafka_splits (zs_source_kafka_t *self, Zsink__Split ***out)
{
    for (size_t i = 0; i < self->n; i++) {
        s_split_t *s = self->splits[i];
        int64_t lo, hi;
        //  the client's cached watermark (no request): the lag for
        //  heartbeats, together with the end-of-partition events
        if (s->assigned
            && rd_kafka_get_watermark_offsets (self->rk, s->pb.topic, s->pb.partition, &lo, &hi)
                   == RD_KAFKA_RESP_ERR_NO_ERROR
            && hi >= 0 && hi > s->pb.end)
            s->pb.end = hi;
    }
    *out = self->out;
    return self->n;
}

int64_t
zs_source_kafka_skipped (zs_source_kafka_t *self)
{
    int64_t sum = 0;
    for (size_t i = 0; i < self->n; i++)
        sum += self->splits[i]->pb.skipped;
    return sum;
}

// --------------------------------------------------------------------------
//  Reading

//  An error of the client about a partition or the consumer: -1 with err
//  when the job cannot go on, else 0 (logged).
static int
s_client_error (zs_source_kafka_t *self, const rd_kafka_message_t *m, char *err, size_t errlen)
{
    char where[300] = "";
    if (m->rkt)
        snprintf (where, sizeof where, "topic '%s' partition %" PRId32 " offset %" PRId64 ": ",
                  rd_kafka_topic_name (m->rkt), m->partition, m->offset);
    if (m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET
        || m->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE) {
        snprintf (err, errlen,
                  "Kafka %s%s (the offset is gone or not there yet: records deleted by retention? "
                  "properties.auto.offset.reset decides what to do instead)",
                  where, rd_kafka_message_errstr (m));
        return -1;
    }
    if (s_fatal (m->err)) {
        snprintf (err, errlen, "Kafka %s%s", where, rd_kafka_message_errstr (m));
        return -1;
    }
    char what[ZS_ERRLEN];
    snprintf (what, sizeof what, "%s%s", where, rd_kafka_message_errstr (m));
    s_transient (self, what);
    return 0;
}

//  A record's value into row. 0, or -1 with why.
static int
s_parse (zs_source_kafka_t *self, const rd_kafka_message_t *m, zs_value_t *row, char *why,
         size_t whylen)
{
    if (!m->payload) {
        snprintf (why, whylen, "null value (a tombstone?)");
        return -1;
    }
    const uint8_t *p = m->payload;
    return self->csv ? zs_record_csv (self->rec, p, m->len, row, why, whylen)
                     : zs_record_json (self->rec, p, m->len, row, why, whylen);
}

//  One record of split s. 1 with a row, 0 when consumed without one (the
//  message is then the caller's to destroy), -1 with err (held).
static int
s_record (zs_source_kafka_t *self, s_split_t *s, rd_kafka_message_t *m, zs_value_t *row, char *err,
          size_t errlen)
{
    char why[ZS_ERRLEN];
    if (s_parse (self, m, row, why, sizeof why) == 0) {
        s->pb.rows++;
        s_advance (self, s, m->offset + 1);
        self->last = m;
        return 1;
    }
    if (!self->skip_errors) {
        snprintf (err, errlen, "Kafka topic '%s' partition %" PRId32 " offset %" PRId64 ": %s",
                  s->pb.topic, s->pb.partition, m->offset, why);
        self->held = m;
        return -1;
    }
    if (zs_source_kafka_skipped (self) < ZS_SOURCE_FILE_SKIP_LOG)
        zs_warn ("Skipped bad record: Kafka topic '%s' partition %" PRId32 " offset %" PRId64
                 ": %s%s",
                 s->pb.topic, s->pb.partition, m->offset, why,
                 zs_source_kafka_skipped (self) + 1 == ZS_SOURCE_FILE_SKIP_LOG
                     ? " (further bad records are only counted)"
                     : "");
    s->pb.skipped++;
    s_advance (self, s, m->offset + 1);
    return 0;
}

//  One message off the consumer. 1 with a row, 0 consumed (nothing for the
//  caller), -1 with err. The message is consumed or kept here.
static int
s_message (zs_source_kafka_t *self, rd_kafka_message_t *m, zs_value_t *row, char *err,
           size_t errlen)
{
    s_split_t *s = m->rkt ? s_find (self, rd_kafka_topic_name (m->rkt), m->partition) : NULL;
    int rc = 0;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        if (s && !s->pb.finished) {
            if (m->offset > s->pb.end)
                s->pb.end = m->offset;
            s_advance (self, s, m->offset);
        }
    } else if (m->err) {
        //  about a partition we no longer read (assigned before): not ours
        if (!m->rkt || (s && !s->pb.finished))
            rc = s_client_error (self, m, err, errlen);
    } else if (!s || s->pb.finished || (s->pb.offset >= 0 && m->offset < s->pb.offset))
        rc = 0; //  not ours (any more), or already read (invariant 2)
    else if (s->pb.stop >= 0 && m->offset >= s->pb.stop)
        s_advance (self, s, s->pb.stop);
    else if ((rc = s_record (self, s, m, row, err, errlen)) != 0)
        return rc; //  kept: the row's, or held
    rd_kafka_message_destroy (m);
    return rc;
}

//  The next message off the consumer, in order, or NULL: none now.
static rd_kafka_message_t *
s_poll (zs_source_kafka_t *self)
{
    if (self->batch_i == self->batch_n) {
        ssize_t n = rd_kafka_consume_batch_queue (self->queue, 0, self->batch, S_BATCH);
        self->batch_i = 0;
        self->batch_n = n > 0 ? (size_t) n : 0;
    }
    return self->batch_i < self->batch_n ? self->batch[self->batch_i++] : NULL;
}

static bool
s_all_finished (zs_source_kafka_t *self)
{
    for (size_t i = 0; i < self->n; i++)
        if (!self->splits[i]->pb.finished)
            return false;
    return self->n > 0 || self->bounded;
}

int
zs_source_kafka_next (zs_source_kafka_t *self, zs_value_t *row, char *err, size_t errlen)
{
    if (self->last) {
        rd_kafka_message_destroy (self->last);
        self->last = NULL;
    }
    zs_record_clear (self->rec);
    if (self->held) {
        //  the bad record again (invariant 4)
        rd_kafka_message_t *m = self->held;
        self->held = NULL;
        return s_message (self, m, row, err, errlen);
    }
    for (;;) {
        if (s_all_finished (self))
            return ZS_EOF;
        rd_kafka_message_t *m = s_poll (self);
        if (self->fatal[0]) {
            snprintf (err, errlen, "%s", self->fatal);
            if (m)
                rd_kafka_message_destroy (m);
            return -1;
        }
        if (!m)
            return 0;
        int rc = s_message (self, m, row, err, errlen);
        if (rc != 0)
            return rc;
    }
}

void
zs_source_kafka_destroy (zs_source_kafka_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_source_kafka_t *self = *self_p;
    s_clear (self);
    if (self->queue)
        rd_kafka_queue_destroy (self->queue);
    if (self->rk) {
        //  nothing to leave nor commit: no group membership (invariant 3)
        rd_kafka_assign (self->rk, NULL);
        rd_kafka_destroy_flags (self->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    }
    zs_record_destroy (&self->rec);
    free (self->splits);
    free (self->out);
    free (self);
    *self_p = NULL;
}
