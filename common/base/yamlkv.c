/*  yamlkv.c - see yamlkv.h.

    Invariants:
    1. The whole file is read before fn sees a pair: a syntax error is
       reported as one wherever it is, not as a bad value met before it.
       Then every pair reaches fn, in the file's order; a failing fn stops,
       its message prefixed with "FILE:LINE: " (the line of the value).
    2. A dotted key is passed to fn at most once: the second time it is an
       error naming both lines, whichever spelling (flat or nested) each
       used.
    3. Nesting is bounded (S_DEPTH_MAX) and so is a dotted key (S_KEY_MAX):
       a hostile file cannot grow the stack or a buffer.
*/
#include "yamlkv.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

//  Longest dotted key we accept; far beyond any real key, it only bounds
//  the prefix buffer of nested mappings.
#define S_KEY_MAX 256
//  Deepest nesting of mappings (real keys need 4). The key length does not
//  bound it: empty keys ("": {"": …}) add nothing to the dotted key, and
//  each level is a stack frame of s_mapping.
#define S_DEPTH_MAX 32
//  Longest list value, its items joined with ';'.
#define S_LIST_MAX 4096

typedef struct {
    char *key, *value;
    size_t line;
} s_seen_t;

typedef struct {
    yaml_parser_t parser;
    const char *path;
    zs_yaml_pair_fn *fn;
    zs_yaml_list_fn *is_list;
    void *arg;
    char *err;
    size_t errlen;
    s_seen_t *seen; //  the pairs read so far, in order (invariants 1, 2)
    size_t n_seen, cap_seen;
} s_yaml_t;

static void s_err (s_yaml_t *y, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static void
s_err (s_yaml_t *y, const char *fmt, ...)
{
    if (!y->err || y->errlen == 0)
        return;
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (y->err, y->errlen, fmt, ap);
    va_end (ap);
}

//  Next event, or -1 with libyaml's complaint, its line and column.
static int
s_next (s_yaml_t *y, yaml_event_t *ev)
{
    if (yaml_parser_parse (&y->parser, ev))
        return 0;
    yaml_parser_t *p = &y->parser;
    char context[160] = "";
    if (p->context)
        snprintf (context, sizeof context, " (%s at line %zu, column %zu)", p->context,
                  (size_t) p->context_mark.line + 1, (size_t) p->context_mark.column + 1);
    s_err (y, "%s:%zu:%zu: YAML syntax error: %s%s", y->path, (size_t) p->problem_mark.line + 1,
           (size_t) p->problem_mark.column + 1, p->problem ? p->problem : "cannot parse", context);
    return -1;
}

//  A plain ~, null or empty scalar is YAML's null: "" (unset).
static const char *
s_scalar_text (const yaml_event_t *ev)
{
    const char *v = (const char *) ev->data.scalar.value;
    if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE
        && (!strcmp (v, "~") || !strcmp (v, "null") || !strcmp (v, "Null") || !strcmp (v, "NULL")))
        return "";
    return v;
}

//  Keep the pair of key at line; -1 + err when key was given before
//  (invariant 2).
static int
s_pair (s_yaml_t *y, const char *key, const char *value, size_t line)
{
    for (size_t i = 0; i < y->n_seen; i++)
        if (strcmp (y->seen[i].key, key) == 0) {
            s_err (y, "%s:%zu: %s: given twice (lines %zu and %zu)", y->path, line, key,
                   y->seen[i].line, line);
            return -1;
        }
    if (y->n_seen == y->cap_seen) {
        size_t cap = y->cap_seen ? 2 * y->cap_seen : 32;
        s_seen_t *seen = realloc (y->seen, cap * sizeof *seen);
        if (!seen) {
            s_err (y, "%s: out of memory", y->path);
            return -1;
        }
        y->seen = seen;
        y->cap_seen = cap;
    }
    s_seen_t *p = &y->seen[y->n_seen];
    p->key = strdup (key);
    p->value = strdup (value);
    p->line = line;
    y->n_seen++;
    if (!p->key || !p->value) {
        s_err (y, "%s: out of memory", y->path);
        return -1;
    }
    return 0;
}

//  Every pair to the caller (invariant 1).
static int
s_apply (s_yaml_t *y)
{
    for (size_t i = 0; i < y->n_seen; i++) {
        const s_seen_t *p = &y->seen[i];
        char msg[ZS_ERRLEN];
        if (y->fn (y->arg, p->key, p->value, msg, sizeof msg) != 0) {
            s_err (y, "%s:%zu: %s", y->path, p->line, msg);
            return -1;
        }
    }
    return 0;
}

//  A list as one value, its items joined with ';' (an item may hold none).
static int
s_list (s_yaml_t *y, const char *key, size_t line)
{
    char value[S_LIST_MAX] = "";
    size_t used = 0;
    while (true) {
        yaml_event_t ev;
        if (s_next (y, &ev))
            return -1;
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete (&ev);
            break;
        }
        const char *item = ev.type == YAML_SCALAR_EVENT ? s_scalar_text (&ev) : NULL;
        size_t len = item ? strlen (item) : 0;
        size_t at = (size_t) ev.start_mark.line + 1;
        const char *why = !item || !len                   ? "a list of plain items is expected"
                          : strchr (item, ';')            ? "an item holds ';'"
                          : used + len + 2 > sizeof value ? "the list is too long"
                                                          : NULL;
        if (!why)
            used += (size_t) snprintf (value + used, sizeof value - used, "%s%s", used ? ";" : "",
                                       item);
        yaml_event_delete (&ev);
        if (why) {
            s_err (y, "%s:%zu: %s: %s", y->path, at, key, why);
            return -1;
        }
    }
    return s_pair (y, key, value, line);
}

