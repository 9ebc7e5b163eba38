/*  manifest.h - Paimon's manifest and manifest-list files: Avro object
    container files (avro.h) with the record schemas of Paimon 2.0
    (ManifestEntry with its DataFileMeta; ManifestFileMeta), written the way
    Paimon Java writes them and read from any writer by field name. No I/O.

    manifest       one ManifestEntry per data file added or deleted:
                   _VERSION 2, _KIND (0 ADD, 1 DELETE), _PARTITION (the
                   empty row: bucket-unaware, unpartitioned), _BUCKET,
                   _TOTAL_BUCKETS (-1), _FILE {_FILE_NAME (the name inside
                   bucket-<_BUCKET>/), sizes, sequence numbers, creation
                   time, value statistics (stats.h), …}
    manifest list  one ManifestFileMeta per manifest: _FILE_NAME, its exact
                   _FILE_SIZE (Java stops reading there), numbers of added
                   and deleted files, schema id, bucket and level range.

    Decoders validate names as well as shapes: a data file name must be a
    plain name, a bucket >= 0, a manifest name a plain file name, so a
    damaged or hostile file can never make the table read, or `orphans
    --delete` spare or touch, anything outside the table. What an append
    table cannot hold is refused by name: a partition, an external path.
*/
#ifndef ZS_MANIFEST_H_INCLUDED
#define ZS_MANIFEST_H_INCLUDED

#include "avro.h"
#include "filemeta.h"
#include "zs.h"

typedef struct {
    bool add;            //  ADD, else DELETE
    int total_buckets;   //  _TOTAL_BUCKETS (-1: bucket-unaware)
    zs_file_meta_t file; //  path "bucket-<_BUCKET>/<_FILE_NAME>"
    bool extra_files;    //  _EXTRA_FILES was not empty (we keep no names)
} zs_manifest_entry_t;

typedef struct {
    char file[128];    //  name inside manifest/
    int64_t file_size; //  exact bytes of that file
    int64_t added_files;
    int64_t deleted_files;
    int64_t schema_id;
} zs_manifest_meta_t;

//  Encode entries as a manifest (the codec: manifest.compression). malloc'd,
//  *len bytes; NULL + err when out of memory or a path is not
//  "bucket-<N>/<name>".
uint8_t *zs_manifest_encode (const zs_manifest_entry_t *entries, size_t n, zs_avro_codec_t codec,
                             size_t *len, char *err, size_t errlen);
//  0 or ZS_ECORRUPT + err. *entries_p malloc'd (may be NULL when n = 0).
int zs_manifest_decode (const uint8_t *data, size_t len, zs_manifest_entry_t **entries_p,
                        size_t *n_p, char *err, size_t errlen);

uint8_t *zs_manifest_list_encode (const zs_manifest_meta_t *metas, size_t n, zs_avro_codec_t codec,
                                  size_t *len, char *err, size_t errlen);
int zs_manifest_list_decode (const uint8_t *data, size_t len, zs_manifest_meta_t **metas_p,
                             size_t *n_p, char *err, size_t errlen);

//  Is path an acceptable data file path: relative, no "..", no empty or
//  "." component, under "bucket-<digits>/"? 0, or -1 with why in err.
int zs_data_path_check (const char *path, char *err, size_t errlen);

//  Is name a plain file name (no '/', not "." or "..", not empty)?
bool zs_plain_name (const char *name);

#endif
