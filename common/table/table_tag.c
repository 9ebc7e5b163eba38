/*  table_tag.c - tags as Paimon's TagManager keeps them (table.h); their
    deletion, which removes what only the tag kept, is table_maint.c's.

    A tag is <table>/tag/tag-<name>: the JSON of the tagged snapshot
    (Paimon's Tag, a Snapshot plus "tagCreateTime" and "tagTimeRetained"
    when the tag was given a retention). Paimon writes snapshot.toJson();
    zsink copies the snapshot file as it is, so every field it does not
    decode (another writer's) is kept.

    Invariants kept here and by the modules that remove files:
    1. A tag is a root, like a snapshot: its manifest lists, the manifests
       they name and the data files those list are never removed while the
       tag file exists (zs_table_tag_files is the set; table_maint.c adds
       it to every reference set, table_expire.c skips it, rollback keeps
       it). A tag that does not decode stops every removal: a root left out
       would make its files look orphaned.
    2. A tag is created only of a snapshot that is whole: at or above the
       EARLIEST hint (below it an expiry may be removing its files). An
       expiry writes the hint before it removes anything and reads the
       tags after; create_tag checks the hint again after its file is
       made, and takes the tag back if an expiry passed the snapshot in
       between. So either the expiry sees the tag, or the tag is not made.
    3. tag-<name> is created with create-if-absent (zs_io_create_exclusive):
       an existing tag is never replaced.
*/
#include "fs.h"
#include "io.h"
#include "log.h"
#include "table_dryrun.h"
#include "table_priv.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

//  A name Paimon and a file system both take: not blank, no '/', not
//  starting with '.' (temp files), printable, short enough for a path.
static int
s_check_name (const char *name, char *err, size_t errlen)
{
    size_t len = name ? strlen (name) : 0;
    bool blank = true;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) name[i];
        if (c < 0x20 || c == 0x7f || c == '/') {
            snprintf (err, errlen, "tag name '%.64s' has a '/' or a control character", name);
            return ZS_EREFUSED;
        }
        blank = blank && c == ' ';
    }
    if (blank || name[0] == '.' || len >= 100) {
        snprintf (err, errlen, "tag name '%.64s' is %s", name ? name : "",
                  blank        ? "blank"
                  : len >= 100 ? "longer than 99 bytes"
                               : "starting with '.'");
        return ZS_EREFUSED;
    }
    return 0;
}

//  "<table>/tag/tag-<name>" into buf.
int
zs_table_tag_path (zs_table_t *self, const char *name, char *buf, size_t len)
{
    char rel[300];
    snprintf (rel, sizeof rel, "tag/tag-%s", name);
    return zs_table_file_path (self, buf, len, rel);
}

//  tagCreateTime: Jackson's JavaTimeModule writes a LocalDateTime as
//  [y, m, d, h, min, s, nanos] (or an ISO string when told to); millis of
//  that local wall-clock time, -1 when absent or not understood.
static int64_t
s_create_ms (json_t *v)
{
    struct tm tm = {0};
    long nanos = 0;
    if (json_is_array (v) && json_array_size (v) >= 5) {
        tm.tm_year = (int) json_integer_value (json_array_get (v, 0)) - 1900;
        tm.tm_mon = (int) json_integer_value (json_array_get (v, 1)) - 1;
        tm.tm_mday = (int) json_integer_value (json_array_get (v, 2));
        tm.tm_hour = (int) json_integer_value (json_array_get (v, 3));
        tm.tm_min = (int) json_integer_value (json_array_get (v, 4));
        tm.tm_sec = (int) json_integer_value (json_array_get (v, 5));
        nanos = (long) json_integer_value (json_array_get (v, 6));
    } else if (json_is_string (v)) {
        double secs = 0;
        if (sscanf (json_string_value (v), "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon,
                    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &secs)
            < 5)
            return -1;
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        tm.tm_sec = (int) secs;
        nanos = (long) ((secs - tm.tm_sec) * 1e9);
    } else
        return -1;
    return (int64_t) timegm (&tm) * 1000 + nanos / 1000000;
}

