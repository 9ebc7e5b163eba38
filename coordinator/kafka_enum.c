/*  kafka_enum.c - see kafka_enum.h.

    zs_kafka_enum_new reads the settings (topics or the pattern, the two
    modes, the client) in the caller's thread, so that a bad one is an
    error of _new, then hands them to an actor thread that owns them until
    it ends. A request is one message down the actor's pipe: a command
    (DISCOVER, STOPS, COMMIT), then one frame per item (DISCOVER: a known
    split id; STOPS and COMMIT: a packed Split). Every request gets exactly
    one answer, in the order asked: its kind (SPLITS, STOPS, COMMITTED), an
    error text ("" when it worked), then one packed Split per frame. Splits
    travel one to a frame so that the receiver unpacks each on its own and
    can keep or free each.

    Invariants:
    1. After _new, only the actor thread calls librdkafka, and every call
       that waits for a broker is bounded by S_TIMEOUT_MS (a commit too:
       its result is awaited on a queue of its own with that deadline). A
       request that needs k such calls is answered within k timeouts,
       broker or not: the coordinator's loop never waits for Kafka.
    2. A failed request changes nothing: the handle stays, the next
       request is served as if the failed one had not been asked.
    3. Offsets in answers are exact numbers, except a start of -2
       (earliest: the reader's client resolves it when it first fetches)
       and a stop of -1 (unbounded).
    4. End offsets come from ListOffsets(LATEST) sent with the handle's
       isolation.level (librdkafka's rd_kafka_ListOffsetsRequest writes it
       into the request, v2 and up): the last stable offset under
       read_committed, librdkafka's default, so a bounded run never waits
       for an open transaction. tests/unit/test_kafka_enum.c checks it
       with a transaction left open.
    5. The handle is a consumer that never subscribes nor assigns: it
       looks up metadata, offsets and the group's committed offsets, and
       commits offsets as a "standalone consumer" (generation -1, no
       member), which the broker takes from a group with no active member,
       as Flink's reader does.
*/
#include "kafka_enum.h"
#include "log.h"
#include <ctype.h>
#include <inttypes.h>
#include <librdkafka/rdkafka.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  Longest wait for the broker in one librdkafka call.
#define S_TIMEOUT_MS 10000
//  How often the idle actor serves the handle's own queue.
#define S_IDLE_MS 1000

typedef enum { S_EARLIEST, S_LATEST, S_GROUP, S_TIMESTAMP, S_SPECIFIC, S_UNBOUNDED } s_mode_t;

static const struct {
    const char *name;
    s_mode_t mode;
} s_modes[] = {{"earliest-offset", S_EARLIEST},  {"latest-offset", S_LATEST},
               {"group-offsets", S_GROUP},       {"timestamp", S_TIMESTAMP},
               {"specific-offsets", S_SPECIFIC}, {"unbounded", S_UNBOUNDED}};

typedef struct {
    int32_t partition;
    int64_t offset;
} s_spec_t;

//  Where splits start, or stop: scan.startup.* or scan.bounded.*.
typedef struct {
    s_mode_t mode;
    int64_t ts;     //  timestamp: milliseconds since the epoch
    s_spec_t *spec; //  specific-offsets, in the order given
    size_t n_spec;
} s_where_t;

//  What the actor owns.
typedef struct {
    rd_kafka_t *rk;
    char **topics; //  source.kafka.topic, trimmed, or NULL
    size_t n_topics;
    regex_t re; //  source.kafka.topic-pattern, anchored
    bool has_re;
    s_where_t start, stop;
    int64_t reset; //  auto.offset.reset: -2 earliest, -1 latest, 0 none
    bool group;    //  group.id is set
    char group_id[256];
} s_state_t;

struct _zs_kafka_enum_t {
    zactor_t *actor;
};

