/*  zsink-bench-writer-cpu - what one writer's CPU buys: the Parquet writer
    alone (encoding, zstd, page writes, fsync at close) over rows already
    in memory, for zstd levels, dictionary on/off, page sizes and encodings
    (plain: parquet.writer.encoding plain); then the floor of the default
    and of plain: zstd level 1 alone over the same page bodies, and the
    writer's rows per CPU second as a fraction of the floor's.

    usage: zsink-bench-writer-cpu DIR ROWS [REPEAT [LABELS [SCHEMA]]]

    For the default schema (4 columns) and the all-types schema (11), ROWS
    datagen rows are generated once into memory (that time is printed, not
    measured), then every variant writes them to a file of its own, REPEAT
    times (default 3), the variants taking turns so that noise on a shared
    machine spreads over all of them. Per variant: rows/s (wall, best run),
    CPU seconds per million rows (process CPU time, median run),
    instructions per row (median; a perf counter, which other processes on
    the machine do not move as they move CPU time), file bytes, and each
    against the first variant (the defaults). With LABELS (labels
    separated by commas) only those variants run, of the default schema or
    of SCHEMA (default, all-types): for perf record, or for a closer look
    at a few; the floor only with the label "floor" among them.

    Also written, for bench/writer_cpu.sh: DIR/<schema>-input.parquet (the
    same rows, uncompressed: DuckDB loads them before timing its own COPY)
    and DIR/ours.tsv (schema, label, rows, best wall s, median CPU s, bytes).
*/
#include "datagen.h"
#include "fs.h"
#include "io.h"
#include "parquet.h"
#include "thrift.h"
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

