/*  table_maint.c - the maintenance side of the table store: orphan files,
    clean-up of a crashed commit's manifests, verify, and deleting a tag
    with what only it kept (table.h; the tags themselves are table_tag.c's,
    which calls nothing here).

    All three start from the set of files that snapshots reference, and
    each is careful in the same direction: when that set cannot be known
    (a snapshot, list or manifest does not decode) they refuse rather than
    guess, because a guess that is too small deletes live data.
*/
#include "fs.h"
#include "io.h"
#include "log.h"
#include "parquet.h"
#include "snapshot.h"
#include "table_priv.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int
s_cmp_i64 (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

//  --------------------------------------------------------------------------
//  Orphans and cleanup

//  A growable, sortable array of strings used as a set.
typedef struct {
    char **v;
    size_t n, cap;
} s_strset_t;

static int
s_strset_add (s_strset_t *set, const char *s)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 256;
        char **grown = realloc (set->v, cap * sizeof *grown);
        if (!grown)
            return -1;
        set->v = grown;
        set->cap = cap;
    }
    if (!(set->v[set->n] = strdup (s)))
        return -1;
    set->n++;
    return 0;
}

static int
s_cmp_str (const void *a, const void *b)
{
    return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
s_strset_sort (s_strset_t *set)
{
    if (set->n)
        qsort (set->v, set->n, sizeof *set->v, s_cmp_str);
}

static bool
s_strset_has (const s_strset_t *set, const char *s)
{
    return set->n && bsearch (&s, set->v, set->n, sizeof *set->v, s_cmp_str);
}

//  Insert keeping the set sorted and without duplicates. 0 or -1 (OOM).
static int
s_strset_insert (s_strset_t *set, const char *s)
{
    size_t lo = 0, hi = set->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp (set->v[mid], s);
        if (c == 0)
            return 0;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (s_strset_add (set, s) != 0)
        return -1;
    char *added = set->v[set->n - 1];
    memmove (set->v + lo + 1, set->v + lo, (set->n - 1 - lo) * sizeof *set->v);
    set->v[lo] = added;
    return 0;
}

static void
s_strset_free (s_strset_t *set)
{
    for (size_t i = 0; i < set->n; i++)
        free (set->v[i]);
    free (set->v);
    memset (set, 0, sizeof *set);
}

//  Every file any snapshot present references, as table-relative paths:
//  "manifest/<list>", "manifest/<manifest>", "bucket-N/<data>". When
//  with_data is false the data files are not collected (no manifest read).
//  The manifests one snapshot's lists name (lists and manifests into refs
//  and manifests). A list that does not decode is an error, unless the
//  snapshot is expiring (below the EARLIEST hint: an expiry removes its
//  files, table_expire.c).
static int
s_referenced_by (zs_table_t *self, const zs_snapshot_t *snap, bool expiring, s_strset_t *refs,
                 s_strset_t *manifests, char *err, size_t errlen)
{
    const char *lists[2] = {snap->base_manifest_list, snap->delta_manifest_list};
    char rel[256];
    int rc = 0;
    for (int l = 0; l < 2 && rc == 0; l++) {
        snprintf (rel, sizeof rel, "manifest/%s", lists[l]);
        if (s_strset_has (refs, rel))
            continue;
        zs_manifest_meta_t *metas;
        size_t nm;
        rc = zs_table_read_manifest_list (self, lists[l], &metas, &nm, err, errlen);
        if (rc != 0 && expiring) {
            rc = 0;
            continue;
        }
        if (rc != 0)
            break;
        rc = s_strset_insert (refs, rel);
        for (size_t m = 0; m < nm && rc == 0; m++)
            rc = s_strset_insert (manifests, metas[m].file);
        free (metas);
    }
    return rc;
}

//  The files the tags keep (table_tag.c): roots like the snapshots, so
//  added to refs (unsorted). A tag that does not decode is an error.
static int
s_add_tag_roots (zs_table_t *self, bool with_data, s_strset_t *refs, char *err, size_t errlen)
{
    zhash_t *kept = zhash_new ();
    int rc = zs_table_tag_files (self, with_data, kept, err, errlen);
    for (const char *v = zhash_first (kept); rc == 0 && v; v = zhash_next (kept))
        rc = s_strset_add (refs, zhash_cursor (kept));
    zhash_destroy (&kept);
    return rc;
}

//  Every file some snapshot or tag references: the lists, the manifests
//  and (with data) the data files, as table-relative paths, sorted.
//  Any snapshot, list or manifest that does not decode is an error (an
//  incomplete set would make referenced files look orphaned), except those
//  only expiring snapshots name.
static int
s_referenced (zs_table_t *self, bool with_data, s_strset_t *refs, char *err, size_t errlen)
{
    zs_snapshot_t *snaps;
    size_t ns;
    int rc = zs_table_list_snapshots (self, &snaps, &ns, err, errlen);
    if (rc != 0)
        return rc;
    int64_t earliest = 0;
    if (zs_table_read_hint (self, "snapshot/EARLIEST", &earliest) != 1
        || !zs_table_snapshot_exists (self, earliest))
        earliest = 0;
    s_strset_t manifests = {0}, expiring = {0};
    for (size_t i = 0; i < ns && rc == 0; i++) {
        bool old = snaps[i].id < earliest;
        rc =
            s_referenced_by (self, &snaps[i], old, refs, old ? &expiring : &manifests, err, errlen);
    }
    free (snaps);
    char rel[256];
    for (int set = 0; set < 2 && rc == 0; set++) {
        s_strset_t *from = set ? &expiring : &manifests;
        for (size_t i = 0; i < from->n && rc == 0; i++) {
            snprintf (rel, sizeof rel, "manifest/%s", from->v[i]);
            if (set && s_strset_has (&manifests, from->v[i]))
                continue; //  a retained snapshot names it too: done above
            zs_manifest_entry_t *entries = NULL;
            size_t ne = 0;
            rc = with_data ? zs_table_read_manifest (self, from->v[i], &entries, &ne, err, errlen)
                           : 0;
            if (rc != 0 && set) {
                rc = 0; //  an expiring snapshot's, removed already
                continue;
            }
            if (rc == 0)
                rc = s_strset_add (refs, rel);
            for (size_t e = 0; rc == 0 && e < ne; e++)
                rc = s_strset_add (refs, entries[e].file.path);
            free (entries);
        }
    }
    s_strset_free (&manifests);
    s_strset_free (&expiring);
    if (rc == 0)
        rc = s_add_tag_roots (self, with_data, refs, err, errlen);
    if (rc == -1 && !err[0])
        snprintf (err, errlen, "out of memory");
    s_strset_sort (refs);
    return rc;
}

//  Add files of table-relative directory dir that are not referenced, are
//  at least min_age_ms old and (when only_tmp) are temp files.
static int
s_scan_dir (zs_table_t *self, const char *dir, const s_strset_t *refs, int64_t min_age_ms,
            bool only_tmp, s_strset_t *out, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    zs_table_file_path (self, path, sizeof path, dir);
    zs_io_entry_t *e;
    size_t n;
    int rc = zs_io_listing (path, &e, &n, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? 0 : -1;
    //  Wall clock, because mtimes are wall-clock times.
    int64_t now = zs_clock_wall_ms ();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char rel[512];
        //  a symlink is never followed (the listing does not), so --delete
        //  cannot reach outside the table; subdirectories are not ours to
        //  judge.
        if (e[i].is_dir || e[i].size < 0)
            continue;
        if (only_tmp && !strstr (e[i].name, ".tmp-"))
            continue;
        if (snprintf (rel, sizeof rel, "%s/%s", dir, e[i].name) >= (int) sizeof rel)
            continue;
        //  Young files may belong to a commit in flight (data file handed to
        //  the committer, manifest written but snapshot not yet created).
        if (now - e[i].mtime_ms < min_age_ms)
            continue;
        if (s_strset_has (refs, rel))
            continue;
        if (s_strset_add (out, rel) != 0) {
            snprintf (err, errlen, "out of memory");
            rc = -1;
        }
    }
    zs_io_listing_free (&e, n);
    return rc;
}

static int
s_orphans (zs_table_t *self, int64_t min_age_ms, char ***paths_p, size_t *n_p, size_t *held,
           char *err, size_t errlen)
{
    err[0] = '\0';
    s_strset_t refs = {0}, out = {0};
    int rc = s_referenced (self, true, &refs, err, errlen);
    if (rc == 0)
        rc = s_scan_dir (self, "manifest", &refs, min_age_ms, false, &out, err, errlen);
    //  Temp files of snapshot creations that crashed are garbage too.
    if (rc == 0)
        rc = s_scan_dir (self, "snapshot", &refs, min_age_ms, true, &out, err, errlen);
    if (rc == 0) {
        //  Every bucket directory, of every partition, not only those live
        //  files mention: a bucket whose files were never committed is all
        //  orphans.
        char **dirs = NULL;
        size_t n = 0;
        rc = zs_table_bucket_dirs (self, &dirs, &n, err, errlen);
        for (size_t i = 0; rc == 0 && i < n; i++)
            rc = s_scan_dir (self, dirs[i], &refs, min_age_ms, false, &out, err, errlen);
        zs_table_free_rels (&dirs, n);
    }
    s_strset_free (&refs);
    //  what a running or restorable job may still commit (table_pins.c)
    if (rc == 0)
        rc = zs_table_pins_spare (self, out.v, &out.n, held, err, errlen);
    if (rc != 0) {
        s_strset_free (&out);
        return rc;
    }
    s_strset_sort (&out);
    *paths_p = out.v;
    *n_p = out.n;
    return 0;
}

int
zs_table_orphans (zs_table_t *self, int64_t min_age_ms, char ***paths_p, size_t *n_p, char *err,
                  size_t errlen)
{
    return s_orphans (self, min_age_ms, paths_p, n_p, NULL, err, errlen);
}

int
zs_table_orphans_held (zs_table_t *self, size_t *held, char *err, size_t errlen)
{
    char **paths;
    size_t n;
    *held = 0;
    int rc = s_orphans (self, 0, &paths, &n, held, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++)
        free (paths[i]);
    if (rc == 0)
        free (paths);
    return rc;
}

//  Whether name, an entry of one of the table's directories, is a file of
//  the user whose tag (zs_table_user_tag) is given.
typedef bool (s_ours_fn) (const char *name, const char *tag);

//  A manifest or manifest list of the user, or the temp file of one.
static bool
s_users_manifest (const char *name, const char *tag)
{
    char prefix_m[32], prefix_l[40];
    snprintf (prefix_m, sizeof prefix_m, "manifest-%s-", tag);
    snprintf (prefix_l, sizeof prefix_l, "manifest-list-%s-", tag);
    const char *base = name[0] == '.' ? name + 1 : name;
    return strncmp (base, prefix_m, strlen (prefix_m)) == 0
           || strncmp (base, prefix_l, strlen (prefix_l)) == 0;
}

//  A snapshot's (or a LATEST/EARLIEST hint's) temp file left by a crash
//  between its write and its link or rename: tagged with the user
//  (zs_fs_*_tagged), so it is ours. A snapshot file itself never is.
static bool
s_users_snapshot_temp (const char *name, const char *tag)
{
    char pattern[32];
    snprintf (pattern, sizeof pattern, ".tmp-%s-", tag);
    bool temp = strncmp (name, ".snapshot-", 10) == 0 || strncmp (name, ".LATEST.tmp-", 12) == 0
                || strncmp (name, ".EARLIEST.tmp-", 14) == 0;
    return temp && strstr (name, pattern);
}

//  A compaction output of the user (table_compact.c names them).
static bool
s_users_compact_output (const char *name, const char *tag)
{
    char prefix[40];
    snprintf (prefix, sizeof prefix, "data-%s-compact-", tag);
    return strncmp (name, prefix, strlen (prefix)) == 0;
}

//  Whether directory dir holds a file ours says is the user's.
static bool
s_has_users (zs_table_t *self, const char *dir, s_ours_fn *ours, const char *user)
{
    char tag[9], path[ZS_PATH_MAX];
    zs_table_user_tag (user, tag);
    zs_table_file_path (self, path, sizeof path, dir);
    zs_io_entry_t *e;
    size_t n;
    char why[ZS_ERRLEN];
    bool any = false;
    if (zs_io_listing (path, &e, &n, why, sizeof why) != 0)
        return false;
    for (size_t i = 0; !any && i < n; i++)
        any = ours (e[i].name, tag);
    zs_io_listing_free (&e, n);
    return any;
}

//  Delete the files of directory dir that ours says are the user's, but
//  those refs (may be NULL) holds. How many, or -1 + err.
static int
s_delete_users (zs_table_t *self, const char *dir, s_ours_fn *ours, const char *user,
                const s_strset_t *refs, char *err, size_t errlen)
{
    char tag[9], path[ZS_PATH_MAX];
    zs_table_user_tag (user, tag);
    zs_table_file_path (self, path, sizeof path, dir);
    zs_io_entry_t *e;
    size_t n;
    if (zs_io_listing (path, &e, &n, err, errlen) != 0)
        return -1;
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ours (e[i].name, tag))
            continue;
        char rel[512], full[ZS_PATH_MAX];
        snprintf (rel, sizeof rel, "%s/%s", dir, e[i].name);
        if ((refs && s_strset_has (refs, rel))
            || zs_table_file_path (self, full, sizeof full, rel) != 0)
            continue;
        if (zs_io_unlink (full) != 0) {
            snprintf (err, errlen, "%s: unlink: %s", full, strerror (errno));
            count = -1;
            break;
        }
        zs_info ("Deleted uncommitted file %s of user %s", rel, user);
        count++;
    }
    zs_io_listing_free (&e, n);
    return count;
}

