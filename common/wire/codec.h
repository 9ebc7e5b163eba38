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

#include "filemeta.h"
#include "zs.h"
#include "zsink.pb-c.h"
#include <czmq.h>

//  Largest envelope we accept. Larger ones are read, dropped and counted
//  (ZS_DROP_OVERSIZE) with the peer named; libzmq itself cuts a connection
//  that sends a frame over ZS_MAX_FRAME_SIZE (its ZMQ_MAXMSGSIZE), so
//  nothing bigger than that is ever held in memory.
#define ZS_MAX_MSG_SIZE (16 * 1024 * 1024)
#define ZS_MAX_FRAME_SIZE (4 * ZS_MAX_MSG_SIZE)

//  A routing id as text: the id itself when every byte is printable ASCII
//  and the first is not '~', else '~' and the bytes in hex ("~00a1b2c3d4"
//  for libzmq's generated ids). The mapping is one to one, so two peers
//  never share a name, and the text is safe to log. 255 bytes at most.
#define ZS_RID_MAX (2 * 255 + 2)
void zs_rid_print (const void *raw, size_t len, char *out, size_t outlen);
//  Back to bytes (for sending); the length, or -1 when text is no such name.
int zs_rid_parse (const char *text, uint8_t *raw, size_t rawlen);

//  Why a message was dropped, for counters (`zsink status`, heartbeats)
//  and the one log line per peer and reason.
typedef enum {
    ZS_DROP_GARBAGE = 0,  //  does not decode, or means nothing here
    ZS_DROP_FOREIGN,      //  another job
    ZS_DROP_STALE,        //  an older epoch (or none of ours yet)
    ZS_DROP_UNAUTHORIZED, //  CURVE: the key is not bound to the sender
    ZS_DROP_UNREGISTERED, //  not the connection registered for that slot
    ZS_DROP_OVERSIZE,     //  larger than ZS_MAX_MSG_SIZE
    ZS_DROP_FRAMES,       //  the wrong number of frames
    ZS_DROP_NREASONS
} zs_drop_t;

//  "garbage", "foreign", …: the key in `zsink status` and the metrics.
const char *zs_drop_name (zs_drop_t why);
//  The reason for a negative zs_env_recv result.
zs_drop_t zs_drop_of (int rc);

typedef Zsink__Envelope zs_env_t;

//  Writer indexes are 0 … ZS_MAX_WRITERS - 1 (the codec refuses others).
#define ZS_MAX_WRITERS 1024

//  Who stamps outgoing envelopes: job id, epoch, role, index and the next
//  sequence number of one pipe.
typedef struct {
    char job_id[64];
    int64_t epoch;
    Zsink__Role role;
    int index;
} zs_sender_t;

//  An envelope and the body it holds, on the caller's stack: zs_msg_init
//  (&m, ZSINK__ENVELOPE__BODY_NOTIFY) gives an empty Notify at
//  m.body.notify, already hung into m.env; fill it, then send &m.env.
typedef struct {
    zs_env_t env;
    union {
        Zsink__Hello hello;
        Zsink__Welcome welcome;
        Zsink__Register register_;
        Zsink__Refused refused;
        Zsink__Heartbeat heartbeat;
        Zsink__Reset reset;
        Zsink__Ready ready;
        Zsink__Start start;
        Zsink__Barrier barrier;
        Zsink__WriterAck writer_ack;
        Zsink__CommitterAck committer_ack;
        Zsink__Notify notify;
        Zsink__Committed committed;
        Zsink__Finished finished;
        Zsink__Failure failure;
        Zsink__Shutdown shutdown;
        Zsink__Bye bye;
        Zsink__AddSplits add_splits;
        Zsink__Committable committable;
        Zsink__BarrierMarker marker;
        Zsink__EndOfInput end_of_input;
        Zsink__ClientRequest client_request;
        Zsink__ClientReply client_reply;
    } body;
} zs_msg_t;

void zs_msg_init (zs_msg_t *m, Zsink__Envelope__BodyCase kind);

//  Initialise an envelope on the stack with the stamp; seq is the caller's
//  counter for that pipe (pre-incremented by the caller).
void zs_env_init (zs_env_t *env, const zs_sender_t *from, uint64_t seq);

//  Stamp an envelope the caller already built (body set): job id, epoch,
//  sequence number, sender role and index, from `from`.
void zs_env_stamp (zs_env_t *env, const zs_sender_t *from, uint64_t seq);

//  Send env, after an optional routing-id frame (zs_rid_print text),
//  without blocking (ZMQ_DONTWAIT). 0 = queued; -1 with errno (EAGAIN = backpressure,
//  EHOSTUNREACH = unknown peer on a ROUTER_MANDATORY socket).
int zs_env_send (zsock_t *sock, const char *routing_id, const zs_env_t *env);

//  Decode and validate one frame. NULL + err on failure.
zs_env_t *zs_env_decode (const void *data, size_t len, char *err, size_t errlen);
void zs_env_free (zs_env_t **env_p);

//  Receive one message (non-blocking). On a ROUTER the first frame is the
//  routing id, written into routing_id as zs_rid_print text (idlen >=
//  ZS_RID_MAX; NULL on a DEALER), also when the message is refused.
//  Returns 1 with *env_p set; 0 when nothing was waiting; when a message
//  arrived but is refused (err filled, message consumed): ZS_EPROTO (does
//  not decode), ZS_ETOOBIG (over ZS_MAX_MSG_SIZE) or ZS_EFRAMES.
int zs_env_recv (zsock_t *sock, char *routing_id, size_t idlen, zs_env_t **env_p, char *err,
                 size_t errlen);

//  zs_env_recv, and the sender's authenticated key: the message's
//  "User-Id" (the client's public key, Z85) when CURVE is on, else "".
int zs_env_recv_auth (zsock_t *sock, char *routing_id, size_t idlen, char *user_id, size_t user_len,
                      zs_env_t **env_p, char *err, size_t errlen);

//  The committer-state rules of the decoder (ids ascending, safe relative
//  file paths, …), for states that come off the disk instead of the wire.
bool zs_codec_valid_state (const Zsink__CommitterState *state);
//  … and the split rules (8 in codec.c).
bool zs_codec_valid_split (const Zsink__Split *split);

//  A deep copy of any message (pack, then unpack), or NULL out of memory;
//  free with its type's free_unpacked.
void *zs_pb_dup (const ProtobufCMessage *msg);

//  A deep copy of a split (its own strings), or NULL out of memory; free
//  with zs_split_free.
Zsink__Split *zs_split_dup (const Zsink__Split *split);
void zs_split_free (Zsink__Split **split_p);

//  A file's meta between the wire and the table's form. from_proto expects
//  a message the codec validated (path and stats within bounds); to_proto
//  points f's strings into meta, so meta must outlive f.
void zs_file_meta_from_proto (const Zsink__FileMeta *f, zs_file_meta_t *meta);
void zs_file_meta_to_proto (const zs_file_meta_t *meta, Zsink__FileMeta *f);

//  Name of a body, for logs ("barrier", "committable", …).
const char *zs_env_kind (const zs_env_t *env);

#endif
