/*  fuzz_computed.c - the computed-column parser and evaluator (computed.h):
    table.computed-columns text from a user, values from any source.

    Input: the text, then optionally a NUL and the bytes the row's values
    are made of (its STRING columns take slices of them, the numbers their
    bits). Properties: zs_computed_check_text accepts what zs_computed_new
    compiles, and its canonical text checks again to itself and compiles
    to the same row type; a compiled text evaluates without crashing, every
    STRING result lies in readable memory, and an error says why.
*/
#include "computed.h"
#include "fuzz_common.h"

#define S_SOURCE                                                                                   \
    "id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3), n INT, big BIGINT, d DATE, "                \
    "us TIMESTAMP(6), ok BOOLEAN, s2 STRING"

//  The row's source values from the bytes (zeros and empty strings when
//  short), some of them NULL.
static void
s_row (const zs_schema_t *schema, const uint8_t *bytes, size_t len, zs_value_t *row)
{
    size_t at = 0;
    for (int c = 0; c < schema->n; c++) {
        uint64_t bits = 0;
        for (int k = 0; k < 8 && at < len; k++)
            bits = bits << 8 | bytes[at++];
        memset (&row[c], 0, sizeof row[c]);
        row[c].null = schema->cols[c].nullable && (bits & 0xff) == 0x5a;
        switch (schema->cols[c].type) {
        case ZS_TYPE_STRING: {
            size_t n = at < len ? (bits % (len - at + 1)) : 0;
            row[c].v.bin.ptr = bytes + at;
            row[c].v.bin.len = (uint32_t) n;
            at += n;
            break;
        }
        case ZS_TYPE_INT:
        case ZS_TYPE_DATE:
            row[c].v.i32 = (int32_t) bits;
            break;
        case ZS_TYPE_BOOLEAN:
            row[c].v.b = bits & 1;
            break;
        default:
            row[c].v.i64 = (int64_t) bits;
            break;
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    static zs_schema_t source;
    char err[ZS_ERRLEN];
    if (!source.n && zs_schema_parse (&source, S_SOURCE, err, sizeof err) != 0)
        abort ();
    const uint8_t *nul = memchr (data, 0, size);
    size_t text_len = nul ? (size_t) (nul - data) : size;
    char *text = zs_fuzz_text (data, text_len);
    static char canon[ZS_COMPUTED_TEXT_MAX], again[ZS_COMPUTED_TEXT_MAX];
    err[0] = 0;
    int checked = zs_computed_check_text (text, canon, sizeof canon, err, sizeof err);
    ZS_FUZZ_CHECK (checked == 0 || err[0] != 0);
    err[0] = 0;
    zs_computed_t *c = zs_computed_new (text, &source, err, sizeof err);
    if (zs_fuzz_verbose ())
        fprintf (stderr, "check %d, new %s: %s\n", checked, c ? "ok" : "failed", c ? canon : err);
    ZS_FUZZ_CHECK (c || err[0] != 0);
    if (checked == 0) {
        ZS_FUZZ_CHECK (zs_computed_check_text (canon, again, sizeof again, err, sizeof err) == 0);
        ZS_FUZZ_CHECK (strcmp (canon, again) == 0);
    }
    if (c) {
        ZS_FUZZ_CHECK (checked == 0);
        const zs_schema_t *schema = zs_computed_schema (c);
        ZS_FUZZ_CHECK (schema->n == source.n + zs_computed_count (c));
        zs_computed_t *c2 = zs_computed_new (canon, &source, err, sizeof err);
        ZS_FUZZ_CHECK (c2 != NULL);
        ZS_FUZZ_CHECK (zs_computed_schema (c2)->fingerprint == schema->fingerprint);
        zs_computed_destroy (&c2);
        zs_value_t row[ZS_MAX_COLUMNS];
        const uint8_t *rest = nul ? nul + 1 : data + size;
        s_row (&source, rest, (size_t) (data + size - rest), row);
        err[0] = 0;
        if (zs_computed_eval (c, row, err, sizeof err) != 0)
            ZS_FUZZ_CHECK (err[0] != 0);
        else
            for (int i = source.n; i < schema->n; i++) {
                volatile uint8_t sum = 0;
                if (!row[i].null && zs_type_is_binary (schema->cols[i].type))
                    for (uint32_t k = 0; k < row[i].v.bin.len; k++)
                        sum += row[i].v.bin.ptr[k];
                (void) sum;
            }
        zs_computed_destroy (&c);
    }
    free (text);
    return 0;
}
