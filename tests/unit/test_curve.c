/*  test_curve.c - CURVE keys: generate, load every role, refuse bad files
    with the file named, bind keys to writer indexes; and over real tcp
    sockets: a writer's key arrives as the message's User-Id, a key the
    server does not know cannot deliver anything. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "codec.h"
#include "curve.h"
#include "net.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char s_dir[64];
static char s_keys[128];

static int
s_setup (void **state)
{
    snprintf (s_dir, sizeof s_dir, "/tmp/zs-test-curve-XXXXXX");
    assert_non_null (mkdtemp (s_dir));
    snprintf (s_keys, sizeof s_keys, "%s/keys", s_dir);
    char err[ZS_ERRLEN];
    assert_int_equal (zs_curve_generate (s_keys, 2, NULL, err, sizeof err), 0);
    return 0;
}

static int
s_teardown (void **state)
{
    char cmd[128];
    snprintf (cmd, sizeof cmd, "rm -rf %s", s_dir);
    assert_int_equal (system (cmd), 0);
    return 0;
}

static mode_t
s_mode (const char *name)
{
    char path[256];
    snprintf (path, sizeof path, "%s/%s", s_keys, name);
    struct stat st;
    assert_int_equal (stat (path, &st), 0);
    return st.st_mode & 0777;
}

//  The public key text of a client's secret file, via its loaded keys.
static void
s_public_of (const char *name, char *out)
{
    char path[256];
    snprintf (path, sizeof path, "%s/public/%s.cert", s_keys, name);
    zcert_t *cert = zcert_load (path);
    assert_non_null (cert);
    snprintf (out, 41, "%s", zcert_public_txt (cert));
    zcert_destroy (&cert);
}

static void
test_generate_and_load (void **state)
{
    assert_int_equal (s_mode (""), 0700);
    assert_int_equal (s_mode ("server.cert_secret"), 0600);
    assert_int_equal (s_mode ("writer-1.cert_secret"), 0600);
    char err[ZS_ERRLEN];
    //  again: everything kept, the same keys
    char before[41], after[41];
    s_public_of ("writer-0", before);
    assert_int_equal (zs_curve_generate (s_keys, 2, NULL, err, sizeof err), 0);
    s_public_of ("writer-0", after);
    assert_string_equal (before, after);
    assert_int_equal (zs_curve_check_dir (s_keys, 2, err, sizeof err), 0);
    assert_int_equal (zs_curve_check_dir (s_keys, 3, err, sizeof err), -1);
    assert_non_null (strstr (err, "writer-2.cert_secret: cannot read"));
}

static void
test_binding (void **state)
{
    char err[ZS_ERRLEN], why[ZS_ERRLEN], w0[41], w1[41], cm[41];
    zs_curve_t *server = zs_curve_load (s_keys, ZSINK__ROLE__ROLE_COORDINATOR, -1, err, sizeof err);
    assert_non_null (server);
    s_public_of ("writer-0", w0);
    s_public_of ("writer-1", w1);
    s_public_of ("committer", cm);
    assert_true (zs_curve_bound (server, w0, ZSINK__ROLE__ROLE_WRITER, 0, why, sizeof why));
    assert_true (zs_curve_bound (server, w1, ZSINK__ROLE__ROLE_WRITER, 1, why, sizeof why));
    assert_true (zs_curve_bound (server, cm, ZSINK__ROLE__ROLE_COMMITTER, -1, why, sizeof why));
    //  writer-1's key speaking for writer 0, or for the committer
    assert_false (zs_curve_bound (server, w1, ZSINK__ROLE__ROLE_WRITER, 0, why, sizeof why));
    assert_non_null (strstr (why, "of writer-1 (public/writer-1.cert) claims to be writer-0"));
    assert_false (zs_curve_bound (server, w1, ZSINK__ROLE__ROLE_COMMITTER, -1, why, sizeof why));
    assert_false (zs_curve_bound (server, w0, ZSINK__ROLE__ROLE_COORDINATOR, -1, why, sizeof why));
    //  no key, or one nobody knows
    assert_false (zs_curve_bound (server, "", ZSINK__ROLE__ROLE_WRITER, 0, why, sizeof why));
    assert_non_null (strstr (why, "no authenticated key"));
    assert_false (zs_curve_bound (server, "0000000000000000000000000000000000000000",
                                  ZSINK__ROLE__ROLE_WRITER, 0, why, sizeof why));
    assert_non_null (strstr (why, "is not in"));
    int64_t unauthorized = -1, handshakes = -1;
    zs_curve_refuse (server, w1, why);
    zs_curve_refuse (server, w1, why);
    zs_curve_counters (server, &unauthorized, &handshakes);
    assert_int_equal (unauthorized, 2);
    assert_int_equal (handshakes, 0);
    zs_curve_destroy (&server);
    assert_null (server);
    zs_curve_destroy (&server); //  NULL is fine
}

//  Copy the keys, break one file with `how`, expect err to contain want.
static void
s_broken (const char *file, const char *how, Zsink__Role role, int index, const char *want)
{
    char cmd[1024], copy[160], err[ZS_ERRLEN];
    snprintf (copy, sizeof copy, "%s/broken", s_dir);
    snprintf (cmd, sizeof cmd, "rm -rf %s && cp -rp %s %s && cd %s && %s %s", copy, s_keys, copy,
              copy, how, file);
    assert_int_equal (system (cmd), 0);
    zs_curve_t *keys = zs_curve_load (copy, role, index, err, sizeof err);
    assert_null (keys);
    if (!strstr (err, want) || !strstr (err, file))
        fail_msg ("expected '%s' naming %s, got: %s", want, file, err);
}

static void
test_bad_files (void **state)
{
    char err[ZS_ERRLEN];
    assert_null (zs_curve_load ("/nonexistent/keys", ZSINK__ROLE__ROLE_WRITER, 0, err, sizeof err));
    assert_non_null (strstr (err, "/nonexistent/keys: not a keys directory"));
    s_broken ("writer-0.cert_secret", "rm", ZSINK__ROLE__ROLE_WRITER, 0, "cannot read");
    s_broken ("writer-0.cert_secret", "chmod 640", ZSINK__ROLE__ROLE_WRITER, 0, "too open");
    s_broken ("writer-0.cert_secret", "sed -i 's/secret-key = \".\\{5\\}/secret-key = \"00000/'",
              ZSINK__ROLE__ROLE_WRITER, 0, "does not belong to the public key");
    s_broken ("writer-0.cert_secret", "sed -i 's/secret-key = \".\\{5\\}/secret-key = \"~~~~~/'",
              ZSINK__ROLE__ROLE_WRITER, 0, "no valid curve/secret-key");
    s_broken ("server.cert", "sed -i 's/public-key = .*/public-key = \"short\"/'",
              ZSINK__ROLE__ROLE_WRITER, 0, "no valid curve/public-key");
    s_broken ("public/writer-1.cert", "sed -i 's/role = .*/role = \"boss\"/'",
              ZSINK__ROLE__ROLE_COORDINATOR, -1, "metadata role 'boss'");
    s_broken ("public/writer-1.cert", "sed -i 's/index = .*/index = \"x\"/'",
              ZSINK__ROLE__ROLE_COMMITTER, -1, "metadata index 'x'");
    s_broken ("public/stray.cert", "cp writer-0.cert_secret", ZSINK__ROLE__ROLE_COORDINATOR, -1,
              "holds a secret key");
    s_broken ("public/twin.cert", "cp public/writer-0.cert", ZSINK__ROLE__ROLE_COORDINATOR, -1,
              "the same key as");
    //  a lost half of a pair is not silently replaced
    char cmd[512];
    snprintf (cmd, sizeof cmd, "rm %s/broken/writer-1.cert_secret", s_dir);
    assert_int_equal (system (cmd), 0);
    char copy[160];
    snprintf (copy, sizeof copy, "%s/broken", s_dir);
    assert_int_equal (zs_curve_generate (copy, 2, NULL, err, sizeof err), -1);
    assert_non_null (strstr (err, "writer-1.cert exists but"));
}

