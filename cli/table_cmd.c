/*  table_cmd.c - `zsink table …` (see table_cmd.h).

    Output contracts (tests and scripts parse the --json forms):
      snapshots --json  [{"id","commit_user","commit_identifier","commit_kind",
                          "time_millis","delta_record_count","total_record_count"}]
      count             the row count, read from the data files
      stats --json      {"count","distinct_ids","min_id","max_id"}  (nulls
                        for min/max of an empty table, as SQL MIN/MAX; only
                        "count" for a table without a BIGINT id column)
      scan              rows as JSON lines or CSV (rowfmt.h spells values)
      files --json      {"files":[{"path","rows","size","stats"}]} (path relative
                        to the table; stats as in the manifest, when known)
      orphans --json, remove-orphan-files --json
                        {"count","younger","files":[…],"held_by_pins","pins",
                         "deleted","dry_run"} (files: those deleted when
                        "deleted", else those that would be)
      verify            "OK" and exit 0, else one problem a line, "<path>: <what>",
                        and exit 1
      tags --json       [{"tag_name","snapshot_id","schema_id","commit_time",
                          "record_count","create_time"}] (times in epoch ms;
                        create_time null unless the tag has a retention)
      partitions --json [{"partition","record_count","file_size_in_bytes",
                          "file_count","last_update_time"}] (Paimon's
                        $partitions; the time as a local wall clock in epoch ms)
      drop-partition --json, expire-partitions --json
                        {"snapshot_id","partitions","files","rows","dry_run"}
                        (snapshot_id 0: nothing dropped; drop-partition adds
                        "dropped": the specs given, expire-partitions
                        "expired": the partitions, as $partitions spells them)
      expire-snapshots --json
                        {"expired","earliest","snapshot_ids","snapshot_files",
                         "manifests","data_files","dry_run"}
      rollback --json   {"previous_snapshot_id","current_snapshot_id" (Paimon's
                        result row),"latest" (= current),"snapshot_ids","tags"
                        (those removed),"snapshot_files","manifests",
                        "data_files","dry_run"[,"tag_name"]}
      create-tag --json {"tag_name","snapshot_id"}
      delete-tag --json {"tag_name","snapshot_id","manifests","data_files","dry_run"}
      a mistake         one line on stderr, "zsink table CMD: what; see zsink
                        table CMD --help", exit 2
      scan|count --where  stderr: "--where: K of M files read, S skipped …"

    Names: zsink's subcommand names and Paimon's procedure names (s_cmds),
    zsink's option names and Paimon's argument names ('_' read as '-',
    s_find_opt); docs/operations.md has the table of both.

    count and stats read every live data file of the latest snapshot rather
    than trusting the manifests' row counts: they are how tests check that
    exactly the expected rows landed, so they must look at the rows.
*/
#include "table_cmd.h"
#include "cmd.h"
#include "config.h"
#include "datafile.h"
#include "io.h"
#include "parquet.h"
#include "rowfmt.h"
#include "schema.h"
#include "stats.h"
#include "table.h"
#include "table_job.h"
#include "table_dryrun.h"
#include <sys/stat.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S_DEFAULT_ORPHAN_AGE_MS (3600 * 1000)

typedef struct {
    const char *cmd;
    const char *path;
    bool json;
    bool delete;
    int64_t older_than_ms;
    int64_t snapshot;                            //  --snapshot ID (0 = latest)
    int64_t limit;                               //  --limit N (-1 = all)
    bool csv;                                    //  --format csv (else jsonl)
    int64_t retain_max, retain_min, max_deletes; //  expire-snapshots (-1: the table's)
    bool dry_run;
    int64_t target_file_size; //  compact (0: the default)
    int64_t min_file_num;
    const char *user;      //  unpin --user
    const char *tag;       //  a tag's NAME (create-tag, delete-tag; --tag, --to-tag)
    const char *where;     //  scan/count --where: a partition filter
    const char *specs[64]; //  drop-partition --partition SPEC …
    size_t n_specs;
    //  expire-partitions: the table's options unless given (NULL/-1)
    int64_t expiration_ms;
    const char *formatter, *pattern, *strategy;
    int64_t max_num;
    int64_t to_ms;          //  rollback --to-timestamp (epoch ms; -1: none)
    const char *version;    //  rollback --version: a snapshot id or a tag name
    const char *older_text; //  --older-than as given, when a time (for the output)
    //  Paimon's actions name the table --warehouse W --database D --table T
    //  (W/D.db/T, its filesystem catalog's layout; T may be D.T) or --path
    const char *warehouse, *database, *table;
    char catalog_path[ZS_PATH_MAX];
    zs_io_s3_settings_t s3; //  -D s3.KEY=VALUE (else the environment's AWS_*)
} s_args_t;

//  A mistake on the command line: one line saying what is wrong and where
//  the help is (not the whole usage, which buries that line). args is
//  NULL before the subcommand is known. Returns the exit code, 2.
static int
s_usage (const s_args_t *args, const char *why)
{
    if (args)
        fprintf (stderr, "zsink table %s: %s; see zsink table %s --help\n", args->cmd, why,
                 args->cmd);
    else
        fprintf (stderr, "zsink table: %s; see zsink table --help\n", why);
    return 2;
}

//  Print a JSON value on one line and release it.
static void
s_print_json (json_t *value)
{
    char *text = json_dumps (value, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    if (text)
        puts (text);
    free (text);
    json_decref (value);
}

static void
s_fmt_time (int64_t millis, char *buf, size_t len)
{
    time_t secs = (time_t) (millis / 1000);
    struct tm tm;
    localtime_r (&secs, &tm);
    size_t n = strftime (buf, len, "%Y-%m-%d %H:%M:%S", &tm);
    snprintf (buf + n, len - n, ".%03d", (int) (millis % 1000));
}

//  --------------------------------------------------------------------------

static int
s_cmd_snapshots (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_snapshot_t *snaps;
    size_t n;
    if (zs_table_list_snapshots (table, &snaps, &n, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table snapshots: %s\n", err);
        return 1;
    }
    if (args->json) {
        json_t *arr = json_array ();
        for (size_t i = 0; i < n; i++) {
            zs_snapshot_t *s = &snaps[i];
            json_array_append_new (
                arr, json_pack ("{s:I, s:s, s:I, s:s, s:I, s:I, s:I}", "id", (json_int_t) s->id,
                                "commit_user", s->commit_user, "commit_identifier",
                                (json_int_t) s->commit_identifier, "commit_kind", s->commit_kind,
                                "time_millis", (json_int_t) s->time_millis, "delta_record_count",
                                (json_int_t) s->delta_record_count, "total_record_count",
                                (json_int_t) s->total_record_count));
        }
        s_print_json (arr);
    } else {
        //  The columns of Flink SQL's SELECT * FROM t$snapshots that matter here.
        const char *rule = "+-------------+--------------------------------------+------------"
                           "---------+-------------+-------------------------+---------------"
                           "-----+--------------------+";
        puts (rule);
        printf ("| %11s | %-36s | %19s | %-11s | %-23s | %18s | %18s |\n", "snapshot_id",
                "commit_user", "commit_identifier", "commit_kind", "commit_time",
                "delta_record_count", "total_record_count");
        puts (rule);
        for (size_t i = 0; i < n; i++) {
            zs_snapshot_t *s = &snaps[i];
            char when[40];
            s_fmt_time (s->time_millis, when, sizeof when);
            printf ("| %11" PRId64 " | %-36s | %19" PRId64 " | %-11s | %-23s | %18" PRId64
                    " | %18" PRId64 " |\n",
                    s->id, s->commit_user, s->commit_identifier, s->commit_kind, when,
                    s->delta_record_count, s->total_record_count);
        }
        puts (rule);
        printf ("%zu row%s in set\n", n, n == 1 ? "" : "s");
    }
    free (snaps);
    return 0;
}

static int
s_cmp_i64 (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

//  Called for each row a scan reads; non-zero stops the scan (not an error).
typedef int (s_row_fn) (const zs_schema_t *schema, const zs_value_t *row, void *arg);

//  Read every row of one Parquet file given on the command line, as its
//  footer's schema (a table's files are read by s_scan_live_file). 1 =
//  stopped by fn, 0 = done, -1 with the message printed.
static int
s_scan_file (const char *cmd, const char *path, s_row_fn *fn, void *arg)
{
    char err[ZS_ERRLEN];
    zs_parquet_reader_t *reader = zs_parquet_reader_open (path, err, sizeof err);
    if (!reader) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        return -1;
    }
    const zs_schema_t *schema = zs_parquet_reader_schema (reader);
    zs_value_t row[ZS_MAX_COLUMNS];
    int got, rc = 0;
    while ((got = zs_parquet_reader_next (reader, row, err, sizeof err)) == 1)
        if (fn (schema, row, arg)) {
            rc = 1;
            break;
        }
    if (got < 0) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        rc = -1;
    }
    zs_parquet_reader_destroy (&reader);
    return rc;
}

//  The schema a scan of snapshot_id reads as: the latest for the latest
//  (0), the snapshot's schemaId for time travel, as Paimon's readers do.
//  Its id (-1: the latest) and row type, or -1 with the message printed.
static int
s_scan_schema (zs_table_t *table, const char *cmd, int64_t snapshot_id, int64_t *as,
               zs_schema_t *row)
{
    char err[ZS_ERRLEN];
    const zs_table_schema_t *s = zs_schemas_latest (zs_table_schemas (table));
    *as = -1;
    if (snapshot_id > 0) {
        zs_snapshot_t snap;
        int rc = zs_table_read_snapshot (table, snapshot_id, &snap, err, sizeof err);
        if (rc == 0 && !(s = zs_table_file_schema (table, snap.schema_id, err, sizeof err)))
            rc = -1;
        if (rc != 0) {
            if (rc == ZS_ENOENT)
                snprintf (err, sizeof err, "no snapshot %lld", (long long) snapshot_id);
            fprintf (stderr, "zsink table %s: %s\n", cmd, err);
            return -1;
        }
        *as = snap.schema_id;
    }
    *row = s->row;
    return 0;
}

//  Read every row of one live file as schema `as` (its own schema's
//  columns by field id, evolve.h). As s_scan_file.
static int
s_scan_live_file (const char *cmd, zs_table_t *table, const zs_file_meta_t *f, int64_t as,
                  const zs_schema_t *schema, s_row_fn *fn, void *arg)
{
    char err[ZS_ERRLEN];
    zs_evolved_reader_t *reader = zs_table_read_file (table, f, as, err, sizeof err);
    if (!reader) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        return -1;
    }
    zs_value_t row[ZS_MAX_COLUMNS];
    int got, rc = 0;
    while ((got = zs_evolved_reader_next (reader, row, err, sizeof err)) == 1)
        if (fn (schema, row, arg)) {
            rc = 1;
            break;
        }
    if (got < 0) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        rc = -1;
    }
    zs_evolved_reader_destroy (&reader);
    return rc;
}

//  --where: only the files of the partitions that pass are read; the others
//  are never opened, and stderr says how many.
static void
s_prune (const char *cmd, const zs_partition_filter_t *filter, zs_file_meta_t *files, size_t *n)
{
    if (!filter)
        return;
    size_t before = *n, skipped = zs_partition_filter_files (filter, files, n);
    fprintf (stderr,
             "zsink table %s: --where: %zu of %zu files read, %zu skipped (other partitions, "
             "not opened)\n",
             cmd, *n, before, skipped);
}