static void s_err (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

static void
s_err (char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (err, errlen, fmt, ap);
    va_end (ap);
}

static void
s_state_destroy (s_state_t **st_p)
{
    s_state_t *st = *st_p;
    if (!st)
        return;
    if (st->rk) //  it never joined a group: nothing to leave
        rd_kafka_destroy_flags (st->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    for (size_t i = 0; i < st->n_topics; i++)
        free (st->topics[i]);
    free (st->topics);
    if (st->has_re)
        regfree (&st->re);
    free (st->start.spec);
    free (st->stop.spec);
    free (st);
    *st_p = NULL;
}

//  --------------------------------------------------------------------------
//  Settings, read in the caller's thread

//  source.kafka.topic: names separated by ';', spaces around them trimmed.
static int
s_parse_topics (s_state_t *st, const char *text, char *err, size_t errlen)
{
    char *copy = strdup (text);
    int rc = 0;
    for (char *p = copy, *next; p && rc == 0; p = next) {
        next = strchr (p, ';');
        if (next)
            *next++ = 0;
        while (isspace ((unsigned char) *p))
            p++;
        size_t len = strlen (p);
        while (len && isspace ((unsigned char) p[len - 1]))
            p[--len] = 0;
        if (!len) {
            s_err (err, errlen, "source.kafka.topic: an empty topic name in '%s'", text);
            rc = -1;
            break;
        }
        size_t k = 0;
        while (k < st->n_topics && strcmp (st->topics[k], p) != 0)
            k++;
        if (k < st->n_topics)
            continue; //  named twice: once is enough
        st->topics = realloc (st->topics, (st->n_topics + 1) * sizeof *st->topics);
        st->topics[st->n_topics++] = strdup (p);
    }
    free (copy);
    return rc;
}

//  source.kafka.topic-pattern, matched against the whole name.
static int
s_parse_pattern (s_state_t *st, const char *pattern, char *err, size_t errlen)
{
    size_t len = strlen (pattern) + 5;
    char *anchored = malloc (len);
    snprintf (anchored, len, "^(%s)$", pattern);
    int rc = regcomp (&st->re, anchored, REG_EXTENDED | REG_NOSUB);
    free (anchored);
    if (rc != 0) {
        char why[256];
        regerror (rc, &st->re, why, sizeof why);
        s_err (err, errlen, "source.kafka.topic-pattern: '%s' is not a regular expression: %s",
               pattern, why);
        return -1;
    }
    st->has_re = true;
    return 0;
}

//  Flink's specific-offsets: "partition:0,offset:42;partition:1,offset:300".
static int
s_parse_specific (s_where_t *w, const char *key, const char *text, char *err, size_t errlen)
{
    char *copy = strdup (text), *save = NULL;
    int rc = 0;
    for (char *pair = strtok_r (copy, ";", &save); pair && rc == 0;
         pair = strtok_r (NULL, ";", &save)) {
        if (!pair[strspn (pair, " \t")])
            continue; //  "…;" as Java's split: an empty last one
        int32_t p = -1;
        int64_t o = -1;
        int used = 0;
        if (sscanf (pair, " partition : %" SCNd32 " , offset : %" SCNd64 " %n", &p, &o, &used) != 2
            || pair[used] || p < 0 || o < 0) {
            s_err (err, errlen,
                   "%s: '%s' is not partition:P,offset:O (as in "
                   "'partition:0,offset:42;partition:1,offset:300')",
                   key, pair);
            rc = -1;
            break;
        }
        w->spec = realloc (w->spec, (w->n_spec + 1) * sizeof *w->spec);
        w->spec[w->n_spec++] = (s_spec_t){p, o};
    }
    free (copy);
    return rc;
}

static int
s_parse_where (s_where_t *w, const char *what, const char *mode, int64_t ts, const char *offsets,
               char *err, size_t errlen)
{
    size_t k = 0, n = sizeof s_modes / sizeof s_modes[0];
    while (k < n && strcmp (s_modes[k].name, mode) != 0)
        k++;
    bool startup = strcmp (what, "startup") == 0;
    if (k == n || s_modes[k].mode == (startup ? S_UNBOUNDED : S_EARLIEST)) {
        s_err (err, errlen, "source.kafka.scan.%s.mode: '%s' is not a mode", what, mode);
        return -1;
    }
    w->mode = s_modes[k].mode;
    w->ts = ts;
    if (w->mode == S_TIMESTAMP && ts < 0) {
        s_err (err, errlen, "source.kafka.scan.%s.timestamp-millis: required", what);
        return -1;
    }
    char key[80];
    snprintf (key, sizeof key, "source.kafka.scan.%s.specific-offsets", what);
    if (w->mode == S_SPECIFIC && s_parse_specific (w, key, offsets, err, errlen) != 0)
        return -1;
    return 0;
}

//  properties.auto.offset.reset, Flink's (OffsetResetStrategy, any case)
//  and librdkafka's names: where a partition with no committed offset
//  starts under group-offsets.
static int
s_parse_reset (s_state_t *st, const zs_config_t *cfg, char *err, size_t errlen)
{
    size_t len = 0;
    const char *v = zs_config_kafka_property (cfg, "auto.offset.reset", &len);
    char value[32] = "none";
    if (v)
        snprintf (value, sizeof value, "%.*s", (int) (len < 31 ? len : 31), v);
    static const char *const names[] = {"earliest", "smallest", "beginning", "latest",
                                        "largest",  "end",      "none",      "error"};
    static const int64_t resets[] = {-2, -2, -2, -1, -1, -1, 0, 0};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp (value, names[i]) == 0) {
            st->reset = resets[i];
            return 0;
        }
    s_err (err, errlen,
           "source.kafka.properties.auto.offset.reset: '%.*s' is not earliest, latest or none",
           (int) len, v);
    return -1;
}

//  --------------------------------------------------------------------------
//  The client

static void
s_log_cb (const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    (void) rk;
    zs_log (level <= 4 ? ZS_LOG_WARN : ZS_LOG_DEBUG, "Kafka enumerator: %s: %s", fac, buf);
}

//  The client's errors (served by rd_kafka_poll in the actor): each also
//  came as a log line, so only those that say more than one connection.
static void
s_error_cb (rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
    (void) rk, (void) opaque;
    bool loud = err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || err == RD_KAFKA_RESP_ERR__FATAL;
    zs_log (loud ? ZS_LOG_WARN : ZS_LOG_DEBUG, "Kafka enumerator: %s", reason);
}

typedef struct {
    rd_kafka_conf_t *conf;
    char *err;
    size_t errlen;
    int rc;
} s_conf_arg_t;

//  Every client property as given, but two: commit.offsets.on.checkpoint
//  is Flink's, not the client's (cfg->kafka_commit_offsets), and
//  auto.offset.reset is read here (s_parse_reset; librdkafka knows no
//  "none", and this handle never fetches).
static void
s_set_property (const char *name, const char *value, void *arg)
{
    s_conf_arg_t *a = arg;
    if (a->rc || !strcmp (name, "commit.offsets.on.checkpoint")
        || !strcmp (name, "auto.offset.reset"))
        return;
    char why[512];
    if (rd_kafka_conf_set (a->conf, name, value, why, sizeof why) != RD_KAFKA_CONF_OK) {
        s_err (a->err, a->errlen, "source.kafka.properties.%s: %s", name, why);
        a->rc = -1;
    }
}

static int
s_client_new (s_state_t *st, const zs_config_t *cfg, char *err, size_t errlen)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new ();
    char why[512];
    rd_kafka_conf_set (conf, "client.id", "zsink-enumerator", why, sizeof why);
    //  a request a broker takes and never answers fails as ours time out
    char ms[24];
    snprintf (ms, sizeof ms, "%d", S_TIMEOUT_MS);
    rd_kafka_conf_set (conf, "socket.timeout.ms", ms, why, sizeof why);
    rd_kafka_conf_set_log_cb (conf, s_log_cb);
    rd_kafka_conf_set_error_cb (conf, s_error_cb);
    s_conf_arg_t arg = {conf, err, errlen, 0};
    zs_config_kafka_properties (cfg, s_set_property, &arg);
    if (arg.rc != 0) {
        rd_kafka_conf_destroy (conf);
        return -1;
    }
    //  Last, over the job's: how long librdkafka keeps a commit waiting
    //  for the group's coordinator (measured: session.timeout.ms and up
    //  to 1 s more; 45 s by default), and rd_kafka_destroy waits for a
    //  pending commit. Half the request's timeout, so that a commit's
    //  fate is known when its request is answered: none outlives it. The
    //  handle joins no group, so the setting has no other use here.
    snprintf (ms, sizeof ms, "%d", S_TIMEOUT_MS / 2);
    rd_kafka_conf_set (conf, "session.timeout.ms", ms, why, sizeof why);
    st->rk = rd_kafka_new (RD_KAFKA_CONSUMER, conf, why, sizeof why);
    if (!st->rk) {
        rd_kafka_conf_destroy (conf);
        s_err (err, errlen, "the Kafka client: %s", why);
        return -1;
    }
    size_t len = 0;
    const char *group = zs_config_kafka_property (cfg, "group.id", &len);
    st->group = group != NULL;
    if (group)
        snprintf (st->group_id, sizeof st->group_id, "%.*s", (int) len, group);
    return 0;
}

