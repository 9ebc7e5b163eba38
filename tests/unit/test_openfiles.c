/*  test_openfiles.c - a writer's open files by partition (openfiles.h):
    lookup by the partition's bytes (the empty key included), the least
    recently used taken first, the most recent on request, and every file
    left aborted (deleted) with the map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "openfiles.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
s_rm (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove (path);
}

static zs_datafile_writer_t *
s_file (const char *dir, int n)
{
    char err[ZS_ERRLEN], rel[64];
    zs_schema_t schema;
    zs_schema_default (&schema);
    zs_parquet_options_t opts;
    zs_parquet_options_defaults (&opts);
    snprintf (rel, sizeof rel, "f-%d.parquet", n);
    zs_datafile_writer_t *w = zs_datafile_writer_new (dir, rel, &schema, &opts, err, sizeof err);
    if (!w)
        fail_msg ("%s", err);
    return w;
}

static void
test_lru (void **state)
{
    (void) state;
    char dir[64] = "/tmp/zsink-test-openfiles-XXXXXX";
    assert_non_null (mkdtemp (dir));
    zs_openfiles_t *m = zs_openfiles_new ();
    assert_non_null (m);
    const uint8_t a[] = {0, 0, 0, 1, 1}, b[] = {0, 0, 0, 1, 2}, c[] = {0, 0, 0, 1, 2, 3};
    zs_datafile_writer_t *fa = s_file (dir, 1), *fb = s_file (dir, 2), *fc = s_file (dir, 3);
    zs_datafile_writer_t *fe = s_file (dir, 4);
    assert_null (zs_openfiles_get (m, a, sizeof a));
    assert_int_equal (zs_openfiles_put (m, a, sizeof a, fa), 0);
    assert_int_equal (zs_openfiles_put (m, b, sizeof b, fb), 0);
    assert_int_equal (zs_openfiles_put (m, c, sizeof c, fc), 0);
    assert_int_equal (zs_openfiles_put (m, NULL, 0, fe), 0); //  unpartitioned: the empty key
    assert_int_equal (zs_openfiles_count (m), 4);
    //  keys differ in a byte or in length only
    assert_ptr_equal (zs_openfiles_get (m, b, sizeof b), fb);
    assert_ptr_equal (zs_openfiles_get (m, c, sizeof c), fc);
    assert_ptr_equal (zs_openfiles_get (m, NULL, 0), fe);
    //  a is now the least recently used; then b
    uint8_t key[ZS_PARTITION_ROW_MAX];
    size_t len = 99;
    assert_ptr_equal (zs_openfiles_take (m, true, key, &len), fa);
    assert_int_equal (len, sizeof a);
    assert_memory_equal (key, a, sizeof a);
    assert_null (zs_openfiles_get (m, a, sizeof a));
    assert_ptr_equal (zs_openfiles_get (m, b, sizeof b), fb); //  b becomes the most recent
    assert_ptr_equal (zs_openfiles_take (m, true, key, &len), fc);
    assert_ptr_equal (zs_openfiles_take (m, false, key, &len), fb); //  the most recent
    assert_int_equal (len, sizeof b);
    assert_int_equal (zs_openfiles_count (m), 1);
    zs_datafile_writer_abort (&fa);
    zs_datafile_writer_abort (&fb);
    zs_datafile_writer_abort (&fc);
    //  what is left is aborted with the map: its file is gone
    zs_openfiles_destroy (&m);
    assert_null (m);
    char p[128];
    snprintf (p, sizeof p, "%s/f-4.parquet", dir);
    assert_int_not_equal (access (p, F_OK), 0);
    nftw (dir, s_rm, 8, FTW_DEPTH | FTW_PHYS);
}

//  Many keys: every one found again, none confused with another.
static void
test_many (void **state)
{
    (void) state;
    char dir[64] = "/tmp/zsink-test-openfiles-XXXXXX";
    assert_non_null (mkdtemp (dir));
    zs_openfiles_t *m = zs_openfiles_new ();
    zs_datafile_writer_t *files[200];
    for (int i = 0; i < 200; i++) {
        uint8_t key[8] = {0, 0, 0, 1, (uint8_t) i, (uint8_t) (i >> 8)};
        files[i] = s_file (dir, i);
        assert_int_equal (zs_openfiles_put (m, key, 6, files[i]), 0);
    }
    for (int i = 199; i >= 0; i--) {
        uint8_t key[8] = {0, 0, 0, 1, (uint8_t) i, (uint8_t) (i >> 8)};
        assert_ptr_equal (zs_openfiles_get (m, key, 6), files[i]);
    }
    //  the gets made 199 the least recent
    uint8_t key[ZS_PARTITION_ROW_MAX];
    size_t len;
    zs_datafile_writer_t *f = zs_openfiles_take (m, true, key, &len);
    assert_ptr_equal (f, files[199]);
    zs_datafile_writer_abort (&f);
    zs_openfiles_destroy (&m);
    nftw (dir, s_rm, 8, FTW_DEPTH | FTW_PHYS);
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_lru),
        cmocka_unit_test (test_many),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
