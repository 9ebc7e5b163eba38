/*  client.c - see client.h. */
#include "client.h"
#include "checkpoint.h"
#include "config.h"
#include "fs.h"
#include "io.h"
#include "net.h"
#include "cmd.h"
#include <jansson.h>
#include <stdio.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

zsock_t *
zs_client_connect (const char *endpoint, zs_sender_t *from, char *err, size_t errlen)
{
    char inst[16], rid[64];
    zs_net_instance (inst);
    snprintf (rid, sizeof rid, "client-%d-%s", (int) getpid (), inst);
    *from = (zs_sender_t){.job_id = "", .epoch = 0, .role = ZSINK__ROLE__ROLE_CLIENT, .index = -1};
    return zs_net_dealer (endpoint, rid, err, errlen);
}

int
zs_client_request (const char *endpoint, Zsink__ClientRequest__Kind kind, bool savepoint,
                   int timeout_ms, bool *ok_p, char **json_p, char *err, size_t errlen)
{
    zs_sender_t from;
    zsock_t *sock = zs_client_connect (endpoint, &from, err, errlen);
    if (!sock)
        return -1;
    zs_env_t env;
    zs_env_init (&env, &from, 1);
    Zsink__ClientRequest req;
    zsink__client_request__init (&req);
    req.kind = kind;
    req.has_savepoint = savepoint;
    req.savepoint = savepoint;
    env.body_case = ZSINK__ENVELOPE__BODY_CLIENT_REQUEST;
    env.client_request = &req;
    int64_t deadline = zs_clock_mono_ms () + timeout_ms;
    int rc = -1;
    bool sent = false;
    snprintf (err, errlen, "no answer from the coordinator at %s within %d ms", endpoint,
              timeout_ms);
    zpoller_t *poller = zpoller_new (sock, NULL);
    while (zs_clock_mono_ms () < deadline && !zsys_interrupted) {
        //  IMMEDIATE=1: sends fail until connected, so retry until then
        if (!sent)
            sent = zs_env_send (sock, NULL, &env) == 0;
        zpoller_wait (poller, sent ? 50 : 20);
        zs_env_t *reply = NULL;
        char derr[ZS_ERRLEN];
        int got = zs_env_recv (sock, NULL, 0, &reply, derr, sizeof derr);
        if (got == 1 && reply->body_case == ZSINK__ENVELOPE__BODY_CLIENT_REPLY) {
            *ok_p = reply->client_reply->ok;
            *json_p = strdup (reply->client_reply->json);
            zs_env_free (&reply);
            rc = 0;
            break;
        }
        zs_env_free (&reply);
    }
    zpoller_destroy (&poller);
    zsock_destroy (&sock);
    return rc;
}

//  A client knows a job configuration, not an endpoint: `zsink cluster`
//  picks free ports and leaves them in cluster.json beside the job's
//  checkpoints for as long as it runs.
int
zs_client_find_endpoint (const char *checkpoints_dir, char *endpoint, size_t len, char *err,
                         size_t errlen)
{
    char path[ZS_PATH_MAX + 32];
    snprintf (path, sizeof path, "%s/cluster.json", checkpoints_dir);
    size_t n;
    char *text = zs_io_read_file (path, 1 << 16, &n, err, errlen);
    if (!text)
        return -1;
    json_t *root = json_loads (text, 0, NULL);
    free (text);
    const char *ep = NULL;
    if (!root || json_unpack (root, "{s:s}", "coordinator", &ep) < 0) {
        snprintf (err, errlen, "%s: no coordinator endpoint in it", path);
        json_decref (root);
        return -1;
    }
    snprintf (endpoint, len, "%s", ep);
    json_decref (root);
    return 0;
}

//  Where the coordinator is: what status, stop and cancel share.
static void
s_usage_where (FILE *out)
{
    fprintf (out, "Without --coordinator, the endpoint is read from the cluster.json that\n"
                  "`zsink cluster` writes into state.checkpoints.dir (-c JOB.yaml names it).\n"
                  "Env ZSINK_COORDINATOR also names the endpoint.\n"
                  "With CURVE on (security.curve.enabled in JOB.yaml, or --keys DIR, env\n"
                  "ZSINK_KEYS_DIR) the request is sent with DIR/client.cert_secret.\n");
}