static int s_mapping (s_yaml_t *y, const char *prefix, int depth);

//  The value of key: a scalar, a nested mapping or (for a list key) a list.
static int
s_value (s_yaml_t *y, const char *key, int depth)
{
    yaml_event_t ev;
    if (s_next (y, &ev))
        return -1;
    size_t line = (size_t) ev.start_mark.line + 1;
    int rc = 0;
    if (ev.type == YAML_SCALAR_EVENT)
        rc = s_pair (y, key, s_scalar_text (&ev), line);
    else if (ev.type == YAML_MAPPING_START_EVENT && depth >= S_DEPTH_MAX) {
        s_err (y, "%s:%zu: %s: mappings nested deeper than %d levels", y->path, line, key,
               S_DEPTH_MAX);
        rc = -1;
    } else if (ev.type == YAML_MAPPING_START_EVENT)
        rc = s_mapping (y, key, depth + 1);
    else if (ev.type == YAML_SEQUENCE_START_EVENT && y->is_list && y->is_list (y->arg, key))
        rc = s_list (y, key, line);
    else {
        s_err (y, "%s:%zu: %s: %s", y->path, line, key,
               ev.type == YAML_SEQUENCE_START_EVENT ? "lists are not supported"
                                                    : "aliases are not supported");
        rc = -1;
    }
    yaml_event_delete (&ev);
    return rc;
}

//  "key: value" pairs up to the end of the current mapping; nested
//  mappings recurse with their key as the prefix of the dotted key.
static int
s_mapping (s_yaml_t *y, const char *prefix, int depth)
{
    while (true) {
        yaml_event_t kev;
        if (s_next (y, &kev))
            return -1;
        if (kev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete (&kev);
            return 0;
        }
        size_t line = (size_t) kev.start_mark.line + 1;
        if (kev.type != YAML_SCALAR_EVENT) {
            s_err (y, "%s:%zu: a key must be plain text", y->path, line);
            yaml_event_delete (&kev);
            return -1;
        }
        char key[S_KEY_MAX];
        int n = snprintf (key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "",
                          (const char *) kev.data.scalar.value);
        yaml_event_delete (&kev);
        if (n < 0 || (size_t) n >= sizeof key) {
            s_err (y, "%s:%zu: key too long", y->path, line);
            return -1;
        }
        if (s_value (y, key, depth) != 0)
            return -1;
    }
}

//  Expect an event of the given type; anything else is "what" at its line.
static int
s_expect (s_yaml_t *y, yaml_event_type_t type, yaml_event_t *ev, const char *what)
{
    if (s_next (y, ev))
        return -1;
    if (ev->type == type)
        return 0;
    s_err (y, "%s:%zu: %s", y->path, (size_t) ev->start_mark.line + 1, what);
    yaml_event_delete (ev);
    return -1;
}

static int
s_document (s_yaml_t *y)
{
    yaml_event_t ev;
    if (s_expect (y, YAML_STREAM_START_EVENT, &ev, "not a YAML stream"))
        return -1;
    yaml_event_delete (&ev);
    if (s_next (y, &ev))
        return -1;
    if (ev.type == YAML_STREAM_END_EVENT) {
        //  An empty file (or only comments) sets nothing: that is fine.
        yaml_event_delete (&ev);
        return 0;
    }
    yaml_event_delete (&ev); //  document start
    if (s_next (y, &ev))
        return -1;
    int rc;
    if (ev.type == YAML_MAPPING_START_EVENT)
        rc = s_mapping (y, "", 1);
    else if (ev.type == YAML_SCALAR_EVENT && !*s_scalar_text (&ev))
        rc = 0; //  "---" alone: an empty document
    else {
        s_err (y, "%s:%zu: the top level must be a mapping of keys to values", y->path,
               (size_t) ev.start_mark.line + 1);
        rc = -1;
    }
    yaml_event_delete (&ev);
    if (rc)
        return -1;
    if (s_expect (y, YAML_DOCUMENT_END_EVENT, &ev, "expected end of document"))
        return -1;
    yaml_event_delete (&ev);
    if (s_expect (y, YAML_STREAM_END_EVENT, &ev, "only one YAML document is allowed"))
        return -1;
    yaml_event_delete (&ev);
    return 0;
}

int
zs_yaml_flatten (const char *path, zs_yaml_pair_fn *fn, zs_yaml_list_fn *is_list, void *arg,
                 char *err, size_t errlen)
{
    s_yaml_t y = {
        .path = path, .fn = fn, .is_list = is_list, .arg = arg, .err = err, .errlen = errlen};
    FILE *file = fopen (path, "rb");
    if (!file) {
        s_err (&y, "%s: cannot open: %s", path, strerror (errno));
        return -1;
    }
    if (!yaml_parser_initialize (&y.parser)) {
        s_err (&y, "%s: cannot initialise the YAML parser", path);
        fclose (file);
        return -1;
    }
    yaml_parser_set_input_file (&y.parser, file);
    int rc = s_document (&y);
    yaml_parser_delete (&y.parser);
    fclose (file);
    if (rc == 0)
        rc = s_apply (&y);
    for (size_t i = 0; i < y.n_seen; i++) {
        free (y.seen[i].key);
        free (y.seen[i].value);
    }
    free (y.seen);
    return rc;
}
