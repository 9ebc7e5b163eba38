/*  net.h - socket set-up, in one place (libzmq 4.3 behaviour we rely on):
    - every ROUTER: ROUTER_MANDATORY (unknown peer = error, not silence) and
      ROUTER_HANDOVER;
    - every connecting DEALER: IMMEDIATE=1 (no queueing towards a peer that
      is not connected, so nothing stale reaches a restarted process);
    - every socket: ZMTP heartbeats (a hung peer's connection closes in
      about a second), ZMQ_MAXMSGSIZE, linger 0.
    Routing ids are "<role>[-<index>]-<instance>" and unique per process
    start (see docs/decisions.md), so a second process can never take over
    a live peer's route.
*/
#ifndef ZS_NET_H_INCLUDED
#define ZS_NET_H_INCLUDED

#include "curve.h"
#include "zs.h"
#include <czmq.h>

//  CURVE for every socket this process makes from now on (NULL: none, the
//  default): a ROUTER becomes a CURVE server, a DEALER a client with this
//  process's own key. One role per process, so one set of keys; the caller
//  keeps curve alive while sockets are made.
void zs_net_use_curve (zs_curve_t *curve);

zsock_t *zs_net_router (const char *endpoint, char *err, size_t errlen);
zsock_t *zs_net_dealer (const char *endpoint, const char *routing_id, char *err, size_t errlen);

//  A random 8-hex-digit instance tag for this process start.
void zs_net_instance (char *buf /* >= 9 */);

#endif