//  Decode a tag file's text: the snapshot, then the two Tag fields.
static int
s_decode (const char *text, const char *path, zs_tag_t *out, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    if (zs_snapshot_decode (text, &out->snap, why, sizeof why) != 0) {
        snprintf (err, errlen, "%s: corrupt tag: %s", path, why);
        return ZS_ECORRUPT;
    }
    out->create_ms = -1;
    out->retained[0] = '\0';
    json_t *root = json_loads (text, 0, NULL);
    out->create_ms = s_create_ms (json_object_get (root, "tagCreateTime"));
    json_t *kept = json_object_get (root, "tagTimeRetained");
    if (json_is_string (kept))
        snprintf (out->retained, sizeof out->retained, "%s", json_string_value (kept));
    else if (json_is_number (kept))
        snprintf (out->retained, sizeof out->retained, "%gs", json_number_value (kept));
    json_decref (root);
    return 0;
}

//  The tag file's text (malloc'd) or NULL + err; *missing when absent.
static char *
s_read_text (zs_table_t *self, const char *name, bool *missing, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX], why[ZS_ERRLEN];
    zs_table_tag_path (self, name, path, sizeof path);
    char *text = zs_io_read_file (path, ZS_META_MAX, NULL, why, sizeof why);
    *missing = !text && errno == ENOENT;
    if (!text)
        snprintf (err, errlen, "%s", why);
    return text;
}

//  Read tag name, any name its file has (another engine's may be one
//  create_tag would refuse).
static int
s_read_tag (zs_table_t *self, const char *name, zs_tag_t *out, char *err, size_t errlen)
{
    int rc;
    bool missing;
    char *text = s_read_text (self, name, &missing, err, errlen);
    if (!text) {
        if (missing)
            snprintf (err, errlen, "table %s has no tag '%s'", self->path, name);
        return missing ? ZS_ENOENT : -1;
    }
    char path[ZS_PATH_MAX];
    zs_table_tag_path (self, name, path, sizeof path);
    memset (out, 0, sizeof *out);
    snprintf (out->name, sizeof out->name, "%s", name);
    rc = s_decode (text, path, out, err, errlen);
    free (text);
    return rc;
}

int
zs_table_read_tag (zs_table_t *self, const char *name, zs_tag_t *out, char *err, size_t errlen)
{
    if (!name || !name[0] || strchr (name, '/')) {
        snprintf (err, errlen, "tag name '%.64s' is blank or has a '/'", name ? name : "");
        return ZS_EREFUSED;
    }
    return s_read_tag (self, name, out, err, errlen);
}

static int
s_cmp_tag (const void *a, const void *b)
{
    const zs_tag_t *x = a, *y = b;
    if (x->snap.id != y->snap.id)
        return x->snap.id < y->snap.id ? -1 : 1;
    return strcmp (x->name, y->name);
}

int
zs_table_tags (zs_table_t *self, zs_tag_t **tags_p, size_t *n_p, char *err, size_t errlen)
{
    *tags_p = NULL;
    *n_p = 0;
    char dir[ZS_PATH_MAX];
    zs_table_file_path (self, dir, sizeof dir, "tag");
    zs_io_entry_t *e;
    size_t ne;
    int rc = zs_io_listing (dir, &e, &ne, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? 0 : -1;
    zs_tag_t *tags = NULL;
    size_t n = 0, cap = 0;
    //  Paimon's tagPaths: every name starting "tag-" (temp files start '.')
    for (size_t i = 0; rc == 0 && i < ne; i++) {
        const char *name = e[i].name;
        if (strncmp (name, "tag-", 4) != 0 || !name[4])
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            zs_tag_t *grown = realloc (tags, cap * sizeof *tags);
            if (!grown) {
                snprintf (err, errlen, "out of memory");
                rc = -1;
                break;
            }
            tags = grown;
        }
        rc = s_read_tag (self, name + 4, &tags[n], err, errlen);
        if (rc == ZS_ENOENT)
            rc = 0; //  deleted meanwhile, as Paimon's tags() skips it
        else if (rc == 0)
            n++;
    }
    zs_io_listing_free (&e, ne);
    if (rc != 0) {
        free (tags);
        return rc;
    }
    if (n)
        qsort (tags, n, sizeof *tags, s_cmp_tag);
    *tags_p = tags;
    *n_p = n;
    return 0;
}

