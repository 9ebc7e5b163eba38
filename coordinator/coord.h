/*  coord.h - the coordinator's state, shared by coordinator.c (the
    protocol: checkpoints, failover, messages, timers), startup.c (command
    line, configuration, finding or creating the job), resources.c (what
    the process holds), status.c, metrics.c, rows.c, welcome.c and
    kafka_coord.c. Private to coordinator/.

    Parts of it are classes of their own, each with its invariants in its
    header: the checkpoint in flight and the checkpoint counts
    (inflight.h), the stop with a savepoint and the end once decided
    (ending.h), what the job committed (progress.h), the checkpoint history
    (history.h), the splits (splits.h).
*/
#ifndef ZS_COORD_H_INCLUDED
#define ZS_COORD_H_INCLUDED

#include "checkpoint.h"
#include "codec.h"
#include "config.h"
#include "curve.h"
#include "drops.h"
#include "ending.h"
#include "history.h"
#include "inflight.h"
#include "io_lock.h"
#include "progress.h"
#include "prom.h"
#include "splits.h"
#include <jansson.h>
#include <stdio.h>

#define SUPERSEDED_MAX 64

//  The job's states: coordinator.c says which function makes each
//  transition; s_state_names there, which name each prints as.
typedef enum {
    J_CREATED,
    J_RESTORING,
    J_RUNNING,
    J_FINISHING,
    J_STOPPING,
    J_RESTARTING, //  failed over: a new epoch, restored after the restart delay
    J_FINISHED,
    J_CANCELED,
    J_FAILED,
} job_state_t;

//  One participant slot: [0] the committer, [1 + i] writer i.
typedef struct {
    bool registered;
    char rid[ZS_RID_MAX];
    char instance[16];
    int pid;
    int64_t last_heard;
    uint64_t seq;
    bool reset_sent, ready, finished, acked, bye;
    int64_t last_committed; //  committer's Ready
    int64_t rows_read;
    int64_t rate_at, rate_rows;        //  rows_read at mono ms rate_at: the rate's start
    double rate;                       //  rows read per second (numRecordsInPerSecond)
    int64_t dropped[ZS_DROP_NREASONS]; //  its heartbeats' counters (zs_drop_t)
    int64_t refused_handshakes;
    Zsink__SourcePosition pos; //  writer's position in the in-flight ack
    char pos_file[256];        //  pos.file points here (or is NULL)
} slot_t;

typedef struct {
    zs_config_t cfg;
    char job_dir[ZS_PATH_MAX + 72];
    zs_io_lock_t *lock; //  <checkpoints dir>/.coordinator.lock, held for life (io_lock.h)
    zs_job_meta_t meta;
    int64_t next_id; //  the next checkpoint id; meta.next_checkpoint_id reserves up to it
    zs_sender_t from;
    zsock_t *router;
    zs_curve_t *curve; //  security.curve.enabled: our keys, else NULL
    job_state_t state;
    int n; //  parallelism
    slot_t *slots;
    zs_chk_t latest; //  latest completed checkpoint (id 0: none)
    //  The source's splits as of latest, plus those found since (Kafka):
    //  what a restore deals out. Empty for a datagen or file job before
    //  its first checkpoint (its writers then take their own share).
    zs_splits_t *splits;
    zs_splits_t *progress; //  the splits' states in the writers' latest heartbeats
    //  the Kafka source's enumerator (kafka_coord.c), NULL for other sources
    struct _zs_kafka_enum_t *kafka;
    bool kafka_discovered; //  the first discovery answered
    char kafka_error[256]; //  the last failed ask's error ("" after one answered)
    int kafka_asking;      //  discoveries and stop resolutions asked, not answered
    int64_t kafka_next_discovery, kafka_retry_at; //  mono ms (0: no retry due)
    bool kafka_committing;                        //  an offset commit asked, not answered
    bool kafka_commit_again; //  the last one failed: asked again at kafka_retry_at
    int64_t kafka_commit_id, kafka_commit_deadline;
    zs_splits_t *kafka_committed; //  the offsets last sent to Kafka (status, metrics)
    zs_inflight_t *inflight;      //  the checkpoint in flight, and the counts
    int64_t next_trigger_at;
    int64_t last_heartbeat; //  when we last sent heartbeats (mono ms)
    bool final_checkpoint_needed;
    int restarts;
    bool restored;      //  RUNNING once in this process, or resumed: the next start is a restore
    int64_t running_at; //  mono ms of the last switch to RUNNING (metrics uptime)
    int64_t restore_at, restoring_since;
    zs_progress_t *committed; //  what the job committed (progress.h)
    zs_drops_t *drops;        //  on our ROUTER
    zs_history_t *history;    //  the checkpoint history (zsink status)
    zs_prom_t *prom;          //  metrics.reporter.prom.port, else NULL
    zs_ending_t *ending;      //  a stop with a savepoint, and the end once decided
    //  Instances (Hello.instance) whose slot another process took over, a
    //  ring: newest wins, so a healed zombie is refused for good instead of
    //  taking its slot back (which would fail the job over, and the
    //  replacement would do the same: ping-pong until the restart attempts
    //  are exhausted). Not persisted: after a coordinator restart the first
    //  takeover sorts it out again.
    char superseded[SUPERSEDED_MAX][16];
    int superseded_next;
} coord_t;

