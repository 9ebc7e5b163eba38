/*  io_priv.h - what a backend of io.h provides: one table of functions per
    path scheme (io.c picks the table by the path). Not for callers of io.h.
*/
#ifndef ZS_IO_PRIV_H_INCLUDED
#define ZS_IO_PRIV_H_INCLUDED

#include "io.h"

typedef struct {
    const char *name; //  "local", "s3"
    int (*mkdirs) (const char *path);
    int (*fsync_dir) (const char *dir);
    int (*write_atomic) (const char *path, const char *tag, const void *data, size_t len, char *err,
                         size_t errlen);
    int (*create_exclusive) (const char *path, const char *tag, const void *data, size_t len,
                             char *err, size_t errlen);
    int (*write_new) (const char *path, const void *data, size_t len, char *err, size_t errlen);
    int (*sync_files) (char (*paths)[128], size_t n, const char *dir, char *err, size_t errlen);
    int (*write_hint) (const char *path, const char *tag, const void *data, size_t len, char *err,
                       size_t errlen);
    char *(*read_file) (const char *path, size_t max_size, size_t *len_p, char *err, size_t errlen);
    int64_t (*file_size) (const char *path);
    int (*unlink) (const char *path);
    int (*remove) (const char *path);
    int (*stat) (const char *path, zs_io_stat_t *st);
    int (*list) (const char *dir, zs_io_list_fn *fn, void *arg, char *err, size_t errlen);
    zs_io_file_t *(*file_create) (const char *path, char *err, size_t errlen);
    zs_io_reader_t *(*reader_open) (const char *path, char *err, size_t errlen);
} zs_io_ops_t;

extern const zs_io_ops_t zs_io_local_ops;
extern const zs_io_ops_t zs_io_s3_ops;

//  A stream and a reader carry their backend's functions, so that every
//  later call needs no path.
struct _zs_io_file_t {
    int (*write) (zs_io_file_t *self, const void *data, size_t len, char *err, size_t errlen);
    int (*release) (zs_io_file_t *self, char *err, size_t errlen); //  NULL: nothing to give
    int (*close) (zs_io_file_t *self, char *err, size_t errlen);   //  frees self
    void (*abort) (zs_io_file_t *self);                            //  frees self
    int64_t offset;                                                //  bytes accepted
};

struct _zs_io_reader_t {
    int (*pread) (zs_io_reader_t *self, void *buf, size_t len, int64_t offset, char *err,
                  size_t errlen);
    void (*close) (zs_io_reader_t *self); //  frees self
    int64_t size;
};

#endif
