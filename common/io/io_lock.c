/*  io_lock.c - locks by path (io_lock.h): flock(2) locally, leases on S3.

    A lease on S3, for the lock at P:

        P/lease-<E>   one object per holder, E = 1, 2, …; the highest is
                      the lease. Lines: holder, epoch, ttl_ms, beat, state
                      (held | released).

    1. Take: with no lease-E, create lease-1; with a lease-E that is
       released, or whose last write the server dates more than ttl + 1 s
       ago (Date minus Last-Modified of one answer: the server's clock
       only; the second covers their 1 s resolution), create lease-(E+1).
       Creation is a PUT with If-None-Match: *, so of two takers one wins
       (io_s3.c: an answer lost is resolved by reading back). Only
       If-None-Match is needed, which every S3 that offers conditional
       writes has; no If-Match on an ETag.
    2. Keep: every ttl/3 the holder's keeper thread rewrites lease-E (beat
       + 1), then asks whether lease-(E+1) exists: if so, it was presumed
       dead and is replaced: lost. With no renewal through for ttl, lost as
       well, without asking. zs_io_lock_keep reports what the thread found
       (ZS_ESTALE once lost).
    3. Release: lease-E is rewritten as released; older epochs are deleted
       by the next taker (the newest stays: epochs only grow).
    4. Probe: held when the highest lease-E is held and fresh (as in 1).

    The shared/exclusive lock at P (the clean lock):

        P/x/lease-<E>  the exclusive side, a lease as above
        P/s/<uuid>     one object per shared holder, rewritten every ttl/3

    Shared: write P/s/<uuid>, then probe P/x: held means back off (delete
    the entry, wait, try again). Exclusive: take P/x, then wait until no
    fresh P/s/ entry is left. Each writes its own object before it reads
    the other's, and S3 reads and lists are strongly consistent, so at
    least one of two that start together sees the other (Dekker's entry
    protocol).

    What the lease cannot give that flock gives: a holder stopped (a pause,
    a partition) for longer than ttl between its last keep and an action
    may act once more after another has taken the lock. io_lock.h says what
    covers that for each lock.
*/
#include "io_lock.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define S_LINE 256
#define S_POLL_MS 200
#define S_CLOCK_SLACK_MS 1000 //  Last-Modified and Date have 1 s resolution

struct _zs_io_lock_t {
    int fd;                 //  local: the flock'd file; -1 on S3
    bool remote;            //  S3 lease
    bool shared;            //  an S3 shared entry (P/s/<uuid>), not a lease
    char obj[ZS_PATH_MAX];  //  S3: the object we rewrite (lease-E or s/<uuid>)
    char next[ZS_PATH_MAX]; //  S3 lease: lease-(E+1), whose existence means lost
    char who[S_LINE];
    int64_t epoch;
    int64_t ttl_ms;
    int64_t beat;
    int64_t last_try; //  mono ms of the last renewal started
    int64_t last_ok;  //  mono ms when the last successful renewal started
    //  S3: renewals run on a thread of their own, so that no long listing
    //  or upload of the holder lets its lease lapse
    pthread_t keeper;
    bool keeping;
    bool sync_init; //  mutex and stop_cond initialised
    pthread_mutex_t mutex;
    pthread_cond_t stop_cond;
    bool stop;
    int state;           //  0 held, ZS_ESTALE lost
    char why[ZS_ERRLEN]; //  why it was lost
};

static void
s_sleep_ms (int64_t ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long) (ms % 1000) * 1000000};
    while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
        ;
}

static zs_io_lock_t *
s_new (void)
{
    zs_io_lock_t *self = calloc (1, sizeof *self);
    if (self)
        self->fd = -1;
    return self;
}

//  --------------------------------------------------------------------------
//  Local: flock, plus an open file description lock that a prober can ask
//  about without taking anything (F_OFD_GETLK; a flock cannot be asked)

