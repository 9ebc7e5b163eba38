/*  table_partitions.c - a partitioned table's partitions (table.h): Paimon's
    $partitions system table, drop_partition, expire_partitions, and the
    partition filter of a pruned scan.

    Invariants:
    1. A drop is one OVERWRITE snapshot, as Paimon's FileStoreCommitImpl.
       dropPartitions records it (tryOverwritePartition with no new file):
       a DELETE entry for every live file of the partitions as of the
       snapshot it builds on, nothing added, by a commit user of its own
       with identifier Long.MAX_VALUE (BatchWriteBuilder.COMMIT_IDENTIFIER).
       No data file is removed here: the expiry of the snapshots before it
       does that, as for a compaction's inputs.
    2. It carries every commit user's last identifier forward like any
       commit (table.h, invariant 2), so a running job's filterCommitted is
       what it was: the job's next commit builds on the drop's snapshot,
       its files of other partitions stay live, and a restore re-commits
       only the identifiers the table has not got.
    3. A drop deletes only live files: one a compaction or another drop
       replaced meanwhile makes the commit fail with ZS_ECONFLICT, and the
       drop starts over on the new latest snapshot.
    4. Partition values are compared as values of their key's type (a spec
       "hr=07" is the INT 7), never as text (partition_filter.c).
*/
#include "computed_priv.h"
#include "partition_filter.h"
#include "log.h"
#include "rowfmt.h"
#include "table.h"
#include "table_dryrun.h"
#include "table_priv.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  How often a drop starts over when compactions keep replacing its files.
#define S_DROP_ATTEMPTS 5

//  ---------------------------------------------------------------------
//  Values

//  A file's partition values (STRINGs point into f).
static int
s_file_values (const zs_partition_t *part, const zs_file_meta_t *f, zs_value_t *values, char *err,
               size_t errlen)
{
    return zs_partition_decode (part, f->partition, f->partition_len, values, err, errlen);
}

//  Paimon's $partitions spelling: "k1=v1/k2=v2", each value cast to a
//  string (a DATE as yyyy-MM-dd, a TIMESTAMP with its precision's
//  fraction), null as the default name; into buf.
static void
s_partition_text (const zs_partition_t *part, const zs_value_t *values, char *buf, size_t cap)
{
    zs_strbuf_t text = {0};
    for (int k = 0; k < part->n; k++) {
        zs_strbuf_appends (&text, k ? "/" : "");
        zs_strbuf_appends (&text, part->name[k]);
        zs_strbuf_appends (&text, "=");
        if (values[k].null)
            zs_strbuf_appends (&text, part->default_name);
        else
            zs_value_text_col (&text, &part->def[k], &values[k]);
    }
    snprintf (buf, cap, "%.*s", text.data ? (int) text.len : 0, text.data ? text.data : "");
    zs_strbuf_free (&text);
}

static int
s_not_partitioned (zs_table_t *self, char *err, size_t errlen)
{
    snprintf (err, errlen, "table %s is not partitioned", zs_table_path (self));
    return ZS_EREFUSED;
}

//  ---------------------------------------------------------------------
//  $partitions

//  Files in partition order (by their BinaryRow, length first).
static int
s_cmp_partition (const void *a, const void *b)
{
    const zs_file_meta_t *x = a, *y = b;
    if (x->partition_len != y->partition_len)
        return x->partition_len < y->partition_len ? -1 : 1;
    return memcmp (x->partition, y->partition, x->partition_len);
}

static int
s_cmp_info (const void *a, const void *b)
{
    return strcmp (((const zs_partition_info_t *) a)->partition,
                   ((const zs_partition_info_t *) b)->partition);
}

//  One partition's figures from its files [f, f + n).
static int
s_part_info (const zs_partition_t *part, const zs_file_meta_t *f, size_t n,
             zs_partition_info_t *info, char *err, size_t errlen)
{
    memset (info, 0, sizeof *info);
    zs_value_t values[ZS_PARTITION_MAX];
    if (s_file_values (part, f, values, err, errlen) != 0)
        return -1;
    s_partition_text (part, values, info->partition, sizeof info->partition);
    info->row_len = f->partition_len;
    memcpy (info->row, f->partition, f->partition_len);
    info->last_update_ms = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        info->record_count += f[i].rows;
        info->file_size_in_bytes += f[i].size;
        info->file_count++;
        if (f[i].creation_ms > info->last_update_ms)
            info->last_update_ms = f[i].creation_ms;
    }
    return 0;
}

