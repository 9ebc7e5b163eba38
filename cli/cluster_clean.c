/*  cluster_clean.c - see cluster.h: what `zsink cluster` cleans once a job
    it ran ended CANCELED or FAILED, or once it ended the job itself.

    The roles clean after themselves on Shutdown (writer.c, committer.c),
    but only those that get it: a writer restarting after a full disk, or a
    job the coordinator could not end (its checkpoint disk full, so it
    stops to be restarted before it can carry out a cancel), leaves the
    files handed over for a checkpoint that never completed. Once every
    role of the job is gone, the cluster deletes them by the rule a
    Reset(R) applies, R = the latest chk-N on disk. Also before a job
    restored (--restore-from) from another job's checkpoint starts: that
    job's files after its latest checkpoint are no restore's either, and the
    new job's writers, whose file names carry another job id, never match
    them (why a restore left case 4's orphans in place):

    1. Only this job's data files (writer/dataname.c: its job8 and a writer
       index of the job), and only those named after barrier K >= R: files
       of a completed checkpoint are named K < its id <= R, and a restore
       from any retained chk-N needs them.
    2. Only files no snapshot references (zs_table_orphans): with
       checkpointing off the committer commits the end of input without a
       checkpoint, so R = 0 says nothing about those.
    3. Only while nothing of the job runs: the job's coordinator lock (the
       checkpoint directory's) and committer lock (the table's) are free
       and held by us while we delete; either held means a process of the
       job still runs, and nothing is deleted.
    4. The job's pin (table_pins.c) forgets the files rule 1 deletes
       before the orphans are listed: they are no restore's, and a pin
       would spare them for ever.
*/
#include "cluster.h"
#include "checkpoint.h"
#include "dataname.h"
#include "fs.h"
#include "io.h"
#include "io_lock.h"
#include "table.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

