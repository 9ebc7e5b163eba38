/*  pending.c - see pending.h.

    A sorted array of entries, binary-searched. The committer holds a
    handful of identifiers at a time (the checkpoint in flight, an aborted
    one or two, end of input), so an array beats a tree here and keeps the
    ascending walk trivial.
*/
#include "pending.h"
#include "codec.h"
#include <czmq.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int writer;
    int bucket;
    int64_t tag;
    zs_file_meta_t *files;
    size_t n_files;
} s_item_t;

typedef struct {
    int64_t id;
    s_item_t *items;
    size_t n_items;
} s_entry_t;

struct _zs_pending_t {
    s_entry_t *entries; //  ascending id
    size_t n, cap;
    zhash_t *paths; //  every file of every item: a file is never pending twice
};

zs_pending_t *
zs_pending_new (void)
{
    zs_pending_t *self = calloc (1, sizeof (zs_pending_t));
    if (self && !(self->paths = zhash_new ())) {
        free (self);
        self = NULL;
    }
    return self;
}

static void
s_entry_free (zs_pending_t *self, s_entry_t *e)
{
    for (size_t i = 0; i < e->n_items; i++) {
        for (size_t j = 0; j < e->items[i].n_files; j++)
            zhash_delete (self->paths, e->items[i].files[j].path);
        free (e->items[i].files);
    }
    free (e->items);
    e->items = NULL;
    e->n_items = 0;
}

void
zs_pending_clear (zs_pending_t *self)
{
    for (size_t i = 0; i < self->n; i++)
        s_entry_free (self, &self->entries[i]);
    self->n = 0;
}

void
zs_pending_destroy (zs_pending_t **self_p)
{
    if (self_p && *self_p) {
        zs_pending_clear (*self_p);
        zhash_destroy (&(*self_p)->paths);
        free ((*self_p)->entries);
        free (*self_p);
        *self_p = NULL;
    }
}

size_t
zs_pending_size (zs_pending_t *self)
{
    return self->n;
}