//  Read every row of a snapshot's live files (0 = latest) in manifest
//  order, those filter passes. 0, or -1 with the message printed.
static int
s_scan_table (zs_table_t *table, const char *cmd, int64_t snapshot_id,
              const zs_partition_filter_t *filter, s_row_fn *fn, void *arg)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t *files;
    size_t nf;
    if (zs_table_live_files (table, snapshot_id, &files, &nf, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        return -1;
    }
    s_prune (cmd, filter, files, &nf);
    int64_t as;
    zs_schema_t schema;
    int rc = s_scan_schema (table, cmd, snapshot_id, &as, &schema);
    for (size_t i = 0; i < nf && rc == 0; i++)
        rc = s_scan_live_file (cmd, table, &files[i], as, &schema, fn, arg);
    free (files);
    return rc < 0 ? -1 : 0;
}

//  Read every row of a tag's snapshot (--tag NAME), as the schema of
//  that snapshot (time travel, as Paimon reads a tag). 0, or -1 printed.
static int
s_scan_tag (zs_table_t *table, const char *cmd, const char *name,
            const zs_partition_filter_t *filter, s_row_fn *fn, void *arg)
{
    char err[ZS_ERRLEN];
    zs_tag_t tag;
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    const zs_table_schema_t *s = NULL;
    if (zs_table_read_tag (table, name, &tag, err, sizeof err) != 0
        || !(s = zs_table_file_schema (table, tag.snap.schema_id, err, sizeof err))
        || zs_table_snapshot_files (table, &tag.snap, &files, &nf, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        return -1;
    }
    zs_schema_t schema = s->row;
    s_prune (cmd, filter, files, &nf);
    int rc = 0;
    for (size_t i = 0; i < nf && rc == 0; i++)
        rc = s_scan_live_file (cmd, table, &files[i], tag.snap.schema_id, &schema, fn, arg);
    free (files);
    return rc < 0 ? -1 : 0;
}

//  The row type count, stats and scan read as: a tag's snapshot's schema,
//  a snapshot's (--snapshot) or the latest. 0, or -1 printed.
static int
s_scan_row_type (zs_table_t *table, const s_args_t *args, zs_schema_t *row)
{
    int64_t as;
    if (!args->tag)
        return s_scan_schema (table, args->cmd, args->snapshot, &as, row);
    char err[ZS_ERRLEN];
    zs_tag_t tag;
    const zs_table_schema_t *s = NULL;
    if (zs_table_read_tag (table, args->tag, &tag, err, sizeof err) != 0
        || !(s = zs_table_file_schema (table, tag.snap.schema_id, err, sizeof err))) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return -1;
    }
    *row = s->row;
    return 0;
}

//  The rows count, stats and scan read: a tag's, a snapshot's or the latest.
static int
s_scan (zs_table_t *table, const s_args_t *args, s_row_fn *fn, void *arg)
{
    zs_partition_filter_t *filter = NULL;
    char err[ZS_ERRLEN];
    if (args->where && !(filter = zs_partition_filter_new (table, args->where, err, sizeof err))) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return -1;
    }
    int rc = args->tag ? s_scan_tag (table, args->cmd, args->tag, filter, fn, arg)
                       : s_scan_table (table, args->cmd, args->snapshot, filter, fn, arg);
    zs_partition_filter_destroy (&filter);
    return rc;
}

typedef struct {
    int64_t count;
    int id_col; //  -1: count only
    int64_t *ids, n_ids, cap;
    bool oom;
} s_tally_t;

static int
s_tally_row (const zs_schema_t *schema, const zs_value_t *row, void *arg)
{
    (void) schema;
    s_tally_t *t = arg;
    t->count++;
    if (t->id_col < 0 || row[t->id_col].null)
        return 0;
    if (t->n_ids == t->cap) {
        int64_t cap = t->cap ? t->cap * 2 : 1 << 16;
        int64_t *grown = realloc (t->ids, (size_t) cap * sizeof *grown);
        if (!grown) {
            t->oom = true;
            return 1;
        }
        t->ids = grown;
        t->cap = cap;
    }
    t->ids[t->n_ids++] = row[t->id_col].v.i64;
    return 0;
}

static int
s_cmd_count (zs_table_t *table, const s_args_t *args)
{
    s_tally_t t = {.id_col = -1};
    if (s_scan (table, args, s_tally_row, &t) != 0)
        return 1;
    if (args->json)
        s_print_json (json_pack ("{s:I}", "count", (json_int_t) t.count));
    else
        printf ("%" PRId64 "\n", t.count);
    return 0;
}

static int
s_cmd_stats (zs_table_t *table, const s_args_t *args)
{
    zs_schema_t schema;
    if (s_scan_row_type (table, args, &schema) != 0)
        return 1;
    s_tally_t t = {.id_col = schema.id_col};
    if (s_scan (table, args, s_tally_row, &t) != 0 || t.oom) {
        if (t.oom)
            fprintf (stderr, "zsink table stats: out of memory after %" PRId64 " ids\n", t.n_ids);
        free (t.ids);
        return 1;
    }
    int64_t distinct = 0, *ids = t.ids, n = t.n_ids;
    if (n > 0) {
        //  COUNT(DISTINCT id) by sorting: 8 bytes a row is fine for the
        //  tables tests and demos build, and there is no hash to get wrong.
        qsort (ids, (size_t) n, sizeof *ids, s_cmp_i64);
        distinct = 1;
        for (int64_t i = 1; i < n; i++)
            distinct += ids[i] != ids[i - 1];
    }
    bool has_id = t.id_col >= 0;
    if (args->json) {
        json_t *obj = json_pack ("{s:I}", "count", (json_int_t) t.count);
        if (has_id) {
            json_object_set_new (obj, "distinct_ids", json_integer (distinct));
            json_object_set_new (obj, "min_id", n ? json_integer (ids[0]) : json_null ());
            json_object_set_new (obj, "max_id", n ? json_integer (ids[n - 1]) : json_null ());
        }
        s_print_json (obj);
    } else if (!has_id)
        printf ("count %" PRId64 "\n(no BIGINT column named id: count only)\n", t.count);
    else if (n)
        printf ("count %" PRId64 "\ndistinct_ids %" PRId64 "\nmin_id %" PRId64 "\nmax_id %" PRId64
                "\n",
                t.count, distinct, ids[0], ids[n - 1]);
    else
        printf ("count %" PRId64 "\ndistinct_ids 0\nmin_id NULL\nmax_id NULL\n", t.count);
    free (ids);
    return 0;
}

typedef struct {
    bool csv;
    bool header_done;
    int64_t limit; //  -1: all
    int64_t printed;
    zs_strbuf_t buf;
    bool failed; //  stdout write failed (a closed pipe)
} s_printer_t;

static int
s_print_row (const zs_schema_t *schema, const zs_value_t *row, void *arg)
{
    s_printer_t *p = arg;
    if (p->limit >= 0 && p->printed >= p->limit)
        return 1;
    if (p->csv && !p->header_done) {
        zs_row_csv_header (&p->buf, schema);
        p->header_done = true;
    }
    if (p->csv)
        zs_row_csv (&p->buf, schema, row);
    else
        zs_row_jsonl (&p->buf, schema, row);
    p->printed++;
    //  Batch the writes: a million rows must not mean a million syscalls.
    if (p->buf.len >= 1 << 16 || p->buf.oom) {
        if (p->buf.oom || fwrite (p->buf.data, 1, p->buf.len, stdout) != p->buf.len)
            p->failed = true;
        p->buf.len = 0;
    }
    return p->failed;
}

//  zsink table scan PATH: PATH is a table, or a single Parquet file (read
//  with the schema in its footer).
static int
s_cmd_scan (zs_table_t *table, const s_args_t *args)
{
    s_printer_t p = {.csv = args->csv, .limit = args->limit};
    int rc = table ? s_scan (table, args, s_print_row, &p)
             : s_scan_file (args->cmd, args->path, s_print_row, &p) < 0 ? -1
                                                                        : 0;
    if (p.csv && !p.header_done && rc == 0) {
        //  An empty result still names its columns.
        zs_schema_t schema;
        if (table && s_scan_row_type (table, args, &schema) == 0)
            zs_row_csv_header (&p.buf, &schema);
    }
    if (p.buf.len && fwrite (p.buf.data, 1, p.buf.len, stdout) != p.buf.len)
        p.failed = true;
    zs_strbuf_free (&p.buf);
    if (fflush (stdout) != 0 || p.failed) {
        fprintf (stderr, "zsink table scan: cannot write the output\n");
        return 1;
    }
    return rc == 0 ? 0 : 1;
}

