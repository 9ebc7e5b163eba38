/*  zsink-bench-writer-cpu - what one writer's CPU buys: the Parquet writer
    alone (encoding, zstd, page writes, fsync at close) over rows already
    in memory, for zstd levels, dictionary on/off and page sizes.

    usage: zsink-bench-writer-cpu DIR ROWS [REPEAT [LABEL]]

    For the default schema (4 columns) and the all-types schema (11), ROWS
    datagen rows are generated once into memory (that time is printed, not
    measured), then every variant writes them to a file of its own, REPEAT
    times (default 3), the variants taking turns so that noise on a shared
    machine spreads over all of them. Per variant: rows/s (wall, best run),
    CPU seconds per million rows (process CPU time, median run), file
    bytes, and both against the current defaults. With LABEL only that
    variant of the default schema runs, REPEAT times (for perf record).

    Also written, for bench/writer_cpu.sh: DIR/<schema>-input.parquet (the
    same rows, uncompressed: DuckDB loads them before timing its own COPY)
    and DIR/ours.tsv (schema, label, rows, best wall s, median CPU s, bytes).
*/
#include "datagen.h"
#include "fs.h"
#include "parquet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
s_clock (clockid_t id)
{
    struct timespec ts;
    clock_gettime (id, &ts);
    return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
s_die (const char *what)
{
    fprintf (stderr, "zsink-bench-writer-cpu: %s\n", what);
    exit (1);
}

//  ROWS rows of a schema, values and the bytes of their strings.
typedef struct {
    const zs_schema_t *schema;
    int64_t rows;
    zs_value_t *vals; //  rows * schema->n
    uint8_t *text;
} s_rows_t;

//  Generate the rows once. String bytes go to one arena; their pointers
//  are fixed up at the end, once the arena no longer moves.
static void
s_rows_make (s_rows_t *self, const zs_schema_t *schema, int64_t rows)
{
    int n = schema->n;
    self->schema = schema;
    self->rows = rows;
    self->vals = malloc ((size_t) rows * (size_t) n * sizeof *self->vals);
    size_t cap = 1 << 20, len = 0;
    self->text = malloc (cap);
    if (!self->vals || !self->text)
        s_die ("out of memory");
    static zs_datagen_buf_t buf;
    for (int64_t r = 0; r < rows; r++) {
        zs_value_t *row = self->vals + r * n;
        zs_datagen_row (schema, r + 1, row, &buf);
        for (int c = 0; c < n; c++) {
            if (row[c].null || !zs_type_is_binary (schema->cols[c].type))
                continue;
            uint32_t l = row[c].v.bin.len;
            if (len + l > cap) {
                cap = cap * 2 > len + l ? cap * 2 : len + l;
                if (!(self->text = realloc (self->text, cap)))
                    s_die ("out of memory");
            }
            if (l)
                memcpy (self->text + len, row[c].v.bin.ptr, l);
            row[c].v.bin.ptr = (const uint8_t *) (uintptr_t) len;
            len += l;
        }
    }
    for (int64_t k = 0; k < rows * n; k++) {
        zs_value_t *v = &self->vals[k];
        if (!v->null && zs_type_is_binary (schema->cols[k % n].type))
            v->v.bin.ptr = self->text + (uintptr_t) v->v.bin.ptr;
    }
}

//  One file of the rows; returns its bytes, *wall and *cpu the seconds.
static int64_t
s_write (const s_rows_t *rows, const char *path, const zs_parquet_options_t *opts, double *wall,
         double *cpu)
{
    char err[ZS_ERRLEN];
    zs_fs_unlink (path);
    double t0 = s_clock (CLOCK_MONOTONIC), c0 = s_clock (CLOCK_PROCESS_CPUTIME_ID);
    zs_parquet_writer_t *w = zs_parquet_writer_new (path, rows->schema, opts, err, sizeof err);
    if (!w)
        s_die (err);
    int n = rows->schema->n;
    for (int64_t r = 0; r < rows->rows; r++)
        if (zs_parquet_writer_append (w, rows->vals + r * n, err, sizeof err) != 0)
            s_die (err);
    int64_t size;
    if (zs_parquet_writer_close (&w, &size, NULL, err, sizeof err) != 0)
        s_die (err);
    *wall = s_clock (CLOCK_MONOTONIC) - t0;
    *cpu = s_clock (CLOCK_PROCESS_CPUTIME_ID) - c0;
    return size;
}

//  The variants: label, compression, zstd level, page size, dictionary.
//  The first is the baseline the others are compared with.
typedef struct {
    const char *label;
    zs_compression_t compression;
    int level;
    int64_t page;
    bool dict;
} s_variant_t;

static const s_variant_t s_variants[] = {
    {"zstd1 (default)", ZS_COMPRESSION_ZSTD, 1, 1 << 20, true},
    {"none", ZS_COMPRESSION_NONE, 1, 1 << 20, true},
    {"zstd-5", ZS_COMPRESSION_ZSTD, -5, 1 << 20, true},
    {"zstd-3", ZS_COMPRESSION_ZSTD, -3, 1 << 20, true},
    {"zstd-1", ZS_COMPRESSION_ZSTD, -1, 1 << 20, true},
    {"zstd2", ZS_COMPRESSION_ZSTD, 2, 1 << 20, true},
    {"zstd3", ZS_COMPRESSION_ZSTD, 3, 1 << 20, true},
    {"zstd6", ZS_COMPRESSION_ZSTD, 6, 1 << 20, true},
    {"zstd1 no-dict", ZS_COMPRESSION_ZSTD, 1, 1 << 20, false},
    {"zstd1 page 64K", ZS_COMPRESSION_ZSTD, 1, 64 << 10, true},
    {"zstd1 page 128K", ZS_COMPRESSION_ZSTD, 1, 128 << 10, true},
    {"zstd1 page 256K", ZS_COMPRESSION_ZSTD, 1, 256 << 10, true},
    {"zstd1 page 512K", ZS_COMPRESSION_ZSTD, 1, 512 << 10, true},
    {"zstd1 page 8M", ZS_COMPRESSION_ZSTD, 1, 8 << 20, true},
    {"zstd-1 page 256K", ZS_COMPRESSION_ZSTD, -1, 256 << 10, true},
    {"zstd2 page 256K", ZS_COMPRESSION_ZSTD, 2, 256 << 10, true},
    {"zstd3 page 256K", ZS_COMPRESSION_ZSTD, 3, 256 << 10, true},
};
#define S_NVARIANTS (sizeof s_variants / sizeof s_variants[0])
#define S_MAX_REPEAT 15

static int
s_cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

typedef struct {
    double wall[S_MAX_REPEAT], cpu[S_MAX_REPEAT];
    int64_t bytes;
} s_result_t;

static void
s_options (const s_variant_t *v, zs_parquet_options_t *opts)
{
    zs_parquet_options_defaults (opts);
    opts->compression = v->compression;
    opts->zstd_level = v->level;
    opts->page_bytes = v->page;
    opts->dictionary = v->dict;
}

//  Every variant (or only the one labelled only) over rows, repeat times
//  in turns; a table, and lines in tsv.
static void
s_bench (const char *dir, const char *name, const s_rows_t *rows, int repeat, const char *only,
         FILE *tsv)
{
    static s_result_t res[S_NVARIANTS];
    memset (res, 0, sizeof res);
    char path[ZS_PATH_MAX];
    for (int k = 0; k < repeat; k++)
        for (size_t i = 0; i < S_NVARIANTS; i++) {
            if (only && strcmp (only, s_variants[i].label))
                continue;
            zs_parquet_options_t opts;
            s_options (&s_variants[i], &opts);
            snprintf (path, sizeof path, "%s/%s-%zu.parquet", dir, name, i);
            res[i].bytes = s_write (rows, path, &opts, &res[i].wall[k], &res[i].cpu[k]);
        }
    printf ("%-18s %12s %12s %12s %10s %10s\n", "variant", "rows/s", "CPU s/M rows", "file bytes",
            "CPU", "size");
    double base_cpu = 0;
    int64_t base_bytes = 0;
    for (size_t i = 0; i < S_NVARIANTS; i++) {
        if (only && strcmp (only, s_variants[i].label))
            continue;
        qsort (res[i].wall, (size_t) repeat, sizeof (double), s_cmp_double);
        qsort (res[i].cpu, (size_t) repeat, sizeof (double), s_cmp_double);
        double cpu = res[i].cpu[repeat / 2] / ((double) rows->rows / 1e6);
        if (base_cpu == 0) {
            base_cpu = cpu;
            base_bytes = res[i].bytes;
        }
        printf ("%-18s %12.0f %12.3f %12lld %9.0f%% %9.0f%%\n", s_variants[i].label,
                rows->rows / res[i].wall[0], cpu, (long long) res[i].bytes, 100 * cpu / base_cpu,
                100.0 * (double) res[i].bytes / (double) base_bytes);
        if (tsv)
            fprintf (tsv, "%s\t%s\t%lld\t%.6f\t%.6f\t%lld\n", name, s_variants[i].label,
                     (long long) rows->rows, res[i].wall[0], res[i].cpu[repeat / 2],
                     (long long) res[i].bytes);
    }
}

int
main (int argc, char **argv)
{
    if (argc < 3 || argc > 5 || atoll (argv[2]) < 1) {
        fprintf (stderr, "usage: zsink-bench-writer-cpu DIR ROWS [REPEAT [LABEL]]\n");
        return 2;
    }
    const char *dir = argv[1];
    int64_t nrows = atoll (argv[2]);
    int repeat = argc > 3 ? atoi (argv[3]) : 3;
    const char *only = argc > 4 ? argv[4] : NULL;
    if (repeat < 1 || repeat > S_MAX_REPEAT)
        s_die ("REPEAT: 1 to 15");
    if (zs_fs_mkdirs (dir) != 0)
        s_die ("cannot create DIR");
    static const struct {
        const char *name, *text;
    } schemas[] = {
        {"default", "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)"},
        {"all-types",
         "id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), "
         "day DATE, raw BYTES, f FLOAT, t6 TIMESTAMP(6), s STRING NOT NULL"},
    };
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/ours.tsv", dir);
    FILE *tsv = only ? NULL : fopen (path, "w");
    int nschemas = only ? 1 : 2;
    for (int k = 0; k < nschemas; k++) {
        static zs_schema_t schema;
        char err[ZS_ERRLEN];
        if (zs_schema_parse (&schema, schemas[k].text, err, sizeof err) != 0)
            s_die (err);
        s_rows_t rows;
        double t0 = s_clock (CLOCK_MONOTONIC);
        s_rows_make (&rows, &schema, nrows);
        printf ("\n== %s schema: %s\n%lld rows generated into memory in %.2f s (not measured)\n",
                schemas[k].name, schemas[k].text, (long long) nrows,
                s_clock (CLOCK_MONOTONIC) - t0);
        if (!only) {
            //  DuckDB's input: the same rows, uncompressed.
            zs_parquet_options_t opts;
            zs_parquet_options_defaults (&opts);
            opts.compression = ZS_COMPRESSION_NONE;
            double wall, cpu;
            snprintf (path, sizeof path, "%s/%s-input.parquet", dir, schemas[k].name);
            s_write (&rows, path, &opts, &wall, &cpu);
        }
        s_bench (dir, schemas[k].name, &rows, repeat, only, tsv);
        free (rows.vals);
        free (rows.text);
        fflush (stdout);
    }
    if (tsv)
        fclose (tsv);
    return 0;
}
