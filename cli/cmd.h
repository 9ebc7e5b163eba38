/*  cmd.h - what the zsink commands share.

    A command is a few steps (parse, check, run, …); each step returns
    ZS_CMD_GO_ON for the next one to follow, or the process exit code to end
    the command with, its message printed: 0 (e.g. after --help), 1 a
    failure, 2 bad arguments.

    zs_cmd_getopt is the getopt loop of the commands that take options:
    -h/--help prints the command's usage on stdout and ends with exit 0; an
    option getopt does not know (it said why on stderr) prints the usage on
    stderr and ends with exit 2; any other option goes to the command's
    handler.
*/
#ifndef ZS_CMD_H_INCLUDED
#define ZS_CMD_H_INCLUDED

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

#endif
