/*  zsink-bench-commit - does a commit cost more as the table grows?

    usage: zsink-bench-commit DIR COMMITS [STEP [RETAIN_MAX [COMPACT_MIN [TARGET]]]]
    Commits COMMITS snapshots of one 1-row data file each into a fresh
    table in DIR and prints the mean commit time of every STEP (default
    500) commits, with its p50, p99 and max, the live files (and how many
    of them are small: below target-file-size x compaction.small-file-ratio,
    the ones compaction may still merge), the bytes under manifest/ and
    snapshot/, and this process's RSS. Flat is the goal: a streaming job
    with 1 s checkpoints makes 86,400 snapshots a day. With RETAIN_MAX,
    snapshots are expired after each commit as the committer does
    (snapshot.num-retained.max RETAIN_MAX, .min 10 or less), the expiry
    timed with the commit. With COMPACT_MIN, the committer's compaction
    runs after each commit too (compaction.min.file-num COMPACT_MIN, the
    other compaction options Paimon's defaults, target-file-size TARGET
    bytes, default 128 MB), timed with it.

    Then what the Avro manifests cost: the time to encode what one commit
    writes at most (a manifest of one file, the delta list, a base list of
    30 manifests), as a share of the mean commit, and the bytes a manifest
    takes per data file (one of 1,000 files, zstandard).
*/
#include "datafile.h"
#include "manifest.h"
#include "datagen.h"
#include "log.h"
#include "table.h"
#include "table_job.h"
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

//  Bytes of the files in dir/sub.
static int64_t
s_du (const char *dir, const char *sub)
{
    char path[4096];
    snprintf (path, sizeof path, "%s/%s", dir, sub);
    DIR *d = opendir (path);
    int64_t bytes = 0;
    struct dirent *de;
    while (d && (de = readdir (d))) {
        char f[8192];
        struct stat st;
        snprintf (f, sizeof f, "%s/%s", path, de->d_name);
        if (stat (f, &st) == 0 && S_ISREG (st.st_mode))
            bytes += st.st_size;
    }
    if (d)
        closedir (d);
    return bytes;
}

