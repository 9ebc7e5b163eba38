/*  format_options.h - the data files' options (file.*, parquet.*),
    declared once: the struct a job's configuration embeds, and the table
    (opts.h) that parses, prints and lists them.
*/
#ifndef ZS_FORMAT_OPTIONS_H_INCLUDED
#define ZS_FORMAT_OPTIONS_H_INCLUDED

#include "opts.h"
#include "parquet.h"

#define ZS_FORMAT_NAME_MAX 24 //  bytes of an enumerated value, with NUL

typedef struct {
    char file_format[ZS_FORMAT_NAME_MAX];             //  file.format: parquet
    char file_compression[ZS_FORMAT_NAME_MAX];        //  file.compression: zstd (default) or none
    int zstd_level;                                   //  file.compression.zstd-level (1)
    int64_t parquet_row_group_rows;                   //  parquet.row-group-rows (131072)
    int64_t parquet_page_size;                        //  parquet.page.size (256 KiB)
    char parquet_writer_encoding[ZS_FORMAT_NAME_MAX]; //  parquet.writer.encoding: delta or plain
} zs_format_opts_t;

extern const zs_opt_t zs_format_options[];

//  The Parquet writer's options from these.
void zs_format_parquet_options (const zs_format_opts_t *self, zs_parquet_options_t *opts);

#endif
