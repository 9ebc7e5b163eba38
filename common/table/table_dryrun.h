/*  table_dryrun.h - what the destructive procedures would remove, with
    nothing removed or written: their --dry-run (`zsink table … --dry-run`).

    Each walks the steps of the procedure it previews (in that procedure's
    own module, so that the preview and the deed cannot drift apart) and
    counts what each step would remove, as the procedure counts what it
    removed. Expiry of snapshots and of partitions take a dry_run flag in
    their requests (table.h) instead.
*/
#ifndef ZS_TABLE_DRYRUN_H_INCLUDED
#define ZS_TABLE_DRYRUN_H_INCLUDED

#include "table.h"

//  zs_table_rollback (to snapshot to) or, with tag_name, zs_table_rollback_to_tag
//  (to is then ignored): the snapshot files, manifests and data files it
//  would remove into out. Returns as they do (ZS_EREFUSED while a job
//  commits to the table: the rollback would be refused too).
int zs_table_rollback_dry_run (zs_table_t *self, int64_t to, const char *tag_name,
                               zs_rolled_back_t *out, char *err, size_t errlen);

//  zs_table_delete_tag: the manifests and data files only the tag keeps
//  (no snapshot present and no other tag names them) into out. 0,
//  ZS_ENOENT (no such tag) or an error + err.
int zs_table_delete_tag_dry_run (zs_table_t *self, const char *name, zs_rolled_back_t *out,
                                 char *err, size_t errlen);

//  zs_table_drop_partitions: the partitions, files and rows it would drop
//  into out (snapshot_id 0). Errors as it has them.
int zs_table_drop_partitions_dry_run (zs_table_t *self, const char *const *specs, size_t n,
                                      zs_dropped_t *out, char *err, size_t errlen);

#endif
