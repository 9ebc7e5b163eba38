/*  rowfmt.h - values as text: the one spelling of each type that `zsink
    table scan`, the manifest's column statistics and the tests share.

        BOOLEAN       true / false
        INT, BIGINT   decimal
        FLOAT         the shortest %g (6 to 9 digits) that reads back the
                      same float
        DOUBLE        likewise, 15 to 17 digits: exact, and 0.1 stays 0.1;
                      nan, inf, -inf
        STRING        the bytes as they are
        BYTES         lowercase hex, two digits a byte
        DATE          YYYY-MM-DD (proleptic Gregorian)
        TIMESTAMP(3)  YYYY-MM-DD HH:MM:SS.mmm
        TIMESTAMP(6)  YYYY-MM-DD HH:MM:SS.uuuuuu
        TINYINT, SMALLINT  decimal
        DECIMAL(p, s) the exact number, s digits after the point
                      ("-0.50", "12"); a JSON string
        CHAR, BINARY  as STRING, BYTES
        TIME          HH:MM:SS.mmm
        TIMESTAMP(p)  3 fractional digits for p 0..3, 6 for 4..6, 9 for
                      7..9; WITH LOCAL TIME ZONE: the UTC time and 'Z'

    In JSON, numbers are JSON numbers except non-finite floats ("NaN",
    "Infinity", "-Infinity" as strings), null is null and everything else a
    JSON string. In CSV (RFC 4180), null is an empty field and an empty
    string is "".
*/
#ifndef ZS_ROWFMT_H_INCLUDED
#define ZS_ROWFMT_H_INCLUDED

#include "rowtype.h"

//  A growable text buffer.
typedef struct {
    char *data;
    size_t len, cap;
    bool oom; //  an append ran out of memory; the text is incomplete
} zs_strbuf_t;

void zs_strbuf_append (zs_strbuf_t *self, const void *data, size_t len);
void zs_strbuf_appends (zs_strbuf_t *self, const char *text);
void zs_strbuf_free (zs_strbuf_t *self);

//  One non-null value's text (see above) appended to out.
void zs_value_text (zs_strbuf_t *out, zs_type_t type, const zs_value_t *value);

//  One value as JSON appended to out (null as null).
void zs_value_json (zs_strbuf_t *out, zs_type_t type, const zs_value_t *value);

//  The same of a column's value: the column's parameters (a DECIMAL's
//  scale, WITH LOCAL TIME ZONE) count. The zs_type_t forms above take the
//  kind's defaults.
void zs_value_text_col (zs_strbuf_t *out, const zs_column_t *col, const zs_value_t *value);
void zs_value_json_col (zs_strbuf_t *out, const zs_column_t *col, const zs_value_t *value);

//  A row as one JSON object line / one CSV record, newline included.
//  A value of any column, nested ones as JSON (rowfmt_nested.c): ARRAY
//  [..], ROW {"field": ..} in field order, MAP {"key": ..} with each key's
//  text as the member name (its JSON string for STRING keys), in the
//  map's order.
void zs_value_json_nested (zs_strbuf_t *out, const zs_schema_t *schema, const zs_column_t *col,
                           const zs_value_t *value);

//  p as a JSON string, quotes included (bytes not UTF-8 as \u00XX).
void zs_strbuf_json_string (zs_strbuf_t *out, const uint8_t *p, size_t len);

void zs_row_jsonl (zs_strbuf_t *out, const zs_schema_t *schema, const zs_value_t *row);
void zs_row_csv (zs_strbuf_t *out, const zs_schema_t *schema, const zs_value_t *row);
//  The CSV header line naming the columns.
void zs_row_csv_header (zs_strbuf_t *out, const zs_schema_t *schema);

//  --------------------------------------------------------------------------
//  Text to values, the inverse (rowparse.c): what the file source reads.

//  Why a text was refused as a value.
enum { ZS_PARSE_TYPE = -1, ZS_PARSE_RANGE = -2, ZS_PARSE_UTF8 = -3 };

//  The value of type spelt by p[0..len) (not NUL-terminated): the spellings
//  above, booleans in any case, DATE and TIMESTAMP with a space or 'T' and
//  1 to 9 fractional digits (none lost), STRING checked as UTF-8, BYTES
//  as they are. STRING/BYTES point into p. 0, or a ZS_PARSE_ kind with
//  *reason when there is more to say than "not a …".
int zs_value_parse (zs_type_t type, const uint8_t *p, size_t len, zs_value_t *out,
                    const char **reason);

//  The same for a column: a DECIMAL's precision and scale (plain or
//  exponent notation, digits beyond the scale refused, more digits than
//  the precision ZS_PARSE_RANGE), CHAR(n)/VARCHAR(n) longer than n
//  characters and BINARY(n)/VARBINARY(n) longer than n bytes
//  ZS_PARSE_RANGE, TINYINT/SMALLINT ranges, TIME "HH:MM:SS[.f{1,9}]",
//  TIMESTAMP(p) with up to p fractional digits kept (further zero digits
//  allowed), WITH LOCAL TIME ZONE a trailing 'Z' or +HH:MM/-HH:MM offset
//  allowed (and applied).
int zs_value_parse_col (const zs_column_t *col, const uint8_t *p, size_t len, zs_value_t *out,
                        const char **reason);

//  A null for column col; -1 with why in a NOT NULL column.
int zs_value_null (const zs_column_t *col, zs_value_t *out, char *why, size_t whylen);

//  The message for a refused value, quoting shown ("column 'qty': 'x' is
//  not an INT"). Returns -1.
int zs_value_refused (const zs_column_t *col, int kind, const char *shown, const char *reason,
                      char *why, size_t whylen);

//  A bad value as a message quotes it: at most ZS_SHOW_MAX bytes cut on a
//  UTF-8 boundary, control characters as '?' so a log line stays one line,
//  the bytes of a value that is not UTF-8 as \xHH.
#define ZS_SHOW_MAX 40
void zs_value_show (char *dst, size_t size, const uint8_t *p, size_t len);

//  Length of the valid UTF-8 sequence at p (1-4), or 0 if it is not one
//  (overlong forms, surrogates, beyond U+10FFFF); is all of p UTF-8?
size_t zs_utf8_len (const uint8_t *p, size_t left);
bool zs_utf8_valid (const uint8_t *p, size_t len);

//  Calendar helpers: days since 1970-01-01 <-> civil date.
int32_t zs_days_from_civil (int64_t y, unsigned m, unsigned d);
void zs_civil_from_days (int64_t days, int64_t *y, unsigned *m, unsigned *d);

#endif