int
zs_table_partitions (zs_table_t *self, int64_t snapshot_id, zs_partition_info_t **out_p,
                     size_t *n_p, char *err, size_t errlen)
{
    const zs_partition_t *part = zs_table_partition (self);
    *out_p = NULL;
    *n_p = 0;
    if (part->n == 0)
        return s_not_partitioned (self, err, errlen);
    zs_file_meta_t *files;
    size_t nf;
    int rc = zs_table_live_files (self, snapshot_id, &files, &nf, err, errlen);
    if (rc != 0)
        return rc;
    if (nf > 1)
        qsort (files, nf, sizeof *files, s_cmp_partition);
    zs_partition_info_t *out = nf ? calloc (nf, sizeof *out) : NULL;
    size_t n = 0;
    if (nf && !out) {
        snprintf (err, errlen, "out of memory");
        rc = -1;
    }
    for (size_t i = 0, j; rc == 0 && i < nf; i = j) {
        for (j = i + 1; j < nf && s_cmp_partition (&files[i], &files[j]) == 0; j++)
            ;
        rc = s_part_info (part, &files[i], j - i, &out[n++], err, errlen);
    }
    free (files);
    if (rc != 0) {
        free (out);
        return rc;
    }
    if (n > 1)
        qsort (out, n, sizeof *out, s_cmp_info);
    *out_p = out;
    *n_p = n;
    return 0;
}

//  ---------------------------------------------------------------------
//  Dropping (invariants 1 to 3)

//  Which live files a drop takes.
typedef bool (s_match_fn) (const zs_partition_t *part, const zs_file_meta_t *f, void *arg);

//  The live files of the latest snapshot match() takes, into *sel_p
//  (malloc'd), their partitions counted.
static int
s_select (zs_table_t *self, s_match_fn *match, void *arg, zs_file_meta_t **sel_p, size_t *n_p,
          int64_t *partitions, char *err, size_t errlen)
{
    const zs_partition_t *part = zs_table_partition (self);
    zs_file_meta_t *files;
    size_t nf, k = 0;
    int rc = zs_table_live_files (self, 0, &files, &nf, err, errlen);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < nf; i++)
        if (match (part, &files[i], arg))
            files[k++] = files[i];
    if (k > 1)
        qsort (files, k, sizeof *files, s_cmp_partition);
    *partitions = 0;
    for (size_t i = 0; i < k; i++)
        *partitions += i == 0 || s_cmp_partition (&files[i - 1], &files[i]) != 0;
    *sel_p = files;
    *n_p = k;
    return 0;
}

//  One OVERWRITE snapshot deleting what match() takes, started over when a
//  commit removed one of them meanwhile (invariant 3). Nothing to drop:
//  0 with out->snapshot_id 0.
static int
s_drop (zs_table_t *self, s_match_fn *match, void *arg, zs_dropped_t *out, char *err, size_t errlen)
{
    memset (out, 0, sizeof *out);
    for (int attempt = 1;; attempt++) {
        zs_file_meta_t *sel;
        size_t n;
        int64_t partitions;
        int rc = s_select (self, match, arg, &sel, &n, &partitions, err, errlen);
        if (rc != 0)
            return rc;
        if (n == 0) {
            free (sel);
            return 0;
        }
        char user[40];
        zs_uuid (user);
        zs_commit_t req = {.user = user,
                           .identifier = ZS_END_INPUT_ID,
                           .deletes = sel,
                           .n_deletes = n,
                           .max_retries = 10,
                           .overwrite = true};
        zs_committed_t made;
        rc = zs_table_commit (self, &req, &made, err, errlen);
        free (sel);
        if (rc == 0) {
            out->snapshot_id = made.snapshot_id;
            out->partitions = partitions;
            out->files = (int64_t) n;
            out->rows = -made.delta_rows;
            return 0;
        }
        if (rc != ZS_ECONFLICT || attempt == S_DROP_ATTEMPTS)
            return rc;
        zs_info ("drop of partitions in %s: %s; starting over", zs_table_path (self), err);
    }
}

