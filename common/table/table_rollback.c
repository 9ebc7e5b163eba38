/*  table_rollback.c - Paimon's rollback_to (zs_table_rollback in table.h):
    the table as of snapshot N again.

    Refused while a zsink committer holds its lock on the table
    (<table>/.locks/committer-<job>): a running job would commit on top of
    snapshots that are going away. Another engine's committer cannot be
    seen; stop it first (as Paimon's procedure asks).

    Order: the snapshot files from the latest down to N+1 (at each step the
    table is whole, its latest one lower), the LATEST hint, then the files
    only those snapshots added: the data files their deltas added and the
    manifests and lists that snapshot N does not name (created after N, no
    snapshot at or below N can name them). A crash in the middle leaves
    orphans for remove-orphan-files, never a broken snapshot.

    Tags (table_tag.c): those of snapshots after N go with them, first
    (Paimon's RollbackHelper.cleanTags); the others are roots whose lists
    and manifests are kept. Rolling back to a tag whose snapshot is
    expired first restores snapshot-N from the tag and moves EARLIEST to
    it (Paimon's createSnapshotFileIfNeeded, which Paimon does last): then
    as above, the table readable at every step.

    A dry run (zs_table_rollback_dry_run, table_dryrun.h) walks the same
    steps and counts what each would remove, removing and writing nothing.
*/
#include "fs.h"
#include "io.h"
#include "log.h"
#include "table_dryrun.h"
#include "table_priv.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

//  A committer lock held on the table: its name into holder. One that
//  cannot be asked counts as held: a rollback under a live job would lose
//  its commits.
static bool
s_locked (zs_table_t *self, char *holder, size_t len)
{
    char dir[ZS_PATH_MAX], err[ZS_ERRLEN];
    zs_table_file_path (self, dir, sizeof dir, ".locks");
    zs_io_entry_t *e;
    size_t n;
    int rc = zs_io_listing (dir, &e, &n, err, sizeof err);
    if (rc != 0) {
        if (rc != ZS_ENOENT)
            snprintf (holder, len, "%s", err);
        return rc != ZS_ENOENT;
    }
    bool held = false;
    for (size_t i = 0; i < n && !held; i++) {
        if (strncmp (e[i].name, "committer-", 10) != 0)
            continue;
        char path[ZS_PATH_MAX + 256], who[128];
        snprintf (path, sizeof path, "%s/%s", dir, e[i].name);
        if (zs_io_lock_probe (path, &held, who, sizeof who, err, sizeof err) != 0)
            held = true;
        if (held)
            snprintf (holder, len, "%s", e[i].name);
    }
    zs_io_listing_free (&e, n);
    return held;
}

//  What snapshot s added that snapshot keep does not name: its delta's
//  data files, and its lists and manifests outside keep, into set.
static void
s_note_added (zs_table_t *self, const zs_snapshot_t *s, zhash_t *keep, zhash_t *set)
{
    const char *lists[] = {s->base_manifest_list, s->delta_manifest_list};
    for (int l = 0; l < 2; l++) {
        if (!lists[l][0] || zhash_lookup (keep, lists[l]))
            continue;
        zhash_update (set, lists[l], (void *) 1);
        zs_manifest_meta_t *metas = NULL;
        size_t nm = 0;
        char why[ZS_ERRLEN];
        if (zs_table_read_manifest_list (self, lists[l], &metas, &nm, why, sizeof why) != 0)
            continue;
        for (size_t i = 0; i < nm; i++) {
            if (zhash_lookup (keep, metas[i].file))
                continue;
            zhash_update (set, metas[i].file, (void *) 1);
            if (l == 0)
                continue; //  the base's data files are older snapshots' business
            zs_manifest_entry_t *entries = NULL;
            size_t ne = 0;
            if (zs_table_read_manifest (self, metas[i].file, &entries, &ne, why, sizeof why) != 0)
                continue;
            char rel[300];
            for (size_t e = 0; e < ne; e++)
                if (entries[e].add) {
                    snprintf (rel, sizeof rel, "/%s", entries[e].file.path);
                    zhash_update (set, rel, (void *) 1); //  "/bucket-…": a data file
                }
            free (entries);
        }
        free (metas);
    }
}

static int s_tags_after (zs_table_t *self, int64_t to, bool dry, zhash_t *keep, char *err,
                         size_t errlen);
static int s_restore (zs_table_t *self, const char *tag_name, int64_t id, char *err, size_t errlen);

