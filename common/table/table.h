/*  table.h - the table store (docs/architecture.md): schema, snapshots, manifests,
    commit with atomic create-if-absent, and the read side used by
    `zsink table …`.

    Layout:
        <table>/schema/schema-<n>               JSON (Paimon's TableSchema)
        <table>/snapshot/snapshot-<id>          JSON, one per commit
        <table>/snapshot/LATEST, EARLIEST       hints only
        <table>/manifest/manifest-list-<…>      Avro (manifest.h)
        <table>/manifest/manifest-<…>           Avro ADD/DELETE entries
        <table>/bucket-0/data-<…>.parquet       data files
        <table>/tag/tag-<name>                  a tagged snapshot (table_tag.c)
    (docs/formats.md)

    Invariants kept here:
    1. snapshot-<id> is created only by zs_io_create_exclusive; it is never
       rewritten. The snapshot files are the truth, LATEST/EARLIEST hints.
    2. Every snapshot carries, per recent commit user, the last identifier it
       committed (carried forward from the previous snapshot), so
       filterCommitted is one read of the latest snapshot.
    3. A commit never references a file that does not exist with the
       recorded size (checked before the snapshot is created).
    4. A commit user that committed ZS_END_INPUT_ID commits nothing more.
*/
#ifndef ZS_TABLE_H_INCLUDED
#define ZS_TABLE_H_INCLUDED

#include "io.h"
#include "config.h"
#include "evolve.h"
#include "filemeta.h"
#include "parquet.h"
#include "partition.h"
#include "partition_filter.h"
#include "schema.h"
#include "snapshot.h"
#include "io_lock.h"
#include "zs.h"

typedef struct _zs_table_t zs_table_t;

//  Open a table. With a create schema, make the directories and schema-0
//  when they are missing, and refuse a table whose schema differs (err
//  names the first differing column). NULL + err on failure (not a table,
//  unreadable schema…).
zs_table_t *zs_table_open (const char *path, const zs_schema_t *create, char *err, size_t errlen);
//  The same for a job: a new table gets create's partition keys and, when
//  set, the option partition.default-name; an existing table whose keys or
//  default name differ from the job's is refused, naming both.
zs_table_t *zs_table_open_job (const char *path, const zs_schema_t *create,
                               const char *default_name, char *err, size_t errlen);

//  Is there a table at path (a schema/schema-N)? 0, ZS_ENOENT when there
//  is none, -1 + err when the listing failed (S3 did not answer): that is
//  no answer, and must not read as "no table".
int zs_table_probe (const char *path, char *err, size_t errlen);

//  The table's partitioning (n 0: unpartitioned).
const zs_partition_t *zs_table_partition (zs_table_t *self);

//  Every bucket directory of the table, table-relative ("bucket-0", or in
//  a partitioned table "dt=20426/hr=7/bucket-0": a "k=v" directory per
//  partition key, then bucket-*), whether a snapshot names files in it or
//  not. *rels_p malloc'd strings in a malloc'd array (zs_table_free_rels).
//  0 or -1 + err (a listing failed; a missing directory is none).
int zs_table_bucket_dirs (zs_table_t *self, char ***rels_p, size_t *n_p, char *err, size_t errlen);
void zs_table_free_rels (char ***rels_p, size_t n);
void zs_table_destroy (zs_table_t **self_p);
const char *zs_table_path (zs_table_t *self);
//  The table's row type (of its latest schema file).
const zs_schema_t *zs_table_schema (zs_table_t *self);
//  Its latest schema file, keys and options included.
const zs_table_schema_t *zs_table_schema_file (zs_table_t *self);
//  Every schema file (schema-0 … the latest) as last read; the latest may
//  be newer than zs_table_schema_file's once refreshed.
const zs_schemas_t *zs_table_schemas (zs_table_t *self);
//  Read the schema files again (another engine may have altered the
//  table). 0 or -1 + err.
int zs_table_refresh_schemas (zs_table_t *self, char *err, size_t errlen);
//  Schema id (a data file's _SCHEMA_ID), read afresh when not known yet.
//  NULL + err when the table has no such schema.
const zs_table_schema_t *zs_table_file_schema (zs_table_t *self, int64_t id, char *err,
                                               size_t errlen);
