/*  record.h - one source record's text into a row of the table's schema:
    what the file source (JSONL lines, CSV records mapped by a header) and
    the Kafka source (a value in json, or in csv as Flink's csv format: the
    fields are the columns in order, no header) have in common, so that a
    value reads the same from either.

    JSON. The text is one JSON object (jansson; integers stay exact in 64
    bits). Keys map to columns by exact name; a missing key or null is
    NULL; other keys are ignored; a key given twice is an error. BOOLEAN
    from true/false; INT from an integer in int32 range; BIGINT from an
    integer; FLOAT/DOUBLE from any number (FLOAT refuses magnitudes beyond
    FLT_MAX); STRING and BYTES from a string (\u0000 allowed); DATE and
    TIMESTAMP from a string (rowfmt.h's zs_value_parse). An integer literal
    beyond 64 bits is refused, naming the column when it is an INT or BIGINT
    one.

    CSV (RFC 4180). One record, without its line end: comma separator,
    double-quote quoting, "" for a quote inside quotes; a quoted field may
    hold commas and newlines. An empty unquoted field is NULL, a quoted
    empty field is the empty string; fields are not trimmed. A quote inside
    an unquoted field, text after a closing quote or an unclosed quote is an
    error. Values are zs_value_parse's text forms.

    Lifetime. STRING and BYTES values of a row point into the record object
    (the JSON object, the unescaped quoted fields) or into the text, and
    stay valid until the next call on the same object or zs_record_clear.
*/
#ifndef ZS_RECORD_H_INCLUDED
#define ZS_RECORD_H_INCLUDED

#include "rowtype.h"
#include "zs.h"

typedef struct {
    const uint8_t *ptr;
    size_t len;
    bool quoted;
} zs_record_field_t;

typedef struct _zs_record_t zs_record_t;

//  A parser for rows of schema (copied). NULL when out of memory.
zs_record_t *zs_record_new (const zs_schema_t *schema);

//  One JSON object into row[schema->n]. 0, or -1 with why.
int zs_record_json (zs_record_t *self, const uint8_t *text, size_t len, zs_value_t *row, char *why,
                    size_t whylen);

//  Split one CSV record into fields (read with zs_record_field). The number
//  of fields, or -1 with why.
int zs_record_csv_split (zs_record_t *self, const uint8_t *text, size_t len, char *why,
                         size_t whylen);

//  Field k of the last split.
const zs_record_field_t *zs_record_field (zs_record_t *self, int k);

//  The last split's nf fields into row: field k into column col_of[k] (-1:
//  not a column), columns no field names NULL. 0, or -1 with why naming
//  the column.
int zs_record_csv_map (zs_record_t *self, const int *col_of, int nf, zs_value_t *row, char *why,
                       size_t whylen);

//  One positional CSV record into row (Flink's csv format): as many fields
//  as the schema has columns, in its order. A line end ("\n" or "\r\n")
//  ending the text is not part of the record. 0, or -1 with why.
int zs_record_csv (zs_record_t *self, const uint8_t *text, size_t len, zs_value_t *row, char *why,
                   size_t whylen);

//  Let go of the last row's values.
void zs_record_clear (zs_record_t *self);

void zs_record_destroy (zs_record_t **self_p);

#endif
