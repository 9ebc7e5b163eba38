/*  computed_time.c - the calendar, timestamp text and date_format patterns
    of computed columns (computed_priv.h).

    The calendar is the proleptic Gregorian one of java.time, in int64
    days so that any TIMESTAMP or epoch number converts without overflow
    (H. Hinnant's days_from_civil / civil_from_days).

    Patterns follow java.time.format.DateTimeFormatter.ofPattern for the
    letters supported, so a pattern gives the text Paimon's date_format
    gives:
        y    year-of-era: "yy" two digits (the year mod 100), "y"/"yyy" at
             least that many digits, "yyyy"+ at least that many digits and
             a '+' when more are needed (SignStyle.EXCEEDS_PAD)
        M d H m s   one letter: no padding; two: two digits
        S…   the fraction of the second, truncated to that many digits (1-9)
        'x'  quoted literal text, '' a quote; any other non-letter is literal
    Every other letter is refused by name, as are more letters than Java
    allows and the characters Java reserves ([ ] { } #).
*/
#include "computed_priv.h"
#include <stdio.h>
#include <string.h>

int64_t
zs_ldt_days (int64_t year, int month, int day)
{
    int64_t y = year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void
zs_ldt_from_days (int64_t days, zs_ldt_t *out)
{
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    memset (out, 0, sizeof *out);
    out->day = (int) (doy - (153 * mp + 2) / 5 + 1);
    out->month = (int) (mp < 10 ? mp + 3 : mp - 9);
    out->year = yoe + era * 400 + (out->month <= 2);
}

int
zs_ldt_from_epoch (int64_t seconds, int32_t nano, zs_ldt_t *out)
{
    int64_t days = seconds / 86400, secs = seconds % 86400;
    if (secs < 0) {
        secs += 86400;
        days--;
    }
    //  a LocalDateTime holds years up to 999,999,999 either side
    if (days > INT64_C (365250000000) || days < -INT64_C (365250000000))
        return -1;
    zs_ldt_from_days (days, out);
    if (out->year > ZS_LDT_YEAR_MAX || out->year < -ZS_LDT_YEAR_MAX)
        return -1;
    out->hour = (int) (secs / 3600);
    out->minute = (int) (secs / 60 % 60);
    out->second = (int) (secs % 60);
    out->nano = nano;
    return 0;
}

//  Between min and max digits at *p into *value; the count, or -1.
static int
s_digits (const char **p, const char *end, int min, int max, int64_t *value)
{
    int n = 0;
    *value = 0;
    while (*p < end && n < max && **p >= '0' && **p <= '9') {
        *value = *value * 10 + (**p - '0');
        (*p)++;
        n++;
    }
    return n >= min ? n : -1;
}

static int
s_days_in_month (int64_t year, int month)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

//  ":s[s][.f…]" (the colon already read when colon is false).
static int
s_parse_seconds (const char **p, const char *end, zs_ldt_t *t)
{
    int64_t v;
    if (s_digits (p, end, 1, 2, &v) < 0 || v > 59)
        return -1;
    t->second = (int) v;
    if (*p < end && **p == '.') {
        (*p)++;
        int n = s_digits (p, end, 0, 9, &v);
        for (int i = n; i < 9; i++)
            v *= 10;
        t->nano = (int32_t) v;
    }
    return 0;
}

int
zs_ldt_parse (const char *text, size_t len, zs_ldt_t *out)
{
    const char *p = text, *end = text + len;
    int64_t y, mo, d, h, mi;
    zs_ldt_t t = {0};
    if (s_digits (&p, end, 4, 9, &y) < 0 || p == end || *p++ != '-'
        || s_digits (&p, end, 1, 2, &mo) < 0 || p == end || *p++ != '-'
        || s_digits (&p, end, 1, 2, &d) < 0)
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > s_days_in_month (y, (int) mo))
        return -1;
    t.year = y;
    t.month = (int) mo;
    t.day = (int) d;
    if (p < end) {
        char sep = *p++;
        if (sep != ' ' && sep != 'T')
            return -1;
        if (s_digits (&p, end, 1, 2, &h) < 0 || h > 23 || p == end || *p++ != ':'
            || s_digits (&p, end, 1, 2, &mi) < 0 || mi > 59)
            return -1;
        t.hour = (int) h;
        t.minute = (int) mi;
        //  the ' ' form has its seconds, the 'T' form may leave them out
        bool colon = p < end && *p == ':';
        if (sep == ' ' && !colon)
            return -1;
        if (colon && (p++, s_parse_seconds (&p, end, &t) != 0))
            return -1;
    }
    if (p != end)
        return -1;
    *out = t;
    return 0;
}

