/*  fuzz_partition_filter.c - the partition filter of `zsink table scan
    --where` (partition_filter.h): user text against a table partitioned
    by a STRING, an INT, a DATE, a TIMESTAMP(3), a BOOLEAN and a BIGINT.

    Input: the --where text. Properties: a refused text says why; a parsed
    filter tests partition rows (nulls and values) without crashing, and
    zs_partition_filter_files keeps exactly the files match passes, in
    order.
*/
#include "fuzz_common.h"
#include "partition_filter.h"

#define S_SCHEMA "dt STRING, hr INT, d DATE, ts TIMESTAMP(3), ok BOOLEAN, big BIGINT"
#define S_FILES 4

static zs_partition_t s_part;
static zs_file_meta_t s_files[S_FILES];

//  The partitioning and four files: all nulls, and three rows of values.
static void
s_init (void)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    if (zs_schema_parse (&schema, S_SCHEMA, err, sizeof err) != 0
        || zs_schema_partition_parse (&schema, "dt,hr,d,ts,ok,big", err, sizeof err) != 0
        || zs_partition_init (&s_part, &schema, NULL, err, sizeof err) != 0) {
        fprintf (stderr, "%s\n", err);
        abort ();
    }
    static const char *dts[] = {"2026-12-04", "a'b", ""};
    for (int f = 0; f < S_FILES; f++) {
        zs_value_t v[6] = {{.null = true}, {.null = true}, {.null = true},
                           {.null = true}, {.null = true}, {.null = true}};
        if (f > 0) {
            for (int k = 0; k < 6; k++)
                v[k].null = false;
            v[0].v.bin.ptr = (const uint8_t *) dts[f - 1];
            v[0].v.bin.len = (uint32_t) strlen (dts[f - 1]);
            v[1].v.i32 = f == 1 ? 7 : -f;
            v[2].v.i32 = 20791 * (f - 1);
            v[3].v.i64 = INT64_C (1796367689123) * (2 - f);
            v[4].v.b = f & 1;
            v[5].v.i64 = f == 3 ? INT64_MIN : f;
        }
        int len = zs_partition_row (&s_part, v, s_files[f].partition, sizeof s_files[f].partition,
                                    err, sizeof err);
        if (len < 0)
            abort ();
        s_files[f].partition_len = (uint16_t) len;
        snprintf (s_files[f].path, sizeof s_files[f].path, "f%d", f);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    if (!s_part.n)
        s_init ();
    char *where = zs_fuzz_text (data, size);
    char err[ZS_ERRLEN] = "";
    zs_partition_filter_t *flt = zs_partition_filter_parse (&s_part, where, err, sizeof err);
    if (zs_fuzz_verbose ())
        fprintf (stderr, "%s\n", flt ? "parsed" : err);
    if (!flt)
        ZS_FUZZ_CHECK (err[0] != 0);
    else {
        bool pass[S_FILES];
        for (int f = 0; f < S_FILES; f++)
            pass[f] = zs_partition_filter_match (flt, &s_files[f]);
        zs_file_meta_t files[S_FILES];
        memcpy (files, s_files, sizeof files);
        size_t n = S_FILES, k = 0;
        size_t skipped = zs_partition_filter_files (flt, files, &n);
        ZS_FUZZ_CHECK (skipped + n == S_FILES);
        for (int f = 0; f < S_FILES; f++)
            if (pass[f])
                ZS_FUZZ_CHECK (k < n && strcmp (files[k++].path, s_files[f].path) == 0);
        ZS_FUZZ_CHECK (k == n);
        zs_partition_filter_destroy (&flt);
        ZS_FUZZ_CHECK (flt == NULL);
    }
    free (where);
    return 0;
}
