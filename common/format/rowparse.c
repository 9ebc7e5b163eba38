/*  rowparse.c - values from text: the inverse of rowfmt.c's spelling, as
    the file source reads CSV fields and JSON strings (rowfmt.h).

    Strict on purpose: a value that is not exactly one of the spellings is
    refused with a message that quotes it, never read as something close.
*/
#include "rowfmt.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

//  "an INT", "a BIGINT"
static const char *
s_article (zs_type_t type)
{
    return type == ZS_TYPE_INT ? "an" : "a";
}

bool
zs_utf8_valid (const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t n = zs_utf8_len (p + i, len - i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

void
zs_value_show (char *dst, size_t size, const uint8_t *p, size_t len)
{
    size_t n = len;
    bool cut = false;
    if (n > ZS_SHOW_MAX) {
        n = ZS_SHOW_MAX;
        while (n > 0 && (p[n] & 0xC0) == 0x80)
            n--;
        cut = true;
    }
    bool utf8 = zs_utf8_valid (p, n);
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < size; i++) {
        if (p[i] >= 0x80 && !utf8)
            o += (size_t) snprintf (dst + o, size - o, "\\x%02X", p[i]);
        else
            dst[o++] = (p[i] < 0x20 || p[i] == 0x7F) ? '?' : (char) p[i];
    }
    if (cut && o + 4 < size) {
        memcpy (dst + o, "...", 3);
        o += 3;
    }
    dst[o < size ? o : size - 1] = '\0';
}

int
zs_value_refused (const zs_column_t *col, int kind, const char *shown, const char *reason,
                  char *why, size_t whylen)
{
    if (kind == ZS_PARSE_RANGE)
        snprintf (why, whylen, "column '%s': %s is out of range for %s", col->name, shown,
                  zs_type_name (col->type));
    else if (kind == ZS_PARSE_UTF8)
        snprintf (why, whylen, "column '%s': %s is not valid UTF-8", col->name, shown);
    else
        snprintf (why, whylen, "column '%s': %s is not %s %s%s%s", col->name, shown,
                  s_article (col->type), zs_type_name (col->type), reason ? ": " : "",
                  reason ? reason : "");
    return -1;
}

int
zs_value_null (const zs_column_t *col, zs_value_t *out, char *why, size_t whylen)
{
    out->null = true;
    if (col->nullable)
        return 0;
    snprintf (why, whylen, "column '%s': NULL in a NOT NULL column", col->name);
    return -1;
}

//  --------------------------------------------------------------------------
//  Dates and timestamps

static bool
s_digits (const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

//  "YYYY-MM-DD" at s (exactly 10 bytes). 0 or -1.
static int
s_parse_ymd (const char *s, int64_t *days)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, m, d;
    if (!s_digits (s, 4, &y) || s[4] != '-' || !s_digits (s + 5, 2, &m) || s[7] != '-'
        || !s_digits (s + 8, 2, &d))
        return -1;
    if (y < 1 || m < 1 || m > 12 || d < 1)
        return -1;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (d > mdays[m - 1] + (m == 2 && leap))
        return -1;
    *days = zs_days_from_civil (y, (unsigned) m, (unsigned) d);
    return 0;
}

//  The fraction after "HH:MM:SS" at s[*i] ("" or ".f{1,9}"), scaled to
//  precision digits. 0, or -1 (with *reason when digits would be lost).
static int
s_parse_fraction (const char *s, size_t len, size_t *i, int precision, int64_t *frac,
                  const char **reason)
{
    *frac = 0;
    if (*i >= len || s[*i] != '.')
        return 0;
    size_t first = ++*i;
    for (; *i < len && s[*i] >= '0' && s[*i] <= '9'; ++*i) {
        size_t k = *i - first; //  0-based digit index
        if (k >= 9)
            return -1;
        if ((int) k < precision)
            *frac = *frac * 10 + (s[*i] - '0');
        else if (s[*i] != '0') {
            *reason = precision == 3 ? "more fractional digits than TIMESTAMP(3) keeps"
                                     : "more fractional digits than TIMESTAMP(6) keeps";
            return -1;
        }
    }
    if (*i == first)
        return -1;
    for (size_t k = *i - first; k < (size_t) precision; k++)
        *frac *= 10;
    return 0;
}

//  "YYYY-MM-DD[ T]HH:MM:SS[.f{1,9}]" in millis (precision 3) or micros (6).
//  0, or -1 with *reason set when there is more to say than "not a …".
static int
s_parse_timestamp (const uint8_t *p, size_t len, int precision, int64_t *out, const char **reason)
{
    const char *s = (const char *) p;
    int64_t days, frac;
    int hh, mi, ss;
    if (len < 19 || s_parse_ymd (s, &days) != 0 || (s[10] != ' ' && s[10] != 'T')
        || !s_digits (s + 11, 2, &hh) || s[13] != ':' || !s_digits (s + 14, 2, &mi) || s[16] != ':'
        || !s_digits (s + 17, 2, &ss) || hh > 23 || mi > 59 || ss > 59)
        return -1;
    size_t i = 19;
    if (s_parse_fraction (s, len, &i, precision, &frac, reason) != 0)
        return -1;
    if (i < len) {
        if (s[i] == 'Z' || s[i] == 'z' || s[i] == '+' || s[i] == '-')
            *reason = "time zones are not supported";
        return -1;
    }
    int64_t scale = precision == 3 ? 1000 : 1000000;
    *out = ((days * 86400) + hh * 3600 + mi * 60 + ss) * scale + frac;
    return 0;
}

//  --------------------------------------------------------------------------
//  Numbers. The text is not NUL-terminated (a CSV field sits in the read
//  buffer), so numbers are copied out; no decimal spelling of a number
//  needs 320 bytes, and a longer text is simply not a number.

static int
s_parse_integer (zs_type_t type, const uint8_t *p, size_t len, zs_value_t *out)
{
    char tmp[320];
    //  sign and digits only: strtoll alone would take spaces and "0x"
    if (len == 0 || len >= sizeof tmp)
        return ZS_PARSE_TYPE;
    size_t i = (p[0] == '-' || p[0] == '+') ? 1 : 0;
    if (i == len)
        return ZS_PARSE_TYPE;
    for (size_t k = i; k < len; k++)
        if (p[k] < '0' || p[k] > '9')
            return ZS_PARSE_TYPE;
    memcpy (tmp, p, len);
    tmp[len] = '\0';
    errno = 0;
    long long v = strtoll (tmp, NULL, 10);
    if (errno == ERANGE || (type == ZS_TYPE_INT && (v < INT32_MIN || v > INT32_MAX)))
        return ZS_PARSE_RANGE;
    if (type == ZS_TYPE_INT)
        out->v.i32 = (int32_t) v;
    else
        out->v.i64 = (int64_t) v;
    return 0;
}

static int
s_parse_float (zs_type_t type, const uint8_t *p, size_t len, zs_value_t *out)
{
    char tmp[320];
    //  strtod would skip leading white space; the text must be all number
    if (len == 0 || len >= sizeof tmp || strchr (" \t\n\r\f\v", p[0]))
        return ZS_PARSE_TYPE;
    memcpy (tmp, p, len);
    tmp[len] = '\0';
    char *end;
    bool overflow;
    errno = 0;
    if (type == ZS_TYPE_FLOAT) {
        out->v.f32 = strtof (tmp, &end);
        overflow = errno == ERANGE && isinf (out->v.f32);
    } else {
        out->v.f64 = strtod (tmp, &end);
        overflow = errno == ERANGE && isinf (out->v.f64);
    }
    if (end != tmp + len)
        return ZS_PARSE_TYPE;
    return overflow ? ZS_PARSE_RANGE : 0; //  underflow to a tiny value is fine
}

int
zs_value_parse (zs_type_t type, const uint8_t *p, size_t len, zs_value_t *out, const char **reason)
{
    *reason = NULL;
    switch (type) {
    case ZS_TYPE_BOOLEAN:
        if (len == 4 && strncasecmp ((const char *) p, "true", 4) == 0)
            out->v.b = true;
        else if (len == 5 && strncasecmp ((const char *) p, "false", 5) == 0)
            out->v.b = false;
        else
            return ZS_PARSE_TYPE;
        return 0;
    case ZS_TYPE_INT:
    case ZS_TYPE_BIGINT:
        return s_parse_integer (type, p, len, out);
    case ZS_TYPE_FLOAT:
    case ZS_TYPE_DOUBLE:
        return s_parse_float (type, p, len, out);
    case ZS_TYPE_STRING:
        if (!zs_utf8_valid (p, len))
            return ZS_PARSE_UTF8;
        //  fall through
    case ZS_TYPE_BYTES:
        out->v.bin.ptr = p;
        out->v.bin.len = (uint32_t) len;
        return 0;
    case ZS_TYPE_DATE: {
        int64_t days;
        if (len != 10 || s_parse_ymd ((const char *) p, &days) != 0)
            return ZS_PARSE_TYPE;
        out->v.i32 = (int32_t) days;
        return 0;
    }
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
        return s_parse_timestamp (p, len, type == ZS_TYPE_TIMESTAMP3 ? 3 : 6, &out->v.i64, reason)
                       == 0
                   ? 0
                   : ZS_PARSE_TYPE;
    }
    return ZS_PARSE_TYPE;
}
