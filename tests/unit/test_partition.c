/*  test_partition.c - partition keys, BinaryRows and directories against
    what Paimon Java 1.4.2 makes of the same values.

    The golden lines come from Paimon's own classes, run by hand:
    InternalRowSerializer.toBinaryRow of a GenericRow of the values,
    SerializationUtils.serializeBinaryRow (the manifest's _PARTITION bytes),
    and PartitionPathUtils.generatePartitionPath of
    InternalRowPartitionComputer("__DEFAULT_PARTITION__", type, keys,
    legacy true).generatePartValues (the directory, its trailing '/'
    dropped here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "config.h"
#include "manifest.h"
#include "partition.h"
#include "partition_golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
s_hex (const uint8_t *data, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++)
        sprintf (out + 2 * i, "%02x", data[i]);
    out[2 * len] = 0;
}

static zs_value_t
s_str (const char *text)
{
    zs_value_t v = {.null = false};
    v.v.bin.ptr = (const uint8_t *) text;
    v.v.bin.len = (uint32_t) strlen (text);
    return v;
}

static zs_value_t
s_i32 (int32_t x)
{
    zs_value_t v = {.null = false};
    v.v.i32 = x;
    return v;
}

static zs_value_t
s_i64 (int64_t x)
{
    zs_value_t v = {.null = false};
    v.v.i64 = x;
    return v;
}

static const zs_value_t s_null = {.null = true};

static void
s_part (zs_partition_t *p, zs_schema_t *schema, const char *cols, const char *keys)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (schema, cols, err, sizeof err), 0);
    assert_int_equal (zs_schema_partition_parse (schema, keys, err, sizeof err), 0);
    if (zs_partition_init (p, schema, NULL, err, sizeof err) != 0)
        fail_msg ("%s", err);
}

//  values -> (dir, row) as Java; and back from both.
static void
s_check (const zs_partition_t *p, const zs_value_t *values, const char *dir, const char *hex)
{
    char err[ZS_ERRLEN], got[ZS_PARTITION_DIR_MAX], ghex[2 * ZS_PARTITION_ROW_MAX + 1];
    uint8_t row[ZS_PARTITION_ROW_MAX];
    int len = zs_partition_dir (p, values, got, sizeof got, err, sizeof err);
    if (len < 0)
        fail_msg ("%s", err);
    assert_string_equal (got, dir);
    assert_int_equal (len, (int) strlen (dir));
    len = zs_partition_row (p, values, row, sizeof row, err, sizeof err);
    if (len < 0)
        fail_msg ("%s", err);
    s_hex (row, (size_t) len, ghex);
    assert_string_equal (ghex, hex);

    //  the row decodes to values giving the same row and directory
    zs_value_t back[ZS_PARTITION_MAX];
    assert_int_equal (zs_partition_decode (p, row, (size_t) len, back, err, sizeof err), 0);
    char dir2[ZS_PARTITION_DIR_MAX];
    assert_true (zs_partition_dir (p, back, dir2, sizeof dir2, err, sizeof err) >= 0);
    assert_string_equal (dir2, dir);

    //  the directory parses to values whose directory is the same
    char scratch[512];
    zs_value_t parsed[ZS_PARTITION_MAX];
    if (zs_partition_parse (p, dir, '/', parsed, scratch, sizeof scratch, err, sizeof err) != 0)
        fail_msg ("%s: %s", dir, err);
    assert_true (zs_partition_dir (p, parsed, dir2, sizeof dir2, err, sizeof err) >= 0);
    assert_string_equal (dir2, dir);
}

static void
test_string_key (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "id BIGINT, p STRING", "p");
    assert_int_equal (p.n, 1);
    assert_int_equal (p.col[0], 1);
    zs_value_t v = s_str ("a/b:c");
    s_check (&p, &v, "p=a%2Fb%3Ac", "000000010000000000000000612f623a63000085");
    v = s_str ("x");
    s_check (&p, &v, "p=x", "0000000100000000000000007800000000000081");
    s_check (&p, &s_null, "p=__DEFAULT_PARTITION__", "0000000100010000000000000000000000000000");
    v = s_str ("héllo wörld %=#?");
    s_check (&p, &v, "p=héllo wörld %25%3D%23%3F",
             "000000010000000000000000120000001000000068c3a96c6c6f2077c3b6726c6420253d233f00000"
             "0000000");
    v = s_str ("a long value over seven");
    s_check (&p, &v, "p=a long value over seven",
             "000000010000000000000000170000001000000061206c6f6e672076616c7565206f76657220736576"
             "656e00");
}

//  Blank texts name the default partition, their rows stay what they are
//  (Java: two partitions, one directory).
static void
test_blank_is_default (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "p STRING", "p");
    char err[ZS_ERRLEN], dir[ZS_PARTITION_DIR_MAX], hex[64];
    uint8_t row[ZS_PARTITION_ROW_MAX];
    zs_value_t v = s_str ("  ");
    assert_true (zs_partition_dir (&p, &v, dir, sizeof dir, err, sizeof err) > 0);
    assert_string_equal (dir, "p=__DEFAULT_PARTITION__");
    int len = zs_partition_row (&p, &v, row, sizeof row, err, sizeof err);
    s_hex (row, (size_t) len, hex);
    assert_string_equal (hex, "0000000100000000000000002020000000000082");
    v = s_str ("");
    assert_true (zs_partition_dir (&p, &v, dir, sizeof dir, err, sizeof err) > 0);
    assert_string_equal (dir, "p=__DEFAULT_PARTITION__");
    len = zs_partition_row (&p, &v, row, sizeof row, err, sizeof err);
    s_hex (row, (size_t) len, hex);
    assert_string_equal (hex, "0000000100000000000000000000000000000080");
}

static void
test_several_keys (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "id BIGINT, ok BOOLEAN, big BIGINT, hr INT, dt DATE", "dt, hr,big,ok");
    assert_int_equal (p.n, 4);
    assert_int_equal (p.col[0], 4);
    assert_int_equal (p.col[3], 1);
    zs_value_t v[4] = {s_i32 (20426), s_i32 (7), s_i64 (-5), {.null = false, .v.b = true}};
    s_check (&p, v, "dt=20426/hr=7/big=-5/ok=true",
             "000000040000000000000000ca4f0000000000000700000000000000fbffffffffffffff01000000"
             "00000000");
    zs_value_t n[4] = {s_null, s_null, s_null, s_null};
    s_check (&p, n,
             "dt=__DEFAULT_PARTITION__/hr=__DEFAULT_PARTITION__/big=__DEFAULT_PARTITION__/"
             "ok=__DEFAULT_PARTITION__",
             "00000004000f000000000000000000000000000000000000000000000000000000000000000000000"
             "0000000");
    //  a row's values in key order
    zs_value_t row[5] = {s_i64 (1), v[3], v[2], v[1], v[0]};
    zs_value_t got[4];
    zs_partition_values (&p, row, got);
    assert_int_equal (got[0].v.i32, 20426);
    assert_int_equal (got[3].v.b, true);
    char keys[64];
    assert_int_equal (zs_schema_partition_format (&schema, keys, sizeof keys), 0);
    assert_string_equal (keys, "dt,hr,big,ok");
}

static void
test_timestamps (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "t3 TIMESTAMP(3), t6 TIMESTAMP(6)", "t3,t6");
    zs_value_t v[2] = {s_i64 (1764831600000LL), s_i64 (1764831600000000LL)};
    s_check (&p, v, "t3=2025-12-04T07%3A00/t6=2025-12-04T07%3A00",
             "000000020000000000000000801d29e89a0100000000000018000000801d29e89a010000");
    zs_value_t w[2] = {s_i64 (1764831601123LL), s_i64 (1764831601123456LL)};
    s_check (&p, w, "t3=2025-12-04T07%3A00%3A01.123/t6=2025-12-04T07%3A00%3A01.123456",
             "000000020000000000000000e32129e89a01000040f5060018000000e32129e89a010000");
    zs_value_t x[2] = {s_i64 (-1), s_i64 (1764831600100000LL)};
    s_check (&p, x, "t3=1969-12-31T23%3A59%3A59.999/t6=2025-12-04T07%3A00%3A00.100",
             "000000020000000000000000ffffffffffffffff0000000018000000e41d29e89a010000");
    zs_value_t n[2] = {s_null, s_null};
    s_check (&p, n, "t3=__DEFAULT_PARTITION__/t6=__DEFAULT_PARTITION__",
             "000000020003000000000000000000000000000000000000180000000000000000000000");
}

static void
test_keys_refused (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&schema,
                                       "a INT, b STRING, c DOUBLE, d BYTES, e INT, f "
                                       "INT, g INT, h INT, i INT, j INT",
                                       err, sizeof err),
                      0);
    assert_int_equal (zs_schema_partition_parse (&schema, "a,zz", err, sizeof err), -1);
    assert_non_null (strstr (err, "'zz' names no column"));
    assert_int_equal (zs_schema_partition_parse (&schema, "a,b,a", err, sizeof err), -1);
    assert_non_null (strstr (err, "'a' is named twice"));
    assert_int_equal (zs_schema_partition_parse (&schema, "a,b,e,f,g,h,i,j,c", err, sizeof err),
                      -1);
    assert_non_null (strstr (err, "more than 8"));
    assert_int_equal (zs_schema_partition_parse (&schema, "a,", err, sizeof err), -1);
    assert_int_equal (zs_schema_partition_parse (&schema, "", err, sizeof err), 0);
    assert_int_equal (schema.n_partition, 0);
    assert_int_equal (zs_schema_partition_parse (&schema, "c", err, sizeof err), 0);
    assert_int_equal (zs_partition_init (&p, &schema, NULL, err, sizeof err), -1);
    assert_non_null (strstr (err, "'c' is a DOUBLE"));
    assert_int_equal (zs_schema_partition_parse (&schema, "d", err, sizeof err), 0);
    assert_int_equal (zs_partition_init (&p, &schema, NULL, err, sizeof err), -1);
    assert_int_equal (zs_schema_partition_parse (&schema, "b", err, sizeof err), 0);
    assert_int_equal (zs_partition_init (&p, &schema, "", err, sizeof err), -1);
    assert_int_equal (zs_partition_init (&p, &schema, "none", err, sizeof err), 0);
    char dir[ZS_PARTITION_DIR_MAX];
    assert_true (zs_partition_dir (&p, &s_null, dir, sizeof dir, err, sizeof err) > 0);
    assert_string_equal (dir, "b=none");
}

//  A spec with display spellings (DATE as YYYY-MM-DD), any order, the
//  default name as null; and what is refused.
static void
test_spec (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "s STRING, dt DATE, hr INT", "dt,hr,s");
    char scratch[256], err[ZS_ERRLEN], shown[128];
    zs_value_t v[3];
    assert_int_equal (zs_partition_parse (&p, "hr=07,dt=2025-12-04,s=a/b:c", ',', v, scratch,
                                          sizeof scratch, err, sizeof err),
                      0);
    assert_int_equal (v[0].v.i32, 20426);
    assert_int_equal (v[1].v.i32, 7);
    assert_int_equal (v[2].v.bin.len, 5);
    assert_int_equal (zs_partition_display (&p, v, shown, sizeof shown), 0);
    assert_string_equal (shown, "dt=2025-12-04, hr=7, s=a/b:c");
    assert_int_equal (zs_partition_parse (&p, "dt=20426/hr=__DEFAULT_PARTITION__/s=a%2Fb%3Ac", '/',
                                          v, scratch, sizeof scratch, err, sizeof err),
                      0);
    assert_true (v[1].null);
    assert_memory_equal (v[2].v.bin.ptr, "a/b:c", 5);
    assert_int_equal (zs_partition_display (&p, v, shown, sizeof shown), 0);
    assert_string_equal (shown, "dt=2025-12-04, hr=NULL, s=a/b:c");
    assert_int_equal (zs_partition_parse (&p, "dt=2025-12-04,hr=x,s=a", ',', v, scratch,
                                          sizeof scratch, err, sizeof err),
                      -1);
    assert_non_null (strstr (err, "'hr': 'x' is not a INT"));
    assert_int_equal (zs_partition_parse (&p, "dt=2025-12-04,s=a", ',', v, scratch, sizeof scratch,
                                          err, sizeof err),
                      -1);
    assert_non_null (strstr (err, "lacks key 'hr'"));
    assert_int_equal (zs_partition_parse (&p, "dt=2025-12-04,hr=1,hr=2,s=a", ',', v, scratch,
                                          sizeof scratch, err, sizeof err),
                      -1);
    assert_int_equal (zs_partition_parse (&p, "xx=1,dt=2025-12-04,hr=1,s=a", ',', v, scratch,
                                          sizeof scratch, err, sizeof err),
                      -1);
    assert_non_null (strstr (err, "not a partition key"));
}

//  escapePathName / unescapePathName; the limits.
static void
test_escape_and_limits (void **state)
{
    (void) state;
    char buf[64];
    assert_int_equal (zs_partition_escape ("a\x01\"#%'*/:=?\\\x7f{}[]^z", 19, buf, sizeof buf), 53);
    assert_string_equal (buf, "a%01%22%23%25%27%2A%2F%3A%3D%3F%5C%7F%7B%7D%5B%5D%5Ez");
    assert_int_equal (zs_partition_unescape (buf, strlen (buf), buf, sizeof buf), 19);
    assert_memory_equal (buf, "a\x01\"#%'*/:=?\\\x7f{}[]^z", 19);
    //  Java leaves a '%' without two hex digits after it as it is
    assert_int_equal (zs_partition_unescape ("%4", 2, buf, sizeof buf), 2);
    assert_string_equal (buf, "%4");
    assert_int_equal (zs_partition_unescape ("%zz%41", 6, buf, sizeof buf), 4);
    assert_string_equal (buf, "%zzA");
    assert_int_equal (zs_partition_escape ("abc", 3, buf, 3), -1);

    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "p STRING", "p");
    char err[ZS_ERRLEN], dir[ZS_PARTITION_DIR_MAX];
    char big[200];
    memset (big, '/', sizeof big - 1);
    big[sizeof big - 1] = 0;
    zs_value_t v = s_str (big);
    assert_int_equal (zs_partition_dir (&p, &v, dir, sizeof dir, err, sizeof err), -1);
    assert_non_null (strstr (err, "directory would pass"));
    uint8_t row[ZS_PARTITION_ROW_MAX];
    assert_int_equal (zs_partition_row (&p, &v, row, sizeof row, err, sizeof err), -1);
    assert_non_null (strstr (err, "more than 192"));
}

