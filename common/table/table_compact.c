/*  table_compact.c - append compaction of a bucket-unaware table
    (zs_table_compact in table.h), as Paimon's Flink sink does it for such
    tables: AppendCompactCoordinator plans, a worker rewrites, the commit
    is a COMPACT snapshot replacing the inputs by the outputs.

    The plan (Paimon's pack): the live files smaller than target-file-size x
    compaction.small-file-ratio, smallest first, go into a bin, each
    weighing its size plus source.split.open-file-cost; the bin becomes a
    task once it holds more than one file and weighs twice the target, or
    holds compaction.max.file-num files; what is left becomes one only when
    it counts compaction.min.file-num files. Then (zsink's rules, not
    Paimon's) a file more than twice the size of the rest of its task is
    left out, and when that leaves a bin no task the next bin starts at
    the first file left out. One task per call: the work a commit adds
    stays bounded. With no task left, the small files are tiers of fewer
    than compaction.min.file-num files, each tier's first file more than
    twice the bytes of the tier below; a task leaves fewer small files
    than it takes. So the small files stay below about 4/3 x log2(small
    threshold / smallest file) + 4 (min-file-num 5), whatever the target
    (test_compaction_keeps_up; docs/decisions.md, "Compaction").
    A partitioned table is compacted within a partition only, as Paimon's
    coordinator plans per partition: the first partition (in the order of
    their BinaryRows) with a task gives it, and its outputs go into that
    partition's bucket directory with its partition row.
    zs_table_compact does all three steps; the committer runs the rewrite
    on a thread of its own (committer/compactor.c).

    The rewrite reads each input (oldest sequence first) and writes its rows
    into new files rolled at target-file-size, named
    [<partition>/]bucket-0/data-<user tag>-compact-<uuid>-<k>.parquet (the
    inputs' directory): a crash before the
    COMPACT snapshot leaves files no snapshot names, which the user's next
    committer removes (zs_table_clean_uncommitted_manifests), like any
    uncommitted file. Same rows, so nothing about exactly-once changes: the
    snapshot carries the user's last identifier. The plan reads the schema
    files afresh (another engine may have altered the table since the job
    started) and the rewrite reads each input by its own schema as the
    latest (evolve.h), writing the outputs in the latest with its id: the
    rows are those every Paimon reader reads from the inputs.
*/
#include "datafile.h"
#include "failpoint.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "parquet.h"
#include "table_priv.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
s_by_size (const void *a, const void *b)
{
    int64_t x = ((const zs_file_meta_t *) a)->size, y = ((const zs_file_meta_t *) b)->size;
    return x < y ? -1 : x > y;
}

static int
s_by_seq (const void *a, const void *b)
{
    int64_t x = ((const zs_file_meta_t *) a)->min_seq, y = ((const zs_file_meta_t *) b)->min_seq;
    return x < y ? -1
           : x > y
               ? 1
               : strcmp (((const zs_file_meta_t *) a)->path, ((const zs_file_meta_t *) b)->path);
}

//  Leave out of a task's bin, largest first, each file more than twice as
//  big as all the others together (files[0..*n) sorted by size): a task
//  then copies at most three times the bytes it merges, and a file is
//  rewritten only when it grows by half or more. Paimon's pack has no such
//  rule; docs/decisions.md says why zsink adds it.
static void
s_drop_oversized (const zs_file_meta_t *files, size_t *n)
{
    size_t m = *n;
    int64_t rest = 0; //  files[0..m-1): all but the largest
    for (size_t i = 0; i + 1 < m; i++)
        rest += files[i].size;
    while (m > 1 && files[m - 1].size > 2 * rest) {
        m--;
        rest -= files[m - 1].size;
    }
    *n = m;
}

