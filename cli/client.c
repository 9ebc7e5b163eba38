/*  client.c - see client.h. */
#include "client.h"
#include "config.h"
#include "fs.h"
#include "net.h"
#include "cmd.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    char *text = zs_fs_read_file (path, 1 << 16, &n, err, errlen);
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

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink status [--coordinator EP | -c JOB.yaml] [-D key=value]\n"
                  "       zsink stop --savepoint [--coordinator EP | -c JOB.yaml]\n"
                  "       zsink cancel [--coordinator EP | -c JOB.yaml]\n"
                  "Without --coordinator, the endpoint is read from the cluster.json that\n"
                  "`zsink cluster` writes into state.checkpoints.dir. Env ZSINK_COORDINATOR\n"
                  "also names the endpoint.\n"
                  "With CURVE on (security.curve.enabled in JOB.yaml, or --keys DIR, env\n"
                  "ZSINK_KEYS_DIR) the request is sent with DIR/client.cert_secret.\n");
}

//  `zsink status|stop|cancel`'s arguments and configuration.
typedef struct {
    const char *cmd; //  status, stop or cancel
    const char *endpoint;
    const char *keys;
    bool savepoint;
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
        s_usage (stderr);
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
    if (zs_client_find_endpoint (args->cfg.checkpoints_dir, args->found, sizeof args->found, err,
                                 sizeof err)
        < 0) {
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
                                         {"config", required_argument, 0, 'c'},
                                         {"keys", required_argument, 0, 'k'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    args->cmd = argv[0];
    args->endpoint = getenv ("ZSINK_COORDINATOR");
    args->keys = getenv ("ZSINK_KEYS_DIR");
    zs_config_defaults (&args->cfg);
    int rc = zs_cmd_getopt (argc, argv, "c:D:h", opts, s_usage, s_on_option, args);
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
    //  a savepoint waits for a checkpoint and its commit
    int timeout = args.kind == ZSINK__CLIENT_REQUEST__KIND__STOP ? 120000 : 5000;
    rc = zs_client_request (args.endpoint, args.kind, args.savepoint, timeout, &ok, &json, err,
                            sizeof err);
    zs_curve_destroy (&curve);
    if (rc < 0) {
        fprintf (stderr, "zsink %s: %s\n", args.cmd, err);
        return 1;
    }
    s_print_reply (json);
    free (json);
    return ok ? 0 : 1;
}