//  A spec "k=v[,k=v…]": some of the keys, each with its value.
typedef struct {
    int n;
    int key[ZS_PARTITION_MAX];
    zs_value_t value[ZS_PARTITION_MAX];
    char scratch[ZS_PARTITION_MAX][ZS_PARTITION_DIR_MAX + 8];
    const char *text;
    bool matched;
} s_spec_t;

static int
s_spec_parse (const zs_partition_t *part, const char *text, s_spec_t *spec, char *err,
              size_t errlen)
{
    memset (spec, 0, sizeof *spec);
    spec->text = text;
    for (const char *p = text; *p;) {
        const char *comma = strchr (p, ',');
        const char *end = comma ? comma : p + strlen (p);
        const char *eq = memchr (p, '=', (size_t) (end - p));
        int k = eq ? zs_partition_key_index (part, p, (size_t) (eq - p)) : -1;
        if (k < 0) {
            snprintf (err, errlen, "partition '%s': '%.*s' names no partition key of the table",
                      text, (int) (eq ? eq - p : end - p), p);
            return -1;
        }
        for (int i = 0; i < spec->n; i++)
            if (spec->key[i] == k) {
                snprintf (err, errlen, "partition '%s': key '%s' given twice", text, part->name[k]);
                return -1;
            }
        char why[ZS_ERRLEN];
        if (zs_partition_key_value (part, k, eq + 1, (size_t) (end - eq - 1), &spec->value[spec->n],
                                    spec->scratch[spec->n], sizeof spec->scratch[0], why,
                                    sizeof why)
            != 0) {
            snprintf (err, errlen, "partition '%s': %s", text, why);
            return -1;
        }
        spec->key[spec->n++] = k;
        p = comma ? comma + 1 : end;
    }
    if (spec->n == 0) {
        snprintf (err, errlen, "empty partition spec");
        return -1;
    }
    return 0;
}

static bool
s_spec_match (const zs_partition_t *part, const zs_value_t *values, const s_spec_t *spec)
{
    for (int i = 0; i < spec->n; i++) {
        const zs_value_t *a = &values[spec->key[i]], *b = &spec->value[i];
        if (a->null != b->null
            || (!a->null && zs_partition_value_cmp (part->def[spec->key[i]].type, a, b) != 0))
            return false;
    }
    return true;
}

typedef struct {
    s_spec_t *specs;
    size_t n;
} s_specs_t;

static bool
s_match_specs (const zs_partition_t *part, const zs_file_meta_t *f, void *arg)
{
    s_specs_t *s = arg;
    zs_value_t values[ZS_PARTITION_MAX];
    char why[ZS_ERRLEN];
    if (s_file_values (part, f, values, why, sizeof why) != 0)
        return false;
    bool any = false;
    for (size_t i = 0; i < s->n; i++)
        if (s_spec_match (part, values, &s->specs[i]))
            any = s->specs[i].matched = true;
    return any;
}

//  zs_table_drop_partitions, or its dry run (table_dryrun.h).
static int
s_drop_partitions (zs_table_t *self, const char *const *specs, size_t n, bool dry,
                   zs_dropped_t *out, char *err, size_t errlen)
{
    const zs_partition_t *part = zs_table_partition (self);
    memset (out, 0, sizeof *out);
    if (part->n == 0)
        return s_not_partitioned (self, err, errlen);
    s_specs_t s = {calloc (n ? n : 1, sizeof *s.specs), n};
    if (!s.specs) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = s_spec_parse (part, specs[i], &s.specs[i], err, errlen);
    //  a spec that names no live partition is a mistake, not a no-op: said
    //  before anything is dropped
    zs_file_meta_t *sel = NULL;
    size_t nsel;
    int64_t partitions;
    if (rc == 0)
        rc = s_select (self, s_match_specs, &s, &sel, &nsel, &partitions, err, errlen);
    if (rc == 0 && dry) {
        out->partitions = partitions;
        out->files = (int64_t) nsel;
        for (size_t i = 0; i < nsel; i++)
            out->rows += sel[i].rows;
    }
    free (sel);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (!s.specs[i].matched) {
            snprintf (err, errlen, "table %s has no partition %s", zs_table_path (self),
                      s.specs[i].text);
            rc = ZS_ENOENT;
        }
    if (rc == 0 && !dry)
        rc = s_drop (self, s_match_specs, &s, out, err, errlen);
    free (s.specs);
    return rc;
}

