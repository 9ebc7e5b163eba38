/*  table_commit.c - the commit (Paimon's FileStoreCommit for an append
    table): a snapshot made of the files a checkpoint wrote, exactly once;
    and the manifests of the next commit written ahead of it
    (zs_table_prepare, zs_table_prepare_base).

    Invariants (numbers as in table.h):
    1. snapshot-<id> is only ever created by zs_io_create_exclusive, so two
       committers racing for one id cannot both win, and a snapshot is
       never rewritten. Everything it references (manifest lists,
       manifests, data files) is durable before it is created.
    2. committedIdentifiers is carried forward from the snapshot we build on,
       and "the snapshot we build on" is re-read after every lost race, so a
       user's last identifier can never go backwards.
    3. Files are checked (exist, recorded size) before any manifest is
       written; a missing file is ZS_EMISSING, never skipped.
    4. ZS_EFINISHED is checked before ZS_EFILTERED: a finished user's every
       identifier is <= INT64_MAX and would otherwise be "filtered", hiding
       the fact that the job is being resumed after it ended.

    Commit steps:
      read latest -> filter -> check files -> write base list, manifest and
      delta list in place (each fsynced)
      -> [loop: fsync manifest/ -> create snapshot-<latest+1> (temp, fsync,
                link, fsync snapshot/)
                on conflict: back off, re-read latest, re-filter, base list]
      -> LATEST hint (not fsynced) -> EARLIEST hint if absent -> log.
    Six fsyncs for a commit of one manifest, one directory fsync per
    directory (docs/decisions.md, "What is fsynced, and why").
    Manifest names carry the first 8 characters of the commit user, so that
    leftovers of a crashed commit can be found by user without reading them.
*/
#include "table.h"
#include "failpoint.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "manifest.h"
#include "snapshot.h"
#include "table_priv.h"
#include <czmq.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  filterCommitted against the snapshot we build on (NULL = empty table).
static int
s_filter (zs_table_t *self, const zs_snapshot_t *ids, const char *user, int64_t identifier,
          char *err, size_t errlen)
{
    if (zs_table_no_filter ())
        return 0;
    const zs_snapshot_t *latest = ids;
    int64_t last = latest ? zs_snapshot_last_identifier (latest, user) : -1;
    if (latest && last == ZS_END_INPUT_ID) {
        snprintf (err, errlen,
                  "%s: commit user %s already committed end of input (identifier %" PRId64
                  "); a finished job cannot commit again",
                  self->path, user, last);
        return ZS_EFINISHED;
    }
    if (latest && identifier <= last) {
        snprintf (err, errlen,
                  "%s: identifier %" PRId64 " already committed by user %s (last %" PRId64 ")",
                  self->path, identifier, user, last);
        return ZS_EFILTERED;
    }
    return 0;
}

//  The schema id of a file a job wrote: the job's schema's. On a table
//  that has been altered, the file's own columns decide (its footer,
//  checked by name, type and count: evolve.h's rule 4): a restored
//  checkpoint's pending files may have been written before the change, by
//  a job of the older schema. The newest schema they are of; none is an
//  error (its rows would be read as something else).
static int
s_new_file_schema (zs_table_t *self, zs_file_meta_t *f, char *err, size_t errlen)
{
    f->schema_id = self->write_schema_id;
    size_t len = strlen (f->path);
    if (self->schemas.n < 2 || len < 8 || strcmp (f->path + len - 8, ".parquet") != 0)
        return 0;
    char path[ZS_PATH_MAX], why[ZS_ERRLEN] = "";
    zs_table_file_path (self, path, sizeof path, f->path);
    zs_parquet_reader_t *pq = zs_parquet_reader_open (path, why, sizeof why);
    if (!pq) {
        snprintf (err, errlen, "%s", why);
        return -1;
    }
    const zs_schema_t *cols = zs_parquet_reader_schema (pq);
    const zs_table_schema_t *own = zs_schemas_find (&self->schemas, self->write_schema_id);
    int rc = own ? zs_evolve_check_file (cols, own, NULL, why, sizeof why) : -1;
    for (size_t i = self->schemas.n; rc != 0 && i-- > 0;) {
        char other[ZS_ERRLEN];
        rc = zs_evolve_check_file (cols, &self->schemas.s[i], NULL, other, sizeof other);
        f->schema_id = self->schemas.s[i].id;
    }
    zs_parquet_reader_destroy (&pq);
    if (rc != 0)
        snprintf (err, errlen, "%s: of no schema of the table: %s", path, why);
    return rc;
}

