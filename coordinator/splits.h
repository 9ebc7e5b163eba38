/*  splits.h - the coordinator's record of the job's splits (docs/decisions.md,
    "Splits"): the state of each as of the latest completed checkpoint, or
    as found since (Kafka partitions discovered), and which writer reads it
    when there are n writers.

    Dealing is a pure function of the splits and n, so a failover, a
    coordinator restart and a restore all deal alike:
        datagen  split i of count goes to writer i % n
        file     the k-th file split in name order goes to writer k % n
                 (a first start's share: writer i lists the input and
                 takes k % n == i, the same rule)
        kafka    Flink's KafkaSourceEnumerator.getSplitOwner (kafka_enum.h)
*/
#ifndef ZS_SPLITS_H_INCLUDED
#define ZS_SPLITS_H_INCLUDED

#include "codec.h"

typedef struct _zs_splits_t zs_splits_t;

zs_splits_t *zs_splits_new (void);
void zs_splits_destroy (zs_splits_t **self_p);
void zs_splits_clear (zs_splits_t *self);

//  Record a split's state: a copy replaces the one of the same id, or is
//  added. 0, or -1 out of memory.
int zs_splits_put (zs_splits_t *self, const Zsink__Split *split);
//  How many splits are recorded.
size_t zs_splits_count (zs_splits_t *self);
//  The split of this id (valid until the next put or clear), or NULL.
Zsink__Split *zs_splits_find (zs_splits_t *self, const char *id);

//  Every split, in id order; valid until the next put or clear.
Zsink__Split *const *zs_splits_all (zs_splits_t *self, size_t *n);

//  The writer (0 … n-1) that reads the k-th split of zs_splits_all.
int zs_splits_owner (zs_splits_t *self, size_t k, int n);

//  The splits writer w of n reads: *out a malloc'd array (free it) of
//  pointers into self. Returns how many.
size_t zs_splits_of (zs_splits_t *self, int w, int n, Zsink__Split ***out);

#endif
