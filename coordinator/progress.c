/*  progress.c - see progress.h. */
#include "progress.h"
#include <stdio.h>
#include <stdlib.h>

//  Recent commits the rate is taken over: at most S_SAMPLES, at most
//  S_WINDOW_MS old (but at least two when there are).
#define S_SAMPLES 32
#define S_WINDOW_MS 10000
//  Checkpoints whose rows are remembered, for commits that lag a few.
#define S_CHECKPOINTS 16

typedef struct {
    int64_t at, rows;
} s_sample_t;

struct _zs_progress_t {
    int64_t identifier, snapshot, table_rows, job_rows, total;
    int64_t running_since;
    s_sample_t chk[S_CHECKPOINTS]; //  (checkpoint id, rows), a ring
    int chk_next;
    s_sample_t samples[S_SAMPLES]; //  (mono ms, job rows) per commit, a ring
    int n_samples, next_sample;
};

zs_progress_t *
zs_progress_new (void)
{
    zs_progress_t *self = calloc (1, sizeof *self);
    if (self)
        self->total = -1;
    return self;
}

void
zs_progress_destroy (zs_progress_t **self_p)
{
    free (*self_p);
    *self_p = NULL;
}

static void
s_sample (zs_progress_t *self, int64_t now)
{
    self->samples[self->next_sample] = (s_sample_t){now, self->job_rows};
    self->next_sample = (self->next_sample + 1) % S_SAMPLES;
    if (self->n_samples < S_SAMPLES)
        self->n_samples++;
}

void
zs_progress_running (zs_progress_t *self, int64_t now)
{
    if (self->running_since)
        return;
    self->running_since = now;
    s_sample (self, now); //  the rate counts from here
}

void
zs_progress_checkpoint (zs_progress_t *self, int64_t id, int64_t rows)
{
    self->chk[self->chk_next] = (s_sample_t){id, rows};
    self->chk_next = (self->chk_next + 1) % S_CHECKPOINTS;
}

//  The rows of the newest checkpoint recorded at or before identifier
//  (-1: none).
static int64_t
s_rows_upto (zs_progress_t *self, int64_t identifier)
{
    int64_t best_id = 0, rows = -1;
    for (int i = 0; i < S_CHECKPOINTS; i++)
        if (self->chk[i].at && self->chk[i].at <= identifier && self->chk[i].at > best_id) {
            best_id = self->chk[i].at;
            rows = self->chk[i].rows;
        }
    return rows;
}

bool
zs_progress_committed (zs_progress_t *self, int64_t identifier, int64_t snapshot,
                       int64_t table_rows, int64_t end_rows, int64_t now)
{
    if (snapshot <= self->snapshot)
        return false;
    self->identifier = identifier;
    self->snapshot = snapshot;
    if (table_rows >= 0)
        self->table_rows = table_rows;
    int64_t rows = s_rows_upto (self, identifier);
    if (end_rows > rows)
        rows = end_rows;
    if (rows > self->job_rows) //  a compaction's commit adds none
        self->job_rows = rows;
    s_sample (self, now);
    return true;
}

void
zs_progress_table_rows (zs_progress_t *self, int64_t rows)
{
    self->table_rows = rows;
}

void
zs_progress_total (zs_progress_t *self, int64_t rows)
{
    self->total = rows;
}

//  Job rows per second over the recent commits: from the oldest sample in
//  the window (or the one just before it) to now.
static double
s_rate (zs_progress_t *self, int64_t now)
{
    if (self->n_samples == 0)
        return 0;
    int newest = (self->next_sample + S_SAMPLES - 1) % S_SAMPLES;
    int oldest = newest;
    for (int k = 1; k < self->n_samples; k++) {
        int i = (newest + S_SAMPLES - k) % S_SAMPLES;
        oldest = i;
        if (now - self->samples[i].at > S_WINDOW_MS)
            break;
    }
    int64_t dt = now - self->samples[oldest].at;
    int64_t dr = self->job_rows - self->samples[oldest].rows;
    return dt > 0 && dr > 0 ? (double) dr * 1000.0 / (double) dt : 0;
}

void
zs_progress_view (zs_progress_t *self, int64_t now, zs_progress_view_t *v)
{
    *v = (zs_progress_view_t){.identifier = self->identifier,
                              .snapshot = self->snapshot,
                              .table_rows = self->table_rows,
                              .job_rows = self->job_rows,
                              .total_rows = self->total,
                              .rate = s_rate (self, now),
                              .percent = -1,
                              .eta_ms = -1,
                              .running_ms = self->running_since ? now - self->running_since : 0};
    if (self->total > 0) {
        v->percent = 100.0 * (double) self->job_rows / (double) self->total;
        if (v->percent > 100)
            v->percent = 100;
        int64_t rest = self->total - self->job_rows;
        if (rest <= 0)
            v->eta_ms = 0;
        else if (v->rate > 0)
            v->eta_ms = (int64_t) ((double) rest * 1000.0 / v->rate);
    } else if (self->total == 0)
        v->percent = 100, v->eta_ms = 0;
}

const char *
zs_progress_num (int64_t n, char *buf, size_t len)
{
    char digits[32];
    int d = snprintf (digits, sizeof digits, "%lld", (long long) (n < 0 ? -n : n));
    size_t o = 0;
    if (n < 0 && o + 1 < len)
        buf[o++] = '-';
    for (int i = 0; i < d && o + 1 < len; i++) {
        if (i && (d - i) % 3 == 0 && o + 1 < len)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
    return buf;
}

const char *
zs_progress_text (const zs_progress_view_t *v, char *buf, size_t len)
{
    char rate[32];
    int n = snprintf (buf, len, "%s rows/s",
                      zs_progress_num ((int64_t) (v->rate + 0.5), rate, sizeof rate));
    if (v->percent >= 0 && n >= 0 && (size_t) n < len)
        n += snprintf (buf + n, len - n, ", %.1f%%", v->percent);
    if (v->eta_ms >= 0 && n >= 0 && (size_t) n < len)
        snprintf (buf + n, len - n, ", ETA %lld s", (long long) ((v->eta_ms + 999) / 1000));
    return buf;
}
