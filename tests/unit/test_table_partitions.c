/*  test_table_partitions.c - a partitioned table's partitions
    (table_partitions.c): the $partitions view, drop_partition's OVERWRITE
    snapshot and what a job's commits do after it, expire_partitions by
    values-time and update-time, and scan filters.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "computed_priv.h"
#include "datafiles.h"
#include "io.h"
#include "log.h"
#include "table.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define USER_A "aaaaaaaa-1111-4111-8111-111111111111"

static char s_dir[64];
static zs_table_t *s_table;
static int s_seq;

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

//  A fresh table partitioned by name (the default schema's STRING).
static int
s_setup (void **state)
{
    zs_log_set_level (ZS_LOG_ERROR); //  (expiry warns of what it cannot read)
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-tparts-XXXXXX");
    if (!mkdtemp (s_dir))
        return -1;
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    zs_schema_default (&schema);
    if (zs_schema_partition_parse (&schema, "name", err, sizeof err) != 0)
        return -1;
    s_table = zs_table_open_job (s_dir, &schema, NULL, err, sizeof err);
    return s_table ? 0 : -1;
}

static int
s_teardown (void **state)
{
    zs_table_destroy (&s_table);
    nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

//  A data file of rows [first, first + rows) in partition name=<value>.
static zs_file_meta_t
s_file (const char *value, int64_t first, int64_t rows)
{
    return test_write_partition_file (s_dir, zs_table_partition (s_table), value, "tp", s_seq++,
                                      first, rows);
}

static void
s_commit (int64_t identifier, const zs_file_meta_t *files, size_t n)
{
    char err[ZS_ERRLEN];
    zs_commit_t req = {.user = USER_A, .identifier = identifier, .files = files, .n = n};
    if (zs_table_commit (s_table, &req, NULL, err, sizeof err) != 0)
        fail_msg ("commit %lld: %s", (long long) identifier, err);
}

static int64_t
s_rows (void)
{
    zs_file_meta_t *files;
    size_t n;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_table_live_files (s_table, 0, &files, &n, err, sizeof err), 0);
    int64_t rows = 0;
    for (size_t i = 0; i < n; i++)
        rows += files[i].rows;
    free (files);
    return rows;
}

static void
test_partitions_and_drop (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f[4] = {s_file ("a", 1, 10), s_file ("a", 11, 5), s_file ("b/c", 16, 7),
                           s_file (NULL, 23, 3)};
    s_commit (1, f, 4);
    zs_partition_info_t *p;
    size_t n;
    assert_int_equal (zs_table_partitions (s_table, 0, &p, &n, err, sizeof err), 0);
    assert_int_equal (n, 3);
    //  sorted by text; values unescaped ("b/c", not its directory's b%2Fc)
    assert_string_equal (p[0].partition, "name=__DEFAULT_PARTITION__");
    assert_string_equal (p[1].partition, "name=a");
    assert_string_equal (p[2].partition, "name=b/c");
    assert_int_equal (p[1].record_count, 15);
    assert_int_equal (p[1].file_count, 2);
    assert_int_equal (p[1].file_size_in_bytes, f[0].size + f[1].size);
    assert_int_equal (p[1].last_update_ms,
                      f[0].creation_ms > f[1].creation_ms ? f[0].creation_ms : f[1].creation_ms);
    free (p);

    //  a spec naming no partition: nothing happens
    zs_dropped_t d;
    const char *none[] = {"name=a", "name=zz"};
    assert_int_equal (zs_table_drop_partitions (s_table, none, 2, &d, err, sizeof err), ZS_ENOENT);
    assert_non_null (strstr (err, "has no partition name=zz"));
    assert_int_equal (s_rows (), 25);
    const char *bad[] = {"nom=a"};
    assert_int_not_equal (zs_table_drop_partitions (s_table, bad, 1, &d, err, sizeof err), 0);
    assert_non_null (strstr (err, "'nom' names no partition key"));

    //  one OVERWRITE snapshot of DELETE entries, by a user of its own
    const char *specs[] = {"name=a", "name=__DEFAULT_PARTITION__"};
    assert_int_equal (zs_table_drop_partitions (s_table, specs, 2, &d, err, sizeof err), 0);
    assert_int_equal (d.partitions, 2);
    assert_int_equal (d.files, 3);
    assert_int_equal (d.rows, 18);
    zs_snapshot_t snap;
    assert_int_equal (zs_table_latest_snapshot (s_table, &snap, err, sizeof err), 0);
    assert_int_equal (snap.id, d.snapshot_id);
    assert_string_equal (snap.commit_kind, "OVERWRITE");
    assert_int_equal (snap.commit_identifier, ZS_END_INPUT_ID);
    assert_string_not_equal (snap.commit_user, USER_A);
    assert_int_equal (snap.delta_record_count, -18);
    assert_int_equal (snap.total_record_count, 7);
    assert_int_equal (s_rows (), 7);
    //  the data files stay (an expiry removes them)
    char path[512];
    struct stat st;
    snprintf (path, sizeof path, "%s/%s", s_dir, f[0].path);
    assert_int_equal (stat (path, &st), 0);

    //  the job goes on: its identifier is carried forward, a re-commit of
    //  identifier 1 is filtered, its next one commits (in a dropped
    //  partition too)
    int64_t last;
    assert_int_equal (zs_table_last_committed (s_table, USER_A, &last, err, sizeof err), 0);
    assert_int_equal (last, 1);
    zs_commit_t again = {.user = USER_A, .identifier = 1, .files = f, .n = 1};
    assert_int_equal (zs_table_commit (s_table, &again, NULL, err, sizeof err), ZS_EFILTERED);
    zs_file_meta_t next = s_file ("a", 100, 4);
    s_commit (2, &next, 1);
    assert_int_equal (s_rows (), 11);
    //  a dropped file never comes back: it is no new file
    zs_commit_t back = {.user = USER_A, .identifier = 3, .files = f, .n = 1};
    assert_int_equal (zs_table_commit (s_table, &back, NULL, err, sizeof err), ZS_EDUPLICATE);
    char *report = NULL;
    assert_int_equal (zs_table_verify (s_table, 0, &report, err, sizeof err), 0);
    free (report);
}

static void
test_filter (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f[3] = {s_file ("a", 1, 1), s_file ("b", 2, 1), s_file (NULL, 3, 1)};
    struct {
        const char *where;
        bool pass[3];
    } cases[] = {
        {"name = 'a'", {true, false, false}},
        {"name == a", {true, false, false}},
        {"NAME <> 'a'", {false, true, false}},
        {"name > 'a'", {false, true, false}},
        {"name <= 'b'", {true, true, false}},
        {"name IS NULL", {false, false, true}},
        {"name is not null", {true, true, false}},
        {"name >= 'a' AND name < 'b'", {true, false, false}},
        {"name = 'it''s'", {false, false, false}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zs_partition_filter_t *flt =
            zs_partition_filter_new (s_table, cases[i].where, err, sizeof err);
        if (!flt)
            fail_msg ("'%s': %s", cases[i].where, err);
        for (int k = 0; k < 3; k++)
            if (zs_partition_filter_match (flt, &f[k]) != cases[i].pass[k])
                fail_msg ("'%s' on file %d: %d", cases[i].where, k, !cases[i].pass[k]);
        zs_partition_filter_destroy (&flt);
    }
    zs_partition_filter_t *flt = zs_partition_filter_new (s_table, "name = 'b'", err, sizeof err);
    size_t n = 3;
    assert_int_equal (zs_partition_filter_files (flt, f, &n), 2);
    assert_int_equal (n, 1);
    assert_true (strstr (f[0].path, "name=b/") != NULL);
    zs_partition_filter_destroy (&flt);
    const char *bad[][2] = {
        {"id = 1", "'id' is not a partition key (the table's: name)"},
        {"name = 'a' OR name = 'b'", "expected AND"},
        {"name ~ 'a'", "expected =, !="},
        {"name = 'a", "quote is not closed"},
        {"name =", "a value is missing"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null (zs_partition_filter_new (s_table, bad[i][0], err, sizeof err));
        if (!strstr (err, bad[i][1]))
            fail_msg ("'%s': '%s' does not say '%s'", bad[i][0], err, bad[i][1]);
    }
}

//  Local wall clock of a date, as epoch ms.
static int64_t
s_ms (int64_t y, int m, int d)
{
    return zs_ldt_days (y, m, d) * 86400000;
}

static void
test_expire (void **state)
{
    char err[ZS_ERRLEN];
    zs_file_meta_t f[5] = {s_file ("2020-01-01", 1, 1), s_file ("2020-06-01 12:00:00", 2, 1),
                           s_file ("2099-01-01", 3, 1), s_file ("soon", 4, 1), s_file (NULL, 5, 1)};
    s_commit (1, f, 5);
    zs_partition_expire_t req = {
        .expiration_ms = 86400000, .now_ms = s_ms (2021, 1, 1), .max_num = 100, .dry_run = true};
    zs_partition_info_t *e;
    size_t n;
    zs_dropped_t d;
    //  values-time, the default formatter: the two 2020 ones; "soon" reads
    //  as no time and the NULL partition has none: both stay
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err), 0);
    assert_int_equal (n, 2);
    assert_string_equal (e[0].partition, "name=2020-01-01");
    assert_string_equal (e[1].partition, "name=2020-06-01 12:00:00");
    assert_int_equal (d.snapshot_id, 0);
    free (e);
    //  max_num takes the first by value; then for real
    req.max_num = 1;
    req.dry_run = false;
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err), 0);
    assert_int_equal (n, 1);
    assert_string_equal (e[0].partition, "name=2020-01-01");
    assert_true (d.snapshot_id > 0);
    assert_int_equal (s_rows (), 4);
    free (e);
    //  a formatter that does not read the values: nothing
    req.max_num = 100;
    req.formatter = "yyyyMMdd";
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err), 0);
    assert_int_equal (n, 0);
    //  a pattern around the value, and a formatter of it
    req.pattern = "$name";
    req.formatter = "yyyy-MM-dd HH:mm:ss";
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err), 0);
    assert_int_equal (n, 1);
    assert_string_equal (e[0].partition, "name=2020-06-01 12:00:00");
    free (e);
    //  update-time: the newest file's creation time (just now) against a
    //  time far ahead
    req = (zs_partition_expire_t){.expiration_ms = 1000,
                                  .strategy = "update-time",
                                  .now_ms = s_ms (2200, 1, 1),
                                  .max_num = 100};
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err), 0);
    assert_int_equal (n, 3); //  the NULL partition too: its files are old
    free (e);
    assert_int_equal (s_rows (), 0);
    //  refused: no expiration time, a strategy or formatter Paimon has not
    req.expiration_ms = 0;
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err),
                      ZS_EREFUSED);
    req.expiration_ms = 1;
    req.strategy = "oldest";
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err),
                      ZS_EREFUSED);
    req.strategy = NULL;
    req.formatter = "yyyy EEE";
    assert_int_equal (zs_table_expire_partitions (s_table, &req, &e, &n, &d, err, sizeof err),
                      ZS_EREFUSED);
    assert_non_null (strstr (err, "day-of-week"));
}

//  The formatter's parser as Java's LocalDateTime.parse reads a partition.
static void
test_pattern_parse (void **state)
{
    struct {
        const char *pattern, *text;
        int64_t y;
        int mo, d, h, mi;
    } ok[] = {
        {"yyyyMMdd", "20260104", 2026, 1, 4, 0, 0},
        {"yyyy-MM-dd HH:mm:ss", "2026-12-04 07:08:09", 2026, 12, 4, 7, 8},
        {"yyyy-MM-dd H:mm:ss", "2026-12-04 7:08:09", 2026, 12, 4, 7, 8},
        {"yyyy-MM-dd H", "2026-12-04 17", 2026, 12, 4, 17, 0},
        {"yy/M/d", "26/1/4", 2026, 1, 4, 0, 0},
        {"'day' yyyy-MM-dd", "day 2026-12-04", 2026, 12, 4, 0, 0},
    };
    char err[ZS_ERRLEN];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        zs_pattern_t p;
        zs_ldt_t t;
        assert_int_equal (zs_pattern_compile (&p, ok[i].pattern, err, sizeof err), 0);
        if (zs_pattern_parse (&p, ok[i].text, strlen (ok[i].text), &t) != 0)
            fail_msg ("'%s' with '%s' does not read", ok[i].text, ok[i].pattern);
        assert_int_equal (t.year, ok[i].y);
        assert_int_equal (t.month, ok[i].mo);
        assert_int_equal (t.day, ok[i].d);
        assert_int_equal (t.hour, ok[i].h);
        assert_int_equal (t.minute, ok[i].mi);
    }
    const char *bad[][2] = {
        {"yyyy-MM-dd HH:mm:ss", "2026-12-04 7:08:09"}, //  HH wants two digits
        {"yyyyMMdd", "2026124"},
        {"yyyyMM", "202612"}, //  no day
        {"yyyy-MM-dd", "2026-02-30"},
        {"yyyy-MM-dd", "2026-12-04 "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        zs_pattern_t p;
        zs_ldt_t t;
        assert_int_equal (zs_pattern_compile (&p, bad[i][0], err, sizeof err), 0);
        if (zs_pattern_parse (&p, bad[i][1], strlen (bad[i][1]), &t) == 0)
            fail_msg ("'%s' with '%s' read", bad[i][1], bad[i][0]);
    }
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_partitions_and_drop, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_filter, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_expire, s_setup, s_teardown),
        cmocka_unit_test (test_pattern_parse),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