static int
s_cmp_path (const void *a, const void *b)
{
    return strcmp (((const zs_manifest_entry_t *) a)->file.path,
                   ((const zs_manifest_entry_t *) b)->file.path);
}

//  A manifest and list Paimon Java wrote for a partitioned table: every
//  file named by the directory Java put it in, and the list's
//  _PARTITION_STATS exactly what zsink computes over the entries.
static void
test_java_manifest (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t p;
    s_part (&p, &schema, "id BIGINT NOT NULL, s STRING, n INT, d DATE, ts TIMESTAMP(3)",
            "s,n,d,ts");
    char err[ZS_ERRLEN];
    zs_manifest_entry_t *e;
    size_t n;
    if (zs_manifest_decode_in (s_java_manifest, sizeof s_java_manifest, &p, &e, &n, err, sizeof err)
        != 0)
        fail_msg ("%s", err);
    size_t want = sizeof s_java_paths / sizeof s_java_paths[0];
    assert_int_equal (n, want);
    qsort (e, n, sizeof *e, s_cmp_path);
    for (size_t i = 0; i < n; i++)
        assert_string_equal (e[i].file.path, s_java_paths[i]);
    zs_manifest_meta_t *m;
    size_t nm;
    assert_int_equal (
        zs_manifest_list_decode (s_java_list, sizeof s_java_list, &m, &nm, err, sizeof err), 0);
    assert_int_equal (nm, 1);
    zs_stats_t mine;
    assert_int_equal (zs_partition_stats (&p, e, n, &mine, err, sizeof err), 0);
    assert_int_equal (mine.len, m[0].partition_stats.len);
    assert_memory_equal (mine.blob, m[0].partition_stats.blob, mine.len);
    //  written back by zsink, read back the same
    size_t len;
    uint8_t *data = zs_manifest_encode (e, n, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    assert_non_null (data);
    zs_manifest_entry_t *again;
    size_t n2;
    assert_int_equal (zs_manifest_decode_in (data, len, &p, &again, &n2, err, sizeof err), 0);
    assert_int_equal (n2, n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal (again[i].file.path, e[i].file.path);
        assert_int_equal (again[i].file.partition_len, e[i].file.partition_len);
        assert_memory_equal (again[i].file.partition, e[i].file.partition, e[i].file.partition_len);
    }
    free (again);
    free (data);
    free (m);
    free (e);
}

//  The job config: table.partition-keys applied to the schema whichever
//  comes first, names that are no column, twice or too many refused;
//  write-max-writers' default and range.
static void
test_config_keys (void **state)
{
    (void) state;
    zs_config_t cfg;
    char err[ZS_ERRLEN];
    const char *ok[] = {"table.path=/tmp/t", "state.checkpoints.dir=/tmp/c",
                        "table.partition-keys=s, dt", "table.schema=id BIGINT, dt DATE, s STRING"};
    if (zs_config_build (&cfg, NULL, ok, 4, err, sizeof err) != 0)
        fail_msg ("%s", err);
    assert_int_equal (cfg.schema.n_partition, 2);
    assert_int_equal (cfg.schema.partition[0], 2);
    assert_int_equal (cfg.schema.partition[1], 1);
    assert_int_equal (cfg.table.write_max_writers, 1000);
    assert_int_equal (cfg.table.write_buffer_size, 256 << 20);
    assert_string_equal (cfg.table.partition_default_name, "");
    static const struct {
        const char *kv, *want;
    } bad[] = {
        {"table.partition-keys=zz", "'zz' names no column"},
        {"table.partition-keys=s,s", "'s' is named twice"},
        {"table.partition-keys=S", "'S' names no column"},
        {"write-max-writers=0", "write-max-writers"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *kv[] = {"table.path=/tmp/t", "state.checkpoints.dir=/tmp/c",
                            "table.schema=id BIGINT, dt DATE, s STRING", bad[i].kv};
        assert_int_equal (zs_config_build (&cfg, NULL, kv, 4, err, sizeof err), -1);
        if (!strstr (err, bad[i].want))
            fail_msg ("%s: '%s' does not say '%s'", bad[i].kv, err, bad[i].want);
    }
    //  without table.schema the keys wait for the table's schema
    //  (zs_table_prepare_job): not refused here
    const char *later[] = {"table.path=/tmp/t", "state.checkpoints.dir=/tmp/c",
                           "table.partition-keys=dt"};
    assert_int_equal (zs_config_build (&cfg, NULL, later, 3, err, sizeof err), 0);
    assert_int_equal (cfg.schema.n_partition, 0);
    assert_int_equal (zs_config_apply_partition (&cfg, err, sizeof err), -1);
    assert_non_null (strstr (err, "'dt' names no column"));
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_string_key),        cmocka_unit_test (test_blank_is_default),
        cmocka_unit_test (test_several_keys),      cmocka_unit_test (test_timestamps),
        cmocka_unit_test (test_keys_refused),      cmocka_unit_test (test_spec),
        cmocka_unit_test (test_escape_and_limits), cmocka_unit_test (test_java_manifest),
        cmocka_unit_test (test_config_keys),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
