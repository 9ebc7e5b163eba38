/*  record_nested.c - see record_nested.h.

    Recursion is bounded by the schema's depth (ZS_MAX_DEPTH), not by the
    input: a value nested deeper than its column's type is a type error at
    the type's deepest level.
*/
#include "record_nested.h"
#include "rowfmt.h"
#include <stdio.h>
#include <string.h>

static int s_value (const zs_schema_t *schema, const zs_column_t *col, const char *path, json_t *v,
                    zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen);

//  "path" extended by a suffix into buf (cut to a column name's size).
static const char *
s_path (char *buf, size_t len, const char *path, const char *fmt, const char *a, size_t i)
{
    char tail[ZS_COLUMN_NAME_MAX];
    if (a)
        snprintf (tail, sizeof tail, fmt, a);
    else
        snprintf (tail, sizeof tail, fmt, i);
    snprintf (buf, len, "%s%s", path, tail);
    return buf;
}

static int
s_oom (char *why, size_t whylen, const char *path)
{
    snprintf (why, whylen, "column '%s': out of memory", path);
    return -1;
}

static int
s_wrong (char *why, size_t whylen, const char *path, const char *want, json_t *v)
{
    char shown[ZS_SHOW_MAX * 4 + 8];
    char *dump = json_dumps (v, JSON_ENCODE_ANY | JSON_COMPACT);
    zs_value_show (shown, sizeof shown, (const uint8_t *) (dump ? dump : "?"),
                   dump ? strlen (dump) : 1);
    free (dump);
    snprintf (why, whylen, "column '%s': %s is not %s", path, shown, want);
    return -1;
}

static int
s_array (const zs_schema_t *schema, const zs_column_t *col, const char *path, json_t *v,
         zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen)
{
    if (!json_is_array (v))
        return s_wrong (why, whylen, path, "a JSON array (ARRAY)", v);
    size_t n = json_array_size (v);
    zs_value_t *e = zs_varena_values (arena, n);
    if (!e)
        return s_oom (why, whylen, path);
    const zs_column_t *ec = zs_schema_child (schema, col, 0);
    for (size_t i = 0; i < n; i++) {
        char sub[512];
        s_path (sub, sizeof sub, path, "[%zu]", NULL, i);
        if (s_value (schema, ec, sub, json_array_get (v, i), &e[i], arena, why, whylen) != 0)
            return -1;
    }
    out->v.nest.elems = e;
    out->v.nest.n = (uint32_t) n;
    return 0;
}

static int
s_row (const zs_schema_t *schema, const zs_column_t *col, const char *path, json_t *v,
       zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen)
{
    if (!json_is_object (v))
        return s_wrong (why, whylen, path, "a JSON object (ROW)", v);
    zs_value_t *f = zs_varena_values (arena, col->nchild);
    if (!f)
        return s_oom (why, whylen, path);
    for (int i = 0; i < col->nchild; i++) {
        const zs_column_t *fc = zs_schema_child (schema, col, i);
        char sub[512];
        s_path (sub, sizeof sub, path, ".%s", fc->name, 0);
        if (s_value (schema, fc, sub, json_object_get (v, fc->name), &f[i], arena, why, whylen)
            != 0)
            return -1;
    }
    out->v.nest.elems = f;
    out->v.nest.n = col->nchild;
    return 0;
}

//  A map key from a member name: parsed as the key type's text.
static int
s_key (const zs_column_t *kc, const char *path, const char *name, zs_value_t *out, char *why,
       size_t whylen)
{
    zs_column_t named = *kc;
    snprintf (named.name, sizeof named.name, "%s", path);
    out->null = false;
    if (zs_type_is_nested (kc->type)) {
        snprintf (why, whylen, "column '%s': a %s key needs the [[key, value], ...] form", path,
                  zs_type_name (kc->type));
        return -1;
    }
    const char *reason = NULL;
    int kind = zs_value_parse_col (&named, (const uint8_t *) name, strlen (name), out, &reason);
    if (kind == 0)
        return 0;
    char text[ZS_SHOW_MAX * 4 + 8], shown[sizeof text + 2];
    zs_value_show (text, sizeof text, (const uint8_t *) name, strlen (name));
    snprintf (shown, sizeof shown, "\"%s\"", text); //  a member name: a JSON string
    return zs_value_refused (&named, kind, shown, reason, why, whylen);
}

static int
s_map (const zs_schema_t *schema, const zs_column_t *col, const char *path, json_t *v,
       zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen)
{
    bool pairs = json_is_array (v);
    if (!pairs && !json_is_object (v))
        return s_wrong (why, whylen, path, "a JSON object or an array of [key, value] (MAP)", v);
    size_t n = pairs ? json_array_size (v) : json_object_size (v);
    zs_value_t *k = zs_varena_values (arena, n), *val = zs_varena_values (arena, n);
    if (!k || !val)
        return s_oom (why, whylen, path);
    const zs_column_t *kc = zs_schema_child (schema, col, 0);
    const zs_column_t *vc = zs_schema_child (schema, col, 1);
    size_t i = 0;
    if (pairs) {
        for (i = 0; i < n; i++) {
            json_t *p = json_array_get (v, i);
            char sub[512];
            s_path (sub, sizeof sub, path, "[%zu]", NULL, i);
            if (!json_is_array (p) || json_array_size (p) != 2)
                return s_wrong (why, whylen, sub, "a [key, value] pair", p);
            char kp[520];
            snprintf (kp, sizeof kp, "%s.key", sub);
            if (s_value (schema, kc, kp, json_array_get (p, 0), &k[i], arena, why, whylen) != 0)
                return -1;
            snprintf (kp, sizeof kp, "%s.value", sub);
            if (s_value (schema, vc, kp, json_array_get (p, 1), &val[i], arena, why, whylen) != 0)
                return -1;
        }
    } else {
        const char *name;
        json_t *m;
        json_object_foreach (v, name, m)
        {
            char sub[512];
            s_path (sub, sizeof sub, path, "{\"%s\"}", name, 0);
            if (s_key (kc, sub, name, &k[i], why, whylen) != 0
                || s_value (schema, vc, sub, m, &val[i], arena, why, whylen) != 0)
                return -1;
            i++;
        }
    }
    out->v.nest.elems = k;
    out->v.nest.vals = val;
    out->v.nest.n = (uint32_t) n;
    return 0;
}

static int
s_value (const zs_schema_t *schema, const zs_column_t *col, const char *path, json_t *v,
         zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen)
{
    memset (out, 0, sizeof *out);
    if (!v || json_is_null (v)) {
        out->null = true;
        if (col->nullable)
            return 0;
        snprintf (why, whylen, "column '%s': NULL in a NOT NULL %s", path,
                  col->type == ZS_TYPE_MAP ? "map" : "place");
        return -1;
    }
    switch (col->type) {
    case ZS_TYPE_ARRAY:
        return s_array (schema, col, path, v, out, arena, why, whylen);
    case ZS_TYPE_MAP:
        return s_map (schema, col, path, v, out, arena, why, whylen);
    case ZS_TYPE_ROW:
        return s_row (schema, col, path, v, out, arena, why, whylen);
    default: {
        zs_column_t named = *col;
        snprintf (named.name, sizeof named.name, "%s", path);
        return zs_record_json_scalar (&named, v, out, why, whylen);
    }
    }
}

int
zs_record_json_nested (const zs_schema_t *schema, const zs_column_t *col, json_t *v,
                       zs_value_t *out, zs_varena_t *arena, char *why, size_t whylen)
{
    return s_value (schema, col, col->name, v, out, arena, why, whylen);
}
