/*  io_s3.c - the S3 backend of io.h (docs/decisions.md, "Object storage").

    What each operation is on S3, and why it keeps io.h's contract:

    1. write_atomic, write_hint: one PUT. S3 stores an object whole or not
       at all, and answers 200 only once it is durable.
    2. create_exclusive, write_new: PUT with If-None-Match: *. 412 means the
       key is taken, maybe by this very PUT when an earlier attempt's
       answer was lost (s3.h, res.unsure): then the object is read back and
       compared byte for byte with ours, and only equal bytes count as
       ours. (libcurl re-sends a request by itself, unseen, when a reused
       connection drops before any byte of the answer; s3.c sends
       conditional PUTs on a connection of their own, where it does not.) A snapshot, a chk-N, a
   manifest all carry something that no other writer's copy has (commit user and time, a UUID in the
   name), so equal bytes are ours. A read-back that fails fails the call (-1), never a guess.
    3. 409 ConditionalRequestConflict (two conditional PUTs in flight on one
       key) is retried: it means nothing was stored.
    4. mkdirs, fsync_dir, sync_files: nothing to do (no directories; a PUT
       answered 200 is durable).
    5. Directories are key prefixes: list is ListObjectsV2 with delimiter
       '/'. A "directory" that was never written lists empty; it is never
       ZS_ENOENT.
    6. Streams: bytes are buffered; up to part_size they go up as one PUT on
       close; beyond, a multipart upload is opened and each full part sent
       as it fills; close sends the last part and completes. abort (and
       any failure) aborts the upload. A writer killed mid-upload leaves an
       open upload: its successor aborts those under its file names
       (zs_io_abort_uploads), as it deletes its predecessor's files.
    7. Readers: a HEAD for the size at open, then ranged GETs; the last
       64 KiB (a Parquet footer, usually) are fetched once and kept.
*/
#include "failpoint.h"
#include "io_priv.h"
#include "log.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S_TAIL_CACHE (64 * 1024)
#define S_CONFLICT_TRIES 8

static int64_t s_part_size = 8 * 1024 * 1024;

void
zs_io_s3_set_part_size (int64_t bytes)
{
    s_part_size = bytes < 5 * 1024 * 1024 ? 5 * 1024 * 1024 : bytes;
}

//  The client and the bucket and key of path. 0 or -1 + err.
static zs_s3_t *
s_open (const char *path, char *bucket, size_t blen, char *key, size_t klen, char *err,
        size_t errlen)
{
    if (zs_s3_parse_url (path, bucket, blen, key, klen, err, errlen) != 0)
        return NULL;
    return zs_io_s3_client (err, errlen);
}

#define S_OPEN(path, err, errlen)                                                                  \
    char bucket[64], key[ZS_PATH_MAX];                                                             \
    zs_s3_t *s3 = s_open (path, bucket, sizeof bucket, key, sizeof key, err, errlen)

//  err for an answer that is not the one wanted
static int
s_answer_err (const char *path, const char *what, const zs_s3_result_t *res, char *err,
              size_t errlen)
{
    snprintf (err, errlen, "%s: %s: HTTP %ld%s%s", path, what, res->status, *res->code ? " " : "",
              res->code);
    errno = res->status == 404 ? ENOENT : res->status == 403 ? EACCES : EIO;
    return -1;
}

static int
s_mkdirs (const char *path)
{
    (void) path;
    return 0;
}

static int
s_sync_files (char (*paths)[128], size_t n, const char *dir, char *err, size_t errlen)
{
    (void) paths, (void) n, (void) dir, (void) err, (void) errlen;
    return 0;
}

static int
s_put (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char e2[ZS_ERRLEN];
    S_OPEN (path, err, errlen);
    if (!s3)
        return -1;
    zs_s3_result_t res;
    if (zs_s3_put (s3, bucket, key, data, len, NULL, &res, e2, sizeof e2) != 0) {
        snprintf (err, errlen, "%s", e2);
        errno = EIO;
        return -1;
    }
    return res.status == 200 ? 0 : s_answer_err (path, "PUT", &res, err, errlen);
}

static int
s_write_atomic (const char *path, const char *tag, const void *data, size_t len, char *err,
                size_t errlen)
{
    (void) tag;
    return s_put (path, data, len, err, errlen);
}

