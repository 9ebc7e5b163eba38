/*  committer.c - the committer role (zsink-committer): Paimon's
    CommitterOperator + StoreCommitter as one process.

    It binds the data ROUTER every writer's DEALER connects to, keeps the
    committables it receives by checkpoint id (pending.c), acknowledges a
    checkpoint to the coordinator with its state once every writer's marker
    is in, and commits on Notify (commit.c). docs/protocol.md is the
    contract; this block is what the code below keeps.

    Invariants
    1. Never ack N before the marker N of every writer of the epoch has
       arrived and, per writer, the committables counted for N match the
       marker's count.
    2. The state acked for N holds exactly what each writer sent before its
       marker N: ids <= N, end-input committables and EndOfInputs that came
       before that writer's marker N (tagged with the writer's last marker
       on arrival). What came after belongs to N+1 or later: its files were
       written after barrier N, and a restore to N deletes them.
    3. Commits are in ascending identifier order, one snapshot each.
    4. ZS_END_INPUT_ID is committed only once every writer has ended (as of
       the checkpoint being committed), also when re-committing a restored
       state.
    5. Nothing is committed that is not in a completed checkpoint: commits
       happen only on Notify(N) (ids <= N), on Reset (the restored state of
       a completed checkpoint), and at end of input with checkpointing off.
    6. One committer per job: the flock on <table>/.locks/committer-<job>
       is taken before Register and kept for the life of the process.
    7. Data is applied only from the connection each writer registered
       with in the epoch of our last Reset (its routing id, named in that
       Reset), of this job and epoch, in sequence; a gap fails the job over
       at once. Anything else is dropped and counted, never applied, so no
       peer that did not register can fail the job over.
    8. A committable is validated as it arrives, before any checkpoint can
       hold it: every file inside the table, a regular file of the recorded
       size, not live in the table, not pending already. One that is not
       fails checkpoint N (Failure, no ack), never the restore of N.
    9. A Shutdown of a job ending CANCELED or FAILED at checkpoint R (0:
       none) stops every commit and deletes the files of the pending ids
       after R the table does not show committed: no completed checkpoint
       holds them (with checkpointing off, the end of input: only the
       committer knows it did not commit it). A failure no restart can
       change (no permission, a read-only table) is reported unrecoverable.
    10. No cleaner removes a file of our state (table_pins.c): before an
        ack whose state holds files not pinned yet, and at each Reset, the
        pin of our commit user names every pending file, durably, and each
        was seen on disk after it was written, under the table's shared
        clean lock. A file gone by then fails the checkpoint (no ack): its
        rows are replayed, none is lost.

    State machine
        IDLE    no usable state: before the first Reset, after losing the
                coordinator. Data is dropped (stale).
          --Reset(R)--> re-commit restored state --ok--> ACTIVE, Ready
                                                 --error--> FAILED, Failure
        ACTIVE  data accepted, checkpoints acked, Notify commits.
          --gap / count mismatch / bad committable / commit error-->
                                                   FAILED, Failure
        FAILED  nothing accepted, nothing committed until the next Reset.
        any --coordinator lost--> IDLE;  any --Shutdown--> Bye, exit 0
*/
#include "committer.h"
#include "codec.h"
#include "commit.h"
#include "compactor.h"
#include "drops.h"
#include "failpoint.h"
#include "events.h"
#include "fs.h"
#include "io.h"
#include "cmd.h"
#include "lock.h"
#include "log.h"
#include "manifest.h"
#include "net.h"
#include "participant.h"
#include "pending.h"
#include "prom.h"
#include "table.h"
#include "table_job.h"
#include <czmq.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_BIND "tcp://*:6124"
#define POLL_MS 50
#define DATA_BATCH 1000 //  data messages per loop turn: control stays responsive
//  snapshots read back for the last commit's (a commit, a compaction and
//  other writers' commits since: a few; beyond, the history shows none)
#define LAST_SNAPSHOT_WINDOW 20

typedef enum { S_IDLE, S_ACTIVE, S_FAILED } s_phase_t;

typedef struct {
    int64_t id;
    int count;
} s_count_t;

//  What we know of one writer in the current epoch.
typedef struct {
    char rid[ZS_RID_MAX]; //  the connection it registered with (Reset)
    uint64_t seq;         //  last data sequence number applied
    int64_t last_marker;  //  highest BarrierMarker id, 0 before any
    int64_t ended_at;     //  -1: no EndOfInput; else last_marker when it came
    int end_count;        //  end-input committables received
    s_count_t *counts;    //  committables per checkpoint id awaiting a marker
    size_t n_counts;
} s_writer_t;

typedef struct {
    zs_participant_t *part;
    zsock_t *data;
    zs_table_t *table;
    char table_path[ZS_PATH_MAX];
    char job_id[64];    //  job the table and lock were set up for
    zs_io_lock_t *lock; //  lock.h: one committer per job
    bool fail_for_good; //  the last commit failed on a permanent error (EROFS, EACCES)
    zs_config_t cfg;
    s_phase_t phase;
    int64_t epoch; //  of the last Reset applied
    char user[40];
    zs_pending_t *pending;
    zs_compact_t compact;      //  what a compaction after a commit does (s_commit_opts)
    zs_compactor_t *compactor; //  ... and the thread that rewrites it
    char source_id[24];        //  zs_config_source_id, for the end-input snapshot
    int bounded;               //  -1: source_id not yet taken for this Welcome's config
    zs_commit_stats_t stats;   //  what the last commits did (metrics)
    zs_prom_t *prom;           //  metrics.reporter.prom.port, else NULL
    s_writer_t *writers;
    int nwriters;
    int64_t total_rows;    //  of the latest snapshot, for heartbeats
    int64_t last_snapshot; //  made by our last commit (-1: none yet; metrics)
    zs_drops_t *drops;     //  on the data pipe
    int64_t refused;       //  committables refused (invariant 8)
    size_t unpinned;       //  committables with files stored since the last pin (invariant 10)
    zs_curve_t *curve;     //  --keys: CURVE on, else NULL
    bool done;
    int exit_code;
} s_committer_t;

//  ---- state ----------------------------------------------------------

static void
s_writers_free (s_committer_t *self)
{
    for (int i = 0; i < self->nwriters; i++)
        free (self->writers[i].counts);
    free (self->writers);
    self->writers = NULL;
    self->nwriters = 0;
}