//  The output's estimate reached the target: roll it when it really has.
//  The estimate of rows still buffered is their raw size scaled by what
//  the written row groups shrank to, and before the first there is none:
//  the raw size, several times what zstd makes of it. Outputs rolled on
//  that came out small, and the next plan took them again (and again).
//  So the rows are written out first and the file closed only if it is
//  at the target then. 0 or -1 + err.
static int
s_roll (zs_datafile_writer_t **w_p, const zs_compact_t *req, zs_file_meta_t *meta, size_t *k,
        char *err, size_t errlen)
{
    if (zs_datafile_writer_flush (*w_p, err, errlen) != 0)
        return -1;
    if (zs_datafile_writer_bytes (*w_p) < req->target_file_size)
        return 0;
    if (zs_datafile_writer_close (w_p, meta, err, errlen) != 0)
        return -1;
    (*k)++;
    return 0;
}

//  May files[0..m) (a bin of the pack, sorted by size) be a task? The
//  size rule first (s_drop_oversized, *m the files it keeps); then a full
//  bin (full: Paimon's enoughContent or the max-file-num cap) needs two
//  files, any other compaction.min.file-num.
static bool
s_bin_is_task (const zs_compact_t *req, const zs_file_meta_t *files, size_t *m, bool full)
{
    s_drop_oversized (files, m);
    return *m > 1 && (full || (int) *m >= req->min_file_num);
}

//  Paimon's pack over files (sorted here), and zsink's size rule on each
//  bin: the first task into files[0..*n); false when there is none.
//  Paimon drains every bin it fills; zsink takes the first that is a task
//  after the size rule, and when the rule refuses one, the next bin starts
//  at the first file the rule left out (not after the bin): so a file that
//  was too big for the files below it is packed with those of its own
//  size. Without that, one refused bin ended the plan, and with a
//  target-file-size below 2 x source.split.open-file-cost every bin is the
//  two smallest files, one of them the last checkpoint's: outputs more
//  than twice its size were never merged again (docs/decisions.md).
static bool
s_plan (const zs_compact_t *req, zs_file_meta_t *files, size_t *n)
{
    int64_t small = (int64_t) ((double) req->target_file_size * req->small_file_ratio);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (files[i].size < small)
            files[k++] = files[i];
    if (k < 2)
        return false;
    qsort (files, k, sizeof *files, s_by_size);
    size_t start = 0; //  the bin being filled: files[start..i]
    int64_t weight = 0;
    for (size_t i = 0; i < k; i++) {
        weight += files[i].size + req->open_file_cost;
        size_t in_bin = i + 1 - start;
        bool full = (in_bin > 1 && weight >= 2 * req->target_file_size)
                    || (int) in_bin >= req->max_file_num;
        if (!full && !(i + 1 == k && (int) in_bin >= req->min_file_num))
            continue;
        size_t m = in_bin;
        if (s_bin_is_task (req, files + start, &m, full)) {
            memmove (files, files + start, m * sizeof *files);
            *n = m;
            return true;
        }
        //  refused: the next bin starts at the first file left out,
        //  files[start + m] (m >= 1: the rule keeps the smallest; m <
        //  in_bin: a bin the rule leaves whole is a task), so it moves on
        i = start + m - 1;
        start = start + m;
        weight = 0;
    }
    return false;
}

//  Files by partition (BinaryRow bytes), then as they were.
static int
s_by_partition (const void *a, const void *b)
{
    const zs_file_meta_t *x = a, *y = b;
    size_t n = x->partition_len < y->partition_len ? x->partition_len : y->partition_len;
    int c = n ? memcmp (x->partition, y->partition, n) : 0;
    if (c)
        return c;
    if (x->partition_len != y->partition_len)
        return x->partition_len < y->partition_len ? -1 : 1;
    return strcmp (x->path, y->path);
}