static int
s_local_take (const char *path, const char *who, int64_t wait_ms, zs_io_lock_t **lock_p,
              char *holder, size_t holderlen, char *err, size_t errlen)
{
    int64_t until = zs_clock_mono_ms () + (wait_ms > 0 ? wait_ms : 0);
    int fd, rc;
    while ((rc = zs_fs_lock (path, who, &fd, holder, holderlen, err, errlen)) == ZS_ECONFLICT
           && zs_clock_mono_ms () < until)
        s_sleep_ms (100);
    if (rc != 0)
        return rc;
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    zs_io_lock_t *self = s_new ();
    if (!self || fcntl (fd, F_OFD_SETLK, &fl) != 0) {
        int e = self ? errno : ENOMEM;
        snprintf (err, errlen, "%s: F_OFD_SETLK: %s", path, strerror (e));
        close (fd);
        free (self);
        errno = e;
        return -1;
    }
    self->fd = fd;
    *lock_p = self;
    return 0;
}

static int
s_local_probe (const char *path, bool *held, char *holder, size_t holderlen)
{
    *held = false;
    int fd = open (path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0; //  never taken
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    *held = fcntl (fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    ssize_t n = *held && holderlen > 1 ? pread (fd, holder, holderlen - 1, 0) : 0;
    if (n > 0) {
        holder[n] = 0;
        holder[strcspn (holder, "\n")] = 0;
    }
    close (fd);
    return 0;
}

static int
s_local_rwlock (const char *path, bool exclusive, int64_t wait_ms, zs_io_lock_t **lock_p, char *err,
                size_t errlen)
{
    char dir[ZS_PATH_MAX];
    snprintf (dir, sizeof dir, "%s", path);
    char *slash = strrchr (dir, '/');
    if (slash)
        *slash = 0;
    int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOENT && slash && zs_fs_mkdirs (dir) == 0)
        fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        zs_fs_note_failure (e); //  a read-only table: no restart helps
        snprintf (err, errlen, "%s: cannot open the lock: %s", path, strerror (e));
        errno = e;
        return -1;
    }
    int op = exclusive ? LOCK_EX : LOCK_SH;
    int64_t deadline = wait_ms < 0 ? INT64_MAX : zs_clock_mono_ms () + wait_ms;
    while (flock (fd, op | (wait_ms < 0 ? 0 : LOCK_NB)) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            snprintf (err, errlen, "%s: flock: %s", path, strerror (errno));
            close (fd);
            return -1;
        }
        if (zs_clock_mono_ms () >= deadline) {
            close (fd);
            return ZS_ECONFLICT;
        }
        s_sleep_ms (2);
    }
    zs_io_lock_t *self = s_new ();
    if (!self) {
        close (fd);
        snprintf (err, errlen, "%s: out of memory", path);
        return -1;
    }
    self->fd = fd;
    *lock_p = self;
    return 0;
}

//  --------------------------------------------------------------------------
//  S3 leases

typedef struct {
    char holder[S_LINE];
    int64_t ttl_ms;
    bool released;
    int64_t age_ms; //  server time since its last write
} s_lease_t;

static void
s_lease_path (const char *dir, int64_t epoch, char *path, size_t len)
{
    snprintf (path, len, "%s/lease-%" PRId64, dir, epoch);
}

//  The highest epoch under dir, 0 when none. 0 or -1 + err.
static int
s_lease_top (const char *dir, int64_t *epoch, char *err, size_t errlen)
{
    int64_t *ids;
    size_t n;
    *epoch = 0;
    int rc = zs_io_list_numbered (dir, "lease-", &ids, &n, err, errlen);
    if (rc == ZS_ENOENT)
        return 0;
    if (rc != 0)
        return -1;
    if (n)
        *epoch = ids[n - 1];
    free (ids);
    return 0;
}

//  Read path's lease. 0, ZS_ENOENT, or -1 + err.
static int
s_lease_read (const char *path, s_lease_t *lease, char *err, size_t errlen)
{
    char bucket[64], key[ZS_PATH_MAX];
    zs_s3_t *s3 = zs_s3_parse_url (path, bucket, sizeof bucket, key, sizeof key, err, errlen) == 0
                      ? zs_io_s3_client (err, errlen)
                      : NULL;
    if (!s3)
        return -1;
    char *text = NULL;
    size_t len = 0;
    zs_s3_result_t res;
    if (zs_s3_get (s3, bucket, key, 0, -1, 4096, &text, &len, &res, err, errlen) != 0)
        return -1;
    if (res.status == 404) {
        free (text);
        return ZS_ENOENT;
    }
    if (res.status != 200) {
        free (text);
        snprintf (err, errlen, "%s: GET: HTTP %ld %s", path, res.status, res.code);
        return -1;
    }
    memset (lease, 0, sizeof *lease);
    const char *h = strstr (text, "holder=");
    const char *t = strstr (text, "ttl_ms=");
    if (h)
        snprintf (lease->holder, sizeof lease->holder, "%.*s", (int) strcspn (h + 7, "\n"), h + 7);
    lease->ttl_ms = t ? strtoll (t + 7, NULL, 10) : 0;
    lease->released = strstr (text, "state=released") != NULL;
    //  no dates from the server: never presume the holder dead
    lease->age_ms = res.date_ms && res.mtime_ms ? res.date_ms - res.mtime_ms : 0;
    free (text);
    if (!h || lease->ttl_ms <= 0) {
        snprintf (err, errlen, "%s: not a lease zsink wrote", path);
        return -1;
    }
    return 0;
}

