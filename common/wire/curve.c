/*  curve.c - see curve.h.

    Invariants:
    1. A server socket never binds before zauth runs with public/ as its
       allow list: libzmq without a ZAP handler lets any CURVE client in.
    2. Every key file is checked before use: Z85 text of the right length,
       and a secret key that derives its public key. A bad file is an error
       naming the file, never a silent NULL key or an assert.
    3. The binding of a key to a role and writer index comes from the
       servers' own public/ (the cert's metadata), never from the client:
       the client only proves it holds the secret of that key.
*/
#include "curve.h"
#include "codec.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "monitor.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_KEY_LEN 40      //  a Z85 key's text
#define S_RELOAD_MS 1000  //  public/ reread at most this often
#define S_LOGGED_MAX 1024 //  keys whose refusal we remember having logged
#define S_HANDSHAKE_FAILED                                                                         \
    (ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL                    \
     | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)

typedef struct {
    char key[S_KEY_LEN + 1];
    Zsink__Role role;
    int index;      //  writers only, else -1
    char file[256]; //  name in public/, for messages
} s_binding_t;

struct _zs_curve_t {
    char dir[ZS_PATH_MAX];
    char public_dir[ZS_PATH_MAX + 16];
    zcert_t *own;    //  our client cert (NULL for the coordinator)
    zcert_t *server; //  the servers' cert: with its secret in a server
    bool is_server;
    s_binding_t *bindings;
    size_t n_bindings;
    int64_t loaded_at;
    zactor_t *auth;
    zsock_t *monitor; //  handshake events of our server socket
    int64_t unauthorized, handshakes;
    zhash_t *logged;
};

//  ---------------------------------------------------------------------
//  Certificate files

static const char *
s_role_name (Zsink__Role role)
{
    switch (role) {
    case ZSINK__ROLE__ROLE_COORDINATOR:
        return "coordinator";
    case ZSINK__ROLE__ROLE_WRITER:
        return "writer";
    case ZSINK__ROLE__ROLE_COMMITTER:
        return "committer";
    case ZSINK__ROLE__ROLE_CLIENT:
        return "client";
    default:
        return "unknown";
    }
}

//  "writer-3", "committer", "client", "server": a cert's base name.
static void
s_cert_name (Zsink__Role role, int index, char *buf, size_t len)
{
    if (role == ZSINK__ROLE__ROLE_WRITER)
        snprintf (buf, len, "writer-%d", index);
    else
        snprintf (buf, len, "%s", s_role_name (role));
}

static bool
s_z85_ok (const char *text, uint8_t *out)
{
    return text && strlen (text) == S_KEY_LEN && zmq_z85_decode (out, text) != NULL;
}

//  Load and check one cert file (invariant 2). With secret, the file must
//  hold a secret key matching its public key, and be private to its owner.
//  The metadata stays in *root_p when asked for (the caller destroys it).
static zcert_t *
s_cert_load (const char *path, bool secret, zconfig_t **root_p, char *err, size_t errlen)
{
    struct stat st;
    if (stat (path, &st) != 0) {
        snprintf (err, errlen, "%s: cannot read: %s", path, strerror (errno));
        return NULL;
    }
    if (!S_ISREG (st.st_mode)) {
        snprintf (err, errlen, "%s: not a regular file", path);
        return NULL;
    }
    if (secret && (st.st_mode & 077)) {
        //  as ssh does with a private key: a secret others may read is no
        //  secret, and saying so beats a quiet compromise
        snprintf (err, errlen, "%s: permissions %04o are too open for a secret key (chmod 600 %s)",
                  path, (unsigned) (st.st_mode & 07777), path);
        return NULL;
    }
    //  read it ourselves: czmq's zconfig_load leaks its zfile when the text
    //  does not parse, and a certificate is small
    char *text = zs_io_read_file (path, 64 * 1024, NULL, err, errlen);
    if (!text)
        return NULL;
    zconfig_t *root = zconfig_str_load (text);
    free (text);
    if (!root) {
        snprintf (err, errlen, "%s: cannot read or parse as a ZeroMQ certificate", path);
        return NULL;
    }
    uint8_t pub[32], sec[32];
    memset (sec, 0, sizeof sec);
    const char *pub_text = zconfig_get (root, "/curve/public-key", NULL);
    const char *sec_text = zconfig_get (root, "/curve/secret-key", NULL);
    if (!s_z85_ok (pub_text, pub)) {
        snprintf (err, errlen, "%s: no valid curve/public-key (40 Z85 characters)", path);
        zconfig_destroy (&root);
        return NULL;
    }
    if (secret) {
        char derived[S_KEY_LEN + 1];
        if (!s_z85_ok (sec_text, sec) || zmq_curve_public (derived, sec_text) != 0) {
            snprintf (err, errlen, "%s: no valid curve/secret-key (40 Z85 characters)", path);
            zconfig_destroy (&root);
            return NULL;
        }
        if (strcmp (derived, pub_text) != 0) {
            snprintf (err, errlen, "%s: the secret key does not belong to the public key", path);
            zconfig_destroy (&root);
            return NULL;
        }
    } else if (sec_text && *sec_text) {
        snprintf (err, errlen, "%s: holds a secret key where a public certificate belongs", path);
        zconfig_destroy (&root);
        return NULL;
    }
    zcert_t *cert = zcert_new_from (pub, sec);
    if (!cert)
        snprintf (err, errlen, "%s: out of memory", path);
    if (root_p)
        *root_p = root;
    else
        zconfig_destroy (&root);
    return cert;
}

