/*  cmd.c - see cmd.h. */
#include "cmd.h"
#include "failpoint.h"
#include "fs.h"
#include "log.h"
#include <string.h>

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
        if (opt == '?' || opt == ':') {
            usage (stderr);
            return 2;
        }
        int rc = fn (opt, optarg, self);
        if (rc != ZS_CMD_GO_ON)
            return rc;
    }
    return ZS_CMD_GO_ON;
}

int
zs_cmd_no_operands (int argc, char **argv, void (*usage) (FILE *out))
{
    if (optind >= argc)
        return ZS_CMD_GO_ON;
    const char *slash = strrchr (argv[0], '/');
    fprintf (stderr, "%s: unexpected argument '%s'\n", slash ? slash + 1 : argv[0], argv[optind]);
    usage (stderr);
    return 2;
}

int
zs_cmd_faults_init (void)
{
    char err[ZS_ERRLEN];
    if (zs_failpoint_init (NULL, err, sizeof err) < 0) {
        zs_error ("ZSINK_FAILPOINTS: %s", err);
        return 2;
    }
    if (zs_fs_faults_init (err, sizeof err) < 0) {
        zs_error ("%s", err);
        return 2;
    }
    return ZS_CMD_GO_ON;
}
