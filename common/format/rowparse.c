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

//  The text the value refused as (which the message names)
static const char *
s_type (const zs_column_t *col, char *buf, size_t len)
{
    return zs_column_type (col, buf, len);
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
    char type[ZS_TYPE_TEXT_MAX];
    s_type (col, type, sizeof type);
    if (kind == ZS_PARSE_RANGE)
        snprintf (why, whylen, "column '%s': %s is out of range for %s%s%s", col->name, shown, type,
                  reason ? ": " : "", reason ? reason : "");
    else if (kind == ZS_PARSE_UTF8)
        snprintf (why, whylen, "column '%s': %s is not valid UTF-8", col->name, shown);
    else
        snprintf (why, whylen, "column '%s': %s is not %s %s%s%s", col->name, shown,
                  s_article (col->type), type, reason ? ": " : "", reason ? reason : "");
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

//  The fraction after "HH:MM:SS" at s[*i] ("" or ".f{1,9}") in
//  nanoseconds; digits past the first keep must be zeros. 0, or -1 (with
//  *reason when digits would be lost).
static const char *const s_too_fine[2][10] = {
    {"more fractional digits than TIMESTAMP(0) keeps",
     "more fractional digits than TIMESTAMP(1) keeps",
     "more fractional digits than TIMESTAMP(2) keeps",
     "more fractional digits than TIMESTAMP(3) keeps",
     "more fractional digits than TIMESTAMP(4) keeps",
     "more fractional digits than TIMESTAMP(5) keeps",
     "more fractional digits than TIMESTAMP(6) keeps",
     "more fractional digits than TIMESTAMP(7) keeps",
     "more fractional digits than TIMESTAMP(8) keeps",
     "more fractional digits than TIMESTAMP(9) keeps"},
    {"more fractional digits than TIME(0) keeps", "more fractional digits than TIME(1) keeps",
     "more fractional digits than TIME(2) keeps",
     "more fractional digits than TIME(3) keeps (Paimon keeps milliseconds)",
     "more fractional digits than TIME keeps (Paimon keeps milliseconds)",
     "more fractional digits than TIME keeps (Paimon keeps milliseconds)",
     "more fractional digits than TIME keeps (Paimon keeps milliseconds)",
     "more fractional digits than TIME keeps (Paimon keeps milliseconds)",
     "more fractional digits than TIME keeps (Paimon keeps milliseconds)",
     "more fractional digits than TIME keeps (Paimon keeps milliseconds)"},
};

static int
s_parse_fraction (const char *s, size_t len, size_t *i, int keep, int64_t *nanos,
                  const char **reason)
{
    bool time = keep >= 10; //  TIME: keep - 10 digits
    int digits = time ? keep - 10 : keep;
    *nanos = 0;
    if (*i >= len || s[*i] != '.')
        return 0;
    size_t first = ++*i;
    int64_t scale = 100000000;
    for (; *i < len && s[*i] >= '0' && s[*i] <= '9'; ++*i, scale /= 10) {
        size_t k = *i - first; //  0-based digit index
        if (k >= 9)
            return -1;
        if ((int) k >= (time && digits > 3 ? 3 : digits) && s[*i] != '0') {
            *reason = s_too_fine[time][digits];
            return -1;
        }
        *nanos += (s[*i] - '0') * scale;
    }
    return *i == first ? -1 : 0;
}

//  "HH:MM:SS" at s (8 bytes) into seconds of the day.
static int
s_parse_hms (const char *s, int64_t *secs)
{
    int hh, mi, ss;
    if (!s_digits (s, 2, &hh) || s[2] != ':' || !s_digits (s + 3, 2, &mi) || s[5] != ':'
        || !s_digits (s + 6, 2, &ss) || hh > 23 || mi > 59 || ss > 59)
        return -1;
    *secs = hh * 3600 + mi * 60 + ss;
    return 0;
}

//  A time zone after a LTZ timestamp: "Z" or "+HH:MM" / "-HH:MM" (also
//  "+HHMM", "+HH") into seconds east of UTC. 0 or -1.
static int
s_parse_zone (const char *s, size_t len, int64_t *east)
{
    int hh = 0, mm = 0;
    if (len == 1 && (s[0] == 'Z' || s[0] == 'z')) {
        *east = 0;
        return 0;
    }
    if (len < 3 || (s[0] != '+' && s[0] != '-') || !s_digits (s + 1, 2, &hh))
        return -1;
    if (len == 6 && s[3] == ':' && s_digits (s + 4, 2, &mm))
        ;
    else if (len == 5 && s_digits (s + 3, 2, &mm))
        ;
    else if (len != 3)
        return -1;
    if (hh > 18 || mm > 59)
        return -1;
    *east = (hh * 3600 + mm * 60) * (s[0] == '-' ? -1 : 1);
    return 0;
}

//  "YYYY-MM-DD[ T]HH:MM:SS[.f{1,9}]" (with a zone when ltz) in units per
//  second (1000, 10^6, 10^9), keeping `keep` fractional digits. 0, or
//  ZS_PARSE_TYPE / ZS_PARSE_RANGE with *reason set when there is more to
//  say than "not a …".
static int
s_parse_timestamp (const uint8_t *p, size_t len, int keep, int64_t per_second, bool ltz,
                   int64_t *out, const char **reason)
{
    const char *s = (const char *) p;
    int64_t days, nanos, secs, east = 0;
    if (len < 19 || s_parse_ymd (s, &days) != 0 || (s[10] != ' ' && s[10] != 'T')
        || s_parse_hms (s + 11, &secs) != 0)
        return ZS_PARSE_TYPE;
    size_t i = 19;
    if (s_parse_fraction (s, len, &i, keep, &nanos, reason) != 0)
        return ZS_PARSE_TYPE;
    if (i < len) {
        if (ltz && s_parse_zone (s + i, len - i, &east) == 0)
            i = len;
        else {
            if (!ltz && (s[i] == 'Z' || s[i] == 'z' || s[i] == '+' || s[i] == '-'))
                *reason = "time zones are not supported";
            return ZS_PARSE_TYPE;
        }
    }
    int64_t t, sub = nanos / (1000000000 / per_second), whole = days * 86400 + secs - east;
    if (whole < 0 && sub > 0) { //  so that the earliest value (INT64_MIN) fits too
        whole += 1;
        sub -= per_second;
    }
    if (__builtin_mul_overflow (whole, per_second, &t) || __builtin_add_overflow (t, sub, &t))
        return ZS_PARSE_RANGE;
    *out = t;
    return 0;
}

//  "HH:MM:SS[.f{1,9}]" into milliseconds of the day (Paimon's TIME), keeping
//  min(precision, 3) fractional digits (keep is the precision).
static int
s_parse_time (const uint8_t *p, size_t len, int keep, int32_t *out, const char **reason)
{
    const char *s = (const char *) p;
    int64_t secs, nanos;
    size_t i = 8;
    if (len < 8 || s_parse_hms (s, &secs) != 0
        || s_parse_fraction (s, len, &i, 10 + keep, &nanos, reason) != 0 || i != len)
        return ZS_PARSE_TYPE;
    *out = (int32_t) (secs * 1000 + nanos / 1000000);
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

//  A DECIMAL(precision, scale): [+-]digits[.digits][(e|E)[+-]digits], the
//  unscaled value at the column's scale. Digits that the scale would drop
//  must be zeros (nothing is rounded away); more integer digits than
//  precision - scale is ZS_PARSE_RANGE.
static int
s_parse_decimal (const uint8_t *p, size_t len, int precision, int scale, zs_value_t *out,
                 const char **reason)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (p[i] == '+' || p[i] == '-'))
        neg = p[i++] == '-';
    //  The digits without leading zeros, and where the point was.
    char dig[80];
    int nd = 0, point = 0, seen = 0;
    bool has_point = false;
    for (; i < len; i++) {
        if (p[i] == '.' && !has_point) {
            has_point = true;
            point = nd;
            continue;
        }
        if (p[i] < '0' || p[i] > '9')
            break;
        seen++;
        if (nd == 0 && p[i] == '0') {
            if (has_point)
                point--; //  0.00123: leading zeros after the point shift it
            continue;
        }
        if (nd == (int) sizeof dig)
            return ZS_PARSE_RANGE;
        dig[nd++] = (char) p[i];
    }
    if (seen == 0)
        return ZS_PARSE_TYPE;
    int exp10 = 0;
    if (i < len && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool eneg = i < len && p[i] == '-';
        if (i < len && (p[i] == '+' || p[i] == '-'))
            i++;
        if (i == len)
            return ZS_PARSE_TYPE;
        for (; i < len && p[i] >= '0' && p[i] <= '9'; i++)
            if (exp10 < 1000)
                exp10 = exp10 * 10 + (p[i] - '0');
        exp10 = eneg ? -exp10 : exp10;
    }
    if (i != len)
        return ZS_PARSE_TYPE;
    //  value = 0.dig * 10^(intdigits), intdigits = point (or nd) + exp10
    int intdigits = (has_point ? point : nd) + exp10;
    __int128 x = 0;
    int kept = 0;
    for (int k = 0; k < nd; k++) {
        int pos = k - intdigits; //  digit k sits pos + 1 places after the point
        if (pos >= scale) {
            if (dig[k] != '0') {
                *reason = "more fractional digits than the type's scale keeps";
                return ZS_PARSE_TYPE;
            }
            continue;
        }
        if (++kept > 38)
            return ZS_PARSE_RANGE;
        x = x * 10 + (dig[k] - '0');
    }
    //  digits up to the scale: multiply by the missing powers of ten
    int last = nd - intdigits; //  places after the point the digits reach
    if (nd == 0)
        last = 0;
    if (last > scale)
        last = scale;
    for (int k = last; k < scale; k++) {
        if (x > zs_pow10 (37)) //  x * 10 would pass 10^38 (and 2^127 soon after)
            return ZS_PARSE_RANGE;
        x *= 10;
    }
    if (x >= zs_pow10 (precision))
        return ZS_PARSE_RANGE;
    zs_dec_set (out, neg ? -x : x);
    return 0;
}