//  ---------------------------------------------------------------------
//  Patterns

static const struct {
    char letter;
    const char *what;
} s_unsupported[] = {
    {'G', "era"},
    {'u', "year"},
    {'D', "day-of-year"},
    {'L', "month (standalone)"},
    {'Q', "quarter"},
    {'q', "quarter (standalone)"},
    {'Y', "week-based-year"},
    {'w', "week-of-week-based-year"},
    {'W', "week-of-month"},
    {'E', "day-of-week"},
    {'e', "localized day-of-week"},
    {'c', "localized day-of-week (standalone)"},
    {'F', "aligned week of month"},
    {'a', "am-pm"},
    {'B', "period of day"},
    {'h', "clock-hour-of-am-pm"},
    {'K', "hour-of-am-pm"},
    {'k', "clock-hour-of-day"},
    {'A', "milli-of-day"},
    {'n', "nano-of-second"},
    {'N', "nano-of-day"},
    {'V', "time-zone ID"},
    {'v', "generic time-zone name"},
    {'z', "time-zone name"},
    {'O', "localized zone-offset"},
    {'X', "zone-offset 'Z' for zero"},
    {'x', "zone-offset"},
    {'Z', "zone-offset"},
    {'p', "pad next"},
};

static int
s_letter_refused (char letter, int count, char *err, size_t errlen)
{
    const char *what = "unknown to Java";
    for (size_t i = 0; i < sizeof s_unsupported / sizeof s_unsupported[0]; i++)
        if (s_unsupported[i].letter == letter)
            what = s_unsupported[i].what;
    if (letter == 'M')
        what = "month name";
    char letters[24];
    int n = count < (int) sizeof letters - 1 ? count : (int) sizeof letters - 1;
    memset (letters, letter, (size_t) n);
    letters[n] = 0;
    snprintf (err, errlen,
              "pattern letter%s '%s' (%s) %s not supported (y, M/MM, d/dd, H/HH, m/mm, s/ss, "
              "S… and literal text are)",
              count > 1 ? "s" : "", letters, what, count > 1 ? "are" : "is");
    return -1;
}

//  The most digits a field letter may take, or 0 when the count is not one
//  Java accepts for it (more than two d, ten S…).
static int
s_letter_width (char letter, int count)
{
    switch (letter) {
    case 'y':
        return count > 19 ? 0 : count == 2 ? 2 : (count > 10 ? count : 10) + 1;
    case 'M':
    case 'd':
    case 'H':
    case 'm':
    case 's':
        return count <= 2 ? 2 : 0;
    case 'S':
        return count <= 9 ? count : 0;
    default:
        return -1;
    }
}

