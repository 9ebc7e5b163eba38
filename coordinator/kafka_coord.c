/*  kafka_coord.c - the Kafka source in the coordinator (docs/kafka.md): the
    enumerator (kafka_enum.h) finds the partitions and resolves offsets in
    its own thread; this file decides when to ask it and what to do with
    its answers.

    Invariants:
    1. A split enters the record (self->splits) once, with the offset it
       starts from resolved to a number when it was found; from then on
       only checkpoints move it. So a failover or a restart before the
       first checkpoint starts where the first start would have.
    2. No writer is reset before the splits are ready: the first discovery
       answered and, for a bounded run, every split has its stop. Until
       then the restore waits (and is failed over by its own deadline if
       the broker stays away).
    3. Stops are resolved when a job starts (a new job, also one restored
       from a savepoint: s_restore_from forgets the old stops), never on a
       failover or a coordinator restart: they are in the checkpoint.
    4. A split found while running goes to its writer in AddSplits only if
       that writer's Reset of this epoch is out; otherwise the Reset
       carries it. Either way the next checkpoint holds it.
    5. Offsets are committed to Kafka for a checkpoint only once its
       snapshot is committed (Committed), so the group's offsets never run
       ahead of the table; they are a view for lag tools, never read back.
*/
#include "coord.h"
#include "kafka_enum.h"
#include "events.h"
#include "failpoint.h"
#include "log.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

//  Retry a failed discovery (or stop resolution) this often.
#define S_RETRY_MS 2000
//  How long an ending job waits for its last offset commit, its retries
//  included (a broker just back, a group coordinator moving).
#define S_COMMIT_WAIT_MS 15000

static bool
s_bounded (const coord_t *self)
{
    return strcmp (self->cfg.kafka_bounded_mode, "unbounded") != 0;
}

static bool
s_commits (const coord_t *self)
{
    size_t len;
    return self->cfg.kafka_commit_offsets
           && zs_config_kafka_property (&self->cfg, "group.id", &len) != NULL;
}

//  Ask for the partitions not known yet.
static void
s_discover (coord_t *self)
{
    size_t n;
    Zsink__Split *const *all = zs_splits_all (self->splits, &n);
    const char **ids = calloc (n ? n : 1, sizeof *ids);
    if (!ids)
        return;
    for (size_t i = 0; i < n; i++)
        ids[i] = all[i]->id;
    if (zs_kafka_enum_discover (self->kafka, ids, n) == 0)
        self->kafka_asking++;
    free (ids);
}

//  Ask for the stops of the splits that have none (invariant 3).
static void
s_ask_stops (coord_t *self)
{
    size_t n, count = 0;
    Zsink__Split *const *all = zs_splits_all (self->splits, &n);
    Zsink__Split **need = calloc (n ? n : 1, sizeof *need);
    if (!need)
        return;
    for (size_t i = 0; i < n; i++)
        if (!all[i]->has_stop)
            need[count++] = all[i];
    if (count && zs_kafka_enum_stops (self->kafka, need, count) == 0)
        self->kafka_asking++;
    free (need);
}

int
zs_coord_kafka_open (coord_t *self)
{
    if (strcmp (self->cfg.source_kind, "kafka") != 0)
        return 0;
    char err[ZS_ERRLEN];
    self->kafka = zs_kafka_enum_new (&self->cfg, err, sizeof err);
    if (!self->kafka) {
        zs_error ("Kafka source: %s", err);
        return -1;
    }
    self->kafka_committed = zs_splits_new ();
    if (!self->kafka_committed) {
        zs_error ("Kafka source: out of memory");
        return -1;
    }
    //  A restored job knows its splits; it still looks for new partitions
    //  (an unbounded run also every discovery interval).
    s_discover (self);
    self->kafka_next_discovery = zs_clock_mono_ms () + self->cfg.kafka_discovery_interval_ms;
    return 0;
}

void
zs_coord_kafka_close (coord_t *self)
{
    zs_kafka_enum_destroy (&self->kafka);
    zs_splits_destroy (&self->kafka_committed);
}

zsock_t *
zs_coord_kafka_sock (coord_t *self)
{
    return self->kafka ? zs_kafka_enum_sock (self->kafka) : NULL;
}

