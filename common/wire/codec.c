/*  codec.c - see codec.h.

    Validation rules (a message failing any is dropped as undecodable):
    1. a body is set, and the sender role is one we know;
    2. job ids are at most 63 characters, of [A-Za-z0-9_-] (or empty);
    3. epochs are >= 0, checkpoint ids >= 1 (INT64_MAX allowed);
    4. file metadata: non-empty relative path without "..", rows and
       size >= 0;
    5. counts are >= 0;
    6. a committer state re-encodes: none of its messages holds an
       unknown field numbered 0 (see s_no_tag0);
    7. writer indexes < ZS_MAX_WRITERS; a Reset's writer routing ids are
       1 to ZS_RID_MAX - 1 characters, at most ZS_MAX_WRITERS of them;
    8. splits: an id of 1 to 255 characters without '/' after a "file:"
       (one name inside source.file.path), offsets >= -2 (-2: Kafka's
       earliest), counts >= 0, a datagen index inside its count.
    Deeper meaning (is this checkpoint the one in flight?) is the role's job.
*/
#include "codec.h"
#include "stats.h"
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
zs_env_init (zs_env_t *env, const zs_sender_t *from, uint64_t seq)
{
    zsink__envelope__init (env);
    zs_env_stamp (env, from, seq);
}

void
zs_msg_init (zs_msg_t *m, Zsink__Envelope__BodyCase kind)
{
    zsink__envelope__init (&m->env);
    //  The oneof member of kind: its message type (to initialise the body
    //  generically) and where the envelope keeps its pointer.
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field (&zsink__envelope__descriptor, (unsigned) kind);
    //  programming errors, not input: a kind that is no message, or a body
    //  the union was not widened for
    assert (f && f->type == PROTOBUF_C_TYPE_MESSAGE);
    assert (((const ProtobufCMessageDescriptor *) f->descriptor)->sizeof_message <= sizeof m->body);
    protobuf_c_message_init (f->descriptor, &m->body);
    memcpy ((char *) &m->env + f->offset, &(void *){&m->body}, sizeof (void *));
    m->env.body_case = kind;
}

void
zs_env_stamp (zs_env_t *env, const zs_sender_t *from, uint64_t seq)
{
    env->job_id = (char *) from->job_id;
    env->epoch = from->epoch;
    env->seq = seq;
    env->sender = from->role;
    env->has_sender_index = from->index >= 0;
    env->sender_index = from->index;
}

int
zs_env_send (zsock_t *sock, const char *routing_id, const zs_env_t *env)
{
    size_t len = zsink__envelope__get_packed_size (env);
    //  most messages are small (heartbeats, markers): no allocation for them
    uint8_t stackbuf[1024];
    uint8_t *buf = len <= sizeof stackbuf ? stackbuf : malloc (len);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    zsink__envelope__pack (env, buf);
    void *handle = zsock_resolve (sock);
    int rc = 0;
    //  DONTWAIT on both frames: an event loop must never block in a send
    //  (PUSH/DEALER block for ever at the high-water mark by default)
    if (routing_id) {
        uint8_t raw[255];
        int rawlen = zs_rid_parse (routing_id, raw, sizeof raw);
        if (rawlen < 0) {
            errno = EHOSTUNREACH; //  no peer can have that id
            rc = -1;
        } else if (zmq_send (handle, raw, (size_t) rawlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
            rc = -1;
    }
    if (rc == 0 && zmq_send (handle, buf, len, ZMQ_DONTWAIT) < 0)
        rc = -1;
    int saved = errno;
    if (buf != stackbuf)
        free (buf);
    errno = saved;
    return rc;
}

static bool
s_valid_job_id (const char *id)
{
    if (!id || strlen (id) > 63)
        return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
              || *p == '-' || *p == '_'))
            return false;
    return true;
}

