/*  partition_filter.h - partition values from text and compared, and the
    partition filter of a pruned scan (scan --where): comparisons of
    partition keys with values (=, !=, <>, <, <=, >, >=; IS [NOT] NULL)
    joined by AND, values quoted 'like this' ('' a quote) or bare, read as
    the key's type: "dt = '2026-12-04' AND hr >= 7".
*/
#ifndef ZS_PARTITION_FILTER_H_INCLUDED
#define ZS_PARTITION_FILTER_H_INCLUDED

#include "partition.h"

//  -1, 0, 1 as a < b, a == b, a > b for two non-null values of type.
int zs_partition_value_cmp (zs_type_t type, const zs_value_t *a, const zs_value_t *b);

//  The key named name[0..len) (case-insensitively, as column names
//  compare), or -1.
int zs_partition_key_index (const zs_partition_t *part, const char *name, size_t len);

//  Key k's value from text v[0..vlen) as a spec gives it (the default name
//  for null), STRINGs into scratch. 0, or -1 with err naming key and value.
int zs_partition_key_value (const zs_partition_t *part, int k, const char *v, size_t vlen,
                            zs_value_t *out, char *scratch, size_t scratchlen, char *err,
                            size_t errlen);

typedef struct _zs_partition_filter_t zs_partition_filter_t;

//  Parse where against the partitioning. NULL + err naming what does not
//  parse or is no partition key.
zs_partition_filter_t *zs_partition_filter_parse (const zs_partition_t *part, const char *where,
                                                  char *err, size_t errlen);
void zs_partition_filter_destroy (zs_partition_filter_t **self_p);
//  Does the file's partition pass? (One that does not decode does: its
//  read says why.)
bool zs_partition_filter_match (const zs_partition_filter_t *self, const zs_file_meta_t *f);
//  Keep in files[0..*n) those that pass, in order; how many were left out.
size_t zs_partition_filter_files (const zs_partition_filter_t *self, zs_file_meta_t *files,
                                  size_t *n);

#endif
