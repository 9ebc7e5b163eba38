/*  openfiles.h - a writer's open data files, one per partition it has
    rows for, keyed by the partition's BinaryRow (partition.h; the empty
    key in an unpartitioned table), the least recently written first to go
    when a cap is reached (write-max-writers).

    The map owns the files until they are taken out: zs_openfiles_take
    hands one over with its key, so that the caller closes it and records
    its partition; zs_openfiles_destroy aborts (deletes) what is left.
*/
#ifndef ZS_OPENFILES_H_INCLUDED
#define ZS_OPENFILES_H_INCLUDED

#include "datafile.h"
#include "partition.h"

typedef struct _zs_openfiles_t zs_openfiles_t;

zs_openfiles_t *zs_openfiles_new (void);
//  Abort every file still open, free the map.
void zs_openfiles_destroy (zs_openfiles_t **self_p);

//  The open file of this partition (and it becomes the most recently
//  used), or NULL.
zs_datafile_writer_t *zs_openfiles_get (zs_openfiles_t *self, const uint8_t *key, size_t len);

//  Add the open file of a partition that has none (the map owns it from
//  now on). 0, or -1 when out of memory (the caller still owns file).
int zs_openfiles_put (zs_openfiles_t *self, const uint8_t *key, size_t len,
                      zs_datafile_writer_t *file);

size_t zs_openfiles_count (zs_openfiles_t *self);

//  Take a file out of the map: the least recently used one (lru), or else
//  the one most recently used (the one the last get or put returned). Its
//  key into key[ZS_PARTITION_ROW_MAX], *len. NULL when the map is empty.
zs_datafile_writer_t *zs_openfiles_take (zs_openfiles_t *self, bool lru, uint8_t *key, size_t *len);

//  Abort (delete) every open file.
void zs_openfiles_abort_all (zs_openfiles_t *self);

#endif