//  A live data file, its rows read as schema `as` (-1: the latest; a
//  time-travel read takes the snapshot's schemaId, as Paimon's does),
//  evolve.h: by field id, NULL for a column added since, widened types
//  converted. NULL + err naming the file, column and schema ids when that
//  cannot be done. (A refresh of the schemas moves them: a caller keeps
//  ids, not pointers, across this call.)
zs_evolved_reader_t *zs_table_read_file (zs_table_t *self, const zs_file_meta_t *f, int64_t as,
                                         char *err, size_t errlen);

//  The options the store acts on, by Paimon's names and with Paimon's
//  defaults: the table's own (its schema's options), then a job's
//  (zs_table_set_job_options), as a Flink job's dynamic options override a
//  table's.
typedef struct {
    int retain_min;               //  snapshot.num-retained.min (10)
    int retain_max;               //  snapshot.num-retained.max (INT_MAX)
    int64_t time_retained_ms;     //  snapshot.time-retained (1h)
    int expire_limit;             //  snapshot.expire.limit (50)
    int64_t manifest_target_size; //  manifest.target-file-size (8mb)
    int merge_min_count;          //  manifest.merge-min-count (30)
    int64_t full_compaction_size; //  manifest.full-compaction-threshold-size (16mb)
    bool write_only;              //  write-only (false): no expiry after commits
} zs_table_opts_t;
const zs_table_opts_t *zs_table_opts (zs_table_t *self);
//  Replace the options the store acts on (a job's override them).
void zs_table_set_opts (zs_table_t *self, const zs_table_opts_t *opts);
//  Override the table's options with those cfg sets (-1: unset).
void zs_table_set_job_options (zs_table_t *self, const zs_config_t *cfg);

//  A job about to write the table at cfg->table_path, if there is one
//  (any Paimon table: zsink's, Paimon Java's, pypaimon's): when the job
//  gives no table.schema, the table's row type becomes the job's (cfg's
//  schema and its text); then the table must be one zsink can write
//  exactly once, of the job's row type. 0 (also when there is no table
//  yet), or -1 with err naming what is wrong.
int zs_table_prepare_job (zs_config_t *cfg, char *err, size_t errlen);
//  A new bounded job (not a restore) about to write cfg->table_path: does
//  the table hold a finished run of the same input (zs_table_finished_run)?
//  Then ZS_EREFUSED with err saying so and how to run it anyway
//  (job.allow-rerun); else 0, or -1 + err when the table cannot be read.
int zs_table_check_rerun (const zs_config_t *cfg, char *err, size_t errlen);

//  Latest snapshot (by scanning snapshot/, LATEST only as a hint).
//  0 = found, ZS_ENOENT = table has no snapshot, ZS_ECORRUPT/-1 + err.
int zs_table_latest_snapshot (zs_table_t *self, zs_snapshot_t *out, char *err, size_t errlen);
//  Read snapshot <id>. 0, ZS_ENOENT, ZS_ECORRUPT + err.
int zs_table_read_snapshot (zs_table_t *self, int64_t id, zs_snapshot_t *out, char *err,
                            size_t errlen);
//  Earliest and latest snapshot ids present (0,0 when none). 0 or -1.
int zs_table_snapshot_range (zs_table_t *self, int64_t *earliest, int64_t *latest, char *err,
                             size_t errlen);

//  Last identifier commit_user committed to the table (one read of the
//  latest snapshot), -1 if none or no snapshot. ZS_ECORRUPT/-1 as int
//  return with *out untouched on error.
int zs_table_last_committed (zs_table_t *self, const char *commit_user, int64_t *out, char *err,
                             size_t errlen);

