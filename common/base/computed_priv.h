/*  computed_priv.h - what computed.c and computed_time.c share, and the
    table layer's partition expiry (table_partitions.c) uses too: a local
    date-time (Java's LocalDateTime) and a compiled DateTimeFormatter
    pattern.
*/
#ifndef ZS_COMPUTED_PRIV_H_INCLUDED
#define ZS_COMPUTED_PRIV_H_INCLUDED

#include "zs.h"

//  A date-time without a time zone: what a TIMESTAMP value, a DATE, an
//  epoch number or a timestamp text become before a function reads it.
typedef struct {
    int64_t year; //  proleptic Gregorian, 0 = 1 BC
    int month, day, hour, minute, second;
    int32_t nano;
} zs_ldt_t;

//  Largest year a LocalDateTime holds (Java's Year.MAX_VALUE).
#define ZS_LDT_YEAR_MAX INT64_C (999999999)

//  One piece of a compiled pattern: a field letter with its count, or
//  literal text (letter 0: lit[off .. off+len)).
typedef struct {
    char letter;
    uint8_t count;
    uint16_t off, len;
} zs_pat_item_t;

#define ZS_PAT_ITEMS_MAX 64
#define ZS_PAT_LIT_MAX 128
#define ZS_PAT_OUT_MAX 256 //  bytes a formatted value may take

typedef struct {
    zs_pat_item_t items[ZS_PAT_ITEMS_MAX];
    int n;
    char lit[ZS_PAT_LIT_MAX];
    size_t lit_used;
} zs_pattern_t;

//  Days since 1970-01-01 of a date, and back.
int64_t zs_ldt_days (int64_t year, int month, int day);
void zs_ldt_from_days (int64_t days, zs_ldt_t *out);

//  Seconds since the epoch (and nanoseconds within the second) into a
//  date-time, as Paimon's Timestamp.toLocalDateTime reads them. -1 when
//  the year falls outside a LocalDateTime.
int zs_ldt_from_epoch (int64_t seconds, int32_t nano, zs_ldt_t *out);

//  Paimon's timestamp text (DateTimeUtils' default formatter):
//  "yyyy-M[M]-d[d]", then nothing, " H[H]:m[m]:s[s][.f…]" or
//  "TH[H]:m[m][:s[s][.f…]]", fraction 0 to 9 digits. 0, or -1.
int zs_ldt_parse (const char *text, size_t len, zs_ldt_t *out);

//  Compile a Java DateTimeFormatter pattern. 0, or -1 with err saying
//  what is not supported or wrong ("pattern letter 'E' (day-of-week) is
//  not supported …").
int zs_pattern_compile (zs_pattern_t *self, const char *text, char *err, size_t errlen);

//  Format a date-time; the length written into out (ZS_PAT_OUT_MAX bytes).
size_t zs_pattern_format (const zs_pattern_t *self, const zs_ldt_t *t, char *out);

//  Parse text[0..len) with the pattern, as Java's LocalDateTime.parse does
//  (falling back to LocalDate.parse at midnight): the whole text, "yyyy"
//  its digits (exactly that many when a number follows at once: yyyyMMdd),
//  "yy" 2000 + two digits, "MM"… exactly two, "M"… one or two, "S…"
//  exactly that many; year, month and day required, time fields 0 when
//  absent. 0, or -1 when it does not read.
int zs_pattern_parse (const zs_pattern_t *self, const char *text, size_t len, zs_ldt_t *out);

#endif
