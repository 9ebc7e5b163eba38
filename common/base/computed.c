/*  computed.c - computed columns (computed.h).

    The syntax is Paimon's (ComputedColumnUtils): "name=function(args)",
    the arguments separated by ',' and trimmed, the first naming the
    referenced column. Stricter than Paimon where Paimon ignores what it
    does not understand: text after ')' and an empty argument are errors.
    Where Paimon takes the first ')' as the end, the last one is: a type
    argument may hold parentheses (cast(x, TIMESTAMP(3))).
    Items are separated by ';' (a YAML list joins its items so).

    Invariants:
    1. Everything that can be checked without a row is checked when the
       text is compiled (zs_computed_new): function, argument count and
       types, the pattern, the numbers. Evaluation fails only on a value:
       a STRING that reads as no timestamp or number, a substring or a
       truncate width beyond the string, a year beyond a LocalDateTime's.
    2. Evaluation allocates nothing once the buffers have grown to the
       longest value seen: date_format writes into a buffer of the
       pattern's longest output, upper/lower into one that grows, and
       substring, trim and truncate of a STRING point into their input.
    3. A column's value is computed from the row as it is after the columns
       before it, so a computed column may use one declared earlier.
*/
#include "computed.h"
#include "computed_priv.h"
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <wctype.h>

typedef enum {
    S_YEAR,
    S_MONTH,
    S_DAY,
    S_HOUR,
    S_MINUTE,
    S_SECOND,
    S_DATE_FORMAT,
    S_SUBSTRING,
    S_TRUNCATE,
    S_CAST,
    S_NOW,
    S_UPPER,
    S_LOWER,
    S_TRIM,
} s_fn_t;

static const struct {
    const char *name;
    s_fn_t fn;
    int min, max; //  arguments, the referenced column included
    const char *usage;
} s_fns[] = {
    {"year", S_YEAR, 1, 2, "year(column[, precision])"},
    {"month", S_MONTH, 1, 2, "month(column[, precision])"},
    {"day", S_DAY, 1, 2, "day(column[, precision])"},
    {"hour", S_HOUR, 1, 2, "hour(column[, precision])"},
    {"minute", S_MINUTE, 1, 2, "minute(column[, precision])"},
    {"second", S_SECOND, 1, 2, "second(column[, precision])"},
    {"date_format", S_DATE_FORMAT, 2, 3, "date_format(column, pattern[, precision])"},
    {"substring", S_SUBSTRING, 2, 3, "substring(column, begin[, end])"},
    {"truncate", S_TRUNCATE, 2, 2, "truncate(column, width)"},
    {"cast", S_CAST, 1, 2, "cast(value[, type])"},
    {"now", S_NOW, 0, 0, "now()"},
    {"upper", S_UPPER, 1, 1, "upper(column)"},
    {"lower", S_LOWER, 1, 1, "lower(column)"},
    {"trim", S_TRIM, 1, 1, "trim(column)"},
};
#define S_NFNS (sizeof s_fns / sizeof s_fns[0])
#define S_ARGS_MAX 3
#define S_ARG_MAX 256
#define S_EXPR_MAX (S_ARGS_MAX * S_ARG_MAX + 64) //  never truncated

//  One item of the text, split: "name=fn(a, b)".
typedef struct {
    char name[ZS_COLUMN_NAME_MAX];
    int fn; //  index into s_fns
    int nargs;
    char args[S_ARGS_MAX][S_ARG_MAX];
    char expr[S_EXPR_MAX]; //  canonical "fn(a, b)", for messages
} s_item_t;

//  A compiled computed column.
typedef struct {
    s_item_t item;
    s_fn_t fn;
    int ref;          //  index of the referenced column in the row, -1 none
    zs_type_t in;     //  its type
    int prec;         //  epoch precision (0, 3, 6, 9), -1: not an epoch
    int64_t a, b;     //  substring begin, end (-1: none); truncate width in a
    zs_pattern_t pat; //  date_format
    zs_value_t constant;
    uint8_t *buf; //  STRING results (invariant 2)
    size_t cap;
} s_col_t;

struct _zs_computed_t {
    zs_schema_t schema; //  source columns, then the computed ones
    int first;          //  index of the first computed column
    int n;
    s_col_t cols[ZS_MAX_COLUMNS];
    locale_t utf8; //  for upper/lower, (locale_t) 0 when none: ASCII only
    //  what zs_computed_fill compiled from
    char text[ZS_COMPUTED_TEXT_MAX];
    uint64_t source_fp;
};

//  ---------------------------------------------------------------------
//  Syntax

static int
s_item_err (char *err, size_t errlen, const char *a, const char *b, const char *what)
{
    snprintf (err, errlen, "table.computed-columns: '%.*s': %s", (int) (b - a), a, what);
    return -1;
}