static void
s_usage_status (FILE *out)
{
    fprintf (out, "usage: zsink status [--coordinator EP | -c JOB.yaml] [-D key=value] [--json]\n"
                  "The job, its participants and its checkpoint history (the last\n"
                  "web.checkpoints.history); --json the document itself. With no cluster\n"
                  "running, -c JOB.yaml shows the last job of state.checkpoints.dir from its\n"
                  "files (job.json, history.json): how it ended, its rows committed and its\n"
                  "last snapshot.\n");
    s_usage_where (out);
}

static void
s_usage_stop (FILE *out)
{
    fprintf (out, "usage: zsink stop --savepoint [--coordinator EP | -c JOB.yaml] [--json]\n"
                  "Stop the job as Flink's `stop --savepoint` does: a final checkpoint, its\n"
                  "commit, then the processes end; prints the savepoint, which `zsink cluster\n"
                  "--restore-from` takes, in a sentence (--json: the coordinator's answer).\n"
                  "(zsink cancel stops without one.)\n");
    s_usage_where (out);
}

static void
s_usage_cancel (FILE *out)
{
    fprintf (out, "usage: zsink cancel [--coordinator EP | -c JOB.yaml] [--json]\n"
                  "Stop the job without a final checkpoint: what its last completed\n"
                  "checkpoint committed stays; rows read since are not committed (a restore\n"
                  "from that checkpoint reads them again). Says so in a sentence (--json:\n"
                  "the coordinator's answer).\n");
    s_usage_where (out);
}

//  The usage of the command argv[0] names.
static void (*s_usage_of (const char *cmd)) (FILE *)
{
    return strcmp (cmd, "stop") == 0     ? s_usage_stop
           : strcmp (cmd, "cancel") == 0 ? s_usage_cancel
                                         : s_usage_status;
}

//  `zsink status|stop|cancel`'s arguments and configuration.
typedef struct {
    const char *cmd; //  status, stop or cancel
    const char *endpoint;
    const char *keys;
    bool savepoint;
    bool json; //  status --json
    zs_config_t cfg;
    Zsink__ClientRequest__Kind kind;
    char found[ZS_PATH_MAX]; //  the endpoint cluster.json names
} s_args_t;

static int
s_on_option (int opt, const char *arg, void *self)
{
    s_args_t *args = self;
    char err[ZS_ERRLEN];
    int rc = 0;
    switch (opt) {
    case 'e':
        args->endpoint = arg;
        break;
    case 's':
        args->savepoint = true;
        break;
    case 'j':
        args->json = true;
        break;
    case 'k':
        args->keys = arg;
        break;
    case 'c':
        rc = zs_config_load_yaml (&args->cfg, arg, err, sizeof err);
        break;
    case 'D':
        rc = zs_config_set_kv (&args->cfg, arg, err, sizeof err);
        break;
    }
    if (rc < 0) {
        fprintf (stderr, "zsink %s: %s\n", args->cmd, err);
        return 2;
    }
    return ZS_CMD_GO_ON;
}

//  The request the subcommand makes. ZS_CMD_GO_ON, or the exit code.
static int
s_take_kind (s_args_t *args)
{
    if (strcmp (args->cmd, "status") == 0)
        args->kind = ZSINK__CLIENT_REQUEST__KIND__STATUS;
    else if (strcmp (args->cmd, "cancel") == 0)
        args->kind = ZSINK__CLIENT_REQUEST__KIND__CANCEL;
    else if (strcmp (args->cmd, "stop") == 0) {
        args->kind = ZSINK__CLIENT_REQUEST__KIND__STOP;
        if (!args->savepoint) {
            fprintf (stderr, "zsink stop: give --savepoint (use `zsink cancel` to stop "
                             "without one)\n");
            return 2;
        }
    } else {
        s_usage_status (stderr);
        return 2;
    }
    return ZS_CMD_GO_ON;
}

