/*  lab.c - `zsink lab list|N|NAME|all [--dir DIR]`: the tour's scenarios and
    the races around a commit, each run as a real cluster (`zsink cluster`,
    fail points where a race must happen at a given moment), then the facts
    that prove what it shows: the snapshots table, count and distinct ids,
    orphan files, and a timeline picture. Each fact is checked; the exit
    status is 0 only when every fact of every scenario run holds. A
    scenario is named by its name or by its number in the list (from 1,
    the order of s_scenarios: the tour's order).
*/
#include "lab.h"
#include "cmd.h"
#include "table.h"
#include "zs.h"
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    const char *name, *title, *shows;
    const char *options;    //  -D options of `zsink cluster`
    const char *failpoints; //  ZSINK_FAILPOINTS, or NULL
    const char *run_for;    //  --run-for, or NULL (bounded)
    int64_t rows;           //  rows the table must hold exactly once
    const char *ids;        //  the identifiers, space-separated ("" none); NULL: not checked
    const char *log_fact;   //  a line the run must log (grep -E), or NULL
    int log_count;          //  … at least this many times
    int64_t once_id;        //  an identifier committed exactly once (0: none)
} s_scenario_t;

#define S_MAX "9223372036854775807"

static const s_scenario_t s_scenarios[] = {
    {"checkpoints-commit", "Checkpoints commit",
     "ids 1..100 at 20 rows/s, a checkpoint every 2 s: one snapshot per completed checkpoint, its "
     "identifier the checkpoint id, and the rows after the last one as identifier MAX at the end "
     "of input (the empty final checkpoint makes no snapshot: commit.ignore-empty)",
     "-Dexecution.checkpointing.interval=2s -Ddatagen.rows-per-second=20 "
     "-Ddatagen.number-of-rows=100 -Dcommit.ignore-empty=true",
     NULL, NULL, 100, "1 2 " S_MAX, NULL, 0, 0},
    {"no-checkpoints", "No checkpoints, no commits",
     "checkpointing off and an unbounded source, cancelled after 6 s: nothing is ever committed, "
     "as in Paimon's sink, and the coordinator says so at start",
     "-Dexecution.checkpointing.interval=0 -Ddatagen.rows-per-second=20", NULL, "6s", 0, "",
     "NOTHING WILL", 1, 0},
    {"failure", "A failure, exactly once anyway",
     "ids 1..200, 2 s checkpoints, the writer fails at id 120: the job restores the last "
     "completed checkpoint, the rows read since are read again, identifiers already committed "
     "are filtered: 200 rows, 200 distinct, no orphan",
     "-Dexecution.checkpointing.interval=2s -Ddatagen.rows-per-second=20 "
     "-Ddatagen.number-of-rows=200 -Ddatagen.fail-at-id=120",
     NULL, NULL, 200, NULL, "Restoring job .* from Checkpoint", 1, 0},
    {"committer-stops-at-notify", "The committer stops at Notify(2), then the job fails over",
     "checkpoint 2 completes, but the committer fails as its notification arrives (fail point "
     "committer.before-commit, 2nd hit): nothing of it is committed yet; the failover restores "
     "checkpoint 2, whose state holds its committables, and the restored committer commits "
     "identifier 2 exactly once",
     "-Dexecution.checkpointing.interval=1s -Ddatagen.rows-per-second=50 "
     "-Ddatagen.number-of-rows=250",
     "committer.before-commit=error:2", NULL, 250, NULL, "Restoring job .* from Checkpoint 2 ", 1,
     2},
    {"failure-before-first-checkpoint", "A failure before the first checkpoint completes",
     "ids 1..100, 2 s checkpoints, the writer fails at id 10 (half a second in): there is no "
     "checkpoint to restore, the job starts from scratch, the files written before are deleted, "
     "and the table still ends with each row once",
     "-Dexecution.checkpointing.interval=2s -Ddatagen.rows-per-second=20 "
     "-Ddatagen.number-of-rows=100 -Ddatagen.fail-at-id=10",
     NULL, NULL, 100, NULL, "No checkpoint found during restore", 2, 0},
};
#define S_N (sizeof s_scenarios / sizeof s_scenarios[0])

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink lab [list] | N | NAME | all [--dir DIR]\n"
                  "  runs scenario N (or NAME, as `zsink lab list` shows them) as a real cluster\n"
                  "  (under DIR/NAME, default /tmp/zsink-lab) and prints the facts that prove\n"
                  "  it: snapshots, count, distinct ids, orphans, and a timeline picture; exit 1\n"
                  "  when a fact does not hold. `zsink lab 3` and `zsink lab failure` are one.\n");
}

