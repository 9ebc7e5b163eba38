/*  rowtype_nested.c - the nested types of the row type (rowtype.h):
    ARRAY<T>, MAP<K, V>, ROW<name T, ...> (Flink SQL also writes ROW(...)),
    parsed into the schema's node pool and spelt back.

    Invariants:
    1. A nested column's children are contiguous in schema->nodes: the
       parser reserves a node's children before it parses any of them, so
       a grandchild never lands between two siblings.
    2. Depth is bounded (ZS_MAX_DEPTH), nodes by ZS_MAX_NODES: a hostile
       schema text is an error, never a stack overflow.
    3. The text form spells every child the way the parser reads it back,
       so format(parse(x)) is a fixed point (the fingerprint relies on it).
*/
#include "rowtype.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool
zs_type_is_nested (zs_type_t type)
{
    return type == ZS_TYPE_ARRAY || type == ZS_TYPE_MAP || type == ZS_TYPE_ROW;
}

bool
zs_schema_has_nested (const zs_schema_t *self)
{
    for (int i = 0; i < self->n; i++)
        if (zs_type_is_nested (self->cols[i].type))
            return true;
    return false;
}

//  Append text to buf at *used (cut at len, always terminated).
static void
s_put (char *buf, size_t len, size_t *used, const char *text)
{
    size_t n = strlen (text);
    if (*used >= len)
        return;
    size_t room = len - *used - 1;
    n = n < room ? n : room;
    memcpy (buf + *used, text, n);
    *used += n;
    buf[*used] = '\0';
}

static void
s_type_text (const zs_schema_t *self, const zs_column_t *col, char *buf, size_t len, size_t *used,
             int depth)
{
    char scalar[ZS_TYPE_TEXT_MAX];
    if (!zs_type_is_nested (col->type) || depth > ZS_MAX_DEPTH) {
        s_put (buf, len, used, zs_column_type (col, scalar, sizeof scalar));
        return;
    }
    s_put (buf, len, used,
           col->type == ZS_TYPE_ARRAY ? "ARRAY<"
           : col->type == ZS_TYPE_MAP ? "MAP<"
                                      : "ROW<");
    for (int i = 0; i < col->nchild; i++) {
        const zs_column_t *c = zs_schema_child (self, col, i);
        if (i > 0)
            s_put (buf, len, used, ", ");
        if (col->type == ZS_TYPE_ROW) {
            //  a name the parser reads bare stays bare; others in backticks
            bool bare = isalpha ((unsigned char) c->name[0]) || c->name[0] == '_';
            for (const char *p = c->name; *p; p++)
                bare &= isalnum ((unsigned char) *p) || *p == '_';
            s_put (buf, len, used, bare ? "" : "`");
            s_put (buf, len, used, c->name);
            s_put (buf, len, used, bare ? " " : "` ");
        }
        s_type_text (self, c, buf, len, used, depth + 1);
        if (!c->nullable)
            s_put (buf, len, used, " NOT NULL");
    }
    s_put (buf, len, used, ">");
}

const char *
zs_schema_type_text (const zs_schema_t *self, const zs_column_t *col, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    s_type_text (self, col, buf, len, &used, 0);
    return buf;
}

const char *
zs_type_comma (const char *p, const char *end)
{
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '(' || *p == '<')
            depth++;
        else if ((*p == ')' || *p == '>') && depth > 0)
            depth--;
        else if (*p == ',' && depth == 0)
            return p;
    }
    return end;
}

//  A trailing NOT NULL of [a, *b): false and *b moved before it.
static bool
s_nullable (const char *a, const char **b)
{
    const char *e = *b;
    if (e - a >= 8 && strncasecmp (e - 4, "NULL", 4) == 0 && isspace ((unsigned char) e[-5])) {
        const char *q = e - 5;
        while (q > a && isspace ((unsigned char) q[-1]))
            q--;
        if (q - a >= 3 && strncasecmp (q - 3, "NOT", 3) == 0
            && (q - 3 == a || isspace ((unsigned char) q[-4]))) {
            q -= 3;
            while (q > a && isspace ((unsigned char) q[-1]))
                q--;
            *b = q;
            return false;
        }
    }
    return true;
}

static int s_parse (zs_schema_t *self, zs_column_t *col, const char *p, size_t len, int depth,
                    char *why, size_t whylen);

//  A ROW field "name TYPE [NOT NULL]" into the node at index.
static int
s_parse_row_field (zs_schema_t *self, int index, const char *a, const char *b, int depth, char *why,
                   size_t whylen)
{
    zs_column_t *f = &self->nodes[index];
    const char *name = a, *p = a;
    if (p < b && *p == '`') {
        const char *q = memchr (p + 1, '`', (size_t) (b - p - 1));
        if (!q) {
            snprintf (why, whylen, "unclosed ` in '%.*s'", (int) (b - a), a);
            return -1;
        }
        name = p + 1;
        p = q;
    } else {
        if (p == b || !(isalpha ((unsigned char) *p) || *p == '_')) {
            snprintf (why, whylen, "ROW field '%.*s' does not start with a name", (int) (b - a), a);
            return -1;
        }
        while (p < b && (isalnum ((unsigned char) *p) || *p == '_'))
            p++;
    }
    size_t nlen = (size_t) (p - name);
    for (size_t i = 0; i < nlen; i++)
        if ((unsigned char) name[i] < 0x20) {
            snprintf (why, whylen, "ROW field name with a control character");
            return -1;
        }
    if (nlen == 0) {
        snprintf (why, whylen, "ROW field with an empty name");
        return -1;
    }
    if (nlen >= sizeof f->name) {
        snprintf (why, whylen, "ROW field name longer than %d bytes", ZS_COLUMN_NAME_MAX - 1);
        return -1;
    }
    p += name == a ? 0 : 1;
    if (p < b && !isspace ((unsigned char) *p)) {
        snprintf (why, whylen, "ROW field '%.*s': unexpected '%c'", (int) nlen, name, *p);
        return -1;
    }
    const char *e = b;
    bool nullable = s_nullable (p, &e);
    zs_trim_span (&p, &e);
    if (p == e) {
        snprintf (why, whylen, "ROW field '%.*s' has no type", (int) nlen, name);
        return -1;
    }
    char sub[ZS_ERRLEN];
    if (s_parse (self, f, p, (size_t) (e - p), depth + 1, sub, sizeof sub) != 0) {
        snprintf (why, whylen, "field '%.*s': %s", (int) nlen, name, sub);
        return -1;
    }
    memcpy (f->name, name, nlen);
    f->name[nlen] = '\0';
    f->nullable = nullable;
    return 0;
}

