/*  fuzz_manifest.c - the manifest and manifest-list decoders
    (manifest.h): zs_manifest_decode and zs_manifest_list_decode, which
    read <table>/manifest/manifest-* and manifest-list-* (Avro files,
    Paimon's schemas, from any writer), and the value statistics they
    carry (stats.h).

    Input: a file's bytes; both decoders get every input (a manifest list
    is simply refused by the manifest decoder and the other way round).
    Properties, beyond "no crash, leak or UB":
    1. every decoded data file path passes zs_data_path_check, every
       manifest name zs_plain_name (what keeps a hostile table inside its
       directory);
    2. what decodes encodes and decodes again to the same entries,
       statistics byte for byte.
*/
#include "fuzz_common.h"
#include "manifest.h"
#include "stats.h"

static void
s_same_file (const zs_file_meta_t *a, const zs_file_meta_t *b)
{
    ZS_FUZZ_CHECK (strcmp (a->path, b->path) == 0);
    ZS_FUZZ_CHECK (a->rows == b->rows && a->size == b->size);
    ZS_FUZZ_CHECK (a->min_seq == b->min_seq && a->max_seq == b->max_seq);
    ZS_FUZZ_CHECK (a->creation_ms == b->creation_ms && a->schema_id == b->schema_id);
    ZS_FUZZ_CHECK (a->level == b->level && a->file_source == b->file_source);
    ZS_FUZZ_CHECK (a->delete_rows == b->delete_rows);
    ZS_FUZZ_CHECK (a->stats.len == b->stats.len && a->stats.cols_at == b->stats.cols_at);
    ZS_FUZZ_CHECK (memcmp (a->stats.blob, b->stats.blob, a->stats.len) == 0);
}

static void
s_manifest (const uint8_t *data, size_t size)
{
    char err[ZS_ERRLEN] = "";
    zs_manifest_entry_t *entries = NULL;
    size_t n = 0;
    int rc = zs_manifest_decode (data, size, &entries, &n, err, sizeof err);
    if (rc != 0) {
        ZS_FUZZ_CHECK (err[0] != 0);
        return;
    }
    ZS_FUZZ_CHECK (n == 0 || entries != NULL);
    for (size_t i = 0; i < n; i++) {
        ZS_FUZZ_CHECK (zs_data_path_check (entries[i].file.path, err, sizeof err) == 0);
        ZS_FUZZ_CHECK (entries[i].file.rows >= 0 && entries[i].file.size >= 0);
        zs_stats_view_t v;
        ZS_FUZZ_CHECK (zs_stats_decode (&entries[i].file.stats, NULL, &v, err, sizeof err) == 0);
    }
    size_t len = 0;
    uint8_t *again_data =
        zs_manifest_encode (entries, n, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    ZS_FUZZ_CHECK (again_data != NULL);
    zs_manifest_entry_t *again = NULL;
    size_t n2 = 0;
    rc = zs_manifest_decode (again_data, len, &again, &n2, err, sizeof err);
    if (rc != 0)
        fprintf (stderr, "re-encoded manifest does not decode: %s\n", err);
    ZS_FUZZ_CHECK (rc == 0 && n2 == n);
    for (size_t i = 0; i < n; i++) {
        ZS_FUZZ_CHECK (again[i].add == entries[i].add);
        s_same_file (&entries[i].file, &again[i].file);
    }
    free (again);
    free (again_data);
    free (entries);
}

static void
s_manifest_list (const uint8_t *data, size_t size)
{
    char err[ZS_ERRLEN] = "";
    zs_manifest_meta_t *metas = NULL;
    size_t n = 0;
    int rc = zs_manifest_list_decode (data, size, &metas, &n, err, sizeof err);
    if (rc != 0) {
        ZS_FUZZ_CHECK (err[0] != 0);
        return;
    }
    ZS_FUZZ_CHECK (n == 0 || metas != NULL);
    for (size_t i = 0; i < n; i++)
        ZS_FUZZ_CHECK (zs_plain_name (metas[i].file));
    size_t len = 0;
    uint8_t *again_data =
        zs_manifest_list_encode (metas, n, ZS_AVRO_CODEC_NULL, &len, err, sizeof err);
    ZS_FUZZ_CHECK (again_data != NULL);
    zs_manifest_meta_t *again = NULL;
    size_t n2 = 0;
    rc = zs_manifest_list_decode (again_data, len, &again, &n2, err, sizeof err);
    ZS_FUZZ_CHECK (rc == 0 && n2 == n);
    for (size_t i = 0; i < n; i++) {
        ZS_FUZZ_CHECK (strcmp (metas[i].file, again[i].file) == 0);
        ZS_FUZZ_CHECK (metas[i].file_size == again[i].file_size);
        ZS_FUZZ_CHECK (metas[i].added_files == again[i].added_files);
        ZS_FUZZ_CHECK (metas[i].deleted_files == again[i].deleted_files);
    }
    free (again);
    free (again_data);
    free (metas);
}

//  True if no '/'-separated component of path is empty, "." or "..": a
//  ".." inside a partition value ("p=a..b", "p=..") names a directory of
//  the table, not its parent.
static bool
s_stays_inside (const char *path)
{
    for (const char *c = path;;) {
        const char *end = strchr (c, '/');
        size_t len = end ? (size_t) (end - c) : strlen (c);
        if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
            return false;
        if (!end)
            return true;
        c = end + 1;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    s_manifest (data, size);
    s_manifest_list (data, size);
    //  zs_data_path_check and zs_plain_name on the raw text, too: both
    //  take any string.
    char *text = zs_fuzz_text (data, size);
    char err[ZS_ERRLEN];
    if (zs_data_path_check (text, err, sizeof err) == 0)
        ZS_FUZZ_CHECK (s_stays_inside (text));
    if (zs_plain_name (text))
        ZS_FUZZ_CHECK (strchr (text, '/') == NULL);
    free (text);
    return 0;
}
