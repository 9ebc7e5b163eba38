/*  table_expire.c - snapshot expiration (zs_table_expire in table.h), as
    Paimon's ExpireSnapshotsImpl does it, with one difference of order.

    Which snapshots go: with L the latest and E the earliest, everything
    below L - snapshot.num-retained.max + 1, and from there up to (not
    including) L - snapshot.num-retained.min + 1 each snapshot older than
    snapshot.time-retained, stopping at the first younger one; at most
    snapshot.expire.limit per call. Never at or past:
      - a consumer's next snapshot (consumer/consumer-<id>, Paimon's
        consumer-id reads);
      - the newest snapshot zsink made: it carries the committed identifiers
        of every user (docs/decisions.md), which filterCommitted needs when
        the snapshots above it are another writer's.
    Tags (table_tag.c) are roots: as Paimon's ExpireSnapshotsImpl skips the
    data files of tagged snapshots and the manifests tags name, nothing
    a tag's snapshot needs goes (steps 2 and 3 skip zs_table_tag_files).
    The tags are read after step 1, so a tag made meanwhile is either seen
    here or taken back by create_tag (table_tag.c, invariant 2).

    What goes, for the snapshots [E, end):
      1. EARLIEST := end, first. From then on the snapshots below it are
         expiring: `zsink table verify` does not ask their files to exist,
         and a crash anywhere below leaves a table whose retained snapshots
         are all whole. (Paimon writes the hint last.)
      2. the data files that a DELETE entry in the delta manifests of
         snapshots E+1..end removed: each was live only in snapshots below
         the one that deleted it; but those a tag keeps;
      3. the manifest lists of [E, end) and the manifests they name, except
         those snapshot `end` names (a manifest, once merged away, is named
         by no later snapshot) and those a tag names;
      4. the snapshot files, oldest first.
    Every step tolerates a file already gone, so an expiry cut short by a
    crash is finished by the next, which starts from the oldest snapshot
    file still there.
*/
#include "failpoint.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "table_priv.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  The oldest snapshot file present (0: none): probing down from the
//  EARLIEST hint (cheap however many snapshots there are), else listing.
static int
s_oldest (zs_table_t *self, int64_t *oldest, char *err, size_t errlen)
{
    int64_t hint = 0;
    if (zs_table_read_hint (self, "snapshot/EARLIEST", &hint) == 1
        && zs_table_snapshot_exists (self, hint)) {
        while (hint > 1 && zs_table_snapshot_exists (self, hint - 1))
            hint--;
        *oldest = hint;
        return 0;
    }
    int64_t latest;
    return zs_table_snapshot_range (self, oldest, &latest, err, errlen);
}

//  Does dir (relative to the table) hold any file whose name starts with
//  prefix? The lowest "nextSnapshot" of those JSON files into *min_next
//  when asked (consumers).
static bool
s_any (zs_table_t *self, const char *rel, const char *prefix, int64_t *min_next)
{
    char dir[ZS_PATH_MAX];
    zs_table_file_path (self, dir, sizeof dir, rel);
    zs_io_entry_t *e;
    size_t n;
    char why[ZS_ERRLEN];
    if (zs_io_listing (dir, &e, &n, why, sizeof why) != 0)
        return false;
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (strncmp (e[i].name, prefix, strlen (prefix)) != 0)
            continue;
        any = true;
        if (!min_next)
            continue;
        char path[ZS_PATH_MAX + 256];
        snprintf (path, sizeof path, "%s/%s", dir, e[i].name);
        char *text = zs_io_read_file (path, 4096, NULL, why, sizeof why);
        const char *at = text ? strstr (text, "\"nextSnapshot\"") : NULL;
        const char *colon = at ? strchr (at, ':') : NULL;
        long long next = colon ? strtoll (colon + 1, NULL, 10) : 0;
        //  unreadable: protect everything rather than guess
        if (next <= 0)
            next = 1;
        if (*min_next == 0 || next < *min_next)
            *min_next = next;
        free (text);
    }
    zs_io_listing_free (&e, n);
    return any;
}

//  The newest snapshot at or below latest that zsink made (it carries
//  committedIdentifiers), 0 when none is left.
static int64_t
s_newest_carrier (zs_table_t *self, int64_t oldest, int64_t latest)
{
    for (int64_t id = latest; id >= oldest && id > 0; id--) {
        zs_snapshot_t s;
        char why[ZS_ERRLEN];
        if (zs_table_read_snapshot (self, id, &s, why, sizeof why) == 0 && s.has_user_ids)
            return id;
    }
    return 0;
}