//  A manifest of this commit: a DELETE entry for each of the nd files it
//  removes (a compaction's inputs, as recorded), then an ADD for each of
//  its n new files, written with the table's latest schema (its id goes
//  in), as manifest/<name>; its list entry.
static int
s_write_delta (zs_table_t *self, const char *name, const zs_file_meta_t *dels, size_t nd,
               const zs_file_meta_t *files, size_t n, bool compact, zs_manifest_meta_t *meta,
               char *err, size_t errlen)
{
    zs_manifest_entry_t *entries = n + nd ? calloc (n + nd, sizeof *entries) : NULL;
    if (n + nd && !entries) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < nd; i++)
        entries[i] = (zs_manifest_entry_t){.add = false, .total_buckets = -1, .file = dels[i]};
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        entries[nd + i] = (zs_manifest_entry_t){.add = true, .total_buckets = -1, .file = files[i]};
        if (!compact) //  a compaction's outputs carry the schema they were written in
            rc = s_new_file_schema (self, &entries[nd + i].file, err, errlen);
    }
    if (rc == 0)
        rc = zs_table_write_entries (self, name, entries, n + nd, meta, err, errlen);
    free (entries);
    return rc;
}

//  Base list for a snapshot built on latest: latest's base + delta
//  manifests, merged as Paimon merges them (zs_table_merge_manifests),
//  written under a new name, its size into *size. The merged manifests
//  written go into made.
static int
s_write_base_list (zs_table_t *self, const zs_snapshot_t *latest, const char *tag, char name[128],
                   int64_t *size, zs_names_t *made, char *err, size_t errlen)
{
    char uuid[40];
    zs_uuid (uuid);
    zs_manifest_meta_t *metas = NULL;
    size_t n = 0;
    if (latest) {
        int rc = zs_table_snapshot_manifests (self, latest, &metas, &n, err, errlen);
        if (rc == 0)
            rc = zs_table_merge_manifests (self, tag, &metas, &n, made, err, errlen);
        if (rc != 0) {
            free (metas);
            return rc;
        }
    }
    snprintf (name, 128, "manifest-list-%s-%s", tag, uuid);
    int rc = zs_table_write_list (self, name, metas, n, size, err, errlen);
    free (metas);
    if (rc != 0)
        name[0] = '\0'; //  nothing written to clean up but the merged manifests
    return rc;
}

