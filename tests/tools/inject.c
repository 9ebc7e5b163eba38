/*  zsink-inject - send hostile traffic to a zsink socket (integration tests).

    usage: zsink-inject ENDPOINT JOB_ID [--garbage N] [--foreign N] [--stale N]
                        [--register-stale] [--rid ROUTING_ID] [--seed S]
                        [--cert SECRET_CERT --server-cert PUBLIC_CERT]

    Connects a DEALER (routing id writer-0-deadbeef unless --rid) to ENDPOINT,
    the coordinator's control ROUTER or the committer's data ROUTER, and
    sends:
      --garbage N   N frames of random bytes (1..200 bytes each);
      --foreign N   N times: a Heartbeat, a Committable (with a file path)
                    and a BarrierMarker of job "otherjob", epoch 1;
      --stale N     N times: the same three with JOB_ID but epoch 0 (older
                    than any live epoch, which starts at 1), with data
                    sequence numbers 1, 2, 3 …;
      --register-stale  first of all, a Register(writer 0) with JOB_ID and
                    epoch 0.
    Every well-formed message names sender writer 0. The socket lingers up
    to 3 s at the end so that everything queued is delivered. Prints what
    it sent; exit 0, or 2 on bad usage, 1 if it could not connect.

    CURVE (docs/security.md): without --cert the socket speaks plain ZMTP,
    which a CURVE server refuses at the handshake. With --cert (a
    *.cert_secret: writer-1's, or one of keys the servers do not know) and
    --server-cert (the servers' public server.cert) it is a CURVE client.
    Either way it first waits up to 3 s for the handshake's outcome and
    prints "handshake: succeeded" or "handshake: failed (…)"; then it sends
    all the same (into a queue that dies with it, when it failed).
*/
#include "codec.h"
#include <czmq.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static int s_sent, s_unqueued;

//  Never block: after a refused handshake libzmq may drop the pipe, and a
//  DEALER without one would block forever. What cannot be queued is counted.
static void
s_send_frame (zsock_t *sock, const void *data, size_t len)
{
    if (zmq_send (zsock_resolve (sock), data, len, ZMQ_DONTWAIT) < 0)
        s_unqueued++;
    else
        s_sent++;
}