int
zs_table_clean_uncommitted_manifests (zs_table_t *self, const char *commit_user, char *err,
                                      size_t errlen)
{
    err[0] = '\0';
    //  Spare what ANY snapshot references, not only the latest: an older
    //  snapshot's base list is referenced by it alone.
    s_strset_t refs = {0};
    int rc = s_referenced (self, false, &refs, err, errlen);
    //  No age guard here, unlike orphans: the caller (the committer at
    //  start, before its first commit) knows no commit of this user is in
    //  flight, and temp files of the crashed commit go too.
    int manifests = rc != 0 ? -1
                            : s_delete_users (self, "manifest", s_users_manifest, commit_user,
                                              &refs, err, errlen);
    s_strset_free (&refs);
    if (manifests < 0)
        return -1;
    int temps =
        s_delete_users (self, "snapshot", s_users_snapshot_temp, commit_user, NULL, err, errlen);
    if (temps < 0)
        return -1;
    //  compaction outputs no snapshot took, in every bucket directory of
    //  every partition (data files: read every manifest only when there
    //  are some)
    char **dirs = NULL;
    size_t nd = 0;
    if (zs_table_bucket_dirs (self, &dirs, &nd, err, errlen) != 0)
        return -1;
    int outputs = 0;
    s_strset_t data = {0};
    bool loaded = false;
    for (size_t i = 0; i < nd && outputs >= 0; i++) {
        if (!s_has_users (self, dirs[i], s_users_compact_output, commit_user))
            continue;
        if (!loaded && s_referenced (self, true, &data, err, errlen) != 0) {
            outputs = -1;
            break;
        }
        loaded = true;
        int k =
            s_delete_users (self, dirs[i], s_users_compact_output, commit_user, &data, err, errlen);
        outputs = k < 0 ? -1 : outputs + k;
    }
    s_strset_free (&data);
    zs_table_free_rels (&dirs, nd);
    return outputs < 0 ? -1 : manifests + temps + outputs;
}

