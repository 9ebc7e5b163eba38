/*  table_priv.h - the table object's state and the helpers the files of
    the table store share (table.c lists them, lowest last). Not for use
    outside the table store: callers go through table.h.
*/
#ifndef ZS_TABLE_PRIV_H_INCLUDED
#define ZS_TABLE_PRIV_H_INCLUDED

#include "evolve.h"
#include "manifest.h"
#include "table.h"
#include <czmq.h>

#define ZS_META_MAX (256 * 1024 * 1024) //  largest manifest/snapshot we read

//  Names of the metadata files a commit wrote (manifest/<name>), to remove
//  when it fails.
typedef struct {
    char (*name)[128];
    size_t n, cap;
} zs_names_t;

//  A commit's manifests written ahead (zs_table_prepare): its delta
//  manifest and list for these files. The files are the slot's until a
//  commit takes them or the slot is dropped (then they are removed).
typedef struct {
    bool have;
    char user[40];
    int64_t identifier;
    zs_file_meta_t *files; //  what the delta manifest lists, in order
    size_t n;
    char manifest[128], delta_list[128]; //  no manifest: an empty commit
    int64_t delta_size;
} zs_prepared_delta_t;

//  A base list written ahead on snapshot base_on (zs_table_prepare_base,
//  zs_table_prepare), with the manifests its merge wrote.
typedef struct {
    bool have;
    char user[40];
    char base_list[128];
    int64_t base_size, base_on;
    zs_names_t merged;
} zs_prepared_base_t;

typedef struct {
    zs_prepared_delta_t delta;
    zs_prepared_base_t base;
} zs_prepared_t;

struct _zs_table_t {
    zs_table_schema_t tschema;      //  the latest schema file, options and all
    zs_schema_t schema;             //  its row type
    zs_partition_t part;            //  its partitioning (partition keys, default name)
    zs_schemas_t schemas;           //  every schema file, as last read (evolve.h)
    int64_t write_schema_id;        //  the schema of the rows the job appends
    zs_avro_codec_t manifest_codec; //  manifest.compression
    zs_table_opts_t opts;           //  the options the store acts on
    char path[ZS_PATH_MAX];
    //  The live data files of snapshot live_id (-1: not loaded; 0: the
    //  empty table), so that "is this file in the table already?" costs no
    //  manifest reads while we are the only committer.
    zhash_t *live;
    zhash_t *retired; //  deleted by a retained snapshot (s_retired_load)
    int64_t live_id;
    zs_prepared_t prepared; //  zs_table_prepare; one commit ahead at most
    zs_names_t unsynced;    //  manifests written, not fsynced yet (s_sync_manifests)
    bool names_unsynced;    //  manifest/ has entries not fsynced yet
    int64_t hints_for;      //  a snapshot whose hints are deferred (0: none)
    char hints_tag[9];      //  its user's tag
    //  zs_table_expire_partitions_after_commit: the last check (monotonic
    //  ms, 0: none yet), as Paimon's PartitionExpire.lastCheck
    int64_t partition_expire_checked;
};

//  table.c: manifest names. Add a name. 0, or -1 when out of memory.
int zs_names_add (zs_names_t *self, const char *name);
//  Remove each manifest/<name> and forget the names.
void zs_names_unlink (zs_names_t *self, zs_table_t *table);
void zs_names_free (zs_names_t *self);

//  A hint file (rel: "snapshot/LATEST" or "snapshot/EARLIEST"): 1 with *id,
//  0 when there is none or it is empty (LATEST is not fsynced: a crash may
//  empty it), -1 when it is not a snapshot id.
int zs_table_read_hint (zs_table_t *self, const char *rel, int64_t *id);
//  Is there a snapshot-<id>?
bool zs_table_snapshot_exists (zs_table_t *self, int64_t id);

//  An expiry removed this data file: no longer retired (gone).
void zs_table_forget_retired (zs_table_t *self, const char *path);

//  Remove manifest/<name> (ENOENT is fine; name "": none, nothing done).
void zs_table_unlink_meta (zs_table_t *self, const char *name);

//  Manifests of a snapshot: base list then delta list, in order, one
//  malloc'd array. 0 or ZS_ECORRUPT/-1 + err.
int zs_table_snapshot_manifests (zs_table_t *self, const zs_snapshot_t *snap,
                                 zs_manifest_meta_t **metas_p, size_t *n_p, char *err,
                                 size_t errlen);

//  Write n manifest entries as manifest/<name> (the table's codec), its
//  list entry into *meta (added/deleted counted). 0 or -1 + err.
int zs_table_write_entries (zs_table_t *self, const char *name, const zs_manifest_entry_t *entries,
                            size_t n, zs_manifest_meta_t *meta, char *err, size_t errlen);

