/*  commit.h - the committer's commit step: every pending checkpoint up to
    N, ascending, one table snapshot each (Paimon's commitUpToCheckpoint).
*/
#ifndef ZS_COMMIT_H_INCLUDED
#define ZS_COMMIT_H_INCLUDED

#include "compactor.h"
#include "config.h"
#include "pending.h"
#include "table.h"

//  Called after each snapshot made.
typedef void (zs_commit_fn) (int64_t identifier, int64_t snapshot_id, int64_t total_rows,
                             void *arg);

//  What the last commits did (Paimon's CommitterMetrics), for the metrics.
typedef struct {
    int64_t commits;            //  snapshots made
    int64_t last_duration_ms;   //  lastCommitDuration
    int last_attempts;          //  lastCommitAttempts
    int64_t last_files_added;   //  lastTableFilesAdded
    int64_t last_files_deleted; //  lastTableFilesDeleted
    int64_t last_delta_rows;    //  lastDeltaRecordsAppended
} zs_commit_stats_t;

typedef struct {
    bool recommit;     //  restoring: ZS_EFINISHED counts as committed too, the
                       //  "filtered" line is logged, committer.mid-recommit fires
    bool ignore_empty; //  commit.ignore-empty (never for ZS_END_INPUT_ID)
    int max_retries;   //  commit.max-retries
    zs_commit_fn *on_commit;
    void *arg;
    const zs_compact_t *compact; //  after each commit (not end of input): one
                                 //  compaction when due; NULL: never (write-only)
    const char *source_id;       //  for the end-input snapshot (NULL: none)
    zs_commit_stats_t *stats;    //  updated after each snapshot (may be NULL)
    zs_compactor_t *compactor;   //  runs it (with compact); cancelled before
                                 //  the end-input snapshot
} zs_commit_opts_t;

//  Write ahead the base list of the next commit (zs_table_prepare_base),
//  after a commit or a compaction; zs_commit_upto does it after its own.
//  Failing costs nothing but the time saved: only said at debug level.
void zs_commit_prepare_base (zs_table_t *table, const char *commit_user);

//  Write ahead the manifests of pending identifier id's commit
//  (zs_table_prepare), between the ack of checkpoint id and its Notify.
//  Failing costs nothing but the time saved: only said at debug level.
void zs_commit_prepare (zs_table_t *table, zs_pending_t *pending, const char *commit_user,
                        int64_t id);

//  Commit pending identifiers <= upto in ascending order, and then
//  ZS_END_INPUT_ID when with_end (see zs_pending_head). Each is removed from pending once committed
//  or found committed already (ZS_EFILTERED). Returns the number of snapshots made, or a negative
//  code with err filled; the identifier that failed and every later one stay pending.
int zs_commit_upto (zs_table_t *table, zs_pending_t *pending, const char *commit_user, int64_t upto,
                    bool with_end, const zs_commit_opts_t *opts, char *err, size_t errlen);

#endif