//  Remove path, or in a dry run see that it is there: 0 or an error.
static int
s_remove (const char *path, bool dry)
{
    zs_io_stat_t st;
    if (dry)
        return zs_io_stat (path, &st) == 0 ? 0 : ZS_ENOENT;
    return zs_io_remove (path);
}

//  Rollback to snapshot to; with tag_name, restored from that tag when it
//  is expired. dry: count only.
static int
s_rollback (zs_table_t *self, int64_t to, const char *tag_name, bool dry, zs_rolled_back_t *out,
            char *err, size_t errlen)
{
    memset (out, 0, sizeof *out);
    char holder[300];
    if (s_locked (self, holder, sizeof holder)) {
        snprintf (err, errlen,
                  "table %s: a job is committing to it (lock .locks/%s is held); stop it first",
                  self->path, holder);
        return ZS_EREFUSED;
    }
    zs_snapshot_t latest, target;
    int rc = zs_table_latest_snapshot (self, &latest, err, errlen);
    if (rc == 0 && to > latest.id) {
        snprintf (err, errlen, "table %s: snapshot %" PRId64 " is past the latest, %" PRId64,
                  self->path, to, latest.id);
        return ZS_EREFUSED;
    }
    if (rc == 0 && (rc = zs_table_read_snapshot (self, to, &target, err, errlen)) == ZS_ENOENT
        && tag_name) {
        //  expired: Paimon restores it from the tag
        zs_tag_t tag;
        rc = zs_table_read_tag (self, tag_name, &tag, err, errlen);
        if (rc == 0) {
            target = tag.snap;
            rc = dry ? 0 : s_restore (self, tag_name, to, err, errlen);
        }
    }
    if (rc == ZS_ENOENT)
        snprintf (err, errlen, "table %s has no snapshot %" PRId64 " (expired, or never made)",
                  self->path, to);
    if (rc != 0)
        return rc;
    zhash_t *keep = zhash_new (), *gone = zhash_new ();
    rc = s_tags_after (self, to, dry, keep, err, errlen);
    zhash_update (keep, target.base_manifest_list, (void *) 1);
    zhash_update (keep, target.delta_manifest_list, (void *) 1);
    zs_manifest_meta_t *metas = NULL;
    size_t nm = 0;
    if (rc == 0)
        rc = zs_table_snapshot_manifests (self, &target, &metas, &nm, err, errlen);
    for (size_t i = 0; rc == 0 && i < nm; i++)
        zhash_update (keep, metas[i].file, (void *) 1);
    free (metas);
    for (int64_t id = latest.id; rc == 0 && id > to; id--) {
        zs_snapshot_t s;
        char why[ZS_ERRLEN], rel[64];
        if (zs_table_read_snapshot (self, id, &s, why, sizeof why) == 0)
            s_note_added (self, &s, keep, gone);
        snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, id);
        char path[ZS_PATH_MAX];
        zs_table_file_path (self, path, sizeof path, rel);
        int removed = s_remove (path, dry);
        if (removed == 0)
            out->snapshots++;
        else if (removed != ZS_ENOENT) {
            snprintf (err, errlen, "%s: %s", path, strerror (errno));
            rc = -1;
        }
    }
    if (rc == 0 && !dry) {
        char path[ZS_PATH_MAX], text[32];
        int len = snprintf (text, sizeof text, "%" PRId64, to);
        zs_table_file_path (self, path, sizeof path, "snapshot/LATEST");
        rc = zs_io_write_atomic (path, text, (size_t) len, err, errlen);
    }
    for (const char *v = zhash_first (gone); rc == 0 && v; v = zhash_next (gone)) {
        const char *key = zhash_cursor (gone);
        char rel[320], path[ZS_PATH_MAX];
        bool data = key[0] == '/';
        snprintf (rel, sizeof rel, data ? "%s" : "manifest/%s", data ? key + 1 : key);
        zs_table_file_path (self, path, sizeof path, rel);
        if (s_remove (path, dry) == 0)
            (*(data ? &out->data_files : &out->manifests))++;
    }
    zhash_destroy (&keep);
    zhash_destroy (&gone);
    //  the live set is of a snapshot that is gone
    zhash_destroy (&self->live);
    zhash_destroy (&self->retired);
    self->live_id = -1;
    if (rc == 0 && !dry)
        zs_info ("Rolled table %s back to snapshot %" PRId64 ": %" PRId64 " snapshots, %" PRId64
                 " manifests and lists, %" PRId64 " data files removed",
                 self->path, to, out->snapshots, out->manifests, out->data_files);
    return rc;
}