//  s_plan within each partition in turn (table_priv.h).
bool
zs_table_compact_pick (const zs_compact_t *req, zs_file_meta_t *files, size_t *n)
{
    if (*n == 0)
        return false; //  (files may be NULL then: qsort takes no NULL)
    qsort (files, *n, sizeof *files, s_by_partition);
    for (size_t a = 0, b; a < *n; a = b) {
        for (b = a + 1; b < *n && files[b].partition_len == files[a].partition_len
                        && !memcmp (files[b].partition, files[a].partition, files[a].partition_len);
             b++)
            ;
        size_t k = b - a;
        if (s_plan (req, files + a, &k)) {
            memmove (files, files + a, k * sizeof *files);
            *n = k;
            return true;
        }
    }
    return false;
}

void
zs_table_compact_discard (const char *table_path, const zs_file_meta_t *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char path[ZS_PATH_MAX];
        if (snprintf (path, sizeof path, "%s/%s", table_path, files[i].path) < (int) sizeof path)
            zs_io_unlink (path);
    }
}

//  A rewrite in progress: where its outputs go and what they are so far.
typedef struct {
    const char *table_path;
    const zs_compact_t *req;
    const zs_schema_t *schema; //  the outputs' (the latest)
    const int *stop;
    char tag[9], uuid[40], dir[256];
    zs_datafile_writer_t *w; //  the output being written (NULL: none)
    zs_file_meta_t *out;     //  the outputs closed: out[0..k)
    size_t k, n;             //  n inputs, never more outputs than n + 1
} s_rewrite_t;

//  The next output, [<partition>/]bucket-0/data-<tag>-compact-<uuid>-<k>.
static int
s_rewrite_open (s_rewrite_t *rw, char *err, size_t errlen)
{
    char rel[256];
    if (snprintf (rel, sizeof rel, "%s/data-%s-compact-%s-%zu.%s", rw->dir, rw->tag, rw->uuid,
                  rw->k, zs_datafile_extension ())
        >= (int) sizeof rel) {
        snprintf (err, errlen, "%s: compaction output path too long", rw->dir);
        return -1;
    }
    rw->w =
        zs_datafile_writer_new (rw->table_path, rel, rw->schema, &rw->req->parquet, err, errlen);
    if (!rw->w)
        return -1;
    if (rw->k == 0 && zs_failpoint ("committer.mid-rewrite") < 0) {
        snprintf (err, errlen, "failpoint committer.mid-rewrite");
        return -1;
    }
    return 0;
}

//  One row into the outputs, rolled at the target size (s_roll).
//  ZS_EREFUSED when told to stop.
static int
s_rewrite_row (s_rewrite_t *rw, const zs_value_t *row, char *err, size_t errlen)
{
    if (rw->stop && __atomic_load_n (rw->stop, __ATOMIC_RELAXED)) {
        snprintf (err, errlen, "compaction stopped");
        return ZS_EREFUSED;
    }
    if (!rw->w && s_rewrite_open (rw, err, errlen) != 0)
        return -1;
    int rc = zs_datafile_writer_append (rw->w, row, err, errlen);
    if (rc == 0 && rw->k < rw->n && zs_datafile_writer_bytes (rw->w) >= rw->req->target_file_size)
        rc = s_roll (&rw->w, rw->req, &rw->out[rw->k], &rw->k, err, errlen);
    return rc;
}

//  Every row of input f, read by its own schema as the latest.
static int
s_rewrite_file (s_rewrite_t *rw, const zs_schemas_t *schemas, const zs_file_meta_t *f, char *err,
                size_t errlen)
{
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/%s", rw->table_path, f->path);
    const zs_table_schema_t *own = zs_schemas_find (schemas, f->schema_id);
    if (!own) {
        snprintf (err, errlen, "%s: its schema %lld is not in %s/schema", path,
                  (long long) f->schema_id, rw->table_path);
        return -1;
    }
    zs_evolved_reader_t *r =
        zs_evolved_reader_open (path, own, zs_schemas_latest (schemas), err, errlen);
    if (!r)
        return -1;
    zs_value_t row[ZS_MAX_COLUMNS];
    int got, rc = 0;
    while (rc == 0 && (got = zs_evolved_reader_next (r, row, err, errlen)) == 1)
        rc = s_rewrite_row (rw, row, err, errlen);
    if (rc == 0 && got < 0)
        rc = -1;
    zs_evolved_reader_destroy (&r);
    return rc;
}

