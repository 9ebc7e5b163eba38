/*  test_stats.c - the manifest's value statistics of the types of issue 25
    (table/stats.c): Paimon's truncate(16) of strings and byte arrays (the
    max's last character or byte incremented, none when none can be),
    TIMESTAMP(9) with null bounds but its null count, decimals exact. The
    whole against Paimon Java is t_all_types.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
s_bin (zs_column_stats_t *st, const char *min, const char *max, bool max_cut)
{
    memset (st, 0, sizeof *st);
    st->has_minmax = true;
    memcpy (st->min_buf, min, strlen (min));
    memcpy (st->max_buf, max, strlen (max));
    st->min.v.bin.ptr = st->min_buf;
    st->min.v.bin.len = (uint32_t) strlen (min);
    st->max.v.bin.ptr = st->max_buf;
    st->max.v.bin.len = (uint32_t) strlen (max);
    st->max_cut = max_cut;
}

//  The statistics of the columns as `zsink table files --json` spells them.
static void
s_expect (const char *schema_text, zs_column_stats_t *cols, const char *want)
{
    zs_schema_t schema;
    char err[ZS_ERRLEN];
    assert_int_equal (zs_schema_parse (&schema, schema_text, err, sizeof err), 0);
    zs_stats_t st;
    zs_stats_from_columns (&st, &schema, cols, 10);
    zs_strbuf_t out = {0};
    zs_stats_json (&st, &schema, &out);
    if (!out.data || strcmp (out.data, want) != 0)
        fail_msg ("got  %s\nwant %s", out.data ? out.data : "(nothing)", want);
    zs_strbuf_free (&out);
}

static void
test_truncate (void **state)
{
    zs_column_stats_t cols[6];
    //  16 characters or fewer: as they are
    s_bin (&cols[0], "a", "sixteen-chars-xx", false);
    //  longer: the min cut, the max cut and its 16th character + 1
    s_bin (&cols[1], "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz", false);
    //  characters, not bytes: 日 is 3 bytes; ん + 1 = ゔ
    s_bin (&cols[2], "日日日日日日日日日日日日日日日日日", "んんんんんんんんんんんんんんんんん",
           false);
    //  the writer cut the max (longer than it keeps): incremented even at 16
    s_bin (&cols[3], "x", "yyyyyyyyyyyyyyyy", true);
    //  bytes: 16 bytes, the last byte that is not 0xFF + 1, the rest dropped
    s_bin (&cols[4], "\x01", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\xff\xff\x01",
           false);
    //  nothing to increment: no bounds (Paimon's "failed"), the count kept
    s_bin (&cols[5], "\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
           false);
    for (int i = 0; i < 6; i++)
        cols[i].null_count = i;
    s_expect ("a STRING, b STRING, c VARCHAR(40), d CHAR(20), e BYTES, f VARBINARY(20)", cols,
              "{\"columns\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"],\"nullCounts\":[0,1,2,3,4,5],"
              "\"minValues\":[\"a\",\"abcdefghijklmnop\",\"日日日日日日日日日日日日日日日日\","
              "\"x\",\"01\",null],"
              "\"maxValues\":[\"sixteen-chars-xx\",\"abcdefghijklmnoq\","
              "\"んんんんんんんんんんんんんんんゔ\","
              "\"yyyyyyyyyyyyyyyz\",\"0102030405060708090a0b0c0d0f\",null]}");
}

static void
test_timestamp9_and_decimal (void **state)
{
    zs_column_stats_t cols[2];
    memset (cols, 0, sizeof cols);
    cols[0].null_count = 3; //  the writer keeps no bounds for INT96
    cols[1].null_count = 0;
    cols[1].has_minmax = true;
    zs_dec_set (&cols[1].min, -(zs_pow10 (38) - 1));
    zs_dec_set (&cols[1].max, 5);
    s_expect ("t TIMESTAMP(9), d DECIMAL(38, 2)", cols,
              "{\"columns\":[\"t\",\"d\"],\"nullCounts\":[3,0],\"minValues\":[null,"
              "\"-999999999999999999999999999999999999.99\"],\"maxValues\":[null,\"0.05\"]}");
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_truncate),
        cmocka_unit_test (test_timestamp9_and_decimal),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
