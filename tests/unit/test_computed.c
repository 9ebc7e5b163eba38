/*  test_computed.c - computed columns (computed.h): the syntax, the types
    each function gives, its values as Paimon's Expression gives them
    (java.time's calendar and DateTimeFormatter, Java's String and integer
    arithmetic), the errors, and table.computed-columns in the job's
    configuration (config.h).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "computed.h"
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define S_SOURCE                                                                                   \
    "id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3), n INT, big BIGINT, d DATE, us "             \
    "TIMESTAMP(6), ok BOOLEAN"
enum { C_ID, C_NAME, C_TS, C_N, C_BIG, C_D, C_US, C_OK, C_FIRST };

static zs_schema_t s_source;
static zs_value_t s_row[ZS_MAX_COLUMNS];

static int
s_setup (void **state)
{
    char err[ZS_ERRLEN];
    if (zs_schema_parse (&s_source, S_SOURCE, err, sizeof err) != 0)
        return -1;
    memset (s_row, 0, sizeof s_row);
    s_row[C_ID].v.i64 = 1;
    s_row[C_NAME].v.bin.ptr = (const uint8_t *) "name-1";
    s_row[C_NAME].v.bin.len = 6;
    s_row[C_TS].v.i64 = INT64_C (1796367689123); //  2026-12-04 07:01:29.123
    s_row[C_N].v.i32 = 1796367689;
    s_row[C_BIG].v.i64 = INT64_C (1796367689123456); //  microseconds
    s_row[C_D].v.i32 = 20791;                        //  2026-12-04
    s_row[C_US].v.i64 = INT64_C (1796367689123456);
    return 0;
}

static void
s_set_string (int col, const char *text)
{
    s_row[col].null = false;
    s_row[col].v.bin.ptr = (const uint8_t *) text;
    s_row[col].v.bin.len = (uint32_t) strlen (text);
}

static zs_computed_t *
s_new (const char *text)
{
    char err[ZS_ERRLEN] = "";
    zs_computed_t *c = zs_computed_new (text, &s_source, err, sizeof err);
    if (!c)
        fail_msg ("'%s': %s", text, err);
    return c;
}

//  The error compiling text gives, which must contain want.
static void
s_refused (const char *text, const char *want)
{
    char err[ZS_ERRLEN] = "";
    zs_computed_t *c = zs_computed_new (text, &s_source, err, sizeof err);
    if (c)
        fail_msg ("'%s' was accepted", text);
    if (!strstr (err, want))
        fail_msg ("'%s': error '%s' does not say '%s'", text, err, want);
}

//  Evaluate one column's text on s_row: the value.
static zs_value_t
s_eval1 (const char *text)
{
    static zs_computed_t *c;
    zs_computed_destroy (&c);
    c = s_new (text);
    char err[ZS_ERRLEN];
    if (zs_computed_eval (c, s_row, err, sizeof err) != 0)
        fail_msg ("'%s' on the row: %s", text, err);
    return s_row[C_FIRST];
}

static void
s_assert_str (const char *text, const char *want)
{
    zs_value_t v = s_eval1 (text);
    assert_false (v.null);
    char got[512];
    snprintf (got, sizeof got, "%.*s", (int) v.v.bin.len, (const char *) v.v.bin.ptr);
    if (strcmp (got, want) != 0)
        fail_msg ("'%s' gave '%s', want '%s'", text, got, want);
}

static void
s_assert_int (const char *text, int64_t want)
{
    zs_computed_t *c = s_new (text);
    zs_type_t type = zs_computed_schema (c)->cols[C_FIRST].type;
    zs_computed_destroy (&c);
    zs_value_t v = s_eval1 (text);
    assert_false (v.null);
    int64_t got = type == ZS_TYPE_INT || type == ZS_TYPE_DATE ? v.v.i32 : v.v.i64;
    if (got != want)
        fail_msg ("'%s' gave %lld, want %lld", text, (long long) got, (long long) want);
}

//  The error evaluating text on s_row, which must contain want.
static void
s_eval_refused (const char *text, const char *want)
{
    zs_computed_t *c = s_new (text);
    char err[ZS_ERRLEN] = "";
    int rc = zs_computed_eval (c, s_row, err, sizeof err);
    zs_computed_destroy (&c);
    if (rc == 0)
        fail_msg ("'%s' evaluated", text);
    if (!strstr (err, want))
        fail_msg ("'%s': error '%s' does not say '%s'", text, err, want);
}

static void
test_types (void **state)
{
    zs_computed_t *c = s_new ("dt=date_format(ts, yyyy-MM-dd); hr=HOUR(ts);y=year(ts) ;"
                              "s=substring(name, 1, 3); t=truncate(id, 10); tn=truncate(n, 7);"
                              "u=upper(name); l=lower(name); tr=trim(name); k=cast(42, INT);"
                              "k2=cast(x); now=now(); ts2=cast(2026-12-04 07:00:00, TIMESTAMP(6))");
    const zs_schema_t *s = zs_computed_schema (c);
    assert_int_equal (zs_computed_count (c), 13);
    assert_int_equal (s->n, C_FIRST + 13);
    struct {
        const char *name;
        zs_type_t type;
        bool nullable;
    } want[] = {
        {"dt", ZS_TYPE_STRING, true},      {"hr", ZS_TYPE_INT, true},
        {"y", ZS_TYPE_INT, true},          {"s", ZS_TYPE_STRING, true},
        {"t", ZS_TYPE_BIGINT, false}, //  truncate keeps its input's type, NOT NULL too
        {"tn", ZS_TYPE_INT, true},         {"u", ZS_TYPE_STRING, true},
        {"l", ZS_TYPE_STRING, true},       {"tr", ZS_TYPE_STRING, true},
        {"k", ZS_TYPE_INT, true},          {"k2", ZS_TYPE_STRING, true},
        {"now", ZS_TYPE_TIMESTAMP3, true}, {"ts2", ZS_TYPE_TIMESTAMP6, true},
    };
    for (int i = 0; i < 13; i++) {
        assert_string_equal (s->cols[C_FIRST + i].name, want[i].name);
        assert_int_equal (s->cols[C_FIRST + i].type, want[i].type);
        assert_int_equal (s->cols[C_FIRST + i].nullable, want[i].nullable);
    }
    //  the source's columns first, as they were
    for (int i = 0; i < C_FIRST; i++)
        assert_string_equal (s->cols[i].name, s_source.cols[i].name);
    assert_int_equal (s->id_col, 0);
    zs_computed_destroy (&c);
    zs_computed_destroy (&c);
}

static void
test_temporal (void **state)
{
    s_assert_str ("x=date_format(ts, yyyy-MM-dd)", "2026-12-04");
    s_assert_str ("x=date_format(ts, yyyyMMdd)", "20261204");
    s_assert_str ("x=date_format(ts, yyyy-MM-dd HH:mm:ss.SSS)", "2026-12-04 07:01:29.123");
    s_assert_str ("x=date_format(ts, yy/M/d H:m:s S)", "26/12/4 7:1:29 1");
    s_assert_str ("x=date_format(ts, 'T'HH'h' '' y)", "T07h ' 2026");
    s_assert_str ("x=date_format(ts, yyyyyy)", "002026");
    s_assert_str ("x=date_format(us, SSSSSS)", "123456");
    s_assert_str ("x=date_format(d, yyyy-MM-dd HH)", "2026-12-04 00");
    s_assert_int ("x=year(ts)", 2026);
    s_assert_int ("x=month(ts)", 12);
    s_assert_int ("x=day(ts)", 4);
    s_assert_int ("x=hour(ts)", 7);
    s_assert_int ("x=minute(ts)", 1);
    s_assert_int ("x=second(ts)", 29);
    s_assert_int ("x=hour(us)", 7);
    s_assert_int ("x=day(d)", 4);
    //  epoch numbers: INT in seconds by default, BIGINT with a precision
    s_assert_int ("x=hour(n)", 7);
    s_assert_str ("x=date_format(n, yyyy-MM-dd HH:mm:ss)", "2026-12-04 07:01:29");
    s_assert_str ("x=date_format(big, HH:mm:ss.SSSSSS, 6)", "07:01:29.123456");
    s_assert_int ("x=second(big, 6)", 29);
    //  before the epoch: the calendar and the clock floor, as java.time
    s_row[C_TS].v.i64 = -1;
    s_assert_str ("x=date_format(ts, yyyy-MM-dd HH:mm:ss.SSS)", "1969-12-31 23:59:59.999");
    s_row[C_TS].v.i64 = INT64_C (-2208988800000);
    s_assert_str ("x=date_format(ts, yyyy-MM-dd)", "1900-01-01");
    s_row[C_TS].v.i64 = INT64_C (-62135596800000) - 86400000; //  0000-12-31: 1 BC
    s_assert_str ("x=date_format(ts, yyyy-MM-dd)", "0001-12-31");
    s_assert_int ("x=year(ts)", 0);
    s_row[C_TS].v.i64 = INT64_C (253402300800000); //  10000-01-01
    s_assert_str ("x=date_format(ts, yyyy)", "+10000");
    s_row[C_TS].v.i64 = INT64_C (1796367689123);
    //  2024 is a leap year, 2100 is not
    s_row[C_D].v.i32 = 19782; //  2024-02-29
    s_assert_str ("x=date_format(d, yyyy-MM-dd)", "2024-02-29");
    s_row[C_D].v.i32 = 20791;
}

static void
test_timestamp_text (void **state)
{
    const char *ok[][2] = {
        {"2026-12-04", "2026-12-04 00:00:00.000"},
        {"2026-12-04 07:08:09", "2026-12-04 07:08:09.000"},
        {"2026-12-04 07:08:09.5", "2026-12-04 07:08:09.500"},
        {"2026-12-04T07:08", "2026-12-04 07:08:00.000"},
        {"2026-12-04T07:08:09.123456789", "2026-12-04 07:08:09.123"},
        {"2026-1-4 7:8:9", "2026-01-04 07:08:09.000"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        s_set_string (C_NAME, ok[i][0]);
        s_assert_str ("x=date_format(name, yyyy-MM-dd HH:mm:ss.SSS)", ok[i][1]);
    }
    const char *bad[] = {"2026-12-04 07:08",    "2026-13-01",           "2026-02-30", "x", "",
                         "2026-12-04 24:00:00", "2026-12-04T07:08:09 ", "26-12-04"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s_set_string (C_NAME, bad[i]);
        s_eval_refused ("x=hour(name)", "not a timestamp");
    }
    //  a STRING with a precision is an epoch number
    s_set_string (C_NAME, "1796367689123");
    s_assert_int ("x=hour(name, 3)", 7);
    s_set_string (C_NAME, "17963x");
    s_eval_refused ("x=hour(name, 3)", "not an epoch number");
    s_set_string (C_NAME, "name-1");
}

static void
test_strings (void **state)
{
    s_set_string (C_NAME, "h\xc3\xa9llo\xf0\x9f\x98\x80x"); //  "héllo😀x": 😀 is two UTF-16 units
    s_assert_str ("x=substring(name, 1, 3)", "\xc3\xa9l");
    s_assert_str ("x=substring(name, 5)", "\xf0\x9f\x98\x80x");
    s_assert_str ("x=substring(name, 7)", "x");
    s_assert_str ("x=substring(name, 8)", "");
    s_eval_refused ("x=substring(name, 9)", "out of range");
    s_eval_refused ("x=substring(name, 2, 9)", "out of range");
    s_eval_refused ("x=substring(name, 6)", "splits a character");
    s_assert_str ("x=truncate(name, 2)", "h\xc3\xa9");
    s_assert_str ("x=truncate(name, 8)", "h\xc3\xa9llo\xf0\x9f\x98\x80x");
    s_eval_refused ("x=truncate(name, 9)", "more than the length 8");
    s_assert_str ("x=upper(name)", "H\xc3\x89LLO\xf0\x9f\x98\x80X");
    s_set_string (C_NAME, "MiXeD \xc3\x89T\xc3\x89");
    s_assert_str ("x=lower(name)", "mixed \xc3\xa9t\xc3\xa9");
    s_set_string (C_NAME, " \t a b \n");
    s_assert_str ("x=trim(name)", "a b");
    //  a computed column may use one declared before it
    zs_computed_t *c = s_new ("dd=date_format(ts, yyyy-MM-dd); y=substring(dd, 0, 4); "
                              "u=upper(dd)");
    char err[ZS_ERRLEN];
    assert_int_equal (zs_computed_eval (c, s_row, err, sizeof err), 0);
    assert_int_equal (s_row[C_FIRST + 1].v.bin.len, 4);
    assert_memory_equal (s_row[C_FIRST + 1].v.bin.ptr, "2026", 4);
    zs_computed_destroy (&c);
    s_set_string (C_NAME, "name-1");
}

static void
test_truncate_numbers (void **state)
{
    s_row[C_N].v.i32 = -7;
    s_assert_int ("x=truncate(n, 5)", -10);
    s_row[C_N].v.i32 = 7;
    s_assert_int ("x=truncate(n, 5)", 5);
    s_row[C_N].v.i32 = INT32_MIN; //  Java's int wraps: MIN - 1 is MAX
    s_assert_int ("x=truncate(n, 3)", INT32_MAX);
    s_row[C_BIG].v.i64 = INT64_C (-123456789012);
    s_assert_int ("x=truncate(big, 1000)", INT64_C (-123456790000));
    s_row[C_N].v.i32 = 1796367689;
    s_row[C_BIG].v.i64 = INT64_C (1796367689123456);
}

static void
test_cast_now_null (void **state)
{
    s_assert_int ("x=cast(2026-12-04, DATE)", 20791);
    s_assert_int ("x=cast(-5, BIGINT)", -5);
    s_assert_int ("x=cast(2026-12-04 07:01:29.123, TIMESTAMP(3))", INT64_C (1796367689123));
    s_assert_str ("x=cast(hello world)", "hello world");
    zs_value_t v = s_eval1 ("x=cast(true, BOOLEAN)");
    assert_true (v.v.b);
    v = s_eval1 ("x=now()");
    assert_false (v.null);
    int64_t now_ms = (int64_t) time (NULL) * 1000;
    //  local time: within a day of UTC
    assert_true (v.v.i64 > now_ms - 86400000 && v.v.i64 < now_ms + 86400000);
    //  a NULL input gives NULL; cast and now are never NULL
    s_row[C_TS].null = true;
    s_row[C_NAME].null = true;
    const char *nulls[] = {"x=hour(ts)",           "x=date_format(ts, yyyy)",
                           "x=substring(name, 1)", "x=upper(name)",
                           "x=trim(name)",         "x=truncate(name, 1)"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        assert_true (s_eval1 (nulls[i]).null);
    assert_false (s_eval1 ("x=cast(1, INT)").null);
    s_row[C_TS].null = false;
    s_row[C_NAME].null = false;
}

static void
test_errors (void **state)
{
    s_refused ("dt", "expected name=function(arguments)");
    s_refused ("dt=hour", "expected name=function(arguments)");
    s_refused ("dt=hour(ts) x", "text after the closing ')'");
    s_refused ("=hour(ts)", "the column name must be");
    s_refused ("9a=hour(ts)", "the column name must be");
    s_refused ("a=b=hour(ts)", "expected name=function");
    s_refused ("dt=hour(ts,)", "argument 2 of hour is empty");
    s_refused ("dt=hours(ts)", "unknown function 'hours' (year, month");
    s_refused ("dt=hour(tsx)", "unknown column 'tsx' (the columns before it: id, name");
    s_refused ("dt=hour(ok)", "wrong argument type: 'ok' is BOOLEAN, hour takes a TIMESTAMP");
    s_refused ("dt=upper(n)", "wrong argument type: 'n' is INT, upper takes a STRING");
    s_refused ("dt=substring(ts, 1)", "wrong argument type");
    s_refused ("dt=truncate(d, 2)", "wrong argument type");
    s_refused ("dt=hour(ts, 3)", "a precision is for epoch numbers, and 'ts' is TIMESTAMP(3)");
    s_refused ("dt=hour(n, 4)", "the precision must be 0");
    s_refused ("dt=hour()", "hour takes 1 to 2 arguments, not 0");
    s_refused ("dt=date_format(ts)", "date_format takes 2 to 3 arguments, not 1");
    s_refused ("dt=now(ts)", "now takes 0 to 0 arguments");
    s_refused ("dt=substring(name, -1)", "begin index must be");
    s_refused ("dt=substring(name, 3, 3)", "end index must be");
    s_refused ("dt=truncate(n, 0)", "width must be a whole number > 0");
    s_refused ("dt=truncate(n, x)", "width must be");
    s_refused ("dt=cast(x, INT)", "'x' is not a INT value");
    s_refused ("dt=cast(1, DECIMALS)", "unknown type 'DECIMALS'");
    s_refused ("name=upper(name)", "the source has a column of that name already");
    s_refused ("a=hour(ts); A=hour(ts)", "declared twice");
    s_refused ("a=hour(b); b=hour(ts)", "unknown column 'b'");
    //  patterns
    s_refused ("dt=date_format(ts, yyyy-MM-dd EEE)",
               "pattern letters 'EEE' (day-of-week) are not supported");
    s_refused ("dt=date_format(ts, MMM)", "pattern letters 'MMM' (month name)");
    s_refused ("dt=date_format(ts, hh)", "'hh' (clock-hour-of-am-pm)");
    s_refused ("dt=date_format(ts, ddd)", "too many pattern letters 'd' (3)");
    s_refused ("dt=date_format(ts, SSSSSSSSSS)", "too many pattern letters 'S'");
    s_refused ("dt=date_format(ts, yyyy[MM])", "optional sections are not supported");
    s_refused ("dt=date_format(ts, 'yyyy)", "unterminated quote");
    s_refused ("dt=date_format(ts, yyyy#)", "reserved");
}

static void
test_text (void **state)
{
    char canon[ZS_COMPUTED_TEXT_MAX], err[ZS_ERRLEN];
    assert_int_equal (zs_computed_check_text (" dt = DATE_FORMAT( ts ,yyyy-MM-dd ) ;; hr=hour(ts);",
                                              canon, sizeof canon, err, sizeof err),
                      0);
    assert_string_equal (canon, "dt=date_format(ts, yyyy-MM-dd); hr=hour(ts)");
    //  the canonical text compiles to the same columns
    zs_computed_t *a = s_new (canon),
                  *b = s_new (" dt = DATE_FORMAT( ts ,yyyy-MM-dd ) ; hr=hour(ts)");
    assert_int_equal (zs_computed_schema (a)->fingerprint, zs_computed_schema (b)->fingerprint);
    zs_computed_destroy (&a);
    zs_computed_destroy (&b);
    char names[4][ZS_COLUMN_NAME_MAX];
    assert_int_equal (zs_computed_names (canon, names, 4), 2);
    assert_string_equal (names[1], "hr");
    assert_int_equal (zs_computed_check_text ("", canon, sizeof canon, err, sizeof err), 0);
    assert_string_equal (canon, "");
    assert_int_equal (
        zs_computed_check_text ("a=hour(ts); a=day(ts)", canon, sizeof canon, err, sizeof err), -1);
    assert_non_null (strstr (err, "declared twice"));
    assert_int_equal (zs_computed_check_text ("a=nope(ts)", canon, sizeof canon, err, sizeof err),
                      -1);
}

//  zs_computed_fill compiles once, again when the text changes.
static void
test_fill (void **state)
{
    zs_computed_t *c = NULL;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_computed_fill (&c, "", &s_source, s_row, err, sizeof err), 0);
    assert_null (c);
    assert_int_equal (zs_computed_fill (&c, "h=hour(ts)", &s_source, s_row, err, sizeof err), 0);
    zs_computed_t *first = c;
    assert_int_equal (s_row[C_FIRST].v.i32, 7);
    assert_int_equal (zs_computed_fill (&c, "h=hour(ts)", &s_source, s_row, err, sizeof err), 0);
    assert_ptr_equal (c, first);
    assert_int_equal (zs_computed_fill (&c, "h=day(ts)", &s_source, s_row, err, sizeof err), 0);
    assert_int_equal (s_row[C_FIRST].v.i32, 4);
    assert_int_equal (zs_computed_fill (&c, "h=day(zz)", &s_source, s_row, err, sizeof err), -1);
    assert_null (c);
}

//  ---------------------------------------------------------------------
//  The job's configuration

static void
s_cfg_set (zs_config_t *cfg, const char *key, const char *value)
{
    char err[ZS_ERRLEN];
    if (zs_config_set (cfg, key, value, err, sizeof err) != 0)
        fail_msg ("%s=%s: %s", key, value, err);
}

static void
s_cfg_base (zs_config_t *cfg)
{
    zs_config_defaults (cfg);
    s_cfg_set (cfg, "table.path", "/tmp/t");
    s_cfg_set (cfg, "state.checkpoints.dir", "/tmp/c");
}

static void
s_copy_key (const char *key, const char *value, void *arg)
{
    char err[ZS_ERRLEN];
    assert_int_equal (zs_config_set (arg, key, value, err, sizeof err), 0);
}

static void
test_config (void **state)
{
    zs_config_t a, b;
    char err[ZS_ERRLEN];
    //  either order: the computed columns may name a column table.schema
    //  sets after them
    s_cfg_base (&a);
    s_cfg_set (&a, "table.computed-columns",
               "dt=date_format(event_time, yyyy-MM-dd);hr=hour(event_time)");
    assert_int_equal (zs_config_validate (&a, err, sizeof err), -1);
    assert_non_null (strstr (err, "unknown column 'event_time'"));
    s_cfg_set (&a, "table.schema", "k BIGINT, event_time TIMESTAMP(6)");
    assert_int_equal (zs_config_validate (&a, err, sizeof err), 0);
    s_cfg_base (&b);
    s_cfg_set (&b, "table.schema", "k BIGINT, event_time TIMESTAMP(6)");
    s_cfg_set (&b, "table.computed-columns",
               "dt=date_format(event_time, yyyy-MM-dd); hr=hour(event_time)");
    assert_int_equal (a.schema.n, 4);
    assert_int_equal (a.source_schema.n, 2);
    assert_int_equal (a.schema.fingerprint, b.schema.fingerprint);
    assert_int_equal (a.source_schema.fingerprint, b.source_schema.fingerprint);
    assert_string_equal (a.computed_text,
                         "dt=date_format(event_time, yyyy-MM-dd); hr=hour(event_time)");
    //  round trip through the keys a Welcome carries
    zs_config_t c;
    zs_config_defaults (&c);
    zs_config_foreach (&a, s_copy_key, &c);
    assert_int_equal (c.schema.fingerprint, a.schema.fingerprint);
    assert_int_equal (c.source_schema.fingerprint, a.source_schema.fingerprint);
    //  a syntax error is refused at once, and changes nothing
    zs_config_t before = a;
    assert_int_equal (zs_config_set (&a, "table.computed-columns", "dt=nope(x)", err, sizeof err),
                      -1);
    assert_non_null (strstr (err, "unknown function 'nope'"));
    assert_memory_equal (&a, &before, sizeof a);
    //  table.schema listing the computed columns at its end (the table's
    //  own schema): they are computed, not read from the source
    s_cfg_set (&b, "table.schema", "k BIGINT, event_time TIMESTAMP(6), dt STRING, hr INT");
    assert_int_equal (b.source_schema.n, 2);
    assert_int_equal (b.schema.fingerprint, a.schema.fingerprint);
    //  … of the same types only
    s_cfg_set (&b, "table.schema", "k BIGINT, event_time TIMESTAMP(6), dt STRING, hr BIGINT");
    assert_int_equal (zs_config_validate (&b, err, sizeof err), -1);
    assert_non_null (strstr (err, "column 4 'hr': job has 'hr INT', table has 'hr BIGINT'"));
    //  an existing table's schema adopted
    zs_schema_t table;
    assert_int_equal (zs_schema_parse (&table,
                                       "k BIGINT, event_time TIMESTAMP(6), dt STRING, hr INT", err,
                                       sizeof err),
                      0);
    s_cfg_base (&c);
    s_cfg_set (&c, "table.computed-columns",
               "dt=date_format(event_time, yyyy-MM-dd); hr=hour(event_time)");
    assert_int_equal (zs_config_adopt_schema (&c, &table, err, sizeof err), 0);
    assert_int_equal (c.source_schema.n, 2);
    assert_int_equal (c.schema.fingerprint, a.schema.fingerprint);
    //  a table without the computed columns: the job's row type has them,
    //  and differs from the table's (zs_table_prepare_job says how)
    assert_int_equal (
        zs_schema_parse (&table, "k BIGINT, event_time TIMESTAMP(6)", err, sizeof err), 0);
    assert_int_equal (zs_config_adopt_schema (&c, &table, err, sizeof err), 0);
    assert_int_equal (c.schema.n, 4);
    assert_int_equal (zs_schema_parse (&table, "k BIGINT, ts TIMESTAMP(6)", err, sizeof err), 0);
    assert_int_equal (zs_config_adopt_schema (&c, &table, err, sizeof err), -1);
    assert_non_null (strstr (err, "unknown column 'event_time'"));
}

//  table.partition-keys may name computed columns, set before or after them
static void
test_config_partition_keys (void **state)
{
    zs_config_t cfg;
    char err[ZS_ERRLEN];
    s_cfg_base (&cfg);
    s_cfg_set (&cfg, "table.partition-keys", "dt,hr");
    assert_int_equal (cfg.schema.n_partition, 0); //  no such columns yet
    s_cfg_set (&cfg, "table.computed-columns", "dt=date_format(ts, yyyy-MM-dd); hr=hour(ts)");
    assert_int_equal (cfg.schema.n_partition, 2);
    assert_int_equal (cfg.schema.partition[0], 4);
    assert_int_equal (cfg.schema.partition[1], 5);
    assert_int_equal (zs_config_validate (&cfg, err, sizeof err), 0);
    //  table.schema set again keeps them
    s_cfg_set (&cfg, "table.schema", "id BIGINT NOT NULL, ts TIMESTAMP(3)");
    assert_int_equal (cfg.schema.n_partition, 2);
    assert_int_equal (cfg.schema.partition[0], 2);
    //  the source reads its own columns only
    assert_int_equal (cfg.source_schema.n, 2);
    assert_int_equal (cfg.source_schema.n_partition, 0);
}

static void
test_config_yaml_list (void **state)
{
    char path[] = "/tmp/zsink-test-computed-XXXXXX";
    int fd = mkstemp (path);
    assert_true (fd >= 0);
    const char *yaml = "table.path: /tmp/t\n"
                       "state.checkpoints.dir: /tmp/c\n"
                       "table:\n"
                       "  computed-columns:\n"
                       "    - dt=date_format(ts, yyyy-MM-dd)\n"
                       "    - hr=hour(ts)\n";
    assert_int_equal (write (fd, yaml, strlen (yaml)), (ssize_t) strlen (yaml));
    close (fd);
    zs_config_t cfg;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_config_build (&cfg, path, NULL, 0, err, sizeof err), 0);
    assert_string_equal (cfg.computed_text, "dt=date_format(ts, yyyy-MM-dd); hr=hour(ts)");
    assert_int_equal (cfg.schema.n, 6); //  the default schema's 4, then dt and hr
    assert_string_equal (cfg.schema.cols[5].name, "hr");
    //  an item with ';' would be two
    FILE *f = fopen (path, "w");
    fprintf (f, "table.computed-columns:\n  - a=hour(ts);b=day(ts)\n");
    fclose (f);
    assert_int_equal (zs_config_build (&cfg, path, NULL, 0, err, sizeof err), -1);
    assert_non_null (strstr (err, "an item holds ';'"));
    unlink (path);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_types),
        cmocka_unit_test (test_temporal),
        cmocka_unit_test (test_timestamp_text),
        cmocka_unit_test (test_strings),
        cmocka_unit_test (test_truncate_numbers),
        cmocka_unit_test (test_cast_now_null),
        cmocka_unit_test (test_errors),
        cmocka_unit_test (test_text),
        cmocka_unit_test (test_fill),
        cmocka_unit_test (test_config),
        cmocka_unit_test (test_config_partition_keys),
        cmocka_unit_test (test_config_yaml_list),
    };
    return cmocka_run_group_tests (tests, s_setup, NULL);
}
