/*  splits.c - see splits.h. A sorted array: a job has one split per input
    file, Kafka partition or initial writer, so a few thousand at most.
*/
#include "splits.h"
#include "kafka_enum.h"
#include <stdlib.h>
#include <string.h>

struct _zs_splits_t {
    Zsink__Split **all; //  id order
    size_t n, cap;
};

zs_splits_t *
zs_splits_new (void)
{
    return calloc (1, sizeof (zs_splits_t));
}

void
zs_splits_clear (zs_splits_t *self)
{
    for (size_t i = 0; i < self->n; i++)
        zs_split_free (&self->all[i]);
    self->n = 0;
}

void
zs_splits_destroy (zs_splits_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_splits_clear (*self_p);
    free ((*self_p)->all);
    free (*self_p);
    *self_p = NULL;
}

//  Index of id, or of where it would go (*found false).
static size_t
s_search (const zs_splits_t *self, const char *id, bool *found)
{
    size_t lo = 0, hi = self->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp (self->all[mid]->id, id);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

int
zs_splits_put (zs_splits_t *self, const Zsink__Split *split)
{
    Zsink__Split *copy = zs_split_dup (split);
    if (!copy)
        return -1;
    bool found;
    size_t at = s_search (self, split->id, &found);
    if (found) {
        zs_split_free (&self->all[at]);
        self->all[at] = copy;
        return 0;
    }
    if (self->n == self->cap) {
        size_t ncap = self->cap ? self->cap * 2 : 16;
        Zsink__Split **all = realloc (self->all, ncap * sizeof *all);
        if (!all) {
            zs_split_free (&copy);
            return -1;
        }
        self->all = all;
        self->cap = ncap;
    }
    memmove (&self->all[at + 1], &self->all[at], (self->n - at) * sizeof *self->all);
    self->all[at] = copy;
    self->n++;
    return 0;
}

size_t
zs_splits_count (zs_splits_t *self)
{
    return self->n;
}

Zsink__Split *
zs_splits_find (zs_splits_t *self, const char *id)
{
    bool found;
    size_t at = s_search (self, id, &found);
    return found ? self->all[at] : NULL;
}

Zsink__Split *const *
zs_splits_all (zs_splits_t *self, size_t *n)
{
    *n = self->n;
    return self->all;
}

int
zs_splits_owner (zs_splits_t *self, size_t k, int n)
{
    const Zsink__Split *sp = self->all[k];
    if (n < 1)
        return 0;
    if (sp->has_index)
        return sp->index % n;
    if (sp->topic)
        return zs_kafka_owner (sp->topic, sp->partition, n);
    return (int) (k % (size_t) n);
}

size_t
zs_splits_of (zs_splits_t *self, int w, int n, Zsink__Split ***out)
{
    *out = calloc (self->n ? self->n : 1, sizeof **out);
    size_t count = 0;
    for (size_t k = 0; *out && k < self->n; k++)
        if (zs_splits_owner (self, k, n) == w)
            (*out)[count++] = self->all[k];
    return count;
}