static s_state_t *
s_state_new (const zs_config_t *cfg, char *err, size_t errlen)
{
    s_state_t *st = calloc (1, sizeof *st);
    int rc = 0;
    if (*cfg->kafka_topic_pattern)
        rc = s_parse_pattern (st, cfg->kafka_topic_pattern, err, errlen);
    else if (*cfg->kafka_topic)
        rc = s_parse_topics (st, cfg->kafka_topic, err, errlen);
    else {
        s_err (err, errlen, "source.kafka.topic or source.kafka.topic-pattern: one is required");
        rc = -1;
    }
    if (rc == 0)
        rc = s_parse_where (&st->start, "startup", cfg->kafka_startup_mode,
                            cfg->kafka_startup_timestamp_ms, cfg->kafka_startup_offsets, err,
                            errlen);
    if (rc == 0)
        rc = s_parse_where (&st->stop, "bounded", cfg->kafka_bounded_mode,
                            cfg->kafka_bounded_timestamp_ms, cfg->kafka_bounded_offsets, err,
                            errlen);
    if (rc == 0)
        rc = s_parse_reset (st, cfg, err, errlen);
    if (rc == 0)
        rc = s_client_new (st, cfg, err, errlen);
    if (rc != 0)
        s_state_destroy (&st);
    return st;
}

//  --------------------------------------------------------------------------
//  Offsets: each helper works on a list of topic-partitions, its offsets
//  in and out

//  The first partition error of tp, as err.
static int
s_partition_errors (const rd_kafka_topic_partition_list_t *tp, const char *what, char *err,
                    size_t errlen)
{
    for (int i = 0; i < tp->cnt; i++)
        if (tp->elems[i].err) {
            s_err (err, errlen, "Kafka %s of partition %" PRId32 " of topic '%s': %s", what,
                   tp->elems[i].partition, tp->elems[i].topic, rd_kafka_err2str (tp->elems[i].err));
            return -1;
        }
    return 0;
}

static void
s_fill (rd_kafka_topic_partition_list_t *tp, int64_t offset)
{
    for (int i = 0; i < tp->cnt; i++)
        tp->elems[i].offset = offset;
}

