/*  test_fs.c - the file-I/O layer: atomic write, create-if-absent (also
    raced by processes), whole-file reads, the streaming writer, and the
    fs.* fail points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "failpoint.h"
#include "fs.h"
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char s_dir[64];

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static int
s_setup (void **state)
{
    snprintf (s_dir, sizeof s_dir, "/tmp/zsink-test-fs-XXXXXX");
    return mkdtemp (s_dir) ? 0 : -1;
}

static int
s_teardown (void **state)
{
    zs_failpoint_init ("", NULL, 0);
    return nftw (s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void
s_join (char *buf, size_t len, const char *rel)
{
    snprintf (buf, len, "%s/%s", s_dir, rel);
}

//  Number of entries in the scratch dir whose name contains needle.
static int
s_count_named (const char *needle)
{
    DIR *d = opendir (s_dir);
    int n = 0;
    struct dirent *de;
    while ((de = readdir (d)))
        n += strstr (de->d_name, needle) != NULL;
    closedir (d);
    return n;
}

static void
test_mkdirs (void **state)
{
    char p[512];
    s_join (p, sizeof p, "a/b/c");
    assert_int_equal (zs_fs_mkdirs (p), 0);
    assert_int_equal (zs_fs_mkdirs (p), 0); //  existing is fine
    s_join (p, sizeof p, "a/b/file");
    char err[ZS_ERRLEN];
    assert_int_equal (zs_fs_write_atomic (p, "x", 1, err, sizeof err), 0);
    s_join (p, sizeof p, "a/b/file/sub");
    assert_int_equal (zs_fs_mkdirs (p), -1); //  a file is in the way
    s_join (p, sizeof p, "a/b");
    assert_int_equal (zs_fs_fsync_dir (p), 0);
}

static void
test_write_atomic_replaces_and_leaves_no_temp (void **state)
{
    char p[512], err[ZS_ERRLEN];
    s_join (p, sizeof p, "f");
    assert_int_equal (zs_fs_write_atomic (p, "first", 5, err, sizeof err), 0);
    assert_int_equal (zs_fs_write_atomic (p, "second!", 7, err, sizeof err), 0);
    size_t len;
    char *text = zs_fs_read_file (p, 1024, &len, err, sizeof err);
    assert_non_null (text);
    assert_int_equal (len, 7);
    assert_string_equal (text, "second!");
    free (text);
    assert_int_equal (zs_fs_file_size (p), 7);
    assert_int_equal (s_count_named (".tmp-"), 0);
}

static void
test_create_exclusive_never_overwrites (void **state)
{
    char p[512], err[ZS_ERRLEN];
    s_join (p, sizeof p, "snap");
    assert_int_equal (zs_fs_create_exclusive (p, "winner", 6, err, sizeof err), 0);
    assert_int_equal (zs_fs_create_exclusive (p, "loser", 5, err, sizeof err), ZS_ECONFLICT);
    char *text = zs_fs_read_file (p, 1024, NULL, err, sizeof err);
    assert_string_equal (text, "winner");
    free (text);
    assert_int_equal (s_count_named (".tmp-"), 0);
}

//  Many processes race for one name, released at once through a pipe:
//  exactly one wins, all others see ZS_ECONFLICT, the file holds the
//  complete content of the winner.
static void
test_create_exclusive_raced_by_processes (void **state)
{
    enum { N = 8, SIZE = 64 * 1024 };
    for (int round = 0; round < 10; round++) {
        char p[512];
        snprintf (p, sizeof p, "%s/race-%d", s_dir, round);
        int gate[2];
        assert_int_equal (pipe (gate), 0);
        pid_t pids[N];
        for (int i = 0; i < N; i++) {
            pids[i] = fork ();
            assert_true (pids[i] >= 0);
            if (pids[i] == 0) {
                close (gate[1]);
                char c;
                if (read (gate[0], &c, 1) != 0)
                    _exit (99);
                static char data[SIZE];
                memset (data, 'A' + i, sizeof data);
                char err[ZS_ERRLEN];
                int rc = zs_fs_create_exclusive (p, data, sizeof data, err, sizeof err);
                _exit (rc == 0 ? 0 : rc == ZS_ECONFLICT ? 1 : 2);
            }
        }
        close (gate[0]);
        close (gate[1]); //  EOF releases every child at once
        int winners = 0, losers = 0, winner = -1;
        for (int i = 0; i < N; i++) {
            int status;
            assert_int_equal (waitpid (pids[i], &status, 0), pids[i]);
            assert_true (WIFEXITED (status));
            if (WEXITSTATUS (status) == 0) {
                winners++;
                winner = i;
            } else if (WEXITSTATUS (status) == 1)
                losers++;
        }
        assert_int_equal (winners, 1);
        assert_int_equal (losers, N - 1);
        char err[ZS_ERRLEN];
        size_t len;
        char *text = zs_fs_read_file (p, SIZE * 2, &len, err, sizeof err);
        assert_non_null (text);
        assert_int_equal (len, SIZE);
        for (size_t k = 0; k < len; k++)
            if (text[k] != 'A' + winner)
                fail_msg ("byte %zu is '%c', winner wrote '%c'", k, text[k], 'A' + winner);
        free (text);
    }
    assert_int_equal (s_count_named (".tmp-"), 0);
}

//  Only prefix + one spelling of a number counts; the rest is passed over.
static void
test_list_numbered (void **state)
{
    const char *names[] = {"chk-10",
                           "chk-2",
                           "chk-0",
                           "chk-1",
                           "chk-007",
                           "chk-",
                           "chk-x",
                           "chk-+5",
                           "chk-3.tmp-1",
                           ".chk-4",
                           "chk-6x",
                           "other",
                           "chk-1234567890123456789"};
    char p[512], err[ZS_ERRLEN];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        s_join (p, sizeof p, names[i]);
        assert_int_equal (zs_fs_write_atomic (p, "x", 1, err, sizeof err), 0);
    }
    int64_t *ids;
    size_t n;
    assert_int_equal (zs_fs_list_numbered (s_dir, "chk-", &ids, &n, err, sizeof err), 0);
    assert_int_equal (n, 4);
    int64_t want[] = {0, 1, 2, 10};
    for (size_t i = 0; i < n; i++)
        assert_int_equal (ids[i], want[i]);
    free (ids);
    assert_int_equal (zs_fs_list_numbered (s_dir, "none-", &ids, &n, err, sizeof err), 0);
    assert_int_equal (n, 0);
    assert_null (ids);
    s_join (p, sizeof p, "missing");
    assert_int_equal (zs_fs_list_numbered (p, "chk-", &ids, &n, err, sizeof err), ZS_ENOENT);
    assert_non_null (strstr (err, "missing"));
}

static void
test_read_file_errors (void **state)
{
    char p[512], err[ZS_ERRLEN];
    s_join (p, sizeof p, "missing");
    assert_null (zs_fs_read_file (p, 1024, NULL, err, sizeof err));
    assert_int_equal (errno, ENOENT);
    assert_non_null (strstr (err, "missing"));
    assert_int_equal (zs_fs_file_size (p), -1);
    assert_int_equal (zs_fs_unlink (p), 0); //  missing is not an error

    s_join (p, sizeof p, "big");
    char data[100] = {0};
    assert_int_equal (zs_fs_write_atomic (p, data, sizeof data, err, sizeof err), 0);
    assert_null (zs_fs_read_file (p, 99, NULL, err, sizeof err));
    assert_non_null (strstr (err, "big"));
    //  A directory is not a file to read.
    assert_null (zs_fs_read_file (s_dir, 1 << 20, NULL, err, sizeof err));
}

static void
test_streaming_writer (void **state)
{
    char p[512], err[ZS_ERRLEN];
    s_join (p, sizeof p, "stream");
    zs_fs_file_t *f = zs_fs_file_create (p, err, sizeof err);
    assert_non_null (f);
    //  Many small writes crossing the buffer size, then one bigger than it.
    size_t expect = 0;
    for (int i = 0; i < 300000; i++) {
        char line[16];
        int n = snprintf (line, sizeof line, "%d\n", i);
        assert_int_equal (zs_fs_file_write (f, line, (size_t) n, err, sizeof err), 0);
        expect += (size_t) n;
    }
    size_t big = 3 * 1024 * 1024;
    char *blob = malloc (big);
    memset (blob, 'z', big);
    assert_int_equal (zs_fs_file_write (f, blob, big, err, sizeof err), 0);
    expect += big;
    free (blob);
    assert_int_equal (zs_fs_file_offset (f), (int64_t) expect);
    assert_int_equal (zs_fs_file_close (&f, err, sizeof err), 0);
    assert_null (f);
    assert_int_equal (zs_fs_file_size (p), (int64_t) expect);

    size_t len;
    char *text = zs_fs_read_file (p, expect + 1, &len, err, sizeof err);
    assert_int_equal (len, expect);
    assert_memory_equal (text, "0\n1\n2\n", 6);
    assert_int_equal (text[len - 1], 'z');
    free (text);

    //  A data file is never overwritten.
    assert_null (zs_fs_file_create (p, err, sizeof err));
    assert_non_null (strstr (err, "stream"));

    //  Abort removes the file.
    s_join (p, sizeof p, "aborted");
    f = zs_fs_file_create (p, err, sizeof err);
    assert_int_equal (zs_fs_file_write (f, "abc", 3, err, sizeof err), 0);
    zs_fs_file_abort (&f);
    assert_null (f);
    assert_int_equal (zs_fs_file_size (p), -1);
    zs_fs_file_abort (&f); //  NULL is fine
    assert_int_equal (zs_fs_file_close (&f, err, sizeof err), 0);
}

static void
test_failpoints_fail_cleanly (void **state)
{
    char p[512], err[ZS_ERRLEN];
    s_join (p, sizeof p, "fp");
    assert_int_equal (zs_failpoint_init ("fs.write=error", err, sizeof err), 0);
    assert_int_equal (zs_fs_write_atomic (p, "x", 1, err, sizeof err), -1);
    assert_int_equal (zs_fs_file_size (p), -1);

    assert_int_equal (zs_failpoint_init ("fs.fsync=error", err, sizeof err), 0);
    assert_int_equal (zs_fs_create_exclusive (p, "x", 1, err, sizeof err), -1);
    assert_int_equal (zs_fs_file_size (p), -1);

    assert_int_equal (zs_failpoint_init ("fs.rename=error", err, sizeof err), 0);
    assert_int_equal (zs_fs_write_atomic (p, "x", 1, err, sizeof err), -1);
    assert_int_equal (zs_fs_file_size (p), -1);

    //  A failed link is an error, not "somebody else won".
    assert_int_equal (zs_failpoint_init ("fs.link=error", err, sizeof err), 0);
    assert_int_equal (zs_fs_create_exclusive (p, "x", 1, err, sizeof err), -1);
    assert_int_equal (zs_fs_file_size (p), -1);

    //  A streaming file whose flush fails reports it on close.
    assert_int_equal (zs_failpoint_init ("fs.write=error", err, sizeof err), 0);
    zs_fs_file_t *f = zs_fs_file_create (p, err, sizeof err);
    assert_non_null (f);
    assert_int_equal (zs_fs_file_write (f, "abc", 3, err, sizeof err), 0); //  buffered
    assert_int_equal (zs_fs_file_close (&f, err, sizeof err), -1);
    assert_null (f);
    zs_fs_unlink (p);

    assert_int_equal (zs_failpoint_init ("", err, sizeof err), 0);
    assert_int_equal (s_count_named (".tmp-"), 0);
    assert_int_equal (zs_fs_write_atomic (p, "x", 1, err, sizeof err), 0);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown (test_mkdirs, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_write_atomic_replaces_and_leaves_no_temp, s_setup,
                                         s_teardown),
        cmocka_unit_test_setup_teardown (test_create_exclusive_never_overwrites, s_setup,
                                         s_teardown),
        cmocka_unit_test_setup_teardown (test_create_exclusive_raced_by_processes, s_setup,
                                         s_teardown),
        cmocka_unit_test_setup_teardown (test_list_numbered, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_read_file_errors, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_streaming_writer, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_failpoints_fail_cleanly, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
