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

zsock_t *
zs_net_monitor (zsock_t *sock, int events)
{
    char ep[64];
    snprintf (ep, sizeof ep, "inproc://zs-monitor-%p", (void *) sock);
    if (zmq_socket_monitor (zsock_resolve (sock), ep, events) != 0)
        return NULL;
    zsock_t *mon = zsock_new (ZMQ_PAIR);
    if (mon && zsock_connect (mon, "%s", ep) < 0)
        zsock_destroy (&mon);
    return mon;
}

int
zs_net_monitor_event (zsock_t *monitor, char *endpoint, size_t len)
{
    //  an event is two frames: [event u16, value u32], then the endpoint
    void *mon = zsock_resolve (monitor);
    zmq_msg_t msg;
    zmq_msg_init (&msg);
    if (zmq_msg_recv (&msg, mon, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close (&msg);
        return 0;
    }
    uint16_t event = 0;
    if (zmq_msg_size (&msg) >= 6)
        memcpy (&event, zmq_msg_data (&msg), 2);
    bool more = zmq_msg_more (&msg);
    zmq_msg_close (&msg);
    if (endpoint && len)
        endpoint[0] = 0;
    if (more) {
        zmq_msg_init (&msg);
        if (zmq_msg_recv (&msg, mon, ZMQ_DONTWAIT) >= 0 && endpoint && len) {
            size_t n = zmq_msg_size (&msg) < len - 1 ? zmq_msg_size (&msg) : len - 1;
            memcpy (endpoint, zmq_msg_data (&msg), n);
            endpoint[n] = 0;
        }
        zmq_msg_close (&msg);
    }
    return event ? event : -1; //  a frame not an event: skipped as one
}

void
zs_net_instance (char *buf)
{
    uuid_t u;
    uuid_generate_random (u);
    snprintf (buf, 9, "%02x%02x%02x%02x", u[0], u[1], u[2], u[3]);
}