//  --------------------------------------------------------------------------
//  Verify

typedef struct {
    char *text;
    size_t len;
    int problems;
} s_report_t;

static void s_problem (s_report_t *r, char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 4, 5)));

static void
s_problem (s_report_t *r, char *err, size_t errlen, const char *fmt, ...)
{
    char line[ZS_ERRLEN * 2];
    va_list ap;
    va_start (ap, fmt);
    int n = vsnprintf (line, sizeof line, fmt, ap);
    va_end (ap);
    if (n >= (int) sizeof line)
        n = sizeof line - 1;
    //  err gets the first problem: callers that only log one line still
    //  see a concrete file and cause.
    if (r->problems++ == 0)
        snprintf (err, errlen, "%s", line);
    char *grown = realloc (r->text, r->len + (size_t) n + 2);
    if (!grown)
        return; //  the count and err still say something is wrong
    r->text = grown;
    memcpy (r->text + r->len, line, (size_t) n);
    r->len += (size_t) n;
    r->text[r->len++] = '\n';
    r->text[r->len] = '\0';
}

//  Read a hint file: 1 = got a valid id, 0 = absent, -1 = garbage.

static int
s_cmp_meta_path (const void *a, const void *b)
{
    return strcmp (((const zs_file_meta_t *) a)->path, ((const zs_file_meta_t *) b)->path);
}

