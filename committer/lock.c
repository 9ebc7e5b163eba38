/*  lock.c - see lock.h. */
#include "lock.h"
#include "io.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
zs_committer_lock (const char *table_path, const char *job_id, int64_t ttl_ms, int64_t wait_ms,
                   zs_io_lock_t **lock_p, char *holder, size_t holderlen, char *path, char *err,
                   size_t errlen)
{
    *lock_p = NULL;
    char dir[ZS_PATH_MAX];
    path[0] = 0;
    //  room for "/committer-" and a job id of up to 63 characters
    if (strlen (table_path) + 8 + 11 + 64 > sizeof dir) {
        snprintf (err, errlen, "table path too long: %s", table_path);
        return ZS_ERR;
    }
    snprintf (dir, sizeof dir, "%s/.locks", table_path);
    snprintf (path, ZS_PATH_MAX, "%.*s/committer-%.63s", ZS_PATH_MAX - 80, dir, job_id);
    if (zs_io_mkdirs (dir) < 0) {
        snprintf (err, errlen, "cannot create %s: %s", dir, strerror (errno));
        return ZS_ERR;
    }
    char who[128];
    snprintf (who, sizeof who, "pid %d, job %.63s\n", (int) getpid (), job_id);
    return zs_io_lock_take (path, who, ttl_ms, wait_ms, lock_p, holder, holderlen, err, errlen);
}
