/*  avro_schema.c - Avro schemas: the JSON text parsed into a graph of
    types, and skipping a value of any type (avro.h).

    Invariants:
    1. Every node is in the schema's list, whatever its place in the graph
       (a named type may be used many times, a recursive one refers to
       itself): destroy frees the list, never walks the graph.
    2. Skipping a value costs at most (bytes consumed x nesting depth x
       record width). Types that encode to no bytes at all (null, fixed(0),
       records of those) are skipped without walking them, so a hostile
       schema cannot make a few bytes cost 2^64 steps; the depth is
       limited to ZS_AVRO_MAX_DEPTH.
    3. A record that contains itself through fields alone (no union, array
       or map on the way) has no finite value and is refused at parse time.
*/
#include "avro.h"
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A node and what only this file needs to know about it.
typedef struct {
    zs_avro_node_t pub; //  first: a zs_avro_node_t * is an s_node_t *
    bool zero;          //  every value encodes to no bytes (invariant 2)
    int state;          //  0 unchecked, 1 being checked, 2 checked
    int height;         //  records nested in a record through fields, itself included
    char *namespace;    //  named types: for names used inside them
} s_node_t;

struct _zs_avro_schema_t {
    s_node_t **nodes; //  all of them, for lookups by name and destroy
    size_t n;
    size_t cap;
    zs_avro_node_t *root;
};

typedef struct {
    zs_avro_schema_t *schema;
    char *err;
    size_t errlen;
    bool failed;
} s_parser_t;

static void
s_perr (s_parser_t *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (ps->err, ps->errlen, fmt, ap);
    va_end (ap);
}

static void
s_node_free (s_node_t *node)
{
    zs_avro_node_t *pub = &node->pub;
    if (pub->names) {
        for (int i = 0; i < pub->size; i++)
            free ((char *) pub->names[i]);
        free (pub->names);
    }
    free (pub->types);
    free ((char *) pub->name);
    free ((char *) pub->logical_type);
    free (node->namespace);
    free (node);
}

void
zs_avro_schema_destroy (zs_avro_schema_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_avro_schema_t *self = *self_p;
    for (size_t i = 0; i < self->n; i++)
        s_node_free (self->nodes[i]);
    free (self->nodes);
    free (self);
    *self_p = NULL;
}

const zs_avro_node_t *
zs_avro_schema_root (const zs_avro_schema_t *self)
{
    return self->root;
}

int
zs_avro_field_index (const zs_avro_node_t *record, const char *name)
{
    if (!record || record->kind != ZS_AVRO_RECORD)
        return -1;
    for (int i = 0; i < record->size; i++)
        if (strcmp (record->names[i], name) == 0)
            return i;
    return -1;
}

static s_node_t *
s_new_node (s_parser_t *ps, zs_avro_kind_t kind)
{
    zs_avro_schema_t *s = ps->schema;
    s_node_t **nodes =
        zs_grow (s->nodes, &s->cap, s->n * sizeof *nodes, sizeof *nodes, 16 * sizeof *nodes);
    s_node_t *node = calloc (1, sizeof *node);
    if (!nodes || !node) {
        if (nodes)
            s->nodes = nodes;
        free (node);
        s_perr (ps, "schema: out of memory");
        return NULL;
    }
    s->nodes = nodes;
    s->nodes[s->n++] = node;
    node->pub.kind = kind;
    node->zero = kind == ZS_AVRO_NULL;
    return node;
}

static const struct {
    const char *name;
    zs_avro_kind_t kind;
} s_primitives[] = {
    {"null", ZS_AVRO_NULL},   {"boolean", ZS_AVRO_BOOLEAN}, {"int", ZS_AVRO_INT},
    {"long", ZS_AVRO_LONG},   {"float", ZS_AVRO_FLOAT},     {"double", ZS_AVRO_DOUBLE},
    {"bytes", ZS_AVRO_BYTES}, {"string", ZS_AVRO_STRING},
};

