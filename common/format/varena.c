/*  varena.c - see varena.h. */
#include "varena.h"
#include <stdlib.h>
#include <string.h>

#define S_BLOCK (64 * 1024)

struct _zs_varena_block_t {
    zs_varena_block_t *next;
    size_t cap;
    size_t used;
    _Alignas(16) unsigned char data[];
};

void *
zs_varena_alloc (zs_varena_t *self, size_t n)
{
    n = (n + 15) & ~(size_t) 15;
    zs_varena_block_t *b = self->head;
    //  the next kept block that fits, else a new one after head
    while (b && b->cap - b->used < n) {
        if (!b->next)
            break;
        b = b->next;
        b->used = 0;
    }
    if (!b || b->cap - b->used < n) {
        size_t cap = n > S_BLOCK ? n : S_BLOCK;
        zs_varena_block_t *nb = malloc (sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->cap = cap;
        nb->used = 0;
        nb->next = NULL;
        if (b)
            b->next = nb;
        else
            self->first = nb;
        b = nb;
    }
    self->head = b;
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

zs_value_t *
zs_varena_values (zs_varena_t *self, size_t n)
{
    zs_value_t *v = zs_varena_alloc (self, n ? n * sizeof *v : 1);
    if (v && n)
        memset (v, 0, n * sizeof *v);
    return v;
}

void
zs_varena_reset (zs_varena_t *self)
{
    self->head = self->first;
    if (self->first)
        self->first->used = 0;
}

void
zs_varena_fini (zs_varena_t *self)
{
    zs_varena_block_t *b = self->first;
    while (b) {
        zs_varena_block_t *next = b->next;
        free (b);
        b = next;
    }
    self->first = self->head = NULL;
}
