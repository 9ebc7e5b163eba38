/*  io.h - file I/O by path, on a local file system or on S3-compatible
    object storage: the layer every table, checkpoint and data file goes
    through (docs/decisions.md, "Object storage").

    A path is either local ("/abs/dir/f", "rel/f", "file:///abs/f") or an
    object ("s3://bucket/key/f"). Each operation picks its backend from the
    path's scheme (a small table of functions per scheme, io.c) and keeps
    the contract written here on both; the local backend is base/fs.c, whose
    header says how each contract is kept with POSIX calls. On S3:

    - a PUT is atomic and durable when it answers 200, so write_atomic,
      write_new and write_hint are one PUT each, and the fsync calls
      (fsync_dir, sync_files) and mkdirs have nothing to do;
    - create_exclusive is a PUT with If-None-Match: *. 412 is ZS_ECONFLICT,
      unless an earlier attempt of the same PUT may have been stored (its
      answer was lost): then the object is read back and compared with
      what was written, byte for byte; equal means this PUT made it (0),
      different means somebody else's (ZS_ECONFLICT). Never both, never a
      guess: when the read-back fails the call fails (-1) and the caller
      treats it as it treats a failed fsync of a published file;
    - a directory is a key prefix ending in '/': listing is ListObjectsV2
      with delimiter '/'.

    Function names and contracts mirror fs.h one for one (zs_io_X is
    zs_fs_X on a local path); see fs.h for the details of each.
*/
#ifndef ZS_IO_H_INCLUDED
#define ZS_IO_H_INCLUDED

#include "io_options.h"
#include "s3.h"
#include "zs.h"

//  --------------------------------------------------------------------------
//  Paths and configuration

//  Is path an object-storage path (s3://)?
bool zs_io_is_remote (const char *path);

//  The S3 settings of this process: Paimon's keys ("s3.endpoint",
//  "s3.access-key", "s3.secret-key", "s3.path.style.access", "s3.region")
//  given by the caller, each falling back to the environment
//  (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION
//  or AWS_DEFAULT_REGION). A NULL value means unset. Call before the first
//  s3:// operation; 0 or -1 + err (a bad value, named by key).
typedef struct {
    const char *endpoint;
    const char *access_key;
    const char *secret_key;
    const char *path_style; //  "true" / "false"
    const char *region;
    const char *request_timeout; //  "s3.connection.request.timeout", a duration
} zs_io_s3_settings_t;
int zs_io_s3_setup (const zs_io_s3_settings_t *settings, char *err, size_t errlen);

//  The same from the s3.* options (io_options.h); when remote (the job's
//  table or checkpoints are on S3), also whether a client can be made
//  (credentials given): -1 + err if not.
int zs_io_setup (const zs_io_s3_opts_t *s3, bool remote, char *err, size_t errlen);

//  The client of this thread for s3:// paths (created on first use from the
//  settings). NULL + err when the settings are incomplete.
zs_s3_t *zs_io_s3_client (char *err, size_t errlen);

//  Multipart part size of S3 streams (default 8 MiB; at least 5 MiB, S3's
//  floor for every part but the last).
void zs_io_s3_set_part_size (int64_t bytes);

//  Abort the open multipart uploads to keys dir/NAME for which mine (NAME,
//  arg) is true (a writer's predecessor's data files: killed mid-upload,
//  they hold parts that no listing of files shows). Nothing to do for a
//  local dir. 0 with *n_p aborted, or -1 + err.
typedef bool (zs_io_name_fn) (const char *name, void *arg);
int zs_io_abort_uploads (const char *dir, zs_io_name_fn *mine, void *arg, int *n_p, char *err,
                         size_t errlen);

//  --------------------------------------------------------------------------
//  Operations (fs.h says what each does; the notes here are the S3 side)

int zs_io_mkdirs (const char *path);
int zs_io_fsync_dir (const char *dir);
int zs_io_write_atomic (const char *path, const void *data, size_t len, char *err, size_t errlen);
int zs_io_write_atomic_tagged (const char *path, const char *tag, const void *data, size_t len,
                               char *err, size_t errlen);
int zs_io_create_exclusive (const char *path, const void *data, size_t len, char *err,
                            size_t errlen);
int zs_io_create_exclusive_tagged (const char *path, const char *tag, const void *data, size_t len,
                                   char *err, size_t errlen);