//  The APPEND snapshot in which commit_user committed identifier, looked
//  for among the newest `window` snapshots: its id, 0 when not there
//  (expired, beyond the window, or never committed), or an error + err.
int64_t zs_table_find_commit (zs_table_t *self, const char *commit_user, int64_t identifier,
                              int window, char *err, size_t errlen);

//  A finished run of the same input: the newest retained end-input
//  snapshot whose "zsink.source-id" is source_id (zs_config_source_id), or,
//  once that one expired, a commit user the latest snapshot remembers as
//  finished with that source id (committedIdentifiers carry it forward);
//  then *found has only commit_user and time_millis (when it finished) and
//  id -1. 1 and *found, 0 when none, or an error + err.
int zs_table_finished_run (zs_table_t *self, const char *source_id, zs_snapshot_t *found, char *err,
                           size_t errlen);

//  Would the table take this file in a commit now? Inside the table, not
//  live in the latest snapshot as last seen (ZS_EDUPLICATE), a regular
//  file of the recorded size (ZS_EMISSING). The committer asks before it
//  acks a checkpoint; zs_table_commit checks again against the snapshot it
//  builds on. 0, or the code + err.
int zs_table_check_new_file (zs_table_t *self, const zs_file_meta_t *f, char *err, size_t errlen);

//  What one commit asks for.
typedef struct {
    const char *user;            //  the commit user
    int64_t identifier;          //  the checkpoint id (ZS_END_INPUT_ID at end of input)
    const zs_file_meta_t *files; //  the data files to add
    size_t n;
    bool ignore_empty; //  commit.ignore-empty: no snapshot for n == 0
    int max_retries;   //  commit.max-retries, on a lost race for the snapshot id
    //  A compaction (kind COMPACT): these live files are replaced by files
    //  (same rows). Not filtered: the snapshot carries the user's last
    //  identifier (identifier only when the user has none). An input no
    //  longer live (another writer removed it) drops the commit: ZS_ECONFLICT.
    const zs_file_meta_t *deletes;
    size_t n_deletes;
    bool compact;
    //  the end-input snapshot's "zsink.source-id" property (NULL: none)
    const char *source_id;
    //  kind OVERWRITE: deletes only, a dropped partition's files
    //  (zs_table_drop_partitions); filtered as an APPEND is
    bool overwrite;
    //  LATEST and EARLIEST are left to zs_table_write_hints, for a caller
    //  that reports the commit first (the snapshot is durable and found
    //  by every reader without them)
    bool defer_hints;
} zs_commit_t;

//  The hints of the last commit made with defer_hints, if not written yet
//  (a later commit writes its own). Failures are logged: a hint is never
//  needed.
void zs_table_write_hints (zs_table_t *self);

//  What it made.
typedef struct {
    int64_t snapshot_id;
    int64_t total_rows;    //  the snapshot's totalRecordCount
    int attempts;          //  snapshot ids tried (Paimon's lastCommitAttempts)
    int64_t files_added;   //  data files added, deleted (lastTableFilesAdded, …Deleted)
    int64_t files_deleted; //
    int64_t delta_rows;    //  the snapshot's deltaRecordCount
} zs_committed_t;

//  Commit files as one snapshot with this identifier, kind APPEND.
//  - identifier <= last committed by this user: ZS_EFILTERED (nothing done)
//  - user already committed ZS_END_INPUT_ID: ZS_EFINISHED
//  - a file missing or of another size: ZS_EMISSING (err names it)
//  - a file live in the table already, or listed twice: ZS_EDUPLICATE
//  - n == 0 and ignore_empty: returns ZS_EFILTERED without a snapshot
//  - snapshot id taken: re-read latest, re-check filter, retry with
//    backoff up to max_retries, then ZS_ECONFLICT
//  - latest snapshot corrupt: ZS_ECORRUPT, nothing written
//  On success *out (may be NULL) is set and the
//  Paimon-style line "Successfully commit snapshot …" is logged.
int zs_table_commit (zs_table_t *self, const zs_commit_t *req, zs_committed_t *out, char *err,
                     size_t errlen);

