/*  test_table.c - the table store: create/open, snapshot JSON, commit with
    filterCommitted, missing files, bad paths, races between committers,
    corrupt snapshots, fail points, orphans, clean-up of uncommitted
    manifests, verify. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafile.h"
#include "datafiles.h"
#include "failpoint.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "manifest.h"
#include "snapshot.h"
#include "stats.h"
#include "table.h"
#include "table_job.h"
#include "table_priv.h"
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define USER_A "aaaaaaaa-1111-4111-8111-111111111111"
#define USER_B "bbbbbbbb-2222-4222-8222-222222222222"

//  zs_table_commit with the request spelt out positionally, as the tests
//  were written (snap_id and total may be NULL).
static int
s_commit_req (zs_table_t *t, const char *user, int64_t identifier, const zs_file_meta_t *files,
              size_t n, bool ignore_empty, int max_retries, int64_t *snap_id, int64_t *total,
              char *err, size_t errlen)
{
    zs_commit_t req = {.user = user,
                       .identifier = identifier,
                       .files = files,
                       .n = n,
                       .ignore_empty = ignore_empty,
                       .max_retries = max_retries};
    zs_committed_t out = {0};
    int rc = zs_table_commit (t, &req, &out, err, errlen);
    if (rc == 0 && snap_id)
        *snap_id = out.snapshot_id;
    if (rc == 0 && total)
        *total = out.total_rows;
    return rc;
}

static char s_dir[64];
static zs_table_t *s_table;
static zs_schema_t s_schema; //  the default one
static int s_file_seq;

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static int
s_setup (void **state)
{
    zs_log_set_level (ZS_LOG_WARN); //  keep the test output readable
    zs_schema_default (&s_schema);
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-table-XXXXXX");
    if (!mkdtemp (s_dir))
        return -1;
    char err[ZS_ERRLEN];
    s_table = zs_table_open (s_dir, &s_schema, err, sizeof err);
    return s_table ? 0 : -1;
}

static int
s_teardown (void **state)
{
    zs_failpoint_init ("", NULL, 0);
    zs_table_destroy (&s_table);
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

//  Write a data file of rows [first, first + rows) and return its meta.
static zs_file_meta_t
s_data_file (int64_t first, int64_t rows)
{
    char rel[128];
    snprintf (rel, sizeof rel, "bucket-0/data-test-%d.parquet", s_file_seq++);
    return test_write_datafile (s_dir, rel, first, rows);
}

static int
s_commit (const char *user, int64_t identifier, const zs_file_meta_t *files, size_t n,
          int64_t *snap_id)
{
    char err[ZS_ERRLEN];
    return s_commit_req (s_table, user, identifier, files, n, false, 10, snap_id, NULL, err,
                         sizeof err);
}

//  Names in a table subdirectory, optionally only those containing needle.
static int
s_count (const char *sub, const char *needle)
{
    char p[512];
    snprintf (p, sizeof p, "%s/%s", s_dir, sub);
    DIR *d = opendir (p);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir (d)))
        if (strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0
            && (!needle || strstr (de->d_name, needle)))
            n++;
    closedir (d);
    return n;
}

static void
s_write (const char *rel, const char *text)
{
    char p[512], err[ZS_ERRLEN];
    snprintf (p, sizeof p, "%s/%s", s_dir, rel);
    assert_int_equal (zs_io_write_atomic (p, text, strlen (text), err, sizeof err), 0);
}

//  Make a file look old (orphan age guard).
static void
s_age (const char *rel, int seconds)
{
    char p[512];
    snprintf (p, sizeof p, "%s/%s", s_dir, rel);
    struct timeval tv[2];
    gettimeofday (&tv[0], NULL);
    tv[0].tv_sec -= seconds;
    tv[1] = tv[0];
    assert_int_equal (utimes (p, tv), 0);
}

//  No orphan of any age (each printed when there are).
static void
s_assert_no_orphans (void)
{
    char err[ZS_ERRLEN];
    char **paths = NULL;
    size_t no = 99;
    assert_int_equal (zs_table_orphans (s_table, 0, &paths, &no, err, sizeof err), 0);
    for (size_t i = 0; i < no; i++) {
        print_error ("orphan: %s\n", paths[i]);
        free (paths[i]);
    }
    free (paths);
    assert_int_equal (no, 0);
}

//  Every live file once, the table verifies clean, no orphan of any age.
static void
s_assert_whole (int64_t files_expected)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (s_table, 0, &files, &nf, err, sizeof err), 0);
    free (files);
    assert_int_equal (nf, files_expected);
    char *report = NULL;
    if (zs_table_verify (s_table, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
    free (report);
    s_assert_no_orphans ();
}

//  --------------------------------------------------------------------------

static void
test_open_and_create (void **state)
{
    char err[ZS_ERRLEN], p[256];
    //  A directory without schema/schema-0 is not a table.
    snprintf (p, sizeof p, "%s/bucket-0", s_dir);
    assert_null (zs_table_open (p, NULL, err, sizeof err));
    assert_non_null (strstr (err, "not a Paimon table"));
    assert_non_null (strstr (err, p));
    snprintf (p, sizeof p, "%s/nope", s_dir);
    assert_null (zs_table_open (p, NULL, err, sizeof err));

    //  Creating again (a second process racing) finds the same schema.
    zs_table_t *t = zs_table_open (s_dir, &s_schema, err, sizeof err);
    assert_non_null (t);
    assert_string_equal (zs_table_path (t), s_dir);
    zs_table_destroy (&t);
    assert_null (t);
    snprintf (p, sizeof p, "%s/", s_dir);
    t = zs_table_open (p, NULL, err, sizeof err);
    assert_non_null (t);
    assert_string_equal (zs_table_path (t), s_dir); //  trailing '/' dropped
    zs_table_destroy (&t);
    zs_table_destroy (&t);

    snprintf (p, sizeof p, "%s/schema/schema-0", s_dir);
    char *schema = zs_io_read_file (p, 4096, NULL, err, sizeof err);
    assert_non_null (strstr (schema, "\"BIGINT NOT NULL\""));
    assert_non_null (strstr (schema, "\"TIMESTAMP(3)\""));
    free (schema);
    assert_int_equal (s_count ("snapshot", NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), 0);

    //  Another schema is refused, naming the first differing column.
    zs_schema_t other;
    assert_int_equal (zs_schema_parse (&other,
                                       "id BIGINT NOT NULL, name STRING, price FLOAT, "
                                       "ts TIMESTAMP(3)",
                                       err, sizeof err),
                      0);
    assert_null (zs_table_open (s_dir, &other, err, sizeof err));
    assert_non_null (
        strstr (err, "column 3 'price': job has 'price FLOAT', table has 'price DOUBLE'"));

    //  An unreadable schema is refused.
    s_write ("schema/schema-0", "{not json");
    assert_null (zs_table_open (s_dir, NULL, err, sizeof err));
    assert_non_null (strstr (err, "schema-0"));

    //  Empty table: no snapshot.
    zs_snapshot_t snap;
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), ZS_ENOENT);
    int64_t last = 7;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err), 0);
    assert_int_equal (last, -1);
}

static void
test_snapshot_json_round_trip (void **state)
{
    zs_snapshot_t in;
    memset (&in, 0, sizeof in);
    in.id = 42;
    in.schema_id = 0;
    snprintf (in.base_manifest_list, sizeof in.base_manifest_list, "manifest-list-aa-1");
    snprintf (in.delta_manifest_list, sizeof in.delta_manifest_list, "manifest-list-aa-2");
    snprintf (in.commit_user, sizeof in.commit_user, USER_A);
    in.commit_identifier = ZS_END_INPUT_ID;
    snprintf (in.commit_kind, sizeof in.commit_kind, "APPEND");
    in.time_millis = 1700000000123;
    in.total_record_count = 1000;
    in.delta_record_count = 10;
    in.base_list_size = 1006;
    in.delta_list_size = 1113;
    in.has_user_ids = true;
    zs_snapshot_set_user_id (&in, USER_A, ZS_END_INPUT_ID, 5, "0123456789abcdef");
    zs_snapshot_set_user_id (&in, USER_B, 7, 3, NULL);
    snprintf (in.source_id, sizeof in.source_id, "0123456789abcdef");
    char *text = zs_snapshot_encode (&in);
    assert_non_null (text);
    //  Paimon's field names.
    static const char *fields[] = {
        "\"version\": 3",
        "\"schemaId\"",
        "\"baseManifestList\"",
        "\"deltaManifestList\"",
        "\"commitUser\"",
        "\"commitIdentifier\": 9223372036854775807",
        "\"commitKind\"",
        "\"timeMillis\"",
        "\"totalRecordCount\"",
        "\"deltaRecordCount\"",
        "\"committedIdentifiers\"",
        "\"sourceId\": \"0123456789abcdef\"",
        "\"properties\": {\n    \"zsink.source-id\": \"0123456789abcdef\""};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!strstr (text, fields[i]))
            fail_msg ("snapshot JSON lacks %s:\n%s", fields[i], text);
    zs_snapshot_t out;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_snapshot_decode (text, &out, err, sizeof err), 0);
    free (text);
    assert_memory_equal (&in, &out, sizeof in);
    assert_int_equal (zs_snapshot_last_identifier (&out, USER_A), ZS_END_INPUT_ID);
    assert_int_equal (zs_snapshot_last_identifier (&out, USER_B), 7);
    assert_int_equal (zs_snapshot_last_identifier (&out, "nobody"), -1);

    static const char *bad[] = {
        "",
        "[]",
        "{\"version\":3}",
        "{\"version\":2,\"id\":1}",
        "{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"../x\","
        "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,"
        "\"commitKind\":\"APPEND\",\"timeMillis\":1,\"totalRecordCount\":1,"
        "\"deltaRecordCount\":1,\"committedIdentifiers\":[]}",
        "{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\","
        "\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,"
        "\"commitKind\":\"APPEND\",\"timeMillis\":1,\"totalRecordCount\":1,"
        "\"deltaRecordCount\":1,\"committedIdentifiers\":[{\"user\":\"u\"}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (zs_snapshot_decode (bad[i], &out, err, sizeof err) != ZS_ECORRUPT)
            fail_msg ("bad snapshot %zu decoded", i);
    //  Another writer's snapshot: no committedIdentifiers, sizes, an index
    //  manifest; unknown fields ignored, as Paimon's readers do.
    const char *paimon = "{\"version\":3,\"id\":4,\"schemaId\":0,\"baseManifestList\":\"b\","
                         "\"deltaManifestList\":\"d\",\"indexManifest\":\"index-manifest-1\","
                         "\"commitUser\":\"a-long-flink-commit-user-name-of-more-than-40-chars\","
                         "\"commitIdentifier\":9,\"commitKind\":\"COMPACT\",\"timeMillis\":1,"
                         "\"totalRecordCount\":1,\"deltaRecordCount\":-1,\"nextRowId\":0}";
    assert_int_equal (zs_snapshot_decode (paimon, &out, err, sizeof err), 0);
    assert_false (out.has_user_ids);
    assert_true (out.base_list_size == -1 && out.delta_list_size == -1);
    assert_string_equal (out.index_manifest, "index-manifest-1");
    assert_string_equal (out.commit_kind, "COMPACT");
}

static void
test_user_ids_keep_most_recent (void **state)
{
    zs_snapshot_t s;
    memset (&s, 0, sizeof s);
    for (int i = 0; i < ZS_MAX_USER_IDS + 5; i++) {
        char user[40];
        snprintf (user, sizeof user, "user-%d", i);
        zs_snapshot_set_user_id (&s, user, i, 1000 + i, NULL);
    }
    assert_int_equal (s.n_user_ids, ZS_MAX_USER_IDS);
    for (int i = 0; i < 5; i++) {
        char user[40];
        snprintf (user, sizeof user, "user-%d", i);
        assert_int_equal (zs_snapshot_last_identifier (&s, user), -1);
    }
    assert_int_equal (zs_snapshot_last_identifier (&s, "user-5"), 5);
    //  Updating an existing user does not evict anybody.
    zs_snapshot_set_user_id (&s, "user-5", 99, 5000, NULL);
    assert_int_equal (s.n_user_ids, ZS_MAX_USER_IDS);
    assert_int_equal (zs_snapshot_last_identifier (&s, "user-5"), 99);
    assert_int_equal (zs_snapshot_last_identifier (&s, "user-6"), 6);
}

//  Replace the first run of from (same length) in data. 0 or -1.
static int
s_patch (uint8_t *data, size_t len, const char *from, const char *to)
{
    size_t n = strlen (from);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp (data + i, from, n) == 0) {
            memcpy (data + i, to, n);
            return 0;
        }
    return -1;
}

static void
test_manifest_codecs (void **state)
{
    zs_file_meta_t f = {.path = "bucket-0/aa-data-1.parquet",
                        .rows = 3,
                        .size = 99,
                        .creation_ms = 1700000000123,
                        .min_seq = 0,
                        .max_seq = 2,
                        .schema_id = 0,
                        .file_source = ZS_FILE_SOURCE_APPEND,
                        .delete_rows = 0};
    zs_stats_none (&f.stats);
    zs_manifest_entry_t in = {.add = true, .total_buckets = -1, .file = f};
    char err[ZS_ERRLEN];
    size_t len;
    uint8_t *data = zs_manifest_encode (&in, 1, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    assert_non_null (data);
    zs_manifest_entry_t *entries;
    size_t n;
    assert_int_equal (zs_manifest_decode (data, len, &entries, &n, err, sizeof err), 0);
    assert_int_equal (n, 1);
    assert_true (entries[0].add);
    assert_int_equal (entries[0].total_buckets, -1);
    const zs_file_meta_t *g = &entries[0].file;
    assert_string_equal (g->path, f.path);
    assert_true (g->rows == 3 && g->size == 99 && g->creation_ms == f.creation_ms);
    assert_true (g->max_seq == 2 && g->file_source == 0 && g->delete_rows == 0);
    assert_int_equal (g->stats.len, f.stats.len);
    assert_memory_equal (g->stats.blob, f.stats.blob, f.stats.len);
    free (entries);
    //  A manifest naming a file outside the table is corrupt.
    assert_int_equal (s_patch (data, len, "aa-data", "../data"), 0);
    assert_int_equal (zs_manifest_decode (data, len, &entries, &n, err, sizeof err), ZS_ECORRUPT);
    free (data);
    //  zsink's JSON manifests of old: refused, saying what to do
    const char *old = "{\"entries\":[]}";
    assert_int_equal (
        zs_manifest_decode ((const uint8_t *) old, strlen (old), &entries, &n, err, sizeof err),
        ZS_ECORRUPT);
    assert_non_null (strstr (err, "zsink's own JSON format"));
    static const char *bad_paths[] = {"/etc/passwd",
                                      "bucket-0/../../x",
                                      "data/x",
                                      "bucket-x/y",
                                      "bucket-0/",
                                      "bucket-0//x",
                                      "bucket-/x",
                                      "bucket-0/./x",
                                      "bucket-12/sub/data.parquet",
                                      "=x/bucket-0/d",
                                      "p/bucket-0/d",
                                      "p=1//bucket-0/d",
                                      "p=1/bucket-0/..",
                                      "../p=1/bucket-0/d",
                                      "p=1/../bucket-0/d",
                                      "a=1/b=2/c=3/d=4/e=5/f=6/g=7/h=8/i=9/bucket-0/d"};
    for (size_t i = 0; i < sizeof bad_paths / sizeof bad_paths[0]; i++)
        if (zs_data_path_check (bad_paths[i], err, sizeof err) == 0)
            fail_msg ("path '%s' accepted", bad_paths[i]);
    assert_int_equal (zs_data_path_check ("bucket-12/data.parquet", err, sizeof err), 0);
    //  partition directories: "k=v" components before the bucket, a ".."
    //  inside a value harmless ("p=a..b" is no way up)
    assert_int_equal (zs_data_path_check ("dt=20426/hr=7/bucket-0/d.parquet", err, sizeof err), 0);
    assert_int_equal (zs_data_path_check ("p=a..b/bucket-0/d.parquet", err, sizeof err), 0);
    assert_int_equal (zs_data_path_check ("p=../bucket-0/d.parquet", err, sizeof err), 0);
    assert_int_equal (zs_data_path_check ("p=/bucket-0/d.parquet", err, sizeof err), 0);
    size_t dir_len;
    int bucket;
    const char *name;
    assert_int_equal (zs_data_path_split ("dt=1/hr=%3A/bucket-3/d.parquet", &dir_len, &bucket,
                                          &name, err, sizeof err),
                      0);
    assert_int_equal (dir_len, 11);
    assert_int_equal (bucket, 3);
    assert_string_equal (name, "d.parquet");

    zs_manifest_meta_t m = {.file = "manifest-aa-1", .file_size = 1234, .added_files = 2};
    data = zs_manifest_list_encode (&m, 1, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err);
    zs_manifest_meta_t *metas;
    assert_int_equal (zs_manifest_list_decode (data, len, &metas, &n, err, sizeof err), 0);
    free (data);
    assert_int_equal (n, 1);
    assert_string_equal (metas[0].file, "manifest-aa-1");
    assert_int_equal (metas[0].added_files, 2);
    assert_int_equal (metas[0].file_size, 1234);
    free (metas);
    strcpy (m.file, "manifest-aa-2");
    data = zs_manifest_list_encode (&m, 1, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    assert_int_equal (s_patch (data, len, "aa-2", "a/b2"), 0);
    assert_int_equal (zs_manifest_list_decode (data, len, &metas, &n, err, sizeof err),
                      ZS_ECORRUPT);
    free (data);
}

//  A partitioned table's manifests: _PARTITION from the file meta, the
//  path from the partition's directory, _PARTITION_STATS over the entries;
//  an unpartitioned reader refuses them.
static void
test_manifest_partitions (void **state)
{
    (void) state;
    zs_schema_t schema;
    zs_partition_t part;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&schema, "id BIGINT, dt DATE, s STRING", err, sizeof err),
                      0);
    assert_int_equal (zs_schema_partition_parse (&schema, "dt,s", err, sizeof err), 0);
    assert_int_equal (zs_partition_init (&part, &schema, NULL, err, sizeof err), 0);
    zs_manifest_entry_t in[3];
    memset (in, 0, sizeof in);
    zs_value_t v[3][2] = {{{.v.i32 = 20426}, {.v.bin = {(const uint8_t *) "a/b:c", 5}}},
                          {{.v.i32 = 20400}, {.null = true}},
                          {{.v.i32 = 20500}, {.v.bin = {(const uint8_t *) "zz", 2}}}};
    for (int i = 0; i < 3; i++) {
        zs_file_meta_t *f = &in[i].file;
        in[i].add = i != 1;
        in[i].total_buckets = -1;
        f->rows = 1;
        f->size = 10;
        f->file_source = 0;
        f->delete_rows = 0;
        zs_stats_none (&f->stats);
        char dir[ZS_PARTITION_DIR_MAX];
        assert_true (zs_partition_dir (&part, v[i], dir, sizeof dir, err, sizeof err) > 0);
        snprintf (f->path, sizeof f->path, "%s/bucket-0/data-%d.parquet", dir, i);
        int len =
            zs_partition_row (&part, v[i], f->partition, sizeof f->partition, err, sizeof err);
        assert_true (len > 0);
        f->partition_len = (uint16_t) len;
    }
    assert_string_equal (in[0].file.path, "dt=20426/s=a%2Fb%3Ac/bucket-0/data-0.parquet");
    assert_string_equal (in[1].file.path,
                         "dt=20400/s=__DEFAULT_PARTITION__/bucket-0/data-1.parquet");
    size_t len, n;
    uint8_t *data = zs_manifest_encode (in, 3, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    assert_non_null (data);
    zs_manifest_entry_t *out;
    assert_int_equal (zs_manifest_decode_in (data, len, &part, &out, &n, err, sizeof err), 0);
    assert_int_equal (n, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal (out[i].file.path, in[i].file.path);
        assert_int_equal (out[i].file.partition_len, in[i].file.partition_len);
        assert_memory_equal (out[i].file.partition, in[i].file.partition, in[i].file.partition_len);
    }
    free (out);
    assert_int_equal (zs_manifest_decode (data, len, &out, &n, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "a partitioned table"));
    //  a reader whose keys are other types refuses the rows
    zs_schema_t other = schema;
    assert_int_equal (zs_schema_partition_parse (&other, "s,dt", err, sizeof err), 0);
    zs_partition_t wrong;
    assert_int_equal (zs_partition_init (&wrong, &other, NULL, err, sizeof err), 0);
    assert_int_equal (zs_manifest_decode_in (data, len, &wrong, &out, &n, err, sizeof err),
                      ZS_ECORRUPT);
    free (data);
    //  a file with a partition row but no directory, or the other way round
    zs_manifest_entry_t bad = in[0];
    snprintf (bad.file.path, sizeof bad.file.path, "bucket-0/x.parquet");
    assert_null (zs_manifest_encode (&bad, 1, ZS_AVRO_CODEC_NULL, &len, err, sizeof err));

    //  partition stats: min/max per key over all entries, nulls counted
    zs_manifest_meta_t m = {.file = "manifest-p-1", .file_size = 1, .added_files = 2};
    assert_int_equal (zs_partition_stats (&part, in, 3, &m.partition_stats, err, sizeof err), 0);
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, m.partition_stats.blob, m.partition_stats.len);
    const uint8_t *min, *max;
    size_t lmin, lmax;
    assert_int_equal (zs_avro_dec_bytes (&d, &min, &lmin), 0);
    assert_int_equal (zs_avro_dec_bytes (&d, &max, &lmax), 0);
    zs_value_t lo[2], hi[2];
    assert_int_equal (zs_partition_decode (&part, min, lmin, lo, err, sizeof err), 0);
    assert_int_equal (zs_partition_decode (&part, max, lmax, hi, err, sizeof err), 0);
    assert_int_equal (lo[0].v.i32, 20400);
    assert_int_equal (hi[0].v.i32, 20500);
    assert_memory_equal (lo[1].v.bin.ptr, "a/b:c", 5);
    assert_memory_equal (hi[1].v.bin.ptr, "zz", 2);
    data = zs_manifest_list_encode (&m, 1, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    zs_manifest_meta_t *metas;
    assert_int_equal (zs_manifest_list_decode (data, len, &metas, &n, err, sizeof err), 0);
    assert_int_equal (metas[0].partition_stats.len, m.partition_stats.len);
    assert_memory_equal (metas[0].partition_stats.blob, m.partition_stats.blob,
                         m.partition_stats.len);
    free (metas);
    free (data);
    //  all keys null in one partition: null bounds, the count
    zs_value_t nulls[2] = {{.null = true}, {.null = true}};
    zs_manifest_entry_t one = in[0];
    one.file.partition_len = (uint16_t) zs_partition_row (
        &part, nulls, one.file.partition, sizeof one.file.partition, err, sizeof err);
    assert_int_equal (zs_partition_stats (&part, &one, 1, &m.partition_stats, err, sizeof err), 0);
    zs_avro_dec_init (&d, m.partition_stats.blob, m.partition_stats.len);
    assert_int_equal (zs_avro_dec_bytes (&d, &min, &lmin), 0);
    assert_int_equal (zs_partition_decode (&part, min, lmin, lo, err, sizeof err), 0);
    assert_true (lo[0].null && lo[1].null);
}

//  filterCommitted: the same or a lower identifier is filtered; after
//  end of input the user is finished.
static void
test_commit_and_filter (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f1 = s_data_file (1, 10);
    int64_t snap_id = 0, total = 0;
    assert_int_equal (
        s_commit_req (s_table, USER_A, 1, &f1, 1, false, 10, &snap_id, &total, err, sizeof err), 0);
    assert_int_equal (snap_id, 1);
    assert_int_equal (total, 10);
    assert_int_equal (s_commit (USER_A, 1, &f1, 1, NULL), ZS_EFILTERED);
    assert_int_equal (s_commit (USER_A, 0, &f1, 1, NULL), ZS_EFILTERED);

    zs_file_meta_t f2[2] = {s_data_file (11, 5), s_data_file (16, 5)};
    assert_int_equal (s_commit (USER_A, 3, f2, 2, &snap_id), 0);
    assert_int_equal (snap_id, 2);
    assert_int_equal (s_commit (USER_A, 2, f2, 2, NULL), ZS_EFILTERED);

    //  An empty checkpoint still makes a snapshot, unless ignore_empty.
    assert_int_equal (s_commit (USER_A, 4, NULL, 0, &snap_id), 0);
    assert_int_equal (snap_id, 3);
    assert_int_equal (
        s_commit_req (s_table, USER_A, 5, NULL, 0, true, 10, &snap_id, NULL, err, sizeof err),
        ZS_EFILTERED);
    assert_int_equal (s_count ("snapshot", "snapshot-"), 3);

    zs_file_meta_t f3 = s_data_file (21, 1);
    assert_int_equal (s_commit (USER_A, ZS_END_INPUT_ID, &f3, 1, &snap_id), 0);
    assert_int_equal (snap_id, 4);
    zs_file_meta_t f4 = s_data_file (22, 1);
    assert_int_equal (s_commit (USER_A, 6, &f4, 1, NULL), ZS_EFINISHED);
    assert_int_equal (s_commit_req (s_table, USER_A, ZS_END_INPUT_ID, &f4, 1, false, 10, NULL, NULL,
                                    err, sizeof err),
                      ZS_EFINISHED);
    assert_non_null (strstr (err, USER_A));
    //  Another user is not affected.
    assert_int_equal (s_commit (USER_B, 1, &f4, 1, &snap_id), 0);
    assert_int_equal (snap_id, 5);

    zs_snapshot_t snap;
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    assert_int_equal (snap.id, 5);
    assert_int_equal (snap.total_record_count, 22);
    assert_int_equal (snap.delta_record_count, 1);
    assert_string_equal (snap.commit_kind, "APPEND");
    int64_t last;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err), 0);
    assert_int_equal (last, ZS_END_INPUT_ID);

    zs_file_meta_t *live;
    size_t n;
    assert_int_equal (zs_table_live_files (s_table, 0, &live, &n, err, sizeof err), 0);
    assert_int_equal (n, 5);
    int64_t rows = 0;
    for (size_t i = 0; i < n; i++)
        rows += live[i].rows;
    assert_int_equal (rows, 22);
    free (live);
    assert_int_equal (zs_table_live_files (s_table, 2, &live, &n, err, sizeof err), 0);
    assert_int_equal (n, 3);
    free (live);

    zs_snapshot_t *snaps;
    assert_int_equal (zs_table_list_snapshots (s_table, &snaps, &n, err, sizeof err), 0);
    assert_int_equal (n, 5);
    for (size_t i = 0; i < n; i++)
        assert_int_equal (snaps[i].id, (int64_t) i + 1);
    assert_int_equal (snaps[3].commit_identifier, ZS_END_INPUT_ID);
    free (snaps);

    int64_t e, l;
    assert_int_equal (zs_table_snapshot_range (s_table, &e, &l, err, sizeof err), 0);
    assert_int_equal (e, 1);
    assert_int_equal (l, 5);
    char p[512];
    snprintf (p, sizeof p, "%s/snapshot/LATEST", s_dir);
    char *hint = zs_io_read_file (p, 64, NULL, err, sizeof err);
    assert_string_equal (hint, "5");
    free (hint);
    snprintf (p, sizeof p, "%s/snapshot/EARLIEST", s_dir);
    hint = zs_io_read_file (p, 64, NULL, err, sizeof err);
    assert_string_equal (hint, "1");
    free (hint);

    char *report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), 0);
    free (report);
}

static void
test_missing_file_and_bad_paths (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 3);
    zs_file_meta_t gone = f;
    snprintf (gone.path, sizeof gone.path, "bucket-0/data-gone.parquet");
    zs_file_meta_t both[2] = {f, gone};
    assert_int_equal (
        s_commit_req (s_table, USER_A, 1, both, 2, false, 10, NULL, NULL, err, sizeof err),
        ZS_EMISSING);
    assert_non_null (strstr (err, "data-gone.parquet"));

    zs_file_meta_t wrong = f;
    wrong.size++;
    assert_int_equal (
        s_commit_req (s_table, USER_A, 1, &wrong, 1, false, 10, NULL, NULL, err, sizeof err),
        ZS_EMISSING);
    assert_non_null (strstr (err, f.path));

    static const char *bad[] = {"/tmp/x.parquet", "bucket-0/../schema/schema-0", "manifest/x",
                                "bucket-a/x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        zs_file_meta_t b = f;
        snprintf (b.path, sizeof b.path, "%s", bad[i]);
        assert_int_equal (
            s_commit_req (s_table, USER_A, 1, &b, 1, false, 10, NULL, NULL, err, sizeof err), -1);
        assert_non_null (strstr (err, bad[i]));
    }
    //  Nothing at all was written.
    assert_int_equal (s_count ("snapshot", NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), 0);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), 0);
}

static void
test_two_users_interleaved (void **state)
{
    char err[ZS_ERRLEN];
    int64_t ids_a[] = {1, 2, 5}, ids_b[] = {1, 3, 4};
    for (int i = 0; i < 3; i++) {
        zs_file_meta_t fa = s_data_file (i * 10, 2), fb = s_data_file (i * 10 + 5, 3);
        assert_int_equal (s_commit (USER_A, ids_a[i], &fa, 1, NULL), 0);
        assert_int_equal (s_commit (USER_B, ids_b[i], &fb, 1, NULL), 0);
    }
    int64_t last;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err), 0);
    assert_int_equal (last, 5);
    assert_int_equal (zs_table_last_committed (s_table, USER_B, &last, err, sizeof err), 0);
    assert_int_equal (last, 4);
    zs_file_meta_t f = s_data_file (100, 1);
    assert_int_equal (s_commit (USER_B, 4, &f, 1, NULL), ZS_EFILTERED);
    assert_int_equal (s_commit (USER_A, 4, &f, 1, NULL), ZS_EFILTERED);
    assert_int_equal (s_commit (USER_B, 5, &f, 1, NULL), 0);

    //  The snapshot of a user's commit: A 1,2,5 in 1,3,5; B 1,3,4,5 in
    //  2,4,6,7. Not found: never committed, or beyond the window.
    assert_int_equal (zs_table_find_commit (s_table, USER_A, 5, 20, err, sizeof err), 5);
    assert_int_equal (zs_table_find_commit (s_table, USER_A, 2, 20, err, sizeof err), 3);
    assert_int_equal (zs_table_find_commit (s_table, USER_B, 4, 20, err, sizeof err), 6);
    assert_int_equal (zs_table_find_commit (s_table, USER_A, 3, 20, err, sizeof err), 0);
    assert_int_equal (zs_table_find_commit (s_table, USER_A, 5, 2, err, sizeof err), 0);
    assert_int_equal (zs_table_find_commit (s_table, USER_A, 5, 3, err, sizeof err), 5);
}

static void
test_corrupt_latest_writes_nothing (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 3);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), 0);
    int manifests = s_count ("manifest", NULL);
    s_write ("snapshot/snapshot-2", "{\"version\":3,\"id\":2,");
    zs_file_meta_t g = s_data_file (4, 3);
    assert_int_equal (
        s_commit_req (s_table, USER_A, 2, &g, 1, false, 10, NULL, NULL, err, sizeof err),
        ZS_ECORRUPT);
    assert_non_null (strstr (err, "snapshot-2"));
    assert_int_equal (s_count ("manifest", NULL), manifests);
    assert_int_equal (s_count ("snapshot", "snapshot-3"), 0);
    int64_t last;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err),
                      ZS_ECORRUPT);

    //  A latest snapshot whose manifest list is gone is as bad: nothing
    //  may be written on top of it either.
    char p[512];
    snprintf (p, sizeof p, "%s/snapshot/snapshot-2", s_dir);
    assert_int_equal (unlink (p), 0);
    zs_snapshot_t snap;
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    snprintf (p, sizeof p, "%s/manifest/%s", s_dir, snap.base_manifest_list);
    assert_int_equal (unlink (p), 0);
    manifests = s_count ("manifest", NULL);
    assert_int_equal (
        s_commit_req (s_table, USER_A, 2, &g, 1, false, 10, NULL, NULL, err, sizeof err),
        ZS_ECORRUPT);
    assert_int_equal (s_count ("manifest", NULL), manifests);
    assert_int_equal (s_count ("snapshot", "snapshot-2"), 0);
}

//  Two processes commit as fast as they can as different users: every
//  lost race is retried, ids stay contiguous, nobody's commit is lost.
static void
test_racing_committers (void **state)
{
    enum { PER = 15 };
    zs_file_meta_t files[2][PER];
    for (int u = 0; u < 2; u++)
        for (int i = 0; i < PER; i++)
            files[u][i] = s_data_file (u * 1000 + i * 10, 10);
    int gate[2];
    assert_int_equal (pipe (gate), 0);
    pid_t pids[2];
    for (int u = 0; u < 2; u++) {
        pids[u] = fork ();
        if (pids[u] == 0) {
            close (gate[1]);
            char c;
            if (read (gate[0], &c, 1) != 0)
                _exit (99);
            for (int i = 0; i < PER; i++) {
                char err[ZS_ERRLEN];
                int rc = s_commit_req (s_table, u ? USER_B : USER_A, i + 1, &files[u][i], 1, false,
                                       1000, NULL, NULL, err, sizeof err);
                if (rc != 0) {
                    fprintf (stderr, "commit %d of user %d: %d %s\n", i, u, rc, err);
                    _exit (1);
                }
            }
            _exit (0);
        }
    }
    close (gate[0]);
    close (gate[1]);
    for (int u = 0; u < 2; u++) {
        int status;
        assert_int_equal (waitpid (pids[u], &status, 0), pids[u]);
        assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
    char err[ZS_ERRLEN];
    zs_snapshot_t snap;
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    assert_int_equal (snap.id, 2 * PER);
    assert_int_equal (snap.total_record_count, 2 * PER * 10);
    assert_int_equal (zs_snapshot_last_identifier (&snap, USER_A), PER);
    assert_int_equal (zs_snapshot_last_identifier (&snap, USER_B), PER);
    zs_file_meta_t *live;
    size_t n;
    assert_int_equal (zs_table_live_files (s_table, 0, &live, &n, err, sizeof err), 0);
    assert_int_equal (n, 2 * PER);
    free (live);
    char *report = NULL;
    if (zs_table_verify (s_table, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
    //  Base lists of lost races were removed, not left as orphans.
    char **orphans;
    assert_int_equal (zs_table_orphans (s_table, 0, &orphans, &n, err, sizeof err), 0);
    for (size_t i = 0; i < n; i++)
        print_error ("orphan: %s\n", orphans[i]);
    assert_int_equal (n, 0);
    free (orphans);
}

//  Lose the race deterministically: while our commit waits at a fail point
//  after writing its manifests, a child process commits first.
static void
s_lose_race (const char *child_user, int64_t child_identifier, int max_retries, int expect_rc)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t mine = s_data_file (1, 5), theirs = s_data_file (100, 5);
    pid_t pid = fork ();
    if (pid == 0) {
        zs_failpoint_init ("", NULL, 0);
        //  Wait (with a deadline) until the parent's manifests exist.
        int64_t deadline = zs_clock_mono_ms () + 10000;
        while (s_count ("manifest", "manifest-list-aaaaaaaa") < 2) {
            if (zs_clock_mono_ms () > deadline)
                _exit (3);
            usleep (1000);
        }
        _exit (s_commit_req (s_table, child_user, child_identifier, &theirs, 1, false, 10, NULL,
                             NULL, err, sizeof err)
                       == 0
                   ? 0
                   : 4);
    }
    assert_int_equal (zs_failpoint_init ("committer.after-manifest=delay:400", err, sizeof err), 0);
    int64_t snap_id = 0;
    int rc = s_commit_req (s_table, USER_A, 7, &mine, 1, false, max_retries, &snap_id, NULL, err,
                           sizeof err);
    zs_failpoint_init ("", NULL, 0);
    int status;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    assert_int_equal (WEXITSTATUS (status), 0);
    assert_int_equal (rc, expect_rc);
    if (rc == 0)
        assert_int_equal (snap_id, 2);
    //  Whatever happened, no unreferenced manifest file is left behind.
    char **orphans;
    size_t n;
    assert_int_equal (zs_table_orphans (s_table, 0, &orphans, &n, err, sizeof err), 0);
    for (size_t i = 0; i < n; i++)
        if (strncmp (orphans[i], "manifest/", 9) == 0)
            fail_msg ("left behind: %s", orphans[i]);
    for (size_t i = 0; i < n; i++)
        free (orphans[i]);
    free (orphans);
}

static void
test_conflict_retried (void **state)
{
    s_lose_race (USER_B, 1, 3, 0);
    zs_snapshot_t snap;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    assert_int_equal (zs_snapshot_last_identifier (&snap, USER_B), 1);
    assert_int_equal (zs_snapshot_last_identifier (&snap, USER_A), 7);
    assert_int_equal (snap.total_record_count, 10);
}

static void
test_conflict_without_retries (void **state)
{
    s_lose_race (USER_B, 1, 0, ZS_ECONFLICT);
    assert_int_equal (s_count ("snapshot", "snapshot-2"), 0);
}

static void
test_conflict_won_by_ourselves_is_filtered (void **state)
{
    //  Our own identifier got committed meanwhile (e.g. by a previous
    //  incarnation): the retry must see it and not commit twice.
    s_lose_race (USER_A, 7, 3, ZS_EFILTERED);
    assert_int_equal (s_count ("snapshot", "snapshot-2"), 0);
}

static void
test_failpoints_in_commit (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 3);
    assert_int_equal (zs_failpoint_init ("committer.after-manifest=error", err, sizeof err), 0);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), -1);
    assert_int_equal (s_count ("snapshot", NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), 0);

    assert_int_equal (zs_failpoint_init ("committer.after-snapshot=error", err, sizeof err), 0);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), -1);
    assert_int_equal (s_count ("snapshot", "snapshot-1"), 1);
    assert_int_equal (s_count ("snapshot", "LATEST"), 0); //  the hint lags
    zs_failpoint_init ("", NULL, 0);
    //  The retry after the failure finds the commit done.
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), ZS_EFILTERED);
    zs_file_meta_t g = s_data_file (4, 3);
    int64_t snap_id;
    assert_int_equal (s_commit (USER_A, 2, &g, 1, &snap_id), 0);
    assert_int_equal (snap_id, 2);
}

static void
test_orphans (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 3);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), 0);
    zs_file_meta_t g = s_data_file (4, 3);
    assert_int_equal (s_commit (USER_A, 2, &g, 1, NULL), 0);
    zs_file_meta_t stray = s_data_file (7, 3); //  written, never committed
    s_write ("manifest/manifest-aaaaaaaa-dead", "{\"entries\":[]}");
    s_write ("bucket-0/data-x.parquet.tmp-1-0", "partial");
    s_write ("snapshot/snapshot-3.tmp-1-0", "partial");
    char p[512];
    snprintf (p, sizeof p, "%s/bucket-1", s_dir);
    zs_io_mkdirs (p);
    s_write ("bucket-1/old.parquet", "x");

    //  Everything fresh: nothing listed with an age guard.
    char **paths;
    size_t n;
    assert_int_equal (zs_table_orphans (s_table, 3600 * 1000, &paths, &n, err, sizeof err), 0);
    assert_int_equal (n, 0);
    free (paths);

    s_age (stray.path, 7200);
    s_age ("bucket-1/old.parquet", 7200);
    s_age (f.path, 7200); //  old but referenced: never an orphan
    assert_int_equal (zs_table_orphans (s_table, 3600 * 1000, &paths, &n, err, sizeof err), 0);
    assert_int_equal (n, 2);
    assert_string_equal (paths[0], stray.path);
    assert_string_equal (paths[1], "bucket-1/old.parquet");
    for (size_t i = 0; i < n; i++)
        free (paths[i]);
    free (paths);

    assert_int_equal (zs_table_orphans (s_table, 0, &paths, &n, err, sizeof err), 0);
    static const char *expect[] = {NULL, "bucket-0/data-x.parquet.tmp-1-0", "bucket-1/old.parquet",
                                   "manifest/manifest-aaaaaaaa-dead",
                                   "snapshot/snapshot-3.tmp-1-0"};
    assert_int_equal (n, 5);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal (paths[i], expect[i] ? expect[i] : stray.path);
        free (paths[i]);
    }
    free (paths);

    //  A snapshot that does not decode makes the referenced set unknown:
    //  refuse rather than call live files orphans.
    s_write ("snapshot/snapshot-1", "garbage");
    assert_int_equal (zs_table_orphans (s_table, 0, &paths, &n, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "snapshot-1"));
}

//  A committer killed between writing the snapshot's temp file and linking
//  it: the leftover is recognisably its user's, its successor's clean-up
//  removes it, and the table has no orphan. (The soak found the leftover
//  counted as an orphan before temp files were tagged.)
static void
test_crash_before_snapshot_link (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f1 = s_data_file (1, 3), f2 = s_data_file (10, 3);
    assert_int_equal (s_commit (USER_A, 1, &f1, 1, NULL), 0);
    pid_t pid = fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        //  the only link of a commit is the snapshot's (manifests and
        //  lists are written in place)
        zs_failpoint_init ("fs.link=crash:1", NULL, 0);
        int64_t sid;
        s_commit_req (s_table, USER_A, 2, &f2, 1, false, 3, &sid, NULL, err, sizeof err);
        _exit (0); //  not reached when the fail point fires
    }
    int status;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 137);
    assert_int_equal (s_count ("snapshot", ".snapshot-2.tmp-aaaaaaaa-"), 1);
    assert_int_equal (s_count ("snapshot", "snapshot-2"), 1); //  the temp file only
    assert_true (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err) >= 1);
    assert_int_equal (s_count ("snapshot", ".tmp-"), 0);
    //  the re-commit goes through, and nothing is left over
    int64_t sid = 0;
    assert_int_equal (s_commit (USER_A, 2, &f2, 1, &sid), 0);
    assert_int_equal (sid, 2);
    s_assert_no_orphans ();
}

//  The same for the LATEST hint: a crash between its temp file and the
//  rename left ".LATEST.tmp-…" that nothing removed (found by
//  t_failpoints, fs.rename=crash:2). Its temp file is now tagged with the
//  commit user and its next committer removes it; another user's is kept.
static void
test_crash_before_latest_rename (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f1 = s_data_file (1, 3);
    pid_t pid = fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        //  the commit's only rename is the LATEST hint's
        zs_failpoint_init ("fs.rename=crash:1", NULL, 0);
        int64_t sid;
        s_commit_req (s_table, USER_A, 1, &f1, 1, false, 3, &sid, NULL, err, sizeof err);
        _exit (0); //  not reached when the fail point fires
    }
    int status;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 137);
    assert_int_equal (s_count ("snapshot", ".LATEST.tmp-aaaaaaaa-"), 1);
    s_write ("snapshot/.LATEST.tmp-bbbbbbbb-1-0", "7"); //  another user's, in flight
    assert_true (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err) >= 1);
    assert_int_equal (s_count ("snapshot", "LATEST.tmp-aaaaaaaa-"), 0);
    assert_int_equal (s_count ("snapshot", "LATEST.tmp-bbbbbbbb-"), 1);
}

//  A long-running job: the base list must not grow with every commit
//  (manifests are merged past 30), the live files stay exactly what was
//  committed, and the table verifies with no orphan.
static void
test_manifests_merged (void **state)
{
    char err[ZS_ERRLEN];
    const int commits = 75;
    for (int i = 1; i <= commits; i++) {
        zs_file_meta_t f = s_data_file (i * 10, 2);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    zs_snapshot_t latest;
    assert_int_equal (zs_table_latest_snapshot (s_table, &latest, err, sizeof err), 0);
    assert_int_equal (latest.id, commits);
    zs_manifest_meta_t *metas = NULL;
    size_t nm = 0;
    assert_int_equal (zs_table_read_manifest_list (s_table, latest.base_manifest_list, &metas, &nm,
                                                   err, sizeof err),
                      0);
    free (metas);
    assert_true (nm < 30);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (s_table, 0, &files, &nf, err, sizeof err), 0);
    assert_int_equal (nf, commits);
    int64_t rows = 0;
    for (size_t i = 0; i < nf; i++)
        rows += files[i].rows;
    free (files);
    assert_int_equal (rows, 2 * commits);
    assert_int_equal (latest.total_record_count, 2 * commits);
    char *report = NULL;
    if (zs_table_verify (s_table, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
    free (report);
    char **paths = NULL;
    size_t no = 99;
    assert_int_equal (zs_table_orphans (s_table, 0, &paths, &no, err, sizeof err), 0);
    free (paths);
    assert_int_equal (no, 0);
}

//  LATEST is a hint: missing, lagging or garbage, the latest snapshot is
//  still found.
static void
test_latest_hint (void **state)
{
    char err[ZS_ERRLEN];
    for (int i = 1; i <= 5; i++) {
        zs_file_meta_t f = s_data_file (i * 10, 1);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    zs_snapshot_t snap;
    const char *hints[] = {"2\n", "5\n", "garbage", "9\n", "0\n", NULL};
    for (int i = 0; hints[i]; i++) {
        s_write ("snapshot/LATEST", hints[i]);
        assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
        assert_int_equal (snap.id, 5);
    }
    char path[512];
    snprintf (path, sizeof path, "%s/snapshot/LATEST", s_dir);
    unlink (path);
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    assert_int_equal (snap.id, 5);
    //  emptied by a crash (LATEST is not fsynced): no hint, and no problem
    //  for verify, as for Paimon; a hint that is not a number still is one
    s_write ("snapshot/LATEST", "");
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    assert_int_equal (snap.id, 5);
    char *report = NULL;
    if (zs_table_verify (s_table, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
    free (report);
    report = NULL;
    s_write ("snapshot/LATEST", "garbage");
    assert_int_not_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), 0);
    assert_non_null (strstr (report, "LATEST"));
    free (report);
    //  a lagging hint, and the next commit still takes the next id
    s_write ("snapshot/LATEST", "3\n");
    zs_file_meta_t f = s_data_file (100, 1);
    int64_t sid = 0;
    assert_int_equal (s_commit (USER_A, 6, &f, 1, &sid), 0);
    assert_int_equal (sid, 6);
}

//  Manifests written ahead of their commit (the committer does it between
//  its ack and the Notify): taken by the commit they fit, rewritten when
//  another snapshot came in between, removed when they do not fit, when
//  dropped, or when a clean-up removed them first (the commit writes its
//  own then). Never an orphan, never a snapshot naming a missing file.
static void
test_prepared_manifests (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f[9];
    f[0] = s_data_file (1, 3);
    assert_int_equal (s_commit (USER_A, 1, &f[0], 1, NULL), 0);
    int before = s_count ("manifest", NULL);
    f[1] = s_data_file (11, 3);
    zs_commit_t req = {.user = USER_A, .identifier = 2, .files = &f[1], .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 3); //  base, manifest, delta list
    assert_int_equal (s_commit (USER_A, 2, &f[1], 1, NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 3); //  the commit took them
    s_assert_whole (2);

    //  another user's snapshot in between: our base list is written anew
    f[2] = s_data_file (21, 3);
    f[3] = s_data_file (31, 3);
    req = (zs_commit_t){.user = USER_A, .identifier = 3, .files = &f[2], .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    assert_int_equal (s_commit (USER_B, 1, &f[3], 1, NULL), 0);
    assert_int_equal (s_commit (USER_A, 3, &f[2], 1, NULL), 0);
    s_assert_whole (4);

    //  other files under the same identifier: not used (the prepare does
    //  not look at the data files; the commit does)
    zs_file_meta_t ghost = f[2];
    snprintf (ghost.path, sizeof ghost.path, "bucket-0/never-written.parquet");
    f[4] = s_data_file (41, 3);
    req = (zs_commit_t){.user = USER_A, .identifier = 4, .files = &ghost, .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    assert_int_equal (s_commit (USER_A, 4, &f[4], 1, NULL), 0);
    s_assert_whole (5);

    //  removed by a clean-up first: the commit writes its own
    f[5] = s_data_file (51, 3);
    req = (zs_commit_t){.user = USER_A, .identifier = 5, .files = &f[5], .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    assert_true (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err) >= 3);
    assert_int_equal (s_commit (USER_A, 5, &f[5], 1, NULL), 0);
    s_assert_whole (6);

    //  dropped, with its files; and a prepare for an identifier committed
    //  already is left unused by the filtered commit, then dropped
    before = s_count ("manifest", NULL);
    req = (zs_commit_t){.user = USER_A, .identifier = 6, .files = &ghost, .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    zs_table_unprepare (s_table);
    assert_int_equal (s_count ("manifest", NULL), before);
    req = (zs_commit_t){.user = USER_A, .identifier = 5, .files = &f[5], .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    assert_int_equal (s_commit (USER_A, 5, &f[5], 1, NULL), ZS_EFILTERED);
    zs_table_unprepare (s_table);
    assert_int_equal (s_count ("manifest", NULL), before);
    s_assert_whole (6);

    //  A base list written ahead right after a commit: the prepare adds
    //  only the manifest and the delta list, the commit nothing but its
    //  snapshot; a second base prepare on the same snapshot writes nothing.
    assert_int_equal (zs_table_prepare_base (s_table, USER_A, err, sizeof err), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 1);
    assert_int_equal (zs_table_prepare_base (s_table, USER_A, err, sizeof err), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 1);
    f[6] = s_data_file (61, 3);
    req = (zs_commit_t){.user = USER_A, .identifier = 6, .files = &f[6], .n = 1};
    assert_int_equal (zs_table_prepare (s_table, &req, err, sizeof err), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 3);
    assert_int_equal (s_commit (USER_A, 6, &f[6], 1, NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 3);
    s_assert_whole (7);

    //  Stale (another snapshot came in between): removed by that commit,
    //  and ours writes a base list of its own (3 files each).
    assert_int_equal (zs_table_prepare_base (s_table, USER_A, err, sizeof err), 0);
    before = s_count ("manifest", NULL);
    f[7] = s_data_file (71, 3);
    f[8] = s_data_file (81, 3);
    assert_int_equal (s_commit (USER_B, 2, &f[7], 1, NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 3 - 1);
    assert_int_equal (s_commit (USER_A, 7, &f[8], 1, NULL), 0);
    assert_int_equal (s_count ("manifest", NULL), before + 3 - 1 + 3);
    s_assert_whole (9);
    zs_table_unprepare (s_table);
    char *report = NULL;
    if (zs_table_verify (s_table, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
}

static void
test_clean_uncommitted_manifests (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 3), g = s_data_file (4, 3);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), 0);
    assert_int_equal (s_commit (USER_B, 1, &g, 1, NULL), 0);
    int before = s_count ("manifest", NULL);
    s_write ("manifest/manifest-aaaaaaaa-left1", "{\"entries\":[]}");
    s_write ("manifest/manifest-list-aaaaaaaa-left2", "{\"manifests\":[]}");
    s_write ("manifest/.manifest-list-aaaaaaaa-left3.tmp-9-0", "{\"manif");
    s_write ("manifest/manifest-bbbbbbbb-other", "{\"entries\":[]}");
    //  a snapshot temp file of each user, as a crash between write and link
    //  leaves it (found by the soak: it was counted as an orphan)
    s_write ("snapshot/.snapshot-3.tmp-aaaaaaaa-77-0", "{\"id\":3");
    s_write ("snapshot/.snapshot-3.tmp-bbbbbbbb-78-0", "{\"id\":3");
    assert_int_equal (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err), 4);
    assert_int_equal (s_count ("snapshot", "tmp-aaaaaaaa"), 0);
    assert_int_equal (s_count ("snapshot", "tmp-bbbbbbbb"), 1);
    assert_int_equal (s_count ("snapshot", "snapshot-1"), 1);
    assert_int_equal (s_count ("snapshot", "snapshot-2"), 1);
    assert_int_equal (s_count ("manifest", NULL), before + 1);
    assert_int_equal (s_count ("manifest", "bbbbbbbb-other"), 1);
    assert_int_equal (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err), 0);
    char *report = NULL;
    if (zs_table_verify (s_table, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify after clean: %s", report);
    assert_int_equal (zs_table_clean_uncommitted_manifests (s_table, USER_B, err, sizeof err), 2);
    assert_int_equal (s_count ("snapshot", "tmp-"), 0);
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), 0);
}

static void
test_verify_reports_each_problem (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t files[3];
    for (int i = 0; i < 3; i++) {
        files[i] = s_data_file (i * 10, 5);
        assert_int_equal (s_commit (USER_A, i + 1, &files[i], 1, NULL), 0);
    }
    char *report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), 0);
    free (report);

    char p[512];
    snprintf (p, sizeof p, "%s/%s", s_dir, files[0].path);
    assert_int_equal (unlink (p), 0);
    snprintf (p, sizeof p, "%s/%s", s_dir, files[1].path);
    assert_int_equal (truncate (p, 3), 0);
    snprintf (p, sizeof p, "%s/snapshot/snapshot-2", s_dir);
    zs_snapshot_t snap2;
    assert_int_equal (zs_table_read_snapshot (s_table, 2, &snap2, err, sizeof err), 0);
    assert_int_equal (unlink (p), 0);
    s_write ("snapshot/LATEST", "9\n");
    report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    assert_non_null (report);
    static const char *expect[] = {"snapshot/snapshot-2: missing", "snapshot/LATEST", "size 3"};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        if (!strstr (report, expect[i]))
            fail_msg ("report lacks '%s':\n%s", expect[i], report);
    if (!strstr (report, files[0].path) || !strstr (report, files[1].path))
        fail_msg ("report does not name the data files:\n%s", report);
    assert_true (err[0] != '\0');
    free (report);

    //  A manifest that does not decode is named too.
    zs_snapshot_t snap;
    assert_int_equal (zs_table_read_snapshot (s_table, 3, &snap, err, sizeof err), 0);
    snprintf (p, sizeof p, "manifest/%s", snap.delta_manifest_list);
    s_write (p, "[");
    s_write ("snapshot/snapshot-1", "{}");
    report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    if (!strstr (report, snap.delta_manifest_list) || !strstr (report, "snapshot-1"))
        fail_msg ("report does not name the corrupt files:\n%s", report);
    free (report);
}

//  Each a distinct problem: a live file listed twice, a row count that is
//  not the file's, a data file in no snapshot (however young), and the
//  commit refuses a file already live.
static void
test_verify_duplicates_rows_orphans (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 5), g = s_data_file (6, 5);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), 0);
    //  the commit refuses a file that is live already, in Paimon's words
    int rc = s_commit_req (s_table, USER_A, 2, &f, 1, false, 10, NULL, NULL, err, sizeof err);
    assert_int_equal (rc, ZS_EDUPLICATE);
    assert_non_null (strstr (err, "which is already added"));
    zs_file_meta_t twice[2] = {g, g};
    rc = s_commit_req (s_table, USER_A, 2, twice, 2, false, 10, NULL, NULL, err, sizeof err);
    assert_int_equal (rc, ZS_EDUPLICATE);
    //  and takes a wrong row count (only verify opens the files)
    g.rows = 7;
    assert_int_equal (s_commit (USER_A, 2, &g, 1, NULL), 0);
    char *report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    if (!report || !strstr (report, "rows 5 in the file, recorded 7"))
        fail_msg ("report lacks the row count:\n%s", report ? report : "");
    free (report);

    //  Snapshot 3, written by hand: its base and delta lists are snapshot
    //  1's delta list, so f is listed twice among its live files.
    zs_snapshot_t s1, s2;
    assert_int_equal (zs_table_read_snapshot (s_table, 1, &s1, err, sizeof err), 0);
    assert_int_equal (zs_table_read_snapshot (s_table, 2, &s2, err, sizeof err), 0);
    zs_snapshot_t s3 = s2;
    s3.id = 3;
    snprintf (s3.base_manifest_list, sizeof s3.base_manifest_list, "%s", s1.delta_manifest_list);
    snprintf (s3.delta_manifest_list, sizeof s3.delta_manifest_list, "%s", s1.delta_manifest_list);
    char *text = zs_snapshot_encode (&s3);
    s_write ("snapshot/snapshot-3", text);
    free (text);
    //  and a stray data file, just written
    zs_file_meta_t stray = s_data_file (100, 1);
    report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), -1);
    char dup[256], orphan[256];
    snprintf (dup, sizeof dup, "%s: duplicate entry, listed 2 times", f.path);
    snprintf (orphan, sizeof orphan, "%s: orphan data file, in no snapshot", stray.path);
    if (!report || !strstr (report, dup) || !strstr (report, orphan))
        fail_msg ("report lacks the duplicate or the orphan:\n%s", report ? report : "");
    //  g is live in snapshot 2 (not the latest): referenced, not an orphan
    char g_orphan[256];
    snprintf (g_orphan, sizeof g_orphan, "%s: orphan", g.path);
    assert_null (strstr (report, g_orphan));
    free (report);
}

//  Snapshots another writer made (no committedIdentifiers) on top of ours:
//  filterCommitted finds our last identifier by scanning back, as Paimon
//  does, and our next snapshot carries both users again.
static void
test_foreign_snapshots (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f1 = s_data_file (1, 3), f2 = s_data_file (4, 3);
    assert_int_equal (s_commit (USER_A, 7, &f1, 1, NULL), 0);
    zs_snapshot_t s1;
    assert_int_equal (zs_table_read_snapshot (s_table, 1, &s1, err, sizeof err), 0);
    for (int id = 2; id <= 3; id++) {
        char json[1024], rel[64];
        snprintf (json, sizeof json,
                  "{\"version\":3,\"id\":%d,\"schemaId\":0,\"baseManifestList\":\"%s\","
                  "\"deltaManifestList\":\"%s\",\"commitUser\":\"paimon-java\","
                  "\"commitIdentifier\":%d,\"commitKind\":\"APPEND\",\"timeMillis\":1,"
                  "\"totalRecordCount\":3,\"deltaRecordCount\":0}",
                  id, s1.base_manifest_list, s1.delta_manifest_list, 100 + id);
        snprintf (rel, sizeof rel, "snapshot/snapshot-%d", id);
        s_write (rel, json);
    }
    int64_t last = 0;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err), 0);
    assert_int_equal (last, 7);
    assert_int_equal (zs_table_last_committed (s_table, "paimon-java", &last, err, sizeof err), 0);
    assert_int_equal (last, 103);
    assert_int_equal (s_commit (USER_A, 7, &f2, 1, NULL), ZS_EFILTERED);
    int64_t sid = 0;
    assert_int_equal (s_commit (USER_A, 8, &f2, 1, &sid), 0);
    zs_snapshot_t s4;
    assert_int_equal (zs_table_read_snapshot (s_table, sid, &s4, err, sizeof err), 0);
    assert_true (s4.has_user_ids);
    assert_int_equal (zs_snapshot_last_identifier (&s4, USER_A), 8);
    assert_int_equal (zs_snapshot_last_identifier (&s4, "paimon-java"), 103);
}

//  Job options over the table's: small manifests, merge after 3.
static void
s_job_options (int64_t target, int min_count, int64_t full)
{
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    cfg.table.manifest_target_size = target;
    cfg.table.merge_min_count = min_count;
    cfg.table.full_compaction_size = full;
    zs_table_set_job_options (s_table, &cfg);
}

//  Merged manifests roll at manifest.target-file-size: the base list keeps
//  the full ones as they are and merges only the small run after them.
static void
test_manifests_roll_at_target_size (void **state)
{
    char err[ZS_ERRLEN];
    //  an Avro manifest is ~2 KB of header (its schema) and ~30 bytes an
    //  entry: 3000 bytes is ~30 files
    s_job_options (3000, 3, 1 << 30);
    const int commits = 200;
    for (int i = 1; i <= commits; i++) {
        zs_file_meta_t f = s_data_file (i * 10, 2);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    zs_snapshot_t latest;
    assert_int_equal (zs_table_latest_snapshot (s_table, &latest, err, sizeof err), 0);
    zs_manifest_meta_t *metas = NULL;
    size_t nm = 0;
    assert_int_equal (zs_table_read_manifest_list (s_table, latest.base_manifest_list, &metas, &nm,
                                                   err, sizeof err),
                      0);
    //  several full manifests (not one of every file), and a short tail
    size_t full = 0;
    for (size_t i = 0; i < nm; i++)
        full += metas[i].file_size >= 3000;
    free (metas);
    assert_true (full >= 2);
    assert_true (nm - full < 3 + 2);
    s_assert_whole (commits);
}

//  A DELETE entry (as a compaction or Paimon's overwrite writes) cancels
//  its ADD in a merge; past the full-compaction threshold no DELETE is left.
static void
test_manifest_merge_applies_deletes (void **state)
{
    char err[ZS_ERRLEN];
    s_job_options (1 << 20, 3, 1);
    zs_file_meta_t f[6];
    for (int i = 0; i < 6; i++) {
        f[i] = s_data_file (i * 10 + 1, 10);
        assert_int_equal (s_commit (USER_A, i + 1, &f[i], 1, NULL), 0);
    }
    //  a foreign COMPACT-like snapshot deleting f[0] and f[1] by hand
    zs_manifest_entry_t del[2] = {{.add = false, .total_buckets = -1, .file = f[0]},
                                  {.add = false, .total_buckets = -1, .file = f[1]}};
    zs_manifest_meta_t dm, *metas = NULL;
    size_t nm = 0;
    assert_int_equal (
        zs_table_write_entries (s_table, "manifest-del-1", del, 2, &dm, err, sizeof err), 0);
    assert_int_equal (dm.deleted_files, 2);
    zs_snapshot_t s6;
    assert_int_equal (zs_table_read_snapshot (s_table, 6, &s6, err, sizeof err), 0);
    assert_int_equal (zs_table_snapshot_manifests (s_table, &s6, &metas, &nm, err, sizeof err), 0);
    char list[128];
    snprintf (list, sizeof list, "manifest-list-test-1");
    zs_manifest_meta_t *all = realloc (metas, (nm + 1) * sizeof *all);
    assert_non_null (all);
    size_t len = 0;
    uint8_t *data =
        zs_manifest_list_encode (all, nm, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err);
    char path[512];
    snprintf (path, sizeof path, "%s/manifest/%s", s_dir, list);
    assert_int_equal (zs_io_write_atomic (path, data, len, err, sizeof err), 0);
    free (data);
    data = zs_manifest_list_encode (&dm, 1, ZS_AVRO_CODEC_ZSTANDARD, &len, err, sizeof err);
    snprintf (path, sizeof path, "%s/manifest/manifest-list-test-2", s_dir);
    assert_int_equal (zs_io_write_atomic (path, data, len, err, sizeof err), 0);
    free (data);
    free (all);
    char json[1024];
    snprintf (json, sizeof json,
              "{\"version\":3,\"id\":7,\"schemaId\":0,\"baseManifestList\":\"%s\","
              "\"deltaManifestList\":\"manifest-list-test-2\",\"commitUser\":\"paimon-java\","
              "\"commitIdentifier\":1,\"commitKind\":\"COMPACT\",\"timeMillis\":1,"
              "\"totalRecordCount\":40,\"deltaRecordCount\":-20}",
              list);
    s_write ("snapshot/snapshot-7", json);
    s_assert_whole (4);
    //  our next commit merges (full compaction: the threshold is 1 byte)
    zs_file_meta_t g = s_data_file (1000, 5);
    int64_t sid = 0;
    assert_int_equal (s_commit (USER_A, 7, &g, 1, &sid), 0);
    zs_snapshot_t s8;
    assert_int_equal (zs_table_read_snapshot (s_table, sid, &s8, err, sizeof err), 0);
    assert_int_equal (
        zs_table_read_manifest_list (s_table, s8.base_manifest_list, &metas, &nm, err, sizeof err),
        0);
    int64_t adds = 0, dels = 0;
    for (size_t i = 0; i < nm; i++) {
        adds += metas[i].added_files;
        dels += metas[i].deleted_files;
    }
    free (metas);
    assert_int_equal (dels, 0);
    assert_int_equal (adds, 4);
    s_assert_whole (5);
    //  expiry removes the deleted data files once no snapshot keeps them
    zs_expire_t req = {.retain_min = 1, .retain_max = 1, .older_than_ms = INT64_MAX};
    zs_expired_t out;
    assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.end, sid);
    assert_int_equal (out.data_files, 2);
    struct stat st;
    snprintf (path, sizeof path, "%s/%s", s_dir, f[0].path);
    assert_int_not_equal (stat (path, &st), 0);
    s_assert_whole (5);
}

//  A finished run outlives its end-input snapshot: the user's entry in
//  committedIdentifiers carries the source id forward, so the rerun check
//  still finds it once that snapshot expired; another input's id is not
//  found; a later commit of another user keeps it.
static void
test_finished_run_after_expiry (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f = s_data_file (1, 10);
    zs_commit_t req = {.user = USER_A,
                       .identifier = ZS_END_INPUT_ID,
                       .files = &f,
                       .n = 1,
                       .max_retries = 1,
                       .source_id = "00000000feedbeef"};
    zs_committed_t done = {0};
    assert_int_equal (zs_table_commit (s_table, &req, &done, err, sizeof err), 0);
    zs_snapshot_t found;
    assert_int_equal (zs_table_finished_run (s_table, "00000000feedbeef", &found, err, sizeof err),
                      1);
    assert_int_equal (found.id, done.snapshot_id);
    for (int i = 1; i <= 5; i++) {
        zs_file_meta_t g = s_data_file (100 + i * 10, 2);
        assert_int_equal (s_commit (USER_B, i, &g, 1, NULL), 0);
    }
    zs_expire_t ex = {.retain_min = 1, .retain_max = 2, .older_than_ms = 0};
    zs_expired_t out;
    assert_int_equal (zs_table_expire (s_table, &ex, &out, err, sizeof err), 0);
    assert_int_equal (zs_table_read_snapshot (s_table, done.snapshot_id, &found, err, sizeof err),
                      ZS_ENOENT);
    assert_int_equal (zs_table_finished_run (s_table, "00000000feedbeef", &found, err, sizeof err),
                      1);
    assert_int_equal (found.id, -1);
    assert_string_equal (found.commit_user, USER_A);
    assert_true (found.time_millis > 0);
    assert_int_equal (zs_table_finished_run (s_table, "00000000deadbeef", &found, err, sizeof err),
                      0);
    s_assert_whole (6);
}

//  Expiry by count and age; filterCommitted still right after it; a
//  second expiry with nothing due does nothing.
static void
test_expire_snapshots (void **state)
{
    char err[ZS_ERRLEN];
    for (int i = 1; i <= 40; i++) {
        zs_file_meta_t f = s_data_file (i * 10, 2);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    //  retain-max 30 drops 1..10 whatever their age; the rest are young
    zs_expire_t req = {.retain_min = 5, .retain_max = 30, .older_than_ms = 0};
    zs_expired_t out;
    assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.begin, 1);
    assert_int_equal (out.end, 11);
    assert_int_equal (out.snapshots, 10);
    assert_int_equal (out.data_files, 0);
    assert_int_equal (s_count ("snapshot", "snapshot-"), 30);
    int64_t e = 0, l = 0;
    assert_int_equal (zs_table_snapshot_range (s_table, &e, &l, err, sizeof err), 0);
    assert_int_equal (e, 11);
    s_assert_whole (40);
    //  by age, at most max_deletes at a time, never into retain-min
    req = (zs_expire_t){
        .retain_min = 5, .retain_max = 1000, .older_than_ms = INT64_MAX, .max_deletes = 7};
    assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.end, 18);
    for (int k = 0; k < 5; k++)
        assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (zs_table_snapshot_range (s_table, &e, &l, err, sizeof err), 0);
    assert_int_equal (e, 36);
    assert_int_equal (out.end <= out.begin, true);
    s_assert_whole (40);
    //  the user's identifiers are carried: 40 is filtered, 41 commits
    zs_file_meta_t f = s_data_file (5000, 1);
    assert_int_equal (s_commit (USER_A, 40, &f, 1, NULL), ZS_EFILTERED);
    assert_int_equal (s_commit (USER_A, 41, &f, 1, NULL), 0);
    //  a dry run removes nothing
    req = (zs_expire_t){
        .retain_min = 1, .retain_max = 1, .older_than_ms = INT64_MAX, .dry_run = true};
    assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshots, 5);
    assert_int_equal (s_count ("snapshot", "snapshot-"), 6);
}

//  Another writer's snapshots on top: expiry stops below the newest one
//  zsink made (it carries every user's committed identifiers), and a
//  consumer's next snapshot stays (tags: test_tags.c).
static void
test_expire_keeps_carrier_and_consumers (void **state)
{
    char err[ZS_ERRLEN];
    for (int i = 1; i <= 5; i++) {
        zs_file_meta_t f = s_data_file (i * 10, 2);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    zs_snapshot_t s5;
    assert_int_equal (zs_table_read_snapshot (s_table, 5, &s5, err, sizeof err), 0);
    for (int id = 6; id <= 9; id++) {
        char json[1024], rel[64];
        snprintf (json, sizeof json,
                  "{\"version\":3,\"id\":%d,\"schemaId\":0,\"baseManifestList\":\"%s\","
                  "\"deltaManifestList\":\"%s\",\"commitUser\":\"paimon-java\","
                  "\"commitIdentifier\":%d,\"commitKind\":\"APPEND\",\"timeMillis\":1,"
                  "\"totalRecordCount\":10,\"deltaRecordCount\":0}",
                  id, s5.base_manifest_list, s5.delta_manifest_list, id);
        snprintf (rel, sizeof rel, "snapshot/snapshot-%d", id);
        s_write (rel, json);
    }
    zs_expire_t req = {.retain_min = 1, .retain_max = 1, .older_than_ms = INT64_MAX};
    zs_expired_t out;
    char path[512];
    snprintf (path, sizeof path, "%s/consumer", s_dir);
    mkdir (path, 0755);
    s_write ("consumer/consumer-c1", "{\"nextSnapshot\":3}");
    assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.end, 3);
    snprintf (path, sizeof path, "%s/consumer/consumer-c1", s_dir);
    unlink (path);
    assert_int_equal (zs_table_expire (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.end, 5);
    int64_t last = 0;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err), 0);
    assert_int_equal (last, 5);
}

//  A data file of rows [first, first + rows) in the partition name=<value>
//  of a table partitioned by name (the rows' own names do not matter to
//  the table): its meta with the partition's row.
static zs_file_meta_t
s_part_file (const char *dir, const zs_partition_t *part, const char *value, int64_t first,
             int64_t rows)
{
    return test_write_partition_file (dir, part, value, "test", s_file_seq++, first, rows);
}

//  A partitioned table through the table API: schema-0's keys, commits of
//  files in their partitions' directories (and refusal of one elsewhere),
//  live files keeping their partition, orphans found in a partition
//  directory, compaction within one partition, and a job of other keys
//  refused.
static void
test_partitioned_table (void **state)
{
    (void) state;
    char dir[64] = "/tmp/zsink-test-ptable-XXXXXX", err[ZS_ERRLEN], p[128];
    assert_non_null (mkdtemp (dir));
    zs_schema_t schema;
    zs_schema_default (&schema);
    assert_int_equal (zs_schema_partition_parse (&schema, "name", err, sizeof err), 0);
    zs_table_t *t = zs_table_open_job (dir, &schema, NULL, err, sizeof err);
    if (!t)
        fail_msg ("%s", err);
    const zs_partition_t *part = zs_table_partition (t);
    assert_int_equal (part->n, 1);
    snprintf (p, sizeof p, "%s/bucket-0", dir);
    struct stat st;
    assert_int_not_equal (stat (p, &st), 0); //  no top-level bucket in a partitioned table

    zs_file_meta_t f[4] = {
        s_part_file (dir, part, "a", 1, 10), s_part_file (dir, part, "a", 11, 10),
        s_part_file (dir, part, "b/c", 21, 10), s_part_file (dir, part, NULL, 31, 10)};
    assert_non_null (strstr (f[2].path, "name=b%2Fc/bucket-0/"));
    assert_non_null (strstr (f[3].path, "name=__DEFAULT_PARTITION__/bucket-0/"));
    assert_int_equal (s_commit_req (t, USER_A, 1, f, 4, false, 10, NULL, NULL, err, sizeof err), 0);
    zs_file_meta_t *live;
    size_t n;
    assert_int_equal (zs_table_live_files (t, 0, &live, &n, err, sizeof err), 0);
    assert_int_equal (n, 4);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (int k = 0; k < 4; k++)
            if (strcmp (live[i].path, f[k].path) == 0) {
                found = true;
                assert_int_equal (live[i].partition_len, f[k].partition_len);
                assert_memory_equal (live[i].partition, f[k].partition, f[k].partition_len);
            }
        assert_true (found);
    }
    free (live);

    //  a file in another partition's directory, or in none: refused
    zs_file_meta_t wrong = s_part_file (dir, part, "a", 41, 5);
    zs_file_meta_t other = s_part_file (dir, part, "b/c", 46, 5);
    memcpy (wrong.partition, other.partition, other.partition_len);
    wrong.partition_len = other.partition_len;
    assert_int_not_equal (
        s_commit_req (t, USER_A, 2, &wrong, 1, false, 10, NULL, NULL, err, sizeof err), 0);
    assert_non_null (strstr (err, "not in its partition's directory"));
    zs_file_meta_t none = other;
    none.partition_len = 0;
    assert_int_not_equal (
        s_commit_req (t, USER_A, 2, &none, 1, false, 10, NULL, NULL, err, sizeof err), 0);

    //  the two uncommitted files are orphans, found in their partitions
    char **paths = NULL;
    assert_int_equal (zs_table_orphans (t, 0, &paths, &n, err, sizeof err), 0);
    assert_int_equal (n, 2);
    for (size_t i = 0; i < n; i++) {
        assert_true (strcmp (paths[i], wrong.path) == 0 || strcmp (paths[i], other.path) == 0);
        free (paths[i]);
    }
    free (paths);
    assert_int_equal (
        s_commit_req (t, USER_A, 2, &other, 1, false, 10, NULL, NULL, err, sizeof err), 0);

    //  compaction: name=a's two files or name=b%2Fc's two, never a mix
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_table_compact_options (&cfg, USER_A, &req);
    req.min_file_num = 2;
    zs_compacted_t out;
    assert_int_equal (zs_table_compact (t, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.before, 2);
    assert_int_equal (out.after, 1);
    assert_int_equal (zs_table_live_files (t, 0, &live, &n, err, sizeof err), 0);
    assert_int_equal (n, 4);
    int outputs = 0;
    for (size_t i = 0; i < n; i++)
        if (strstr (live[i].path, "-compact-")) {
            outputs++;
            assert_true (strncmp (live[i].path, "name=a/bucket-0/", 16) == 0
                         || strncmp (live[i].path, "name=b%2Fc/bucket-0/", 20) == 0);
            assert_true (live[i].partition_len > 0);
        }
    assert_int_equal (outputs, 1);
    free (live);
    snprintf (p, sizeof p, "%s/%s", dir, wrong.path);
    assert_int_equal (unlink (p), 0);
    char *report = NULL;
    if (zs_table_verify (t, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report ? report : err);
    free (report);
    zs_table_destroy (&t);

    //  the table's keys are the job's: other keys, or none, refused
    zs_schema_t other_keys;
    zs_schema_default (&other_keys);
    assert_int_equal (zs_schema_partition_parse (&other_keys, "id", err, sizeof err), 0);
    assert_null (zs_table_open_job (dir, &other_keys, NULL, err, sizeof err));
    assert_non_null (strstr (err, "partitioned by 'name', the job by 'id'"));
    assert_null (zs_table_open_job (dir, &schema, "other", err, sizeof err));
    assert_non_null (strstr (err, "partition.default-name"));
    nftw (dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
    //  an unpartitioned table and a partitioned job
    char flat[64] = "/tmp/zsink-test-ptable-XXXXXX";
    assert_non_null (mkdtemp (flat));
    zs_schema_t plain;
    zs_schema_default (&plain);
    t = zs_table_open (flat, &plain, err, sizeof err);
    assert_non_null (t);
    zs_table_destroy (&t);
    assert_null (zs_table_open_job (flat, &schema, NULL, err, sizeof err));
    assert_non_null (strstr (err, "is not partitioned, the job is by 'name'"));
    nftw (flat, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

//  Compaction's outputs are rolled at target-file-size as written: before
//  its first row group the estimate is the rows' raw size, several times
//  what zstd makes of them, and outputs rolled on it came out small enough
//  to be picked again by the next plan, and the next (nested types' tests
//  saw 2 files compacted into 2, over and over).
static void
test_compaction_outputs_reach_the_target (void **state)
{
    char err[ZS_ERRLEN];
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_table_compact_options (&cfg, USER_A, &req);
    req.target_file_size = 64 * 1024;
    req.open_file_cost = 0; //  one task of all six inputs
    int64_t in_bytes = 0;
    for (int i = 0; i < 6; i++) {
        zs_file_meta_t f = s_data_file (1 + i * 3000, 3000);
        in_bytes += f.size;
        assert_true (f.size < req.target_file_size / 2);
        assert_int_equal (s_commit (USER_A, i + 1, &f, 1, NULL), 0);
    }
    zs_compacted_t out;
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_true (out.snapshot_id > 0);
    assert_int_equal (out.rows, 3000 * out.before);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (s_table, 0, &files, &nf, err, sizeof err), 0);
    int small = 0;
    int64_t out_bytes = 0;
    for (size_t i = 0; i < nf; i++) {
        out_bytes += files[i].size;
        small += files[i].size < (int64_t) (req.target_file_size * req.small_file_ratio);
    }
    free (files);
    //  every output but the last at the target: the next plan has at
    //  most one small file of them, no task
    if (small > 1)
        fail_msg ("%d of %zu outputs (%" PRId64 " bytes in all, inputs %" PRId64
                  ") are small files again",
                  small, nf, out_bytes, in_bytes);
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshot_id, 0);
    s_assert_whole (nf);
}

//  Compaction: Paimon's plan (min files, small files only), a COMPACT
//  snapshot with the same rows and the user's last identifier, a dropped
//  compaction when an input is gone, and a crashed one's outputs removed by
//  the user's next committer.
static void
test_compaction (void **state)
{
    char err[ZS_ERRLEN];
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_table_compact_options (&cfg, USER_A, &req);
    zs_compacted_t out;
    for (int i = 1; i <= 4; i++) {
        zs_file_meta_t f = s_data_file (i * 100, 10);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    //  4 small files: below compaction.min.file-num 5, nothing
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshot_id, 0);
    zs_file_meta_t f5 = s_data_file (500, 10);
    assert_int_equal (s_commit (USER_A, 5, &f5, 1, NULL), 0);
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshot_id, 6);
    assert_int_equal (out.before, 5);
    assert_int_equal (out.after, 1);
    assert_int_equal (out.rows, 50);
    zs_snapshot_t s6;
    assert_int_equal (zs_table_read_snapshot (s_table, 6, &s6, err, sizeof err), 0);
    assert_string_equal (s6.commit_kind, "COMPACT");
    assert_int_equal (s6.commit_identifier, 5);
    assert_int_equal (s6.total_record_count, 50);
    assert_int_equal (s6.delta_record_count, 0);
    s_assert_whole (1);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (s_table, 0, &files, &nf, err, sizeof err), 0);
    assert_int_equal (files[0].rows, 50);
    assert_int_equal (files[0].file_source, ZS_FILE_SOURCE_COMPACT);
    //  the identifiers are untouched: 5 filtered
    assert_int_equal (s_commit (USER_A, 5, &f5, 1, NULL), ZS_EFILTERED);
    //  a compacted input is never added again, not even by a new handle
    //  (its rows are live in the output)
    assert_int_equal (s_commit (USER_A, 6, &f5, 1, NULL), ZS_EDUPLICATE);
    zs_table_t *again = zs_table_open (s_dir, NULL, err, sizeof err);
    assert_non_null (again);
    assert_int_equal (zs_table_check_new_file (again, &f5, err, sizeof err), ZS_EDUPLICATE);
    zs_table_destroy (&again);
    //  a compaction of a file no longer live is dropped
    zs_file_meta_t gone = s_data_file (900, 3);
    zs_commit_t c = {.user = USER_A,
                     .identifier = 6,
                     .files = &gone,
                     .n = 1,
                     .deletes = &f5,
                     .n_deletes = 1,
                     .compact = true};
    assert_int_equal (zs_table_commit (s_table, &c, NULL, err, sizeof err), ZS_ECONFLICT);
    //  a crashed compaction's output: removed by the user's clean-up only
    char tag[9], path[512];
    zs_table_user_tag (USER_A, tag);
    snprintf (path, sizeof path, "bucket-0/data-%s-compact-x-0.parquet", tag);
    s_write (path, "left by a crash");
    s_write ("bucket-0/data-other-compact-x-0.parquet", "not ours");
    assert_true (zs_table_clean_uncommitted_manifests (s_table, USER_A, err, sizeof err) >= 1);
    assert_int_equal (s_count ("bucket-0", "-compact-x-"), 1);
    free (files);
}

//  Rollback: the table as of snapshot N, the files only later snapshots
//  added gone, refused while a committer holds its lock.
static void
test_rollback (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f[6];
    for (int i = 0; i < 6; i++) {
        f[i] = s_data_file (i * 10 + 1, 10);
        assert_int_equal (s_commit (USER_A, i + 1, &f[i], 1, NULL), 0);
    }
    zs_rolled_back_t out;
    assert_int_equal (zs_table_rollback (s_table, 9, &out, err, sizeof err), ZS_EREFUSED);
    assert_int_equal (zs_table_rollback (s_table, 4, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshots, 2);
    assert_int_equal (out.data_files, 2);
    zs_snapshot_t latest;
    assert_int_equal (zs_table_latest_snapshot (s_table, &latest, err, sizeof err), 0);
    assert_int_equal (latest.id, 4);
    s_assert_whole (4);
    //  the user's identifiers are those of snapshot 4 again
    assert_int_equal (s_commit (USER_A, 5, &f[4], 1, NULL), ZS_EMISSING);
    zs_file_meta_t g = s_data_file (500, 1);
    int64_t sid = 0;
    assert_int_equal (s_commit (USER_A, 5, &g, 1, &sid), 0);
    assert_int_equal (sid, 5);
    //  a committer's lock held: refused
    char path[512];
    snprintf (path, sizeof path, "%s/.locks", s_dir);
    mkdir (path, 0755);
    snprintf (path, sizeof path, "%s/.locks/committer-job1", s_dir);
    zs_io_lock_t *lock = NULL;
    char holder[128];
    assert_int_equal (zs_io_lock_take (path, "pid 1, job job1", 5000, 0, &lock, holder,
                                       sizeof holder, err, sizeof err),
                      0);
    pid_t pid = fork ();
    if (pid == 0) {
        zs_table_t *t = zs_table_open (s_dir, NULL, err, sizeof err);
        _exit (t && zs_table_rollback (t, 2, &out, err, sizeof err) == ZS_EREFUSED ? 0 : 1);
    }
    int status = 0;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    assert_int_equal (WEXITSTATUS (status), 0);
    zs_io_lock_release (&lock);
}

//  A compaction whose commit failed before its snapshot (here: an injected
//  error after its manifests) removes its outputs: no snapshot names them.
static void
test_compaction_failed_commit_removes_outputs (void **state)
{
    char err[ZS_ERRLEN];
    for (int i = 1; i <= 5; i++) {
        zs_file_meta_t f = s_data_file (i * 100, 10);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_table_compact_options (&cfg, USER_A, &req);
    assert_int_equal (zs_failpoint_init ("committer.after-manifest=error:1", err, sizeof err), 0);
    zs_compacted_t out;
    assert_int_not_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.snapshot_id, 0);
    assert_int_equal (s_count ("bucket-0", "-compact-"), 0);
    s_assert_whole (5);
}

//  The size-ratio rule: a file more than twice as big as all the others of
//  its task together stays out (rewriting it would copy far more than it
//  merges); once the small ones add up to half of it, it goes in.
static void
test_compaction_leaves_a_big_file_out (void **state)
{
    char err[ZS_ERRLEN];
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_table_compact_options (&cfg, USER_A, &req);
    zs_file_meta_t big = s_data_file (1, 20000);
    assert_int_equal (s_commit (USER_A, 1, &big, 1, NULL), 0);
    for (int i = 2; i <= 6; i++) {
        zs_file_meta_t f = s_data_file (100000 + i * 10, 10);
        assert_int_equal (s_commit (USER_A, i, &f, 1, NULL), 0);
    }
    zs_compacted_t out;
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.before, 5); //  the five small files, not the big one
    assert_int_equal (out.rows, 50);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (s_table, 0, &files, &nf, err, sizeof err), 0);
    assert_int_equal (nf, 2);
    bool big_live = false;
    for (size_t i = 0; i < nf; i++)
        big_live |= strcmp (files[i].path, big.path) == 0;
    assert_true (big_live);
    free (files);
    //  the others bigger than it together: all of them in one task
    zs_file_meta_t f7 = s_data_file (200000, 15000), f8 = s_data_file (300000, 15000);
    assert_int_equal (s_commit (USER_A, 7, &f7, 1, NULL), 0);
    assert_int_equal (s_commit (USER_A, 8, &f8, 1, NULL), 0);
    req.min_file_num = 2;
    assert_int_equal (zs_table_compact (s_table, &req, &out, err, sizeof err), 0);
    assert_int_equal (out.before, 4);
    assert_int_equal (out.rows, 50050);
    s_assert_whole (1);
}

//  Issue 27: compaction keeps up whatever the target size and the sizes of
//  the files. Thousands of commits are simulated on the plan alone
//  (zs_table_compact_pick; a "rewrite" adds up rows, rolled at the target,
//  a file of r rows weighing 480 + 17 r bytes, as zsink-bench-commit's
//  one-row files and their outputs do), one task after each commit as
//  zsink-bench-commit runs it. The small files (below target x 0.7) stay
//  within the bound docs/decisions.md derives: with no task left they are
//  tiers, each of fewer than compaction.min.file-num (m <= 4) files, the
//  next tier's first file more than twice the tier's bytes (so over 2m
//  times its first file), and a task always leaves fewer small files than
//  it takes; so at most 4/3 x log2(small threshold / smallest file) + 4.
//  Before the fix, a 64 KB target had 151 live files after 5,000 commits
//  and more with every commit (outputs past twice a fresh file were never
//  merged again).
enum { SIM_MAX = 4096 };
//  log2 x (x >= 1), or a little more (no libm here)
static double
s_log2 (double x)
{
    double l = 0;
    for (; x >= 2; x /= 2)
        l++;
    return l + (x - 1);
}

static int64_t
s_sim_size (int64_t rows)
{
    return 480 + 17 * rows;
}

//  commits of rows_of (i) rows each into a simulated table with this
//  target; fails when the small files pass the bound.
static void
s_simulate (int64_t target, int commits, int64_t (*rows_of) (int))
{
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    cfg.table.target_file_size = target;
    zs_table_compact_options (&cfg, USER_A, &req);
    assert_int_equal (req.min_file_num, 5);
    int64_t threshold = (int64_t) ((double) target * req.small_file_ratio);
    int64_t full_rows = (target - 480 + 16) / 17; //  an output's rows when rolled
    static zs_file_meta_t live[SIM_MAX], plan[SIM_MAX];
    size_t n = 0;
    int64_t smallest = INT64_MAX, rows = 0;
    int most = 0, named = 0;
    for (int c = 1; c <= commits; c++) {
        zs_file_meta_t f = {.rows = rows_of (c), .min_seq = c, .max_seq = c};
        f.size = s_sim_size (f.rows);
        snprintf (f.path, sizeof f.path, "bucket-0/data-%d.parquet", named++);
        smallest = f.size < smallest ? f.size : smallest;
        rows += f.rows;
        live[n++] = f;
        memcpy (plan, live, n * sizeof *live);
        size_t k = n;
        if (zs_table_compact_pick (&req, plan, &k)) {
            assert_true (k >= 2);
            int64_t in_rows = 0;
            for (size_t i = 0; i < k; i++) { //  the inputs out of live
                in_rows += plan[i].rows;
                size_t j = 0;
                while (j < n && strcmp (live[j].path, plan[i].path))
                    j++;
                assert_true (j < n);
                live[j] = live[--n];
            }
            for (size_t made = 0; in_rows > 0; made++) { //  rolled at the target
                zs_file_meta_t o = {.rows = made < k && in_rows >= full_rows ? full_rows : in_rows};
                o.size = s_sim_size (o.rows);
                snprintf (o.path, sizeof o.path, "bucket-0/data-%d.parquet", named++);
                in_rows -= o.rows;
                live[n++] = o;
            }
        }
        assert_true (n < SIM_MAX);
        int small = 0;
        for (size_t i = 0; i < n; i++)
            small += live[i].size < threshold;
        double bound = 4.0 / 3.0 * s_log2 ((double) threshold / (double) smallest) + 4;
        if (small > bound)
            fail_msg ("target %" PRId64 ": %d small files after %d commits, bound %.1f", target,
                      small, c, bound);
        most = small > most ? small : most;
        //  the others hold at least the threshold's rows each
        if ((int64_t) (n - (size_t) small) > rows / ((threshold - 480) / 17))
            fail_msg ("target %" PRId64 ": %zu large files for %" PRId64 " rows", target,
                      n - (size_t) small, rows);
    }
    assert_true (most >= 1);
}

static int64_t
s_one_row (int c)
{
    (void) c;
    return 1;
}

//  1 to 2,000 rows (497 bytes to 34 KB), a fixed pseudo-random sequence
static int64_t
s_some_rows (int c)
{
    uint32_t x = (uint32_t) c * 2654435761u;
    x ^= x >> 15;
    return 1 + (int64_t) (x % 2000);
}

//  a writer's checkpoint files: 20 rows, sometimes 20,000 (a burst)
static int64_t
s_bursts (int c)
{
    return c % 97 == 0 ? 20000 : 20;
}

static void
test_compaction_keeps_up (void **state)
{
    (void) state;
    int64_t targets[] = {64 * 1024, 8 << 20, (int64_t) 128 << 20};
    for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
        s_simulate (targets[t], 5000, s_one_row);
        s_simulate (targets[t], 5000, s_some_rows);
        s_simulate (targets[t], 5000, s_bursts);
    }
}

//  Orphans of a string list, freed; how many, and whether rel was one.
static size_t
s_orphans_have (const char *rel, bool *found)
{
    char err[ZS_ERRLEN];
    char **paths = NULL;
    size_t n = 0;
    assert_int_equal (zs_table_orphans (s_table, 0, &paths, &n, err, sizeof err), 0);
    *found = false;
    for (size_t i = 0; i < n; i++) {
        *found = *found || strcmp (paths[i], rel) == 0;
        free (paths[i]);
    }
    free (paths);
    return n;
}

//  Pins (table_pins.c): the files a pin names are never orphans; while its
//  job's committer holds its lock, nor are the job's writers' files and
//  the user's manifests; a finished user's pin is void; a pin that does not
//  parse makes orphans refuse; the clean lock excludes.
static void
test_pins (void **state)
{
    char err[ZS_ERRLEN], job8[9], rel[160];
    bool found;
    zs_file_meta_t f = s_data_file (1, 3);
    assert_int_equal (s_commit (USER_A, 1, &f, 1, NULL), 0);
    zs_file_meta_t acked = s_data_file (4, 3); //  in an acked checkpoint, not committed
    zs_job8 ("job-x", job8);
    snprintf (rel, sizeof rel, "bucket-0/data-%s-w0-a3-e1-0.parquet", job8);
    zs_file_meta_t flight = test_write_datafile (s_dir, rel, 7, 3); //  in flight
    s_write ("manifest/manifest-aaaaaaaa-ahead", "x");              //  USER_A's, written ahead
    int64_t id = 2;
    assert_int_equal (zs_table_pin (s_table, USER_A, "job-x", &acked, &id, 1, err, sizeof err), 0);

    //  the job is not running: only what the pin names is kept
    assert_int_equal (s_orphans_have (acked.path, &found), 2);
    assert_false (found);
    s_orphans_have (flight.path, &found);
    assert_true (found);
    //  its committer runs (an OFD lock on its lock file, as lock.c takes)
    char lp[512];
    snprintf (lp, sizeof lp, "%s/.locks", s_dir);
    zs_io_mkdirs (lp);
    snprintf (lp, sizeof lp, "%s/.locks/committer-job-x", s_dir);
    int lfd = open (lp, O_RDWR | O_CREAT, 0644);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    assert_int_equal (fcntl (lfd, F_OFD_SETLK, &fl), 0);
    assert_int_equal (s_orphans_have (flight.path, &found), 0);
    zs_pin_t *pins;
    size_t np;
    assert_int_equal (zs_table_pins (s_table, &pins, &np, err, sizeof err), 0);
    assert_int_equal (np, 1);
    assert_true (pins[0].running);
    assert_int_equal (pins[0].files, 1);
    free (pins);

    //  a pinned file that is gone: the pin says so (the ack must not go)
    zs_file_meta_t gone = acked;
    snprintf (gone.path, sizeof gone.path, "bucket-0/data-gone.parquet");
    assert_int_equal (zs_table_pin (s_table, USER_A, "job-x", &gone, &id, 1, err, sizeof err),
                      ZS_EMISSING);
    assert_non_null (strstr (err, "data-gone"));
    assert_int_equal (zs_table_pin (s_table, USER_A, "job-x", &acked, &id, 1, err, sizeof err), 0);

    //  a commit waits for a cleaner, and a cleaner for a commit
    zs_io_lock_t *clean = NULL, *other = NULL;
    assert_int_equal (zs_table_clean_lock (s_table, true, 0, &clean, err, sizeof err), 0);
    assert_int_equal (zs_table_clean_lock (s_table, false, 0, &other, err, sizeof err),
                      ZS_ECONFLICT);
    zs_table_clean_unlock (&clean);
    assert_int_equal (zs_table_clean_lock (s_table, false, 0, &other, err, sizeof err), 0);
    assert_int_equal (zs_table_clean_lock (s_table, true, 0, &clean, err, sizeof err),
                      ZS_ECONFLICT);
    zs_table_clean_unlock (&other);

    //  end of input committed: the user commits nothing more, its pin is void
    assert_int_equal (s_commit (USER_A, ZS_END_INPUT_ID, &acked, 1, NULL), 0);
    s_orphans_have (flight.path, &found);
    assert_true (found);
    close (lfd);

    //  a pin that does not parse: no guess
    s_write (".zsink/pins/pin-garbage", "hello\n");
    char **paths;
    size_t n;
    assert_int_equal (zs_table_orphans (s_table, 0, &paths, &n, err, sizeof err), ZS_ECORRUPT);
    assert_non_null (strstr (err, "pin-garbage"));
    char gp[512];
    snprintf (gp, sizeof gp, "%s/.zsink/pins/pin-garbage", s_dir);
    unlink (gp);
    assert_int_equal (zs_table_unpin (s_table, USER_A, err, sizeof err), 0);
    assert_int_equal (zs_table_unpin (s_table, USER_A, err, sizeof err), ZS_ENOENT);
}

int
main (void)
{
#define T(name) cmocka_unit_test_setup_teardown (name, s_setup, s_teardown)
    const struct CMUnitTest tests[] = {
        T (test_open_and_create),
        cmocka_unit_test (test_snapshot_json_round_trip),
        cmocka_unit_test (test_user_ids_keep_most_recent),
        cmocka_unit_test (test_manifest_codecs),
        cmocka_unit_test (test_manifest_partitions),
        cmocka_unit_test (test_partitioned_table),
        T (test_commit_and_filter),
        T (test_missing_file_and_bad_paths),
        T (test_two_users_interleaved),
        T (test_corrupt_latest_writes_nothing),
        T (test_racing_committers),
        T (test_conflict_retried),
        T (test_conflict_without_retries),
        T (test_conflict_won_by_ourselves_is_filtered),
        T (test_failpoints_in_commit),
        T (test_orphans),
        T (test_clean_uncommitted_manifests),
        T (test_prepared_manifests),
        T (test_crash_before_snapshot_link),
        T (test_crash_before_latest_rename),
        T (test_manifests_merged),
        T (test_latest_hint),
        T (test_verify_reports_each_problem),
        T (test_verify_duplicates_rows_orphans),
        T (test_foreign_snapshots),
        T (test_manifests_roll_at_target_size),
        T (test_manifest_merge_applies_deletes),
        T (test_expire_snapshots),
        T (test_finished_run_after_expiry),
        T (test_expire_keeps_carrier_and_consumers),
        T (test_compaction),
        T (test_compaction_outputs_reach_the_target),
        T (test_compaction_failed_commit_removes_outputs),
        T (test_compaction_leaves_a_big_file_out),
        T (test_compaction_keeps_up),
        T (test_rollback),
        T (test_pins),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
