/*  monitor.h - libzmq's socket monitor, read without blocking: which
    handshakes a socket saw (participant.c: a connection made; curve.c: a
    CURVE handshake refused). Below both net.c and curve.c: net.c makes
    sockets CURVE servers and clients (curve.h), curve.c watches its
    server socket here, so no two of these files call each other.
*/
#ifndef ZS_MONITOR_H_INCLUDED
#define ZS_MONITOR_H_INCLUDED

#include <czmq.h>

//  A PAIR socket receiving sock's monitor events of the mask (ZMQ_EVENT_*),
//  or NULL when libzmq would not monitor it.
zsock_t *zs_monitor_new (zsock_t *sock, int events);
//  The next event waiting on a monitor (0: none; -1: a frame that is not an
//  event), its endpoint into endpoint (may be NULL). Never blocks.
int zs_monitor_event (zsock_t *monitor, char *endpoint, size_t len);

#endif
