/*  manifest.h - Paimon's manifest and manifest-list files: Avro object
    container files (avro.h) with the record schemas of Paimon 2.0
    (ManifestEntry with its DataFileMeta; ManifestFileMeta), written the way
    Paimon Java writes them and read from any writer by field name. No I/O.

    manifest       one ManifestEntry per data file added or deleted:
                   _VERSION 2, _KIND (0 ADD, 1 DELETE), _PARTITION (the
                   partition's BinaryRow, the empty row when the table is
                   unpartitioned), _BUCKET,
                   _TOTAL_BUCKETS (-1), _FILE {_FILE_NAME (the name inside
                   bucket-<_BUCKET>/), sizes, sequence numbers, creation
                   time, value statistics (stats.h), …}
    manifest list  one ManifestFileMeta per manifest: _FILE_NAME, its exact
                   _FILE_SIZE (Java stops reading there), numbers of added
                   and deleted files, _PARTITION_STATS (the min/max/null
                   counts of the partition fields over its entries, as
                   Paimon's ManifestFile writer collects them), schema id,
                   bucket and level range.

    Decoders validate names as well as shapes: a data file name must be a
    plain name, a bucket >= 0, a manifest name a plain file name, so a
    damaged or hostile file can never make the table read, or `orphans
    --delete` spare or touch, anything outside the table. What an append
    table cannot hold is refused by name: an external path, a partition
    in an unpartitioned table. A partitioned table's decoder takes its
    partitioning (partition.h) and names each file by its partition's
    directory: "dt=20426/bucket-0/<_FILE_NAME>".
*/
#ifndef ZS_MANIFEST_H_INCLUDED
#define ZS_MANIFEST_H_INCLUDED

#include "avro.h"
#include "filemeta.h"
#include "partition.h"
#include "zs.h"

typedef struct {
    bool add;            //  ADD, else DELETE
    int total_buckets;   //  _TOTAL_BUCKETS (-1: bucket-unaware)
    zs_file_meta_t file; //  path "[<partition dir>/]bucket-<_BUCKET>/<_FILE_NAME>",
                         //  partition/partition_len _PARTITION
    bool extra_files;    //  _EXTRA_FILES was not empty (we keep no names)
} zs_manifest_entry_t;

typedef struct {
    char file[128];    //  name inside manifest/
    int64_t file_size; //  exact bytes of that file
    int64_t added_files;
    int64_t deleted_files;
    int64_t schema_id;
    //  _PARTITION_STATS as its Avro encoding (a zs_stats_t holding the
    //  record alone: cols_at == len); len 0: the empty stats of an
    //  unpartitioned table. zs_partition_stats computes it.
    zs_stats_t partition_stats;
} zs_manifest_meta_t;

//  Encode entries as a manifest (the codec: manifest.compression). malloc'd,
//  *len bytes; NULL + err when out of memory or a path is not
//  "bucket-<N>/<name>".
uint8_t *zs_manifest_encode (const zs_manifest_entry_t *entries, size_t n, zs_avro_codec_t codec,
                             size_t *len, char *err, size_t errlen);
//  0 or ZS_ECORRUPT + err. *entries_p malloc'd (may be NULL when n = 0).
//  An entry with a partition is refused (an unpartitioned table's reader).
int zs_manifest_decode (const uint8_t *data, size_t len, zs_manifest_entry_t **entries_p,
                        size_t *n_p, char *err, size_t errlen);
//  The same for a table partitioned by part (NULL or part->n 0: none):
//  every _PARTITION must be a row of its fields, its directory becomes the
//  front of the file's path.
int zs_manifest_decode_in (const uint8_t *data, size_t len, const zs_partition_t *part,
                           zs_manifest_entry_t **entries_p, size_t *n_p, char *err, size_t errlen);

//  _PARTITION_STATS of n entries of a table partitioned by part into out:
//  per field the minimum and maximum of the non-null values (null when
//  none) and the count of nulls, as Paimon's SimpleStatsCollector; the
//  empty stats when part has no keys. 0, or -1 with err (a partition that
//  does not decode).
int zs_partition_stats (const zs_partition_t *part, const zs_manifest_entry_t *entries, size_t n,
                        zs_stats_t *out, char *err, size_t errlen);

uint8_t *zs_manifest_list_encode (const zs_manifest_meta_t *metas, size_t n, zs_avro_codec_t codec,
                                  size_t *len, char *err, size_t errlen);
int zs_manifest_list_decode (const uint8_t *data, size_t len, zs_manifest_meta_t **metas_p,
                             size_t *n_p, char *err, size_t errlen);

//  Is path an acceptable data file path: relative, up to 8 partition
//  directories "k=v" (not empty, a key before '='), then "bucket-<digits>/"
//  and a plain file name without ".."? 0, or -1 with why in err.
int zs_data_path_check (const char *path, char *err, size_t errlen);
//  The same, and where its parts are: *dir_len bytes of partition
//  directories (0: none; the '/' after them not counted), the bucket, the
//  file name (inside path).
int zs_data_path_split (const char *path, size_t *dir_len, int *bucket, const char **name,
                        char *err, size_t errlen);

//  Is name a plain file name (no '/', not "." or "..", not empty)?
bool zs_plain_name (const char *name);

#endif
