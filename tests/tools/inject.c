/*  zsink-inject - send hostile traffic to a zsink socket (integration tests).

    usage: zsink-inject ENDPOINT JOB_ID [--garbage N] [--foreign N] [--stale N]
                        [--register-stale] [--rid ROUTING_ID] [--seed S]

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
*/
#include "codec.h"
#include <czmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int s_sent;

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
    zmq_send (zsock_resolve (sock), buf, len, 0);
    free (buf);
    s_sent++;
}

int
main (int argc, char **argv)
{
    if (argc < 3) {
        fprintf (stderr, "usage: zsink-inject ENDPOINT JOB_ID [--garbage N] [--foreign N] "
                         "[--stale N] [--register-stale] [--rid ID] [--seed S]\n");
        return 2;
    }
    const char *endpoint = argv[1], *job_id = argv[2], *rid = "writer-0-deadbeef";
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
    if (zsock_connect (sock, "%s", endpoint) < 0) {
        fprintf (stderr, "zsink-inject: cannot connect to %s\n", endpoint);
        zsock_destroy (&sock);
        return 1;
    }
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
        zmq_send (zsock_resolve (sock), junk, len, 0);
        s_sent++;
    }
    for (int i = 0; i < foreign; i++)
        for (int kind = 0; kind < 3; kind++)
            s_send (sock, "otherjob", 1, (uint64_t) (3 * i + kind + 1), kind);
    for (int i = 0; i < stale; i++)
        for (int kind = 0; kind < 3; kind++)
            s_send (sock, job_id, 0, (uint64_t) (3 * i + kind + 1), kind);
    zsock_destroy (&sock); //  lingers until delivered (or 3 s)
    printf (
        "zsink-inject: sent %d messages to %s as %s (garbage %d, foreign %d x3, stale %d x3%s)\n",
        s_sent, endpoint, rid, garbage, foreign, stale, register_stale ? ", a stale Register" : "");
    return 0;
}