//  Write ahead what the commit of req will need (an APPEND's manifest, its
//  delta list, and a base list on the latest snapshot unless the one
//  prepared is), fsynced with their directory: the commit of the same
//  user, identifier and files then only writes its snapshot (and a base
//  list, when another snapshot came in between). One commit ahead: a
//  prepare drops the previous one's delta; zs_table_unprepare (and
//  zs_table_destroy) drop everything, removing the files. Drop it before
//  anything removes this user's uncommitted manifests. 0, or -1 + err
//  (nothing kept: the commit writes them itself).
int zs_table_prepare (zs_table_t *self, const zs_commit_t *req, char *err, size_t errlen);
//  The base list of the next commit of user, on the latest snapshot,
//  written ahead and fsynced right after a commit, so that zs_table_prepare
//  writes only the delta (and fsyncs manifest/ once for both). 0, or -1 +
//  err.
int zs_table_prepare_base (zs_table_t *self, const char *user, char *err, size_t errlen);
void zs_table_unprepare (zs_table_t *self);

//  Live data files of a snapshot (0 = latest). *files_p malloc'd array.
//  0 (an empty table gives n = 0), or ZS_ECORRUPT/-1 + err.
int zs_table_live_files (zs_table_t *self, int64_t snapshot_id, zs_file_meta_t **files_p,
                         size_t *n_p, char *err, size_t errlen);

//  The same for a snapshot in hand (a tag's, zs_table_read_tag).
int zs_table_snapshot_files (zs_table_t *self, const zs_snapshot_t *snap, zs_file_meta_t **files_p,
                             size_t *n_p, char *err, size_t errlen);

//  All snapshots, ascending id. *snaps_p malloc'd. 0 or error + err.
int zs_table_list_snapshots (zs_table_t *self, zs_snapshot_t **snaps_p, size_t *n_p, char *err,
                             size_t errlen);

//  Files under bucket-*/ and manifest/ that no snapshot present references,
//  relative paths, malloc'd array of malloc'd strings. Files younger than
//  min_age_ms are not listed (a commit may be in flight).
int zs_table_orphans (zs_table_t *self, int64_t min_age_ms, char ***paths_p, size_t *n_p, char *err,
                      size_t errlen);
//  How many files no snapshot or tag references are kept only by the pin of
//  a job that does not run (what a restore of it would commit; left over
//  once no restore will come: `zsink table unpin`). 0 or an error + err.
int zs_table_orphans_held (zs_table_t *self, size_t *held, char *err, size_t errlen);

//  Delete manifest files written by commit_user that no snapshot references,
//  and its snapshot temp files (leftovers of a commit that crashed before
//  its snapshot was linked).
//  Only safe while no commit of that user is in flight. Returns count or -1.
int zs_table_clean_uncommitted_manifests (zs_table_t *self, const char *commit_user, char *err,
                                          size_t errlen);

//  Append compaction (table_compact.c says how it plans and names files).
typedef struct {
    const char *user;         //  the commit user of the COMPACT snapshot
    int64_t identifier;       //  its identifier when the user has none yet
    int max_retries;          //  commit.max-retries
    int64_t target_file_size; //  target-file-size
    double small_file_ratio;  //  compaction.small-file-ratio (0.7)
    int min_file_num;         //  compaction.min.file-num (5)
    int max_file_num;         //  compaction.max.file-num (50)
    int64_t open_file_cost;   //  source.split.open-file-cost (4mb)
    zs_parquet_options_t parquet;
} zs_compact_t;
typedef struct {
    int64_t snapshot_id; //  the COMPACT snapshot (0: nothing to compact)
    int64_t before, after, rows;
} zs_compacted_t;
//  Plan one compaction on the latest snapshot, rewrite it, commit it as a
//  COMPACT snapshot. 0 (snapshot_id 0 when nothing was due), ZS_ECONFLICT
//  when another commit removed an input (dropped, outputs deleted), or
//  another error + err.
int zs_table_compact (zs_table_t *self, const zs_compact_t *req, zs_compacted_t *out, char *err,
                      size_t errlen);