//  protobuf-c reads a field number 0 spelt as a long varint (0x82 0x00) as
//  an unknown field, which it keeps and writes back in the short form
//  (0x02) that its own unpack refuses. A committer state is packed and
//  unpacked again (the coordinator's zs_state_dup), and must survive that:
//  refuse such fields in every message a state holds.
static bool
s_no_tag0 (const ProtobufCMessage *m)
{
    for (unsigned i = 0; i < m->n_unknown_fields; i++)
        if (m->unknown_fields[i].tag == 0)
            return false;
    return true;
}

//  With check_path, also refuse a path that could leave the table. A
//  Committable message is checked without it: the committer itself judges
//  its paths, so that a hostile one is refused, counted and fails the job
//  over instead of vanishing as garbage (docs/reliability.md).
static bool
s_valid_file (const Zsink__FileMeta *f, bool check_path)
{
    if (!s_no_tag0 (&f->base))
        return false;
    if (!f->path || !*f->path || strlen (f->path) >= 256)
        return false;
    if (f->has_value_stats) {
        //  well formed, so that the manifest holds nothing a reader chokes on
        zs_stats_t st;
        char err[ZS_ERRLEN];
        if (zs_stats_set (&st, f->value_stats.data, f->value_stats.len, err, sizeof err) != 0)
            return false;
    }
    if (check_path && (f->path[0] == '/' || strstr (f->path, "..")))
        return false;
    return f->rows >= 0 && f->size >= 0;
}

static bool
s_valid_committable (const Zsink__Committable *c, bool check_paths)
{
    if (!c || c->checkpoint_id < 1 || c->writer < 0 || !s_no_tag0 (&c->base))
        return false;
    for (size_t i = 0; i < c->n_files; i++)
        if (!s_valid_file (c->files[i], check_paths))
            return false;
    return true;
}

static bool
s_valid_state (const Zsink__CommitterState *s)
{
    if (!s || !s->commit_user || strlen (s->commit_user) > 39 || !s_no_tag0 (&s->base))
        return false;
    for (size_t i = 0; i < s->n_ended_writers; i++)
        if (s->ended_writers[i] < 0 || s->ended_writers[i] >= ZS_MAX_WRITERS)
            return false;
    for (size_t i = 0; i < s->n_pending; i++) {
        const Zsink__ManifestCommittable *m = s->pending[i];
        if (m->identifier < 1 || !s_no_tag0 (&m->base))
            return false;
        //  ascending identifiers: the commit order depends on it
        if (i > 0 && s->pending[i - 1]->identifier >= m->identifier)
            return false;
        for (size_t j = 0; j < m->n_committables; j++)
            if (!s_valid_committable (m->committables[j], true))
                return false;
    }
    return true;
}

static bool
s_valid_split (const Zsink__Split *sp)
{
    size_t len = sp ? strlen (sp->id) : 0;
    if (len == 0 || len > 255)
        return false;
    if (strncmp (sp->id, "file:", 5) == 0
        && (strchr (sp->id + 5, '/') || strcmp (sp->id + 5, "..") == 0 || !sp->id[5]))
        return false;
    if ((sp->has_offset && sp->offset < -2) || (sp->has_line && sp->line < 0)
        || (sp->has_skipped && sp->skipped < 0) || (sp->has_rows && sp->rows < 0)
        || (sp->has_partition && sp->partition < 0) || (sp->topic && strlen (sp->topic) > 255))
        return false;
    if ((sp->has_index || sp->has_count)
        && (sp->count < 1 || sp->index < 0 || sp->index >= sp->count))
        return false;
    return true;
}

static bool
s_valid_splits (Zsink__Split *const *splits, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!s_valid_split (splits[i]))
            return false;
    return true;
}

static bool
s_valid_position (const Zsink__SourcePosition *p)
{
    if (p && !s_valid_splits (p->splits, p->n_splits))
        return false;
    //  A file name is one name inside source.file.path, never a way out.
    if (p && p->file
        && (strlen (p->file) >= 256 || strchr (p->file, '/') || strcmp (p->file, "..") == 0
            || (p->has_file_offset && p->file_offset < 0) || (p->has_line && p->line < 0)
            || (p->has_skipped && p->skipped < 0)))
        return false;
    return p && p->writer >= 0 && p->offset >= 0;
}

