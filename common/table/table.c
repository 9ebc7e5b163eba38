/*  table.c - the table object: open/create (schema-0 made when a job's
    table is new), its schema files, its paths, and its teardown. The rest
    of the table store is in files of their own, each calling only the
    ones below it (no two call each other):

        table_commit.c      the commit, and its manifests written ahead
        table_merge.c       Paimon's manifest merge (of the commit's base list)
        table_pins.c        the clean lock, pins (the commit holds the lock)
        table_live.c        the live set, and the checks of a file to add
        table_write.c       writing manifests and lists (fsync deferred)
        table_read.c        reading snapshots, hints and manifests; scans
        table.c             this file
        table_options.c     the options the store acts on (Paimon's)
    and above them maintenance (table_maint.c, table_expire.c,
    table_compact.c …) and table_job.c, what a job asks of the table.
    The JSON codecs are in snapshot.c and manifest.c; every durable write
    goes through fs.c. The store's invariants are in table.h, the commit's
    in table_commit.c.
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
    return zs_table_read_options (self, err, errlen);
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
    if (self_p && *self_p) {
        zs_table_t *self = *self_p;
        zs_table_unprepare (self);
        zs_names_free (&self->unsynced);
        zs_schemas_free (&self->schemas);
        zhash_destroy (&self->live);
        zhash_destroy (&self->retired);
        free (self);
        *self_p = NULL;
    }
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
    //  A primary-key table's rows are its files merged by key (the latest
    //  sequence number wins, deletes drop rows): its files read one by one
    //  would be wrong rows, not an error. Said before any file is opened.
    char path[ZS_PATH_MAX], why[ZS_ERRLEN];
    if (zs_schema_append_table (&self->tschema, why, sizeof why) != 0) {
        snprintf (err, errlen, "%s is %s", self->path, why);
        return NULL;
    }
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
//  Manifest names, and the commit state the table holds

int
zs_names_add (zs_names_t *self, const char *name)
{
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 4;
        void *grown = realloc (self->name, cap * sizeof *self->name);
        if (!grown)
            return -1;
        self->name = grown;
        self->cap = cap;
    }
    snprintf (self->name[self->n++], sizeof self->name[0], "%s", name);
    return 0;
}

void
zs_names_unlink (zs_names_t *self, zs_table_t *table)
{
    for (size_t i = 0; i < self->n; i++)
        zs_table_unlink_meta (table, self->name[i]);
    self->n = 0;
}

void
zs_names_free (zs_names_t *self)
{
    free (self->name);
    *self = (zs_names_t){0};
}

void
zs_table_unlink_meta (zs_table_t *self, const char *name)
{
    if (!name[0])
        return; //  none (an empty commit's manifest), not manifest/ itself
    char rel[256], path[ZS_PATH_MAX];
    snprintf (rel, sizeof rel, "manifest/%s", name);
    zs_table_file_path (self, path, sizeof path, rel);
    zs_io_unlink (path);
}

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

//  Drop the prepared delta (manifest, list, files), removing its files
//  unless a commit took them.
void
zs_table_prepared_drop_delta (zs_table_t *self)
{
    zs_prepared_delta_t *d = &self->prepared.delta;
    if (d->have) {
        zs_table_unlink_meta (self, d->manifest);
        zs_table_unlink_meta (self, d->delta_list);
    }
    free (d->files);
    *d = (zs_prepared_delta_t){0};
}

//  Drop the prepared base list (and the manifests its merge wrote).
void
zs_table_prepared_drop_base (zs_table_t *self)
{
    zs_prepared_base_t *b = &self->prepared.base;
    if (b->have) {
        zs_table_unlink_meta (self, b->base_list);
        zs_names_unlink (&b->merged, self);
    }
    zs_names_free (&b->merged);
    *b = (zs_prepared_base_t){0};
}

void
zs_table_unprepare (zs_table_t *self)
{
    zs_table_prepared_drop_delta (self);
    zs_table_prepared_drop_base (self);
}

//  A snapshot's schemaId: the latest schema when it is made, as Paimon's
//  commit reads it (a time-travel read of the snapshot takes its columns
//  from it), whatever schema the files it adds have.
int64_t
zs_table_snapshot_schema_id (zs_table_t *self)
{
    char dir[ZS_PATH_MAX], why[ZS_ERRLEN];
    int64_t id = -1, known = zs_schemas_latest (&self->schemas)->id;
    zs_table_file_path (self, dir, sizeof dir, "schema");
    if (s_latest_schema (dir, &id, why, sizeof why) != 0 || id < known)
        id = known;
    return id;
}
