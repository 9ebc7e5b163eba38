/*  keys_cmd.h - `zsink keys …`: the CURVE keys of a cluster
    (docs/security.md).

        zsink keys generate DIR [--writers N]
        zsink keys check DIR [--writers N]

    argv[0] is the subcommand. Returns the process exit code: 0 success,
    1 failure (cannot write), 2 bad arguments or bad key files.
*/
#ifndef ZS_KEYS_CMD_H_INCLUDED
#define ZS_KEYS_CMD_H_INCLUDED

int zs_keys_cmd (int argc, char **argv);

#endif
