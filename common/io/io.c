/*  io.c - file I/O by path: picks the backend of a path's scheme and keeps
    the S3 settings and clients of this process (io.h).

    Clients: one per thread (a libcurl handle is not shared between
    threads), made on first use from the settings, freed when the thread
    ends.
*/
#include "io_priv.h"
#include "log.h"
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  --------------------------------------------------------------------------
//  Settings and clients

static struct {
    pthread_mutex_t lock;
    bool set;
    zs_s3_conf_t conf;
    pthread_key_t key;
    pthread_once_t once;
} s_s3 = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static void
s_client_free (void *client)
{
    zs_s3_t *c = client;
    zs_s3_destroy (&c);
}

static void
s_key_init (void)
{
    pthread_key_create (&s_s3.key, s_client_free);
}

//  value, else the first environment variable of names that is set, else "".
static const char *
s_pick (const char *value, const char *env1, const char *env2)
{
    if (value && *value)
        return value;
    const char *e = env1 ? getenv (env1) : NULL;
    if ((!e || !*e) && env2)
        e = getenv (env2);
    return e && *e ? e : "";
}

static int
s_copy (char *field, size_t size, const char *key, const char *value, char *err, size_t errlen)
{
    if (strlen (value) >= size) {
        snprintf (err, errlen, "%s: longer than %zu bytes", key, size - 1);
        return -1;
    }
    snprintf (field, size, "%s", value);
    return 0;
}

