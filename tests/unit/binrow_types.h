/*  binrow_types.h - the binrow calls with a type per column (the columns'
    other parameters at their defaults), as the tests and fuzzers written
    before binrow took columns spell them. Included by test_binrow.c,
    tests/fuzz/fuzz_avro.c and tests/fuzz/gen_corpus.c.
*/
#ifndef ZS_TEST_BINROW_TYPES_H_INCLUDED
#define ZS_TEST_BINROW_TYPES_H_INCLUDED

#include "binrow.h"
#include <string.h>

static inline void
s_columns_of (const zs_type_t *types, int n, zs_column_t *cols)
{
    memset (cols, 0, 64 * sizeof *cols);
    for (int i = 0; i < n && i < 64 && types; i++)
        cols[i].type = types[i];
}

static inline uint8_t *
s_encode (const zs_type_t *types, const zs_value_t *values, int n, size_t *len, char *err,
          size_t errlen)
{
    zs_column_t cols[64];
    s_columns_of (types, n, cols);
    return zs_binrow_encode (types ? cols : NULL, values, n, len, err, errlen);
}

static inline int
s_decode (const void *data, size_t len, const zs_type_t *types, int n, zs_value_t *values,
          char *err, size_t errlen)
{
    zs_column_t cols[64];
    s_columns_of (types, n, cols);
    return zs_binrow_decode (data, len, types ? cols : NULL, n, values, err, errlen);
}

#endif
