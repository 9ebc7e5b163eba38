/*  test_schema_evolution.c - a table altered by another engine (Paimon's
    SchemaManager: schema-1 renames a column, widens three, adds one):
    field-id mapping, an added column reading NULL, widening as Paimon
    casts, refusals by name; compaction, verify and a running job's
    appends on the altered table (evolve.h, table.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "datafile.h"
#include "evolve.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "parquet.h"
#include "table.h"
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USER_A "aaaaaaaa-1111-4111-8111-111111111111"
#define S0_TEXT "id BIGINT NOT NULL, name STRING, qty INT, price FLOAT, ts TIMESTAMP(3)"

static char s_dir[64];
static zs_schema_t s_s0;
static int s_seq;

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static int
s_setup (void **state)
{
    zs_log_set_level (ZS_LOG_WARN);
    char err[ZS_ERRLEN];
    if (zs_schema_parse (&s_s0, S0_TEXT, err, sizeof err) != 0)
        return -1;
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-evolve-XXXXXX");
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_teardown (void **state)
{
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

//  Row k of schema 0: id k, name "n<k>", qty 3k (and INT32_MAX for k 7),
//  price k + 0.1f, ts k seconds; name and qty NULL for k 5.
static void
s_row0 (int64_t k, zs_value_t *row, char *name)
{
    memset (row, 0, 5 * sizeof *row);
    sprintf (name, "n%lld", (long long) k);
    row[0].v.i64 = k;
    row[1].v.bin.ptr = (const uint8_t *) name;
    row[1].v.bin.len = (uint32_t) strlen (name);
    row[2].v.i32 = k == 7 ? INT32_MAX : (int32_t) (3 * k);
    row[3].v.f32 = (float) k + 0.1f;
    row[4].v.i64 = k * 1000;
    row[1].null = row[2].null = k == 5;
}

//  A data file of schema 0's rows [first, first + n), committed.
static void
s_commit_rows (zs_table_t *t, int64_t identifier, int64_t first, int64_t n)
{
    char err[ZS_ERRLEN], rel[64], name[32];
    snprintf (rel, sizeof rel, "bucket-0/data-evolve-%d.parquet", s_seq++);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w = zs_datafile_writer_new (s_dir, rel, &s_s0, &opts, err, sizeof err);
    assert_non_null (w);
    zs_value_t row[ZS_MAX_COLUMNS];
    for (int64_t k = first; k < first + n; k++) {
        s_row0 (k, row, name);
        assert_int_equal (zs_datafile_writer_append (w, row, err, sizeof err), 0);
    }
    zs_file_meta_t f;
    assert_int_equal (zs_datafile_writer_close (&w, &f, err, sizeof err), 0);
    zs_commit_t c = {.user = USER_A, .identifier = identifier, .files = &f, .n = 1};
    if (zs_table_commit (t, &c, NULL, err, sizeof err) != 0)
        fail_msg ("commit: %s", err);
}

//  schema/schema-<id> as Paimon's SchemaManager writes it: schema-0's
//  options, these fields ({id, name, type} each), highestFieldId.
static void
s_alter (int id, const char *fields, int highest)
{
    char path[256], err[ZS_ERRLEN];
    snprintf (path, sizeof path, "%s/schema/schema-0", s_dir);
    char *text = zs_io_read_file (path, 1 << 20, NULL, err, sizeof err);
    assert_non_null (text);
    json_t *root = json_loads (text, 0, NULL);
    free (text);
    json_t *f = json_loads (fields, 0, NULL);
    assert_non_null (f);
    json_object_set_new (root, "id", json_integer (id));
    json_object_set_new (root, "fields", f);
    json_object_set_new (root, "highestFieldId", json_integer (highest));
    text = json_dumps (root, JSON_INDENT (2));
    json_decref (root);
    snprintf (path, sizeof path, "%s/schema/schema-%d", s_dir, id);
    assert_int_equal (zs_io_create_exclusive (path, text, strlen (text), err, sizeof err), 0);
    free (text);
}

//  schema-1: name renamed label, qty INT -> BIGINT, price FLOAT -> DOUBLE,
//  ts TIMESTAMP(3) -> TIMESTAMP(6), note INT added (field 5).
static const char s_s1_fields[] = "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
                                  "{\"id\":1,\"name\":\"label\",\"type\":\"STRING\"},"
                                  "{\"id\":2,\"name\":\"qty\",\"type\":\"BIGINT\"},"
                                  "{\"id\":3,\"name\":\"price\",\"type\":\"DOUBLE\"},"
                                  "{\"id\":4,\"name\":\"ts\",\"type\":\"TIMESTAMP(6)\"},"
                                  "{\"id\":5,\"name\":\"note\",\"type\":\"INT\"}]";

//  A row of schema 1 is row k of schema 0 as Paimon reads it, note NULL
//  unless the row was written with schema 1 (note = k).
static void
s_assert_row1 (const zs_schema_t *s, const zs_value_t *row, bool has_note)
{
    assert_int_equal (s->n, 6);
    assert_string_equal (s->cols[1].name, "label");
    assert_int_equal (s->cols[2].type, ZS_TYPE_BIGINT);
    int64_t k = row[0].v.i64;
    char name[32];
    zs_value_t want[5];
    s_row0 (k, want, name);
    assert_int_equal (row[1].null, want[1].null);
    if (!row[1].null)
        assert_memory_equal (row[1].v.bin.ptr, name, strlen (name));
    assert_int_equal (row[2].null, want[2].null);
    if (!row[2].null)
        assert_true (row[2].v.i64 == (int64_t) want[2].v.i32);
    assert_false (row[3].null);
    assert_true (row[3].v.f64 == (double) want[3].v.f32);
    assert_true (row[4].v.i64 == k * 1000 * 1000);
    assert_int_equal (row[5].null, !has_note);
}

static void
s_load (zs_schemas_t *all)
{
    char err[ZS_ERRLEN];
    if (zs_schemas_load (all, s_dir, err, sizeof err) != 0)
        fail_msg ("load: %s", err);
}

//  --------------------------------------------------------------------------

//  The mapping alone: by field id, the added column NULL, the widenings.
static void
test_mapping (void **state)
{
    char err[ZS_ERRLEN];
    zs_table_t *t = zs_table_open (s_dir, &s_s0, err, sizeof err);
    assert_non_null (t);
    zs_table_destroy (&t);
    s_alter (1, s_s1_fields, 5);
    //  schema-2 drops label and puts note first: positions mean nothing
    s_alter (2,
             "[{\"id\":5,\"name\":\"note\",\"type\":\"INT\"},"
             "{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
             "{\"id\":3,\"name\":\"cost\",\"type\":\"DOUBLE\"}]",
             5);
    zs_schemas_t all;
    s_load (&all);
    assert_int_equal (all.n, 3);
    assert_int_equal (all.s[1].field_id[5], 5);
    assert_int_equal (all.s[1].highest_field_id, 5);
    zs_evolve_t plan;
    assert_int_equal (zs_evolve_plan (&all.s[0], &all.s[1], &plan, err, sizeof err), 0);
    assert_false (plan.identity);
    int want_src[] = {0, 1, 2, 3, 4, -1};
    for (int i = 0; i < 6; i++)
        assert_int_equal (plan.src[i], want_src[i]);
    zs_value_t in[5], out[6];
    char name[32];
    for (int64_t k = 1; k <= 7; k++) {
        s_row0 (k, in, name);
        zs_evolve_row (&plan, in, out);
        s_assert_row1 (&all.s[1].row, out, false);
    }
    //  INT32_MAX to BIGINT, FLOAT 7.1f to the DOUBLE 7.099999904632568
    assert_true (out[2].v.i64 == INT32_MAX);
    assert_true (out[3].v.f64 == (double) 7.1f && out[3].v.f64 != 7.1);
    assert_int_equal (zs_evolve_plan (&all.s[0], &all.s[2], &plan, err, sizeof err), 0);
    assert_int_equal (plan.src[0], -1);
    assert_int_equal (plan.src[1], 0);
    assert_int_equal (plan.src[2], 3);
    assert_int_equal (zs_evolve_plan (&all.s[1], &all.s[2], &plan, err, sizeof err), 0);
    assert_int_equal (plan.src[0], 5);
    assert_int_equal (zs_schemas_check (&all, err, sizeof err), 0);
    //  the history `zsink table schema` shows
    zs_schema_change_t ch[16];
    assert_int_equal (zs_evolve_changes (&all.s[0], &all.s[1], ch, 16), 5);
    assert_string_equal (ch[0].what, "renamed");
    assert_string_equal (ch[0].text, "name -> label");
    assert_string_equal (ch[1].text, "qty INT -> BIGINT");
    assert_string_equal (ch[3].text, "ts TIMESTAMP(3) -> TIMESTAMP(6)");
    assert_string_equal (ch[4].what, "added");
    assert_string_equal (ch[4].text, "note INT");
    assert_int_equal (ch[4].field_id, 5);
    assert_int_equal (zs_evolve_changes (&all.s[1], &all.s[2], ch, 16), 4);
    assert_string_equal (ch[0].what, "renamed");
    assert_string_equal (ch[0].text, "price -> cost");
    assert_string_equal (ch[1].what, "dropped");
    assert_string_equal (ch[1].text, "label");
    //  the same schema: identity
    assert_int_equal (zs_evolve_plan (&all.s[1], &all.s[1], &plan, err, sizeof err), 0);
    assert_true (plan.identity);
    zs_schemas_free (&all);
}

//  What zsink cannot honour is refused, naming the column and both ids.
//  Nested columns: only NOT NULL -> nullable at the top; a change inside
//  (a leaf's type, a field's name or nullability) is refused by name.
static void
test_nested_plans (void **state)
{
    static const struct {
        const char *a, *b;
        bool ok;
    } cases[] = {
        {"r ROW<a INT, b ARRAY<STRING>>", "r ROW<a INT, b ARRAY<STRING>>", true},
        {"r ROW<a INT> NOT NULL", "r ROW<a INT>", true},
        {"r ROW<a INT>", "r ROW<a BIGINT>", false},
        {"r ROW<a INT>", "r ROW<x INT>", false},
        {"r ROW<a INT>", "r ROW<a INT NOT NULL>", false},
        {"m MAP<STRING, INT>", "m MAP<STRING, ARRAY<INT>>", false},
        {"x ARRAY<INT>", "x INT", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zs_table_schema_t a = {0}, b = {0};
        char err[ZS_ERRLEN] = "";
        assert_int_equal (zs_schema_parse (&a.row, cases[i].a, err, sizeof err), 0);
        assert_int_equal (zs_schema_parse (&b.row, cases[i].b, err, sizeof err), 0);
        b.id = 1;
        zs_evolve_t plan;
        int rc = zs_evolve_plan (&a, &b, &plan, err, sizeof err);
        if ((rc == 0) != cases[i].ok)
            fail_msg ("%s -> %s: rc %d (%s)", cases[i].a, cases[i].b, rc, err);
        if (rc != 0)
            assert_non_null (strstr (err, "cannot convert"));
    }
}

static void
test_refusals (void **state)
{
    char err[ZS_ERRLEN];
    static const struct {
        zs_type_t a;
        bool an;
        zs_type_t b;
        bool bn;
        bool ok;
    } casts[] = {
        {ZS_TYPE_INT, true, ZS_TYPE_BIGINT, true, true},
        {ZS_TYPE_INT, false, ZS_TYPE_DOUBLE, true, true},
        {ZS_TYPE_BIGINT, true, ZS_TYPE_FLOAT, true, true},
        {ZS_TYPE_FLOAT, true, ZS_TYPE_DOUBLE, true, true},
        {ZS_TYPE_TIMESTAMP3, true, ZS_TYPE_TIMESTAMP6, true, true},
        {ZS_TYPE_BIGINT, true, ZS_TYPE_INT, true, false},   //  narrowing
        {ZS_TYPE_DOUBLE, true, ZS_TYPE_FLOAT, true, false}, //  narrowing
        {ZS_TYPE_TIMESTAMP6, true, ZS_TYPE_TIMESTAMP3, true, false},
        {ZS_TYPE_INT, true, ZS_TYPE_STRING, true, false}, //  Paimon's CAST to text
        {ZS_TYPE_STRING, true, ZS_TYPE_BYTES, true, false},
        {ZS_TYPE_DATE, true, ZS_TYPE_TIMESTAMP3, true, false},
        {ZS_TYPE_INT, true, ZS_TYPE_INT, false, false}, //  nullable to NOT NULL
    };
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
        assert_int_equal (zs_evolve_casts (casts[i].a, casts[i].an, casts[i].b, casts[i].bn),
                          casts[i].ok);
    zs_table_t *t = zs_table_open (s_dir, &s_s0, err, sizeof err);
    assert_non_null (t);
    zs_table_destroy (&t);
    //  schema-1: qty INT -> STRING; schema-2 adds a NOT NULL column
    s_alter (1,
             "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
             "{\"id\":2,\"name\":\"qty\",\"type\":\"STRING\"}]",
             4);
    zs_schemas_t all;
    s_load (&all);
    zs_evolve_t plan;
    assert_int_equal (zs_evolve_plan (&all.s[0], &all.s[1], &plan, err, sizeof err), -1);
    assert_non_null (strstr (err, "column 'qty' (field 2): schema 0 has INT, schema 1 has STRING"));
    assert_int_equal (zs_schemas_check (&all, err, sizeof err), -1);
    assert_non_null (strstr (err, "'qty'"));
    zs_schemas_free (&all);
    s_alter (2,
             "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
             "{\"id\":5,\"name\":\"must\",\"type\":\"INT NOT NULL\"}]",
             5);
    s_load (&all);
    assert_int_equal (zs_evolve_plan (&all.s[0], &all.s[2], &plan, err, sizeof err), -1);
    assert_non_null (strstr (err, "column 'must' (field 5)"));
    zs_schemas_free (&all);
    //  schema-3 adds a type zsink does not read: a new job is refused,
    //  naming the schema file and the column
    s_alter (3,
             "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
             "{\"id\":6,\"name\":\"amount\",\"type\":\"DECIMAL(40, 2)\"}]",
             6);
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    snprintf (cfg.table_path, sizeof cfg.table_path, "%s", s_dir);
    assert_int_equal (zs_table_prepare_job (&cfg, err, sizeof err), -1);
    assert_non_null (strstr (err, "schema-3"));
    assert_non_null (strstr (err, "'amount': precision 40 out of range 1..38"));
}

//  The table altered between two commits of a job: compaction rewrites
//  the old files by their own schema into the latest (pre-fix: positional,
//  qty's INT bits read as BIGINT, note whatever the row array held),
//  verify checks each against its own, the job's appends keep its schema
//  id, every scan reads the evolved rows, and a new job is refused a
//  change zsink cannot convert before anything is written.
static void
test_table_altered (void **state)
{
    char err[ZS_ERRLEN];
    zs_table_t *job = zs_table_open (s_dir, &s_s0, err, sizeof err);
    assert_non_null (job);
    for (int i = 0; i < 3; i++)
        s_commit_rows (job, i + 1, i * 4 + 1, 4);
    s_alter (1, s_s1_fields, 5);
    //  the running job's committer (re)opened after the change: its rows
    //  are schema 0's and keep that id
    zs_table_t *again = zs_table_open (s_dir, &s_s0, err, sizeof err);
    if (!again)
        fail_msg ("a running job's table: %s", err);
    zs_table_destroy (&again);
    s_commit_rows (job, 4, 13, 2);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (job, 0, &files, &nf, err, sizeof err), 0);
    assert_int_equal (nf, 4);
    for (size_t i = 0; i < nf; i++)
        assert_int_equal (files[i].schema_id, 0);
    free (files);
    //  the job's compaction (its table opened before the change)
    zs_compact_t req;
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    zs_table_compact_options (&cfg, USER_A, &req);
    req.min_file_num = 2;
    zs_compacted_t out;
    if (zs_table_compact (job, &req, &out, err, sizeof err) != 0)
        fail_msg ("compact: %s", err);
    assert_int_equal (out.before, 4);
    assert_int_equal (out.after, 1);
    assert_int_equal (zs_table_live_files (job, 0, &files, &nf, err, sizeof err), 0);
    assert_int_equal (nf, 1);
    assert_int_equal (files[0].schema_id, 1);
    assert_int_equal (files[0].rows, 14);
    char path[512];
    snprintf (path, sizeof path, "%s/%s", s_dir, files[0].path);
    zs_parquet_reader_t *pq = zs_parquet_reader_open (path, err, sizeof err);
    assert_non_null (pq);
    zs_value_t row[ZS_MAX_COLUMNS];
    int64_t rows = 0;
    while (zs_parquet_reader_next (pq, row, err, sizeof err) == 1) {
        s_assert_row1 (zs_parquet_reader_schema (pq), row, false);
        rows++;
    }
    assert_int_equal (rows, 14);
    zs_parquet_reader_destroy (&pq);
    zs_snapshot_t snap;
    assert_int_equal (zs_table_latest_snapshot (job, &snap, err, sizeof err), 0);
    assert_int_equal (snap.schema_id, 1);
    free (files);
    zs_table_destroy (&job);
    //  a reader: every file by its own schema as the latest; verify clean
    zs_table_t *t = zs_table_open (s_dir, NULL, err, sizeof err);
    assert_non_null (t);
    char *report = NULL;
    if (zs_table_verify (t, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify: %s", report);
    free (report);
    zs_table_destroy (&t);
    //  a new job takes the latest schema; one giving schema 0 is refused
    zs_config_defaults (&cfg);
    snprintf (cfg.table_path, sizeof cfg.table_path, "%s", s_dir);
    assert_int_equal (zs_table_prepare_job (&cfg, err, sizeof err), 0);
    assert_int_equal (cfg.schema.n, 6);
    zs_config_defaults (&cfg);
    snprintf (cfg.table_path, sizeof cfg.table_path, "%s", s_dir);
    cfg.schema = s_s0;
    cfg.schema_set = true;
    assert_int_equal (zs_table_prepare_job (&cfg, err, sizeof err), -1);
    assert_non_null (strstr (err, "another schema"));
    //  schema-2: qty BIGINT -> INT, which zsink cannot convert: a new job
    //  is refused by name, and nothing is written
    s_alter (2,
             "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
             "{\"id\":2,\"name\":\"qty\",\"type\":\"INT\"}]",
             5);
    zs_config_defaults (&cfg);
    snprintf (cfg.table_path, sizeof cfg.table_path, "%s", s_dir);
    assert_int_equal (zs_table_prepare_job (&cfg, err, sizeof err), -1);
    assert_non_null (strstr (err, "column 'qty' (field 2): schema 1 has BIGINT, schema 2 has INT"));
    //  a reader names the file, the column and the schemas
    t = zs_table_open (s_dir, NULL, err, sizeof err);
    assert_non_null (t);
    assert_int_equal (zs_table_live_files (t, 0, &files, &nf, err, sizeof err), 0);
    zs_evolved_reader_t *r = zs_table_read_file (t, &files[0], -1, err, sizeof err);
    assert_null (r);
    assert_non_null (strstr (err, "column 'qty'"));
    free (files);
    zs_table_destroy (&t);
}

//  zs_table_read_file: old files and new ones (written with schema 1,
//  note set) read alike as the latest.
static void
test_read_mixed (void **state)
{
    char err[ZS_ERRLEN], name[32];
    zs_table_t *job = zs_table_open (s_dir, &s_s0, err, sizeof err);
    assert_non_null (job);
    s_commit_rows (job, 1, 1, 7);
    zs_table_destroy (&job);
    s_alter (1, s_s1_fields, 5);
    zs_schemas_t all;
    s_load (&all);
    job = zs_table_open (s_dir, &all.s[1].row, err, sizeof err);
    assert_non_null (job);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w = zs_datafile_writer_new (s_dir, "bucket-0/data-new.parquet",
                                                      &all.s[1].row, &opts, err, sizeof err);
    assert_non_null (w);
    zs_value_t in[5], row[ZS_MAX_COLUMNS];
    for (int64_t k = 8; k <= 9; k++) {
        s_row0 (k, in, name);
        zs_evolve_t plan;
        assert_int_equal (zs_evolve_plan (&all.s[0], &all.s[1], &plan, err, sizeof err), 0);
        zs_evolve_row (&plan, in, row);
        row[5] = (zs_value_t){.v.i32 = (int32_t) k};
        assert_int_equal (zs_datafile_writer_append (w, row, err, sizeof err), 0);
    }
    zs_file_meta_t f;
    assert_int_equal (zs_datafile_writer_close (&w, &f, err, sizeof err), 0);
    zs_commit_t c = {.user = USER_A, .identifier = 2, .files = &f, .n = 1};
    assert_int_equal (zs_table_commit (job, &c, NULL, err, sizeof err), 0);
    //  a restored checkpoint's file, written before the change by a job of
    //  schema 0, committed by a job of schema 1: its footer says schema 0
    s_commit_rows (job, 3, 10, 2);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (job, 0, &files, &nf, err, sizeof err), 0);
    assert_int_equal (nf, 3);
    assert_int_equal (files[2].schema_id, 0);
    nf = 2;
    int64_t seen = 0;
    for (size_t i = 0; i < nf; i++) {
        assert_int_equal (files[i].schema_id, (int64_t) i);
        zs_evolved_reader_t *r = zs_table_read_file (job, &files[i], -1, err, sizeof err);
        if (!r)
            fail_msg ("read: %s", err);
        while (zs_evolved_reader_next (r, row, err, sizeof err) == 1) {
            s_assert_row1 (&all.s[1].row, row, i == 1);
            if (i == 1)
                assert_int_equal (row[5].v.i32, row[0].v.i64);
            seen++;
        }
        zs_evolved_reader_destroy (&r);
    }
    assert_int_equal (seen, 9);
    free (files);
    zs_schemas_free (&all);
    zs_table_destroy (&job);
}

//  verify checks each live file against its own schema: a file recorded
//  under schema 1 whose columns are schema 0's is a problem (pre-fix:
//  "OK", and every reader read it as something else).
static void
test_verify_own_schema (void **state)
{
    char err[ZS_ERRLEN];
    zs_table_t *job = zs_table_open (s_dir, &s_s0, err, sizeof err);
    assert_non_null (job);
    s_commit_rows (job, 1, 1, 3);
    s_alter (1, s_s1_fields, 5);
    zs_file_meta_t *files = NULL;
    size_t nf = 0;
    assert_int_equal (zs_table_live_files (job, 0, &files, &nf, err, sizeof err), 0);
    char *report = NULL;
    if (zs_table_verify (job, 0, &report, err, sizeof err) != 0)
        fail_msg ("verify of a file of schema 0: %s", report);
    free (report);
    //  the same rows recorded under schema 1 (a compaction keeps the ids
    //  it is given)
    s_commit_rows (job, 2, 10, 3);
    zs_file_meta_t *all = NULL;
    size_t na = 0;
    assert_int_equal (zs_table_live_files (job, 0, &all, &na, err, sizeof err), 0);
    assert_int_equal (na, 2);
    zs_file_meta_t wrong = all[1];
    wrong.schema_id = 1;
    zs_commit_t c = {.user = USER_A,
                     .identifier = 3,
                     .files = &wrong,
                     .n = 1,
                     .deletes = &all[1],
                     .n_deletes = 1,
                     .compact = true};
    assert_int_equal (zs_table_commit (job, &c, NULL, err, sizeof err), ZS_EDUPLICATE);
    //  (a path already live is refused; a copy under another name)
    char from[512], to[512];
    snprintf (from, sizeof from, "%s/%s", s_dir, all[1].path);
    snprintf (wrong.path, sizeof wrong.path, "bucket-0/data-evolve-copy.parquet");
    snprintf (to, sizeof to, "%s/%s", s_dir, wrong.path);
    assert_int_equal (link (from, to), 0);
    assert_int_equal (zs_table_commit (job, &c, NULL, err, sizeof err), 0);
    assert_int_equal (zs_table_verify (job, 0, &report, err, sizeof err), -1);
    assert_non_null (strstr (report, "data-evolve-copy.parquet: schema 1"));
    assert_non_null (strstr (report, "no column 'label'"));
    free (report);
    free (all);
    free (files);
    zs_table_destroy (&job);
}

//  The widenings of the types of issue 25, and the rescaling of a DECIMAL.
static void
test_paimon_type_casts (void **state)
{
    static const struct {
        const char *a, *b;
        bool ok;
    } casts[] = {
        {"TINYINT", "SMALLINT", true},
        {"TINYINT", "BIGINT", true},
        {"SMALLINT", "DOUBLE", true},
        {"SMALLINT", "TINYINT", false},
        {"INT", "SMALLINT", false},
        {"DECIMAL(10, 2)", "DECIMAL(12, 2)", true},
        {"DECIMAL(10, 2)", "DECIMAL(12, 4)", true},
        {"DECIMAL(10, 2)", "DECIMAL(11, 3)", true},
        {"DECIMAL(10, 2)", "DECIMAL(10, 3)", false}, //  one integer digit fewer
        {"DECIMAL(10, 2)", "DECIMAL(12, 1)", false}, //  a digit of the scale lost
        {"VARCHAR(5)", "VARCHAR(10)", true},
        {"CHAR(5)", "STRING", true},
        {"VARCHAR(10)", "VARCHAR(5)", false},
        {"CHAR(5)", "CHAR(6)", false},
        {"VARBINARY(4)", "BYTES", true},
        {"BINARY(4)", "VARBINARY(3)", false},
        {"STRING", "BYTES", false},
        {"TIMESTAMP(0)", "TIMESTAMP(3)", true},
        {"TIMESTAMP(3)", "TIMESTAMP(9)", true},
        {"TIMESTAMP(6)", "TIMESTAMP(9)", true},
        {"TIMESTAMP(9)", "TIMESTAMP(6)", false},
        {"TIMESTAMP(3)", "TIMESTAMP_LTZ(3)", false},
        {"TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(6)", true},
        {"TIME(0)", "TIME(3)", true},
    };
    char err[ZS_ERRLEN], text[128];
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++) {
        zs_schema_t s;
        snprintf (text, sizeof text, "a %s, b %s", casts[i].a, casts[i].b);
        assert_int_equal (zs_schema_parse (&s, text, err, sizeof err), 0);
        if (zs_evolve_casts_col (&s.cols[0], &s.cols[1]) != casts[i].ok)
            fail_msg ("%s -> %s: want %s", casts[i].a, casts[i].b, casts[i].ok ? "yes" : "no");
    }
    //  a row through a plan: DECIMAL(10, 2) -> DECIMAL(12, 4), TINYINT ->
    //  BIGINT, TIMESTAMP(3) -> TIMESTAMP(9)
    zs_table_schema_t from, to;
    memset (&from, 0, sizeof from);
    memset (&to, 0, sizeof to);
    assert_int_equal (zs_schema_parse (&from.row, "d DECIMAL(10, 2), t TINYINT, ts TIMESTAMP(3)",
                                       err, sizeof err),
                      0);
    assert_int_equal (
        zs_schema_parse (&to.row, "d DECIMAL(12, 4), t BIGINT, ts TIMESTAMP(9)", err, sizeof err),
        0);
    for (int i = 0; i < 3; i++)
        from.field_id[i] = to.field_id[i] = i;
    to.id = 1;
    zs_evolve_t plan;
    assert_int_equal (zs_evolve_plan (&from, &to, &plan, err, sizeof err), 0);
    assert_false (plan.identity);
    zs_value_t in[3], out[3];
    memset (in, 0, sizeof in);
    zs_dec_set (&in[0], -12345); //  -123.45
    in[1].v.i32 = -7;
    in[2].v.i64 = -1;
    zs_evolve_row (&plan, in, out);
    assert_true (zs_dec_get (&out[0]) == -1234500);
    assert_int_equal (out[1].v.i64, -7);
    assert_int_equal (out[2].v.i64, -1000000);
    //  a narrowing names both types in Paimon's spelling
    assert_int_equal (zs_evolve_plan (&to, &from, &plan, err, sizeof err), -1);
    assert_non_null (strstr (err, "schema 1 has DECIMAL(12, 4), schema 0 has DECIMAL(10, 2)"));
}

//  A primary-key table (Paimon's primaryKeys; its files hold _KEY_<k>,
//  _SEQUENCE_NUMBER and _VALUE_KIND beside the columns, and its rows are
//  those files merged by key): its keys read, and a reader and a job
//  refused with one sentence, before any data file is opened (pre-fix a
//  scan failed on the first file: "not a file of schema 0: 5 columns, its
//  schema 0 has 2"). A file with key columns in a table whose schema has
//  none says the same.
static void
test_primary_key_table (void **state)
{
    char err[ZS_ERRLEN], path[256], want[512];
    char *json = zs_schema_to_json (&s_s0, 1);
    json_t *root = json_loads (json, 0, NULL);
    free (json);
    json_object_set_new (root, "primaryKeys", json_pack ("[s, s]", "name", "id"));
    json = json_dumps (root, JSON_INDENT (2));
    json_decref (root);
    snprintf (path, sizeof path, "%s/schema", s_dir);
    assert_int_equal (mkdir (path, 0755), 0);
    snprintf (path, sizeof path, "%s/schema/schema-0", s_dir);
    assert_int_equal (zs_io_create_exclusive (path, json, strlen (json), err, sizeof err), 0);
    free (json);
    //  its metadata reads (`zsink table schema` shows the keys)
    zs_table_t *t = zs_table_open (s_dir, NULL, err, sizeof err);
    assert_non_null (t);
    const zs_table_schema_t *s = zs_table_schema_file (t);
    assert_int_equal (s->n_primary_keys, 2);
    assert_int_equal (s->primary_key[0], 1);
    assert_int_equal (s->primary_key[1], 0);
    //  its rows do not: the file is not there, and not opened
    zs_file_meta_t f = {.schema_id = 0, .rows = 1};
    snprintf (f.path, sizeof f.path, "bucket-0/data-pk.parquet");
    assert_null (zs_table_read_file (t, &f, -1, err, sizeof err));
    snprintf (want, sizeof want, "%s is a primary-key table (primary key name,id): %s", s_dir,
              ZS_SCHEMA_APPEND_TABLES);
    assert_string_equal (err, want);
    zs_table_destroy (&t);
    //  a job, with the table's schema or its own: the same sentence, and
    //  nothing written
    snprintf (want, sizeof want,
              "zsink cannot write table %s: it is a primary-key table (primary key name,id): %s",
              s_dir, ZS_SCHEMA_APPEND_TABLES);
    zs_config_t cfg;
    zs_config_defaults (&cfg);
    snprintf (cfg.table_path, sizeof cfg.table_path, "%s", s_dir);
    assert_int_equal (zs_table_prepare_job (&cfg, err, sizeof err), -1);
    assert_string_equal (err, want);
    assert_null (zs_table_open (s_dir, &s_s0, err, sizeof err));
    assert_string_equal (err, want);
    zs_config_defaults (&cfg);
    snprintf (cfg.table_path, sizeof cfg.table_path, "%s", s_dir);
    assert_int_equal (
        zs_schema_parse (&cfg.schema, "id BIGINT NOT NULL, other INT", err, sizeof err), 0);
    cfg.schema_set = true;
    assert_int_equal (zs_table_prepare_job (&cfg, err, sizeof err), -1);
    assert_string_equal (err, want);
    struct stat st;
    snprintf (path, sizeof path, "%s/snapshot", s_dir);
    assert_int_equal (stat (path, &st), -1);
    //  key columns in a file of a table without keys
    zs_schema_t pq;
    zs_table_schema_t plain;
    memset (&plain, 0, sizeof plain);
    assert_int_equal (zs_schema_parse (&pq,
                                       "_KEY_id BIGINT NOT NULL, _SEQUENCE_NUMBER BIGINT NOT NULL, "
                                       "_VALUE_KIND TINYINT NOT NULL, id BIGINT NOT NULL, name "
                                       "STRING",
                                       err, sizeof err),
                      0);
    assert_int_equal (
        zs_schema_parse (&plain.row, "id BIGINT NOT NULL, name STRING", err, sizeof err), 0);
    assert_int_equal (zs_evolve_check_file (&pq, &plain, NULL, err, sizeof err), -1);
    assert_string_equal (
        err, "column 1 '_KEY_id' is a primary-key table's key column: " ZS_SCHEMA_APPEND_TABLES);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_mapping, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_refusals, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_table_altered, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_read_mixed, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_verify_own_schema, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_primary_key_table, s_setup, s_teardown),
        cmocka_unit_test (test_paimon_type_casts),
        cmocka_unit_test (test_nested_plans),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