//  The children of a nested kind, between its brackets [a, b).
static int
s_parse_children (zs_schema_t *self, zs_column_t *col, const char *a, const char *b, int depth,
                  char *why, size_t whylen)
{
    int n = 0;
    for (const char *p = a; p < b; n++) {
        const char *c = zs_type_comma (p, b);
        p = c < b ? c + 1 : b;
    }
    int want = col->type == ZS_TYPE_ARRAY ? 1 : col->type == ZS_TYPE_MAP ? 2 : -1;
    if ((want > 0 && n != want) || n == 0) {
        snprintf (why, whylen, "%s takes %s", zs_type_name (col->type),
                  want == 1   ? "one element type"
                  : want == 2 ? "a key and a value type"
                              : "one field at least");
        return -1;
    }
    if (self->nnodes + n > ZS_MAX_NODES) {
        snprintf (why, whylen, "more than %d nested types in the schema", ZS_MAX_NODES);
        return -1;
    }
    //  Reserve the children first: siblings stay contiguous (invariant 1).
    col->child = (int16_t) self->nnodes;
    col->nchild = (uint16_t) n;
    self->nnodes += n;
    const char *p = a;
    for (int i = 0; i < n; i++) {
        const char *c = zs_type_comma (p, b), *x = p, *y = c;
        zs_trim_span (&x, &y);
        int index = col->child + i;
        if (x == y) {
            snprintf (why, whylen, "%s: empty type", zs_type_name (col->type));
            return -1;
        }
        if (col->type == ZS_TYPE_ROW) {
            if (s_parse_row_field (self, index, x, y, depth, why, whylen) != 0)
                return -1;
            for (int j = col->child; j < index; j++)
                if (strcasecmp (self->nodes[j].name, self->nodes[index].name) == 0) {
                    snprintf (why, whylen, "ROW field '%s' repeats", self->nodes[index].name);
                    return -1;
                }
        } else {
            zs_column_t *e = &self->nodes[index];
            bool nullable = s_nullable (x, &y);
            zs_trim_span (&x, &y);
            if (s_parse (self, e, x, (size_t) (y - x), depth + 1, why, whylen) != 0)
                return -1;
            static const char *const names[] = {"element", "key", "value"};
            snprintf (e->name, sizeof e->name, "%s", names[col->type == ZS_TYPE_ARRAY ? 0 : 1 + i]);
            //  Parquet keys are required (Paimon's ParquetSchemaConverter).
            e->nullable = nullable && !(col->type == ZS_TYPE_MAP && i == 0);
        }
        p = c < b ? c + 1 : b;
    }
    return 0;
}

static int
s_parse (zs_schema_t *self, zs_column_t *col, const char *text, size_t len, int depth, char *why,
         size_t whylen)
{
    const char *a = text, *b = text + len;
    zs_trim_span (&a, &b);
    size_t k = 0;
    while (a + k < b && isalpha ((unsigned char) a[k]))
        k++;
    zs_type_t kind = k == 5 && strncasecmp (a, "ARRAY", 5) == 0 ? ZS_TYPE_ARRAY
                     : k == 3 && strncasecmp (a, "MAP", 3) == 0 ? ZS_TYPE_MAP
                     : k == 3 && strncasecmp (a, "ROW", 3) == 0 ? ZS_TYPE_ROW
                                                                : 0;
    if (!kind) {
        char name[ZS_COLUMN_NAME_MAX];
        memcpy (name, col->name, sizeof name);
        bool nullable = col->nullable;
        int rc = zs_column_type_parse (col, a, (size_t) (b - a), why, whylen);
        memcpy (col->name, name, sizeof name);
        col->nullable = nullable;
        col->child = 0;
        col->nchild = 0;
        return rc;
    }
    if (depth >= ZS_MAX_DEPTH) {
        snprintf (why, whylen, "nested deeper than %d levels", ZS_MAX_DEPTH);
        return -1;
    }
    const char *p = a + k;
    while (p < b && isspace ((unsigned char) *p))
        p++;
    char close = p < b && *p == '<' ? '>' : p < b && *p == '(' && kind == ZS_TYPE_ROW ? ')' : 0;
    if (!close || b[-1] != close || b - 1 <= p) {
        snprintf (why, whylen, "'%.*s': %s needs its types in <...>", (int) (b - a), a,
                  zs_type_name (kind));
        return -1;
    }
    col->type = kind;
    col->params = false;
    col->precision = col->scale = 0;
    col->length = 0;
    col->ltz = false;
    return s_parse_children (self, col, p + 1, b - 1, depth, why, whylen);
}

int
zs_schema_type_parse (zs_schema_t *self, zs_column_t *col, const char *text, size_t len, char *why,
                      size_t whylen)
{
    return s_parse (self, col, text, len, 0, why, whylen);
}