bool
zs_codec_valid_state (const Zsink__CommitterState *state)
{
    return s_valid_state (state);
}

bool
zs_codec_valid_split (const Zsink__Split *split)
{
    return s_valid_split (split);
}

void *
zs_pb_dup (const ProtobufCMessage *msg)
{
    size_t len = protobuf_c_message_get_packed_size (msg);
    uint8_t *buf = malloc (len ? len : 1);
    if (!buf)
        return NULL;
    protobuf_c_message_pack (msg, buf);
    ProtobufCMessage *copy = protobuf_c_message_unpack (msg->descriptor, NULL, len, buf);
    free (buf);
    return copy;
}

Zsink__Split *
zs_split_dup (const Zsink__Split *split)
{
    return zs_pb_dup (&split->base);
}

void
zs_split_free (Zsink__Split **split_p)
{
    if (split_p && *split_p) {
        zsink__split__free_unpacked (*split_p, NULL);
        *split_p = NULL;
    }
}

//  Hello and Register share their first fields' meaning.
static const char *
s_check_join (Zsink__Role role, int index)
{
    if (role != ZSINK__ROLE__ROLE_WRITER && role != ZSINK__ROLE__ROLE_COMMITTER)
        return "hello from a role that cannot join";
    if (role == ZSINK__ROLE__ROLE_WRITER && (index < 0 || index > ZS_MAX_WRITERS - 1))
        return "writer index out of range";
    return NULL;
}

static const char *
s_check_reset (const Zsink__Reset *r)
{
    if (r->restore_id < 0)
        return "negative restore id";
    if (r->position && !s_valid_position (r->position))
        return "bad source position";
    if (!s_valid_splits (r->splits, r->n_splits))
        return "bad split";
    if (r->state && !s_valid_state (r->state))
        return "bad committer state";
    if (r->n_writer_ids > ZS_MAX_WRITERS)
        return "too many writer ids";
    //  routing ids as zs_rid_print writes them: 1 to ZS_RID_MAX - 1 chars
    for (size_t i = 0; i < r->n_writer_ids; i++)
        if (!r->writer_ids[i][0] || strlen (r->writer_ids[i]) >= ZS_RID_MAX)
            return "bad writer id";
    return NULL;
}

static const char *
s_check_checkpoint_id (int64_t id)
{
    return id < 1 ? "bad checkpoint id" : NULL;
}

static const char *
s_check_writer_ack (const Zsink__WriterAck *a)
{
    if (a->checkpoint_id < 1)
        return "bad checkpoint id";
    return s_valid_position (a->position) ? NULL : "bad source position";
}

static const char *
s_check_committer_ack (const Zsink__CommitterAck *a)
{
    if (a->checkpoint_id < 1)
        return "bad checkpoint id";
    return s_valid_state (a->state) ? NULL : "bad committer state";
}

static const char *
s_check_marker (const Zsink__BarrierMarker *m)
{
    return m->checkpoint_id < 1 || m->count < 0 ? "bad barrier marker" : NULL;
}

