/*  inflight.c - see inflight.h. */
#include "inflight.h"
#include <stdlib.h>
#include <string.h>

struct _zs_inflight_t {
    int64_t id; //  0: none in flight
    int64_t started;
    bool savepoint;
    Zsink__CommitterState *state; //  the committer's ack (NULL before it)
    zs_splits_t *acked;           //  the split states of the writers' acks
    int failed_in_a_row;
    int64_t completed, failed, total;
};

zs_inflight_t *
zs_inflight_new (void)
{
    zs_inflight_t *self = calloc (1, sizeof *self);
    if (self && !(self->acked = zs_splits_new ()))
        zs_inflight_destroy (&self);
    return self;
}

void
zs_inflight_destroy (zs_inflight_t **self_p)
{
    zs_inflight_t *self = *self_p;
    if (!self)
        return;
    zs_state_free (&self->state);
    zs_splits_destroy (&self->acked);
    free (self);
    *self_p = NULL;
}

void
zs_inflight_begin (zs_inflight_t *self, int64_t id, bool savepoint, int64_t now)
{
    self->id = id;
    self->started = now;
    self->savepoint = savepoint;
    self->total++;
    zs_state_free (&self->state);
    zs_splits_clear (self->acked);
}

int64_t
zs_inflight_id (zs_inflight_t *self)
{
    return self->id;
}

int64_t
zs_inflight_started (zs_inflight_t *self)
{
    return self->started;
}

bool
zs_inflight_expired (zs_inflight_t *self, int64_t now, int64_t timeout_ms)
{
    return self->id && now - self->started > timeout_ms;
}

int
zs_inflight_put_split (zs_inflight_t *self, const Zsink__Split *split)
{
    return zs_splits_put (self->acked, split);
}

int
zs_inflight_set_state (zs_inflight_t *self, const Zsink__CommitterState *state)
{
    zs_state_free (&self->state);
    self->state = zs_state_dup (state);
    return self->state ? 0 : -1;
}

//  Every split into chk: the acked ones, else as known; both lists are in
//  id order, so one merge.
static void
s_merge_splits (zs_inflight_t *self, zs_splits_t *known_splits, zs_chk_t *chk)
{
    size_t n_known, n_acked;
    Zsink__Split *const *known = zs_splits_all (known_splits, &n_known);
    Zsink__Split *const *acked = zs_splits_all (self->acked, &n_acked);
    chk->splits = calloc (n_known + n_acked + 1, sizeof *chk->splits);
    for (size_t i = 0, k = 0; chk->splits && (i < n_known || k < n_acked);) {
        int c = i == n_known ? 1 : k == n_acked ? -1 : strcmp (known[i]->id, acked[k]->id);
        const Zsink__Split *sp = c < 0 ? known[i] : acked[k];
        i += c <= 0;
        k += c >= 0;
        chk->splits[chk->n_splits] = zs_split_dup (sp);
        if (chk->splits[chk->n_splits])
            chk->n_splits++;
    }
}

void
zs_inflight_take_chk (zs_inflight_t *self, const char *job_id, int n,
                      const Zsink__SourcePosition *positions, zs_splits_t *known, zs_chk_t *chk)
{
    memset (chk, 0, sizeof *chk);
    snprintf (chk->job_id, sizeof chk->job_id, "%s", job_id);
    chk->id = self->id;
    chk->time_millis = zs_clock_wall_ms ();
    chk->savepoint = self->savepoint;
    chk->parallelism = n;
    chk->positions = calloc (n, sizeof *chk->positions);
    for (int i = 0; chk->positions && i < n; i++) {
        chk->positions[i] = positions[i];
        chk->positions[i].file = NULL; //  positions are rows read only (version 2)
        chk->positions[i].n_splits = 0;
        chk->positions[i].splits = NULL;
    }
    chk->state = self->state;
    self->state = NULL;
    s_merge_splits (self, known, chk);
}

//  None in flight any more.
static void
s_end (zs_inflight_t *self)
{
    self->id = 0;
    zs_state_free (&self->state);
    zs_splits_clear (self->acked);
}

void
zs_inflight_completed (zs_inflight_t *self)
{
    s_end (self);
    self->completed++;
    self->failed_in_a_row = 0;
}

int
zs_inflight_failed (zs_inflight_t *self)
{
    s_end (self);
    self->failed++;
    return ++self->failed_in_a_row;
}

void
zs_inflight_aborted (zs_inflight_t *self)
{
    s_end (self);
    self->failed++;
}

int64_t
zs_inflight_completed_count (zs_inflight_t *self)
{
    return self->completed;
}

int64_t
zs_inflight_failed_count (zs_inflight_t *self)
{
    return self->failed;
}

int64_t
zs_inflight_total_count (zs_inflight_t *self)
{
    return self->total;
}
