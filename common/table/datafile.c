/*  datafile.c - see datafile.h. */
#include "datafile.h"
#include "stats.h"
#include "rowfmt.h"
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

struct _zs_datafile_writer_t {
    zs_parquet_writer_t *parquet;
    zs_schema_t schema;
    int64_t rows;
    int64_t ids;            //  non-null ids seen
    int64_t min_id, max_id; //  of the id column, kept here: exact even when
                            //  the footer leaves min/max out
    char rel_path[256];
};

const char *
zs_datafile_extension (void)
{
    return "parquet";
}

zs_datafile_writer_t *
zs_datafile_writer_new (const char *table_path, const char *rel_path, const zs_schema_t *schema,
                        const zs_parquet_options_t *opts, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    if (snprintf (path, sizeof path, "%s/%s", table_path, rel_path) >= (int) sizeof path
        || strlen (rel_path) >= sizeof ((zs_file_meta_t *) 0)->path) {
        snprintf (err, errlen, "%s/%s: path too long", table_path, rel_path);
        return NULL;
    }
    zs_datafile_writer_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    self->schema = *schema;
    snprintf (self->rel_path, sizeof self->rel_path, "%s", rel_path);
    self->parquet = zs_parquet_writer_new (path, schema, opts, err, errlen);
    if (!self->parquet) {
        free (self);
        return NULL;
    }
    return self;
}

int
zs_datafile_writer_append (zs_datafile_writer_t *self, const zs_value_t *row, char *err,
                           size_t errlen)
{
    if (zs_parquet_writer_append (self->parquet, row, err, errlen) != 0)
        return -1;
    int id = self->schema.id_col;
    if (id >= 0 && !row[id].null) {
        int64_t v = row[id].v.i64;
        if (self->ids == 0 || v < self->min_id)
            self->min_id = v;
        if (self->ids == 0 || v > self->max_id)
            self->max_id = v;
        self->ids++;
    }
    self->rows++;
    return 0;
}

int64_t
zs_datafile_writer_rows (zs_datafile_writer_t *self)
{
    return self->rows;
}

int64_t
zs_datafile_writer_bytes (zs_datafile_writer_t *self)
{
    return zs_parquet_writer_bytes (self->parquet);
}

int64_t
zs_datafile_writer_buffered (zs_datafile_writer_t *self)
{
    return zs_parquet_writer_buffered (self->parquet);
}

int
zs_datafile_writer_flush (zs_datafile_writer_t *self, char *err, size_t errlen)
{
    return zs_parquet_writer_flush (self->parquet, err, errlen);
}

//  Now on the local wall clock, as epoch milliseconds: what Paimon records
//  as a file's creation time (Timestamp.fromLocalDateTime (now)).
static int64_t
s_local_now_ms (void)
{
    int64_t ms = zs_clock_wall_ms ();
    time_t secs = (time_t) (ms / 1000);
    struct tm tm;
    localtime_r (&secs, &tm);
    return ms + (int64_t) tm.tm_gmtoff * 1000;
}

int
zs_datafile_writer_close (zs_datafile_writer_t **self_p, zs_file_meta_t *meta, char *err,
                          size_t errlen)
{
    if (!self_p || !*self_p)
        return -1;
    zs_datafile_writer_t *self = *self_p;
    zs_column_stats_t *stats = calloc ((size_t) self->schema.n, sizeof *stats);
    int64_t size = 0;
    int rc = -1;
    if (!stats) {
        snprintf (err, errlen, "%s: out of memory", self->rel_path);
        zs_parquet_writer_abort (&self->parquet);
    } else
        rc = zs_parquet_writer_close (&self->parquet, &size, stats, err, errlen);
    if (rc == 0 && meta) {
        memset (meta, 0, sizeof *meta);
        snprintf (meta->path, sizeof meta->path, "%s", self->rel_path);
        meta->rows = self->rows;
        meta->size = size;
        meta->has_id = self->ids > 0;
        meta->min_id = meta->has_id ? self->min_id : 0;
        meta->max_id = meta->has_id ? self->max_id : 0;
        meta->creation_ms = s_local_now_ms ();
        //  Paimon's append writers number a file's rows from 0 (sequence
        //  numbers only order files of a key-value table)
        meta->min_seq = 0;
        meta->max_seq = self->rows > 0 ? self->rows - 1 : 0;
        meta->file_source = ZS_FILE_SOURCE_APPEND;
        meta->delete_rows = 0;
        zs_stats_from_columns (&meta->stats, &self->schema, stats, self->rows);
    }
    free (stats);
    free (self);
    *self_p = NULL;
    return rc;
}

void
zs_datafile_writer_abort (zs_datafile_writer_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_parquet_writer_abort (&(*self_p)->parquet);
    free (*self_p);
    *self_p = NULL;
}

void
zs_datafile_options (const zs_format_opts_t *format, zs_parquet_options_t *opts)
{
    zs_format_parquet_options (format, opts);
}
