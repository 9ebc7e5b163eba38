/*  drops.h - counting the messages a role drops, per reason, and saying so
    in the log once per peer and reason.

    Every socket that takes messages from others drops some: garbage, other
    jobs, older epochs, strangers on an unregistered connection, oversize
    messages, wrong frame counts. Each is counted (`zsink status` shows the
    totals, heartbeats carry a participant's to the coordinator) and the
    first drop of each reason from each peer is logged with the peer's
    routing id, so a misbehaving process can be found by name. A flood from
    ever new routing ids is bounded: after ZS_DROPS_PEERS peers, a reason
    is logged on every 1000th drop instead.
*/
#ifndef ZS_DROPS_H_INCLUDED
#define ZS_DROPS_H_INCLUDED

#include "codec.h"

#define ZS_DROPS_PEERS 1024

typedef struct _zs_drops_t zs_drops_t;

//  what names the messages in the log: "data message", "message"
zs_drops_t *zs_drops_new (const char *what);
void zs_drops_destroy (zs_drops_t **self_p);

//  Count one dropped message from peer (zs_rid_print text, or NULL when
//  the socket has one peer) and log it when it is the first of its reason
//  from that peer. detail says what was wrong (may be NULL).
void zs_drops_add (zs_drops_t *self, zs_drop_t why, const char *peer, const char *detail);

//  zs_env_recv_auth (user NULL: not wanted) with a refused message counted
//  and logged here: 1 with *env_p set, 0 when nothing was waiting, -1 when
//  one message was dropped (the caller may go on reading, or stop to keep
//  other sockets served).
int zs_drops_recv (zs_drops_t *self, zsock_t *sock, char *routing_id, size_t idlen, char *user,
                   size_t user_len, zs_env_t **env_p);

//  Count n drops reported by someone else (no log line).
void zs_drops_add_n (zs_drops_t *self, zs_drop_t why, int64_t n);

int64_t zs_drops_count (const zs_drops_t *self, zs_drop_t why);
//  "3 garbage, 0 foreign, …": every reason, for a summary line.
void zs_drops_format (const zs_drops_t *self, char *buf, size_t len);
int64_t zs_drops_total (const zs_drops_t *self);

#endif
