/*  test_s3.c - the S3 client against a real S3 server (SeaweedFS, started
    by scripts/s3-server.sh in a scratch directory of the build tree) and
    against two stand-ins it cannot be tested with (a port where nothing
    listens, a socket that takes a request and never answers or answers 503).

    Without the server binary (BUILD/s3/weed, or env ZSINK_WEED) the tests
    that need it are skipped, saying why, unless ZSINK_S3_REQUIRED=1: then
    they fail. zs_s3_parse_url and the stand-in tests always run.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "s3.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_BUCKET "zsink-test"
#define S_SECRET "zsinktestsecret"

static struct {
    bool up;           //  the server answers
    char why[512];     //  why not (skip or fail message)
    char dir[1024];    //  the fixture's directory
    char script[1024]; //  scripts/s3-server.sh
    char weed[1024];   //  the binary
    char endpoint[256];
    zs_s3_t *s3;
} s_srv;

//  --------------------------------------------------------------------------
//  The server, once for the whole run

static int
s_fixture (const char *cmd)
{
    char line[4096];
    snprintf (line, sizeof line, "ZSINK_WEED='%s' sh '%s' %s '%s' >>'%s.out' 2>&1", s_srv.weed,
              s_srv.script, cmd, s_srv.dir, s_srv.dir);
    return system (line);
}

static zs_s3_t *
s_client (const char *endpoint, const char *secret, int attempts)
{
    zs_s3_conf_t conf = {
        .path_style = true, .max_attempts = attempts, .backoff_ms = 10, .timeout_ms = 20000};
    snprintf (conf.endpoint, sizeof conf.endpoint, "%s", endpoint);
    snprintf (conf.access_key, sizeof conf.access_key, "zsinktestkey");
    snprintf (conf.secret_key, sizeof conf.secret_key, "%s", secret);
    char err[ZS_ERRLEN];
    zs_s3_t *s3 = zs_s3_new (&conf, err, sizeof err);
    if (!s3)
        fail_msg ("zs_s3_new: %s", err);
    return s3;
}

static int
s_group_setup (void **state)
{
    const char *env = getenv ("ZSINK_WEED");
    snprintf (s_srv.weed, sizeof s_srv.weed, "%s", env ? env : ZSINK_BUILD_DIR "/s3/weed");
    snprintf (s_srv.script, sizeof s_srv.script, "%s", ZSINK_SOURCE_DIR "/scripts/s3-server.sh");
    snprintf (s_srv.dir, sizeof s_srv.dir, "%s", ZSINK_BUILD_DIR "/tests/scratch/test_s3");
    if (access (s_srv.weed, X_OK) != 0) {
        snprintf (s_srv.why, sizeof s_srv.why,
                  "no SeaweedFS binary at %s (build it: sh scripts/setup-s3.sh %s)", s_srv.weed,
                  ZSINK_BUILD_DIR);
        return 0;
    }
    s_fixture ("stop"); //  a server left by a run that crashed
    char cmd[2200];
    snprintf (cmd, sizeof cmd, "rm -rf '%s' '%s.out' && mkdir -p '%s'", s_srv.dir, s_srv.dir,
              s_srv.dir);
    if (system (cmd) != 0 || s_fixture ("start") != 0) {
        snprintf (s_srv.why, sizeof s_srv.why, "the server did not start: see %s.out", s_srv.dir);
        return 0;
    }
    char path[1100];
    snprintf (path, sizeof path, "%s/endpoint", s_srv.dir);
    FILE *f = fopen (path, "r");
    if (!f || !fgets (s_srv.endpoint, sizeof s_srv.endpoint, f)) {
        snprintf (s_srv.why, sizeof s_srv.why, "no %s", path);
        if (f)
            fclose (f);
        return 0;
    }
    fclose (f);
    s_srv.endpoint[strcspn (s_srv.endpoint, "\n")] = 0;
    s_srv.s3 = s_client (s_srv.endpoint, S_SECRET, 0);
    char err[ZS_ERRLEN];
    if (zs_s3_create_bucket (s_srv.s3, S_BUCKET, err, sizeof err) != 0) {
        snprintf (s_srv.why, sizeof s_srv.why, "create bucket: %s", err);
        return 0;
    }
    s_srv.up = true;
    return 0;
}

static int
s_group_teardown (void **state)
{
    zs_s3_destroy (&s_srv.s3);
    if (s_srv.dir[0] && access (s_srv.weed, X_OK) == 0)
        s_fixture ("stop");
    return 0;
}

//  Skip (or fail, with ZSINK_S3_REQUIRED=1) a test that needs the server.
#define NEED_SERVER()                                                                              \
    do {                                                                                           \
        if (!s_srv.up) {                                                                           \
            const char *req = getenv ("ZSINK_S3_REQUIRED");                                        \
            if (req && !strcmp (req, "1"))                                                         \
                fail_msg ("S3 server required: %s", s_srv.why);                                    \
            print_message ("skipped: %s\n", s_srv.why);                                            \
            skip ();                                                                               \
        }                                                                                          \
    } while (0)

static void
s_put (const char *key, const char *data, const zs_s3_cond_t *cond, long want)
{
    zs_s3_result_t res;
    char err[ZS_ERRLEN];
    if (zs_s3_put (s_srv.s3, S_BUCKET, key, data, strlen (data), cond, &res, err, sizeof err))
        fail_msg ("PUT %s: %s", key, err);
    if (res.status != want)
        fail_msg ("PUT %s: HTTP %ld %s, want %ld", key, res.status, res.code, want);
}

//  GET of the whole object: its body (malloc'd) or NULL with status.
static char *
s_get (const char *key, long *status)
{
    zs_s3_result_t res;
    char err[ZS_ERRLEN], *data;
    size_t len;
    if (zs_s3_get (s_srv.s3, S_BUCKET, key, 0, -1, 64 << 20, &data, &len, &res, err, sizeof err))
        fail_msg ("GET %s: %s", key, err);
    *status = res.status;
    return data;
}

static void
s_assert_body (const char *key, const char *want)
{
    long status;
    char *data = s_get (key, &status);
    assert_int_equal (status, 200);
    assert_non_null (data);
    assert_string_equal (data, want);
    free (data);
}

//  --------------------------------------------------------------------------
//  Objects

static void
test_put_get_head_delete (void **state)
{
    NEED_SERVER ();
    zs_s3_result_t res;
    char err[ZS_ERRLEN];
    s_put ("basic/one", "hello, object", NULL, 200);
    s_assert_body ("basic/one", "hello, object");
    assert_int_equal (zs_s3_head (s_srv.s3, S_BUCKET, "basic/one", &res, err, sizeof err), 0);
    assert_int_equal (res.status, 200);
    assert_int_equal (res.size, 13);
    assert_true (res.etag[0] == '"');
    assert_true (res.mtime_ms > 1700000000000LL);
    //  the server's clock (leases are judged on it, io_lock.c): its Date,
    //  to the second, no earlier than the object's Last-Modified
    assert_true (res.date_ms >= res.mtime_ms);
    assert_true (res.date_ms - res.mtime_ms < 60000);
    assert_int_equal (res.attempts, 1);
    assert_false (res.unsure);
    assert_int_equal (zs_s3_delete (s_srv.s3, S_BUCKET, "basic/one", &res, err, sizeof err), 0);
    assert_int_equal (res.status, 204);
    assert_int_equal (zs_s3_head (s_srv.s3, S_BUCKET, "basic/one", &res, err, sizeof err), 0);
    assert_int_equal (res.status, 404);
    //  S3 answers 204 for a key that is not there too
    assert_int_equal (zs_s3_delete (s_srv.s3, S_BUCKET, "basic/one", &res, err, sizeof err), 0);
    assert_int_equal (res.status, 204);
    //  an empty object
    s_put ("basic/empty", "", NULL, 200);
    s_assert_body ("basic/empty", "");
}

static void
test_get_missing (void **state)
{
    NEED_SERVER ();
    zs_s3_result_t res;
    char err[ZS_ERRLEN], *data = (char *) 1;
    size_t len = 7;
    assert_int_equal (zs_s3_get (s_srv.s3, S_BUCKET, "no/such/key", 0, -1, 1024, &data, &len, &res,
                                 err, sizeof err),
                      0);
    assert_int_equal (res.status, 404);
    assert_string_equal (res.code, "NoSuchKey");
    assert_null (data);
    assert_int_equal (len, 0);
}

static void
test_ranged_get (void **state)
{
    NEED_SERVER ();
    s_put ("range/ten", "0123456789", NULL, 200);
    struct {
        int64_t offset, len;
        long status;
        const char *want;
    } cases[] = {
        {2, 3, 206, "234"},                          //  the middle
        {7, -1, 206, "789"},                         //  the tail
        {7, 10, 206, "789"},                         //  a range running past the end: what there is
        {0, -1, 200, "0123456789"}, {4, 0, 200, ""}, //  nothing
        {20, 5, 416, NULL},                          //  starting past the end
        {10, -1, 416, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zs_s3_result_t res;
        char err[ZS_ERRLEN], *data;
        size_t len;
        if (zs_s3_get (s_srv.s3, S_BUCKET, "range/ten", cases[i].offset, cases[i].len, 1024, &data,
                       &len, &res, err, sizeof err))
            fail_msg ("GET [%lld, +%lld): %s", (long long) cases[i].offset,
                      (long long) cases[i].len, err);
        if (res.status != cases[i].status)
            fail_msg ("GET [%lld, +%lld): HTTP %ld %s, want %ld", (long long) cases[i].offset,
                      (long long) cases[i].len, res.status, res.code, cases[i].status);
        if (cases[i].want) {
            assert_non_null (data);
            assert_int_equal (len, strlen (cases[i].want));
            assert_string_equal (data, cases[i].want);
            if (cases[i].len != 0)
                assert_int_equal (res.size, 10); //  the object's size, not the range's
        } else
            assert_null (data);
        free (data);
    }
    //  a body larger than the caller takes
    zs_s3_result_t res;
    char err[ZS_ERRLEN], *data;
    size_t len;
    assert_int_equal (
        zs_s3_get (s_srv.s3, S_BUCKET, "range/ten", 0, -1, 5, &data, &len, &res, err, sizeof err),
        -1);
    assert_null (data);
    assert_non_null (strstr (err, "larger than 5 bytes"));
    //  bad ranges are the caller's error, not a request
    assert_int_equal (
        zs_s3_get (s_srv.s3, S_BUCKET, "range/ten", -1, 2, 5, &data, &len, &res, err, sizeof err),
        -1);
    assert_non_null (strstr (err, "bad range"));
}

static void
test_if_none_match (void **state)
{
    NEED_SERVER ();
    zs_s3_cond_t absent = {.if_none_match = "*"};
    s_put ("cond/inm", "first", &absent, 200);
    zs_s3_result_t res;
    char err[ZS_ERRLEN];
    assert_int_equal (
        zs_s3_put (s_srv.s3, S_BUCKET, "cond/inm", "second", 6, &absent, &res, err, sizeof err), 0);
    assert_int_equal (res.status, 412);
    assert_string_equal (res.code, "PreconditionFailed");
    assert_false (res.unsure);
    s_assert_body ("cond/inm", "first");
}

//  Racers, each with a client of its own (one per thread, as the io layer
//  keeps them), PUT one key with If-None-Match: *: one wins.
#define S_RACERS 12

typedef struct {
    int id;
    long status;
    bool unsure;
    char err[ZS_ERRLEN];
} s_racer_t;

static void *
s_race (void *arg)
{
    s_racer_t *r = arg;
    zs_s3_conf_t c = {.path_style = true};
    snprintf (c.endpoint, sizeof c.endpoint, "%s", s_srv.endpoint);
    snprintf (c.access_key, sizeof c.access_key, "zsinktestkey");
    snprintf (c.secret_key, sizeof c.secret_key, "%s", S_SECRET);
    zs_s3_t *s3 = zs_s3_new (&c, r->err, sizeof r->err);
    char body[32];
    snprintf (body, sizeof body, "racer %d", r->id);
    zs_s3_result_t res;
    if (s3
        && zs_s3_put (s3, S_BUCKET, "cond/race", body, strlen (body),
                      &(zs_s3_cond_t){.if_none_match = "*"}, &res, r->err, sizeof r->err)
               == 0) {
        r->status = res.status;
        r->unsure = res.unsure;
    }
    zs_s3_destroy (&s3);
    return NULL;
}

static void
test_if_none_match_race (void **state)
{
    NEED_SERVER ();
    pthread_t threads[S_RACERS];
    s_racer_t racers[S_RACERS] = {{0}};
    for (int i = 0; i < S_RACERS; i++) {
        racers[i].id = i;
        assert_int_equal (pthread_create (&threads[i], NULL, s_race, &racers[i]), 0);
    }
    int won = -1, lost = 0;
    for (int i = 0; i < S_RACERS; i++) {
        pthread_join (threads[i], NULL);
        if (racers[i].status == 200)
            won = won < 0 ? i : -2;
        else if (racers[i].status == 412)
            lost++;
        else
            fail_msg ("racer %d: HTTP %ld %s", i, racers[i].status, racers[i].err);
        assert_false (racers[i].unsure);
    }
    assert_true (won >= 0);
    assert_int_equal (lost, S_RACERS - 1);
    char want[32];
    snprintf (want, sizeof want, "racer %d", won);
    s_assert_body ("cond/race", want);
}

static void
test_if_match (void **state)
{
    NEED_SERVER ();
    s_put ("cond/im", "v1", NULL, 200);
    zs_s3_result_t res;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_s3_head (s_srv.s3, S_BUCKET, "cond/im", &res, err, sizeof err), 0);
    char v1[80];
    snprintf (v1, sizeof v1, "%s", res.etag);
    s_put ("cond/im", "v2", &(zs_s3_cond_t){.if_match = v1}, 200);
    //  v1's ETag is stale now
    s_put ("cond/im", "v3", &(zs_s3_cond_t){.if_match = v1}, 412);
    s_assert_body ("cond/im", "v2");
    s_put ("cond/im-absent", "x", &(zs_s3_cond_t){.if_match = v1}, 404);
}

typedef struct {
    size_t seen;
    const char **keys;
    size_t n;
} s_keys_t;

//  counts the entries whose key is one of ctx's keys
static int
s_seen (const zs_s3_entry_t *e, void *arg)
{
    s_keys_t *ctx = arg;
    for (size_t i = 0; i < ctx->n; i++)
        if (!strcmp (e->key, ctx->keys[i]))
            ctx->seen++;
    return 0;
}

static void
test_odd_keys (void **state)
{
    NEED_SERVER ();
    const char *keys[] = {"odd/with space",   "odd/ünï/cödé", "odd/k=v+w",
                          "odd/~!*'()$&,;:@", "odd/100%",     "odd/a?b#c"};
    size_t n = sizeof keys / sizeof keys[0];
    for (size_t i = 0; i < n; i++) {
        s_put (keys[i], keys[i], NULL, 200);
        s_assert_body (keys[i], keys[i]);
    }
    //  the listing gives the keys back as they were written
    s_keys_t ctx = {0, keys, n};
    char err[ZS_ERRLEN];
    assert_int_equal (zs_s3_list (s_srv.s3, S_BUCKET, "odd/", NULL, s_seen, &ctx, err, sizeof err),
                      0);
    assert_int_equal (ctx.seen, n);
    //  and a prefix with one of them
    ctx.seen = 0;
    assert_int_equal (
        zs_s3_list (s_srv.s3, S_BUCKET, "odd/ünï/", "/", s_seen, &ctx, err, sizeof err), 0);
    assert_int_equal (ctx.seen, 1);
}

//  --------------------------------------------------------------------------
//  Listings: more than one page (S3 answers at most 1000 entries a page)

#define S_LIST_KEYS 500 //  list/kNNNN
#define S_LIST_DIRS 600 //  list/dNNN/x

typedef struct {
    int keys, prefixes;
    char last[256];
    bool ordered;
    int stop_after; //  return 7 after this many entries (0: never)
} s_listing_t;

static int
s_on_entry (const zs_s3_entry_t *e, void *arg)
{
    s_listing_t *l = arg;
    if (l->last[0] && strcmp (e->key, l->last) <= 0)
        l->ordered = false;
    snprintf (l->last, sizeof l->last, "%s", e->key);
    if (e->is_prefix) {
        l->prefixes++;
        assert_int_equal (e->size, -1);
        assert_true (e->key[strlen (e->key) - 1] == '/');
    } else {
        l->keys++;
        assert_int_equal (e->size, 1);
        assert_true (e->etag[0] == '"');
        assert_true (e->mtime_ms > 1700000000000LL);
    }
    if (l->stop_after && l->keys + l->prefixes == l->stop_after)
        return 7;
    return 0;
}

static void
test_list_pages (void **state)
{
    NEED_SERVER ();
    char key[64];
    for (int i = 0; i < S_LIST_KEYS; i++) {
        snprintf (key, sizeof key, "list/k%04d", i);
        s_put (key, "x", NULL, 200);
    }
    for (int i = 0; i < S_LIST_DIRS; i++) {
        snprintf (key, sizeof key, "list/d%03d/x", i);
        s_put (key, "x", NULL, 200);
    }
    char err[ZS_ERRLEN];
    //  every key: two pages
    s_listing_t all = {.ordered = true};
    assert_int_equal (
        zs_s3_list (s_srv.s3, S_BUCKET, "list/", NULL, s_on_entry, &all, err, sizeof err), 0);
    assert_int_equal (all.keys, S_LIST_KEYS + S_LIST_DIRS);
    assert_int_equal (all.prefixes, 0);
    assert_true (all.ordered);
    //  one level: 500 keys and 600 common prefixes, two pages again
    s_listing_t level = {.ordered = true};
    assert_int_equal (
        zs_s3_list (s_srv.s3, S_BUCKET, "list/", "/", s_on_entry, &level, err, sizeof err), 0);
    assert_int_equal (level.keys, S_LIST_KEYS);
    assert_int_equal (level.prefixes, S_LIST_DIRS);
    assert_true (level.ordered);
    //  fn stops the listing: its value comes back
    s_listing_t stopped = {.ordered = true, .stop_after = 1050};
    assert_int_equal (
        zs_s3_list (s_srv.s3, S_BUCKET, "list/", "/", s_on_entry, &stopped, err, sizeof err), 7);
    assert_int_equal (stopped.keys + stopped.prefixes, 1050);
    //  an empty prefix lists nothing, and that is not an error
    s_listing_t none = {.ordered = true};
    assert_int_equal (zs_s3_list (s_srv.s3, S_BUCKET, "list/nothing-here/", "/", s_on_entry, &none,
                                  err, sizeof err),
                      0);
    assert_int_equal (none.keys + none.prefixes, 0);
    //  a listing of a missing bucket is an error naming it
    assert_int_equal (
        zs_s3_list (s_srv.s3, "no-such-bucket-zs", "", NULL, s_on_entry, &none, err, sizeof err),
        -1);
    assert_non_null (strstr (err, "404 NoSuchBucket"));
}

//  --------------------------------------------------------------------------
//  Multipart uploads

typedef struct {
    const char *key;
    const char *id;
    int found, total;
} s_uploads_t;

static int
s_on_upload (const char *key, const char *upload_id, void *arg)
{
    s_uploads_t *u = arg;
    u->total++;
    if (!strcmp (key, u->key) && !strcmp (upload_id, u->id))
        u->found++;
    return 0;
}

//  Open uploads under prefix; found counts the one of key and id.
static s_uploads_t
s_uploads (const char *prefix, const char *key, const char *id)
{
    s_uploads_t u = {key, id, 0, 0};
    char err[ZS_ERRLEN];
    if (zs_s3_mpu_list (s_srv.s3, S_BUCKET, prefix, s_on_upload, &u, err, sizeof err))
        fail_msg ("ListMultipartUploads: %s", err);
    return u;
}

//  Creates an upload of key with nparts parts ('a', 'b', …), of size bytes
//  each but the last, of last bytes: the upload id, the parts' ETags, the
//  whole in *whole.
static void
s_upload_parts (const char *key, int nparts, size_t size, size_t last, char *id, size_t idlen,
                char (*etags)[80], char **whole)
{
    char err[ZS_ERRLEN];
    if (zs_s3_mpu_create (s_srv.s3, S_BUCKET, key, id, idlen, err, sizeof err))
        fail_msg ("CreateMultipartUpload: %s", err);
    size_t total = (size_t) (nparts - 1) * size + last;
    *whole = malloc (total + 1);
    for (int p = 0; p < nparts; p++) {
        char *part = *whole + (size_t) p * size;
        size_t n = p == nparts - 1 ? last : size;
        memset (part, 'a' + p, n);
        if (zs_s3_mpu_put_part (s_srv.s3, S_BUCKET, key, id, p + 1, part, n, etags[p], 80, err,
                                sizeof err))
            fail_msg ("UploadPart %d: %s", p + 1, err);
        assert_true (etags[p][0] == '"');
    }
    (*whole)[total] = 0;
}

#define S_MIB (1024 * 1024)

static void
test_multipart_complete (void **state)
{
    NEED_SERVER ();
    const char *key = "mpu/whole object";
    char id[512], etags[3][80], *whole, err[ZS_ERRLEN];
    zs_s3_result_t res;
    //  SeaweedFS, like AWS, wants every part but the last >= 5 MiB
    s_upload_parts (key, 2, 1000, 1000, id, sizeof id, etags, &whole);
    free (whole);
    assert_int_equal (
        zs_s3_mpu_complete (s_srv.s3, S_BUCKET, key, id, etags, 2, NULL, &res, err, sizeof err), 0);
    assert_int_equal (res.status, 400);
    assert_string_equal (res.code, "EntityTooSmall");
    assert_int_equal (zs_s3_mpu_abort (s_srv.s3, S_BUCKET, key, id, err, sizeof err), 0);

    s_upload_parts (key, 3, 5 * S_MIB, 100 * 1024, id, sizeof id, etags, &whole);
    size_t total = 10 * S_MIB + 100 * 1024;
    //  the open upload is listed
    s_uploads_t open = s_uploads ("mpu/", key, id);
    assert_int_equal (open.found, 1);
    assert_int_equal (
        zs_s3_mpu_complete (s_srv.s3, S_BUCKET, key, id, etags, 3, NULL, &res, err, sizeof err), 0);
    if (res.status != 200)
        fail_msg ("CompleteMultipartUpload: HTTP %ld %s", res.status, res.code);
    char *data;
    size_t len;
    assert_int_equal (
        zs_s3_get (s_srv.s3, S_BUCKET, key, 0, -1, 64 * S_MIB, &data, &len, &res, err, sizeof err),
        0);
    assert_int_equal (res.status, 200);
    assert_int_equal (len, total);
    assert_memory_equal (data, whole, total);
    free (data);
    //  a range across the parts' boundary
    assert_int_equal (zs_s3_get (s_srv.s3, S_BUCKET, key, 5 * S_MIB - 2, 4, 64, &data, &len, &res,
                                 err, sizeof err),
                      0);
    assert_int_equal (res.status, 206);
    assert_string_equal (data, "aabb");
    assert_int_equal (res.size, (int64_t) total);
    free (data);
    free (whole);
    assert_int_equal (s_uploads ("mpu/", key, id).found, 0);
}

static void
test_multipart_abort (void **state)
{
    NEED_SERVER ();
    const char *key = "mpu-abort/obj";
    char id[512], etags[1][80], *whole, err[ZS_ERRLEN];
    s_upload_parts (key, 1, 1000, 1000, id, sizeof id, etags, &whole);
    free (whole);
    assert_int_equal (s_uploads ("mpu-abort/", key, id).found, 1);
    assert_int_equal (zs_s3_mpu_abort (s_srv.s3, S_BUCKET, key, id, err, sizeof err), 0);
    assert_int_equal (s_uploads ("mpu-abort/", key, id).total, 0);
    //  an upload already gone is not an error
    assert_int_equal (zs_s3_mpu_abort (s_srv.s3, S_BUCKET, key, id, err, sizeof err), 0);
    long status;
    assert_null (s_get (key, &status));
    assert_int_equal (status, 404);
}

//  CompleteMultipartUpload with If-None-Match: * over an existing key: 412,
//  the object untouched, the upload still there to abort.
static void
test_multipart_if_none_match (void **state)
{
    NEED_SERVER ();
    const char *key = "mpu-cond/taken";
    s_put (key, "already here", NULL, 200);
    char id[512], etags[2][80], *whole, err[ZS_ERRLEN];
    s_upload_parts (key, 2, 5 * S_MIB, 1000, id, sizeof id, etags, &whole);
    free (whole);
    zs_s3_result_t res;
    assert_int_equal (zs_s3_mpu_complete (s_srv.s3, S_BUCKET, key, id, etags, 2,
                                          &(zs_s3_cond_t){.if_none_match = "*"}, &res, err,
                                          sizeof err),
                      0);
    assert_int_equal (res.status, 412);
    s_assert_body (key, "already here");
    assert_int_equal (zs_s3_mpu_abort (s_srv.s3, S_BUCKET, key, id, err, sizeof err), 0);
    //  and on a free key it completes
    const char *key2 = "mpu-cond/free";
    s_upload_parts (key2, 2, 5 * S_MIB, 1000, id, sizeof id, etags, &whole);
    assert_int_equal (zs_s3_mpu_complete (s_srv.s3, S_BUCKET, key2, id, etags, 2,
                                          &(zs_s3_cond_t){.if_none_match = "*"}, &res, err,
                                          sizeof err),
                      0);
    if (res.status != 200)
        fail_msg ("CompleteMultipartUpload: HTTP %ld %s", res.status, res.code);
    long status;
    char *data = s_get (key2, &status);
    assert_int_equal (status, 200);
    assert_memory_equal (data, whole, 5 * S_MIB + 1000);
    free (data);
    free (whole);
}

//  Virtual-host style: http://zsink-test.localhost:PORT/key (curl takes
//  any *.localhost for the loopback; the fixture's server knows the
//  domain "localhost").
static void
test_virtual_host (void **state)
{
    NEED_SERVER ();
    char endpoint[256], err[ZS_ERRLEN];
    snprintf (endpoint, sizeof endpoint, "http://localhost:%s", strrchr (s_srv.endpoint, ':') + 1);
    zs_s3_conf_t c = {.path_style = false, .backoff_ms = 10};
    snprintf (c.endpoint, sizeof c.endpoint, "%s", endpoint);
    snprintf (c.access_key, sizeof c.access_key, "zsinktestkey");
    snprintf (c.secret_key, sizeof c.secret_key, "%s", S_SECRET);
    zs_s3_t *vh = zs_s3_new (&c, err, sizeof err);
    assert_non_null (vh);
    zs_s3_result_t res;
    const char *key = "vhost/a key=1";
    assert_int_equal (zs_s3_put (vh, S_BUCKET, key, "virtual", 7, NULL, &res, err, sizeof err), 0);
    if (res.status != 200)
        fail_msg ("PUT virtual-host style: HTTP %ld %s", res.status, res.code);
    s_assert_body (key, "virtual"); //  read back path style
    s_keys_t ctx = {0, &key, 1};
    assert_int_equal (zs_s3_list (vh, S_BUCKET, "vhost/", "/", s_seen, &ctx, err, sizeof err), 0);
    assert_int_equal (ctx.seen, 1);
    zs_s3_destroy (&vh);
}

static void
test_create_bucket_twice (void **state)
{
    NEED_SERVER ();
    char err[ZS_ERRLEN];
    assert_int_equal (zs_s3_create_bucket (s_srv.s3, S_BUCKET, err, sizeof err), 0);
    assert_int_equal (zs_s3_create_bucket (s_srv.s3, "zsink-test-2", err, sizeof err), 0);
    assert_int_equal (zs_s3_create_bucket (s_srv.s3, "zsink-test-2", err, sizeof err), 0);
    assert_int_equal (zs_s3_create_bucket (s_srv.s3, "Bad_Name", err, sizeof err), -1);
    assert_non_null (strstr (err, "Bad_Name"));
}

//  A wrong secret: the answer is 403, and the secrets are in no error text.
static void
test_wrong_secret (void **state)
{
    NEED_SERVER ();
    zs_s3_t *bad = s_client (s_srv.endpoint, "not-the-secret-0451", 0);
    zs_s3_result_t res;
    char err[ZS_ERRLEN] = "";
    assert_int_equal (zs_s3_put (bad, S_BUCKET, "x", "x", 1, NULL, &res, err, sizeof err), 0);
    assert_int_equal (res.status, 403);
    assert_string_equal (res.code, "SignatureDoesNotMatch");
    assert_int_equal (zs_s3_list (bad, S_BUCKET, "", NULL, s_on_entry, NULL, err, sizeof err), -1);
    assert_non_null (strstr (err, "403 SignatureDoesNotMatch"));
    assert_null (strstr (err, "not-the-secret-0451"));
    assert_null (strstr (err, S_SECRET));
    zs_s3_destroy (&bad);
}

//  --------------------------------------------------------------------------
//  Without the server: URLs, configuration, retries

static void
test_parse_url (void **state)
{
    char bucket[64], key[1100], err[ZS_ERRLEN];
    struct {
        const char *url, *bucket, *key;
    } good[] = {
        {"s3://my-bucket/a/b/c", "my-bucket", "a/b/c"},
        {"s3://my-bucket/a/b/dir/", "my-bucket", "a/b/dir"},
        {"s3://my-bucket", "my-bucket", ""},
        {"s3://my-bucket/", "my-bucket", ""},
        {"s3://b.with.dots-1/k=v/x y", "b.with.dots-1", "k=v/x y"},
        {"s3://abc/x", "abc", "x"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (zs_s3_parse_url (good[i].url, bucket, sizeof bucket, key, sizeof key, err, sizeof err))
            fail_msg ("%s: %s", good[i].url, err);
        assert_string_equal (bucket, good[i].bucket);
        assert_string_equal (key, good[i].key);
    }
    struct {
        const char *url, *why;
    } bad[] = {
        {"/local/path", "not an s3://"},
        {"s3a://bucket/x", "not an s3://"},
        {"s3:///key", "no bucket"},
        {"s3://ab/x", "3 to 63"},
        {"s3://Upper/x", "lowercase"},
        {"s3://under_score/x", "lowercase"},
        {"s3://-dash/x", "begin and end"},
        {"s3://dash-/x", "begin and end"},
        {"s3://a..b/x", "'..'"},
        {"s3://192.168.1.1/x", "IP address"},
        {"s3://bucket/a//b", "'//'"},
        {"s3://bucket//a", "'//'"},
        {"s3://a234567890123456789012345678901234567890123456789012345678901234/x", "63"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        if (zs_s3_parse_url (bad[i].url, bucket, sizeof bucket, key, sizeof key, err, sizeof err)
            == 0)
            fail_msg ("%s was taken", bad[i].url);
        if (!strstr (err, bad[i].why))
            fail_msg ("%s: '%s' does not say '%s'", bad[i].url, err, bad[i].why);
    }
    //  too long for the caller's buffer
    assert_int_equal (
        zs_s3_parse_url ("s3://bucket/0123456789", bucket, sizeof bucket, key, 5, err, sizeof err),
        -1);
}

static void
test_conf_refused (void **state)
{
    zs_s3_conf_t conf = {.path_style = true};
    char err[ZS_ERRLEN];
    snprintf (conf.endpoint, sizeof conf.endpoint, "http://127.0.0.1:1");
    assert_null (zs_s3_new (&conf, err, sizeof err));
    assert_non_null (strstr (err, "no credentials"));
    snprintf (conf.access_key, sizeof conf.access_key, "k");
    snprintf (conf.secret_key, sizeof conf.secret_key, "s3cr3t-value");
    const char *bad[] = {"ftp://127.0.0.1", "127.0.0.1:8333", "http://", "http://127.0.0.1/path",
                         "http://127.0.0.1@127.0.0.1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf (conf.endpoint, sizeof conf.endpoint, "%s", bad[i]);
        zs_s3_t *s3 = zs_s3_new (&conf, err, sizeof err);
        if (s3)
            fail_msg ("endpoint %s was taken", bad[i]);
        assert_non_null (strstr (err, "endpoint"));
        assert_null (strstr (err, "s3cr3t-value"));
    }
    //  a condition is a header value: no line breaks smuggled into the request
    snprintf (conf.endpoint, sizeof conf.endpoint, "http://127.0.0.1:1");
    conf.max_attempts = 1;
    zs_s3_t *s3 = zs_s3_new (&conf, err, sizeof err);
    assert_non_null (s3);
    zs_s3_result_t res = {.attempts = -1};
    zs_s3_cond_t evil = {.if_match = "\"abc\"\r\nX-Evil: 1"};
    assert_int_equal (zs_s3_put (s3, "bucket", "k", "x", 1, &evil, &res, err, sizeof err), -1);
    assert_non_null (strstr (err, "not a header value"));
    assert_int_equal (res.attempts, 0); //  no request made
    zs_s3_destroy (&s3);
    zs_s3_destroy (&s3); //  NULL is fine
}

//  A port on 127.0.0.1 where nothing listens (bound, then closed).
static int
s_dead_port (void)
{
    int fd = socket (AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    assert_int_equal (bind (fd, (struct sockaddr *) &a, sizeof a), 0);
    assert_int_equal (getsockname (fd, (struct sockaddr *) &a, &alen), 0);
    close (fd);
    return ntohs (a.sin_port);
}

static void
test_retry_refused (void **state)
{
    char endpoint[64], err[ZS_ERRLEN];
    snprintf (endpoint, sizeof endpoint, "http://127.0.0.1:%d", s_dead_port ());
    zs_s3_t *s3 = s_client (endpoint, S_SECRET, 4);
    zs_s3_stats_t before, after;
    zs_s3_stats (&before);
    zs_s3_result_t res;
    assert_int_equal (zs_s3_put (s3, S_BUCKET, "k", "data", 4, NULL, &res, err, sizeof err), -1);
    zs_s3_stats (&after);
    assert_int_equal (res.attempts, 4);
    assert_int_equal (res.status, 0);
    assert_false (res.unsure); //  nothing was sent
    assert_non_null (strstr (err, "no answer after 4 attempts"));
    if (!strstr (err, "Connection refused") && !strstr (err, "Couldn't connect"))
        fail_msg ("err does not say the connection was refused: %s", err);
    assert_non_null (strstr (err, "PUT s3://" S_BUCKET "/k"));
    assert_null (strstr (err, S_SECRET));
    assert_int_equal (after.requests - before.requests, 4);
    assert_int_equal (after.retries - before.retries, 3);
    zs_s3_destroy (&s3);
}

//  A stand-in server: takes each request whole, then closes the connection
//  without a word, answers 503, or says nothing until the client hangs up
//  (its timeout); counts the requests.
typedef enum { S_CLOSE, S_503, S_HOLD } s_standin_mode_t;

typedef struct {
    int fd;
    int port;
    s_standin_mode_t mode;
    int requests;
    pthread_t thread;
} s_standin_t;

static void
s_standin_serve (s_standin_t *s, int c)
{
    char buf[8192];
    size_t n = 0;
    char *end = NULL;
    while (!end && n < sizeof buf - 1) {
        ssize_t r = read (c, buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            return;
        n += (size_t) r;
        buf[n] = 0;
        end = strstr (buf, "\r\n\r\n");
    }
    const char *cl = strcasestr (buf, "Content-Length:");
    size_t body = cl ? strtoul (cl + 15, NULL, 10) : 0;
    size_t have = end ? n - (size_t) (end + 4 - buf) : 0;
    while (have < body) {
        ssize_t r = read (c, buf, sizeof buf);
        if (r <= 0)
            return;
        have += (size_t) r;
    }
    __atomic_add_fetch (&s->requests, 1, __ATOMIC_SEQ_CST);
    if (s->mode == S_HOLD)
        while (read (c, buf, sizeof buf) > 0)
            ;
    if (s->mode == S_503) {
        const char *a = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
                        "Content-Length: 0\r\n\r\n";
        if (write (c, a, strlen (a)) < 0)
            return;
    }
}

static void *
s_standin_run (void *arg)
{
    s_standin_t *s = arg;
    for (;;) {
        int c = accept (s->fd, NULL, NULL);
        if (c < 0)
            return NULL; //  shut down
        s_standin_serve (s, c);
        close (c);
    }
}

static void
s_standin_start (s_standin_t *s, s_standin_mode_t mode)
{
    memset (s, 0, sizeof *s);
    s->mode = mode;
    s->fd = socket (AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    assert_int_equal (bind (s->fd, (struct sockaddr *) &a, sizeof a), 0);
    assert_int_equal (listen (s->fd, 16), 0);
    assert_int_equal (getsockname (s->fd, (struct sockaddr *) &a, &alen), 0);
    s->port = ntohs (a.sin_port);
    assert_int_equal (pthread_create (&s->thread, NULL, s_standin_run, s), 0);
}

static void
s_standin_stop (s_standin_t *s)
{
    shutdown (s->fd, SHUT_RDWR);
    pthread_join (s->thread, NULL);
    close (s->fd);
}

//  The request went out whole and no answer came: it may have been
//  applied, so unsure; every attempt was made.
static void
test_retry_no_answer_unsure (void **state)
{
    s_standin_t s;
    s_standin_start (&s, S_CLOSE);
    char endpoint[64], err[ZS_ERRLEN];
    snprintf (endpoint, sizeof endpoint, "http://127.0.0.1:%d", s.port);
    zs_s3_t *s3 = s_client (endpoint, S_SECRET, 3);
    zs_s3_result_t res;
    assert_int_equal (zs_s3_put (s3, S_BUCKET, "k", "data", 4,
                                 &(zs_s3_cond_t){.if_none_match = "*"}, &res, err, sizeof err),
                      -1);
    assert_int_equal (res.attempts, 3);
    assert_true (res.unsure);
    assert_non_null (strstr (err, "no answer after 3 attempts"));
    //  a GET changes nothing: never unsure
    char *data;
    size_t len;
    assert_int_equal (zs_s3_get (s3, S_BUCKET, "k", 0, -1, 100, &data, &len, &res, err, sizeof err),
                      -1);
    assert_false (res.unsure);
    zs_s3_destroy (&s3);
    s_standin_stop (&s);
    assert_int_equal (s.requests, 6);
}

//  503 on every attempt: an answer all the same (0, status 503), after
//  every attempt; the PUT is unsure.
static void
test_retry_503 (void **state)
{
    s_standin_t s;
    s_standin_start (&s, S_503);
    char endpoint[64], err[ZS_ERRLEN];
    snprintf (endpoint, sizeof endpoint, "http://127.0.0.1:%d", s.port);
    zs_s3_t *s3 = s_client (endpoint, S_SECRET, 3);
    zs_s3_result_t res;
    assert_int_equal (zs_s3_put (s3, S_BUCKET, "k", "data", 4, NULL, &res, err, sizeof err), 0);
    assert_int_equal (res.status, 503);
    assert_int_equal (res.attempts, 3);
    assert_true (res.unsure);
    assert_int_equal (zs_s3_head (s3, S_BUCKET, "k", &res, err, sizeof err), 0);
    assert_int_equal (res.status, 503);
    assert_false (res.unsure);
    zs_s3_destroy (&s3);
    s_standin_stop (&s);
    assert_int_equal (s.requests, 6);
}

//  No answer within the attempt's timeout: the same as no answer at all.
static void
test_retry_timeout (void **state)
{
    s_standin_t s;
    s_standin_start (&s, S_HOLD);
    zs_s3_conf_t c = {.path_style = true, .max_attempts = 2, .backoff_ms = 10, .timeout_ms = 300};
    snprintf (c.endpoint, sizeof c.endpoint, "http://127.0.0.1:%d", s.port);
    snprintf (c.access_key, sizeof c.access_key, "zsinktestkey");
    snprintf (c.secret_key, sizeof c.secret_key, "%s", S_SECRET);
    char err[ZS_ERRLEN];
    zs_s3_t *s3 = zs_s3_new (&c, err, sizeof err);
    assert_non_null (s3);
    zs_s3_result_t res;
    int64_t t0 = zs_clock_mono_ms ();
    assert_int_equal (zs_s3_put (s3, S_BUCKET, "k", "data", 4, NULL, &res, err, sizeof err), -1);
    int64_t took = zs_clock_mono_ms () - t0;
    assert_int_equal (res.attempts, 2);
    assert_true (res.unsure);
    if (!strstr (err, "imed out") && !strstr (err, "imeout"))
        fail_msg ("err does not say it timed out: %s", err);
    assert_true (took >= 600 && took < 5000);
    zs_s3_destroy (&s3);
    s_standin_stop (&s);
    assert_int_equal (s.requests, 2);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_parse_url),
        cmocka_unit_test (test_conf_refused),
        cmocka_unit_test (test_retry_refused),
        cmocka_unit_test (test_retry_no_answer_unsure),
        cmocka_unit_test (test_retry_503),
        cmocka_unit_test (test_retry_timeout),
        cmocka_unit_test (test_put_get_head_delete),
        cmocka_unit_test (test_get_missing),
        cmocka_unit_test (test_ranged_get),
        cmocka_unit_test (test_if_none_match),
        cmocka_unit_test (test_if_none_match_race),
        cmocka_unit_test (test_if_match),
        cmocka_unit_test (test_odd_keys),
        cmocka_unit_test (test_list_pages),
        cmocka_unit_test (test_multipart_complete),
        cmocka_unit_test (test_multipart_abort),
        cmocka_unit_test (test_multipart_if_none_match),
        cmocka_unit_test (test_virtual_host),
        cmocka_unit_test (test_create_bucket_twice),
        cmocka_unit_test (test_wrong_secret),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
