/*  zsink-bench-commit - does a commit cost more as the table grows?

    usage: zsink-bench-commit DIR COMMITS [STEP]
    Commits COMMITS snapshots of one 1-row data file each into a fresh
    table in DIR and prints the mean commit time of every STEP (default
    500) commits. Flat is the goal: a streaming job with 1 s checkpoints
    makes 86,400 snapshots a day.
*/
#include "datafile.h"
#include "datagen.h"
#include "log.h"
#include "table.h"
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
    if (argc < 3) {
        fprintf (stderr, "usage: zsink-bench-commit DIR COMMITS [STEP]\n");
        return 2;
    }
    const char *dir = argv[1];
    int commits = atoi (argv[2]), step = argc > 3 ? atoi (argv[3]) : 500;
    if (commits < 1 || step < 1) {
        fprintf (stderr, "zsink-bench-commit: bad arguments\n");
        return 2;
    }
    char err[ZS_ERRLEN];
    zs_log_set_level (ZS_LOG_WARN);
    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_table_t *table = zs_table_open (dir, &schema, err, sizeof err);
    if (!table) {
        fprintf (stderr, "%s\n", err);
        return 1;
    }
    const char *user = "bench000-0000-4000-8000-000000000000";
    int64_t spent = 0; //  ms in commits since the last line
    for (int i = 1; i <= commits; i++) {
        char rel[64];
        snprintf (rel, sizeof rel, "bucket-0/data-bench-%d.parquet", i);
        zs_datafile_writer_t *w =
            zs_datafile_writer_new (dir, rel, &schema, &opts, err, sizeof err);
        zs_value_t row[ZS_MAX_COLUMNS];
        static zs_datagen_buf_t buf;
        zs_datagen_row (&schema, i, row, &buf);
        zs_file_meta_t meta;
        if (!w || zs_datafile_writer_append (w, row, err, sizeof err) < 0
            || zs_datafile_writer_close (&w, &meta, err, sizeof err) < 0) {
            fprintf (stderr, "%s\n", err);
            return 1;
        }
        //  only the commit is timed
        int64_t c0 = zs_clock_mono_ms ();
        zs_commit_t req = {.user = user, .identifier = i, .files = &meta, .n = 1, .max_retries = 3};
        if (zs_table_commit (table, &req, NULL, err, sizeof err) != 0) {
            fprintf (stderr, "commit %d: %s\n", i, err);
            return 1;
        }
        spent += zs_clock_mono_ms () - c0;
        if (i % step == 0) {
            printf ("snapshots %6d: %.2f ms per commit\n", i, (double) spent / step);
            fflush (stdout);
            spent = 0;
        }
    }
    zs_table_destroy (&table);
    return 0;
}
