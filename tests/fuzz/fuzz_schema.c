/*  fuzz_schema.c - both schema decoders (schema.h): zs_schema_from_json,
    which reads <table>/schema/schema-0, and zs_schema_parse, the
    table.schema text of a job's configuration.

    Input: text; both decoders get every input (JSON fails the text parser
    at once and the other way round).
    Properties, beyond "no crash, leak or UB":
    1. a parsed schema is sane: 1..ZS_MAX_COLUMNS columns, names of
       [A-Za-z_][A-Za-z0-9_]* unique case-insensitively, known types, id_col
       the first BIGINT "id";
    2. text -> format -> parse, and JSON -> to_json -> from_json, give the
       same schema (same columns, same fingerprint), and zs_schema_diff
       finds no difference.
*/
#include "fuzz_common.h"
#include "schema.h"
#include <ctype.h>
#include <strings.h>

static void
s_check_sane (const zs_schema_t *s)
{
    ZS_FUZZ_CHECK (s->n >= 1 && s->n <= ZS_MAX_COLUMNS);
    int id_col = -1;
    for (int i = 0; i < s->n; i++) {
        const zs_column_t *c = &s->cols[i];
        size_t len = strnlen (c->name, sizeof c->name);
        ZS_FUZZ_CHECK (len > 0 && len < sizeof c->name);
        ZS_FUZZ_CHECK (isalpha ((unsigned char) c->name[0]) || c->name[0] == '_');
        for (size_t j = 0; j < len; j++)
            ZS_FUZZ_CHECK (isalnum ((unsigned char) c->name[j]) || c->name[j] == '_');
        ZS_FUZZ_CHECK ((c->type >= ZS_TYPE_BOOLEAN && c->type <= ZS_TYPE_LAST)
                       || zs_type_is_nested (c->type));
        if (c->type == ZS_TYPE_DECIMAL)
            ZS_FUZZ_CHECK (zs_column_precision (c) >= 1 && zs_column_precision (c) <= 38
                           && zs_column_scale (c) <= zs_column_precision (c));
        ZS_FUZZ_CHECK (zs_column_length (c) >= 1);
        ZS_FUZZ_CHECK (strcmp (zs_type_name (c->type), "?") != 0);
        for (int k = 0; k < i; k++)
            ZS_FUZZ_CHECK (strcasecmp (s->cols[k].name, c->name) != 0);
        if (id_col < 0 && strcmp (c->name, "id") == 0 && c->type == ZS_TYPE_BIGINT)
            id_col = i;
    }
    ZS_FUZZ_CHECK (s->id_col == id_col);
}

static void
s_check_same (const zs_schema_t *a, const zs_schema_t *b)
{
    char why[ZS_ERRLEN];
    ZS_FUZZ_CHECK (a->n == b->n);
    for (int i = 0; i < a->n; i++) {
        ZS_FUZZ_CHECK (strcmp (a->cols[i].name, b->cols[i].name) == 0);
        ZS_FUZZ_CHECK (a->cols[i].type == b->cols[i].type);
        ZS_FUZZ_CHECK (a->cols[i].nullable == b->cols[i].nullable);
        ZS_FUZZ_CHECK (zs_column_precision (&a->cols[i]) == zs_column_precision (&b->cols[i]));
        ZS_FUZZ_CHECK (zs_column_scale (&a->cols[i]) == zs_column_scale (&b->cols[i]));
        ZS_FUZZ_CHECK (zs_column_length (&a->cols[i]) == zs_column_length (&b->cols[i]));
        ZS_FUZZ_CHECK (a->cols[i].ltz == b->cols[i].ltz);
    }
    ZS_FUZZ_CHECK (a->id_col == b->id_col);
    ZS_FUZZ_CHECK (a->fingerprint == b->fingerprint);
    ZS_FUZZ_CHECK (zs_schema_diff (a, b, why, sizeof why) == 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    char *text = zs_fuzz_text (data, size);
    static zs_schema_t s, again;
    static char form[ZS_MAX_COLUMNS * (ZS_COLUMN_NAME_MAX + ZS_TYPE_TEXT_MAX + 12)];
    char err[ZS_ERRLEN] = "";

    //  The text form.
    if (zs_schema_parse (&s, text, err, sizeof err) == 0) {
        s_check_sane (&s);
        ZS_FUZZ_CHECK (zs_schema_format (&s, form, sizeof form) == 0);
        ZS_FUZZ_CHECK (zs_schema_parse (&again, form, err, sizeof err) == 0);
        s_check_same (&s, &again);
        //  A buffer too small is refused, never overrun (ASan watches).
        size_t need = strlen (form) + 1;
        char *small = malloc (need - 1);
        ZS_FUZZ_CHECK (small != NULL);
        ZS_FUZZ_CHECK (zs_schema_format (&s, small, need - 1) == -1);
        free (small);
    } else
        ZS_FUZZ_CHECK (err[0] != 0);

    //  The JSON form (a schema file).
    static zs_table_schema_t t, t2;
    err[0] = 0;
    int rc = zs_schema_from_json (&t, text, err, sizeof err);
    if (rc == 0) {
        s_check_sane (&t.row);
        ZS_FUZZ_CHECK (t.n_options >= 0 && t.n_options <= ZS_SCHEMA_OPTIONS_MAX);
        char why[ZS_ERRLEN];
        if (zs_schema_writable (&t, why, sizeof why) != 0)
            ZS_FUZZ_CHECK (why[0] != 0);
        char *json = zs_schema_to_json (&t.row, 0);
        ZS_FUZZ_CHECK (json != NULL);
        rc = zs_schema_from_json (&t2, json, err, sizeof err);
        if (rc != 0)
            fprintf (stderr, "re-encoded schema does not decode: %s\n%s\n", err, json);
        ZS_FUZZ_CHECK (rc == 0);
        s_check_same (&t.row, &t2.row);
        free (json);
    } else {
        ZS_FUZZ_CHECK (rc == ZS_ECORRUPT);
        ZS_FUZZ_CHECK (err[0] != 0);
    }
    free (text);
    return 0;
}