//  After a 412, which may be our own PUT's doing (an answer lost, the PUT
//  sent again by us or by libcurl): is the object ours? 0 ours,
//  ZS_ECONFLICT another's, -1 unknown (err). unsure: we know an answer was
//  lost (then the verdict is logged).
static int
s_read_back (zs_s3_t *s3, const char *bucket, const char *key, const char *path, const void *data,
             size_t len, bool unsure, char *err, size_t errlen)
{
    char *got = NULL;
    size_t got_len = 0;
    zs_s3_result_t res;
    if (zs_s3_get (s3, bucket, key, 0, -1, len + 1, &got, &got_len, &res, err, errlen) != 0) {
        //  larger than ours: not ours
        if (res.status == 200 || res.status == 206)
            return ZS_ECONFLICT;
        return -1;
    }
    if (res.status == 404) {
        //  412, then gone: somebody removed what won; not ours to claim
        free (got);
        return ZS_ECONFLICT;
    }
    if (res.status != 200) {
        free (got);
        return s_answer_err (path, "GET (reading back a PUT whose answer was lost)", &res, err,
                             errlen);
    }
    int rc = got_len == len && memcmp (got, data, len) == 0 ? 0 : ZS_ECONFLICT;
    free (got);
    if (rc == 0 || unsure)
        zs_info ("S3_READBACK %s: 412 after a PUT whose answer may have been lost; the object "
                 "is %s",
                 path, rc == 0 ? "ours" : "another's");
    if (rc != 0)
        snprintf (err, errlen, "%s: exists", path);
    return rc;
}

static int
s_create_exclusive (const char *path, const char *tag, const void *data, size_t len, char *err,
                    size_t errlen)
{
    (void) tag;
    S_OPEN (path, err, errlen);
    if (!s3)
        return -1;
    zs_s3_cond_t cond = {.if_none_match = "*"};
    bool unsure = false;
    for (int i = 0; i < S_CONFLICT_TRIES; i++) {
        zs_s3_result_t res;
        int rc = zs_s3_put (s3, bucket, key, data, len, &cond, &res, err, errlen);
        unsure = unsure || res.unsure;
        if (rc != 0) {
            errno = EIO;
            return -1;
        }
        if (res.status == 200)
            return 0;
        //  412 after an attempt whose answer was lost may be our own
        //  write: read back. Without one it is another's (s3.c sends a
        //  conditional PUT on a connection of its own, so libcurl never
        //  re-sends it unseen). Equal bytes are not proof enough alone: a
        //  second create-tag of one name and snapshot writes the same.
        if (res.status == 412 && unsure)
            return s_read_back (s3, bucket, key, path, data, len, unsure, err, errlen);
        if (res.status == 412) {
            snprintf (err, errlen, "%s: exists", path);
            return ZS_ECONFLICT;
        }
        if (res.status != 409)
            return s_answer_err (path, "PUT If-None-Match", &res, err, errlen);
        usleep ((useconds_t) (20000 << (i < 5 ? i : 5)));
    }
    snprintf (err, errlen, "%s: PUT If-None-Match: 409 conflict %d times", path, S_CONFLICT_TRIES);
    errno = EIO;
    return -1;
}

static int
s_write_new (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return s_create_exclusive (path, NULL, data, len, err, errlen);
}

static int
s_write_hint (const char *path, const char *tag, const void *data, size_t len, char *err,
              size_t errlen)
{
    (void) tag;
    return s_put (path, data, len, err, errlen);
}

static char *
s_read_file (const char *path, size_t max_size, size_t *len_p, char *err, size_t errlen)
{
    S_OPEN (path, err, errlen);
    if (!s3) {
        errno = EINVAL;
        return NULL;
    }
    char *data = NULL;
    size_t len = 0;
    zs_s3_result_t res;
    if (zs_s3_get (s3, bucket, key, 0, -1, max_size, &data, &len, &res, err, errlen) != 0) {
        errno = res.status == 200 ? EFBIG : EIO;
        return NULL;
    }
    if (res.status != 200) {
        free (data);
        s_answer_err (path, "GET", &res, err, errlen);
        return NULL;
    }
    if (len_p)
        *len_p = len;
    return data;
}

static int64_t
s_file_size (const char *path)
{
    char err[ZS_ERRLEN];
    S_OPEN (path, err, sizeof err);
    zs_s3_result_t res;
    if (!s3 || zs_s3_head (s3, bucket, key, &res, err, sizeof err) != 0) {
        errno = EIO;
        return -1;
    }
    if (res.status != 200) {
        errno = res.status == 404 ? ENOENT : EIO;
        return -1;
    }
    return res.size;
}

