/*  test_codec.c - envelopes round-trip; garbage and meaningless messages
    are refused with a reason, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "codec.h"
#include "net.h"
#include <stdlib.h>
#include <string.h>

static const zs_sender_t s_writer = {"job-1", 3, ZSINK__ROLE__ROLE_WRITER, 2};

//  Pack an envelope into a malloc'd buffer.
static uint8_t *
s_pack (const zs_env_t *env, size_t *len)
{
    *len = zsink__envelope__get_packed_size (env);
    uint8_t *buf = malloc (*len ? *len : 1);
    zsink__envelope__pack (env, buf);
    return buf;
}

static void
test_committable_round_trip (void **state)
{
    zs_env_t env;
    zs_env_init (&env, &s_writer, 7);
    Zsink__FileMeta f;
    zsink__file_meta__init (&f);
    f.path = "bucket-0/data-a.parquet";
    f.rows = 10;
    f.size = 400;
    f.has_min_id = f.has_max_id = true;
    f.min_id = 1;
    f.max_id = 28;
    Zsink__FileMeta *fp = &f;
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = ZS_END_INPUT_ID;
    c.writer = 2;
    c.n_files = 1;
    c.files = &fp;
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTABLE;
    env.committable = &c;
    size_t len;
    uint8_t *buf = s_pack (&env, &len);
    char err[ZS_ERRLEN];
    zs_env_t *got = zs_env_decode (buf, len, err, sizeof err);
    assert_non_null (got);
    assert_string_equal (got->job_id, "job-1");
    assert_int_equal (got->epoch, 3);
    assert_int_equal (got->seq, 7);
    assert_int_equal (got->sender, ZSINK__ROLE__ROLE_WRITER);
    assert_int_equal (got->sender_index, 2);
    assert_int_equal (got->body_case, ZSINK__ENVELOPE__BODY_COMMITTABLE);
    assert_true (got->committable->checkpoint_id == ZS_END_INPUT_ID);
    assert_int_equal (got->committable->n_files, 1);
    assert_string_equal (got->committable->files[0]->path, "bucket-0/data-a.parquet");
    assert_int_equal (got->committable->files[0]->max_id, 28);
    assert_string_equal (zs_env_kind (got), "committable");
    zs_env_free (&got);
    assert_null (got);
    free (buf);
}

//  zs_msg_init hangs an empty body of every kind into its envelope: the
//  union holds each body, and packing the envelope packs the body.
static void
test_msg_every_kind (void **state)
{
    const ProtobufCMessageDescriptor *d = &zsink__envelope__descriptor;
    int kinds = 0;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
            continue;
        const ProtobufCMessageDescriptor *body = f->descriptor;
        zs_msg_t m;
        assert_true (body->sizeof_message <= sizeof m.body);
        zs_msg_init (&m, (Zsink__Envelope__BodyCase) f->id);
        zs_env_stamp (&m.env, &s_writer, 1);
        void *hung;
        memcpy (&hung, (char *) &m.env + f->offset, sizeof hung);
        assert_ptr_equal (hung, &m.body);
        assert_int_equal (((ProtobufCMessage *) hung)->descriptor, body);
        //  the body is serialised: its tag makes the envelope longer than
        //  the same envelope with no body (required fields are the
        //  sender's to fill, so no unpack here)
        size_t with = zsink__envelope__get_packed_size (&m.env);
        m.env.body_case = ZSINK__ENVELOPE__BODY__NOT_SET;
        assert_true (with > zsink__envelope__get_packed_size (&m.env));
        kinds++;
    }
    assert_true (kinds >= 20);
}

static void
test_garbage_refused (void **state)
{
    char err[ZS_ERRLEN];
    //  every prefix of a valid message, and random bytes: refused or valid,
    //  never a crash (ASan builds check the "never")
    zs_env_t env;
    zs_env_init (&env, &s_writer, 1);
    Zsink__BarrierMarker m;
    zsink__barrier_marker__init (&m);
    m.checkpoint_id = 5;
    m.count = 1;
    env.body_case = ZSINK__ENVELOPE__BODY_MARKER;
    env.marker = &m;
    size_t len;
    uint8_t *buf = s_pack (&env, &len);
    for (size_t cut = 0; cut < len; cut++) {
        zs_env_t *got = zs_env_decode (buf, cut, err, sizeof err);
        zs_env_free (&got);
    }
    free (buf);
    srand (42);
    int refused = 0;
    for (int i = 0; i < 2000; i++) {
        uint8_t junk[64];
        size_t n = (size_t) (rand () % (int) sizeof junk);
        for (size_t j = 0; j < n; j++)
            junk[j] = (uint8_t) rand ();
        zs_env_t *got = zs_env_decode (junk, n, err, sizeof err);
        if (!got)
            refused++;
        zs_env_free (&got);
    }
    assert_true (refused > 1900);
    //  "does not decode" names the size
    assert_null (zs_env_decode ("\xff\xff\xff", 3, err, sizeof err));
    assert_non_null (strstr (err, "does not decode"));
}

//  Well-formed protobuf, meaningless content: refused with the reason.
static void
test_meaning_checked (void **state)
{
    char err[ZS_ERRLEN];
    size_t len;
    uint8_t *buf;
    zs_env_t env;

    //  no body
    zs_env_init (&env, &s_writer, 1);
    buf = s_pack (&env, &len);
    assert_null (zs_env_decode (buf, len, err, sizeof err));
    assert_non_null (strstr (err, "no body"));
    free (buf);

    //  a barrier for checkpoint 0
    zs_env_init (&env, &s_writer, 1);
    Zsink__Barrier b;
    zsink__barrier__init (&b);
    b.checkpoint_id = 0;
    env.body_case = ZSINK__ENVELOPE__BODY_BARRIER;
    env.barrier = &b;
    buf = s_pack (&env, &len);
    assert_null (zs_env_decode (buf, len, err, sizeof err));
    assert_non_null (strstr (err, "bad checkpoint id"));
    free (buf);

    //  a file path escaping the table: decodes (the committer refuses it,
    //  counts it and fails the job over: test_committer_proto), but inside
    //  a committer state it is refused here
    zs_env_init (&env, &s_writer, 1);
    Zsink__FileMeta f;
    zsink__file_meta__init (&f);
    f.path = "bucket-0/../../etc/passwd";
    Zsink__FileMeta *fp = &f;
    Zsink__Committable c;
    zsink__committable__init (&c);
    c.checkpoint_id = 1;
    c.n_files = 1;
    c.files = &fp;
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTABLE;
    env.committable = &c;
    buf = s_pack (&env, &len);
    zs_env_t *got = zs_env_decode (buf, len, err, sizeof err);
    assert_non_null (got);
    assert_string_equal (got->committable->files[0]->path, "bucket-0/../../etc/passwd");
    zs_env_free (&got);
    free (buf);
    f.path = "";
    buf = s_pack (&env, &len);
    assert_null (zs_env_decode (buf, len, err, sizeof err)); //  no path at all
    assert_non_null (strstr (err, "bad committable"));
    free (buf);
    f.path = "/etc/passwd";
    Zsink__ManifestCommittable mc;
    zsink__manifest_committable__init (&mc);
    mc.identifier = 1;
    mc.n_committables = 1;
    Zsink__Committable *cp = &c;
    mc.committables = &cp;
    Zsink__ManifestCommittable *mcp = &mc;
    Zsink__CommitterState cs;
    zsink__committer_state__init (&cs);
    cs.commit_user = "u";
    cs.n_pending = 1;
    cs.pending = &mcp;
    assert_false (zs_codec_valid_state (&cs));
    f.path = "bucket-0/x.parquet";
    assert_true (zs_codec_valid_state (&cs));

    //  a job id with a character outside [A-Za-z0-9_-]
    zs_sender_t bad = s_writer;
    snprintf (bad.job_id, sizeof bad.job_id, "job/1");
    zs_env_init (&env, &bad, 1);
    Zsink__Heartbeat hb;
    zsink__heartbeat__init (&hb);
    env.body_case = ZSINK__ENVELOPE__BODY_HEARTBEAT;
    env.heartbeat = &hb;
    buf = s_pack (&env, &len);
    assert_null (zs_env_decode (buf, len, err, sizeof err));
    assert_non_null (strstr (err, "bad job id"));
    free (buf);

    //  committer state whose pending ids are not ascending
    zs_env_init (&env, &s_writer, 1);
    Zsink__ManifestCommittable m1, m2, *mp[2] = {&m1, &m2};
    zsink__manifest_committable__init (&m1);
    zsink__manifest_committable__init (&m2);
    m1.identifier = 5;
    m2.identifier = 4;
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = "u";
    st.n_pending = 2;
    st.pending = mp;
    Zsink__CommitterAck ack;
    zsink__committer_ack__init (&ack);
    ack.checkpoint_id = 5;
    ack.state = &st;
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTER_ACK;
    env.committer_ack = &ack;
    buf = s_pack (&env, &len);
    assert_null (zs_env_decode (buf, len, err, sizeof err));
    assert_non_null (strstr (err, "bad committer state"));
    free (buf);

    //  over the size limit: refused before unpacking
    assert_null (zs_env_decode ("", (size_t) ZS_MAX_MSG_SIZE + 1, err, sizeof err));
    assert_non_null (strstr (err, "limit"));
}

//  Over real sockets: a multi-frame message on a DEALER pipe is consumed
//  whole and reported, and the next good message still arrives.
static void
test_recv_over_sockets (void **state)
{
    char err[ZS_ERRLEN];
    zsock_t *router = zs_net_router ("inproc://codec-test", err, sizeof err);
    assert_non_null (router);
    zsock_t *dealer = zs_net_dealer ("inproc://codec-test", "writer-0-test", err, sizeof err);
    assert_non_null (dealer);
    //  three frames of junk from the dealer: the router sees 4 frames
    zstr_sendm (dealer, "junk");
    zstr_sendm (dealer, "more");
    zstr_send (dealer, "end");
    zs_env_t env;
    zs_env_init (&env, &s_writer, 1);
    Zsink__Bye bye;
    zsink__bye__init (&bye);
    env.body_case = ZSINK__ENVELOPE__BODY_BYE;
    env.bye = &bye;
    assert_int_equal (zs_env_send (dealer, NULL, &env), 0);
    char rid[ZS_RID_MAX];
    zs_env_t *got = NULL;
    int rc = 0, seen_bad = 0;
    zpoller_t *poller = zpoller_new (router, NULL);
    int64_t deadline = zs_clock_mono_ms () + 5000;
    while (zs_clock_mono_ms () < deadline) {
        zpoller_wait (poller, 100);
        rc = zs_env_recv (router, rid, sizeof rid, &got, err, sizeof err);
        if (rc == ZS_EFRAMES) {
            //  the peer is named even when the message is refused
            assert_string_equal (rid, "writer-0-test");
            assert_int_equal (zs_drop_of (rc), ZS_DROP_FRAMES);
            seen_bad++;
        }
        if (rc == 1)
            break;
    }
    zpoller_destroy (&poller);
    assert_int_equal (seen_bad, 1);
    assert_int_equal (rc, 1);
    assert_string_equal (rid, "writer-0-test");
    assert_int_equal (got->body_case, ZSINK__ENVELOPE__BODY_BYE);
    zs_env_free (&got);
    zsock_destroy (&dealer);
    zsock_destroy (&router);
}

//  A message over ZS_MAX_MSG_SIZE (but under libzmq's cut-off) is read,
//  refused as oversize, and its sender named; a peer without an identity
//  (libzmq makes one up, starting with a zero byte) gets its own name.
static void
test_oversize_and_anonymous_peers (void **state)
{
    char err[ZS_ERRLEN];
    zsock_t *router = zs_net_router ("inproc://codec-big", err, sizeof err);
    zsock_t *big = zs_net_dealer ("inproc://codec-big", "writer-1-big", err, sizeof err);
    zsock_t *anon = zsock_new_dealer ("inproc://codec-big");
    assert_true (router && big && anon);
    size_t len = (size_t) ZS_MAX_MSG_SIZE + 1;
    char *junk = calloc (1, len);
    assert_non_null (junk);
    assert_int_equal (zmq_send (zsock_resolve (big), junk, len, 0), (int) len);
    free (junk);
    zstr_send (anon, "x");
    zstr_send (anon, "y");
    char rid[ZS_RID_MAX], anon_rid[2][ZS_RID_MAX];
    int oversize = 0, anonymous = 0;
    zs_env_t *got = NULL;
    zpoller_t *poller = zpoller_new (router, NULL);
    int64_t deadline = zs_clock_mono_ms () + 5000;
    while ((oversize < 1 || anonymous < 2) && zs_clock_mono_ms () < deadline) {
        zpoller_wait (poller, 100);
        int rc = zs_env_recv (router, rid, sizeof rid, &got, err, sizeof err);
        assert_true (rc <= 0);
        if (rc == ZS_ETOOBIG) {
            assert_string_equal (rid, "writer-1-big");
            assert_int_equal (zs_drop_of (rc), ZS_DROP_OVERSIZE);
            oversize++;
        } else if (rc == ZS_EPROTO) {
            assert_true (rid[0] == '~' && strlen (rid) == 11); //  5 bytes in hex
            strcpy (anon_rid[anonymous++], rid);
        }
    }
    zpoller_destroy (&poller);
    assert_int_equal (oversize, 1);
    assert_int_equal (anonymous, 2);
    assert_string_equal (anon_rid[0], anon_rid[1]);
    zsock_destroy (&anon);
    zsock_destroy (&big);
    zsock_destroy (&router);
}

//  Routing ids as text: one to one, printable, and back to the same bytes.
static void
test_routing_id_text (void **state)
{
    char text[ZS_RID_MAX];
    uint8_t raw[255];
    zs_rid_print ("writer-0-1a2b3c4d", 17, text, sizeof text);
    assert_string_equal (text, "writer-0-1a2b3c4d");
    assert_int_equal (zs_rid_parse (text, raw, sizeof raw), 17);
    //  a zero byte inside must not make two ids compare equal as C strings
    zs_rid_print ("writer-0-1a2b3c4d\0evil", 22, text, sizeof text);
    assert_true (text[0] == '~' && strlen (text) == 45);
    assert_int_equal (zs_rid_parse (text, raw, sizeof raw), 22);
    assert_memory_equal (raw, "writer-0-1a2b3c4d\0evil", 22);
    //  '~' first is hex too, so no text id reads as another's hex
    zs_rid_print ("~00", 3, text, sizeof text);
    assert_string_equal (text, "~7e3030");
    uint8_t all[255];
    for (int i = 0; i < 255; i++)
        all[i] = (uint8_t) i;
    zs_rid_print (all, 255, text, sizeof text);
    assert_int_equal (strlen (text), 511);
    assert_int_equal (zs_rid_parse (text, raw, sizeof raw), 255);
    assert_memory_equal (raw, all, 255);
    assert_int_equal (zs_rid_parse ("~0", raw, sizeof raw), -1);
    assert_int_equal (zs_rid_parse ("~zz", raw, sizeof raw), -1);
    assert_int_equal (zs_rid_parse ("", raw, sizeof raw), -1);
}

int
main (void)
{
    zsys_init ();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_committable_round_trip),
        cmocka_unit_test (test_msg_every_kind),
        cmocka_unit_test (test_garbage_refused),
        cmocka_unit_test (test_meaning_checked),
        cmocka_unit_test (test_recv_over_sockets),
        cmocka_unit_test (test_oversize_and_anonymous_peers),
        cmocka_unit_test (test_routing_id_text),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
