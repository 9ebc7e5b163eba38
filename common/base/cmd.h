/*  cmd.h - what the zsink commands and role processes share.

    A command is a few steps (parse, check, run, …); each step returns
    ZS_CMD_GO_ON for the next one to follow, or the process exit code to end
    the command with, its message printed: 0 (e.g. after --help), 1 a
    failure, 2 bad arguments.

    zs_cmd_getopt is the getopt loop of every command and role that takes
    options: -h/--help prints the usage on stdout and ends with exit 0; an
    option getopt does not know (it said why on stderr) prints the usage on
    stderr and ends with exit 2; any other option goes to the handler. Words
    left over after the options are the command's operands; a role, which
    takes none, refuses them with zs_cmd_no_operands.
*/
#ifndef ZS_CMD_H_INCLUDED
#define ZS_CMD_H_INCLUDED

#include "zs.h"
#include <getopt.h>
#include <stdio.h>

//  A step's "go on": not an exit code.
#define ZS_CMD_GO_ON (-1)

//  Takes option opt with its argument (NULL for an option without one).
//  Returns ZS_CMD_GO_ON, or the exit code.
typedef int (zs_cmd_option_fn) (int opt, const char *arg, void *self);

//  Parses the options of argv from argv[1] on (argv[0] is the command).
//  Returns ZS_CMD_GO_ON when every option was taken (the operands start at
//  optind), or the exit code.
int zs_cmd_getopt (int argc, char **argv, const char *shortopts, const struct option *longopts,
                   void (*usage) (FILE *out), zs_cmd_option_fn *fn, void *self);

//  A job's configuration as a command line names it: -c FILE and any
//  number of -D key=value, the overrides applying after the file whatever
//  their order on the line. Kept as text, to build (the job layer's
//  zs_config_args_build) and to pass on to a child process as given.
#define ZS_CONFIG_MAX_OVERRIDES 256
typedef struct {
    const char *file; //  NULL: none
    const char *overrides[ZS_CONFIG_MAX_OVERRIDES];
    int n_overrides;
} zs_config_args_t;

//  Take option 'c' or 'D' with its argument: 1 when taken, 0 when opt is
//  another option, -1 + err when there are too many -D.
int zs_config_args_take (zs_config_args_t *self, int opt, const char *arg, char *err,
                         size_t errlen);

//  zs_cmd_getopt for a command that takes a job's configuration: -c FILE
//  and -D key=value go into config (zs_config_args_take; too many -D ends
//  with exit 2), every other option to fn.
int zs_cmd_getopt_config (int argc, char **argv, const char *shortopts,
                          const struct option *longopts, void (*usage) (FILE *out),
                          zs_config_args_t *config, zs_cmd_option_fn *fn, void *self);

//  A role's options all take a value: --name VALUE (or --name=VALUE) sets
//  *value, which holds its default (say from the environment) before.
typedef struct {
    const char *name;
    const char **value;
} zs_cmd_value_t;

//  zs_cmd_getopt over opts (n_opts of them) and -h/--help, then
//  zs_cmd_no_operands: ZS_CMD_GO_ON, or the exit code.
int zs_cmd_getopt_values (int argc, char **argv, const zs_cmd_value_t *opts, int n_opts,
                          void (*usage) (FILE *out));

//  After zs_cmd_getopt, for a program that takes no operands: ZS_CMD_GO_ON,
//  or 2 having named the first operand and printed the usage on stderr.
int zs_cmd_no_operands (int argc, char **argv, void (*usage) (FILE *out));

//  The process-wide fault layers every role runs under: fail points
//  (ZSINK_FAILPOINTS) and disk faults (ZSINK_FS_FAULT, …). ZS_CMD_GO_ON, or
//  2 having logged what is wrong.
int zs_cmd_faults_init (void);

//  This program's own binary (/proc/self/exe) into buf. 0 or -1.
int zs_cmd_self_path (char *buf, size_t len);

#endif
