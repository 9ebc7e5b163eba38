/*  fs.c - the one file-I/O layer (see fs.h for the two rules it keeps).

    Temp files are named "<final name>.tmp-<pid>-<n>" in the final file's
    own directory: same directory so rename/link stay atomic (one file
    system), pid + counter so concurrent writers of the same name (two
    committers racing for one snapshot id) never share a temp file.

    Fail points (for tests of the layers above):
        fs.write   a write of a durable file fails (as with ENOSPC)
        fs.fsync   an fsync fails (as with EIO: the data may be lost)
        fs.rename  the rename that publishes an atomic write fails
        fs.link    the link of create-if-absent fails (not as EEXIST)
*/
#include "fs.h"
#include "failpoint.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_FILE_BUFSIZE (1024 * 1024)

static void
s_seterr (char *err, size_t errlen, const char *path, const char *what, int e)
{
    if (err && errlen)
        snprintf (err, errlen, "%s: %s: %s", path, what, strerror (e));
}

//  Directory part of path into dir (dirname(3) may modify its argument).
static void
s_dirname (const char *path, char *dir, size_t dirlen)
{
    char tmp[ZS_PATH_MAX];
    snprintf (tmp, sizeof tmp, "%s", path);
    snprintf (dir, dirlen, "%s", dirname (tmp));
}

static int
s_fsync (int fd)
{
    if (zs_failpoint ("fs.fsync") == -1) {
        errno = EIO;
        return -1;
    }
    return fsync (fd);
}

//  Write all of data; a short write is retried, EINTR too.
static int
s_write_all (int fd, const void *data, size_t len)
{
    if (zs_failpoint ("fs.write") == -1) {
        errno = ENOSPC;
        return -1;
    }
    const char *p = data;
    while (len > 0) {
        ssize_t rc = write (fd, p, len);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += rc;
        len -= (size_t) rc;
    }
    return 0;
}

