/*  commit.c - see commit.h.

    Why ascending and one snapshot per identifier: filterCommitted compares
    an identifier with the last one the commit user committed. Committing
    N before N-1 would make N-1 look committed and lose it; merging them
    into one snapshot would lose the per-checkpoint identifier a restore
    checks against.
*/
#include "commit.h"
#include "events.h"
#include "failpoint.h"
#include "log.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

//  Paimon's sink expires snapshots after each commit, unless write-only.
//  A failed expiry fails no commit: the next one tries again. Tags are
//  roots the expiry keeps (table_tag.c).
static void
s_expire (zs_table_t *table, const char *commit_user)
{
    if (zs_table_opts (table)->write_only)
        return;
    zs_expired_t out;
    char why[ZS_ERRLEN];
    if (zs_table_expire_by_options (table, commit_user, &out, why, sizeof why) != 0)
        zs_warn ("snapshot expiration failed (the next commit tries again): %s", why);
}

//  One expiry at a time and none beside a cleaner (the clean lock,
//  table_pins.c): two at once could move EARLIEST back over snapshots the
//  other removed. Busy, it does not wait (it must not stall the job): the
//  next commit expires.
static void
s_expire_locked (zs_table_t *table, const char *commit_user)
{
    zs_io_lock_t *lock = NULL;
    char why[ZS_ERRLEN];
    if (zs_table_clean_lock (table, true, 0, &lock, why, sizeof why) != 0) {
        zs_debug ("snapshot expiration skipped: %s", why);
        return;
    }
    s_expire (table, commit_user);
    zs_table_clean_unlock (&lock);
    //  and partitions, as Paimon's sink does when the table sets
    //  partition.expiration-time (a commit of its own: after the lock)
    zs_dropped_t dropped;
    if (!zs_table_opts (table)->write_only
        && zs_table_expire_partitions_after_commit (table, &dropped, why, sizeof why) != 0)
        zs_warn ("partition expiration failed (tried again after a later commit): %s", why);
}

void
zs_commit_prepare (zs_table_t *table, zs_pending_t *pending, const char *commit_user, int64_t id)
{
    zs_file_meta_t *files = NULL;
    size_t nfiles = 0;
    char err[ZS_ERRLEN];
    if (zs_pending_files (pending, id, &files, &nfiles) < 0)
        return;
    zs_commit_t req = {.user = commit_user, .identifier = id, .files = files, .n = nfiles};
    if (zs_table_prepare (table, &req, err, sizeof err) != 0)
        zs_debug ("manifests of checkpoint %lld not written ahead: %s", (long long) id, err);
    else //  its manifests durable: the Notify finds only the snapshot to make
        zs_event ("prepare", "\"id\":%lld,\"files\":%zu", (long long) id, nfiles);
    free (files);
}

void
zs_commit_prepare_base (zs_table_t *table, const char *commit_user)
{
    char err[ZS_ERRLEN];
    if (zs_table_prepare_base (table, commit_user, err, sizeof err) != 0)
        zs_debug ("base manifest list not written ahead: %s", err);
}

//  The commit metrics after a snapshot made (Paimon's CommitterMetrics).
static void
s_note_stats (zs_commit_stats_t *stats, const zs_committed_t *made, int64_t started)
{
    *stats = (zs_commit_stats_t){.commits = stats->commits + 1,
                                 .last_duration_ms = zs_clock_mono_ms () - started,
                                 .last_attempts = made->attempts,
                                 .last_files_added = made->files_added,
                                 .last_files_deleted = made->files_deleted,
                                 .last_delta_rows = made->delta_rows};
}

//  Commit pending identifier id: 0 with *made the snapshot, or the table's
//  code (ZS_EFILTERED, ZS_EFINISHED, …) + err. *nfiles: the files it had.
static int
s_commit_one (zs_table_t *table, zs_pending_t *pending, const char *commit_user, int64_t id,
              const zs_commit_opts_t *opts, zs_committed_t *made, size_t *nfiles, char *err,
              size_t errlen)
{
    zs_file_meta_t *files = NULL;
    *nfiles = 0;
    if (zs_pending_files (pending, id, &files, nfiles) < 0) {
        snprintf (err, errlen, "out of memory");
        return ZS_ERR;
    }
    //  The end-input snapshot is made even when empty: it is how the
    //  table (and the coordinator) learn that the job has finished.
    bool ignore_empty = opts->ignore_empty && id != ZS_END_INPUT_ID;
    //  nothing of ours after the end-input snapshot: it is the last
    if (id == ZS_END_INPUT_ID && opts->compactor)
        zs_compactor_cancel (opts->compactor);
    zs_commit_t req = {.user = commit_user,
                       .identifier = id,
                       .files = files,
                       .n = *nfiles,
                       .ignore_empty = ignore_empty,
                       .max_retries = opts->max_retries,
                       .source_id = opts->source_id,
                       .defer_hints = true};
    *made = (zs_committed_t){0};
    int64_t started = zs_clock_mono_ms ();
    int rc = zs_table_commit (table, &req, made, err, errlen);
    if (rc == 0 && opts->stats)
        s_note_stats (opts->stats, made, started);
    free (files);
    return rc;
}

