/*  rowfmt.c - see rowfmt.h.

    Hand-rolled rather than built on jansson: a scan of a million rows
    formats millions of values, and jansson refuses strings that are not
    valid UTF-8, which a Parquet file from elsewhere may hold (such bytes are
    written as \u00XX escapes of each byte, so the line stays valid JSON).
*/
#include "rowfmt.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
zs_strbuf_append (zs_strbuf_t *self, const void *data, size_t len)
{
    if (self->oom)
        return;
    //  + 1 for the NUL (len + 1 cannot wrap: no object is SIZE_MAX long)
    char *p = zs_grow (self->data, &self->cap, self->len, len + 1, 256);
    if (!p) {
        self->oom = true;
        return;
    }
    self->data = p;
    memcpy (self->data + self->len, data, len);
    self->len += len;
    self->data[self->len] = '\0';
}

void
zs_strbuf_appends (zs_strbuf_t *self, const char *text)
{
    zs_strbuf_append (self, text, strlen (text));
}

void
zs_strbuf_free (zs_strbuf_t *self)
{
    free (self->data);
    memset (self, 0, sizeof *self);
}

//  Howard Hinnant's days_from_civil / civil_from_days: exact for every
//  date of the proleptic Gregorian calendar.
int32_t
zs_days_from_civil (int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned) (y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (int32_t) (era * 146097 + (int64_t) doe - 719468);
}

void
zs_civil_from_days (int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned) (z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t) yoe + era * 400 + (*m <= 2);
}

static void
s_date (zs_strbuf_t *out, int64_t days)
{
    int64_t y;
    unsigned m, d;
    zs_civil_from_days (days, &y, &m, &d);
    char buf[32];
    int n = snprintf (buf, sizeof buf, "%04" PRId64 "-%02u-%02u", y, m, d);
    zs_strbuf_append (out, buf, (size_t) n);
}

//  ticks since the epoch at per_second resolution (1000 or 1000000).
static void
s_timestamp (zs_strbuf_t *out, int64_t ticks, int64_t per_second, int digits)
{
    int64_t secs = ticks / per_second, frac = ticks % per_second;
    if (frac < 0) {
        frac += per_second;
        secs -= 1;
    }
    int64_t days = secs / 86400, sod = secs % 86400;
    if (sod < 0) {
        sod += 86400;
        days -= 1;
    }
    s_date (out, days);
    char buf[48];
    int n = snprintf (buf, sizeof buf, " %02d:%02d:%02d.%0*" PRId64, (int) (sod / 3600),
                      (int) (sod / 60 % 60), (int) (sod % 60), digits, frac);
    zs_strbuf_append (out, buf, (size_t) n);
}

static void
s_double (zs_strbuf_t *out, double v, bool is_float)
{
    char buf[40];
    if (isnan (v))
        zs_strbuf_appends (out, "nan");
    else if (isinf (v))
        zs_strbuf_appends (out, v > 0 ? "inf" : "-inf");
    else {
        //  The shortest precision that reads back the same value: 0.1,
        //  not 0.10000000000000001 (17 digits always suffice for a double,
        //  9 for a float).
        int p = is_float ? 6 : 15, max = is_float ? 9 : 17;
        for (; p <= max; p++) {
            snprintf (buf, sizeof buf, "%.*g", p, v);
            if (is_float ? strtof (buf, NULL) == (float) v : strtod (buf, NULL) == v)
                break;
        }
        zs_strbuf_appends (out, buf);
    }
}

//  An unscaled decimal with scale digits after the point.
static void
s_decimal (zs_strbuf_t *out, __int128 x, int scale)
{
    char digits[48];
    int n = 0;
    unsigned __int128 u = x < 0 ? -(unsigned __int128) x : (unsigned __int128) x;
    do {
        digits[n++] = (char) ('0' + (int) (u % 10));
        u /= 10;
    } while (u);
    while (n <= scale)
        digits[n++] = '0'; //  a digit before the point
    char buf[52];
    int o = 0;
    if (x < 0)
        buf[o++] = '-';
    for (int i = n - 1; i >= 0; i--) {
        buf[o++] = digits[i];
        if (i == scale && scale > 0)
            buf[o++] = '.';
    }
    zs_strbuf_append (out, buf, (size_t) o);
}