//  ---------------------------------------------------------------------
//  Bindings: public/ read into key -> (role, index)

static int
s_binding_parse (zconfig_t *root, const char *path, s_binding_t *b, char *err, size_t errlen)
{
    const char *role = zconfig_get (root, "/metadata/role", "");
    const char *index = zconfig_get (root, "/metadata/index", "");
    b->index = -1;
    if (strcmp (role, "committer") == 0)
        b->role = ZSINK__ROLE__ROLE_COMMITTER;
    else if (strcmp (role, "client") == 0)
        b->role = ZSINK__ROLE__ROLE_CLIENT;
    else if (strcmp (role, "writer") == 0) {
        b->role = ZSINK__ROLE__ROLE_WRITER;
        char *end;
        long v = strtol (index, &end, 10);
        if (!*index || *end || v < 0 || v >= ZS_MAX_WRITERS) {
            snprintf (err, errlen, "%s: metadata index '%s' is not a writer index 0 … %d", path,
                      index, ZS_MAX_WRITERS - 1);
            return -1;
        }
        b->index = (int) v;
    } else {
        snprintf (err, errlen, "%s: metadata role '%s' is not writer, committer or client", path,
                  role);
        return -1;
    }
    return 0;
}

static const s_binding_t *
s_binding_find (const s_binding_t *list, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp (list[i].key, key) == 0)
            return &list[i];
    return NULL;
}