//  Hint files: a plain id, as Paimon writes them. Failing to write one is not a
//  failed commit (the snapshot files are the truth), so only warn.
//  Their temp files carry the commit user's tag, like the snapshot's: a
//  crash between the temp file and its rename leaves a file the user's
//  next committer removes (zs_table_clean_uncommitted_manifests).
static void
s_write_hints (zs_table_t *self, int64_t id, const char *tag)
{
    char path[ZS_PATH_MAX], text[32], err[ZS_ERRLEN];
    int len = snprintf (text, sizeof text, "%" PRId64, id);
    zs_table_file_path (self, path, sizeof path, "snapshot/LATEST");
    //  Not fsynced: a LATEST a crash took back (stale) or emptied is read
    //  as absent by Paimon, pypaimon and us, who then list snapshot/; it
    //  never names a snapshot that is not durable, being renamed after the
    //  snapshot's directory fsync.
    if (zs_io_write_hint (path, tag, text, (size_t) len, err, sizeof err) != 0)
        zs_warn ("cannot write LATEST hint: %s", err);
    zs_table_file_path (self, path, sizeof path, "snapshot/EARLIEST");
    zs_io_stat_t st;
    if (zs_io_stat (path, &st) == 0)
        return;
    int64_t earliest = id, latest;
    if (zs_table_snapshot_range (self, &earliest, &latest, err, sizeof err) != 0)
        earliest = id;
    len = snprintf (text, sizeof text, "%" PRId64, earliest);
    int rc = zs_io_create_exclusive_tagged (path, tag, text, (size_t) len, err, sizeof err);
    if (rc != 0 && rc != ZS_ECONFLICT)
        zs_warn ("cannot write EARLIEST hint: %s", err);
}

void
zs_table_write_hints (zs_table_t *self)
{
    if (self->hints_for)
        s_write_hints (self, self->hints_for, self->hints_tag);
    self->hints_for = 0;
}

static void
s_sleep_ms (int64_t ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
    while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
        ;
}

//  Latest snapshot into *latest; *have = false on an empty table.
static int
s_load_latest (zs_table_t *self, zs_snapshot_t *latest, bool *have, char *err, size_t errlen)
{
    int rc = zs_table_latest_snapshot (self, latest, err, errlen);
    *have = rc == 0;
    return rc == ZS_ENOENT ? 0 : rc;
}

//  One commit in progress: what was asked, the snapshot it builds on, and
//  the metadata files it has written so far (to remove if it fails).
typedef struct {
    zs_table_t *table;
    const zs_commit_t *req;
    zs_snapshot_t latest; //  the snapshot we build on (when have)
    bool have;
    zs_snapshot_t ids; //  committed identifiers as of latest (zs_table_user_ids)
    char tag[9];       //  the commit user's tag in file names
    char manifest[128], delta_list[128], base_list[128];
    zs_names_t merged;             //  manifests the merge wrote
    int64_t base_size, delta_size; //  of the lists
    int64_t delta_rows, deleted_rows;
    int attempts;       //  snapshot ids tried (1 without a lost race)
    zs_snapshot_t snap; //  the snapshot being created
} s_commit_t;

//  Read the latest snapshot, the identifiers as of it, and filter.
static int
s_commit_latest (s_commit_t *c, char *err, size_t errlen)
{
    const zs_commit_t *r = c->req;
    int rc = s_load_latest (c->table, &c->latest, &c->have, err, errlen);
    memset (&c->ids, 0, sizeof c->ids);
    if (rc == 0 && c->have)
        rc = zs_table_user_ids (c->table, &c->latest, &c->ids, err, errlen);
    if (rc == 0 && !r->compact)
        rc = s_filter (c->table, c->have ? &c->ids : NULL, r->user, r->identifier, err, errlen);
    return rc;
}

//  The files against the snapshot we build on (live set loaded for it):
//  the new ones (zs_table_check_new_files) and a compaction's inputs.
static int
s_commit_check (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    const zs_commit_t *r = c->req;
    int rc = zs_table_live_load (self, c->have ? c->latest.id : 0, err, errlen);
    if (rc == 0)
        rc = zs_table_check_new_files (self, r->files, r->n, &c->delta_rows, err, errlen);
    if (rc == 0)
        rc = zs_table_check_deletes (self, r->deletes, r->n_deletes, &c->deleted_rows, err, errlen);
    return rc;
}