//  Hold the lock at path if it is free: fd (>= 0), -1 when no such file
//  (nobody ever held it), -2 when held. Read-only: a full disk still works.
//  A lease on S3 is only asked about (-1 free, -2 held or unknown): the
//  job is over, and no zsink process starts one of its roles again.
static int
s_hold_if_free (const char *path)
{
    if (zs_io_is_remote (path)) {
        bool held = false;
        char holder[128], err[ZS_ERRLEN];
        int rc = zs_io_lock_probe (path, &held, holder, sizeof holder, err, sizeof err);
        return rc != 0 || held ? -2 : -1;
    }
    int fd = open (path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    close (fd);
    return -2;
}

//  Is name (a table-relative path) one of this job's data files written
//  after barrier r?
static bool
s_after (const char *path, const char *job_id, int parallelism, int64_t r)
{
    const char *name = strrchr (path, '/');
    name = name ? name + 1 : path;
    for (int i = 0; i < parallelism; i++) {
        int64_t k, epoch, n;
        if (zs_dataname_parse (name, job_id, i, &k, &epoch, &n))
            return k >= r;
    }
    return false;
}

typedef struct {
    const char *job_id;
    int parallelism;
    int64_t r;
} s_rule_t;

//  zs_pin_drop_fn: rule 1 for the job's pin
static bool
s_pin_drop (const char *path, int64_t identifier, void *arg)
{
    (void) identifier;
    const s_rule_t *rule = arg;
    return s_after (path, rule->job_id, rule->parallelism, rule->r);
}

//  zs_io_name_fn: an upload of rule 1 (name is a data file's name)
static bool
s_upload_after (const char *name, void *arg)
{
    const s_rule_t *rule = arg;
    return s_after (name, rule->job_id, rule->parallelism, rule->r);
}

//  Delete the orphans of rule 1 and 2; the count, *failed those that stay.
//  The job's pin first forgets the files rule 1 deletes (4.): its
//  committer pinned a checkpoint after R before it was aborted, and a pin
//  spares what it names from every orphan listing.
static int
s_delete (const zs_config_t *cfg, const char *job_id, int64_t r, int *failed, char *err,
          size_t errlen)
{
    zs_table_t *table = zs_table_open (cfg->table_path, NULL, err, errlen);
    if (!table)
        return -1;
    char **paths = NULL, **dirs = NULL;
    size_t n = 0, nd = 0;
    s_rule_t rule = {job_id, cfg->parallelism, r};
    int rc = zs_table_pin_trim (table, job_id, s_pin_drop, &rule, err, errlen) < 0
                 ? -1
                 : zs_table_orphans (table, 0, &paths, &n, err, errlen);
    //  every bucket directory, each partition's in a partitioned table
    if (rc == 0 && zs_table_bucket_dirs (table, &dirs, &nd, err, errlen) != 0) {
        for (size_t i = 0; i < n; i++)
            free (paths[i]);
        free (paths);
        rc = -1;
    }
    zs_table_destroy (&table);
    if (rc != 0)
        return -1;
    int deleted = 0;
    for (size_t i = 0; i < n; i++) {
        char full[2 * ZS_PATH_MAX];
        snprintf (full, sizeof full, "%s/%s", cfg->table_path, paths[i]);
        if (s_after (paths[i], job_id, cfg->parallelism, r)) {
            if (zs_io_unlink (full) == 0)
                deleted++;
            else if (errno != ENOENT) {
                snprintf (err, errlen, "%s: %s", full, strerror (errno));
                (*failed)++;
            }
        }
        free (paths[i]);
    }
    free (paths);
    //  On S3, a writer killed while uploading a file left an open
    //  multipart upload: no object, but stored parts, in the bucket
    //  directory of the file's partition.
    for (size_t i = 0; i < nd; i++) {
        char dir[2 * ZS_PATH_MAX];
        int aborted = 0;
        snprintf (dir, sizeof dir, "%s/%s", cfg->table_path, dirs[i]);
        if (zs_io_abort_uploads (dir, s_upload_after, &rule, &aborted, err, errlen) != 0)
            (*failed)++;
    }
    zs_table_free_rels (&dirs, nd);
    return deleted;
}

int
zs_cluster_clean (const zs_config_t *cfg, const char *chk_root, const char *job_id, char *said,
                  size_t saidlen)
{
    char job_dir[2 * ZS_PATH_MAX], lock[3 * ZS_PATH_MAX], err[ZS_ERRLEN] = "";
    snprintf (job_dir, sizeof job_dir, "%s/%s", chk_root, job_id);
    int64_t r = zs_chk_latest (job_dir, err, sizeof err);
    if (r < 0) {
        snprintf (said, saidlen, "cannot tell its latest checkpoint: %s", err);
        return -1;
    }
    snprintf (lock, sizeof lock, "%s/.coordinator.lock", chk_root);
    int coord = s_hold_if_free (lock);
    snprintf (lock, sizeof lock, "%s/.locks/committer-%s", cfg->table_path, job_id);
    int committer = coord == -2 ? -2 : s_hold_if_free (lock);
    int rc = -1, failed = 0;
    if (coord == -2 || committer == -2)
        snprintf (said, saidlen, "a process of the job still runs (it holds its %s lock)",
                  coord == -2 ? "coordinator" : "committer");
    else if ((rc = s_delete (cfg, job_id, r, &failed, err, sizeof err)) < 0)
        snprintf (said, saidlen, "%s", err);
    else if (failed)
        snprintf (said, saidlen,
                  "%d data files written after checkpoint %" PRId64 " deleted; %d could not be "
                  "(%s): `zsink table orphans --delete` removes them",
                  rc, r, failed, err);
    else
        snprintf (said, saidlen, "%d data files written after checkpoint %" PRId64 " deleted", rc,
                  r);
    if (coord >= 0)
        close (coord);
    if (committer >= 0)
        close (committer);
    return rc < 0 || failed ? -1 : rc;
}