static bool
s_lease_dead (const s_lease_t *lease)
{
    return lease->released || lease->age_ms > lease->ttl_ms + S_CLOCK_SLACK_MS;
}

static int
s_lease_write (zs_io_lock_t *self, bool create, const char *state, char *err, size_t errlen)
{
    char text[S_LINE * 2];
    int n =
        snprintf (text, sizeof text,
                  "holder=%s\nepoch=%" PRId64 "\nttl_ms=%" PRId64 "\nbeat=%" PRId64 "\nstate=%s\n",
                  self->who, self->epoch, self->ttl_ms, self->beat, state);
    return create ? zs_io_create_exclusive (self->obj, text, (size_t) n, err, errlen)
                  : zs_io_write_atomic (self->obj, text, (size_t) n, err, errlen);
}

//  Delete the epochs below epoch (their holders are gone).
static void
s_lease_prune (const char *dir, int64_t epoch)
{
    int64_t *ids;
    size_t n;
    char err[ZS_ERRLEN], path[ZS_PATH_MAX];
    if (zs_io_list_numbered (dir, "lease-", &ids, &n, err, sizeof err) != 0)
        return;
    for (size_t i = 0; i < n && ids[i] < epoch; i++) {
        s_lease_path (dir, ids[i], path, sizeof path);
        zs_io_unlink (path);
    }
    free (ids);
}

//  One attempt at the lease under dir: 0 taken, ZS_ECONFLICT held (holder
//  filled), -1 + err.
static int
s_lease_try (zs_io_lock_t *self, const char *dir, char *holder, size_t holderlen, char *err,
             size_t errlen)
{
    int64_t top;
    if (s_lease_top (dir, &top, err, errlen) != 0)
        return -1;
    if (top > 0) {
        s_lease_t lease;
        s_lease_path (dir, top, self->obj, sizeof self->obj);
        int rc = s_lease_read (self->obj, &lease, err, errlen);
        if (rc == ZS_ENOENT)
            return ZS_ECONFLICT; //  pruned under us: list again
        if (rc != 0)
            return -1;
        if (!s_lease_dead (&lease)) {
            snprintf (holder, holderlen, "%s", lease.holder);
            return ZS_ECONFLICT;
        }
    }
    self->epoch = top + 1;
    self->beat = 0;
    s_lease_path (dir, self->epoch, self->obj, sizeof self->obj);
    s_lease_path (dir, self->epoch + 1, self->next, sizeof self->next);
    int64_t start = zs_clock_mono_ms ();
    int rc = s_lease_write (self, true, "held", err, errlen);
    if (rc != 0)
        return rc == ZS_ECONFLICT ? ZS_ECONFLICT : -1;
    self->last_try = self->last_ok = start;
    if (top > 1)
        s_lease_prune (dir, top);
    return 0;
}

static int
s_remote_keep (zs_io_lock_t *self, char *err, size_t errlen)
{
    int64_t now = zs_clock_mono_ms ();
    if (now - self->last_try < self->ttl_ms / 3)
        return 0;
    self->last_try = now;
    if (now - self->last_ok > self->ttl_ms) {
        snprintf (err, errlen, "%s: not renewed for %" PRId64 " ms (ttl %" PRId64 " ms)", self->obj,
                  now - self->last_ok, self->ttl_ms);
        return ZS_ESTALE;
    }
    self->beat++;
    if (s_lease_write (self, false, "held", err, errlen) != 0)
        return -1;
    if (!self->shared) {
        zs_io_stat_t st;
        int rc = zs_io_stat (self->next, &st);
        if (rc == 0) {
            snprintf (err, errlen, "%s: taken over (%s exists)", self->obj, self->next);
            return ZS_ESTALE;
        }
        if (rc != ZS_ENOENT) {
            snprintf (err, errlen, "%s: cannot tell whether it is still ours", self->next);
            return -1;
        }
    }
    self->last_ok = now;
    return 0;
}