//  The same in three steps, so that the rewrite can run on another thread
//  while the table commits (the committer's compactor.c):
//  plan: the task's inputs into *files (malloc'd, oldest sequence first),
//  *n 0 when nothing is due. The schema files are read afresh first, and
//  an input that cannot be read as the latest schema is an error naming
//  it. 0 or an error + err.
int zs_table_compact_plan (zs_table_t *self, const zs_compact_t *req, zs_file_meta_t **files,
                           size_t *n, char *err, size_t errlen);
//  rewrite: the inputs' rows, each read by its own schema as the latest of
//  schemas, into new durable files of the latest schema, *out malloc'd.
//  Uses no zs_table_t. When *stop becomes non-zero (stop may be NULL) it
//  gives up: ZS_EREFUSED. On any error no output is left.
int zs_table_compact_rewrite (const char *table_path, const zs_schemas_t *schemas,
                              const zs_compact_t *req, const zs_file_meta_t *in, size_t n,
                              const int *stop, zs_file_meta_t **out, size_t *n_out, char *err,
                              size_t errlen);
//  commit: the COMPACT snapshot replacing in by made; outputs removed when
//  it is surely not made. Return as zs_table_compact.
int zs_table_compact_commit (zs_table_t *self, const zs_compact_t *req, const zs_file_meta_t *in,
                             size_t n, const zs_file_meta_t *made, size_t nm, zs_compacted_t *out,
                             char *err, size_t errlen);
//  Remove rewritten files no snapshot names (paths relative to table_path).
void zs_table_compact_discard (const char *table_path, const zs_file_meta_t *files, size_t n);
//  req from the job's configuration (target-file-size, compaction.*,
//  Parquet options), for user.
void zs_table_compact_options (const zs_config_t *cfg, const char *user, zs_compact_t *req);

//  Snapshot expiration (Paimon's expire_snapshots; table_expire.c says
//  which snapshots go and in what order their files are removed).
typedef struct {
    int retain_min;        //  keep at least this many (>= 1)
    int retain_max;        //  keep at most this many
    int64_t older_than_ms; //  between the two, expire those made before (epoch ms)
    int max_deletes;       //  expire at most this many snapshots (0: no limit)
    bool dry_run;          //  count, remove nothing
    const char *user;      //  the commit user expiring (its tag names the hint's temp
                           //  file, which its next committer removes after a crash), or NULL
} zs_expire_t;
typedef struct {
    int64_t begin, end; //  snapshots [begin, end) expired (end <= begin: none)
    int64_t snapshots, manifests, data_files; //  files removed
} zs_expired_t;
//  0 (also when nothing is due), or -1 + err (also when a tag does not
//  decode: what it keeps cannot be known). Safe beside committers: the
//  latest retain_min snapshots, the newest one zsink made and every
//  consumer's next one stay whole; so does every tag's snapshot.
int zs_table_expire (zs_table_t *self, const zs_expire_t *req, zs_expired_t *out, char *err,
                     size_t errlen);
//  The same by the table's options (snapshot.*), as after each commit.
int zs_table_expire_by_options (zs_table_t *self, const char *user, zs_expired_t *out, char *err,
                                size_t errlen);

//  Paimon's rollback_to: snapshots after `to` removed, with the files only
//  they added (table_rollback.c). ZS_EREFUSED while a zsink committer holds
//  its lock on the table, or when `to` is past the latest; ZS_ENOENT when
//  there is no snapshot `to`; else 0 or -1 + err.
typedef struct {
    int64_t snapshots, manifests, data_files; //  removed
} zs_rolled_back_t;
int zs_table_rollback (zs_table_t *self, int64_t to, zs_rolled_back_t *out, char *err,
                       size_t errlen);

