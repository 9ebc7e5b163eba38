/*  curve.h - CURVE authentication of the cluster's sockets (ZeroMQ's
    CurveZMQ, czmq's zcert and zauth); docs/security.md is the user's side.

    A keys directory, made by `zsink keys generate DIR --writers N`:

        server.cert                public key of the two servers (the
                                   coordinator's and the committer's ROUTER);
                                   every client needs it
        server.cert_secret         its secret: coordinator and committer only
        committer.cert_secret      the committer as a client of the coordinator
        writer-<i>.cert_secret     writer i, for both of its connections
        client.cert_secret         zsink cluster / status / stop / cancel
        public/<name>.cert         the public cert of every client above,
                                   with metadata role (and index for a
                                   writer): the servers' allow list

    Secret files are 0600 and are refused when group or others may read
    them. A server lets zauth check every handshake against public/ (an
    unknown key cannot connect at all) and then checks every message: the
    authenticated key (the frame's "User-Id") must be bound, by its public
    cert's metadata, to the role and writer index the message claims.
*/
#ifndef ZS_CURVE_H_INCLUDED
#define ZS_CURVE_H_INCLUDED

#include "zs.h"
#include "zsink.pb-c.h"
#include <czmq.h>

typedef struct _zs_curve_t zs_curve_t;

//  The keys one process needs from dir: role COORDINATOR (server secret,
//  public/), COMMITTER (server secret, its client secret, public/), WRITER
//  index (its secret, server public), CLIENT (its secret, server public).
//  NULL with err naming the file and what is wrong.
zs_curve_t *zs_curve_load (const char *dir, Zsink__Role role, int index, char *err, size_t errlen);
void zs_curve_destroy (zs_curve_t **self_p);

//  Make sock a CURVE server, before it binds: starts zauth (once per
//  process) on public/ and watches the socket for refused handshakes.
//  0, or -1 + err.
int zs_curve_server (zs_curve_t *self, zsock_t *sock, char *err, size_t errlen);

//  Make sock a CURVE client of the servers, before it connects.
void zs_curve_client (zs_curve_t *self, zsock_t *sock);

//  May the authenticated key user_id speak for (role, index)? The index
//  counts only for writers. False with why filled (which key, which cert,
//  what it claimed). A key not known yet rereads public/ (at most once a
//  second): zauth reloads it too, so a cert added there is used by both.
bool zs_curve_bound (zs_curve_t *self, const char *user_id, Zsink__Role role, int index, char *why,
                     size_t whylen);

//  Count a message dropped because zs_curve_bound said no; the first one
//  of each key is logged with why.
void zs_curve_refuse (zs_curve_t *self, const char *user_id, const char *why);

//  Read the handshake events of the server socket (non-blocking), log the
//  first refused handshake and every 1000th; then the counters: messages
//  refused, handshakes refused.
void zs_curve_counters (zs_curve_t *self, int64_t *unauthorized, int64_t *handshakes);

//  Make the keys of a cluster of up to `writers` writers in dir (created
//  0700 if missing). Keys already there are kept; the names made or kept
//  are printed to out (NULL: quiet). 0, or -1 + err.
int zs_curve_generate (const char *dir, int writers, FILE *out, char *err, size_t errlen);

//  Load every role's keys a cluster of `writers` writers needs, as each
//  process will: 0, or -1 with the first error.
int zs_curve_check_dir (const char *dir, int writers, char *err, size_t errlen);

#endif
