/*  codec.h - the one place messages are encoded and decoded.

    Every message is one protobuf Envelope in one ZeroMQ frame (after the
    routing-id frame on a ROUTER). Decoding caps the size, unpacks, and
    checks meaning (a body is set, ids and counts in range, file paths
    sane), so a role's event loop only ever sees well-formed envelopes.
    protobuf-c's unpack says nothing about why it failed; we say "does not
    decode" and count it.
*/
#ifndef ZS_CODEC_H_INCLUDED
#define ZS_CODEC_H_INCLUDED

#include "datafile.h"
#include "zs.h"
#include "zsink.pb-c.h"
#include <czmq.h>

//  Largest envelope we accept (also ZMQ_MAXMSGSIZE on every socket).
#define ZS_MAX_MSG_SIZE (16 * 1024 * 1024)

typedef Zsink__Envelope zs_env_t;

//  Who stamps outgoing envelopes: job id, epoch, role, index and the next
//  sequence number of one pipe.
typedef struct {
    char job_id[64];
    int64_t epoch;
    Zsink__Role role;
    int index;
} zs_sender_t;

//  Initialise an envelope on the stack with the stamp; seq is the caller's
//  counter for that pipe (pre-incremented by the caller).
void zs_env_init (zs_env_t *env, const zs_sender_t *from, uint64_t seq);

//  Stamp an envelope the caller already built (body set): job id, epoch,
//  sequence number, sender role and index, from `from`.
void zs_env_stamp (zs_env_t *env, const zs_sender_t *from, uint64_t seq);

//  Send env, after an optional routing-id frame, without blocking
//  (ZMQ_DONTWAIT). 0 = queued; -1 with errno (EAGAIN = backpressure,
//  EHOSTUNREACH = unknown peer on a ROUTER_MANDATORY socket).
int zs_env_send (zsock_t *sock, const char *routing_id, const zs_env_t *env);

//  Decode and validate one frame. NULL + err on failure.
zs_env_t *zs_env_decode (const void *data, size_t len, char *err, size_t errlen);
void zs_env_free (zs_env_t **env_p);

//  Receive one message (non-blocking). On a ROUTER the first frame is the
//  routing id, copied into routing_id (size idlen, may be NULL on DEALER).
//  Returns 1 with *env_p set; 0 when nothing was waiting; ZS_EPROTO when
//  a message arrived that does not decode (err filled, message consumed).
int zs_env_recv (zsock_t *sock, char *routing_id, size_t idlen, zs_env_t **env_p, char *err,
                 size_t errlen);

//  zs_env_recv, and the sender's authenticated key: the message's
//  "User-Id" (the client's public key, Z85) when CURVE is on, else "".
int zs_env_recv_auth (zsock_t *sock, char *routing_id, size_t idlen, char *user_id,
                      size_t user_len, zs_env_t **env_p, char *err, size_t errlen);

//  The committer-state rules of the decoder (ids ascending, safe relative
//  file paths, …), for states that come off the disk instead of the wire.
bool zs_codec_valid_state (const Zsink__CommitterState *state);

//  A file's meta between the wire and the table's form. from_proto expects
//  a message the codec validated (path and stats within bounds); to_proto
//  points f's strings into meta, so meta must outlive f.
void zs_file_meta_from_proto (const Zsink__FileMeta *f, zs_file_meta_t *meta);
void zs_file_meta_to_proto (const zs_file_meta_t *meta, Zsink__FileMeta *f);

//  Name of a body, for logs ("barrier", "committable", …).
const char *zs_env_kind (const zs_env_t *env);

#endif