//  Code points in valid UTF-8.
static size_t
s_chars (const uint8_t *p, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += (p[i] & 0xC0) != 0x80;
    return n;
}

int
zs_value_parse_col (const zs_column_t *col, const uint8_t *p, size_t len, zs_value_t *out,
                    const char **reason)
{
    *reason = NULL;
    int rc, prec = zs_column_precision (col);
    switch (col->type) {
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
        rc = s_parse_integer (ZS_TYPE_BIGINT, p, len, out);
        if (rc == 0) {
            int64_t v = out->v.i64, lim = col->type == ZS_TYPE_TINYINT ? 128 : 32768;
            if (v < -lim || v >= lim)
                return ZS_PARSE_RANGE;
            out->v.i32 = (int32_t) v;
        }
        return rc;
    case ZS_TYPE_DECIMAL:
        return s_parse_decimal (p, len, prec, zs_column_scale (col), out, reason);
    case ZS_TYPE_STRING:
    case ZS_TYPE_CHAR:
        if (!zs_utf8_valid (p, len))
            return ZS_PARSE_UTF8;
        if ((int64_t) s_chars (p, len) > zs_column_length (col)) {
            *reason = "longer than the type's length";
            return ZS_PARSE_RANGE;
        }
        out->v.bin.ptr = p;
        out->v.bin.len = (uint32_t) len;
        return 0;
    case ZS_TYPE_BYTES:
    case ZS_TYPE_BINARY:
        if ((int64_t) len > zs_column_length (col)) {
            *reason = "longer than the type's length";
            return ZS_PARSE_RANGE;
        }
        out->v.bin.ptr = p;
        out->v.bin.len = (uint32_t) len;
        return 0;
    case ZS_TYPE_TIME:
        return s_parse_time (p, len, prec, &out->v.i32, reason);
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9: {
        int64_t per = col->type == ZS_TYPE_TIMESTAMP3   ? 1000
                      : col->type == ZS_TYPE_TIMESTAMP6 ? 1000000
                                                        : 1000000000;
        return s_parse_timestamp (p, len, prec, per, col->ltz, &out->v.i64, reason);
    }
    default:
        return zs_value_parse (col->type, p, len, out, reason);
    }
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
    case ZS_TYPE_TINYINT:
    case ZS_TYPE_SMALLINT:
    case ZS_TYPE_DECIMAL:
    case ZS_TYPE_CHAR:
    case ZS_TYPE_BINARY:
    case ZS_TYPE_TIME:
    case ZS_TYPE_TIMESTAMP3:
    case ZS_TYPE_TIMESTAMP6:
    case ZS_TYPE_TIMESTAMP9: {
        zs_column_t col = {.type = type};
        return zs_value_parse_col (&col, p, len, out, reason);
    }
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW: //  not from text: JSON values (writer/record_nested.c)
        return ZS_PARSE_TYPE;
    }
    return ZS_PARSE_TYPE;
}
