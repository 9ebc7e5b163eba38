/*  snapshot.h - the snapshot file's JSON codec (no I/O; table_read.c
    reads the files, table_commit.c writes them).

    Field names follow Paimon's snapshot JSON (version 3, Snapshot.java),
    plus zsink's "committedIdentifiers": the last identifier of each recent
    commit user, carried forward from snapshot to snapshot
    (docs/architecture.md, design 4). Paimon's readers ignore the field; a
    snapshot another writer made lacks it (has_user_ids false).
*/
#ifndef ZS_SNAPSHOT_H_INCLUDED
#define ZS_SNAPSHOT_H_INCLUDED

#include "zs.h"

#define ZS_MAX_USER_IDS 64 //  commit users remembered per snapshot

typedef struct {
    char user[40];
    int64_t identifier;
    int64_t time_millis; //  when that user last committed (for LRU trimming)
    //  what input that user's job read, once it committed end of input
    //  (the end-input snapshot's zsink.source-id), so that a finished run
    //  is still known after that snapshot expired; "" otherwise
    char source_id[24];
} zs_user_id_t;

typedef struct {
    int64_t id;
    int64_t schema_id;
    char base_manifest_list[128]; //  file name inside manifest/
    int64_t base_list_size;       //  its bytes, -1 when the snapshot does not say
    char delta_manifest_list[128];
    int64_t delta_list_size;
    char changelog_manifest_list[128]; //  "" when none (another writer's)
    char index_manifest[128];          //  "" when none (another writer's)
    char commit_user[128];
    int64_t commit_identifier;
    char commit_kind[16]; //  "APPEND", "COMPACT", "OVERWRITE", "ANALYZE"
    int64_t time_millis;
    int64_t total_record_count;
    int64_t delta_record_count;
    //  Paimon's "properties" {"zsink.source-id": …} of a zsink end-input
    //  snapshot: what input the finished job read (zs_config_source_id);
    //  "" otherwise (other properties are not kept)
    char source_id[24];
    //  zsink's extension: false in a snapshot another writer made
    bool has_user_ids;
    int n_user_ids;
    zs_user_id_t user_ids[ZS_MAX_USER_IDS];
} zs_snapshot_t;

//  JSON text of a snapshot, malloc'd; NULL only when out of memory.
char *zs_snapshot_encode (const zs_snapshot_t *snap);

//  Decode JSON text. 0, or ZS_ECORRUPT with err saying which field is
//  missing or wrong (the caller prefixes the file name).
int zs_snapshot_decode (const char *text, zs_snapshot_t *out, char *err, size_t errlen);

//  Last identifier the user committed according to a snapshot, -1 if none.
int64_t zs_snapshot_last_identifier (const zs_snapshot_t *snap, const char *commit_user);

//  Record that user committed identifier at time_millis: update its entry
//  or add one, dropping the least recently committing user when all
//  ZS_MAX_USER_IDS slots are taken. source_id (end of input's) becomes the
//  entry's; NULL keeps the entry's while its identifier stays the same (a
//  compaction after end of input) and clears it otherwise.
void zs_snapshot_set_user_id (zs_snapshot_t *snap, const char *user, int64_t identifier,
                              int64_t time_millis, const char *source_id);

#endif
