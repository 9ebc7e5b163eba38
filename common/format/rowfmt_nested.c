/*  rowfmt_nested.c - nested values (ARRAY, MAP, ROW) as JSON, for
    `zsink table scan` and the oracles' comparisons (rowfmt.h).

    A MAP is a JSON object whose member names are the keys' text: what
    Paimon Java and pypaimon print a map as, once each side turns it into
    a sorted-key object. Keys are kept in the map's order here.
*/
#include "rowfmt.h"
#include <string.h>

void
zs_value_json_nested (zs_strbuf_t *out, const zs_schema_t *schema, const zs_column_t *col,
                      const zs_value_t *value)
{
    if (value->null || !zs_type_is_nested (col->type)) {
        zs_value_json_col (out, col, value);
        return;
    }
    const zs_value_t *e = value->v.nest.elems;
    uint32_t n = value->v.nest.n;
    if (col->type == ZS_TYPE_ARRAY) {
        const zs_column_t *ec = zs_schema_child (schema, col, 0);
        zs_strbuf_append (out, "[", 1);
        for (uint32_t i = 0; i < n; i++) {
            if (i)
                zs_strbuf_append (out, ",", 1);
            zs_value_json_nested (out, schema, ec, &e[i]);
        }
        zs_strbuf_append (out, "]", 1);
        return;
    }
    zs_strbuf_append (out, "{", 1);
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            zs_strbuf_append (out, ",", 1);
        if (col->type == ZS_TYPE_ROW) {
            const zs_column_t *f = zs_schema_child (schema, col, (int) i);
            zs_strbuf_json_string (out, (const uint8_t *) f->name, strlen (f->name));
            zs_strbuf_append (out, ":", 1);
            zs_value_json_nested (out, schema, f, &e[i]);
            continue;
        }
        const zs_column_t *kc = zs_schema_child (schema, col, 0);
        const zs_column_t *vc = zs_schema_child (schema, col, 1);
        zs_strbuf_t key = {0};
        if (zs_type_is_nested (kc->type))
            zs_value_json_nested (&key, schema, kc, &e[i]);
        else if (e[i].null)
            zs_strbuf_appends (&key, "null");
        else
            zs_value_text_col (&key, kc, &e[i]);
        zs_strbuf_json_string (out, (const uint8_t *) (key.data ? key.data : ""), key.len);
        out->oom |= key.oom;
        zs_strbuf_free (&key);
        zs_strbuf_append (out, ":", 1);
        zs_value_json_nested (out, schema, vc, &value->v.nest.vals[i]);
    }
    zs_strbuf_append (out, "}", 1);
}