//  A live file's columns are those of ITS schema (_SCHEMA_ID), by name and
//  type: an older schema's file is read by field id as the latest
//  (evolve.h), which must be possible too.
static void
s_verify_columns (zs_table_t *self, const zs_file_meta_t *f, const zs_schema_t *pq, int64_t snap,
                  s_report_t *r, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    zs_evolve_t plan;
    const zs_table_schema_t *own = zs_table_file_schema (self, f->schema_id, why, sizeof why);
    if (own && zs_evolve_check_file (pq, own, NULL, why, sizeof why) == 0
        && zs_evolve_plan (own, zs_schemas_latest (zs_table_schemas (self)), &plan, why, sizeof why)
               == 0)
        return;
    s_problem (r, err, errlen, "%s: schema %" PRId64 " (snapshot %" PRId64 "): %s", f->path,
               f->schema_id, snap, why);
}

//  One live file: a regular file of the recorded size and, for Parquet,
//  of the recorded row count (what count, scan and every engine rely on).
static void
s_verify_file (zs_table_t *self, const zs_file_meta_t *f, int64_t snap, s_report_t *r, char *err,
               size_t errlen)
{
    char path[ZS_PATH_MAX], why[ZS_ERRLEN];
    zs_table_file_path (self, path, sizeof path, f->path);
    zs_io_stat_t st;
    int rc = zs_io_stat (path, &st);
    if (rc != 0) {
        s_problem (r, err, errlen, "%s: %s (live in snapshot %" PRId64 ")", f->path,
                   rc == ZS_ENOENT ? "missing" : strerror (errno), snap);
        return;
    }
    if (!st.regular) {
        s_problem (r, err, errlen, "%s: not a regular file (live in snapshot %" PRId64 ")", f->path,
                   snap);
        return;
    }
    if (st.size != f->size) {
        s_problem (r, err, errlen,
                   "%s: size %" PRId64 ", recorded %" PRId64 " (snapshot %" PRId64 ")", f->path,
                   st.size, f->size, snap);
        return;
    }
    size_t len = strlen (f->path);
    if (len < 8 || strcmp (f->path + len - 8, ".parquet") != 0)
        return;
    zs_parquet_reader_t *pq = zs_parquet_reader_open (path, why, sizeof why);
    if (!pq) {
        s_problem (r, err, errlen, "%s: unreadable data file (snapshot %" PRId64 "): %s", f->path,
                   snap, why);
        return;
    }
    int64_t rows = zs_parquet_reader_num_rows (pq);
    s_verify_columns (self, f, zs_parquet_reader_schema (pq), snap, r, err, errlen);
    zs_parquet_reader_destroy (&pq);
    if (rows != f->rows)
        s_problem (r, err, errlen,
                   "%s: rows %" PRId64 " in the file, recorded %" PRId64 " (snapshot %" PRId64 ")",
                   f->path, rows, f->rows, snap);
}

