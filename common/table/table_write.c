/*  table_write.c - manifests and manifest lists written into manifest/,
    each in place under a fresh name, its fsync deferred: the names written
    since the last sync are fsynced together, with one fsync of manifest/,
    before a snapshot names them (zs_table_sync_manifests; table_commit.c's
    invariant 1). No reader opens a manifest no snapshot names, so a crash
    may leave a partial one only as an orphan of its commit user.
*/
#include "io.h"
#include "manifest.h"
#include "table_priv.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Write an encoded manifest or list as manifest/<name>, taking data. Its
//  size into *size. 0 or -1 + err.
static int
s_write_manifest (zs_table_t *self, const char *name, uint8_t *data, size_t len, int64_t *size,
                  char *err, size_t errlen)
{
    if (!data)
        return -1; //  the encoder said why
    char rel[256], path[ZS_PATH_MAX];
    snprintf (rel, sizeof rel, "manifest/%s", name);
    zs_table_file_path (self, path, sizeof path, rel);
    //  Written in place, fsynced with the others of its commit and its
    //  directory once, before the snapshot that names it is created
    //  (zs_table_sync_manifests): no reader opens a manifest no snapshot names, so
    //  a crash may leave a partial one only as an orphan of this user,
    //  removed by its next committer.
    self->names_unsynced = true; //  even a failed write may have made the entry
    int rc = zs_io_write_new (path, data, len, err, errlen);
    free (data);
    if (rc == 0 && zs_names_add (&self->unsynced, name) != 0) {
        snprintf (err, errlen, "out of memory");
        rc = -1;
    }
    //  Names are fresh uuids, so a taken name is not a lost race but a bug
    //  or a copied table: never overwrite, fail.
    if (rc == ZS_ECONFLICT) {
        snprintf (err, errlen, "%s: exists already (uuid clash?)", path);
        rc = -1;
    }
    if (size)
        *size = (int64_t) len;
    return rc;
}

//  fsync the manifests written since the last time, all together, and with
//  sync_dir manifest/ too (their names) unless no name was made since it
//  last was. 0 or -1 + err.
int
zs_table_sync_manifests (zs_table_t *self, bool sync_dir, char *err, size_t errlen)
{
    char dir[ZS_PATH_MAX];
    zs_table_file_path (self, dir, sizeof dir, "manifest");
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < self->unsynced.n; at += 64) {
        size_t k = self->unsynced.n - at < 64 ? self->unsynced.n - at : 64;
        rc = zs_io_sync_files (self->unsynced.name + at, k, dir, err, errlen);
    }
    self->unsynced.n = 0;
    if (rc == 0 && sync_dir && self->names_unsynced) {
        if (zs_io_fsync_dir (dir) != 0) {
            snprintf (err, errlen, "%s: fsync: %s", dir, strerror (errno));
            rc = -1;
        } else
            self->names_unsynced = false;
    }
    return rc;
}

//  A manifest list of n manifests as manifest/<name>.
int
zs_table_write_list (zs_table_t *self, const char *name, const zs_manifest_meta_t *metas, size_t n,
                     int64_t *size, char *err, size_t errlen)
{
    size_t len = 0;
    uint8_t *data = zs_manifest_list_encode (metas, n, self->manifest_codec, &len, err, errlen);
    return s_write_manifest (self, name, data, len, size, err, errlen);
}

int
zs_table_write_entries (zs_table_t *self, const char *name, const zs_manifest_entry_t *entries,
                        size_t n, zs_manifest_meta_t *meta, char *err, size_t errlen)
{
    size_t len = 0;
    uint8_t *data = zs_manifest_encode (entries, n, self->manifest_codec, &len, err, errlen);
    memset (meta, 0, sizeof *meta);
    snprintf (meta->file, sizeof meta->file, "%s", name);
    for (size_t i = 0; i < n; i++)
        if (entries[i].add)
            meta->added_files++;
        else
            meta->deleted_files++;
    meta->schema_id = self->tschema.id;
    if (data
        && zs_partition_stats (&self->part, entries, n, &meta->partition_stats, err, errlen) != 0) {
        free (data);
        return -1;
    }
    return s_write_manifest (self, name, data, len, &meta->file_size, err, errlen);
}
