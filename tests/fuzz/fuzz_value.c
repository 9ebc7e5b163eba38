/*  fuzz_value.c - the text parsers of values (rowparse.c,
    zs_value_parse_col): what the file source and Kafka read in CSV fields
    and JSON strings, for every type with parameters (DECIMAL of every
    precision class and scale, TIME, TIMESTAMP(0..9), WITH LOCAL TIME ZONE,
    CHAR/VARCHAR/BINARY lengths, TINYINT, SMALLINT).

    Input: one byte choosing the column (s_columns), then the text.
    Properties, beyond "no crash, leak or UB":
    1. a refusal is one of the ZS_PARSE_ kinds, and its message (zs_value_
       refused) names the column;
    2. a value taken is in range: a DECIMAL has at most its precision's
       digits, a TINYINT/SMALLINT fits, a TIME is within the day;
    3. a value taken and formatted (rowfmt.c) parses back to the same
       value (the text form round trips).
*/
#include "fuzz_common.h"
#include "rowfmt.h"

static const char *const s_columns[] = {
    "v DECIMAL(1, 1)",    "v DECIMAL(9, 2)",
    "v DECIMAL(18, 4)",   "v DECIMAL(38, 0)",
    "v DECIMAL(38, 10)",  "v DECIMAL(38, 38)",
    "v TIME(0)",          "v TIME(3)",
    "v TIMESTAMP(0)",     "v TIMESTAMP(3)",
    "v TIMESTAMP(6)",     "v TIMESTAMP(9)",
    "v TIMESTAMP_LTZ(3)", "v TIMESTAMP(9) WITH LOCAL TIME ZONE",
    "v CHAR(3)",          "v VARCHAR(5)",
    "v BINARY(2)",        "v TINYINT",
    "v SMALLINT",         "v DATE",
};
#define S_NCOLS (sizeof s_columns / sizeof s_columns[0])

static bool
s_same (const zs_column_t *col, const zs_value_t *a, const zs_value_t *b)
{
    switch (col->type) {
    case ZS_TYPE_DECIMAL:
        return zs_dec_get (a) == zs_dec_get (b);
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9:
        return a->v.i64 == b->v.i64;
    case ZS_TYPE_STRING:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BYTES:
    case ZS_TYPE_BINARY:
        return a->v.bin.len == b->v.bin.len
               && (!a->v.bin.len || !memcmp (a->v.bin.ptr, b->v.bin.ptr, a->v.bin.len));
    default:
        return a->v.i32 == b->v.i32;
    }
}

static void
s_check_range (const zs_column_t *col, const zs_value_t *v)
{
    if (col->type == ZS_TYPE_DECIMAL) {
        __int128 x = zs_dec_get (v), lim = zs_pow10 (zs_column_precision (col));
        ZS_FUZZ_CHECK (x < lim && x > -lim);
    } else if (col->type == ZS_TYPE_TINYINT)
        ZS_FUZZ_CHECK (v->v.i32 >= -128 && v->v.i32 <= 127);
    else if (col->type == ZS_TYPE_SMALLINT)
        ZS_FUZZ_CHECK (v->v.i32 >= -32768 && v->v.i32 <= 32767);
    else if (col->type == ZS_TYPE_TIME)
        ZS_FUZZ_CHECK (v->v.i32 >= 0 && v->v.i32 < 86400000);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static zs_schema_t schemas[S_NCOLS];
    static bool ready;
    char err[ZS_ERRLEN];
    if (!ready) {
        for (size_t i = 0; i < S_NCOLS; i++)
            ZS_FUZZ_CHECK (zs_schema_parse (&schemas[i], s_columns[i], err, sizeof err) == 0);
        ready = true;
    }
    const zs_column_t *col = &schemas[data[0] % S_NCOLS].cols[0];
    //  the text as a file source holds it: not NUL-terminated (ASan sees
    //  a read past it)
    size_t len = size - 1;
    uint8_t *text = malloc (len ? len : 1);
    ZS_FUZZ_CHECK (text != NULL);
    memcpy (text, data + 1, len);
    zs_value_t v;
    memset (&v, 0, sizeof v);
    const char *reason = NULL;
    int kind = zs_value_parse_col (col, text, len, &v, &reason);
    if (kind != 0) {
        ZS_FUZZ_CHECK (kind == ZS_PARSE_TYPE || kind == ZS_PARSE_RANGE || kind == ZS_PARSE_UTF8);
        char why[ZS_ERRLEN];
        zs_value_refused (col, kind, "'x'", reason, why, sizeof why);
        ZS_FUZZ_CHECK (strstr (why, "column 'v'") != NULL);
        free (text);
        return 0;
    }
    s_check_range (col, &v);
    zs_strbuf_t out = {0};
    zs_value_text_col (&out, col, &v);
    ZS_FUZZ_CHECK (!out.oom);
    if (zs_type_is_binary (col->type) && !zs_type_is_text (col->type)) {
        zs_strbuf_free (&out); //  BYTES are formatted as hex, not as they are read
        free (text);
        return 0;
    }
    zs_value_t again;
    memset (&again, 0, sizeof again);
    kind = zs_value_parse_col (col, (const uint8_t *) (out.data ? out.data : ""), out.len, &again,
                               &reason);
    if (kind != 0 || !s_same (col, &v, &again))
        fprintf (stderr, "'%.*s' formatted as '%s' does not read back (%d)\n", (int) len,
                 (const char *) text, out.data ? out.data : "", kind);
    ZS_FUZZ_CHECK (kind == 0 && s_same (col, &v, &again));
    zs_strbuf_free (&out);
    free (text);
    return 0;
}
