/*  table_read.c - the read side of the table store: snapshots (by id,
    the latest, the hints, who committed what), manifest lists and
    manifests, the live files of a snapshot, and the bucket directories.
    Nothing here writes: `zsink table …`, the commit and the maintenance
    all read through it.

    Snapshot files are the truth, LATEST and EARLIEST hints only (table.h,
    invariant 1): a hint that names no snapshot, or none at all, costs a
    listing of snapshot/, never a wrong answer.
*/
#include "log.h"
#include "manifest.h"
#include "snapshot.h"
#include "table_priv.h"
#include <czmq.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------------
//  Snapshots

//  Ids of every snapshot file present, ascending. 0 or -1 + err.
int
zs_table_snapshot_ids (zs_table_t *self, int64_t **ids_p, size_t *n_p, char *err, size_t errlen)
{
    char dir[ZS_PATH_MAX];
    zs_table_file_path (self, dir, sizeof dir, "snapshot");
    //  The directory listing, not LATEST, is the truth (invariant 1): the
    //  hint is written after the snapshot and lags behind after a crash.
    int rc = zs_io_list_numbered (dir, "snapshot-", ids_p, n_p, err, errlen);
    return rc == 0 ? 0 : -1;
}

int
zs_table_read_snapshot (zs_table_t *self, int64_t id, zs_snapshot_t *out, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    char rel[64];
    snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, id);
    zs_table_file_path (self, path, sizeof path, rel);
    char why[ZS_ERRLEN];
    char *text = zs_io_read_file (path, ZS_META_MAX, NULL, why, sizeof why);
    if (!text) {
        snprintf (err, errlen, "%s", why);
        return errno == ENOENT ? ZS_ENOENT : -1;
    }
    zs_snapshot_t snap;
    int rc = zs_snapshot_decode (text, &snap, why, sizeof why);
    free (text);
    if (rc != 0) {
        snprintf (err, errlen, "%s: corrupt snapshot: %s", path, why);
        return ZS_ECORRUPT;
    }
    //  The name is the truth of the id; a file whose content disagrees was
    //  copied or damaged.
    if (snap.id != id) {
        snprintf (err, errlen, "%s: corrupt snapshot: id field is %" PRId64, path, snap.id);
        return ZS_ECORRUPT;
    }
    *out = snap;
    return 0;
}

int
zs_table_snapshot_range (zs_table_t *self, int64_t *earliest, int64_t *latest, char *err,
                         size_t errlen)
{
    int64_t *ids;
    size_t n;
    if (zs_table_snapshot_ids (self, &ids, &n, err, errlen) != 0)
        return -1;
    *earliest = n ? ids[0] : 0;
    *latest = n ? ids[n - 1] : 0;
    free (ids);
    return 0;
}

bool
zs_table_snapshot_exists (zs_table_t *self, int64_t id)
{
    char rel[64], path[ZS_PATH_MAX];
    snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, id);
    if (zs_table_file_path (self, path, sizeof path, rel) != 0)
        return false;
    zs_io_stat_t st;
    return zs_io_stat (path, &st) == 0;
}

//  Latest snapshot id (0: none). From the LATEST hint when it names a
//  snapshot that exists, probing forward from it: the hint is written after
//  its snapshot and lags behind after a crash, but snapshot ids have no
//  gaps (each is created as latest + 1), so the first missing id ends the
//  probe. Without a usable hint, the directory listing decides. This keeps
//  a commit's cost flat however many snapshots the table has (Paimon reads
//  its LATEST hint the same way).
int
zs_table_read_hint (zs_table_t *self, const char *rel, int64_t *id)
{
    char path[ZS_PATH_MAX], why[ZS_ERRLEN];
    zs_table_file_path (self, path, sizeof path, rel);
    size_t len = 0;
    char *text = zs_io_read_file (path, 64, &len, why, sizeof why);
    if (!text)
        return errno == ENOENT ? 0 : -1;
    if (len == 0) {
        //  LATEST is not fsynced (s_write_hints): a crash may leave it
        //  empty, which Paimon and pypaimon read as no hint, as we do
        free (text);
        return 0;
    }
    char *end;
    errno = 0;
    long long v = strtoll (text, &end, 10);
    bool ok = end != text && !errno && v > 0 && (*end == '\0' || !strcmp (end, "\n"));
    free (text);
    *id = v;
    return ok ? 1 : -1;
}