static int
s_parse_name (s_item_t *it, const char *a, const char *b, const char *ia, const char *ib, char *err,
              size_t errlen)
{
    zs_trim_span (&a, &b);
    bool ok = a < b && (isalpha ((unsigned char) *a) || *a == '_');
    for (const char *p = a; ok && p < b; p++)
        ok = isalnum ((unsigned char) *p) || *p == '_';
    if (!ok)
        return s_item_err (err, errlen, ia, ib,
                           "the column name must be letters, digits and '_', not starting "
                           "with a digit");
    if (b - a >= ZS_COLUMN_NAME_MAX)
        return s_item_err (err, errlen, ia, ib, "the column name is too long");
    memcpy (it->name, a, (size_t) (b - a));
    it->name[b - a] = 0;
    return 0;
}

static int
s_find_fn (const char *a, const char *b)
{
    for (size_t i = 0; i < S_NFNS; i++)
        if (strlen (s_fns[i].name) == (size_t) (b - a)
            && strncasecmp (s_fns[i].name, a, (size_t) (b - a)) == 0)
            return (int) i;
    return -1;
}

static int
s_unknown_fn (const s_item_t *it, const char *a, const char *b, char *err, size_t errlen)
{
    char known[256] = "";
    for (size_t i = 0; i < S_NFNS; i++)
        snprintf (known + strlen (known), sizeof known - strlen (known), "%s%s", i ? ", " : "",
                  s_fns[i].name);
    snprintf (err, errlen, "table.computed-columns: column '%s': unknown function '%.*s' (%s)",
              it->name, (int) (b - a), a, known);
    return -1;
}

//  The next ',' of [p, b) outside parentheses ("DECIMAL(10, 2)" is one
//  argument), or NULL.
static const char *
s_next_comma (const char *p, const char *b)
{
    int depth = 0;
    for (; p < b; p++)
        if (*p == '(')
            depth++;
        else if (*p == ')' && depth > 0)
            depth--;
        else if (*p == ',' && depth == 0)
            return p;
    return NULL;
}