static int
s_stat (const char *path, zs_io_stat_t *st)
{
    char err[ZS_ERRLEN];
    S_OPEN (path, err, sizeof err);
    zs_s3_result_t res;
    if (!s3 || zs_s3_head (s3, bucket, key, &res, err, sizeof err) != 0) {
        errno = EIO;
        return -1;
    }
    if (res.status == 404)
        return ZS_ENOENT;
    if (res.status != 200) {
        errno = res.status == 403 ? EACCES : EIO;
        return -1;
    }
    st->regular = true;
    st->size = res.size;
    st->mtime_ms = res.mtime_ms;
    return 0;
}

static int
s_unlink (const char *path)
{
    char err[ZS_ERRLEN];
    S_OPEN (path, err, sizeof err);
    zs_s3_result_t res;
    if (!s3 || zs_s3_delete (s3, bucket, key, &res, err, sizeof err) != 0) {
        errno = EIO;
        return -1;
    }
    if (res.status == 200 || res.status == 204 || res.status == 404)
        return 0;
    errno = res.status == 403 ? EACCES : EIO;
    return -1;
}

static int
s_remove (const char *path)
{
    zs_io_stat_t st;
    int rc = s_stat (path, &st);
    if (rc != 0)
        return rc;
    return s_unlink (path) == 0 ? 0 : -1;
}

typedef struct {
    size_t plen;
    zs_io_list_fn *fn;
    void *arg;
} s_list_t;

static int
s_list_one (const zs_s3_entry_t *e, void *arg)
{
    s_list_t *l = arg;
    if (strlen (e->key) <= l->plen)
        return 0; //  the prefix itself, as an object ("dir/")
    char name[ZS_PATH_MAX];
    snprintf (name, sizeof name, "%s", e->key + l->plen);
    size_t n = strlen (name);
    if (e->is_prefix && n && name[n - 1] == '/')
        name[n - 1] = 0;
    zs_io_entry_t entry = {.name = name,
                           .is_dir = e->is_prefix,
                           .size = e->is_prefix ? -1 : e->size,
                           .mtime_ms = e->mtime_ms};
    return l->fn (&entry, l->arg);
}

static int
s_list (const char *dir, zs_io_list_fn *fn, void *arg, char *err, size_t errlen)
{
    S_OPEN (dir, err, errlen);
    if (!s3)
        return -1;
    char prefix[ZS_PATH_MAX + 1];
    snprintf (prefix, sizeof prefix, "%s%s", key, *key ? "/" : "");
    s_list_t l = {.plen = strlen (prefix), .fn = fn, .arg = arg};
    return zs_s3_list (s3, bucket, prefix, "/", s_list_one, &l, err, errlen);
}

//  --------------------------------------------------------------------------
//  Streams: one PUT, or a multipart upload past part_size

typedef struct {
    zs_io_file_t base;
    zs_s3_t *s3;
    char bucket[64], key[ZS_PATH_MAX], path[ZS_PATH_MAX];
    char *buf;
    size_t used, cap;
    char upload_id[256]; //  "" until a multipart upload is opened
    char (*etags)[80];
    int nparts, partcap;
} s_file_t;

static void
s_file_free (s_file_t *self)
{
    free (self->buf);
    free (self->etags);
    free (self);
}

static void
s_file_abort (zs_io_file_t *base)
{
    s_file_t *self = (s_file_t *) base;
    char err[ZS_ERRLEN];
    if (*self->upload_id
        && zs_s3_mpu_abort (self->s3, self->bucket, self->key, self->upload_id, err, sizeof err))
        zs_warn ("S3_ABORT_FAILED %s: %s (the upload is aborted by the next clean-up)", self->path,
                 err);
    s_file_free (self);
}