//  ListOffsets: each offset in is a timestamp or RD_KAFKA_OFFSET_END; out,
//  the first offset at or after it (-1: none), or the end offset.
static int
s_list_offsets (s_state_t *st, rd_kafka_topic_partition_list_t *tp, char *err, size_t errlen)
{
    if (tp->cnt == 0)
        return 0;
    rd_kafka_resp_err_t rc = rd_kafka_offsets_for_times (st->rk, tp, S_TIMEOUT_MS);
    if (rc) {
        s_err (err, errlen, "Kafka ListOffsets of %d partition(s): %s", tp->cnt,
               rd_kafka_err2str (rc));
        return -1;
    }
    return s_partition_errors (tp, "ListOffsets", err, errlen);
}

//  The group's committed offsets (RD_KAFKA_OFFSET_INVALID: none).
static int
s_committed (s_state_t *st, rd_kafka_topic_partition_list_t *tp, char *err, size_t errlen)
{
    if (tp->cnt == 0)
        return 0;
    rd_kafka_resp_err_t rc = rd_kafka_committed (st->rk, tp, S_TIMEOUT_MS);
    if (rc) {
        s_err (err, errlen, "Kafka committed offsets of group '%s': %s", st->group_id,
               rd_kafka_err2str (rc));
        return -1;
    }
    return s_partition_errors (tp, "committed offset", err, errlen);
}

//  Set every element of tp at offset `which` to `to` with fn (a lookup on
//  a list of just them, merged back).
static int
s_resolve_some (s_state_t *st, rd_kafka_topic_partition_list_t *tp, int64_t which, int64_t to,
                int (*fn) (s_state_t *, rd_kafka_topic_partition_list_t *, char *, size_t),
                char *err, size_t errlen)
{
    rd_kafka_topic_partition_list_t *sub = rd_kafka_topic_partition_list_new (tp->cnt);
    for (int i = 0; i < tp->cnt; i++)
        if (tp->elems[i].offset == which)
            rd_kafka_topic_partition_list_add (sub, tp->elems[i].topic, tp->elems[i].partition)
                ->offset = to;
    int rc = fn (st, sub, err, errlen);
    for (int i = 0; rc == 0 && i < sub->cnt; i++)
        rd_kafka_topic_partition_list_find (tp, sub->elems[i].topic, sub->elems[i].partition)
            ->offset = sub->elems[i].offset;
    rd_kafka_topic_partition_list_destroy (sub);
    return rc;
}

//  The elements at `which` get the end offset.
static int
s_ends (s_state_t *st, rd_kafka_topic_partition_list_t *tp, int64_t which, char *err, size_t errlen)
{
    return s_resolve_some (st, tp, which, RD_KAFKA_OFFSET_END, s_list_offsets, err, errlen);
}

//  timestamp: the first offset at or after ts, else the end offset.
static int
s_by_time (s_state_t *st, int64_t ts, rd_kafka_topic_partition_list_t *tp, char *err, size_t errlen)
{
    s_fill (tp, ts);
    if (s_list_offsets (st, tp, err, errlen) != 0)
        return -1;
    return s_ends (st, tp, -1, err, errlen);
}

//  group-offsets: the committed offset; none, for a start:
//  auto.offset.reset (Flink's OffsetResetStrategy), for a stop: an error
//  (Flink's committedOffsets() for a bounded source: NONE).
static int
s_by_group (s_state_t *st, bool start, rd_kafka_topic_partition_list_t *tp, char *err,
            size_t errlen)
{
    if (s_committed (st, tp, err, errlen) != 0)
        return -1;
    for (int i = 0; i < tp->cnt; i++) {
        rd_kafka_topic_partition_t *e = &tp->elems[i];
        if (e->offset != RD_KAFKA_OFFSET_INVALID)
            continue;
        if (!start || st->reset == 0) {
            s_err (err, errlen,
                   "partition %" PRId32 " of topic '%s' has no offset committed by group '%s'%s",
                   e->partition, e->topic, st->group_id,
                   start ? " and properties.auto.offset.reset is none" : "");
            return -1;
        }
        e->offset = st->reset == -2 ? RD_KAFKA_OFFSET_BEGINNING : RD_KAFKA_OFFSET_END;
    }
    return s_ends (st, tp, RD_KAFKA_OFFSET_END, err, errlen);
}

//  The group's committed offsets, else earliest (Flink's
//  SpecifiedOffsetsInitializer: OffsetResetStrategy.EARLIEST); with no
//  group.id, earliest.
static int
s_committed_or_earliest (s_state_t *st, rd_kafka_topic_partition_list_t *tp, char *err,
                         size_t errlen)
{
    if (st->group && s_committed (st, tp, err, errlen) != 0)
        return -1;
    for (int i = 0; i < tp->cnt; i++)
        if (!st->group || tp->elems[i].offset == RD_KAFKA_OFFSET_INVALID)
            tp->elems[i].offset = RD_KAFKA_OFFSET_BEGINNING;
    return 0;
}