//  This process's resident set, kB (VmRSS).
static long
s_rss_kb (void)
{
    FILE *f = fopen ("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets (line, sizeof line, f))
        if (strncmp (line, "VmRSS:", 6) == 0)
            kb = atol (line + 6);
    if (f)
        fclose (f);
    return kb;
}

static size_t
s_one_size (const zs_manifest_entry_t *e)
{
    char err[ZS_ERRLEN];
    size_t len = 0;
    free (zs_manifest_encode (e, 1, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err));
    return len;
}
static int
s_by_us (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

//  The q-quantile (0..1) of us[0..n), sorted here: nearest rank.
static int64_t
s_quantile (int64_t *us, int n, double q)
{
    qsort (us, (size_t) n, sizeof *us, s_by_us);
    int r = (int) (q * n + 0.999999);
    return us[r < 1 ? 0 : r > n ? n - 1 : r - 1];
}

static int64_t
s_now_us (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

//  The manifests one commit encodes at most, timed; the bytes per data file
//  of a manifest of the files committed (n of them). commit_us: the mean
//  commit.
static int
s_avro_cost (const zs_file_meta_t *files, int n, double commit_us)
{
    char err[ZS_ERRLEN];
    zs_manifest_entry_t e = {.add = true, .total_buckets = -1, .file = files[0]};
    zs_manifest_meta_t metas[30];
    for (int i = 0; i < 30; i++)
        metas[i] = (zs_manifest_meta_t){.file = "manifest-bench0000-00000000-0000-0000-0000-"
                                                "000000000000",
                                        .file_size = 2200,
                                        .added_files = 1};
    enum { N = 2000 };
    int64_t t0 = s_now_us ();
    for (int i = 0; i < N; i++) {
        size_t len;
        uint8_t *a = zs_manifest_encode (&e, 1, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err);
        uint8_t *b =
            zs_manifest_list_encode (metas, 1, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err);
        uint8_t *c =
            zs_manifest_list_encode (metas, 30, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err);
        if (!a || !b || !c) {
            fprintf (stderr, "encode: %s\n", err);
            return 1;
        }
        free (a);
        free (b);
        free (c);
    }
    double us = (double) (s_now_us () - t0) / N;
    printf ("Avro encoding per commit: %.1f us (%.1f%% of a %.2f ms commit)\n", us,
            100 * us / commit_us, commit_us / 1000);
    zs_manifest_entry_t *many = calloc ((size_t) n, sizeof *many);
    for (int i = 0; many && i < n; i++)
        many[i] = (zs_manifest_entry_t){.add = true, .total_buckets = -1, .file = files[i]};
    size_t len = 0;
    uint8_t *m =
        many ? zs_manifest_encode (many, (size_t) n, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err)
             : NULL;
    if (m)
        printf ("manifest bytes per data file: %.0f (%d files in %zu bytes); one file alone: "
                "%zu bytes\n",
                (double) len / n, n, len, s_one_size (&e));
    free (m);
    free (many);
    return 0;
}

int
main (int argc, char **argv)
{
    if (argc < 3) {
        fprintf (
            stderr,
            "usage: zsink-bench-commit DIR COMMITS [STEP [RETAIN_MAX [COMPACT_MIN [TARGET]]]]\n");
        return 2;
    }
    const char *dir = argv[1];
    int commits = atoi (argv[2]), step = argc > 3 ? atoi (argv[3]) : 500;
    int retain_max = argc > 4 ? atoi (argv[4]) : 0;
    int compact_min = argc > 5 ? atoi (argv[5]) : 0;
    if (commits < 1 || step < 1 || retain_max < 0 || compact_min < 0 || compact_min == 1) {
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
    if (retain_max > 0) {
        zs_config_t cfg;
        zs_config_defaults (&cfg);
        cfg.table.retain_max = retain_max;
        cfg.table.retain_min = retain_max < 10 ? retain_max : 10;
        zs_table_set_job_options (table, &cfg);
    }
    const char *user = "bench000-0000-4000-8000-000000000000";
    zs_compact_t compact;
    zs_config_t ccfg;
    zs_config_defaults (&ccfg);
    ccfg.table.compaction_min_file_num = compact_min;
    if (argc > 6 && (ccfg.table.target_file_size = atoll (argv[6])) < 1) {
        fprintf (stderr, "zsink-bench-commit: bad TARGET\n");
        return 2;
    }
    zs_table_compact_options (&ccfg, user, &compact);
    int64_t compactions = 0;
    int64_t spent = 0, total = 0; //  us in commits since the last line, in all
    int64_t *block = calloc ((size_t) step, sizeof *block); //  each commit's us
    if (!block) {
        fprintf (stderr, "out of memory\n");
        return 1;
    }
    static zs_file_meta_t files[1000];
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
        int64_t c0 = s_now_us ();
        zs_commit_t req = {.user = user, .identifier = i, .files = &meta, .n = 1, .max_retries = 3};
        if (zs_table_commit (table, &req, NULL, err, sizeof err) != 0) {
            fprintf (stderr, "commit %d: %s\n", i, err);
            return 1;
        }
        zs_compacted_t done = {0};
        if (compact_min > 0 && zs_table_compact (table, &compact, &done, err, sizeof err) != 0) {
            fprintf (stderr, "compaction after commit %d: %s\n", i, err);
            return 1;
        }
        compactions += done.snapshot_id != 0;
        zs_expired_t gone;
        if (retain_max > 0
            && zs_table_expire_by_options (table, user, &gone, err, sizeof err) != 0) {
            fprintf (stderr, "expire after commit %d: %s\n", i, err);
            return 1;
        }
        block[(i - 1) % step] = s_now_us () - c0;
        spent += block[(i - 1) % step];
        files[(i - 1) % 1000] = meta;
        if (i % step == 0) {
            zs_file_meta_t *live = NULL;
            size_t nlive = 0;
            zs_table_live_files (table, 0, &live, &nlive, err, sizeof err);
            int64_t threshold =
                        (int64_t) ((double) compact.target_file_size * compact.small_file_ratio),
                    live_bytes = 0;
            size_t nsmall = 0;
            for (size_t j = 0; j < nlive; j++) {
                nsmall += live[j].size < threshold;
                live_bytes += live[j].size;
            }
            free (live);
            double p50 = s_quantile (block, step, 0.50) / 1000.0;
            double p99 = s_quantile (block, step, 0.99) / 1000.0;
            printf ("commits %6d: %.2f ms per commit (p50 %.2f p99 %.2f max %.2f); %zu live files "
                    "(%zu small) %.2f MB, manifest/ %.1f MB, snapshot/ %.1f MB, bucket-0/ %.1f MB, "
                    "RSS %.1f MB, %" PRId64 " compactions\n",
                    i, (double) spent / step / 1000, p50, p99, block[step - 1] / 1000.0, nlive,
                    nsmall, live_bytes / 1e6, s_du (dir, "manifest") / 1e6,
                    s_du (dir, "snapshot") / 1e6, s_du (dir, "bucket-0") / 1e6,
                    s_rss_kb () / 1024.0, compactions);
            fflush (stdout);
            total += spent;
            spent = 0;
        }
    }
    zs_table_destroy (&table);
    free (block);
    total += spent;
    return s_avro_cost (files, commits < 1000 ? commits : 1000, (double) total / commits);
}
