/*  cluster.c - `zsink cluster`: the whole job on this machine.

    Starts the coordinator, the committer and `parallelism` writers as child
    processes (fork + exec of the binaries beside this one), forwards their
    log lines prefixed with their name, restarts a child that dies (as
    docker-compose's restart policy would), shows a progress line from the
    coordinator's status, and ends with the job:

    1. the coordinator exits 0 (finished, canceled, stopped): the others got
       Shutdown; we wait briefly for them, then exit 0;
    2. the coordinator exits non-zero without being killed: the job failed
       for good (restart attempts exhausted): exit 1; or it cannot run at
       all (exit 2: a participant's start-up certainty, a bad checkpoint to
       restore): exit 2 at once;
    3. a participant exiting 2 (a bad configuration) or 3 (another
       committer holds the job's lock: the same job id runs elsewhere):
       no restart helps, the others are stopped, exit 2;
    4. a child killed by a signal, or exiting with 137 (a crash fail
       point), is restarted after restart-strategy.fixed-delay.delay; the
       coordinator fails the job over when it notices. A child exiting 75
       (ZS_EXIT_RESTART: a full disk, an I/O error) is restarted too, the
       delay doubling with each such exit in a row up to 10 s, so a disk
       that stays full is retried calmly rather than several times a
       second;
    5. SIGINT/SIGTERM or --run-for: cancel (no commit); SIGUSR1: stop with
       a savepoint. A request the coordinator could not carry out because it
       died is asked again of its successor. A cancel is said once and
       bounded: a coordinator that stopped to be restarted (exit 75) is not
       restarted during a cancel, and one not carried out within
       S_CANCEL_WAIT_MS is carried out by the cluster (s_end_ourselves:
       every role stopped);
    6. a child that dies again before the job was seen RUNNING since it
       started is restarted restart-strategy.fixed-delay.attempts times in
       a row, then the job fails, exit 1 (s_restart_limit);
    7. once every child is gone after a job that did not finish, what the
       roles could not clean is cleaned (cluster_clean.c, s_clean_after);
       before a --restore-from of another job, that job's leftovers too.

    ZSINK_FAILPOINTS reaches only the first run of each child: a restarted
    process runs clean, so "crash at the K-th hit" happens once per test.

    Each child's end (its signal: "writer-0 (pid P) exited on signal 9
    (SIGKILL)", or its exit status) and restart is also an event in the
    job's event log, events-cluster.jsonl (s_child_event), which `zsink
    timeline` draws: no process can log its own kill -9.

    For the network-fault tests (tests/integration/t_partition_*.sh) each
    role can run in its own network namespace: --role-wrapper PROG starts
    every child as `PROG NAME BINARY ARGS…` (PROG execs, e.g. `ip netns exec
    NS "$@"`, so the pid stays the role's), and --coordinator-host /
    --committer-host put the endpoints on addresses the other namespaces
    reach. Supervision, restarts and the job's end are the same as without.

    The code reads in the order the command runs: parse (s_parse: the
    arguments and the configuration, all checked before a process starts),
    spawn (s_plan, s_start), supervise (s_connect, s_supervise and its
    steps, s_say_over).
*/
#include "cluster.h"
#include "checkpoint.h"
#include "client.h"
#include "config.h"
#include "events.h"
#include "fs.h"
#include "io.h"
#include "io_lock.h"
#include "log.h"
#include "net.h"
#include "cmd.h"
#include "progress.h"
#include "source_file.h"
#include "table.h"
#include "table_job.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CHILDREN 130
#define MAX_ARGS (2 * ZS_CONFIG_MAX_OVERRIDES + 16) //  -c, -D…, and the rest of a child's line

//  Longest delay before restarting a child that keeps exiting 75.
#define S_WAIT_MAX_MS 10000
//  A cancel the coordinator has not carried out after this long is carried
//  out by the cluster itself (s_end_ourselves): bounded whatever the disks do.
#define S_CANCEL_WAIT_MS 10000

typedef struct {
    char name[32];
    char *argv[MAX_ARGS];
    char index[16]; //  a writer's --index
    pid_t pid;      //  0: not running
    int fd;         //  read end of its stdout+stderr, -1 if none
    char line[8192];
    size_t line_len;
    int64_t restart_at; //  0: no restart pending
    int starts;
    int waits; //  exits 75 in a row: each doubles the restart delay
    int64_t spawned_at;
    int early_exits; //  deaths in a row before the job was seen RUNNING again
    bool done;       //  exited 0: not to be restarted
    int64_t lines;   //  lines forwarded (the progress line's freshness)
} child_t;

static volatile sig_atomic_t s_cancel_signal = 0;
static volatile sig_atomic_t s_savepoint_signal = 0;
//  SIGCHLD wakes the supervisor's poll through this pipe: a child's output
//  pipe hangs up before the child can be reaped, so without it a death
//  was noticed up to one poll timeout (100 ms) late.
static int s_child_pipe[2] = {-1, -1};

static void
s_on_signal (int sig)
{
    if (sig == SIGUSR1)
        s_savepoint_signal = 1;
    else
        s_cancel_signal = 1;
}

static void
s_on_child (int sig)
{
    (void) sig;
    int saved = errno;
    ssize_t w = write (s_child_pipe[1], "c", 1); //  full: a wake-up is pending anyway
    (void) w;
    errno = saved;
}

