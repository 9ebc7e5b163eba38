/*  table_merge.c - Paimon's manifest merge (see zs_table_merge_manifests in
    table_priv.h), after ManifestFileLegacyMerger in paimon-core:

    - full compaction, tried first: the manifests that must change (those
      holding DELETE entries, and those smaller than the target size) are
      measured; past manifest.full-compaction-threshold-size they are
      rewritten, with every ADD that a DELETE cancels dropped and the DELETE
      entries with it, into files of about the target size; manifests of
      the target size that no DELETE touches stay as they are;
    - else minor: walking the list in order, a run of manifests is merged
      into one as soon as it reaches the target size (a manifest that is
      that big alone stays), and the last run only once it counts
      manifest.merge-min-count manifests.

    So a commit rewrites at most one small run, and the cost of a commit
    follows the entries it adds, not the live files of the table.
*/
#include "log.h"
#include "table_priv.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Entries being merged, in order, with a path -> index map; a cancelled
//  entry is marked dead rather than moved, so the order holds.
typedef struct {
    zs_manifest_entry_t *e;
    bool *dead;
    size_t n, cap;
    zhash_t *at; //  path -> index + 1 of its live entry
} s_entries_t;

static void
s_entries_free (s_entries_t *self)
{
    free (self->e);
    free (self->dead);
    zhash_destroy (&self->at);
}

static int
s_entries_push (s_entries_t *self, const zs_manifest_entry_t *e, char *err, size_t errlen)
{
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 1024;
        zs_manifest_entry_t *ge = realloc (self->e, cap * sizeof *ge);
        if (ge)
            self->e = ge;
        bool *gd = realloc (self->dead, cap * sizeof *gd);
        if (gd)
            self->dead = gd;
        if (!ge || !gd) {
            snprintf (err, errlen, "out of memory merging manifests");
            return -1;
        }
        self->cap = cap;
    }
    self->e[self->n] = *e;
    self->dead[self->n] = false;
    self->n++;
    zhash_update (self->at, e->file.path, (void *) (uintptr_t) self->n);
    return 0;
}

//  Paimon's FileEntry.mergeEntries: an ADD after a DELETE-less history is
//  kept; a DELETE cancels the ADD merged before it, or is kept when that
//  ADD is in an earlier manifest; a second ADD of one file is a corrupt
//  table (Paimon: "Trying to add file … which is already added").
static int
s_entries_merge (s_entries_t *self, const zs_manifest_entry_t *e, const char *manifest, char *err,
                 size_t errlen)
{
    uintptr_t at = (uintptr_t) zhash_lookup (self->at, e->file.path);
    if (at && self->e[at - 1].add && e->add) {
        snprintf (err, errlen, "manifest %s adds %s, which an earlier manifest added", manifest,
                  e->file.path);
        return ZS_ECORRUPT;
    }
    if (at && self->e[at - 1].add && !e->add) {
        self->dead[at - 1] = true;
        zhash_delete (self->at, e->file.path);
        return 0;
    }
    return s_entries_push (self, e, err, errlen);
}

//  The merged list being built.
typedef struct {
    zs_manifest_meta_t *m;
    size_t n, cap;
} s_out_t;

static int
s_out_push (s_out_t *self, const zs_manifest_meta_t *m, char *err, size_t errlen)
{
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 16;
        zs_manifest_meta_t *grown = realloc (self->m, cap * sizeof *grown);
        if (!grown) {
            snprintf (err, errlen, "out of memory merging manifests");
            return -1;
        }
        self->m = grown;
        self->cap = cap;
    }
    self->m[self->n++] = *m;
    return 0;
}