bool
zs_coord_splits_ready (coord_t *self)
{
    if (!self->kafka)
        return true;
    if (!self->kafka_discovered)
        return false;
    if (!s_bounded (self))
        return true;
    size_t n;
    Zsink__Split *const *all = zs_splits_all (self->splits, &n);
    for (size_t i = 0; i < n; i++)
        if (!all[i]->has_stop)
            return false;
    return true;
}

//  New partitions: recorded (invariant 1) and, while the job runs, sent to
//  their writers (invariant 4).
static void
s_on_splits (coord_t *self, Zsink__Split **splits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (zs_splits_find (self->splits, splits[i]->id))
            continue;
        if (zs_splits_put (self->splits, splits[i]) != 0) {
            zs_error ("out of memory recording split %s", splits[i]->id);
            continue;
        }
        zs_info ("Discovered split %s, starting at offset %" PRId64 "%s", splits[i]->id,
                 splits[i]->offset, self->kafka_discovered ? " (a new partition)" : "");
        zs_event ("split", "\"split\":\"%s\",\"offset\":%" PRId64, splits[i]->id,
                  splits[i]->offset);
        if (self->kafka_discovered)
            zs_coord_add_split (self, splits[i]);
    }
    if (!self->kafka_discovered) {
        self->kafka_discovered = true;
        size_t count = 0;
        zs_splits_all (self->splits, &count);
        zs_info ("Kafka source: %zu splits over %d writers.", count, self->n);
    }
}

static void
s_on_stops (coord_t *self, Zsink__Split **splits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        Zsink__Split *sp = zs_splits_find (self->splits, splits[i]->id);
        if (!sp || sp->has_stop)
            continue;
        //  only the stop: the state may have moved since the ask
        sp->has_stop = true;
        sp->stop = splits[i]->stop;
        zs_info ("Split %s stops at offset %" PRId64 " (%s)", sp->id, sp->stop,
                 self->cfg.kafka_bounded_mode);
    }
}

//  The latest checkpoint's offsets to the group. A retry keeps the first
//  attempt's deadline, so an ending job waits for Kafka a bounded time.
static void
s_commit_latest (coord_t *self, bool retry)
{
    self->kafka_commit_again = false;
    if (zs_failpoint ("coordinator.kafka-commit") != 0
        || zs_kafka_enum_commit (self->kafka, self->latest.splits, self->latest.n_splits) != 0) {
        zs_info ("Kafka source: the offsets of checkpoint %" PRId64 " not sent; again in %d ms",
                 self->latest.id, S_RETRY_MS);
        self->kafka_commit_again = true;
        self->kafka_retry_at = zs_clock_mono_ms () + S_RETRY_MS;
    } else {
        self->kafka_commit_id = self->latest.id;
        for (size_t i = 0; i < self->latest.n_splits; i++)
            if (self->latest.splits[i]->offset >= 0) //  as zs_kafka_enum_commit
                zs_splits_put (self->kafka_committed, self->latest.splits[i]);
        self->kafka_committing = true;
    }
    if (!retry)
        self->kafka_commit_deadline = zs_clock_mono_ms () + S_COMMIT_WAIT_MS;
}

bool
zs_coord_kafka_on_answer (coord_t *self)
{
    bool was_ready = zs_coord_splits_ready (self);
    zs_kafka_answer_t kind =
        ZS_KAFKA_SPLITS; //  (an answer that does not decode: counted as answered)
    Zsink__Split **splits = NULL;
    size_t n = 0;
    char err[ZS_ERRLEN];
    int rc = zs_kafka_enum_recv (self->kafka, &kind, &splits, &n, err, sizeof err);
    if (kind == ZS_KAFKA_COMMITTED) {
        self->kafka_committing = false;
        //  a commit that failed is asked again (below, after a while): the
        //  group's offsets are what a restart with group-offsets reads
        self->kafka_commit_again = rc != 0;
    } else if (self->kafka_asking > 0)
        self->kafka_asking--;
    if (rc != 0) {
        //  the broker away, a topic missing: asked again after a while (a
        //  restore that waits too long names this in its failure)
        zs_warn ("Kafka source: %s", err);
        snprintf (self->kafka_error, sizeof self->kafka_error, "%s", err);
        self->kafka_retry_at = zs_clock_mono_ms () + S_RETRY_MS;
    } else if (kind == ZS_KAFKA_SPLITS) {
        self->kafka_error[0] = 0;
        s_on_splits (self, splits, n);
    } else if (kind == ZS_KAFKA_STOPS)
        s_on_stops (self, splits, n);
    else
        zs_debug ("Kafka source: offsets of checkpoint %" PRId64 " committed",
                  self->kafka_commit_id);
    zs_kafka_splits_free (&splits, n);
    if (rc == 0 && s_bounded (self) && self->kafka_discovered && !self->kafka_asking)
        s_ask_stops (self);
    return !was_ready && zs_coord_splits_ready (self);
}

