/*  fuzz_codec.c - the wire decoder: zs_env_decode (codec.h), what every
    role runs on every frame that arrives.

    Input: one frame's bytes (a protobuf Envelope, or anything).
    Properties, beyond "no crash, leak or UB":
    1. what decodes is well-formed: everything the roles read of it without
       further checks (zs_env_kind, file metas via zs_file_meta_from_proto,
       committer states via zs_codec_valid_state) works on it;
    2. a committer state that decodes survives what the coordinator does
       with it (zs_state_dup: pack, unpack) and is still valid after;
    3. what decodes packs again and the packed bytes decode too (the
       validation depends on values only, not on how they were encoded) -
       except when a message holds an unknown field numbered 0 outside a
       committer state: protobuf-c reads one spelt as a long varint and
       writes it back in a form it refuses, and nothing but states is ever
       re-packed (codec.c, s_no_tag0).
*/
#include "codec.h"
#include "fuzz_common.h"
#include "manifest.h"

static void
s_touch_files (Zsink__FileMeta **files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        zs_file_meta_t meta;
        zs_file_meta_from_proto (files[i], &meta);
        ZS_FUZZ_CHECK (strlen (meta.path) < sizeof meta.path);
        //  back to the wire form: what a committer's state holds
        Zsink__FileMeta f;
        zs_file_meta_to_proto (&meta, &f);
        ZS_FUZZ_CHECK (strcmp (f.path, files[i]->path) == 0);
    }
}

//  Does any message below m hold an unknown field numbered 0? A walk over
//  the descriptors: every message-typed field, repeated or not, oneof
//  members only when set.
static bool
s_has_tag0 (const ProtobufCMessage *m)
{
    for (unsigned i = 0; i < m->n_unknown_fields; i++)
        if (m->unknown_fields[i].tag == 0)
            return true;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        const char *base = (const char *) m;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *) (base + f->quantifier_offset);
            ProtobufCMessage *const *subs = *(ProtobufCMessage *const *const *) (base + f->offset);
            for (size_t k = 0; k < n; k++)
                if (s_has_tag0 (subs[k]))
                    return true;
            continue;
        }
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
            && *(const uint32_t *) (base + f->quantifier_offset) != f->id)
            continue;
        const ProtobufCMessage *sub = *(ProtobufCMessage *const *) (base + f->offset);
        if (sub && s_has_tag0 (sub))
            return true;
    }
    return false;
}

static void
s_touch_state (const Zsink__CommitterState *s)
{
    if (!s)
        return;
    ZS_FUZZ_CHECK (zs_codec_valid_state (s));
    //  2: the coordinator's zs_state_dup
    size_t len = zsink__committer_state__get_packed_size (s);
    uint8_t *buf = malloc (len ? len : 1);
    ZS_FUZZ_CHECK (buf != NULL);
    ZS_FUZZ_CHECK (zsink__committer_state__pack (s, buf) == len);
    Zsink__CommitterState *copy = zsink__committer_state__unpack (NULL, len, buf);
    ZS_FUZZ_CHECK (copy != NULL);
    ZS_FUZZ_CHECK (zs_codec_valid_state (copy));
    zsink__committer_state__free_unpacked (copy, NULL);
    free (buf);
    for (size_t i = 0; i < s->n_pending; i++)
        for (size_t j = 0; j < s->pending[i]->n_committables; j++)
            s_touch_files (s->pending[i]->committables[j]->files,
                           s->pending[i]->committables[j]->n_files);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    char err[ZS_ERRLEN];
    zs_env_t *env = zs_env_decode (data, size, err, sizeof err);
    if (zs_fuzz_verbose ())
        fprintf (stderr, "%s\n", env ? zs_env_kind (env) : err);
    if (!env) {
        ZS_FUZZ_CHECK (err[0] != 0);
        return 0;
    }
    ZS_FUZZ_CHECK (zs_env_kind (env) != NULL);
    switch (env->body_case) {
    case ZSINK__ENVELOPE__BODY_COMMITTABLE: {
        s_touch_files (env->committable->files, env->committable->n_files);
        //  The committer keeps committables in its state, which travels
        //  packed in its CommitterAck; one naming a file outside the table
        //  it refuses first (committer.c: s_on_committable).
        Zsink__Committable *c = env->committable;
        char why[ZS_ERRLEN];
        bool inside = true;
        for (size_t i = 0; i < c->n_files; i++)
            inside = inside && zs_data_path_check (c->files[i]->path, why, sizeof why) == 0;
        if (!inside)
            break;
        Zsink__ManifestCommittable m;
        zsink__manifest_committable__init (&m);
        m.identifier = c->checkpoint_id;
        m.n_committables = 1;
        m.committables = &c;
        Zsink__ManifestCommittable *mp = &m;
        Zsink__CommitterState st;
        zsink__committer_state__init (&st);
        st.commit_user = "fuzz";
        st.n_pending = 1;
        st.pending = &mp;
        s_touch_state (&st);
        break;
    }
    case ZSINK__ENVELOPE__BODY_COMMITTER_ACK:
        s_touch_state (env->committer_ack->state);
        break;
    case ZSINK__ENVELOPE__BODY_RESET:
        s_touch_state (env->reset->state);
        break;
    default:
        break;
    }
    if (s_has_tag0 (&env->base)) {
        zs_env_free (&env);
        return 0;
    }
    //  3: the whole envelope
    size_t len = zsink__envelope__get_packed_size (env);
    uint8_t *buf = malloc (len ? len : 1);
    ZS_FUZZ_CHECK (buf != NULL);
    ZS_FUZZ_CHECK (zsink__envelope__pack (env, buf) == len);
    zs_env_t *again = zs_env_decode (buf, len, err, sizeof err);
    if (!again)
        fprintf (stderr, "re-packed envelope does not decode: %s\n", err);
    ZS_FUZZ_CHECK (again != NULL);
    ZS_FUZZ_CHECK (again->body_case == env->body_case);
    zs_env_free (&again);
    free (buf);
    zs_env_free (&env);
    ZS_FUZZ_CHECK (env == NULL);
    return 0;
}