//  Send the buffer as the next part (opening the upload first).
static int
s_file_part (s_file_t *self, char *err, size_t errlen)
{
    if (!*self->upload_id
        && zs_s3_mpu_create (self->s3, self->bucket, self->key, self->upload_id,
                             sizeof self->upload_id, err, errlen)
               != 0)
        return -1;
    if (self->nparts == self->partcap) {
        int cap = self->partcap ? self->partcap * 2 : 16;
        char (*grown)[80] = realloc (self->etags, (size_t) cap * sizeof *grown);
        if (!grown) {
            snprintf (err, errlen, "%s: out of memory", self->path);
            return -1;
        }
        self->etags = grown;
        self->partcap = cap;
    }
    if (zs_s3_mpu_put_part (self->s3, self->bucket, self->key, self->upload_id, self->nparts + 1,
                            self->buf, self->used, self->etags[self->nparts], 80, err, errlen)
        != 0)
        return -1;
    self->nparts++;
    self->used = 0;
    if (zs_failpoint ("io.s3.after-part") < 0) {
        snprintf (err, errlen, "%s: failpoint io.s3.after-part", self->path);
        return -1;
    }
    return 0;
}

static int
s_file_write (zs_io_file_t *base, const void *data, size_t len, char *err, size_t errlen)
{
    s_file_t *self = (s_file_t *) base;
    const char *p = data;
    while (len > 0) {
        if (self->used == self->cap) {
            if (s_file_part (self, err, errlen) != 0)
                return -1;
        }
        size_t n = self->cap - self->used < len ? self->cap - self->used : len;
        memcpy (self->buf + self->used, p, n);
        self->used += n;
        p += n;
        len -= n;
    }
    return 0;
}

static int
s_file_close (zs_io_file_t *base, char *err, size_t errlen)
{
    s_file_t *self = (s_file_t *) base;
    int rc;
    if (!*self->upload_id) {
        zs_s3_result_t res;
        zs_s3_cond_t cond = {.if_none_match = "*"};
        rc = zs_s3_put (self->s3, self->bucket, self->key, self->buf, self->used, &cond, &res, err,
                        errlen);
        if (rc == 0 && res.status == 412 && res.unsure)
            rc = s_read_back (self->s3, self->bucket, self->key, self->path, self->buf, self->used,
                              res.unsure, err, errlen);
        else if (rc == 0 && res.status == 412)
            rc = s_answer_err (self->path, "PUT (the name is taken)", &res, err, errlen);
        else if (rc == 0 && res.status != 200)
            rc = s_answer_err (self->path, "PUT", &res, err, errlen);
        s_file_free (self);
        return rc == 0 ? 0 : -1;
    }
    rc = self->used ? s_file_part (self, err, errlen) : 0;
    if (rc == 0) {
        zs_s3_result_t res;
        rc = zs_s3_mpu_complete (self->s3, self->bucket, self->key, self->upload_id, self->etags,
                                 self->nparts, NULL, &res, err, errlen);
        if (rc == 0 && res.status != 200)
            rc = s_answer_err (self->path, "CompleteMultipartUpload", &res, err, errlen);
    }
    if (rc == 0) {
        s_file_free (self);
        return 0;
    }
    s_file_abort (base);
    return -1;
}

static zs_io_file_t *
s_file_create (const char *path, char *err, size_t errlen)
{
    s_file_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf (self->path, sizeof self->path, "%s", path);
    self->s3 =
        s_open (path, self->bucket, sizeof self->bucket, self->key, sizeof self->key, err, errlen);
    self->cap = (size_t) s_part_size;
    self->buf = self->s3 ? malloc (self->cap) : NULL;
    if (!self->buf) {
        if (self->s3)
            snprintf (err, errlen, "%s: out of memory", path);
        s_file_free (self);
        return NULL;
    }
    self->base.write = s_file_write;
    self->base.close = s_file_close;
    self->base.abort = s_file_abort;
    return &self->base;
}

//  --------------------------------------------------------------------------
//  Readers: ranged GETs, the tail kept

typedef struct {
    zs_io_reader_t base;
    zs_s3_t *s3;
    char bucket[64], key[ZS_PATH_MAX], path[ZS_PATH_MAX];
    char *tail;
    int64_t tail_at; //  offset of tail[0]
} s_reader_t;

static int
s_get_range (s_reader_t *self, void *buf, size_t len, int64_t offset, char *err, size_t errlen)
{
    char *data = NULL;
    size_t got = 0;
    zs_s3_result_t res;
    if (zs_s3_get (self->s3, self->bucket, self->key, offset, (int64_t) len, len, &data, &got, &res,
                   err, errlen)
        != 0)
        return -1;
    if ((res.status != 206 && res.status != 200) || got != len) {
        free (data);
        if (res.status == 206 || res.status == 200)
            snprintf (err, errlen, "%s: ranged GET at %lld: %zu bytes of %zu", self->path,
                      (long long) offset, got, len);
        else
            s_answer_err (self->path, "ranged GET", &res, err, errlen);
        return -1;
    }
    memcpy (buf, data, len);
    free (data);
    return 0;
}

