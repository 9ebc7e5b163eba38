/*  zsink-bench-parquet - what encoding costs one writer: the same datagen
    rows written as Parquet (none and zstd) and, as the baseline, formatted
    as raw text rows (CSV via rowfmt) through the same durable file writer.

    usage: zsink-bench-parquet DIR ROWS
    For the default schema (4 columns) and an all-types schema (11), one
    line per format: rows/s, MB/s of the rows' text form (the same volume
    for every format, so the figures compare), file MB, and the file size
    as a share of the text.
*/
#include "datafile.h"
#include "datagen.h"
#include "fs.h"
#include "io.h"
#include "rowfmt.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
s_now (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

//  Rows as CSV text through zs_fs_file: the raw row-formatting baseline.
//  Returns the text bytes (the volume every format is measured against).
static int64_t
s_text (const char *dir, const zs_schema_t *schema, int64_t rows, double *secs)
{
    char path[ZS_PATH_MAX], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/rows.csv", dir);
    zs_io_unlink (path);
    static zs_datagen_buf_t buf;
    zs_value_t row[ZS_MAX_COLUMNS];
    zs_strbuf_t out = {0};
    int64_t bytes = 0;
    double t0 = s_now ();
    zs_io_file_t *f = zs_io_file_create (path, err, sizeof err);
    if (!f) {
        fprintf (stderr, "%s\n", err);
        exit (1);
    }
    for (int64_t id = 1; id <= rows; id++) {
        zs_datagen_row (schema, id, row, &buf);
        zs_row_csv (&out, schema, row);
        if (out.len >= 1 << 16) {
            zs_io_file_write (f, out.data, out.len, err, sizeof err);
            bytes += (int64_t) out.len;
            out.len = 0;
        }
    }
    zs_io_file_write (f, out.data, out.len, err, sizeof err);
    bytes += (int64_t) out.len;
    if (zs_io_file_close (&f, err, sizeof err) != 0) {
        fprintf (stderr, "%s\n", err);
        exit (1);
    }
    *secs = s_now () - t0;
    zs_strbuf_free (&out);
    return bytes;
}

static int64_t
s_parquet (const char *dir, const zs_schema_t *schema, int64_t rows, zs_compression_t c,
           double *secs)
{
    char err[ZS_ERRLEN], rel[64], path[ZS_PATH_MAX];
    snprintf (rel, sizeof rel, "rows-%d.parquet", (int) c);
    snprintf (path, sizeof path, "%s/%s", dir, rel);
    zs_io_unlink (path);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    opts.compression = c;
    static zs_datagen_buf_t buf;
    zs_value_t row[ZS_MAX_COLUMNS];
    double t0 = s_now ();
    zs_datafile_writer_t *w = zs_datafile_writer_new (dir, rel, schema, &opts, err, sizeof err);
    if (!w) {
        fprintf (stderr, "%s\n", err);
        exit (1);
    }
    for (int64_t id = 1; id <= rows; id++) {
        zs_datagen_row (schema, id, row, &buf);
        if (zs_datafile_writer_append (w, row, err, sizeof err) != 0) {
            fprintf (stderr, "%s\n", err);
            exit (1);
        }
    }
    zs_file_meta_t meta;
    if (zs_datafile_writer_close (&w, &meta, err, sizeof err) != 0) {
        fprintf (stderr, "%s\n", err);
        exit (1);
    }
    *secs = s_now () - t0;
    return meta.size;
}

int
main (int argc, char **argv)
{
    if (argc != 3 || atoll (argv[2]) < 1) {
        fprintf (stderr, "usage: zsink-bench-parquet DIR ROWS\n");
        return 2;
    }
    const char *dir = argv[1];
    int64_t rows = atoll (argv[2]);
    if (zs_io_mkdirs (dir) != 0) {
        perror (dir);
        return 1;
    }
    static const struct {
        const char *name, *text;
    } schemas[] = {
        {"default (4 columns)", "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)"},
        {"all types (11 columns)",
         "id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), "
         "day DATE, raw BYTES, f FLOAT, t6 TIMESTAMP(6), s STRING NOT NULL"},
    };
    printf ("%-24s %-16s %12s %10s %10s %8s\n", "schema", "format", "rows/s", "MB/s", "file MB",
            "size");
    static zs_schema_t parsed[2];
    for (size_t k = 0; k < sizeof schemas / sizeof schemas[0]; k++) {
        zs_schema_t *schema = &parsed[k];
        char err[ZS_ERRLEN];
        if (zs_schema_parse (schema, schemas[k].text, err, sizeof err) != 0) {
            fprintf (stderr, "%s\n", err);
            return 1;
        }
        double secs;
        int64_t text = s_text (dir, schema, rows, &secs);
        printf ("%-24s %-16s %12.0f %10.1f %10.1f %7.0f%%\n", schemas[k].name, "text (baseline)",
                rows / secs, text / secs / 1e6, text / 1e6, 100.0);
        static const struct {
            const char *name;
            zs_compression_t c;
        } formats[] = {{"parquet none", ZS_COMPRESSION_NONE},
                       {"parquet zstd", ZS_COMPRESSION_ZSTD}};
        for (size_t f = 0; f < 2; f++) {
            int64_t size = s_parquet (dir, schema, rows, formats[f].c, &secs);
            printf ("%-24s %-16s %12.0f %10.1f %10.1f %7.0f%%\n", schemas[k].name, formats[f].name,
                    rows / secs, text / secs / 1e6, size / 1e6, 100.0 * size / text);
        }
    }
    return 0;
}