static int
s_latest_id (zs_table_t *self, int64_t *latest, char *err, size_t errlen)
{
    int64_t hint = 0;
    if (zs_table_read_hint (self, "snapshot/LATEST", &hint) == 1
        && zs_table_snapshot_exists (self, hint)) {
        while (zs_table_snapshot_exists (self, hint + 1))
            hint++;
        *latest = hint;
        return 0;
    }
    int64_t earliest;
    return zs_table_snapshot_range (self, &earliest, latest, err, errlen);
}

int
zs_table_latest_snapshot (zs_table_t *self, zs_snapshot_t *out, char *err, size_t errlen)
{
    int64_t latest;
    if (s_latest_id (self, &latest, err, errlen) != 0)
        return -1;
    if (latest == 0) {
        snprintf (err, errlen, "%s: table has no snapshot", self->path);
        return ZS_ENOENT;
    }
    int rc = zs_table_read_snapshot (self, latest, out, err, errlen);
    //  Listed a moment ago: gone now means someone deleted it under us.
    return rc == ZS_ENOENT ? -1 : rc;
}

//  The last identifier of each recent commit user as of snapshot latest,
//  into map->user_ids: latest's own list when zsink made it. Otherwise
//  (another writer's snapshot) as Paimon finds a user's last commit: back
//  from latest, each snapshot gives its commit user's identifier (the
//  newest wins), until one that zsink made gives the rest; the scan ends at
//  the earliest snapshot still there. So a snapshot of another writer on
//  top never hides an identifier (docs/decisions.md).
//  A finished user's source id comes along (zs_table_finished_run).
static void
s_note_user (zs_snapshot_t *map, const char *user, int64_t identifier, int64_t time_millis,
             const char *source_id)
{
    if (zs_snapshot_last_identifier (map, user) != -1)
        return;
    zs_snapshot_set_user_id (map, user, identifier, time_millis,
                             identifier == ZS_END_INPUT_ID ? source_id : "");
}

int
zs_table_user_ids (zs_table_t *self, const zs_snapshot_t *latest, zs_snapshot_t *map, char *err,
                   size_t errlen)
{
    map->n_user_ids = 0;
    map->has_user_ids = true;
    zs_snapshot_t cur;
    const zs_snapshot_t *s = latest;
    for (int64_t id = latest->id;; s = &cur) {
        if (s->has_user_ids) {
            for (int i = 0; i < s->n_user_ids; i++)
                s_note_user (map, s->user_ids[i].user, s->user_ids[i].identifier,
                             s->user_ids[i].time_millis, s->user_ids[i].source_id);
            return 0;
        }
        s_note_user (map, s->commit_user, s->commit_identifier, s->time_millis, s->source_id);
        if (--id < 1)
            return 0;
        int rc = zs_table_read_snapshot (self, id, &cur, err, errlen);
        if (rc == ZS_ENOENT)
            return 0; //  expired: the scan has reached the earliest snapshot
        if (rc != 0)
            return rc;
    }
}

int
zs_table_last_committed (zs_table_t *self, const char *commit_user, int64_t *out, char *err,
                         size_t errlen)
{
    zs_snapshot_t snap;
    int rc = zs_table_latest_snapshot (self, &snap, err, errlen);
    if (rc == ZS_ENOENT) {
        *out = -1;
        return 0;
    }
    if (rc != 0)
        return rc;
    zs_snapshot_t *map = malloc (sizeof *map);
    if (!map) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    rc = zs_table_user_ids (self, &snap, map, err, errlen);
    if (rc == 0)
        *out = zs_snapshot_last_identifier (map, commit_user);
    free (map);
    return rc;
}

