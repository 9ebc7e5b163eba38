/*  lock.c - see lock.h. */
#include "lock.h"
#include "fs.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int
zs_committer_lock (const char *table_path, const char *job_id, int *fd_p, int *holder_pid,
                   char *path, char *err, size_t errlen)
{
    *fd_p = -1;
    *holder_pid = 0;
    char dir[ZS_PATH_MAX];
    path[0] = 0;
    //  room for "/committer-" and a job id of up to 63 characters
    if (strlen (table_path) + 8 + 11 + 64 > sizeof dir) {
        snprintf (err, errlen, "table path too long: %s", table_path);
        return ZS_ERR;
    }
    snprintf (dir, sizeof dir, "%s/.locks", table_path);
    snprintf (path, ZS_PATH_MAX, "%.*s/committer-%.63s", ZS_PATH_MAX - 80, dir, job_id);
    if (zs_fs_mkdirs (dir) < 0) {
        snprintf (err, errlen, "cannot create %s: %s", dir, strerror (errno));
        return ZS_ERR;
    }
    //  The file is never deleted: unlinking it would let a second process
    //  lock a fresh inode while the first still holds the old one.
    int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf (err, errlen, "cannot open %s: %s", path, strerror (errno));
        return ZS_ERR;
    }
    if (flock (fd, LOCK_EX | LOCK_NB) < 0) {
        int saved = errno;
        if (saved == EWOULDBLOCK) {
            //  Best effort: the holder may be between truncate and write.
            char buf[32] = {0};
            ssize_t n = pread (fd, buf, sizeof buf - 1, 0);
            if (n > 0)
                *holder_pid = atoi (buf);
            close (fd);
            snprintf (err, errlen, "lock %s is held", path);
            return ZS_ECONFLICT;
        }
        close (fd);
        snprintf (err, errlen, "cannot lock %s: %s", path, strerror (saved));
        return ZS_ERR;
    }
    //  Ours now: say who holds it, for the message a second committer prints.
    char pid[32];
    int len = snprintf (pid, sizeof pid, "%d\n", (int) getpid ());
    if (ftruncate (fd, 0) < 0 || pwrite (fd, pid, (size_t) len, 0) != len) {
        snprintf (err, errlen, "cannot write %s: %s", path, strerror (errno));
        close (fd);
        return ZS_ERR;
    }
    *fd_p = fd;
    return 0;
}

void
zs_committer_unlock (int *fd_p)
{
    if (fd_p && *fd_p >= 0) {
        close (*fd_p);
        *fd_p = -1;
    }
}