//  specific-offsets: as given (the last given for a partition, as Flink's
//  map); others: a start as s_committed_or_earliest, a stop unbounded.
static int
s_by_spec (s_state_t *st, const s_where_t *w, bool start, rd_kafka_topic_partition_list_t *tp,
           char *err, size_t errlen)
{
    for (int i = 0; i < tp->cnt; i++) {
        rd_kafka_topic_partition_t *e = &tp->elems[i];
        e->offset = start ? RD_KAFKA_OFFSET_INVALID : -1;
        for (size_t k = w->n_spec; k-- > 0;)
            if (w->spec[k].partition == e->partition) {
                e->offset = w->spec[k].offset;
                break;
            }
    }
    if (!start)
        return 0;
    return s_resolve_some (st, tp, RD_KAFKA_OFFSET_INVALID, RD_KAFKA_OFFSET_INVALID,
                           s_committed_or_earliest, err, errlen);
}

//  Every element's offset, where w says splits start (or stop).
static int
s_resolve (s_state_t *st, const s_where_t *w, bool start, rd_kafka_topic_partition_list_t *tp,
           char *err, size_t errlen)
{
    switch (w->mode) {
    case S_EARLIEST:
        s_fill (tp, RD_KAFKA_OFFSET_BEGINNING);
        return 0;
    case S_UNBOUNDED:
        s_fill (tp, -1);
        return 0;
    case S_LATEST:
        s_fill (tp, RD_KAFKA_OFFSET_END);
        return s_ends (st, tp, RD_KAFKA_OFFSET_END, err, errlen);
    case S_TIMESTAMP:
        return s_by_time (st, w->ts, tp, err, errlen);
    case S_GROUP:
        return s_by_group (st, start, tp, err, errlen);
    case S_SPECIFIC:
        return s_by_spec (st, w, start, tp, err, errlen);
    }
    return -1;
}

//  --------------------------------------------------------------------------
//  Discovery

static bool
s_matches (s_state_t *st, const char *topic)
{
    //  internal topics (__consumer_offsets, __transaction_state) never
    return strncmp (topic, "__", 2) != 0 && regexec (&st->re, topic, 0, NULL, 0) == 0;
}

static void
s_add_partitions (const struct rd_kafka_metadata_topic *mt, zhash_t *known,
                  rd_kafka_topic_partition_list_t *tp)
{
    for (int p = 0; p < mt->partition_cnt; p++) {
        char id[512];
        snprintf (id, sizeof id, "kafka:%s:%" PRId32, mt->topic, mt->partitions[p].id);
        if (!zhash_lookup (known, id))
            rd_kafka_topic_partition_list_add (tp, mt->topic, mt->partitions[p].id);
    }
}

//  The partitions of the topics asked for, not known, into tp.
static int
s_find (s_state_t *st, const struct rd_kafka_metadata *md, zhash_t *known,
        rd_kafka_topic_partition_list_t *tp, char *err, size_t errlen)
{
    if (st->has_re) {
        for (int t = 0; t < md->topic_cnt; t++) {
            const struct rd_kafka_metadata_topic *mt = &md->topics[t];
            if (!s_matches (st, mt->topic))
                continue;
            if (mt->err) //  being created, or deleted: found next time
                zs_debug ("Kafka enumerator: topic '%s' left out: %s", mt->topic,
                          rd_kafka_err2str (mt->err));
            else
                s_add_partitions (mt, known, tp);
        }
        return 0;
    }
    for (size_t i = 0; i < st->n_topics; i++) {
        int t = 0;
        while (t < md->topic_cnt && strcmp (md->topics[t].topic, st->topics[i]) != 0)
            t++;
        if (t == md->topic_cnt) {
            s_err (err, errlen, "source.kafka.topic: topic '%s' does not exist", st->topics[i]);
            return -1;
        }
        if (md->topics[t].err) {
            s_err (err, errlen, "source.kafka.topic: topic '%s': %s", st->topics[i],
                   rd_kafka_err2str (md->topics[t].err));
            return -1;
        }
        s_add_partitions (&md->topics[t], known, tp);
    }
    return 0;
}

static Zsink__Split *
s_split_new (const char *topic, int32_t partition, int64_t offset, int64_t stop)
{
    Zsink__Split *s = malloc (sizeof *s);
    zsink__split__init (s);
    s->id = zsys_sprintf ("kafka:%s:%" PRId32, topic, partition);
    s->topic = strdup (topic);
    s->has_partition = true;
    s->partition = partition;
    s->has_offset = s->has_stop = s->has_finished = s->has_rows = s->has_skipped = true;
    s->offset = offset;
    s->stop = stop;
    return s;
}

static void
s_split_destroy (Zsink__Split **s_p)
{
    if (*s_p) {
        free ((*s_p)->id);
        free ((*s_p)->topic);
        free (*s_p);
        *s_p = NULL;
    }
}