//  Forget everything in memory (pending, markers, sequences, ended set).
static void
s_drop_state (s_committer_t *self)
{
    zs_compactor_cancel (self->compactor);
    zs_pending_clear (self->pending);
    self->unpinned = 0;
    s_writers_free (self);
    self->phase = S_IDLE;
}

//  Report a failure to the coordinator and stop accepting until Reset.
static void s_fail (s_committer_t *self, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
static void
s_fail (s_committer_t *self, const char *fmt, ...)
{
    char reason[ZS_ERRLEN];
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (reason, sizeof reason, fmt, ap);
    va_end (ap);
    zs_error ("%s", reason);
    if (self->fail_for_good) {
        //  no restart can change it: the job fails at once, exit 2
        char why[ZS_ERRLEN + 64];
        snprintf (why, sizeof why, "table.path: %s (no restart can change that)", reason);
        zs_participant_fail_for_good (self->part, why);
        self->fail_for_good = false;
    } else
        zs_participant_fail (self->part, reason, false);
    self->phase = S_FAILED;
}

//  Has every writer ended before its marker N? (as_of = INT64_MAX: now)
static bool
s_all_ended (s_committer_t *self, int64_t as_of)
{
    if (self->nwriters == 0)
        return false;
    for (int i = 0; i < self->nwriters; i++)
        if (self->writers[i].ended_at < 0 || self->writers[i].ended_at >= as_of)
            return false;
    return true;
}

//  Committables writer w has sent for checkpoint id and not yet had
//  checked against a marker; take removes the count.
static int *
s_count_slot (s_writer_t *w, int64_t id, bool create)
{
    for (size_t i = 0; i < w->n_counts; i++)
        if (w->counts[i].id == id)
            return &w->counts[i].count;
    if (!create)
        return NULL;
    s_count_t *grown = realloc (w->counts, (w->n_counts + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    w->counts = grown;
    w->counts[w->n_counts] = (s_count_t){.id = id, .count = 0};
    return &w->counts[w->n_counts++].count;
}

static int
s_count_take (s_writer_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_counts; i++)
        if (w->counts[i].id == id) {
            int count = w->counts[i].count;
            w->counts[i] = w->counts[--w->n_counts];
            return count;
        }
    return 0;
}

//  ---- messages to the coordinator --------------------------------------

static void
s_send (s_committer_t *self, zs_env_t *env)
{
    if (zs_participant_send (self->part, env) < 0)
        zs_warn ("cannot send %s to the coordinator: %s", zs_env_kind (env), strerror (errno));
}

//  Pin every pending file of our commit user (invariant 10): the
//  zs_table_pin code, or -1 + err when out of memory.
static int
s_pin_pending (s_committer_t *self, char *err, size_t errlen)
{
    zs_file_meta_t *files;
    int64_t *ids;
    size_t n;
    if (zs_pending_all_files (self->pending, &files, &ids, &n) != 0) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    int rc = zs_table_pin (self->table, self->user, self->job_id, files, ids, n, err, errlen);
    free (files);
    free (ids);
    if (rc == 0)
        zs_event ("pin", "\"files\":%zu", n);
    return rc;
}

//  Invariant 10 before an ack: pin, or fail (no ack follows). 0 or -1.
static int
s_pin (s_committer_t *self, const char *when)
{
    char err[ZS_ERRLEN];
    int rc = s_pin_pending (self, err, sizeof err);
    if (rc != 0) {
        s_fail (self, "%s: cannot pin the files to commit: %s%s", when, err,
                rc == ZS_EMISSING ? " (removed by a cleaner? the checkpoint fails and its rows "
                                    "are replayed)"
                                  : "");
        return -1;
    }
    self->unpinned = 0;
    return 0;
}

//  After each snapshot: Committed(identifier, snapshot, total rows).
static void
s_on_committed (int64_t identifier, int64_t snapshot_id, int64_t total_rows, void *arg)
{
    s_committer_t *self = arg;
    //  the user commits nothing more: its pin is void (table_pins.c)
    char why[ZS_ERRLEN];
    if (identifier == ZS_END_INPUT_ID
        && zs_table_unpin (self->table, self->user, why, sizeof why) == -1)
        zs_warn ("%s", why);
    self->total_rows = total_rows;
    self->last_snapshot = snapshot_id;
    zs_participant_set_progress (self->part, 0, total_rows);
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_COMMITTED);
    m.body.committed.identifier = identifier;
    m.body.committed.snapshot_id = snapshot_id;
    m.body.committed.has_total_rows = true;
    m.body.committed.total_rows = total_rows;
    s_send (self, &m.env);
}

static zs_commit_opts_t
s_commit_opts (s_committer_t *self, bool recommit)
{
    //  Paimon's sink compacts an append table in the job unless write-only
    //  (docs/decisions.md: the committer plans and rewrites)
    zs_table_compact_options (&self->cfg, self->user, &self->compact);
    bool compact = !zs_table_opts (self->table)->write_only;
    //  once per configuration: for a file source it stats every input file
    if (self->bounded < 0)
        self->bounded = zs_config_source_id (&self->cfg, self->source_id, sizeof self->source_id);
    bool bounded = self->bounded;
    return (zs_commit_opts_t){.recommit = recommit,
                              .ignore_empty = self->cfg.commit_ignore_empty,
                              .max_retries = self->cfg.commit_max_retries,
                              .on_commit = s_on_committed,
                              .arg = self,
                              .compact = compact ? &self->compact : NULL,
                              .compactor = self->compactor,
                              .source_id = bounded ? self->source_id : NULL,
                              .stats = &self->stats};
}

//  Commit ids <= upto, and end of input when with_end (invariants 3, 4).
static int
s_commit (s_committer_t *self, int64_t upto, bool with_end, bool recommit, char *err, size_t errlen)
{
    //  An end-input snapshot is made even when no writer had files left:
    //  it is how the table and the coordinator learn the job finished.
    if (with_end && zs_pending_touch (self->pending, ZS_END_INPUT_ID) < 0) {
        snprintf (err, errlen, "out of memory");
        return ZS_ERR;
    }
    zs_commit_opts_t opts = s_commit_opts (self, recommit);
    errno = 0;
    zs_fs_clear_failure ();
    int rc =
        zs_commit_upto (self->table, self->pending, self->user, upto, with_end, &opts, err, errlen);
    //  no permission, a read-only table: s_fail makes it the job's end
    self->fail_for_good = rc < 0 && zs_fs_failed_for_good ();
    return rc < 0 ? rc : 0;
}

//  ---- metrics ------------------------------------------------------------

//  Paimon's CommitMetrics (paimon-core, operation/metrics) as Flink's
//  PrometheusReporter shows them for a Flink job's committer: the scope
//  paimon.table.<table>.commit under the operator's, the table's name a
//  label (a key-value group): flink_taskmanager_job_task_operator_paimon_
//  table_commit_lastCommitDuration{…,table="NAME"}. Gauges all, 0 before
//  the first commit (lastCommittedSnapshotId -1), as Paimon's. "Last
//  commit" is the last APPEND snapshot; compactions are zsink's own below.
static void
s_paimon_metrics (FILE *out, s_committer_t *self, const char *labels)
{
    const zs_commit_stats_t *st = &self->stats;
    bool any = st->commits > 0;
    zs_prom_metric_t m[] = {
        {"lastCommitDuration", "gauge", "ms the last commit took", (double) st->last_duration_ms},
        {"lastCommitAttempts", "gauge", "attempts the last commit made",
         (double) st->last_attempts},
        {"lastGeneratedSnapshots", "gauge", "snapshots the last commit generated", any ? 1.0 : 0.0},
        {"lastTableFilesAdded", "gauge", "table files the last commit added",
         (double) st->last_files_added},
        {"lastTableFilesDeleted", "gauge", "table files the last commit deleted",
         (double) st->last_files_deleted},
        {"lastTableFilesAppended", "gauge", "new data files the last commit appended",
         (double) st->last_files_added},
        {"lastDeltaRecordsAppended", "gauge", "rows the last commit appended (APPEND)",
         (double) st->last_delta_rows},
        {"lastCommittedSnapshotId", "gauge", "snapshot the last commit made (-1: none)",
         (double) self->last_snapshot},
    };
    zs_prom_samples (out, "flink_taskmanager_job_task_operator_paimon_table_commit_", labels, m,
                     sizeof m / sizeof m[0]);
}

//  The table's name, as Paimon's table.name(): the last part of its path.
static const char *
s_table_name (const char *path)
{
    size_t n = strlen (path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *slash = memrchr (path, '/', n);
    static char name[ZS_PATH_MAX];
    snprintf (name, sizeof name, "%.*s", (int) (n - (slash ? (size_t) (slash + 1 - path) : 0)),
              slash ? slash + 1 : path);
    return name;
}

//  Paimon's commit metrics, then zsink's own counters (under the
//  operator's scope, as a Flink committer's own would be).
static void
s_render_metrics (FILE *out, void *arg)
{
    s_committer_t *self = arg;
    char labels[ZS_PATH_MAX + 320];
    snprintf (labels, sizeof labels,
              "job_id=\"%s\",job_name=\"%s\",task_name=\"committer\",subtask_index=\"0\","
              "table=\"%s\"",
              self->job_id, *self->cfg.pipeline_name ? self->cfg.pipeline_name : "zsink",
              s_table_name (self->table_path));
    s_paimon_metrics (out, self, labels);
    int64_t compactions = 0, rewrite_ms = 0;
    zs_compactor_counts (self->compactor, &compactions, &rewrite_ms);
    const zs_commit_stats_t *st = &self->stats;
    zs_prom_metric_t m[] = {
        {"numCommits", "counter", "snapshots committed by this committer (zsink)",
         (double) st->commits},
        {"numCompactions", "counter", "COMPACT snapshots committed by this committer (zsink)",
         (double) compactions},
        {"lastCompactionRewriteDuration", "gauge", "ms the last compaction's rewrite took (zsink)",
         (double) rewrite_ms},
        {"numCommittablesRefused", "counter", "committables refused (zsink)",
         (double) self->refused},
        {"numRecordsInTable", "gauge", "rows in the table's latest snapshot (zsink)",
         (double) self->total_rows},
    };
    zs_prom_samples (out, "flink_taskmanager_job_task_operator_", labels, m,
                     sizeof m / sizeof m[0]);
    for (int r = 0; r < ZS_DROP_NREASONS; r++) {
        char l[sizeof labels + 48];
        snprintf (l, sizeof l, "%s,role=\"committer\",reason=\"%s\"", labels, zs_drop_name (r));
        zs_prom_sample (out, "zsink_dropped_messages", "counter",
                        r ? NULL : "data messages dropped by the committer, by reason", l,
                        (double) zs_drops_count (self->drops, r));
    }
}

//  The job's metrics.reporter.prom.port, once: a failure costs the
//  metrics, never the job.
static void
s_prom_setup (s_committer_t *self)
{
    if (self->prom || !self->cfg.metrics_prom_port[0])
        return;
    char err[ZS_ERRLEN];
    self->prom =
        zs_prom_new (self->cfg.metrics_prom_port, self->cfg.metrics_prom_bind, err, sizeof err);
    if (self->prom)
        zs_info ("Prometheus metrics of the committer on http://%s:%d/metrics",
                 zs_prom_host (self->prom), zs_prom_port (self->prom));
    else
        zs_warn ("no metrics: %s", err);
}

//  ---- control pipe -------------------------------------------------------

//  Welcome: open the table and take the job's lock, then Register.
//  Returns 0, or an exit code.
static int
s_on_welcome (s_committer_t *self)
{
    char why[ZS_ERRLEN];
    if (zs_config_welcome (&self->cfg, self->part, why, sizeof why) != 0) {
        //  a coordinator of another version: no restart of ours helps
        zs_error ("configuration from the coordinator refused: %s", why);
        return 2;
    }
    const zs_config_t *cfg = &self->cfg;
    zs_log_set_level ((zs_log_level_t) zs_log_level_parse (cfg->log_level));
    char events_dir[2 * ZS_PATH_MAX];
    snprintf (events_dir, sizeof events_dir, "%s/%s", cfg->checkpoints_dir,
              zs_participant_job_id (self->part));
    zs_events_open (events_dir, "committer");
    zs_event ("start", "\"job\":\"%s\"", zs_participant_job_id (self->part));
    const char *job = zs_participant_job_id (self->part);
    self->bounded = -1;
    //  A Welcome again after losing the coordinator: same job, same table,
    //  keep the lock (dropping it even briefly would let a second committer
    //  in). Only the in-memory state goes; the Reset to come restores it.
    bool same = self->table && strcmp (job, self->job_id) == 0
                && strcmp (cfg->table_path, self->table_path) == 0;
    zs_compactor_cancel (self->compactor); //  it reads the table's files
    if (!same) {
        //  Another job (a coordinator started afresh): its own lock.
        zs_io_lock_release (&self->lock);
        zs_table_destroy (&self->table);
        char err[ZS_ERRLEN];
        if (!cfg->table_path[0]) {
            zs_error ("the job's configuration has no table.path");
            return 1;
        }
        if (zs_config_io_setup (cfg, err, sizeof err) != 0) {
            zs_error ("configuration: %s", err);
            return 2;
        }
        errno = 0;
        zs_fs_clear_failure ();
        self->table = zs_table_open_job (cfg->table_path, &cfg->schema,
                                         cfg->table.partition_default_name, err, sizeof err);
        if (!self->table) {
            //  no permission, a read-only disk: no restart helps (exit 2)
            bool permanent = zs_fs_failed_for_good ();
            zs_error ("%scannot open table %s: %s%s", permanent ? "table.path: " : "",
                      cfg->table_path, err, permanent ? " (no restart can change that)" : "");
            return permanent ? 2 : 1;
        }
        //  the job's Paimon options (snapshot.*, manifest.*, write-only)
        //  over the table's, as a Flink job's dynamic options
        zs_table_set_job_options (self->table, cfg);
        char lockfile[ZS_PATH_MAX], holder[128];
        //  a lease (S3) of a predecessor killed with kill -9 goes stale
        //  after its ttl: wait that long, and no longer
        int64_t ttl = zs_io_lease_ttl (cfg->heartbeat_timeout_ms);
        int64_t wait = zs_io_is_remote (cfg->table_path) ? ttl + 2000 : 0;
        int rc = zs_committer_lock (cfg->table_path, job, ttl, wait, &self->lock, holder,
                                    sizeof holder, lockfile, err, sizeof err);
        if (rc == ZS_ECONFLICT) {
            zs_error ("another committer is running for job %s (lock %s, %s)", job, lockfile,
                      holder[0] ? holder : "pid unknown");
            return 3;
        }
        if (rc < 0) {
            //  no permission, a read-only table: no restart helps (exit 2)
            bool permanent = zs_fs_errno_permanent (errno);
            zs_error ("%scannot take the committer lock: %s%s", permanent ? "table.path: " : "",
                      err, permanent ? " (no restart can change that)" : "");
            return permanent ? 2 : 1;
        }
        snprintf (self->job_id, sizeof self->job_id, "%s", job);
        snprintf (self->table_path, sizeof self->table_path, "%s", cfg->table_path);
        zs_snapshot_t snap;
        if (zs_table_latest_snapshot (self->table, &snap, err, sizeof err) == 0)
            self->total_rows = snap.total_record_count;
        zs_participant_set_progress (self->part, 0, self->total_rows);
    }
    s_drop_state (self);
    s_prom_setup (self);
    zs_participant_register (self->part);
    zs_info ("registered with job %s (table %s, parallelism %d)", job, cfg->table_path,
             cfg->parallelism);
    return 0;
}

//  Reset(R): restore the state of checkpoint R, re-commit it, say Ready.
static void
s_on_reset (s_committer_t *self, zs_env_t *env)
{
    const Zsink__Reset *reset = env->reset;
    s_drop_state (self);
    self->epoch = env->epoch;
    zs_event ("reset", "\"id\":%lld,\"epoch\":%lld", (long long) reset->restore_id,
              (long long) env->epoch);
    if (strlen (reset->commit_user) >= sizeof self->user) {
        s_fail (self, "commit user '%s' is too long", reset->commit_user);
        return;
    }
    strcpy (self->user, reset->commit_user);
    self->nwriters = self->cfg.parallelism;
    self->writers = calloc ((size_t) self->nwriters, sizeof *self->writers);
    if (!self->writers) {
        self->nwriters = 0;
        s_fail (self, "out of memory");
        return;
    }
    for (int i = 0; i < self->nwriters; i++)
        self->writers[i].ended_at = -1;
    //  Invariant 7: the connections of this epoch's writers.
    if (reset->n_writer_ids != (size_t) self->nwriters) {
        s_fail (self, "Reset names %zu writer connections, parallelism is %d", reset->n_writer_ids,
                self->nwriters);
        return;
    }
    for (int i = 0; i < self->nwriters; i++)
        snprintf (self->writers[i].rid, sizeof self->writers[i].rid, "%s", reset->writer_ids[i]);

    const Zsink__CommitterState *state = reset->state;
    if (state) {
        if (strcmp (state->commit_user, self->user) != 0)
            zs_warn ("restored state names commit user %s, the job's is %s: using the job's",
                     state->commit_user, self->user);
        //  The state carries the grouping by checkpoint id as acked: each
        //  restored id becomes one snapshot again, never merged.
        if (zs_pending_load (self->pending, state) < 0) {
            s_fail (self, "cannot load the committer state of checkpoint %lld",
                    (long long) reset->restore_id);
            return;
        }
        for (size_t i = 0; i < state->n_ended_writers; i++) {
            int w = state->ended_writers[i];
            if (w >= 0 && w < self->nwriters)
                self->writers[w].ended_at = 0; //  before any marker of this epoch
            else
                zs_warn ("restored state names writer %d, parallelism is %d: ignored", w,
                         self->nwriters);
        }
    }
    zs_info ("Restoring committer state of checkpoint %lld: %zu pending checkpoints",
             (long long) reset->restore_id, zs_pending_size (self->pending));

    //  Re-commit: filterCommitted (in the table) drops what was committed
    //  before the failure; the rest must still be there (invariant 5: all of
    //  it is in completed checkpoint R).
    char err[ZS_ERRLEN];
    self->phase = S_ACTIVE;
    if (s_commit (self, INT64_MAX, s_all_ended (self, INT64_MAX), true, err, sizeof err) < 0) {
        s_fail (self, "re-commit of checkpoint %lld failed: %s", (long long) reset->restore_id,
                err);
        return;
    }
    //  Only now is no commit of ours in flight: manifests of a commit that
    //  died before its snapshot are garbage. A failed clean-up costs disk,
    //  not correctness, so it does not fail the restore.
    zs_table_unprepare (self->table);
    if (zs_table_clean_uncommitted_manifests (self->table, self->user, err, sizeof err) < 0)
        zs_warn ("cannot clean uncommitted manifests: %s", err);
    int64_t last = -1;
    int rc = zs_table_last_committed (self->table, self->user, &last, err, sizeof err);
    if (rc < 0 && rc != ZS_ENOENT) {
        s_fail (self, "cannot read the last committed identifier: %s", err);
        return;
    }
    if (rc < 0)
        last = -1;
    //  Invariant 10: what is left of the restored state (aborted
    //  checkpoints' files leave the pin), and the job's id in it, by which
    //  a cleaner spares its writers' files in flight. A user whose end of
    //  input is committed has nothing left to pin.
    if (last == ZS_END_INPUT_ID) {
        if (zs_table_unpin (self->table, self->user, err, sizeof err) == -1)
            zs_warn ("%s", err);
    } else if (s_pin (self, "restore") != 0)
        return;
    //  Only for the coordinator's history: not finding it fails nothing.
    int64_t last_snapshot = last > 0 ? zs_table_find_commit (self->table, self->user, last,
                                                             LAST_SNAPSHOT_WINDOW, err, sizeof err)
                                     : 0;
    if (last_snapshot < 0) {
        zs_warn ("cannot find the snapshot of identifier %lld: %s", (long long) last, err);
        last_snapshot = 0;
    }

    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_READY);
    m.body.ready.has_last_committed = true;
    m.body.ready.last_committed = last;
    m.body.ready.has_last_snapshot = last_snapshot > 0;
    m.body.ready.last_snapshot = last_snapshot;
    s_send (self, &m.env);
}

//  Notify(N): commit every pending id <= N, ascending (invariant 3, 5).
static void
s_on_notify (s_committer_t *self, int64_t n)
{
    //  After a Failure the coordinator is failing the job over; the Reset
    //  re-commits whatever this Notify would have, from the checkpoint.
    //  Committing here could race a half-failed commit of ours.
    if (self->phase != S_ACTIVE) {
        zs_debug ("notify %lld ignored: not active", (long long) n);
        return;
    }
    if (zs_failpoint ("committer.before-commit") < 0) {
        s_fail (self, "commit of checkpoint %lld failed: failpoint committer.before-commit",
                (long long) n);
        return;
    }
    //  End input rides along only if every writer had ended before its
    //  marker n: then all end-input files are in checkpoint n (invariant 4).
    char err[ZS_ERRLEN];
    if (s_commit (self, n, s_all_ended (self, n), false, err, sizeof err) < 0)
        s_fail (self, "commit of checkpoint %lld failed: %s", (long long) n, err);
}

//  A rewrite has finished: its COMPACT snapshot goes in now, between two
//  APPEND commits, while ACTIVE (a Reset cancels any rewrite first, so one
//  finishing while FAILED is of this epoch: dropped, the Reset plans anew).
//  A backlog is worked off at once: the next task is planned right away.
static void
s_on_compacted (s_committer_t *self)
{
    bool active = self->phase == S_ACTIVE && self->table;
    if (!zs_compactor_busy (self->compactor)) { //  cancelled since the poll
        zs_compactor_finish (self->compactor, self->table, false);
        return;
    }
    int64_t snapshot = zs_compactor_finish (self->compactor, self->table, active);
    if (snapshot)
        zs_event ("compact", "\"snapshot\":%lld", (long long) snapshot);
    if (snapshot && active) //  the next APPEND builds on it
        zs_commit_prepare_base (self->table, self->user);
    if (active && !zs_table_opts (self->table)->write_only) {
        zs_table_compact_options (&self->cfg, self->user, &self->compact);
        zs_compactor_start (self->compactor, self->table, &self->compact);
    }
}

//  ---- data pipe -----------------------------------------------------------

//  Markers N from every writer: record N (even empty) and ack it with the
//  state as of N (invariants 1, 2).
static void
s_complete (s_committer_t *self, int64_t n)
{
    if (zs_pending_touch (self->pending, n) < 0) {
        s_fail (self, "out of memory");
        return;
    }
    char when[64];
    snprintf (when, sizeof when, "checkpoint %lld", (long long) n);
    if (self->unpinned && s_pin (self, when) != 0)
        return;
    int *ended = malloc ((size_t) self->nwriters * sizeof *ended);
    size_t n_ended = 0;
    if (!ended) {
        s_fail (self, "out of memory");
        return;
    }
    for (int i = 0; i < self->nwriters; i++)
        if (self->writers[i].ended_at >= 0 && self->writers[i].ended_at < n)
            ended[n_ended++] = i;
    Zsink__CommitterState *state = zs_pending_state (
        self->pending, self->user, n, n_ended == (size_t) self->nwriters, ended, n_ended);
    free (ended);
    if (!state) {
        s_fail (self, "out of memory");
        return;
    }
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_COMMITTER_ACK);
    m.body.committer_ack.checkpoint_id = n;
    m.body.committer_ack.state = state;
    s_send (self, &m.env);
    zs_event ("ack", "\"id\":%lld,\"pending\":%zu", (long long) n, state->n_pending);
    zs_debug ("acked checkpoint %lld with %zu pending checkpoints", (long long) n,
              state->n_pending);
    zs_pending_state_free (&state);
    if (zs_failpoint ("committer.after-state-ack") < 0) {
        s_fail (self, "failpoint committer.after-state-ack");
        return;
    }
    //  While the coordinator makes checkpoint n durable, the manifests of
    //  its commit are written: Notify(n) then finds only the snapshot to
    //  write (docs/decisions.md, "What is fsynced, and why").
    if (self->phase == S_ACTIVE && self->table)
        zs_commit_prepare (self->table, self->pending, self->user, n);
}