static int s_failed_facts;

static void s_fact (bool ok, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
static void
s_fact (bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start (ap, fmt);
    printf ("  %s ", ok ? "[ok]  " : "[FAIL]");
    vprintf (fmt, ap);
    printf ("\n");
    va_end (ap);
    s_failed_facts += !ok;
}

//  Run a shell command, its output to stdout. Its exit status.
static int
s_sh (const char *cmd)
{
    fflush (stdout);
    int rc = system (cmd);
    return WIFEXITED (rc) ? WEXITSTATUS (rc) : 1;
}

//  The facts: snapshots (identifiers, one commit user), rows exactly once,
//  no orphans, the log line, the identifier committed once.
static void
s_check (const s_scenario_t *sc, const char *zsink, const char *dir)
{
    char table[ZS_PATH_MAX + 16], cmd[4 * ZS_PATH_MAX], err[ZS_ERRLEN];
    snprintf (table, sizeof table, "%s/table", dir);
    printf ("\n$ zsink table snapshots %s\n", table);
    snprintf (cmd, sizeof cmd, "'%s' table snapshots '%s' 2>&1", zsink, table);
    s_sh (cmd);
    zs_table_t *t = zs_table_open (table, NULL, err, sizeof err);
    zs_snapshot_t *snaps = NULL;
    size_t n = 0;
    if (t)
        zs_table_list_snapshots (t, &snaps, &n, err, sizeof err);
    char ids[1024] = "";
    size_t len = 0;
    int users = 0, once = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp (snaps[i].commit_kind, "APPEND") == 0) {
            len += (size_t) snprintf (ids + len, len < sizeof ids ? sizeof ids - len : 0, "%s%lld",
                                      len ? " " : "", (long long) snaps[i].commit_identifier);
            once += snaps[i].commit_identifier == sc->once_id;
        }
        users += i == 0 || strcmp (snaps[i].commit_user, snaps[0].commit_user) != 0;
    }
    if (sc->ids)
        s_fact (strcmp (ids, sc->ids) == 0, "APPEND snapshots' identifiers: %s (expected: %s)",
                *ids ? ids : "none", *sc->ids ? sc->ids : "none");
    if (n)
        s_fact (users == 1, "one commit user across all snapshots (%d)", users);
    if (sc->once_id)
        s_fact (once == 1, "identifier %lld committed exactly once (%d APPEND snapshot%s)",
                (long long) sc->once_id, once, once == 1 ? "" : "s");
    free (snaps);
    zs_table_destroy (&t);

    printf ("\n$ zsink table stats %s --json\n", table);
    snprintf (cmd, sizeof cmd, "'%s' table stats '%s' --json > '%s/stats.json' 2>&1", zsink, table,
              dir);
    bool have_table = s_sh (cmd) == 0;
    snprintf (cmd, sizeof cmd, "%s/stats.json", dir);
    json_t *stats = have_table ? json_load_file (cmd, 0, NULL) : NULL;
    int64_t count = stats ? (int64_t) json_integer_value (json_object_get (stats, "count")) : 0;
    int64_t distinct =
        stats ? (int64_t) json_integer_value (json_object_get (stats, "distinct_ids")) : 0;
    if (stats) {
        char *text = json_dumps (stats, JSON_COMPACT);
        printf ("%s\n", text);
        free (text);
    } else
        printf ("(no table: nothing was ever committed)\n");
    json_decref (stats);
    s_fact (count == sc->rows && distinct == sc->rows,
            "%lld rows, %lld distinct ids (expected %lld)", (long long) count, (long long) distinct,
            (long long) sc->rows);

    if (have_table) {
        printf ("\n$ zsink table orphans %s --older-than 0s\n", table);
        snprintf (cmd, sizeof cmd, "'%s' table orphans '%s' --older-than 0s > '%s/orphans.txt'",
                  zsink, table, dir);
        s_sh (cmd);
        snprintf (cmd, sizeof cmd, "cat '%s/orphans.txt'", dir);
        s_sh (cmd);
        snprintf (cmd, sizeof cmd, "grep -q '^0 orphan files' '%s/orphans.txt'", dir);
        s_fact (s_sh (cmd) == 0, "no orphan file");
    }
    if (sc->log_fact) {
        snprintf (cmd, sizeof cmd, "test $(grep -cE -- '%s' '%s/cluster.log') -ge %d", sc->log_fact,
                  dir, sc->log_count);
        s_fact (s_sh (cmd) == 0, "the log says%s: %s",
                sc->log_count > 1 ? " (at start and after the failure)" : "", sc->log_fact);
    }
    printf ("\n$ zsink timeline %s/checkpoints/lab-%s -o %s/timeline.svg\n", dir, sc->name, dir);
    snprintf (cmd, sizeof cmd, "'%s' timeline '%s/checkpoints/lab-%s' -o '%s/timeline.svg'", zsink,
              dir, sc->name, dir);
    s_fact (s_sh (cmd) == 0, "timeline drawn: open %s/timeline.svg in a browser", dir);
}

