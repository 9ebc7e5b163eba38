/*  datafile.h - data files of a table: what the writers write and what
    `zsink table` reads. The format is Parquet (parquet.h); this module
    adds what the table needs around it: the path inside the table, and the
    file's meta for the manifest (rows, size, id range, column statistics).
*/
#ifndef ZS_DATAFILE_H_INCLUDED
#define ZS_DATAFILE_H_INCLUDED

#include "format_options.h"
#include "filemeta.h"
#include "parquet.h"
#include "rowtype.h"

//  The Parquet options of a job's data files (file.compression,
//  file.compression.zstd-level, parquet.row-group-rows: format_options.h).
void zs_datafile_options (const zs_format_opts_t *format, zs_parquet_options_t *opts);
//  File name extension of data files, without the dot ("parquet").
const char *zs_datafile_extension (void);

typedef struct _zs_datafile_writer_t zs_datafile_writer_t;

//  Create table_path/rel_path (the directory must exist). NULL + err.
zs_datafile_writer_t *zs_datafile_writer_new (const char *table_path, const char *rel_path,
                                              const zs_schema_t *schema,
                                              const zs_parquet_options_t *opts, char *err,
                                              size_t errlen);
//  Append one row (schema->n values, copied). 0 or -1 + err.
int zs_datafile_writer_append (zs_datafile_writer_t *self, const zs_value_t *row, char *err,
                               size_t errlen);
int64_t zs_datafile_writer_rows (zs_datafile_writer_t *self);
//  Estimated size of the file if closed now (for target-file-size).
int64_t zs_datafile_writer_bytes (zs_datafile_writer_t *self);
//  Bytes of rows buffered in memory, not yet in the file (estimate).
int64_t zs_datafile_writer_buffered (zs_datafile_writer_t *self);
//  Write the buffered rows out now and give back their memory (parquet.h:
//  zs_parquet_writer_flush). 0 or -1 + err.
int zs_datafile_writer_flush (zs_datafile_writer_t *self, char *err, size_t errlen);
//  Finish the file durably (footer, fsync, close, fsync dir) and fill meta.
int zs_datafile_writer_close (zs_datafile_writer_t **self_p, zs_file_meta_t *meta, char *err,
                              size_t errlen);
//  Close and delete the file (nothing durable happened).
void zs_datafile_writer_abort (zs_datafile_writer_t **self_p);

#endif
