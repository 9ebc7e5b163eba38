/*  parquet_nested.c - nested columns in Parquet: layout, shredding,
    assembly (parquet_nested.h).

    Invariants:
    1. Shredding is all or nothing: every leaf buffer's length is noted
       before the first store and put back on any refusal, so a refused
       row leaves the row group as it was (parquet_write.c's invariant 2).
    2. Assembly trusts no level: each is checked against the leaf's
       maximum, a row must start at repetition 0, and a chunk that ends
       inside a row is an error naming the leaf, never a short value.
    3. Every null or empty ARRAY/MAP/ROW takes exactly one triple from each
       leaf below it, and every entry of a list one from each leaf below
       the entry: that keeps the leaves of one column in step.
    4. Recursion follows the schema (bounded by ZS_MAX_DEPTH), never the
       data.
*/
#include "parquet_nested.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_VALUE_MAX_BYTES (256u << 20) //  as parquet_write.c

//  --------------------------------------------------------------------------
//  Layout

typedef struct {
    const zs_schema_t *schema;
    zs_pq_layout_t *out;
    int top;
    char *why;
    size_t len;
} s_walk_t;

static int
s_walk (s_walk_t *w, const zs_column_t *col, zs_pq_nest_t *n, int def, int rep, const char *prefix)
{
    zs_pq_layout_t *L = w->out;
    char path[ZS_PQ_PATH_MAX];
    int plen = snprintf (path, sizeof path, "%s%s", prefix, col->name);
    if (plen < 0 || (size_t) plen + 16 >= sizeof path) {
        snprintf (w->why, w->len, "column '%s': nested path too long",
                  w->schema->cols[w->top].name);
        return -1;
    }
    memset (n, 0, sizeof *n);
    n->def = (uint8_t) (def + (col->nullable ? 1 : 0));
    n->first_leaf = (int16_t) L->nleaves;
    if (!zs_type_is_nested (col->type)) {
        if (L->nleaves == ZS_MAX_COLUMNS) {
            snprintf (w->why, w->len,
                      "more than %d leaf columns (scalars inside nested types count)",
                      ZS_MAX_COLUMNS);
            return -1;
        }
        int k = L->nleaves++;
        L->leaf[k] = *col;
        L->top[k] = (int16_t) w->top;
        L->max_def[k] = n->def;
        L->max_rep[k] = (uint8_t) rep;
        memcpy (L->path[k], path, (size_t) plen + 1);
        n->nleaves = 1;
        return 0;
    }
    if (col->type == ZS_TYPE_ROW) {
        path[plen++] = ZS_PQ_PATH_SEP;
        path[plen] = '\0';
        for (int i = 0; i < col->nchild; i++)
            if (s_walk (w, zs_schema_child (w->schema, col, i), &L->node[col->child + i], n->def,
                        rep, path)
                != 0)
                return -1;
    } else {
        n->rdef = (uint8_t) (n->def + 1);
        n->rep = (uint8_t) (rep + 1);
        snprintf (path + plen, sizeof path - (size_t) plen, "%c%s%c", ZS_PQ_PATH_SEP,
                  col->type == ZS_TYPE_ARRAY ? "list" : "key_value", ZS_PQ_PATH_SEP);
        for (int i = 0; i < col->nchild; i++)
            if (s_walk (w, zs_schema_child (w->schema, col, i), &L->node[col->child + i], n->rdef,
                        n->rep, path)
                != 0)
                return -1;
    }
    n->nleaves = (int16_t) (L->nleaves - n->first_leaf);
    return 0;
}

int
zs_pq_layout (const zs_schema_t *schema, zs_pq_layout_t *out, char *why, size_t len)
{
    memset (out, 0, sizeof *out);
    s_walk_t w = {schema, out, 0, why, len};
    for (int i = 0; i < schema->n; i++) {
        w.top = i;
        out->nested |= zs_type_is_nested (schema->cols[i].type);
        if (s_walk (&w, &schema->cols[i], &out->col[i], 0, 0, "") != 0)
            return -1;
    }
    return 0;
}

const char *
zs_pq_leaf_name (const zs_pq_layout_t *self, int leaf, char *buf, size_t len)
{
    snprintf (buf, len, "%s", self->path[leaf]);
    for (char *p = buf; *p; p++)
        if (*p == ZS_PQ_PATH_SEP)
            *p = '.';
    return buf;
}

//  --------------------------------------------------------------------------
//  Shredding

typedef struct {
    const zs_schema_t *schema;
    const zs_pq_layout_t *L;
    zs_pq_leafbuf_t *bufs;
    int64_t added;
    char *why;
    size_t len;
} s_shred_t;