//  The meaning of a body (validation rules 3-7 above). NULL = fine.
static const char *
s_check_body (const zs_env_t *env)
{
    switch (env->body_case) {
    case ZSINK__ENVELOPE__BODY__NOT_SET:
        return "no body";
    case ZSINK__ENVELOPE__BODY_HELLO:
        return s_check_join (env->hello->role, env->hello->index);
    case ZSINK__ENVELOPE__BODY_REGISTER:
        return s_check_join (env->register_->role, env->register_->index);
    case ZSINK__ENVELOPE__BODY_RESET:
        return s_check_reset (env->reset);
    case ZSINK__ENVELOPE__BODY_BARRIER:
        return s_check_checkpoint_id (env->barrier->checkpoint_id);
    case ZSINK__ENVELOPE__BODY_WRITER_ACK:
        return s_check_writer_ack (env->writer_ack);
    case ZSINK__ENVELOPE__BODY_COMMITTER_ACK:
        return s_check_committer_ack (env->committer_ack);
    case ZSINK__ENVELOPE__BODY_NOTIFY:
        return s_check_checkpoint_id (env->notify->checkpoint_id);
    case ZSINK__ENVELOPE__BODY_FINISHED:
        return s_valid_position (env->finished->position) ? NULL : "bad source position";
    case ZSINK__ENVELOPE__BODY_COMMITTABLE:
        return s_valid_committable (env->committable, false) ? NULL : "bad committable";
    case ZSINK__ENVELOPE__BODY_MARKER:
        return s_check_marker (env->marker);
    case ZSINK__ENVELOPE__BODY_END_OF_INPUT:
        return env->end_of_input->count < 0 ? "bad end-of-input count" : NULL;
    case ZSINK__ENVELOPE__BODY_WELCOME:
        return env->welcome->parallelism < 1 ? "bad parallelism" : NULL;
    case ZSINK__ENVELOPE__BODY_ADD_SPLITS:
        return s_valid_splits (env->add_splits->splits, env->add_splits->n_splits) ? NULL
                                                                                   : "bad split";
    case ZSINK__ENVELOPE__BODY_HEARTBEAT:
        return s_valid_splits (env->heartbeat->splits, env->heartbeat->n_splits) ? NULL
                                                                                 : "bad split";
    default:
        return NULL;
    }
}

static const char *
s_check (const zs_env_t *env)
{
    if (env->sender <= ZSINK__ROLE__ROLE_UNKNOWN || env->sender > ZSINK__ROLE__ROLE_CLIENT)
        return "unknown sender role";
    if (!s_valid_job_id (env->job_id))
        return "bad job id";
    if (env->epoch < 0)
        return "negative epoch";
    return s_check_body (env);
}

zs_env_t *
zs_env_decode (const void *data, size_t len, char *err, size_t errlen)
{
    if (len > ZS_MAX_MSG_SIZE) {
        snprintf (err, errlen, "message of %zu bytes is over the %d byte limit", len,
                  ZS_MAX_MSG_SIZE);
        return NULL;
    }
    zs_env_t *env = zsink__envelope__unpack (NULL, len, data);
    if (!env) {
        snprintf (err, errlen, "message of %zu bytes does not decode as an envelope", len);
        return NULL;
    }
    const char *why = s_check (env);
    if (why) {
        snprintf (err, errlen, "invalid %s message: %s", zs_env_kind (env), why);
        zsink__envelope__free_unpacked (env, NULL);
        return NULL;
    }
    return env;
}

void
zs_env_free (zs_env_t **env_p)
{
    if (env_p && *env_p) {
        zsink__envelope__free_unpacked (*env_p, NULL);
        *env_p = NULL;
    }
}

int
zs_env_recv (zsock_t *sock, char *routing_id, size_t idlen, zs_env_t **env_p, char *err,
             size_t errlen)
{
    return zs_env_recv_auth (sock, routing_id, idlen, NULL, 0, env_p, err, errlen);
}