static int
s_add_literal (zs_pattern_t *self, const char *text, size_t len, char *err, size_t errlen)
{
    if (self->n > 0 && self->items[self->n - 1].letter == 0
        && self->items[self->n - 1].off + self->items[self->n - 1].len == self->lit_used) {
        if (self->lit_used + len > ZS_PAT_LIT_MAX)
            goto too_long;
        memcpy (self->lit + self->lit_used, text, len);
        self->lit_used += len;
        self->items[self->n - 1].len += (uint16_t) len;
        return 0;
    }
    if (self->n == ZS_PAT_ITEMS_MAX || self->lit_used + len > ZS_PAT_LIT_MAX)
        goto too_long;
    memcpy (self->lit + self->lit_used, text, len);
    self->items[self->n++] = (zs_pat_item_t){0, 0, (uint16_t) self->lit_used, (uint16_t) len};
    self->lit_used += len;
    return 0;
too_long:
    snprintf (err, errlen, "pattern too long (at most %d pieces and %d literal bytes)",
              ZS_PAT_ITEMS_MAX, ZS_PAT_LIT_MAX);
    return -1;
}

//  'quoted text' starting at *p (the opening quote); '' is one quote.
static int
s_quoted (zs_pattern_t *self, const char **p, char *err, size_t errlen)
{
    const char *q = *p + 1;
    if (*q == '\'') {
        *p = q + 1;
        return s_add_literal (self, "'", 1, err, errlen);
    }
    while (*q) {
        if (*q == '\'' && q[1] == '\'') {
            if (s_add_literal (self, "'", 1, err, errlen))
                return -1;
            q += 2;
        } else if (*q == '\'') {
            *p = q + 1;
            return 0;
        } else {
            if (s_add_literal (self, q, 1, err, errlen))
                return -1;
            q++;
        }
    }
    snprintf (err, errlen, "pattern has an unterminated quote");
    return -1;
}

int
zs_pattern_compile (zs_pattern_t *self, const char *text, char *err, size_t errlen)
{
    memset (self, 0, sizeof *self);
    size_t out = 0;
    for (const char *p = text; *p;) {
        char c = *p;
        if (c == '\'') {
            if (s_quoted (self, &p, err, errlen))
                return -1;
            continue;
        }
        if (c == '[' || c == ']' || c == '{' || c == '}' || c == '#') {
            snprintf (err, errlen, "pattern character '%c' is reserved%s", c,
                      c == '[' || c == ']' ? " (optional sections are not supported)" : "");
            return -1;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            if (s_add_literal (self, p++, 1, err, errlen))
                return -1;
            out++;
            continue;
        }
        int count = 0;
        while (p[count] == c)
            count++;
        int width = s_letter_width (c, count);
        if (width < 0 || (c == 'M' && count > 2))
            return s_letter_refused (c, count, err, errlen);
        if (width == 0) {
            snprintf (err, errlen, "too many pattern letters '%c' (%d)", c, count);
            return -1;
        }
        if (self->n == ZS_PAT_ITEMS_MAX) {
            snprintf (err, errlen, "pattern too long (at most %d pieces)", ZS_PAT_ITEMS_MAX);
            return -1;
        }
        self->items[self->n++] = (zs_pat_item_t){c, (uint8_t) count, 0, 0};
        out += (size_t) width;
        p += count;
    }
    if (out + self->lit_used > ZS_PAT_OUT_MAX) {
        snprintf (err, errlen, "pattern may format longer than %d bytes", ZS_PAT_OUT_MAX);
        return -1;
    }
    if (self->n == 0) {
        snprintf (err, errlen, "empty pattern");
        return -1;
    }
    return 0;
}

