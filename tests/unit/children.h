/*  children.h - for unit tests that run a role binary as a child process.
    Every child is killed and reaped after each test, and dies with the
    test program: a test that fails mid-way (cmocka longjmps out of it)
    used to leave its child running, holding ctest's output pipe open, so
    a failed run hung to its 120 s timeout instead of reporting at once.
    Header-only; use test_child_teardown as each test's teardown.
*/
#ifndef ZS_TEST_CHILDREN_H_INCLUDED
#define ZS_TEST_CHILDREN_H_INCLUDED

#include "zs.h"
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_CHILDREN_MAX 16
static pid_t s_test_children[TEST_CHILDREN_MAX];

//  fork(2), the child remembered (and killed by the kernel if we die).
static inline pid_t
test_child_fork (void)
{
    pid_t parent = getpid ();
    pid_t pid = fork ();
    if (pid == 0) {
        prctl (PR_SET_PDEATHSIG, SIGKILL);
        if (getppid () != parent)
            _exit (127);
        return 0;
    }
    for (int i = 0; pid > 0 && i < TEST_CHILDREN_MAX; i++)
        if (s_test_children[i] == 0) {
            s_test_children[i] = pid;
            break;
        }
    return pid;
}

static inline void
s_test_child_forget (pid_t pid)
{
    for (int i = 0; i < TEST_CHILDREN_MAX; i++)
        if (s_test_children[i] == pid)
            s_test_children[i] = 0;
}

//  Wait up to ms for pid to exit: its exit code (128 + signal when killed
//  by one), or -1 when it is still running at the deadline (then it is
//  killed).
static inline int
test_child_wait (pid_t pid, int64_t ms)
{
    int status = 0;
    pid_t got = 0;
    int64_t deadline = zs_clock_mono_ms () + ms;
    while ((got = waitpid (pid, &status, WNOHANG)) == 0 && zs_clock_mono_ms () < deadline)
        usleep (5000);
    if (got == 0) {
        kill (pid, SIGKILL);
        waitpid (pid, &status, 0);
    }
    s_test_child_forget (pid);
    if (got != pid)
        return -1;
    return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

//  A test's teardown: every child still running is killed and reaped.
static inline int
test_child_teardown (void **state)
{
    (void) state;
    for (int i = 0; i < TEST_CHILDREN_MAX; i++)
        if (s_test_children[i] > 0) {
            kill (s_test_children[i], SIGKILL);
            waitpid (s_test_children[i], NULL, 0);
            s_test_children[i] = 0;
        }
    return 0;
}

#endif