static int
s_reader_pread (zs_io_reader_t *base, void *buf, size_t len, int64_t offset, char *err,
                size_t errlen)
{
    s_reader_t *self = (s_reader_t *) base;
    if (self->tail && offset >= self->tail_at) {
        memcpy (buf, self->tail + (offset - self->tail_at), len);
        return 0;
    }
    return s_get_range (self, buf, len, offset, err, errlen);
}

static void
s_reader_close (zs_io_reader_t *base)
{
    s_reader_t *self = (s_reader_t *) base;
    free (self->tail);
    free (self);
}

static zs_io_reader_t *
s_reader_open (const char *path, char *err, size_t errlen)
{
    s_reader_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf (self->path, sizeof self->path, "%s", path);
    self->s3 =
        s_open (path, self->bucket, sizeof self->bucket, self->key, sizeof self->key, err, errlen);
    zs_s3_result_t res = {0};
    int rc = self->s3 ? zs_s3_head (self->s3, self->bucket, self->key, &res, err, errlen) : -1;
    if (rc == 0 && res.status != 200)
        rc = s_answer_err (path, "HEAD", &res, err, errlen);
    if (rc == 0) {
        self->base.size = res.size;
        size_t n = res.size < S_TAIL_CACHE ? (size_t) res.size : S_TAIL_CACHE;
        self->tail_at = res.size - (int64_t) n;
        self->tail = malloc (n ? n : 1);
        if (!self->tail)
            rc = -1, snprintf (err, errlen, "%s: out of memory", path);
        else if (n && s_get_range (self, self->tail, n, self->tail_at, err, errlen) != 0)
            rc = -1;
    }
    if (rc != 0) {
        int e = errno;
        s_reader_close (&self->base);
        errno = e;
        return NULL;
    }
    self->base.pread = s_reader_pread;
    self->base.close = s_reader_close;
    return &self->base;
}

typedef struct {
    zs_s3_t *s3;
    const char *bucket;
    size_t plen; //  of the dir's key prefix, "/" included
    zs_io_name_fn *mine;
    void *arg;
    int n;
    char *err;
    size_t errlen;
} s_aborts_t;

static int
s_abort_one (const char *key, const char *upload_id, void *arg)
{
    s_aborts_t *a = arg;
    const char *name = key + a->plen;
    if (strlen (key) <= a->plen || strchr (name, '/') || !a->mine (name, a->arg))
        return 0;
    if (zs_s3_mpu_abort (a->s3, a->bucket, key, upload_id, a->err, a->errlen) != 0)
        return -1;
    zs_info ("S3_UPLOAD_ABORTED s3://%s/%s: a multipart upload left open", a->bucket, key);
    a->n++;
    return 0;
}

int
zs_io_abort_uploads (const char *dir, zs_io_name_fn *mine, void *arg, int *n_p, char *err,
                     size_t errlen)
{
    *n_p = 0;
    if (!zs_io_is_remote (dir))
        return 0;
    S_OPEN (dir, err, errlen);
    if (!s3)
        return -1;
    char prefix[ZS_PATH_MAX + 1];
    snprintf (prefix, sizeof prefix, "%s%s", key, *key ? "/" : "");
    s_aborts_t a = {.s3 = s3,
                    .bucket = bucket,
                    .plen = strlen (prefix),
                    .mine = mine,
                    .arg = arg,
                    .err = err,
                    .errlen = errlen};
    int rc = zs_s3_mpu_list (s3, bucket, prefix, s_abort_one, &a, err, errlen);
    *n_p = a.n;
    return rc == 0 ? 0 : -1;
}

const zs_io_ops_t zs_io_s3_ops = {
    .name = "s3",
    .mkdirs = s_mkdirs,
    .fsync_dir = s_mkdirs,
    .write_atomic = s_write_atomic,
    .create_exclusive = s_create_exclusive,
    .write_new = s_write_new,
    .sync_files = s_sync_files,
    .write_hint = s_write_hint,
    .read_file = s_read_file,
    .file_size = s_file_size,
    .unlink = s_unlink,
    .stat = s_stat,
    .remove = s_remove,
    .list = s_list,
    .file_create = s_file_create,
    .reader_open = s_reader_open,
};