static int
s_free_port (void)
{
    int fd = socket (AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in addr = {.sin_family = AF_INET};
    addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = -1;
    if (bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0
        && getsockname (fd, (struct sockaddr *) &addr, &len) == 0)
        port = ntohs (addr.sin_port);
    close (fd);
    return port;
}

//  log.dir: each process's lines also go to <dir>/<name>.log (appended,
//  so a restarted process continues its file), the cluster's own to
//  cluster.log.
static char s_log_dir[ZS_PATH_MAX];
static struct {
    char name[32];
    int fd;
} s_log_files[MAX_CHILDREN + 1];
static int s_n_log_files;

static int
s_log_fd (const char *name)
{
    for (int i = 0; i < s_n_log_files; i++)
        if (strcmp (s_log_files[i].name, name) == 0)
            return s_log_files[i].fd;
    if (s_n_log_files == MAX_CHILDREN + 1)
        return -1;
    char path[ZS_PATH_MAX + 48];
    snprintf (path, sizeof path, "%s/%s.log", s_log_dir, name);
    int fd = open (path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    snprintf (s_log_files[s_n_log_files].name, sizeof s_log_files[0].name, "%s", name);
    s_log_files[s_n_log_files++].fd = fd;
    return fd;
}

static void
s_print_line (const char *name, const char *line)
{
    //  one write per line: whole lines even with other writers on stderr
    char buf[8400];
    int n = snprintf (buf, sizeof buf, "%-12s| %s\n", name, line);
    if (n > (int) sizeof buf - 1)
        n = (int) sizeof buf - 1;
    ssize_t rc = write (STDERR_FILENO, buf, n);
    int fd = s_log_dir[0] ? s_log_fd (name) : -1;
    if (fd >= 0) {
        int m = snprintf (buf, sizeof buf, "%s\n", line);
        rc = write (fd, buf, m > (int) sizeof buf - 1 ? sizeof buf - 1 : (size_t) m);
    }
    (void) rc;
}

static void s_say (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
static void
s_say (const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (line, sizeof line, fmt, ap);
    va_end (ap);
    s_print_line ("cluster", line);
}

//  In the forked child: become the role (wrapper: under the role wrapper).
static void s_exec_child (const child_t *c, const char *wrapper, int pipefd[2],
                          bool with_failpoints) __attribute__ ((noreturn));
static void
s_exec_child (const child_t *c, const char *wrapper, int pipefd[2], bool with_failpoints)
{
    //  Own process group: a Ctrl-C at the terminal reaches only the
    //  cluster, which cancels the job properly instead of every process
    //  dying at once. And die with the cluster, should it be killed.
    setpgid (0, 0);
    prctl (PR_SET_PDEATHSIG, SIGTERM);
    dup2 (pipefd[1], STDOUT_FILENO);
    dup2 (pipefd[1], STDERR_FILENO);
    close (pipefd[0]);
    close (pipefd[1]);
    if (!with_failpoints)
        unsetenv ("ZSINK_FAILPOINTS");
    //  a fresh process image: no inherited sockets (a forked ZeroMQ context is unusable)
    if (wrapper) {
        char *argv[MAX_ARGS + 3] = {(char *) wrapper, (char *) c->name};
        for (int i = 0; i < MAX_ARGS && c->argv[i]; i++)
            argv[2 + i] = c->argv[i];
        execv (wrapper, argv);
        fprintf (stderr, "cannot start %s: %s\n", wrapper, strerror (errno));
        _exit (127);
    }
    execv (c->argv[0], c->argv);
    fprintf (stderr, "cannot start %s: %s\n", c->argv[0], strerror (errno));
    _exit (127);
}

//  Start child c, its output on a pipe to us.
static int
s_spawn (child_t *c, const char *wrapper, bool with_failpoints)
{
    int pipefd[2];
    //  close-on-exec: no child inherits the read end of another's output
    if (pipe2 (pipefd, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork ();
    if (pid < 0) {
        close (pipefd[0]);
        close (pipefd[1]);
        return -1;
    }
    if (pid == 0)
        s_exec_child (c, wrapper, pipefd, with_failpoints);
    close (pipefd[1]);
    c->pid = pid;
    c->fd = pipefd[0];
    c->line_len = 0;
    c->starts++;
    c->spawned_at = zs_clock_mono_ms ();
    return 0;
}

//  Forward complete lines; at EOF flush the rest.
static void
s_drain (child_t *c)
{
    char buf[4096];
    ssize_t n = read (c->fd, buf, sizeof buf);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            if (c->line_len) {
                c->line[c->line_len] = 0;
                s_print_line (c->name, c->line);
                c->line_len = 0;
                c->lines++;
            }
            close (c->fd);
            c->fd = -1;
        }
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n' || c->line_len == sizeof c->line - 1) {
            c->line[c->line_len] = 0;
            s_print_line (c->name, c->line);
            c->line_len = 0;
            c->lines++;
            if (buf[i] == '\n')
                continue;
        }
        c->line[c->line_len++] = buf[i];
    }
}

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink cluster [-c JOB.yaml] [-Dkey=value ...] [--run-for DURATION]\n"
                  "                     [--restore-from CHECKPOINT] [--job-id ID]\n"
                  "                     [--role-wrapper PROG] [--coordinator-host H] "
                  "[--committer-host H]\n"
                  "Runs the coordinator, the committer and `parallelism` writers on this\n"
                  "machine and restarts any that dies (after restart-strategy.fixed-delay\n"
                  ".delay; doubled, up to 10 s, while one keeps stopping on a full disk or\n"
                  "an I/O error; one dying before the job runs again: at most\n"
                  "restart-strategy.fixed-delay.attempts times in a row). Ends when a bounded\n"
                  "job finishes (exit 0), when the job fails for good (exit 1), cannot run\n"
                  "(exit 2: a bad configuration, a directory it may not write), or is\n"
                  "canceled on SIGINT/SIGTERM or after --run-for (exit 0; within 10 s, by\n"
                  "the cluster itself if the coordinator cannot). SIGUSR1, or `zsink stop\n"
                  "--savepoint -c JOB.yaml`, stops it with a savepoint.\n"
                  "For tests: --role-wrapper PROG runs each role as `PROG NAME BINARY ARGS...`\n"
                  "(PROG must exec it); --coordinator-host/--committer-host (default 127.0.0.1)\n"
                  "are the addresses the coordinator and the committer bind and are reached on.\n"
                  "The configuration keys JOB.yaml and -D take, with their defaults and what\n"
                  "each does: zsink config keys.\n");
}

//  The coordinator's status as the progress line shows it; rows_committed
//  is this job's, the count of the coordinator's commit line ("Job J
//  committed checkpoint N in snapshot S: R rows of this job").
typedef struct {
    int64_t rows_read, rows_committed, last_checkpoint, last_snapshot, restarts;
    int64_t input_rows, eta_ms; //  -1: unknown
    double rate, percent;       //  percent -1: unknown
    char state[32];
} progress_t;

static void
s_parse_status (const char *json, progress_t *p)
{
    json_t *root = json_loads (json, 0, NULL);
    if (!root)
        return;
    json_int_t rr = 0, rc = 0, lc = 0, ls = 0, in = -1, eta = -1;
    int restarts = 0;
    double rate = 0, percent = -1;
    const char *state = "";
    if (json_unpack (root, "{s:I, s:I, s:I, s:I, s:i, s:s}", "rows_read", &rr, "rows_committed",
                     &rc, "last_completed_checkpoint", &lc, "last_snapshot", &ls, "restarts",
                     &restarts, "state", &state)
        == 0) {
        json_unpack (root, "{s:{s:I, s:F, s:F, s:I}}", "progress", "input_rows", &in,
                     "rows_per_second", &rate, "percent", &percent, "eta_ms", &eta);
        *p = (progress_t){.rows_read = rr,
                          .rows_committed = rc,
                          .last_checkpoint = lc,
                          .last_snapshot = ls,
                          .restarts = restarts,
                          .input_rows = in,
                          .eta_ms = eta,
                          .rate = rate,
                          .percent = percent};
        snprintf (p->state, sizeof p->state, "%s", state);
    }
    json_decref (root);
}

//  ---------------------------------------------------------------------
//  Parse: the command line and the job's configuration, checked before
//  any process starts.

typedef struct {
    zs_config_args_t config;
    const char *restore_from, *job_arg;
    const char *role_wrapper; //  --role-wrapper (NULL: run each child directly)
    const char *coord_host, *commit_host;
    int64_t run_for_ms;
    zs_config_t cfg;
    zs_curve_t *curve; //  our keys as a client, with CURVE on
} s_args_t;

