/*  cmd.c - see cmd.h. */
#include "cmd.h"
#include "failpoint.h"
#include "fs.h"
#include "log.h"
#include <assert.h>
#include <string.h>
#include <unistd.h>

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
zs_config_args_take (zs_config_args_t *self, int opt, const char *arg, char *err, size_t errlen)
{
    if (opt == 'c') {
        self->file = arg;
        return 1;
    }
    if (opt != 'D')
        return 0;
    if (self->n_overrides == ZS_CONFIG_MAX_OVERRIDES) {
        snprintf (err, errlen, "more than %d -D options", ZS_CONFIG_MAX_OVERRIDES);
        return -1;
    }
    self->overrides[self->n_overrides++] = arg;
    return 1;
}

typedef struct {
    const char *prog; //  argv[0]: a program, or a zsink subcommand
    zs_config_args_t *config;
    zs_cmd_option_fn *fn;
    void *self;
} s_config_opts_t;

static int
s_on_config_option (int opt, const char *arg, void *self)
{
    s_config_opts_t *c = self;
    char err[ZS_ERRLEN];
    int taken = zs_config_args_take (c->config, opt, arg, err, sizeof err);
    if (taken < 0) {
        const char *slash = strrchr (c->prog, '/');
        const char *name = slash ? slash + 1 : c->prog;
        fprintf (stderr, "%s%s: %s\n", strncmp (name, "zsink", 5) ? "zsink " : "", name, err);
        return 2;
    }
    return taken ? ZS_CMD_GO_ON : c->fn (opt, arg, c->self);
}

int
zs_cmd_getopt_config (int argc, char **argv, const char *shortopts, const struct option *longopts,
                      void (*usage) (FILE *out), zs_config_args_t *config, zs_cmd_option_fn *fn,
                      void *self)
{
    s_config_opts_t c = {argv[0], config, fn, self};
    return zs_cmd_getopt (argc, argv, shortopts, longopts, usage, s_on_config_option, &c);
}

#define S_VALUES_MAX 8

static int
s_on_value (int opt, const char *arg, void *self)
{
    const zs_cmd_value_t *opts = self;
    *opts[opt - 256].value = arg;
    return ZS_CMD_GO_ON;
}

int
zs_cmd_getopt_values (int argc, char **argv, const zs_cmd_value_t *opts, int n_opts,
                      void (*usage) (FILE *out))
{
    //  a programming error, not input: the table is the caller's constant
    assert (n_opts >= 0 && n_opts <= S_VALUES_MAX);
    struct option longopts[S_VALUES_MAX + 2] = {{0}};
    for (int i = 0; i < n_opts; i++)
        longopts[i] = (struct option){opts[i].name, required_argument, NULL, 256 + i};
    longopts[n_opts] = (struct option){"help", no_argument, NULL, 'h'};
    int rc = zs_cmd_getopt (argc, argv, "h", longopts, usage, s_on_value, (void *) opts);
    if (rc == ZS_CMD_GO_ON)
        rc = zs_cmd_no_operands (argc, argv, usage);
    return rc;
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

int
zs_cmd_self_path (char *buf, size_t len)
{
    ssize_t n = len > 1 ? readlink ("/proc/self/exe", buf, len - 1) : -1;
    if (n <= 0)
        return -1;
    buf[n] = 0;
    return 0;
}