static void *
s_keeper (void *arg)
{
    zs_io_lock_t *self = arg;
    pthread_mutex_lock (&self->mutex);
    while (!self->stop && self->state == 0) {
        struct timespec ts;
        clock_gettime (CLOCK_MONOTONIC, &ts);
        int64_t ns = ts.tv_nsec + (self->ttl_ms / 3 / 4) * 1000000;
        ts.tv_sec += ns / 1000000000;
        ts.tv_nsec = ns % 1000000000;
        pthread_cond_timedwait (&self->stop_cond, &self->mutex, &ts);
        if (self->stop)
            break;
        pthread_mutex_unlock (&self->mutex);
        char err[ZS_ERRLEN];
        int rc = s_remote_keep (self, err, sizeof err);
        pthread_mutex_lock (&self->mutex);
        if (rc == ZS_ESTALE) {
            self->state = ZS_ESTALE;
            snprintf (self->why, sizeof self->why, "%s", err);
        } else if (rc != 0)
            zs_warn ("LEASE_RENEW_FAILED %s: %s (retrying)", self->obj, err);
    }
    pthread_mutex_unlock (&self->mutex);
    return NULL;
}

//  Start the keeper of a lease just taken. 0 or -1 + err.
static int
s_keeper_start (zs_io_lock_t *self, char *err, size_t errlen)
{
    pthread_condattr_t attr;
    pthread_condattr_init (&attr);
    pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
    pthread_mutex_init (&self->mutex, NULL);
    pthread_cond_init (&self->stop_cond, &attr);
    pthread_condattr_destroy (&attr);
    self->sync_init = true;
    int rc = pthread_create (&self->keeper, NULL, s_keeper, self);
    if (rc != 0) {
        snprintf (err, errlen, "%s: cannot start the lease's keeper: %s", self->obj, strerror (rc));
        return -1;
    }
    self->keeping = true;
    return 0;
}

static void
s_keeper_stop (zs_io_lock_t *self)
{
    if (!self->keeping)
        return;
    pthread_mutex_lock (&self->mutex);
    self->stop = true;
    pthread_cond_signal (&self->stop_cond);
    pthread_mutex_unlock (&self->mutex);
    pthread_join (self->keeper, NULL);
    self->keeping = false;
}

static int
s_remote_take (const char *path, const char *who, int64_t ttl_ms, int64_t wait_ms,
               zs_io_lock_t **lock_p, char *holder, size_t holderlen, char *err, size_t errlen)
{
    //  a job's lock is news; the clean lock's exclusive side, taken by
    //  every expiry, is not
    bool loud = strcmp (who + strcspn (who, ","), ", exclusive") != 0;
    zs_io_lock_t *self = s_new ();
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return -1;
    }
    self->remote = true;
    self->ttl_ms = ttl_ms;
    snprintf (self->who, sizeof self->who, "%.*s", (int) strcspn (who, "\n"), who);
    int64_t until = zs_clock_mono_ms () + (wait_ms > 0 ? wait_ms : 0);
    int rc;
    while ((rc = s_lease_try (self, path, holder, holderlen, err, errlen)) == ZS_ECONFLICT
           && zs_clock_mono_ms () < until)
        s_sleep_ms (S_POLL_MS);
    if (rc != 0) {
        if (rc == ZS_ECONFLICT)
            snprintf (err, errlen, "lock %s is held by %s", path, holder);
        free (self);
        return rc;
    }
    if (s_keeper_start (self, err, errlen) != 0) {
        zs_io_lock_release (&self);
        return -1;
    }
    zs_log (loud ? ZS_LOG_INFO : ZS_LOG_DEBUG,
            "LEASE_TAKEN %s epoch %" PRId64 " (ttl %" PRId64 " ms)", path, self->epoch, ttl_ms);
    *lock_p = self;
    return 0;
}