//  Receive one message on the ROUTER within ms; 1 with user filled, or 0.
static int
s_recv_within (zsock_t *router, char *user, int ms)
{
    zpoller_t *poller = zpoller_new (router, NULL);
    int64_t end = zclock_mono () + ms;
    int got = 0;
    while (!got && zclock_mono () < end) {
        zpoller_wait (poller, 20);
        char rid[64], err[ZS_ERRLEN];
        zs_env_t *env = NULL;
        got = zs_env_recv_auth (router, rid, sizeof rid, user, 64, &env, err, sizeof err) == 1;
        zs_env_free (&env);
    }
    zpoller_destroy (&poller);
    return got;
}

static void
s_send_hello (zsock_t *dealer, int index)
{
    zs_sender_t from = {"job-1", 1, ZSINK__ROLE__ROLE_WRITER, index};
    zs_env_t env;
    zs_env_init (&env, &from, 1);
    Zsink__Heartbeat hb;
    zsink__heartbeat__init (&hb);
    env.body_case = ZSINK__ENVELOPE__BODY_HEARTBEAT;
    env.heartbeat = &hb;
    //  IMMEDIATE=1: retried until the handshake is through (or never)
    for (int i = 0; i < 50 && zs_env_send (dealer, NULL, &env) < 0; i++)
        zclock_sleep (20);
}