//  Tags (table_tag.c), as Paimon's TagManager keeps them: tag/tag-<name>,
//  the tagged snapshot's JSON (Paimon's Tag: a Snapshot, with
//  "tagCreateTime" and "tagTimeRetained" when a retention was given). A
//  tag is a root: orphans, expiry and rollback keep its snapshot's lists,
//  manifests and data files, and verify checks them.
typedef struct {
    char name[256];
    zs_snapshot_t snap; //  the tagged snapshot
    int64_t create_ms;  //  tagCreateTime as local wall-clock millis, -1: none
    char retained[40];  //  tagTimeRetained as written, "" when none
} zs_tag_t;
//  Every tag, by snapshot id then name; *tags_p malloc'd. A tag file that
//  does not decode is ZS_ECORRUPT + err (never skipped: a root left out
//  would make its files look orphaned). 0 (n 0 when none) or error + err.
int zs_table_tags (zs_table_t *self, zs_tag_t **tags_p, size_t *n_p, char *err, size_t errlen);
//  One tag. 0, ZS_ENOENT (no such tag), ZS_ECORRUPT or -1 + err.
int zs_table_read_tag (zs_table_t *self, const char *name, zs_tag_t *out, char *err, size_t errlen);
//  Paimon's create_tag: tag/tag-<name> := snapshot_id's file as it is (0:
//  the latest), created atomically and only if absent. ZS_EREFUSED for a
//  bad or taken name, ZS_ENOENT for a missing snapshot; *tagged the id.
int zs_table_create_tag (zs_table_t *self, const char *name, int64_t snapshot_id, int64_t *tagged,
                         char *err, size_t errlen);
//  Paimon's delete_tag: the tag file, then (when its snapshot is expired
//  and no other tag names it) the files only it kept, as Paimon's
//  TagDeletion: counted in out. ZS_ENOENT when there is no such tag.
int zs_table_delete_tag (zs_table_t *self, const char *name, zs_rolled_back_t *out, char *err,
                         size_t errlen);
//  Paimon's rollback_to with a tag: as zs_table_rollback to its snapshot
//  (tags of later snapshots removed too), and when that snapshot is
//  expired, restored from the tag (the only snapshot left). ZS_ENOENT for
//  no such tag, ZS_EREFUSED as zs_table_rollback.
int zs_table_rollback_to_tag (zs_table_t *self, const char *name, zs_rolled_back_t *out, char *err,
                              size_t errlen);

//  Check the table: every snapshot from the EARLIEST hint on (below it an
//  expiry is under way) and its manifests decode, no gap in snapshot ids; every live file of the
//  latest snapshot is listed once ("duplicate entry"), exists as a regular file
//  ("missing", "not a regular file") of the recorded size ("size") and,
//  for Parquet, row count ("rows"); no data file at least
//  orphan_min_age_ms old (0: any) is in no snapshot or tag ("orphan data
//  file"); every tag decodes, with its lists and manifests, and the data
//  files it reads are there ("tag/tag-<name>: …", "… kept by tag …").
//  0 = clean; -1 with one line per problem, "<path>: <what>…", appended
//  to report (malloc'd, caller frees) and the first problem in err.
int zs_table_verify (zs_table_t *self, int64_t orphan_min_age_ms, char **report, char *err,
                     size_t errlen);

//  --------------------------------------------------------------------------
//  Pins and the clean lock (table_pins.c; docs/decisions.md, "Orphan
//  removal beside a live job"): what a running or restorable job may still
//  commit is never removed by a cleaner, whatever its age.

//  How long a commit or a pin waits for a cleaner's exclusive lock before
//  it fails (the job fails over and commits again; a cleaner holds it for
//  one listing and its deletions).
#define ZS_CLEAN_WAIT_MS 2000
//  How long a procedure run by hand waits for it.
#define ZS_CLEAN_HAND_WAIT_MS 60000