//  The new partitions' splits (*splits, *n), in (topic, partition) order.
static int
s_discover (s_state_t *st, zhash_t *known, Zsink__Split ***splits, size_t *n, char *err,
            size_t errlen)
{
    const struct rd_kafka_metadata *md = NULL;
    rd_kafka_resp_err_t rc = rd_kafka_metadata (st->rk, 1, NULL, &md, S_TIMEOUT_MS);
    if (rc) {
        s_err (err, errlen, "Kafka metadata: %s", rd_kafka_err2str (rc));
        return -1;
    }
    rd_kafka_topic_partition_list_t *tp = rd_kafka_topic_partition_list_new (16);
    int ret = s_find (st, md, known, tp, err, errlen);
    rd_kafka_metadata_destroy (md);
    rd_kafka_topic_partition_list_sort (tp, NULL, NULL);
    rd_kafka_topic_partition_list_t *stops = rd_kafka_topic_partition_list_copy (tp);
    if (ret == 0)
        ret = s_resolve (st, &st->start, true, tp, err, errlen);
    if (ret == 0)
        ret = s_resolve (st, &st->stop, false, stops, err, errlen);
    if (ret == 0) {
        *splits = calloc ((size_t) tp->cnt + 1, sizeof **splits);
        for (int i = 0; i < tp->cnt; i++)
            (*splits)[i] = s_split_new (tp->elems[i].topic, tp->elems[i].partition,
                                        tp->elems[i].offset, stops->elems[i].offset);
        *n = (size_t) tp->cnt;
    }
    rd_kafka_topic_partition_list_destroy (tp);
    rd_kafka_topic_partition_list_destroy (stops);
    return ret;
}

//  --------------------------------------------------------------------------
//  Stops and commits of splits the coordinator holds

static int
s_check_splits (Zsink__Split **splits, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++)
        if (!splits[i]->topic || !*splits[i]->topic || !splits[i]->has_partition
            || splits[i]->partition < 0) {
            s_err (err, errlen, "split '%s' is not a Kafka split (no topic or partition)",
                   splits[i]->id);
            return -1;
        }
    return 0;
}

static int
s_stops (s_state_t *st, Zsink__Split **splits, size_t n, char *err, size_t errlen)
{
    if (s_check_splits (splits, n, err, errlen) != 0)
        return -1;
    rd_kafka_topic_partition_list_t *tp = rd_kafka_topic_partition_list_new ((int) n);
    for (size_t i = 0; i < n; i++)
        rd_kafka_topic_partition_list_add (tp, splits[i]->topic, splits[i]->partition);
    int rc = s_resolve (st, &st->stop, false, tp, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        splits[i]->has_stop = true;
        splits[i]->stop =
            rd_kafka_topic_partition_list_find (tp, splits[i]->topic, splits[i]->partition)->offset;
    }
    rd_kafka_topic_partition_list_destroy (tp);
    return rc;
}

//  Wait for the commit's result on q, S_TIMEOUT_MS at most.
static rd_kafka_resp_err_t
s_commit_result (rd_kafka_queue_t *q, char *err, size_t errlen)
{
    rd_kafka_event_t *ev = rd_kafka_queue_poll (q, S_TIMEOUT_MS);
    if (!ev)
        return RD_KAFKA_RESP_ERR__TIMED_OUT;
    rd_kafka_resp_err_t rc = rd_kafka_event_error (ev);
    const rd_kafka_topic_partition_list_t *res = rd_kafka_event_topic_partition_list (ev);
    if (!rc && res && s_partition_errors (res, "offset commit", err, errlen) != 0)
        rc = RD_KAFKA_RESP_ERR__FAIL;
    rd_kafka_event_destroy (ev);
    return rc;
}

//  The offsets of the splits that read something, for the group. A commit
//  that times out may still be done later by the client (commits keep
//  their order, so a later one still wins).
static int
s_commit (s_state_t *st, Zsink__Split **splits, size_t n, char *err, size_t errlen)
{
    if (s_check_splits (splits, n, err, errlen) != 0)
        return -1;
    if (!st->group) {
        s_err (err, errlen, "source.kafka.properties.group.id: not set, no group to commit for");
        return -1;
    }
    rd_kafka_topic_partition_list_t *tp = rd_kafka_topic_partition_list_new ((int) n);
    for (size_t i = 0; i < n; i++)
        if (splits[i]->has_offset && splits[i]->offset >= 0)
            rd_kafka_topic_partition_list_add (tp, splits[i]->topic, splits[i]->partition)->offset =
                splits[i]->offset;
    rd_kafka_resp_err_t rc = RD_KAFKA_RESP_ERR_NO_ERROR;
    *err = 0;
    if (tp->cnt > 0) {
        rd_kafka_queue_t *q = rd_kafka_queue_new (st->rk);
        rc = rd_kafka_commit_queue (st->rk, tp, q, NULL, NULL);
        if (!rc)
            rc = s_commit_result (q, err, errlen);
        rd_kafka_queue_destroy (q);
    }
    rd_kafka_topic_partition_list_destroy (tp);
    if (rc && !*err)
        s_err (err, errlen, "Kafka offset commit for group '%s': %s", st->group_id,
               rd_kafka_err2str (rc));
    return rc ? -1 : 0;
}

//  --------------------------------------------------------------------------
//  The actor