//  One level entry (and its value, when v) into a leaf.
static int
s_emit (s_shred_t *s, int leaf, int rep, int def, const zs_value_t *v)
{
    zs_pq_leafbuf_t *b = &s->bufs[leaf];
    uint8_t r = (uint8_t) rep, d = (uint8_t) def;
    if (s->L->max_rep[leaf])
        zs_bytes_put (&b->reps, &r, 1);
    if (s->L->max_def[leaf])
        zs_bytes_put (&b->defs, &d, 1);
    b->nlevels++;
    s->added += 2;
    if (!v)
        return 0;
    if (b->width == 0) {
        uint32_t n = v->v.bin.len;
        if (n > S_VALUE_MAX_BYTES) {
            snprintf (s->why, s->len, "value of %u bytes too long (max %u)", n, S_VALUE_MAX_BYTES);
            return -1;
        }
        zs_bytes_put (&b->vals, &n, 4);
        zs_bytes_put (&b->vals, v->v.bin.ptr, n);
        s->added += 4 + (int64_t) n;
    } else if (b->width == 1) {
        uint8_t x = v->v.b ? 1 : 0;
        zs_bytes_put (&b->vals, &x, 1);
    } else if (b->width == 4 || b->width == 8) {
        zs_bytes_put (&b->vals, &v->v, (size_t) b->width);
    } else {
        uint8_t wide[32];
        zs_pq_put_wide (b->ptype, b->width, v, wide);
        zs_bytes_put (&b->vals, wide, (size_t) b->width);
    }
    s->added += b->width;
    b->nvals++;
    return 0;
}

//  A null or empty node: one entry at (rep, def) in each leaf below.
static void
s_empty (s_shred_t *s, const zs_pq_nest_t *n, int rep, int def)
{
    for (int k = n->first_leaf; k < n->first_leaf + n->nleaves; k++)
        s_emit (s, k, rep, def, NULL);
}

static int
s_shred (s_shred_t *s, const zs_column_t *col, const zs_pq_nest_t *n, const zs_value_t *v, int rep,
         int def, const char *path)
{
    if (v->null) {
        if (!col->nullable) {
            snprintf (s->why, s->len, "'%s' is NOT NULL: null refused", path);
            return -1;
        }
        s_empty (s, n, rep, def);
        return 0;
    }
    def = n->def;
    char sub[256];
    if (!zs_type_is_nested (col->type))
        return s_emit (s, n->first_leaf, rep, def, v);
    if (col->type == ZS_TYPE_ROW) {
        if (v->v.nest.n != col->nchild) {
            snprintf (s->why, s->len, "'%s': ROW value of %u fields, the type has %d", path,
                      v->v.nest.n, col->nchild);
            return -1;
        }
        for (int i = 0; i < col->nchild; i++) {
            const zs_column_t *f = zs_schema_child (s->schema, col, i);
            snprintf (sub, sizeof sub, "%s.%s", path, f->name);
            if (s_shred (s, f, &s->L->node[col->child + i], &v->v.nest.elems[i], rep, def, sub)
                != 0)
                return -1;
        }
        return 0;
    }
    if (v->v.nest.n == 0) {
        s_empty (s, n, rep, def);
        return 0;
    }
    bool map = col->type == ZS_TYPE_MAP;
    for (uint32_t i = 0; i < v->v.nest.n; i++) {
        int r = i == 0 ? rep : n->rep;
        for (int c = 0; c < col->nchild; c++) {
            const zs_value_t *e = c == 0 ? &v->v.nest.elems[i] : &v->v.nest.vals[i];
            snprintf (sub, sizeof sub, map ? "%s{%u}.%s" : "%s[%u]", path, i,
                      c == 0 ? "key" : "value");
            if (s_shred (s, zs_schema_child (s->schema, col, c), &s->L->node[col->child + c], e, r,
                         n->rdef, sub)
                != 0)
                return -1;
        }
    }
    return 0;
}

