/*  inflight.h - the checkpoint in flight (coordinator invariant 4: at most
    one), and the counts of checkpoints completed, failed and failed in a
    row.

    A checkpoint is begun with its id when its barriers go out; the acks
    bring the writers' split states (put_split) and the committer's state
    (set_state); once every ack is in, take_chk makes the zs_chk_t to write.
    It ends one of three ways: completed (the chk-N written), failed (the
    write failed or it expired: counted in a row, which the job tolerates
    execution.checkpointing.tolerable-failed-checkpoints times), or aborted
    (a failover, the job's end: not a failure of the checkpoint itself,
    but counted as failed in the metrics, as Flink does).
*/
#ifndef ZS_INFLIGHT_H_INCLUDED
#define ZS_INFLIGHT_H_INCLUDED

#include "checkpoint.h"
#include "codec.h"
#include "splits.h"

typedef struct _zs_inflight_t zs_inflight_t;

zs_inflight_t *zs_inflight_new (void);
void zs_inflight_destroy (zs_inflight_t **self_p);

//  Checkpoint id (a savepoint or not) triggered at now (mono ms). None
//  may be in flight.
void zs_inflight_begin (zs_inflight_t *self, int64_t id, bool savepoint, int64_t now);
//  The id in flight, 0 when none.
int64_t zs_inflight_id (zs_inflight_t *self);
//  When it was triggered (mono ms).
int64_t zs_inflight_started (zs_inflight_t *self);
//  In flight for longer than timeout_ms at now.
bool zs_inflight_expired (zs_inflight_t *self, int64_t now, int64_t timeout_ms);

//  A writer's acked split state (a copy). 0, or -1 out of memory.
int zs_inflight_put_split (zs_inflight_t *self, const Zsink__Split *split);
//  The committer's acked state (a copy replaces any earlier). 0, or -1
//  out of memory.
int zs_inflight_set_state (zs_inflight_t *self, const Zsink__CommitterState *state);

//  The checkpoint, every ack in, into chk (which owns all it holds): the
//  writers' positions (rows read only), the committer's state (taken
//  over), and every split: as acked, else as known (a split no writer
//  acked was read by none since).
void zs_inflight_take_chk (zs_inflight_t *self, const char *job_id, int n,
                           const Zsink__SourcePosition *positions, zs_splits_t *known,
                           zs_chk_t *chk);

//  The checkpoint in flight is over: completed (the failures in a row
//  start again), failed (one more in a row; returns how many), or aborted.
//  Each leaves none in flight.
void zs_inflight_completed (zs_inflight_t *self);
int zs_inflight_failed (zs_inflight_t *self);
void zs_inflight_aborted (zs_inflight_t *self);

//  Counts since this coordinator started: completed; failed or aborted;
//  every checkpoint triggered (Flink's totalNumberOfCheckpoints).
int64_t zs_inflight_completed_count (zs_inflight_t *self);
int64_t zs_inflight_failed_count (zs_inflight_t *self);
int64_t zs_inflight_total_count (zs_inflight_t *self);

#endif
