/*  net.c - see net.h. */
#include "net.h"
#include "codec.h"
#include <stdio.h>
#include <stdlib.h>
#include <uuid/uuid.h>

static zs_curve_t *s_curve; //  zs_net_use_curve

void
zs_net_use_curve (zs_curve_t *curve)
{
    s_curve = curve;
}

static void
s_common_options (zsock_t *sock)
{
    zsock_set_linger (sock, 0);
    zsock_set_maxmsgsize (sock, ZS_MAX_FRAME_SIZE);
    zsock_set_sndhwm (sock, 100000);
    zsock_set_rcvhwm (sock, 100000);
    //  ZMTP heartbeats: ~0.7 s to notice a hung peer (measured with libzmq 4.3.4)
    zsock_set_heartbeat_ivl (sock, 250);
    zsock_set_heartbeat_timeout (sock, 1000);
    zsock_set_heartbeat_ttl (sock, 2000);
}

zsock_t *
zs_net_router (const char *endpoint, char *err, size_t errlen)
{
    zsock_t *sock = zsock_new (ZMQ_ROUTER);
    if (!sock) {
        snprintf (err, errlen, "cannot create ROUTER socket");
        return NULL;
    }
    s_common_options (sock);
    zsock_set_router_mandatory (sock, 1);
    zsock_set_router_handover (sock, 1);
    if (s_curve && zs_curve_server (s_curve, sock, err, errlen) < 0) {
        zsock_destroy (&sock);
        return NULL;
    }
    if (zsock_bind (sock, "%s", endpoint) < 0) {
        snprintf (err, errlen, "cannot bind %s: %s", endpoint, zmq_strerror (zmq_errno ()));
        zsock_destroy (&sock);
        return NULL;
    }
    return sock;
}

zsock_t *
zs_net_dealer (const char *endpoint, const char *routing_id, char *err, size_t errlen)
{
    zsock_t *sock = zsock_new (ZMQ_DEALER);
    if (!sock) {
        snprintf (err, errlen, "cannot create DEALER socket");
        return NULL;
    }
    s_common_options (sock);
    zsock_set_immediate (sock, 1);
    zsock_set_identity (sock, routing_id);
    //  10 ms, doubling up to 1 s: a role started with its coordinator
    //  connects as soon as the coordinator listens (start-up), and one
    //  whose peer is gone does not hammer it
    zsock_set_reconnect_ivl (sock, 10);
    zsock_set_reconnect_ivl_max (sock, 1000);
    if (s_curve)
        zs_curve_client (s_curve, sock);
    if (zsock_connect (sock, "%s", endpoint) < 0) {
        snprintf (err, errlen, "cannot connect to %s: %s", endpoint, zmq_strerror (zmq_errno ()));
        zsock_destroy (&sock);
        return NULL;
    }
    return sock;
}

void
zs_net_instance (char *buf)
{
    uuid_t u;
    uuid_generate_random (u);
    snprintf (buf, 9, "%02x%02x%02x%02x", u[0], u[1], u[2], u[3]);
}
