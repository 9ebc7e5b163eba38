/*  test_diskfault.c - disk faults at every operation of a commit and of a
    checkpoint (fs.h, "Disk faults"; docs/reliability.md).

    Each trial copies a prepared table (two snapshots committed) and job
    directory, then forks a child that runs the operation under a fault:
      crash:K    the child dies just before its K-th disk operation; then
                 everything it had not fsynced is dropped (fsloss.c), as a
                 power cut would;
      ack+crash  the operation completes, the child reports "done" (what a
                 peer would now rely on: a committer forgets committables
                 it committed, a coordinator tells the committer a
                 checkpoint is complete) and dies; unsynced data dropped;
      enospc:K / eio:K   the K-th operation fails; the error must name a
                 path and the cause, and a retry once the disk is healthy
                 must succeed.
    K runs over every operation the step performs (counted by a clean run).
    Afterwards the oracle: every acknowledged step survived, nothing
    committed before was damaged (verify clean, old snapshots intact), and
    the recovery a restarted process performs (re-commit, restore from the
    latest checkpoint) ends with every row exactly once and no orphan.

    The negative control runs the same trials with fsync switched off
    (ZSINK_TEST_SKIP_FSYNC's switch) and must see acknowledged work lost.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "checkpoint.h"
#include "datafiles.h"
#include "fs.h"
#include "io.h"
#include "fsloss.h"
#include "parquet.h"
#include "table.h"
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define USER "user-disk"
#define ROWS 500 //  rows per data file

//  zs_table_commit with the request spelt out positionally, as the tests
//  were written (snap_id and total may be NULL).
static int
s_commit_req (zs_table_t *t, const char *user, int64_t identifier, const zs_file_meta_t *files,
              size_t n, bool ignore_empty, int max_retries, int64_t *snap_id, int64_t *total,
              char *err, size_t errlen)
{
    zs_commit_t req = {.user = user,
                       .identifier = identifier,
                       .files = files,
                       .n = n,
                       .ignore_empty = ignore_empty,
                       .max_retries = max_retries};
    zs_committed_t out = {0};
    int rc = zs_table_commit (t, &req, &out, err, errlen);
    if (rc == 0 && snap_id)
        *snap_id = out.snapshot_id;
    if (rc == 0 && total)
        *total = out.total_rows;
    return rc;
}

static char s_root[64]; //  scratch: base/ (prepared), work/ (one trial)
static char s_base[128], s_work[128], s_journal[160];
static zs_file_meta_t s_old[2]; //  committed as snapshots 1 and 2
static zs_file_meta_t s_new;    //  the file of the commit under test

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static void
s_rm_tree (const char *path)
{
    nftw (path, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
s_copy_base (void)
{
    s_rm_tree (s_work);
    char cmd[512];
    snprintf (cmd, sizeof cmd, "cp -a %s %s", s_base, s_work);
    assert_int_equal (system (cmd), 0);
    snprintf (s_journal, sizeof s_journal, "%s/journal", s_root);
    unlink (s_journal);
}

static zs_table_t *
s_open (const char *root)
{
    char path[256], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/table", root);
    zs_table_t *t = zs_table_open (path, NULL, err, sizeof err);
    if (!t)
        fail_msg ("open %s: %s", path, err);
    return t;
}

static int
s_setup (void **state)
{
    snprintf (s_root, sizeof s_root, "/tmp/zsink-test-disk-XXXXXX");
    if (!mkdtemp (s_root))
        return -1;
    snprintf (s_base, sizeof s_base, "%s/base", s_root);
    snprintf (s_work, sizeof s_work, "%s/work", s_root);
    char path[256], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/table", s_base);
    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_table_t *t = zs_table_open (path, &schema, err, sizeof err);
    if (!t)
        return -1;
    snprintf (path, sizeof path, "%s/table/bucket-0", s_base);
    zs_io_mkdirs (path);
    snprintf (path, sizeof path, "%s/table", s_base);
    s_old[0] = test_write_datafile (path, "bucket-0/data-a.parquet", 1, ROWS);
    s_old[1] = test_write_datafile (path, "bucket-0/data-b.parquet", ROWS + 1, ROWS);
    s_new = test_write_datafile (path, "bucket-0/data-c.parquet", 2 * ROWS + 1, ROWS);
    for (int i = 0; i < 2; i++)
        if (s_commit_req (t, USER, i + 1, &s_old[i], 1, false, 3, NULL, NULL, err, sizeof err))
            return -1;
    zs_table_destroy (&t);
    snprintf (path, sizeof path, "%s/job", s_base);
    return zs_io_mkdirs (path);
}

static int
s_teardown (void **state)
{
    s_rm_tree (s_root);
    return 0;
}

//  What the child reports through the pipe.
typedef struct {
    int acks;     //  steps acknowledged (the commit: 1; a checkpoint: 1..3)
    int failed;   //  an operation returned an error
    int64_t ops;  //  disk operations performed
    int64_t size; //  the checkpoint's data file as its writer closed it
    char err[ZS_ERRLEN];
} s_report_t;

typedef int (s_step_fn) (s_report_t *report);

//  Run step in a child under fault (NULL = none), journaled; crash_after_ack
//  ends the child right after its last acknowledgement. Then drop what was
//  not fsynced when the child died of a crash.
static s_report_t
s_trial (s_step_fn *step, const char *fault, bool skip_fsync, bool crash_after_ack)
{
    s_copy_base ();
    int fds[2];
    assert_int_equal (pipe (fds), 0);
    pid_t pid = fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        close (fds[0]);
        s_report_t r = {0};
        char err[ZS_ERRLEN];
        if (zs_fs_faults_set (fault, s_journal, skip_fsync, err, sizeof err) != 0)
            _exit (3);
        //  Every acknowledgement goes out at once: a crash right after it
        //  must not take it along.
        r.failed = step (&r) != 0;
        r.ops = zs_fs_ops ();
        if (write (fds[1], &r, sizeof r) != sizeof r)
            _exit (4);
        _exit (crash_after_ack ? 137 : 0);
    }
    close (fds[1]);
    s_report_t r = {0};
    ssize_t got = read (fds[0], &r, sizeof r);
    close (fds[0]);
    int status;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    assert_true (WIFEXITED (status));
    assert_true (WEXITSTATUS (status) == 0 || WEXITSTATUS (status) == 137);
    if (got != sizeof r) //  crashed before reporting: nothing acknowledged
        memset (&r, 0, sizeof r);
    if (WEXITSTATUS (status) == 137) {
        zs_fs_loss_t loss;
        char err[ZS_ERRLEN];
        if (zs_fs_lose_unsynced (s_journal, &loss, err, sizeof err) != 0)
            fail_msg ("lose unsynced: %s", err);
    } else
        zs_fs_faults_set (NULL, NULL, false, NULL, 0), unlink (s_journal);
    return r;
}

//  ---------------------------------------------------------------------------
//  The commit: snapshot 3 = identifier 3 of USER, adding data-c.

//  One commit, as a test makes it, or with prepared as the committer makes
//  it: its base list written ahead (zs_table_prepare_base, after the
//  previous commit), its manifest and delta list (zs_table_prepare, after
//  the ack), then the commit takes them.
static int
s_commit_step (s_report_t *r, bool prepared)
{
    char path[256];
    snprintf (path, sizeof path, "%s/table", s_work);
    zs_table_t *t = zs_table_open (path, NULL, r->err, sizeof r->err);
    if (!t)
        return -1;
    zs_commit_t req = {.user = USER, .identifier = 3, .files = &s_new, .n = 1};
    //  a failed prepare is no failed commit: the commit writes its own
    if (prepared) {
        zs_table_prepare_base (t, USER, r->err, sizeof r->err);
        zs_table_prepare (t, &req, r->err, sizeof r->err);
    }
    int rc = s_commit_req (t, USER, 3, &s_new, 1, false, 3, NULL, NULL, r->err, sizeof r->err);
    zs_table_destroy (&t);
    if (rc == 0)
        r->acks = 1;
    return rc;
}

static int
s_step_commit (s_report_t *r)
{
    return s_commit_step (r, false);
}

static int
s_step_prepared_commit (s_report_t *r)
{
    return s_commit_step (r, true);
}

//  How many times path is a live file of the latest snapshot (-1: error).
static int
s_live_count (zs_table_t *t, const char *path, int64_t *rows_p)
{
    zs_file_meta_t *files;
    size_t n;
    char err[ZS_ERRLEN];
    if (zs_table_live_files (t, 0, &files, &n, err, sizeof err) != 0)
        return -1;
    int count = 0;
    *rows_p = 0;
    for (size_t i = 0; i < n; i++) {
        count += strcmp (files[i].path, path) == 0;
        *rows_p += files[i].rows;
    }
    free (files);
    return count;
}

//  The oracle after a commit trial; returns the number of violations
//  (each printed). Recovery is what a restarted committer does: clean its
//  uncommitted manifests, re-commit the restored identifier.
static int
s_check_commit (const s_report_t *r, const char *what)
{
    int bad = 0;
    char err[ZS_ERRLEN];
    char *report = NULL;
    zs_table_t *t = s_open (s_work);
    //  Before recovery the new data file may be in no snapshot yet (the
    //  checkpoint in flight): verify's only allowed complaint.
    char allowed[300];
    snprintf (allowed, sizeof allowed, "%s: orphan data file", s_new.path);
    if (zs_table_verify (t, 0, &report, err, sizeof err) != 0) {
        for (char *line = report; line && *line;) {
            char *end = strchr (line, '\n');
            if (strncmp (line, allowed, strlen (allowed)) != 0) {
                print_message ("%s: verify after the fault: %.*s\n", what,
                               (int) (end ? end - line : (long) strlen (line)), line);
                bad++;
            }
            line = end ? end + 1 : NULL;
        }
    }
    free (report);
    zs_snapshot_t snap;
    for (int64_t id = 1; id <= 2; id++)
        if (zs_table_read_snapshot (t, id, &snap, err, sizeof err) != 0) {
            print_message ("%s: committed snapshot %lld damaged: %s\n", what, (long long) id, err);
            bad++;
        }
    int64_t last = 0;
    zs_table_last_committed (t, USER, &last, err, sizeof err);
    if (r->acks == 1 && last != 3) {
        print_message ("%s: commit acknowledged but lost (last identifier %lld)\n", what,
                       (long long) last);
        bad++;
    }
    if (r->failed && !strstr (r->err, "/")) {
        print_message ("%s: error names no file: %s\n", what, r->err);
        bad++;
    }
    //  Recovery.
    zs_table_clean_uncommitted_manifests (t, USER, err, sizeof err);
    int rc = s_commit_req (t, USER, 3, &s_new, 1, false, 3, NULL, NULL, err, sizeof err);
    if (rc != 0 && rc != ZS_EFILTERED) {
        print_message ("%s: re-commit failed: %s\n", what, err);
        bad++;
    }
    int64_t rows = 0;
    if (s_live_count (t, s_new.path, &rows) != 1 || rows != 3 * ROWS) {
        print_message ("%s: after recovery %lld rows, new file listed %d times\n", what,
                       (long long) rows, s_live_count (t, s_new.path, &rows));
        bad++;
    }
    report = NULL;
    if (zs_table_verify (t, 0, &report, err, sizeof err) != 0) {
        print_message ("%s: verify after recovery: %s\n", what, err);
        bad++;
    }
    free (report);
    char **orphans = NULL;
    size_t n_orphans = 0;
    if (zs_table_orphans (t, 0, &orphans, &n_orphans, err, sizeof err) == 0 && n_orphans) {
        print_message ("%s: %zu orphan(s), first %s\n", what, n_orphans, orphans[0]);
        bad++;
    }
    for (size_t i = 0; i < n_orphans; i++)
        free (orphans[i]);
    free (orphans);
    zs_table_destroy (&t);
    return bad;
}

//  ---------------------------------------------------------------------------
//  A checkpoint, its disk work in the order of the roles: the coordinator
//  advances job.json before the barrier (ack 1: barrier sent), the writer
//  flushes its data file at the barrier (ack 2: the writer acknowledged),
//  the coordinator writes chk-3 (ack 3: complete, the committer notified)
//  and prunes the oldest checkpoint.

static int
s_step_checkpoint (s_report_t *r)
{
    char job[256], table[256];
    snprintf (job, sizeof job, "%s/job", s_work);
    snprintf (table, sizeof table, "%s/table", s_work);
    zs_job_meta_t meta = {.epoch = 1, .next_checkpoint_id = 4};
    snprintf (meta.job_id, sizeof meta.job_id, "job-disk");
    snprintf (meta.commit_user, sizeof meta.commit_user, USER);
    snprintf (meta.status, sizeof meta.status, "RUNNING");
    if (zs_job_meta_write (job, &meta, r->err, sizeof r->err) != 0)
        return -1;
    r->acks = 1;

    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w = zs_datafile_writer_new (table, "bucket-0/data-d.parquet", &schema,
                                                      &opts, r->err, sizeof r->err);
    if (!w)
        return -1;
    static zs_datagen_buf_t buf;
    zs_value_t row[ZS_MAX_COLUMNS];
    for (int64_t i = 0; i < ROWS; i++) {
        zs_datagen_row (&schema, 3 * ROWS + 1 + i, row, &buf);
        if (zs_datafile_writer_append (w, row, r->err, sizeof r->err) != 0) {
            zs_datafile_writer_abort (&w);
            return -1;
        }
    }
    zs_file_meta_t file;
    if (zs_datafile_writer_close (&w, &file, r->err, sizeof r->err) != 0)
        return -1;
    r->size = file.size;
    r->acks = 2;

    Zsink__FileMeta f;
    zsink__file_meta__init (&f);
    f.path = file.path;
    f.rows = file.rows;
    f.size = file.size;
    f.min_id = file.min_id;
    f.max_id = file.max_id;
    Zsink__Committable *cp = NULL;
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = 3;
    c.n_files = 1;
    Zsink__FileMeta *fp = &f;
    c.files = &fp;
    cp = &c;
    Zsink__ManifestCommittable m;
    zsink__manifest_committable__init (&m);
    m.identifier = 3;
    m.n_committables = 1;
    m.committables = &cp;
    Zsink__ManifestCommittable *mp = &m;
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = USER;
    st.n_pending = 1;
    st.pending = &mp;
    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    pos.offset = 4 * ROWS;
    zs_chk_t chk = {.id = 3, .time_millis = 1, .parallelism = 1, .positions = &pos, .state = &st};
    snprintf (chk.job_id, sizeof chk.job_id, "job-disk");
    if (zs_chk_write (job, &chk, NULL, r->err, sizeof r->err) != 0)
        return -1;
    r->acks = 3;
    zs_chk_prune (job, 2);
    return 0;
}

//  Checkpoints 1 and 2 exist before every checkpoint trial.
static void
s_base_checkpoints (void)
{
    char job[256], err[ZS_ERRLEN];
    snprintf (job, sizeof job, "%s/job", s_base);
    zs_job_meta_t meta = {.epoch = 1, .next_checkpoint_id = 3};
    snprintf (meta.job_id, sizeof meta.job_id, "job-disk");
    snprintf (meta.commit_user, sizeof meta.commit_user, USER);
    snprintf (meta.status, sizeof meta.status, "RUNNING");
    assert_int_equal (zs_job_meta_write (job, &meta, err, sizeof err), 0);
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = USER;
    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    for (int64_t id = 1; id <= 2; id++) {
        pos.offset = id * ROWS;
        zs_chk_t chk = {
            .id = id, .time_millis = 1, .parallelism = 1, .positions = &pos, .state = &st};
        snprintf (chk.job_id, sizeof chk.job_id, "job-disk");
        assert_int_equal (zs_chk_write (job, &chk, NULL, err, sizeof err), 0);
    }
}

//  Is the data file at rel complete: its recorded size, every row readable?
static bool
s_file_intact (const char *rel, int64_t size, int64_t rows)
{
    char path[512], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/table/%s", s_work, rel);
    if (zs_io_file_size (path) != size)
        return false;
    zs_parquet_reader_t *rd = zs_parquet_reader_open (path, err, sizeof err);
    if (!rd)
        return false;
    zs_value_t row[ZS_MAX_COLUMNS];
    int64_t n = 0;
    int rc;
    while ((rc = zs_parquet_reader_next (rd, row, err, sizeof err)) == 1)
        n++;
    zs_parquet_reader_destroy (&rd);
    return rc == 0 && n == rows;
}

static int
s_check_checkpoint (const s_report_t *r, const char *what)
{
    int bad = 0;
    char job[256], err[ZS_ERRLEN];
    snprintf (job, sizeof job, "%s/job", s_work);
    zs_job_meta_t meta;
    if (zs_job_meta_read (job, &meta, err, sizeof err) != 0) {
        print_message ("%s: job.json unreadable: %s\n", what, err);
        bad++;
    } else if (r->acks >= 1 && meta.next_checkpoint_id < 4) {
        print_message ("%s: barrier 3 sent but job.json would reuse id %lld\n", what,
                       (long long) meta.next_checkpoint_id);
        bad++;
    }
    if (r->acks >= 2 && !s_file_intact ("bucket-0/data-d.parquet", r->size, ROWS)) {
        print_message ("%s: writer acknowledged but its data file is lost or torn\n", what);
        bad++;
    }
    int64_t latest = zs_chk_latest (job, err, sizeof err);
    if (latest < 2 || (r->acks >= 3 && latest != 3)) {
        print_message ("%s: latest checkpoint %lld after %d acknowledgements\n", what,
                       (long long) latest, r->acks);
        bad++;
    }
    //  Restore: the latest checkpoint decodes, and what it holds exists.
    char path[300];
    snprintf (path, sizeof path, "%s/chk-%lld", job, (long long) latest);
    zs_chk_t chk;
    if (latest > 0 && zs_chk_read (path, &chk, err, sizeof err) != 0) {
        print_message ("%s: restore from chk-%lld: %s\n", what, (long long) latest, err);
        bad++;
    } else if (latest > 0) {
        for (size_t i = 0; i < chk.state->n_pending; i++) {
            Zsink__FileMeta *f = chk.state->pending[i]->committables[0]->files[0];
            if (!s_file_intact (f->path, f->size, f->rows)) {
                print_message ("%s: chk-%lld holds %s, which is lost or torn\n", what,
                               (long long) latest, f->path);
                bad++;
            }
        }
        zs_chk_clear (&chk);
    }
    return bad;
}

//  ---------------------------------------------------------------------------

//  Every fault at every operation of step; violations in total.
static int
s_all_faults (s_step_fn *step, int (*check) (const s_report_t *, const char *), bool skip_fsync,
              int64_t *ops_p)
{
    s_report_t clean = s_trial (step, NULL, false, false);
    assert_false (clean.failed);
    int64_t n = clean.ops;
    assert_true (n > 5);
    int bad = 0;
    char fault[64], what[96];
    static const char *kinds[] = {"crash", "enospc", "eio"};
    for (int kind = 0; kind < 3; kind++)
        for (int64_t k = 1; k <= n; k++) {
            if (skip_fsync && kind > 0)
                continue; //  the control is about lost data, not errors
            snprintf (fault, sizeof fault, "%s:%lld", kinds[kind], (long long) k);
            s_report_t r = s_trial (step, fault, skip_fsync, false);
            snprintf (what, sizeof what, "%s (of %lld)", fault, (long long) n);
            //  A failed clean-up unlink may rightly be ignored, so a fault
            //  need not fail the step; if it does, the error must say why.
            if (kind > 0 && r.failed && !strstr (r.err, kind == 1 ? "No space" : "Input/output")) {
                print_message ("%s: error does not say why: %s\n", what, r.err);
                bad++;
            }
            bad += check (&r, what);
        }
    //  And the power cut right after the last acknowledgement.
    s_report_t r = s_trial (step, NULL, skip_fsync, true);
    bad += check (&r, "crash after the acknowledgement");
    if (ops_p)
        *ops_p = n;
    return bad;
}

static void
test_commit_every_operation (void **state)
{
    int64_t n;
    int bad = s_all_faults (s_step_commit, s_check_commit, false, &n);
    print_message ("commit: %lld disk operations, %lld trials, %d violations\n", (long long) n,
                   (long long) (3 * n + 1), bad);
    assert_int_equal (bad, 0);
}

static void
test_prepared_commit_every_operation (void **state)
{
    int64_t n;
    int bad = s_all_faults (s_step_prepared_commit, s_check_commit, false, &n);
    print_message ("prepared commit: %lld disk operations, %lld trials, %d violations\n",
                   (long long) n, (long long) (3 * n + 1), bad);
    assert_int_equal (bad, 0);
}

static void
test_checkpoint_every_operation (void **state)
{
    s_base_checkpoints ();
    int64_t n;
    int bad = s_all_faults (s_step_checkpoint, s_check_checkpoint, false, &n);
    print_message ("checkpoint: %lld disk operations, %lld trials, %d violations\n", (long long) n,
                   (long long) (3 * n + 1), bad);
    assert_int_equal (bad, 0);
}

//  The negative control: without fsync, a power cut loses work that was
//  acknowledged, and the same oracle must say so.
static void
test_negative_control_skip_fsync (void **state)
{
    int bad = s_all_faults (s_step_commit, s_check_commit, true, NULL);
    print_message ("negative control, commit: %d violations found\n", bad);
    assert_true (bad > 0);
    s_base_checkpoints ();
    bad = s_all_faults (s_step_checkpoint, s_check_checkpoint, true, NULL);
    print_message ("negative control, checkpoint: %d violations found\n", bad);
    assert_true (bad > 0);
}

//  The replay itself: unsynced bytes go, unsynced names go, a replaced
//  file comes back, synced work stays.
static void
test_lose_unsynced (void **state)
{
    s_copy_base ();
    char err[ZS_ERRLEN], a[256], b[256], c[256];
    snprintf (a, sizeof a, "%s/a", s_work);
    snprintf (b, sizeof b, "%s/b", s_work);
    snprintf (c, sizeof c, "%s/c", s_work);
    assert_int_equal (zs_io_write_atomic (a, "old", 3, err, sizeof err), 0);
    assert_int_equal (zs_fs_faults_set (NULL, s_journal, false, err, sizeof err), 0);
    //  durable: b, whole
    assert_int_equal (zs_io_create_exclusive (b, "bbbb", 4, err, sizeof err), 0);
    //  a replaced by a rename, but the directory is not fsynced after it:
    //  use a stream file for c (fsync of the file, then its directory), then
    //  a raw rename over a that nobody fsyncs.
    zs_io_file_t *f = zs_io_file_create (c, err, sizeof err);
    assert_non_null (f);
    assert_int_equal (zs_io_file_write (f, "cc", 2, err, sizeof err), 0);
    assert_int_equal (zs_io_file_close (&f, err, sizeof err), 0);
    //  unsynced tail on a durable file: append to c outside the layer
    //  cannot be journaled, so write a new streamed file and kill its sync
    char d[256];
    snprintf (d, sizeof d, "%s/d", s_work);
    f = zs_io_file_create (d, err, sizeof err);
    assert_int_equal (zs_io_file_write (f, "dddd", 4, err, sizeof err), 0);
    zs_io_file_abort (&f);                  //  created and removed, nothing synced
    assert_int_equal (zs_io_unlink (b), 0); //  unlink not followed by a dir fsync
    zs_fs_loss_t loss;
    zs_fs_faults_set (NULL, NULL, false, NULL, 0);
    assert_int_equal (zs_fs_lose_unsynced (s_journal, &loss, err, sizeof err), 0);
    char *text = zs_io_read_file (b, 64, NULL, err, sizeof err);
    assert_non_null (text); //  the unlink was undone
    assert_string_equal (text, "bbbb");
    free (text);
    text = zs_io_read_file (c, 64, NULL, err, sizeof err);
    assert_non_null (text);
    assert_string_equal (text, "cc");
    free (text);
    assert_int_equal (zs_io_file_size (d), -1); //  its name was never durable
    assert_int_equal (loss.unlinks, 2);         //  b's and d's (d's then uncreated)
    assert_int_equal (loss.creates, 1);

    //  A rename never followed by a directory fsync is undone and the
    //  replaced file returns: crash inside zs_io_write_atomic just before
    //  its fsync of the directory (the operation after the rename).
    int64_t before = zs_fs_ops ();
    (void) before;
    pid_t pid = fork ();
    if (pid == 0) {
        //  create, write, fsync, rename, fsync dir: crash at the 5th
        zs_fs_faults_set ("crash:5", s_journal, false, err, sizeof err);
        zs_io_write_atomic (a, "new!", 4, err, sizeof err);
        _exit (0);
    }
    int status;
    waitpid (pid, &status, 0);
    assert_int_equal (WEXITSTATUS (status), 137);
    text = zs_io_read_file (a, 64, NULL, err, sizeof err);
    assert_string_equal (text, "new!"); //  the page cache still has it
    free (text);
    assert_int_equal (zs_fs_lose_unsynced (s_journal, &loss, err, sizeof err), 0);
    assert_int_equal (loss.renames, 1);
    text = zs_io_read_file (a, 64, NULL, err, sizeof err);
    assert_string_equal (text, "old");
    free (text);

    //  Bytes written after the last fsync are cut off.
    pid = fork ();
    if (pid == 0) {
        zs_fs_faults_set (NULL, s_journal, false, err, sizeof err);
        zs_io_file_t *g = zs_io_file_create (d, err, sizeof err);
        zs_io_file_write (g, "1234", 4, err, sizeof err);
        zs_io_file_close (&g, err, sizeof err); //  durable: 4 bytes, the name
        //  a second stream of the same file is not possible (O_EXCL), so
        //  raw: reopen and append without fsync, as a torn write would
        FILE *raw = fopen (d, "a");
        fputs ("5678", raw);
        fclose (raw);
        _exit (137);
    }
    waitpid (pid, &status, 0);
    assert_int_equal (zs_io_file_size (d), 8);
    assert_int_equal (zs_fs_lose_unsynced (s_journal, &loss, err, sizeof err), 0);
    assert_int_equal (zs_io_file_size (d), 4);
    assert_int_equal (loss.truncated, 1);
    assert_int_equal (loss.bytes_dropped, 4);
}

static void
test_bad_fault_spec (void **state)
{
    char err[ZS_ERRLEN];
    static const char *bad[] = {"enospc", "enospc:0", "full:3", "eio:3x", "crash:-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (zs_fs_faults_set (bad[i], NULL, false, err, sizeof err) == 0)
            fail_msg ("'%s' accepted", bad[i]);
        assert_non_null (strstr (err, "ZSINK_FS_FAULT"));
    }
    //  "+": the disk stays full from the 3rd operation on (an atomic write
    //  is create, write, fsync, rename, fsync dir), until space returns.
    assert_int_equal (zs_fs_faults_set ("enospc:3+", NULL, false, err, sizeof err), 0);
    char p[256];
    snprintf (p, sizeof p, "%s/sticky", s_root);
    assert_int_equal (zs_io_write_atomic (p, "x", 1, err, sizeof err), -1);
    assert_non_null (strstr (err, "No space left on device"));
    assert_int_equal (zs_io_write_atomic (p, "x", 1, err, sizeof err), -1);
    zs_fs_faults_set (NULL, NULL, false, NULL, 0);
    assert_int_equal (zs_io_write_atomic (p, "x", 1, err, sizeof err), 0);
    //  the failed attempts left no temp file behind
    char cmd[512];
    snprintf (cmd, sizeof cmd, "test $(ls %s | grep -c sticky) = 1", s_root);
    assert_int_equal (system (cmd), 0);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_lose_unsynced, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_commit_every_operation, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_prepared_commit_every_operation, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_checkpoint_every_operation, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_negative_control_skip_fsync, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_bad_fault_spec, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