//  Invariant 8, for each file: a data file inside the table ([k=v/…]
//  bucket-N/NAME, no "..", not absolute, the directories its partition's), not listed twice, not
//  pending already, not live in the table, a regular file of the recorded size. The table checks
//  again when it commits; this is so that no checkpoint ever holds a file
//  that its restore would refuse. 0, or -1 with why filled.
static int
s_check_committable (s_committer_t *self, const Zsink__Committable *c, char *why, size_t len)
{
    for (size_t i = 0; i < c->n_files; i++) {
        zs_file_meta_t meta;
        if (strlen (c->files[i]->path) >= sizeof meta.path
            || (c->files[i]->has_value_stats && c->files[i]->value_stats.len > ZS_STATS_MAX)
            || (c->files[i]->has_partition && c->files[i]->partition.len > sizeof meta.partition)) {
            snprintf (why, len, "file %zu: path, statistics or partition too long", i);
            return -1;
        }
        zs_file_meta_from_proto (c->files[i], &meta);
        if (zs_pending_holds_file (self->pending, meta.path)) {
            snprintf (why, len, "%s is in a committable already", meta.path);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp (c->files[j]->path, meta.path) == 0) {
                snprintf (why, len, "%s is listed twice", meta.path);
                return -1;
            }
        if (zs_table_check_new_file (self->table, &meta, why, len) != 0)
            return -1;
    }
    return 0;
}