int zs_io_write_new (const char *path, const void *data, size_t len, char *err, size_t errlen);
int zs_io_sync_files (char (*paths)[128], size_t n, const char *dir, char *err, size_t errlen);
int zs_io_write_hint (const char *path, const char *tag, const void *data, size_t len, char *err,
                      size_t errlen);
char *zs_io_read_file (const char *path, size_t max_size, size_t *len_p, char *err, size_t errlen);
//  Size, or -1 with errno ENOENT when absent (EIO when S3 did not answer).
int64_t zs_io_file_size (const char *path);
int zs_io_unlink (const char *path);

//  Remove a file, saying whether it was there: 0 removed, ZS_ENOENT it was
//  not, -1 with errno. (On S3 a HEAD first: a DELETE answers 204 either
//  way.) For callers that count what they removed or must tell "no such".
int zs_io_remove (const char *path);

//  What is at path, without following a symlink (lstat). On S3 every
//  object is a regular file. 0; ZS_ENOENT when nothing is there; -1 with
//  errno when it cannot be told (S3 did not answer).
typedef struct {
    bool regular;
    int64_t size;
    int64_t mtime_ms;
} zs_io_stat_t;
int zs_io_stat (const char *path, zs_io_stat_t *st);
int zs_io_list_numbered (const char *dir, const char *prefix, int64_t **ids_p, size_t *n_p,
                         char *err, size_t errlen);

//  Every regular file and directory directly in dir (not "." or "..", no
//  symlink, device or socket): fn (entry, arg) returns 0
//  to go on, anything else stops and is returned. On S3 a "directory" is a
//  common prefix (is_dir, size -1, mtime 0). 0, fn's value, ZS_ENOENT when
//  dir does not exist (on S3: never; an empty prefix lists nothing), or -1
//  + err.
typedef struct {
    const char *name; //  the last component
    bool is_dir;
    int64_t size;
    int64_t mtime_ms;
} zs_io_entry_t;
typedef int (zs_io_list_fn) (const zs_io_entry_t *entry, void *arg);
int zs_io_list (const char *dir, zs_io_list_fn *fn, void *arg, char *err, size_t errlen);

//  The same, collected: every entry of dir in a malloc'd array (names
//  copied), in no particular order. 0 (and *n_p 0 for an empty or, on S3,
//  absent dir), ZS_ENOENT (local dir absent), or -1 + err.
int zs_io_listing (const char *dir, zs_io_entry_t **entries_p, size_t *n_p, char *err,
                   size_t errlen);
void zs_io_listing_free (zs_io_entry_t **entries_p, size_t n);

//  --------------------------------------------------------------------------
//  Streams

//  A data file written as a stream: buffered; durable and visible on close
//  (local: fsync + fsync of its directory; S3: a single PUT, or a
//  multipart upload once more than part_size bytes were written, each
//  part sent as it fills, completed on close). abort removes the file, or
//  aborts the upload so no part lingers.
typedef struct _zs_io_file_t zs_io_file_t;
zs_io_file_t *zs_io_file_create (const char *path, char *err, size_t errlen);
int zs_io_file_write (zs_io_file_t *self, const void *data, size_t len, char *err, size_t errlen);
int64_t zs_io_file_offset (zs_io_file_t *self);
//  Give back the memory of what is buffered for the file where the backend
//  can (local: written to the kernel, not durable; S3: nothing, its parts
//  are uploaded at their size). 0 or -1 + err.
int zs_io_file_release (zs_io_file_t *self, char *err, size_t errlen);
int zs_io_file_close (zs_io_file_t **self_p, char *err, size_t errlen);
void zs_io_file_abort (zs_io_file_t **self_p);

//  A file read by ranges (local: pread; S3: ranged GETs). size is known at
//  open. 0 or -1 + err (a short read is an error naming the file).
typedef struct _zs_io_reader_t zs_io_reader_t;
zs_io_reader_t *zs_io_reader_open (const char *path, char *err, size_t errlen);
int64_t zs_io_reader_size (zs_io_reader_t *self);
int zs_io_reader_pread (zs_io_reader_t *self, void *buf, size_t len, int64_t offset, char *err,
                        size_t errlen);
void zs_io_reader_close (zs_io_reader_t **self_p);

#endif