//  Step 1: read the latest snapshot, filterCommitted, and check the files
//  against it (invariant 3, and no file added twice) before anything is
//  written.
static int
s_commit_begin (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    const zs_commit_t *r = c->req;
    //  it must fit committedIdentifiers' entries, or filterCommitted would
    //  never find it
    if (!r->user || !r->user[0] || strlen (r->user) >= sizeof c->ids.user_ids[0].user) {
        snprintf (err, errlen, "%s: commit user empty or longer than 39 characters", self->path);
        return -1;
    }
    int rc = s_commit_latest (c, err, errlen);
    if (rc != 0)
        return rc;
    if (r->n == 0 && r->ignore_empty) {
        snprintf (err, errlen, "%s: nothing to commit for identifier %" PRId64, self->path,
                  r->identifier);
        return ZS_EFILTERED;
    }
    return s_commit_check (c, err, errlen);
}

//  The base list on the snapshot c builds on (it reads that snapshot's
//  lists: if those are corrupt we fail before writing anything of our own).
static int
s_commit_write_base (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_user_tag (c->req->user, c->tag);
    return s_write_base_list (c->table, c->have ? &c->latest : NULL, c->tag, c->base_list,
                              &c->base_size, &c->merged, err, errlen);
}

//  Our manifest (none for an empty commit: an empty delta list, as Paimon
//  writes it) and the delta list naming it.
static int
s_commit_write_delta (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    const zs_commit_t *r = c->req;
    char uuid[40];
    zs_table_user_tag (r->user, c->tag);
    zs_uuid (uuid);
    snprintf (c->manifest, sizeof c->manifest, "manifest-%s-%s", c->tag, uuid);
    zs_uuid (uuid);
    snprintf (c->delta_list, sizeof c->delta_list, "manifest-list-%s-%s", c->tag, uuid);
    zs_manifest_meta_t meta;
    size_t n = r->n + r->n_deletes;
    int rc = 0;
    if (n == 0)
        c->manifest[0] = '\0';
    else
        rc = s_write_delta (self, c->manifest, r->deletes, r->n_deletes, r->files, r->n, r->compact,
                            &meta, err, errlen);
    if (rc == 0)
        rc = zs_table_write_list (self, c->delta_list, &meta, n ? 1 : 0, &c->delta_size, err,
                                  errlen);
    return rc; //  on failure, what was written goes with the commit (s_commit_abandon)
}

//  ---------------------------------------------------------------------
//  Manifests written ahead of their commit (zs_table_prepare)

static void s_commit_abandon (s_commit_t *c);

//  Is manifest/<name> there?
static bool
s_meta_exists (zs_table_t *self, const char *name)
{
    char rel[256], path[ZS_PATH_MAX];
    snprintf (rel, sizeof rel, "manifest/%s", name);
    zs_io_stat_t st;
    return zs_table_file_path (self, path, sizeof path, rel) == 0 && zs_io_stat (path, &st) == 0;
}

//  Is the prepared delta this commit's: same user, identifier and files (a
//  data file is its path, size and rows), and are its files still there?
static bool
s_prepared_delta_fits (zs_table_t *self, const zs_commit_t *r)
{
    zs_prepared_delta_t *d = &self->prepared.delta;
    if (!d->have || r->compact || r->n_deletes || strcmp (d->user, r->user) != 0
        || d->identifier != r->identifier || d->n != r->n)
        return false;
    for (size_t i = 0; i < r->n; i++)
        if (strcmp (d->files[i].path, r->files[i].path) != 0 || d->files[i].size != r->files[i].size
            || d->files[i].rows != r->files[i].rows)
            return false;
    //  removed under us (a clean-up of this user's uncommitted manifests)?
    return (!d->manifest[0] || s_meta_exists (self, d->manifest))
           && s_meta_exists (self, d->delta_list);
}

//  Is the prepared base list one a commit of user on the latest snapshot
//  (have: there is one) can name, and still there?
static bool
s_prepared_base_fits (zs_table_t *self, const char *user, bool have, int64_t latest)
{
    zs_prepared_base_t *b = &self->prepared.base;
    if (!b->have || strcmp (b->user, user) != 0 || b->base_on != (have ? latest : 0)
        || !s_meta_exists (self, b->base_list))
        return false;
    //  the manifests its merge wrote, which only it names
    for (size_t i = 0; i < b->merged.n; i++)
        if (!s_meta_exists (self, b->merged.name[i]))
            return false;
    return true;
}

