/*  lock.h - one committer per job: the lock <table>/.locks/committer-<job
    id> (io_lock.h): locally an exclusive flock(2) on that file, holding the
    owner's pid, which the kernel drops when the holder dies however it dies
    (kill -9 included); on S3 a lease under that prefix, which a successor
    takes once the server has seen no renewal for its ttl.
*/
#ifndef ZS_COMMITTER_LOCK_H_INCLUDED
#define ZS_COMMITTER_LOCK_H_INCLUDED

#include "io_lock.h"
#include "zs.h"

//  Take the lock, waiting up to wait_ms for a holder to go (a lease of a
//  predecessor killed with kill -9: up to its ttl). 0 with *lock_p;
//  ZS_ECONFLICT when another holds it (holder: who, "pid N, job J"); -1 on
//  other errors (errno kept for a local one). The lock's path goes to path
//  (size ZS_PATH_MAX) in every case; err is filled on errors.
int zs_committer_lock (const char *table_path, const char *job_id, int64_t ttl_ms, int64_t wait_ms,
                       zs_io_lock_t **lock_p, char *holder, size_t holderlen, char *path, char *err,
                       size_t errlen);

#endif
