/*  zsink - the command: cluster launcher, table inspection, job control. */
#include "client.h"
#include "cluster.h"
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

static void
s_usage (FILE *out)
{
    fprintf (out,
             "usage: zsink COMMAND ... | --version | --help\n"
             "  cluster [-c JOB.yaml] [-Dkey=value ...] [--run-for 10s] [--restore-from CHK]\n"
             "                           run the job on this machine (see zsink cluster --help)\n"
             "  status  [--coordinator EP | -c JOB.yaml] [--json]\n"
             "                           the job, its processes, its checkpoint history\n"
             "  stop --savepoint [--coordinator EP | -c JOB.yaml]\n"
             "                           final checkpoint, commit, stop; prints the savepoint\n"
             "  cancel  [--coordinator EP | -c JOB.yaml]     stop without committing\n"
             "  table snapshots|count|stats|files|orphans|verify PATH [--json]\n"
             "  table scan PATH [--snapshot ID] [--limit N] [--format csv|jsonl]\n"
             "                           inspect and maintain a table, read its rows\n"
             "  keys generate|check DIR [--writers N]\n"
             "                           CURVE keys of a cluster (docs/security.md)\n"
             "  timeline DIR [--job ID] [-o FILE.svg]\n"
             "                           the job's processes on a time axis (SVG)\n"
             "  lab list|NAME|all [--dir DIR]\n"
             "                           run the tour's scenarios and races, prove each\n"
             "  failpoints               the named fail points (ZSINK_FAILPOINTS=name=action)\n");
}

//  `zsink table|keys SUBCOMMAND …`: fn gets argv from the subcommand on.
static int
s_with_subcommand (int argc, char **argv, int (*fn) (int argc, char **argv))
{
    if (argc < 2) {
        s_usage (stderr);
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
    size_t n;
    const zs_failpoint_info_t *fp = zs_failpoint_list (&n);
    printf ("ZSINK_FAILPOINTS=\"name=action[,name=action…]\", action: crash[:K] | "
            "error[:K] | delay:MS[:K] | drop[:K]\n\n");
    for (size_t i = 0; i < n; i++)
        printf ("  %-36s %s\n", fp[i].name, fp[i].what);
    return 0;
}

//  Each command gets argv from its name on.
static const struct {
    const char *name;
    int (*fn) (int argc, char **argv);
} s_commands[] = {
    {"table", s_table},           {"keys", s_keys},
    {"cluster", s_cluster},       {"status", s_client},
    {"stop", s_client},           {"cancel", s_client},
    {"failpoints", s_failpoints}, {"timeline", zs_timeline_cmd},
    {"lab", zs_lab_cmd},
};

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
    fprintf (stderr, "zsink: unknown command '%s'\n", cmd);
    s_usage (stderr);
    return 2;
}