static void
s_answer (zsock_t *pipe, const char *kind, const char *error, Zsink__Split **splits, size_t n)
{
    zmsg_t *msg = zmsg_new ();
    zmsg_addstr (msg, kind);
    zmsg_addstr (msg, error);
    for (size_t i = 0; !*error && i < n; i++) {
        zframe_t *frame = zframe_new (NULL, zsink__split__get_packed_size (splits[i]));
        zsink__split__pack (splits[i], zframe_data (frame));
        zmsg_append (msg, &frame);
    }
    zmsg_send (&msg, pipe);
}

static void
s_on_discover (s_state_t *st, zsock_t *pipe, zmsg_t *req)
{
    zhash_t *known = zhash_new ();
    for (char *id = zmsg_popstr (req); id; id = zmsg_popstr (req)) {
        zhash_insert (known, id, (void *) 1);
        free (id);
    }
    Zsink__Split **splits = NULL;
    size_t n = 0;
    char err[ZS_ERRLEN] = "";
    s_discover (st, known, &splits, &n, err, sizeof err);
    s_answer (pipe, "SPLITS", err, splits, n);
    for (size_t i = 0; i < n; i++)
        s_split_destroy (&splits[i]);
    free (splits);
    zhash_destroy (&known);
}

//  STOPS and COMMIT: the splits of the request, unpacked.
static void
s_on_splits (s_state_t *st, zsock_t *pipe, zmsg_t *req, bool commit)
{
    size_t n = zmsg_size (req), got = 0;
    Zsink__Split **splits = calloc (n + 1, sizeof *splits);
    for (zframe_t *f = zmsg_first (req); f; f = zmsg_next (req)) {
        splits[got] = zsink__split__unpack (NULL, zframe_size (f), zframe_data (f));
        if (splits[got])
            got++;
    }
    char err[ZS_ERRLEN] = "";
    if (got < n)
        s_err (err, sizeof err, "a split of the request does not decode");
    else if (commit)
        s_commit (st, splits, n, err, sizeof err);
    else
        s_stops (st, splits, n, err, sizeof err);
    s_answer (pipe, commit ? "COMMITTED" : "STOPS", err, commit ? NULL : splits, commit ? 0 : n);
    for (size_t i = 0; i < got; i++)
        zsink__split__free_unpacked (splits[i], NULL);
    free (splits);
}

//  One request; false at $TERM (or a pipe gone).
static bool
s_on_request (s_state_t *st, zsock_t *pipe)
{
    zmsg_t *req = zmsg_recv (pipe);
    if (!req)
        return false;
    char *cmd = zmsg_popstr (req);
    bool go_on = cmd && strcmp (cmd, "$TERM") != 0;
    if (go_on && !strcmp (cmd, "DISCOVER"))
        s_on_discover (st, pipe, req);
    else if (go_on && !strcmp (cmd, "STOPS"))
        s_on_splits (st, pipe, req, false);
    else if (go_on && !strcmp (cmd, "COMMIT"))
        s_on_splits (st, pipe, req, true);
    else if (go_on)
        zs_error ("Kafka enumerator: unknown request '%s'", cmd);
    free (cmd);
    zmsg_destroy (&req);
    return go_on;
}

static void
s_actor (zsock_t *pipe, void *args)
{
    s_state_t *st = args;
    zpoller_t *poller = zpoller_new (pipe, NULL);
    zsock_signal (pipe, 0);
    while (true) {
        void *which = zpoller_wait (poller, S_IDLE_MS);
        if (which == pipe && !s_on_request (st, pipe))
            break;
        if (!which && zpoller_terminated (poller) && zmq_errno () == ETERM)
            break;
        rd_kafka_poll (st->rk, 0); //  the handle's own events: its errors
    }
    zpoller_destroy (&poller);
    s_state_destroy (&st);
}

//  --------------------------------------------------------------------------
//  The coordinator's side

zs_kafka_enum_t *
zs_kafka_enum_new (const zs_config_t *cfg, char *err, size_t errlen)
{
    s_state_t *st = s_state_new (cfg, err, errlen);
    if (!st)
        return NULL;
    zs_kafka_enum_t *self = calloc (1, sizeof *self);
    self->actor = zactor_new (s_actor, st);
    if (!self->actor) {
        s_state_destroy (&st);
        free (self);
        s_err (err, errlen, "the Kafka enumerator's thread did not start");
        return NULL;
    }
    return self;
}

void
zs_kafka_enum_destroy (zs_kafka_enum_t **self_p)
{
    zs_kafka_enum_t *self = *self_p;
    if (!self)
        return;
    zactor_destroy (&self->actor); //  waits for a request under way (its timeout)
    free (self);
    *self_p = NULL;
}

zsock_t *
zs_kafka_enum_sock (zs_kafka_enum_t *self)
{
    return zactor_sock (self->actor);
}

int
zs_kafka_enum_discover (zs_kafka_enum_t *self, const char *const *known_ids, size_t n_known)
{
    zmsg_t *msg = zmsg_new ();
    zmsg_addstr (msg, "DISCOVER");
    for (size_t i = 0; i < n_known; i++)
        zmsg_addstr (msg, known_ids[i]);
    return zmsg_send (&msg, self->actor);
}