int
zs_pq_shred (const zs_schema_t *schema, const zs_pq_layout_t *layout, zs_pq_leafbuf_t *bufs,
             const zs_value_t *row, int64_t *added, char *why, size_t len)
{
    struct {
        size_t reps, defs, vals;
        int64_t nlevels, nvals;
    } mark[ZS_MAX_COLUMNS];
    for (int k = 0; k < layout->nleaves; k++) {
        mark[k].reps = bufs[k].reps.len;
        mark[k].defs = bufs[k].defs.len;
        mark[k].vals = bufs[k].vals.len;
        mark[k].nlevels = bufs[k].nlevels;
        mark[k].nvals = bufs[k].nvals;
    }
    s_shred_t s = {schema, layout, bufs, 0, why, len};
    int rc = 0;
    for (int c = 0; c < schema->n && rc == 0; c++)
        if (zs_type_is_nested (schema->cols[c].type))
            rc = s_shred (&s, &schema->cols[c], &layout->col[c], &row[c], 0, 0,
                          schema->cols[c].name);
    bool oom = false;
    for (int k = 0; k < layout->nleaves; k++)
        oom |= !bufs[k].reps.ok || !bufs[k].defs.ok || !bufs[k].vals.ok;
    if (rc == 0 && oom)
        rc = -1, snprintf (why, len, "out of memory");
    if (rc != 0)
        for (int k = 0; k < layout->nleaves; k++) {
            bufs[k].reps.len = mark[k].reps;
            bufs[k].defs.len = mark[k].defs;
            bufs[k].vals.len = mark[k].vals;
            bufs[k].reps.ok = bufs[k].defs.ok = bufs[k].vals.ok = true;
            bufs[k].nlevels = mark[k].nlevels;
            bufs[k].nvals = mark[k].nvals;
        }
    *added = rc == 0 ? s.added : 0;
    return rc;
}

//  --------------------------------------------------------------------------
//  Assembly

void
zs_pq_assembler_group (zs_pq_assembler_t *self)
{
    memset (self->has, 0, sizeof self->has);
}

void
zs_pq_assembler_row (zs_pq_assembler_t *self)
{
    zs_varena_reset (&self->arena);
}

void
zs_pq_assembler_fini (zs_pq_assembler_t *self)
{
    zs_varena_fini (&self->arena);
    free (self->stack);
    self->stack = NULL;
    self->stack_len = self->stack_cap = 0;
}

typedef struct {
    zs_pq_assembler_t *a;
    const zs_schema_t *schema;
    const zs_pq_layout_t *L;
    char *why;
    size_t len;
} s_asm_t;

//  Look ahead at a leaf's next triple: 1, 0 at the chunk's end, -1.
static int
s_peek (s_asm_t *x, int leaf)
{
    zs_pq_assembler_t *a = x->a;
    if (a->has[leaf])
        return 1;
    int rc = a->next (a->ctx, leaf, &a->rep[leaf], &a->def[leaf], &a->val[leaf], x->why, x->len);
    if (rc <= 0)
        return rc;
    if (a->rep[leaf] > x->L->max_rep[leaf] || a->def[leaf] > x->L->max_def[leaf]) {
        char name[ZS_PQ_PATH_MAX];
        snprintf (x->why, x->len, "leaf '%s': levels (%u, %u) beyond (%u, %u)",
                  zs_pq_leaf_name (x->L, leaf, name, sizeof name), a->rep[leaf], a->def[leaf],
                  x->L->max_rep[leaf], x->L->max_def[leaf]);
        return -1;
    }
    a->has[leaf] = true;
    return 1;
}

//  The next triple of a leaf that must have one (inside a row).
static int
s_need (s_asm_t *x, int leaf)
{
    int rc = s_peek (x, leaf);
    if (rc == 0) {
        char name[ZS_PQ_PATH_MAX];
        snprintf (x->why, x->len, "leaf '%s': levels end inside a row",
                  zs_pq_leaf_name (x->L, leaf, name, sizeof name));
    }
    return rc == 1 ? 0 : -1;
}

//  A null or empty node: one triple from each leaf below (invariant 3).
static int
s_skip (s_asm_t *x, const zs_pq_nest_t *n)
{
    for (int k = n->first_leaf; k < n->first_leaf + n->nleaves; k++) {
        if (s_need (x, k) != 0)
            return -1;
        x->a->has[k] = false;
    }
    return 0;
}

//  Take a leaf's value, its bytes copied into the arena.
static int
s_leaf (s_asm_t *x, const zs_pq_nest_t *n, zs_value_t *out)
{
    zs_pq_assembler_t *a = x->a;
    int k = n->first_leaf;
    if (s_need (x, k) != 0)
        return -1;
    a->has[k] = false;
    if (a->def[k] < x->L->max_def[k]) {
        memset (out, 0, sizeof *out);
        out->null = true;
        return 0;
    }
    *out = a->val[k];
    out->null = false;
    if (zs_type_is_binary (x->L->leaf[k].type) && out->v.bin.len) {
        uint8_t *p = zs_varena_alloc (&a->arena, out->v.bin.len);
        if (!p)
            return snprintf (x->why, x->len, "out of memory"), -1;
        memcpy (p, out->v.bin.ptr, out->v.bin.len);
        out->v.bin.ptr = p;
    }
    return 0;
}