//  Read every file of public/ (as zauth does); a file that is not a public
//  cert with a role is an error, and so is one key bound twice.
static int
s_bindings_load (zs_curve_t *self, char *err, size_t errlen)
{
    DIR *d = opendir (self->public_dir);
    if (!d) {
        snprintf (err, errlen, "%s: cannot open: %s", self->public_dir, strerror (errno));
        return -1;
    }
    s_binding_t *list = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir (d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[2 * ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/%s", self->public_dir, de->d_name);
        zconfig_t *root = NULL;
        zcert_t *cert = s_cert_load (path, false, &root, err, errlen);
        if (!cert) {
            rc = -1;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            s_binding_t *grown = realloc (list, cap * sizeof *list);
            if (!grown) {
                snprintf (err, errlen, "out of memory reading %s", self->public_dir);
                rc = -1;
            } else
                list = grown;
        }
        if (rc == 0) {
            s_binding_t *b = &list[n];
            snprintf (b->key, sizeof b->key, "%s", zcert_public_txt (cert));
            snprintf (b->file, sizeof b->file, "%s", de->d_name);
            rc = s_binding_parse (root, path, b, err, errlen);
            const s_binding_t *twin = rc == 0 ? s_binding_find (list, n, b->key) : NULL;
            if (twin) {
                snprintf (err, errlen, "%s: the same key as %s/%s", path, self->public_dir,
                          twin->file);
                rc = -1;
            }
            if (rc == 0)
                n++;
        }
        zcert_destroy (&cert);
        zconfig_destroy (&root);
    }
    closedir (d);
    if (rc == 0 && n == 0) {
        snprintf (err, errlen, "%s: no public certificates (zsink keys generate makes them)",
                  self->public_dir);
        rc = -1;
    }
    if (rc < 0) {
        free (list);
        return -1;
    }
    free (self->bindings);
    self->bindings = list;
    self->n_bindings = n;
    self->loaded_at = zs_clock_mono_ms ();
    return 0;
}

//  ---------------------------------------------------------------------
//  Public API

zs_curve_t *
zs_curve_load (const char *dir, Zsink__Role role, int index, char *err, size_t errlen)
{
    if (!dir || !*dir || strlen (dir) >= ZS_PATH_MAX) {
        snprintf (err, errlen, "no usable CURVE keys directory given");
        return NULL;
    }
    struct stat st;
    int found = stat (dir, &st);
    if (found != 0 || !S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "%s: not a keys directory: %s (zsink keys generate makes one)", dir,
                  found != 0 ? strerror (errno) : "not a directory");
        return NULL;
    }
    zs_curve_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    snprintf (self->dir, sizeof self->dir, "%s", dir);
    snprintf (self->public_dir, sizeof self->public_dir, "%s/public", dir);
    self->is_server = role == ZSINK__ROLE__ROLE_COORDINATOR || role == ZSINK__ROLE__ROLE_COMMITTER;
    char path[ZS_PATH_MAX + 64], name[32];
    snprintf (path, sizeof path, "%s/server.cert%s", dir, self->is_server ? "_secret" : "");
    self->server = s_cert_load (path, self->is_server, NULL, err, errlen);
    if (self->server && role != ZSINK__ROLE__ROLE_COORDINATOR) {
        s_cert_name (role, index, name, sizeof name);
        snprintf (path, sizeof path, "%s/%s.cert_secret", dir, name);
        self->own = s_cert_load (path, true, NULL, err, errlen);
    }
    bool ok = self->server && (self->own || role == ZSINK__ROLE__ROLE_COORDINATOR);
    if (ok && self->is_server)
        ok = s_bindings_load (self, err, errlen) == 0;
    if (ok)
        self->logged = zhash_new ();
    if (!ok || !self->logged) {
        if (ok)
            snprintf (err, errlen, "out of memory");
        zs_curve_destroy (&self);
        return NULL;
    }
    return self;
}

void
zs_curve_destroy (zs_curve_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_curve_t *self = *self_p;
    zsock_destroy (&self->monitor);
    zactor_destroy (&self->auth);
    zcert_destroy (&self->own);
    zcert_destroy (&self->server);
    zhash_destroy (&self->logged);
    free (self->bindings);
    free (self);
    *self_p = NULL;
}

int
zs_curve_server (zs_curve_t *self, zsock_t *sock, char *err, size_t errlen)
{
    if (!self->is_server) {
        snprintf (err, errlen, "these keys are a client's, not a server's");
        return -1;
    }
    if (!self->auth) {
        //  Invariant 1. zauth's certstore rereads public/ when it changes.
        self->auth = zactor_new (zauth, NULL);
        if (!self->auth) {
            snprintf (err, errlen, "cannot start zauth");
            return -1;
        }
        zstr_sendx (self->auth, "CURVE", self->public_dir, NULL);
        zsock_wait (self->auth);
    }
    zcert_apply (self->server, sock);
    zsock_set_curve_server (sock, 1);
    zsock_set_zap_domain (sock, "zsink");
    //  One socket watched per process: each server role has one ROUTER.
    if (!self->monitor)
        self->monitor = zs_monitor_new (sock, S_HANDSHAKE_FAILED);
    return 0;
}

void
zs_curve_client (zs_curve_t *self, zsock_t *sock)
{
    zcert_apply (self->own, sock);
    zsock_set_curve_serverkey (sock, zcert_public_txt (self->server));
}