//  Index of the first entry with id >= the one asked for.
static size_t
s_lower_bound (zs_pending_t *self, int64_t id)
{
    size_t lo = 0, hi = self->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (self->entries[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static s_entry_t *
s_find (zs_pending_t *self, int64_t id)
{
    size_t i = s_lower_bound (self, id);
    return i < self->n && self->entries[i].id == id ? &self->entries[i] : NULL;
}

bool
zs_pending_has (zs_pending_t *self, int64_t id)
{
    return s_find (self, id) != NULL;
}

int64_t
zs_pending_first (zs_pending_t *self)
{
    return self->n ? self->entries[0].id : -1;
}

static s_entry_t *
s_touch (zs_pending_t *self, int64_t id)
{
    size_t i = s_lower_bound (self, id);
    if (i < self->n && self->entries[i].id == id)
        return &self->entries[i];
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 8;
        s_entry_t *grown = realloc (self->entries, cap * sizeof *grown);
        if (!grown)
            return NULL;
        self->entries = grown;
        self->cap = cap;
    }
    memmove (&self->entries[i + 1], &self->entries[i], (self->n - i) * sizeof (s_entry_t));
    self->entries[i] = (s_entry_t){.id = id};
    self->n++;
    return &self->entries[i];
}

int
zs_pending_touch (zs_pending_t *self, int64_t id)
{
    return s_touch (self, id) ? 0 : -1;
}

//  Copy a wire file list into fixed-size metas (what the table takes). The
//  codec already refused paths of 256 bytes or more; the check here keeps
//  that promise local instead of trusting it.
static int
s_copy_files (s_item_t *item, Zsink__FileMeta *const *files, size_t n)
{
    item->files = n ? calloc (n, sizeof (zs_file_meta_t)) : NULL;
    if (n && !item->files)
        return -1;
    for (size_t i = 0; i < n; i++) {
        zs_file_meta_t *f = &item->files[i];
        if (strlen (files[i]->path) >= sizeof f->path) {
            free (item->files);
            item->files = NULL;
            return -1;
        }
        if (files[i]->has_value_stats && files[i]->value_stats.len > ZS_STATS_MAX) {
            free (item->files);
            item->files = NULL;
            return -1;
        }
        zs_file_meta_from_proto (files[i], f);
    }
    item->n_files = n;
    return 0;
}

static int
s_add (zs_pending_t *self, s_entry_t *e, const Zsink__Committable *c, int64_t tag)
{
    s_item_t *grown = realloc (e->items, (e->n_items + 1) * sizeof *grown);
    if (!grown)
        return -1;
    e->items = grown;
    s_item_t *item = &e->items[e->n_items];
    *item = (s_item_t){.writer = c->writer, .bucket = c->has_bucket ? c->bucket : 0, .tag = tag};
    if (s_copy_files (item, c->files, c->n_files) < 0)
        return -1;
    for (size_t i = 0; i < item->n_files; i++)
        if (zhash_insert (self->paths, item->files[i].path, (void *) 1) != 0) {
            //  a duplicate (or out of memory): take back what went in
            while (i-- > 0)
                zhash_delete (self->paths, item->files[i].path);
            free (item->files);
            return -1;
        }
    e->n_items++;
    return 0;
}

int
zs_pending_add (zs_pending_t *self, const Zsink__Committable *c, int64_t tag)
{
    s_entry_t *e = s_touch (self, c->checkpoint_id);
    return e ? s_add (self, e, c, tag) : -1;
}

bool
zs_pending_holds_file (zs_pending_t *self, const char *path)
{
    return zhash_lookup (self->paths, path) != NULL;
}

void
zs_pending_remove (zs_pending_t *self, int64_t id)
{
    size_t i = s_lower_bound (self, id);
    if (i < self->n && self->entries[i].id == id) {
        s_entry_free (self, &self->entries[i]);
        memmove (&self->entries[i], &self->entries[i + 1], (self->n - i - 1) * sizeof (s_entry_t));
        self->n--;
    }
}

//  ids <= n, but the end-input id only when asked for, whatever n is
static bool
s_in_head (int64_t id, int64_t n, bool with_end)
{
    return id == ZS_END_INPUT_ID ? with_end : id <= n;
}

int
zs_pending_head (zs_pending_t *self, int64_t n, bool with_end, int64_t **ids_p)
{
    *ids_p = NULL;
    size_t count = 0;
    for (size_t i = 0; i < self->n; i++)
        if (s_in_head (self->entries[i].id, n, with_end))
            count++;
    if (count == 0)
        return 0;
    int64_t *ids = malloc (count * sizeof *ids);
    if (!ids)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < self->n; i++)
        if (s_in_head (self->entries[i].id, n, with_end))
            ids[k++] = self->entries[i].id;
    *ids_p = ids;
    return (int) count;
}

//  One flat list per identifier: the snapshot of a checkpoint holds the
//  files of every writer and bucket, in arrival order.
int
zs_pending_files (zs_pending_t *self, int64_t id, zs_file_meta_t **files_p, size_t *n_p)
{
    *files_p = NULL;
    *n_p = 0;
    s_entry_t *e = s_find (self, id);
    if (!e)
        return ZS_ENOENT;
    size_t total = 0;
    for (size_t i = 0; i < e->n_items; i++)
        total += e->items[i].n_files;
    if (total == 0)
        return 0;
    zs_file_meta_t *files = malloc (total * sizeof *files);
    if (!files)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < e->n_items; i++) {
        memcpy (&files[k], e->items[i].files, e->items[i].n_files * sizeof *files);
        k += e->items[i].n_files;
    }
    *files_p = files;
    *n_p = total;
    return 0;
}