static int
s_on_option (int opt, const char *arg, void *self)
{
    s_args_t *args = self;
    switch (opt) {
    case 'r':
        if (zs_parse_duration_ms (arg, &args->run_for_ms) < 0 || args->run_for_ms <= 0) {
            fprintf (stderr, "zsink cluster: --run-for: bad duration '%s'\n", arg);
            return 2;
        }
        break;
    case 's':
        args->restore_from = arg;
        break;
    case 'j':
        args->job_arg = arg;
        break;
    case 'w':
        args->role_wrapper = arg;
        break;
    case 'o':
        args->coord_host = arg;
        break;
    case 'm':
        args->commit_host = arg;
        break;
    }
    return ZS_CMD_GO_ON;
}

//  A table of another schema, or one zsink cannot write exactly once, is a
//  configuration error too: say so now rather than start processes the
//  coordinator would refuse to run. A job without table.schema takes the
//  table's.
static int
s_check_table (zs_config_t *cfg)
{
    char err[ZS_ERRLEN];
    if (zs_table_prepare_job (cfg, err, sizeof err) != 0) {
        fprintf (stderr, "zsink cluster: %s\n", err);
        return 2;
    }
    return ZS_CMD_GO_ON;
}

//  CURVE: every role's keys must load now (exit 2 here, rather than
//  children failing and being restarted); we are a client ourselves.
static int
s_load_curve (s_args_t *args)
{
    const zs_config_t *cfg = &args->cfg;
    if (!cfg->curve_enabled)
        return ZS_CMD_GO_ON;
    char err[ZS_ERRLEN];
    if (zs_curve_check_dir (cfg->curve_keys_dir, cfg->parallelism, err, sizeof err) < 0
        || !(args->curve = zs_curve_load (cfg->curve_keys_dir, ZSINK__ROLE__ROLE_CLIENT, -1, err,
                                          sizeof err))) {
        fprintf (stderr, "zsink cluster: security.curve.keys-dir: %s\n", err);
        return 2;
    }
    zs_net_use_curve (args->curve);
    return ZS_CMD_GO_ON;
}

//  What is certain before any process starts fails here, exit 2, nothing
//  written, rather than in a child and through the restart loop: the file
//  source's input is there and holds input files; the table holds no
//  finished run of the same input; the checkpoint to restore from reads and
//  fits the job. (The writer and the coordinator check again,
//  and fail the job at once with exit 2 themselves: docker-compose has no
//  `zsink cluster`.)
static int
s_check_start (const s_args_t *args)
{
    const zs_config_t *cfg = &args->cfg;
    char err[ZS_ERRLEN];
    if (strcmp (cfg->source_kind, "file") == 0) {
        zs_source_file_t *src = zs_source_file_new (
            &cfg->source_schema, cfg->source_file_path, cfg->source_file_format, false,
            cfg->source_file_allow_empty, 0, cfg->parallelism, err, sizeof err);
        if (!src) {
            fprintf (stderr, "zsink cluster: source.file.path: %s\n", err);
            return 2;
        }
        zs_source_file_destroy (&src);
    }
    //  a restore continues a commit user: filterCommitted keeps it exact
    if (!args->restore_from && zs_table_check_rerun (cfg, err, sizeof err) != 0) {
        fprintf (stderr, "zsink cluster: %s\n", err);
        return 2;
    }
    if (args->restore_from) {
        zs_chk_t chk;
        if (zs_chk_read (args->restore_from, &chk, err, sizeof err) < 0) {
            fprintf (stderr, "zsink cluster: --restore-from: %s\n", err);
            return 2;
        }
        int parallelism = chk.parallelism;
        bool legacy = chk.legacy;
        zs_chk_clear (&chk);
        //  a checkpoint with splits restores onto any parallelism (the
        //  coordinator deals them out); one written before splits does not
        if (legacy && parallelism != cfg->parallelism) {
            fprintf (stderr,
                     "zsink cluster: --restore-from %s: it was written before splits, with "
                     "parallelism %d, and restores onto that only (the job has %d)\n",
                     args->restore_from, parallelism, cfg->parallelism);
            return 2;
        }
    }
    return ZS_CMD_GO_ON;
}