static void
s_on_committable (s_committer_t *self, int index, const Zsink__Committable *c)
{
    s_writer_t *w = &self->writers[index];
    if (c->writer != index) {
        s_fail (self, "writer %d sent a committable of writer %d", index, c->writer);
        return;
    }
    //  Invariant 8: refused now, and the job fails over at once, rather
    //  than held in a checkpoint that could then never be restored.
    char why[ZS_ERRLEN];
    if (s_check_committable (self, c, why, sizeof why) != 0) {
        self->refused++;
        s_fail (self,
                "refused committable of writer %d for checkpoint %lld (%lld refused so far): %s",
                index, (long long) c->checkpoint_id, (long long) self->refused, why);
        return;
    }
    if (c->checkpoint_id == ZS_END_INPUT_ID) {
        if (w->ended_at >= 0) {
            s_fail (self, "writer %d sent an end-input committable after its end of input", index);
            return;
        }
        w->end_count++;
    } else {
        if (c->checkpoint_id <= w->last_marker) {
            s_fail (self, "writer %d sent a committable for checkpoint %lld after its marker %lld",
                    index, (long long) c->checkpoint_id, (long long) w->last_marker);
            return;
        }
        int *slot = s_count_slot (w, c->checkpoint_id, true);
        if (!slot) {
            s_fail (self, "out of memory");
            return;
        }
        (*slot)++;
    }
    //  The tag places an end-input committable between this writer's
    //  markers (invariant 2); other ids place themselves.
    if (zs_pending_add (self->pending, c, w->last_marker) < 0)
        s_fail (self, "cannot store a committable of writer %d", index);
    else if (c->n_files)
        self->unpinned++;
}

