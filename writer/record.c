/*  record.c - see record.h. The value conversions the file source had,
    shared with the Kafka source: text is rowparse.c's (the inverse of
    rowfmt.c); JSON numbers and booleans are taken here.

    Invariant: a row's STRING/BYTES values point into the text, into
    scratch (unescaped quoted CSV fields, sized for the whole record before
    the first field is written, so field pointers never move) or into json
    (the last JSON object, held until the next call).
*/
#include "record.h"
#include "record_nested.h"
#include "rowfmt.h"

#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _zs_record_t {
    zs_schema_t schema;
    zs_record_field_t *fields; //  of the last split
    int fields_cap;
    uint8_t *scratch; //  unescaped quoted fields
    size_t scratch_cap;
    json_t *json;      //  the last row's object (its strings are the row's)
    zs_varena_t arena; //  the last row's nested values
};

zs_record_t *
zs_record_new (const zs_schema_t *schema)
{
    zs_record_t *self = calloc (1, sizeof *self);
    if (self)
        self->schema = *schema;
    return self;
}

void
zs_record_clear (zs_record_t *self)
{
    json_decref (self->json);
    self->json = NULL;
}

void
zs_record_destroy (zs_record_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_record_t *self = *self_p;
    json_decref (self->json);
    zs_varena_fini (&self->arena);
    free (self->fields);
    free (self->scratch);
    free (self);
    *self_p = NULL;
}

// --------------------------------------------------------------------------
//  Values

//  A CSV field into a value. 0, or -1 with why.
static int
s_from_text (const zs_column_t *col, const zs_record_field_t *f, zs_value_t *out, char *why,
             size_t whylen)
{
    if (f->len == 0 && !f->quoted)
        return zs_value_null (col, out, why, whylen);
    out->null = false;
    const char *reason = NULL;
    int kind = zs_value_parse_col (col, f->ptr, f->len, out, &reason);
    if (kind == 0)
        return 0;
    char shown[ZS_SHOW_MAX * 4 + 8];
    char quoted[ZS_SHOW_MAX * 4 + 12];
    zs_value_show (shown, sizeof shown, f->ptr, f->len);
    snprintf (quoted, sizeof quoted, "'%s'", shown);
    return zs_value_refused (col, kind, quoted, reason, why, whylen);
}

//  A DECIMAL from a JSON number: an integer exactly; a real through the
//  shortest text that reads back the same double, refused when that
//  takes more than 15 significant digits (the JSON text may have had
//  digits a double does not keep: such values come as strings).
static int
s_json_decimal (const zs_column_t *col, json_t *v, zs_value_t *out, const char **reason)
{
    char buf[48];
    if (json_is_integer (v))
        snprintf (buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value (v));
    else {
        double d = json_real_value (v);
        snprintf (buf, sizeof buf, "%.15g", d);
        if (strtod (buf, NULL) != d) {
            *reason = "a JSON number of more than 15 digits is not exact; give it as a string";
            return ZS_PARSE_TYPE;
        }
    }
    return zs_value_parse_col (col, (const uint8_t *) buf, strlen (buf), out, reason);
}

