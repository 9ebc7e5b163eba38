/*  openfiles.c - see openfiles.h.

    Invariants:
    1. Every entry is in both the hash (by key) and the LRU list (head: the
       most recently used), or in neither.
    2. Rows mostly come in runs of one partition: the entry of the last
       lookup is compared first, so such a run costs one memcmp a row.
*/
#include "openfiles.h"
#include <czmq.h>
#include <string.h>

typedef struct {
    const uint8_t *p;
    size_t len;
} s_key_t;

typedef struct _s_entry_t {
    struct _s_entry_t *prev, *next;
    s_key_t k; //  points into key
    zs_datafile_writer_t *file;
    uint8_t key[ZS_PARTITION_ROW_MAX];
} s_entry_t;

struct _zs_openfiles_t {
    zhashx_t *map;          //  s_key_t * -> s_entry_t *
    s_entry_t *head, *tail; //  LRU list
    s_entry_t *last;        //  of the last get/put (invariant 2)
    size_t n;
};

static size_t
s_hash (const void *key)
{
    const s_key_t *k = key;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < k->len; i++)
        h = (h ^ k->p[i]) * 1099511628211ULL;
    return (size_t) h;
}

static int
s_compare (const void *a, const void *b)
{
    const s_key_t *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->len ? memcmp (x->p, y->p, x->len) : 0;
}

zs_openfiles_t *
zs_openfiles_new (void)
{
    zs_openfiles_t *self = calloc (1, sizeof *self);
    if (self)
        self->map = zhashx_new ();
    if (!self || !self->map) {
        free (self);
        return NULL;
    }
    zhashx_set_key_hasher (self->map, s_hash);
    zhashx_set_key_comparator (self->map, s_compare);
    zhashx_set_key_duplicator (self->map, NULL);
    zhashx_set_key_destructor (self->map, NULL);
    return self;
}

static void
s_unlink (zs_openfiles_t *self, s_entry_t *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        self->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        self->tail = e->prev;
    e->prev = e->next = NULL;
}

static void
s_push_front (zs_openfiles_t *self, s_entry_t *e)
{
    e->prev = NULL;
    e->next = self->head;
    if (self->head)
        self->head->prev = e;
    self->head = e;
    if (!self->tail)
        self->tail = e;
}

zs_datafile_writer_t *
zs_openfiles_get (zs_openfiles_t *self, const uint8_t *key, size_t len)
{
    s_key_t probe = {key, len};
    s_entry_t *e = self->last;
    if (!e || s_compare (&e->k, &probe) != 0)
        e = zhashx_lookup (self->map, &probe);
    if (!e)
        return NULL;
    if (self->head != e) {
        s_unlink (self, e);
        s_push_front (self, e);
    }
    self->last = e;
    return e->file;
}

int
zs_openfiles_put (zs_openfiles_t *self, const uint8_t *key, size_t len, zs_datafile_writer_t *file)
{
    s_entry_t *e = calloc (1, sizeof *e);
    if (!e || len > sizeof e->key) {
        free (e);
        return -1;
    }
    if (len)
        memcpy (e->key, key, len);
    e->k.p = e->key;
    e->k.len = len;
    e->file = file;
    if (zhashx_insert (self->map, &e->k, e) != 0) {
        free (e);
        return -1;
    }
    s_push_front (self, e);
    self->last = e;
    self->n++;
    return 0;
}

size_t
zs_openfiles_count (zs_openfiles_t *self)
{
    return self->n;
}

zs_datafile_writer_t *
zs_openfiles_take (zs_openfiles_t *self, bool lru, uint8_t *key, size_t *len)
{
    s_entry_t *e = lru ? self->tail : self->head;
    if (!e)
        return NULL;
    zhashx_delete (self->map, &e->k);
    s_unlink (self, e);
    if (self->last == e)
        self->last = NULL;
    self->n--;
    zs_datafile_writer_t *file = e->file;
    if (key && len) {
        memcpy (key, e->key, e->k.len);
        *len = e->k.len;
    }
    free (e);
    return file;
}

void
zs_openfiles_abort_all (zs_openfiles_t *self)
{
    zs_datafile_writer_t *file;
    while ((file = zs_openfiles_take (self, true, NULL, NULL)))
        zs_datafile_writer_abort (&file);
}

void
zs_openfiles_destroy (zs_openfiles_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_openfiles_abort_all (*self_p);
    zhashx_destroy (&(*self_p)->map);
    free (*self_p);
    *self_p = NULL;
}