//  The decimal digits of v (>= 0), least significant first; how many.
static int
s_digits_of (int64_t v, char *digits)
{
    uint64_t u = (uint64_t) v;
    int n = 0;
    do {
        digits[n++] = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    return n;
}

//  v (>= 0) in at least width digits into out; the length. (By hand: it
//  runs for every field of every row, and snprintf cost most of a row.)
static size_t
s_put_num (char *out, int64_t v, int width)
{
    char digits[24];
    int n = s_digits_of (v, digits), pad = width > n ? width - n : 0;
    memset (out, '0', (size_t) pad);
    for (int i = 0; i < n; i++)
        out[pad + i] = digits[n - 1 - i];
    return (size_t) (pad + n);
}

static size_t
s_put_year (char *out, int64_t year, int count)
{
    int64_t yoe = year >= 1 ? year : 1 - year; //  year-of-era
    if (count == 2)
        return s_put_num (out, yoe % 100, 2);
    size_t n = 0;
    char digits[24];
    if (count >= 4 && s_digits_of (yoe, digits) > count)
        out[n++] = '+';
    return n + s_put_num (out + n, yoe, count);
}

size_t
zs_pattern_format (const zs_pattern_t *self, const zs_ldt_t *t, char *out)
{
    size_t n = 0;
    for (int i = 0; i < self->n; i++) {
        const zs_pat_item_t *it = &self->items[i];
        int w = it->count;
        switch (it->letter) {
        case 0:
            memcpy (out + n, self->lit + it->off, it->len);
            n += it->len;
            break;
        case 'y':
            n += s_put_year (out + n, t->year, w);
            break;
        case 'M':
            n += s_put_num (out + n, t->month, w);
            break;
        case 'd':
            n += s_put_num (out + n, t->day, w);
            break;
        case 'H':
            n += s_put_num (out + n, t->hour, w);
            break;
        case 'm':
            n += s_put_num (out + n, t->minute, w);
            break;
        case 's':
            n += s_put_num (out + n, t->second, w);
            break;
        case 'S': {
            int64_t f = t->nano;
            for (int k = w; k < 9; k++)
                f /= 10;
            n += s_put_num (out + n, f, w);
            break;
        }
        }
    }
    return n;
}

//  ---------------------------------------------------------------------
//  Parsing with a pattern (partition.timestamp-formatter)

static bool
s_item_numeric (const zs_pattern_t *self, int i)
{
    return i < self->n && self->items[i].letter != 0;
}

//  One field of the pattern at *p: its value into t. 0 or -1.
static int
s_parse_field (const zs_pattern_t *self, int i, const char **p, const char *end, zs_ldt_t *t,
               unsigned *seen)
{
    const zs_pat_item_t *it = &self->items[i];
    int count = it->count;
    int64_t v;
    int min = count, max = count;
    if (it->letter == 'y' && count >= 4 && !s_item_numeric (self, i + 1))
        max = 9;
    else if (it->letter != 'y' && it->letter != 'S' && count == 1)
        max = 2;
    if (s_digits (p, end, min, max, &v) < 0)
        return -1;
    switch (it->letter) {
    case 'y':
        t->year = count == 2 ? 2000 + v : v;
        *seen |= 1;
        break;
    case 'M':
        t->month = (int) v;
        *seen |= 2;
        break;
    case 'd':
        t->day = (int) v;
        *seen |= 4;
        break;
    case 'H':
        t->hour = (int) v;
        break;
    case 'm':
        t->minute = (int) v;
        break;
    case 's':
        t->second = (int) v;
        break;
    case 'S':
        for (int k = count; k < 9; k++)
            v *= 10;
        t->nano = (int32_t) v;
        break;
    }
    return 0;
}

int
zs_pattern_parse (const zs_pattern_t *self, const char *text, size_t len, zs_ldt_t *out)
{
    const char *p = text, *end = text + len;
    zs_ldt_t t = {.year = 0};
    unsigned seen = 0;
    for (int i = 0; i < self->n; i++) {
        const zs_pat_item_t *it = &self->items[i];
        if (it->letter == 0) {
            if ((size_t) (end - p) < it->len || memcmp (p, self->lit + it->off, it->len) != 0)
                return -1;
            p += it->len;
        } else if (s_parse_field (self, i, &p, end, &t, &seen) != 0)
            return -1;
    }
    if (p != end || seen != 7 || t.month < 1 || t.month > 12 || t.day < 1
        || t.day > s_days_in_month (t.year, t.month) || t.hour > 23 || t.minute > 59
        || t.second > 59)
        return -1;
    *out = t;
    return 0;
}
