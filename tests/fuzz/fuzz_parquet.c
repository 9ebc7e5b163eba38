/*  fuzz_parquet.c - the Parquet reader (parquet.h): open (footer, schema,
    row group checks, statistics), then every row.

    Input: a whole file's bytes (handed to zs_parquet_reader_open as a
    memfd path).
    Properties, beyond "no crash, leak or UB":
    1. an opened file's schema is one zsink can hold (1..ZS_MAX_COLUMNS
       columns, known types), stats exist for exactly its columns;
    2. rows never outnumber the footer's count; a non-null value is of its
       column's type (a NOT NULL column never yields a null), and every
       STRING/BYTES value's bytes are readable (ASan checks each byte);
    3. a decode error names the file.
    Rows read per input are capped (S_MAX_ROWS): a few bytes of RLE can
    stand for 2^31 null rows, which is legal and only slow.
*/
#include "fuzz_common.h"
#include "parquet.h"

#define S_MAX_ROWS 100000

static volatile uint8_t s_sink;

static void
s_touch (const zs_column_t *col, const zs_value_t *v)
{
    if (v->null)
        return;
    if (zs_type_is_binary (col->type)) {
        uint8_t x = 0;
        for (uint32_t i = 0; i < v->v.bin.len; i++)
            x ^= v->v.bin.ptr[i];
        s_sink = x;
    }
}

//  A nested value's every element, key, value and field, bytes touched;
//  a ROW has as many fields as its type, a NOT NULL place no null.
static void
s_touch_nested (const zs_schema_t *schema, const zs_column_t *col, const zs_value_t *v)
{
    ZS_FUZZ_CHECK (!v->null || col->nullable);
    if (v->null || !zs_type_is_nested (col->type)) {
        s_touch (col, v);
        return;
    }
    if (col->type == ZS_TYPE_ROW)
        ZS_FUZZ_CHECK (v->v.nest.n == col->nchild);
    for (uint32_t i = 0; i < v->v.nest.n; i++) {
        s_touch_nested (schema,
                        zs_schema_child (schema, col, col->type == ZS_TYPE_ROW ? (int) i : 0),
                        &v->v.nest.elems[i]);
        if (col->type == ZS_TYPE_MAP)
            s_touch_nested (schema, zs_schema_child (schema, col, 1), &v->v.nest.vals[i]);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    const char *path = zs_fuzz_file (data, size);
    char err[ZS_ERRLEN] = "";
    zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
    if (!r) {
        if (zs_fuzz_verbose ())
            fprintf (stderr, "open: %s\n", err);
        ZS_FUZZ_CHECK (strncmp (err, path, strlen (path)) == 0);
        return 0;
    }
    const zs_schema_t *schema = zs_parquet_reader_schema (r);
    ZS_FUZZ_CHECK (schema->n >= 1 && schema->n <= ZS_MAX_COLUMNS);
    int64_t rows = zs_parquet_reader_num_rows (r);
    ZS_FUZZ_CHECK (rows >= 0 && zs_parquet_reader_num_row_groups (r) >= 0);
    for (int i = 0; i < schema->n; i++) {
        const zs_column_t *col = &schema->cols[i];
        ZS_FUZZ_CHECK ((col->type >= ZS_TYPE_BOOLEAN && col->type <= ZS_TYPE_LAST)
                       || zs_type_is_nested (col->type));
        if (col->type == ZS_TYPE_DECIMAL)
            ZS_FUZZ_CHECK (zs_column_precision (col) >= 1 && zs_column_precision (col) <= 38
                           && zs_column_scale (col) <= zs_column_precision (col));
        const zs_column_stats_t *st = zs_parquet_reader_stats (r, i);
        ZS_FUZZ_CHECK (st != NULL);
        ZS_FUZZ_CHECK (st->null_count >= -1);
        if (st->has_minmax) {
            s_touch (col, &st->min);
            s_touch (col, &st->max);
            if (col->type == ZS_TYPE_STRING || col->type == ZS_TYPE_BYTES)
                ZS_FUZZ_CHECK (st->min.v.bin.len <= ZS_STATS_BIN_MAX
                               && st->max.v.bin.len <= ZS_STATS_BIN_MAX);
        }
    }
    ZS_FUZZ_CHECK (zs_parquet_reader_stats (r, -1) == NULL);
    ZS_FUZZ_CHECK (zs_parquet_reader_stats (r, schema->n) == NULL);

    zs_value_t row[ZS_MAX_COLUMNS];
    int64_t n = 0;
    int rc = 0;
    while (n < S_MAX_ROWS && (rc = zs_parquet_reader_next (r, row, err, sizeof err)) == 1) {
        for (int i = 0; i < schema->n; i++) {
            ZS_FUZZ_CHECK (!row[i].null || schema->cols[i].nullable);
            s_touch_nested (schema, &schema->cols[i], &row[i]);
            if (!row[i].null && schema->cols[i].type == ZS_TYPE_DECIMAL) {
                //  the reader refuses a value over the precision
                __int128 x = zs_dec_get (&row[i]);
                __int128 lim = zs_pow10 (zs_column_precision (&schema->cols[i]));
                ZS_FUZZ_CHECK (x < lim && x > -lim);
            }
        }
        n++;
    }
    if (zs_fuzz_verbose ())
        fprintf (stderr, "%d columns, %lld rows in %d row groups; read %lld: %s\n", schema->n,
                 (long long) rows, zs_parquet_reader_num_row_groups (r), (long long) n,
                 rc == 1   ? "row limit"
                 : rc == 0 ? "end"
                           : err);
    ZS_FUZZ_CHECK (n <= rows);
    if (n < S_MAX_ROWS) {
        ZS_FUZZ_CHECK (rc == 0 || rc == -1);
        if (rc == 0)
            ZS_FUZZ_CHECK (n == rows);
        else
            ZS_FUZZ_CHECK (strncmp (err, path, strlen (path)) == 0);
    }
    zs_parquet_reader_destroy (&r);
    ZS_FUZZ_CHECK (r == NULL);
    return 0;
}