static int
s_send_splits (zs_kafka_enum_t *self, const char *cmd, Zsink__Split *const *splits, size_t n)
{
    zmsg_t *msg = zmsg_new ();
    zmsg_addstr (msg, cmd);
    for (size_t i = 0; i < n; i++) {
        zframe_t *frame = zframe_new (NULL, zsink__split__get_packed_size (splits[i]));
        zsink__split__pack (splits[i], zframe_data (frame));
        zmsg_append (msg, &frame);
    }
    return zmsg_send (&msg, self->actor);
}

int
zs_kafka_enum_stops (zs_kafka_enum_t *self, Zsink__Split *const *splits, size_t n)
{
    return s_send_splits (self, "STOPS", splits, n);
}

int
zs_kafka_enum_commit (zs_kafka_enum_t *self, Zsink__Split *const *splits, size_t n)
{
    return s_send_splits (self, "COMMIT", splits, n);
}

//  The splits of an answer, each unpacked on its own.
static int
s_unpack_answer (zmsg_t *msg, Zsink__Split ***splits, size_t *n, char *err, size_t errlen)
{
    size_t count = zmsg_size (msg);
    if (count == 0)
        return 0; //  *splits stays NULL: nothing to free
    *splits = calloc (count, sizeof **splits);
    for (zframe_t *f = zmsg_first (msg); f; f = zmsg_next (msg)) {
        (*splits)[*n] = zsink__split__unpack (NULL, zframe_size (f), zframe_data (f));
        if (!(*splits)[*n]) {
            zs_kafka_splits_free (splits, *n);
            *n = 0;
            s_err (err, errlen, "the Kafka enumerator's answer does not decode");
            return -1;
        }
        (*n)++;
    }
    return 0;
}

int
zs_kafka_enum_recv (zs_kafka_enum_t *self, zs_kafka_answer_t *kind, Zsink__Split ***splits,
                    size_t *n, char *err, size_t errlen)
{
    *splits = NULL;
    *n = 0;
    zsock_t *sock = zactor_sock (self->actor);
    if (!(zsock_events (sock) & ZMQ_POLLIN)) {
        s_err (err, errlen, "no answer of the Kafka enumerator waits");
        return -1;
    }
    zmsg_t *msg = zmsg_recv (sock);
    char *k = msg ? zmsg_popstr (msg) : NULL, *e = msg ? zmsg_popstr (msg) : NULL;
    int rc = -1;
    if (!k || !e)
        s_err (err, errlen, "the Kafka enumerator's answer does not decode");
    else {
        *kind = !strcmp (k, "SPLITS")  ? ZS_KAFKA_SPLITS
                : !strcmp (k, "STOPS") ? ZS_KAFKA_STOPS
                                       : ZS_KAFKA_COMMITTED;
        if (*e)
            s_err (err, errlen, "%s", e);
        else
            rc = s_unpack_answer (msg, splits, n, err, errlen);
    }
    free (k);
    free (e);
    zmsg_destroy (&msg);
    return rc;
}

void
zs_kafka_splits_free (Zsink__Split ***splits, size_t n)
{
    if (!*splits)
        return;
    for (size_t i = 0; i < n; i++)
        zsink__split__free_unpacked ((*splits)[i], NULL);
    free (*splits);
    *splits = NULL;
}

//  --------------------------------------------------------------------------
//  Owners

//  One code point of UTF-8 at p into *cp: its length in bytes. A byte
//  that starts no valid sequence is U+FFFD, one byte long.
static int
s_utf8 (const unsigned char *p, uint32_t *cp)
{
    int len = p[0] < 0x80             ? 1
              : (p[0] & 0xE0) == 0xC0 ? 2
              : (p[0] & 0xF0) == 0xE0 ? 3
              : (p[0] & 0xF8) == 0xF0 ? 4
                                      : 0;
    uint32_t v = len == 1 ? p[0] : len == 2 ? p[0] & 0x1Fu : len == 3 ? p[0] & 0x0Fu : p[0] & 0x07u;
    for (int i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            len = 0;
            break;
        }
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (len == 0 || v < least[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = v;
    return len;
}

//  Java's String.hashCode: s[0]*31^(n-1) + … + s[n-1] over UTF-16 code
//  units, int arithmetic (wrapping).
static uint32_t
s_java_hash (const char *text)
{
    uint32_t h = 0;
    for (const unsigned char *p = (const unsigned char *) text; *p;) {
        uint32_t cp;
        p += s_utf8 (p, &cp);
        if (cp >= 0x10000) { //  a surrogate pair
            h = 31u * h + (0xD800u + ((cp - 0x10000u) >> 10));
            h = 31u * h + (0xDC00u + ((cp - 0x10000u) & 0x3FFu));
        } else
            h = 31u * h + cp;
    }
    return h;
}

int
zs_kafka_owner (const char *topic, int partition, int n)
{
    if (!topic || partition < 0 || n <= 0)
        return -1;
    //  ((topic.hashCode() * 31) & 0x7FFFFFFF) % numReaders: the product
    //  wraps as Java's int; the mask makes it non-negative
    int64_t start = (int64_t) ((s_java_hash (topic) * 31u) & 0x7FFFFFFFu) % n;
    return (int) ((start + partition) % n);
}