//  The outputs' meta: the inputs' partition, COMPACT, the latest schema,
//  the inputs' sequence range.
static void
s_rewrite_stamp (zs_file_meta_t *out, size_t k, const zs_file_meta_t *in, size_t n,
                 int64_t schema_id)
{
    int64_t min_seq = INT64_MAX, max_seq = 0;
    for (size_t i = 0; i < n; i++) {
        min_seq = in[i].min_seq < min_seq ? in[i].min_seq : min_seq;
        max_seq = in[i].max_seq > max_seq ? in[i].max_seq : max_seq;
    }
    for (size_t i = 0; i < k; i++) {
        memcpy (out[i].partition, in[0].partition, in[0].partition_len);
        out[i].partition_len = in[0].partition_len;
        out[i].file_source = ZS_FILE_SOURCE_COMPACT;
        out[i].schema_id = schema_id;
        out[i].min_seq = min_seq;
        out[i].max_seq = max_seq;
    }
}

int
zs_table_compact_rewrite (const char *table_path, const zs_schemas_t *schemas,
                          const zs_compact_t *req, const zs_file_meta_t *in, size_t n,
                          const int *stop, zs_file_meta_t **out_p, size_t *n_out, char *err,
                          size_t errlen)
{
    //  every input read as the latest schema, the outputs written in it
    const zs_table_schema_t *latest = zs_schemas_latest (schemas);
    s_rewrite_t rw = {.table_path = table_path,
                      .req = req,
                      .schema = &latest->row,
                      .stop = stop,
                      .dir = "bucket-0",
                      .n = n};
    zs_table_user_tag (req->user, rw.tag);
    //  the inputs' bucket directory (of their partition): the outputs' too
    const char *slash = n ? strrchr (in[0].path, '/') : NULL;
    if (slash && (size_t) (slash - in[0].path) < sizeof rw.dir)
        snprintf (rw.dir, sizeof rw.dir, "%.*s", (int) (slash - in[0].path), in[0].path);
    zs_uuid (rw.uuid);
    rw.out = calloc (n + 1, sizeof *rw.out);
    if (!rw.out) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = s_rewrite_file (&rw, schemas, &in[i], err, errlen);
    if (rc == 0 && rw.w) {
        rc = zs_datafile_writer_close (&rw.w, &rw.out[rw.k], err, errlen);
        rw.k += rc == 0;
    }
    if (rw.w)
        zs_datafile_writer_abort (&rw.w);
    s_rewrite_stamp (rw.out, rw.k, in, n, latest->id);
    if (rc != 0) {
        zs_table_compact_discard (table_path, rw.out, rw.k);
        free (rw.out);
        return rc;
    }
    *out_p = rw.out;
    *n_out = rw.k;
    return 0;
}

//  May f be live in the latest snapshot as it is on disk now? (true when
//  that cannot be read: an output is removed only when it surely is not.)
static bool
s_live_now (zs_table_t *self, const zs_file_meta_t *f)
{
    zs_file_meta_t *files = NULL;
    size_t n = 0;
    char why[ZS_ERRLEN];
    if (zs_table_live_files (self, 0, &files, &n, why, sizeof why) != 0)
        return true;
    bool live = false;
    for (size_t i = 0; i < n && !live; i++)
        live = strcmp (files[i].path, f->path) == 0;
    free (files);
    return live;
}

