/*  test_table_dryrun.c - the dry runs of the destructive procedures
    (table_dryrun.h): each leaves every file of the table as it was and
    counts what the procedure then removes, in the cases where what goes
    depends on the tags: a rollback past a later snapshot's tag (its
    files go too), to an expired tagged snapshot (restored, not in the
    dry run), a delete of a tag whose snapshot is expired. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafiles.h"
#include "log.h"
#include "table.h"
#include "table_dryrun.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USER_A "aaaaaaaa-1111-4111-8111-111111111111"

static char s_dir[64];
static zs_table_t *s_table;
static int s_file_seq;

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static int
s_setup (void **state)
{
    zs_log_set_level (ZS_LOG_WARN);
    zs_schema_t schema;
    zs_schema_default (&schema);
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-dryrun-XXXXXX");
    if (!mkdtemp (s_dir))
        return -1;
    char err[ZS_ERRLEN];
    s_table = zs_table_open (s_dir, &schema, err, sizeof err);
    s_file_seq = 0;
    return s_table ? 0 : -1;
}

static int
s_teardown (void **state)
{
    zs_table_destroy (&s_table);
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
s_commit (int64_t identifier, int64_t first, int64_t rows)
{
    char rel[128], err[ZS_ERRLEN];
    snprintf (rel, sizeof rel, "bucket-0/data-test-%d.parquet", s_file_seq++);
    zs_file_meta_t f = test_write_datafile (s_dir, rel, first, rows);
    zs_commit_t req = {.user = USER_A, .identifier = identifier, .files = &f, .n = 1};
    zs_committed_t out;
    if (zs_table_commit (s_table, &req, &out, err, sizeof err) != 0)
        fail_msg ("commit %lld: %s", (long long) identifier, err);
}

//  Five commits of 10 rows, a compaction of them (snapshot 6), two more
//  commits (7, 8).
static void
s_history (void)
{
    char err[ZS_ERRLEN];
    for (int i = 1; i <= 5; i++)
        s_commit (i, i * 100, 10);
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_compact_t req;
    zs_table_compact_options (&cfg, USER_A, &req);
    zs_compacted_t out;
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshot_id, 6);
    s_commit (6, 900, 10);
    s_commit (7, 1000, 10);
}

static void
s_tag (const char *name, int64_t snapshot)
{
    char err[ZS_ERRLEN];
    int64_t id;
    if (zs_table_create_tag (s_table, name, snapshot, &id, err, sizeof err) != 0)
        fail_msg ("create tag %s: %s", name, err);
}

//  Expire all but the latest snapshot (the newest zsink made).
static void
s_expire (void)
{
    char err[ZS_ERRLEN];
    zs_expire_t req = {.retain_min = 1, .retain_max = 1, .older_than_ms = INT64_MAX};
    zs_expired_t out;
    if (zs_table_expire (s_table, &req, &out, err, sizeof err) != 0)
        fail_msg ("expire: %s", err);
}

//  Every file of the table, its path, size and mtime, one a line: what a
//  dry run must leave as it was.
static char s_listing[1 << 16];
static size_t s_listed;

static int
s_list_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    if (flag == FTW_F)
        s_listed +=
            (size_t) snprintf (s_listing + s_listed, sizeof s_listing - s_listed, "%s %lld %lld\n",
                               path, (long long) st->st_size, (long long) st->st_mtime);
    return s_listed >= sizeof s_listing - 1;
}

static char *
s_files (void)
{
    s_listed = 0;
    s_listing[0] = '\0';
    assert_int_equal (nftw (s_dir, s_list_one, 16, FTW_PHYS), 0);
    return strdup (s_listing);
}

static void
s_assert_same (const zs_rolled_back_t *dry, const zs_rolled_back_t *done)
{
    assert_int_equal (dry->snapshots, done->snapshots);
    assert_int_equal (dry->manifests, done->manifests);
    assert_int_equal (dry->data_files, done->data_files);
}

//  A rollback to 3 past tag "late" of snapshot 7: the dry run keeps the
//  tag and every file, and counts the tag's files as going (the rollback
//  removes the tag, then them). Before zs_table_tag_files_upto the dry run
//  kept them, the tag being still there: it said fewer than went.
static void
test_rollback_dry_run (void **state)
{
    s_history ();
    s_tag ("late", 7);
    char err[ZS_ERRLEN];
    char *before = s_files ();
    zs_rolled_back_t dry, done;
    assert_int_equal (zs_table_rollback_dry_run (s_table, 3, NULL, &dry, err, sizeof err), 0);
    char *after = s_files ();
    assert_string_equal (before, after);
    assert_int_equal (dry.snapshots, 5);
    assert_true (dry.data_files >= 3); //  the compaction's output, 6's and 7's
    assert_int_equal (zs_table_rollback (s_table, 3, &done, err, sizeof err), 0);
    s_assert_same (&dry, &done);
    zs_tag_t tag;
    assert_int_equal (zs_table_read_tag (s_table, "late", &tag, err, sizeof err), ZS_ENOENT);
    //  past the latest, or to nothing: refused as the rollback is
    assert_int_equal (zs_table_rollback_dry_run (s_table, 9, NULL, &dry, err, sizeof err),
                      ZS_EREFUSED);
    free (before);
    free (after);
}

//  To a tag whose snapshot expired: the rollback restores the snapshot
//  from the tag; the dry run does not, and counts the same.
static void
test_rollback_to_tag_dry_run (void **state)
{
    s_history ();
    s_tag ("two", 2);
    s_expire ();
    char err[ZS_ERRLEN], path[512];
    char *before = s_files ();
    zs_rolled_back_t dry, done;
    assert_int_equal (zs_table_rollback_dry_run (s_table, 0, "two", &dry, err, sizeof err), 0);
    char *after = s_files ();
    assert_string_equal (before, after);
    snprintf (path, sizeof path, "%s/snapshot/snapshot-2", s_dir);
    assert_int_not_equal (access (path, F_OK), 0);
    assert_int_equal (zs_table_rollback_to_tag (s_table, "two", &done, err, sizeof err), 0);
    s_assert_same (&dry, &done);
    assert_int_equal (access (path, F_OK), 0);
    assert_int_equal (zs_table_rollback_dry_run (s_table, 0, "nope", &dry, err, sizeof err),
                      ZS_ENOENT);
    free (before);
    free (after);
}

//  delete_tag of a tag whose snapshot expired: its lists and manifests (and
//  data files no snapshot names) counted, nothing removed; a tag of a
//  snapshot present, or shared with another tag, keeps nothing alone.
static void
test_delete_tag_dry_run (void **state)
{
    s_history ();
    s_tag ("two", 2);
    s_tag ("also-seven", 7);
    s_tag ("seven", 7);
    s_expire ();
    char err[ZS_ERRLEN];
    char *before = s_files ();
    zs_rolled_back_t dry, done;
    assert_int_equal (zs_table_delete_tag_dry_run (s_table, "two", &dry, err, sizeof err), 0);
    assert_int_equal (zs_table_delete_tag_dry_run (s_table, "seven", &done, err, sizeof err), 0);
    assert_int_equal (done.manifests + done.data_files, 0);
    char *after = s_files ();
    assert_string_equal (before, after);
    assert_true (dry.manifests > 0);
    assert_int_equal (zs_table_delete_tag (s_table, "two", &done, err, sizeof err), 0);
    s_assert_same (&dry, &done);
    assert_int_equal (zs_table_delete_tag_dry_run (s_table, "two", &dry, err, sizeof err),
                      ZS_ENOENT);
    free (before);
    free (after);
}

int
main (void)
{
#define T(name) cmocka_unit_test_setup_teardown (name, s_setup, s_teardown)
    const struct CMUnitTest tests[] = {
        T (test_rollback_dry_run),
        T (test_rollback_to_tag_dry_run),
        T (test_delete_tag_dry_run),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
