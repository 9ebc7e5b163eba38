/*  test_failpoint.c - named fail points: spec parsing, actions, K-th hit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "failpoint.h"
#include "zs.h"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int
s_teardown (void **state)
{
    //  Leave every point disarmed for the next test.
    return zs_failpoint_init ("", NULL, 0);
}

static void
test_registry_lists_required_points (void **state)
{
    static const char *required[] = {
        "writer.after-flush",
        "writer.after-committables",
        "writer.after-marker",
        "writer.after-ack",
        "committer.after-state-ack",
        "committer.before-commit",
        "committer.after-manifest",
        "committer.after-snapshot",
        "committer.mid-recommit",
        "coordinator.after-checkpoint-write",
        "coordinator.after-notify",
        "coordinator.notify",
        "fs.write",
        "fs.fsync",
        "fs.rename",
        "fs.link",
        "io.s3.after-part",
    };
    size_t n = 0;
    const zs_failpoint_info_t *list = zs_failpoint_list (&n);
    assert_true (n >= sizeof required / sizeof required[0]);
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
        bool found = false;
        for (size_t i = 0; i < n; i++)
            if (strcmp (list[i].name, required[r]) == 0) {
                found = true;
                assert_non_null (list[i].what);
                assert_true (strlen (list[i].what) > 0);
            }
        if (!found)
            fail_msg ("point %s missing from the registry", required[r]);
    }
}

static void
test_disabled_is_noop (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_failpoint_init ("", err, sizeof err), 0);
    assert_int_equal (zs_failpoint ("committer.before-commit"), 0);
    //  Invariant: nothing is counted while no point is enabled.
    assert_int_equal (zs_failpoint_hits ("committer.before-commit"), 0);
}

static void
test_parse_good_specs (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_failpoint_init ("writer.after-flush=crash", err, sizeof err), 0);
    assert_int_equal (zs_failpoint_init ("writer.after-flush=crash:3", err, sizeof err), 0);
    assert_int_equal (zs_failpoint_init ("fs.write=error, fs.fsync=error:2,coordinator.notify=drop",
                                         err, sizeof err),
                      0);
    assert_int_equal (zs_failpoint_init ("fs.rename=delay:5", err, sizeof err), 0);
    assert_int_equal (zs_failpoint_init ("fs.rename=delay:5:2", err, sizeof err), 0);
}

static void
s_expect_bad (const char *spec, const char *part)
{
    char err[ZS_ERRLEN] = "";
    if (zs_failpoint_init (spec, err, sizeof err) != -1)
        fail_msg ("spec '%s' accepted", spec);
    if (!strstr (err, part))
        fail_msg ("spec '%s': error '%s' does not name '%s'", spec, err, part);
    //  A bad spec arms nothing (not even its good items).
    assert_int_equal (zs_failpoint ("writer.after-flush"), 0);
}

static void
test_parse_bad_specs (void **state)
{
    s_expect_bad ("writer.after-flsh=crash", "writer.after-flsh");
    s_expect_bad ("writer.after-flush=error,nosuch.point=drop", "nosuch.point");
    s_expect_bad ("writer.after-flush", "writer.after-flush");
    s_expect_bad ("writer.after-flush=explode", "explode");
    s_expect_bad ("writer.after-flush=crash:0", "'0'");
    s_expect_bad ("writer.after-flush=crash:x", "'x'");
    s_expect_bad ("writer.after-flush=crash:-1", "'-1'");
    s_expect_bad ("writer.after-flush=crash:1:2", "crash:1:2");
    s_expect_bad ("writer.after-flush=delay", "delay");
    s_expect_bad ("writer.after-flush=delay:soon", "soon");
    s_expect_bad ("writer.after-flush=delay:5:0", "'0'");
    s_expect_bad ("writer.after-flush=drop,writer.after-flush=error", "twice");
}

static void
test_env_variable (void **state)
{
    char err[ZS_ERRLEN];
    setenv ("ZSINK_FAILPOINTS", "fs.link=error", 1);
    assert_int_equal (zs_failpoint_init (NULL, err, sizeof err), 0);
    assert_int_equal (zs_failpoint ("fs.link"), -1);
    setenv ("ZSINK_FAILPOINTS", "fs.lnk=error", 1);
    assert_int_equal (zs_failpoint_init (NULL, err, sizeof err), -1);
    assert_non_null (strstr (err, "fs.lnk"));
    unsetenv ("ZSINK_FAILPOINTS");
    assert_int_equal (zs_failpoint_init (NULL, err, sizeof err), 0);
    assert_int_equal (zs_failpoint ("fs.link"), 0);
}

static void
test_error_every_hit (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_failpoint_init ("fs.write=error", err, sizeof err), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal (zs_failpoint ("fs.write"), -1);
    //  Other points are untouched but counted.
    assert_int_equal (zs_failpoint ("fs.fsync"), 0);
    assert_int_equal (zs_failpoint_hits ("fs.write"), 3);
    assert_int_equal (zs_failpoint_hits ("fs.fsync"), 1);
}

static void
test_drop (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_failpoint_init ("coordinator.notify=drop", err, sizeof err), 0);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 1);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 1);
}

static void
test_kth_hit_fires_once (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_failpoint_init ("coordinator.notify=drop:3,fs.write=error:1", err, sizeof err), 0);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 0);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 0);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 1);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 0);
    assert_int_equal (zs_failpoint ("coordinator.notify"), 0);
    assert_int_equal (zs_failpoint ("fs.write"), -1);
    assert_int_equal (zs_failpoint ("fs.write"), 0);
}

static void
test_init_resets_counters (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_failpoint_init ("fs.write=error:2", err, sizeof err), 0);
    assert_int_equal (zs_failpoint ("fs.write"), 0);
    assert_int_equal (zs_failpoint_init ("fs.write=error:2", err, sizeof err), 0);
    assert_int_equal (zs_failpoint_hits ("fs.write"), 0);
    assert_int_equal (zs_failpoint ("fs.write"), 0);
    assert_int_equal (zs_failpoint ("fs.write"), -1);
}

static void
test_delay (void **state)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_failpoint_init ("fs.fsync=delay:50", err, sizeof err), 0);
    int64_t start = zs_clock_mono_ms ();
    assert_int_equal (zs_failpoint ("fs.fsync"), 0);
    assert_true (zs_clock_mono_ms () - start >= 50);

    //  With K only the K-th hit waits.
    assert_int_equal (zs_failpoint_init ("fs.fsync=delay:200:2", err, sizeof err), 0);
    start = zs_clock_mono_ms ();
    assert_int_equal (zs_failpoint ("fs.fsync"), 0);
    assert_true (zs_clock_mono_ms () - start < 200);
    assert_int_equal (zs_failpoint ("fs.fsync"), 0);
    assert_true (zs_clock_mono_ms () - start >= 200);
}

//  Run hits of point in a child; return its wait status, and what it wrote
//  to stderr in note.
static int
s_child_hits (const char *spec, const char *point, int hits, char *note, size_t len)
{
    int fds[2];
    assert_int_equal (pipe (fds), 0);
    pid_t pid = fork ();
    assert_true (pid >= 0);
    if (pid == 0) {
        close (fds[0]);
        dup2 (fds[1], STDERR_FILENO);
        char err[ZS_ERRLEN];
        if (zs_failpoint_init (spec, err, sizeof err))
            _exit (2);
        for (int i = 0; i < hits; i++)
            zs_failpoint (point);
        _exit (0);
    }
    close (fds[1]);
    size_t used = 0;
    ssize_t n;
    while (used + 1 < len && (n = read (fds[0], note + used, len - 1 - used)) > 0)
        used += (size_t) n;
    note[used] = 0;
    close (fds[0]);
    int status = 0;
    assert_int_equal (waitpid (pid, &status, 0), pid);
    return status;
}

static void
test_crash (void **state)
{
    char note[256];
    int status = s_child_hits ("committer.after-snapshot=crash", "committer.after-snapshot", 1,
                               note, sizeof note);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 137);
    assert_string_equal (note, "failpoint committer.after-snapshot: crash\n");

    //  crash:3 survives two hits and dies on the third.
    status = s_child_hits ("committer.after-snapshot=crash:3", "committer.after-snapshot", 2, note,
                           sizeof note);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 0);
    assert_string_equal (note, "");
    status = s_child_hits ("committer.after-snapshot=crash:3", "committer.after-snapshot", 3, note,
                           sizeof note);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 137);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown (test_registry_lists_required_points, s_teardown),
        cmocka_unit_test_teardown (test_disabled_is_noop, s_teardown),
        cmocka_unit_test_teardown (test_parse_good_specs, s_teardown),
        cmocka_unit_test_teardown (test_parse_bad_specs, s_teardown),
        cmocka_unit_test_teardown (test_env_variable, s_teardown),
        cmocka_unit_test_teardown (test_error_every_hit, s_teardown),
        cmocka_unit_test_teardown (test_drop, s_teardown),
        cmocka_unit_test_teardown (test_kth_hit_fires_once, s_teardown),
        cmocka_unit_test_teardown (test_init_resets_counters, s_teardown),
        cmocka_unit_test_teardown (test_delay, s_teardown),
        cmocka_unit_test_teardown (test_crash, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
