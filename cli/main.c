/*  zsink - the command: cluster launcher, table inspection, job control. */
#include "client.h"
#include "cluster.h"
#include "failpoint.h"
#include "keys_cmd.h"
#include "table_cmd.h"
#include <czmq.h>
#include <stdio.h>
#include <string.h>

static void
s_usage (FILE *out)
{
    fprintf (out,
             "usage: zsink COMMAND ...\n"
             "  cluster [-c JOB.yaml] [-Dkey=value ...] [--run-for 10s] [--restore-from CHK]\n"
             "                           run the job on this machine (see zsink cluster --help)\n"
             "  status  [--coordinator EP | -c JOB.yaml]     a running job's status (JSON)\n"
             "  stop --savepoint [--coordinator EP | -c JOB.yaml]\n"
             "                           final checkpoint, commit, stop; prints the savepoint\n"
             "  cancel  [--coordinator EP | -c JOB.yaml]     stop without committing\n"
             "  table snapshots|count|stats|files|orphans|verify PATH [--json]\n"
             "  table scan PATH [--snapshot ID] [--limit N] [--format csv|jsonl]\n"
             "                           inspect and maintain a table, read its rows\n"
             "  keys generate|check DIR [--writers N]\n"
             "                           CURVE keys of a cluster (docs/security.md)\n"
             "  failpoints               the named fail points (ZSINK_FAILPOINTS=name=action)\n");
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
    if (strcmp (cmd, "table") == 0) {
        if (argc < 3) {
            s_usage (stderr);
            return 2;
        }
        return zs_table_cmd (argc - 2, argv + 2);
    }
    if (strcmp (cmd, "keys") == 0) {
        if (argc < 3) {
            s_usage (stderr);
            return 2;
        }
        return zs_keys_cmd (argc - 2, argv + 2);
    }
    //  czmq's signal handler would swallow SIGINT in the cluster, which
    //  has its own; the client commands use czmq's.
    if (strcmp (cmd, "cluster") == 0) {
        zsys_handler_set (NULL);
        zsys_init ();
        return zs_cluster_cmd (argc - 1, argv + 1);
    }
    if (strcmp (cmd, "status") == 0 || strcmp (cmd, "stop") == 0 || strcmp (cmd, "cancel") == 0) {
        zsys_init ();
        return zs_client_cmd (argc - 1, argv + 1);
    }
    if (strcmp (cmd, "failpoints") == 0) {
        size_t n;
        const zs_failpoint_info_t *fp = zs_failpoint_list (&n);
        printf ("ZSINK_FAILPOINTS=\"name=action[,name=action…]\", action: crash[:K] | "
                "error[:K] | delay:MS[:K] | drop[:K]\n\n");
        for (size_t i = 0; i < n; i++)
            printf ("  %-36s %s\n", fp[i].name, fp[i].what);
        return 0;
    }
    fprintf (stderr, "zsink: unknown command '%s'\n", cmd);
    s_usage (stderr);
    return 2;
}