//  The live files of the latest snapshot: each listed once (a file listed
//  twice is read twice: duplicated rows), each as recorded.
static void
s_verify_live (zs_table_t *self, int64_t latest, s_report_t *r, char *err, size_t errlen)
{
    zs_file_meta_t *files;
    size_t nf;
    char why[ZS_ERRLEN];
    if (zs_table_live_files (self, latest, &files, &nf, why, sizeof why) != 0)
        return; //  the cause was reported as an undecodable file
    qsort (files, nf, sizeof *files, s_cmp_meta_path);
    for (size_t i = 0; i < nf; i++) {
        size_t k = i;
        while (k + 1 < nf && strcmp (files[k + 1].path, files[i].path) == 0)
            k++;
        if (k > i)
            s_problem (r, err, errlen,
                       "%s: duplicate entry, listed %zu times among the live files of snapshot "
                       "%" PRId64,
                       files[i].path, k - i + 1, latest);
        s_verify_file (self, &files[i], latest, r, err, errlen);
        i = k;
    }
    free (files);
}

//  Data files in no snapshot present, at least min_age_ms old (0: any):
//  nothing reads them, and a job that is still writing has young ones (its
//  checkpoint in flight), which a caller on a live table skips by age.
static void
s_verify_orphans (zs_table_t *self, int64_t min_age_ms, s_report_t *r, char *err, size_t errlen)
{
    char **paths = NULL, why[ZS_ERRLEN];
    size_t n = 0;
    if (zs_table_orphans (self, min_age_ms, &paths, &n, why, sizeof why) != 0)
        return; //  an undecodable snapshot or manifest, reported already
    int64_t now = zs_clock_wall_ms ();
    for (size_t i = 0; i < n; i++) {
        if (zs_data_path_check (paths[i], why, sizeof why) == 0) {
            char path[ZS_PATH_MAX];
            zs_io_stat_t st;
            zs_table_file_path (self, path, sizeof path, paths[i]);
            int64_t age = zs_io_stat (path, &st) == 0 ? (now - st.mtime_ms) / 1000 : -1;
            s_problem (r, err, errlen,
                       "%s: orphan data file, in no snapshot (modified %" PRId64 " s ago)",
                       paths[i], age);
        }
        free (paths[i]);
    }
    free (paths);
}

