/*  fs.c - the one file-I/O layer (see fs.h for the two rules it keeps).

    Temp files are named ".<final name>.tmp-<pid>-<n>" in the final file's
    own directory: same directory so rename/link stay atomic (one file
    system), pid + counter so concurrent writers of the same name (two
    committers racing for one snapshot id) never share a temp file, and a
    leading dot (as Paimon's Path.createTempPath) so that a reader listing
    "snapshot-*" or "schema-*" never sees one.

    Fail points (for tests of the layers above):
        fs.write   a write of a durable file fails (as with ENOSPC)
        fs.fsync   an fsync fails (as with EIO: the data may be lost)
        fs.rename  the rename that publishes an atomic write fails
        fs.link    the link of create-if-absent fails (not as EEXIST)

    Disk faults (for the lost-fsync and full-disk tests; fs.h says how to
    switch them on). Every operation that changes the disk - create, write,
    fsync, rename, link, unlink, mkdir - goes through s_op, which counts it
    and may fail it (ENOSPC/EIO) or end the process before it (crash). With
    a journal, s_op's callers also append one line per operation to it, so
    zs_fs_journal_lose_unsynced can later put the directory tree back the
    way a power cut would have left it:
        C <ino> <path>          file created (its name lives in its dir)
        S <ino> <size>          file fsynced: its first size bytes are safe
        D <dir>                 directory fsynced: names in it are safe
        R <from> <to> <shadow>  rename; shadow keeps a replaced file
        L <from> <to>           link (create-if-absent)
        U <path> <shadow>       unlink; shadow keeps the removed file
        M <path>                directory created
    Fields are tab-separated; paths are absolute (their directory resolved
    with realpath), so processes started from other directories agree.
*/
#include "fs.h"
#include "failpoint.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_FILE_BUFSIZE (1024 * 1024)

//  --------------------------------------------------------------------------
//  Disk faults and the journal (see the header comment)

typedef enum { S_FAULT_NONE, S_FAULT_ENOSPC, S_FAULT_EIO, S_FAULT_CRASH } s_fault_kind_t;

static struct {
    s_fault_kind_t kind;
    int64_t at;      //  the operation (1-based) that fails
    bool sticky;     //  ... and every one after it ("enospc:K+")
    int64_t ops;     //  operations so far
    bool skip_fsync; //  the negative control: fsync does nothing
    int journal;     //  append-only fd, -1 when off
    char shadow_dir[ZS_PATH_MAX];
    unsigned shadow_seq;
} s_disk = {.journal = -1};

//  Count one disk-changing operation; fail it or crash before it when the
//  fault says so. 0, or -1 with errno set.
static int
s_op (const char *what, const char *path)
{
    //  atomic: the committer's compaction thread writes files too
    int64_t op = __atomic_add_fetch (&s_disk.ops, 1, __ATOMIC_RELAXED);
    if (s_disk.kind == S_FAULT_NONE || op < s_disk.at || (op > s_disk.at && !s_disk.sticky))
        return 0;
    //  A full disk still lets files be removed (that is how space returns).
    if (s_disk.kind == S_FAULT_ENOSPC && strcmp (what, "unlink") == 0)
        return 0;
    if (s_disk.kind == S_FAULT_CRASH) {
        char line[ZS_PATH_MAX + 128];
        int n = snprintf (line, sizeof line, "fs: simulated crash before operation %lld (%s %s)\n",
                          (long long) op, what, path);
        if (write (STDERR_FILENO, line, n > 0 && n < (int) sizeof line ? (size_t) n : 0) < 0)
            _exit (137);
        _exit (137);
    }
    errno = s_disk.kind == S_FAULT_ENOSPC ? ENOSPC : EIO;
    return -1;
}

