/*  varena.h - an arena for the values a nested value points at (and the
    bytes they hold), made for one row and dropped at the next: the
    Parquet reader's assembled rows and the JSON parser's.

    Allocations never move (blocks are chained, never realloc'd), so a
    value may point at another allocated later. Reset keeps the blocks for
    the next row.
*/
#ifndef ZS_VARENA_H_INCLUDED
#define ZS_VARENA_H_INCLUDED

#include "rowtype.h"

typedef struct _zs_varena_block_t zs_varena_block_t;

typedef struct {
    zs_varena_block_t *head; //  the block being filled
    zs_varena_block_t *first;
} zs_varena_t;

//  n bytes, 16-byte aligned (zeroed: no); NULL when out of memory.
void *zs_varena_alloc (zs_varena_t *self, size_t n);

//  n values, zeroed.
zs_value_t *zs_varena_values (zs_varena_t *self, size_t n);

void zs_varena_reset (zs_varena_t *self);
void zs_varena_fini (zs_varena_t *self);

#endif