static int
s_json_value (const zs_column_t *col, json_t *v, zs_value_t *out, const char **reason)
{
    switch (col->type) {
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT: {
        if (!json_is_integer (v))
            return ZS_PARSE_TYPE;
        json_int_t x = json_integer_value (v), lim = col->type == ZS_TYPE_TINYINT ? 128 : 32768;
        if (x < -lim || x >= lim)
            return ZS_PARSE_RANGE;
        out->v.i32 = (int32_t) x;
        return 0;
    }
    case ZS_TYPE_DECIMAL:
        if (json_is_number (v))
            return s_json_decimal (col, v, out, reason);
        if (!json_is_string (v))
            return ZS_PARSE_TYPE;
        return zs_value_parse_col (col, (const uint8_t *) json_string_value (v),
                                   json_string_length (v), out, reason);
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY:
    case ZS_TYPE_TIME:
    case ZS_TYPE_TIMESTAMP9:
        if (!json_is_string (v))
            return ZS_PARSE_TYPE;
        return zs_value_parse_col (col, (const uint8_t *) json_string_value (v),
                                   json_string_length (v), out, reason);
    case ZS_TYPE_BOOLEAN:
        if (!json_is_boolean (v))
            return ZS_PARSE_TYPE;
        out->v.b = json_is_true (v);
        return 0;
    case ZS_TYPE_INT:
    case ZS_TYPE_BIGINT: {
        if (!json_is_integer (v))
            return ZS_PARSE_TYPE;
        json_int_t x = json_integer_value (v);
        if (col->type == ZS_TYPE_BIGINT) {
            out->v.i64 = (int64_t) x;
            return 0;
        }
        if (x < INT32_MIN || x > INT32_MAX)
            return ZS_PARSE_RANGE;
        out->v.i32 = (int32_t) x;
        return 0;
    }
    case ZS_TYPE_FLOAT:
    case ZS_TYPE_DOUBLE: {
        if (!json_is_number (v))
            return ZS_PARSE_TYPE;
        double d = json_number_value (v);
        if (col->type == ZS_TYPE_DOUBLE) {
            out->v.f64 = d;
            return 0;
        }
        if (fabs (d) > FLT_MAX)
            return ZS_PARSE_RANGE;
        out->v.f32 = (float) d;
        return 0;
    }
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
        if (!json_is_string (v))
            return ZS_PARSE_TYPE;
        if (zs_column_length (col) != ZS_LENGTH_MAX) //  VARCHAR(n), VARBINARY(n)
            return zs_value_parse_col (col, (const uint8_t *) json_string_value (v),
                                       json_string_length (v), out, reason);
        //  jansson has checked the UTF-8 already
        out->v.bin.ptr = (const uint8_t *) json_string_value (v);
        out->v.bin.len = (uint32_t) json_string_length (v);
        return 0;
    case ZS_TYPE_DATE:
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
        if (!json_is_string (v))
            return ZS_PARSE_TYPE;
        return zs_value_parse_col (col, (const uint8_t *) json_string_value (v),
                                   json_string_length (v), out, reason);
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  record_nested.c
        return ZS_PARSE_TYPE;
    }
    return ZS_PARSE_TYPE;
}

//  A JSON value (not null) into a value. 0, or -1 with why.
static int
s_from_json (const zs_column_t *col, json_t *v, zs_value_t *out, char *why, size_t whylen)
{
    out->null = false;
    const char *reason = NULL;
    int kind = s_json_value (col, v, out, &reason);
    if (kind == 0)
        return 0;
    //  the value as JSON spells it: "abc" for a string, 1.5 for a number
    char shown[ZS_SHOW_MAX * 4 + 8];
    char *dump = json_dumps (v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION (15));
    zs_value_show (shown, sizeof shown, (const uint8_t *) (dump ? dump : "?"),
                   dump ? strlen (dump) : 1);
    free (dump);
    return zs_value_refused (col, kind, shown, reason, why, whylen);
}

int
zs_record_json_scalar (const zs_column_t *col, json_t *v, zs_value_t *out, char *why, size_t whylen)
{
    return s_from_json (col, v, out, why, whylen);
}

// --------------------------------------------------------------------------
//  CSV