static zs_avro_kind_t
s_primitive (const char *name)
{
    for (size_t i = 0; i < sizeof s_primitives / sizeof s_primitives[0]; i++)
        if (strcmp (s_primitives[i].name, name) == 0)
            return s_primitives[i].kind;
    return 0;
}

//  The full name of `name` defined or used inside namespace ns: a dotted
//  name is full already. malloc'd, NULL when out of memory.
static char *
s_fullname (const char *name, const char *ns)
{
    if (strchr (name, '.') || !ns || !*ns)
        return strdup (name);
    char *full = malloc (strlen (ns) + strlen (name) + 2);
    if (full)
        sprintf (full, "%s.%s", ns, name);
    return full;
}

static s_node_t *
s_lookup (s_parser_t *ps, const char *name, const char *ns)
{
    char *full = s_fullname (name, ns);
    s_node_t *found = NULL;
    zs_avro_schema_t *s = ps->schema;
    for (size_t i = 0; full && !found && i < s->n; i++)
        if (s->nodes[i]->pub.name && strcmp (s->nodes[i]->pub.name, full) == 0)
            found = s->nodes[i];
    //  A name used inside a namespace may also mean a type defined in no
    //  namespace (Avro 1.11 resolves "null namespace" names this way).
    for (size_t i = 0; !found && i < s->n; i++)
        if (s->nodes[i]->pub.name && strcmp (s->nodes[i]->pub.name, name) == 0)
            found = s->nodes[i];
    free (full);
    return found;
}

static s_node_t *s_parse (s_parser_t *ps, json_t *j, const char *ns, int depth);

//  Name a record, enum or fixed and register it before its body is parsed,
//  so that a record may refer to itself.
static int
s_name_node (s_parser_t *ps, s_node_t *node, json_t *j, const char *ns)
{
    const char *name = json_string_value (json_object_get (j, "name"));
    if (!name || !*name) {
        s_perr (ps, "schema: a record, enum or fixed without a name");
        return -1;
    }
    const char *own_ns = json_string_value (json_object_get (j, "namespace"));
    if (own_ns && !strchr (name, '.'))
        ns = own_ns;
    char *full = s_fullname (name, ns);
    if (!full) {
        s_perr (ps, "schema: out of memory");
        return -1;
    }
    zs_avro_schema_t *s = ps->schema;
    for (size_t i = 0; i < s->n; i++)
        if (s->nodes[i]->pub.name && strcmp (s->nodes[i]->pub.name, full) == 0) {
            s_perr (ps, "schema: type '%s' defined twice", full);
            free (full);
            return -1;
        }
    node->pub.name = full;
    const char *dot = strrchr (full, '.');
    node->namespace = dot ? strndup (full, (size_t) (dot - full)) : strdup ("");
    if (!node->namespace) {
        s_perr (ps, "schema: out of memory");
        return -1;
    }
    return 0;
}

