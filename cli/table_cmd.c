/*  table_cmd.c - `zsink table …` (see table_cmd.h).

    Output contracts (tests and scripts parse the --json forms):
      snapshots --json  [{"id","commit_user","commit_identifier","commit_kind",
                          "time_millis","delta_record_count","total_record_count"}]
      count             the row count, read from the data files
      stats --json      {"count","distinct_ids","min_id","max_id"}  (nulls
                        for min/max of an empty table, as SQL MIN/MAX)
      files --json      {"files":[{"path","rows","size"}]}
      orphans --json    {"count","files":[…]} (with --delete: those deleted)
      verify            "OK" and exit 0, else one problem a line and exit 1

    count and stats read every live data file of the latest snapshot rather
    than trusting the manifests' row counts: they are how tests check that
    exactly the expected rows landed, so they must look at the rows.
*/
#include "table_cmd.h"
#include "config.h"
#include "datafile.h"
#include "table.h"
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
} s_args_t;

static int
s_usage (const char *why)
{
    if (why)
        fprintf (stderr, "zsink table: %s\n", why);
    fprintf (stderr,
             "usage: zsink table snapshots|count|stats|files|verify PATH [--json]\n"
             "       zsink table orphans PATH [--delete] [--older-than DURATION] [--json]\n");
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

//  Read every row of the latest snapshot's live files. With ids_p, also
//  collect the ids (malloc'd). 0 or -1 with the message printed.
static int
s_read_rows (zs_table_t *table, const char *cmd, int64_t *count_p, int64_t **ids_p)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t *files;
    size_t nf;
    if (zs_table_live_files (table, 0, &files, &nf, err, sizeof err) != 0) {
        fprintf (stderr, "zsink table %s: %s\n", cmd, err);
        return -1;
    }
    int64_t count = 0, cap = 0;
    int64_t *ids = NULL;
    int rc = 0;
    for (size_t i = 0; i < nf && rc == 0; i++) {
        char path[ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/%s", zs_table_path (table), files[i].path);
        zs_datafile_reader_t *reader = zs_datafile_reader_open (path, err, sizeof err);
        if (!reader) {
            fprintf (stderr, "zsink table %s: %s\n", cmd, err);
            rc = -1;
            break;
        }
        zs_row_t row;
        int got;
        while ((got = zs_datafile_reader_next (reader, &row, err, sizeof err)) == 1) {
            if (ids_p && count == cap) {
                cap = cap ? cap * 2 : 1 << 16;
                int64_t *grown = realloc (ids, (size_t) cap * sizeof *ids);
                if (!grown) {
                    snprintf (err, sizeof err, "out of memory after %" PRId64 " rows", count);
                    got = -1;
                    break;
                }
                ids = grown;
            }
            if (ids_p)
                ids[count] = row.id;
            count++;
        }
        if (got < 0) {
            fprintf (stderr, "zsink table %s: %s\n", cmd, err);
            rc = -1;
        }
        zs_datafile_reader_destroy (&reader);
    }
    free (files);
    if (rc != 0) {
        free (ids);
        return -1;
    }
    *count_p = count;
    if (ids_p)
        *ids_p = ids;
    return 0;
}

static int
s_cmd_count (zs_table_t *table, const s_args_t *args)
{
    int64_t count;
    if (s_read_rows (table, args->cmd, &count, NULL) != 0)
        return 1;
    if (args->json)
        s_print_json (json_pack ("{s:I}", "count", (json_int_t) count));
    else
        printf ("%" PRId64 "\n", count);
    return 0;
}

static int
s_cmd_stats (zs_table_t *table, const s_args_t *args)
{
    int64_t count, *ids = NULL;
    if (s_read_rows (table, args->cmd, &count, &ids) != 0)
        return 1;
    int64_t distinct = 0;
    if (count > 0) {
        //  COUNT(DISTINCT id) by sorting: 8 bytes a row is fine for the
        //  tables tests and demos build, and there is no hash to get wrong.
        qsort (ids, (size_t) count, sizeof *ids, s_cmp_i64);
        distinct = 1;
        for (int64_t i = 1; i < count; i++)
            distinct += ids[i] != ids[i - 1];
    }
    if (args->json) {
        json_t *obj = json_pack ("{s:I, s:I}", "count", (json_int_t) count, "distinct_ids",
                                 (json_int_t) distinct);
        json_object_set_new (obj, "min_id", count ? json_integer (ids[0]) : json_null ());
        json_object_set_new (obj, "max_id", count ? json_integer (ids[count - 1]) : json_null ());
        s_print_json (obj);
    } else if (count)
        printf ("count %" PRId64 "\ndistinct_ids %" PRId64 "\nmin_id %" PRId64 "\nmax_id %" PRId64
                "\n",
                count, distinct, ids[0], ids[count - 1]);
    else
        printf ("count 0\ndistinct_ids 0\nmin_id NULL\nmax_id NULL\n");
    free (ids);
    return 0;
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
        for (size_t i = 0; i < n; i++)
            json_array_append_new (arr, json_pack ("{s:s, s:I, s:I}", "path", files[i].path, "rows",
                                                   (json_int_t) files[i].rows, "size",
                                                   (json_int_t) files[i].size));
        s_print_json (json_pack ("{s:o}", "files", arr));
    } else {
        printf ("%-60s %12s %14s\n", "path", "rows", "size");
        for (size_t i = 0; i < n; i++)
            printf ("%-60s %12" PRId64 " %14" PRId64 "\n", files[i].path, files[i].rows,
                    files[i].size);
        printf ("%zu file%s\n", n, n == 1 ? "" : "s");
    }
    free (files);
    return 0;
}