int64_t
zs_table_find_commit (zs_table_t *self, const char *commit_user, int64_t identifier, int window,
                      char *err, size_t errlen)
{
    int64_t earliest, latest;
    if (zs_table_snapshot_range (self, &earliest, &latest, err, errlen) != 0)
        return -1;
    zs_snapshot_t snap;
    for (int64_t id = latest; id >= earliest && id > 0 && id > latest - window; id--) {
        int rc = zs_table_read_snapshot (self, id, &snap, err, errlen);
        if (rc == ZS_ENOENT)
            continue; //  expired under us
        if (rc != 0)
            return -1;
        if (strcmp (snap.commit_user, commit_user) != 0)
            continue;
        if (snap.commit_identifier < identifier)
            return 0; //  older commits of this user from here on
        if (snap.commit_identifier == identifier && strcmp (snap.commit_kind, "APPEND") == 0)
            return id;
    }
    return 0;
}

int
zs_table_finished_run (zs_table_t *self, const char *source_id, zs_snapshot_t *found, char *err,
                       size_t errlen)
{
    int64_t earliest, latest;
    if (zs_table_snapshot_range (self, &earliest, &latest, err, errlen) != 0)
        return -1;
    zs_user_id_t carried = {.identifier = -1};
    for (int64_t id = latest; id >= earliest && id > 0; id--) {
        int rc = zs_table_read_snapshot (self, id, found, err, errlen);
        //  expired under us; an older one damaged is not what a job builds
        //  on (the latest is: that error stands)
        if (rc == ZS_ENOENT || (rc != 0 && id < latest))
            continue;
        if (rc != 0)
            return rc;
        if (found->commit_identifier == ZS_END_INPUT_ID
            && strcmp (found->source_id, source_id) == 0)
            return 1;
        for (int i = 0; carried.identifier < 0 && i < found->n_user_ids; i++)
            if (found->user_ids[i].identifier == ZS_END_INPUT_ID
                && strcmp (found->user_ids[i].source_id, source_id) == 0)
                carried = found->user_ids[i];
    }
    if (carried.identifier < 0)
        return 0;
    memset (found, 0, sizeof *found);
    found->id = -1;
    found->commit_identifier = ZS_END_INPUT_ID;
    found->time_millis = carried.time_millis;
    snprintf (found->commit_user, sizeof found->commit_user, "%s", carried.user);
    snprintf (found->source_id, sizeof found->source_id, "%s", source_id);
    return 1;
}

int
zs_table_list_snapshots (zs_table_t *self, zs_snapshot_t **snaps_p, size_t *n_p, char *err,
                         size_t errlen)
{
    int64_t *ids;
    size_t n;
    if (zs_table_snapshot_ids (self, &ids, &n, err, errlen) != 0)
        return -1;
    zs_snapshot_t *snaps = n ? malloc (n * sizeof *snaps) : NULL;
    if (n && !snaps) {
        free (ids);
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    //  A snapshot that does not decode fails the whole listing: a quietly
    //  shorter list would look like history that never happened.
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = zs_table_read_snapshot (self, ids[i], &snaps[got], err, errlen);
        if (rc == ZS_ENOENT)
            continue; //  expired between listing and reading: not an error
        if (rc != 0) {
            free (ids);
            free (snaps);
            return rc;
        }
        got++;
    }
    free (ids);
    *snaps_p = snaps;
    *n_p = got;
    return 0;
}

//  --------------------------------------------------------------------------
//  Manifests

//  Read and decode manifest/<name>: a manifest list (list) or a manifest,
//  into *items_p (zs_manifest_meta_t or zs_manifest_entry_t). A file a
//  snapshot references that is gone or does not decode breaks that
//  snapshot: ZS_ECORRUPT with err (and *items_p NULL).
static int
s_read_manifest_file (zs_table_t *self, const char *name, bool list, void **items_p, size_t *n_p,
                      char *err, size_t errlen)
{
    *items_p = NULL;
    char rel[ZS_PATH_MAX], path[ZS_PATH_MAX], why[ZS_ERRLEN];
    snprintf (rel, sizeof rel, "manifest/%s", name);
    if (zs_table_file_path (self, path, sizeof path, rel) != 0) {
        snprintf (err, errlen, "manifest/%s: path too long", name);
        return -1;
    }
    size_t len = 0;
    uint8_t *data = (uint8_t *) zs_io_read_file (path, ZS_META_MAX, &len, err, errlen);
    if (!data)
        return ZS_ECORRUPT;
    zs_manifest_meta_t *metas = NULL;
    zs_manifest_entry_t *entries = NULL;
    int rc = list ? zs_manifest_list_decode (data, len, &metas, n_p, why, sizeof why)
                  : zs_manifest_decode_in (data, len, &self->part, &entries, n_p, why, sizeof why);
    free (data);
    if (rc != 0)
        snprintf (err, errlen, "%s: corrupt manifest%s: %s", path, list ? " list" : "", why);
    *items_p = list ? (void *) metas : (void *) entries;
    return rc;
}

