/*  fuzz_manifest.c - the manifest and manifest-list decoders
    (manifest.h): zs_manifest_decode and zs_manifest_list_decode, which
    read <table>/manifest/manifest-* and manifest-list-*.

    Input: a file's text; both decoders get every input (a manifest list
    is simply refused by the manifest decoder and the other way round).
    Properties, beyond "no crash, leak or UB":
    1. every decoded data file path passes zs_data_path_check, every
       manifest name zs_plain_name (what keeps a hostile table inside its
       directory);
    2. what decodes encodes (manifests: when all entries are ADD, the only
       kind the encoder writes) and decodes again to the same entries.
*/
#include "fuzz_common.h"
#include "manifest.h"

static void
s_manifest (const char *text)
{
    char err[ZS_ERRLEN] = "";
    zs_manifest_entry_t *entries = NULL;
    size_t n = 0;
    int rc = zs_manifest_decode (text, &entries, &n, err, sizeof err);
    if (rc != 0) {
        ZS_FUZZ_CHECK (err[0] != 0);
        return;
    }
    ZS_FUZZ_CHECK (n == 0 || entries != NULL);
    bool all_add = true;
    zs_file_meta_t *files = calloc (n ? n : 1, sizeof *files);
    ZS_FUZZ_CHECK (files != NULL);
    for (size_t i = 0; i < n; i++) {
        ZS_FUZZ_CHECK (zs_data_path_check (entries[i].file.path, err, sizeof err) == 0);
        ZS_FUZZ_CHECK (entries[i].file.rows >= 0 && entries[i].file.size >= 0);
        all_add &= entries[i].add;
        files[i] = entries[i].file;
    }
    if (all_add) {
        char *json = zs_manifest_encode (files, n);
        ZS_FUZZ_CHECK (json != NULL);
        zs_manifest_entry_t *again = NULL;
        size_t n2 = 0;
        rc = zs_manifest_decode (json, &again, &n2, err, sizeof err);
        if (rc != 0)
            fprintf (stderr, "re-encoded manifest does not decode: %s\n%s\n", err, json);
        ZS_FUZZ_CHECK (rc == 0 && n2 == n);
        for (size_t i = 0; i < n; i++) {
            const zs_file_meta_t *a = &entries[i].file, *b = &again[i].file;
            ZS_FUZZ_CHECK (again[i].add);
            ZS_FUZZ_CHECK (strcmp (a->path, b->path) == 0);
            ZS_FUZZ_CHECK (a->rows == b->rows && a->size == b->size && a->has_id == b->has_id);
            ZS_FUZZ_CHECK (!a->has_id || (a->min_id == b->min_id && a->max_id == b->max_id));
            if (strcmp (a->stats, b->stats) != 0)
                fprintf (stderr, "stats differ:\n%s\n%s\n", a->stats, b->stats);
            ZS_FUZZ_CHECK (strcmp (a->stats, b->stats) == 0);
        }
        free (again);
        free (json);
    }
    free (files);
    free (entries);
}

static void
s_manifest_list (const char *text)
{
    char err[ZS_ERRLEN] = "";
    zs_manifest_meta_t *metas = NULL;
    size_t n = 0;
    int rc = zs_manifest_list_decode (text, &metas, &n, err, sizeof err);
    if (rc != 0) {
        ZS_FUZZ_CHECK (err[0] != 0);
        return;
    }
    ZS_FUZZ_CHECK (n == 0 || metas != NULL);
    for (size_t i = 0; i < n; i++)
        ZS_FUZZ_CHECK (zs_plain_name (metas[i].file));
    char *json = zs_manifest_list_encode (metas, n);
    ZS_FUZZ_CHECK (json != NULL);
    zs_manifest_meta_t *again = NULL;
    size_t n2 = 0;
    rc = zs_manifest_list_decode (json, &again, &n2, err, sizeof err);
    ZS_FUZZ_CHECK (rc == 0 && n2 == n);
    for (size_t i = 0; i < n; i++) {
        ZS_FUZZ_CHECK (strcmp (metas[i].file, again[i].file) == 0);
        ZS_FUZZ_CHECK (metas[i].added_files == again[i].added_files);
        ZS_FUZZ_CHECK (metas[i].deleted_files == again[i].deleted_files);
    }
    free (again);
    free (json);
    free (metas);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    char *text = zs_fuzz_text (data, size);
    s_manifest (text);
    s_manifest_list (text);
    //  zs_data_path_check and zs_plain_name on the raw text, too: both
    //  take any string.
    char err[ZS_ERRLEN];
    if (zs_data_path_check (text, err, sizeof err) == 0)
        ZS_FUZZ_CHECK (text[0] != '/' && strstr (text, "..") == NULL);
    if (zs_plain_name (text))
        ZS_FUZZ_CHECK (strchr (text, '/') == NULL);
    free (text);
    return 0;
}