//  The base list on the latest snapshot for user, written ahead unless the
//  one prepared is that already; c holds the latest. 0 or -1 + err.
static int
s_prepare_base (zs_table_t *self, s_commit_t *c, const char *user, char *err, size_t errlen)
{
    if (s_prepared_base_fits (self, user, c->have, c->have ? c->latest.id : 0))
        return 0;
    zs_table_prepared_drop_base (self);
    int rc = s_commit_write_base (c, err, errlen);
    if (rc != 0) {
        zs_table_unlink_meta (self, c->base_list);
        zs_names_unlink (&c->merged, self);
        zs_names_free (&c->merged);
        return rc;
    }
    zs_prepared_base_t *b = &self->prepared.base;
    snprintf (b->user, sizeof b->user, "%s", user);
    memcpy (b->base_list, c->base_list, sizeof b->base_list);
    b->base_size = c->base_size;
    b->base_on = c->have ? c->latest.id : 0;
    b->merged = c->merged;
    c->merged = (zs_names_t){0};
    c->base_list[0] = '\0';
    b->have = true;
    return 0;
}

int
zs_table_prepare_base (zs_table_t *self, const char *user, char *err, size_t errlen)
{
    zs_commit_t req = {.user = user};
    s_commit_t c = {.table = self, .req = &req};
    int rc = s_load_latest (self, &c.latest, &c.have, err, errlen);
    if (rc == 0)
        rc = s_prepare_base (self, &c, user, err, errlen);
    //  its content now; its name with the delta's, by the one fsync of
    //  manifest/ of the next prepare (or commit)
    if (rc == 0)
        rc = zs_table_sync_manifests (self, false, err, errlen);
    if (rc != 0)
        zs_table_prepared_drop_base (self);
    return rc;
}

int
zs_table_prepare (zs_table_t *self, const zs_commit_t *req, char *err, size_t errlen)
{
    if (s_prepared_delta_fits (self, req))
        return 0;
    zs_table_prepared_drop_delta (self);
    if (req->compact || req->n_deletes)
        return 0; //  compactions are committed as they are planned
    zs_prepared_delta_t *d = &self->prepared.delta;
    s_commit_t c = {.table = self, .req = req};
    int rc = s_load_latest (self, &c.latest, &c.have, err, errlen);
    if (rc == 0)
        rc = s_prepare_base (self, &c, req->user, err, errlen);
    if (rc == 0)
        rc = s_commit_write_delta (&c, err, errlen);
    //  their content and names now: the fsyncs the commit saves (it
    //  fsyncs manifest/ again only when it writes a manifest of its own)
    if (rc == 0)
        rc = zs_table_sync_manifests (self, true, err, errlen);
    d->files = req->n ? malloc (req->n * sizeof *d->files) : NULL;
    if (rc == 0 && req->n && !d->files) {
        snprintf (err, errlen, "out of memory");
        rc = -1;
    }
    if (rc != 0) {
        s_commit_abandon (&c);
        zs_names_free (&c.merged);
        zs_table_unprepare (self);
        return rc;
    }
    if (req->n)
        memcpy (d->files, req->files, req->n * sizeof *d->files);
    d->n = req->n;
    snprintf (d->user, sizeof d->user, "%s", req->user);
    d->identifier = req->identifier;
    memcpy (d->manifest, c.manifest, sizeof d->manifest);
    memcpy (d->delta_list, c.delta_list, sizeof d->delta_list);
    d->delta_size = c.delta_size;
    d->have = true;
    return 0;
}