static void
test_over_sockets (void **state)
{
    char err[ZS_ERRLEN], user[64], w1[41];
    zs_curve_t *server = zs_curve_load (s_keys, ZSINK__ROLE__ROLE_COMMITTER, -1, err, sizeof err);
    assert_non_null (server);
    zs_net_use_curve (server);
    zsock_t *router = zs_net_router ("tcp://127.0.0.1:*", err, sizeof err);
    assert_non_null (router);
    char ep[64];
    char *last = zsock_last_endpoint (router); //  the caller owns it
    snprintf (ep, sizeof ep, "%s", last);
    zstr_free (&last);

    //  writer-1's key: delivered, with its key as User-Id
    zs_curve_t *w1_keys = zs_curve_load (s_keys, ZSINK__ROLE__ROLE_WRITER, 1, err, sizeof err);
    assert_non_null (w1_keys);
    zs_net_use_curve (w1_keys);
    zsock_t *dealer = zs_net_dealer (ep, "writer-1-test", err, sizeof err);
    assert_non_null (dealer);
    s_send_hello (dealer, 0);
    assert_int_equal (s_recv_within (router, user, 3000), 1);
    s_public_of ("writer-1", w1);
    assert_string_equal (user, w1);
    char why[ZS_ERRLEN];
    assert_false (zs_curve_bound (server, user, ZSINK__ROLE__ROLE_WRITER, 0, why, sizeof why));
    assert_true (zs_curve_bound (server, user, ZSINK__ROLE__ROLE_WRITER, 1, why, sizeof why));
    zsock_destroy (&dealer);

    //  keys of another cluster: the handshake is refused, nothing arrives
    char rogue[160];
    snprintf (rogue, sizeof rogue, "%s/rogue", s_dir);
    assert_int_equal (zs_curve_generate (rogue, 1, NULL, err, sizeof err), 0);
    char cmd[512];
    snprintf (cmd, sizeof cmd, "cp %s/server.cert %s/server.cert", s_keys, rogue);
    assert_int_equal (system (cmd), 0);
    zs_curve_t *rogue_keys = zs_curve_load (rogue, ZSINK__ROLE__ROLE_WRITER, 0, err, sizeof err);
    assert_non_null (rogue_keys);
    zs_net_use_curve (rogue_keys);
    dealer = zs_net_dealer (ep, "writer-0-rogue", err, sizeof err);
    s_send_hello (dealer, 0);
    assert_int_equal (s_recv_within (router, user, 500), 0);
    int64_t handshakes = 0;
    for (int i = 0; i < 100 && handshakes == 0; i++) {
        zs_curve_counters (server, NULL, &handshakes);
        zclock_sleep (20);
    }
    assert_true (handshakes >= 1);
    zsock_destroy (&dealer);

    zs_net_use_curve (NULL);
    zsock_destroy (&router);
    zs_curve_destroy (&rogue_keys);
    zs_curve_destroy (&w1_keys);
    zs_curve_destroy (&server);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_generate_and_load),
        cmocka_unit_test (test_binding),
        cmocka_unit_test (test_bad_files),
        cmocka_unit_test (test_over_sockets),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
