/*  lock.c - see lock.h. */
#include "lock.h"
#include "fs.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    char pid[32], holder[64];
    snprintf (pid, sizeof pid, "%d\n", (int) getpid ());
    int rc = zs_fs_lock (path, pid, fd_p, holder, sizeof holder, err, errlen);
    if (rc == ZS_ECONFLICT)
        *holder_pid = atoi (holder);
    //  Also an open file description lock, which a cleaner can ask about
    //  without taking anything (F_OFD_GETLK, table_pins.c: this job runs,
    //  its files in flight are spared); a flock cannot be asked.
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (rc == 0 && fcntl (*fd_p, F_OFD_SETLK, &fl) != 0) {
        snprintf (err, errlen, "%s: F_OFD_SETLK: %s", path, strerror (errno));
        zs_committer_unlock (fd_p);
        return ZS_ERR;
    }
    return rc;
}

void
zs_committer_unlock (int *fd_p)
{
    if (fd_p && *fd_p >= 0) {
        close (*fd_p);
        *fd_p = -1;
    }
}
