/*  history.h - the checkpoint history of a job, as Flink's web UI shows it:
    the last `web.checkpoints.history` checkpoints (completed, failed, in
    progress) with their trigger time, duration, acks, committables, bytes,
    and the snapshot that committed them with its latency.

    Kept in <job dir>/history.json, rewritten (temp file and rename, no
    fsync) as entries change, and loaded again by a restarted coordinator,
    so the history spans restarts and failovers. It is separate from the
    retained checkpoints (state.checkpoints.num-retained): nothing restores
    from it, and a power loss may cost its last entries, never a checkpoint.
*/
#ifndef ZS_HISTORY_H_INCLUDED
#define ZS_HISTORY_H_INCLUDED

#include "zs.h"
#include <jansson.h>

typedef enum { ZS_CHK_IN_PROGRESS, ZS_CHK_COMPLETED, ZS_CHK_FAILED } zs_chk_status_t;

typedef struct {
    int64_t id;
    zs_chk_status_t status;
    bool savepoint;
    int64_t epoch;        //  the job attempt it belonged to
    int64_t trigger_ms;   //  wall clock
    int64_t duration_ms;  //  trigger to complete or fail; -1 in progress
    int acked, expected;  //  participants' acks
    int64_t committables; //  data files the committer holds for this id
    int64_t bytes;        //  of chk-N
    int64_t snapshot;     //  the APPEND snapshot of this identifier (0: none yet)
    int64_t commit_ms;    //  complete to Committed; -1 before
    int64_t completed_mono;
    char reason[128]; //  why it failed
} zs_chk_stat_t;

typedef struct zs_history_t zs_history_t;

//  The history of the job in job_dir, keeping the newest keep entries
//  (loaded from history.json when there is one; completed_id is the latest
//  chk-N, for an entry its coordinator died before marking). NULL when out
//  of memory.
zs_history_t *zs_history_new (const char *job_dir, int keep, int64_t completed_id);
void zs_history_destroy (zs_history_t **self_p);

//  A checkpoint triggered now: a new IN_PROGRESS entry.
zs_chk_stat_t *zs_history_add (zs_history_t *self, int64_t id, int64_t epoch, bool savepoint,
                               int expected);
//  The entry of id, or NULL (never triggered, or fallen out).
zs_chk_stat_t *zs_history_find (zs_history_t *self, int64_t id);
//  The checkpoint in progress (if any) failed: status, duration, reason.
void zs_history_failed (zs_history_t *self, int64_t id, const char *reason);
//  Rewrite history.json after a change. Failures are logged, never more.
void zs_history_save (zs_history_t *self);
//  The entries, newest first, as a JSON array (new reference).
json_t *zs_history_json (zs_history_t *self);
//  "IN_PROGRESS", "COMPLETED" or "FAILED".
const char *zs_chk_status_name (zs_chk_status_t status);

#endif