int
zs_fs_mkdirs (const char *path)
{
    char buf[ZS_PATH_MAX];
    if (snprintf (buf, sizeof buf, "%s", path) >= (int) sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    //  Create each prefix in turn; EEXIST of a directory is fine, so two
    //  processes creating the same table do not trip over each other.
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir (buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir (buf, 0755) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat (buf, &st) != 0)
        return -1;
    if (!S_ISDIR (st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

int
zs_fs_fsync_dir (const char *dir)
{
    int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = s_fsync (fd);
    int e = errno;
    close (fd);
    errno = e;
    return rc;
}

//  Write data into a fresh, fsynced temp file next to path. Fills tmp.
//  With a tag the name is "<path>.tmp-<tag>-<pid>-<n>".
static int
s_write_temp (const char *path, const char *tag, const void *data, size_t len, char *tmp,
              size_t tmplen, char *err, size_t errlen)
{
    static unsigned counter = 0;
    int fd = -1;
    //  O_EXCL: a leftover temp file of a crashed process with our pid is
    //  never reused; we just take the next counter value.
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        int n =
            tag ? snprintf (tmp, tmplen, "%s.tmp-%s-%ld-%u", path, tag, (long) getpid (), counter++)
                : snprintf (tmp, tmplen, "%s.tmp-%ld-%u", path, (long) getpid (), counter++);
        if (n >= (int) tmplen) {
            s_seterr (err, errlen, path, "path too long", ENAMETOOLONG);
            return -1;
        }
        fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) {
            s_seterr (err, errlen, tmp, "create", errno);
            return -1;
        }
    }
    if (fd < 0) {
        s_seterr (err, errlen, tmp, "create", EEXIST);
        return -1;
    }
    if (s_write_all (fd, data, len) != 0) {
        s_seterr (err, errlen, tmp, "write", errno);
        goto fail;
    }
    if (s_fsync (fd) != 0) {
        s_seterr (err, errlen, tmp, "fsync", errno);
        goto fail;
    }
    if (close (fd) != 0) {
        fd = -1;
        s_seterr (err, errlen, tmp, "close", errno);
        goto fail;
    }
    return 0;
fail:
    if (fd >= 0)
        close (fd);
    unlink (tmp);
    return -1;
}

int
zs_fs_write_atomic (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return zs_fs_write_atomic_tagged (path, NULL, data, len, err, errlen);
}

int
zs_fs_write_atomic_tagged (const char *path, const char *tag, const void *data, size_t len,
                           char *err, size_t errlen)
{
    char tmp[ZS_PATH_MAX + 64];
    if (s_write_temp (path, tag, data, len, tmp, sizeof tmp, err, errlen) != 0)
        return -1;
    if (zs_failpoint ("fs.rename") == -1) {
        s_seterr (err, errlen, path, "rename", EIO);
        unlink (tmp);
        return -1;
    }
    if (rename (tmp, path) != 0) {
        s_seterr (err, errlen, path, "rename", errno);
        unlink (tmp);
        return -1;
    }
    //  Without the directory fsync the rename itself may be lost on a crash.
    char dir[ZS_PATH_MAX];
    s_dirname (path, dir, sizeof dir);
    if (zs_fs_fsync_dir (dir) != 0) {
        s_seterr (err, errlen, dir, "fsync dir", errno);
        return -1;
    }
    return 0;
}

int
zs_fs_create_exclusive (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return zs_fs_create_exclusive_tagged (path, NULL, data, len, err, errlen);
}

int
zs_fs_create_exclusive_tagged (const char *path, const char *tag, const void *data, size_t len,
                               char *err, size_t errlen)
{
    char tmp[ZS_PATH_MAX + 64];
    if (s_write_temp (path, tag, data, len, tmp, sizeof tmp, err, errlen) != 0)
        return -1;
    //  link(2) fails with EEXIST instead of replacing: exactly one of any
    //  number of racing creators wins, and the winner's content is complete
    //  because it was fsynced before it got its name.
    int rc, e = 0;
    if (zs_failpoint ("fs.link") == -1) {
        rc = -1;
        e = EIO;
    } else if ((rc = link (tmp, path)) != 0)
        e = errno;
    unlink (tmp);
    if (rc != 0) {
        if (e == EEXIST)
            return ZS_ECONFLICT;
        s_seterr (err, errlen, path, "link", e);
        return -1;
    }
    char dir[ZS_PATH_MAX];
    s_dirname (path, dir, sizeof dir);
    if (zs_fs_fsync_dir (dir) != 0) {
        s_seterr (err, errlen, dir, "fsync dir", errno);
        return -1;
    }
    return 0;
}

char *
zs_fs_read_file (const char *path, size_t max_size, size_t *len_p, char *err, size_t errlen)
{
    int fd = open (path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        s_seterr (err, errlen, path, "open", errno);
        return NULL;
    }
    struct stat st;
    if (fstat (fd, &st) != 0) {
        int e = errno;
        s_seterr (err, errlen, path, "stat", e);
        close (fd);
        errno = e;
        return NULL;
    }
    //  The cap keeps a damaged or hostile file from exhausting memory;
    //  every caller knows how big a sane file of its kind can be.
    if (!S_ISREG (st.st_mode) || (uint64_t) st.st_size > max_size) {
        if (err && errlen)
            snprintf (err, errlen, "%s: not a regular file or larger than %zu bytes", path,
                      max_size);
        close (fd);
        errno = EFBIG;
        return NULL;
    }
    size_t size = (size_t) st.st_size;
    char *buf = malloc (size + 1);
    if (!buf) {
        s_seterr (err, errlen, path, "malloc", ENOMEM);
        close (fd);
        errno = ENOMEM;
        return NULL;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t rc = read (fd, buf + got, size - got);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0) {
            int e = errno;
            s_seterr (err, errlen, path, "read", e);
            free (buf);
            close (fd);
            errno = e;
            return NULL;
        }
        if (rc == 0)
            break; //  shrank under us: return what is there; the decoders
                   //  above reject a torn file, this layer does not judge
        got += (size_t) rc;
    }
    close (fd);
    buf[got] = '\0';
    if (len_p)
        *len_p = got;
    return buf;
}

int64_t
zs_fs_file_size (const char *path)
{
    struct stat st;
    if (stat (path, &st) != 0)
        return -1;
    return (int64_t) st.st_size;
}

int
zs_fs_unlink (const char *path)
{
    //  Idempotent, so clean-up paths can be re-run after a crash.
    if (unlink (path) != 0 && errno != ENOENT)
        return -1;
    return 0;
}

//  --------------------------------------------------------------------------
//  Streaming writer

struct _zs_fs_file_t {
    int fd;
    char *buf;
    size_t used;
    int64_t offset; //  bytes accepted so far (written + buffered)
    char path[ZS_PATH_MAX];
};

zs_fs_file_t *
zs_fs_file_create (const char *path, char *err, size_t errlen)
{
    zs_fs_file_t *self = calloc (1, sizeof *self);
    if (!self) {
        s_seterr (err, errlen, path, "malloc", ENOMEM);
        return NULL;
    }
    if (snprintf (self->path, sizeof self->path, "%s", path) >= (int) sizeof self->path) {
        s_seterr (err, errlen, path, "create", ENAMETOOLONG);
        free (self);
        return NULL;
    }
    //  1 MiB: a few large write(2)s instead of one per row is most of what
    //  makes ~1M rows/s possible.
    self->buf = malloc (S_FILE_BUFSIZE);
    //  O_EXCL: a data file is never overwritten; a name clash is a bug in
    //  the caller's naming and must be loud, not a silent loss of rows.
    self->fd = self->buf ? open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
    if (self->fd < 0) {
        s_seterr (err, errlen, path, "create", self->buf ? errno : ENOMEM);
        free (self->buf);
        free (self);
        return NULL;
    }
    return self;
}

static int
s_file_flush (zs_fs_file_t *self, char *err, size_t errlen)
{
    if (self->used == 0)
        return 0;
    if (s_write_all (self->fd, self->buf, self->used) != 0) {
        s_seterr (err, errlen, self->path, "write", errno);
        return -1;
    }
    self->used = 0;
    return 0;
}

int
zs_fs_file_write (zs_fs_file_t *self, const void *data, size_t len, char *err, size_t errlen)
{
    if (self->used + len > S_FILE_BUFSIZE) {
        if (s_file_flush (self, err, errlen) != 0)
            return -1;
        //  Larger than the buffer: write through, no point copying.
        if (len > S_FILE_BUFSIZE) {
            if (s_write_all (self->fd, data, len) != 0) {
                s_seterr (err, errlen, self->path, "write", errno);
                return -1;
            }
            self->offset += (int64_t) len;
            return 0;
        }
    }
    memcpy (self->buf + self->used, data, len);
    self->used += len;
    self->offset += (int64_t) len;
    return 0;
}

int64_t
zs_fs_file_offset (zs_fs_file_t *self)
{
    return self->offset;
}

static void
s_file_free (zs_fs_file_t **self_p)
{
    zs_fs_file_t *self = *self_p;
    if (self->fd >= 0)
        close (self->fd);
    free (self->buf);
    free (self);
    *self_p = NULL;
}

int
zs_fs_file_close (zs_fs_file_t **self_p, char *err, size_t errlen)
{
    if (!self_p || !*self_p)
        return 0;
    zs_fs_file_t *self = *self_p;
    int rc = s_file_flush (self, err, errlen);
    if (rc == 0 && s_fsync (self->fd) != 0) {
        s_seterr (err, errlen, self->path, "fsync", errno);
        rc = -1;
    }
    if (close (self->fd) != 0 && rc == 0) {
        s_seterr (err, errlen, self->path, "close", errno);
        rc = -1;
    }
    self->fd = -1;
    //  The new name must survive a crash too, not only the bytes.
    if (rc == 0) {
        char dir[ZS_PATH_MAX];
        s_dirname (self->path, dir, sizeof dir);
        if (zs_fs_fsync_dir (dir) != 0) {
            s_seterr (err, errlen, dir, "fsync dir", errno);
            rc = -1;
        }
    }
    s_file_free (self_p);
    return rc;
}

void
zs_fs_file_abort (zs_fs_file_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    unlink ((*self_p)->path);
    s_file_free (self_p);
}
