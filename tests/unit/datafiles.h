/*  datafiles.h - for unit tests: write a real data file of datagen rows
    (ids first … first+rows-1, the default schema) into a table directory.
    Header-only; fails the calling cmocka test on any error.
*/
#ifndef ZS_TEST_DATAFILES_H_INCLUDED
#define ZS_TEST_DATAFILES_H_INCLUDED

#include "datafile.h"
#include "datagen.h"
#include "io.h"
#include "partition.h"
#include <stdio.h>
#include <string.h>

static inline zs_file_meta_t
test_write_datafile (const char *table, const char *rel, int64_t first, int64_t rows)
{
    char err[ZS_ERRLEN];
    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    zs_datafile_writer_t *w = zs_datafile_writer_new (table, rel, &schema, &opts, err, sizeof err);
    if (!w)
        fail_msg ("datafile %s: %s", rel, err);
    static zs_datagen_buf_t buf;
    zs_value_t row[ZS_MAX_COLUMNS];
    for (int64_t i = 0; i < rows; i++) {
        zs_datagen_row (&schema, first + i, row, &buf);
        if (zs_datafile_writer_append (w, row, err, sizeof err) != 0)
            fail_msg ("append: %s", err);
    }
    zs_file_meta_t meta;
    if (zs_datafile_writer_close (&w, &meta, err, sizeof err) != 0)
        fail_msg ("close: %s", err);
    return meta;
}

//  The same in the partition of one STRING key (value NULL: the default
//  one): in its directory, named <dir>/bucket-0/data-<tag>-<seq>.parquet,
//  with the partition's BinaryRow in the meta.
static inline zs_file_meta_t
test_write_partition_file (const char *table, const zs_partition_t *part, const char *value,
                           const char *tag, int seq, int64_t first, int64_t rows)
{
    char err[ZS_ERRLEN], pdir[ZS_PARTITION_DIR_MAX], rel[256], full[512];
    zs_value_t v = {.null = value == NULL};
    if (value) {
        v.v.bin.ptr = (const uint8_t *) value;
        v.v.bin.len = (uint32_t) strlen (value);
    }
    if (zs_partition_dir (part, &v, pdir, sizeof pdir, err, sizeof err) <= 0)
        fail_msg ("partition directory: %s", err);
    snprintf (full, sizeof full, "%s/%s/bucket-0", table, pdir);
    if (zs_io_mkdirs (full) != 0)
        fail_msg ("mkdirs %s", full);
    snprintf (rel, sizeof rel, "%s/bucket-0/data-%s-%d.parquet", pdir, tag, seq);
    zs_file_meta_t f = test_write_datafile (table, rel, first, rows);
    int len = zs_partition_row (part, &v, f.partition, sizeof f.partition, err, sizeof err);
    if (len <= 0)
        fail_msg ("partition row: %s", err);
    f.partition_len = (uint16_t) len;
    return f;
}

#endif
