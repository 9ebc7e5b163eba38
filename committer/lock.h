/*  lock.h - one committer per job: an exclusive flock(2) on
    <table>/.locks/committer-<job id>, holding the owner's pid.

    flock belongs to the open file description, so the kernel drops it when
    the holder dies however it dies (kill -9 included): no stale lock to
    clean up by hand. The fd is close-on-exec.
*/
#ifndef ZS_LOCK_H_INCLUDED
#define ZS_LOCK_H_INCLUDED

#include "zs.h"

//  Take the lock without waiting. 0 with *fd_p set (keep it open to keep
//  the lock); ZS_ECONFLICT when another open file holds it (*holder_pid =
//  the pid written in the file, 0 if unreadable); -1 on other errors. The
//  lock file's path goes to path (size ZS_PATH_MAX) in every case; err is
//  filled on errors.
int zs_committer_lock (const char *table_path, const char *job_id, int *fd_p, int *holder_pid,
                       char *path, char *err, size_t errlen);

//  Release (close) a lock taken above; accepts -1.
void zs_committer_unlock (int *fd_p);

#endif
