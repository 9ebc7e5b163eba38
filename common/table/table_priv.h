/*  table_priv.h - helpers shared by table.c (open, snapshots, commit) and
    table_maint.c (orphans, clean-up, verify). Not for use outside the
    table store: callers go through table.h.
*/
#ifndef ZS_TABLE_PRIV_H_INCLUDED
#define ZS_TABLE_PRIV_H_INCLUDED

#include "manifest.h"
#include "table.h"

//  "<table>/<rel>" into buf. 0, or -1 when it does not fit.
int zs_table_file_path (zs_table_t *self, char *buf, size_t buflen, const char *rel);

//  Ids of every snapshot-<id> file present, ascending; *ids_p malloc'd.
//  Temp files and hints are not snapshots. 0 or -1 + err.
int zs_table_snapshot_ids (zs_table_t *self, int64_t **ids_p, size_t *n_p, char *err,
                           size_t errlen);

//  Read and decode manifest/<name>. A missing file is ZS_ECORRUPT too:
//  whoever references it is broken. *…_p malloc'd (NULL when empty).
int zs_table_read_manifest_list (zs_table_t *self, const char *name, zs_manifest_meta_t **metas_p,
                                 size_t *n_p, char *err, size_t errlen);
int zs_table_read_manifest (zs_table_t *self, const char *name, zs_manifest_entry_t **entries_p,
                            size_t *n_p, char *err, size_t errlen);

//  The commit user's tag in manifest file names: its first 8 characters,
//  non-alphanumerics replaced by 'x'.
void zs_table_user_tag (const char *user, char tag[9]);

#endif