int
zs_io_s3_setup (const zs_io_s3_settings_t *settings, char *err, size_t errlen)
{
    zs_io_s3_settings_t none = {0};
    const zs_io_s3_settings_t *s = settings ? settings : &none;
    zs_s3_conf_t conf = {0};
    const char *endpoint = s_pick (s->endpoint, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
    if (s_copy (conf.endpoint, sizeof conf.endpoint, "s3.endpoint", endpoint, err, errlen)
        || s_copy (conf.access_key, sizeof conf.access_key, "s3.access-key",
                   s_pick (s->access_key, "AWS_ACCESS_KEY_ID", NULL), err, errlen)
        || s_copy (conf.secret_key, sizeof conf.secret_key, "s3.secret-key",
                   s_pick (s->secret_key, "AWS_SECRET_ACCESS_KEY", NULL), err, errlen)
        || s_copy (conf.region, sizeof conf.region, "s3.region",
                   s_pick (s->region, "AWS_REGION", "AWS_DEFAULT_REGION"), err, errlen))
        return -1;
    if (*conf.endpoint && strncmp (conf.endpoint, "http://", 7) != 0
        && strncmp (conf.endpoint, "https://", 8) != 0) {
        snprintf (err, errlen, "s3.endpoint: '%s' is not an http:// or https:// URL",
                  conf.endpoint);
        return -1;
    }
    //  Paimon's (Hadoop S3A's) default is virtual-host style, which needs
    //  a DNS name per bucket: right for AWS, wrong for nearly every other
    //  endpoint. So path style unless told, when an endpoint is given.
    conf.path_style = *conf.endpoint != 0;
    if (s->path_style && *s->path_style) {
        if (strcasecmp (s->path_style, "true") == 0)
            conf.path_style = true;
        else if (strcasecmp (s->path_style, "false") == 0)
            conf.path_style = false;
        else {
            snprintf (err, errlen, "s3.path.style.access: bad boolean '%s' (true or false)",
                      s->path_style);
            return -1;
        }
    }
    if (s->request_timeout && *s->request_timeout
        && (zs_parse_duration_ms (s->request_timeout, &conf.timeout_ms) != 0
            || conf.timeout_ms < 100)) {
        snprintf (err, errlen, "s3.connection.request.timeout: bad duration '%s' (100ms at least)",
                  s->request_timeout);
        return -1;
    }
    pthread_mutex_lock (&s_s3.lock);
    s_s3.conf = conf;
    s_s3.set = true;
    pthread_mutex_unlock (&s_s3.lock);
    return 0;
}

int
zs_io_setup (const zs_io_s3_opts_t *s3, bool remote, char *err, size_t errlen)
{
    char timeout[32];
    snprintf (timeout, sizeof timeout, "%" PRId64 "ms", s3->request_timeout_ms);
    zs_io_s3_settings_t s = {.request_timeout = timeout,
                             .endpoint = s3->endpoint,
                             .access_key = s3->access_key,
                             .secret_key = s3->secret_key,
                             .path_style = s3->path_style,
                             .region = s3->region};
    if (zs_io_s3_setup (&s, err, errlen) != 0)
        return -1;
    //  a job on S3 without credentials is a configuration error: said now,
    //  not as a failed request after the job started
    return remote && !zs_io_s3_client (err, errlen) ? -1 : 0;
}

zs_s3_t *
zs_io_s3_client (char *err, size_t errlen)
{
    pthread_once (&s_s3.once, s_key_init);
    zs_s3_t *client = pthread_getspecific (s_s3.key);
    if (client)
        return client;
    pthread_mutex_lock (&s_s3.lock);
    bool set = s_s3.set;
    pthread_mutex_unlock (&s_s3.lock);
    //  never set up: the environment alone
    if (!set && zs_io_s3_setup (NULL, err, errlen) != 0)
        return NULL;
    pthread_mutex_lock (&s_s3.lock);
    zs_s3_conf_t conf = s_s3.conf;
    pthread_mutex_unlock (&s_s3.lock);
    if (!*conf.access_key || !*conf.secret_key) {
        snprintf (err, errlen,
                  "s3: no credentials (s3.access-key and s3.secret-key, or AWS_ACCESS_KEY_ID "
                  "and AWS_SECRET_ACCESS_KEY)");
        return NULL;
    }
    client = zs_s3_new (&conf, err, errlen);
    if (client)
        pthread_setspecific (s_s3.key, client);
    return client;
}

//  --------------------------------------------------------------------------
//  Dispatch

bool
zs_io_is_remote (const char *path)
{
    return strncmp (path, "s3://", 5) == 0;
}

static const zs_io_ops_t *
s_ops (const char *path)
{
    return zs_io_is_remote (path) ? &zs_io_s3_ops : &zs_io_local_ops;
}

int
zs_io_mkdirs (const char *path)
{
    return s_ops (path)->mkdirs (path);
}

int
zs_io_fsync_dir (const char *dir)
{
    return s_ops (dir)->fsync_dir (dir);
}

int
zs_io_write_atomic (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return s_ops (path)->write_atomic (path, NULL, data, len, err, errlen);
}

int
zs_io_write_atomic_tagged (const char *path, const char *tag, const void *data, size_t len,
                           char *err, size_t errlen)
{
    return s_ops (path)->write_atomic (path, tag, data, len, err, errlen);
}

int
zs_io_create_exclusive (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return s_ops (path)->create_exclusive (path, NULL, data, len, err, errlen);
}

int
zs_io_create_exclusive_tagged (const char *path, const char *tag, const void *data, size_t len,
                               char *err, size_t errlen)
{
    return s_ops (path)->create_exclusive (path, tag, data, len, err, errlen);
}

int
zs_io_write_new (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return s_ops (path)->write_new (path, data, len, err, errlen);
}

int
zs_io_sync_files (char (*paths)[128], size_t n, const char *dir, char *err, size_t errlen)
{
    return s_ops (dir)->sync_files (paths, n, dir, err, errlen);
}

int
zs_io_write_hint (const char *path, const char *tag, const void *data, size_t len, char *err,
                  size_t errlen)
{
    return s_ops (path)->write_hint (path, tag, data, len, err, errlen);
}

char *
zs_io_read_file (const char *path, size_t max_size, size_t *len_p, char *err, size_t errlen)
{
    return s_ops (path)->read_file (path, max_size, len_p, err, errlen);
}

int64_t
zs_io_file_size (const char *path)
{
    return s_ops (path)->file_size (path);
}

int
zs_io_unlink (const char *path)
{
    return s_ops (path)->unlink (path);
}

int
zs_io_remove (const char *path)
{
    return s_ops (path)->remove (path);
}

int
zs_io_stat (const char *path, zs_io_stat_t *st)
{
    return s_ops (path)->stat (path, st);
}

int
zs_io_list (const char *dir, zs_io_list_fn *fn, void *arg, char *err, size_t errlen)
{
    return s_ops (dir)->list (dir, fn, arg, err, errlen);
}

typedef struct {
    zs_io_entry_t *e;
    size_t n, cap;
} s_listing_t;

static int
s_listing_one (const zs_io_entry_t *e, void *arg)
{
    s_listing_t *l = arg;
    zs_io_entry_t *grown =
        zs_grow (l->e, &l->cap, l->n * sizeof *l->e, sizeof *l->e, 64 * sizeof *l->e);
    char *name = grown ? strdup (e->name) : NULL;
    if (!name) {
        if (grown)
            l->e = grown;
        return 1;
    }
    l->e = grown;
    l->e[l->n] = *e;
    l->e[l->n++].name = name;
    return 0;
}

int
zs_io_listing (const char *dir, zs_io_entry_t **entries_p, size_t *n_p, char *err, size_t errlen)
{
    s_listing_t l = {0};
    int rc = zs_io_list (dir, s_listing_one, &l, err, errlen);
    if (rc != 0) {
        if (rc > 0)
            snprintf (err, errlen, "%s: list: out of memory", dir);
        zs_io_listing_free (&l.e, l.n);
        *entries_p = NULL;
        *n_p = 0;
        return rc > 0 ? -1 : rc;
    }
    *entries_p = l.e;
    *n_p = l.n;
    return 0;
}

void
zs_io_listing_free (zs_io_entry_t **entries_p, size_t n)
{
    if (!entries_p || !*entries_p)
        return;
    for (size_t i = 0; i < n; i++)
        free ((char *) (*entries_p)[i].name);
    free (*entries_p);
    *entries_p = NULL;
}

//  --------------------------------------------------------------------------
//  Numbered names, on any backend: prefix + N as fs.h spells N

typedef struct {
    const char *prefix;
    size_t plen;
    int64_t *ids;
    size_t n, cap;
} s_numbered_t;

static int
s_numbered_one (const zs_io_entry_t *e, void *arg)
{
    s_numbered_t *l = arg;
    if (e->is_dir || strncmp (e->name, l->prefix, l->plen) != 0)
        return 0;
    const char *d = e->name + l->plen;
    size_t len = strlen (d);
    if (len < 1 || len > 18 || (d[0] == '0' && len > 1) || strspn (d, "0123456789") != len)
        return 0;
    int64_t *grown =
        zs_grow (l->ids, &l->cap, l->n * sizeof *l->ids, sizeof *l->ids, 64 * sizeof *l->ids);
    if (!grown)
        return 1;
    l->ids = grown;
    l->ids[l->n++] = strtoll (d, NULL, 10);
    return 0;
}

static int
s_cmp_i64 (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

int
zs_io_list_numbered (const char *dir, const char *prefix, int64_t **ids_p, size_t *n_p, char *err,
                     size_t errlen)
{
    *ids_p = NULL;
    *n_p = 0;
    s_numbered_t l = {.prefix = prefix, .plen = strlen (prefix)};
    int rc = zs_io_list (dir, s_numbered_one, &l, err, errlen);
    if (rc != 0) {
        if (rc > 0)
            snprintf (err, errlen, "%s: list: out of memory", dir);
        free (l.ids);
        return rc > 0 ? -1 : rc;
    }
    if (l.n)
        qsort (l.ids, l.n, sizeof *l.ids, s_cmp_i64);
    *ids_p = l.ids;
    *n_p = l.n;
    return 0;
}

//  --------------------------------------------------------------------------
//  Streams

zs_io_file_t *
zs_io_file_create (const char *path, char *err, size_t errlen)
{
    return s_ops (path)->file_create (path, err, errlen);
}

int
zs_io_file_write (zs_io_file_t *self, const void *data, size_t len, char *err, size_t errlen)
{
    if (self->write (self, data, len, err, errlen) != 0)
        return -1;
    self->offset += (int64_t) len;
    return 0;
}

int64_t
zs_io_file_offset (zs_io_file_t *self)
{
    return self->offset;
}

int
zs_io_file_release (zs_io_file_t *self, char *err, size_t errlen)
{
    return self->release ? self->release (self, err, errlen) : 0;
}

int
zs_io_file_close (zs_io_file_t **self_p, char *err, size_t errlen)
{
    if (!self_p || !*self_p)
        return 0;
    zs_io_file_t *self = *self_p;
    *self_p = NULL;
    return self->close (self, err, errlen);
}

void
zs_io_file_abort (zs_io_file_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_io_file_t *self = *self_p;
    *self_p = NULL;
    self->abort (self);
}

zs_io_reader_t *
zs_io_reader_open (const char *path, char *err, size_t errlen)
{
    return s_ops (path)->reader_open (path, err, errlen);
}

int64_t
zs_io_reader_size (zs_io_reader_t *self)
{
    return self->size;
}

int
zs_io_reader_pread (zs_io_reader_t *self, void *buf, size_t len, int64_t offset, char *err,
                    size_t errlen)
{
    if (offset < 0 || (uint64_t) offset > (uint64_t) self->size
        || len > (uint64_t) (self->size - offset)) {
        snprintf (err, errlen, "read of %zu bytes at %lld is past the end (%lld bytes)", len,
                  (long long) offset, (long long) self->size);
        return -1;
    }
    return len ? self->pread (self, buf, len, offset, err, errlen) : 0;
}

void
zs_io_reader_close (zs_io_reader_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_io_reader_t *self = *self_p;
    *self_p = NULL;
    self->close (self);
}