int
zs_record_csv_split (zs_record_t *self, const uint8_t *text, size_t len, char *why, size_t whylen)
{
    if (self->scratch_cap < len) {
        uint8_t *s = realloc (self->scratch, len);
        if (!s) {
            snprintf (why, whylen, "out of memory");
            return -1;
        }
        self->scratch = s;
        self->scratch_cap = len;
    }
    //  Every quoted field is copied (unescaped) into scratch, sized for the
    //  whole record up front so field pointers never move; unquoted fields
    //  point into the text.
    const uint8_t *c = text;
    size_t n = len;
    size_t p = 0;
    size_t w = 0; //  write offset in scratch
    int nf = 0;
    for (;;) {
        if (nf == self->fields_cap) {
            int cap = self->fields_cap ? self->fields_cap * 2 : 16;
            zs_record_field_t *f = realloc (self->fields, (size_t) cap * sizeof *f);
            if (!f) {
                snprintf (why, whylen, "out of memory");
                return -1;
            }
            self->fields = f;
            self->fields_cap = cap;
        }
        zs_record_field_t *f = &self->fields[nf++];
        if (p < n && c[p] == '"') {
            p++;
            f->ptr = self->scratch + w;
            f->quoted = true;
            for (;;) {
                if (p >= n) {
                    snprintf (why, whylen, "field %d: quoted field not closed", nf);
                    return -1;
                }
                if (c[p] == '"') {
                    if (p + 1 < n && c[p + 1] == '"') {
                        self->scratch[w++] = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                self->scratch[w++] = c[p++];
            }
            f->len = (size_t) (self->scratch + w - f->ptr);
            if (p < n && c[p] != ',') {
                snprintf (why, whylen, "field %d: text after the closing quote", nf);
                return -1;
            }
        } else {
            size_t q = p;
            while (q < n && c[q] != ',') {
                if (c[q] == '"') {
                    snprintf (why, whylen, "field %d: quote in an unquoted field", nf);
                    return -1;
                }
                q++;
            }
            f->ptr = c + p;
            f->len = q - p;
            f->quoted = false;
            p = q;
        }
        if (p >= n)
            return nf;
        p++; //  the comma; a comma at the very end makes one more empty field
    }
}

const zs_record_field_t *
zs_record_field (zs_record_t *self, int k)
{
    return &self->fields[k];
}

int
zs_record_csv_map (zs_record_t *self, const int *col_of, int nf, zs_value_t *row, char *why,
                   size_t whylen)
{
    for (int c = 0; c < self->schema.n; c++)
        row[c].null = true; //  columns no field names (the caller checked NOT NULL)
    for (int k = 0; k < nf; k++) {
        int c = col_of ? col_of[k] : k;
        if (c >= 0
            && s_from_text (&self->schema.cols[c], &self->fields[k], &row[c], why, whylen) != 0)
            return -1;
    }
    return 0;
}

int
zs_record_csv (zs_record_t *self, const uint8_t *text, size_t len, zs_value_t *row, char *why,
               size_t whylen)
{
    //  a producer that writes lines (kcat, console producers) ends its
    //  values with a newline: it is not a field's
    if (len > 0 && text[len - 1] == '\n')
        len--;
    if (len > 0 && text[len - 1] == '\r')
        len--;
    int nf = zs_record_csv_split (self, text, len, why, whylen);
    if (nf < 0)
        return -1;
    if (nf != self->schema.n) {
        snprintf (why, whylen, "%d field%s, the table has %d column%s", nf, nf == 1 ? "" : "s",
                  self->schema.n, self->schema.n == 1 ? "" : "s");
        return -1;
    }
    return zs_record_csv_map (self, NULL, nf, row, why, whylen);
}

// --------------------------------------------------------------------------
//  JSON

//  text failed to decode with an integer beyond 64 bits: say which column,
//  if an INT/BIGINT one (decoding again with integers as reals only to
//  find it). Returns -1.
static int
s_json_overflow (zs_record_t *self, const uint8_t *text, size_t len, size_t flags, char *why,
                 size_t whylen)
{
    json_error_t jerr;
    json_t *o2 = json_loadb ((const char *) text, len, flags | JSON_DECODE_INT_AS_REAL, &jerr);
    for (int c = 0; o2 && json_is_object (o2) && c < self->schema.n; c++) {
        const zs_column_t *col = &self->schema.cols[c];
        json_t *v = json_object_get (o2, col->name);
        if ((col->type == ZS_TYPE_INT || col->type == ZS_TYPE_BIGINT) && json_is_real (v)
            && fabs (json_real_value (v)) >= 9223372036854775807.0) {
            snprintf (why, whylen, "column '%s': integer out of range for %s", col->name,
                      zs_type_name (col->type));
            json_decref (o2);
            return -1;
        }
    }
    json_decref (o2);
    snprintf (why, whylen, "invalid JSON: number out of range (integers must fit in 64 bits)");
    return -1;
}

int
zs_record_json (zs_record_t *self, const uint8_t *text, size_t len, zs_value_t *row, char *why,
                size_t whylen)
{
    zs_record_clear (self);
    //  DECODE_ANY so that a scalar gets our "not a JSON object" rather than
    //  jansson's text; a duplicate key is refused because which of the two
    //  values a reader takes is a guess; NUL is allowed because STRING and
    //  BYTES carry lengths. Integers stay json_int_t (64 bits), exact.
    json_error_t jerr;
    size_t flags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL;
    json_t *obj = json_loadb ((const char *) text, len, flags, &jerr);
    if (!obj) {
        if (json_error_code (&jerr) == json_error_numeric_overflow)
            return s_json_overflow (self, text, len, flags, why, whylen);
        snprintf (why, whylen, "invalid JSON at byte %d: %s", jerr.position, jerr.text);
        return -1;
    }
    zs_varena_reset (&self->arena);
    if (!json_is_object (obj)) {
        snprintf (why, whylen, "not a JSON object");
        json_decref (obj);
        return -1;
    }
    for (int c = 0; c < self->schema.n; c++) {
        const zs_column_t *col = &self->schema.cols[c];
        json_t *v = json_object_get (obj, col->name);
        int rc =
            (!v || json_is_null (v)) ? zs_value_null (col, &row[c], why, whylen)
            : zs_type_is_nested (col->type)
                ? zs_record_json_nested (&self->schema, col, v, &row[c], &self->arena, why, whylen)
                : s_from_json (col, v, &row[c], why, whylen);
        if (rc != 0) {
            json_decref (obj);
            return -1;
        }
    }
    self->json = obj; //  the row's strings live in it until the next call
    return 0;
}