static double
s_clock (clockid_t id)
{
    struct timespec ts;
    clock_gettime (id, &ts);
    return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

//  The process's instructions retired (user and kernel), from a perf
//  counter: unlike CPU time, other processes on the machine do not move
//  it. -1: not available (perf_event_paranoid, a container).
static int s_instr_fd = -2;

static int64_t
s_instructions (void)
{
    if (s_instr_fd == -2) {
        struct perf_event_attr pe;
        memset (&pe, 0, sizeof pe);
        pe.type = PERF_TYPE_HARDWARE;
        pe.size = sizeof pe;
        pe.config = PERF_COUNT_HW_INSTRUCTIONS;
        s_instr_fd = (int) syscall (SYS_perf_event_open, &pe, 0, -1, -1, 0);
        if (s_instr_fd < 0)
            pe.exclude_kernel = 1,
            s_instr_fd = (int) syscall (SYS_perf_event_open, &pe, 0, -1, -1, 0);
        if (s_instr_fd < 0)
            s_instr_fd = -1;
    }
    int64_t count;
    if (s_instr_fd < 0 || read (s_instr_fd, &count, sizeof count) != sizeof count)
        return -1;
    return count;
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

//  One file of the rows; returns its bytes, *wall and *cpu the seconds,
//  *instr the instructions (-1: unknown).
static int64_t
s_write (const s_rows_t *rows, const char *path, const zs_parquet_options_t *opts, double *wall,
         double *cpu, double *instr)
{
    char err[ZS_ERRLEN];
    zs_io_unlink (path);
    int64_t i0 = s_instructions ();
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
    int64_t i1 = s_instructions ();
    *instr = i0 < 0 || i1 < 0 ? -1 : (double) (i1 - i0);
    return size;
}

//  The variants: label, compression, zstd level, page size, dictionary;
//  a level or page size of 0 is the default's. The first, the defaults, is
//  the one the others are compared with.
typedef struct {
    const char *label;
    zs_compression_t compression;
    int level;
    int64_t page;
    bool dict;
    bool floor; //  print zstd level 1's floor over its pages
    bool plain; //  parquet.writer.encoding plain: PLAIN integers, not DELTA_BINARY_PACKED
} s_variant_t;

static const s_variant_t s_variants[] = {
    {"default", ZS_COMPRESSION_ZSTD, 0, 0, true, true, false},
    {"none", ZS_COMPRESSION_NONE, 0, 0, true, false, false},
    {"plain", ZS_COMPRESSION_ZSTD, 0, 0, true, true, true},
    {"plain none", ZS_COMPRESSION_NONE, 0, 0, true, false, true},
    {"zstd-5", ZS_COMPRESSION_ZSTD, -5, 0, true, false, false},
    {"zstd-3", ZS_COMPRESSION_ZSTD, -3, 0, true, false, false},
    {"zstd-1", ZS_COMPRESSION_ZSTD, -1, 0, true, false, false},
    {"zstd1", ZS_COMPRESSION_ZSTD, 1, 0, true, false, false},
    {"zstd2", ZS_COMPRESSION_ZSTD, 2, 0, true, false, false},
    {"zstd3", ZS_COMPRESSION_ZSTD, 3, 0, true, false, false},
    {"zstd6", ZS_COMPRESSION_ZSTD, 6, 0, true, false, false},
    {"no-dict", ZS_COMPRESSION_ZSTD, 0, 0, false, false, false},
    {"page 64K", ZS_COMPRESSION_ZSTD, 0, 64 << 10, true, false, false},
    {"page 128K", ZS_COMPRESSION_ZSTD, 0, 128 << 10, true, false, false},
    {"page 256K", ZS_COMPRESSION_ZSTD, 0, 256 << 10, true, false, false},
    {"page 512K", ZS_COMPRESSION_ZSTD, 0, 512 << 10, true, false, false},
    {"page 1M", ZS_COMPRESSION_ZSTD, 0, 1 << 20, true, false, false},
    {"page 8M", ZS_COMPRESSION_ZSTD, 0, 8 << 20, true, false, false},
    {"zstd-1 page 1M", ZS_COMPRESSION_ZSTD, -1, 1 << 20, true, false, false},
    {"zstd2 page 1M", ZS_COMPRESSION_ZSTD, 2, 1 << 20, true, false, false},
    {"zstd3 page 1M", ZS_COMPRESSION_ZSTD, 3, 1 << 20, true, false, false},
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
    double wall[S_MAX_REPEAT], cpu[S_MAX_REPEAT], instr[S_MAX_REPEAT];
    int64_t bytes;
} s_result_t;

//  label is one of the comma-separated labels in only (NULL: all are).
static bool
s_chosen (const char *only, const char *label)
{
    if (!only)
        return true;
    size_t len = strlen (label);
    for (const char *p = only; p; p = strchr (p, ',') ? strchr (p, ',') + 1 : NULL)
        if (strncmp (p, label, len) == 0 && (p[len] == ',' || p[len] == 0))
            return true;
    return false;
}

static void
s_options (const s_variant_t *v, zs_parquet_options_t *opts)
{
    zs_parquet_options_defaults (opts);
    opts->compression = v->compression;
    opts->zstd_level = v->level ? v->level : opts->zstd_level;
    opts->page_bytes = v->page ? v->page : opts->page_bytes;
    opts->dictionary = v->dict;
    opts->delta = opts->delta && !v->plain;
}

static void s_floor (const char *dir, const char *name, const s_rows_t *rows, int repeat,
                     const s_variant_t *v, double writer_cpu);

//  Every variant (or those labelled in only) over rows, repeat times
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
            if (!s_chosen (only, s_variants[i].label))
                continue;
            zs_parquet_options_t opts;
            s_options (&s_variants[i], &opts);
            snprintf (path, sizeof path, "%s/%s-%zu.parquet", dir, name, i);
            res[i].bytes =
                s_write (rows, path, &opts, &res[i].wall[k], &res[i].cpu[k], &res[i].instr[k]);
        }
    printf ("%-18s %10s %12s %10s %12s %7s %7s %7s\n", "variant", "rows/s", "CPU s/M rows",
            "instr/row", "file bytes", "CPU", "instr", "size");
    double base_cpu = 0, base_instr = 0;
    int64_t base_bytes = 0;
    for (size_t i = 0; i < S_NVARIANTS; i++) {
        if (!s_chosen (only, s_variants[i].label))
            continue;
        qsort (res[i].wall, (size_t) repeat, sizeof (double), s_cmp_double);
        qsort (res[i].cpu, (size_t) repeat, sizeof (double), s_cmp_double);
        qsort (res[i].instr, (size_t) repeat, sizeof (double), s_cmp_double);
        double cpu = res[i].cpu[repeat / 2] / ((double) rows->rows / 1e6);
        double instr = res[i].instr[repeat / 2] / (double) rows->rows;
        if (base_cpu == 0) {
            base_cpu = cpu;
            base_instr = instr;
            base_bytes = res[i].bytes;
        }
        //  No counter (a VM without one): "-".
        char ins[16] = "-", ins_pct[16] = "-";
        if (instr >= 0) {
            snprintf (ins, sizeof ins, "%.0f", instr);
            snprintf (ins_pct, sizeof ins_pct, "%.0f%%", 100 * instr / base_instr);
        }
        printf ("%-18s %10.0f %12.3f %10s %12lld %6.0f%% %7s %6.0f%%\n", s_variants[i].label,
                rows->rows / res[i].wall[0], cpu, ins, (long long) res[i].bytes,
                100 * cpu / base_cpu, ins_pct, 100.0 * (double) res[i].bytes / (double) base_bytes);
        if (tsv)
            fprintf (tsv, "%s\t%s\t%lld\t%.6f\t%.6f\t%lld\n", name, s_variants[i].label,
                     (long long) rows->rows, res[i].wall[0], res[i].cpu[repeat / 2],
                     (long long) res[i].bytes);
    }
    bool header = false;
    for (size_t i = 0; i < S_NVARIANTS; i++) {
        if (!s_variants[i].floor || !s_chosen (only, s_variants[i].label)
            || (only && !s_chosen (only, "floor")))
            continue;
        if (!header)
            printf (
                "\nfloor: zstd level 1 alone (ZSTD_compressCCtx) over the variant's page bodies, "
                "page by page, median of %d\n%-18s %7s %12s %12s %12s %12s %12s %8s\n",
                repeat, "variant", "pages", "page bytes", "zstd bytes", "CPU s/M rows",
                "floor rows/s", "ours rows/s", "ours/fl");
        header = true;
        s_floor (dir, name, rows, repeat, &s_variants[i], res[i].cpu[repeat / 2]);
    }
}

