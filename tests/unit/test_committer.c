/*  test_committer.c - the committer's commit step against a real table
    (ascending, one snapshot per checkpoint, filterCommitted on re-commit,
    end input held back, missing files) and the one-committer-per-job lock.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "commit.h"
#include "compactor.h"
#include "datafile.h"
#include "datafiles.h"
#include "lock.h"
#include "log.h"
#include "pending.h"
#include "table.h"
#include "table_job.h"
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char s_dir[] = "/tmp/zsink-test-committer-XXXXXX";
static int s_table_n;

static int
s_group_setup (void **state)
{
    zs_log_set_level (ZS_LOG_WARN);
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_group_teardown (void **state)
{
    char cmd[128];
    snprintf (cmd, sizeof cmd, "rm -rf '%s'", s_dir);
    return system (cmd) == 0 ? 0 : -1;
}

static zs_schema_t s_schema; //  the default one, set in main

//  A fresh table under the scratch directory.
static zs_table_t *
s_new_table (char *path)
{
    snprintf (path, ZS_PATH_MAX, "%s/t%d", s_dir, ++s_table_n);
    char err[ZS_ERRLEN];
    zs_table_t *t = zs_table_open (path, &s_schema, err, sizeof err);
    if (!t)
        fail_msg ("open: %s", err);
    return t;
}

//  Write a data file of rows ids [first, first+rows) and add it to pending
//  as writer 0's committable for id.
static void
s_add_file (zs_pending_t *p, const char *table, int64_t id, int64_t first, int rows)
{
    static int n;
    char rel[128];
    snprintf (rel, sizeof rel, "bucket-0/data-test-w0-%d.parquet", ++n);
    zs_file_meta_t meta = test_write_datafile (table, rel, first, rows);

    Zsink__FileMeta fm;
    zsink__file_meta__init (&fm);
    fm.path = meta.path;
    fm.rows = meta.rows;
    fm.size = meta.size;
    Zsink__FileMeta *fms[] = {&fm};
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = id;
    c.writer = 0;
    c.n_files = 1;
    c.files = fms;
    assert_int_equal (zs_pending_add (p, &c, 0), 0);
}

typedef struct {
    int64_t ids[16];
    int64_t snaps[16];
    int64_t rows[16];
    int n;
} s_log_t;

static void
s_on_commit (int64_t identifier, int64_t snapshot_id, int64_t total_rows, void *arg)
{
    s_log_t *log = arg;
    assert_true (log->n < 16);
    log->ids[log->n] = identifier;
    log->snaps[log->n] = snapshot_id;
    log->rows[log->n] = total_rows;
    log->n++;
}

static void
test_commit_upto_ascending (void **state)
{
    char path[ZS_PATH_MAX], err[ZS_ERRLEN];
    zs_table_t *t = s_new_table (path);
    zs_pending_t *p = zs_pending_new ();
    s_add_file (p, path, 3, 21, 5);
    s_add_file (p, path, 1, 1, 10);
    s_add_file (p, path, 2, 11, 10);
    s_add_file (p, path, ZS_END_INPUT_ID, 26, 1);
    s_log_t log = {0};
    zs_commit_opts_t opts = {.max_retries = 3, .on_commit = s_on_commit, .arg = &log};

    //  Notify(2): 1 then 2, one snapshot each; 3 and end input stay.
    assert_int_equal (zs_commit_upto (t, p, "user-1", 2, false, &opts, err, sizeof err), 2);
    assert_int_equal (log.n, 2);
    assert_true (log.ids[0] == 1 && log.snaps[0] == 1 && log.rows[0] == 10);
    assert_true (log.ids[1] == 2 && log.snaps[1] == 2 && log.rows[1] == 20);
    assert_int_equal (zs_pending_size (p), 2);
    zs_snapshot_t snap;
    assert_int_equal (zs_table_read_snapshot (t, 2, &snap, err, sizeof err), 0);
    assert_true (snap.commit_identifier == 2);
    assert_string_equal (snap.commit_user, "user-1");

    //  A lost notification made good: nothing below the lowest pending.
    assert_int_equal (zs_commit_upto (t, p, "user-1", 2, false, &opts, err, sizeof err), 0);
    //  Every id, but end input held back while not every writer ended.
    assert_int_equal (zs_commit_upto (t, p, "user-1", INT64_MAX, false, &opts, err, sizeof err), 1);
    assert_true (log.ids[2] == 3);
    assert_true (zs_pending_has (p, ZS_END_INPUT_ID));
    assert_int_equal (zs_commit_upto (t, p, "user-1", 3, true, &opts, err, sizeof err), 1);
    assert_true (log.ids[3] == ZS_END_INPUT_ID && log.rows[3] == 26);
    assert_int_equal (zs_pending_size (p), 0);
    int64_t last = 0;
    assert_int_equal (zs_table_last_committed (t, "user-1", &last, err, sizeof err), 0);
    assert_true (last == ZS_END_INPUT_ID);
    zs_pending_destroy (&p);
    zs_table_destroy (&t);
}

//  Wait (10 s at most) for the compactor to say its rewrite is done.
static void
s_wait_compacted (zs_compactor_t *c)
{
    struct pollfd pfd = {.fd = zs_compactor_fd (c), .events = POLLIN};
    assert_int_equal (poll (&pfd, 1, 10000), 1);
}

//  Compaction off the commit path: started by a commit, its COMPACT
//  snapshot made by _finish after the APPEND commits of the meantime;
//  cancelled by the end-input commit with nothing left behind.
static void
test_compactor (void **state)
{
    char path[ZS_PATH_MAX], err[ZS_ERRLEN];
    zs_table_t *t = s_new_table (path);
    zs_pending_t *p = zs_pending_new ();
    zs_compactor_t *c = zs_compactor_new ();
    assert_non_null (c);
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_compact_t req;
    zs_table_compact_options (&cfg, "user-c", &req);
    req.min_file_num = 2;
    s_log_t log = {0};
    zs_commit_opts_t opts = {
        .max_retries = 3, .on_commit = s_on_commit, .arg = &log, .compact = &req, .compactor = c};
    s_add_file (p, path, 1, 1, 10);
    s_add_file (p, path, 2, 11, 10);
    assert_int_equal (zs_commit_upto (t, p, "user-c", 2, false, &opts, err, sizeof err), 2);
    assert_true (zs_compactor_busy (c));
    //  an APPEND commit while the rewrite runs
    s_add_file (p, path, 3, 21, 10);
    assert_int_equal (zs_commit_upto (t, p, "user-c", 3, false, &opts, err, sizeof err), 1);
    s_wait_compacted (c);
    assert_int_equal (zs_compactor_finish (c, t, true), 4);
    assert_false (zs_compactor_busy (c));
    zs_snapshot_t snap;
    assert_int_equal (zs_table_read_snapshot (t, 4, &snap, err, sizeof err), 0);
    assert_string_equal (snap.commit_kind, "COMPACT");
    assert_int_equal (snap.commit_identifier, 3);
    assert_int_equal (snap.total_record_count, 30);
    //  the next rewrite, cancelled by the end-input snapshot: no output left
    s_add_file (p, path, 4, 31, 10);
    s_add_file (p, path, 4, 41, 10);
    assert_int_equal (zs_commit_upto (t, p, "user-c", 4, false, &opts, err, sizeof err), 1);
    assert_true (zs_compactor_busy (c));
    s_add_file (p, path, ZS_END_INPUT_ID, 51, 1);
    assert_int_equal (zs_commit_upto (t, p, "user-c", 4, true, &opts, err, sizeof err), 1);
    assert_false (zs_compactor_busy (c));
    zs_snapshot_t latest;
    assert_int_equal (zs_table_latest_snapshot (t, &latest, err, sizeof err), 0);
    assert_int_equal (latest.commit_identifier, ZS_END_INPUT_ID);
    assert_int_equal (latest.total_record_count, 51);
    zs_file_meta_t *live = NULL;
    size_t n = 0;
    assert_int_equal (zs_table_live_files (t, 0, &live, &n, err, sizeof err), 0);
    char cmd[ZS_PATH_MAX + 64];
    snprintf (cmd, sizeof cmd, "test $(ls '%s/bucket-0' | grep -c compact) -eq 1", path);
    assert_int_equal (system (cmd), 0); //  snapshot 4's output only
    free (live);
    //  a rewrite finishing with nothing in flight: nothing to do
    assert_int_equal (zs_compactor_finish (c, t, true), 0);
    zs_compactor_destroy (&c);
    zs_pending_destroy (&p);
    zs_table_destroy (&t);
}

static void
test_recommit_filters_committed (void **state)
{
    char path[ZS_PATH_MAX], err[ZS_ERRLEN];
    zs_table_t *t = s_new_table (path);
    zs_pending_t *p = zs_pending_new ();
    s_add_file (p, path, 1, 1, 4);
    s_add_file (p, path, 2, 5, 4);
    s_log_t log = {0};
    zs_commit_opts_t opts = {.max_retries = 3, .on_commit = s_on_commit, .arg = &log};
    assert_int_equal (zs_commit_upto (t, p, "user-2", 1, false, &opts, err, sizeof err), 1);

    //  A restore hands back 1 and 2 (Notify(2) was lost): 1 is filtered,
    //  2 committed; committing the same again is all filtered.
    zs_pending_t *q = zs_pending_new ();
    s_add_file (q, path, 1, 1, 4);
    s_add_file (q, path, 2, 5, 4);
    opts.recommit = true;
    assert_int_equal (zs_commit_upto (t, q, "user-2", INT64_MAX, false, &opts, err, sizeof err), 1);
    assert_true (log.n == 2 && log.ids[1] == 2 && log.snaps[1] == 2);
    assert_int_equal (zs_pending_size (q), 0);
    s_add_file (q, path, 2, 5, 4);
    assert_int_equal (zs_commit_upto (t, q, "user-2", INT64_MAX, false, &opts, err, sizeof err), 0);
    assert_int_equal (zs_pending_size (q), 0);
    assert_int_equal (log.n, 2);
    //  Another commit user is not filtered by user-2's identifiers.
    s_add_file (q, path, 1, 100, 1);
    opts.recommit = false;
    assert_int_equal (zs_commit_upto (t, q, "user-3", 5, false, &opts, err, sizeof err), 1);
    zs_pending_destroy (&q);
    zs_pending_destroy (&p);
    zs_table_destroy (&t);
}

static void
test_missing_file_stops_in_order (void **state)
{
    char path[ZS_PATH_MAX], err[ZS_ERRLEN];
    zs_table_t *t = s_new_table (path);
    zs_pending_t *p = zs_pending_new ();
    s_add_file (p, path, 1, 1, 2);
    Zsink__FileMeta fm;
    zsink__file_meta__init (&fm);
    fm.path = "bucket-0/data-gone.parquet";
    fm.rows = 1;
    fm.size = 10;
    Zsink__FileMeta *fms[] = {&fm};
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = 2;
    c.n_files = 1;
    c.files = fms;
    assert_int_equal (zs_pending_add (p, &c, 0), 0);
    s_add_file (p, path, 3, 3, 2);
    s_log_t log = {0};
    zs_commit_opts_t opts = {.max_retries = 3, .on_commit = s_on_commit, .arg = &log};
    assert_int_equal (zs_commit_upto (t, p, "user-4", 3, false, &opts, err, sizeof err),
                      ZS_EMISSING);
    assert_non_null (strstr (err, "data-gone"));
    //  1 made it; 2 failed and 3 was not tried (never out of order).
    assert_int_equal (log.n, 1);
    assert_int_equal (zs_pending_size (p), 2);
    assert_true (zs_pending_first (p) == 2);
    zs_pending_destroy (&p);
    zs_table_destroy (&t);
}

static void
test_ignore_empty_but_end_input_always (void **state)
{
    char path[ZS_PATH_MAX], err[ZS_ERRLEN];
    zs_table_t *t = s_new_table (path);
    zs_pending_t *p = zs_pending_new ();
    assert_int_equal (zs_pending_touch (p, 1), 0);
    assert_int_equal (zs_pending_touch (p, 2), 0);
    s_log_t log = {0};
    zs_commit_opts_t opts = {.max_retries = 3, .on_commit = s_on_commit, .arg = &log};
    //  Without ignore-empty an empty checkpoint is an empty snapshot.
    assert_int_equal (zs_commit_upto (t, p, "user-5", 1, false, &opts, err, sizeof err), 1);
    assert_true (log.rows[0] == 0);
    //  With it, skipped quietly and dropped…
    opts.ignore_empty = true;
    assert_int_equal (zs_commit_upto (t, p, "user-5", 2, false, &opts, err, sizeof err), 0);
    assert_int_equal (zs_pending_size (p), 0);
    //  …except end input: the snapshot that says the job finished.
    assert_int_equal (zs_pending_touch (p, ZS_END_INPUT_ID), 0);
    assert_int_equal (zs_commit_upto (t, p, "user-5", 2, true, &opts, err, sizeof err), 1);
    assert_true (log.ids[1] == ZS_END_INPUT_ID);
    //  An empty checkpoint completed after the end of input (triggered
    //  while the job was finishing) is dropped quietly: nothing to add.
    assert_int_equal (zs_pending_touch (p, 3), 0);
    opts.ignore_empty = false;
    assert_int_equal (zs_commit_upto (t, p, "user-5", 3, false, &opts, err, sizeof err), 0);
    assert_int_equal (zs_pending_size (p), 0);
    //  A finished user commits no more rows, and says so.
    s_add_file (p, path, 3, 100, 2);
    assert_int_equal (zs_commit_upto (t, p, "user-5", 3, false, &opts, err, sizeof err),
                      ZS_EFINISHED);
    //  …but a re-commit just drops it (the job finished before).
    opts.recommit = true;
    assert_int_equal (zs_commit_upto (t, p, "user-5", 3, false, &opts, err, sizeof err), 0);
    assert_int_equal (zs_pending_size (p), 0);
    zs_pending_destroy (&p);
    zs_table_destroy (&t);
}

//  zs_committer_lock with the defaults of a local table: no wait
static int
s_lock (const char *path, const char *job, zs_io_lock_t **lock_p, char *holder, char *file,
        char *err)
{
    return zs_committer_lock (path, job, 5000, 0, lock_p, holder, 128, file, err, ZS_ERRLEN);
}

static void
test_lock_one_committer_per_job (void **state)
{
    char path[ZS_PATH_MAX], lockfile[ZS_PATH_MAX], err[ZS_ERRLEN], holder[128];
    zs_table_t *t = s_new_table (path);
    zs_io_lock_t *lock = NULL;
    assert_int_equal (s_lock (path, "job-a", &lock, holder, lockfile, err), 0);
    assert_non_null (lock);
    assert_non_null (strstr (lockfile, "/.locks/committer-job-a"));
    bool held = false;
    assert_int_equal (zs_io_lock_probe (lockfile, &held, holder, sizeof holder, err, sizeof err),
                      0);
    assert_true (held);

    //  Another process (a forked child opens the file anew) cannot take it
    //  and learns our pid; another job's lock is free.
    pid_t child = fork ();
    assert_true (child >= 0);
    if (child == 0) {
        zs_io_lock_t *clock = NULL;
        char cfile[ZS_PATH_MAX], cerr[ZS_ERRLEN], who[128], mine[64];
        int rc = s_lock (path, "job-a", &clock, who, cfile, cerr);
        snprintf (mine, sizeof mine, "pid %d, job job-a", (int) getppid ());
        if (rc != ZS_ECONFLICT || clock || strcmp (who, mine) != 0)
            _exit (1);
        rc = s_lock (path, "job-b", &clock, who, cfile, cerr);
        _exit (rc == 0 ? 0 : 2);
    }
    int status = 0;
    assert_int_equal (waitpid (child, &status, 0), child);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 0);

    //  Released (or its holder dead): the next one takes it, and a probe
    //  finds it free.
    zs_io_lock_release (&lock);
    assert_null (lock);
    zs_io_lock_release (&lock); //  NULL is fine
    assert_int_equal (zs_io_lock_probe (lockfile, &held, holder, sizeof holder, err, sizeof err),
                      0);
    assert_false (held);
    child = fork ();
    assert_true (child >= 0);
    if (child == 0) {
        zs_io_lock_t *clock = NULL;
        char cfile[ZS_PATH_MAX], cerr[ZS_ERRLEN], who[128];
        _exit (s_lock (path, "job-a", &clock, who, cfile, cerr) == 0 ? 0 : 1);
    }
    assert_int_equal (waitpid (child, &status, 0), child);
    assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    zs_table_destroy (&t);
}

int
main (void)
{
    zs_schema_default (&s_schema);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_commit_upto_ascending),
        cmocka_unit_test (test_recommit_filters_committed),
        cmocka_unit_test (test_compactor),
        cmocka_unit_test (test_missing_file_stops_in_order),
        cmocka_unit_test (test_ignore_empty_but_end_input_always),
        cmocka_unit_test (test_lock_one_committer_per_job),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