static int
s_cmd_files (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t *files;
    size_t n;
    if (zs_table_live_files (table, 0, &files, &n, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table files: %s\n", err);
        return 1;
    }
    if (args->json) {
        json_t *arr = json_array ();
        for (size_t i = 0; i < n; i++) {
            json_t *f = json_pack ("{s:s, s:I, s:I, s:I}", "path", files[i].path, "rows",
                                   (json_int_t) files[i].rows, "size", (json_int_t) files[i].size,
                                   "schema_id", (json_int_t) files[i].schema_id);
            zs_strbuf_t text = {0};
            //  the stats are of the file's own schema's columns
            const zs_table_schema_t *own =
                zs_table_file_schema (table, files[i].schema_id, err, sizeof err);
            zs_stats_json (&files[i].stats, own ? &own->row : zs_table_schema (table), &text);
            json_t *stats = text.data ? json_loads (text.data, 0, NULL) : NULL;
            zs_strbuf_free (&text);
            if (stats)
                json_object_set_new (f, "stats", stats);
            json_array_append_new (arr, f);
        }
        s_print_json (json_pack ("{s:o}", "files", arr));
    } else {
        //  the path column as wide as the longest path (a compaction's
        //  names are longer than a writer's)
        int w = 4;
        for (size_t i = 0; i < n; i++)
            w = (int) strlen (files[i].path) > w ? (int) strlen (files[i].path) : w;
        printf ("%-*s %12s %14s\n", w, "path", "rows", "size");
        for (size_t i = 0; i < n; i++)
            printf ("%-*s %12" PRId64 " %14" PRId64 "\n", w, files[i].path, files[i].rows,
                    files[i].size);
        printf ("%zu file%s\n", n, n == 1 ? "" : "s");
    }
    free (files);
    return 0;
}

//  An age for people: 1h, 30min, 45s or 250ms.
static void
s_format_age (int64_t ms, char *out, size_t len)
{
    if (ms > 0 && ms % 3600000 == 0)
        snprintf (out, len, "%lldh", (long long) (ms / 3600000));
    else if (ms > 0 && ms % 60000 == 0)
        snprintf (out, len, "%lldmin", (long long) (ms / 60000));
    else if (ms % 1000 == 0)
        snprintf (out, len, "%llds", (long long) (ms / 1000));
    else
        snprintf (out, len, "%lldms", (long long) ms);
}

//  The pins that keep files from orphans (table_pins.c), as JSON; in text,
//  one line each on stdout, and how to drop one of a job gone for good.
static json_t *
s_pins_report (zs_table_t *table, const s_args_t *args)
{
    json_t *arr = json_array ();
    zs_pin_t *pins;
    size_t n;
    char err[ZS_ERRLEN];
    if (zs_table_pins (table, &pins, &n, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table orphans: %s\n", err);
        return arr;
    }
    for (size_t i = 0; i < n; i++) {
        const zs_pin_t *p = &pins[i];
        if (p->finished)
            continue; //  void
        json_array_append_new (arr,
                               json_pack ("{s:s, s:s, s:b, s:I}", "user", p->user, "job", p->job_id,
                                          "running", p->running, "files", (json_int_t) p->files));
        if (!args->json && p->running)
            printf ("pinned by commit user %s of job %s (running): %zu data file%s of its "
                    "uncommitted checkpoints, its checkpoint in flight and the manifests it "
                    "wrote ahead\n",
                    p->user, p->job_id, p->files, p->files == 1 ? "" : "s");
        else if (!args->json)
            printf ("pinned by commit user %s of job %s (not running): %zu data file%s of its "
                    "uncommitted checkpoints; if that job is gone for good: zsink table unpin "
                    "%s --user %s\n",
                    p->user, p->job_id, p->files, p->files == 1 ? "" : "s", args->path, p->user);
    }
    free (pins);
    return arr;
}

static void s_orphans_report (zs_table_t *table, const s_args_t *args, json_t *arr, size_t listed);

static int
s_cmd_orphans (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    char **paths;
    size_t n;
    //  A cleaner lists and deletes under the exclusive clean lock, so that
    //  no commit is between its check and its snapshot (table_pins.c).
    zs_io_lock_t *lock = NULL;
    int rc = args->delete
                 ? zs_table_clean_lock (table, true, ZS_CLEAN_HAND_WAIT_MS, &lock, err, sizeof err)
                 : 0;
    if (rc == 0)
        rc = zs_table_orphans (table, args->older_than_ms, &paths, &n, err, sizeof err);
    if (rc != 0) {
        zs_table_clean_unlock (&lock);
        fprintf (stderr, "zsink table orphans: %s\n", err);
        return 1;
    }
    int status = 0;
    json_t *arr = json_array ();
    size_t listed = 0;
    bool deleting = args->delete;
    for (size_t i = 0; i < n; i++) {
        //  Only files actually deleted are reported as such; a failure is
        //  printed and makes the exit status 1 but does not stop the rest.
        //  On S3 the lock is a lease: deletes only while it is ours (a
        //  pause past its ttl lets commits in again; io_lock.h)
        if (deleting && zs_io_lock_keep (lock, err, sizeof err) == ZS_ESTALE) {
            fprintf (stderr, "zsink table orphans: the clean lock is lost (%s): stopped\n", err);
            status = 1;
            deleting = false;
        }
        if (deleting) {
            char path[ZS_PATH_MAX];
            snprintf (path, sizeof path, "%s/%s", zs_table_path (table), paths[i]);
            if (zs_io_unlink (path) != 0) {
                fprintf (stderr, "zsink table orphans: %s: cannot delete: %m\n", path);
                status = 1;
                free (paths[i]);
                continue;
            }
        }
        if (args->json)
            json_array_append_new (arr, json_string (paths[i]));
        else
            printf ("%s%s\n",
                    deleting        ? "deleted "
                    : args->dry_run ? "would delete "
                                    : "",
                    paths[i]);
        listed++;
        free (paths[i]);
    }
    free (paths);
    zs_table_clean_unlock (&lock);
    s_orphans_report (table, args, arr, listed);
    return status;
}

//  After orphans listed (arr: their paths, listed of them): the younger
//  ones, the pins, and the summary line (or the JSON document).
static void
s_orphans_report (zs_table_t *table, const s_args_t *args, json_t *arr, size_t listed)
{
    char err[ZS_ERRLEN];
    char **paths;
    size_t n;
    //  the young ones (a running job's files in flight are young) are not
    //  orphans yet, but a count of 0 must not hide that they exist
    size_t younger = 0;
    if (args->older_than_ms > 0 && zs_table_orphans (table, 0, &paths, &n, err, sizeof err) == 0) {
        for (size_t i = 0; i < n; i++)
            free (paths[i]);
        free (paths);
        younger = n > listed ? n - listed : 0;
    }
    json_t *pins = s_pins_report (table, args);
    //  kept by the pin of a job that does not run: a restore's, or left over
    size_t held = 0;
    if (args->json && zs_table_orphans_held (table, &held, err, sizeof err) != 0)
        fprintf (stderr, "zsink table orphans: %s\n", err);
    if (args->json)
        s_print_json (json_pack ("{s:I, s:I, s:o, s:I, s:o, s:b, s:b}", "count",
                                 (json_int_t) listed, "younger", (json_int_t) younger, "files", arr,
                                 "held_by_pins", (json_int_t) held, "pins", pins, "deleted",
                                 args->delete, "dry_run", args->dry_run));
    else {
        json_decref (pins);
        json_decref (arr);
        char age[48] = "";
        if (args->older_text)
            snprintf (age, sizeof age, " older than %.30s", args->older_text);
        else if (args->older_than_ms > 0) {
            strcpy (age, " older than ");
            s_format_age (args->older_than_ms, age + strlen (age), sizeof age - strlen (age));
        }
        printf ("%zu orphan file%s%s%s", listed, listed == 1 ? "" : "s",
                args->delete    ? " deleted"
                : args->dry_run ? " would be deleted"
                                : "",
                age);
        if (younger)
            printf ("; %zu younger file%s in no snapshot not counted (a running job's files in "
                    "flight are young; --older-than 0s lists them)",
                    younger, younger == 1 ? "" : "s");
        printf ("\n");
    }
}

static int
s_cmd_verify (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    char *report = NULL;
    int rc = zs_table_verify (table, args->older_than_ms, &report, err, sizeof err);
    if (args->json) {
        json_t *problems = json_array ();
        for (char *line = report ? strtok (report, "\n") : NULL; line; line = strtok (NULL, "\n"))
            json_array_append_new (problems, json_string (line));
        s_print_json (json_pack ("{s:b, s:o}", "ok", rc == 0, "problems", problems));
    } else if (rc == 0)
        puts ("OK");
    else
        fputs (report ? report : err, stdout);
    free (report);
    return rc == 0 ? 0 : 1;
}

//  --------------------------------------------------------------------------
//  The options: each sets its field of s_args_t from its value (NULL when
//  the command line ends before it); ZS_CMD_GO_ON, or the exit code of a
//  bad value.

typedef int (s_opt_fn) (s_args_t *args, const char *opt, const char *value);

static int
s_opt_json (s_args_t *args, const char *opt, const char *value)
{
    args->json = true;
    return ZS_CMD_GO_ON;
}

static int
s_opt_snapshot (s_args_t *args, const char *opt, const char *value)
{
    char *end = NULL;
    args->snapshot = value ? strtoll (value, &end, 10) : 0;
    if (!end || *end || args->snapshot < 1) {
        char why[128];
        snprintf (why, sizeof why, "%s needs a snapshot id (1, 2, …)", opt);
        return s_usage (args, why);
    }
    return ZS_CMD_GO_ON;
}

static int
s_opt_limit (s_args_t *args, const char *opt, const char *value)
{
    char *end = NULL;
    args->limit = value ? strtoll (value, &end, 10) : -1;
    if (!end || *end || args->limit < 0)
        return s_usage (args, "--limit needs a number of rows (0 or more)");
    return ZS_CMD_GO_ON;
}

static int
s_opt_format (s_args_t *args, const char *opt, const char *value)
{
    const char *f = value ? value : "";
    if (strcmp (f, "csv") != 0 && strcmp (f, "jsonl") != 0)
        return s_usage (args, "--format is csv or jsonl");
    args->csv = strcmp (f, "csv") == 0;
    return ZS_CMD_GO_ON;
}

static int
s_opt_delete (s_args_t *args, const char *opt, const char *value)
{
    args->delete = true;
    return ZS_CMD_GO_ON;
}

//  The fraction of a second after "ss." (up to millis), into *ms; past it.
static const char *
s_parse_millis (const char *p, int *ms)
{
    int digits = 0;
    for (*ms = 0; *p >= '0' && *p <= '9'; p++, digits++)
        if (digits < 3)
            *ms = *ms * 10 + (*p - '0');
    for (; digits > 0 && digits < 3; digits++)
        *ms *= 10;
    return p;
}

//  Paimon's timestamp form, 'yyyy-MM-dd[ HH:mm[:ss[.SSS]]]' ('T' for the
//  space too), in the local time zone as Paimon's DateTimeUtils reads it:
//  epoch ms into *at_ms. 0 or -1.
static int
s_parse_timestamp (const char *text, int64_t *at_ms)
{
    int y, mo, d, h = 0, mi = 0, sec = 0, ms = 0, n = 0;
    if (sscanf (text, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
        return -1;
    const char *p = text + n;
    if ((*p == ' ' || *p == 'T') && sscanf (p + 1, "%2d:%2d%n", &h, &mi, &n) == 2 && n == 5) {
        p += 6;
        if (*p == ':' && sscanf (p + 1, "%2d%n", &sec, &n) == 1 && n == 2)
            p += 3;
        if (*p == '.')
            p = s_parse_millis (p + 1, &ms);
    }
    if (*p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59)
        return -1;
    struct tm tm = {.tm_year = y - 1900,
                    .tm_mon = mo - 1,
                    .tm_mday = d,
                    .tm_hour = h,
                    .tm_min = mi,
                    .tm_sec = sec,
                    .tm_isdst = -1};
    time_t t = mktime (&tm);
    if (t == (time_t) -1 || tm.tm_mday != d) //  no 31 February
        return -1;
    *at_ms = (int64_t) t * 1000 + ms;
    return 0;
}

//  A TIME: Paimon's timestamp form (s_parse_timestamp), epoch millis (12
//  digits or more: Paimon's BIGINT timestamp) or a duration ago (1h, 7d),
//  as epoch ms. 0 or -1.
static int
s_parse_time (const char *text, int64_t *at_ms)
{
    int64_t ago;
    size_t len = strlen (text);
    if (len >= 12 && strspn (text, "0123456789") == len) {
        *at_ms = strtoll (text, NULL, 10);
        return 0;
    }
    if (zs_parse_duration_ms (text, &ago) == 0 && ago >= 0) {
        *at_ms = zs_clock_wall_ms () - ago;
        return 0;
    }
    return s_parse_timestamp (text, at_ms);
}

//  The one line of a TIME that does not parse (or is not past).
static int
s_bad_time (s_args_t *args, const char *opt, const char *value, bool future)
{
    char why[256];
    if (!value)
        snprintf (why, sizeof why, "%s needs a time (e.g. '2026-12-01 10:00:00' or '1h')", opt);
    else if (future)
        snprintf (why, sizeof why,
                  "%s: '%.64s' is not in the past (files being written now would go)", opt, value);
    else
        snprintf (why, sizeof why, "%s: bad time '%.64s' (try '2026-12-01 10:00:00' or '1h')", opt,
                  value);
    return s_usage (args, why);
}

//  --older-than, --orphans-older-than: an age, or the time before which
//  (Paimon's older_than), which must be past.
static int
s_opt_age (s_args_t *args, const char *opt, const char *value)
{
    int64_t at, age;
    //  an age as it is: turned into a time and back it could come out a
    //  millisecond in the future ('0s', the clock read twice)
    if (value && zs_parse_duration_ms (value, &age) == 0 && age >= 0) {
        args->older_than_ms = age;
        args->older_text = NULL;
        return ZS_CMD_GO_ON;
    }
    if (!value || s_parse_time (value, &at) != 0)
        return s_bad_time (args, opt, value, false);
    int64_t now = zs_clock_wall_ms ();
    if (at > now)
        return s_bad_time (args, opt, value, true);
    args->older_than_ms = now - at;
    args->older_text = value;
    return ZS_CMD_GO_ON;
}

//  rollback --to-timestamp, --timestamp (Paimon's rollback_to_timestamp)
static int
s_opt_to_time (s_args_t *args, const char *opt, const char *value)
{
    if (!value || s_parse_time (value, &args->to_ms) != 0)
        return s_bad_time (args, opt, value, false);
    return ZS_CMD_GO_ON;
}

//  rollback --version (Paimon's rollback_to action): a snapshot id, or a tag
static int
s_opt_version (s_args_t *args, const char *opt, const char *value)
{
    if (!value || !*value)
        return s_usage (args, "--version needs a snapshot id or a tag name");
    args->version = value;
    return ZS_CMD_GO_ON;
}

static int
s_opt_count (s_args_t *args, const char *opt, const char *value)
{
    char *end = NULL;
    int64_t v = value ? strtoll (value, &end, 10) : 0;
    if (!end || *end || v < 1 || v > INT32_MAX) {
        char why[160];
        snprintf (why, sizeof why, "%s needs a whole number of at least 1", opt);
        return s_usage (args, why);
    }
    if (strcmp (opt, "--retain-max") == 0)
        args->retain_max = v;
    else if (strcmp (opt, "--retain-min") == 0)
        args->retain_min = v;
    else if (strcmp (opt, "--min-file-num") == 0)
        args->min_file_num = v;
    else if (strcmp (opt, "--max-num") == 0 || strcmp (opt, "--max-expires") == 0)
        args->max_num = v;
    else
        args->max_deletes = v;
    return ZS_CMD_GO_ON;
}

static int
s_opt_user (s_args_t *args, const char *opt, const char *value)
{
    if (!value || !value[0])
        return s_usage (args, "--user needs a commit user");
    args->user = value;
    return ZS_CMD_GO_ON;
}

static int
s_opt_dry_run (s_args_t *args, const char *opt, const char *value)
{
    args->dry_run = true;
    return ZS_CMD_GO_ON;
}

static int
s_cmd_expire (zs_table_t *table, const s_args_t *args)
{
    const zs_table_opts_t *o = zs_table_opts (table);
    int64_t age = args->older_than_ms >= 0 ? args->older_than_ms : o->time_retained_ms;
    zs_expire_t req = {
        .retain_min = (int) (args->retain_min > 0 ? args->retain_min : o->retain_min),
        .retain_max = (int) (args->retain_max > 0 ? args->retain_max : o->retain_max),
        .older_than_ms = zs_clock_wall_ms () - age,
        .max_deletes = (int) (args->max_deletes > 0 ? args->max_deletes : o->expire_limit),
        .dry_run = args->dry_run};
    if (req.retain_max < req.retain_min) {
        fprintf (stderr,
                 "zsink table expire-snapshots: --retain-max %d is below --retain-min %d (the "
                 "table's snapshot.num-retained.min unless given)\n",
                 req.retain_max, req.retain_min);
        return 2;
    }
    zs_expired_t out;
    char err[ZS_ERRLEN];
    //  exclusive: no other expiry or cleaner at the same time (table_pins.c)
    zs_io_lock_t *lock = NULL;
    int rc = req.dry_run
                 ? 0
                 : zs_table_clean_lock (table, true, ZS_CLEAN_HAND_WAIT_MS, &lock, err, sizeof err);
    if (rc == 0)
        rc = zs_table_expire (table, &req, &out, err, sizeof err);
    zs_table_clean_unlock (&lock);
    if (rc != 0) {
        fprintf (stderr, "zsink table expire-snapshots: %s\n", err);
        return 1;
    }
    int64_t n = out.end > out.begin ? out.end - out.begin : 0;
    json_t *ids = json_array ();
    for (int64_t id = out.begin; id < out.end; id++)
        json_array_append_new (ids, json_integer (id));
    if (args->json)
        s_print_json (json_pack ("{s:I, s:I, s:o, s:I, s:I, s:I, s:b}", "expired", (json_int_t) n,
                                 "earliest", (json_int_t) (n ? out.end : out.begin), "snapshot_ids",
                                 ids, "snapshot_files", (json_int_t) out.snapshots, "manifests",
                                 (json_int_t) out.manifests, "data_files",
                                 (json_int_t) out.data_files, "dry_run", args->dry_run));
    else
        json_decref (ids);
    if (args->json)
        return 0;
    if (n == 0)
        printf ("no snapshot to expire\n");
    else
        printf ("%s snapshots %" PRId64 "..%" PRId64 ": %" PRId64 " snapshot files, %" PRId64
                " manifests and lists, %" PRId64 " data files\n",
                args->dry_run ? "would expire" : "expired", out.begin, out.end - 1, out.snapshots,
                out.manifests, out.data_files);
    return 0;
}

static int
s_opt_size (s_args_t *args, const char *opt, const char *value)
{
    if (!value || zs_parse_size (value, &args->target_file_size) != 0
        || args->target_file_size < 1) {
        char why[160];
        snprintf (why, sizeof why, "%s needs a size (e.g. 128mb)", opt);
        return s_usage (args, why);
    }
    return ZS_CMD_GO_ON;
}

//  A dedicated compaction, as Paimon's compact procedure: its own commit
//  user (a batch commit, identifier Long.MAX_VALUE), rounds until no task
//  is due.
static int
s_cmd_compact (zs_table_t *table, const s_args_t *args)
{
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    if (args->target_file_size > 0)
        cfg.table.target_file_size = args->target_file_size;
    if (args->min_file_num > 0)
        cfg.table.compaction_min_file_num = (int) args->min_file_num;
    char user[40];
    zs_uuid (user);
    zs_compact_t req;
    zs_table_compact_options (&cfg, user, &req);
    int64_t rounds = 0, before = 0, after = 0, last = 0;
    char err[ZS_ERRLEN];
    //  Shared, for the whole run: no cleaner removes an output rewritten
    //  but not yet committed (its commit would fail, or worse).
    zs_io_lock_t *lock = NULL;
    if (zs_table_clean_lock (table, false, ZS_CLEAN_HAND_WAIT_MS, &lock, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table compact: %s\n", err);
        return 1;
    }
    for (;;) {
        zs_compacted_t out;
        int rc = zs_table_compact (table, &req, &out, err, sizeof err);
        if (rc != 0) {
            zs_table_clean_unlock (&lock);
            fprintf (stderr, "zsink table compact: %s\n", err);
            return 1;
        }
        if (!out.snapshot_id)
            break;
        rounds++;
        before += out.before;
        after += out.after;
        last = out.snapshot_id;
    }
    zs_table_clean_unlock (&lock);
    if (args->json)
        s_print_json (json_pack ("{s:I, s:I, s:I, s:I, s:s}", "compactions", (json_int_t) rounds,
                                 "files_before", (json_int_t) before, "files_after",
                                 (json_int_t) after, "snapshot", (json_int_t) last, "commit_user",
                                 user));
    else if (rounds == 0)
        printf ("nothing to compact\n");
    else
        printf ("compacted %" PRId64 " files into %" PRId64 " in %" PRId64
                " COMPACT snapshot(s), the last %" PRId64 "\n",
                before, after, rounds, last);
    return 0;
}

//  Drop the pin of a commit user whose job is gone for good.
static int
s_cmd_unpin (zs_table_t *table, const s_args_t *args)
{
    if (!args->user)
        return s_usage (args, "--user COMMIT_USER is required (orphans lists the pins)");
    char err[ZS_ERRLEN];
    zs_pin_t *pins = NULL;
    size_t n = 0, kept = 0;
    bool running = false, found = false;
    if (zs_table_pins (table, &pins, &n, err, sizeof err) == 0)
        for (size_t i = 0; i < n; i++)
            if (strcmp (pins[i].user, args->user) == 0) {
                running = running || pins[i].running;
                found = true;
                kept = pins[i].files;
            }
    free (pins);
    //  its files in flight and its manifests would lose their keeper
    if (running) {
        fprintf (stderr, "zsink table unpin: the job of commit user %s is running; stop it first\n",
                 args->user);
        return 1;
    }
    if (args->dry_run && found) {
        printf ("would unpin commit user %s: %zu data file%s it keeps would become orphans\n",
                args->user, kept, kept == 1 ? "" : "s");
        return 0;
    }
    int rc = args->dry_run ? ZS_ENOENT : zs_table_unpin (table, args->user, err, sizeof err);
    if (rc != 0) {
        if (args->dry_run)
            snprintf (err, sizeof err, "no pin of commit user %s", args->user);
        fprintf (stderr, "zsink table unpin: %s\n", err);
        return 1;
    }
    printf ("unpinned commit user %s: %zu data file%s it kept can be orphans now\n", args->user,
            kept, kept == 1 ? "" : "s");
    return 0;
}

//  rollback --to-timestamp: the newest snapshot made at or before it
//  (Paimon's earlierOrEqualTimeMills), into args->snapshot. 0 or 1 printed.
static int
s_snapshot_at (zs_table_t *table, s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_snapshot_t *snaps;
    size_t n;
    if (zs_table_list_snapshots (table, &snaps, &n, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (snaps[i].time_millis <= args->to_ms)
            args->snapshot = snaps[i].id;
    char when[40], first[40] = "none";
    s_fmt_time (args->to_ms, when, sizeof when);
    if (n)
        s_fmt_time (snaps[0].time_millis, first, sizeof first);
    free (snaps);
    if (!args->snapshot) {
        fprintf (stderr, "zsink table %s: no snapshot made at or before %s (the earliest: %s)\n",
                 args->cmd, when, first);
        return 1;
    }
    return 0;
}

//  The target of a rollback: exactly one of --to-snapshot, --to-tag,
//  --to-timestamp, --version (an id or a tag, as Paimon's action reads it).
static int
s_rollback_target (zs_table_t *table, s_args_t *args)
{
    if (args->version) {
        char *end;
        int64_t id = strtoll (args->version, &end, 10);
        if (*end == '\0' && id > 0 && !args->snapshot)
            args->snapshot = id;
        else if (!args->tag)
            args->tag = args->version;
        else
            args->snapshot = -1; //  two targets
    }
    int given = (args->snapshot != 0) + (args->tag != NULL) + (args->to_ms >= 0);
    if (given != 1)
        return s_usage (args, given ? "give one target: --to-snapshot ID, --to-tag NAME or "
                                      "--to-timestamp TIME"
                                    : "missing the target: --to-snapshot ID, --to-tag NAME or "
                                      "--to-timestamp TIME");
    return args->to_ms >= 0 ? s_snapshot_at (table, args) : 0;
}

//  What a rollback to snapshot `to` removes: the snapshots after it (ids)
//  and their tags (names), as JSON arrays (empty when they cannot be read:
//  the rollback itself will say why).
static void
s_after (zs_table_t *table, int64_t to, json_t **ids, json_t **names)
{
    char err[ZS_ERRLEN];
    zs_snapshot_t *snaps = NULL;
    zs_tag_t *tags = NULL;
    size_t ns = 0, nt = 0;
    *ids = json_array ();
    *names = json_array ();
    if (zs_table_list_snapshots (table, &snaps, &ns, err, sizeof err) != 0)
        ns = 0;
    if (zs_table_tags (table, &tags, &nt, err, sizeof err) != 0)
        nt = 0;
    for (size_t i = 0; i < ns; i++)
        if (snaps[i].id > to)
            json_array_append_new (*ids, json_integer (snaps[i].id));
    for (size_t i = 0; i < nt; i++)
        if (tags[i].snap.id > to)
            json_array_append_new (*names, json_string (tags[i].name));
    free (snaps);
    free (tags);
}

static void
s_print_rollback (const s_args_t *args, int64_t from, int64_t to, json_t *ids, json_t *tags,
                  const zs_rolled_back_t *out)
{
    if (args->json) {
        json_t *o =
            json_pack ("{s:I, s:I, s:I, s:o, s:o, s:I, s:I, s:I, s:b}", "previous_snapshot_id",
                       (json_int_t) from, "current_snapshot_id", (json_int_t) to, "latest",
                       (json_int_t) to, "snapshot_ids", ids, "tags", tags, "snapshot_files",
                       (json_int_t) out->snapshots, "manifests", (json_int_t) out->manifests,
                       "data_files", (json_int_t) out->data_files, "dry_run", args->dry_run);
        if (args->tag)
            json_object_set_new (o, "tag_name", json_string (args->tag));
        s_print_json (o);
        return;
    }
    printf ("%s to snapshot %" PRId64 "%s%s%s (latest was %" PRId64 "): %s%" PRId64
            " snapshot%s, %" PRId64 " manifests and lists, %" PRId64 " data files%s",
            args->dry_run ? "would roll back" : "rolled back", to, args->tag ? " (tag '" : "",
            args->tag ? args->tag : "", args->tag ? "')" : "", from,
            args->dry_run ? "would remove " : "", out->snapshots, out->snapshots == 1 ? "" : "s",
            out->manifests, out->data_files, args->dry_run ? "" : " removed");
    for (size_t i = 0; i < json_array_size (tags); i++)
        printf ("%s'%s'", i ? ", " : "; and the tags of later snapshots: ",
                json_string_value (json_array_get (tags, i)));
    printf ("\n");
    json_decref (ids);
    json_decref (tags);
}

//  Paimon's rollback_to (--to-snapshot, --to-tag) and rollback_to_timestamp.
static int
s_cmd_rollback (zs_table_t *table, const s_args_t *given)
{
    s_args_t a = *given, *args = &a;
    int rc = s_rollback_target (table, args);
    if (rc != 0)
        return rc;
    char err[ZS_ERRLEN];
    zs_snapshot_t latest;
    zs_tag_t tag;
    if (zs_table_latest_snapshot (table, &latest, err, sizeof err) != 0
        || (args->tag && zs_table_read_tag (table, args->tag, &tag, err, sizeof err) != 0)) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return 1;
    }
    int64_t to = args->tag ? tag.snap.id : args->snapshot;
    json_t *ids, *tags;
    s_after (table, to, &ids, &tags);
    zs_rolled_back_t out;
    rc = args->dry_run ? zs_table_rollback_dry_run (table, to, args->tag, &out, err, sizeof err)
         : args->tag   ? zs_table_rollback_to_tag (table, args->tag, &out, err, sizeof err)
                       : zs_table_rollback (table, to, &out, err, sizeof err);
    if (rc != 0) {
        json_decref (tags);
        json_decref (ids);
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return rc == ZS_EREFUSED ? 2 : 1;
    }
    s_print_rollback (args, latest.id, to, ids, tags, &out);
    return 0;
}

//  The latest schema: Flink SQL's SELECT * FROM t$schemas (its columns,
//  by field id) and t$options, then the history: every schema-N, when,
//  and what changed from the one before (by field id), and whether zsink
//  reads its files as the latest (evolve.h).
static bool
s_options_differ (const zs_table_schema_t *a, const zs_table_schema_t *b)
{
    if (a->n_options != b->n_options)
        return true;
    for (int i = 0; i < a->n_options; i++)
        if (strcmp (zs_schema_option (b, a->option_key[i], "\x01"), a->option_value[i]) != 0)
            return true;
    return false;
}

//  Schema i of the history: its changes as JSON, or printed.
static json_t *
s_schema_step (const zs_schemas_t *all, size_t i, bool json)
{
    const zs_table_schema_t *cur = &all->s[i], *latest = zs_schemas_latest (all);
    zs_schema_change_t ch[2 * ZS_MAX_COLUMNS];
    int n = i ? zs_evolve_changes (&all->s[i - 1], cur, ch, 2 * ZS_MAX_COLUMNS) : 0;
    bool opts = i && s_options_differ (&all->s[i - 1], cur);
    char when[64], why[ZS_ERRLEN] = "";
    zs_evolve_t plan;
    bool readable = zs_evolve_plan (cur, latest, &plan, why, sizeof why) == 0;
    s_fmt_time (cur->time_millis, when, sizeof when);
    if (json) {
        json_t *changes = json_array ();
        for (int k = 0; k < n && k < 2 * ZS_MAX_COLUMNS; k++)
            json_array_append_new (changes,
                                   json_pack ("{s:s, s:i, s:s}", "change", ch[k].what, "field_id",
                                              ch[k].field_id, "column", ch[k].text));
        return json_pack ("{s:I, s:I, s:o, s:b, s:b, s:s}", "schema_id", (json_int_t) cur->id,
                          "time_millis", (json_int_t) cur->time_millis, "changes", changes,
                          "options_changed", opts, "read_as_latest", readable, "why_not", why);
    }
    printf ("  schema %-4lld %s  ", (long long) cur->id, when);
    if (i == 0)
        printf ("created");
    for (int k = 0; k < n && k < 2 * ZS_MAX_COLUMNS; k++)
        printf ("%s%s %s", k ? ", " : "", ch[k].what, ch[k].text);
    if (opts)
        printf ("%soptions changed", n ? ", " : "");
    if (i && !n && !opts)
        printf ("no change");
    printf ("\n");
    if (!readable)
        printf ("    zsink cannot read its files as the latest: %s\n", why);
    return NULL;
}

//  The keys, as Flink's SHOW CREATE TABLE names them: PRIMARY KEY (…),
//  PARTITIONED BY (…); "none" for an append or unpartitioned table.
static void
s_print_keys (const zs_table_schema_t *t)
{
    char pk[512], part[512];
    zs_schema_primary_format (t, pk, sizeof pk);
    if (zs_schema_partition_format (&t->row, part, sizeof part) != 0)
        snprintf (part, sizeof part, "(too long to show)");
    printf ("primary key:    %s\n", *pk ? pk : "none (an append table)");
    printf ("partition keys: %s\n", *part ? part : "none");
}

static int
s_cmd_schema (zs_table_t *table, const s_args_t *args)
{
    const zs_table_schema_t *t = zs_table_schema_file (table);
    const zs_schemas_t *all = zs_table_schemas (table);
    char why[ZS_ERRLEN] = "";
    bool writable = zs_schema_writable (t, why, sizeof why) == 0;
    if (writable)
        writable = zs_schemas_check (all, why, sizeof why) == 0;
    if (args->json) {
        json_t *cols = json_array (), *opts = json_object (), *history = json_array ();
        for (int i = 0; i < t->row.n; i++) {
            char type[ZS_SCHEMA_TYPE_TEXT_MAX];
            json_array_append_new (
                cols, json_pack ("{s:i, s:s, s:s, s:b}", "id", t->field_id[i], "name",
                                 t->row.cols[i].name, "type",
                                 zs_schema_type_text (&t->row, &t->row.cols[i], type, sizeof type),
                                 "nullable", t->row.cols[i].nullable));
        }
        for (int i = 0; i < t->n_options; i++)
            json_object_set_new (opts, t->option_key[i], json_string (t->option_value[i]));
        for (size_t i = 0; i < all->n; i++)
            json_array_append_new (history, s_schema_step (all, i, true));
        json_t *pk = json_array (), *part = json_array ();
        for (int i = 0; i < t->n_primary_keys; i++)
            json_array_append_new (pk, json_string (t->row.cols[t->primary_key[i]].name));
        for (int i = 0; i < t->row.n_partition; i++)
            json_array_append_new (part, json_string (t->row.cols[t->row.partition[i]].name));
        s_print_json (json_pack ("{s:I, s:o, s:o, s:o, s:o, s:b, s:s, s:o}", "schema_id",
                                 (json_int_t) t->id, "fields", cols, "primary_keys", pk,
                                 "partition_keys", part, "options", opts, "zsink_writable",
                                 writable, "why_not", why, "history", history));
        return 0;
    }
    printf ("schema %lld of %s\n", (long long) t->id, zs_table_path (table));
    for (int i = 0; i < t->row.n; i++) {
        char type[ZS_SCHEMA_TYPE_TEXT_MAX];
        printf ("  %-24s %s%s\n", t->row.cols[i].name,
                zs_schema_type_text (&t->row, &t->row.cols[i], type, sizeof type),
                t->row.cols[i].nullable ? "" : " NOT NULL");
    }
    s_print_keys (t);
    printf ("options:\n");
    for (int i = 0; i < t->n_options; i++)
        printf ("  %-40s %s\n", t->option_key[i], t->option_value[i]);
    printf ("history:\n");
    for (size_t i = 0; i < all->n; i++)
        s_schema_step (all, i, false);
    printf (writable ? "zsink can write it\n" : "zsink cannot write it: %s\n", why);
    return 0;
}

//  --------------------------------------------------------------------------
//  Tags (table.h, table_tag.c)

static int
s_cmd_create_tag (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    int64_t id = 0;
    int rc = zs_table_create_tag (table, args->tag, args->snapshot, &id, err, sizeof err);
    if (rc != 0) {
        fprintf (stderr, "zsink table create-tag: %s\n", err);
        return rc == ZS_EREFUSED || rc == ZS_ENOENT ? 2 : 1;
    }
    if (args->json)
        s_print_json (
            json_pack ("{s:s, s:I}", "tag_name", args->tag, "snapshot_id", (json_int_t) id));
    else
        printf ("created tag '%s' of snapshot %" PRId64 "\n", args->tag, id);
    return 0;
}

static int
s_cmd_delete_tag (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_rolled_back_t out;
    zs_tag_t tag;
    int rc = zs_table_read_tag (table, args->tag, &tag, err, sizeof err);
    if (rc == 0)
        rc = args->dry_run ? zs_table_delete_tag_dry_run (table, args->tag, &out, err, sizeof err)
                           : zs_table_delete_tag (table, args->tag, &out, err, sizeof err);
    if (rc != 0) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return rc == ZS_ENOENT || rc == ZS_EREFUSED ? 2 : 1;
    }
    if (args->json)
        s_print_json (json_pack ("{s:s, s:I, s:I, s:I, s:b}", "tag_name", args->tag, "snapshot_id",
                                 (json_int_t) tag.snap.id, "manifests", (json_int_t) out.manifests,
                                 "data_files", (json_int_t) out.data_files, "dry_run",
                                 args->dry_run));
    else
        printf ("%s tag '%s' (snapshot %" PRId64 "): %" PRId64 " manifests and lists, %" PRId64
                " data files only it kept %s\n",
                args->dry_run ? "would delete" : "deleted", args->tag, tag.snap.id, out.manifests,
                out.data_files, args->dry_run ? "would go" : "removed");
    return 0;
}

//  Flink SQL's SELECT * FROM t$tags, but time_retained.
static int
s_cmd_tags (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_tag_t *tags;
    size_t n;
    if (zs_table_tags (table, &tags, &n, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table tags: %s\n", err);
        return 1;
    }
    json_t *arr = json_array ();
    if (!args->json)
        printf ("%-24s %11s %9s %-23s %12s %-23s\n", "tag_name", "snapshot_id", "schema_id",
                "commit_time", "record_count", "create_time");
    for (size_t i = 0; i < n; i++) {
        const zs_tag_t *t = &tags[i];
        json_t *created = t->create_ms >= 0 ? json_integer (t->create_ms) : json_null ();
        json_array_append_new (
            arr, json_pack ("{s:s, s:I, s:I, s:I, s:I, s:o}", "tag_name", t->name, "snapshot_id",
                            (json_int_t) t->snap.id, "schema_id", (json_int_t) t->snap.schema_id,
                            "commit_time", (json_int_t) t->snap.time_millis, "record_count",
                            (json_int_t) t->snap.total_record_count, "create_time", created));
        char when[40], made[40] = "NULL";
        s_fmt_time (t->snap.time_millis, when, sizeof when);
        if (t->create_ms >= 0) {
            //  tagCreateTime is a local wall-clock time already
            time_t secs = (time_t) (t->create_ms / 1000);
            struct tm tm;
            gmtime_r (&secs, &tm);
            strftime (made, sizeof made, "%Y-%m-%d %H:%M:%S", &tm);
        }
        if (!args->json)
            printf ("%-24s %11" PRId64 " %9" PRId64 " %-23s %12" PRId64 " %-23s\n", t->name,
                    t->snap.id, t->snap.schema_id, when, t->snap.total_record_count, made);
    }
    if (args->json)
        s_print_json (arr);
    else {
        json_decref (arr);
        printf ("%zu tag%s\n", n, n == 1 ? "" : "s");
    }
    free (tags);
    return 0;
}

static int
s_opt_tag (s_args_t *args, const char *opt, const char *value)
{
    if (!value) {
        char why[160];
        snprintf (why, sizeof why, "%s needs a tag name", opt);
        return s_usage (args, why);
    }
    args->tag = value;
    return ZS_CMD_GO_ON;
}

//  --------------------------------------------------------------------------
//  Partitions (table_partitions.c)

//  A _CREATION_TIME (local wall clock as epoch ms) as Paimon prints it.
static void
s_fmt_local (int64_t ms, char *buf, size_t len)
{
    time_t secs = (time_t) (ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
    struct tm tm;
    gmtime_r (&secs, &tm);
    size_t n = strftime (buf, len, "%Y-%m-%d %H:%M:%S", &tm);
    snprintf (buf + n, len - n, ".%03d", (int) (ms - (int64_t) secs * 1000));
}

static json_t *
s_partitions_json (const zs_partition_info_t *p, size_t n)
{
    json_t *arr = json_array ();
    for (size_t i = 0; i < n; i++)
        json_array_append_new (arr, json_pack ("{s:s, s:I, s:I, s:I, s:I}", "partition",
                                               p[i].partition, "record_count",
                                               (json_int_t) p[i].record_count, "file_size_in_bytes",
                                               (json_int_t) p[i].file_size_in_bytes, "file_count",
                                               (json_int_t) p[i].file_count, "last_update_time",
                                               (json_int_t) p[i].last_update_ms));
    return arr;
}

static int
s_cmd_partitions (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_partition_info_t *p;
    size_t n;
    if (zs_table_partitions (table, args->snapshot, &p, &n, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table partitions: %s\n", err);
        return 1;
    }
    if (args->json)
        s_print_json (s_partitions_json (p, n));
    else {
        printf ("%-40s %12s %18s %10s %-23s\n", "partition", "record_count", "file_size_in_bytes",
                "file_count", "last_update_time");
        for (size_t i = 0; i < n; i++) {
            char when[40];
            s_fmt_local (p[i].last_update_ms, when, sizeof when);
            printf ("%-40s %12" PRId64 " %18" PRId64 " %10" PRId64 " %-23s\n", p[i].partition,
                    p[i].record_count, p[i].file_size_in_bytes, p[i].file_count, when);
        }
        printf ("%zu partition%s\n", n, n == 1 ? "" : "s");
    }
    free (p);
    return 0;
}

//  What a drop did (or would do): list, under key, the partitions.
static void
s_print_dropped (const s_args_t *args, const zs_dropped_t *d, json_t *expired, const char *key)
{
    if (args->json) {
        json_t *o =
            json_pack ("{s:I, s:I, s:I, s:I, s:b}", "snapshot_id", (json_int_t) d->snapshot_id,
                       "partitions", (json_int_t) d->partitions, "files", (json_int_t) d->files,
                       "rows", (json_int_t) d->rows, "dry_run", args->dry_run);
        if (expired)
            json_object_set_new (o, key, expired);
        s_print_json (o);
    } else if (d->snapshot_id)
        printf ("Dropped %" PRId64 " partition%s (%" PRId64 " files, %" PRId64
                " rows) in OVERWRITE snapshot %" PRId64 ".\n",
                d->partitions, d->partitions == 1 ? "" : "s", d->files, d->rows, d->snapshot_id);
    if (!args->json)
        json_decref (expired);
}

static int
s_cmd_drop_partition (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_dropped_t d;
    if (args->n_specs == 0)
        return s_usage (args, "drop-partition needs --partition K=V[,K=V...]");
    int rc = args->dry_run ? zs_table_drop_partitions_dry_run (table, args->specs, args->n_specs,
                                                               &d, err, sizeof err)
                           : zs_table_drop_partitions (table, args->specs, args->n_specs, &d, err,
                                                       sizeof err);
    if (rc != 0) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return rc == ZS_EREFUSED ? 2 : 1;
    }
    json_t *specs = json_array ();
    for (size_t i = 0; i < args->n_specs; i++)
        json_array_append_new (specs, json_string (args->specs[i]));
    if (args->dry_run && !args->json)
        printf ("would drop %" PRId64 " partition%s (%" PRId64 " files, %" PRId64 " rows)\n",
                d.partitions, d.partitions == 1 ? "" : "s", d.files, d.rows);
    s_print_dropped (args, &d, specs, "dropped");
    return 0;
}

static int
s_cmd_expire_partitions (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    zs_partition_expire_t req;
    if (zs_table_partition_expire_options (table, &req, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table expire-partitions: %s\n", err);
        return 1;
    }
    if (args->expiration_ms >= 0)
        req.expiration_ms = args->expiration_ms;
    req.formatter = args->formatter ? args->formatter : req.formatter;
    req.pattern = args->pattern ? args->pattern : req.pattern;
    req.strategy = args->strategy ? args->strategy : req.strategy;
    req.max_num = args->max_num > 0 ? (int) args->max_num : req.max_num;
    req.dry_run = args->dry_run;
    zs_partition_info_t *expired;
    size_t n;
    zs_dropped_t d;
    int rc = zs_table_expire_partitions (table, &req, &expired, &n, &d, err, sizeof err);
    if (rc != 0) {
        fprintf (stderr, "zsink table expire-partitions: %s\n", err);
        return rc == ZS_EREFUSED ? 2 : 1;
    }
    json_t *list = json_array ();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new (list, json_string (expired[i].partition));
        if (!args->json)
            printf ("%s %s\n", args->dry_run ? "would expire" : "expired", expired[i].partition);
    }
    if (!args->json && n == 0)
        printf ("no partition expired\n");
    s_print_dropped (args, &d, list, "expired");
    free (expired);
    return 0;
}

static int
s_opt_partition (s_args_t *args, const char *opt, const char *value)
{
    if (!value)
        return s_usage (args, "--partition needs K=V[,K=V...]");
    if (args->n_specs == sizeof args->specs / sizeof args->specs[0])
        return s_usage (args, "too many --partition");
    args->specs[args->n_specs++] = value;
    return ZS_CMD_GO_ON;
}

//  --where, --timestamp-formatter, --timestamp-pattern, --expiration-strategy;
//  --warehouse, --database, --table, --path: the table as Paimon's actions
//  name it (s_catalog_path puts them together)
static int
s_opt_text (s_args_t *args, const char *opt, const char *value)
{
    if (!value || !*value) {
        char why[160];
        snprintf (why, sizeof why, "%s needs a value", opt);
        return s_usage (args, why);
    }
    static const struct {
        const char *opt;
        size_t offset;
    } fields[] = {
        {"--path", offsetof (s_args_t, path)},
        {"--warehouse", offsetof (s_args_t, warehouse)},
        {"--database", offsetof (s_args_t, database)},
        {"--table", offsetof (s_args_t, table)},
        {"--where", offsetof (s_args_t, where)},
        {"--timestamp-formatter", offsetof (s_args_t, formatter)},
        {"--timestamp-pattern", offsetof (s_args_t, pattern)},
        {"--expiration-strategy", offsetof (s_args_t, strategy)},
        {"--expire-strategy", offsetof (s_args_t, strategy)},
    };
    if (strcmp (opt, "--path") == 0 && args->path)
        return s_usage (args, "--path and a PATH: one or the other");
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp (opt, fields[i].opt) == 0)
            *(const char **) ((char *) args + fields[i].offset) = value;
    return ZS_CMD_GO_ON;
}

static int
s_opt_expiration (s_args_t *args, const char *opt, const char *value)
{
    if (!value || zs_parse_duration_ms (value, &args->expiration_ms) != 0
        || args->expiration_ms <= 0) {
        char why[160];
        snprintf (why, sizeof why, "%s needs a duration (e.g. 7d, 12h)", opt);
        return s_usage (args, why);
    }
    return ZS_CMD_GO_ON;
}

//  The table's path from --warehouse W --database D --table T (or
//  --table D.T): W/D.db/T, as Paimon's filesystem catalog lays it out.
//  ZS_CMD_GO_ON, or the exit code.
static int
s_catalog_path (s_args_t *args)
{
    if (!args->warehouse && !args->database && !args->table)
        return ZS_CMD_GO_ON;
    const char *dot = args->table ? strchr (args->table, '.') : NULL;
    const char *db = args->database;
    int db_len = db ? (int) strlen (db) : 0;
    if (dot && !db) {
        db = args->table;
        db_len = (int) (dot - args->table);
    }
    const char *name = dot && db == args->table ? dot + 1 : args->table;
    if (args->path || !args->warehouse || !db || !name || !*name)
        return s_usage (args, args->path ? "a PATH and --warehouse/--database/--table: one or "
                                           "the other"
                                         : "--warehouse W --database D --table T (or --table "
                                           "D.T) name the table W/D.db/T: give all three");
    snprintf (args->catalog_path, sizeof args->catalog_path, "%s/%.*s.db/%s", args->warehouse,
              db_len, db, name);
    args->path = args->catalog_path;
    return ZS_CMD_GO_ON;
}

//  The subcommands as bits, for the options table to say who takes what.
enum {
    S_SNAPSHOTS = 1 << 0,
    S_COUNT = 1 << 1,
    S_STATS = 1 << 2,
    S_FILES = 1 << 3,
    S_ORPHANS = 1 << 4,
    S_VERIFY = 1 << 5,
    S_SCAN = 1 << 6,
    S_SCHEMA = 1 << 7,
    S_EXPIRE = 1 << 8,
    S_COMPACT = 1 << 9,
    S_REMOVE_ORPHANS = 1 << 10,
    S_ROLLBACK = 1 << 11,
    S_UNPIN = 1 << 15, //  (12-14: the tags item's create-tag, delete-tag, tags)
    S_CREATE_TAG = 1 << 12,
    S_DELETE_TAG = 1 << 13,
    S_TAGS = 1 << 14,
    S_PARTITIONS = 1 << 16,
    S_DROP_PARTITION = 1 << 17,
    S_EXPIRE_PARTITIONS = 1 << 18,
    S_ALL = (1 << 19) - 1,
};
//  those that take a tag NAME after PATH
#define S_NAMED (S_CREATE_TAG | S_DELETE_TAG)

typedef struct {
    const char *name;
    unsigned takers; //  the subcommands that take it
    bool has_value;  //  takes the next argument as its value
    s_opt_fn *set;
} s_opt_t;

//  Options that do not apply to a subcommand are errors, not ignored:
//  `count --delete` must not look like it did something. Paimon's
//  argument names are found too: '_' reads as '-' (--older_than,
//  --retain_max, --dry_run …), and the few Paimon names that differ from
//  zsink's are entries of their own (--snapshot-id, --tag-name, --version,
//  --timestamp, --expire-strategy, --max-expires).
static const s_opt_t s_opts[] = {
    {"--json",
     S_SNAPSHOTS | S_COUNT | S_STATS | S_FILES | S_ORPHANS | S_VERIFY | S_SCHEMA | S_EXPIRE
         | S_COMPACT | S_REMOVE_ORPHANS | S_ROLLBACK | S_CREATE_TAG | S_DELETE_TAG | S_TAGS
         | S_PARTITIONS | S_DROP_PARTITION | S_EXPIRE_PARTITIONS,
     false, s_opt_json},
    {"--snapshot", S_COUNT | S_STATS | S_SCAN | S_CREATE_TAG | S_PARTITIONS | S_ROLLBACK, true,
     s_opt_snapshot},
    {"--snapshot-id", S_CREATE_TAG | S_ROLLBACK, true, s_opt_snapshot},
    {"--where", S_SCAN | S_COUNT, true, s_opt_text},
    {"--partition", S_DROP_PARTITION, true, s_opt_partition},
    {"--expiration-time", S_EXPIRE_PARTITIONS, true, s_opt_expiration},
    {"--timestamp-formatter", S_EXPIRE_PARTITIONS, true, s_opt_text},
    {"--timestamp-pattern", S_EXPIRE_PARTITIONS, true, s_opt_text},
    {"--expiration-strategy", S_EXPIRE_PARTITIONS, true, s_opt_text},
    {"--expire-strategy", S_EXPIRE_PARTITIONS, true, s_opt_text},
    {"--max-num", S_EXPIRE_PARTITIONS, true, s_opt_count},
    {"--max-expires", S_EXPIRE_PARTITIONS, true, s_opt_count},
    {"--tag", S_COUNT | S_STATS | S_SCAN | S_ROLLBACK | S_CREATE_TAG | S_DELETE_TAG, true,
     s_opt_tag},
    {"--tag-name", S_CREATE_TAG | S_DELETE_TAG, true, s_opt_tag},
    {"--to-tag", S_ROLLBACK, true, s_opt_tag},
    {"--to-snapshot", S_ROLLBACK, true, s_opt_snapshot},
    {"--to-timestamp", S_ROLLBACK, true, s_opt_to_time},
    {"--timestamp", S_ROLLBACK, true, s_opt_to_time},
    {"--version", S_ROLLBACK, true, s_opt_version},
    {"--limit", S_SCAN, true, s_opt_limit},
    {"--format", S_SCAN, true, s_opt_format},
    {"--delete", S_ORPHANS, false, s_opt_delete},
    {"--older-than", S_ORPHANS | S_EXPIRE | S_REMOVE_ORPHANS, true, s_opt_age},
    {"--target-file-size", S_COMPACT, true, s_opt_size},
    {"--min-file-num", S_COMPACT, true, s_opt_count},
    {"--retain-max", S_EXPIRE, true, s_opt_count},
    {"--retain-min", S_EXPIRE, true, s_opt_count},
    {"--max-deletes", S_EXPIRE, true, s_opt_count},
    {"--dry-run",
     S_EXPIRE | S_REMOVE_ORPHANS | S_EXPIRE_PARTITIONS | S_ROLLBACK | S_DELETE_TAG
         | S_DROP_PARTITION | S_ORPHANS | S_UNPIN,
     false, s_opt_dry_run},
    {"--orphans-older-than", S_VERIFY, true, s_opt_age},
    {"--user", S_UNPIN, true, s_opt_user},
    {"--warehouse", S_ALL, true, s_opt_text},
    {"--database", S_ALL, true, s_opt_text},
    {"--table", S_ALL, true, s_opt_text},
    {"--path", S_ALL, true, s_opt_text},
};

typedef struct {
    const char *name;   //  zsink's name
    const char *paimon; //  Paimon's procedure names, space-separated ("": none)
    unsigned bit;
    int (*fn) (zs_table_t *, const s_args_t *);
    int64_t older_than_ms; //  the orphans' age unless told otherwise
    const char *usage;     //  its synopsis, after "zsink table NAME "
    const char *what;      //  one line, for `zsink --help`
    const char *help;      //  what it does, for --help
} s_cmd_t;

#define S_TIME "AGE|TIME"
#define S_HOUR S_DEFAULT_ORPHAN_AGE_MS

//  The age guard is on by default: deleting a file a running job is about
//  to commit would turn its next commit into ZS_EMISSING. verify looks at
//  every orphan data file, unless told otherwise. Each help names the
//  table's system table or Paimon's procedure it answers to.
static const s_cmd_t s_cmds[] = {
    {"snapshots", "", S_SNAPSHOTS, s_cmd_snapshots, S_HOUR, "PATH [--json]",
     "the $snapshots system table",
     "id, commit user, identifier, kind, time, delta and total rows of every snapshot"},
    {"count", "", S_COUNT, s_cmd_count, S_HOUR,
     "PATH [--snapshot ID | --tag NAME] [--where 'K = V [AND ...]'] [--json]",
     "rows of the latest snapshot, read from the data files",
     "rows in the latest snapshot (or --snapshot's, --tag's), counted by reading the data\n"
     "files, not the manifests' counts"},
    {"stats", "", S_STATS, s_cmd_stats, S_HOUR, "PATH [--snapshot ID | --tag NAME] [--json]",
     "count, distinct ids, min and max id",
     "count, distinct ids, min and max id (of the first BIGINT column named id;\n"
     "count only without one)"},
    {"files", "", S_FILES, s_cmd_files, S_HOUR, "PATH [--json]",
     "live data files of the latest snapshot",
     "live data files of the latest snapshot (--json: with their schema id and value\n"
     "statistics)"},
    {"schema", "", S_SCHEMA, s_cmd_schema, S_HOUR, "PATH [--json]",
     "the $schemas and $options system tables, the schema's history",
     "the latest schema: its columns (the $schemas system table) and the table's options\n"
     "($options); the history: every schema-N, when, and the columns it added, dropped,\n"
     "renamed or retyped (by field id); and whether zsink can write the table (files of\n"
     "an older schema are read as the latest: a column added since reads NULL,\n"
     "INT/BIGINT/FLOAT/TIMESTAMP(3) widen; any other change is refused by name)"},
    {"scan", "", S_SCAN, s_cmd_scan, S_HOUR,
     "PATH|FILE.parquet [--snapshot ID | --tag NAME] [--where 'K = V [AND ...]']\n"
     "           [--limit N] [--format csv|jsonl]",
     "print the rows, as JSON lines or CSV",
     "print the rows, as JSON lines (default) or CSV with a header; PATH may also be one\n"
     "Parquet file. --where: only the partitions whose keys pass the comparisons (=, !=,\n"
     "<>, <, <=, >, >=, IS [NOT] NULL, joined by AND): the files of other partitions are\n"
     "never opened; stderr says how many were skipped (count takes it too)"},
    {"orphans", "", S_ORPHANS, s_cmd_orphans, S_HOUR,
     "PATH [--delete [--dry-run]] [--older-than " S_TIME "] [--json]",
     "files no snapshot or tag references (--delete removes them)",
     "files no snapshot references and no job's pin keeps; --delete removes those older\n"
     "than --older-than (default 1h; --dry-run: list them only). Whatever the age, a pin\n"
     "keeps what a running or restorable zsink job may still commit: its acked\n"
     "checkpoints' files, and while it runs its checkpoint in flight and manifests\n"
     "written ahead (--older-than 0s on a live table: every other unreferenced file)"},
    {"verify", "", S_VERIFY, s_cmd_verify, 0, "PATH [--orphans-older-than " S_TIME "] [--json]",
     "check snapshots, manifests and files; exit 1 naming each problem",
     "snapshots and manifests decode, no snapshot id gap; every live file listed once, on\n"
     "disk with its recorded size and rows; no data file in no snapshot (of any age, or\n"
     "older than --orphans-older-than: a running job's checkpoint in flight is young);\n"
     "exit 1 naming each problem"},
    {"expire-snapshots", "expire_snapshots", S_EXPIRE, s_cmd_expire, -1,
     "PATH [--retain-max N] [--retain-min N] [--older-than " S_TIME "]\n"
     "           [--max-deletes N] [--dry-run] [--json]",
     "drop old snapshots and the files only they name",
     "keep the newest --retain-min, drop all beyond --retain-max, and between the two\n"
     "those older than --older-than; at most --max-deletes snapshots; each defaults to\n"
     "the table's snapshot.num-retained.min/max, snapshot.time-retained,\n"
     "snapshot.expire.limit. Removes the snapshots, the manifests only they name and the\n"
     "data files their commits deleted. Safe beside a running job (never the newest\n"
     "snapshot zsink made: its committed identifiers)"},
    {"compact", "compact", S_COMPACT, s_cmd_compact, 0,
     "PATH [--target-file-size SIZE] [--min-file-num N] [--json]",
     "small files rewritten into COMPACT snapshots",
     "for an append table: small files (below 0.7 x --target-file-size, default 128mb)\n"
     "rewritten into one COMPACT snapshot once there are --min-file-num (default 5) of\n"
     "them, as many rounds as there is work; safe beside a job. It removes nothing: the\n"
     "files it replaced go with the expiry of the snapshots before it"},
    //  Paimon's default margin: a day
    {"remove-orphan-files", "remove_orphan_files", S_REMOVE_ORPHANS, s_cmd_orphans,
     24 * 3600 * 1000, "PATH [--older-than " S_TIME "] [--dry-run] [--json]",
     "delete files no snapshot or tag references",
     "delete files no snapshot references, older than --older-than (default 1d,\n"
     "Paimon's), but those a zsink job's pin keeps, as orphans --delete"},
    {"rollback", "rollback_to rollback_to_timestamp", S_ROLLBACK, s_cmd_rollback, 0,
     "PATH --to-snapshot ID | --to-tag NAME | --to-timestamp TIME\n"
     "           [--dry-run] [--json]",
     "the table as of a snapshot, a tag or a time again",
     "the snapshots after the target and the files only they added removed; refused while\n"
     "a zsink job commits to the table. --to-tag NAME: to the tag's snapshot, restored\n"
     "from the tag when it is expired. --to-timestamp TIME: to the newest snapshot made\n"
     "at or before TIME (Paimon's rollback_to_timestamp). Either way the tags of later\n"
     "snapshots are removed (as Paimon does). Paimon's spellings: --snapshot_id ID,\n"
     "--tag NAME, --timestamp TIME, --version ID|NAME"},
    {"unpin", "", S_UNPIN, s_cmd_unpin, 0, "PATH --user COMMIT_USER [--dry-run]",
     "drop the pin of a job gone for good",
     "drop the pin of a commit user whose job is gone for good (orphans lists pins): the\n"
     "files it kept become orphans, for remove-orphan-files; refused while its job runs"},
    {"create-tag", "create_tag", S_CREATE_TAG, s_cmd_create_tag, 0,
     "PATH NAME|--tag NAME [--snapshot ID] [--json]", "tag a snapshot",
     "tag/tag-NAME of --snapshot ID (default the latest); refuses a taken name or a\n"
     "missing snapshot"},
    {"delete-tag", "delete_tag", S_DELETE_TAG, s_cmd_delete_tag, 0,
     "PATH NAME|--tag NAME [--dry-run] [--json]", "delete a tag and the files only it kept",
     "the tag, then the files only it kept (its snapshot expired, no other tag of it)"},
    {"tags", "", S_TAGS, s_cmd_tags, 0, "PATH [--json]", "the $tags system table",
     "name, snapshot, schema, commit time, record count, create time. A tag's snapshot,\n"
     "manifests and data files are kept by expire-snapshots, orphans and\n"
     "remove-orphan-files, and checked by verify; count, stats and scan read a tag with\n"
     "--tag NAME"},
    {"partitions", "", S_PARTITIONS, s_cmd_partitions, 0, "PATH [--snapshot ID] [--json]",
     "the $partitions system table",
     "partition, record count, file size in bytes, file count, last update time (its\n"
     "newest file's creation time) of a partitioned table"},
    {"drop-partition", "drop_partition", S_DROP_PARTITION, s_cmd_drop_partition, 0,
     "PATH --partition K=V[,K=V...] [--partition ...] [--dry-run] [--json]",
     "drop partitions in one OVERWRITE snapshot",
     "every live file of the partitions --partition names (all keys, or some: every\n"
     "partition with those values) deleted in one OVERWRITE snapshot, read so by Paimon;\n"
     "the files go with the expiry of the snapshots before it. Safe beside a running\n"
     "job, which keeps committing its other partitions (and new rows of a dropped one)"},
    {"expire-partitions", "expire_partitions", S_EXPIRE_PARTITIONS, s_cmd_expire_partitions, 0,
     "PATH [--expiration-time DURATION] [--timestamp-formatter F]\n"
     "           [--timestamp-pattern P] [--expiration-strategy values-time|update-time]\n"
     "           [--max-num N] [--dry-run] [--json]",
     "drop the partitions older than the expiration time",
     "drop, as drop-partition, the partitions older than --expiration-time (the table's\n"
     "partition.expiration-time): their time from their values by --timestamp-pattern\n"
     "('$dt $hr:00:00'; default the first key's value) and --timestamp-formatter\n"
     "('yyyyMMdd'; default yyyy-MM-dd[ HH:mm:ss]), or with --expiration-strategy\n"
     "update-time their newest file's; at most --max-num (100). Paimon's spellings:\n"
     "--expiration_time, --timestamp_formatter, --timestamp_pattern, --expire_strategy,\n"
     "--max_expires"},
};
#define S_NCMDS (sizeof s_cmds / sizeof s_cmds[0])

//  Whether name is one of Paimon's names of cmd (a space-separated list).
static bool
s_paimon_name (const s_cmd_t *cmd, const char *name)
{
    size_t len = strlen (name);
    for (const char *p = cmd->paimon; len && (p = strstr (p, name)); p += len)
        if ((p == cmd->paimon || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

//  The subcommand by zsink's name or Paimon's (or "expire", short).
static const s_cmd_t *
s_find_cmd (const char *name)
{
    if (strcmp (name, "expire") == 0)
        name = "expire-snapshots";
    for (size_t i = 0; i < S_NCMDS; i++)
        if (strcmp (name, s_cmds[i].name) == 0 || s_paimon_name (&s_cmds[i], name))
            return &s_cmds[i];
    return NULL;
}

//  The option arg names, if cmd takes it; else NULL. "--older_than" is
//  "--older-than" (Paimon's names have '_' where zsink's have '-').
static const s_opt_t *
s_find_opt (const s_cmd_t *cmd, const char *arg)
{
    char name[64];
    if (strncmp (arg, "--", 2) != 0 || strlen (arg) >= sizeof name)
        return NULL;
    for (size_t i = 0; (name[i] = arg[i] == '_' ? '-' : arg[i]); i++)
        ;
    for (size_t i = 0; i < sizeof s_opts / sizeof s_opts[0]; i++)
        if ((s_opts[i].takers & cmd->bit) && strcmp (name, s_opts[i].name) == 0)
            return &s_opts[i];
    return NULL;
}

//  --help of one subcommand: its usage, Paimon's name, what it does.
static void
s_help_one (const s_cmd_t *cmd)
{
    printf ("usage: zsink table %s %s\n", cmd->name, cmd->usage);
    const char *second = strchr (cmd->paimon, ' ');
    if (second)
        printf ("Paimon's procedures %.*s and %s: those names work as the subcommand too.\n",
                (int) (second - cmd->paimon), cmd->paimon, second + 1);
    else if (*cmd->paimon)
        printf ("Paimon's procedure %s: that name works as the subcommand too.\n", cmd->paimon);
    printf ("%s.\n", cmd->help);
    if (cmd->bit & (S_ORPHANS | S_EXPIRE | S_REMOVE_ORPHANS | S_VERIFY))
        printf ("AGE is a duration (1h, 30min, 7d); TIME Paimon's 'yyyy-MM-dd HH:mm:ss' (local "
                "time).\n");
    if (cmd->bit & S_ROLLBACK)
        printf ("TIME: 'yyyy-MM-dd HH:mm:ss' (local time, as Paimon's), epoch millis, or a "
                "duration ago (1h).\n");
}

//  --help: the subcommand's own, or (cmd NULL) the list of them all.
static int
s_help (const s_cmd_t *cmd)
{
    if (cmd) {
        s_help_one (cmd);
        return 0;
    }
    printf ("usage: zsink table SUBCOMMAND PATH [OPTIONS]\n"
            "PATH is a table directory or s3://BUCKET/PATH [-D s3.KEY=VALUE ...]. Paimon's\n"
            "procedure names are subcommands too (expire_snapshots, rollback_to, …), and its\n"
            "argument names are options ('_' for '-': --older_than, --retain_max, --dry_run;\n"
            "--dry_run takes true|false after it as Paimon's actions do). --older-than takes\n"
            "an AGE (1h, 7d) or Paimon's TIME ('2026-12-01 10:00:00', local time). Every\n"
            "procedure that deletes takes --dry-run: it says what it would delete. As in\n"
            "Paimon's actions, --warehouse W --database D --table T names the table\n"
            "W/D.db/T (--table D.T too), and --path PATH the table at PATH.\n\n");
    for (size_t i = 0; i < S_NCMDS; i++)
        printf ("zsink table %s %s\n", s_cmds[i].name, s_cmds[i].usage);
    printf ("\n");
    zs_table_cmd_list (stdout);
    printf ("\nzsink table SUBCOMMAND --help says more of one.\n");
    return 0;
}

void
zs_table_cmd_list (FILE *out)
{
    for (size_t i = 0; i < S_NCMDS; i++)
        fprintf (out, "  table %-20s %.*s%s%s\n", s_cmds[i].name,
                 (int) strcspn (s_cmds[i].paimon, " "), s_cmds[i].paimon,
                 *s_cmds[i].paimon ? ": " : "", s_cmds[i].what);
}

//  -D s3.KEY=VALUE: Paimon's S3 keys, as a job takes them (docs/object-storage.md).
static int
s_set_s3 (s_args_t *args, const char *kv)
{
    static const struct {
        const char *key;
        size_t offset;
    } keys[] = {
        {"s3.endpoint", offsetof (zs_io_s3_settings_t, endpoint)},
        {"s3.access-key", offsetof (zs_io_s3_settings_t, access_key)},
        {"s3.secret-key", offsetof (zs_io_s3_settings_t, secret_key)},
        {"s3.path.style.access", offsetof (zs_io_s3_settings_t, path_style)},
        {"s3.region", offsetof (zs_io_s3_settings_t, region)},
        {"s3.connection.request.timeout", offsetof (zs_io_s3_settings_t, request_timeout)},
    };
    const char *eq = kv ? strchr (kv, '=') : NULL;
    for (size_t i = 0; eq && i < sizeof keys / sizeof keys[0]; i++)
        if (strlen (keys[i].key) == (size_t) (eq - kv) && strncmp (kv, keys[i].key, eq - kv) == 0) {
            *(const char **) ((char *) &args->s3 + keys[i].offset) = eq + 1;
            return ZS_CMD_GO_ON;
        }
    char why[256];
    snprintf (why, sizeof why,
              "-D '%.64s': zsink table takes s3.endpoint, s3.access-key, s3.secret-key, "
              "s3.path.style.access, s3.region and s3.connection.request.timeout",
              kv ? kv : "");
    return s_usage (args, why);
}

//  The options and the PATH after the subcommand. ZS_CMD_GO_ON, or the
//  exit code.
static int
s_parse (const s_cmd_t *cmd, s_args_t *args, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
            return s_help (cmd);
        if (strncmp (argv[i], "-D", 2) == 0) {
            int rc = s_set_s3 (args, argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL);
            if (rc != ZS_CMD_GO_ON)
                return rc;
            continue;
        }
        const s_opt_t *opt = s_find_opt (cmd, argv[i]);
        if (opt) {
            const char *value = opt->has_value && i + 1 < argc ? argv[++i] : NULL;
            int rc = opt->set (args, opt->name, value);
            if (rc != ZS_CMD_GO_ON)
                return rc;
            //  Paimon's actions spell it --dry_run true|false
            if (opt->set == s_opt_dry_run && i + 1 < argc
                && (strcmp (argv[i + 1], "true") == 0 || strcmp (argv[i + 1], "false") == 0))
                args->dry_run = strcmp (argv[++i], "true") == 0;
        } else if (argv[i][0] == '-' || (args->path && (!(cmd->bit & S_NAMED) || args->tag))) {
            char why[160];
            snprintf (why, sizeof why, "unexpected argument '%.64s'", argv[i]);
            return s_usage (args, why);
        } else if (!args->path)
            args->path = argv[i];
        else
            args->tag = argv[i];
    }
    int rc = s_catalog_path (args);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    if (args->path && (cmd->bit & S_NAMED) && !args->tag)
        return s_usage (args, "missing tag NAME");
    if (args->tag && args->snapshot && !(cmd->bit & (S_NAMED | S_ROLLBACK)))
        return s_usage (args, "--tag and --snapshot: one or the other");
    return args->path ? ZS_CMD_GO_ON : s_usage (args, "missing table PATH");
}

//  Run cmd on the table at PATH (for scan, PATH may be a plain file).
static int
s_run (const s_cmd_t *cmd, const s_args_t *args)
{
    //  scan of a plain file: no table around it
    char err[ZS_ERRLEN];
    if (zs_io_s3_setup (&args->s3, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return 2;
    }
    zs_io_stat_t st;
    if (cmd->bit == S_SCAN && zs_io_stat (args->path, &st) == 0 && st.regular) {
        if (args->snapshot || args->tag)
            return s_usage (args, "--snapshot and --tag apply to a table, not to a single file");
        return s_cmd_scan (NULL, args);
    }
    zs_table_t *table = zs_table_open (args->path, NULL, err, sizeof err);
    if (!table) {
        fprintf (stderr, "zsink table %s: %s\n", args->cmd, err);
        return 1;
    }
    int rc = cmd->fn (table, args);
    zs_table_destroy (&table);
    return rc;
}

//  --------------------------------------------------------------------------

int
zs_table_cmd (int argc, char **argv)
{
    if (argc < 1)
        return s_usage (NULL, "missing subcommand");
    if (strcmp (argv[0], "--help") == 0 || strcmp (argv[0], "-h") == 0)
        return s_help (NULL);
    const s_cmd_t *cmd = s_find_cmd (argv[0]);
    if (!cmd) {
        char why[128];
        snprintf (why, sizeof why, "unknown subcommand '%.64s'", argv[0]);
        return s_usage (NULL, why);
    }
    s_args_t args = {.cmd = argv[0],
                     .older_than_ms = cmd->older_than_ms,
                     .limit = -1,
                     .expiration_ms = -1,
                     .to_ms = -1};
    int rc = s_parse (cmd, &args, argc, argv);
    //  Paimon's remove_orphan_files deletes unless told it is a dry run
    if (cmd->bit == S_REMOVE_ORPHANS)
        args.delete = !args.dry_run;
    if (cmd->bit == S_ORPHANS && args.dry_run)
        args.delete = false;
    return rc != ZS_CMD_GO_ON ? rc : s_run (cmd, &args);
}