//  Without an endpoint given, the one of the cluster running the job of
//  -c JOB.yaml. ZS_CMD_GO_ON, or the exit code.
static int
s_find_coordinator (s_args_t *args)
{
    if (args->endpoint)
        return ZS_CMD_GO_ON;
    if (!*args->cfg.checkpoints_dir) {
        fprintf (stderr,
                 "zsink %s: say where the coordinator is: --coordinator EP, or "
                 "-c JOB.yaml of a running `zsink cluster`\n",
                 args->cmd);
        return 2;
    }
    char err[ZS_ERRLEN];
    //  the checkpoints may be on S3 (its keys from -D or the environment)
    if (zs_config_io_setup (&args->cfg, err, sizeof err) != 0) {
        fprintf (stderr, "zsink %s: %s\n", args->cmd, err);
        return 2;
    }
    if (zs_client_find_endpoint (args->cfg.checkpoints_dir, args->found, sizeof args->found, err,
                                 sizeof err)
        < 0) {
        //  status of a job that is over: from its files
        if (args->kind == ZSINK__CLIENT_REQUEST__KIND__STATUS)
            return ZS_CMD_GO_ON;
        fprintf (stderr, "zsink %s: no running cluster found: %s\n", args->cmd, err);
        return 1;
    }
    args->endpoint = args->found;
    return ZS_CMD_GO_ON;
}