static int s_value (s_asm_t *x, const zs_column_t *col, const zs_pq_nest_t *n, zs_value_t *out);

static int
s_push (s_asm_t *x, const zs_value_t *v)
{
    zs_pq_assembler_t *a = x->a;
    if (a->stack_len == a->stack_cap) {
        size_t cap = a->stack_cap ? a->stack_cap * 2 : 256;
        zs_value_t *s = realloc (a->stack, cap * sizeof *s);
        if (!s)
            return snprintf (x->why, x->len, "out of memory"), -1;
        a->stack = s;
        a->stack_cap = cap;
    }
    a->stack[a->stack_len++] = *v;
    return 0;
}

//  The entries of a non-empty ARRAY or MAP: each child's value per entry,
//  while the first leaf's next triple repeats at this list's level.
static int
s_list (s_asm_t *x, const zs_column_t *col, const zs_pq_nest_t *n, zs_value_t *out)
{
    zs_pq_assembler_t *a = x->a;
    size_t base = a->stack_len;
    int k = n->first_leaf, per = col->nchild, more;
    do {
        for (int c = 0; c < per; c++) {
            zs_value_t v;
            if (s_value (x, zs_schema_child (x->schema, col, c), &x->L->node[col->child + c], &v)
                    != 0
                || s_push (x, &v) != 0)
                return -1;
        }
    } while ((more = s_peek (x, k)) == 1 && a->rep[k] == n->rep);
    if (more < 0)
        return -1;
    size_t cnt = (a->stack_len - base) / (size_t) per;
    if (cnt > UINT32_MAX)
        return snprintf (x->why, x->len, "list too long"), -1;
    zs_value_t *e = zs_varena_values (&a->arena, cnt);
    zs_value_t *v = per == 2 ? zs_varena_values (&a->arena, cnt) : NULL;
    if (!e || (per == 2 && !v))
        return snprintf (x->why, x->len, "out of memory"), -1;
    for (size_t i = 0; i < cnt; i++) {
        e[i] = a->stack[base + i * (size_t) per];
        if (v)
            v[i] = a->stack[base + i * 2 + 1];
    }
    a->stack_len = base;
    out->v.nest.elems = e;
    out->v.nest.vals = v;
    out->v.nest.n = (uint32_t) cnt;
    return 0;
}

static int
s_value (s_asm_t *x, const zs_column_t *col, const zs_pq_nest_t *n, zs_value_t *out)
{
    memset (out, 0, sizeof *out);
    if (!zs_type_is_nested (col->type))
        return s_leaf (x, n, out);
    int k = n->first_leaf;
    if (s_need (x, k) != 0)
        return -1;
    uint32_t d = x->a->def[k];
    if (d < n->def) {
        if (!col->nullable) {
            snprintf (x->why, x->len, "definition level %u below a NOT NULL '%s'", d, col->name);
            return -1;
        }
        out->null = true;
        return s_skip (x, n);
    }
    if (col->type == ZS_TYPE_ROW) {
        zs_value_t *f = zs_varena_values (&x->a->arena, col->nchild);
        if (!f)
            return snprintf (x->why, x->len, "out of memory"), -1;
        for (int i = 0; i < col->nchild; i++)
            if (s_value (x, zs_schema_child (x->schema, col, i), &x->L->node[col->child + i], &f[i])
                != 0)
                return -1;
        out->v.nest.elems = f;
        out->v.nest.n = col->nchild;
        return 0;
    }
    if (d < n->rdef)
        return s_skip (x, n); //  empty
    return s_list (x, col, n, out);
}

int
zs_pq_assemble (zs_pq_assembler_t *self, const zs_schema_t *schema, const zs_pq_layout_t *layout,
                int col, zs_value_t *out, char *why, size_t len)
{
    s_asm_t x = {self, schema, layout, why, len};
    const zs_pq_nest_t *n = &layout->col[col];
    for (int k = n->first_leaf; k < n->first_leaf + n->nleaves; k++) {
        if (s_need (&x, k) != 0)
            return -1;
        if (self->rep[k] != 0) {
            char name[ZS_PQ_PATH_MAX];
            snprintf (why, len, "leaf '%s': a row starts at repetition level %u",
                      zs_pq_leaf_name (layout, k, name, sizeof name), self->rep[k]);
            return -1;
        }
    }
    return s_value (&x, &schema->cols[col], n, out);
}