//  The arguments between the parentheses, split at ',' and trimmed.
static int
s_parse_args (s_item_t *it, const char *a, const char *b, char *err, size_t errlen)
{
    const char *ta = a, *tb = b;
    zs_trim_span (&ta, &tb);
    it->nargs = 0;
    if (ta == tb)
        return 0; //  "now()"
    const char *p = a;
    while (true) {
        const char *comma = s_next_comma (p, b);
        const char *e = comma ? comma : b, *s = p;
        zs_trim_span (&s, &e);
        if (it->nargs == S_ARGS_MAX) {
            snprintf (err, errlen,
                      "table.computed-columns: column '%s': %s takes at most %d "
                      "arguments (%s)",
                      it->name, s_fns[it->fn].name, s_fns[it->fn].max, s_fns[it->fn].usage);
            return -1;
        }
        if (s == e || e - s >= S_ARG_MAX) {
            snprintf (err, errlen, "table.computed-columns: column '%s': argument %d of %s is %s",
                      it->name, it->nargs + 1, s_fns[it->fn].name, s == e ? "empty" : "too long");
            return -1;
        }
        memcpy (it->args[it->nargs], s, (size_t) (e - s));
        it->args[it->nargs++][e - s] = 0;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

static void
s_canon_expr (s_item_t *it)
{
    size_t n = (size_t) snprintf (it->expr, sizeof it->expr, "%s(", s_fns[it->fn].name);
    for (int i = 0; i < it->nargs && n < sizeof it->expr; i++)
        n += (size_t) snprintf (it->expr + n, sizeof it->expr - n, "%s%s", i ? ", " : "",
                                it->args[i]);
    if (n < sizeof it->expr)
        snprintf (it->expr + n, sizeof it->expr - n, ")");
}

//  One item "name=fn(args)" of [a, b).
static int
s_parse_item (s_item_t *it, const char *a, const char *b, char *err, size_t errlen)
{
    memset (it, 0, sizeof *it);
    const char *eq = memchr (a, '=', (size_t) (b - a));
    if (!eq || memchr (eq + 1, '=', (size_t) (b - eq - 1)))
        return s_item_err (err, errlen, a, b, "expected name=function(arguments)");
    if (s_parse_name (it, a, eq, a, b, err, errlen))
        return -1;
    const char *ea = eq + 1, *eb = b;
    zs_trim_span (&ea, &eb);
    //  the arguments end at the last ')': a type may hold parentheses
    //  ("cast(1, TIMESTAMP(3))")
    const char *open = memchr (ea, '(', (size_t) (eb - ea));
    const char *close = eb;
    while (close > ea && close[-1] != ')')
        close--;
    if (!open || open == ea || close <= open + 1)
        return s_item_err (err, errlen, a, b, "expected name=function(arguments)");
    close--;
    if (close + 1 != eb)
        return s_item_err (err, errlen, a, b, "text after the closing ')'");
    const char *fa = ea, *fb = open;
    zs_trim_span (&fa, &fb);
    if ((it->fn = s_find_fn (fa, fb)) < 0)
        return s_unknown_fn (it, fa, fb, err, errlen);
    if (s_parse_args (it, open + 1, close, err, errlen))
        return -1;
    if (it->nargs < s_fns[it->fn].min || it->nargs > s_fns[it->fn].max) {
        snprintf (err, errlen,
                  "table.computed-columns: column '%s': %s takes %d to %d arguments, not %d (%s)",
                  it->name, s_fns[it->fn].name, s_fns[it->fn].min, s_fns[it->fn].max, it->nargs,
                  s_fns[it->fn].usage);
        return -1;
    }
    s_canon_expr (it);
    return 0;
}

//  Call fn for each item of text (skipping blank ones). 0 or -1.
static int
s_each_item (const char *text, int (*fn) (const s_item_t *it, void *arg), void *arg, char *err,
             size_t errlen)
{
    s_item_t *it = malloc (sizeof *it);
    if (!it) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (const char *p = text; rc == 0 && *p;) {
        const char *semi = strchr (p, ';');
        const char *e = semi ? semi : p + strlen (p), *s = p;
        zs_trim_span (&s, &e);
        if (s < e)
            rc = s_parse_item (it, s, e, err, errlen) ? -1 : fn (it, arg);
        p = semi ? semi + 1 : e + strlen (e);
    }
    free (it);
    return rc;
}

typedef struct {
    char *canon;
    size_t len, used;
    char (*names)[ZS_COLUMN_NAME_MAX];
    int max, n;
    char *err;
    size_t errlen;
} s_walk_t;

static int
s_walk_item (const s_item_t *it, void *arg)
{
    s_walk_t *w = arg;
    for (int i = 0; i < w->n && i < w->max; i++)
        if (strcasecmp (w->names[i], it->name) == 0) {
            snprintf (w->err, w->errlen, "table.computed-columns: column '%s' is declared twice",
                      it->name);
            return -1;
        }
    if (w->n < w->max)
        snprintf (w->names[w->n], ZS_COLUMN_NAME_MAX, "%s", it->name);
    w->n++;
    if (w->canon) {
        int k = snprintf (w->canon + w->used, w->len - w->used, "%s%s=%s", w->used ? "; " : "",
                          it->name, it->expr);
        if (k < 0 || (size_t) k >= w->len - w->used) {
            snprintf (w->err, w->errlen, "table.computed-columns: longer than %zu bytes",
                      w->len - 1);
            return -1;
        }
        w->used += (size_t) k;
    }
    return 0;
}

int
zs_computed_check_text (const char *text, char *canon, size_t canonlen, char *err, size_t errlen)
{
    char names[ZS_MAX_COLUMNS][ZS_COLUMN_NAME_MAX];
    s_walk_t w = {canon, canonlen, 0, names, ZS_MAX_COLUMNS, 0, err, errlen};
    if (canonlen)
        canon[0] = 0;
    if (s_each_item (text, s_walk_item, &w, err, errlen))
        return -1;
    if (w.n > ZS_MAX_COLUMNS) {
        snprintf (err, errlen, "table.computed-columns: more than %d columns", ZS_MAX_COLUMNS);
        return -1;
    }
    return 0;
}

int
zs_computed_names (const char *text, char names[][ZS_COLUMN_NAME_MAX], int max)
{
    char err[ZS_ERRLEN];
    s_walk_t w = {NULL, 0, 0, names, max, 0, err, sizeof err};
    if (s_each_item (text, s_walk_item, &w, err, sizeof err))
        return 0;
    return w.n < max ? w.n : max;
}

//  ---------------------------------------------------------------------
//  Compiling against a row type

static int
s_col_err (const s_col_t *c, char *err, size_t errlen, const char *what)
{
    snprintf (err, errlen, "table.computed-columns: column '%s' = %s: %s", c->item.name,
              c->item.expr, what);
    return -1;
}

//  A whole number argument into *v. 0, or -1.
static int
s_int_arg (const char *text, int64_t *v)
{
    errno = 0;
    char *end;
    long long x = strtoll (text, &end, 10);
    if (end == text || *end || errno || x < INT32_MIN || x > INT32_MAX)
        return -1;
    *v = x;
    return 0;
}

//  Text kinds: STRING (any VARCHAR) and CHAR.
static bool
s_text (zs_type_t type)
{
    return type == ZS_TYPE_STRING || type == ZS_TYPE_CHAR;
}

//  out takes col's type with its parameters (not its name).
static void
s_same_type (zs_column_t *out, const zs_column_t *col)
{
    out->type = col->type;
    out->params = col->params;
    out->ltz = col->ltz;
    out->precision = col->precision;
    out->scale = col->scale;
    out->length = col->length;
}

//  The referenced column (the first argument): a source column or a
//  computed one declared before (invariant 3).
static int
s_bind_ref (zs_computed_t *self, s_col_t *c, char *err, size_t errlen)
{
    const char *name = c->item.args[0];
    int upto = self->first + self->n;
    for (int i = 0; i < upto; i++)
        if (strcasecmp (self->schema.cols[i].name, name) == 0) {
            c->ref = i;
            c->in = self->schema.cols[i].type;
            return 0;
        }
    char why[ZS_ERRLEN], cols[ZS_ERRLEN / 2] = "";
    for (int i = 0; i < upto && strlen (cols) + ZS_COLUMN_NAME_MAX + 8 < sizeof cols; i++)
        snprintf (cols + strlen (cols), sizeof cols - strlen (cols), "%s%s", i ? ", " : "",
                  self->schema.cols[i].name);
    snprintf (why, sizeof why, "unknown column '%s' (the columns before it: %s)", name, cols);
    return s_col_err (c, err, errlen, why);
}

static int
s_wrong_type (const s_col_t *c, const char *wants, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    snprintf (why, sizeof why, "wrong argument type: '%s' is %s, %s takes %s", c->item.args[0],
              zs_type_name (c->in), s_fns[c->item.fn].name, wants);
    return s_col_err (c, err, errlen, why);
}

//  year … second and date_format: the input type and the precision.
static int
s_bind_temporal (s_col_t *c, const char *prec, char *err, size_t errlen)
{
    bool number = c->in == ZS_TYPE_INT || c->in == ZS_TYPE_BIGINT;
    if (!number && !s_text (c->in) && c->in != ZS_TYPE_DATE && c->in != ZS_TYPE_TIMESTAMP3
        && c->in != ZS_TYPE_TIMESTAMP6 && c->in != ZS_TYPE_TIMESTAMP9)
        return s_wrong_type (c, "a TIMESTAMP, a DATE, a STRING or an epoch number (INT, BIGINT)",
                             err, errlen);
    c->prec = number ? 0 : -1;
    if (!prec)
        return 0;
    int64_t p;
    if (s_int_arg (prec, &p) || (p != 0 && p != 3 && p != 6 && p != 9))
        return s_col_err (c, err, errlen,
                          "the precision must be 0 (epoch seconds), 3 (milliseconds), 6 "
                          "(microseconds) or 9 (nanoseconds)");
    if (!number && !s_text (c->in)) {
        char why[ZS_ERRLEN];
        snprintf (why, sizeof why, "a precision is for epoch numbers, and '%s' is %s",
                  c->item.args[0], zs_type_name (c->in));
        return s_col_err (c, err, errlen, why);
    }
    c->prec = (int) p;
    return 0;
}

static int
s_bind_substring (s_col_t *c, char *err, size_t errlen)
{
    if (!s_text (c->in))
        return s_wrong_type (c, "a STRING", err, errlen);
    c->b = -1;
    if (s_int_arg (c->item.args[1], &c->a) || c->a < 0)
        return s_col_err (c, err, errlen, "the begin index must be a whole number >= 0");
    if (c->item.nargs == 3 && (s_int_arg (c->item.args[2], &c->b) || c->b <= c->a))
        return s_col_err (c, err, errlen,
                          "the end index must be a whole number larger than the begin index");
    return 0;
}

static int
s_bind_truncate (s_col_t *c, char *err, size_t errlen)
{
    if (c->in != ZS_TYPE_INT && c->in != ZS_TYPE_BIGINT && !s_text (c->in))
        return s_wrong_type (c, "an INT, a BIGINT or a STRING", err, errlen);
    if (s_int_arg (c->item.args[1], &c->a) || c->a <= 0)
        return s_col_err (c, err, errlen, "the width must be a whole number > 0");
    return 0;
}

//  Seconds and nanoseconds of a date-time, as an epoch.
static void
s_ldt_epoch (const zs_ldt_t *t, int64_t *secs, int32_t *nano)
{
    *secs = zs_ldt_days (t->year, t->month, t->day) * 86400 + t->hour * 3600 + t->minute * 60
            + t->second;
    *nano = t->nano;
}

//  cast's constant: the text read as its type.
static int
s_cast_value (s_col_t *c, zs_type_t type, const char *text, char *err, size_t errlen)
{
    zs_value_t *v = &c->constant;
    size_t len = strlen (text);
    zs_ldt_t t;
    int64_t secs, i;
    int32_t nano;
    char *end;
    errno = 0;
    switch (type) {
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
        if (!(c->buf = malloc (len + 1)))
            return s_col_err (c, err, errlen, "out of memory");
        memcpy (c->buf, text, len + 1);
        v->v.bin.ptr = c->buf;
        v->v.bin.len = (uint32_t) len;
        return 0;
    case ZS_TYPE_BOOLEAN:
        if (strcasecmp (text, "true") && strcasecmp (text, "false"))
            break;
        v->v.b = strcasecmp (text, "true") == 0;
        return 0;
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_INT: {
        int64_t lim = type == ZS_TYPE_TINYINT ? 127 : type == ZS_TYPE_SMALLINT ? 32767 : INT32_MAX;
        if (s_int_arg (text, &i) || i > lim || i < -lim - 1)
            break;
        v->v.i32 = (int32_t) i;
        return 0;
    }
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY:
    case ZS_TYPE_DECIMAL:
    case ZS_TYPE_TIME:
    case ZS_TYPE_TIMESTAMP9:
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: {
        //  (their text parsers live in the format layer, above this one)
        char why[ZS_ERRLEN];
        snprintf (why, sizeof why,
                  "cast to %s is not supported: cast makes a BOOLEAN, TINYINT, SMALLINT, INT, "
                  "BIGINT, FLOAT, DOUBLE, STRING, BYTES, DATE or TIMESTAMP(0..6) constant",
                  zs_type_name (type));
        return s_col_err (c, err, errlen, why);
    }
    case ZS_TYPE_BIGINT:
        v->v.i64 = strtoll (text, &end, 10);
        if (end == text || *end || errno)
            break;
        return 0;
    case ZS_TYPE_FLOAT:
    case ZS_TYPE_DOUBLE: {
        double d = strtod (text, &end);
        if (end == text || *end)
            break;
        if (type == ZS_TYPE_FLOAT)
            v->v.f32 = (float) d;
        else
            v->v.f64 = d;
        return 0;
    }
    case ZS_TYPE_DATE:
        if (zs_ldt_parse (text, len, &t) || t.hour || t.minute || t.second || t.nano)
            break;
        v->v.i32 = (int32_t) zs_ldt_days (t.year, t.month, t.day);
        return 0;
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
        if (zs_ldt_parse (text, len, &t))
            break;
        s_ldt_epoch (&t, &secs, &nano);
        v->v.i64 = type == ZS_TYPE_TIMESTAMP3 ? secs * 1000 + nano / 1000000
                                              : secs * 1000000 + nano / 1000;
        return 0;
    }
    char why[ZS_ERRLEN];
    snprintf (why, sizeof why, "'%s' is not a %s value", text, zs_type_name (type));
    return s_col_err (c, err, errlen, why);
}

static int
s_bind_cast (s_col_t *c, zs_column_t *out, char *err, size_t errlen)
{
    out->type = ZS_TYPE_STRING;
    if (c->item.nargs == 2) {
        char def[S_ARG_MAX + 8], why[ZS_ERRLEN];
        zs_schema_t one;
        snprintf (def, sizeof def, "c %s", c->item.args[1]);
        if (zs_schema_parse (&one, def, why, sizeof why) || one.n != 1) {
            snprintf (why, sizeof why, "unknown type '%s'", c->item.args[1]);
            return s_col_err (c, err, errlen, why);
        }
        s_same_type (out, &one.cols[0]);
        out->nullable = one.cols[0].nullable;
    }
    return s_cast_value (c, out->type, c->item.args[0], err, errlen);
}

//  The column's output type into out, its arguments checked.
static int
s_bind (zs_computed_t *self, s_col_t *c, zs_column_t *out, char *err, size_t errlen)
{
    c->fn = s_fns[c->item.fn].fn;
    c->ref = -1;
    c->prec = -1;
    out->nullable = true;
    if (c->fn != S_CAST && c->fn != S_NOW && s_bind_ref (self, c, err, errlen))
        return -1;
    switch (c->fn) {
    case S_YEAR:
    case S_MONTH:
    case S_DAY:
    case S_HOUR:
    case S_MINUTE:
    case S_SECOND:
        out->type = ZS_TYPE_INT;
        return s_bind_temporal (c, c->item.nargs > 1 ? c->item.args[1] : NULL, err, errlen);
    case S_DATE_FORMAT: {
        out->type = ZS_TYPE_STRING;
        char why[ZS_ERRLEN];
        if (zs_pattern_compile (&c->pat, c->item.args[1], why, sizeof why))
            return s_col_err (c, err, errlen, why);
        if (!(c->buf = malloc (ZS_PAT_OUT_MAX)))
            return s_col_err (c, err, errlen, "out of memory");
        return s_bind_temporal (c, c->item.nargs > 2 ? c->item.args[2] : NULL, err, errlen);
    }
    case S_SUBSTRING:
        out->type = ZS_TYPE_STRING;
        return s_bind_substring (c, err, errlen);
    case S_TRUNCATE:
        s_same_type (out, &self->schema.cols[c->ref]);
        out->nullable = self->schema.cols[c->ref].nullable;
        return s_bind_truncate (c, err, errlen);
    case S_CAST:
        return s_bind_cast (c, out, err, errlen);
    case S_NOW:
        out->type = ZS_TYPE_TIMESTAMP3;
        return 0;
    case S_UPPER:
    case S_LOWER:
    case S_TRIM:
        out->type = ZS_TYPE_STRING;
        return s_text (c->in) ? 0 : s_wrong_type (c, "a STRING", err, errlen);
    }
    return -1;
}

typedef struct {
    zs_computed_t *self;
    char *err;
    size_t errlen;
} s_add_t;

static int
s_add_item (const s_item_t *it, void *arg)
{
    s_add_t *a = arg;
    zs_computed_t *self = a->self;
    char *err = a->err;
    size_t errlen = a->errlen;
    if (self->first + self->n >= ZS_MAX_COLUMNS) {
        snprintf (err, errlen, "table.computed-columns: the table would have more than %d columns",
                  ZS_MAX_COLUMNS);
        return -1;
    }
    s_col_t *c = &self->cols[self->n];
    c->item = *it;
    for (int i = 0; i < self->first + self->n; i++)
        if (strcasecmp (self->schema.cols[i].name, it->name) == 0)
            return s_col_err (c, err, errlen,
                              i < self->first ? "the source has a column of that name already"
                                              : "declared twice");
    zs_column_t *out = &self->schema.cols[self->first + self->n];
    memset (out, 0, sizeof *out);
    snprintf (out->name, sizeof out->name, "%s", it->name);
    int rc = s_bind (self, c, out, err, errlen);
    self->n++; //  counted even when failed: destroy frees its buffer
    return rc;
}

zs_computed_t *
zs_computed_new (const char *text, const zs_schema_t *source, char *err, size_t errlen)
{
    zs_computed_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    if (strlen (text) >= sizeof self->text) {
        snprintf (err, errlen, "table.computed-columns: longer than %zu bytes",
                  sizeof self->text - 1);
        free (self);
        return NULL;
    }
    snprintf (self->text, sizeof self->text, "%s", text);
    self->source_fp = source->fingerprint;
    self->schema = *source;
    self->first = source->n;
    self->utf8 = newlocale (LC_CTYPE_MASK, "C.UTF-8", (locale_t) 0);
    s_add_t arg = {self, err, errlen};
    if (s_each_item (text, s_add_item, &arg, err, errlen) != 0)
        goto fail;
    //  the table's row type, through the parser: fingerprint, id column
    char def[ZS_MAX_COLUMNS * (ZS_COLUMN_NAME_MAX + 24)], why[ZS_ERRLEN];
    self->schema.n = self->first + self->n;
    if (zs_schema_format (&self->schema, def, sizeof def)
        || zs_schema_parse (&self->schema, def, why, sizeof why)) {
        snprintf (err, errlen, "table.computed-columns: %s", why);
        goto fail;
    }
    return self;
fail:
    zs_computed_destroy (&self);
    return NULL;
}

void
zs_computed_destroy (zs_computed_t **self_p)
{
    zs_computed_t *self = *self_p;
    if (!self)
        return;
    for (int i = 0; i < self->n; i++)
        free (self->cols[i].buf);
    if (self->utf8)
        freelocale (self->utf8);
    free (self);
    *self_p = NULL;
}

const zs_schema_t *
zs_computed_schema (const zs_computed_t *self)
{
    return &self->schema;
}

int
zs_computed_count (const zs_computed_t *self)
{
    return self->n;
}

//  ---------------------------------------------------------------------
//  Evaluating

static int
s_value_err (const s_col_t *c, const zs_value_t *in, char *err, size_t errlen, const char *what)
{
    int n = in->v.bin.len > 64 ? 64 : (int) in->v.bin.len;
    snprintf (err, errlen, "computed column '%s' = %s: '%.*s'%s: %s", c->item.name, c->item.expr, n,
              (const char *) in->v.bin.ptr, n < (int) in->v.bin.len ? "…" : "", what);
    return -1;
}

static int64_t
s_floor_div (int64_t a, int64_t b)
{
    int64_t q = a / b;
    return a % b < 0 ? q - 1 : q;
}

//  An epoch number in units of 10^-prec seconds.
static int
s_epoch_ldt (int64_t v, int prec, zs_ldt_t *t)
{
    static const int64_t pow10[] = {1,      10,      100,      1000,      10000,
                                    100000, 1000000, 10000000, 100000000, 1000000000};
    int64_t unit = pow10[prec], secs = s_floor_div (v, unit);
    int32_t nano = (int32_t) ((v - secs * unit) * pow10[9 - prec]);
    return zs_ldt_from_epoch (secs, nano, t);
}

//  The referenced value as a date-time (Paimon's TemporalExpressionBase).
static int
s_to_ldt (const s_col_t *c, const zs_value_t *in, zs_ldt_t *t, char *err, size_t errlen)
{
    int rc = 0;
    switch (c->in) {
    case ZS_TYPE_TIMESTAMP3:
        rc = s_epoch_ldt (in->v.i64, 3, t);
        break;
    case ZS_TYPE_TIMESTAMP6:
        rc = s_epoch_ldt (in->v.i64, 6, t);
        break;
    case ZS_TYPE_TIMESTAMP9:
        rc = s_epoch_ldt (in->v.i64, 9, t);
        break;
    case ZS_TYPE_DATE:
        zs_ldt_from_days (in->v.i32, t);
        break;
    case ZS_TYPE_INT:
        rc = s_epoch_ldt (in->v.i32, c->prec, t);
        break;
    case ZS_TYPE_BIGINT:
        rc = s_epoch_ldt (in->v.i64, c->prec, t);
        break;
    case ZS_TYPE_STRING:
    case ZS_TYPE_CHAR: {
        if (c->prec < 0) {
            if (zs_ldt_parse ((const char *) in->v.bin.ptr, in->v.bin.len, t) == 0)
                return 0;
            return s_value_err (c, in, err, errlen,
                                "not a timestamp (yyyy-MM-dd, yyyy-MM-dd HH:mm:ss[.f] or "
                                "yyyy-MM-ddTHH:mm[:ss[.f]])");
        }
        char num[24];
        char *end;
        if (in->v.bin.len == 0 || in->v.bin.len >= sizeof num)
            return s_value_err (c, in, err, errlen, "not an epoch number");
        memcpy (num, in->v.bin.ptr, in->v.bin.len);
        num[in->v.bin.len] = 0;
        errno = 0;
        long long v = strtoll (num, &end, 10);
        if (*end || errno || !(isdigit ((unsigned char) num[0]) || num[0] == '-' || num[0] == '+'))
            return s_value_err (c, in, err, errlen, "not an epoch number");
        rc = s_epoch_ldt (v, c->prec, t);
        break;
    }
    default:
        return -1; //  refused when compiled
    }
    if (rc != 0)
        snprintf (err, errlen, "computed column '%s' = %s: the value is beyond year %lld",
                  c->item.name, c->item.expr, (long long) ZS_LDT_YEAR_MAX);
    return rc;
}

//  The byte offset of UTF-16 index units in a UTF-8 string: 0; 1 when the
//  string is shorter; 2 when the index falls inside a surrogate pair
//  (Java would split the character).
static int
s_utf16_seek (const uint8_t *p, size_t len, int64_t units, size_t *off)
{
    size_t pos = 0;
    int64_t u = 0;
    while (u < units) {
        if (pos >= len)
            return 1;
        uint8_t lead = p[pos];
        size_t size = lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
        int w = size == 4 ? 2 : 1;
        if (u + w > units)
            return 2;
        u += w;
        pos = pos + size > len ? len : pos + size;
    }
    *off = pos;
    return 0;
}

static int64_t
s_utf16_len (const uint8_t *p, size_t len)
{
    int64_t u = 0;
    for (size_t pos = 0; pos < len;) {
        uint8_t lead = p[pos];
        size_t size = lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
        u += size == 4 ? 2 : 1;
        pos += size;
    }
    return u;
}

static int
s_substring (const s_col_t *c, const zs_value_t *in, zs_value_t *out, char *err, size_t errlen)
{
    size_t a, b = in->v.bin.len;
    int rc = s_utf16_seek (in->v.bin.ptr, in->v.bin.len, c->a, &a);
    if (rc == 0 && c->b >= 0)
        rc = s_utf16_seek (in->v.bin.ptr, in->v.bin.len, c->b, &b);
    if (rc != 0) {
        char why[128];
        snprintf (why, sizeof why, "%s (begin %lld, end %lld, length %lld)",
                  rc == 1 ? "indexes out of range" : "an index splits a character",
                  (long long) c->a, (long long) c->b,
                  (long long) s_utf16_len (in->v.bin.ptr, in->v.bin.len));
        return s_value_err (c, in, err, errlen, why);
    }
    out->v.bin.ptr = in->v.bin.ptr + a;
    out->v.bin.len = (uint32_t) (b - a);
    return 0;
}

//  Java's value - (((value % width) + width) % width), wrapping as Java's
//  int and long do.
static int
s_truncate (const s_col_t *c, const zs_value_t *in, zs_value_t *out, char *err, size_t errlen)
{
    if (c->in == ZS_TYPE_INT) {
        int32_t w = (int32_t) c->a, v = in->v.i32;
        int32_t t = (int32_t) ((uint32_t) (v % w) + (uint32_t) w);
        out->v.i32 = (int32_t) ((uint32_t) v - (uint32_t) (t % w));
        return 0;
    }
    if (c->in == ZS_TYPE_BIGINT) {
        int64_t w = c->a, v = in->v.i64;
        int64_t t = (int64_t) ((uint64_t) (v % w) + (uint64_t) w);
        out->v.i64 = (int64_t) ((uint64_t) v - (uint64_t) (t % w));
        return 0;
    }
    size_t off;
    if (s_utf16_seek (in->v.bin.ptr, in->v.bin.len, c->a, &off) != 0) {
        char why[128];
        snprintf (why, sizeof why, "the width %lld is more than the length %lld", (long long) c->a,
                  (long long) s_utf16_len (in->v.bin.ptr, in->v.bin.len));
        return s_value_err (c, in, err, errlen, why);
    }
    out->v.bin.ptr = in->v.bin.ptr;
    out->v.bin.len = (uint32_t) off;
    return 0;
}

//  Room for len bytes in the column's buffer (grown, never shrunk).
static int
s_room (s_col_t *c, size_t len)
{
    if (c->cap >= len)
        return 0;
    size_t cap = len < 64 ? 64 : len * 2;
    uint8_t *buf = realloc (c->buf, cap);
    if (!buf)
        return -1;
    c->buf = buf;
    c->cap = cap;
    return 0;
}

//  One UTF-8 code point at p (at most len bytes) into *cp: its length, or
//  0 when the bytes are no well-formed UTF-8.
static size_t
s_utf8_decode (const uint8_t *p, size_t len, uint32_t *cp)
{
    size_t n = p[0] < 0xc2 ? 0 : p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : p[0] < 0xf5 ? 4 : 0;
    if (n == 0 || n > len)
        return 0;
    uint32_t v = p[0] & (0xff >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3f);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

static size_t
s_utf8_encode (uint32_t cp, uint8_t *o)
{
    if (cp < 0x80) {
        o[0] = (uint8_t) cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t) (0xc0 | cp >> 6);
        o[1] = (uint8_t) (0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t) (0xe0 | cp >> 12);
        o[1] = (uint8_t) (0x80 | (cp >> 6 & 0x3f));
        o[2] = (uint8_t) (0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (uint8_t) (0xf0 | cp >> 18);
    o[1] = (uint8_t) (0x80 | (cp >> 12 & 0x3f));
    o[2] = (uint8_t) (0x80 | (cp >> 6 & 0x3f));
    o[3] = (uint8_t) (0x80 | (cp & 0x3f));
    return 4;
}

//  Java's toUpperCase/toLowerCase, one code point at a time (the simple
//  case mappings of the C.UTF-8 locale: 'ß' stays 'ß' where Java gives
//  "SS"); bytes that are no UTF-8 are kept as they are.
static int
s_case (zs_computed_t *self, s_col_t *c, const zs_value_t *in, zs_value_t *out)
{
    size_t len = in->v.bin.len;
    if (s_room (c, len * 2 + 4))
        return -1;
    const uint8_t *p = in->v.bin.ptr;
    uint8_t *o = c->buf;
    bool upper = c->fn == S_UPPER;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = p[i] < 0x80 || !self->utf8 ? 0 : s_utf8_decode (p + i, len - i, &cp);
        if (n == 0) {
            uint8_t b = p[i++];
            *o++ = upper && b >= 'a' && b <= 'z'    ? (uint8_t) (b - 32)
                   : !upper && b >= 'A' && b <= 'Z' ? (uint8_t) (b + 32)
                                                    : b;
            continue;
        }
        wint_t m =
            upper ? towupper_l ((wint_t) cp, self->utf8) : towlower_l ((wint_t) cp, self->utf8);
        //  a mapping may take one byte more (U+0250 -> U+2C6F): 2 len + 4 holds it
        o += s_utf8_encode ((uint32_t) m <= 0x10ffff ? (uint32_t) m : cp, o);
        i += n;
    }
    out->v.bin.ptr = c->buf;
    out->v.bin.len = (uint32_t) (o - c->buf);
    return 0;
}

//  Java's String.trim: every char <= ' ' off both ends.
static void
s_trim_value (const zs_value_t *in, zs_value_t *out)
{
    const uint8_t *a = in->v.bin.ptr, *b = a + in->v.bin.len;
    while (a < b && *a <= ' ')
        a++;
    while (b > a && b[-1] <= ' ')
        b--;
    out->v.bin.ptr = a;
    out->v.bin.len = (uint32_t) (b - a);
}

//  The local wall-clock time in milliseconds (Java's LocalDateTime.now()).

static int
s_temporal (const s_col_t *c, const zs_value_t *in, zs_value_t *out, char *err, size_t errlen)
{
    zs_ldt_t t;
    if (s_to_ldt (c, in, &t, err, errlen))
        return -1;
    switch (c->fn) {
    case S_YEAR:
        out->v.i32 = (int32_t) t.year;
        break;
    case S_MONTH:
        out->v.i32 = t.month;
        break;
    case S_DAY:
        out->v.i32 = t.day;
        break;
    case S_HOUR:
        out->v.i32 = t.hour;
        break;
    case S_MINUTE:
        out->v.i32 = t.minute;
        break;
    case S_SECOND:
        out->v.i32 = t.second;
        break;
    default: //  date_format
        out->v.bin.ptr = c->buf;
        out->v.bin.len = (uint32_t) zs_pattern_format (&c->pat, &t, (char *) c->buf);
        break;
    }
    return 0;
}

static int
s_eval_col (zs_computed_t *self, s_col_t *c, const zs_value_t *row, zs_value_t *out, char *err,
            size_t errlen)
{
    if (c->fn == S_NOW) {
        out->v.i64 = zs_clock_local_ms ();
        return 0;
    }
    if (c->fn == S_CAST) {
        out->v = c->constant.v;
        return 0;
    }
    const zs_value_t *in = &row[c->ref];
    if (in->null) {
        out->null = true;
        return 0;
    }
    switch (c->fn) {
    case S_SUBSTRING:
        return s_substring (c, in, out, err, errlen);
    case S_TRUNCATE:
        return s_truncate (c, in, out, err, errlen);
    case S_UPPER:
    case S_LOWER:
        if (s_case (self, c, in, out) == 0)
            return 0;
        snprintf (err, errlen, "computed column '%s': out of memory", c->item.name);
        return -1;
    case S_TRIM:
        s_trim_value (in, out);
        return 0;
    default:
        return s_temporal (c, in, out, err, errlen);
    }
}

int
zs_computed_eval (zs_computed_t *self, zs_value_t *row, char *err, size_t errlen)
{
    for (int i = 0; i < self->n; i++) {
        zs_value_t *out = &row[self->first + i];
        out->null = false;
        if (s_eval_col (self, &self->cols[i], row, out, err, errlen))
            return -1;
    }
    return 0;
}

int
zs_computed_fill (zs_computed_t **self_p, const char *text, const zs_schema_t *source,
                  zs_value_t *row, char *err, size_t errlen)
{
    if (!*text)
        return 0;
    zs_computed_t *self = *self_p;
    if (!self || self->source_fp != source->fingerprint || strcmp (self->text, text) != 0) {
        zs_computed_destroy (self_p);
        if (!(*self_p = zs_computed_new (text, source, err, errlen)))
            return -1;
        self = *self_p;
    }
    return zs_computed_eval (self, row, err, errlen);
}
