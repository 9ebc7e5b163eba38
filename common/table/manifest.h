/*  manifest.h - JSON codecs of manifest and manifest-list files (no I/O).

    manifest:       {"entries":[{"kind":"ADD","file":"bucket-0/…","rows":…,
                                 "size":…,"minId":…,"maxId":…,
                                 "stats":{"nullCounts":[…],"minValues":[…],
                                          "maxValues":[…]}}]}
                    (minId/maxId only for a table with an id column,
                    stats only when the writer had them)
    manifest list:  {"manifests":[{"file":"manifest-…","addedFiles":…,
                                   "deletedFiles":…}]}

    Decoders validate names as well as shapes: a data file path must be
    relative and under bucket-N/, a manifest name a plain file name, so a
    damaged or hostile file can never make the table read, or `orphans
    --delete` spare or touch, anything outside the table.
*/
#ifndef ZS_MANIFEST_H_INCLUDED
#define ZS_MANIFEST_H_INCLUDED

#include "filemeta.h"
#include "zs.h"

typedef struct {
    bool add; //  ADD, else DELETE
    zs_file_meta_t file;
} zs_manifest_entry_t;

typedef struct {
    char file[128]; //  name inside manifest/
    int64_t added_files;
    int64_t deleted_files;
} zs_manifest_meta_t;

//  Manifest of n ADD entries, malloc'd JSON; NULL when out of memory.
char *zs_manifest_encode (const zs_file_meta_t *files, size_t n);
//  0 or ZS_ECORRUPT + err. *entries_p malloc'd (may be NULL when n = 0).
int zs_manifest_decode (const char *text, zs_manifest_entry_t **entries_p, size_t *n_p, char *err,
                        size_t errlen);

char *zs_manifest_list_encode (const zs_manifest_meta_t *metas, size_t n);
int zs_manifest_list_decode (const char *text, zs_manifest_meta_t **metas_p, size_t *n_p, char *err,
                             size_t errlen);

//  Is path an acceptable data file path: relative, no "..", no empty or
//  "." component, under "bucket-<digits>/"? 0, or -1 with why in err.
int zs_data_path_check (const char *path, char *err, size_t errlen);

//  Is name a plain file name (no '/', not "." or "..", not empty)?
bool zs_plain_name (const char *name);

#endif
