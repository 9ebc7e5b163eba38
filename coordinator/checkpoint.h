/*  checkpoint.h - the coordinator's durable state in
    <state.checkpoints.dir>/<job id>/:

        job.json   job id, commit user, epoch, next checkpoint id, whether
                   the injected failure fired, status. Rewritten atomically
                   before every barrier (the counter) and every failover
                   (the epoch), so neither is ever reused.
        chk-<N>    a completed checkpoint: the state of every split of the
                   source, the rows each writer had read, and the
                   committer's state, JSON, written atomically.

    Version 2 holds the splits (docs/decisions.md, "Splits"): a restore
    deals them out over any parallelism. Version 1, written before splits,
    held one position per writer; it is still read (legacy), and restores
    onto the parallelism it was taken with only.

    A checkpoint file names its job and commit user, so `--restore-from
    chk-N` of a stopped job can carry the commit user into a new job.
*/
#ifndef ZS_CHECKPOINT_H_INCLUDED
#define ZS_CHECKPOINT_H_INCLUDED

#include "codec.h"
#include "zs.h"

typedef struct {
    char job_id[64];
    char commit_user[40];
    int64_t epoch;
    //  Ids below it may have been used: a restarted coordinator starts
    //  there. Reserved a block at a time (ZS_CHECKPOINT_ID_BLOCK), so
    //  job.json is not rewritten at every checkpoint; only grows.
    int64_t next_checkpoint_id;
    bool fail_at_id_fired;
    char status[16]; //  RUNNING, FINISHED, CANCELED, STOPPED, FAILED
    //  What the job committed as of the last write (progress.h): its rows,
    //  the snapshot, the table's rows then, and how long it ran (ms, in
    //  its last coordinator). Optional in the file (0 when absent).
    int64_t rows_committed, last_snapshot, table_rows, running_ms;
} zs_job_meta_t;

//  Checkpoint ids reserved by one write of job.json (Flink's HA checkpoint
//  id counter, in blocks): a coordinator that restarts skips what its
//  predecessor had reserved and not used, at most this many minus one.
#define ZS_CHECKPOINT_ID_BLOCK 100

//  A completed checkpoint.
typedef struct {
    char job_id[64];
    int64_t id;
    int64_t time_millis;
    bool savepoint;
    int parallelism;
    //  [parallelism], malloc'd: rows each writer had read (offset); in a
    //  legacy checkpoint also where each resumes (file, file_offset, …)
    Zsink__SourcePosition *positions;
    bool legacy;           //  version 1: no splits, positions decide
    Zsink__Split **splits; //  [n_splits], each malloc'd (zs_split_dup), id order
    size_t n_splits;
    Zsink__CommitterState *state; //  malloc'd protobuf (unpacked copy)
} zs_chk_t;

//  job.json: 0, ZS_ENOENT (new job), or -1/ZS_ECORRUPT + err.
int zs_job_meta_read (const char *job_dir, zs_job_meta_t *meta, char *err, size_t errlen);
int zs_job_meta_write (const char *job_dir, const zs_job_meta_t *meta, char *err, size_t errlen);

//  Write chk-<id> atomically; *bytes_p (may be NULL) gets its size.
int zs_chk_write (const char *job_dir, const zs_chk_t *chk, int64_t *bytes_p, char *err,
                  size_t errlen);
//  Read a checkpoint file by path. 0 or -1/ZS_ECORRUPT + err.
int zs_chk_read (const char *path, zs_chk_t *chk, char *err, size_t errlen);
//  Highest N of chk-N in job_dir, 0 when none. -1 on error.
int64_t zs_chk_latest (const char *job_dir, char *err, size_t errlen);
//  Keep the newest `retained` checkpoints, delete the others.
void zs_chk_prune (const char *job_dir, int retained);
void zs_chk_clear (zs_chk_t *chk);
//  Remove temp files a killed coordinator left in job_dir (only the
//  coordinator of the job writes there). Returns how many.
int zs_chk_clean_temp (const char *job_dir);

//  Copy a CommitterState (deep) via pack/unpack.
Zsink__CommitterState *zs_state_dup (const Zsink__CommitterState *state);
void zs_state_free (Zsink__CommitterState **state_p);

#endif