static int
s_parse_record (s_parser_t *ps, s_node_t *node, json_t *j, int depth)
{
    json_t *fields = json_object_get (j, "fields");
    if (!json_is_array (fields)) {
        s_perr (ps, "schema: record '%s' has no fields array", node->pub.name);
        return -1;
    }
    size_t n = json_array_size (fields);
    if (n > INT32_MAX / 2) {
        s_perr (ps, "schema: record '%s' has too many fields", node->pub.name);
        return -1;
    }
    node->pub.types = calloc (n ? n : 1, sizeof *node->pub.types);
    node->pub.names = calloc (n ? n : 1, sizeof *node->pub.names);
    if (!node->pub.types || !node->pub.names) {
        s_perr (ps, "schema: out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *f = json_array_get (fields, i);
        const char *fname = json_string_value (json_object_get (f, "name"));
        if (!fname) {
            s_perr (ps, "schema: field %zu of record '%s' has no name", i, node->pub.name);
            return -1;
        }
        if (zs_avro_field_index (&node->pub, fname) >= 0) {
            s_perr (ps, "schema: record '%s' has two fields named '%s'", node->pub.name, fname);
            return -1;
        }
        json_t *ftype = json_object_get (f, "type");
        if (!ftype) {
            s_perr (ps, "schema: field '%s' of record '%s' has no type", fname, node->pub.name);
            return -1;
        }
        if (!(node->pub.names[i] = strdup (fname))) {
            s_perr (ps, "schema: out of memory");
            return -1;
        }
        node->pub.size = (int) i + 1; //  names[0..size) are freed on failure
        s_node_t *t = s_parse (ps, ftype, node->namespace, depth + 1);
        if (!t)
            return -1;
        node->pub.types[i] = &t->pub;
    }
    node->pub.size = (int) n;
    return 0;
}

static int
s_parse_enum (s_parser_t *ps, s_node_t *node, json_t *j)
{
    json_t *symbols = json_object_get (j, "symbols");
    if (!json_is_array (symbols) || json_array_size (symbols) == 0
        || json_array_size (symbols) > INT32_MAX / 2) {
        s_perr (ps, "schema: enum '%s' without symbols", node->pub.name);
        return -1;
    }
    size_t n = json_array_size (symbols);
    if (!(node->pub.names = calloc (n, sizeof *node->pub.names))) {
        s_perr (ps, "schema: out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const char *sym = json_string_value (json_array_get (symbols, i));
        if (!sym) {
            s_perr (ps, "schema: enum '%s' has a symbol that is not a string", node->pub.name);
            return -1;
        }
        if (!(node->pub.names[i] = strdup (sym))) {
            s_perr (ps, "schema: out of memory");
            return -1;
        }
        node->pub.size = (int) i + 1;
    }
    return 0;
}

static int
s_parse_fixed (s_parser_t *ps, s_node_t *node, json_t *j)
{
    json_t *size = json_object_get (j, "size");
    if (!json_is_integer (size) || json_integer_value (size) < 0
        || json_integer_value (size) > INT32_MAX) {
        s_perr (ps, "schema: fixed '%s' without a valid size", node->pub.name);
        return -1;
    }
    node->pub.size = (int) json_integer_value (size);
    node->zero = node->pub.size == 0;
    return 0;
}

//  array or map: one child type under key.
static int
s_parse_container (s_parser_t *ps, s_node_t *node, json_t *j, const char *key, const char *ns,
                   int depth)
{
    json_t *child = json_object_get (j, key);
    if (!child) {
        s_perr (ps, "schema: %s without '%s'", node->pub.kind == ZS_AVRO_ARRAY ? "array" : "map",
                key);
        return -1;
    }
    if (!(node->pub.types = calloc (1, sizeof *node->pub.types))) {
        s_perr (ps, "schema: out of memory");
        return -1;
    }
    s_node_t *t = s_parse (ps, child, ns, depth + 1);
    if (!t)
        return -1;
    node->pub.types[0] = &t->pub;
    node->pub.size = 1;
    return 0;
}

static s_node_t *
s_parse_union (s_parser_t *ps, json_t *j, const char *ns, int depth)
{
    size_t n = json_array_size (j);
    if (n == 0 || n > INT32_MAX / 2) {
        s_perr (ps, "schema: a union without branches");
        return NULL;
    }
    s_node_t *node = s_new_node (ps, ZS_AVRO_UNION);
    if (!node || !(node->pub.types = calloc (n, sizeof *node->pub.types))) {
        s_perr (ps, "schema: out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        s_node_t *t = s_parse (ps, json_array_get (j, i), ns, depth + 1);
        if (!t)
            return NULL;
        if (t->pub.kind == ZS_AVRO_UNION) {
            s_perr (ps, "schema: a union directly inside a union");
            return NULL;
        }
        node->pub.types[i] = &t->pub;
    }
    node->pub.size = (int) n;
    return node;
}

//  {"type": …} objects.
static s_node_t *
s_parse_object (s_parser_t *ps, json_t *j, const char *ns, int depth)
{
    json_t *type = json_object_get (j, "type");
    const char *tname = json_string_value (type);
    if (!tname) {
        //  {"type": {"type": "int"}} and {"type": [..]} are legal nestings.
        if (json_is_object (type) || json_is_array (type))
            return s_parse (ps, type, ns, depth + 1);
        s_perr (ps, "schema: an object without a type");
        return NULL;
    }
    zs_avro_kind_t kind = s_primitive (tname);
    if (!kind) {
        static const struct {
            const char *name;
            zs_avro_kind_t kind;
        } complex[] = {{"record", ZS_AVRO_RECORD}, {"error", ZS_AVRO_RECORD},
                       {"enum", ZS_AVRO_ENUM},     {"fixed", ZS_AVRO_FIXED},
                       {"array", ZS_AVRO_ARRAY},   {"map", ZS_AVRO_MAP}};
        for (size_t i = 0; i < sizeof complex / sizeof complex[0]; i++)
            if (strcmp (complex[i].name, tname) == 0)
                kind = complex[i].kind;
    }
    if (!kind) //  {"type": "SomeRecord"}: a reference
        return s_parse (ps, type, ns, depth + 1);
    s_node_t *node = s_new_node (ps, kind);
    if (!node)
        return NULL;
    const char *logical = json_string_value (json_object_get (j, "logicalType"));
    if (logical && !(node->pub.logical_type = strdup (logical))) {
        s_perr (ps, "schema: out of memory");
        return NULL;
    }
    int rc = 0;
    if (kind == ZS_AVRO_RECORD || kind == ZS_AVRO_ENUM || kind == ZS_AVRO_FIXED)
        rc = s_name_node (ps, node, j, ns);
    if (rc == 0 && kind == ZS_AVRO_RECORD)
        rc = s_parse_record (ps, node, j, depth);
    else if (rc == 0 && kind == ZS_AVRO_ENUM)
        rc = s_parse_enum (ps, node, j);
    else if (rc == 0 && kind == ZS_AVRO_FIXED)
        rc = s_parse_fixed (ps, node, j);
    else if (kind == ZS_AVRO_ARRAY)
        rc = s_parse_container (ps, node, j, "items", ns, depth);
    else if (kind == ZS_AVRO_MAP)
        rc = s_parse_container (ps, node, j, "values", ns, depth);
    return rc == 0 ? node : NULL;
}

static s_node_t *
s_parse (s_parser_t *ps, json_t *j, const char *ns, int depth)
{
    if (depth > ZS_AVRO_MAX_DEPTH) {
        s_perr (ps, "schema: types nested deeper than %d", ZS_AVRO_MAX_DEPTH);
        return NULL;
    }
    if (json_is_array (j))
        return s_parse_union (ps, j, ns, depth);
    if (json_is_object (j))
        return s_parse_object (ps, j, ns, depth);
    const char *name = json_string_value (j);
    if (!name) {
        s_perr (ps, "schema: a type that is neither a name, an object nor a union");
        return NULL;
    }
    zs_avro_kind_t kind = s_primitive (name);
    if (kind)
        return s_new_node (ps, kind);
    s_node_t *named = s_lookup (ps, name, ns);
    if (!named)
        s_perr (ps, "schema: unknown type '%s'", name);
    return named;
}

//  Mark records whose values encode to no bytes (invariant 2), and refuse
//  records that contain themselves through fields alone (no union, array
//  or map on the way: their values would be infinite, invariant 3) or
//  through more than ZS_AVRO_MAX_DEPTH records (no value could be skipped).
//  Named records can nest deeper than the JSON does, each defined apart
//  and holding the last: hence the height, and depth for the stack.
static int
s_check (s_parser_t *ps, s_node_t *node, int depth)
{
    if (node->pub.kind != ZS_AVRO_RECORD || node->state == 2)
        return 0;
    if (node->state == 1) {
        s_perr (ps, "schema: record '%s' contains itself", node->pub.name);
        return -1;
    }
    node->state = 1;
    bool zero = true;
    int height = 0;
    for (int i = 0; i < node->pub.size; i++) {
        s_node_t *f = (s_node_t *) node->pub.types[i];
        if (depth >= ZS_AVRO_MAX_DEPTH || s_check (ps, f, depth + 1) != 0) {
            s_perr (ps, "schema: records nested deeper than %d", ZS_AVRO_MAX_DEPTH);
            return -1;
        }
        zero = zero && f->zero;
        if (f->height > height)
            height = f->height;
    }
    node->zero = zero;
    node->height = height + 1;
    node->state = 2;
    if (node->height > ZS_AVRO_MAX_DEPTH) {
        s_perr (ps, "schema: records nested deeper than %d", ZS_AVRO_MAX_DEPTH);
        return -1;
    }
    return 0;
}

zs_avro_schema_t *
zs_avro_schema_parse (const char *json, size_t len, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *j = json_loadb (json, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
    if (!j) {
        snprintf (err, errlen, "schema: not JSON: %s (line %d)", jerr.text, jerr.line);
        return NULL;
    }
    s_parser_t ps = {calloc (1, sizeof (zs_avro_schema_t)), err, errlen, false};
    if (!ps.schema) {
        json_decref (j);
        snprintf (err, errlen, "schema: out of memory");
        return NULL;
    }
    s_node_t *root = s_parse (&ps, j, "", 0);
    for (size_t i = 0; root && i < ps.schema->n; i++)
        if (s_check (&ps, ps.schema->nodes[i], 0) != 0)
            root = NULL;
    json_decref (j);
    if (!root) {
        zs_avro_schema_destroy (&ps.schema);
        return NULL;
    }
    ps.schema->root = &root->pub;
    return ps.schema;
}

static int
s_skip (zs_avro_dec_t *self, const zs_avro_node_t *t, int depth)
{
    if (self->error)
        return -1;
    if (((const s_node_t *) t)->zero)
        return 0;
    if (depth > ZS_AVRO_MAX_DEPTH)
        return zs_avro_dec_fail (self, "values nested too deep");
    const uint8_t *data;
    size_t len;
    bool b;
    int32_t i32;
    int64_t l;
    int i;
    switch (t->kind) {
    case ZS_AVRO_NULL:
        return 0;
    case ZS_AVRO_BOOLEAN:
        return zs_avro_dec_bool (self, &b);
    case ZS_AVRO_INT:
        return zs_avro_dec_int (self, &i32);
    case ZS_AVRO_LONG:
        return zs_avro_dec_long (self, &l);
    case ZS_AVRO_FLOAT:
        return zs_avro_dec_skip_bytes (self, 4);
    case ZS_AVRO_DOUBLE:
        return zs_avro_dec_skip_bytes (self, 8);
    case ZS_AVRO_BYTES:
    case ZS_AVRO_STRING:
        return zs_avro_dec_bytes (self, &data, &len);
    case ZS_AVRO_FIXED:
        return zs_avro_dec_fixed (self, (size_t) t->size, &data);
    case ZS_AVRO_ENUM:
        return zs_avro_dec_enum (self, t->size, &i);
    case ZS_AVRO_UNION:
        if (zs_avro_dec_union (self, t->size, &i) != 0)
            return -1;
        return s_skip (self, t->types[i], depth + 1);
    case ZS_AVRO_RECORD:
        for (i = 0; i < t->size; i++)
            if (s_skip (self, t->types[i], depth + 1) != 0)
                return -1;
        return 0;
    case ZS_AVRO_ARRAY:
    case ZS_AVRO_MAP: {
        int64_t count, size;
        while (zs_avro_dec_block (self, &count, &size) == 0 && count > 0) {
            if (size >= 0) {
                zs_avro_dec_skip_bytes (self, (size_t) size);
                continue;
            }
            for (int64_t k = 0; k < count; k++) {
                if (t->kind == ZS_AVRO_MAP && zs_avro_dec_string (self, &data, &len) != 0)
                    return -1;
                if (s_skip (self, t->types[0], depth + 1) != 0)
                    return -1;
            }
        }
        return self->error ? -1 : 0;
    }
    }
    return zs_avro_dec_fail (self, "unknown schema type");
}

int
zs_avro_dec_skip (zs_avro_dec_t *self, const zs_avro_node_t *type)
{
    return s_skip (self, type, 0);
}
