/*  test_progress.c - the job's progress (coordinator/progress.h): a
    commit's rows are its checkpoint's (the newest at or before its
    identifier: a commit may lag, and a compaction's snapshot adds none),
    never the table's; the end of input counts the rows read; the rate is
    over the recent commits; percent and ETA only with a known input size.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "progress.h"
#include <string.h>

static void
test_rows_of_the_job (void **state)
{
    zs_progress_t *p = zs_progress_new ();
    zs_progress_view_t v;
    zs_progress_running (p, 1000);
    zs_progress_checkpoint (p, 1, 100);
    zs_progress_checkpoint (p, 2, 250);
    //  the table held 5,000 rows before: the job's are 100
    assert_true (zs_progress_committed (p, 1, 7, 5100, 0, 2000));
    zs_progress_view (p, 2000, &v);
    assert_int_equal (v.job_rows, 100);
    assert_int_equal (v.table_rows, 5100);
    assert_int_equal (v.snapshot, 7);
    //  the same snapshot again: no news
    assert_false (zs_progress_committed (p, 1, 7, 5100, 0, 2100));
    //  a compaction's snapshot of the same identifier: rows stay
    assert_true (zs_progress_committed (p, 1, 8, 5100, 0, 2200));
    zs_progress_view (p, 2200, &v);
    assert_int_equal (v.job_rows, 100);
    //  identifier 3 was never recorded: checkpoint 2's rows
    assert_true (zs_progress_committed (p, 3, 9, 5250, 0, 3000));
    zs_progress_view (p, 3000, &v);
    assert_int_equal (v.job_rows, 250);
    //  the end of input: the rows read, when more
    assert_true (zs_progress_committed (p, INT64_MAX, 10, 5300, 300, 3500));
    zs_progress_view (p, 3500, &v);
    assert_int_equal (v.job_rows, 300);
    assert_int_equal (v.identifier, INT64_MAX);
    zs_progress_destroy (&p);
    assert_null (p);
}

static void
test_rate_percent_eta (void **state)
{
    zs_progress_t *p = zs_progress_new ();
    zs_progress_view_t v;
    zs_progress_view (p, 0, &v);
    assert_true (v.rate == 0 && v.percent < 0 && v.eta_ms < 0); //  nothing known
    zs_progress_running (p, 10000);
    for (int i = 1; i <= 5; i++) { //  1,000 rows a second
        zs_progress_checkpoint (p, i, 1000 * i);
        zs_progress_committed (p, i, i, -1, 0, 10000 + 1000 * i);
    }
    zs_progress_view (p, 15000, &v);
    assert_true (v.rate > 999 && v.rate < 1001);
    assert_true (v.percent < 0 && v.eta_ms < 0); //  unbounded: rows/s only
    assert_int_equal (v.running_ms, 5000);
    zs_progress_total (p, 20000);
    zs_progress_view (p, 15000, &v);
    assert_true (v.percent > 24.9 && v.percent < 25.1);
    assert_int_equal (v.eta_ms, 15000);
    char text[96];
    assert_string_equal (zs_progress_text (&v, text, sizeof text), "1,000 rows/s, 25.0%, ETA 15 s");
    //  the window: 20 s later, only the commits of the last 10 s count
    for (int i = 6; i <= 30; i++) {
        zs_progress_checkpoint (p, i, 5000 + 100 * (i - 5));
        zs_progress_committed (p, i, i, -1, 0, 15000 + 1000 * (i - 5));
    }
    zs_progress_view (p, 40000, &v);
    assert_true (v.rate > 99 && v.rate < 101);
    zs_progress_destroy (&p);
}

static void
test_numbers (void **state)
{
    char buf[32];
    assert_string_equal (zs_progress_num (0, buf, sizeof buf), "0");
    assert_string_equal (zs_progress_num (999, buf, sizeof buf), "999");
    assert_string_equal (zs_progress_num (1000, buf, sizeof buf), "1,000");
    assert_string_equal (zs_progress_num (1234567, buf, sizeof buf), "1,234,567");
    assert_string_equal (zs_progress_num (-12345, buf, sizeof buf), "-12,345");
    assert_string_equal (zs_progress_num (1234567, buf, 4), "1,2");
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_rows_of_the_job),
        cmocka_unit_test (test_rate_percent_eta),
        cmocka_unit_test (test_numbers),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