bool
zs_curve_bound (zs_curve_t *self, const char *user_id, Zsink__Role role, int index, char *why,
                size_t whylen)
{
    char claim[32];
    s_cert_name (role, index, claim, sizeof claim);
    if (!user_id || strlen (user_id) != S_KEY_LEN) {
        snprintf (why, whylen, "a message claiming to be %s carries no authenticated key", claim);
        return false;
    }
    const s_binding_t *b = s_binding_find (self->bindings, self->n_bindings, user_id);
    char err[ZS_ERRLEN];
    if (!b && zs_clock_mono_ms () - self->loaded_at >= S_RELOAD_MS) {
        if (s_bindings_load (self, err, sizeof err) < 0) {
            self->loaded_at = zs_clock_mono_ms (); //  keep the old list a while
            zs_warn ("CURVE: keeping the public keys read before: %s", err);
        }
        b = s_binding_find (self->bindings, self->n_bindings, user_id);
    }
    if (!b) {
        snprintf (why, whylen, "key %s is not in %s, yet claims to be %s", user_id,
                  self->public_dir, claim);
        return false;
    }
    if (b->role == role && (role != ZSINK__ROLE__ROLE_WRITER || b->index == index))
        return true;
    char owner[32];
    s_cert_name (b->role, b->index, owner, sizeof owner);
    snprintf (why, whylen, "key %s of %s (public/%s) claims to be %s", user_id, owner, b->file,
              claim);
    return false;
}

void
zs_curve_refuse (zs_curve_t *self, const char *user_id, const char *why)
{
    self->unauthorized++;
    const char *key = user_id && *user_id ? user_id : "(none)";
    if (zhash_lookup (self->logged, key))
        return;
    if (zhash_size (self->logged) < S_LOGGED_MAX)
        zhash_insert (self->logged, key, (void *) 1);
    zs_warn ("dropped an unauthorized message: %s (%lld so far; each key is logged once)", why,
             (long long) self->unauthorized);
}

void
zs_curve_counters (zs_curve_t *self, int64_t *unauthorized, int64_t *handshakes)
{
    char endpoint[256];
    int event;
    while (self->monitor && (event = zs_monitor_event (self->monitor, endpoint, sizeof endpoint))) {
        if (event < 0 || !(event & S_HANDSHAKE_FAILED))
            continue;
        if (self->handshakes++ % 1000 == 0)
            zs_warn ("refused a CURVE handshake on %s: %s (%lld so far)", endpoint,
                     event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
                         ? "the client's key is not in the allowed public keys"
                     : event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
                         ? "protocol error (a client without CURVE, or the wrong server key)"
                         : "handshake failed",
                     (long long) self->handshakes);
    }
    if (unauthorized)
        *unauthorized = self->unauthorized;
    if (handshakes)
        *handshakes = self->handshakes;
}

//  ---------------------------------------------------------------------
//  Making keys

//  Make (or keep) the pair `name`: the secret in dir, the public cert at
//  public_path. role NULL: the server pair (no metadata).
static int
s_make_pair (const char *dir, const char *name, const char *public_path, const char *role,
             int index, FILE *out, char *err, size_t errlen)
{
    char secret_path[ZS_PATH_MAX + 64];
    snprintf (secret_path, sizeof secret_path, "%s/%s.cert_secret", dir, name);
    bool have_secret = access (secret_path, F_OK) == 0;
    bool have_public = access (public_path, F_OK) == 0;
    if (have_secret && have_public) {
        //  kept as they are, but only if they still load
        zcert_t *cert = s_cert_load (secret_path, true, NULL, err, errlen);
        zcert_t *pub = cert ? s_cert_load (public_path, false, NULL, err, errlen) : NULL;
        bool same = pub && strcmp (zcert_public_txt (cert), zcert_public_txt (pub)) == 0;
        if (pub && !same)
            snprintf (err, errlen, "%s: not the public key of %s", public_path, secret_path);
        zcert_destroy (&cert);
        zcert_destroy (&pub);
        if (!same)
            return -1;
        if (out)
            fprintf (out, "kept   %s\n", name);
        return 0;
    }
    if (have_secret != have_public) {
        //  a lost half: making a new pair would lock out whoever holds the
        //  other half, so the operator decides
        snprintf (err, errlen, "%s exists but %s does not: remove it to make a new key for %s",
                  have_secret ? secret_path : public_path, have_secret ? public_path : secret_path,
                  name);
        return -1;
    }
    zcert_t *cert = zcert_new ();
    if (!cert) {
        snprintf (err, errlen, "cannot make a key pair for %s", name);
        return -1;
    }
    zcert_set_meta (cert, "name", "%s", name);
    if (role) {
        zcert_set_meta (cert, "role", "%s", role);
        if (index >= 0)
            zcert_set_meta (cert, "index", "%d", index);
    }
    zcert_set_meta (cert, "created-by", "zsink keys generate");
    //  the secret is private from the moment it exists
    mode_t old = umask (077);
    int rc = zcert_save_secret (cert, secret_path);
    umask (old);
    if (rc == 0)
        rc = chmod (secret_path, 0600);
    if (rc == 0)
        rc = zcert_save_public (cert, public_path);
    if (rc != 0)
        snprintf (err, errlen, "cannot write %s or %s: %s", secret_path, public_path,
                  strerror (errno));
    else if (out)
        fprintf (out, "made   %s\n", name);
    zcert_destroy (&cert);
    return rc == 0 ? 0 : -1;
}

