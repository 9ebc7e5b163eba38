/*  datafile.h - the data file format interface.

    A data file holds rows of the table. This format is "zrow", a
    small self-describing text format (see datafile.c); the Parquet issue
    adds Parquet behind the same interface.

    Rows of the built-in datagen schema:
        id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)
*/
#ifndef ZS_DATAFILE_H_INCLUDED
#define ZS_DATAFILE_H_INCLUDED

#include "zs.h"

typedef struct {
    int64_t id;
    char name[48];
    double price;
    int64_t ts_millis;
} zs_row_t;

//  What the manifest records of a data file.
typedef struct {
    char path[256]; //  relative to the table directory, e.g. "bucket-0/data-….zrow"
    int64_t rows;
    int64_t size;   //  bytes on disk after close
    int64_t min_id; //  meaningful when rows > 0
    int64_t max_id;
} zs_file_meta_t;

//  File name extension of the current format, without the dot ("zrow").
const char *zs_datafile_extension (void);

typedef struct _zs_datafile_writer_t zs_datafile_writer_t;

//  Create table_path/rel_path (the directory must exist). NULL + err.
zs_datafile_writer_t *zs_datafile_writer_new (const char *table_path, const char *rel_path,
                                              char *err, size_t errlen);
int zs_datafile_writer_append (zs_datafile_writer_t *self, const zs_row_t *row, char *err,
                               size_t errlen);
int64_t zs_datafile_writer_rows (zs_datafile_writer_t *self);
int64_t zs_datafile_writer_bytes (zs_datafile_writer_t *self);
//  Finish the file durably (flush, fsync, close, fsync dir) and fill meta.
int zs_datafile_writer_close (zs_datafile_writer_t **self_p, zs_file_meta_t *meta, char *err,
                              size_t errlen);
//  Close and delete the file (nothing durable happened).
void zs_datafile_writer_abort (zs_datafile_writer_t **self_p);

typedef struct _zs_datafile_reader_t zs_datafile_reader_t;
//  Open an existing data file by absolute (or cwd-relative) path.
zs_datafile_reader_t *zs_datafile_reader_open (const char *path, char *err, size_t errlen);
//  1 = a row read, 0 = end of file, -1 = corrupt/truncated (err names why).
int zs_datafile_reader_next (zs_datafile_reader_t *self, zs_row_t *row, char *err, size_t errlen);
void zs_datafile_reader_destroy (zs_datafile_reader_t **self_p);

//  Fill the derived columns of a row from its id (datagen: byte-identical
//  on replay).
void zs_row_from_id (zs_row_t *row, int64_t id);

#endif
