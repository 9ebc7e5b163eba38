/*  fs.h - the one file-I/O layer. Every durable write in zsink goes through
    here so that tests can make it fail (see failpoint.h: "fs.*" points) and
    so the rules live in one place:

    1. A file becomes visible complete or not at all: write a temp file in
       the same directory, fsync it, rename (or link for create-if-absent),
       fsync the directory.
    2. create-if-absent never overwrites: link(2) of the fsynced temp file
       to the final name; EEXIST means somebody else won.
    3. Two exceptions, each for files a crash may damage safely
       (docs/decisions.md, "What is fsynced, and why"): files nothing reads
       before something published later names them are written in place,
       their directory fsynced once for all (zs_fs_write_new); hints that
       readers may find empty are not fsynced at all (zs_fs_write_hint).
*/
#ifndef ZS_FS_H_INCLUDED
#define ZS_FS_H_INCLUDED

#include "zs.h"
#include <sys/types.h>

//  mkdir -p. 0 or -1 (errno kept).
int zs_fs_mkdirs (const char *path);

//  Is errno e one that no retry and no restart changes: no permission, a
//  read-only file system, a file where a directory must be?
bool zs_fs_errno_permanent (int e);

//  Did the failure reported since zs_fs_clear_failure (by an operation of
//  this module, on this thread; or errno now) have a permanent cause?
void zs_fs_clear_failure (void);
bool zs_fs_failed_for_good (void);
//  Report a failure of a call made outside this module (errno e), so that
//  zs_fs_failed_for_good sees its cause too.
void zs_fs_note_failure (int e);

//  Can files be created in path, or, while it does not exist, in its
//  nearest existing ancestor (where it would be made)? A probe file is
//  created and removed; nothing else is written. 0, or -1 with errno kept
//  and err naming the directory and the cause.
int zs_fs_probe_dir (const char *path, char *err, size_t errlen);

//  fsync a directory. 0 or -1.
int zs_fs_fsync_dir (const char *dir);

//  Write data to path atomically (temp + fsync + rename + fsync dir),
//  replacing any existing file. 0 or -1, err filled.
int zs_fs_write_atomic (const char *path, const void *data, size_t len, char *err, size_t errlen);

//  The same, with the temp file named "<dir>/.<name>.tmp-<tag>-<pid>-<n>", so the
//  writer's successor can recognise a leftover of a crash as its own.
int zs_fs_write_atomic_tagged (const char *path, const char *tag, const void *data, size_t len,
                               char *err, size_t errlen);

//  Create path with data only if it does not exist (temp + fsync + link +
//  fsync dir). 0 on success, ZS_ECONFLICT if the name is taken, ZS_EUNSURE
//  if the file was created but the directory fsync failed (it is there,
//  and may or may not survive a crash), -1 on other errors (err filled).
int zs_fs_create_exclusive (const char *path, const void *data, size_t len, char *err,
                            size_t errlen);

//  The same, with the temp file named "<dir>/.<name>.tmp-<tag>-<pid>-<n>": a
//  process killed between writing the temp file and linking it leaves a
//  file its successor can recognise as its own and remove.
int zs_fs_create_exclusive_tagged (const char *path, const char *tag, const void *data, size_t len,
                                   char *err, size_t errlen);

//  A new file that nothing reads until something published after it names
//  it (a manifest, before the snapshot that lists it): created at its final
//  name (O_EXCL; ZS_ECONFLICT when taken) and written, NOT fsynced, nor its
//  directory. The caller fsyncs the files it wrote so, all together
//  (zs_fs_sync_files), and then the directory once
//  (zs_fs_fsync_dir), before it publishes what names them. The name may
//  show partial content until then, which is why only unnamed-yet files
//  may be written so. A failure removes the file. 0, ZS_ECONFLICT, or -1 +
//  err.
int zs_fs_write_new (const char *path, const void *data, size_t len, char *err, size_t errlen);

//  fsync the n files dir/paths[i] (at most 64): their write-back is started
//  for all first, then each is fsynced, so that one journal commit serves
//  most of them. 0 or -1 + err.
int zs_fs_sync_files (char (*paths)[128], size_t n, const char *dir, char *err, size_t errlen);

