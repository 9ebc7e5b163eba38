/*  config_cmd.h - `zsink config …`: the job's configuration keys.

        zsink config keys [--json]
            every key, by the layer that declares it (common/job/config.h):
            its type and range, its default, what it does
        zsink config show [-c JOB.yaml] [-D key=value ...] [--json]
            the job's configuration as it would run: every key's value
            (the credentials left out), after validation

    argv[0] is "config", argv[1] the subcommand. Returns the process exit code: 0 success,
    2 bad arguments or a configuration that does not validate.
*/
#ifndef ZS_CONFIG_CMD_H_INCLUDED
#define ZS_CONFIG_CMD_H_INCLUDED

int zs_config_cmd (int argc, char **argv);

#endif