//  One file a tag keeps: there, regular, of the recorded size (the rows
//  of a file also live in the latest snapshot were checked there).
static void
s_verify_tag_file (zs_table_t *self, const zs_tag_t *tag, const zs_file_meta_t *f, s_report_t *r,
                   char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    zs_table_file_path (self, path, sizeof path, f->path);
    zs_io_stat_t st;
    int rc = zs_io_stat (path, &st);
    if (rc != 0 || !st.regular || st.size != f->size)
        s_problem (r, err, errlen,
                   "%s: %s (kept by tag '%s', snapshot %" PRId64 ", recorded size %" PRId64 ")",
                   f->path, rc != 0 ? "missing" : "not as recorded", tag->name, tag->snap.id,
                   f->size);
}

//  Every tag (table_tag.c): its file decodes, its lists and manifests
//  decode, its data files are there. A tag whose files are gone cannot be
//  read by any engine.
static void
s_verify_tags (zs_table_t *self, s_report_t *r, char *err, size_t errlen)
{
    char dir[ZS_PATH_MAX], why[ZS_ERRLEN];
    zs_table_file_path (self, dir, sizeof dir, "tag");
    zs_io_entry_t *e;
    size_t n;
    if (zs_io_listing (dir, &e, &n, why, sizeof why) != 0)
        n = 0;
    for (size_t k = 0; k < n; k++) {
        const char *name = e[k].name;
        if (strncmp (name, "tag-", 4) != 0)
            continue;
        zs_tag_t tag;
        if (zs_table_read_tag (self, name + 4, &tag, why, sizeof why) != 0) {
            s_problem (r, err, errlen, "tag/%s: %s", name, why);
            continue;
        }
        zs_file_meta_t *files = NULL;
        size_t nf = 0;
        if (zs_table_snapshot_files (self, &tag.snap, &files, &nf, why, sizeof why) != 0) {
            s_problem (r, err, errlen, "tag/%s: %s (tag of snapshot %" PRId64 ")", name, why,
                       tag.snap.id);
            continue;
        }
        for (size_t i = 0; i < nf; i++)
            s_verify_tag_file (self, &tag, &files[i], r, err, errlen);
        free (files);
    }
    zs_io_listing_free (&e, n);
}

