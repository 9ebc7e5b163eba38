/*  fuzz_snapshot.c - the snapshot file's decoder: zs_snapshot_decode
    (snapshot.h), which reads <table>/snapshot/snapshot-<id>.

    Input: the file's text (JSON, or anything).
    Properties, beyond "no crash, leak or UB":
    1. a failed decode leaves *out untouched and says why;
    2. what decodes encodes, and the encoding decodes to the same snapshot
       (byte for byte: the decoder zeroes its struct first);
    3. the manifest list names are plain names, the user ids at most
       ZS_MAX_USER_IDS, and recording one more user keeps that bound.
*/
#include "fuzz_common.h"
#include "manifest.h"
#include "snapshot.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    char *text = zs_fuzz_text (data, size);
    char err[ZS_ERRLEN] = "";
    static zs_snapshot_t snap, again, untouched;
    memset (&snap, 0xA5, sizeof snap);
    memset (&untouched, 0xA5, sizeof untouched);
    int rc = zs_snapshot_decode (text, &snap, err, sizeof err);
    free (text);
    if (rc != 0) {
        ZS_FUZZ_CHECK (rc == ZS_ECORRUPT);
        ZS_FUZZ_CHECK (err[0] != 0);
        ZS_FUZZ_CHECK (memcmp (&snap, &untouched, sizeof snap) == 0);
        return 0;
    }
    ZS_FUZZ_CHECK (zs_plain_name (snap.base_manifest_list));
    ZS_FUZZ_CHECK (zs_plain_name (snap.delta_manifest_list));
    ZS_FUZZ_CHECK (snap.n_user_ids >= 0 && snap.n_user_ids <= ZS_MAX_USER_IDS);
    char *json = zs_snapshot_encode (&snap);
    ZS_FUZZ_CHECK (json != NULL);
    rc = zs_snapshot_decode (json, &again, err, sizeof err);
    if (rc != 0)
        fprintf (stderr, "re-encoded snapshot does not decode: %s\n%s\n", err, json);
    ZS_FUZZ_CHECK (rc == 0);
    ZS_FUZZ_CHECK (memcmp (&snap, &again, sizeof snap) == 0);
    free (json);
    //  What the committer does next with it.
    (void) zs_snapshot_last_identifier (&snap, snap.commit_user);
    zs_snapshot_set_user_id (&snap, "fuzz-user", 1, 0, NULL);
    ZS_FUZZ_CHECK (snap.n_user_ids <= ZS_MAX_USER_IDS);
    ZS_FUZZ_CHECK (zs_snapshot_last_identifier (&snap, "fuzz-user") == 1);
    return 0;
}
