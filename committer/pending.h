/*  pending.h - the committer's sorted map: checkpoint id -> committables not
    yet committed (Paimon's committablesPerCheckpoint, a NavigableMap).

    Each item is one writer's Committable for one bucket, copied off the
    wire. An identifier may have an entry with no items: an empty
    checkpoint still makes an (empty) snapshot.

    Items carry a tag: for items of ZS_END_INPUT_ID it is the highest
    checkpoint whose marker the writer had sent when the item arrived. Such
    an item belongs to the state of checkpoint N only when its tag < N (it
    came before that writer's marker N). For every other identifier M the
    data pipe's order already says so: items of M <= N precede marker N.
*/
#ifndef ZS_PENDING_H_INCLUDED
#define ZS_PENDING_H_INCLUDED

#include "filemeta.h"
#include "zs.h"
#include "zsink.pb-c.h"

typedef struct _zs_pending_t zs_pending_t;

zs_pending_t *zs_pending_new (void);
void zs_pending_destroy (zs_pending_t **self_p);

//  Drop every entry.
void zs_pending_clear (zs_pending_t *self);

//  Number of identifiers with an entry.
size_t zs_pending_size (zs_pending_t *self);
bool zs_pending_has (zs_pending_t *self, int64_t id);
//  Lowest identifier with an entry, -1 when empty.
int64_t zs_pending_first (zs_pending_t *self);

//  Make sure an entry exists for id (possibly without items). 0 or -1 (OOM).
int zs_pending_touch (zs_pending_t *self, int64_t id);

//  Store a copy of c under c->checkpoint_id with the given tag. 0, or -1
//  when out of memory or a file of c is pending already (the caller checks
//  with zs_pending_holds_file first: a file is never pending twice).
int zs_pending_add (zs_pending_t *self, const Zsink__Committable *c, int64_t tag);

//  Is this data file (table-relative path) in any pending committable?
bool zs_pending_holds_file (zs_pending_t *self, const char *path);

//  Remove the entry of id (no-op when absent).
void zs_pending_remove (zs_pending_t *self, int64_t id);

//  headMap(n, inclusive): the identifiers <= n, ascending, into a malloc'd
//  array (*ids_p NULL when none). ZS_END_INPUT_ID is decided by with_end
//  alone: left out without it (also for n = INT64_MAX), included with it
//  (also for a smaller n: every writer ended before checkpoint n). Returns
//  the count, or -1 when out of memory.
int zs_pending_head (zs_pending_t *self, int64_t n, bool with_end, int64_t **ids_p);

//  Every file of id's entry, flattened into a malloc'd array (NULL when
//  none). 0, ZS_ENOENT (no entry), or -1 (OOM).
int zs_pending_files (zs_pending_t *self, int64_t id, zs_file_meta_t **files_p, size_t *n_p);

//  Every pending file, of every identifier, into malloc'd arrays (NULL
//  when none), *ids_p[i] the identifier of (*files_p)[i]: what the
//  committer pins (zs_table_pin). 0 or -1 (OOM).
int zs_pending_all_files (zs_pending_t *self, zs_file_meta_t **files_p, int64_t **ids_p,
                          size_t *n_p);

//  Number of items (committables) under id (0 when absent).
size_t zs_pending_items (zs_pending_t *self, int64_t id);

//  Replace the contents with a restored CommitterState's pending list
//  (items tagged 0). 0 or -1 (OOM, a file path too long, a file listed
//  twice).
int zs_pending_load (zs_pending_t *self, const Zsink__CommitterState *state);

//  The state as of checkpoint n: commit user, the entries <= n ascending,
//  then of ZS_END_INPUT_ID only the items tagged < n (and the entry itself
//  when it has such items, or always with end_entry: every writer had ended
//  before its marker n), and the ended writers given. Built in
//  malloc'd memory; free with zs_pending_state_free. NULL when OOM.
Zsink__CommitterState *zs_pending_state (zs_pending_t *self, const char *commit_user, int64_t n,
                                         bool end_entry, const int *ended, size_t n_ended);
void zs_pending_state_free (Zsink__CommitterState **state_p);

#endif