//  The first snapshot to keep, by the rules at the top.
static int64_t
s_plan_end (zs_table_t *self, const zs_expire_t *req, int64_t oldest, int64_t latest)
{
    int retain_min = req->retain_min < 1 ? 1 : req->retain_min;
    int64_t retain_max = req->retain_max < retain_min ? retain_min : req->retain_max;
    int64_t keep_from = latest - retain_max + 1;
    if (keep_from < oldest)
        keep_from = oldest;
    int64_t max_exclusive = latest - retain_min + 1;
    int64_t next = 0;
    if (s_any (self, "consumer", "consumer-", &next) && next < max_exclusive)
        max_exclusive = next;
    int64_t carrier = s_newest_carrier (self, oldest, latest);
    if (carrier && carrier < max_exclusive)
        max_exclusive = carrier;
    int64_t end = keep_from > max_exclusive ? max_exclusive : keep_from;
    for (int64_t id = end; id < max_exclusive; id++) {
        zs_snapshot_t s;
        char why[ZS_ERRLEN];
        int rc = zs_table_read_snapshot (self, id, &s, why, sizeof why);
        if (rc == 0 && s.time_millis >= req->older_than_ms)
            break;
        end = id + 1;
    }
    if (req->max_deletes > 0 && end > oldest + req->max_deletes)
        end = oldest + req->max_deletes;
    return end;
}

//  Unlink "<table>/<rel>", counting it when it was there.
static void
s_remove (zs_table_t *self, const char *rel, bool dry_run, int64_t *count)
{
    char path[ZS_PATH_MAX];
    if (zs_table_file_path (self, path, sizeof path, rel) != 0)
        return;
    zs_io_stat_t st;
    int rc = dry_run ? zs_io_stat (path, &st) : zs_io_remove (path);
    if (rc == 0)
        (*count)++;
    else if (!dry_run && rc != ZS_ENOENT)
        zs_warn ("cannot remove %s: %s", path, strerror (errno));
}

//  Step 2: the data files the delta of snapshot id deleted.
static void
s_remove_deleted_files (zs_table_t *self, int64_t id, zhash_t *tagged, bool dry_run, int64_t *count)
{
    zs_snapshot_t s;
    char why[ZS_ERRLEN];
    zs_manifest_meta_t *metas = NULL;
    size_t nm = 0;
    if (zs_table_read_snapshot (self, id, &s, why, sizeof why) != 0
        || zs_table_read_manifest_list (self, s.delta_manifest_list, &metas, &nm, why, sizeof why)
               != 0)
        return; //  gone already: an earlier expiry got this far
    for (size_t i = 0; i < nm; i++) {
        if (metas[i].deleted_files == 0)
            continue;
        zs_manifest_entry_t *entries = NULL;
        size_t ne = 0;
        if (zs_table_read_manifest (self, metas[i].file, &entries, &ne, why, sizeof why) != 0)
            continue;
        for (size_t j = 0; j < ne; j++)
            if (!entries[j].add && !zhash_lookup (tagged, entries[j].file.path)) {
                s_remove (self, entries[j].file.path, dry_run, count);
                if (!dry_run)
                    zs_table_forget_retired (self, entries[j].file.path);
            }
        free (entries);
    }
    free (metas);
}

//  The manifest lists of snap and the manifests they name, into set.
static void
s_note_meta (zs_table_t *self, const zs_snapshot_t *snap, zhash_t *set)
{
    const char *lists[] = {snap->base_manifest_list, snap->delta_manifest_list,
                           snap->changelog_manifest_list};
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
        if (!lists[l][0])
            continue;
        zhash_update (set, lists[l], (void *) 1);
        zs_manifest_meta_t *metas = NULL;
        size_t nm = 0;
        char why[ZS_ERRLEN];
        if (zs_table_read_manifest_list (self, lists[l], &metas, &nm, why, sizeof why) != 0)
            continue;
        for (size_t i = 0; i < nm; i++)
            zhash_update (set, metas[i].file, (void *) 1);
        free (metas);
    }
}

