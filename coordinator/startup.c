/*  startup.c - zsink-coordinator's start: command line, configuration,
    and the job it coordinates.

    1. A job id with a job.json whose status is RUNNING is resumed: a new
       epoch, the latest completed checkpoint (this is a coordinator
       restart, after kill -9 or a container restart).
    2. A job id with an ended status (FINISHED, CANCELED, STOPPED, FAILED)
       is left alone: exit 0, so a restart policy does not loop.
    3. A new job id makes a new job with a new commit user, or, with
       --restore-from, the commit user of the checkpoint it continues.
*/
#include "cmd.h"
#include "coord.h"
#include "events.h"
#include "fs.h"
#include "io.h"
#include "failpoint.h"
#include "log.h"
#include "table.h"
#include "table_job.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink-coordinator -c JOB.yaml [-D key=value ...] [--bind ENDPOINT]\n"
                  "                         [--job-id ID] [--restore-from CHECKPOINT]\n"
                  "  --bind          control endpoint to bind (default tcp://*:6123,\n"
                  "                  env ZSINK_COORDINATOR_BIND)\n"
                  "  --job-id        job id (default env ZSINK_JOB_ID, else a new one); a\n"
                  "                  coordinator restarted with the same id resumes the job\n"
                  "                  from <state.checkpoints.dir>/<job id>/\n"
                  "  --restore-from  start a new job from a checkpoint or savepoint file\n"
                  "                  (chk-N), keeping its commit user\n");
}

//  An existing table decides the job's schema when the job gives none, and
//  must otherwise have the job's (table.schema): rows of another shape
//  would be unreadable, or read as something else; and it must be a table
//  zsink can write exactly once (zs_table_prepare_job). 0, or -1 after
//  logging why not.
static int
s_check_schema (coord_t *self)
{
    char err[ZS_ERRLEN];
    if (zs_table_prepare_job (&self->cfg, err, sizeof err) != 0) {
        zs_error ("%s", err);
        return -1;
    }
    return 0;
}

//  Carry a checkpoint of another job (a savepoint) into this new job.
static int
s_restore_from (coord_t *self, const char *path)
{
    char err[ZS_ERRLEN];
    zs_chk_t chk;
    if (zs_chk_read (path, &chk, err, sizeof err) < 0) {
        zs_error ("cannot restore: %s", err);
        return -1;
    }
    if (chk.parallelism != self->n && chk.legacy) {
        zs_error ("cannot restore from %s onto parallelism %d: it was written by a zsink before "
                  "splits, with parallelism %d, and restores onto that only (restore it with "
                  "parallelism %d, take a savepoint, then restore that one with the new "
                  "parallelism)",
                  path, self->n, chk.parallelism, chk.parallelism);
        zs_chk_clear (&chk);
        return -1;
    }
    if (chk.parallelism != self->n) {
        //  Rescaling: the splits are dealt out over the new writers. The
        //  writers that had ended are of the old parallelism; every new
        //  writer whose splits are all finished says so again at its start.
        chk.state->n_ended_writers = 0;
        //  and it is this job's checkpoint now, of this parallelism (the
        //  rows each old writer had read mean nothing to the new ones)
        Zsink__SourcePosition *positions = calloc ((size_t) self->n, sizeof *positions);
        if (!positions) {
            zs_error ("cannot restore: out of memory");
            zs_chk_clear (&chk);
            return -1;
        }
        for (int i = 0; i < self->n; i++) {
            zsink__source_position__init (&positions[i]);
            positions[i].writer = i;
            positions[i].has_finished = true;
        }
        for (int i = 0; i < chk.parallelism; i++)
            free (chk.positions[i].file);
        free (chk.positions);
        chk.positions = positions;
        int was = chk.parallelism;
        chk.parallelism = self->n;
        zs_info ("Rescaling: checkpoint %lld has parallelism %d, the job has %d; its %zu splits "
                 "are dealt out over the new writers.",
                 (long long) chk.id, was, self->n, chk.n_splits);
    }
    const char *user = chk.state->commit_user;
    int64_t last = -1;
    zs_table_t *table = zs_table_open (self->cfg.table_path, NULL, err, sizeof err);
    if (table) {
        if (zs_table_last_committed (table, user, &last, err, sizeof err) < 0) {
            zs_error ("cannot restore: reading table %s: %s", self->cfg.table_path, err);
            zs_table_destroy (&table);
            zs_chk_clear (&chk);
            return -1;
        }
        zs_table_destroy (&table);
    }
    if (last == ZS_END_INPUT_ID) {
        zs_error ("cannot restore from %s: commit user %s already committed identifier %lld "
                  "(end of input), so the job it belongs to has finished and can commit "
                  "nothing more; start a new job instead",
                  path, user, (long long) ZS_END_INPUT_ID);
        zs_chk_clear (&chk);
        return -1;
    }
    if (last > chk.id) {
        zs_error ("cannot restore from %s: commit user %s already committed identifier %lld, "
                  "newer than this checkpoint (%lld); restoring it would write rows twice",
                  path, user, (long long) last, (long long) chk.id);
        zs_chk_clear (&chk);
        return -1;
    }
    //  A bounded Kafka run's stops are where the partitions end when the
    //  job starts, a restored one too (kafka_coord.c, invariant 3).
    for (size_t i = 0; i < chk.n_splits; i++)
        chk.splits[i]->has_stop = false;
    snprintf (self->meta.commit_user, sizeof self->meta.commit_user, "%s", user);
    self->meta.next_checkpoint_id = chk.id + 1;
    snprintf (chk.job_id, sizeof chk.job_id, "%s", self->meta.job_id);
    //  The restored checkpoint becomes this job's first: a restarted
    //  coordinator then finds it in the job's own directory.
    if (zs_chk_write (self->job_dir, &chk, NULL, err, sizeof err) < 0) {
        zs_error ("cannot restore: %s", err);
        zs_chk_clear (&chk);
        return -1;
    }
    zs_info ("Restoring new job %s from %s (checkpoint %lld, commit user %s).", self->meta.job_id,
             path, (long long) chk.id, user);
    self->latest = chk;
    self->restored = true; //  a restore: trigger-after-restore applies to its first start
    return 0;
}