//  A hint that every reader treats as absent when it is missing, stale or
//  empty (Paimon's snapshot/LATEST): replaced atomically (temp file named
//  as zs_fs_write_atomic_tagged names it, then rename) with NOTHING
//  fsynced. After a crash it may be the previous hint, or empty; readers
//  then list the directory. 0 or -1 + err.
int zs_fs_write_hint (const char *path, const char *tag, const void *data, size_t len, char *err,
                      size_t errlen);

//  Read a whole file (NUL-terminated for convenience; *len_p excludes the
//  NUL). Refuses files larger than max_size. Returns a malloc'd buffer or
//  NULL with err filled (ZS_ENOENT-style cause: errno is kept).
char *zs_fs_read_file (const char *path, size_t max_size, size_t *len_p, char *err, size_t errlen);

//  Size of a file, or -1 (errno kept).
int64_t zs_fs_file_size (const char *path);

//  Remove a file; missing is not an error. 0 or -1.
int zs_fs_unlink (const char *path);

//  Remove a file, saying whether it was there: 0 removed, -1 with errno
//  (ENOENT: it was not).
int zs_fs_remove (const char *path);

//  The numbers N of dir's entries named prefix + N ("snapshot-7", "chk-12"),
//  ascending, in *ids_p (malloc'd; NULL when there are none). N is decimal,
//  one spelling per number (no sign, no leading zero but in "0") and at
//  most 18 digits; other names are not ours and are passed over. 0;
//  ZS_ENOENT when dir does not exist; -1; both with err.
int zs_fs_list_numbered (const char *dir, const char *prefix, int64_t **ids_p, size_t *n_p,
                         char *err, size_t errlen);

//  Take an exclusive flock(2) on path (created if need be) without
//  waiting, and write who into the file. 0 with *fd_p set (keep it open to
//  keep the lock; close-on-exec; the kernel drops it when the holder dies,
//  kill -9 included); ZS_ECONFLICT when another open file holds it (holder
//  gets the holder's first line of who); -1 + err on other errors.
int zs_fs_lock (const char *path, const char *who, int *fd_p, char *holder, size_t holderlen,
                char *err, size_t errlen);

//  Streaming writer for data files: buffered write, then flush + fsync +
//  close + fsync dir on close. All calls return 0 or -1 with err filled.
typedef struct _zs_fs_file_t zs_fs_file_t;
zs_fs_file_t *zs_fs_file_create (const char *path, char *err, size_t errlen);
int zs_fs_file_write (zs_fs_file_t *self, const void *data, size_t len, char *err, size_t errlen);
int64_t zs_fs_file_offset (zs_fs_file_t *self);
//  Hand what is buffered to the kernel (not durable: close is) and free
//  the buffer until the next write: a writer holding many files open.
int zs_fs_file_release (zs_fs_file_t *self, char *err, size_t errlen);
int zs_fs_file_close (zs_fs_file_t **self_p, char *err, size_t errlen); //  durable
void zs_fs_file_abort (zs_fs_file_t **self_p);                          //  close + unlink

//  --------------------------------------------------------------------------
//  Disk faults, for tests (docs/reliability.md, "Disk faults").
//
//  Operations that change the disk (create, write, fsync, rename, link,
//  unlink, mkdir) are counted. fault "enospc:K" / "eio:K" makes the K-th
//  fail with that errno ("…:K+": the K-th and every later one, a disk that
//  stays full); "crash:K" ends the process (_exit 137) just before it. With
//  a journal path every operation is appended there, for
//  zs_fs_lose_unsynced (tests/tools/fsloss.h). skip_fsync makes fsync a no-op: the negative
//  control of the lost-fsync tests. 0 or -1 + err (bad spec).
int zs_fs_faults_set (const char *fault, const char *journal, bool skip_fsync, char *err,
                      size_t errlen);
//  The same from ZSINK_FS_FAULT, ZSINK_FS_JOURNAL and ZSINK_TEST_SKIP_FSYNC
//  (every role calls it at start; all unset = off).
int zs_fs_faults_init (char *err, size_t errlen);
//  Operations counted since the last zs_fs_faults_set/init.
int64_t zs_fs_ops (void);

#endif