int
zs_pending_all_files (zs_pending_t *self, zs_file_meta_t **files_p, int64_t **ids_p, size_t *n_p)
{
    *files_p = NULL;
    *ids_p = NULL;
    *n_p = 0;
    size_t total = 0;
    for (size_t e = 0; e < self->n; e++)
        for (size_t i = 0; i < self->entries[e].n_items; i++)
            total += self->entries[e].items[i].n_files;
    if (total == 0)
        return 0;
    zs_file_meta_t *files = malloc (total * sizeof *files);
    int64_t *ids = malloc (total * sizeof *ids);
    if (!files || !ids) {
        free (files);
        free (ids);
        return -1;
    }
    size_t k = 0;
    for (size_t e = 0; e < self->n; e++)
        for (size_t i = 0; i < self->entries[e].n_items; i++) {
            const s_item_t *it = &self->entries[e].items[i];
            memcpy (&files[k], it->files, it->n_files * sizeof *files);
            for (size_t f = 0; f < it->n_files; f++)
                ids[k++] = self->entries[e].id;
        }
    *files_p = files;
    *ids_p = ids;
    *n_p = total;
    return 0;
}

size_t
zs_pending_items (zs_pending_t *self, int64_t id)
{
    s_entry_t *e = s_find (self, id);
    return e ? e->n_items : 0;
}

int
zs_pending_load (zs_pending_t *self, const Zsink__CommitterState *state)
{
    zs_pending_clear (self);
    for (size_t i = 0; i < state->n_pending; i++) {
        const Zsink__ManifestCommittable *m = state->pending[i];
        s_entry_t *e = s_touch (self, m->identifier);
        if (!e)
            return -1;
        for (size_t j = 0; j < m->n_committables; j++) {
            //  A committable restored under its manifest's identifier: the
            //  grouping is what the checkpoint recorded.
            Zsink__Committable c = *m->committables[j];
            c.checkpoint_id = m->identifier;
            if (s_add (self, e, &c, 0) < 0)
                return -1;
        }
    }
    return 0;
}

//  ---- state building: every pointer below is ours (malloc) -------------

//  The state is built as protobuf-c structs in our own memory, not packed
//  bytes, because it goes inside an Envelope that zs_participant_send packs
//  once. A short copy (out of memory half-way) is freed, never sent: an
//  incomplete state acked for a checkpoint would lose files on restore.
static Zsink__Committable *
s_item_to_msg (const s_item_t *item, int64_t id)
{
    Zsink__Committable *c = calloc (1, sizeof *c);
    if (!c)
        return NULL;
    zsink__committable__init (c);
    c->checkpoint_id = id;
    c->writer = item->writer;
    c->has_bucket = true;
    c->bucket = item->bucket;
    if (item->n_files) {
        c->files = calloc (item->n_files, sizeof *c->files);
        if (!c->files)
            return c; //  n_files stays 0: the caller sees the short copy
    }
    for (size_t i = 0; i < item->n_files; i++) {
        Zsink__FileMeta *f = calloc (1, sizeof *f);
        char *path = strdup (item->files[i].path);
        size_t slen = item->files[i].stats.len;
        uint8_t *stats = slen ? malloc (slen) : NULL;
        if (!f || !path || (slen && !stats)) {
            free (f);
            free (path);
            free (stats);
            return c;
        }
        //  The copy owns its path and statistics (freed with the message).
        zs_file_meta_to_proto (&item->files[i], f);
        f->path = path;
        if (slen)
            memcpy (stats, item->files[i].stats.blob, slen);
        f->value_stats.data = stats;
        c->files[c->n_files++] = f;
    }
    return c;
}

static void
s_committable_free (Zsink__Committable *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_files; i++) {
        free (c->files[i]->path);
        free (c->files[i]->value_stats.data);
        free (c->files[i]);
    }
    free (c->files);
    free (c);
}

void
zs_pending_state_free (Zsink__CommitterState **state_p)
{
    if (!state_p || !*state_p)
        return;
    Zsink__CommitterState *s = *state_p;
    free (s->commit_user);
    for (size_t i = 0; i < s->n_pending; i++) {
        for (size_t j = 0; j < s->pending[i]->n_committables; j++)
            s_committable_free (s->pending[i]->committables[j]);
        free (s->pending[i]->committables);
        free (s->pending[i]);
    }
    free (s->pending);
    free (s->ended_writers);
    free (s);
    *state_p = NULL;
}

