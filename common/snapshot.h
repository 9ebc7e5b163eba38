/*  snapshot.h - the snapshot file's JSON codec (no I/O; table.c reads and
    writes the files).

    Field names follow Paimon's snapshot JSON (version 3), plus zsink's
    "committedIdentifiers": the last identifier of each recent commit user,
    carried forward from snapshot to snapshot (DESIGN §4).
*/
#ifndef ZS_SNAPSHOT_H_INCLUDED
#define ZS_SNAPSHOT_H_INCLUDED

#include "table.h"

//  JSON text of a snapshot, malloc'd; NULL only when out of memory.
char *zs_snapshot_encode (const zs_snapshot_t *snap);

//  Decode JSON text. 0, or ZS_ECORRUPT with err saying which field is
//  missing or wrong (the caller prefixes the file name).
int zs_snapshot_decode (const char *text, zs_snapshot_t *out, char *err, size_t errlen);

//  Record that user committed identifier at time_millis: update its entry
//  or add one, dropping the least recently committing user when all
//  ZS_MAX_USER_IDS slots are taken.
void zs_snapshot_set_user_id (zs_snapshot_t *snap, const char *user, int64_t identifier,
                              int64_t time_millis);

#endif