//  Is identifier id, not committed now with code c, done all the same
//  (then it leaves pending)? Committed before (filtered), or while
//  restoring, by the run that finished the table; or an empty checkpoint
//  the coordinator triggered while the job was finishing, completed after
//  the end-input snapshot: it has nothing to add (the table refuses it:
//  ZS_EFINISHED).
static bool
s_settled (int c, size_t nfiles, int64_t id, const zs_commit_opts_t *opts)
{
    bool empty_after_end = c == ZS_EFINISHED && nfiles == 0;
    if (!(c == ZS_EFILTERED || (c == ZS_EFINISHED && opts->recommit) || empty_after_end))
        return false;
    if (opts->recommit)
        zs_info ("filtered committed identifier %lld", (long long) id);
    else if (empty_after_end)
        zs_info ("checkpoint %lld completed after the end of input: nothing to commit",
                 (long long) id);
    return true;
}

//  What follows the snapshot of identifier id, the made-th of this call:
//  the event, the hints, id out of pending, the expiry, a compaction when
//  due, the caller's callback. 0, or ZS_ERR + err from the failpoint committer.mid-recommit.
static int
s_after_commit (zs_table_t *table, zs_pending_t *pending, const char *commit_user, int64_t id,
                const zs_committed_t *made_one, int made, const zs_commit_opts_t *opts, char *err,
                size_t errlen)
{
    //  the moment the snapshot is durable (timeline, bench/latency.py)
    zs_event ("commit", "\"id\":%lld,\"snapshot\":%lld,\"rows\":%lld", (long long) id,
              (long long) made_one->snapshot_id, (long long) made_one->total_rows);
    zs_table_write_hints (table);
    zs_pending_remove (pending, id);
    //  before the commit is reported: the job is not over (the end-input
    //  snapshot reported) while its expiry is under way
    s_expire_locked (table, commit_user);
    //  one compaction when due, rewritten off this thread (compactor.c)
    if (opts->compact && opts->compactor && id != ZS_END_INPUT_ID)
        zs_compactor_start (opts->compactor, table, opts->compact);
    if (opts->on_commit)
        opts->on_commit (id, made_one->snapshot_id, made_one->total_rows, opts->arg);
    if (opts->recommit && made == 1 && zs_failpoint ("committer.mid-recommit") < 0) {
        snprintf (err, errlen, "failpoint committer.mid-recommit");
        return ZS_ERR;
    }
    return 0;
}

int
zs_commit_upto (zs_table_t *table, zs_pending_t *pending, const char *commit_user, int64_t upto,
                bool with_end, const zs_commit_opts_t *opts, char *err, size_t errlen)
{
    int64_t *ids = NULL;
    int n = zs_pending_head (pending, upto, with_end, &ids);
    if (n < 0) {
        snprintf (err, errlen, "out of memory");
        return ZS_ERR;
    }
    int made = 0;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        zs_committed_t made_one;
        size_t nfiles;
        int c = s_commit_one (table, pending, commit_user, ids[i], opts, &made_one, &nfiles, err,
                              errlen);
        if (s_settled (c, nfiles, ids[i], opts)) {
            zs_pending_remove (pending, ids[i]);
            continue;
        }
        if (c < 0) {
            rc = c;
            break;
        }
        made++;
        rc = s_after_commit (table, pending, commit_user, ids[i], &made_one, made, opts, err,
                             errlen);
    }
    //  after a re-commit that made nothing too: it finishes an expiry a
    //  crash cut short
    if (rc == 0 && made == 0 && opts->recommit)
        s_expire_locked (table, commit_user);
    if (rc == 0 && made > 0 && ids[n - 1] != ZS_END_INPUT_ID)
        zs_commit_prepare_base (table, commit_user);
    free (ids);
    return rc < 0 ? rc : made;
}