//  The files of one tagged snapshot into set (see zs_table_tag_files).
int
zs_table_tag_files_of (zs_table_t *self, const zs_tag_t *tag, bool with_data, zhash_t *set,
                       char *err, size_t errlen)
{
    const zs_snapshot_t *s = &tag->snap;
    const char *lists[] = {s->base_manifest_list, s->delta_manifest_list,
                           s->changelog_manifest_list, s->index_manifest};
    char rel[300];
    int rc = 0;
    for (int l = 0; l < 4 && rc == 0; l++) {
        if (!lists[l][0])
            continue;
        snprintf (rel, sizeof rel, "manifest/%s", lists[l]);
        zhash_update (set, rel, (void *) 1);
        if (l == 3)
            break; //  the index manifest: named, not read (zsink reads none)
        zs_manifest_meta_t *metas = NULL;
        size_t nm = 0;
        rc = zs_table_read_manifest_list (self, lists[l], &metas, &nm, err, errlen);
        for (size_t m = 0; rc == 0 && m < nm; m++) {
            snprintf (rel, sizeof rel, "manifest/%s", metas[m].file);
            zhash_update (set, rel, (void *) 1);
            zs_manifest_entry_t *entries = NULL;
            size_t ne = 0;
            if (with_data)
                rc = zs_table_read_manifest (self, metas[m].file, &entries, &ne, err, errlen);
            for (size_t e = 0; rc == 0 && e < ne; e++)
                zhash_update (set, entries[e].file.path, (void *) 1);
            free (entries);
        }
        free (metas);
    }
    if (rc != 0) {
        char why[ZS_ERRLEN];
        snprintf (why, sizeof why, "%s", err);
        snprintf (err, errlen, "tag '%s' (snapshot %" PRId64 "): %s", tag->name, s->id, why);
    }
    return rc;
}

int
zs_table_tag_files (zs_table_t *self, bool with_data, zhash_t *set, char *err, size_t errlen)
{
    return zs_table_tag_files_upto (self, INT64_MAX, with_data, set, err, errlen);
}

int
zs_table_tag_files_upto (zs_table_t *self, int64_t upto, bool with_data, zhash_t *set, char *err,
                         size_t errlen)
{
    zs_tag_t *tags;
    size_t n;
    int rc = zs_table_tags (self, &tags, &n, err, errlen);
    for (size_t i = 0; rc == 0 && i < n && tags[i].snap.id <= upto; i++)
        //  tags of one snapshot share their files: once is enough
        if (i == 0 || tags[i].snap.id != tags[i - 1].snap.id)
            rc = zs_table_tag_files_of (self, &tags[i], with_data, set, err, errlen);
    free (tags);
    return rc;
}

//  Is snapshot id whole: present and not below a valid EARLIEST hint
//  (expiring, invariant 2)?
static bool
s_whole (zs_table_t *self, int64_t id)
{
    int64_t earliest = 0;
    if (zs_table_read_hint (self, "snapshot/EARLIEST", &earliest) == 1
        && zs_table_snapshot_exists (self, earliest) && id < earliest)
        return false;
    return zs_table_snapshot_exists (self, id);
}