//  Step 2: the base list, our manifest and the delta list naming it:
//  taken from the prepared slot when they fit this commit (the delta: its
//  user, identifier and files; the base list: built on the snapshot we
//  build on), else written now.
static int
s_commit_write_manifests (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    zs_prepared_t *p = &self->prepared;
    bool delta = s_prepared_delta_fits (self, c->req);
    bool base = s_prepared_base_fits (self, c->req->user, c->have, c->have ? c->latest.id : 0);
    if (delta) {
        //  the commit owns them now (s_commit_abandon removes them)
        memcpy (c->manifest, p->delta.manifest, sizeof c->manifest);
        memcpy (c->delta_list, p->delta.delta_list, sizeof c->delta_list);
        c->delta_size = p->delta.delta_size;
        p->delta.manifest[0] = p->delta.delta_list[0] = '\0';
    }
    if (base) {
        memcpy (c->base_list, p->base.base_list, sizeof c->base_list);
        c->base_size = p->base.base_size;
        c->merged = p->base.merged;
        p->base.base_list[0] = '\0';
        p->base.merged = (zs_names_t){0};
    }
    //  Used, or of no use any more: a base list on an older snapshot, a
    //  delta of this or an earlier identifier. A compaction or the commit
    //  of an earlier checkpoint between the prepare and its commit leaves
    //  the delta be.
    zs_table_prepared_drop_base (self);
    if (delta
        || (!c->req->compact && !c->req->overwrite && c->req->identifier >= p->delta.identifier))
        zs_table_prepared_drop_delta (self);
    zs_table_user_tag (c->req->user, c->tag);
    int rc = base ? 0 : s_commit_write_base (c, err, errlen);
    if (rc != 0) {
        if (!delta)
            c->manifest[0] = c->delta_list[0] = '\0'; //  not written
        return rc;
    }
    if (!delta)
        rc = s_commit_write_delta (c, err, errlen);
    if (rc == 0 && zs_failpoint ("committer.after-manifest") == -1) {
        snprintf (err, errlen, "%s: injected error after writing manifests", self->path);
        rc = -1;
    }
    return rc;
}

//  The snapshot to create on top of the latest: copying it carries
//  committedIdentifiers forward (invariant 2).
static void
s_commit_build_snapshot (s_commit_t *c)
{
    const zs_commit_t *r = c->req;
    zs_snapshot_t *snap = &c->snap;
    if (c->have)
        *snap = c->latest;
    else
        memset (snap, 0, sizeof *snap);
    snap->id = c->have ? c->latest.id + 1 : 1;
    //  another writer's changelog and index manifests are not ours to carry
    snap->changelog_manifest_list[0] = snap->index_manifest[0] = '\0';
    snap->schema_id = zs_table_snapshot_schema_id (c->table);
    snprintf (snap->base_manifest_list, sizeof snap->base_manifest_list, "%s", c->base_list);
    snap->base_list_size = c->base_size;
    snprintf (snap->delta_manifest_list, sizeof snap->delta_manifest_list, "%s", c->delta_list);
    snap->delta_list_size = c->delta_size;
    snap->has_user_ids = true;
    snap->n_user_ids = c->ids.n_user_ids;
    memcpy (snap->user_ids, c->ids.user_ids, sizeof snap->user_ids);
    snprintf (snap->commit_user, sizeof snap->commit_user, "%s", r->user);
    //  a compaction carries the user's last identifier: it adds no input
    int64_t last = zs_snapshot_last_identifier (&c->ids, r->user);
    snap->commit_identifier = r->compact && c->have && last >= 0 ? last : r->identifier;
    snprintf (snap->commit_kind, sizeof snap->commit_kind,
              r->compact     ? "COMPACT"
              : r->overwrite ? "OVERWRITE"
                             : "APPEND");
    snprintf (snap->source_id, sizeof snap->source_id, "%s",
              r->source_id && r->identifier == ZS_END_INPUT_ID && !r->compact ? r->source_id : "");
    snap->time_millis = zs_clock_wall_ms ();
    snap->delta_record_count = c->delta_rows - c->deleted_rows;
    snap->total_record_count =
        (c->have ? c->latest.total_record_count : 0) + snap->delta_record_count;
    zs_snapshot_set_user_id (snap, r->user, snap->commit_identifier, snap->time_millis,
                             snap->source_id[0] ? snap->source_id : NULL);
}

