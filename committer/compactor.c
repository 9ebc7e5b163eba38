/*  compactor.c - see compactor.h.

    Why a thread and not a role: a rewrite touches only files no snapshot
    names yet, and the plan and the commit need the committer's table (its
    live set, its commit user, the order of its commits). So the plan and
    the COMPACT commit stay on the committer's loop, between two APPEND
    commits, and only the rewrite (reading and writing Parquet, seconds for
    large inputs) leaves it: checkpoints are acked and committed while it
    runs.

    Invariants
    1. At most one rewrite in flight; its inputs were live when planned.
       A later commit that removed one (a foreign commit, a rollback) makes
       the COMPACT commit fail with ZS_ECONFLICT: dropped, outputs removed.
    2. The thread touches no zs_table_t and no committer state: it reads
       the inputs and writes new files under names no one else uses
       (data-<user tag>-compact-<uuid>-<k>), and says it is done on a pipe.
    3. A rewrite is cancelled (thread joined, outputs removed) before the
       committer cleans up after a restore, commits the end-input snapshot
       or opens another table: none of these meets its files half-written.
    4. A kill -9 mid-rewrite leaves outputs no snapshot names: the next
       committer of the user removes them at restore, like any uncommitted
       file.
*/
#include "compactor.h"
#include "log.h"
#include "zs.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct zs_compactor_t {
    int pipe[2]; //  the thread writes one byte on [1] when done
    pthread_t thread;
    bool busy; //  a thread started and not yet joined
    int stop;  //  set (atomically) to make the thread give up
    //  the task, the thread's to read while busy
    zs_compact_t req;
    char user[64];
    char table_path[ZS_PATH_MAX];
    zs_schemas_t schemas; //  the table's, as planned: the thread's copy
    zs_file_meta_t *in;
    size_t n;
    int64_t started_ms;
    //  the result, the thread's to write while busy
    zs_file_meta_t *made;
    size_t nm;
    int rc;
    char err[ZS_ERRLEN];
    //  counts, for the metrics
    int64_t committed, last_rewrite_ms;
};

zs_compactor_t *
zs_compactor_new (void)
{
    zs_compactor_t *self = calloc (1, sizeof *self);
    if (!self)
        return NULL;
    if (pipe2 (self->pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
        free (self);
        return NULL;
    }
    return self;
}

void
zs_compactor_destroy (zs_compactor_t **self_p)
{
    zs_compactor_t *self = *self_p;
    if (!self)
        return;
    zs_compactor_cancel (self);
    zs_schemas_free (&self->schemas);
    close (self->pipe[0]);
    close (self->pipe[1]);
    free (self);
    *self_p = NULL;
}

int
zs_compactor_fd (zs_compactor_t *self)
{
    return self->pipe[0];
}

void
zs_compactor_counts (zs_compactor_t *self, int64_t *committed, int64_t *last_rewrite_ms)
{
    *committed = self->committed;
    *last_rewrite_ms = self->last_rewrite_ms;
}

bool
zs_compactor_busy (zs_compactor_t *self)
{
    return self->busy;
}

static void *
s_rewrite (void *arg)
{
    zs_compactor_t *self = arg;
    self->rc =
        zs_table_compact_rewrite (self->table_path, &self->schemas, &self->req, self->in, self->n,
                                  &self->stop, &self->made, &self->nm, self->err, sizeof self->err);
    char done = 1;
    while (write (self->pipe[1], &done, 1) < 0 && errno == EINTR)
        ;
    return NULL;
}

bool
zs_compactor_start (zs_compactor_t *self, zs_table_t *table, const zs_compact_t *req)
{
    if (self->busy)
        return true;
    char err[ZS_ERRLEN];
    int rc = zs_table_compact_plan (table, req, &self->in, &self->n, err, sizeof err);
    if (rc != 0)
        zs_warn ("compaction not planned: %s", err);
    if (rc != 0 || self->n == 0)
        return false;
    self->req = *req;
    snprintf (self->user, sizeof self->user, "%s", req->user);
    self->req.user = self->user;
    snprintf (self->table_path, sizeof self->table_path, "%s", zs_table_path (table));
    zs_schemas_free (&self->schemas);
    if (zs_schemas_copy (&self->schemas, zs_table_schemas (table)) != 0) {
        zs_warn ("compaction not started: out of memory");
        free (self->in);
        self->in = NULL;
        return false;
    }
    self->made = NULL;
    self->nm = 0;
    self->rc = 0;
    self->err[0] = 0;
    __atomic_store_n (&self->stop, 0, __ATOMIC_RELAXED);
    self->started_ms = zs_clock_mono_ms ();
    //  signals stay with the loop's thread (zsys_interrupted, EINTR there)
    sigset_t all, old;
    sigfillset (&all);
    pthread_sigmask (SIG_SETMASK, &all, &old);
    rc = pthread_create (&self->thread, NULL, s_rewrite, self);
    pthread_sigmask (SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        zs_warn ("compaction not started: %s", strerror (rc));
        free (self->in);
        self->in = NULL;
        return false;
    }
    self->busy = true;
    return true;
}

//  Join the finished (or stopping) thread and take its byte off the pipe.
static void
s_join (zs_compactor_t *self)
{
    pthread_join (self->thread, NULL);
    char buf[8];
    while (read (self->pipe[0], buf, sizeof buf) > 0)
        ;
    self->busy = false;
}

static void
s_forget (zs_compactor_t *self)
{
    free (self->in);
    free (self->made);
    zs_schemas_free (&self->schemas);
    self->in = self->made = NULL;
    self->n = self->nm = 0;
}

int64_t
zs_compactor_finish (zs_compactor_t *self, zs_table_t *table, bool commit)
{
    if (!self->busy) {
        char buf[8];
        while (read (self->pipe[0], buf, sizeof buf) > 0)
            ;
        return 0;
    }
    s_join (self);
    int64_t snapshot = 0;
    if (self->rc != 0)
        zs_warn ("compaction rewrite failed (the next commit plans again): %s", self->err);
    else if (!commit)
        zs_table_compact_discard (self->table_path, self->made, self->nm);
    else {
        zs_compacted_t out;
        char why[ZS_ERRLEN];
        int rc = zs_table_compact_commit (table, &self->req, self->in, self->n, self->made,
                                          self->nm, &out, why, sizeof why);
        if (rc != 0)
            zs_warn ("compaction not committed: %s", why);
        else {
            snapshot = out.snapshot_id;
            self->committed++;
            self->last_rewrite_ms = zs_clock_mono_ms () - self->started_ms;
            zs_info ("Compacted %" PRId64 " files (%" PRId64 " rows) into %" PRId64
                     " in snapshot %" PRId64 " (rewrite %" PRId64 " ms)",
                     out.before, out.rows, out.after, out.snapshot_id,
                     zs_clock_mono_ms () - self->started_ms);
        }
    }
    s_forget (self);
    return snapshot;
}

void
zs_compactor_cancel (zs_compactor_t *self)
{
    if (!self->busy)
        return;
    __atomic_store_n (&self->stop, 1, __ATOMIC_RELAXED);
    s_join (self);
    if (self->rc == 0)
        zs_table_compact_discard (self->table_path, self->made, self->nm);
    zs_info ("compaction of %zu files cancelled", self->n);
    s_forget (self);
}
