/*  cmd.c - see cmd.h. */
#include "cmd.h"

int
zs_cmd_getopt (int argc, char **argv, const char *shortopts, const struct option *longopts,
               void (*usage) (FILE *out), zs_cmd_option_fn *fn, void *self)
{
    optind = 1;
    int opt;
    while ((opt = getopt_long (argc, argv, shortopts, longopts, NULL)) != -1) {
        if (opt == 'h') {
            usage (stdout);
            return 0;
        }
        if (opt == '?') {
            usage (stderr);
            return 2;
        }
        int rc = fn (opt, optarg, self);
        if (rc != ZS_CMD_GO_ON)
            return rc;
    }
    return ZS_CMD_GO_ON;
}
