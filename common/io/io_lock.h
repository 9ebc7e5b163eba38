/*  io_lock.h - locks by path: an flock(2) on a local file, or a lease on
    S3-compatible object storage (docs/decisions.md, "Object storage").

    An exclusive lock (zs_io_lock_take) keeps one committer per job, one
    coordinator per checkpoint directory. A shared/exclusive pair
    (zs_io_rwlock_take) is the table's clean lock: commits shared, cleaners
    exclusive.

    Local: the kernel drops a lock when its holder dies (kill -9 too), and
    a holder cannot lose it. keep does nothing.

    S3 (io_lock.c says how): a lease, taken with a conditional PUT, renewed by
    its holder every ttl/3, presumed dead when the server has seen no
    renewal for ttl (measured on the server's clock: the Date and
    Last-Modified of its answers, so no two hosts' clocks are compared). A
    successor of a holder killed with kill -9 waits up to ttl. A holder
    that was paused longer than ttl learns at its next keep that the lease
    is gone (ZS_ESTALE) and must stop at once; what it did meanwhile is
    covered by the checks that never relied on the lock (a snapshot's
    conditional create, the committed-identifier filter).
*/
#ifndef ZS_IO_LOCK_H_INCLUDED
#define ZS_IO_LOCK_H_INCLUDED

#include "zs.h"

typedef struct _zs_io_lock_t zs_io_lock_t;

//  The ttl of a role's lease (the coordinator's, a committer's): the job's
//  heartbeat.timeout, the time after which a silent process is presumed
//  dead, but at least 3 s (a server dates a lease to the second).
int64_t zs_io_lease_ttl (int64_t heartbeat_timeout_ms);

//  Take the exclusive lock at path for who (one line: "pid 12, job j"),
//  trying for wait_ms (0: once). 0 with *lock_p; ZS_ECONFLICT when it
//  stays held (holder: the holder's who); -1 + err (errno kept for a
//  local failure).
int zs_io_lock_take (const char *path, const char *who, int64_t ttl_ms, int64_t wait_ms,
                     zs_io_lock_t **lock_p, char *holder, size_t holderlen, char *err,
                     size_t errlen);

//  Keep the lock: renews the lease when a third of its ttl has passed
//  (cheap otherwise; call it from every loop turn or timer). 0; ZS_ESTALE
//  when it is lost (another holder took it, or no renewal got through for
//  a ttl): stop using what it guards at once; -1 + err for a renewal that
//  failed but may still pass (the lease is not lost yet).
int zs_io_lock_keep (zs_io_lock_t *self, char *err, size_t errlen);

//  The lease's epoch (1, 2, …: each holder of an S3 lock one more than the
//  last; 0 for a local lock).
int64_t zs_io_lock_epoch (const zs_io_lock_t *self);

//  Give it up (an S3 lease is marked released, so a successor need not
//  wait). Accepts NULL.
void zs_io_lock_release (zs_io_lock_t **self_p);

//  Is the lock at path held by a live holder? Takes nothing (a holder
//  starting at this moment must not find it taken). 0 with *held (and
//  holder), or -1 + err: the caller must not guess.
int zs_io_lock_probe (const char *path, bool *held, char *holder, size_t holderlen, char *err,
                      size_t errlen);

//  The shared/exclusive lock at path: any number of shared holders or one
//  exclusive, waiting up to wait_ms (-1: without end). 0; ZS_ECONFLICT
//  after wait_ms; -1 + err. keep and release as for the exclusive lock.
int zs_io_rwlock_take (const char *path, bool exclusive, int64_t ttl_ms, int64_t wait_ms,
                       zs_io_lock_t **lock_p, char *err, size_t errlen);

#endif