//  Take <table>/.zsink/clean.lock: exclusive for a cleaner (orphans
//  --delete, remove-orphan-files, expire), shared for a commit and a
//  compaction by hand. wait_ms < 0: as long as it takes. 0 with *lock_p
//  (zs_table_clean_unlock drops it), ZS_ECONFLICT when still held after
//  wait_ms, or -1 + err. On S3 a lease (io_lock.h) of ZS_CLEAN_TTL_MS.
#define ZS_CLEAN_TTL_MS 10000
int zs_table_clean_lock (zs_table_t *self, bool exclusive, int64_t wait_ms, zs_io_lock_t **lock_p,
                         char *err, size_t errlen);
void zs_table_clean_unlock (zs_io_lock_t **lock_p);

//  Pin, for commit user (of job job_id), the data files of its uncommitted
//  state (ids[i]: files[i]'s identifier): <table>/.zsink/pins/pin-<user>
//  replaced durably, then, under the shared clean lock, each file checked
//  on disk as recorded. The committer calls it before it acks a checkpoint
//  holding new files, and at each Reset. 0, ZS_EMISSING + err (a file is
//  gone: the checkpoint must not complete), ZS_ECONFLICT (a cleaner held
//  the lock too long) or -1 + err.
int zs_table_pin (zs_table_t *self, const char *user, const char *job_id,
                  const zs_file_meta_t *files, const int64_t *ids, size_t n, char *err,
                  size_t errlen);
//  Remove user's pin (at its end of input; by hand for a job gone for
//  good: `zsink table unpin`). 0, ZS_ENOENT or -1 + err.
int zs_table_unpin (zs_table_t *self, const char *user, char *err, size_t errlen);

//  One pin as a cleaner judges it.
typedef struct {
    char user[40];
    char job_id[64];
    char job8[9];  //  its writers' data files are data-<job8>-w…
    size_t files;  //  data files it names
    bool running;  //  its job's committer holds its lock: spares the job's files in flight
    bool finished; //  its user committed end of input: void
} zs_pin_t;
//  Drop from the pin of job_id (a job no process of which runs) the files
//  drop(path, identifier, arg) says are gone with its end: those the job's
//  end deletes (a checkpoint after its last completed one), so that the pin
//  spares nothing that is no restore's. The count dropped, or -1 + err.
typedef bool (zs_pin_drop_fn) (const char *path, int64_t identifier, void *arg);
int zs_table_pin_trim (zs_table_t *self, const char *job_id, zs_pin_drop_fn *drop, void *arg,
                       char *err, size_t errlen);
//  The table's pins, *pins_p malloc'd. 0 or an error + err (a pin that
//  does not parse).
int zs_table_pins (zs_table_t *self, zs_pin_t **pins_p, size_t *n_p, char *err, size_t errlen);
//  Drop from paths (table-relative, malloc'd; *n_p updated) those a pin
//  spares, freeing them; *held (may be NULL) counts those a pin of a job
//  not running spares (its acked checkpoints' files). 0 or an error + err.
int zs_table_pins_spare (zs_table_t *self, char **paths, size_t *n_p, size_t *held, char *err,
                         size_t errlen);

//  --------------------------------------------------------------------------
//  Partitions (table_partitions.c): Paimon's $partitions system table,
//  drop_partition, expire_partitions, and the partition filter of a pruned
//  scan. On an unpartitioned table each is ZS_EREFUSED + err.

//  One partition of a snapshot, as Paimon's $partitions shows it.
typedef struct {
    char partition[512]; //  "dt=2026-12-04/hr=7": each value cast to a
                         //  string, null as partition.default-name
    uint16_t row_len;    //  its BinaryRow (_PARTITION)
    uint8_t row[ZS_FILE_PARTITION_MAX];
    int64_t record_count;       //  rows of its live files
    int64_t file_size_in_bytes; //  their bytes
    int64_t file_count;         //  how many
    int64_t last_update_ms;     //  the newest one's _CREATION_TIME (local wall
                                //  clock as epoch ms, as the manifest holds it)
} zs_partition_info_t;