//  Milliseconds of the day as HH:MM:SS.mmm.
static void
s_time (zs_strbuf_t *out, int32_t ms)
{
    char buf[24];
    int64_t t = ms < 0 ? 0 : ms;
    int n = snprintf (buf, sizeof buf, "%02d:%02d:%02d.%03d", (int) (t / 3600000),
                      (int) (t / 60000 % 60), (int) (t / 1000 % 60), (int) (t % 1000));
    zs_strbuf_append (out, buf, (size_t) n);
}

void
zs_value_text_col (zs_strbuf_t *out, const zs_column_t *col, const zs_value_t *value)
{
    char buf[32];
    int n;
    switch (col->type) {
    case ZS_TYPE_BOOLEAN:
        zs_strbuf_appends (out, value->v.b ? "true" : "false");
        break;
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_INT:
        n = snprintf (buf, sizeof buf, "%" PRId32, value->v.i32);
        zs_strbuf_append (out, buf, (size_t) n);
        break;
    case ZS_TYPE_BIGINT:
        n = snprintf (buf, sizeof buf, "%" PRId64, value->v.i64);
        zs_strbuf_append (out, buf, (size_t) n);
        break;
    case ZS_TYPE_DECIMAL:
        s_decimal (out, zs_dec_get (value), zs_column_scale (col));
        break;
    case ZS_TYPE_FLOAT:
        s_double (out, value->v.f32, true);
        break;
    case ZS_TYPE_DOUBLE:
        s_double (out, value->v.f64, false);
        break;
    case ZS_TYPE_STRING:
    case ZS_TYPE_CHAR:
        zs_strbuf_append (out, value->v.bin.ptr, value->v.bin.len);
        break;
    case ZS_TYPE_BYTES:
    case ZS_TYPE_BINARY:
        for (uint32_t i = 0; i < value->v.bin.len; i++) {
            static const char hex[] = "0123456789abcdef";
            char two[2] = {hex[value->v.bin.ptr[i] >> 4], hex[value->v.bin.ptr[i] & 15]};
            zs_strbuf_append (out, two, 2);
        }
        break;
    case ZS_TYPE_DATE:
        s_date (out, value->v.i32);
        break;
    case ZS_TYPE_TIME:
        s_time (out, value->v.i32);
        break;
    case ZS_TYPE_TIMESTAMP3:
        s_timestamp (out, value->v.i64, 1000, 3);
        break;
    case ZS_TYPE_TIMESTAMP6:
        s_timestamp (out, value->v.i64, 1000000, 6);
        break;
    case ZS_TYPE_TIMESTAMP9:
        s_timestamp (out, value->v.i64, 1000000000, 9);
        break;
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  needs the schema: zs_value_json_nested
        break;
    }
    if (col->ltz)
        zs_strbuf_append (out, "Z", 1);
}

void
zs_value_text (zs_strbuf_t *out, zs_type_t type, const zs_value_t *value)
{
    zs_column_t col = {.type = type};
    zs_value_text_col (out, &col, value);
}

size_t
zs_utf8_len (const uint8_t *p, size_t left)
{
    uint8_t c = p[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0)
        n = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        n = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        n = 4, cp = c & 0x07;
    else
        return 0;
    if (n > left)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    //  overlong forms, surrogates and beyond U+10FFFF are not UTF-8
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)
        || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return n;
}

static void
s_json_string (zs_strbuf_t *out, const uint8_t *p, size_t len)
{
    zs_strbuf_append (out, "\"", 1);
    size_t start = 0, i = 0;
    while (i < len) {
        uint8_t c = p[i];
        size_t n = c < 0x80 ? 1 : zs_utf8_len (p + i, len - i);
        if (n == 1 && c >= 0x20 && c != '"' && c != '\\') {
            i++;
            continue;
        }
        if (n > 1) {
            i += n;
            continue;
        }
        zs_strbuf_append (out, p + start, i - start);
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\', esc[1] = (char) c;
            zs_strbuf_append (out, esc, 2);
        } else if (c == '\n')
            zs_strbuf_append (out, "\\n", 2);
        else if (c == '\t')
            zs_strbuf_append (out, "\\t", 2);
        else if (c == '\r')
            zs_strbuf_append (out, "\\r", 2);
        else {
            //  a control character, or a byte that is not UTF-8
            snprintf (esc, sizeof esc, "\\u%04x", c);
            zs_strbuf_append (out, esc, 6);
        }
        i++;
        start = i;
    }
    zs_strbuf_append (out, p + start, i - start);
    zs_strbuf_append (out, "\"", 1);
}

