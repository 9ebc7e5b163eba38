/*  datagen.c - see datagen.h.

    Products are taken in 128-bit arithmetic: an unbounded source at a high
    rate runs for days, and rate * elapsed_ms or offset * N must never wrap
    into a negative id or a negative allowance.
*/
#include "datagen.h"

void
zs_datagen_init (zs_datagen_t *self, int index, int parallelism, int64_t number_of_rows,
                 int64_t rate)
{
    self->index = index;
    self->parallelism = parallelism > 0 ? parallelism : 1;
    self->number_of_rows = number_of_rows;
    self->rate = rate > 0 ? rate : 0;
    self->offset = 0;
}

static int64_t
s_clamp (__int128 v)
{
    if (v > INT64_MAX)
        return INT64_MAX;
    if (v < 0)
        return 0;
    return (int64_t) v;
}

int64_t
zs_datagen_id_at (const zs_datagen_t *self, int64_t offset)
{
    return s_clamp ((__int128) self->index + 1 + (__int128) offset * self->parallelism);
}

int64_t
zs_datagen_next_id (const zs_datagen_t *self)
{
    return zs_datagen_id_at (self, self->offset);
}

int64_t
zs_datagen_total (const zs_datagen_t *self)
{
    if (self->number_of_rows < 0)
        return -1;
    //  count of k >= 0 with index+1 + k*N <= number_of_rows
    if (self->number_of_rows <= self->index)
        return 0;
    return (self->number_of_rows - self->index - 1) / self->parallelism + 1;
}

bool
zs_datagen_exhausted (const zs_datagen_t *self)
{
    int64_t total = zs_datagen_total (self);
    return total >= 0 && self->offset >= total;
}

int64_t
zs_datagen_share (int64_t rate, int parallelism, int index)
{
    if (rate <= 0 || parallelism <= 0)
        return 0;
    return rate / parallelism + (index < rate % parallelism ? 1 : 0);
}

int64_t
zs_datagen_allowed (const zs_datagen_t *self, int64_t elapsed_ms)
{
    if (self->rate == 0)
        return INT64_MAX;
    if (elapsed_ms < 0)
        return 0;
    //  global rows of the job due by now: 0 … g-1
    __int128 g = (__int128) self->rate * elapsed_ms / 1000;
    //  ours among them: i, i+N, … below g
    if (g <= self->index)
        return 0;
    return s_clamp ((g - self->index - 1) / self->parallelism + 1);
}

int64_t
zs_datagen_due_ms (const zs_datagen_t *self, int64_t emitted)
{
    if (self->rate == 0)
        return 0;
    //  our row `emitted` is global row g = i + emitted*N; it is due once
    //  floor(rate * t / 1000) >= g + 1, i.e. t >= ceil((g+1) * 1000 / rate)
    __int128 g = (__int128) self->index + (__int128) emitted * self->parallelism;
    return s_clamp (((g + 1) * 1000 + self->rate - 1) / self->rate);
}
