/*  keys_cmd.c - see keys_cmd.h. The work is in common/wire/curve.c. */
#include "keys_cmd.h"
#include "curve.h"
#include "cmd.h"
#include <czmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink keys generate DIR [--writers N]\n"
                  "       zsink keys check DIR [--writers N]\n"
                  "generate makes the CURVE keys of a cluster of up to N writers (default 1) in\n"
                  "DIR (made 0700): server.cert (public) and server.cert_secret for the\n"
                  "coordinator and the committer; committer.cert_secret, client.cert_secret\n"
                  "(zsink cluster/status/stop/cancel) and writer-<i>.cert_secret, i < N, each\n"
                  "0600; and their public certs in DIR/public, which the servers load: the\n"
                  "metadata of writer-<i>.cert binds that key to writer index i. Keys already\n"
                  "in DIR are kept, so a larger N adds writers. check loads every key a\n"
                  "cluster of N writers needs, as the processes will. Turn CURVE on with\n"
                  "security.curve.enabled: true and security.curve.keys-dir: DIR.\n");
}

//  --writers N (the only option besides --help)
static int
s_on_writers (int opt, const char *arg, void *self)
{
    int *writers = self;
    char *end;
    long v = strtol (arg, &end, 10);
    if (!*arg || *end || v < 1 || v > 1024) {
        fprintf (stderr, "zsink keys: --writers: '%s' is not a number 1 … 1024\n", arg);
        return 2;
    }
    *writers = (int) v;
    return ZS_CMD_GO_ON;
}

static int
s_generate (const char *dir, int writers)
{
    char err[ZS_ERRLEN];
    if (zs_curve_generate (dir, writers, stdout, err, sizeof err) < 0) {
        fprintf (stderr, "zsink keys generate: %s\n", err);
        return 1;
    }
    printf ("keys of a cluster of up to %d writer%s in %s; give the servers DIR/public\n", writers,
            writers == 1 ? "" : "s", dir);
    return 0;
}

static int
s_check (const char *dir, int writers)
{
    char err[ZS_ERRLEN];
    if (zs_curve_check_dir (dir, writers, err, sizeof err) < 0) {
        fprintf (stderr, "zsink keys check: %s\n", err);
        return 2;
    }
    printf ("keys in %s are complete for %d writer%s\n", dir, writers, writers == 1 ? "" : "s");
    return 0;
}

int
zs_keys_cmd (int argc, char **argv)
{
    const char *sub = argv[0];
    if (strcmp (sub, "--help") == 0 || strcmp (sub, "-h") == 0) {
        s_usage (stdout);
        return 0;
    }
    bool generate = strcmp (sub, "generate") == 0;
    if (!generate && strcmp (sub, "check") != 0) {
        fprintf (stderr, "zsink keys: unknown subcommand '%s'\n", sub);
        s_usage (stderr);
        return 2;
    }
    static const struct option opts[] = {
        {"writers", required_argument, 0, 'w'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int writers = 1;
    int rc = zs_cmd_getopt (argc, argv, "h", opts, s_usage, s_on_writers, &writers);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    if (optind != argc - 1) {
        s_usage (stderr);
        return 2;
    }
    const char *dir = argv[optind];
    return generate ? s_generate (dir, writers) : s_check (dir, writers);
}
