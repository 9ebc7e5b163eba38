/*  progress.h - what the job has committed, as the coordinator's commit
    log line, zsink status, the cluster's progress line and the metrics all
    show it (one count, so none of them lags another): the latest commit
    (identifier, snapshot, the table's rows), the rows of this job in it,
    their rate, and for a bounded input how far along and how long still.

    "Rows of this job" are the rows its source produced into the committed
    checkpoint (the sum of its splits' rows, all runs of the job together),
    not the table's total, which counts rows already there before the job.
    A commit of identifier I covers every checkpoint up to I, so its rows
    are those of the newest checkpoint recorded at or before I.
*/
#ifndef ZS_PROGRESS_H_INCLUDED
#define ZS_PROGRESS_H_INCLUDED

#include "zs.h"

typedef struct _zs_progress_t zs_progress_t;

typedef struct {
    int64_t identifier; //  of the latest commit (0: none yet)
    int64_t snapshot;   //  its snapshot
    int64_t table_rows; //  rows in the table at that snapshot
    int64_t job_rows;   //  rows of this job committed
    int64_t total_rows; //  rows the bounded input holds (-1: unbounded or unknown)
    double rate;        //  job rows committed per second, lately
    double percent;     //  of total_rows committed (-1: unknown)
    int64_t eta_ms;     //  to commit the rest at rate (-1: unknown)
    int64_t running_ms; //  since the job first ran in this process (0: not yet)
} zs_progress_view_t;

zs_progress_t *zs_progress_new (void);
void zs_progress_destroy (zs_progress_t **self_p);

//  The job ran (RUNNING) at now, the first time in this process.
void zs_progress_running (zs_progress_t *self, int64_t now);
//  Checkpoint id holds rows of this job (completed, or restored).
void zs_progress_checkpoint (zs_progress_t *self, int64_t id, int64_t rows);
//  A snapshot committed identifier at now; table_rows -1: unknown. Its
//  job rows: those of its checkpoint, at least end_rows (the rows read
//  when the input ended; 0 else). False when it is no news (an older or
//  the same snapshot).
bool zs_progress_committed (zs_progress_t *self, int64_t identifier, int64_t snapshot,
                            int64_t table_rows, int64_t end_rows, int64_t now);
//  The table's rows as the committer last said (heartbeats).
void zs_progress_table_rows (zs_progress_t *self, int64_t rows);
//  The rows the input holds, when known (-1: unbounded or unknown).
void zs_progress_total (zs_progress_t *self, int64_t rows);
//  The figures at now.
void zs_progress_view (zs_progress_t *self, int64_t now, zs_progress_view_t *v);
//  "12,345" into buf.
const char *zs_progress_num (int64_t n, char *buf, size_t len);
//  The rate, percent and ETA of v as a person reads them ("2,400 rows/s,
//  63.2%, ETA 12 s"; the last two only when known).
const char *zs_progress_text (const zs_progress_view_t *v, char *buf, size_t len);

#endif