//  Write the live entries as manifests of about target bytes each (split by
//  count from the size of the whole), appended to out; each into made.
static int
s_write_rolled (zs_table_t *self, const char *tag, s_entries_t *all, s_out_t *out, zs_names_t *made,
                char *err, size_t errlen)
{
    size_t live = 0;
    for (size_t i = 0; i < all->n; i++)
        if (!all->dead[i])
            all->e[live++] = all->e[i];
    if (live == 0)
        return 0;
    //  Entries are alike (zstd over records of one shape): the encoded size
    //  of the whole, divided, says how many files of at least the target
    //  size (as Paimon's rolling writer, which rolls once a file reaches
    //  it: only its last file may be smaller).
    size_t len = 0;
    uint8_t *probe = zs_manifest_encode (all->e, live, self->manifest_codec, &len, err, errlen);
    if (!probe)
        return -1;
    free (probe);
    int64_t target = self->opts.manifest_target_size;
    size_t parts = (size_t) ((int64_t) len / target);
    if (parts < 1)
        parts = 1;
    if (parts > live)
        parts = live;
    size_t per = (live + parts - 1) / parts;
    for (size_t at = 0; at < live; at += per) {
        size_t k = live - at < per ? live - at : per;
        char name[128], uuid[40];
        zs_uuid (uuid);
        snprintf (name, sizeof name, "manifest-%s-%s", tag, uuid);
        zs_manifest_meta_t meta;
        int rc = zs_table_write_entries (self, name, all->e + at, k, &meta, err, errlen);
        if (rc == 0 && zs_names_add (made, name) != 0) {
            zs_table_unlink_meta (self, name);
            snprintf (err, errlen, "out of memory");
            rc = -1;
        }
        if (rc == 0)
            rc = s_out_push (out, &meta, err, errlen);
        if (rc != 0)
            return rc;
    }
    return 0;
}

//  Read manifest m and merge its entries into all (skipping ADDs of the
//  files in deleted and every DELETE, when deleted is given: full
//  compaction). *touched: one of its ADDs was dropped.
static int
s_read_into (zs_table_t *self, const zs_manifest_meta_t *m, s_entries_t *all, zhash_t *deleted,
             bool *touched, char *err, size_t errlen)
{
    zs_manifest_entry_t *entries = NULL;
    size_t ne = 0;
    int rc = zs_table_read_manifest (self, m->file, &entries, &ne, err, errlen);
    for (size_t j = 0; rc == 0 && j < ne; j++) {
        if (deleted && (!entries[j].add || zhash_lookup (deleted, entries[j].file.path))) {
            if (entries[j].add && touched)
                *touched = true;
            continue;
        }
        rc = deleted ? s_entries_push (all, &entries[j], err, errlen)
                     : s_entries_merge (all, &entries[j], m->file, err, errlen);
    }
    free (entries);
    return rc;
}

static bool
s_must_change (const zs_table_t *self, const zs_manifest_meta_t *m)
{
    return m->deleted_files > 0 || m->file_size < self->opts.manifest_target_size;
}

//  The paths every DELETE entry of metas names, into *deleted (NULL when
//  there are none).
static int
s_deleted_paths (zs_table_t *self, const zs_manifest_meta_t *metas, size_t n, zhash_t **deleted,
                 char *err, size_t errlen)
{
    *deleted = NULL;
    for (size_t i = 0; i < n; i++) {
        if (metas[i].deleted_files == 0)
            continue;
        zs_manifest_entry_t *entries = NULL;
        size_t ne = 0;
        int rc = zs_table_read_manifest (self, metas[i].file, &entries, &ne, err, errlen);
        for (size_t j = 0; rc == 0 && j < ne; j++)
            if (!entries[j].add) {
                if (!*deleted)
                    *deleted = zhash_new ();
                zhash_update (*deleted, entries[j].file.path, (void *) 1);
            }
        free (entries);
        if (rc != 0) {
            zhash_destroy (deleted);
            return rc;
        }
    }
    return 0;
}