//  The command line into args, and the coordinator to ask. ZS_CMD_GO_ON,
//  or the exit code.
static int
s_parse (s_args_t *args, int argc, char **argv)
{
    static const struct option opts[] = {{"coordinator", required_argument, 0, 'e'},
                                         {"savepoint", no_argument, 0, 's'},
                                         {"json", no_argument, 0, 'j'},
                                         {"config", required_argument, 0, 'c'},
                                         {"keys", required_argument, 0, 'k'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    args->cmd = argv[0];
    args->endpoint = getenv ("ZSINK_COORDINATOR");
    args->keys = getenv ("ZSINK_KEYS_DIR");
    zs_config_defaults (&args->cfg);
    int rc = zs_cmd_getopt (argc, argv, "c:D:h", opts, s_usage_of (args->cmd), s_on_option, args);
    if (rc == ZS_CMD_GO_ON)
        rc = s_take_kind (args);
    if (rc == ZS_CMD_GO_ON)
        rc = s_find_coordinator (args);
    return rc;
}

//  With CURVE on, the client's keys. ZS_CMD_GO_ON, or the exit code.
static int
s_use_keys (const s_args_t *args, zs_curve_t **curve_p)
{
    const char *keys = args->keys;
    if (args->cfg.curve_enabled && *args->cfg.curve_keys_dir)
        keys = args->cfg.curve_keys_dir;
    if (!keys || !*keys)
        return ZS_CMD_GO_ON;
    char err[ZS_ERRLEN];
    *curve_p = zs_curve_load (keys, ZSINK__ROLE__ROLE_CLIENT, -1, err, sizeof err);
    if (!*curve_p) {
        fprintf (stderr, "zsink %s: %s\n", args->cmd, err);
        return 2;
    }
    zs_net_use_curve (*curve_p);
    return ZS_CMD_GO_ON;
}

//  The newest job directory of checkpoints_dir (by its job.json's time)
//  into dir. false when there is none.
static bool
s_last_job_dir (const char *checkpoints_dir, char *dir, size_t len)
{
    zs_io_entry_t *e;
    size_t n;
    char err[ZS_ERRLEN];
    if (zs_io_listing (checkpoints_dir, &e, &n, err, sizeof err) != 0)
        return false;
    int64_t newest = 0;
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        char path[2 * ZS_PATH_MAX];
        zs_io_stat_t st;
        if (!e[i].is_dir || e[i].name[0] == '.')
            continue;
        snprintf (path, sizeof path, "%s/%s/job.json", checkpoints_dir, e[i].name);
        if (zs_io_stat (path, &st) == 0 && (!found || st.mtime_ms >= newest)) {
            newest = st.mtime_ms;
            snprintf (dir, len, "%s/%s", checkpoints_dir, e[i].name);
            found = true;
        }
    }
    zs_io_listing_free (&e, n);
    return found;
}

//  The status of the last job of the checkpoints directory, from its files
//  (no coordinator runs it any more): malloc'd JSON, or NULL + err.
static char *
s_status_from_files (const zs_config_t *cfg, char *err, size_t errlen)
{
    char dir[ZS_PATH_MAX + 64];
    zs_job_meta_t meta;
    if (!s_last_job_dir (cfg->checkpoints_dir, dir, sizeof dir)
        || zs_job_meta_read (dir, &meta, err, errlen) != 0) {
        snprintf (err, errlen, "no running cluster and no job in %s", cfg->checkpoints_dir);
        return NULL;
    }
    char path[sizeof dir + 16];
    snprintf (path, sizeof path, "%s/history.json", dir);
    json_t *history = json_load_file (path, 0, NULL);
    json_t *root = json_pack ("{s:s, s:s, s:s, s:I, s:b, s:s, s:o}", "job_id", meta.job_id, "state",
                              meta.status, "commit_user", meta.commit_user, "attempt",
                              (json_int_t) meta.epoch, "running", 0, "job_dir", dir, "history",
                              json_is_array (history) ? history : json_array ());
    //  what it committed, as its coordinator last wrote job.json
    json_object_set_new (root, "rows_committed", json_integer (meta.rows_committed));
    json_object_set_new (root, "last_snapshot", json_integer (meta.last_snapshot));
    json_object_set_new (root, "table_rows", json_integer (meta.table_rows));
    json_object_set_new (root, "running_ms", json_integer (meta.running_ms));
    if (history && !json_is_array (history))
        json_decref (history);
    char *text = json_dumps (root, JSON_COMPACT);
    json_decref (root);
    return text;
}

static const char *
s_time (int64_t ms, char *buf, size_t len)
{
    time_t t = (time_t) (ms / 1000);
    struct tm tm;
    size_t n = strftime (buf, len, "%Y-%m-%d %H:%M:%S", localtime_r (&t, &tm));
    snprintf (buf + n, len - n, ".%03d", (int) (ms % 1000));
    return buf;
}

static int64_t
s_int (json_t *o, const char *key)
{
    return (int64_t) json_integer_value (json_object_get (o, key));
}

//  The participants: name, pid, registered, ready, last heard.
static void
s_print_participants (json_t *parts)
{
    if (!json_array_size (parts))
        return;
    printf ("\n%-12s %8s %11s %6s %9s %11s\n", "participant", "pid", "registered", "ready",
            "finished", "last heard");
    size_t i;
    json_t *p;
    json_array_foreach (parts, i, p)
    {
        char heard[32] = "-";
        if (s_int (p, "last_heard_ms_ago") >= 0 && json_is_true (json_object_get (p, "registered")))
            snprintf (heard, sizeof heard, "%" PRId64 " ms ago", s_int (p, "last_heard_ms_ago"));
        printf ("%-12s %8" PRId64 " %11s %6s %9s %11s\n",
                json_string_value (json_object_get (p, "name")), s_int (p, "pid"),
                json_is_true (json_object_get (p, "registered")) ? "yes" : "no",
                json_is_true (json_object_get (p, "ready")) ? "yes" : "no",
                json_is_true (json_object_get (p, "finished")) ? "yes" : "no", heard);
    }
}

//  The splits: where each is, and for Kafka how far behind its end (the
//  first 50; the JSON has them all).
static void
s_print_splits (json_t *splits)
{
    if (!json_array_size (splits))
        return;
    bool kafka = json_object_get (json_array_get (splits, 0), "end") != NULL;
    printf ("\n%-32s %6s %12s %12s", "split", "writer", "offset", "checkpointed");
    if (kafka)
        printf (" %12s %10s %12s", "end", "lag", "committed");
    printf ("\n");
    size_t i;
    json_t *sp;
    json_array_foreach (splits, i, sp)
    {
        if (i == 50) {
            printf ("… and %zu more\n", json_array_size (splits) - 50);
            break;
        }
        printf ("%-32s %6" PRId64 " %12" PRId64 " %12" PRId64,
                json_string_value (json_object_get (sp, "id")), s_int (sp, "writer"),
                s_int (sp, "offset"), s_int (sp, "checkpointed"));
        if (kafka)
            printf (" %12" PRId64 " %10" PRId64 " %12" PRId64, s_int (sp, "end"), s_int (sp, "lag"),
                    s_int (sp, "committed"));
        printf ("%s\n", json_is_true (json_object_get (sp, "finished")) ? "  finished" : "");
    }
}

//  The progress of a running job: this job's rows committed, rows/s, and
//  for a bounded input percent and ETA (as the cluster's progress line).
static void
s_print_progress (json_t *p)
{
    if (!json_is_object (p))
        return;
    double percent = json_real_value (json_object_get (p, "percent"));
    printf ("\nprogress: %" PRId64 " rows of this job committed, %.0f rows/s",
            s_int (p, "rows_committed"), json_real_value (json_object_get (p, "rows_per_second")));
    if (percent >= 0)
        printf (", %.1f%% of %" PRId64 " rows", percent, s_int (p, "input_rows"));
    if (s_int (p, "eta_ms") >= 0)
        printf (", ETA %" PRId64 " s", (s_int (p, "eta_ms") + 999) / 1000);
    printf ("\n");
}

//  The checkpoint history, newest first, as Flink's web UI lists it.
static void
s_print_history (json_t *history)
{
    printf ("\ncheckpoint history (newest first):\n");
    if (!json_array_size (history)) {
        printf ("  none yet\n");
        return;
    }
    printf ("%8s %-11s %7s %-23s %9s %7s %12s %8s %9s %9s\n", "id", "status", "attempt",
            "trigger time", "duration", "acked", "committables", "bytes", "snapshot", "commit");
    size_t i;
    json_t *e;
    json_array_foreach (history, i, e)
    {
        char when[40], dur[24] = "-", acked[24], snap[24] = "-", commit[24] = "-";
        if (s_int (e, "duration_ms") >= 0)
            snprintf (dur, sizeof dur, "%" PRId64 " ms", s_int (e, "duration_ms"));
        snprintf (acked, sizeof acked, "%" PRId64 "/%" PRId64, s_int (e, "acked"),
                  s_int (e, "expected"));
        if (s_int (e, "snapshot"))
            snprintf (snap, sizeof snap, "%" PRId64, s_int (e, "snapshot"));
        if (s_int (e, "commit_latency_ms") >= 0)
            snprintf (commit, sizeof commit, "%" PRId64 " ms", s_int (e, "commit_latency_ms"));
        const char *status = json_string_value (json_object_get (e, "status"));
        printf ("%8" PRId64 " %-11s %7" PRId64 " %-23s %9s %7s %12" PRId64 " %8" PRId64
                " %9s %9s%s%s\n",
                s_int (e, "id"), status ? status : "?", s_int (e, "attempt"),
                s_time (s_int (e, "trigger_time"), when, sizeof when), dur, acked,
                s_int (e, "committables"), s_int (e, "bytes"), snap, commit,
                status && strcmp (status, "FAILED") == 0 ? "  " : "",
                status && strcmp (status, "FAILED") == 0
                    ? json_string_value (json_object_get (e, "reason"))
                    : "");
    }
}

//  zsink status for a person.
static void
s_print_status (const char *json)
{
    json_t *doc = json_loads (json, 0, NULL);
    if (!doc) {
        printf ("%s\n", json);
        return;
    }
    bool running = !json_is_false (json_object_get (doc, "running"));
    printf ("job %s: %s%s, attempt %" PRId64, json_string_value (json_object_get (doc, "job_id")),
            json_string_value (json_object_get (doc, "state")),
            running ? "" : " (not running: from its files)", s_int (doc, "attempt"));
    if (running)
        printf (", %" PRId64 " restart%s by this coordinator", s_int (doc, "restarts"),
                s_int (doc, "restarts") == 1 ? "" : "s");
    printf ("\n");
    printf ("commit user %s, checkpoints in %s\n",
            json_string_value (json_object_get (doc, "commit_user")),
            json_string_value (json_object_get (doc, "job_dir")));
    if (running) {
        json_t *ck = json_object_get (doc, "checkpoints");
        printf ("rows read %" PRId64 ", committed %" PRId64 " (snapshot %" PRId64
                ", identifier %" PRId64 "); checkpoints %" PRId64 " completed, %" PRId64
                " failed\n",
                s_int (doc, "rows_read"), s_int (doc, "rows_committed"),
                s_int (doc, "last_snapshot"), s_int (doc, "last_committed_identifier"),
                s_int (ck, "completed"), s_int (ck, "aborted"));
        json_t *drops = json_object_get (doc, "dropped");
        const char *reason;
        json_t *count;
        bool any = false;
        json_object_foreach (drops, reason, count)
        {
            if (json_integer_value (count)) {
                printf ("%s%s %" JSON_INTEGER_FORMAT, any ? ", " : "dropped messages: ", reason,
                        json_integer_value (count));
                any = true;
            }
        }
        if (any)
            printf ("\n");
        s_print_participants (json_object_get (doc, "participants"));
        s_print_splits (json_object_get (doc, "splits"));
        s_print_progress (json_object_get (doc, "progress"));
    } else
        printf ("rows committed %" PRId64 " (snapshot %" PRId64 "; the table then held %" PRId64
                " rows), running %.1f s\n",
                s_int (doc, "rows_committed"), s_int (doc, "last_snapshot"),
                s_int (doc, "table_rows"), (double) s_int (doc, "running_ms") / 1000.0);
    s_print_history (json_object_get (doc, "history"));
    json_decref (doc);
}

//  stop's and cancel's answer as a sentence; a refusal on stderr.
static void
s_print_sentence (const char *cmd, bool ok, const char *json)
{
    json_t *doc = json_loads (json, 0, NULL);
    const char *job = json_string_value (json_object_get (doc, "job_id"));
    const char *savepoint = json_string_value (json_object_get (doc, "savepoint"));
    const char *error = json_string_value (json_object_get (doc, "error"));
    int64_t last = s_int (doc, "last_checkpoint");
    if (!ok)
        fprintf (stderr, "zsink %s: the coordinator refused: %s\n", cmd, error ? error : json);
    else if (savepoint)
        printf ("Job %s stopped with a savepoint in %s. To go on from it: zsink cluster -c "
                "JOB.yaml --restore-from %s\n",
                job ? job : "?", savepoint, savepoint);
    else if (last > 0)
        printf ("Job %s is being canceled: it ends at its last completed checkpoint, %" PRId64
                ".\n",
                job ? job : "?", last);
    else
        printf ("Job %s is being canceled: it completed no checkpoint, so nothing of it is "
                "committed.\n",
                job ? job : "?");
    json_decref (doc);
}

//  Indented for a person; still one JSON document for a program.
static void
s_print_reply (const char *json)
{
    json_t *doc = json_loads (json, 0, NULL);
    char *pretty = doc ? json_dumps (doc, JSON_INDENT (2) | JSON_PRESERVE_ORDER) : NULL;
    printf ("%s\n", pretty ? pretty : json);
    free (pretty);
    json_decref (doc);
}

int
zs_client_cmd (int argc, char **argv)
{
    s_args_t args = {0};
    zs_curve_t *curve = NULL;
    int rc = s_parse (&args, argc, argv);
    if (rc == ZS_CMD_GO_ON)
        rc = s_use_keys (&args, &curve);
    if (rc != ZS_CMD_GO_ON)
        return rc;
    bool ok = false;
    char *json = NULL;
    char err[ZS_ERRLEN];
    if (!args.endpoint) { //  status, no cluster running: the files
        zs_curve_destroy (&curve);
        json = s_status_from_files (&args.cfg, err, sizeof err);
        if (!json) {
            fprintf (stderr, "zsink status: %s\n", err);
            return 1;
        }
        args.json ? s_print_reply (json) : s_print_status (json);
        free (json);
        return 0;
    }
    //  a savepoint waits for a checkpoint and its commit
    int timeout = args.kind == ZSINK__CLIENT_REQUEST__KIND__STOP ? 120000 : 5000;
    rc = zs_client_request (args.endpoint, args.kind, args.savepoint, timeout, &ok, &json, err,
                            sizeof err);
    zs_curve_destroy (&curve);
    if (rc < 0) {
        fprintf (stderr, "zsink %s: %s\n", args.cmd, err);
        return 1;
    }
    if (args.json)
        s_print_reply (json);
    else if (args.kind == ZSINK__CLIENT_REQUEST__KIND__STATUS && ok)
        s_print_status (json);
    else
        s_print_sentence (args.cmd, ok, json);
    free (json);
    return ok ? 0 : 1;
}