static void
s_on_marker (s_committer_t *self, int index, int64_t n, int count)
{
    s_writer_t *w = &self->writers[index];
    if (n <= w->last_marker) {
        s_fail (self, "marker %lld from writer %d after its marker %lld", (long long) n, index,
                (long long) w->last_marker);
        return;
    }
    int got = s_count_take (w, n);
    if (got != count) {
        s_fail (self, "writer %d sent %d committables for checkpoint %lld, its marker says %d",
                index, got, (long long) n, count);
        return;
    }
    //  Markers of one writer ascend, so "every writer is at n or beyond"
    //  means every marker n is in, and this one completed it.
    w->last_marker = n;
    for (int i = 0; i < self->nwriters; i++)
        if (self->writers[i].last_marker < n)
            return;
    s_complete (self, n);
}

static void
s_on_end_of_input (s_committer_t *self, int index, int count)
{
    s_writer_t *w = &self->writers[index];
    if (w->ended_at >= 0)
        return; //  a writer restored to its end says so again
    if (count != w->end_count) {
        s_fail (self, "writer %d sent %d end-input committables, its end of input says %d", index,
                w->end_count, count);
        return;
    }
    w->ended_at = w->last_marker;
    zs_debug ("writer %d reached end of input", index);
    //  No checkpoints to wait for: end of input is the commit point.
    if (self->cfg.checkpoint_interval_ms == 0 && s_all_ended (self, INT64_MAX)) {
        char err[ZS_ERRLEN];
        if (s_commit (self, INT64_MAX, true, false, err, sizeof err) < 0)
            s_fail (self, "commit at end of input failed: %s", err);
    }
}

