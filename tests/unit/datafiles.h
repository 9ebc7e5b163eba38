/*  datafiles.h - for unit tests: write a real data file of datagen rows
    (ids first … first+rows-1, the default schema) into a table directory.
    Header-only; fails the calling cmocka test on any error.
*/
#ifndef ZS_TEST_DATAFILES_H_INCLUDED
#define ZS_TEST_DATAFILES_H_INCLUDED

#include "datafile.h"
#include "datagen.h"

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

#endif