int
zs_table_drop_partitions (zs_table_t *self, const char *const *specs, size_t n, zs_dropped_t *out,
                          char *err, size_t errlen)
{
    return s_drop_partitions (self, specs, n, false, out, err, errlen);
}

int
zs_table_drop_partitions_dry_run (zs_table_t *self, const char *const *specs, size_t n,
                                  zs_dropped_t *out, char *err, size_t errlen)
{
    return s_drop_partitions (self, specs, n, true, out, err, errlen);
}

//  ---------------------------------------------------------------------
//  Expiring (Paimon's PartitionExpire)

//  The local wall clock as epoch millis (LocalDateTime.now()).

static int64_t
s_ldt_ms (const zs_ldt_t *t)
{
    return (zs_ldt_days (t->year, t->month, t->day) * 86400 + t->hour * 3600 + t->minute * 60
            + t->second)
               * 1000
           + t->nano / 1000000;
}

int
zs_table_partition_expire_options (zs_table_t *self, zs_partition_expire_t *req, char *err,
                                   size_t errlen)
{
    const zs_table_schema_t *s = zs_table_schema_file (self);
    memset (req, 0, sizeof *req);
    req->max_num = 100;
    const char *v = zs_schema_option (s, "partition.expiration-time", NULL);
    if (v && zs_parse_duration_ms (v, &req->expiration_ms) != 0) {
        snprintf (err, errlen, "table %s: option partition.expiration-time is '%s': not a duration",
                  zs_table_path (self), v);
        return -1;
    }
    v = zs_schema_option (s, "partition.expiration-max-num", NULL);
    if (v && (req->max_num = atoi (v)) <= 0) {
        snprintf (err, errlen, "table %s: option partition.expiration-max-num is '%s'",
                  zs_table_path (self), v);
        return -1;
    }
    req->formatter = zs_schema_option (s, "partition.timestamp-formatter", NULL);
    req->pattern = zs_schema_option (s, "partition.timestamp-pattern", NULL);
    req->strategy = zs_schema_option (s, "partition.expiration-strategy", NULL);
    return 0;
}

//  The partition values as Java's toString of their internal objects, as
//  PartitionExpireStrategy.convertPartition hands them on: the directory's
//  values unescaped (a DATE as its int days, a TIMESTAMP as a
//  LocalDateTime). false for a partition with a null value (Paimon's
//  extraction throws on it: never expired).
static bool
s_value_strings (const zs_partition_t *part, const zs_value_t *values,
                 char out[][ZS_PARTITION_DIR_MAX])
{
    char dir[ZS_PARTITION_DIR_MAX], why[ZS_ERRLEN];
    for (int k = 0; k < part->n; k++)
        if (values[k].null)
            return false;
    if (zs_partition_dir (part, values, dir, sizeof dir, why, sizeof why) < 0)
        return false;
    char *p = dir;
    for (int k = 0; k < part->n; k++) {
        char *slash = strchr (p, '/'), *eq = strchr (p, '=');
        size_t len = slash ? (size_t) (slash - p) : strlen (p);
        if (!eq || eq > p + len
            || zs_partition_unescape (eq + 1, len - (size_t) (eq + 1 - p), out[k],
                                      ZS_PARTITION_DIR_MAX)
                   < 0)
            return false;
        p = slash ? slash + 1 : p + len;
    }
    return true;
}