void
zs_coord_kafka_tick (coord_t *self, int64_t now)
{
    if (!self->kafka || self->kafka_asking)
        return;
    if (self->kafka_retry_at && now >= self->kafka_retry_at) {
        self->kafka_retry_at = 0;
        if (self->kafka_commit_again)
            s_commit_latest (self, true);
        if (!self->kafka_discovered)
            s_discover (self);
        else if (!zs_coord_splits_ready (self))
            s_ask_stops (self);
        return;
    }
    //  periodic discovery: unbounded runs only, as Flink's enumerator
    if (!s_bounded (self) && self->cfg.kafka_discovery_interval_ms > 0
        && now >= self->kafka_next_discovery) {
        self->kafka_next_discovery = now + self->cfg.kafka_discovery_interval_ms;
        s_discover (self);
    }
}

void
zs_coord_kafka_committed (coord_t *self, int64_t identifier)
{
    //  invariant 5: the latest checkpoint's offsets, once its snapshot is in
    if (!self->kafka || !s_commits (self) || !self->latest.id
        || (identifier != self->latest.id && identifier != ZS_END_INPUT_ID)
        || self->kafka_commit_id == self->latest.id)
        return;
    s_commit_latest (self, false);
}

bool
zs_coord_kafka_busy (coord_t *self)
{
    return self->kafka && (self->kafka_committing || self->kafka_commit_again)
           && zs_clock_mono_ms () < self->kafka_commit_deadline;
}

//  ---------------------------------------------------------------------
//  What the splits are doing (zsink status, the metrics)

int
zs_coord_split_view (coord_t *self, size_t k, zs_split_view_t *v)
{
    size_t n;
    Zsink__Split *const *all = zs_splits_all (self->splits, &n);
    if (k >= n)
        return -1;
    const Zsink__Split *chk = all[k];
    memset (v, 0, sizeof *v);
    v->split = chk;
    v->writer = zs_splits_owner (self->splits, k, self->n);
    v->checkpointed = chk->offset;
    v->offset = chk->offset;
    v->end = -1;
    v->lag = -1;
    v->finished = chk->finished;
    //  the writer's latest heartbeat is fresher than the checkpoint, unless
    //  a checkpoint completed since it was sent (heartbeats come every
    //  heartbeat.interval, checkpoints may come faster): the position is
    //  then the checkpoint's, and the end at least that
    const Zsink__Split *p = zs_splits_find (self->progress, chk->id);
    if (p) {
        if (p->offset > v->offset)
            v->offset = p->offset;
        v->finished = p->finished || chk->finished;
        if (p->has_end && p->end >= 0) {
            v->end = p->end > v->offset ? p->end : v->offset;
            //  an offset of -2 (earliest, nothing read) has no lag yet
            v->lag = v->offset >= 0 && v->end >= v->offset ? v->end - v->offset : -1;
        }
    }
    //  the offsets last committed, also while a newer checkpoint waits for
    //  its snapshot (the group keeps them on the broker meanwhile)
    const Zsink__Split *c =
        self->kafka_committed ? zs_splits_find (self->kafka_committed, chk->id) : NULL;
    v->committed = c ? c->offset : -1;
    return 0;
}

json_t *
zs_coord_splits_json (coord_t *self)
{
    json_t *list = json_array ();
    zs_split_view_t v;
    for (size_t k = 0; zs_coord_split_view (self, k, &v) == 0; k++) {
        json_t *j = json_pack ("{s:s, s:i, s:I, s:I, s:b}", "id", v.split->id, "writer", v.writer,
                               "offset", (json_int_t) v.offset, "checkpointed",
                               (json_int_t) v.checkpointed, "finished", v.finished);
        if (v.split->topic) {
            json_object_set_new (j, "end", json_integer (v.end));
            json_object_set_new (j, "lag", json_integer (v.lag));
            json_object_set_new (j, "committed", json_integer (v.committed));
            if (v.split->has_stop && v.split->stop >= 0)
                json_object_set_new (j, "stop", json_integer (v.split->stop));
        }
        json_array_append_new (list, j);
    }
    return list;
}