int
zs_table_create_tag (zs_table_t *self, const char *name, int64_t snapshot_id, int64_t *tagged,
                     char *err, size_t errlen)
{
    int rc = s_check_name (name, err, errlen);
    if (rc != 0)
        return rc;
    zs_snapshot_t snap;
    rc = snapshot_id ? zs_table_read_snapshot (self, snapshot_id, &snap, err, errlen)
                     : zs_table_latest_snapshot (self, &snap, err, errlen);
    if (rc == ZS_ENOENT || (rc == 0 && !s_whole (self, snap.id))) {
        snprintf (err, errlen,
                  snapshot_id ? "table %s has no snapshot %" PRId64 " (expired, or never made)"
                              : "table %s has no snapshot",
                  self->path, snapshot_id);
        return ZS_ENOENT;
    }
    if (rc != 0)
        return rc;
    char spath[ZS_PATH_MAX], tpath[ZS_PATH_MAX], dir[ZS_PATH_MAX], rel[64];
    snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, snap.id);
    zs_table_file_path (self, spath, sizeof spath, rel);
    size_t len = 0;
    char *text = zs_io_read_file (spath, ZS_META_MAX, &len, err, errlen);
    if (!text)
        return -1;
    zs_table_file_path (self, dir, sizeof dir, "tag");
    zs_table_tag_path (self, name, tpath, sizeof tpath);
    if (zs_io_mkdirs (dir) != 0) {
        snprintf (err, errlen, "%s: %s", dir, strerror (errno));
        free (text);
        return -1;
    }
    rc = zs_io_create_exclusive (tpath, text, len, err, errlen);
    free (text);
    if (rc == ZS_ECONFLICT) {
        snprintf (err, errlen, "table %s: tag '%s' already exists", self->path, name);
        return ZS_EREFUSED;
    }
    if (rc != 0 && rc != ZS_EUNSURE)
        return -1;
    //  invariant 2: an expiry that passed the snapshot meanwhile may not
    //  have seen the tag
    if (!s_whole (self, snap.id)) {
        zs_io_unlink (tpath);
        snprintf (err, errlen, "table %s: snapshot %" PRId64 " was expired while it was tagged",
                  self->path, snap.id);
        return ZS_ENOENT;
    }
    *tagged = snap.id;
    zs_info ("Created tag '%s' of snapshot %" PRId64 " of table %s", name, snap.id, self->path);
    return 0;
}

//  The files every snapshot present names into set, as s_files_of reads a
//  tag's (a snapshot below a valid EARLIEST hint is expiring: skipped, as
//  its files go with the expiry).
static int
s_snapshots_files (zs_table_t *self, zhash_t *set, char *err, size_t errlen)
{
    int64_t *ids;
    size_t n;
    int rc = zs_table_snapshot_ids (self, &ids, &n, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        zs_tag_t as_tag = {.name = ""};
        if (!s_whole (self, ids[i]))
            continue;
        rc = zs_table_read_snapshot (self, ids[i], &as_tag.snap, err, errlen);
        if (rc == 0)
            rc = zs_table_tag_files_of (self, &as_tag, true, set, err, errlen);
    }
    free (ids);
    return rc;
}

int
zs_table_delete_tag_dry_run (zs_table_t *self, const char *name, zs_rolled_back_t *out, char *err,
                             size_t errlen)
{
    memset (out, 0, sizeof *out);
    zs_tag_t tag, *tags = NULL;
    size_t n = 0;
    int rc = zs_table_read_tag (self, name, &tag, err, errlen);
    if (rc != 0)
        return rc;
    zhash_t *mine = zhash_new (), *others = zhash_new ();
    rc = zs_table_tag_files_of (self, &tag, true, mine, err, errlen);
    if (rc == 0)
        rc = zs_table_tags (self, &tags, &n, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (strcmp (tags[i].name, name) != 0)
            rc = zs_table_tag_files_of (self, &tags[i], true, others, err, errlen);
    free (tags);
    if (rc == 0)
        rc = s_snapshots_files (self, others, err, errlen);
    //  what delete_tag removes: its files no other root names, still there
    for (const char *v = zhash_first (mine); rc == 0 && v; v = zhash_next (mine)) {
        const char *rel = zhash_cursor (mine);
        char path[ZS_PATH_MAX];
        zs_io_stat_t st;
        if (zhash_lookup (others, rel) || zs_table_file_path (self, path, sizeof path, rel) != 0
            || zs_io_stat (path, &st) != 0)
            continue;
        (*(strncmp (rel, "manifest/", 9) == 0 ? &out->manifests : &out->data_files))++;
    }
    zhash_destroy (&mine);
    zhash_destroy (&others);
    return rc;
}
