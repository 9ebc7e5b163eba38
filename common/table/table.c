/*  table.c - the table store: open/create, reading snapshots and
    manifests, and the commit. Orphans, clean-up and verify are in
    table_maint.c; the JSON codecs in snapshot.c and manifest.c; every
    durable write goes through fs.c.

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
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

static void s_prepared_drop (zs_table_t *self);

//  Join table path and a relative path; -1 when it does not fit.
int
zs_table_file_path (zs_table_t *self, char *buf, size_t buflen, const char *rel)
{
    return snprintf (buf, buflen, "%s/%s", self->path, rel) < (int) buflen ? 0 : -1;
}

//  --------------------------------------------------------------------------
//  Open / create

//  The highest N of schema/schema-N (Paimon's schema evolution adds one
//  per change; readers and writers use the latest). 0, ZS_ENOENT, -1.
static int
s_latest_schema (const char *dir, int64_t *id, char *err, size_t errlen)
{
    int64_t *ids;
    size_t n;
    int rc = zs_io_list_numbered (dir, "schema-", &ids, &n, err, errlen);
    if (rc == 0 && n == 0)
        rc = ZS_ENOENT;
    if (rc == 0)
        *id = ids[n - 1];
    free (ids);
    return rc;
}

int
zs_table_probe (const char *path, char *err, size_t errlen)
{
    char dir[ZS_PATH_MAX + 16];
    int64_t id;
    snprintf (dir, sizeof dir, "%s/schema", path);
    return s_latest_schema (dir, &id, err, errlen);
}

//  A table option's text, NULL when the schema has none.
static const char *
s_schema_option (const void *schema, const char *key)
{
    return zs_schema_option (schema, key, NULL);
}

//  The options the store acts on (table_options.h): Paimon's defaults, then
//  the table's own. -1 + err when one does not parse: the table's
//  retention or merge would otherwise be a guess (Paimon refuses it too).
static int
s_read_options (zs_table_t *self, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    if (zs_table_opts_read (&self->opts, s_schema_option, &self->tschema, why, sizeof why) == 0)
        return 0;
    snprintf (err, errlen, "table %s: %s", self->path, why);
    return -1;
}

const zs_table_opts_t *
zs_table_opts (zs_table_t *self)
{
    return &self->opts;
}

void
zs_table_set_opts (zs_table_t *self, const zs_table_opts_t *opts)
{
    self->opts = *opts;
}

static int
s_read_schema (zs_table_t *self, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    zs_schemas_free (&self->schemas);
    int rc = zs_schemas_load (&self->schemas, self->path, why, sizeof why);
    if (rc == ZS_ENOENT) {
        //  Without create, refuse anything that is not a table rather than
        //  make one: a typo in table.path must not start an empty table.
        snprintf (err, errlen, "not a Paimon table (no schema/schema-N): %s", self->path);
        return -1;
    }
    if (rc != 0) {
        snprintf (err, errlen, "%s", why);
        return -1;
    }
    self->tschema = *zs_schemas_latest (&self->schemas);
    self->schema = self->tschema.row;
    self->write_schema_id = self->tschema.id;
    //  Paimon keeps a table's partition keys across schema changes: the
    //  latest schema's name every manifest's partitions
    const char *dflt = zs_schema_option (&self->tschema, "partition.default-name", NULL);
    if (zs_partition_init (&self->part, &self->schema, dflt, why, sizeof why) != 0) {
        snprintf (err, errlen, "table %s: %s", self->path, why);
        return -1;
    }
    if (s_read_options (self, err, errlen) != 0)
        return -1;
    const char *codec = zs_schema_option (&self->tschema, "manifest.compression", "zstd");
    self->manifest_codec = strcasecmp (codec, "none") == 0 || strcasecmp (codec, "null") == 0
                               ? ZS_AVRO_CODEC_NULL
                           : strcasecmp (codec, "deflate") == 0 ? ZS_AVRO_CODEC_DEFLATE
                                                                : ZS_AVRO_CODEC_ZSTANDARD;
    return 0;
}

//  A job's rows are of its schema: the latest when it started (the
//  coordinator checks that, zs_table_prepare_job), or, for a role opening
//  the table after another engine altered it mid-job, the newest older
//  schema of the same row type: its files stay valid with that schema id,
//  as Paimon's writers' do (docs/decisions.md, "Schema evolution").
static int
s_job_schema (zs_table_t *self, const zs_schema_t *job, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    if (zs_schema_diff (job, &self->schema, why, sizeof why) == 0)
        return 0;
    for (size_t i = self->schemas.n; i-- > 1;) {
        const zs_table_schema_t *s = &self->schemas.s[i - 1];
        char other[ZS_ERRLEN];
        if (zs_schema_diff (job, &s->row, other, sizeof other) == 0) {
            self->write_schema_id = s->id;
            return 0;
        }
    }
    snprintf (err, errlen, "table %s has another schema: %s", self->path, why);
    return -1;
}

//  The directories a writer needs (a table another writer created may lack
//  some until its first commit). 0 or -1 + err.
static int
s_make_dirs (zs_table_t *self, bool partitioned, char *err, size_t errlen)
{
    char p[ZS_PATH_MAX];
    //  a partitioned table's buckets are in its partitions' directories,
    //  made by the writers as they meet each partition
    static const char *dirs[] = {"schema", "snapshot", "manifest", "bucket-0"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] - partitioned; i++) {
        zs_table_file_path (self, p, sizeof p, dirs[i]);
        if (zs_io_mkdirs (p) != 0) {
            snprintf (err, errlen, "%s: cannot create directory: %s", p, strerror (errno));
            return -1;
        }
    }
    return 0;
}

//  A new table's schema-0, when the table has no schema yet. Two processes
//  may create the same table at once: whoever loses the race reads the
//  winner's identical schema. An existing table is not written to at all
//  (its disk may be full: t_disk_full).
static int
s_create (zs_table_t *self, const zs_schema_t *create, const char *default_name, char *err,
          size_t errlen)
{
    char p[ZS_PATH_MAX];
    zs_table_file_path (self, p, sizeof p, "schema");
    int64_t id;
    if (s_latest_schema (p, &id, err, errlen) == 0)
        return 0;
    if (s_make_dirs (self, create->n_partition > 0, err, errlen) != 0)
        return -1;
    zs_table_file_path (self, p, sizeof p, "schema/schema-0");
    char *json = zs_schema_to_json_with (create, zs_clock_wall_ms (), default_name);
    int rc = json ? zs_io_create_exclusive (p, json, strlen (json), err, errlen) : -1;
    if (!json)
        snprintf (err, errlen, "out of memory");
    free (json);
    return rc == ZS_ECONFLICT ? 0 : rc;
}

//  A job's partitioning against the table's: the same keys in the same
//  order, and the same default name when the job names one. 0 or -1 + err.
static int
s_job_partition (zs_table_t *self, const zs_schema_t *job, const char *default_name, char *err,
                 size_t errlen)
{
    char a[512] = "", b[512] = "";
    zs_schema_partition_format (job, a, sizeof a);
    zs_schema_partition_format (&self->schema, b, sizeof b);
    if (strcmp (a, b) != 0 && !*b) {
        snprintf (err, errlen,
                  "table %s is not partitioned, the job is by '%s' (table.partition-keys): a "
                  "table's partition keys never change",
                  self->path, a);
        return -1;
    }
    if (strcmp (a, b) != 0) {
        snprintf (err, errlen,
                  "table %s is partitioned by '%s', the job by '%s' (table.partition-keys): "
                  "a table's partition keys never change",
                  self->path, b, *a ? a : "none");
        return -1;
    }
    if (default_name && *default_name && strcmp (default_name, self->part.default_name) != 0) {
        snprintf (err, errlen,
                  "table %s has partition.default-name '%s', the job '%s': a table's default "
                  "partition name never changes",
                  self->path, self->part.default_name, default_name);
        return -1;
    }
    return 0;
}

zs_table_t *
zs_table_open (const char *path, const zs_schema_t *create, char *err, size_t errlen)
{
    return zs_table_open_job (path, create, NULL, err, errlen);
}

const zs_partition_t *
zs_table_partition (zs_table_t *self)
{
    return &self->part;
}

zs_table_t *
zs_table_open_job (const char *path, const zs_schema_t *create, const char *default_name, char *err,
                   size_t errlen)
{
    zs_table_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    //  Room for "/manifest/.manifest-list-xxxxxxxx-<uuid>.tmp-<…>-<pid>-<n>".
    if (strlen (path) + 200 >= sizeof self->path) {
        snprintf (err, errlen, "%s: table path too long", path);
        free (self);
        return NULL;
    }
    snprintf (self->path, sizeof self->path, "%s", path);
    self->live_id = -1;
    //  One spelling of the path, so log lines and messages compare equal.
    size_t len = strlen (self->path);
    while (len > 1 && self->path[len - 1] == '/')
        self->path[--len] = '\0';
    if ((create && s_create (self, create, default_name, err, errlen) != 0)
        || s_read_schema (self, err, errlen) != 0)
        goto fail;
    //  A job writes rows of its own schema, exactly once: into a table of
    //  another schema they would be unreadable, or worse, readable as
    //  something else; into a table of another kind not exactly once.
    char why[ZS_ERRLEN];
    if (create && zs_schema_writable (&self->tschema, why, sizeof why) != 0) {
        snprintf (err, errlen, "zsink cannot write table %s: %s", self->path, why);
        goto fail;
    }
    if (create && s_job_schema (self, create, err, errlen) != 0)
        goto fail;
    if (create && s_job_partition (self, create, default_name, err, errlen) != 0)
        goto fail;
    if (create && s_make_dirs (self, self->part.n > 0, err, errlen) != 0)
        goto fail;
    return self;
fail:
    zs_schemas_free (&self->schemas);
    free (self);
    return NULL;
}

void
zs_table_destroy (zs_table_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    s_prepared_drop (*self_p);
    zs_names_free (&(*self_p)->unsynced);
    zs_schemas_free (&(*self_p)->schemas);
    zhash_destroy (&(*self_p)->live);
    zhash_destroy (&(*self_p)->retired);
    free (*self_p);
    *self_p = NULL;
}

const zs_schema_t *
zs_table_schema (zs_table_t *self)
{
    return &self->schema;
}

const zs_table_schema_t *
zs_table_schema_file (zs_table_t *self)
{
    return &self->tschema;
}

const zs_schemas_t *
zs_table_schemas (zs_table_t *self)
{
    return &self->schemas;
}

int
zs_table_refresh_schemas (zs_table_t *self, char *err, size_t errlen)
{
    //  Schema files are never rewritten (Paimon creates each once): the
    //  same ids mean the same schemas, and a listing is all it costs.
    char dir[ZS_PATH_MAX];
    int64_t *ids = NULL;
    size_t n = 0;
    zs_table_file_path (self, dir, sizeof dir, "schema");
    if (zs_io_list_numbered (dir, "schema-", &ids, &n, err, errlen) != 0)
        return -1;
    bool same = n == self->schemas.n;
    for (size_t i = 0; same && i < n; i++)
        same = ids[i] == self->schemas.s[i].id;
    free (ids);
    if (same)
        return 0;
    zs_schemas_t fresh;
    int rc = zs_schemas_load (&fresh, self->path, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? -1 : rc;
    if (fresh.n < self->schemas.n) {
        snprintf (err, errlen, "%s/schema: %zu schema files, %zu before", self->path, fresh.n,
                  self->schemas.n);
        zs_schemas_free (&fresh);
        return -1;
    }
    zs_schemas_free (&self->schemas);
    self->schemas = fresh;
    return 0;
}

const zs_table_schema_t *
zs_table_file_schema (zs_table_t *self, int64_t id, char *err, size_t errlen)
{
    const zs_table_schema_t *s = zs_schemas_find (&self->schemas, id);
    if (!s && zs_table_refresh_schemas (self, err, errlen) != 0)
        return NULL;
    s = s ? s : zs_schemas_find (&self->schemas, id);
    if (!s)
        snprintf (err, errlen, "%s: no schema/schema-%lld", self->path, (long long) id);
    return s;
}

zs_evolved_reader_t *
zs_table_read_file (zs_table_t *self, const zs_file_meta_t *f, int64_t as, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    if (zs_table_file_path (self, path, sizeof path, f->path) != 0) {
        snprintf (err, errlen, "%s: path too long", f->path);
        return NULL;
    }
    const zs_table_schema_t *file = zs_table_file_schema (self, f->schema_id, err, errlen);
    const zs_table_schema_t *want =
        as < 0 ? zs_schemas_latest (&self->schemas) : zs_schemas_find (&self->schemas, as);
    if (file && !want)
        snprintf (err, errlen, "%s: no schema/schema-%lld", self->path, (long long) as);
    if (!file || !want)
        return NULL;
    return zs_evolved_reader_open (path, file, want, err, errlen);
}

const char *
zs_table_path (zs_table_t *self)
{
    return self->path;
}

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

static int
s_user_ids (zs_table_t *self, const zs_snapshot_t *latest, zs_snapshot_t *map, char *err,
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
    rc = s_user_ids (self, &snap, map, err, errlen);
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
//  The live set, and checking a file before it is added

//  The files a DELETE entry of a retained snapshot names (compaction
//  inputs, another writer's overwrites) into retired: no longer live, but
//  their rows are, in the files that replaced them, until an expiry removes
//  them. Only snapshots other than APPEND can delete.
static int
s_retired_load (zs_table_t *self, int64_t latest, zhash_t *retired, char *err, size_t errlen)
{
    int64_t *ids = NULL;
    size_t n = 0;
    if (zs_table_snapshot_ids (self, &ids, &n, err, errlen) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n && ids[i] <= latest; i++) {
        zs_snapshot_t s;
        char why[ZS_ERRLEN];
        if (zs_table_read_snapshot (self, ids[i], &s, why, sizeof why) != 0
            || strcmp (s.commit_kind, "APPEND") == 0)
            continue; //  expired meanwhile, or no DELETE in it
        zs_manifest_meta_t *metas = NULL;
        size_t nm = 0;
        if (zs_table_read_manifest_list (self, s.delta_manifest_list, &metas, &nm, why, sizeof why)
            != 0)
            continue;
        for (size_t m = 0; rc == 0 && m < nm; m++) {
            if (metas[m].deleted_files == 0)
                continue;
            zs_manifest_entry_t *entries = NULL;
            size_t ne = 0;
            if (zs_table_read_manifest (self, metas[m].file, &entries, &ne, why, sizeof why) != 0)
                continue;
            for (size_t e = 0; e < ne; e++)
                if (!entries[e].add)
                    zhash_update (retired, entries[e].file.path, (void *) 1);
            free (entries);
        }
        free (metas);
    }
    free (ids);
    return rc;
}

//  Make self->live the live set of snapshot id (0: the empty table), and
//  self->retired what the retained snapshots up to it deleted.
static int
s_live_load (zs_table_t *self, int64_t id, char *err, size_t errlen)
{
    if (self->live && self->live_id == id)
        return 0;
    zhash_destroy (&self->live);
    zhash_destroy (&self->retired);
    self->live_id = -1;
    zhash_t *live = zhash_new (), *retired = zhash_new ();
    zs_file_meta_t *files = NULL;
    size_t n = 0;
    int rc = id > 0 ? zs_table_live_files (self, id, &files, &n, err, errlen) : 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        zhash_insert (live, files[i].path, (void *) 1); //  a duplicate is verify's business
    free (files);
    if (rc == 0 && id > 0)
        rc = s_retired_load (self, id, retired, err, errlen);
    if (rc != 0) {
        zhash_destroy (&live);
        zhash_destroy (&retired);
        return rc;
    }
    self->live = live;
    self->retired = retired;
    self->live_id = id;
    return 0;
}

void
zs_table_forget_retired (zs_table_t *self, const char *path)
{
    if (self->retired)
        zhash_delete (self->retired, path);
}

//  The file on disk is the one recorded: a regular file (not a link out of
//  the table) of the recorded size. A size mismatch counts as missing: a
//  file rewritten or truncated after the writer closed it is not the file
//  the checkpoint recorded.
static int
s_check_on_disk (zs_table_t *self, const zs_file_meta_t *f, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    if (zs_table_file_path (self, path, sizeof path, f->path) != 0) {
        snprintf (err, errlen, "%s: path too long", f->path);
        return -1;
    }
    zs_io_stat_t st;
    int rc = zs_io_stat (path, &st);
    if (rc == ZS_ENOENT) {
        snprintf (err, errlen, "%s: data file to commit is missing", path);
        return ZS_EMISSING;
    }
    //  not told (S3 did not answer): a failure that may pass, never "missing"
    if (rc != 0) {
        snprintf (err, errlen, "%s: data file to commit: cannot stat: %s", path, strerror (errno));
        return -1;
    }
    if (!st.regular) {
        snprintf (err, errlen, "%s: data file to commit is not a regular file", path);
        return -1;
    }
    if (st.size != f->size) {
        snprintf (err, errlen, "%s: data file to commit has size %" PRId64 ", recorded %" PRId64,
                  path, st.size, f->size);
        return ZS_EMISSING;
    }
    return 0;
}

static bool s_no_filter (void);

static int
s_check_not_live (zs_table_t *self, const zs_file_meta_t *f, char *err, size_t errlen)
{
    //  The negative control turns this net off too: with it on, a re-commit
    //  without filterCommitted fails instead of doubling rows, and the
    //  control would show nothing.
    if (s_no_filter ())
        return 0;
    if (zhash_lookup (self->live, f->path)) {
        //  Paimon's words for the same refusal (FileEntry.mergeEntries)
        snprintf (err, errlen,
                  "Trying to add file %s which is already added (live in snapshot %" PRId64
                  " of %s)",
                  f->path, self->live_id, self->path);
        return ZS_EDUPLICATE;
    }
    //  compacted away: its rows are live in the file that replaced it
    if (self->retired && zhash_lookup (self->retired, f->path)) {
        snprintf (err, errlen,
                  "Trying to add file %s which was added and then compacted away (its rows are "
                  "live as of snapshot %" PRId64 " of %s)",
                  f->path, self->live_id, self->path);
        return ZS_EDUPLICATE;
    }
    return 0;
}

//  A new file's path: inside the table, in its partition's directory (the
//  one the table names the partition by: a reader finds it there), none
//  in an unpartitioned table. 0 or -1 + err.
static int
s_check_path (zs_table_t *self, const zs_file_meta_t *f, char *err, size_t errlen)
{
    size_t dir_len;
    int bucket;
    const char *name;
    if (zs_data_path_split (f->path, &dir_len, &bucket, &name, err, errlen) != 0)
        return -1;
    char dir[ZS_PARTITION_DIR_MAX] = "", why[ZS_ERRLEN] = "";
    zs_value_t values[ZS_PARTITION_MAX];
    if (self->part.n > 0
        && (zs_partition_decode (&self->part, f->partition, f->partition_len, values, why,
                                 sizeof why)
                != 0
            || zs_partition_dir (&self->part, values, dir, sizeof dir, why, sizeof why) < 0)) {
        snprintf (err, errlen, "data file %s: its partition is not one of table %s: %s", f->path,
                  self->path, why);
        return -1;
    }
    if (strlen (dir) != dir_len || strncmp (f->path, dir, dir_len) != 0
        || (self->part.n == 0 && f->partition_len > 0)) {
        snprintf (err, errlen, "data file %s: not in its partition's directory '%s' of table %s",
                  f->path, dir, self->path);
        return -1;
    }
    return 0;
}

int
zs_table_check_new_file (zs_table_t *self, const zs_file_meta_t *f, char *err, size_t errlen)
{
    if (s_check_path (self, f, err, errlen) != 0)
        return -1;
    if (!self->live) {
        int64_t earliest = 0, latest = 0;
        int rc = zs_table_snapshot_range (self, &earliest, &latest, err, errlen);
        if (rc == 0)
            rc = s_live_load (self, latest, err, errlen);
        if (rc != 0)
            return rc;
    }
    int rc = s_check_not_live (self, f, err, errlen);
    return rc ? rc : s_check_on_disk (self, f, err, errlen);
}

//  Every file of a commit against the snapshot it builds on (live set
//  loaded for it): inside the table, not live already, not listed twice,
//  on disk as recorded. Adds up their rows.
static int
s_check_new_files (zs_table_t *self, const zs_file_meta_t *files, size_t n, int64_t *rows,
                   char *err, size_t errlen)
{
    *rows = 0;
    zhash_t *seen = zhash_new ();
    if (!seen) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if ((rc = s_check_path (self, &files[i], err, errlen)) != 0)
            break;
        if ((rc = s_check_not_live (self, &files[i], err, errlen)) != 0)
            break;
        if (zhash_insert (seen, files[i].path, (void *) 1) != 0) {
            snprintf (err, errlen, "Trying to add file %s twice in one commit", files[i].path);
            rc = ZS_EDUPLICATE;
            break;
        }
        rc = s_check_on_disk (self, &files[i], err, errlen);
        *rows += files[i].rows;
    }
    zhash_destroy (&seen);
    return rc;
}

//  A compaction's inputs: each live in the snapshot the live set is of,
//  once; their rows into *rows. ZS_ECONFLICT when one is not (another
//  writer deleted it: the compaction is dropped, as Paimon drops it).
static int
s_check_deletes (zs_table_t *self, const zs_file_meta_t *files, size_t n, int64_t *rows, char *err,
                 size_t errlen)
{
    *rows = 0;
    for (size_t i = 0; i < n; i++) {
        if (!zhash_lookup (self->live, files[i].path)) {
            snprintf (err, errlen,
                      "%s: compaction input %s is not live in snapshot %" PRId64
                      " (removed by another commit): compaction dropped",
                      self->path, files[i].path, self->live_id);
            return ZS_ECONFLICT;
        }
        *rows += files[i].rows;
    }
    return 0;
}

//  --------------------------------------------------------------------------
//  Commit

//  First 8 characters of the commit user, made file-name safe. Non
//  alphanumerics become 'x' so the prefix can never contain '-' and be
//  confused with the "list-" of a manifest-list name.
void
zs_table_user_tag (const char *user, char tag[9])
{
    size_t i = 0;
    for (; i < 8 && user[i]; i++) {
        char c = user[i];
        bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        tag[i] = alnum ? c : 'x';
    }
    tag[i] = '\0';
}

//  The chaos runner's negative control: with ZSINK_TEST_NO_FILTER_COMMITTED=1
//  in the environment, filterCommitted is skipped, and so is the check
//  that a file is not live already (the second net under it), and the
//  chaos run must then find duplicates (tests/chaos/chaos.sh --negative).
//  Never set it otherwise.
static bool
s_no_filter (void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *v = getenv ("ZSINK_TEST_NO_FILTER_COMMITTED");
        cached = v && strcmp (v, "1") == 0;
        if (cached)
            zs_warn ("ZSINK_TEST_NO_FILTER_COMMITTED=1: filterCommitted and the already-added "
                     "check are OFF (negative control); this process may commit an identifier "
                     "twice");
    }
    return cached == 1;
}

//  filterCommitted against the snapshot we build on (NULL = empty table).
static int
s_filter (zs_table_t *self, const zs_snapshot_t *ids, const char *user, int64_t identifier,
          char *err, size_t errlen)
{
    if (s_no_filter ())
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
    //  (s_sync_manifests): no reader opens a manifest no snapshot names, so
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
static int
s_sync_manifests (zs_table_t *self, bool sync_dir, char *err, size_t errlen)
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
static int
s_write_list (zs_table_t *self, const char *name, const zs_manifest_meta_t *metas, size_t n,
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

void
zs_table_unlink_meta (zs_table_t *self, const char *name)
{
    char rel[256], path[ZS_PATH_MAX];
    snprintf (rel, sizeof rel, "manifest/%s", name);
    zs_table_file_path (self, path, sizeof path, rel);
    zs_io_unlink (path);
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
    int rc = s_write_list (self, name, metas, n, size, err, errlen);
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
    zs_snapshot_t ids; //  committed identifiers as of latest (s_user_ids)
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
        rc = s_user_ids (c->table, &c->latest, &c->ids, err, errlen);
    if (rc == 0 && !r->compact)
        rc = s_filter (c->table, c->have ? &c->ids : NULL, r->user, r->identifier, err, errlen);
    return rc;
}

//  The files against the snapshot we build on (live set loaded for it):
//  the new ones (s_check_new_files) and a compaction's inputs.
static int
s_commit_check (s_commit_t *c, char *err, size_t errlen)
{
    zs_table_t *self = c->table;
    const zs_commit_t *r = c->req;
    int rc = s_live_load (self, c->have ? c->latest.id : 0, err, errlen);
    if (rc == 0)
        rc = s_check_new_files (self, r->files, r->n, &c->delta_rows, err, errlen);
    if (rc == 0)
        rc = s_check_deletes (self, r->deletes, r->n_deletes, &c->deleted_rows, err, errlen);
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
        rc = s_write_list (self, c->delta_list, &meta, n ? 1 : 0, &c->delta_size, err, errlen);
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

//  Drop the prepared delta (manifest, list, files), removing its files
//  unless a commit took them.
static void
s_prepared_drop_delta (zs_table_t *self)
{
    zs_prepared_delta_t *d = &self->prepared.delta;
    if (d->have) {
        if (d->manifest[0])
            zs_table_unlink_meta (self, d->manifest);
        if (d->delta_list[0])
            zs_table_unlink_meta (self, d->delta_list);
    }
    free (d->files);
    *d = (zs_prepared_delta_t){0};
}

//  Drop the prepared base list (and the manifests its merge wrote).
static void
s_prepared_drop_base (zs_table_t *self)
{
    zs_prepared_base_t *b = &self->prepared.base;
    if (b->have) {
        if (b->base_list[0])
            zs_table_unlink_meta (self, b->base_list);
        zs_names_unlink (&b->merged, self);
    }
    zs_names_free (&b->merged);
    *b = (zs_prepared_base_t){0};
}

static void
s_prepared_drop (zs_table_t *self)
{
    s_prepared_drop_delta (self);
    s_prepared_drop_base (self);
}

void
zs_table_unprepare (zs_table_t *self)
{
    s_prepared_drop (self);
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
    s_prepared_drop_base (self);
    int rc = s_commit_write_base (c, err, errlen);
    if (rc != 0) {
        if (c->base_list[0])
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
        rc = s_sync_manifests (self, false, err, errlen);
    if (rc != 0)
        s_prepared_drop_base (self);
    return rc;
}

int
zs_table_prepare (zs_table_t *self, const zs_commit_t *req, char *err, size_t errlen)
{
    if (s_prepared_delta_fits (self, req))
        return 0;
    s_prepared_drop_delta (self);
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
        rc = s_sync_manifests (self, true, err, errlen);
    d->files = req->n ? malloc (req->n * sizeof *d->files) : NULL;
    if (rc == 0 && req->n && !d->files) {
        snprintf (err, errlen, "out of memory");
        rc = -1;
    }
    if (rc != 0) {
        s_commit_abandon (&c);
        zs_names_free (&c.merged);
        s_prepared_drop (self);
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
    s_prepared_drop_base (self);
    if (delta
        || (!c->req->compact && !c->req->overwrite && c->req->identifier >= p->delta.identifier))
        s_prepared_drop_delta (self);
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

//  A snapshot's schemaId: the latest schema when it is made, as Paimon's
//  commit reads it (a time-travel read of the snapshot takes its columns
//  from it), whatever schema the files it adds have.
static int64_t
s_snapshot_schema_id (zs_table_t *self)
{
    char dir[ZS_PATH_MAX], why[ZS_ERRLEN];
    int64_t id = -1, known = zs_schemas_latest (&self->schemas)->id;
    zs_table_file_path (self, dir, sizeof dir, "schema");
    if (s_latest_schema (dir, &id, why, sizeof why) != 0 || id < known)
        id = known;
    return id;
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
    snap->schema_id = s_snapshot_schema_id (c->table);
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
    if (s_sync_manifests (c->table, true, err, errlen) != 0) {
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
        if (names[i][0])
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