//  path with its directory resolved, for journal lines (absolute, so all
//  processes name a file the same way). Falls back to path as given.
static void
s_canon (const char *path, char *out, size_t outlen)
{
    char tmp[ZS_PATH_MAX], dir[ZS_PATH_MAX];
    snprintf (tmp, sizeof tmp, "%s", path);
    const char *base = strrchr (path, '/') ? strrchr (path, '/') + 1 : path;
    char *slash = strrchr (tmp, '/');
    if (slash == tmp)
        snprintf (dir, sizeof dir, "/");
    else {
        if (slash)
            *slash = '\0';
        if (!realpath (slash ? tmp : ".", dir)) {
            snprintf (out, outlen, "%s", path);
            return;
        }
    }
    snprintf (out, outlen, "%s%s%s", dir, strcmp (dir, "/") == 0 ? "" : "/", base);
}

//  Append one line to the journal: one write(2) with O_APPEND, so lines of
//  concurrent processes never interleave and their order is the disk's.
static void
s_journal (const char *fmt, ...)
{
    if (s_disk.journal < 0)
        return;
    char line[3 * ZS_PATH_MAX + 64];
    va_list ap;
    va_start (ap, fmt);
    int n = vsnprintf (line, sizeof line, fmt, ap);
    va_end (ap);
    if (n > 0 && n < (int) sizeof line && write (s_disk.journal, line, (size_t) n) != n)
        fprintf (stderr, "fs: journal write failed: %s\n", strerror (errno));
}

//  Journal a created file (fd open on it).
static void
s_journal_create (int fd, const char *path)
{
    struct stat st;
    char canon[ZS_PATH_MAX];
    if (s_disk.journal < 0 || fstat (fd, &st) != 0)
        return;
    s_canon (path, canon, sizeof canon);
    s_journal ("C\t%llu\t%s\n", (unsigned long long) st.st_ino, canon);
}

//  With a journal, keep the file at path (about to be replaced or removed)
//  under a link in the shadow directory, so a lost rename or unlink can be
//  undone. Fills shadow ("-" when path does not exist). 0 or -1 + errno.
static int
s_shadow (const char *path, char *shadow, size_t len)
{
    snprintf (shadow, len, "-");
    if (s_disk.journal < 0)
        return 0;
    snprintf (shadow, len, "%s/%ld-%u", s_disk.shadow_dir, (long) getpid (),
              __atomic_fetch_add (&s_disk.shadow_seq, 1, __ATOMIC_RELAXED));
    if (link (path, shadow) == 0)
        return 0;
    if (errno == ENOENT) {
        snprintf (shadow, len, "-");
        return 0;
    }
    fprintf (stderr, "fs: cannot keep %s in the journal's shadow directory: %s\n", path,
             strerror (errno));
    return -1;
}