//  The writer whose registered connection this is (invariant 7), or -1.
static int
s_writer_by_rid (s_committer_t *self, const char *rid)
{
    for (int i = 0; i < self->nwriters; i++)
        if (self->writers[i].rid[0] && strcmp (self->writers[i].rid, rid) == 0)
            return i;
    return -1;
}

//  Is this message from a writer of the job and epoch we were reset to,
//  on the connection that writer registered with? Counts the drop if not.
//  Returns the writer index, or -1.
static int
s_sender (s_committer_t *self, const char *rid, const char *user, zs_env_t *env)
{
    //  CURVE on: only the key bound to writer i may speak for writer i
    //  (docs/security.md); checked before anything else is believed.
    char why[ZS_ERRLEN];
    if (self->curve
        && !zs_curve_bound (self->curve, user, env->sender,
                            env->has_sender_index ? env->sender_index : -1, why, sizeof why)) {
        zs_curve_refuse (self->curve, user, why);
        return -1;
    }
    if (!self->job_id[0] || strcmp (env->job_id, self->job_id) != 0) {
        zs_drops_add (self->drops, ZS_DROP_FOREIGN, rid, NULL);
        return -1;
    }
    //  Older: a previous attempt. Newer, or ours while we have no usable
    //  state: cannot be applied before our Reset.
    if (self->phase == S_IDLE || env->epoch != self->epoch
        || zs_participant_epoch (self->part) != self->epoch) {
        zs_drops_add (self->drops, ZS_DROP_STALE, rid, NULL);
        return -1;
    }
    //  The connection decides who speaks, never the envelope: a peer that
    //  did not register is no writer, whatever it claims.
    int index = s_writer_by_rid (self, rid);
    int claims = env->has_sender_index ? env->sender_index : -1;
    if (index < 0 || env->sender != ZSINK__ROLE__ROLE_WRITER || claims != index) {
        char detail[128];
        if (index < 0)
            snprintf (detail, sizeof detail, "claims writer %d, not a registered connection",
                      claims);
        else
            snprintf (detail, sizeof detail, "writer %d's connection claims writer %d", index,
                      claims);
        zs_drops_add (self->drops, ZS_DROP_UNREGISTERED, rid, detail);
        return -1;
    }
    if (self->phase == S_FAILED) {
        zs_drops_add (self->drops, ZS_DROP_STALE, rid, NULL);
        return -1;
    }
    return index;
}