//  partition.timestamp-pattern with "$key" replaced by the key's value,
//  longer keys first ($dt never matches inside $dt1): PartitionTimeExtractor.
static void
s_pattern_fill (const zs_partition_t *part, const char *pattern, char vals[][ZS_PARTITION_DIR_MAX],
                char *out, size_t cap)
{
    int order[ZS_PARTITION_MAX];
    for (int k = 0; k < part->n; k++)
        order[k] = k;
    for (int i = 1; i < part->n; i++)
        for (int j = i; j > 0 && strlen (part->name[order[j]]) > strlen (part->name[order[j - 1]]);
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    size_t n = 0;
    for (const char *p = pattern; *p && n + 1 < cap;) {
        int hit = -1;
        for (int i = 0; *p == '$' && hit < 0 && i < part->n; i++)
            if (strncmp (p + 1, part->name[order[i]], strlen (part->name[order[i]])) == 0)
                hit = order[i];
        if (hit < 0) {
            out[n++] = *p++;
            continue;
        }
        n += (size_t) snprintf (out + n, cap - n, "%s", vals[hit]);
        n = n < cap ? n : cap - 1;
        p += 1 + strlen (part->name[hit]);
    }
    out[n] = 0;
}

//  The partition's time, as PartitionTimeExtractor reads it. 0, or -1 when
//  it reads as none (Paimon logs it and keeps the partition).
static int
s_partition_time (const zs_partition_t *part, const zs_partition_expire_t *req,
                  const zs_pattern_t *formatter, char vals[][ZS_PARTITION_DIR_MAX], int64_t *ms)
{
    char text[2 * ZS_PARTITION_DIR_MAX];
    if (req->pattern)
        s_pattern_fill (part, req->pattern, vals, text, sizeof text);
    else
        snprintf (text, sizeof text, "%s", vals[0]);
    zs_ldt_t t;
    int rc = formatter ? zs_pattern_parse (formatter, text, strlen (text), &t)
             //  the default: yyyy-M-d[ H:m:s[.f]] (no 'T' form)
             : strchr (text, 'T') ? -1
                                  : zs_ldt_parse (text, strlen (text), &t);
    if (rc == 0)
        *ms = s_ldt_ms (&t);
    return rc;
}

typedef struct {
    const zs_partition_info_t *info;
    char key[ZS_PARTITION_MAX * ZS_PARTITION_DIR_MAX]; //  the values joined by ','
} s_expired_t;

static int
s_cmp_expired (const void *a, const void *b)
{
    return strcmp (((const s_expired_t *) a)->key, ((const s_expired_t *) b)->key);
}

//  Is partition info expired at req's time? Its joined values into key.
static bool
s_is_expired (zs_table_t *self, const zs_partition_expire_t *req, const zs_pattern_t *formatter,
              int64_t limit_ms, const zs_partition_info_t *info, char *key, size_t keylen)
{
    const zs_partition_t *part = zs_table_partition (self);
    zs_value_t values[ZS_PARTITION_MAX];
    char vals[ZS_PARTITION_MAX][ZS_PARTITION_DIR_MAX], why[ZS_ERRLEN];
    if (zs_partition_decode (part, info->row, info->row_len, values, why, sizeof why) != 0)
        return false;
    //  ordered by their values, a null as the default name (toPartitionValue)
    bool have = s_value_strings (part, values, vals);
    if (have) {
        size_t n = 0;
        for (int k = 0; k < part->n && n < keylen; k++)
            n += (size_t) snprintf (key + n, keylen - n, "%s%s", k ? "," : "", vals[k]);
    } else
        snprintf (key, keylen, "%s", info->partition);
    //  update-time: by the newest file, whatever the values
    if (req->strategy && strcmp (req->strategy, "update-time") == 0)
        return limit_ms > info->last_update_ms;
    if (!have)
        return false; //  a null value gives no time (Paimon: not expired)
    int64_t ms;
    if (s_partition_time (part, req, formatter, vals, &ms) != 0) {
        zs_warn ("cannot extract a time from partition %s of %s: not expired (drop it by hand, "
                 "or use partition.expiration-strategy update-time)",
                 info->partition, zs_table_path (self));
        return false;
    }
    return limit_ms > ms;
}

typedef struct {
    s_expired_t *v;
    size_t n;
} s_rows_t;

static bool
s_match_rows (const zs_partition_t *part, const zs_file_meta_t *f, void *arg)
{
    s_rows_t *r = arg;
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].info->row_len == f->partition_len
            && memcmp (r->v[i].info->row, f->partition, f->partition_len) == 0)
            return true;
    return false;
}

//  The request's strategy and formatter, checked. 0, or ZS_EREFUSED + err.
static int
s_expire_check (zs_table_t *self, const zs_partition_expire_t *req, zs_pattern_t *formatter,
                bool *have_formatter, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    *have_formatter = false;
    if (zs_table_partition (self)->n == 0)
        return s_not_partitioned (self, err, errlen);
    if (req->expiration_ms <= 0) {
        snprintf (err, errlen,
                  "table %s: partition.expiration-time is not set (a table option, or "
                  "--expiration-time)",
                  zs_table_path (self));
        return ZS_EREFUSED;
    }
    if (req->strategy && strcmp (req->strategy, "values-time") != 0
        && strcmp (req->strategy, "update-time") != 0) {
        snprintf (err, errlen,
                  "partition.expiration-strategy '%s': values-time or update-time, Paimon's",
                  req->strategy);
        return ZS_EREFUSED;
    }
    if (req->formatter && zs_pattern_compile (formatter, req->formatter, why, sizeof why) != 0) {
        snprintf (err, errlen, "partition.timestamp-formatter '%s': %s", req->formatter, why);
        return ZS_EREFUSED;
    }
    *have_formatter = req->formatter != NULL;
    return 0;
}

