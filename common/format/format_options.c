/*  format_options.c - see format_options.h. */
#include "format_options.h"
#include <stddef.h>
#include <string.h>

#define S_OFF(field) offsetof (zs_format_opts_t, field)
#define S_TEXT(field) S_OFF (field), sizeof (((zs_format_opts_t *) 0)->field)

static const char *const s_file_formats[] = {"parquet", NULL};
static const char *const s_compressions[] = {"zstd", "none", NULL};
static const char *const s_encodings[] = {"delta", "plain", NULL};

const zs_opt_t zs_format_options[] = {
    {"file.format", ZS_OPT_ENUM, S_TEXT (file_format), 0, 0, false, s_file_formats, "parquet",
     "format of the data files", 0, NULL, NULL},
    {"file.compression", ZS_OPT_ENUM, S_TEXT (file_compression), 0, 0, false, s_compressions,
     "zstd", "compression of the data files' pages", 0, NULL, NULL},
    {"file.compression.zstd-level", ZS_OPT_INT, S_OFF (zstd_level), 0, 1, 19, false, NULL, "1",
     "zstd level of the data files (higher: smaller, slower)", 0, NULL, NULL},
    {"parquet.row-group-rows", ZS_OPT_I64, S_OFF (parquet_row_group_rows), 0, 1, 64 * 1024 * 1024,
     false, NULL, "131072", "rows of a Parquet row group (one ends earlier at about 128 MiB)", 0,
     NULL, NULL},
    {"parquet.page.size", ZS_OPT_SIZE, S_OFF (parquet_page_size), 0, ZS_PARQUET_PAGE_MIN,
     ZS_PARQUET_PAGE_MAX, false, NULL, "256kb",
     "a Parquet data page's target size, uncompressed (Paimon's 1mb: docs/decisions.md)", 0, NULL,
     NULL},
    {"parquet.writer.encoding", ZS_OPT_ENUM, S_TEXT (parquet_writer_encoding), 0, 0, false,
     s_encodings, "delta",
     "INT32/INT64 values: delta (DELTA_BINARY_PACKED, as parquet.writer.version v2 writes them) "
     "or plain (PLAIN, as v1)",
     0, NULL, NULL},
    ZS_OPT_END,
};

void
zs_format_parquet_options (const zs_format_opts_t *self, zs_parquet_options_t *opts)
{
    zs_parquet_options_defaults (opts);
    opts->row_group_rows = self->parquet_row_group_rows;
    opts->compression =
        strcmp (self->file_compression, "none") == 0 ? ZS_COMPRESSION_NONE : ZS_COMPRESSION_ZSTD;
    opts->zstd_level = self->zstd_level;
    opts->page_bytes = self->parquet_page_size;
    opts->delta = strcmp (self->parquet_writer_encoding, "plain") != 0;
}