int
zs_table_read_manifest_list (zs_table_t *self, const char *name, zs_manifest_meta_t **metas_p,
                             size_t *n_p, char *err, size_t errlen)
{
    void *items;
    int rc = s_read_manifest_file (self, name, true, &items, n_p, err, errlen);
    *metas_p = items;
    return rc;
}

int
zs_table_read_manifest (zs_table_t *self, const char *name, zs_manifest_entry_t **entries_p,
                        size_t *n_p, char *err, size_t errlen)
{
    void *items;
    int rc = s_read_manifest_file (self, name, false, &items, n_p, err, errlen);
    *entries_p = items;
    return rc;
}

int
zs_table_snapshot_manifests (zs_table_t *self, const zs_snapshot_t *snap,
                             zs_manifest_meta_t **metas_p, size_t *n_p, char *err, size_t errlen)
{
    zs_manifest_meta_t *base = NULL, *delta = NULL;
    size_t nb = 0, nd = 0;
    int rc = zs_table_read_manifest_list (self, snap->base_manifest_list, &base, &nb, err, errlen);
    if (rc == 0)
        rc =
            zs_table_read_manifest_list (self, snap->delta_manifest_list, &delta, &nd, err, errlen);
    if (rc != 0) {
        free (base);
        return rc;
    }
    //  One array: callers do not care which list a manifest came from.
    zs_manifest_meta_t *all = nb + nd ? malloc ((nb + nd) * sizeof *all) : NULL;
    if (nb + nd && !all) {
        free (base);
        free (delta);
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    if (nb)
        memcpy (all, base, nb * sizeof *all);
    if (nd)
        memcpy (all + nb, delta, nd * sizeof *all);
    free (base);
    free (delta);
    *metas_p = all;
    *n_p = nb + nd;
    return 0;
}

static int
s_cmp_path (const void *a, const void *b)
{
    return strcmp (((const zs_file_meta_t *) a)->path, ((const zs_file_meta_t *) b)->path);
}

int
zs_table_live_files (zs_table_t *self, int64_t snapshot_id, zs_file_meta_t **files_p, size_t *n_p,
                     char *err, size_t errlen)
{
    //  Live set = replay of the snapshot's manifests, base list first, then
    //  delta, in the order they were written: a later DELETE cancels an
    //  earlier ADD of the same path.
    zs_snapshot_t snap;
    int rc = snapshot_id == 0 ? zs_table_latest_snapshot (self, &snap, err, errlen)
                              : zs_table_read_snapshot (self, snapshot_id, &snap, err, errlen);
    if (rc == ZS_ENOENT && snapshot_id == 0) {
        *files_p = NULL;
        *n_p = 0;
        return 0;
    }
    if (rc != 0)
        return rc;
    return zs_table_snapshot_files (self, &snap, files_p, n_p, err, errlen);
}

int
zs_table_snapshot_files (zs_table_t *self, const zs_snapshot_t *snap, zs_file_meta_t **files_p,
                         size_t *n_p, char *err, size_t errlen)
{
    //  Deletion vectors and indexes live in the index manifest: reading the
    //  data files without them would bring deleted rows back.
    if (snap->index_manifest[0]) {
        snprintf (err, errlen,
                  "%s: snapshot %" PRId64 " has an index manifest (%s): deletion vectors or "
                  "indexes, which zsink does not read",
                  self->path, snap->id, snap->index_manifest);
        return -1;
    }
    zs_manifest_meta_t *metas;
    size_t nm;
    int rc = zs_table_snapshot_manifests (self, snap, &metas, &nm, err, errlen);
    if (rc != 0)
        return rc;
    zs_file_meta_t *files = NULL;
    size_t n = 0, cap = 0;
    bool any_delete = false;
    zhash_t *at = zhash_new (); //  path -> index + 1 in files
    for (size_t i = 0; i < nm && rc == 0; i++) {
        zs_manifest_entry_t *entries = NULL;
        size_t ne = 0;
        rc = zs_table_read_manifest (self, metas[i].file, &entries, &ne, err, errlen);
        for (size_t j = 0; rc == 0 && j < ne; j++) {
            const char *path = entries[j].file.path;
            if (!entries[j].add) {
                //  DELETE: drop the earlier ADD of the same path (appends
                //  never write these; compaction and overwrite do).
                uintptr_t k = (uintptr_t) zhash_lookup (at, path);
                if (k) {
                    zhash_delete (at, path);
                    if (k - 1 != --n) {
                        files[k - 1] = files[n];
                        zhash_update (at, files[k - 1].path, (void *) k);
                    }
                    any_delete = true;
                }
                continue;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 256;
                zs_file_meta_t *grown = realloc (files, cap * sizeof *files);
                if (!grown) {
                    snprintf (err, errlen, "out of memory");
                    rc = -1;
                    break;
                }
                files = grown;
            }
            files[n++] = entries[j].file;
            zhash_update (at, path, (void *) (uintptr_t) n);
        }
        free (entries);
    }
    zhash_destroy (&at);
    free (metas);
    if (rc != 0) {
        free (files);
        return rc;
    }
    //  Deletes reorder (swap-remove); keep a stable, readable order then.
    if (any_delete && n)
        qsort (files, n, sizeof *files, s_cmp_path);
    *files_p = files;
    *n_p = n;
    return 0;
}

//  --------------------------------------------------------------------------
//  Bucket directories

typedef struct {
    char **v;
    size_t n, cap;
} s_rels_t;

static int
s_rels_add (s_rels_t *r, const char *rel)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        char **v = realloc (r->v, cap * sizeof *v);
        if (!v)
            return -1;
        r->v = v;
        r->cap = cap;
    }
    if (!(r->v[r->n] = strdup (rel)))
        return -1;
    r->n++;
    return 0;
}