//  Arguments and configuration into args. ZS_CMD_GO_ON, or the exit code.
static int
s_parse (s_args_t *args, int argc, char **argv)
{
    static const struct option opts[] = {{"config", required_argument, 0, 'c'},
                                         {"run-for", required_argument, 0, 'r'},
                                         {"restore-from", required_argument, 0, 's'},
                                         {"job-id", required_argument, 0, 'j'},
                                         {"role-wrapper", required_argument, 0, 'w'},
                                         {"coordinator-host", required_argument, 0, 'o'},
                                         {"committer-host", required_argument, 0, 'm'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    args->coord_host = args->commit_host = "127.0.0.1";
    int rc =
        zs_cmd_getopt_config (argc, argv, "c:D:h", opts, s_usage, &args->config, s_on_option, args);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    if (optind < argc) {
        s_usage (stderr);
        return 2;
    }
    char err[ZS_ERRLEN];
    if (zs_config_args_build (&args->config, &args->cfg, err, sizeof err) < 0
        || zs_config_io_setup (&args->cfg, err, sizeof err) != 0) {
        fprintf (stderr, "zsink cluster: %s\n", err);
        return 2;
    }
    //  The credentials reach the children in their environment, never on
    //  a command line (ps shows those) nor in a Welcome.
    if (*args->cfg.s3.access_key)
        setenv ("AWS_ACCESS_KEY_ID", args->cfg.s3.access_key, 1);
    if (*args->cfg.s3.secret_key)
        setenv ("AWS_SECRET_ACCESS_KEY", args->cfg.s3.secret_key, 1);
    //  a directory no restart can make writable: no process starts
    if (zs_config_check_dirs (&args->cfg, true, true, err, sizeof err) != 0) {
        fprintf (stderr, "zsink cluster: %s\n", err);
        return 2;
    }
    rc = s_check_table (&args->cfg);
    if (rc == ZS_CMD_GO_ON)
        rc = s_check_start (args);
    if (rc == ZS_CMD_GO_ON)
        rc = s_load_curve (args);
    return rc;
}

//  --restore-from CHK_ROOT/JOB/chk-N of another job: that job's files after
//  its latest checkpoint go first (cluster_clean.c), as the restored job's
//  writers cannot see them as theirs.
static void
s_clean_restored (const s_args_t *args, const char *job_id)
{
    char root[ZS_PATH_MAX], old[ZS_PATH_MAX], said[2 * ZS_ERRLEN];
    snprintf (root, sizeof root, "%s", args->restore_from);
    char *slash = strrchr (root, '/');
    if (!slash)
        return;
    *slash = 0; //  CHK_ROOT/JOB
    slash = strrchr (root, '/');
    snprintf (old, sizeof old, "%s", slash ? slash + 1 : root);
    if (slash)
        *slash = 0;
    else
        snprintf (root, sizeof root, ".");
    if (!*old || strcmp (old, job_id) == 0)
        return;
    int n = zs_cluster_clean (&args->cfg, root, old, said, sizeof said);
    if (n != 0)
        s_say ("Before restoring from %s: %s (job %s).", args->restore_from, said, old);
}

//  ---------------------------------------------------------------------
//  Spawn: the role processes, their endpoints and command lines.

typedef struct {
    char job_id[64];
    char coord_ep[128], commit_ep[128];
    char keys_arg[ZS_PATH_MAX + 16];
    char bin[3][ZS_PATH_MAX + 32]; //  coordinator, committer, writer
    char cluster_json[ZS_PATH_MAX + 32];
    zs_io_lock_t *lock; //  <checkpoints dir>/.cluster.lock (io_lock.h)
    child_t *kids;      //  [0] coordinator, [1] committer, [2 + i] writer i
    int nkids;
} s_roles_t;

//  The role binaries live beside this one. ZS_CMD_GO_ON, or the exit code.
static int
s_find_binaries (s_roles_t *roles)
{
    char self_path[ZS_PATH_MAX];
    if (zs_cmd_self_path (self_path, sizeof self_path) != 0) {
        fprintf (stderr, "zsink cluster: cannot find my own binary\n");
        return 1;
    }
    char *slash = strrchr (self_path, '/');
    *slash = 0;
    snprintf (roles->bin[0], sizeof roles->bin[0], "%s/zsink-coordinator", self_path);
    snprintf (roles->bin[1], sizeof roles->bin[1], "%s/zsink-committer", self_path);
    snprintf (roles->bin[2], sizeof roles->bin[2], "%s/zsink-writer", self_path);
    return ZS_CMD_GO_ON;
}

//  The coordinator's and the committer's endpoints, on free ports.
//  ZS_CMD_GO_ON, or the exit code.
static int
s_pick_endpoints (s_roles_t *roles, const s_args_t *args)
{
    int cport = s_free_port (), dport = s_free_port ();
    while (dport == cport)
        dport = s_free_port ();
    if (cport < 0 || dport < 0) {
        fprintf (stderr, "zsink cluster: no free TCP port on 127.0.0.1\n");
        return 1;
    }
    //  (with a role wrapper the roles may bind in other network namespaces,
    //  where a port free here is free too: those are fresh)
    if (strlen (args->coord_host) > 64 || strlen (args->commit_host) > 64) {
        fprintf (stderr, "zsink cluster: host name too long\n");
        return 2;
    }
    snprintf (roles->coord_ep, sizeof roles->coord_ep, "tcp://%s:%d", args->coord_host, cport);
    snprintf (roles->commit_ep, sizeof roles->commit_ep, "tcp://%s:%d", args->commit_host, dport);
    return ZS_CMD_GO_ON;
}

//  Is kv ("key=value") one of the credentials?
static bool
s_secret_override (const char *kv)
{
    kv += strspn (kv, " \t");
    return strncmp (kv, "s3.access-key", 13) == 0 || strncmp (kv, "s3.secret-key", 13) == 0;
}

//  coordinator: the configuration as given to us
static void
s_coordinator_argv (s_roles_t *roles, const s_args_t *args)
{
    child_t *co = &roles->kids[0];
    snprintf (co->name, sizeof co->name, "coordinator");
    int a = 0;
    co->argv[a++] = roles->bin[0];
    if (args->config.file) {
        co->argv[a++] = "-c";
        co->argv[a++] = (char *) args->config.file;
    }
    for (int i = 0; i < args->config.n_overrides; i++) {
        if (s_secret_override (args->config.overrides[i]))
            continue; //  in the environment (s_parse_args)
        co->argv[a++] = "-D";
        co->argv[a++] = (char *) args->config.overrides[i];
    }
    co->argv[a++] = "--bind";
    co->argv[a++] = roles->coord_ep;
    co->argv[a++] = "--job-id";
    co->argv[a++] = roles->job_id;
    if (args->restore_from) {
        co->argv[a++] = "--restore-from";
        co->argv[a++] = (char *) args->restore_from;
    }
}

//  The committer and the writers: the endpoints and the keys.
static void
s_participant_argvs (s_roles_t *roles)
{
    child_t *cm = &roles->kids[1];
    snprintf (cm->name, sizeof cm->name, "committer");
    //  --keys= (empty: no CURVE) also overrides a ZSINK_KEYS_DIR of ours
    char *cm_argv[] = {roles->bin[1], "--coordinator",  roles->coord_ep,
                       "--bind",      roles->commit_ep, roles->keys_arg,
                       NULL};
    memcpy (cm->argv, cm_argv, sizeof cm_argv);
    for (int i = 0; i < roles->nkids - 2; i++) {
        child_t *w = &roles->kids[2 + i];
        snprintf (w->name, sizeof w->name, "writer-%d", i);
        snprintf (w->index, sizeof w->index, "%d", i);
        char *w_argv[] = {roles->bin[2], "--coordinator",  roles->coord_ep,
                          "--committer", roles->commit_ep, roles->keys_arg,
                          "--index",     w->index,         NULL};
        memcpy (w->argv, w_argv, sizeof w_argv);
    }
}

//  The job's processes, not yet started. ZS_CMD_GO_ON, or the exit code.
static int
s_plan (s_roles_t *roles, const s_args_t *args)
{
    const zs_config_t *cfg = &args->cfg;
    snprintf (roles->keys_arg, sizeof roles->keys_arg, "--keys=%s",
              cfg->curve_enabled ? cfg->curve_keys_dir : "");
    int rc = s_find_binaries (roles);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    if (args->job_arg)
        snprintf (roles->job_id, sizeof roles->job_id, "%s", args->job_arg);
    else
        zs_new_job_id (roles->job_id);
    rc = s_pick_endpoints (roles, args);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    roles->nkids = cfg->parallelism + 2;
    roles->kids = calloc (roles->nkids, sizeof *roles->kids);
    s_coordinator_argv (roles, args);
    s_participant_argvs (roles);
    return ZS_CMD_GO_ON;
}

static void
s_catch_signals (void)
{
    struct sigaction sa;
    memset (&sa, 0, sizeof sa);
    sa.sa_handler = s_on_signal;
    sigaction (SIGINT, &sa, NULL);
    sigaction (SIGTERM, &sa, NULL);
    sigaction (SIGUSR1, &sa, NULL);
    signal (SIGPIPE, SIG_IGN);
    if (s_child_pipe[0] < 0 && pipe2 (s_child_pipe, O_CLOEXEC | O_NONBLOCK) == 0) {
        sa.sa_handler = s_on_child;
        sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
        sigaction (SIGCHLD, &sa, NULL);
    }
}

//  Where `zsink status/stop/cancel -c JOB.yaml` finds us.
static void
s_write_cluster_json (s_roles_t *roles, const zs_config_t *cfg)
{
    char err[ZS_ERRLEN];
    zs_io_mkdirs (cfg->checkpoints_dir);
    snprintf (roles->cluster_json, sizeof roles->cluster_json, "%s/cluster.json",
              cfg->checkpoints_dir);
    json_t *info =
        json_pack ("{s:i, s:s, s:s, s:s}", "pid", (int) getpid (), "job_id", roles->job_id,
                   "coordinator", roles->coord_ep, "committer", roles->commit_ep);
    char *text = json_dumps (info, JSON_COMPACT);
    json_decref (info);
    zs_io_write_atomic (roles->cluster_json, text, strlen (text), err, sizeof err);
    free (text);
}

//  One cluster per state.checkpoints.dir (its coordinator checks the same
//  for itself): a second would overwrite our cluster.json and run a second
//  job into the same table. The lock lives as long as we do.
//  ZS_CMD_GO_ON, or the exit code.
static int
s_lock_checkpoints (s_roles_t *roles, const zs_config_t *cfg)
{
    char path[ZS_PATH_MAX + 32], who[128], holder[128], err[ZS_ERRLEN];
    zs_io_mkdirs (cfg->checkpoints_dir);
    snprintf (path, sizeof path, "%s/.cluster.lock", cfg->checkpoints_dir);
    snprintf (who, sizeof who, "pid %d, job %s\n", (int) getpid (), roles->job_id);
    //  a lease (S3) of a cluster killed with kill -9 lapses after its ttl
    int64_t ttl = zs_io_lease_ttl (cfg->heartbeat_timeout_ms);
    int rc = zs_io_lock_take (path, who, ttl, zs_io_is_remote (path) ? ttl + 2000 : 0, &roles->lock,
                              holder, sizeof holder, err, sizeof err);
    if (rc == ZS_ECONFLICT) {
        fprintf (stderr,
                 "zsink cluster: another zsink cluster (%s) runs with state.checkpoints.dir %s: "
                 "two jobs of one checkpoint directory cannot run at once\n",
                 holder[0] ? holder : "pid unknown", cfg->checkpoints_dir);
        return 2;
    }
    if (rc < 0) {
        fprintf (stderr, "zsink cluster: %s\n", err);
        return 1;
    }
    return ZS_CMD_GO_ON;
}

//  Start every role. ZS_CMD_GO_ON, or the exit code.
static int
s_start (s_roles_t *roles, const s_args_t *args)
{
    int code = s_lock_checkpoints (roles, &args->cfg);
    if (code != ZS_CMD_GO_ON)
        return code;
    //  log.dir and log.level: files per process, and the level the
    //  children log at from their first line
    if (args->cfg.log_dir[0]) {
        if (zs_io_mkdirs (args->cfg.log_dir) < 0) {
            fprintf (stderr, "zsink cluster: log.dir %s: %s\n", args->cfg.log_dir,
                     strerror (errno));
            return 2;
        }
        snprintf (s_log_dir, sizeof s_log_dir, "%s", args->cfg.log_dir);
    }
    setenv ("ZSINK_LOG_LEVEL", args->cfg.log_level, 1);
    s_catch_signals ();
    s_write_cluster_json (roles, &args->cfg);
    int n = roles->nkids - 2;
    s_say ("Starting job %s: coordinator %s, committer %s, %d writer%s.", roles->job_id,
           roles->coord_ep, roles->commit_ep, n, n == 1 ? "" : "s");
    for (int i = 0; i < roles->nkids; i++)
        if (s_spawn (&roles->kids[i], args->role_wrapper, true) < 0) {
            fprintf (stderr, "zsink cluster: cannot start %s: %s\n", roles->kids[i].name,
                     strerror (errno));
            return 1;
        }
    return ZS_CMD_GO_ON;
}

//  ---------------------------------------------------------------------
//  Supervise: forward the output, restart the children that die, show the
//  progress, pass the signals on, and end with the job.

//  The running cluster: what the loop's steps share.
typedef struct {
    const zs_config_t *cfg;
    child_t *kids; //  [0] coordinator, [1] committer, [2 + i] writer i
    int nkids;
    const char *job_id;
    const char *role_wrapper;
    zsock_t *ctl; //  client DEALER to the coordinator
    zs_sender_t from;
    uint64_t ctl_seq;
    progress_t prog;
    int64_t started, run_for_ms, next_status, next_progress;
    int64_t status_lines;     //  the coordinator's lines forwarded when status was last asked
    bool canceling, stopping; //  request sent to the current coordinator
    int64_t cancel_at;        //  when the cancel was first asked (0: not)
    int64_t running_at;       //  when a status last said RUNNING
    bool ended_by_us;         //  we ended the job: the coordinator could not
    const char *end_status;   //  then: CANCELED, or FAILED (restart limit)
    bool job_over;            //  the coordinator decided, or we canceled
    int64_t over_deadline;    //  then: children left after this get SIGTERM
    int result;
} run_t;

//  The progress line, every 2 s or so, when a status reply comes: never
//  from an older one. And not from one the coordinator may have made
//  before a line of its already shown (its commit line): a line forwarded
//  between the request and the reply may be newer than the reply, which
//  then waits for the next.
static void
s_progress (run_t *run)
{
    int64_t now = zs_clock_mono_ms ();
    if (now < run->next_progress || run->kids[0].lines != run->status_lines)
        return;
    run->next_progress = now + 2000;
    progress_t *p = &run->prog;
    char extra[96] = "", rate[32];
    int n = snprintf (extra, sizeof extra, "%s rows/s",
                      zs_progress_num ((int64_t) (p->rate + 0.5), rate, sizeof rate));
    if (p->percent >= 0)
        n += snprintf (extra + n, sizeof extra - n, ", %.1f%%", p->percent);
    if (p->eta_ms >= 0)
        snprintf (extra + n, sizeof extra - n, ", ETA %lld s",
                  (long long) ((p->eta_ms + 999) / 1000));
    s_say ("progress: state %s, rows read %lld, rows committed %lld (%s), last checkpoint %lld, "
           "last snapshot %lld, restarts %lld",
           p->state[0] ? p->state : "STARTING", (long long) p->rows_read,
           (long long) p->rows_committed, extra, (long long) p->last_checkpoint,
           (long long) p->last_snapshot, (long long) p->restarts);
}

//  Wait (at most 100 ms) for output of a child or a reply of the
//  coordinator; forward the output, take the replies.
static void
s_poll_io (run_t *run)
{
    struct pollfd pfds[MAX_CHILDREN + 2];
    int map[MAX_CHILDREN + 2];
    int np = 0;
    for (int i = 0; i < run->nkids && np < MAX_CHILDREN; i++)
        if (run->kids[i].fd >= 0) {
            pfds[np].fd = run->kids[i].fd;
            pfds[np].events = POLLIN;
            map[np++] = i;
        }
    int ctl_fd = -1;
    size_t fdlen = sizeof ctl_fd;
    zmq_getsockopt (zsock_resolve (run->ctl), ZMQ_FD, &ctl_fd, &fdlen);
    pfds[np].fd = ctl_fd;
    pfds[np].events = POLLIN;
    map[np++] = -1;
    pfds[np].fd = s_child_pipe[0]; //  -1 (ignored by poll) if it could not be made
    pfds[np].events = POLLIN;
    map[np++] = -2;
    poll (pfds, np, 100);
    for (int i = 0; i < np; i++)
        if (map[i] >= 0 && (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            s_drain (&run->kids[map[i]]);
    char wake[64];
    while (s_child_pipe[0] >= 0 && read (s_child_pipe[0], wake, sizeof wake) > 0)
        ; //  s_reap, next, collects whoever it was
    //  ZMQ_FD is edge-triggered: drain every reply, whatever poll said
    while (1) {
        zs_env_t *reply = NULL;
        char err[ZS_ERRLEN];
        int got = zs_env_recv (run->ctl, NULL, 0, &reply, err, sizeof err);
        if (got == 0)
            break;
        if (got == 1 && reply->body_case == ZSINK__ENVELOPE__BODY_CLIENT_REPLY) {
            //  which reply by its top-level keys: a stop's names the
            //  savepoint, a status names the job (and holds "savepoint"
            //  fields deeper down, in its history)
            const char *json = reply->client_reply->json;
            json_t *doc = json_loads (json, 0, NULL);
            if (json_is_string (json_object_get (doc, "savepoint")))
                s_say ("Stopped with savepoint: %s", json);
            else if (json_is_string (json_object_get (doc, "job_id"))) {
                s_parse_status (json, &run->prog);
                if (!strcmp (run->prog.state, "RUNNING"))
                    run->running_at = zs_clock_mono_ms ();
                s_progress (run);
            } else if (!reply->client_reply->ok)
                s_say ("The coordinator says: %s", json);
            json_decref (doc);
        }
        zs_env_free (&reply);
    }
}

//  The delay before restarting c, which ended with exit code (-1: killed),
//  and the count of its exits 75 in a row, this one included.
static int64_t
s_restart_delay (const run_t *run, child_t *c, int code)
{
    int64_t delay = run->cfg->restart_delay_ms;
    //  a delay configured above the cap is kept as it is
    for (int k = 0; code == ZS_EXIT_RESTART && k < c->waits && delay < S_WAIT_MAX_MS; k++)
        delay = delay * 2 < S_WAIT_MAX_MS ? delay * 2 : S_WAIT_MAX_MS;
    c->waits = code == ZS_EXIT_RESTART ? c->waits + 1 : 0;
    return delay;
}

//  The coordinator decided: the job is over.
static void
s_job_over (run_t *run, int code)
{
    run->job_over = true;
    //  exit 2: the others were never told to go; no point waiting for them
    run->over_deadline = zs_clock_mono_ms () + (code == 2 ? 0 : 3000);
    run->result = code == 0 ? 0 : code == 2 ? 2 : 1;
    if (code == 2)
        s_say ("The job cannot run: no restart can help; see the log above.");
    else if (code != 0)
        s_say ("The job failed for good (coordinator exit status %d); see its log above.", code);
}

//  A signal's name as kill -l spells it, SIG before (SIGKILL).
static const char *
s_signal_name (int sig)
{
    static const char *names[] = {
        "",          "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",   "SIGTRAP", "SIGABRT", "SIGBUS",
        "SIGFPE",    "SIGKILL", "SIGUSR1",   "SIGSEGV", "SIGUSR2",  "SIGPIPE", "SIGALRM", "SIGTERM",
        "SIGSTKFLT", "SIGCHLD", "SIGCONT",   "SIGSTOP", "SIGTSTP",  "SIGTTIN", "SIGTTOU", "SIGURG",
        "SIGXCPU",   "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO",   "SIGPWR",  "SIGSYS"};
    return sig > 0 && sig < (int) (sizeof names / sizeof *names) ? names[sig]
                                                                 : "a real-time signal";
}

//  Our event log (events.h), in the job's directory once its coordinator
//  made it: opened at our first event.
static void
s_open_events (const run_t *run)
{
    if (zs_events_on ())
        return;
    char dir[2 * ZS_PATH_MAX];
    snprintf (dir, sizeof dir, "%s/%s", run->cfg->checkpoints_dir, run->job_id);
    zs_events_open (dir, "cluster");
}

//  Child c (pid) ended, or was started again: an event in the job's event
//  log (events.h), which `zsink timeline` draws as the end of the process's
//  lane (with its signal) and the start of its successor's.
static void
s_child_event (const run_t *run, const child_t *c, pid_t pid, const int *status)
{
    s_open_events (run);
    if (!status)
        zs_event ("spawn", "\"role\":\"%s\",\"role_pid\":%d", c->name, (int) pid);
    else if (WIFSIGNALED (*status))
        zs_event ("exit", "\"role\":\"%s\",\"role_pid\":%d,\"signal\":%d,\"sig\":\"%s\"", c->name,
                  (int) pid, WTERMSIG (*status), s_signal_name (WTERMSIG (*status)));
    else
        zs_event ("exit", "\"role\":\"%s\",\"role_pid\":%d,\"status\":%d", c->name, (int) pid,
                  WEXITSTATUS (*status));
}

//  The job's end when we ended it, not its coordinator: a "state" event
//  as the coordinator's (drawn on the lane of the last coordinator).
static void
s_job_state_event (const run_t *run, const char *state)
{
    s_open_events (run);
    zs_event ("state",
              "\"role\":\"coordinator\",\"state\":\"%s\",\"why\":\"ended by zsink cluster\"",
              state);
}

//  How child c (pid) ended, for the log: "writer-0 (pid 42) exited on
//  signal 9 (SIGKILL)", "… exited with status 137".
static const char *
s_how_ended (const child_t *c, pid_t pid, int status, char *buf, size_t len)
{
    if (WIFSIGNALED (status))
        snprintf (buf, len, "%s (pid %d) exited on signal %d (%s)", c->name, (int) pid,
                  WTERMSIG (status), s_signal_name (WTERMSIG (status)));
    else
        snprintf (buf, len, "%s (pid %d) exited with status %d", c->name, (int) pid,
                  WIFEXITED (status) ? WEXITSTATUS (status) : -1);
    return buf;
}

//  A child is to be restarted: why, and when.
static void
s_say_restart (const child_t *c, pid_t pid, int status, bool crashed, int64_t delay)
{
    int code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
    char how[128];
    if (WIFSIGNALED (status))
        s_say ("%s; restarting in %lld ms.", s_how_ended (c, pid, status, how, sizeof how),
               (long long) delay);
    else
        s_say ("%s (pid %d) %s (exit %d); restarting in %lld ms.", c->name, (int) pid,
               code == ZS_EXIT_RESTART ? "stopped to be restarted"
               : crashed               ? "crashed"
                                       : "failed",
               code, (long long) delay);
}

//  The restart limit holds for a child's own restarts too, not only for the
//  coordinator's failovers: a child that dies again and again before the
//  job is back to RUNNING (a committer that cannot take its lock, a role
//  that crashes at start) is restarted restart-strategy.fixed-delay.attempts
//  times, then the job fails (exit 1): every role stopped, what they left
//  cleaned (s_clean_after). An exit 75 (a full disk: may pass, retried
//  calmly) does not count. True when the limit is reached.
static bool
s_restart_limit (run_t *run, child_t *c, pid_t pid, int status)
{
    int code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
    if (run->running_at > c->spawned_at)
        c->early_exits = 0; //  it saw the job running: a failover's to count
    if (code == ZS_EXIT_RESTART || ++c->early_exits <= run->cfg->restart_attempts)
        return false;
    char how[128];
    s_say ("%s; %s died %d times in a row before the job ran again; "
           "restart-strategy.fixed-delay.attempts is %d: the job fails. See its log above.",
           s_how_ended (c, pid, status, how, sizeof how), c->name, c->early_exits,
           run->cfg->restart_attempts);
    run->job_over = run->ended_by_us = true;
    run->end_status = "FAILED";
    run->over_deadline = zs_clock_mono_ms ();
    run->result = 1;
    return true;
}

//  Child i (pid) ended with status: decide what that end means (see the
//  rules at the top of this file).
static void
s_on_exit (run_t *run, int i, pid_t pid, int status)
{
    child_t *c = &run->kids[i];
    c->pid = 0;
    while (c->fd >= 0)
        s_drain (c);
    s_child_event (run, c, pid, &status);
    //  137: a fail point's crash; ZS_EXIT_RESTART: a process that
    //  stopped on a condition that may pass (a full disk)
    bool crashed = WIFSIGNALED (status)
                   || (WIFEXITED (status)
                       && (WEXITSTATUS (status) == 137 || WEXITSTATUS (status) == ZS_EXIT_RESTART));
    int code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
    int64_t delay = s_restart_delay (run, c, code);
    if (i == 0 && !crashed && !run->ended_by_us)
        s_job_over (run, code);
    else if (!crashed && (code == 2 || code == 3) && !run->job_over) {
        //  a participant that cannot run (a bad configuration; 3: another
        //  committer holds this job's lock, i.e. the same job id runs
        //  elsewhere): no restart helps
        s_say ("%s (pid %d) cannot run (exit %d); see its log above. Stopping.", c->name, (int) pid,
               code);
        c->done = true;
        s_job_over (run, 2);
        //  the coordinator too: it would wait for this role for ever
        run->ended_by_us = true;
        run->end_status = "FAILED";
    } else if (run->job_over || (!crashed && code == 0))
        c->done = true; //  a participant told to shut down
    else if (s_restart_limit (run, c, pid, status))
        c->done = true;
    else {
        s_say_restart (c, pid, status, crashed, delay);
        c->restart_at = zs_clock_mono_ms () + delay;
    }
}

//  Collect the children that ended.
static void
s_reap (run_t *run)
{
    int status;
    pid_t pid;
    while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
        for (int i = 0; i < run->nkids; i++)
            if (run->kids[i].pid == pid)
                s_on_exit (run, i, pid, status);
}

//  Cancel without the coordinator: every role is stopped (SIGTERM, then
//  SIGKILL 3 s later: s_wind_down), none restarted; once they are gone,
//  s_clean_after cleans what they left (cluster_clean.c).
static void
s_end_ourselves (run_t *run, const char *why)
{
    s_say ("Canceling job %s without its coordinator (%s): stopping every process.", run->job_id,
           why);
    run->job_over = run->ended_by_us = true;
    run->end_status = "CANCELED";
    run->over_deadline = zs_clock_mono_ms ();
    run->result = 0;
}

//  Start again the children whose restart delay is over.
static void
s_restart_due (run_t *run)
{
    int64_t now = zs_clock_mono_ms ();
    for (int i = 0; i < run->nkids; i++) {
        child_t *c = &run->kids[i];
        if (!c->restart_at || now < c->restart_at || c->pid)
            continue;
        c->restart_at = 0;
        if (i == 0 && run->cancel_at && c->waits > 0) {
            //  A coordinator that stopped to be restarted (exit 75: its
            //  checkpoint disk full, say) would likely stop again before it
            //  could end the job: cancel without it. One that crashed is
            //  restarted and asked again.
            s_end_ourselves (run, "the coordinator stopped on a full disk or an I/O error");
            return;
        }
        if (s_spawn (c, run->role_wrapper, false) < 0) {
            s_say ("cannot restart %s: %s", c->name, strerror (errno));
            continue;
        }
        s_child_event (run, c, c->pid, NULL);
        //  A cancel or stop the dead coordinator had not carried out is
        //  asked again of the new one (it resumes the job otherwise).
        if (i == 0) {
            if (run->canceling)
                s_cancel_signal = 1;
            if (run->stopping)
                s_savepoint_signal = 1;
            run->canceling = run->stopping = false;
        }
    }
}

//  Cancel (signal or --run-for), stop with savepoint (SIGUSR1), or the next
//  status query for the progress line.
static void
s_requests (run_t *run)
{
    int64_t now = zs_clock_mono_ms ();
    Zsink__ClientRequest req;
    zsink__client_request__init (&req);
    bool run_over = run->run_for_ms && now - run->started >= run->run_for_ms;
    if ((s_cancel_signal || run_over) && !run->canceling) {
        run->canceling = true;
        //  said once: asked again (silently) until a coordinator takes it
        if (!run->cancel_at)
            s_say ("Canceling job %s%s.", run->job_id,
                   s_cancel_signal ? " (signal)" : " (--run-for elapsed)");
        run->cancel_at = run->cancel_at ? run->cancel_at : now;
        s_cancel_signal = 0;
        req.kind = ZSINK__CLIENT_REQUEST__KIND__CANCEL;
    } else if (s_savepoint_signal && !run->stopping && !run->canceling) {
        run->stopping = true;
        s_savepoint_signal = 0;
        s_say ("Stopping job %s with a savepoint.", run->job_id);
        req.kind = ZSINK__CLIENT_REQUEST__KIND__STOP;
        req.has_savepoint = req.savepoint = true;
    } else if (now >= run->next_status) {
        run->next_status = now + 1000;
        run->status_lines = run->kids[0].lines;
        req.kind = ZSINK__CLIENT_REQUEST__KIND__STATUS;
    } else
        return;
    zs_env_t env;
    zs_env_init (&env, &run->from, ++run->ctl_seq);
    env.body_case = ZSINK__ENVELOPE__BODY_CLIENT_REQUEST;
    env.client_request = &req;
    if (zs_env_send (run->ctl, NULL, &env) == 0)
        return;
    //  Not connected (the coordinator is restarting; IMMEDIATE=1 queues
    //  nothing): ask again on the next round.
    if (req.kind == ZSINK__CLIENT_REQUEST__KIND__CANCEL) {
        run->canceling = false;
        s_cancel_signal = 1;
    } else if (req.kind == ZSINK__CLIENT_REQUEST__KIND__STOP) {
        run->stopping = false;
        s_savepoint_signal = 1;
    }
}

//  The job is over: give the participants a moment to leave on their own
//  (they got Shutdown), then SIGTERM, then SIGKILL. True when all are gone.
static bool
s_wind_down (run_t *run)
{
    int64_t now = zs_clock_mono_ms ();
    bool any = false;
    for (int i = run->ended_by_us ? 0 : 1; i < run->nkids; i++)
        if (run->kids[i].pid) {
            any = true;
            if (now > run->over_deadline)
                kill (run->kids[i].pid, now > run->over_deadline + 3000 ? SIGKILL : SIGTERM);
        }
    return !any;
}

//  The status client: a DEALER kept open, polled with the children.
//  ZS_CMD_GO_ON, or the exit code.
static int
s_connect (run_t *run, const s_roles_t *roles, const s_args_t *args)
{
    run->cfg = &args->cfg;
    run->kids = roles->kids;
    run->nkids = roles->nkids;
    run->job_id = roles->job_id;
    run->role_wrapper = args->role_wrapper;
    run->run_for_ms = args->run_for_ms;
    char err[ZS_ERRLEN];
    run->ctl = zs_client_connect (roles->coord_ep, &run->from, err, sizeof err);
    if (!run->ctl) {
        fprintf (stderr, "zsink cluster: %s\n", err);
        return 1;
    }
    run->started = zs_clock_mono_ms ();
    run->next_status = run->started + 1000;
    run->next_progress = run->started + 2000;
    return ZS_CMD_GO_ON;
}

static void
s_supervise (run_t *run)
{
    while (1) {
        s_poll_io (run);
        s_reap (run);
        if (run->job_over) {
            if (s_wind_down (run))
                break;
            continue;
        }
        if (run->cancel_at && zs_clock_mono_ms () - run->cancel_at > S_CANCEL_WAIT_MS)
            s_end_ourselves (run, "the coordinator did not end the job in time");
        s_restart_due (run);
        s_requests (run);
    }
}

//  After a job that did not finish, with every role gone: what the roles
//  could not clean themselves (cluster_clean.c). A job we ended ourselves
//  is marked CANCELED in job.json if the disk lets us.
static void
s_clean_after (run_t *run)
{
    char dir[2 * ZS_PATH_MAX], err[ZS_ERRLEN], said[2 * ZS_ERRLEN];
    snprintf (dir, sizeof dir, "%s/%s", run->cfg->checkpoints_dir, run->job_id);
    zs_job_meta_t meta;
    bool have = zs_job_meta_read (dir, &meta, err, sizeof err) == 0;
    bool ended = have
                 && (!strcmp (meta.status, "CANCELED") || !strcmp (meta.status, "FAILED")
                     || (!strcmp (meta.status, "RUNNING") && run->result == 2));
    if (!ended && !run->ended_by_us)
        return;
    int n = zs_cluster_clean (run->cfg, run->cfg->checkpoints_dir, run->job_id, said, sizeof said);
    if (n != 0)
        s_say ("%s after job %s: %s.", n > 0 ? "Cleaned" : "Could not clean", run->job_id, said);
    if (!run->ended_by_us)
        return;
    if (n < 0 && run->result == 0)
        run->result = 1; //  canceled, but not clean: say so by the status
    if (have && !strcmp (meta.status, "RUNNING")) {
        snprintf (meta.status, sizeof meta.status, "%s", run->end_status);
        s_job_state_event (run, run->end_status);
        if (zs_job_meta_write (dir, &meta, err, sizeof err) != 0)
            s_say ("Job %s could not be marked %s (%s): started again with this job id, it "
                   "resumes from its latest checkpoint.",
                   run->job_id, run->end_status, err);
    }
}

//  How the job ended, in Flink's words: FINISHED (a stop with a
//  savepoint too), CANCELED or FAILED; job.json says, unless we ended it.
static const char *
s_outcome (const run_t *run, const zs_job_meta_t *meta, bool have)
{
    if (run->result != 0)
        return "FAILED";
    if (run->ended_by_us)
        return run->end_status;
    if (have && !strcmp (meta->status, "CANCELED"))
        return "CANCELED";
    return "FINISHED";
}

//  The final line: the outcome, how long, this job's rows and their
//  average rate; then what the table holds (it has the last word). A job
//  that failed names the checkpoint to restore from.
static void
s_say_over (const run_t *run)
{
    const char *path = run->cfg->table_path;
    int64_t restarts = run->prog.restarts;
    char err[ZS_ERRLEN], what[ZS_PATH_MAX + 128];
    zs_snapshot_t snap;
    zs_table_t *table = zs_table_open (path, NULL, err, sizeof err);
    if (table && zs_table_latest_snapshot (table, &snap, err, sizeof err) == 0)
        snprintf (what, sizeof what, "table %s holds %lld rows in snapshot %lld (identifier %lld)",
                  path, (long long) snap.total_record_count, (long long) snap.id,
                  (long long) snap.commit_identifier);
    else
        snprintf (what, sizeof what, "no snapshot in table %s", path);
    zs_table_destroy (&table);
    char dir[2 * ZS_PATH_MAX];
    snprintf (dir, sizeof dir, "%s/%s", run->cfg->checkpoints_dir, run->job_id);
    zs_job_meta_t meta;
    bool have = zs_job_meta_read (dir, &meta, err, sizeof err) == 0;
    int64_t rows = have ? meta.rows_committed : run->prog.rows_committed;
    int64_t took = zs_clock_mono_ms () - run->started;
    char n[32], rate[32];
    //  a blackhole job's rows went nowhere: they were read, not committed
    bool blackhole = !strcmp (run->cfg->sink_kind, "blackhole");
    s_say ("Job %s over: %s%s after %.1f s, %s rows of this job %s (%s rows/s on "
           "average); %s; %lld restart%s.",
           run->job_id, s_outcome (run, &meta, have),
           have && !strcmp (meta.status, "STOPPED") ? " (stopped with a savepoint)" : "",
           (double) took / 1000.0, zs_progress_num (rows, n, sizeof n),
           blackhole ? "read and dropped (sink.kind blackhole)" : "committed",
           zs_progress_num (took > 0 ? rows * 1000 / took : 0, rate, sizeof rate), what,
           (long long) restarts, restarts == 1 ? "" : "s");
    if (run->result == 0)
        return;
    int64_t chk = zs_chk_latest (dir, err, sizeof err);
    if (chk > 0)
        s_say ("Its last completed checkpoint is %s/chk-%lld: once the cause is fixed, "
               "`zsink cluster -c CONFIG --restore-from %s/chk-%lld` continues from it.",
               dir, (long long) chk, dir, (long long) chk);
    else if (run->result != 2)
        s_say ("It completed no checkpoint: a new run starts from the beginning.");
}

//  ---------------------------------------------------------------------

int
zs_cluster_cmd (int argc, char **argv)
{
    zs_log_set_name ("cluster");
    s_args_t args = {0};
    s_roles_t roles = {0};
    run_t run = {0};
    int rc = s_parse (&args, argc, argv);
    if (rc == ZS_CMD_GO_ON)
        rc = s_plan (&roles, &args);
    if (rc == ZS_CMD_GO_ON && args.restore_from)
        s_clean_restored (&args, roles.job_id);
    if (rc == ZS_CMD_GO_ON)
        rc = s_start (&roles, &args);
    if (rc == ZS_CMD_GO_ON)
        rc = s_connect (&run, &roles, &args);
    if (rc != ZS_CMD_GO_ON) {
        //  refused (exit 2: another cluster holds the directory) or failed
        //  to start: nothing of ours runs on, nothing to leave allocated
        zs_curve_destroy (&args.curve);
        zs_io_lock_release (&roles.lock);
        free (roles.kids);
        return rc;
    }
    s_supervise (&run);
    s_clean_after (&run);
    s_say_over (&run);
    zsock_destroy (&run.ctl);
    zs_curve_destroy (&args.curve);
    zs_io_unlink (roles.cluster_json);
    zs_io_lock_release (&roles.lock);
    free (roles.kids);
    return run.result;
}