//  --------------------------------------------------------------------------
//  The physical floor: zstd level 1 alone over the bytes the writer hands
//  it. A variant's file is written once more uncompressed (the same pages:
//  their bounds are chosen on uncompressed bytes), its page bodies are
//  cut out of it, and each is compressed on its own with
//  ZSTD_compressCCtx at level 1, nothing else: no encoding, no statistics,
//  no page header, no write.

typedef struct {
    uint8_t *file;
    size_t len;
    size_t *off; //  page bodies: offsets and lengths into file
    size_t *size;
    size_t n, cap;
    size_t bytes; //  their sum
} s_pages_t;

//  PageHeader's compressed_page_size (field 3) and the header's length.
typedef struct {
    int32_t comp;
    bool has_comp;
} s_ph_t;

static const zs_thrift_field_t s_ph_fields[] = {
    {3, ZS_THRIFT_KEEP_I32, offsetof (s_ph_t, comp), offsetof (s_ph_t, has_comp), NULL},
};

//  Every page body of an uncompressed file of ours: pages follow one
//  another from byte 4 to the footer.
static void
s_pages_load (s_pages_t *self, const char *path)
{
    char err[ZS_ERRLEN];
    memset (self, 0, sizeof *self);
    self->file = (uint8_t *) zs_fs_read_file (path, SIZE_MAX, &self->len, err, sizeof err);
    if (!self->file || self->len < 12)
        s_die (err);
    uint32_t footer;
    memcpy (&footer, self->file + self->len - 8, 4);
    size_t end = self->len - 8 - footer, pos = 4;
    while (pos < end) {
        zs_thrift_dec_t d;
        s_ph_t h = {0};
        zs_thrift_dec_init (&d, self->file + pos, end - pos);
        if (zs_thrift_dec_struct (&d, s_ph_fields, 1, &h) != 0 || !h.has_comp || h.comp < 0)
            s_die ("floor: a page header does not decode");
        pos += zs_thrift_dec_offset (&d);
        if (self->n == self->cap) {
            self->cap = self->cap ? self->cap * 2 : 1024;
            self->off = realloc (self->off, self->cap * sizeof *self->off);
            self->size = realloc (self->size, self->cap * sizeof *self->size);
            if (!self->off || !self->size)
                s_die ("out of memory");
        }
        self->off[self->n] = pos;
        self->size[self->n++] = (size_t) h.comp;
        self->bytes += (size_t) h.comp;
        pos += (size_t) h.comp;
    }
}

static void
s_pages_free (s_pages_t *self)
{
    free (self->file);
    free (self->off);
    free (self->size);
}