int
zs_table_verify (zs_table_t *self, int64_t orphan_min_age_ms, char **report, char *err,
                 size_t errlen)
{
    s_report_t r = {0};
    err[0] = '\0';
    int64_t *ids;
    size_t n;
    if (zs_table_snapshot_ids (self, &ids, &n, err, errlen) != 0) {
        s_problem (&r, err, errlen, "snapshot/: cannot list: %s", err);
        *report = r.text;
        return -1;
    }
    char why[ZS_ERRLEN];
    //  Hints: they may lag (written after the snapshot) but must not name a
    //  snapshot that does not exist.
    static const char *hints[] = {"snapshot/EARLIEST", "snapshot/LATEST"};
    int64_t range[2] = {n ? ids[0] : 0, n ? ids[n - 1] : 0};
    for (int h = 0; h < 2; h++) {
        int64_t hid = 0;
        int got = zs_table_read_hint (self, hints[h], &hid);
        if (got < 0)
            s_problem (&r, err, errlen, "%s: not a snapshot id", hints[h]);
        else if (got == 1 && !bsearch (&hid, ids, n, sizeof *ids, s_cmp_i64))
            s_problem (&r, err, errlen, "%s: names snapshot %" PRId64 " which does not exist",
                       hints[h], hid);
        else if (got == 1 && h == 0)
            range[0] = hid;
    }
    //  Ids are contiguous from the first to the last: a hole means a
    //  snapshot was deleted by hand (expiry removes from the oldest end).
    for (size_t i = 1; i < n; i++)
        for (int64_t g = ids[i - 1] + 1; g < ids[i]; g++)
            s_problem (&r, err, errlen,
                       "snapshot/snapshot-%" PRId64 ": missing (gap between %" PRId64
                       " and %" PRId64 ")",
                       g, range[0], range[1]);

    //  Every snapshot, every list and manifest it references decodes. A
    //  list or manifest shared by many snapshots is reported once.
    s_strset_t seen = {0};
    for (size_t i = 0; i < n; i++) {
        //  below a valid EARLIEST hint: expiring (table_expire.c), its files
        //  may be gone already
        if (ids[i] < range[0])
            continue;
        zs_snapshot_t snap;
        int rc = zs_table_read_snapshot (self, ids[i], &snap, why, sizeof why);
        if (rc == ZS_ENOENT)
            continue;
        if (rc != 0) {
            s_problem (&r, err, errlen, "%s", why);
            continue;
        }
        const char *lists[2] = {snap.base_manifest_list, snap.delta_manifest_list};
        for (int l = 0; l < 2; l++) {
            if (s_strset_has (&seen, lists[l]))
                continue;
            s_strset_insert (&seen, lists[l]);
            zs_manifest_meta_t *metas = NULL;
            size_t nm = 0;
            if (zs_table_read_manifest_list (self, lists[l], &metas, &nm, why, sizeof why) != 0) {
                s_problem (&r, err, errlen, "%s (referenced by snapshot %" PRId64 ")", why,
                           snap.id);
                continue;
            }
            for (size_t m = 0; m < nm; m++) {
                if (s_strset_has (&seen, metas[m].file))
                    continue;
                s_strset_insert (&seen, metas[m].file);
                zs_manifest_entry_t *entries;
                size_t ne;
                if (zs_table_read_manifest (self, metas[m].file, &entries, &ne, why, sizeof why)
                    != 0)
                    s_problem (&r, err, errlen, "%s (referenced by snapshot %" PRId64 ")", why,
                               snap.id);
                else
                    free (entries);
            }
            free (metas);
        }
    }
    s_strset_free (&seen);
    s_verify_tags (self, &r, err, errlen);

    if (n)
        s_verify_live (self, ids[n - 1], &r, err, errlen);
    //  A table with no snapshot can hold orphans too: the data files of a
    //  job that failed before its first commit.
    s_verify_orphans (self, orphan_min_age_ms, &r, err, errlen);
    free (ids);
    *report = r.text;
    return r.problems ? -1 : 0;
}

//  --------------------------------------------------------------------------
//  Deleting a tag (with what only it kept: orphans once it is gone)

int
zs_table_delete_tag (zs_table_t *self, const char *name, zs_rolled_back_t *out, char *err,
                     size_t errlen)
{
    memset (out, 0, sizeof *out);
    zs_tag_t tag;
    int rc = zs_table_read_tag (self, name, &tag, err, errlen);
    if (rc != 0)
        return rc;
    //  the files it keeps, read before its file goes (as Paimon's deleteTag)
    zhash_t *mine = zhash_new ();
    rc = zs_table_tag_files_of (self, &tag, true, mine, err, errlen);
    char path[ZS_PATH_MAX];
    zs_table_tag_path (self, name, path, sizeof path);
    if (zs_io_unlink (path) != 0) {
        snprintf (err, errlen, "%s: %s", path, strerror (errno));
        zhash_destroy (&mine);
        return -1;
    }
    zs_info ("Deleted tag '%s' of snapshot %" PRId64 " of table %s", name, tag.snap.id, self->path);
    //  Then what only it kept: those of its files no root references now
    //  (a snapshot present, another tag). The orphan listing is the one
    //  remove-orphan-files uses, with no age margin: the tag's files were
    //  committed long ago, none is a running job's in flight. When its
    //  files cannot all be read the rest is left to remove-orphan-files.
    char **orphans = NULL;
    size_t n = 0;
    if (rc == 0 && zs_table_orphans (self, 0, &orphans, &n, err, errlen) == 0)
        for (size_t i = 0; i < n; i++) {
            char full[ZS_PATH_MAX];
            if (zhash_lookup (mine, orphans[i])
                && zs_table_file_path (self, full, sizeof full, orphans[i]) == 0
                && zs_io_remove (full) == 0)
                (*(strncmp (orphans[i], "manifest/", 9) == 0 ? &out->manifests
                                                             : &out->data_files))++;
            free (orphans[i]);
        }
    free (orphans);
    zhash_destroy (&mine);
    return 0;
}