//  The bucket directories under rel ("" the table), depth partition levels
//  down. 0 or -1 + err.
static int
s_bucket_dirs_in (zs_table_t *self, const char *rel, int depth, s_rels_t *out, char *err,
                  size_t errlen)
{
    char path[ZS_PATH_MAX], sub[ZS_PATH_MAX];
    if (zs_table_file_path (self, path, sizeof path, *rel ? rel : ".") != 0)
        return 0; //  too deep to be one a writer made
    zs_io_entry_t *e;
    size_t n;
    int rc = zs_io_listing (*rel ? path : self->path, &e, &n, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *name = e[i].name;
        bool want = depth == 0 ? strncmp (name, "bucket-", 7) == 0
                               : name[0] != '.' && strchr (name, '=') != NULL;
        if (!e[i].is_dir || !want
            || snprintf (sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", name) >= (int) sizeof sub)
            continue;
        rc = depth == 0 ? s_rels_add (out, sub)
                        : s_bucket_dirs_in (self, sub, depth - 1, out, err, errlen);
        if (rc != 0 && !err[0])
            snprintf (err, errlen, "out of memory");
    }
    zs_io_listing_free (&e, n);
    return rc;
}

int
zs_table_bucket_dirs (zs_table_t *self, char ***rels_p, size_t *n_p, char *err, size_t errlen)
{
    s_rels_t out = {0};
    err[0] = '\0';
    int rc = s_bucket_dirs_in (self, "", self->part.n, &out, err, errlen);
    if (rc != 0) {
        zs_table_free_rels (&out.v, out.n);
        return -1;
    }
    *rels_p = out.v;
    *n_p = out.n;
    return 0;
}

void
zs_table_free_rels (char ***rels_p, size_t n)
{
    for (size_t i = 0; *rels_p && i < n; i++)
        free ((*rels_p)[i]);
    free (*rels_p);
    *rels_p = NULL;
}