//  One data message: filter (invariant 7), sequence, apply.
static void
s_on_data (s_committer_t *self, const char *rid, const char *user, zs_env_t *env)
{
    int index = s_sender (self, rid, user, env);
    if (index < 0)
        return;
    switch (env->body_case) {
    case ZSINK__ENVELOPE__BODY_COMMITTABLE:
    case ZSINK__ENVELOPE__BODY_MARKER:
    case ZSINK__ENVELOPE__BODY_END_OF_INPUT:
        break;
    default: {
        char why[128];
        snprintf (why, sizeof why, "%s message on the data pipe", zs_env_kind (env));
        zs_drops_add (self->drops, ZS_DROP_GARBAGE, rid, why);
        return;
    }
    }
    //  Sequence after identity: only the registered writer's own messages
    //  can look like a gap.
    s_writer_t *w = &self->writers[index];
    if (env->seq != w->seq + 1) {
        s_fail (self, "sequence gap from writer %d: expected %llu, got %llu", index,
                (unsigned long long) (w->seq + 1), (unsigned long long) env->seq);
        return;
    }
    w->seq = env->seq;
    if (env->body_case == ZSINK__ENVELOPE__BODY_COMMITTABLE)
        s_on_committable (self, index, env->committable);
    else if (env->body_case == ZSINK__ENVELOPE__BODY_MARKER)
        s_on_marker (self, index, env->marker->checkpoint_id, env->marker->count);
    else
        s_on_end_of_input (self, index, env->end_of_input->count);
}

static void
s_drain_data (s_committer_t *self)
{
    for (int i = 0; i < DATA_BATCH && !self->done; i++) {
        char rid[ZS_RID_MAX] = "", user[64];
        zs_env_t *env = NULL;
        int rc = zs_drops_recv (self->drops, self->data, rid, sizeof rid, user, sizeof user, &env);
        if (rc == 0)
            return;
        if (rc < 0)
            continue;
        s_on_data (self, rid, user, env);
        zs_env_free (&env);
    }
}

static void s_on_shutdown (s_committer_t *self, int64_t r);

static void
s_drain_control (s_committer_t *self)
{
    while (!self->done) {
        zs_env_t *env = NULL;
        zs_pev_t ev = zs_participant_poll (self->part, &env);
        if (ev == ZS_PEV_NONE)
            return;
        if (ev == ZS_PEV_WELCOME) {
            int code = s_on_welcome (self);
            if (code) {
                self->exit_code = code;
                self->done = true;
            }
            continue;
        }
        if (ev == ZS_PEV_LOST) {
            s_drop_state (self);
            continue;
        }
        if (ev == ZS_PEV_SUPERSEDED) {
            //  another committer registered for the job after we were cut
            //  off (the lock did not stop it: another host, say): exit 0
            s_drop_state (self);
            self->done = true;
            return;
        }
        switch (env->body_case) {
        case ZSINK__ENVELOPE__BODY_RESET:
            s_on_reset (self, env);
            break;
        case ZSINK__ENVELOPE__BODY_NOTIFY:
            s_on_notify (self, env->notify->checkpoint_id);
            break;
        case ZSINK__ENVELOPE__BODY_SHUTDOWN: {
            zs_info ("shutdown: %s", env->shutdown->reason);
            if (env->shutdown->has_last_checkpoint)
                s_on_shutdown (self, env->shutdown->last_checkpoint);
            zs_msg_t bye;
            zs_msg_init (&bye, ZSINK__ENVELOPE__BODY_BYE);
            s_send (self, &bye.env);
            self->exit_code = 0;
            self->done = true;
            break;
        }
        case ZSINK__ENVELOPE__BODY_START:
            break; //  the committer is driven by its data, not by Start
        default:
            zs_debug ("ignored %s from the coordinator", zs_env_kind (env));
            break;
        }
        zs_env_free (&env);
    }
}

//  The pin of what is left pending once the job ended (invariant 10): the
//  checkpoints after its last completed one are gone, and a pin naming
//  their files would spare them from every cleaner for ever. A failure is
//  only said: the pin then spares too much, never too little.
static void
s_repin_at_end (s_committer_t *self)
{
    char err[ZS_ERRLEN];
    if (self->table && self->user[0] && s_pin_pending (self, err, sizeof err) != 0)
        zs_warn ("cannot pin what is left pending: %s", err);
}

//  The job ended CANCELED or FAILED at checkpoint r (0: none completed):
//  the files of every pending checkpoint after r are in no completed
//  checkpoint, and this committer commits nothing more, so they go. With
//  checkpointing off this is the only one to delete the end of input it
//  holds (writer.c leaves those to it: only here is it certain that the
//  commit did not happen). An id the table shows committed (a commit that
//  failed after its snapshot) keeps its files.
static void
s_delete_pending_after (s_committer_t *self, int64_t r)
{
    int64_t *ids = NULL, last = -1;
    int n = zs_pending_head (self->pending, INT64_MAX, true, &ids);
    char err[ZS_ERRLEN];
    if (self->table && self->user[0]
        && zs_table_last_committed (self->table, self->user, &last, err, sizeof err) != 0)
        last = INT64_MAX; //  cannot tell: keep everything
    int deleted = 0, failed = 0, dropped = 0;
    for (int i = 0; i < n; i++) {
        zs_file_meta_t *files = NULL;
        size_t nf = 0;
        if (ids[i] <= r || ids[i] <= last
            || zs_pending_files (self->pending, ids[i], &files, &nf) != 0)
            continue;
        for (size_t f = 0; f < nf; f++) {
            char path[2 * ZS_PATH_MAX];
            snprintf (path, sizeof path, "%s/%s", self->table_path, files[f].path);
            if (zs_io_unlink (path) == 0)
                deleted++;
            else if (errno != ENOENT) { //  (the writer may have been first)
                zs_warn ("cannot delete %s: %s (an orphan now)", path, strerror (errno));
                failed++;
            }
        }
        free (files);
        zs_pending_remove (self->pending, ids[i]);
        dropped++;
    }
    free (ids);
    if (deleted || failed)
        zs_info ("%d data files of checkpoints after %lld deleted (the job ended there)%s", deleted,
                 (long long) r, failed ? "; some could not be" : "");
    if (dropped)
        s_repin_at_end (self);
}

static void
s_on_shutdown (s_committer_t *self, int64_t r)
{
    zs_compactor_cancel (self->compactor);
    s_delete_pending_after (self, r);
}

//  ---- process ------------------------------------------------------------