//  The tags of snapshots after to: removed (Paimon's RollbackHelper
//  cleanTags), their files with the snapshots' below. Those left are
//  roots: their lists and manifests into keep.
static int
s_tags_after (zs_table_t *self, int64_t to, bool dry, zhash_t *keep, char *err, size_t errlen)
{
    zs_tag_t *tags;
    size_t n;
    int rc = zs_table_tags (self, &tags, &n, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (tags[i].snap.id <= to || dry)
            continue;
        char path[ZS_PATH_MAX];
        zs_table_tag_path (self, tags[i].name, path, sizeof path);
        if (zs_io_unlink (path) != 0) {
            snprintf (err, errlen, "%s: %s", path, strerror (errno));
            rc = -1;
        } else
            zs_info ("Removed tag '%s' of snapshot %" PRId64 " (after %" PRId64 ")", tags[i].name,
                     tags[i].snap.id, to);
    }
    free (tags);
    zhash_t *kept = zhash_new ();
    if (rc == 0)
        rc = zs_table_tag_files_upto (self, to, false, kept, err, errlen);
    for (const char *v = zhash_first (kept); v; v = zhash_next (kept))
        zhash_update (keep, zhash_cursor (kept) + strlen ("manifest/"), (void *) 1);
    zhash_destroy (&kept);
    return rc;
}

//  A tag's text as a snapshot file: Paimon's trimToSnapshot drops the two
//  Tag fields. malloc'd, or NULL + err.
static char *
s_trim_tag (const char *text, size_t *len, char *err, size_t errlen)
{
    json_t *root = json_loads (text, 0, NULL);
    if (!json_is_object (root)) {
        json_decref (root);
        snprintf (err, errlen, "tag file is not a JSON object");
        return NULL;
    }
    json_object_del (root, "tagCreateTime");
    json_object_del (root, "tagTimeRetained");
    char *out = json_dumps (root, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
    json_decref (root);
    if (!out)
        snprintf (err, errlen, "out of memory");
    *len = out ? strlen (out) : 0;
    return out;
}

//  Restore an expired tagged snapshot (Paimon's createSnapshotFileIfNeeded):
//  snapshot-<id> from the tag, then EARLIEST := id. Both before anything is
//  removed: the table stays readable at every step (its latest snapshot is
//  the newest one until they are removed).
static int
s_restore (zs_table_t *self, const char *tag_name, int64_t id, char *err, size_t errlen)
{
    char rel[300], path[ZS_PATH_MAX], text[32];
    snprintf (rel, sizeof rel, "tag/tag-%s", tag_name);
    zs_table_file_path (self, path, sizeof path, rel);
    size_t len = 0;
    char *raw = zs_io_read_file (path, ZS_META_MAX, NULL, err, errlen);
    char *snap = raw ? s_trim_tag (raw, &len, err, errlen) : NULL;
    free (raw);
    if (!snap)
        return -1;
    snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, id);
    zs_table_file_path (self, path, sizeof path, rel);
    int rc = zs_io_create_exclusive (path, snap, len, err, errlen);
    free (snap);
    if (rc != 0 && rc != ZS_EUNSURE)
        return -1;
    int n = snprintf (text, sizeof text, "%" PRId64, id);
    zs_table_file_path (self, path, sizeof path, "snapshot/EARLIEST");
    return zs_io_write_atomic (path, text, (size_t) n, err, errlen);
}

int
zs_table_rollback (zs_table_t *self, int64_t to, zs_rolled_back_t *out, char *err, size_t errlen)
{
    return s_rollback (self, to, NULL, false, out, err, errlen);
}

int
zs_table_rollback_to_tag (zs_table_t *self, const char *name, zs_rolled_back_t *out, char *err,
                          size_t errlen)
{
    memset (out, 0, sizeof *out);
    zs_tag_t tag;
    int rc = zs_table_read_tag (self, name, &tag, err, errlen);
    if (rc != 0)
        return rc;
    return s_rollback (self, tag.snap.id, name, false, out, err, errlen);
}

int
zs_table_rollback_dry_run (zs_table_t *self, int64_t to, const char *tag_name,
                           zs_rolled_back_t *out, char *err, size_t errlen)
{
    memset (out, 0, sizeof *out);
    zs_tag_t tag;
    int rc = tag_name ? zs_table_read_tag (self, tag_name, &tag, err, errlen) : 0;
    if (rc != 0)
        return rc;
    return s_rollback (self, tag_name ? tag.snap.id : to, tag_name, true, out, err, errlen);
}
