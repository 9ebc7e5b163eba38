/*  computed.h - computed columns: a table's columns whose values are
    computed from the row, in the syntax of Paimon's CDC actions
    (--computed_column 'dt=date_format(ts, yyyy-MM-dd)'), declared in a job
    as table.computed-columns: "dt=date_format(ts, yyyy-MM-dd); hr=hour(ts)".

    As in Paimon, a computed column is a real column of the table, after
    the source's columns, of its expression's result type. The functions
    and what they give (Paimon's Expression.java):

        year(c[, p]) month day hour minute second    INT
            c: TIMESTAMP, DATE, a STRING "yyyy-MM-dd[ HH:mm:ss[.f]]" or
            "…THH:mm[:ss[.f]]", or an epoch number (INT, BIGINT, or a
            STRING with p given) in units of 10^-p seconds (p: 0, 3, 6, 9;
            0 when c is a number and p is not given)
        date_format(c, pattern[, p])                 STRING
            pattern: Java DateTimeFormatter letters y M d H m s S, quoted
            'text' and other literal characters
        substring(c, begin[, end])                   STRING
            Java String.substring: UTF-16 indexes, out of range an error
        truncate(c, width)                           c's type
            INT, BIGINT: round down to a multiple of width; STRING: the
            first width characters (fewer characters is an error)
        upper(c) lower(c) trim(c)                    STRING (c a STRING)
        cast(value[, TYPE])                          TYPE (default STRING)
        now()                                        TIMESTAMP(3), local time

    A column may name a source column or a computed column declared before
    it. A NULL referenced value gives NULL. Function names are compared
    ignoring case, as are column names (zs_schema_parse keeps them unique
    that way).
*/
#ifndef ZS_COMPUTED_H_INCLUDED
#define ZS_COMPUTED_H_INCLUDED

#include "rowtype.h"

#define ZS_COMPUTED_TEXT_MAX 2048 //  bytes of table.computed-columns' text, with NUL

typedef struct _zs_computed_t zs_computed_t;

//  Compile the computed columns of text ("name=fn(args); …") against the
//  source's row type. NULL with err
//  naming the column and what is wrong: the syntax, an unknown function,
//  an unknown referenced column, a wrong argument type, a bad pattern.
zs_computed_t *zs_computed_new (const char *text, const zs_schema_t *source, char *err,
                                size_t errlen);

void zs_computed_destroy (zs_computed_t **self_p);

//  The table's row type: the source's columns, then the computed ones.
const zs_schema_t *zs_computed_schema (const zs_computed_t *self);

//  How many computed columns (0 for an empty text).
int zs_computed_count (const zs_computed_t *self);

//  Evaluate on a row whose source columns are set: fills the computed
//  columns after them. A STRING result points into self and stays valid
//  until the next call. 0, or -1 with err naming the column, the value and
//  why (a STRING that reads as no timestamp, a substring out of range).
int zs_computed_eval (zs_computed_t *self, zs_value_t *row, char *err, size_t errlen);

//  The writer's hook: fill row's computed columns as text says, compiling
//  it against source into *self_p on first use and again when text or
//  source change. Nothing to do (0 at once) for an empty text.
int zs_computed_fill (zs_computed_t **self_p, const char *text, const zs_schema_t *source,
                      zs_value_t *row, char *err, size_t errlen);

//  Check the text's syntax alone (items, names, known functions, argument
//  counts), without a row type; the canonical text into canon ("" for an
//  empty text). 0, or -1 with err.
int zs_computed_check_text (const char *text, char *canon, size_t canonlen, char *err,
                            size_t errlen);

//  The names of the computed columns of a text that passed
//  zs_computed_check_text, in order, into names; how many.
int zs_computed_names (const char *text, char names[][ZS_COLUMN_NAME_MAX], int max);

#endif
