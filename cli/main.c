/*  zsink - the command: cluster launcher, table inspection, job control. */
#include "client.h"
#include "cluster.h"
#include "config_cmd.h"
#include "failpoint.h"
#include "keys_cmd.h"
#include "table_cmd.h"
#include "lab.h"
#include "timeline.h"
#include <czmq.h>
#include <stdio.h>
#include <string.h>

//  git describe of the tree at build time (cmake/git_version.cmake)
extern const char *zs_git_describe;

//  `zsink table|keys SUBCOMMAND …`: fn gets argv from the subcommand on.
static int
s_with_subcommand (int argc, char **argv, int (*fn) (int argc, char **argv))
{
    if (argc < 2) {
        fprintf (stderr, "zsink %s: missing subcommand; see zsink %s --help\n", argv[0], argv[0]);
        return 2;
    }
    return fn (argc - 1, argv + 1);
}

static int
s_table (int argc, char **argv)
{
    return s_with_subcommand (argc, argv, zs_table_cmd);
}

static int
s_keys (int argc, char **argv)
{
    return s_with_subcommand (argc, argv, zs_keys_cmd);
}

//  czmq's signal handler would swallow SIGINT in the cluster, which
//  has its own; the client commands use czmq's.
static int
s_cluster (int argc, char **argv)
{
    zsys_handler_set (NULL);
    zsys_init ();
    return zs_cluster_cmd (argc, argv);
}

static int
s_client (int argc, char **argv)
{
    zsys_init ();
    return zs_client_cmd (argc, argv);
}

static int
s_failpoints (int argc, char **argv)
{
    if (argc > 1 && strcmp (argv[1], "--help") != 0 && strcmp (argv[1], "-h") != 0) {
        fprintf (stderr,
                 "zsink failpoints: unexpected argument '%s'; see zsink failpoints --help\n",
                 argv[1]);
        return 2;
    }
    size_t n;
    const zs_failpoint_info_t *fp = zs_failpoint_list (&n);
    printf ("usage: zsink failpoints   the named fail points a test can set:\n"
            "ZSINK_FAILPOINTS=\"name=action[,name=action…]\", action: crash[:K] | "
            "error[:K] | delay:MS[:K] | drop[:K]\n\n");
    for (size_t i = 0; i < n; i++)
        printf ("  %-36s %s\n", fp[i].name, fp[i].what);
    return 0;
}

//  Each command gets argv from its name on; `what` is its line in `zsink
//  --help` (an entry without one is listed by name: its --help says).
static const struct {
    const char *name;
    int (*fn) (int argc, char **argv);
    const char *what;
} s_commands[] = {
    {"cluster", s_cluster, "run a job on this machine: coordinator, writers, committer"},
    {"status", s_client, "the job, its processes, its checkpoint history"},
    {"stop", s_client, "final checkpoint and commit, then stop (--savepoint); its path"},
    {"cancel", s_client, "stop the job without a final commit"},
    {"table", s_table, "inspect and maintain a Paimon table (subcommands below)"},
    {"keys", s_keys, "CURVE keys of a cluster: generate, check (docs/security.md)"},
    {"timeline", zs_timeline_cmd, "the job's processes on a time axis (SVG)"},
    {"lab", zs_lab_cmd, "run the tour's scenarios and races, and prove each"},
    {"failpoints", s_failpoints, "the named fail points (ZSINK_FAILPOINTS=name=action)"},
    {"config", zs_config_cmd, "every configuration key (keys), a job's configuration (show)"},
};
#define S_NCOMMANDS (sizeof s_commands / sizeof s_commands[0])

//  Every command and every table subcommand, one line each.
static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink COMMAND [ARGS ...] | --version | --help\n"
                  "zsink COMMAND --help is the command's own help.\n\ncommands:\n");
    for (size_t i = 0; i < S_NCOMMANDS; i++)
        fprintf (out, "  %-12s %s\n", s_commands[i].name,
                 s_commands[i].what ? s_commands[i].what : "(see its --help)");
    fprintf (out, "\ntable subcommands (zsink table SUBCOMMAND --help; Paimon's procedure names"
                  " work too):\n");
    zs_table_cmd_list (out);
}

int
main (int argc, char **argv)
{
    if (argc < 2) {
        s_usage (stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp (cmd, "--help") == 0 || strcmp (cmd, "-h") == 0 || strcmp (cmd, "help") == 0) {
        s_usage (stdout);
        return 0;
    }
    if (strcmp (cmd, "--version") == 0 || strcmp (cmd, "version") == 0) {
        printf ("zsink %s (git %s)\n", ZSINK_VERSION, zs_git_describe);
        return 0;
    }
    for (size_t i = 0; i < sizeof s_commands / sizeof s_commands[0]; i++)
        if (strcmp (cmd, s_commands[i].name) == 0)
            return s_commands[i].fn (argc - 1, argv + 1);
    fprintf (stderr, "zsink: unknown command '%s'; see zsink --help\n", cmd);
    return 2;
}