//  Paimon's manifest merge (ManifestFileMerger, the legacy merger): the
//  manifests a new snapshot's base list names, from latest's base + delta
//  manifests (*metas_p, in order), rewritten in place. Runs of small
//  manifests are merged into files of about manifest.target-file-size
//  (ADD and DELETE of one file cancel); once the small and DELETE-holding
//  manifests pass manifest.full-compaction-threshold-size, all are
//  rewritten without DELETE entries. The manifests written are added to
//  made (the caller removes them if its commit fails). 0 or -1/ZS_ECORRUPT
//  + err.
int zs_table_merge_manifests (zs_table_t *self, const char *tag, zs_manifest_meta_t **metas_p,
                              size_t *n_p, zs_names_t *made, char *err, size_t errlen);

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

//  Every file the tags keep, as table-relative paths ("manifest/<list>",
//  "manifest/<manifest>", and with data "bucket-N/<data>"), into set.
//  0, or ZS_ECORRUPT/-1 + err when a tag, list or manifest does not decode.
int zs_table_tag_files (zs_table_t *self, bool with_data, zhash_t *set, char *err, size_t errlen);
//  The same for the tags of snapshots up to upto only (a rollback's dry
//  run: the tags after it are the ones the rollback removes).
int zs_table_tag_files_upto (zs_table_t *self, int64_t upto, bool with_data, zhash_t *set,
                             char *err, size_t errlen);
//  The same for one tag. 0, or ZS_ECORRUPT/-1 + err naming the tag.
int zs_table_tag_files_of (zs_table_t *self, const zs_tag_t *tag, bool with_data, zhash_t *set,
                           char *err, size_t errlen);
//  "<table>/tag/tag-<name>" into buf. 0, or -1 when it does not fit.
int zs_table_tag_path (zs_table_t *self, const char *name, char *buf, size_t len);

//  table_options.c: the options the store acts on, from the latest schema
//  (self->tschema) into self->opts and self->manifest_codec. 0, or -1 + err
//  naming an option that does not parse.
int zs_table_read_options (zs_table_t *self, char *err, size_t errlen);

//  table.c: the prepared slot dropped, its files removed unless a commit
//  took them: the delta (manifest, list, files), the base list (and the
//  manifests its merge wrote). zs_table_unprepare drops both.
void zs_table_prepared_drop_delta (zs_table_t *self);
void zs_table_prepared_drop_base (zs_table_t *self);
//  A new snapshot's schemaId: the latest schema file when it is made.
int64_t zs_table_snapshot_schema_id (zs_table_t *self);

//  table_read.c: the last identifier of each recent commit user as of
//  snapshot latest, into map's user ids (committedIdentifiers). 0 or
//  ZS_ECORRUPT/-1 + err.
int zs_table_user_ids (zs_table_t *self, const zs_snapshot_t *latest, zs_snapshot_t *map, char *err,
                       size_t errlen);

//  table_write.c: fsync the manifests written since the last time, and
//  with sync_dir manifest/ too unless no name was made since. 0 or -1 + err.
int zs_table_sync_manifests (zs_table_t *self, bool sync_dir, char *err, size_t errlen);
//  A manifest list of n manifests as manifest/<name>, its size into *size.
int zs_table_write_list (zs_table_t *self, const char *name, const zs_manifest_meta_t *metas,
                         size_t n, int64_t *size, char *err, size_t errlen);

//  table_live.c: self->live the live set of snapshot id (0: the empty
//  table), self->retired what the retained snapshots up to it deleted.
//  0 or -1/ZS_ECORRUPT + err.
int zs_table_live_load (zs_table_t *self, int64_t id, char *err, size_t errlen);
//  Every file a commit adds against the live set: inside the table, not
//  live already, not listed twice, on disk as recorded; their rows into
//  *rows. 0, ZS_EDUPLICATE, ZS_EMISSING, -1 + err.
int zs_table_check_new_files (zs_table_t *self, const zs_file_meta_t *files, size_t n,
                              int64_t *rows, char *err, size_t errlen);
//  A compaction's inputs: each live, once; their rows into *rows.
//  ZS_ECONFLICT + err when one is not.
int zs_table_check_deletes (zs_table_t *self, const zs_file_meta_t *files, size_t n, int64_t *rows,
                            char *err, size_t errlen);
//  table_compact.c: the plan alone, on live files[0..*n) (reordered):
//  the first task, within one partition, into files[0..*n) (by size).
//  false when none is due. No I/O: what the unit tests simulate with.
bool zs_table_compact_pick (const zs_compact_t *req, zs_file_meta_t *files, size_t *n);
//  The chaos runner's negative control (ZSINK_TEST_NO_FILTER_COMMITTED=1):
//  filterCommitted and the already-added check off.
bool zs_table_no_filter (void);

#endif