int
zs_fs_faults_set (const char *fault, const char *journal, bool skip_fsync, char *err, size_t errlen)
{
    if (s_disk.journal >= 0)
        close (s_disk.journal);
    memset (&s_disk, 0, sizeof s_disk);
    s_disk.journal = -1;
    s_disk.skip_fsync = skip_fsync;
    if (fault && *fault) {
        char kind[16];
        long long at = 0;
        char plus = 0;
        int n = sscanf (fault, "%15[a-z]:%lld%c", kind, &at, &plus);
        if (n < 2 || at < 1 || (n == 3 && plus != '+')) {
            snprintf (err, errlen, "ZSINK_FS_FAULT '%s': expected enospc|eio|crash:K[+]", fault);
            return -1;
        }
        if (strcmp (kind, "enospc") == 0)
            s_disk.kind = S_FAULT_ENOSPC;
        else if (strcmp (kind, "eio") == 0)
            s_disk.kind = S_FAULT_EIO;
        else if (strcmp (kind, "crash") == 0)
            s_disk.kind = S_FAULT_CRASH;
        else {
            snprintf (err, errlen, "ZSINK_FS_FAULT '%s': unknown kind '%s'", fault, kind);
            return -1;
        }
        s_disk.at = at;
        s_disk.sticky = n == 3;
    }
    if (journal && *journal) {
        snprintf (s_disk.shadow_dir, sizeof s_disk.shadow_dir, "%s.shadow", journal);
        if (mkdir (s_disk.shadow_dir, 0755) != 0 && errno != EEXIST) {
            snprintf (err, errlen, "%s: mkdir: %s", s_disk.shadow_dir, strerror (errno));
            return -1;
        }
        s_disk.journal = open (journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (s_disk.journal < 0) {
            snprintf (err, errlen, "%s: open: %s", journal, strerror (errno));
            return -1;
        }
    }
    return 0;
}

int
zs_fs_faults_init (char *err, size_t errlen)
{
    const char *skip = getenv ("ZSINK_TEST_SKIP_FSYNC");
    return zs_fs_faults_set (getenv ("ZSINK_FS_FAULT"), getenv ("ZSINK_FS_JOURNAL"),
                             skip && *skip && strcmp (skip, "0") != 0, err, errlen);
}

int64_t
zs_fs_ops (void)
{
    return s_disk.ops;
}

//  --------------------------------------------------------------------------
//  The operations

//  errno of the latest failure reported below, for zs_fs_failed_for_good:
//  errno itself is overwritten by the clean-up calls after a failure.
static __thread int s_last_failure;

void
zs_fs_clear_failure (void)
{
    s_last_failure = 0;
}

void
zs_fs_note_failure (int e)
{
    s_last_failure = e;
}

bool
zs_fs_failed_for_good (void)
{
    return zs_fs_errno_permanent (s_last_failure) || zs_fs_errno_permanent (errno);
}

static void
s_seterr (char *err, size_t errlen, const char *path, const char *what, int e)
{
    s_last_failure = e;
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

//  fsync a file (or, with is_dir, a directory) open on fd.
static int
s_fsync (int fd, const char *path, bool is_dir)
{
    if (zs_failpoint ("fs.fsync") == -1) {
        errno = EIO;
        return -1;
    }
    if (s_op ("fsync", path) != 0)
        return -1;
    if (s_disk.skip_fsync)
        return 0; //  the negative control: nothing becomes durable
    if (fsync (fd) != 0)
        return -1;
    struct stat st;
    char canon[ZS_PATH_MAX];
    if (s_disk.journal < 0)
        ;
    else if (is_dir && realpath (path, canon))
        s_journal ("D\t%s\n", canon);
    else if (!is_dir && fstat (fd, &st) == 0)
        s_journal ("S\t%llu\t%lld\n", (unsigned long long) st.st_ino, (long long) st.st_size);
    return 0;
}

//  unlink(2), counted and journaled. 0 or -1 + errno (ENOENT included).
static int
s_unlink (const char *path)
{
    char shadow[ZS_PATH_MAX + 64], canon[ZS_PATH_MAX];
    if (s_op ("unlink", path) != 0 || s_shadow (path, shadow, sizeof shadow) != 0)
        return -1;
    if (unlink (path) != 0) {
        int e = errno;
        if (strcmp (shadow, "-") != 0)
            unlink (shadow);
        errno = e;
        return -1;
    }
    s_canon (path, canon, sizeof canon);
    s_journal ("U\t%s\t%s\n", canon, shadow);
    return 0;
}

//  Write all of data; a short write is retried, EINTR too.
static int
s_write_all (int fd, const char *path, const void *data, size_t len)
{
    if (zs_failpoint ("fs.write") == -1) {
        errno = ENOSPC;
        return -1;
    }
    if (s_op ("write", path) != 0)
        return -1;
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

//  mkdir one directory; EEXIST is fine. A new directory's name is made
//  durable at once (fsync of its parent): files fsynced inside it are no
//  safer than the name that leads to them.
static int
s_mkdir (const char *path)
{
    struct stat st;
    if (stat (path, &st) == 0)
        return 0; //  the usual case, and no operation counted for it
    if (s_op ("mkdir", path) != 0)
        return -1;
    if (mkdir (path, 0755) != 0)
        return errno == EEXIST ? 0 : -1;
    char canon[ZS_PATH_MAX], parent[ZS_PATH_MAX];
    s_canon (path, canon, sizeof canon);
    s_journal ("M\t%s\n", canon);
    s_dirname (path, parent, sizeof parent);
    return zs_fs_fsync_dir (parent);
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
        if (s_mkdir (buf) != 0)
            return -1;
        *p = '/';
    }
    if (s_mkdir (buf) != 0)
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

bool
zs_fs_errno_permanent (int e)
{
    return e == EACCES || e == EPERM || e == EROFS || e == ENOTDIR || e == ENAMETOOLONG;
}

int
zs_fs_probe_dir (const char *path, char *err, size_t errlen)
{
    //  A directory not there yet is made in its nearest existing ancestor:
    //  probe that one, and write nothing that stays.
    char dir[ZS_PATH_MAX], probe[ZS_PATH_MAX + 64];
    snprintf (dir, sizeof dir, "%s", *path ? path : ".");
    struct stat st;
    while (stat (dir, &st) != 0 && errno == ENOENT) {
        char *slash = strrchr (dir, '/');
        if (!slash)
            snprintf (dir, sizeof dir, ".");
        else if (slash == dir)
            dir[1] = 0;
        else
            *slash = 0;
    }
    if (stat (dir, &st) != 0 || !S_ISDIR (st.st_mode)) {
        int e = errno ? errno : ENOTDIR;
        if (stat (dir, &st) == 0)
            e = ENOTDIR;
        snprintf (err, errlen, "%s: not a directory: %s", dir, strerror (e));
        errno = e;
        return -1;
    }
    snprintf (probe, sizeof probe, "%s/.zsink-probe-%d", dir, (int) getpid ());
    int fd = open (probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        snprintf (err, errlen, "%s: cannot create a file in it: %s", dir, strerror (e));
        errno = e;
        return -1;
    }
    close (fd);
    if (unlink (probe) != 0) {
        int e = errno;
        snprintf (err, errlen, "%s: cannot delete a file in it: %s", dir, strerror (e));
        errno = e;
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
    int rc = s_fsync (fd, dir, true);
    int e = errno;
    close (fd);
    errno = e;
    return rc;
}

//  Journal that tmp got the name path: 'R'ename (with the shadow of the
//  file it replaced) or 'L'ink.
static void
s_journal_named (char op, const char *tmp, const char *path, const char *shadow)
{
    if (s_disk.journal < 0)
        return;
    char from[ZS_PATH_MAX], to[ZS_PATH_MAX];
    s_canon (tmp, from, sizeof from);
    s_canon (path, to, sizeof to);
    if (shadow)
        s_journal ("%c\t%s\t%s\t%s\n", op, from, to, shadow);
    else
        s_journal ("%c\t%s\t%s\n", op, from, to);
}

//  Without the directory fsync a new name may be lost on a crash. 0, or -1
//  + err.
static int
s_fsync_parent (const char *path, char *err, size_t errlen)
{
    char dir[ZS_PATH_MAX];
    s_dirname (path, dir, sizeof dir);
    if (zs_fs_fsync_dir (dir) == 0)
        return 0;
    s_seterr (err, errlen, dir, "fsync dir", errno);
    return -1;
}

//  Create path (O_EXCL), journaled. The fd, or -1 + errno (EEXIST: taken).
static int
s_create (const char *path)
{
    if (s_op ("create", path) != 0)
        return -1;
    int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0)
        s_journal_create (fd, path);
    return fd;
}

//  Write data into the new file open on fd, fsync it when sync, close it.
//  On failure the file is removed. 0 or -1 + err.
static int
s_fill (int fd, const char *path, const void *data, size_t len, bool sync, char *err, size_t errlen)
{
    if (s_write_all (fd, path, data, len) != 0) {
        s_seterr (err, errlen, path, "write", errno);
        goto fail;
    }
    if (sync && s_fsync (fd, path, false) != 0) {
        s_seterr (err, errlen, path, "fsync", errno);
        goto fail;
    }
    if (close (fd) != 0) {
        fd = -1;
        s_seterr (err, errlen, path, "close", errno);
        goto fail;
    }
    return 0;
fail:
    if (fd >= 0)
        close (fd);
    s_unlink (path);
    return -1;
}

//  Write data into a fresh temp file next to path (fsynced when sync).
//  Fills tmp. With a tag the name is "<dir>/.<name>.tmp-<tag>-<pid>-<n>".
static int
s_write_temp (const char *path, const char *tag, const void *data, size_t len, bool sync, char *tmp,
              size_t tmplen, char *err, size_t errlen)
{
    static unsigned counter = 0;
    int fd = -1;
    //  O_EXCL: a leftover temp file of a crashed process with our pid is
    //  never reused; we just take the next counter value.
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        const char *slash = strrchr (path, '/');
        int dirlen = slash ? (int) (slash - path + 1) : 0;
        const char *name = path + dirlen;
        int n =
            tag ? snprintf (tmp, tmplen, "%.*s.%s.tmp-%s-%ld-%u", dirlen, path, name, tag,
                            (long) getpid (), __atomic_fetch_add (&counter, 1, __ATOMIC_RELAXED))
                : snprintf (tmp, tmplen, "%.*s.%s.tmp-%ld-%u", dirlen, path, name, (long) getpid (),
                            __atomic_fetch_add (&counter, 1, __ATOMIC_RELAXED));
        if (n >= (int) tmplen) {
            s_seterr (err, errlen, path, "path too long", ENAMETOOLONG);
            return -1;
        }
        fd = s_create (tmp);
        if (fd < 0 && errno != EEXIST) {
            s_seterr (err, errlen, tmp, "create", errno);
            return -1;
        }
    }
    if (fd < 0) {
        s_seterr (err, errlen, tmp, "create", EEXIST);
        return -1;
    }
    return s_fill (fd, tmp, data, len, sync, err, errlen);
}

int
zs_fs_write_atomic (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return zs_fs_write_atomic_tagged (path, NULL, data, len, err, errlen);
}

//  Give the fsynced temp file tmp the name path: by rename(2), replacing
//  what path was, or by link(2), which fails with EEXIST instead, so that
//  exactly one of any number of racing creators wins, its content
//  complete because it was fsynced before it got its name. Past the fail
//  point fs.rename or fs.link and the disk-fault layer; journaled. 0, or
//  the errno (tmp is the caller's to remove).
static int
s_name_temp (const char *tmp, const char *path, bool replace)
{
    const char *op = replace ? "rename" : "link";
    if (zs_failpoint (replace ? "fs.rename" : "fs.link") == -1)
        return EIO;
    char shadow[ZS_PATH_MAX + 64];
    if (s_op (op, path) != 0 || (replace && s_shadow (path, shadow, sizeof shadow) != 0)
        || (replace ? rename (tmp, path) : link (tmp, path)) != 0)
        return errno;
    s_journal_named (replace ? 'R' : 'L', tmp, path, replace ? shadow : NULL);
    return 0;
}

//  Replace path by a temp file of data (fsynced when sync) renamed over it.
//  0 or -1 + err.
static int
s_replace (const char *path, const char *tag, const void *data, size_t len, bool sync, char *err,
           size_t errlen)
{
    char tmp[ZS_PATH_MAX + 64];
    if (s_write_temp (path, tag, data, len, sync, tmp, sizeof tmp, err, errlen) != 0)
        return -1;
    int e = s_name_temp (tmp, path, true);
    if (e) {
        s_seterr (err, errlen, path, "rename", e);
        s_unlink (tmp);
        return -1;
    }
    return 0;
}

int
zs_fs_write_atomic_tagged (const char *path, const char *tag, const void *data, size_t len,
                           char *err, size_t errlen)
{
    if (s_replace (path, tag, data, len, true, err, errlen) != 0)
        return -1;
    return s_fsync_parent (path, err, errlen);
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
    if (s_write_temp (path, tag, data, len, true, tmp, sizeof tmp, err, errlen) != 0)
        return -1;
    int e = s_name_temp (tmp, path, false);
    s_unlink (tmp);
    if (e == EEXIST)
        return ZS_ECONFLICT;
    if (e) {
        s_seterr (err, errlen, path, "link", e);
        return -1;
    }
    //  The name is taken and visible now: a caller must not clean up as if
    //  nothing happened, only a crash may still take the name away.
    return s_fsync_parent (path, err, errlen) == 0 ? 0 : ZS_EUNSURE;
}

int
zs_fs_write_new (const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    int fd = s_create (path);
    if (fd < 0) {
        if (errno == EEXIST)
            return ZS_ECONFLICT;
        s_seterr (err, errlen, path, "create", errno);
        return -1;
    }
    return s_fill (fd, path, data, len, false, err, errlen);
}

int
zs_fs_sync_files (char (*paths)[128], size_t n, const char *dir, char *err, size_t errlen)
{
    int fds[64];
    if (n > sizeof fds / sizeof fds[0]) {
        snprintf (err, errlen, "%s: %zu files to fsync at once, at most 64", dir, n);
        return -1;
    }
    char path[ZS_PATH_MAX];
    int rc = 0;
    size_t opened = 0;
    for (; opened < n; opened++) {
        snprintf (path, sizeof path, "%s/%s", dir, paths[opened]);
        fds[opened] = open (path, O_RDONLY | O_CLOEXEC);
        if (fds[opened] < 0) {
            s_seterr (err, errlen, path, "open", errno);
            rc = -1;
            break;
        }
        //  write-back of every file starts now, so that the fsyncs below
        //  mostly wait for one journal commit rather than one each
        sync_file_range (fds[opened], 0, 0, SYNC_FILE_RANGE_WRITE);
    }
    for (size_t i = 0; rc == 0 && i < opened; i++) {
        snprintf (path, sizeof path, "%s/%s", dir, paths[i]);
        if (s_fsync (fds[i], path, false) != 0) {
            s_seterr (err, errlen, path, "fsync", errno);
            rc = -1;
        }
    }
    for (size_t i = 0; i < opened; i++)
        close (fds[i]);
    return rc;
}

int
zs_fs_write_hint (const char *path, const char *tag, const void *data, size_t len, char *err,
                  size_t errlen)
{
    return s_replace (path, tag, data, len, false, err, errlen);
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
zs_fs_remove (const char *path)
{
    return s_unlink (path);
}

int
zs_fs_unlink (const char *path)
{
    //  Idempotent, so clean-up paths can be re-run after a crash.
    if (s_unlink (path) != 0 && errno != ENOENT)
        return -1;
    return 0;
}

//  --------------------------------------------------------------------------
//  Streaming writer

struct _zs_fs_file_t {
    int fd;
    char *buf;
    size_t used;
    size_t cap;     //  of buf: grows to S_FILE_BUFSIZE as the file does
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
    //  The buffer (1 MiB: a few large write(2)s instead of one per row is
    //  most of what makes ~1M rows/s possible) comes with the first write.
    //  O_EXCL: a data file is never overwritten; a name clash is a bug in
    //  the caller's naming and must be loud, not a silent loss of rows.
    self->fd = -1;
    if (s_op ("create", path) == 0)
        self->fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (self->fd < 0) {
        s_seterr (err, errlen, path, "create", errno);
        free (self);
        return NULL;
    }
    s_journal_create (self->fd, path);
    return self;
}

static int
s_file_flush (zs_fs_file_t *self, char *err, size_t errlen)
{
    if (self->used == 0)
        return 0;
    if (s_write_all (self->fd, self->path, self->buf, self->used) != 0) {
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
            if (s_write_all (self->fd, self->path, data, len) != 0) {
                s_seterr (err, errlen, self->path, "write", errno);
                return -1;
            }
            self->offset += (int64_t) len;
            return 0;
        }
    }
    if (self->used + len > self->cap) {
        //  A small file (a partition's in a checkpoint) never holds a
        //  whole MiB: the buffer doubles up to it as the file grows
        size_t cap = self->cap ? self->cap * 2 : 16384;
        while (cap < self->used + len)
            cap *= 2;
        cap = cap < S_FILE_BUFSIZE ? cap : S_FILE_BUFSIZE;
        char *buf = realloc (self->buf, cap);
        if (!buf) {
            s_seterr (err, errlen, self->path, "write", ENOMEM);
            return -1;
        }
        self->buf = buf;
        self->cap = cap;
    }
    memcpy (self->buf + self->used, data, len);
    self->used += len;
    self->offset += (int64_t) len;
    return 0;
}

int
zs_fs_file_release (zs_fs_file_t *self, char *err, size_t errlen)
{
    if (s_file_flush (self, err, errlen) != 0)
        return -1;
    free (self->buf);
    self->buf = NULL;
    self->cap = 0;
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
    if (rc == 0 && s_fsync (self->fd, self->path, false) != 0) {
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
        if (s_fsync_parent (self->path, err, errlen) != 0)
            rc = -1;
    }
    s_file_free (self_p);
    return rc;
}

void
zs_fs_file_abort (zs_fs_file_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    s_unlink ((*self_p)->path);
    s_file_free (self_p);
}

//  name is prefix + N, N spelled as zs_fs_list_numbered says.
static bool
s_numbered (const char *name, const char *prefix, size_t plen, int64_t *n)
{
    if (strncmp (name, prefix, plen) != 0)
        return false;
    const char *d = name + plen;
    size_t len = strlen (d);
    if (len < 1 || len > 18 || (d[0] == '0' && len > 1))
        return false;
    for (const char *c = d; *c; c++)
        if (*c < '0' || *c > '9')
            return false;
    *n = strtoll (d, NULL, 10);
    return true;
}

static int
s_cmp_i64 (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return x < y ? -1 : x > y;
}

int
zs_fs_list_numbered (const char *dir, const char *prefix, int64_t **ids_p, size_t *n_p, char *err,
                     size_t errlen)
{
    *ids_p = NULL;
    *n_p = 0;
    DIR *d = opendir (dir);
    if (!d) {
        int e = errno;
        s_seterr (err, errlen, dir, "list", e);
        return e == ENOENT ? ZS_ENOENT : -1;
    }
    int64_t *ids = NULL;
    size_t n = 0, cap = 0, plen = strlen (prefix); //  cap in bytes, as zs_grow counts
    struct dirent *de;
    while ((de = readdir (d))) {
        int64_t id;
        if (!s_numbered (de->d_name, prefix, plen, &id))
            continue;
        int64_t *grown = zs_grow (ids, &cap, n * sizeof *ids, sizeof *ids, 64 * sizeof *ids);
        if (!grown) {
            free (ids);
            closedir (d);
            s_seterr (err, errlen, dir, "list", ENOMEM);
            return -1;
        }
        ids = grown;
        ids[n++] = id;
    }
    closedir (d);
    if (n)
        qsort (ids, n, sizeof *ids, s_cmp_i64);
    *ids_p = ids;
    *n_p = n;
    return 0;
}

int
zs_fs_lock (const char *path, const char *who, int *fd_p, char *holder, size_t holderlen, char *err,
            size_t errlen)
{
    *fd_p = -1;
    if (holderlen)
        holder[0] = 0;
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
            ssize_t n = holderlen > 1 ? pread (fd, holder, holderlen - 1, 0) : 0;
            if (n > 0) {
                holder[n] = 0;
                holder[strcspn (holder, "\n")] = 0;
            }
            close (fd);
            snprintf (err, errlen, "lock %s is held", path);
            return ZS_ECONFLICT;
        }
        close (fd);
        snprintf (err, errlen, "cannot lock %s: %s", path, strerror (saved));
        return ZS_ERR;
    }
    //  Ours now: say who holds it, for the message a second one prints.
    size_t len = strlen (who);
    if (ftruncate (fd, 0) < 0 || pwrite (fd, who, len, 0) != (ssize_t) len) {
        snprintf (err, errlen, "cannot write %s: %s", path, strerror (errno));
        close (fd);
        return ZS_ERR;
    }
    *fd_p = fd;
    return 0;
}
