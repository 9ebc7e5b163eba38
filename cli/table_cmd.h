/*  table_cmd.h - `zsink table …`: what a Flink SQL user asks of a Paimon
    table (docs/architecture.md, design 4).

        zsink table snapshots|count|stats|files|orphans|verify PATH [--json]
        zsink table orphans PATH [--delete] [--older-than 1h] [--json]

    argv[0] is the subcommand. Returns the process exit code: 0 success,
    1 failure (or problems found by verify), 2 bad arguments.
*/
#ifndef ZS_TABLE_CMD_H_INCLUDED
#define ZS_TABLE_CMD_H_INCLUDED

int zs_table_cmd (int argc, char **argv);

#endif