//  The command line: -D overrides apply after the file whatever their
//  order on the line.
typedef struct {
    zs_config_args_t config;
    const char *job_id;
    const char *restore_from;
    const char *bind;
} s_args_t;

static int
s_on_option (int opt, const char *arg, void *self)
{
    s_args_t *args = self;
    switch (opt) {
    case 'b':
        args->bind = arg;
        break;
    case 'j':
        args->job_id = arg;
        break;
    case 'r':
        args->restore_from = arg;
        break;
    }
    return ZS_CMD_GO_ON;
}

static int
s_parse_args (int argc, char **argv, s_args_t *args)
{
    static const struct option opts[] = {
        {"config", required_argument, 0, 'c'}, {"bind", required_argument, 0, 'b'},
        {"job-id", required_argument, 0, 'j'}, {"restore-from", required_argument, 0, 'r'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int code =
        zs_cmd_getopt_config (argc, argv, "c:D:h", opts, s_usage, &args->config, s_on_option, args);
    if (code == ZS_CMD_GO_ON)
        code = zs_cmd_no_operands (argc, argv, s_usage);
    return code;
}

//  The configuration, and the process-wide fault layers it runs under.
static int
s_load_config (coord_t *self, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    if (zs_config_args_build (&args->config, &self->cfg, err, sizeof err) < 0
        || zs_config_io_setup (&self->cfg, err, sizeof err) != 0) {
        zs_error ("configuration: %s", err);
        return 2;
    }
    //  (run without zsink cluster, the coordinator is the first to know;
    //  deployed, it has no table directory: the committer checks that)
    if (zs_config_check_dirs (&self->cfg, false, true, err, sizeof err) != 0) {
        zs_error ("%s", err);
        return 2;
    }
    if (zs_cmd_faults_init () != ZS_CMD_GO_ON)
        return 2;
    zs_log_set_level ((zs_log_level_t) zs_log_level_parse (self->cfg.log_level));
    self->n = self->cfg.parallelism;
    return ZS_CMD_GO_ON;
}

//  A job id names a directory: nothing else is allowed in.
static int
s_check_job_id (const char *job_id)
{
    if (strlen (job_id) > 63
        || strspn (job_id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
               != strlen (job_id)) {
        zs_error ("--job-id '%s': use at most 63 letters, digits, '-' or '_'", job_id);
        return 2;
    }
    return ZS_CMD_GO_ON;
}

//  mkdir -p a checkpoint directory. ZS_CMD_GO_ON, or the exit code.
static int
s_make_dir (const char *dir)
{
    if (zs_io_mkdirs (dir) == 0)
        return ZS_CMD_GO_ON;
    //  A full disk or an I/O error may pass: ask to be restarted, as a
    //  failed job.json write does. A path that cannot be a directory (no
    //  permission, a file in the way, read-only) will not.
    int e = errno;
    bool may_pass = e == EIO || e == ENOSPC || e == EDQUOT || e == ENOMEM || e == EAGAIN;
    zs_error ("cannot create checkpoint directory %s: %s%s", dir, strerror (e),
              may_pass ? " (stopping to be restarted)" : "");
    return may_pass ? ZS_EXIT_RESTART : 1;
}

//  One running coordinator per state.checkpoints.dir: two jobs of one
//  configuration at once would both write into one table (docs/decisions.md,
//  "One job per checkpoint directory"). The lock is held for the life of
//  the process. ZS_CMD_GO_ON, or the exit code (2 when it is held).
static int
s_lock_checkpoints (coord_t *self, const char *job_id)
{
    int code = s_make_dir (self->cfg.checkpoints_dir);
    if (code != ZS_CMD_GO_ON)
        return code;
    char path[ZS_PATH_MAX + 32], who[128], holder[128], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/.coordinator.lock", self->cfg.checkpoints_dir);
    snprintf (who, sizeof who, "pid %d, job %s\n", (int) getpid (), job_id);
    //  a predecessor told to stop (its supervisor died) may take a moment;
    //  a lease (S3) of one killed with kill -9 lapses after its ttl
    int64_t ttl = zs_io_lease_ttl (self->cfg.heartbeat_timeout_ms);
    int64_t wait = zs_io_is_remote (path) ? ttl + 2000 : 3000;
    int rc =
        zs_io_lock_take (path, who, ttl, wait, &self->lock, holder, sizeof holder, err, sizeof err);
    if (rc == ZS_ECONFLICT) {
        zs_error ("another coordinator (%s) runs with state.checkpoints.dir %s: two jobs of one "
                  "checkpoint directory cannot run at once",
                  holder[0] ? holder : "pid unknown", self->cfg.checkpoints_dir);
        return 2;
    }
    if (rc < 0) {
        zs_error ("%s", err);
        return 1;
    }
    return ZS_CMD_GO_ON;
}

static int
s_make_job_dir (coord_t *self, const char *job_id)
{
    snprintf (self->job_dir, sizeof self->job_dir, "%s/%s", self->cfg.checkpoints_dir, job_id);
    int code = s_make_dir (self->job_dir);
    if (code != ZS_CMD_GO_ON)
        return code;
    //  a coordinator killed while writing job.json or chk-N left a temp file
    zs_chk_clean_temp (self->job_dir);
    return ZS_CMD_GO_ON;
}

//  A job.json of this id: resumed when RUNNING (a coordinator restart),
//  else left alone (1 and 2 at the top of this file).
static int
s_resume_job (coord_t *self, const char *job_id, const char *restore_from)
{
    char err[ZS_ERRLEN];
    if (strcmp (self->meta.status, "RUNNING") != 0) {
        zs_info ("Job %s already ended (%s); nothing to do. Start a new job, or "
                 "--restore-from one of its checkpoints.",
                 job_id, self->meta.status);
        return 0;
    }
    if (restore_from)
        zs_warn ("--restore-from ignored: job %s exists and resumes from its own "
                 "checkpoints",
                 job_id);
    //  Coordinator restart: resume from the latest completed checkpoint
    //  in a new epoch (invariant 2).
    self->meta.epoch++;
    int64_t latest = zs_chk_latest (self->job_dir, err, sizeof err);
    if (latest > 0) {
        char path[2 * ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/chk-%lld", self->job_dir, (long long) latest);
        if (zs_chk_read (path, &self->latest, err, sizeof err) < 0) {
            zs_error ("cannot resume job %s: %s", job_id, err);
            return 1;
        }
        if (self->latest.parallelism != self->n) {
            //  its writers' files are named by index and cleaned by index on
            //  a restore: a job keeps its parallelism (as in Flink)
            zs_error ("cannot resume job %s with parallelism %d: it runs with %d; to rescale, "
                      "stop it with a savepoint and --restore-from that into a new job",
                      job_id, self->n, self->latest.parallelism);
            zs_chk_clear (&self->latest);
            return 2;
        }
    }
    self->restored = true;
    zs_info ("Resuming job %s (commit user %s) in epoch %lld; latest checkpoint %lld.", job_id,
             self->meta.commit_user, (long long) self->meta.epoch, (long long) self->latest.id);
    return ZS_CMD_GO_ON;
}

//  No job.json: a new job with a new commit user, or the one of the
//  checkpoint it is restored from (3 at the top of this file).
static int
s_new_job (coord_t *self, const char *job_id, const char *restore_from)
{
    snprintf (self->meta.job_id, sizeof self->meta.job_id, "%s", job_id);
    zs_uuid (self->meta.commit_user);
    self->meta.epoch = 1;
    self->meta.next_checkpoint_id = 1;
    snprintf (self->meta.status, sizeof self->meta.status, "RUNNING");
    //  a checkpoint that cannot be restored, or a finished run of the same
    //  input in the table: certain, no restart helps (exit 2), and the job
    //  directory made for it goes again
    char err[ZS_ERRLEN];
    int rc = restore_from ? s_restore_from (self, restore_from)
                          : zs_table_check_rerun (&self->cfg, err, sizeof err);
    if (rc != 0) {
        if (!restore_from)
            zs_error ("%s", err);
        rmdir (self->job_dir);
        return 2;
    }
    zs_info ("Submitting job %s (commit user %s).", job_id, self->meta.commit_user);
    return ZS_CMD_GO_ON;
}

static int
s_open_job (coord_t *self, const char *job_id, const char *restore_from)
{
    char err[ZS_ERRLEN];
    int rc = zs_job_meta_read (self->job_dir, &self->meta, err, sizeof err);
    if (rc == 0)
        return s_resume_job (self, job_id, restore_from);
    if (rc == ZS_ENOENT)
        return s_new_job (self, job_id, restore_from);
    zs_error ("cannot resume job %s: %s", job_id, err);
    return 1;
}

//  How every message of ours is stamped (the epoch changes on failover).
static void
s_stamp (coord_t *self)
{
    snprintf (self->from.job_id, sizeof self->from.job_id, "%s", self->meta.job_id);
    self->from.epoch = self->meta.epoch;
    self->from.role = ZSINK__ROLE__ROLE_COORDINATOR;
    self->from.index = -1;
}

static void
s_announce (coord_t *self, const char *job_id)
{
    if (self->cfg.checkpoint_interval_ms == 0 && self->cfg.datagen_number_of_rows < 0
        && strcmp (self->cfg.source_kind, "datagen") == 0) {
        zs_warn ("******************************************************************");
        zs_warn ("Checkpointing is disabled and the source is unbounded: NOTHING WILL");
        zs_warn ("EVER BE COMMITTED to %s. Set execution.checkpointing.interval.",
                 self->cfg.table_path);
        zs_warn ("******************************************************************");
    }
    zs_info ("Job %s: parallelism %d, checkpointing %s%lld ms, table %s, checkpoints %s.", job_id,
             self->n, self->cfg.checkpoint_interval_ms ? "every " : "off (",
             (long long) self->cfg.checkpoint_interval_ms, self->cfg.table_path, self->job_dir);
}

int
zs_coord_setup (coord_t *self, int argc, char **argv, const char **bind_p)
{
    s_args_t args = {.job_id = getenv ("ZSINK_JOB_ID"), .bind = getenv ("ZSINK_COORDINATOR_BIND")};
    int code = s_parse_args (argc, argv, &args);
    *bind_p = args.bind;
    if (code == ZS_CMD_GO_ON)
        code = s_load_config (self, &args);
    if (code != ZS_CMD_GO_ON)
        return code;
    //  The job: resumed from its directory, or new.
    char new_id[40];
    const char *job_id = args.job_id;
    if (!job_id || !*job_id) {
        zs_new_job_id (new_id);
        job_id = new_id;
    }
    code = s_check_job_id (job_id);
    if (code == ZS_CMD_GO_ON)
        code = s_lock_checkpoints (self, job_id);
    if (code == ZS_CMD_GO_ON)
        code = s_make_job_dir (self, job_id);
    if (code == ZS_CMD_GO_ON)
        code = s_open_job (self, job_id, args.restore_from);
    if (code != ZS_CMD_GO_ON)
        return code;
    if (s_check_schema (self) != 0)
        return 2;
    //  A new job starts at 1 (or past its restored checkpoint); a resumed
    //  one past every id its predecessor reserved (invariant 1).
    self->next_id = self->meta.next_checkpoint_id;
    zs_coord_persist_meta (self);
    self->history = zs_history_new (self->job_dir, self->cfg.checkpoints_history, self->latest.id);
    if (!self->history) {
        zs_error ("out of memory");
        return 1;
    }
    s_stamp (self);
    zs_events_open (self->job_dir, "coordinator");
    zs_event ("start", "\"job\":\"%s\",\"epoch\":%lld", job_id, (long long) self->meta.epoch);
    s_announce (self, job_id);
    return ZS_CMD_GO_ON;
}

void
zs_coord_persist_meta (coord_t *self)
{
    char err[ZS_ERRLEN];
    errno = 0;
    zs_fs_clear_failure ();
    if (zs_job_meta_write (self->job_dir, &self->meta, err, sizeof err) < 0) {
        //  Without a durable counter and epoch, invariants 1 and 2 cannot
        //  be kept: stop rather than risk reusing an id. A full disk or an
        //  I/O error may pass, so this is not the job's end: the exit
        //  status asks to be restarted (after the restart delay), and the
        //  restarted coordinator resumes from job.json and chk-N.
        if (zs_fs_failed_for_good ()) {
            //  No permission, a read-only disk: no restart changes that.
            //  A job ending anyway ends (its Shutdown still goes out).
            zs_error ("state.checkpoints.dir: cannot persist job state: %s (no restart can "
                      "change that)",
                      err);
            if (self->state >= J_FINISHED)
                return;
            exit (2);
        }
        zs_error ("cannot persist job state, stopping to be restarted: %s", err);
        exit (ZS_EXIT_RESTART);
    }
}