static int
s_cmd_orphans (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    char **paths;
    size_t n;
    int rc = zs_table_orphans (table, args->older_than_ms, &paths, &n, err, sizeof err);
    if (rc != 0) {
        fprintf (stderr, "zsink table orphans: %s\n", err);
        return 1;
    }
    int status = 0;
    json_t *arr = json_array ();
    size_t listed = 0;
    for (size_t i = 0; i < n; i++) {
        //  Only files actually deleted are reported as such; a failure is
        //  printed and makes the exit status 1 but does not stop the rest.
        if (args->delete) {
            char path[ZS_PATH_MAX];
            snprintf (path, sizeof path, "%s/%s", zs_table_path (table), paths[i]);
            if (remove (path) != 0) {
                fprintf (stderr, "zsink table orphans: %s: cannot delete: %m\n", path);
                status = 1;
                free (paths[i]);
                continue;
            }
        }
        if (args->json)
            json_array_append_new (arr, json_string (paths[i]));
        else
            printf ("%s%s\n", args->delete ? "deleted " : "", paths[i]);
        listed++;
        free (paths[i]);
    }
    free (paths);
    if (args->json)
        s_print_json (json_pack ("{s:I, s:o}", "count", (json_int_t) listed, "files", arr));
    else {
        json_decref (arr);
        printf ("%zu orphan file%s%s\n", listed, listed == 1 ? "" : "s",
                args->delete ? " deleted" : "");
    }
    return status;
}

static int
s_cmd_verify (zs_table_t *table, const s_args_t *args)
{
    char err[ZS_ERRLEN];
    char *report = NULL;
    int rc = zs_table_verify (table, &report, err, sizeof err);
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

int
zs_table_cmd (int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn) (zs_table_t *, const s_args_t *);
    } cmds[] = {{"snapshots", s_cmd_snapshots}, {"count", s_cmd_count},
                {"stats", s_cmd_stats},         {"files", s_cmd_files},
                {"orphans", s_cmd_orphans},     {"verify", s_cmd_verify}};
    if (argc < 1)
        return s_usage ("missing subcommand");
    if (strcmp (argv[0], "--help") == 0 || strcmp (argv[0], "-h") == 0) {
        printf ("usage: zsink table snapshots|count|stats|files|verify PATH [--json]\n"
                "       zsink table orphans PATH [--delete] [--older-than DURATION] [--json]\n"
                "  snapshots  the $snapshots system table: id, commit user, identifier, kind,\n"
                "             time, delta and total rows\n"
                "  count      rows in the latest snapshot (reads the data files)\n"
                "  stats      count, distinct ids, min and max id\n"
                "  files      live data files of the latest snapshot\n"
                "  orphans    files no snapshot references; --delete removes those older\n"
                "             than --older-than (default 1h)\n"
                "  verify     snapshots and manifests decode, no snapshot id gap, every live\n"
                "             file exists with its recorded size; exit 1 naming each problem\n");
        return 0;
    }
    //  The age guard is on by default: deleting a file a running job is
    //  about to commit would turn its next commit into ZS_EMISSING.
    s_args_t args = {.cmd = argv[0], .older_than_ms = S_DEFAULT_ORPHAN_AGE_MS};
    int (*fn) (zs_table_t *, const s_args_t *) = NULL;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp (argv[0], cmds[i].name) == 0)
            fn = cmds[i].fn;
    if (!fn) {
        char why[128];
        snprintf (why, sizeof why, "unknown subcommand '%.64s'", argv[0]);
        return s_usage (why);
    }
    bool orphans = fn == s_cmd_orphans;
    for (int i = 1; i < argc; i++) {
        char why[160];
        if (strcmp (argv[i], "--json") == 0)
            args.json = true;
        else if (orphans && strcmp (argv[i], "--delete") == 0)
            args.delete = true;
        else if (orphans && strcmp (argv[i], "--older-than") == 0) {
            if (i + 1 >= argc)
                return s_usage ("--older-than needs a duration (e.g. 10s, 5m, 1h)");
            if (zs_parse_duration_ms (argv[++i], &args.older_than_ms) != 0
                || args.older_than_ms < 0) {
                snprintf (why, sizeof why, "--older-than: bad duration '%.64s'", argv[i]);
                return s_usage (why);
            }
        } else if (argv[i][0] == '-' || args.path) {
            //  Options that do not apply to this subcommand are errors, not
            //  ignored: `count --delete` must not look like it did something.
            snprintf (why, sizeof why, "unexpected argument '%.64s'", argv[i]);
            return s_usage (why);
        } else
            args.path = argv[i];
    }
    if (!args.path)
        return s_usage ("missing table PATH");

    char err[ZS_ERRLEN];
    zs_table_t *table = zs_table_open (args.path, false, err, sizeof err);
    if (!table) {
        fprintf (stderr, "zsink table %s: %s\n", args.cmd, err);
        return 1;
    }
    int rc = fn (table, &args);
    zs_table_destroy (&table);
    return rc;
}