//  Does item (of identifier id) belong to the state of checkpoint n?
static bool
s_in_state (int64_t id, const s_item_t *item, int64_t n)
{
    return id != ZS_END_INPUT_ID || item->tag < n;
}

//  The ManifestCommittable of entry e in the state of checkpoint n: its
//  items that belong there (s_in_state), copied. NULL when out of memory.
static Zsink__ManifestCommittable *
s_state_entry (const s_entry_t *e, int64_t n)
{
    size_t count = 0;
    for (size_t j = 0; j < e->n_items; j++)
        count += s_in_state (e->id, &e->items[j], n);
    Zsink__ManifestCommittable *m = calloc (1, sizeof *m);
    if (!m)
        return NULL;
    zsink__manifest_committable__init (m);
    m->identifier = e->id;
    m->committables = count ? calloc (count, sizeof *m->committables) : NULL;
    bool ok = !count || m->committables;
    for (size_t j = 0; ok && j < e->n_items; j++) {
        if (!s_in_state (e->id, &e->items[j], n))
            continue;
        Zsink__Committable *c = s_item_to_msg (&e->items[j], e->id);
        if (c)
            m->committables[m->n_committables++] = c;
        //  a short copy (out of memory half-way) is no copy at all
        ok = c && c->n_files == e->items[j].n_files;
    }
    if (!ok) {
        for (size_t j = 0; j < m->n_committables; j++)
            s_committable_free (m->committables[j]);
        free (m->committables);
        free (m);
        return NULL;
    }
    return m;
}

//  Does entry e go in the state of checkpoint n? ids after n belong to
//  later checkpoints; an end-input entry goes when some item of it does,
//  or always with end_entry.
static bool
s_entry_in_state (const s_entry_t *e, int64_t n, bool end_entry)
{
    if (e->id != ZS_END_INPUT_ID)
        return e->id <= n;
    if (end_entry)
        return true;
    for (size_t j = 0; j < e->n_items; j++)
        if (s_in_state (e->id, &e->items[j], n))
            return true;
    return false;
}

//  An end-input entry asked for but not held: add it, empty. 0 or -1.
static int
s_state_add_end (Zsink__CommitterState *s)
{
    if (s->n_pending && s->pending[s->n_pending - 1]->identifier == ZS_END_INPUT_ID)
        return 0;
    Zsink__ManifestCommittable **grown = realloc (s->pending, (s->n_pending + 1) * sizeof *grown);
    if (!grown)
        return -1;
    s->pending = grown;
    Zsink__ManifestCommittable *m = calloc (1, sizeof *m);
    if (!m)
        return -1;
    zsink__manifest_committable__init (m);
    m->identifier = ZS_END_INPUT_ID;
    s->pending[s->n_pending++] = m;
    return 0;
}

Zsink__CommitterState *
zs_pending_state (zs_pending_t *self, const char *commit_user, int64_t n, bool end_entry,
                  const int *ended, size_t n_ended)
{
    Zsink__CommitterState *s = calloc (1, sizeof *s);
    if (!s)
        return NULL;
    zsink__committer_state__init (s);
    s->commit_user = strdup (commit_user);
    s->pending = self->n ? calloc (self->n, sizeof *s->pending) : NULL;
    s->ended_writers = n_ended ? calloc (n_ended, sizeof *s->ended_writers) : NULL;
    bool ok = s->commit_user && (!self->n || s->pending) && (!n_ended || s->ended_writers);
    for (size_t i = 0; ok && i < n_ended; i++)
        s->ended_writers[i] = ended[i];
    s->n_ended_writers = ok ? n_ended : 0;
    for (size_t i = 0; ok && i < self->n; i++) {
        if (!s_entry_in_state (&self->entries[i], n, end_entry))
            continue;
        Zsink__ManifestCommittable *m = s_state_entry (&self->entries[i], n);
        if (m)
            s->pending[s->n_pending++] = m;
        ok = m != NULL;
    }
    if (ok && end_entry)
        ok = s_state_add_end (s) == 0;
    if (!ok)
        zs_pending_state_free (&s);
    return s;
}
