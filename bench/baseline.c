/*  zsink-bench-baseline - the floor for bench/run.sh: generate the same
    datagen rows and write them through the same data-file writer (buffered,
    fsync at close, rolled at target size), with no coordination at all.

    usage: zsink-bench-baseline DIR SECONDS [INDEX PARALLELISM]
    Prints "rows=<n> seconds=<s> rows_per_second=<r>".
*/
#include "datafile.h"
#include "datagen.h"
#include "fs.h"
#include "io.h"
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
    if (argc != 3 && argc != 5) {
        fprintf (stderr, "usage: zsink-bench-baseline DIR SECONDS [INDEX PARALLELISM]\n");
        return 2;
    }
    const char *dir = argv[1];
    double seconds = atof (argv[2]);
    int index = argc == 5 ? atoi (argv[3]) : 0;
    int parallelism = argc == 5 ? atoi (argv[4]) : 1;
    if (seconds <= 0 || parallelism < 1 || index < 0 || index >= parallelism) {
        fprintf (stderr, "zsink-bench-baseline: bad arguments\n");
        return 2;
    }
    char err[ZS_ERRLEN], sub[64];
    if (zs_io_mkdirs (dir) < 0) {
        perror (dir);
        return 1;
    }
    const int64_t target = 128LL * 1024 * 1024;
    int64_t start = zs_clock_mono_ms (), end = start + (int64_t) (seconds * 1000);
    int64_t rows = 0, id = index + 1;
    int nfile = 0;
    zs_datafile_writer_t *w = NULL;
    //  the job's defaults: the datagen schema, zstd level 1
    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_value_t row[ZS_MAX_COLUMNS];
    static zs_datagen_buf_t buf;
    while (1) {
        if (!w) {
            snprintf (sub, sizeof sub, "base-%d-%d.%s", index, nfile++, zs_datafile_extension ());
            w = zs_datafile_writer_new (dir, sub, &schema, &opts, err, sizeof err);
            if (!w) {
                fprintf (stderr, "%s\n", err);
                return 1;
            }
        }
        //  the clock is read once per 1024 rows, as the writer batches
        for (int i = 0; i < 1024; i++, rows++, id += parallelism) {
            zs_datagen_row (&schema, id, row, &buf);
            if (zs_datafile_writer_append (w, row, err, sizeof err) < 0) {
                fprintf (stderr, "%s\n", err);
                return 1;
            }
        }
        bool over = zs_clock_mono_ms () >= end;
        if (over || zs_datafile_writer_bytes (w) >= target) {
            zs_file_meta_t meta;
            if (zs_datafile_writer_close (&w, &meta, err, sizeof err) < 0) {
                fprintf (stderr, "%s\n", err);
                return 1;
            }
        }
        if (over)
            break;
    }
    double took = (zs_clock_mono_ms () - start) / 1000.0;
    printf ("rows=%lld seconds=%.3f rows_per_second=%.0f\n", (long long) rows, took, rows / took);
    return 0;
}