//  CPU seconds (median of repeat) of zstd level 1 over every page; the
//  compressed bytes in *zbytes.
static double
s_floor_cpu (const s_pages_t *pages, int repeat, int64_t *zbytes)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx ();
    size_t cap = 0;
    for (size_t i = 0; i < pages->n; i++)
        cap = ZSTD_compressBound (pages->size[i]) > cap ? ZSTD_compressBound (pages->size[i]) : cap;
    uint8_t *dst = malloc (cap ? cap : 1);
    if (!cctx || !dst)
        s_die ("out of memory");
    double cpu[S_MAX_REPEAT];
    for (int k = 0; k < repeat; k++) {
        int64_t z = 0;
        double c0 = s_clock (CLOCK_PROCESS_CPUTIME_ID);
        for (size_t i = 0; i < pages->n; i++) {
            size_t n =
                ZSTD_compressCCtx (cctx, dst, cap, pages->file + pages->off[i], pages->size[i], 1);
            if (ZSTD_isError (n))
                s_die ("floor: zstd failed");
            z += (int64_t) n;
        }
        cpu[k] = s_clock (CLOCK_PROCESS_CPUTIME_ID) - c0;
        *zbytes = z;
    }
    qsort (cpu, (size_t) repeat, sizeof (double), s_cmp_double);
    ZSTD_freeCCtx (cctx);
    free (dst);
    return cpu[repeat / 2];
}

//  The floor of one variant, and the writer's rows per CPU second (its
//  median run, writer_cpu) as a fraction of the floor's.
static void
s_floor (const char *dir, const char *name, const s_rows_t *rows, int repeat, const s_variant_t *v,
         double writer_cpu)
{
    zs_parquet_options_t opts;
    s_options (v, &opts);
    opts.compression = ZS_COMPRESSION_NONE;
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/%s-floor.parquet", dir, name);
    double wall, cpu, instr;
    s_write (rows, path, &opts, &wall, &cpu, &instr);
    s_pages_t pages;
    s_pages_load (&pages, path);
    int64_t zbytes = 0;
    double fcpu = s_floor_cpu (&pages, repeat, &zbytes);
    double m = (double) rows->rows / 1e6;
    printf ("%-18s %7zu %12zu %12lld %12.3f %12.0f %12.0f %7.0f%%\n", v->label, pages.n,
            pages.bytes, (long long) zbytes, fcpu / m, (double) rows->rows / fcpu,
            (double) rows->rows / writer_cpu, 100 * fcpu / writer_cpu);
    s_pages_free (&pages);
    zs_io_unlink (path);
}

int
main (int argc, char **argv)
{
    if (argc < 3 || argc > 6 || atoll (argv[2]) < 1) {
        fprintf (stderr, "usage: zsink-bench-writer-cpu DIR ROWS [REPEAT [LABELS [SCHEMA]]]\n");
        return 2;
    }
    const char *dir = argv[1];
    int64_t nrows = atoll (argv[2]);
    int repeat = argc > 3 ? atoi (argv[3]) : 3;
    const char *only = argc > 4 ? argv[4] : NULL;
    if (repeat < 1 || repeat > S_MAX_REPEAT)
        s_die ("REPEAT: 1 to 15");
    if (zs_io_mkdirs (dir) != 0)
        s_die ("cannot create DIR");
    static const struct {
        const char *name, *text;
    } schemas[] = {
        {"default", "id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)"},
        {"all-types",
         "id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), "
         "day DATE, raw BYTES, f FLOAT, t6 TIMESTAMP(6), s STRING NOT NULL"},
    };
    zs_parquet_options_t defaults;
    zs_parquet_options_defaults (&defaults);
    printf (
        "defaults: zstd level %d, pages of %lld KiB, dictionaries %s, row groups of %lld rows\n",
        defaults.zstd_level, (long long) defaults.page_bytes >> 10,
        defaults.dictionary ? "on" : "off", (long long) defaults.row_group_rows);
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/ours.tsv", dir);
    FILE *tsv = only ? NULL : fopen (path, "w");
    for (int k = 0; k < 2; k++) {
        if (only && strcmp (schemas[k].name, argc > 5 ? argv[5] : "default"))
            continue;
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
            double wall, cpu, instr;
            snprintf (path, sizeof path, "%s/%s-input.parquet", dir, schemas[k].name);
            s_write (&rows, path, &opts, &wall, &cpu, &instr);
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