//  Create snapshot-<id> if absent (invariant 1). ZS_ECONFLICT: taken.
static int
s_commit_create_snapshot (s_commit_t *c, char *err, size_t errlen)
{
    char *text = zs_snapshot_encode (&c->snap);
    if (!text) {
        snprintf (err, errlen, "%s: out of memory encoding snapshot", c->table->path);
        return -1;
    }
    char rel[64], path[ZS_PATH_MAX];
    //  The manifests and lists this commit wrote (zs_io_write_new): their
    //  content and names durable, with one fsync of manifest/, before a
    //  snapshot names them (invariant 1); a prepared commit's were already.
    //  Again after a rebase, which wrote a base list.
    if (zs_table_sync_manifests (c->table, true, err, errlen) != 0) {
        free (text);
        return -1;
    }
    snprintf (rel, sizeof rel, "snapshot/snapshot-%" PRId64, c->snap.id);
    zs_table_file_path (c->table, path, sizeof path, rel);
    //  tagged: a crash here leaves a temp file the committer's successor
    //  removes (zs_table_clean_uncommitted_manifests)
    int rc = zs_io_create_exclusive_tagged (path, c->tag, text, strlen (text), err, errlen);
    free (text);
    return rc;
}

//  Lost the race for the snapshot id: another committer (of this job after
//  a split brain, or of another job) won. Re-read the latest, filter and
//  check again (the winner may have added one of our files: never build a
//  snapshot that lists a file twice), and write a base list on top of it;
//  the old one (and its merged manifest) describes a snapshot we no longer
//  build on.
static int
s_commit_rebase (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    int rc = s_commit_latest (c, err, errlen);
    if (rc == 0)
        rc = s_commit_check (c, err, errlen);
    zs_table_unlink_meta (self, c->base_list);
    c->base_list[0] = '\0';
    zs_names_unlink (&c->merged, self);
    if (rc == 0)
        rc = s_write_base_list (self, c->have ? &c->latest : NULL, c->tag, c->base_list,
                                &c->base_size, &c->merged, err, errlen);
    return rc;
}

//  Step 3: create the snapshot, retrying on a lost race with backoff, so
//  that two committers that keep colliding spread out (capped: a commit is
//  short and the winner is done already).
static int
s_commit_publish (s_commit_t *c, char *err, size_t errlen)
{
    int max_retries = c->req->max_retries;
    int64_t backoff_ms = 1;
    for (int attempt = 0;; attempt++) {
        c->attempts = attempt + 1;
        s_commit_build_snapshot (c);
        int rc = s_commit_create_snapshot (c, err, errlen);
        if (rc != ZS_ECONFLICT)
            return rc;
        if (attempt >= max_retries) {
            snprintf (err, errlen,
                      "%s: snapshot %" PRId64 " taken by another committer; gave up after %d "
                      "retries",
                      c->table->path, c->snap.id, max_retries);
            return rc;
        }
        zs_info ("Snapshot %" PRId64 " of table %s was committed by another user, retrying "
                 "(attempt %d of %d)",
                 c->snap.id, c->table->path, attempt + 1, max_retries);
        s_sleep_ms (backoff_ms);
        backoff_ms = backoff_ms * 2 > 100 ? 100 : backoff_ms * 2;
        if ((rc = s_commit_rebase (c, err, errlen)) != 0)
            return rc;
    }
}