int
zs_table_compact_plan (zs_table_t *self, const zs_compact_t *req, zs_file_meta_t **files_p,
                       size_t *n_p, char *err, size_t errlen)
{
    *files_p = NULL;
    *n_p = 0;
    zs_file_meta_t *files = NULL;
    size_t n = 0;
    //  another engine may have altered the table: its latest schema is
    //  the one the outputs are written in
    int rc = zs_table_refresh_schemas (self, err, errlen);
    if (rc == 0)
        rc = zs_table_live_files (self, 0, &files, &n, err, errlen);
    if (rc != 0)
        return rc;
    if (!zs_table_compact_pick (req, files, &n)) {
        free (files);
        return 0;
    }
    qsort (files, n, sizeof *files, s_by_seq);
    //  every input must read as the latest schema, or nothing is rewritten
    const zs_table_schema_t *latest = zs_schemas_latest (zs_table_schemas (self));
    for (size_t i = 0; i < n && rc == 0; i++) {
        const zs_table_schema_t *own =
            zs_schemas_find (zs_table_schemas (self), files[i].schema_id);
        zs_evolve_t plan;
        char why[ZS_ERRLEN];
        if (!own) {
            snprintf (err, errlen, "%s: its schema %lld is not in %s/schema", files[i].path,
                      (long long) files[i].schema_id, zs_table_path (self));
            rc = -1;
        } else if (zs_evolve_plan (own, latest, &plan, why, sizeof why) != 0) {
            snprintf (err, errlen, "%s: %s", files[i].path, why);
            rc = -1;
        }
    }
    if (rc != 0) {
        free (files);
        return rc;
    }
    *files_p = files;
    *n_p = n;
    return 0;
}

int
zs_table_compact_commit (zs_table_t *self, const zs_compact_t *req, const zs_file_meta_t *in,
                         size_t n, const zs_file_meta_t *made, size_t nm, zs_compacted_t *out,
                         char *err, size_t errlen)
{
    memset (out, 0, sizeof *out);
    if (zs_failpoint ("committer.mid-compact") == -1) {
        snprintf (err, errlen, "%s: injected error between a compaction's rewrite and its commit",
                  zs_table_path (self));
        zs_table_compact_discard (zs_table_path (self), made, nm); //  as dropped
        return ZS_ECONFLICT;
    }
    zs_commit_t c = {.user = req->user,
                     .identifier = req->identifier,
                     .files = made,
                     .n = nm,
                     .max_retries = req->max_retries,
                     .deletes = in,
                     .n_deletes = n,
                     .compact = true};
    zs_committed_t done;
    int rc = zs_table_commit (self, &c, &done, err, errlen);
    if (rc == 0)
        *out = (zs_compacted_t){
            .snapshot_id = done.snapshot_id, .before = (int64_t) n, .after = (int64_t) nm};
    for (size_t i = 0; i < n; i++)
        out->rows += in[i].rows;
    //  dropped (an input is gone, or the retries ran out): no snapshot
    //  names the outputs. After any other failure the snapshot may exist
    //  (created, its fsync failed): the outputs go only when the latest
    //  snapshot, read afresh, does not hold them.
    if (rc == ZS_ECONFLICT || (rc != 0 && nm && !s_live_now (self, &made[0])))
        zs_table_compact_discard (zs_table_path (self), made, nm);
    return rc;
}

int
zs_table_compact (zs_table_t *self, const zs_compact_t *req, zs_compacted_t *out, char *err,
                  size_t errlen)
{
    memset (out, 0, sizeof *out);
    zs_file_meta_t *files = NULL, *made = NULL;
    size_t n = 0, nm = 0;
    int rc = zs_table_compact_plan (self, req, &files, &n, err, errlen);
    if (rc == 0 && n)
        rc = zs_table_compact_rewrite (zs_table_path (self), zs_table_schemas (self), req, files, n,
                                       NULL, &made, &nm, err, errlen);
    if (rc == 0 && n)
        rc = zs_table_compact_commit (self, req, files, n, made, nm, out, err, errlen);
    free (made);
    free (files);
    return rc;
}