static int
s_remote_probe (const char *path, bool *held, char *holder, size_t holderlen, char *err,
                size_t errlen)
{
    *held = false;
    int64_t top;
    if (s_lease_top (path, &top, err, errlen) != 0)
        return -1;
    if (top == 0)
        return 0;
    char obj[ZS_PATH_MAX];
    s_lease_t lease;
    s_lease_path (path, top, obj, sizeof obj);
    int rc = s_lease_read (obj, &lease, err, errlen);
    if (rc == ZS_ENOENT)
        return 0;
    if (rc != 0)
        return -1;
    *held = !s_lease_dead (&lease);
    if (*held)
        snprintf (holder, holderlen, "%s", lease.holder);
    return 0;
}

//  --------------------------------------------------------------------------
//  S3 shared/exclusive

typedef struct {
    int64_t now_ms; //  server clock
    int64_t ttl_ms;
    int fresh;
} s_shared_scan_t;

static int
s_count_fresh (const zs_io_entry_t *e, void *arg)
{
    s_shared_scan_t *s = arg;
    if (!e->is_dir && s->now_ms - e->mtime_ms <= s->ttl_ms + S_CLOCK_SLACK_MS)
        s->fresh++;
    return 0;
}

//  Fresh shared entries under dir; server_now from an answer of the same
//  server (the exclusive holder's own lease). -1 + err.
static int
s_shared_fresh (const char *dir, const char *own, int64_t ttl_ms, char *err, size_t errlen)
{
    char bucket[64], key[ZS_PATH_MAX];
    zs_s3_t *s3 = zs_s3_parse_url (own, bucket, sizeof bucket, key, sizeof key, err, errlen) == 0
                      ? zs_io_s3_client (err, errlen)
                      : NULL;
    zs_s3_result_t res;
    if (!s3 || zs_s3_head (s3, bucket, key, &res, err, errlen) != 0)
        return -1;
    s_shared_scan_t s = {.now_ms = res.date_ms, .ttl_ms = ttl_ms};
    if (!res.date_ms) {
        snprintf (err, errlen, "%s: the server sends no Date: leases cannot be judged", own);
        return -1;
    }
    int rc = zs_io_list (dir, s_count_fresh, &s, err, errlen);
    return rc == 0 || rc == ZS_ENOENT ? s.fresh : -1;
}

static int
s_remote_exclusive (const char *path, int64_t ttl_ms, int64_t wait_ms, zs_io_lock_t **lock_p,
                    char *err, size_t errlen)
{
    char xdir[ZS_PATH_MAX], sdir[ZS_PATH_MAX], who[S_LINE], holder[S_LINE] = "";
    snprintf (xdir, sizeof xdir, "%s/x", path);
    snprintf (sdir, sizeof sdir, "%s/s", path);
    snprintf (who, sizeof who, "pid %d, exclusive", (int) getpid ());
    int64_t until = wait_ms < 0 ? INT64_MAX : zs_clock_mono_ms () + wait_ms;
    zs_io_lock_t *x = NULL;
    int rc = s_remote_take (xdir, who, ttl_ms, wait_ms < 0 ? INT64_MAX / 2 : wait_ms, &x, holder,
                            sizeof holder, err, errlen);
    if (rc != 0)
        return rc;
    //  the shared holders that came before us finish (or are found dead)
    int fresh;
    while ((fresh = s_shared_fresh (sdir, x->obj, ttl_ms, err, errlen)) > 0
           && zs_clock_mono_ms () < until) {
        if (zs_io_lock_keep (x, err, errlen) == ZS_ESTALE)
            break;
        s_sleep_ms (S_POLL_MS / 10);
    }
    if (fresh != 0) {
        zs_io_lock_release (&x);
        if (fresh > 0)
            snprintf (err, errlen, "%s: %d shared holder(s) still there", path, fresh);
        return fresh > 0 ? ZS_ECONFLICT : -1;
    }
    *lock_p = x;
    return 0;
}