//  Steps 3 and 4 for snapshot id: its metadata files that keep does not
//  name, then the snapshot file itself.
static void
s_remove_snapshot (zs_table_t *self, int64_t id, zhash_t *keep, const zs_expire_t *req,
                   zs_expired_t *out)
{
    zs_snapshot_t s;
    char why[ZS_ERRLEN], rel[300];
    if (zs_table_read_snapshot (self, id, &s, why, sizeof why) != 0)
        return;
    zhash_t *mine = zhash_new ();
    s_note_meta (self, &s, mine);
    for (const char *name = zhash_first (mine); name; name = zhash_next (mine)) {
        const char *key = zhash_cursor (mine);
        if (zhash_lookup (keep, key))
            continue;
        snprintf (rel, sizeof rel, "manifest/%s", key);
        s_remove (self, rel, req->dry_run, &out->manifests);
        //  shared by the next expired snapshot too: once is enough
        zhash_update (keep, key, (void *) 1);
    }
    zhash_destroy (&mine);
    snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, id);
    s_remove (self, rel, req->dry_run, &out->snapshots);
}

//  The lists and manifests the tags name ("manifest/<name>" in tagged)
//  into keep, by name.
static void
s_keep_tagged (zhash_t *tagged, zhash_t *keep)
{
    for (const char *v = zhash_first (tagged); v; v = zhash_next (tagged)) {
        const char *key = zhash_cursor (tagged);
        if (strncmp (key, "manifest/", 9) == 0)
            zhash_update (keep, key + 9, (void *) 1);
    }
}

int
zs_table_expire (zs_table_t *self, const zs_expire_t *req, zs_expired_t *out, char *err,
                 size_t errlen)
{
    memset (out, 0, sizeof *out);
    int64_t oldest = 0, latest = 0;
    zs_snapshot_t last;
    int rc = zs_table_latest_snapshot (self, &last, err, errlen);
    if (rc == ZS_ENOENT)
        return 0;
    if (rc != 0 || s_oldest (self, &oldest, err, errlen) != 0)
        return -1;
    latest = last.id;
    int64_t end = s_plan_end (self, req, oldest, latest);
    out->begin = oldest;
    out->end = end;
    if (end <= oldest)
        return 0;
    zs_snapshot_t keep_snap;
    if (zs_table_read_snapshot (self, end, &keep_snap, err, errlen) != 0)
        return -1;
    //  1. the hint first: below it, expiring
    char path[ZS_PATH_MAX], text[32];
    int len = snprintf (text, sizeof text, "%" PRId64, end);
    zs_table_file_path (self, path, sizeof path, "snapshot/EARLIEST");
    char tag[9] = "";
    if (req->user)
        zs_table_user_tag (req->user, tag);
    if (!req->dry_run
        && (req->user ? zs_io_write_atomic_tagged (path, tag, text, (size_t) len, err, errlen)
                      : zs_io_write_atomic (path, text, (size_t) len, err, errlen))
               != 0)
        return -1;
    //  what the tags keep, read after the hint (table_tag.c, invariant 2)
    zhash_t *tagged = zhash_new ();
    if (zs_table_tag_files (self, true, tagged, err, errlen) != 0) {
        zhash_destroy (&tagged);
        return -1;
    }
    //  2. data files, 3. metadata, 4. snapshots
    for (int64_t id = oldest + 1; id <= end; id++)
        s_remove_deleted_files (self, id, tagged, req->dry_run, &out->data_files);
    if (!req->dry_run && zs_failpoint ("committer.mid-expire") == -1) {
        snprintf (err, errlen, "%s: injected error in the middle of an expiry", self->path);
        zhash_destroy (&tagged);
        return -1;
    }
    zhash_t *keep = zhash_new ();
    s_note_meta (self, &keep_snap, keep);
    s_keep_tagged (tagged, keep);
    zhash_destroy (&tagged);
    for (int64_t id = oldest; id < end; id++)
        s_remove_snapshot (self, id, keep, req, out);
    zhash_destroy (&keep);
    zs_info ("%s snapshots %" PRId64 "..%" PRId64 " of table %s: %" PRId64 " snapshot files, "
             "%" PRId64 " manifests and lists, %" PRId64 " data files",
             req->dry_run ? "Would expire" : "Expired", oldest, end - 1, self->path, out->snapshots,
             out->manifests, out->data_files);
    return 0;
}

int
zs_table_expire_by_options (zs_table_t *self, const char *user, zs_expired_t *out, char *err,
                            size_t errlen)
{
    const zs_table_opts_t *o = zs_table_opts (self);
    zs_expire_t req = {.retain_min = o->retain_min,
                       .retain_max = o->retain_max,
                       .older_than_ms = zs_clock_wall_ms () - o->time_retained_ms,
                       .max_deletes = o->expire_limit,
                       .user = user};
    return zs_table_expire (self, &req, out, err, errlen);
}