static void
s_run (const s_scenario_t *sc, const char *zsink, const char *root)
{
    char dir[ZS_PATH_MAX], cmd[4 * ZS_PATH_MAX];
    snprintf (dir, sizeof dir, "%s/%s", root, sc->name);
    printf ("\n==== %d. %s (%s)\n%s\n", (int) (sc - s_scenarios) + 1, sc->title, sc->name,
            sc->shows);
    snprintf (cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    s_sh (cmd);
    char run[3 * ZS_PATH_MAX];
    snprintf (run, sizeof run,
              "zsink cluster -Dtable.path=%s/table -Dstate.checkpoints.dir=%s/checkpoints %s "
              "--job-id lab-%s%s%s",
              dir, dir, sc->options, sc->name, sc->run_for ? " --run-for " : "",
              sc->run_for ? sc->run_for : "");
    printf ("\n$ %s%s%s%s\n", sc->failpoints ? "ZSINK_FAILPOINTS=" : "",
            sc->failpoints ? sc->failpoints : "", sc->failpoints ? " " : "", run);
    snprintf (cmd, sizeof cmd, "%s%s%s'%s'%s > '%s/cluster.log' 2>&1",
              sc->failpoints ? "ZSINK_FAILPOINTS='" : "", sc->failpoints ? sc->failpoints : "",
              sc->failpoints ? "' " : "", zsink, run + strlen ("zsink"), dir);
    int rc = s_sh (cmd);
    snprintf (cmd, sizeof cmd,
              "grep -E 'switched from state|Restoring|No checkpoint found|filtered committed|"
              "NOTHING WILL|failpoint|failed:|over:' '%s/cluster.log' | cut -c1-150 | head -n 16",
              dir);
    s_sh (cmd);
    s_fact (rc == 0, "zsink cluster exited %d (log: %s/cluster.log)", rc, dir);
    s_check (sc, zsink, dir);
}

int
zs_lab_cmd (int argc, char **argv)
{
    const char *root = "/tmp/zsink-lab", *what = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp (argv[i], "--dir") == 0 && i + 1 < argc)
            root = argv[++i];
        else if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0) {
            s_usage (stdout);
            return 0;
        } else if (!what && argv[i][0] != '-')
            what = argv[i];
        else {
            s_usage (stderr);
            return 2;
        }
    }
    if (!what || strcmp (what, "list") == 0) {
        for (size_t i = 0; i < S_N; i++)
            printf ("%zu  %-32s %s\n", i + 1, s_scenarios[i].name, s_scenarios[i].title);
        if (!what)
            printf ("\nzsink lab N (or NAME) runs one, zsink lab all every one.\n");
        return 0;
    }
    char zsink[ZS_PATH_MAX];
    if (zs_cmd_self_path (zsink, sizeof zsink) != 0) {
        fprintf (stderr, "zsink lab: cannot find my own binary\n");
        return 1;
    }
    size_t ran = 0;
    char *end;
    long number = strtol (what, &end, 10);
    if (*end)
        number = 0; //  a name
    for (size_t i = 0; i < S_N; i++)
        if (strcmp (what, "all") == 0 || strcmp (what, s_scenarios[i].name) == 0
            || number == (long) i + 1) {
            s_run (&s_scenarios[i], zsink, root);
            ran++;
        }
    if (!ran) {
        fprintf (stderr, "zsink lab: no scenario '%s' (zsink lab list: 1 to %zu, or a name)\n",
                 what, S_N);
        return 2;
    }
    printf ("\n%s\n", s_failed_facts ? "SOME FACTS DID NOT HOLD" : "every fact holds");
    return s_failed_facts ? 1 : 0;
}
