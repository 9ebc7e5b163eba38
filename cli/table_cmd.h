/*  table_cmd.h - `zsink table …`: what a Flink SQL user asks of a Paimon
    table (docs/architecture.md, design 4).

        zsink table snapshots|count|stats|files|orphans|verify PATH [--json]
        zsink table orphans PATH [--delete] [--older-than 1h] [--json]
        zsink table expire_snapshots PATH --older_than '2026-12-01 10:00:00'

    Paimon's procedure and argument names are taken as well as zsink's.
    argv[0] is the subcommand. Returns the process exit code: 0 success,
    1 failure (or problems found by verify), 2 bad arguments.
*/
#ifndef ZS_TABLE_CMD_H_INCLUDED
#define ZS_TABLE_CMD_H_INCLUDED

#include <stdio.h>

int zs_table_cmd (int argc, char **argv);

//  One line per subcommand, "  table NAME  what it does", for `zsink --help`.
void zs_table_cmd_list (FILE *out);

#endif