#define COMMITTER 0
#define WRITER(i) (1 + (i))

//  Parse the command line, load and check the configuration, then resume
//  the job from its directory or create it (or restore it from a savepoint
//  with --restore-from). Returns -1 when the coordinator should run, with
//  *bind_p the endpoint to bind; otherwise the exit code (0: nothing to do,
//  1: refused, 2: usage or configuration error), having allocated nothing.
int zs_coord_setup (coord_t *self, int argc, char **argv, const char **bind_p);

//  The Kafka source (kafka_coord.c; each a no-op for other sources).
//  _open starts the enumerator and its first discovery (0, or -1 after
//  logging why not); _sock is its answers' socket (NULL: none);
//  _on_answer takes one answer and says whether the splits just became
//  ready; _splits_ready is true once a restore may reset the writers;
//  _tick asks again after a failure and discovers periodically;
//  _committed commits the latest checkpoint's offsets once its snapshot
//  is in; _busy while that commit is unanswered (an ending job waits).
int zs_coord_kafka_open (coord_t *self);
void zs_coord_kafka_close (coord_t *self);
zsock_t *zs_coord_kafka_sock (coord_t *self);
bool zs_coord_kafka_on_answer (coord_t *self);
bool zs_coord_splits_ready (coord_t *self);
void zs_coord_kafka_tick (coord_t *self, int64_t now);
void zs_coord_kafka_committed (coord_t *self, int64_t identifier);
bool zs_coord_kafka_busy (coord_t *self);

//  One split as zsink status and the metrics show it: its writer, the
//  offset it is at (the writer's latest heartbeat, else the checkpoint),
//  the offset in the latest checkpoint, and for Kafka the partition's end,
//  the lag (end - offset) and the offset committed to Kafka (-1: unknown).
typedef struct {
    const Zsink__Split *split;
    int writer;
    int64_t offset, checkpointed, end, lag, committed;
    bool finished;
} zs_split_view_t;
//  The k-th split of the record (0, or -1 past the last).
int zs_coord_split_view (coord_t *self, size_t k, zs_split_view_t *v);
//  All of them as a JSON list (zsink status "splits").
json_t *zs_coord_splits_json (coord_t *self);

//  A split found while running, to the writer that reads it, if that
//  writer's Reset of this epoch is out (else its Reset will carry it).
void zs_coord_add_split (coord_t *self, const Zsink__Split *split);

//  The rows of this job in a checkpoint (its splits' rows); the rows the
//  bounded input holds (-1: unbounded or not known); the progress as
//  zsink status shows it (rows.c).
int64_t zs_coord_chk_rows (const zs_chk_t *chk);
int64_t zs_coord_input_rows (coord_t *self);
json_t *zs_coord_progress_json (const zs_progress_view_t *v);

//  The state's name, as logged and shown ("RUNNING"); a slot's name
//  ("committer", "writer-0") into buf (coordinator.c).
const char *zs_coord_state_name (job_state_t state);
const char *zs_coord_slot_name (coord_t *self, int slot, char *buf, size_t len);

//  The status document, malloc'd JSON text (status.c).
char *zs_coord_status_json (coord_t *self);

//  Answer a Hello with the Welcome: the parallelism and the whole
//  configuration (welcome.c).
void zs_coord_welcome (coord_t *self, const char *rid);

//  The process's resources (resources.c): CURVE keys (security.curve.*;
//  -1 logged), the slots, splits, classes and the control ROUTER bound at
//  bind (-1 logged), the Prometheus endpoint (metrics.reporter.prom.*; -1
//  logged); close releases whatever was made.
int zs_coord_curve_setup (coord_t *self);
int zs_coord_open (coord_t *self, const char *bind);
int zs_coord_prom_setup (coord_t *self);
void zs_coord_close (coord_t *self);

//  The Prometheus metrics (metrics.c), a zs_prom_render_fn over a coord_t.
void zs_coord_render_metrics (FILE *out, void *arg);
//  pipeline.name, the metrics' job_name ("zsink" when not set).
const char *zs_coord_job_name (coord_t *self);

//  Rewrite job.json (epoch, next checkpoint id, status) atomically; exits
//  the process when it cannot, since ids and epochs must never be reused.
void zs_coord_persist_meta (coord_t *self);

#endif