//  No snapshot references what a failed commit wrote: remove it now rather
//  than leave orphans.
static void
s_commit_abandon (s_commit_t *c)
{
    const char *names[] = {c->manifest, c->delta_list, c->base_list};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        zs_table_unlink_meta (c->table, names[i]);
    zs_names_unlink (&c->merged, c->table);
    c->table->unsynced.n = 0; //  gone
}

//  Step 4: the snapshot exists; the live set follows it, the hints are
//  written (failing them is not a failed commit) and the commit logged.
static void
s_commit_finish (s_commit_t *c)
{
    zs_table_t *self = c->table;
    const zs_commit_t *r = c->req;
    if (self->live && self->live_id == (c->have ? c->latest.id : 0)) {
        for (size_t i = 0; i < r->n_deletes; i++) {
            zhash_delete (self->live, r->deletes[i].path);
            if (self->retired)
                zhash_update (self->retired, r->deletes[i].path, (void *) 1);
        }
        for (size_t i = 0; i < r->n; i++)
            zhash_insert (self->live, r->files[i].path, (void *) 1);
        self->live_id = c->snap.id;
    }
    self->hints_for = 0; //  superseded
    if (r->defer_hints) {
        self->hints_for = c->snap.id;
        memcpy (self->hints_tag, c->tag, sizeof self->hints_tag);
    } else
        s_write_hints (self, c->snap.id, c->tag);
    zs_info ("Successfully commit snapshot %lld to table %s by user %s with identifier %lld "
             "and kind %s.",
             (long long) c->snap.id, self->path, r->user, (long long) c->snap.commit_identifier,
             c->snap.commit_kind);
}

//  Steps 2 to 4 once step 1 passed; the merged names are c's to free.
static int
s_commit_steps (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    int rc = s_commit_write_manifests (c, err, errlen);
    if (rc == 0)
        rc = s_commit_publish (c, err, errlen);
    if (rc == ZS_EUNSURE) {
        //  The snapshot is visible (readers may use it) though maybe not
        //  durable: its manifests must stay. The caller fails over; its
        //  successor finds the identifier committed, or re-commits it if a
        //  crash took the snapshot away.
        char why[ZS_ERRLEN];
        snprintf (why, sizeof why, "%s", err);
        snprintf (err, errlen, "snapshot %" PRId64 " created but not known to be durable: %s",
                  c->snap.id, why);
        return -1;
    }
    if (rc != 0) {
        s_commit_abandon (c);
        return rc;
    }
    if (zs_failpoint ("committer.after-snapshot") == -1) {
        //  The snapshot exists: a retry will find this identifier filtered.
        snprintf (err, errlen, "%s: injected error after creating snapshot %" PRId64, self->path,
                  c->snap.id);
        return -1;
    }
    s_commit_finish (c);
    return 0;
}

int
zs_table_commit (zs_table_t *self, const zs_commit_t *req, zs_committed_t *out, char *err,
                 size_t errlen)
{
    s_commit_t c = {.table = self, .req = req};
    //  Shared with other commits, exclusive of cleaners (table_pins.c): from
    //  the check that every file it names is there to the snapshot's link,
    //  nothing removes one, so no snapshot names a file that is gone.
    zs_io_lock_t *lock = NULL;
    int rc = zs_table_clean_lock (self, false, ZS_CLEAN_WAIT_MS, &lock, err, errlen);
    if (rc == 0)
        rc = s_commit_begin (&c, err, errlen);
    if (rc == 0)
        rc = s_commit_steps (&c, err, errlen);
    zs_table_clean_unlock (&lock);
    zs_names_free (&c.merged);
    if (rc == 0 && out)
        *out = (zs_committed_t){.snapshot_id = c.snap.id,
                                .total_rows = c.snap.total_record_count,
                                .attempts = c.attempts,
                                .files_added = (int64_t) req->n,
                                .files_deleted = (int64_t) req->n_deletes,
                                .delta_rows = c.snap.delta_record_count};
    return rc;
}