void
zs_strbuf_json_string (zs_strbuf_t *out, const uint8_t *p, size_t len)
{
    s_json_string (out, p, len);
}

void
zs_value_json (zs_strbuf_t *out, zs_type_t type, const zs_value_t *value)
{
    zs_column_t col = {.type = type};
    zs_value_json_col (out, &col, value);
}

void
zs_value_json_col (zs_strbuf_t *out, const zs_column_t *col, const zs_value_t *value)
{
    zs_type_t type = col->type;
    if (value->null) {
        zs_strbuf_append (out, "null", 4);
        return;
    }
    switch (type) {
    case ZS_TYPE_BOOLEAN:
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_INT:
    case ZS_TYPE_BIGINT:
        zs_value_text (out, type, value);
        break;
    case ZS_TYPE_FLOAT:
    case ZS_TYPE_DOUBLE: {
        double v = type == ZS_TYPE_FLOAT ? value->v.f32 : value->v.f64;
        if (isnan (v))
            zs_strbuf_appends (out, "\"NaN\"");
        else if (isinf (v))
            zs_strbuf_appends (out, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else
            zs_value_text (out, type, value);
        break;
    }
    case ZS_TYPE_STRING:
    case ZS_TYPE_CHAR:
        s_json_string (out, value->v.bin.ptr, value->v.bin.len);
        break;
    default: {
        zs_strbuf_t text = {0};
        zs_value_text_col (&text, col, value);
        zs_strbuf_append (out, "\"", 1);
        zs_strbuf_append (out, text.data ? text.data : "", text.len);
        zs_strbuf_append (out, "\"", 1);
        out->oom |= text.oom;
        zs_strbuf_free (&text);
    }
    }
}

void
zs_row_jsonl (zs_strbuf_t *out, const zs_schema_t *schema, const zs_value_t *row)
{
    zs_strbuf_append (out, "{", 1);
    for (int i = 0; i < schema->n; i++) {
        if (i)
            zs_strbuf_append (out, ",", 1);
        s_json_string (out, (const uint8_t *) schema->cols[i].name, strlen (schema->cols[i].name));
        zs_strbuf_append (out, ":", 1);
        zs_value_json_nested (out, schema, &schema->cols[i], &row[i]);
    }
    zs_strbuf_append (out, "}\n", 2);
}

static void
s_csv_field (zs_strbuf_t *out, const char *p, size_t len, bool force_quotes)
{
    bool quote = force_quotes;
    for (size_t i = 0; i < len && !quote; i++)
        quote = p[i] == ',' || p[i] == '"' || p[i] == '\n' || p[i] == '\r';
    if (!quote) {
        zs_strbuf_append (out, p, len);
        return;
    }
    zs_strbuf_append (out, "\"", 1);
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (p[i] == '"') {
            zs_strbuf_append (out, p + start, i + 1 - start);
            zs_strbuf_append (out, "\"", 1);
            start = i + 1;
        }
    zs_strbuf_append (out, p + start, len - start);
    zs_strbuf_append (out, "\"", 1);
}

void
zs_row_csv (zs_strbuf_t *out, const zs_schema_t *schema, const zs_value_t *row)
{
    zs_strbuf_t text = {0};
    for (int i = 0; i < schema->n; i++) {
        if (i)
            zs_strbuf_append (out, ",", 1);
        if (row[i].null)
            continue;
        text.len = 0;
        if (zs_type_is_nested (schema->cols[i].type)) //  its JSON text, quoted
            zs_value_json_nested (&text, schema, &schema->cols[i], &row[i]);
        else
            zs_value_text_col (&text, &schema->cols[i], &row[i]);
        //  An empty string is quoted, so it reads back apart from null.
        s_csv_field (out, text.data ? text.data : "", text.len, text.len == 0);
    }
    out->oom |= text.oom;
    zs_strbuf_free (&text);
    zs_strbuf_append (out, "\n", 1);
}

void
zs_row_csv_header (zs_strbuf_t *out, const zs_schema_t *schema)
{
    for (int i = 0; i < schema->n; i++) {
        if (i)
            zs_strbuf_append (out, ",", 1);
        s_csv_field (out, schema->cols[i].name, strlen (schema->cols[i].name), false);
    }
    zs_strbuf_append (out, "\n", 1);
}