int
zs_table_expire_partitions (zs_table_t *self, const zs_partition_expire_t *req,
                            zs_partition_info_t **expired_p, size_t *n_p, zs_dropped_t *out,
                            char *err, size_t errlen)
{
    zs_pattern_t formatter;
    bool have_formatter;
    *expired_p = NULL;
    *n_p = 0;
    memset (out, 0, sizeof *out);
    int rc = s_expire_check (self, req, &formatter, &have_formatter, err, errlen);
    zs_partition_info_t *parts = NULL;
    size_t np = 0;
    if (rc == 0)
        rc = zs_table_partitions (self, 0, &parts, &np, err, errlen);
    s_rows_t expired = {np ? calloc (np, sizeof *expired.v) : NULL, 0};
    if (rc == 0 && np && !expired.v) {
        snprintf (err, errlen, "out of memory");
        rc = -1;
    }
    int64_t limit = (req->now_ms ? req->now_ms : zs_clock_local_ms ()) - req->expiration_ms;
    for (size_t i = 0; rc == 0 && i < np; i++) {
        s_expired_t *e = &expired.v[expired.n];
        e->info = &parts[i];
        expired.n += s_is_expired (self, req, have_formatter ? &formatter : NULL, limit, &parts[i],
                                   e->key, sizeof e->key);
    }
    //  the first max_num by their values, as Paimon takes them
    if (expired.n > 1)
        qsort (expired.v, expired.n, sizeof *expired.v, s_cmp_expired);
    if (req->max_num > 0 && expired.n > (size_t) req->max_num)
        expired.n = (size_t) req->max_num;
    if (rc == 0 && expired.n && !req->dry_run)
        rc = s_drop (self, s_match_rows, &expired, out, err, errlen);
    zs_partition_info_t *list = rc == 0 && expired.n ? calloc (expired.n, sizeof *list) : NULL;
    for (size_t i = 0; list && i < expired.n; i++)
        list[i] = *expired.v[i].info;
    if (list) {
        *expired_p = list;
        *n_p = expired.n;
    }
    free (expired.v);
    free (parts);
    return rc;
}

int
zs_table_expire_partitions_after_commit (zs_table_t *self, zs_dropped_t *out, char *err,
                                         size_t errlen)
{
    memset (out, 0, sizeof *out);
    const zs_table_schema_t *s = zs_table_schema_file (self);
    if (zs_table_partition (self)->n == 0
        || !zs_schema_option (s, "partition.expiration-time", NULL))
        return 0;
    int64_t interval = 3600 * 1000, now = zs_clock_mono_ms ();
    const char *v = zs_schema_option (s, "partition.expiration-check-interval", NULL);
    if (v && zs_parse_duration_ms (v, &interval) != 0) {
        snprintf (err, errlen,
                  "table %s: option partition.expiration-check-interval is '%s': not a duration",
                  zs_table_path (self), v);
        return -1;
    }
    if (self->partition_expire_checked && now - self->partition_expire_checked < interval)
        return 0;
    self->partition_expire_checked = now;
    zs_partition_expire_t req;
    int rc = zs_table_partition_expire_options (self, &req, err, errlen);
    zs_partition_info_t *expired = NULL;
    size_t n = 0;
    if (rc == 0)
        rc = zs_table_expire_partitions (self, &req, &expired, &n, out, err, errlen);
    for (size_t i = 0; rc == 0 && i < n; i++)
        zs_info ("Expired partition %s of %s in snapshot %" PRId64, expired[i].partition,
                 zs_table_path (self), out->snapshot_id);
    free (expired);
    return rc;
}

zs_partition_filter_t *
zs_partition_filter_new (zs_table_t *table, const char *where, char *err, size_t errlen)
{
    if (zs_table_partition (table)->n == 0) {
        s_not_partitioned (table, err, errlen);
        return NULL;
    }
    return zs_partition_filter_parse (zs_table_partition (table), where, err, errlen);
}
