/*  test_tags.c - tags (table_tag.c) as roots: a tag's snapshot, lists,
    manifests and data files survive orphan removal, zsink's expiry and the
    committer's clean-up; verify names a tag whose file is gone;
    create/delete/list tags; rollback to a tag, expired or not; the dry
    runs of rollback and delete_tag, whose counts depend on the tags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafiles.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "table.h"
#include "table_job.h"
#include "table_dryrun.h"
#include "table_priv.h"
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
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-tags-XXXXXX");
    if (!mkdtemp (s_dir))
        return -1;
    char err[ZS_ERRLEN];
    s_table = zs_table_open (s_dir, &schema, err, sizeof err);
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

static bool
s_exists (const char *rel)
{
    char p[512];
    snprintf (p, sizeof p, "%s/%s", s_dir, rel);
    return access (p, F_OK) == 0;
}

//  Copy a file of the table (as Paimon's createTag writes the snapshot's
//  JSON to tag/tag-NAME).
static void
s_copy (const char *from, const char *to)
{
    char p[512], err[ZS_ERRLEN];
    size_t len;
    snprintf (p, sizeof p, "%s/%s", s_dir, from);
    char *text = zs_io_read_file (p, 1 << 20, &len, err, sizeof err);
    assert_non_null (text);
    snprintf (p, sizeof p, "%s/tag", s_dir);
    mkdir (p, 0755);
    snprintf (p, sizeof p, "%s/%s", s_dir, to);
    assert_int_equal (zs_io_write_atomic (p, text, len, err, sizeof err), 0);
    free (text);
}

//  Five commits of 10 rows, a compaction of them (snapshot 6: their
//  DELETEs), one more commit (7).
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
}

//  Expire all but snapshot 7 (the newest zsink made).
static void
s_expire (void)
{
    char err[ZS_ERRLEN];
    zs_expire_t req = {.retain_min = 1, .retain_max = 1, .older_than_ms = INT64_MAX};
    zs_expired_t out;
    if (zs_table_expire (s_table, &req, &out, err, sizeof err) != 0)
        fail_msg ("expire: %s", err);
    assert_int_equal (out.end, 7);
}

//  Every file of snapshot snap exists: lists, manifests, data files; the
//  rows they hold.
static int64_t
s_assert_readable (const zs_snapshot_t *snap)
{
    char err[ZS_ERRLEN], rel[300];
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    if (zs_table_snapshot_files (s_table, snap, &files, &nf, err, sizeof err) != 0)
        fail_msg ("snapshot %lld unreadable: %s", (long long) snap->id, err);
    int64_t rows = 0;
    for (size_t i = 0; i < nf; i++) {
        if (!s_exists (files[i].path))
            fail_msg ("%s gone", files[i].path);
        rows += files[i].rows;
    }
    free (files);
    snprintf (rel, sizeof rel, "manifest/%s", snap->base_manifest_list);
    assert_true (s_exists (rel));
    snprintf (rel, sizeof rel, "manifest/%s", snap->delta_manifest_list);
    assert_true (s_exists (rel));
    return rows;
}

static void
s_assert_verify_ok (int64_t orphan_age_ms)
{
    char err[ZS_ERRLEN], *report = NULL;
    if (zs_table_verify (s_table, orphan_age_ms, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
    free (report);
}

static size_t
s_orphans (const char *must_not_hold)
{
    char err[ZS_ERRLEN], **paths = NULL;
    size_t n = 0;
    if (zs_table_orphans (s_table, 0, &paths, &n, err, sizeof err) != 0)
        fail_msg ("orphans: %s", err);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (must_not_hold && strstr (must_not_hold, paths[i])) {
            print_error ("a tag's file listed as orphan: %s\n", paths[i]);
            bad++;
        }
        free (paths[i]);
    }
    free (paths);
    assert_int_equal (bad, 0);
    return n;
}

//  The table-relative names of every file the snapshot in tag/tag-NAME
//  references, one per line, into buf.
static void
s_tag_names (const zs_snapshot_t *snap, char *buf, size_t len)
{
    char err[ZS_ERRLEN];
    size_t at = 0;
    at += snprintf (buf + at, len - at, "manifest/%s\nmanifest/%s\n", snap->base_manifest_list,
                    snap->delta_manifest_list);
    zs_manifest_meta_t *metas = NULL;
    size_t nm = 0;
    assert_int_equal (zs_table_snapshot_manifests (s_table, snap, &metas, &nm, err, sizeof err), 0);
    for (size_t i = 0; i < nm; i++)
        at += snprintf (buf + at, len - at, "manifest/%s\n", metas[i].file);
    free (metas);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_snapshot_files (s_table, snap, &files, &nf, err, sizeof err), 0);
    for (size_t i = 0; i < nf; i++)
        at += snprintf (buf + at, len - at, "%s\n", files[i].path);
    free (files);
}

//  --------------------------------------------------------------------------

//  A tag written as Paimon Java's createTag writes it (the snapshot's JSON),
//  then snapshots expired as Paimon expires them (snapshot files gone, the
//  tag's files kept): no file of the tag is an orphan, and the committer's
//  clean-up of its user's unreferenced manifests spares the tag's lists.
static void
test_paimon_tag_is_a_root_for_orphans (void **state)
{
    s_history ();
    zs_snapshot_t s1;
    char err[ZS_ERRLEN], names[8192], rel[64];
    assert_int_equal (zs_table_read_snapshot (s_table, 1, &s1, err, sizeof err), 0);
    s_tag_names (&s1, names, sizeof names);
    s_copy ("snapshot/snapshot-1", "tag/tag-first");
    //  Paimon's expire of 1..6: the snapshot files, EARLIEST 7
    for (int id = 1; id <= 6; id++) {
        char p[512];
        snprintf (rel, sizeof rel, "snapshot/snapshot-%d", id);
        snprintf (p, sizeof p, "%s/%s", s_dir, rel);
        assert_int_equal (unlink (p), 0);
    }
    char p[512];
    snprintf (p, sizeof p, "%s/snapshot/EARLIEST", s_dir);
    assert_int_equal (zs_io_write_atomic (p, "7", 1, err, sizeof err), 0);
    s_orphans (names);
    assert_true (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err) >= 0);
    assert_int_equal (s_assert_readable (&s1), 10);
}

//  zsink's own expiry on a tagged table (it refused before): the expired
//  snapshots go, but the tag's lists, manifests and the data files the
//  compaction deleted and the tag still reads stay; no orphan; verify OK.
static void
test_expire_keeps_what_tags_keep (void **state)
{
    s_history ();
    char err[ZS_ERRLEN], names[8192];
    zs_snapshot_t s1, s3;
    assert_int_equal (zs_table_read_snapshot (s_table, 1, &s1, err, sizeof err), 0);
    assert_int_equal (zs_table_read_snapshot (s_table, 3, &s3, err, sizeof err), 0);
    s_copy ("snapshot/snapshot-1", "tag/tag-first");
    int64_t id = 0;
    assert_int_equal (zs_table_create_tag (s_table, "third", 3, &id, err, sizeof err), 0);
    assert_int_equal (id, 3);
    s_expire ();
    assert_false (s_exists ("snapshot/snapshot-1"));
    assert_false (s_exists ("snapshot/snapshot-6"));
    assert_int_equal (s_assert_readable (&s1), 10);
    assert_int_equal (s_assert_readable (&s3), 30);
    s_tag_names (&s1, names, sizeof names);
    assert_int_equal (s_orphans (names), 0);
    s_tag_names (&s3, names, sizeof names);
    assert_int_equal (s_orphans (names), 0);
    s_assert_verify_ok (0);
    //  without the tags the next expiry-free orphan listing finds the
    //  compacted files: what only the tags kept
    assert_int_equal (unlink (strcat (strcpy (names, s_dir), "/tag/tag-first")), 0);
    assert_int_equal (unlink (strcat (strcpy (names, s_dir), "/tag/tag-third")), 0);
    assert_true (s_orphans (NULL) > 0);
}

//  verify checks each tag: a tag whose list, manifest or data file is gone
//  is named, as is a tag file that does not decode.
static void
test_verify_names_a_broken_tag (void **state)
{
    s_history ();
    char err[ZS_ERRLEN], p[512], *report = NULL;
    int64_t id = 0;
    assert_int_equal (zs_table_create_tag (s_table, "first", 1, &id, err, sizeof err), 0);
    s_expire ();
    s_assert_verify_ok (0);
    zs_tag_t tag;
    assert_int_equal (zs_table_read_tag (s_table, "first", &tag, err, sizeof err), 0);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_snapshot_files (s_table, &tag.snap, &files, &nf, err, sizeof err),
                      0);
    assert_int_equal (nf, 1);
    //  the data file only the tag keeps
    snprintf (p, sizeof p, "%s/%s", s_dir, files[0].path);
    assert_int_equal (unlink (p), 0);
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    assert_non_null (strstr (report, files[0].path));
    assert_non_null (strstr (report, "kept by tag 'first'"));
    free (report);
    free (files);
    //  its manifest list
    snprintf (p, sizeof p, "%s/manifest/%s", s_dir, tag.snap.delta_manifest_list);
    assert_int_equal (unlink (p), 0);
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    assert_non_null (strstr (report, "tag/tag-first"));
    assert_non_null (strstr (report, tag.snap.delta_manifest_list));
    free (report);
    //  an undecodable tag is named, and stops orphan removal and expiry
    s_copy ("snapshot/EARLIEST", "tag/tag-junk");
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    assert_non_null (strstr (report, "tag/tag-junk"));
    free (report);
    char **paths = NULL;
    size_t n = 0;
    assert_int_not_equal (zs_table_orphans (s_table, 0, &paths, &n, err, sizeof err), 0);
}

//  create-tag: of the latest or a given snapshot, the snapshot's file as it
//  is; a taken name, a bad name, a missing or expiring snapshot refused.
//  tags lists them by snapshot; delete-tag removes only the tag while its
//  snapshot is there, and then what only it kept once it is expired.
static void
test_create_and_delete_tags (void **state)
{
    s_history ();
    char err[ZS_ERRLEN];
    int64_t id = 0;
    assert_int_equal (zs_table_create_tag (s_table, "latest", 0, &id, err, sizeof err), 0);
    assert_int_equal (id, 7);
    assert_int_equal (zs_table_create_tag (s_table, "first", 1, &id, err, sizeof err), 0);
    assert_int_equal (zs_table_create_tag (s_table, "first", 2, &id, err, sizeof err), ZS_EREFUSED);
    assert_non_null (strstr (err, "already exists"));
    assert_int_equal (zs_table_create_tag (s_table, "x", 99, &id, err, sizeof err), ZS_ENOENT);
    const char *bad[] = {"", "a/b", ".hidden", "   ", "tab\there"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal (zs_table_create_tag (s_table, bad[i], 1, &id, err, sizeof err),
                          ZS_EREFUSED);
    //  the snapshot file, byte for byte
    char p[512];
    size_t la, lb;
    snprintf (p, sizeof p, "%s/snapshot/snapshot-1", s_dir);
    char *a = zs_io_read_file (p, 1 << 20, &la, err, sizeof err);
    snprintf (p, sizeof p, "%s/tag/tag-first", s_dir);
    char *b = zs_io_read_file (p, 1 << 20, &lb, err, sizeof err);
    assert_int_equal (la, lb);
    assert_memory_equal (a, b, la);
    free (a);
    free (b);
    zs_tag_t *tags;
    size_t n;
    assert_int_equal (zs_table_tags (s_table, &tags, &n, err, sizeof err), 0);
    assert_int_equal (n, 2);
    assert_string_equal (tags[0].name, "first");
    assert_int_equal (tags[0].snap.total_record_count, 10);
    assert_int_equal (tags[0].create_ms, -1);
    assert_string_equal (tags[1].name, "latest");
    free (tags);
    //  while snapshot 7 is there: only the tag file goes
    zs_rolled_back_t out;
    assert_int_equal (zs_table_delete_tag (s_table, "latest", &out, err, sizeof err), 0);
    assert_int_equal (out.manifests + out.data_files, 0);
    assert_int_equal (zs_table_delete_tag (s_table, "latest", &out, err, sizeof err), ZS_ENOENT);
    //  a second tag of snapshot 1 keeps its files when the first goes
    s_expire ();
    assert_int_equal (zs_table_create_tag (s_table, "x", 1, &id, err, sizeof err), ZS_ENOENT);
    s_copy ("tag/tag-first", "tag/tag-first2");
    assert_int_equal (zs_table_delete_tag (s_table, "first2", &out, err, sizeof err), 0);
    assert_int_equal (out.manifests + out.data_files, 0);
    zs_tag_t tag;
    assert_int_equal (zs_table_read_tag (s_table, "first", &tag, err, sizeof err), 0);
    assert_int_equal (s_assert_readable (&tag.snap), 10);
    //  the last tag of an expired snapshot: what only it kept goes too (its
    //  two lists; its data file is still named by snapshot 7's DELETE
    //  entry, so it waits for remove-orphan-files)
    assert_int_equal (zs_table_delete_tag (s_table, "first", &out, err, sizeof err), 0);
    assert_int_equal (out.manifests, 2);
    snprintf (p, sizeof p, "manifest/%s", tag.snap.delta_manifest_list);
    assert_false (s_exists (p));
    assert_int_equal (s_orphans (NULL), 0);
    s_assert_verify_ok (0);
}

//  rollback --to-tag: a tag whose snapshot is there is a rollback to it; an
//  expired one is restored from the tag (Paimon's trimToSnapshot: the Tag
//  fields dropped), tags of later snapshots removed; every file the
//  restored snapshot reads is there, the rows are the tag's.
static void
test_rollback_to_tag (void **state)
{
    s_history ();
    char err[ZS_ERRLEN], p[512];
    int64_t id = 0;
    assert_int_equal (zs_table_create_tag (s_table, "five", 5, &id, err, sizeof err), 0);
    //  a Java tag with a retention (Jackson's LocalDateTime and Duration)
    snprintf (p, sizeof p, "%s/snapshot/snapshot-1", s_dir);
    size_t len;
    char *text = zs_io_read_file (p, 1 << 20, &len, err, sizeof err);
    char *end = strrchr (text, '}');
    *end = '\0';
    char tagged[8192];
    snprintf (tagged, sizeof tagged,
              "%s,\"tagCreateTime\":[2026,12,4,17,30,5,250000000],\"tagTimeRetained\":86400.0}",
              text);
    free (text);
    snprintf (p, sizeof p, "%s/tag", s_dir);
    mkdir (p, 0755);
    snprintf (p, sizeof p, "%s/tag/tag-first", s_dir);
    assert_int_equal (zs_io_write_atomic (p, tagged, strlen (tagged), err, sizeof err), 0);
    zs_tag_t tag;
    assert_int_equal (zs_table_read_tag (s_table, "first", &tag, err, sizeof err), 0);
    assert_int_equal (tag.create_ms, 1796405405250LL); //  2026-12-04 17:30:05.250
    s_expire ();
    assert_int_equal (zs_table_create_tag (s_table, "seven", 7, &id, err, sizeof err), 0);
    //  to an expired tagged snapshot
    zs_rolled_back_t out;
    assert_int_equal (zs_table_rollback_to_tag (s_table, "five", &out, err, sizeof err), 0);
    zs_snapshot_t latest;
    assert_int_equal (zs_table_latest_snapshot (s_table, &latest, err, sizeof err), 0);
    assert_int_equal (latest.id, 5);
    assert_int_equal (s_assert_readable (&latest), 50);
    assert_int_equal (zs_table_read_tag (s_table, "seven", &tag, err, sizeof err), ZS_ENOENT);
    int64_t earliest = 0;
    assert_int_equal (zs_table_read_hint (s_table, "snapshot/EARLIEST", &earliest), 1);
    assert_int_equal (earliest, 5);
    s_assert_verify_ok (INT64_MAX / 2);
    //  further back, from the Java tag: its fields dropped
    assert_int_equal (zs_table_rollback_to_tag (s_table, "first", &out, err, sizeof err), 0);
    assert_int_equal (out.snapshots, 1);
    snprintf (p, sizeof p, "%s/snapshot/snapshot-1", s_dir);
    text = zs_io_read_file (p, 1 << 20, &len, err, sizeof err);
    assert_null (strstr (text, "tagCreateTime"));
    free (text);
    assert_int_equal (zs_table_latest_snapshot (s_table, &latest, err, sizeof err), 0);
    assert_int_equal (latest.id, 1);
    assert_int_equal (s_assert_readable (&latest), 10);
    assert_int_equal (zs_table_read_tag (s_table, "five", &tag, err, sizeof err), ZS_ENOENT);
    s_assert_verify_ok (INT64_MAX / 2);
    //  a commit after it continues from snapshot 2, readable by all
    s_commit (100, 5000, 10);
    assert_int_equal (zs_table_latest_snapshot (s_table, &latest, err, sizeof err), 0);
    assert_int_equal (latest.id, 2);
    assert_int_equal (latest.total_record_count, 20);
    //  a tag that is not there
    assert_int_equal (zs_table_rollback_to_tag (s_table, "nope", &out, err, sizeof err), ZS_ENOENT);
}

//  A tag file another engine made under a name create-tag refuses (long,
//  starting with '.' after "tag-") is a root all the same; create-tag
//  refuses a snapshot below the EARLIEST hint (an expiry may be removing
//  its files).
static void
test_any_tag_file_is_a_root (void **state)
{
    s_history ();
    char err[ZS_ERRLEN], names[8192], longname[200], rel[300];
    zs_snapshot_t s1;
    assert_int_equal (zs_table_read_snapshot (s_table, 1, &s1, err, sizeof err), 0);
    memset (longname, 'x', 150);
    longname[150] = '\0';
    snprintf (rel, sizeof rel, "tag/tag-%s", longname);
    s_copy ("snapshot/snapshot-1", rel);
    s_copy ("snapshot/snapshot-1", "tag/tag-.dot");
    int64_t id = 0;
    assert_int_equal (zs_table_create_tag (s_table, longname, 1, &id, err, sizeof err),
                      ZS_EREFUSED);
    s_expire ();
    assert_int_equal (s_assert_readable (&s1), 10);
    s_tag_names (&s1, names, sizeof names);
    s_orphans (names);
    s_assert_verify_ok (0);
    zs_tag_t *tags;
    size_t n;
    assert_int_equal (zs_table_tags (s_table, &tags, &n, err, sizeof err), 0);
    assert_int_equal (n, 2);
    free (tags);
    //  an expiry under way: EARLIEST moved to 7 before snapshot 5's files go
    for (int i = 7; i <= 9; i++)
        s_commit (i, i * 1000, 10);
    char p[512];
    snprintf (p, sizeof p, "%s/snapshot/EARLIEST", s_dir);
    assert_int_equal (zs_io_write_atomic (p, "9", 1, err, sizeof err), 0);
    assert_int_equal (zs_table_create_tag (s_table, "late", 8, &id, err, sizeof err), ZS_ENOENT);
    assert_int_equal (zs_table_create_tag (s_table, "late", 9, &id, err, sizeof err), 0);
}

static void
s_tag (const char *name, int64_t snapshot)
{
    char err[ZS_ERRLEN];
    int64_t id;
    if (zs_table_create_tag (s_table, name, snapshot, &id, err, sizeof err) != 0)
        fail_msg ("create tag %s: %s", name, err);
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

//  Dry runs (table_dryrun.h): each leaves every file of the table as it
//  was and counts what the procedure then removes.

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
    assert_int_equal (dry.snapshots, 4);
    assert_true (dry.data_files >= 2); //  the compaction's output and 6's
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
        T (test_paimon_tag_is_a_root_for_orphans),
        T (test_expire_keeps_what_tags_keep),
        T (test_verify_names_a_broken_tag),
        T (test_create_and_delete_tags),
        T (test_rollback_to_tag),
        T (test_any_tag_file_is_a_root),
        T (test_rollback_dry_run),
        T (test_rollback_to_tag_dry_run),
        T (test_delete_tag_dry_run),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