static int
s_remote_shared (const char *path, int64_t ttl_ms, int64_t wait_ms, zs_io_lock_t **lock_p,
                 char *err, size_t errlen)
{
    zs_io_lock_t *self = s_new ();
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return -1;
    }
    char uuid[40], xdir[ZS_PATH_MAX], holder[S_LINE];
    zs_uuid (uuid);
    self->remote = self->shared = true;
    self->ttl_ms = ttl_ms;
    snprintf (self->who, sizeof self->who, "pid %d, shared", (int) getpid ());
    snprintf (self->obj, sizeof self->obj, "%s/s/%s", path, uuid);
    snprintf (xdir, sizeof xdir, "%s/x", path);
    int64_t until = wait_ms < 0 ? INT64_MAX : zs_clock_mono_ms () + wait_ms;
    for (;;) {
        int64_t start = zs_clock_mono_ms ();
        bool held = false;
        if (s_lease_write (self, false, "held", err, errlen) != 0
            || s_remote_probe (xdir, &held, holder, sizeof holder, err, errlen) != 0) {
            zs_io_unlink (self->obj);
            free (self);
            return -1;
        }
        if (!held) {
            self->last_try = self->last_ok = start;
            if (s_keeper_start (self, err, errlen) != 0) {
                zs_io_lock_release (&self);
                return -1;
            }
            *lock_p = self;
            return 0;
        }
        zs_io_unlink (self->obj); //  back off: the exclusive side waits for us
        if (zs_clock_mono_ms () >= until) {
            snprintf (err, errlen, "%s: held exclusive by %s", path, holder);
            free (self);
            return ZS_ECONFLICT;
        }
        s_sleep_ms (S_POLL_MS / 4);
    }
}

//  --------------------------------------------------------------------------
//  The API

int64_t
zs_io_lease_ttl (int64_t heartbeat_timeout_ms)
{
    return heartbeat_timeout_ms < 3000 ? 3000 : heartbeat_timeout_ms;
}

int
zs_io_lock_take (const char *path, const char *who, int64_t ttl_ms, int64_t wait_ms,
                 zs_io_lock_t **lock_p, char *holder, size_t holderlen, char *err, size_t errlen)
{
    *lock_p = NULL;
    if (holderlen)
        holder[0] = 0;
    return zs_io_is_remote (path)
               ? s_remote_take (path, who, ttl_ms, wait_ms, lock_p, holder, holderlen, err, errlen)
               : s_local_take (path, who, wait_ms, lock_p, holder, holderlen, err, errlen);
}

int
zs_io_lock_keep (zs_io_lock_t *self, char *err, size_t errlen)
{
    if (!self || !self->remote || !self->keeping)
        return 0;
    pthread_mutex_lock (&self->mutex);
    int rc = self->state;
    if (rc)
        snprintf (err, errlen, "%s", self->why);
    pthread_mutex_unlock (&self->mutex);
    return rc;
}

int64_t
zs_io_lock_epoch (const zs_io_lock_t *self)
{
    return self ? self->epoch : 0;
}

void
zs_io_lock_release (zs_io_lock_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_io_lock_t *self = *self_p;
    *self_p = NULL;
    char err[ZS_ERRLEN];
    s_keeper_stop (self);
    if (self->fd >= 0)
        close (self->fd); //  drops the flock and the OFD lock
    else if (self->shared)
        zs_io_unlink (self->obj);
    else if (self->remote && self->state == 0
             && s_lease_write (self, false, "released", err, sizeof err) != 0)
        zs_warn ("LEASE_RELEASE_FAILED %s: %s (a successor waits for its ttl)", self->obj, err);
    if (self->sync_init) {
        pthread_mutex_destroy (&self->mutex);
        pthread_cond_destroy (&self->stop_cond);
    }
    free (self);
}

int
zs_io_lock_probe (const char *path, bool *held, char *holder, size_t holderlen, char *err,
                  size_t errlen)
{
    if (holderlen)
        holder[0] = 0;
    return zs_io_is_remote (path) ? s_remote_probe (path, held, holder, holderlen, err, errlen)
                                  : s_local_probe (path, held, holder, holderlen);
}

int
zs_io_rwlock_take (const char *path, bool exclusive, int64_t ttl_ms, int64_t wait_ms,
                   zs_io_lock_t **lock_p, char *err, size_t errlen)
{
    *lock_p = NULL;
    if (!zs_io_is_remote (path))
        return s_local_rwlock (path, exclusive, wait_ms, lock_p, err, errlen);
    return exclusive ? s_remote_exclusive (path, ttl_ms, wait_ms, lock_p, err, errlen)
                     : s_remote_shared (path, ttl_ms, wait_ms, lock_p, err, errlen);
}