//  Wait up to 3 s for the first handshake event of sock; print it.
static void
s_handshake_outcome (zsock_t *mon)
{
    zpoller_t *poller = zpoller_new (mon, NULL);
    const char *what = "no outcome within 3 s";
    int64_t end = zclock_mono () + 3000;
    while (zclock_mono () < end && zpoller_wait (poller, 100)) {
        zmsg_t *msg = zmsg_recv (mon);
        zframe_t *f = msg ? zmsg_first (msg) : NULL;
        uint16_t event = 0;
        if (f && zframe_size (f) >= 2)
            memcpy (&event, zframe_data (f), 2);
        zmsg_destroy (&msg);
        if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
            what = "succeeded";
        else if (event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
            what = "failed (authentication: the server refused our key)";
        else if (event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
            what = "failed (protocol: e.g. no CURVE, or not the server's key)";
        else if (event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL)
            what = "failed";
        else
            continue;
        break;
    }
    zpoller_destroy (&poller);
    printf ("zsink-inject: handshake: %s\n", what);
    fflush (stdout);
}

//  Load a cert file for the tool; zcert_load prefers FILE_secret, so a
//  public cert is read as given.
static zcert_t *
s_cert (const char *path)
{
    struct stat st;
    zcert_t *cert = stat (path, &st) == 0 ? zcert_load (path) : NULL;
    if (!cert)
        fprintf (stderr, "zsink-inject: cannot load certificate %s\n", path);
    return cert;
}

static void
s_send (zsock_t *sock, const char *job_id, int64_t epoch, uint64_t seq, int kind)
{
    zs_sender_t from = {.epoch = epoch, .role = ZSINK__ROLE__ROLE_WRITER, .index = 0};
    snprintf (from.job_id, sizeof from.job_id, "%s", job_id);
    zs_env_t env;
    zs_env_init (&env, &from, seq);
    Zsink__Heartbeat hb;
    Zsink__Committable cm;
    Zsink__FileMeta fm, *files[1] = {&fm};
    Zsink__BarrierMarker mk;
    Zsink__Register reg;
    switch (kind) {
    case 0:
        zsink__heartbeat__init (&hb);
        hb.has_rows_read = true;
        hb.rows_read = 424242;
        env.body_case = ZSINK__ENVELOPE__BODY_HEARTBEAT;
        env.heartbeat = &hb;
        break;
    case 1:
        zsink__committable__init (&cm);
        zsink__file_meta__init (&fm);
        fm.path = "bucket-0/data-injected-w0-a0-e0-0.parquet";
        fm.rows = 1000;
        fm.size = 4096;
        cm.checkpoint_id = 1;
        cm.writer = 0;
        cm.n_files = 1;
        cm.files = files;
        env.body_case = ZSINK__ENVELOPE__BODY_COMMITTABLE;
        env.committable = &cm;
        break;
    case 2:
        zsink__barrier_marker__init (&mk);
        mk.checkpoint_id = 1;
        mk.count = 1;
        env.body_case = ZSINK__ENVELOPE__BODY_MARKER;
        env.marker = &mk;
        break;
    default:
        zsink__register__init (&reg);
        reg.role = ZSINK__ROLE__ROLE_WRITER;
        reg.has_index = true;
        reg.index = 0;
        reg.pid = 1;
        reg.instance = "deadbeef";
        env.body_case = ZSINK__ENVELOPE__BODY_REGISTER;
        env.register_ = &reg;
        break;
    }
    size_t len = zsink__envelope__get_packed_size (&env);
    uint8_t *buf = malloc (len);
    zsink__envelope__pack (&env, buf);
    s_send_frame (sock, buf, len);
    free (buf);
}

int
main (int argc, char **argv)
{
    if (argc < 3) {
        fprintf (stderr, "usage: zsink-inject ENDPOINT JOB_ID [--garbage N] [--foreign N] "
                         "[--stale N] [--register-stale] [--rid ID] [--seed S]\n"
                         "                    [--cert SECRET_CERT --server-cert PUBLIC_CERT]\n");
        return 2;
    }
    const char *endpoint = argv[1], *job_id = argv[2], *rid = "writer-0-deadbeef";
    const char *cert_path = NULL, *server_path = NULL;
    int garbage = 0, foreign = 0, stale = 0;
    bool register_stale = false;
    unsigned seed = 1;
    for (int i = 3; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp (argv[i], "--garbage") == 0 && next)
            garbage = atoi (argv[++i]);
        else if (strcmp (argv[i], "--foreign") == 0 && next)
            foreign = atoi (argv[++i]);
        else if (strcmp (argv[i], "--stale") == 0 && next)
            stale = atoi (argv[++i]);
        else if (strcmp (argv[i], "--rid") == 0 && next)
            rid = argv[++i];
        else if (strcmp (argv[i], "--seed") == 0 && next)
            seed = (unsigned) strtoul (argv[++i], NULL, 10);
        else if (strcmp (argv[i], "--cert") == 0 && next)
            cert_path = argv[++i];
        else if (strcmp (argv[i], "--server-cert") == 0 && next)
            server_path = argv[++i];
        else if (strcmp (argv[i], "--register-stale") == 0)
            register_stale = true;
        else {
            fprintf (stderr, "zsink-inject: bad argument '%s'\n", argv[i]);
            return 2;
        }
    }
    zsys_init ();
    zsock_t *sock = zsock_new (ZMQ_DEALER);
    if (!sock)
        return 1;
    zsock_set_identity (sock, rid);
    zsock_set_linger (sock, 3000);
    zsock_set_sndhwm (sock, 100000);
    if (!cert_path != !server_path) {
        fprintf (stderr, "zsink-inject: --cert and --server-cert go together\n");
        zsock_destroy (&sock);
        return 2;
    }
    if (cert_path) {
        zcert_t *cert = s_cert (cert_path), *server = s_cert (server_path);
        if (!cert || !server) {
            zcert_destroy (&cert);
            zcert_destroy (&server);
            zsock_destroy (&sock);
            return 2;
        }
        zcert_apply (cert, sock);
        zsock_set_curve_serverkey (sock, zcert_public_txt (server));
        zcert_destroy (&cert);
        zcert_destroy (&server);
    }
    zmq_socket_monitor (zsock_resolve (sock), "inproc://inject-monitor",
                        ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
                            | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
                            | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
    zsock_t *mon = zsock_new_pair (">inproc://inject-monitor");
    if (zsock_connect (sock, "%s", endpoint) < 0) {
        fprintf (stderr, "zsink-inject: cannot connect to %s\n", endpoint);
        zsock_destroy (&sock);
        return 1;
    }
    if (mon)
        s_handshake_outcome (mon);
    srand (seed);
    //  first, so that a later message on the same pipe proves it was handled
    if (register_stale)
        s_send (sock, job_id, 0, 1, 3);
    for (int i = 0; i < garbage; i++) {
        uint8_t junk[200];
        size_t len = 1 + (size_t) (rand () % (int) sizeof junk);
        for (size_t j = 0; j < len; j++)
            junk[j] = (uint8_t) rand ();
        //  a leading 0xff byte is never a valid protobuf tag: always garbage
        junk[0] = 0xff;
        s_send_frame (sock, junk, len);
    }
    for (int i = 0; i < foreign; i++)
        for (int kind = 0; kind < 3; kind++)
            s_send (sock, "otherjob", 1, (uint64_t) (3 * i + kind + 1), kind);
    for (int i = 0; i < stale; i++)
        for (int kind = 0; kind < 3; kind++)
            s_send (sock, job_id, 0, (uint64_t) (3 * i + kind + 1), kind);
    zsock_destroy (&mon);
    zsock_destroy (&sock); //  lingers until delivered (or 3 s)
    printf (
        "zsink-inject: sent %d messages to %s as %s (garbage %d, foreign %d x3, stale %d x3%s)%s; "
        "%d not queued (no connection)\n",
        s_sent, endpoint, rid, garbage, foreign, stale, register_stale ? ", a stale Register" : "",
        cert_path ? ", with CURVE" : "", s_unqueued);
    return 0;
}