static void
s_usage (FILE *out)
{
    fprintf (out,
             "usage: zsink-committer --coordinator EP [--bind EP] [--keys DIR] [--help]\n"
             "  --coordinator EP  the coordinator's control endpoint (env ZSINK_COORDINATOR)\n"
             "  --bind EP         data endpoint writers connect to (env ZSINK_COMMITTER_BIND,\n"
             "                    default " DEFAULT_BIND ")\n"
             "  --keys DIR        CURVE keys directory (env ZSINK_KEYS_DIR; zsink keys\n"
             "                    generate): server.cert_secret, committer.cert_secret,\n"
             "                    public/. Without it the sockets are not authenticated.\n"
             "Fail points: ZSINK_FAILPOINTS=name=action[,…]\n");
}

//  The command line (and its environment defaults). ZS_CMD_GO_ON, or the
//  exit status (0 after --help, 2 after an error).
typedef struct {
    const char *coordinator, *bind, *keys;
} s_args_t;

static int
s_parse_args (int argc, char **argv, s_args_t *a)
{
    a->coordinator = getenv ("ZSINK_COORDINATOR");
    a->bind = getenv ("ZSINK_COMMITTER_BIND");
    a->keys = getenv ("ZSINK_KEYS_DIR");
    const zs_cmd_value_t opts[] = {
        {"coordinator", &a->coordinator}, {"bind", &a->bind}, {"keys", &a->keys}};
    int rc = zs_cmd_getopt_values (argc, argv, opts, 3, s_usage);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    if (!a->coordinator || !*a->coordinator) {
        fprintf (stderr, "zsink-committer: --coordinator is required\n");
        s_usage (stderr);
        return 2;
    }
    if (!a->bind || !*a->bind)
        a->bind = DEFAULT_BIND;
    return ZS_CMD_GO_ON;
}

static void
s_committer_fini (s_committer_t *self)
{
    if (self->pending)
        s_drop_state (self);
    zs_participant_destroy (&self->part);
    zsock_destroy (&self->data);
    zs_curve_destroy (&self->curve);
    zs_compactor_destroy (&self->compactor);
    zs_prom_destroy (&self->prom);
    zs_table_destroy (&self->table);
    zs_io_lock_release (&self->lock);
    zs_pending_destroy (&self->pending);
    zs_drops_destroy (&self->drops);
}

//  Fail points, disk faults, keys, the data socket, the coordinator
//  connection. 0, or the exit status (having logged why).
static int
s_committer_init (s_committer_t *self, const s_args_t *a)
{
    if (zs_cmd_faults_init () != ZS_CMD_GO_ON)
        return 2;
    char err[ZS_ERRLEN];
    self->pending = zs_pending_new ();
    self->drops = zs_drops_new ("data message");
    self->compactor = zs_compactor_new ();
    if (!self->pending || !self->drops || !self->compactor) {
        zs_error ("out of memory");
        return 1;
    }
    if (a->keys && *a->keys) {
        self->curve = zs_curve_load (a->keys, ZSINK__ROLE__ROLE_COMMITTER, -1, err, sizeof err);
        if (!self->curve) {
            zs_error ("--keys: %s", err);
            return 2;
        }
        zs_net_use_curve (self->curve);
    }
    self->data = zs_net_router (a->bind, err, sizeof err);
    if (!self->data) {
        zs_error ("cannot bind the data endpoint: %s", err);
        return 1;
    }
    self->part =
        zs_participant_new (ZSINK__ROLE__ROLE_COMMITTER, -1, a->coordinator, err, sizeof err);
    if (!self->part) {
        zs_error ("cannot connect to the coordinator: %s", err);
        return 1;
    }
    zs_participant_report_drops (self->part, self->drops);
    zs_info ("committer %s started (data %s, coordinator %s)", zs_participant_id (self->part),
             a->bind, a->coordinator);
    return 0;
}

//  Renew the lock's lease (S3; nothing to do for a local flock). Lost, the
//  job is no longer ours to commit: exit, to be restarted.
static void
s_keep_lock (s_committer_t *self)
{
    char err[ZS_ERRLEN];
    int rc = zs_io_lock_keep (self->lock, err, sizeof err);
    if (rc == ZS_ESTALE) {
        zs_error ("LEASE_LOST the committer lock is lost: %s; exiting", err);
        self->exit_code = ZS_EXIT_RESTART;
        self->done = true;
    } else if (rc != 0)
        zs_warn ("cannot renew the committer lock yet: %s", err);
}

//  The event loop: control first (a Reset must be applied before the data
//  of its epoch, and the participant's timers run on every turn), then data.
static void
s_committer_run (s_committer_t *self)
{
    while (!self->done && !zsys_interrupted) {
        zmq_pollitem_t items[] = {
            {zsock_resolve (zs_participant_sock (self->part)), 0, ZMQ_POLLIN, 0},
            {zsock_resolve (self->data), 0, ZMQ_POLLIN, 0},
            {NULL, zs_compactor_fd (self->compactor), ZMQ_POLLIN, 0},
            {NULL, self->prom ? zs_prom_fd (self->prom) : -1, ZMQ_POLLIN, 0},
        };
        if (zmq_poll (items, 4, zs_participant_wait_ms (self->part, POLL_MS)) < 0
            && errno != EINTR) {
            zs_error ("poll failed: %s", zmq_strerror (zmq_errno ()));
            self->exit_code = 1;
            break;
        }
        s_drain_control (self);
        s_keep_lock (self);
        if (!self->done && (items[1].revents & ZMQ_POLLIN))
            s_drain_data (self);
        if (!self->done && (items[2].revents & ZMQ_POLLIN))
            s_on_compacted (self);
        if (self->prom && (items[3].revents & ZMQ_POLLIN))
            zs_prom_serve (self->prom, s_render_metrics, self);
        if (self->curve) {
            int64_t unauthorized, handshakes;
            zs_curve_counters (self->curve, &unauthorized, &handshakes);
            zs_participant_set_security (self->part, unauthorized, handshakes);
        }
    }
    if (zs_drops_total (self->drops)) {
        char line[256];
        zs_drops_format (self->drops, line, sizeof line);
        zs_info ("dropped data messages: %s", line);
    }
}

int
zs_committer_main (int argc, char **argv)
{
    zsys_init ();
    zs_log_set_name ("committer");
    s_args_t args;
    int code = s_parse_args (argc, argv, &args);
    if (code != ZS_CMD_GO_ON)
        return code;
    s_committer_t self = {.phase = S_IDLE, .bounded = -1, .last_snapshot = -1};
    code = s_committer_init (&self, &args);
    if (code == 0) {
        s_committer_run (&self);
        code = self.exit_code;
    }
    s_committer_fini (&self);
    return code;
}
