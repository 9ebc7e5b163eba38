/*  rows.c - the job's rows as its progress counts them (progress.h): the
    rows in a checkpoint, and the rows its bounded input holds, for the
    percent and the ETA.

    The input's size is known for datagen.number-of-rows; for a bounded
    Kafka source once every partition's stopping offset is known (the rows
    in the latest checkpoint plus those before each stop); for the file
    source from the files' sizes, the rows in the latest checkpoint scaled
    by the bytes read of them (an estimate: rows are not all the same
    size). Otherwise it is unknown (-1): an unbounded job has rows/s only.
*/
#include "coord.h"
#include "io.h"
#include <string.h>

int64_t
zs_coord_chk_rows (const zs_chk_t *chk)
{
    int64_t rows = 0;
    if (chk->legacy || !chk->n_splits) {
        for (int i = 0; chk->positions && i < chk->parallelism; i++)
            rows += chk->positions[i].offset;
        return rows;
    }
    for (size_t i = 0; i < chk->n_splits; i++)
        rows += chk->splits[i]->has_rows ? chk->splits[i]->rows : 0;
    return rows;
}

//  Kafka: the records left before each partition's stop; -1 when a
//  partition has none (unbounded) or its start is not known yet.
static int64_t
s_kafka_left (zs_splits_t *splits)
{
    size_t n;
    Zsink__Split *const *all = zs_splits_all (splits, &n);
    int64_t left = 0;
    for (size_t i = 0; i < n; i++) {
        const Zsink__Split *sp = all[i];
        if (sp->finished)
            continue;
        if (!sp->has_stop || sp->stop < 0 || sp->offset < 0)
            return -1;
        left += sp->stop > sp->offset ? sp->stop - sp->offset : 0;
    }
    return n ? left : -1;
}

//  The file source: the input's bytes and those read as of the latest
//  checkpoint. false when not known (no split yet, a file gone).
static bool
s_file_bytes (coord_t *self, int64_t *total, int64_t *done)
{
    size_t n;
    Zsink__Split *const *all = zs_splits_all (self->splits, &n);
    zs_io_stat_t st;
    const char *path = self->cfg.source_file_path;
    bool one_file = zs_io_stat (path, &st) == 0 && st.regular;
    *total = *done = 0;
    for (size_t i = 0; i < n; i++) {
        const Zsink__Split *sp = all[i];
        char file[2 * ZS_PATH_MAX];
        snprintf (file, sizeof file, "%s/%s", path, sp->id + strlen ("file:"));
        if (!one_file && zs_io_stat (file, &st) != 0)
            return false;
        *total += sp->finished ? sp->offset : st.size;
        *done += sp->offset;
    }
    return n > 0 && *done > 0;
}

int64_t
zs_coord_input_rows (coord_t *self)
{
    const char *kind = self->cfg.source_kind;
    int64_t at_latest = self->latest.id ? zs_coord_chk_rows (&self->latest) : 0;
    if (strcmp (kind, "datagen") == 0)
        return self->cfg.datagen_number_of_rows;
    if (strcmp (kind, "kafka") == 0) {
        int64_t left = s_kafka_left (self->splits);
        return left < 0 ? -1 : at_latest + left;
    }
    int64_t total, done;
    if (strcmp (kind, "file") == 0 && s_file_bytes (self, &total, &done))
        return (int64_t) ((double) at_latest * (double) total / (double) done + 0.5);
    return -1;
}

json_t *
zs_coord_progress_json (const zs_progress_view_t *v)
{
    return json_pack ("{s:I, s:I, s:f, s:f, s:I, s:I}", "rows_committed", (json_int_t) v->job_rows,
                      "input_rows", (json_int_t) v->total_rows, "rows_per_second", v->rate,
                      "percent", v->percent, "eta_ms", (json_int_t) v->eta_ms, "running_ms",
                      (json_int_t) v->running_ms);
}