//  Full compaction into out (capacity n + what it writes), when due.
//  *done = false when it is not.
static int
s_full (zs_table_t *self, const char *tag, const zs_manifest_meta_t *in, size_t n, s_out_t *out,
        zs_names_t *made, bool *done, char *err, size_t errlen)
{
    int64_t delta = 0;
    size_t changing = 0;
    for (size_t i = 0; i < n; i++)
        if (s_must_change (self, &in[i])) {
            delta += in[i].file_size;
            changing++;
        }
    *done = false;
    if (delta < self->opts.full_compaction_size)
        return 0;
    zhash_t *deleted;
    int rc = s_deleted_paths (self, in, n, &deleted, err, errlen);
    if (rc != 0)
        return rc;
    //  Without DELETEs only the manifests that must change are read; with
    //  them every manifest is (any may hold an ADD they cancel).
    if ((deleted ? n : changing) <= 1) {
        zhash_destroy (&deleted);
        return 0;
    }
    s_entries_t all = {.at = zhash_new ()};
    for (size_t i = 0; rc == 0 && i < n; i++) {
        bool touched = s_must_change (self, &in[i]);
        if (!touched && !deleted) {
            rc = s_out_push (out, &in[i], err, errlen);
            continue;
        }
        size_t before = all.n;
        rc = s_read_into (self, &in[i], &all, deleted, &touched, err, errlen);
        if (rc == 0 && !touched) {
            all.n = before; //  nothing of it changes: keep the file
            rc = s_out_push (out, &in[i], err, errlen);
        }
    }
    if (rc == 0)
        rc = s_write_rolled (self, tag, &all, out, made, err, errlen);
    zs_info ("Manifest full compaction of table %s: %zu manifests, %" PRId64
             " bytes to rewrite, %zu entries kept",
             self->path, n, delta, all.n);
    s_entries_free (&all);
    zhash_destroy (&deleted);
    *done = rc == 0;
    return rc;
}

//  Merge the run in[from..to) into out (one manifest stays as it is).
static int
s_merge_run (zs_table_t *self, const char *tag, const zs_manifest_meta_t *in, size_t from,
             size_t to, s_out_t *out, zs_names_t *made, char *err, size_t errlen)
{
    if (to - from == 1)
        return s_out_push (out, &in[from], err, errlen);
    s_entries_t all = {.at = zhash_new ()};
    int rc = 0;
    for (size_t i = from; rc == 0 && i < to; i++)
        rc = s_read_into (self, &in[i], &all, NULL, NULL, err, errlen);
    if (rc == 0)
        rc = s_write_rolled (self, tag, &all, out, made, err, errlen);
    s_entries_free (&all);
    return rc;
}

//  Minor compaction into out.
static int
s_minor (zs_table_t *self, const char *tag, const zs_manifest_meta_t *in, size_t n, s_out_t *out,
         zs_names_t *made, char *err, size_t errlen)
{
    size_t from = 0;
    int64_t size = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size += in[i].file_size;
        if (size >= self->opts.manifest_target_size) {
            rc = s_merge_run (self, tag, in, from, i + 1, out, made, err, errlen);
            from = i + 1;
            size = 0;
        }
    }
    if (rc != 0 || from == n)
        return rc;
    if (n - from >= (size_t) self->opts.merge_min_count)
        return s_merge_run (self, tag, in, from, n, out, made, err, errlen);
    for (size_t i = from; rc == 0 && i < n; i++)
        rc = s_out_push (out, &in[i], err, errlen);
    return rc;
}

int
zs_table_merge_manifests (zs_table_t *self, const char *tag, zs_manifest_meta_t **metas_p,
                          size_t *n_p, zs_names_t *made, char *err, size_t errlen)
{
    size_t n = *n_p;
    if (n < 2)
        return 0;
    s_out_t out = {0};
    size_t made_before = made->n;
    bool done = false;
    int rc = s_full (self, tag, *metas_p, n, &out, made, &done, err, errlen);
    if (rc == 0 && !done) {
        out.n = 0;
        rc = s_minor (self, tag, *metas_p, n, &out, made, err, errlen);
    }
    if (rc != 0) {
        for (size_t i = made_before; i < made->n; i++)
            zs_table_unlink_meta (self, made->name[i]);
        made->n = made_before;
        free (out.m);
        return rc;
    }
    free (*metas_p);
    *metas_p = out.m;
    *n_p = out.n;
    return 0;
}