int
zs_env_recv_auth (zsock_t *sock, char *routing_id, size_t idlen, char *user_id, size_t user_len,
                  zs_env_t **env_p, char *err, size_t errlen)
{
    *env_p = NULL;
    if (user_id && user_len)
        *user_id = 0;
    if (routing_id && idlen)
        *routing_id = 0;
    void *handle = zsock_resolve (sock);
    zmq_msg_t frames[3];
    int nframes = 0;
    //  Read every frame of the message so a malformed one never leaves
    //  frames behind to be misread as the next message.
    while (1) {
        zmq_msg_t part;
        zmq_msg_init (&part);
        if (zmq_msg_recv (&part, handle, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close (&part);
            if (nframes == 0)
                return 0; //  nothing waiting
            break;
        }
        int more = zmq_msg_more (&part);
        if (nframes < 3) {
            //  zmq_msg_t must not be copied by assignment: move it
            zmq_msg_init (&frames[nframes]);
            zmq_msg_move (&frames[nframes], &part);
        }
        zmq_msg_close (&part);
        nframes++;
        if (!more)
            break;
    }
    int expect = routing_id ? 2 : 1;
    int kept = nframes < 3 ? nframes : 3;
    //  A ROUTER always puts the peer's id first: name the peer whatever
    //  else is wrong with the message, so drops are logged per peer.
    if (routing_id && idlen)
        zs_rid_print (zmq_msg_data (&frames[0]), zmq_msg_size (&frames[0]), routing_id, idlen);
    int rc = ZS_EPROTO;
    zmq_msg_t *body = &frames[expect - 1];
    if (nframes != expect) {
        snprintf (err, errlen, "message of %d frames (expected %d)", nframes, expect);
        rc = ZS_EFRAMES;
    } else if (zmq_msg_size (body) > ZS_MAX_MSG_SIZE) {
        snprintf (err, errlen, "message of %zu bytes (at most %d)", zmq_msg_size (body),
                  ZS_MAX_MSG_SIZE);
        rc = ZS_ETOOBIG;
    } else {
        const char *user = user_id && user_len ? zmq_msg_gets (body, "User-Id") : NULL;
        if (user)
            snprintf (user_id, user_len, "%s", user);
        *env_p = zs_env_decode (zmq_msg_data (body), zmq_msg_size (body), err, errlen);
        rc = *env_p ? 1 : ZS_EPROTO;
    }
    for (int i = 0; i < kept; i++)
        zmq_msg_close (&frames[i]);
    return rc;
}

void
zs_rid_print (const void *raw, size_t len, char *out, size_t outlen)
{
    const uint8_t *b = raw;
    if (len > 255)
        len = 255; //  ZMTP caps routing ids at 255 bytes
    bool text = len > 0 && b[0] != '~';
    for (size_t i = 0; i < len && text; i++)
        text = b[i] >= 0x20 && b[i] <= 0x7e;
    if (text) {
        snprintf (out, outlen, "%.*s", (int) len, (const char *) b);
        return;
    }
    size_t k = 0;
    if (outlen > 1)
        out[k++] = '~';
    for (size_t i = 0; i < len && k + 2 < outlen; i++) {
        static const char hex[] = "0123456789abcdef";
        out[k++] = hex[b[i] >> 4];
        out[k++] = hex[b[i] & 15];
    }
    if (outlen)
        out[k] = 0;
}

static int
s_hexval (char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

int
zs_rid_parse (const char *text, uint8_t *raw, size_t rawlen)
{
    size_t len = strlen (text);
    if (text[0] != '~') {
        if (len == 0 || len > rawlen)
            return -1;
        memcpy (raw, text, len);
        return (int) len;
    }
    if ((len - 1) % 2 || (len - 1) / 2 > rawlen)
        return -1;
    size_t n = (len - 1) / 2;
    for (size_t i = 0; i < n; i++) {
        int hi = s_hexval (text[1 + 2 * i]), lo = s_hexval (text[2 + 2 * i]);
        if (hi < 0 || lo < 0)
            return -1;
        raw[i] = (uint8_t) (hi << 4 | lo);
    }
    return (int) n;
}

const char *
zs_drop_name (zs_drop_t why)
{
    static const char *names[ZS_DROP_NREASONS] = {
        "garbage", "foreign", "stale", "unauthorized", "unregistered", "oversize", "bad_frames"};
    return why >= 0 && why < ZS_DROP_NREASONS ? names[why] : "?";
}

zs_drop_t
zs_drop_of (int rc)
{
    return rc == ZS_ETOOBIG   ? ZS_DROP_OVERSIZE
           : rc == ZS_EFRAMES ? ZS_DROP_FRAMES
                              : ZS_DROP_GARBAGE;
}

const char *
zs_env_kind (const zs_env_t *env)
{
    switch (env->body_case) {
    case ZSINK__ENVELOPE__BODY_HELLO:
        return "hello";
    case ZSINK__ENVELOPE__BODY_WELCOME:
        return "welcome";
    case ZSINK__ENVELOPE__BODY_REGISTER:
        return "register";
    case ZSINK__ENVELOPE__BODY_REFUSED:
        return "refused";
    case ZSINK__ENVELOPE__BODY_HEARTBEAT:
        return "heartbeat";
    case ZSINK__ENVELOPE__BODY_RESET:
        return "reset";
    case ZSINK__ENVELOPE__BODY_READY:
        return "ready";
    case ZSINK__ENVELOPE__BODY_START:
        return "start";
    case ZSINK__ENVELOPE__BODY_BARRIER:
        return "barrier";
    case ZSINK__ENVELOPE__BODY_WRITER_ACK:
        return "writer-ack";
    case ZSINK__ENVELOPE__BODY_COMMITTER_ACK:
        return "committer-ack";
    case ZSINK__ENVELOPE__BODY_NOTIFY:
        return "notify";
    case ZSINK__ENVELOPE__BODY_COMMITTED:
        return "committed";
    case ZSINK__ENVELOPE__BODY_FINISHED:
        return "finished";
    case ZSINK__ENVELOPE__BODY_FAILURE:
        return "failure";
    case ZSINK__ENVELOPE__BODY_SHUTDOWN:
        return "shutdown";
    case ZSINK__ENVELOPE__BODY_BYE:
        return "bye";
    case ZSINK__ENVELOPE__BODY_ADD_SPLITS:
        return "add-splits";
    case ZSINK__ENVELOPE__BODY_COMMITTABLE:
        return "committable";
    case ZSINK__ENVELOPE__BODY_MARKER:
        return "barrier-marker";
    case ZSINK__ENVELOPE__BODY_END_OF_INPUT:
        return "end-of-input";
    case ZSINK__ENVELOPE__BODY_CLIENT_REQUEST:
        return "client-request";
    case ZSINK__ENVELOPE__BODY_CLIENT_REPLY:
        return "client-reply";
    default:
        return "empty";
    }
}

void
zs_file_meta_from_proto (const Zsink__FileMeta *f, zs_file_meta_t *meta)
{
    memset (meta, 0, sizeof *meta);
    snprintf (meta->path, sizeof meta->path, "%s", f->path);
    meta->rows = f->rows;
    meta->size = f->size;
    meta->has_id = f->has_min_id && f->has_max_id;
    meta->min_id = meta->has_id ? f->min_id : 0;
    meta->max_id = meta->has_id ? f->max_id : 0;
    meta->creation_ms = f->has_creation_ms ? f->creation_ms : 0;
    //  what zsink's writers write: rows numbered from 0, appended
    meta->min_seq = 0;
    meta->max_seq = f->rows > 0 ? f->rows - 1 : 0;
    meta->file_source = ZS_FILE_SOURCE_APPEND;
    meta->delete_rows = 0;
    char err[ZS_ERRLEN];
    if (!f->has_value_stats
        || zs_stats_set (&meta->stats, f->value_stats.data, f->value_stats.len, err, sizeof err)
               != 0)
        zs_stats_none (&meta->stats);
    //  longer than a file meta keeps: left out, and the table refuses the
    //  file as one in a partition directory without a partition
    if (f->has_partition && f->partition.len <= sizeof meta->partition) {
        memcpy (meta->partition, f->partition.data, f->partition.len);
        meta->partition_len = (uint16_t) f->partition.len;
    }
}

void
zs_file_meta_to_proto (const zs_file_meta_t *meta, Zsink__FileMeta *f)
{
    zsink__file_meta__init (f);
    f->path = (char *) meta->path;
    f->rows = meta->rows;
    f->size = meta->size;
    if (meta->has_id) {
        f->has_min_id = f->has_max_id = true;
        f->min_id = meta->min_id;
        f->max_id = meta->max_id;
    }
    f->has_value_stats = meta->stats.len > 0;
    f->value_stats.data = (uint8_t *) meta->stats.blob;
    f->value_stats.len = meta->stats.len;
    f->has_creation_ms = true;
    f->creation_ms = meta->creation_ms;
    f->has_partition = meta->partition_len > 0;
    f->partition.data = (uint8_t *) meta->partition;
    f->partition.len = meta->partition_len;
}
