/*  compactor.h - the committer's compaction, off the commit path: one
    rewrite at a time on a thread of its own, its COMPACT snapshot
    committed by the committer's loop, in order with the APPEND commits.
*/
#ifndef ZS_COMPACTOR_H_INCLUDED
#define ZS_COMPACTOR_H_INCLUDED

#include "table.h"

typedef struct zs_compactor_t zs_compactor_t;

//  NULL when out of memory or no pipe could be made (errno set).
zs_compactor_t *zs_compactor_new (void);
//  Stops a rewrite in flight (its outputs removed) first.
void zs_compactor_destroy (zs_compactor_t **self_p);

//  Readable when a rewrite has finished: poll it, then call _finish.
int zs_compactor_fd (zs_compactor_t *self);

//  After a commit: when no rewrite is in flight, plan one task on the
//  latest snapshot and start rewriting it. req is copied (user too).
//  true when a rewrite is in flight on return.
bool zs_compactor_start (zs_compactor_t *self, zs_table_t *table, const zs_compact_t *req);

//  A rewrite has finished (the fd was readable): commit its COMPACT
//  snapshot when commit is true, else remove its outputs. 0 when nothing
//  was committed, else the snapshot id; a failure is logged, never more
//  (a compaction changes no row).
int64_t zs_compactor_finish (zs_compactor_t *self, zs_table_t *table, bool commit);

//  Give up the rewrite in flight, if any: wait for its thread, remove its
//  outputs. Before anything that must not meet a COMPACT snapshot of ours
//  or its files: a restore's clean-up, the end-input snapshot, a new table.
void zs_compactor_cancel (zs_compactor_t *self);

//  Compactions committed so far, and the last one's rewrite time (ms).
void zs_compactor_counts (zs_compactor_t *self, int64_t *committed, int64_t *last_rewrite_ms);

//  Is a rewrite in flight (started, not yet finished or cancelled)?
bool zs_compactor_busy (zs_compactor_t *self);

#endif