//  The partitions of snapshot_id's live files (0: the latest), sorted by
//  partition text; *out_p malloc'd. 0 or an error + err.
int zs_table_partitions (zs_table_t *self, int64_t snapshot_id, zs_partition_info_t **out_p,
                         size_t *n_p, char *err, size_t errlen);

//  What a drop did.
typedef struct {
    int64_t snapshot_id; //  its OVERWRITE snapshot (0: nothing was dropped)
    int64_t partitions, files, rows;
} zs_dropped_t;

//  Paimon's drop_partition: every live file of the partitions the specs
//  name ("dt=2026-12-04,hr=7"; some of the keys: every partition with
//  those values; values read as the key's type, the default name for
//  null) deleted in one OVERWRITE snapshot, as Paimon's
//  FileStoreCommitImpl.dropPartitions records it (table_partitions.c
//  says how it keeps a running job's commits whole). ZS_ENOENT + err,
//  nothing dropped, when a spec names no live partition; ZS_EREFUSED for a
//  spec that does not parse; else 0 or an error + err.
int zs_table_drop_partitions (zs_table_t *self, const char *const *specs, size_t n,
                              zs_dropped_t *out, char *err, size_t errlen);

//  Paimon's partition expiry (PartitionExpire, by its options' names).
typedef struct {
    int64_t expiration_ms; //  partition.expiration-time (required)
    const char *formatter; //  partition.timestamp-formatter (NULL: yyyy-MM-dd[ HH:mm:ss])
    const char *pattern;   //  partition.timestamp-pattern (NULL: the first key's value)
    const char *strategy;  //  partition.expiration-strategy: values-time (NULL) or update-time
    int max_num;           //  partition.expiration-max-num (100)
    int64_t now_ms;        //  local wall clock as epoch ms (0: now)
    bool dry_run;          //  list, drop nothing
} zs_partition_expire_t;

//  req from the table's options (expiration_ms 0 when it sets none).
//  Strings point into the table's schema. 0, or -1 + err for a bad value.
int zs_table_partition_expire_options (zs_table_t *self, zs_partition_expire_t *req, char *err,
                                       size_t errlen);

//  Drop the partitions expired at req->now_ms (values-time: the time their
//  values give, by pattern and formatter, is before now - expiration; a
//  value that gives none, or null, never expires; update-time: their
//  newest file is older), the first max_num by their values, in one
//  OVERWRITE snapshot as zs_table_drop_partitions. The expired partitions
//  into *expired_p (malloc'd). 0 or an error + err (ZS_EREFUSED: no
//  expiration time, a bad formatter or strategy).
int zs_table_expire_partitions (zs_table_t *self, const zs_partition_expire_t *req,
                                zs_partition_info_t **expired_p, size_t *n_p, zs_dropped_t *out,
                                char *err, size_t errlen);

//  Paimon's expiry after a commit: when the table sets
//  partition.expiration-time and partition.expiration-check-interval (1h;
//  0: every commit) has passed since self's last check (none yet: now),
//  expire as zs_table_expire_partitions by the table's options. What it
//  dropped into *out (snapshot_id 0: nothing). 0, or an error + err (the
//  caller's commit stands either way).
int zs_table_expire_partitions_after_commit (zs_table_t *self, zs_dropped_t *out, char *err,
                                             size_t errlen);

//  A scan's partition filter (partition_filter.h) for the table's
//  partitioning: NULL + err when the table is not partitioned or where
//  does not parse.
zs_partition_filter_t *zs_partition_filter_new (zs_table_t *table, const char *where, char *err,
                                                size_t errlen);

#endif
