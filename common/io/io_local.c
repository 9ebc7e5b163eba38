/*  io_local.c - the local backend of io.h: base/fs.c's calls, plus a
    directory listing and a pread reader.
*/
#include "fs.h"
#include "io_priv.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
s_write_atomic (const char *path, const char *tag, const void *data, size_t len, char *err,
                size_t errlen)
{
    return tag ? zs_fs_write_atomic_tagged (path, tag, data, len, err, errlen)
               : zs_fs_write_atomic (path, data, len, err, errlen);
}

static int
s_create_exclusive (const char *path, const char *tag, const void *data, size_t len, char *err,
                    size_t errlen)
{
    return tag ? zs_fs_create_exclusive_tagged (path, tag, data, len, err, errlen)
               : zs_fs_create_exclusive (path, data, len, err, errlen);
}

static int
s_list (const char *dir, zs_io_list_fn *fn, void *arg, char *err, size_t errlen)
{
    DIR *d = opendir (dir);
    if (!d) {
        int e = errno;
        snprintf (err, errlen, "%s: list: %s", dir, strerror (e));
        errno = e;
        return e == ENOENT ? ZS_ENOENT : -1;
    }
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir (d))) {
        if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
            continue;
        zs_io_entry_t e = {.name = de->d_name, .size = -1};
        struct stat st;
        //  gone since readdir (a cleaner, a rename): not listed
        if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        //  only files and directories: a symlink is never followed (a
        //  cleaner's --delete cannot reach outside the table), nor listed
        if (!S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
            continue;
        e.is_dir = S_ISDIR (st.st_mode);
        e.size = e.is_dir ? -1 : (int64_t) st.st_size;
        e.mtime_ms = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
        rc = fn (&e, arg);
    }
    closedir (d);
    return rc;
}

static int
s_stat (const char *path, zs_io_stat_t *out)
{
    struct stat st;
    if (lstat (path, &st) != 0)
        return errno == ENOENT || errno == ENOTDIR ? ZS_ENOENT : -1;
    out->regular = S_ISREG (st.st_mode);
    out->size = (int64_t) st.st_size;
    out->mtime_ms = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
    return 0;
}

static int
s_remove (const char *path)
{
    if (zs_fs_remove (path) == 0)
        return 0;
    return errno == ENOENT ? ZS_ENOENT : -1;
}

//  --------------------------------------------------------------------------
//  Streams over zs_fs_file_t

typedef struct {
    zs_io_file_t base;
    zs_fs_file_t *file;
} s_file_t;

static int
s_file_write (zs_io_file_t *base, const void *data, size_t len, char *err, size_t errlen)
{
    return zs_fs_file_write (((s_file_t *) base)->file, data, len, err, errlen);
}

static int
s_file_release (zs_io_file_t *base, char *err, size_t errlen)
{
    return zs_fs_file_release (((s_file_t *) base)->file, err, errlen);
}

static int
s_file_close (zs_io_file_t *base, char *err, size_t errlen)
{
    s_file_t *self = (s_file_t *) base;
    int rc = zs_fs_file_close (&self->file, err, errlen);
    free (self);
    return rc;
}

static void
s_file_abort (zs_io_file_t *base)
{
    s_file_t *self = (s_file_t *) base;
    zs_fs_file_abort (&self->file);
    free (self);
}

static zs_io_file_t *
s_file_create (const char *path, char *err, size_t errlen)
{
    s_file_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    self->file = zs_fs_file_create (path, err, errlen);
    if (!self->file) {
        free (self);
        return NULL;
    }
    self->base.write = s_file_write;
    self->base.release = s_file_release;
    self->base.close = s_file_close;
    self->base.abort = s_file_abort;
    return &self->base;
}

typedef struct {
    zs_io_reader_t base;
    int fd;
    char path[ZS_PATH_MAX];
} s_reader_t;

static int
s_reader_pread (zs_io_reader_t *base, void *buf, size_t len, int64_t offset, char *err,
                size_t errlen)
{
    s_reader_t *self = (s_reader_t *) base;
    char *p = buf;
    while (len > 0) {
        ssize_t n = pread (self->fd, p, len, (off_t) offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf (err, errlen, "%s: read at %lld: %s", self->path, (long long) offset,
                      n < 0 ? strerror (errno) : "unexpected end of file");
            return -1;
        }
        p += n;
        len -= (size_t) n;
        offset += n;
    }
    return 0;
}

static void
s_reader_close (zs_io_reader_t *base)
{
    s_reader_t *self = (s_reader_t *) base;
    close (self->fd);
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
    struct stat st;
    self->fd = open (path, O_RDONLY | O_CLOEXEC);
    if (self->fd < 0 || fstat (self->fd, &st) != 0) {
        int e = errno;
        snprintf (err, errlen, "%s: open: %s", path, strerror (e));
        if (self->fd >= 0)
            close (self->fd);
        free (self);
        errno = e;
        return NULL;
    }
    self->base.size = (int64_t) st.st_size;
    self->base.pread = s_reader_pread;
    self->base.close = s_reader_close;
    return &self->base;
}

const zs_io_ops_t zs_io_local_ops = {
    .name = "local",
    .mkdirs = zs_fs_mkdirs,
    .fsync_dir = zs_fs_fsync_dir,
    .write_atomic = s_write_atomic,
    .create_exclusive = s_create_exclusive,
    .write_new = zs_fs_write_new,
    .sync_files = zs_fs_sync_files,
    .write_hint = zs_fs_write_hint,
    .read_file = zs_fs_read_file,
    .file_size = zs_fs_file_size,
    .unlink = zs_fs_unlink,
    .stat = s_stat,
    .remove = s_remove,
    .list = s_list,
    .file_create = s_file_create,
    .reader_open = s_reader_open,
};