static int
s_mkdir (const char *path, mode_t mode, char *err, size_t errlen)
{
    if (mkdir (path, mode) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat (path, &st) == 0 && S_ISDIR (st.st_mode))
            return 0;
        errno = ENOTDIR;
    }
    snprintf (err, errlen, "%s: cannot create the directory: %s", path, strerror (errno));
    return -1;
}

int
zs_curve_generate (const char *dir, int writers, FILE *out, char *err, size_t errlen)
{
    if (strlen (dir) >= ZS_PATH_MAX) {
        snprintf (err, errlen, "%s: path too long", dir);
        return -1;
    }
    char public_dir[ZS_PATH_MAX + 16], public_path[2 * ZS_PATH_MAX];
    snprintf (public_dir, sizeof public_dir, "%s/public", dir);
    if (s_mkdir (dir, 0700, err, errlen) < 0 || s_mkdir (public_dir, 0755, err, errlen) < 0)
        return -1;
    snprintf (public_path, sizeof public_path, "%s/server.cert", dir);
    if (s_make_pair (dir, "server", public_path, NULL, -1, out, err, errlen) < 0)
        return -1;
    const char *roles[] = {"committer", "client"};
    for (int i = 0; i < 2; i++) {
        snprintf (public_path, sizeof public_path, "%s/%s.cert", public_dir, roles[i]);
        if (s_make_pair (dir, roles[i], public_path, roles[i], -1, out, err, errlen) < 0)
            return -1;
    }
    for (int i = 0; i < writers; i++) {
        char name[32];
        snprintf (name, sizeof name, "writer-%d", i);
        snprintf (public_path, sizeof public_path, "%s/%s.cert", public_dir, name);
        if (s_make_pair (dir, name, public_path, "writer", i, out, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int
zs_curve_check_dir (const char *dir, int writers, char *err, size_t errlen)
{
    zs_curve_t *coord = zs_curve_load (dir, ZSINK__ROLE__ROLE_COORDINATOR, -1, err, errlen);
    if (!coord)
        return -1;
    int rc = 0;
    //  every client: its secret loads, and public/ binds its key to it
    for (int i = -2; i < writers && rc == 0; i++) {
        Zsink__Role role = i == -2   ? ZSINK__ROLE__ROLE_COMMITTER
                           : i == -1 ? ZSINK__ROLE__ROLE_CLIENT
                                     : ZSINK__ROLE__ROLE_WRITER;
        zs_curve_t *keys = zs_curve_load (dir, role, i, err, errlen);
        if (!keys) {
            rc = -1;
            break;
        }
        char why[ZS_ERRLEN];
        if (!zs_curve_bound (coord, zcert_public_txt (keys->own), role, i, why, sizeof why)) {
            char name[32];
            s_cert_name (role, i, name, sizeof name);
            snprintf (err, errlen, "%s/%s.cert_secret: %s", dir, name, why);
            rc = -1;
        }
        zs_curve_destroy (&keys);
    }
    zs_curve_destroy (&coord);
    return rc;
}
