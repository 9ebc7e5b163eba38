/*  filemeta.h - what a table records of one data file: the type the
    committable carries on the wire, the checkpoint keeps, and the manifest
    stores (Paimon's DataFileMeta, the fields an append table uses). Types
    only, so that the wire layer sees no Parquet API.
*/
#ifndef ZS_FILEMETA_H_INCLUDED
#define ZS_FILEMETA_H_INCLUDED

#include "zs.h"

//  A data file's value statistics exactly as its manifest entry holds
//  them (stats.h says how): the Avro encoding of _VALUE_STATS followed by
//  that of _VALUE_STATS_COLS. Opaque bytes between the writer that makes
//  them and the manifest, so that what another writer (Paimon Java,
//  pypaimon) recorded is kept to the byte.
#define ZS_STATS_MAX 2048
typedef struct {
    uint16_t len;     //  bytes in blob; 0: none (written as "no statistics")
    uint16_t cols_at; //  where the _VALUE_STATS_COLS encoding starts
    uint8_t blob[ZS_STATS_MAX];
} zs_stats_t;

//  Bytes of a partition's BinaryRow a file meta keeps (partition.h's
//  ZS_PARTITION_ROW_MAX).
#define ZS_FILE_PARTITION_MAX 192

//  Paimon's FileSource: how the file came to be.
enum { ZS_FILE_SOURCE_APPEND = 0, ZS_FILE_SOURCE_COMPACT = 1 };

//  What the manifest records of a data file.
typedef struct {
    //  relative to the table directory: "bucket-0/data-….parquet", in a
    //  partitioned table "dt=20426/hr=7/bucket-0/data-….parquet"
    char path[256];
    int64_t rows;
    int64_t size; //  bytes on disk after close
    bool has_id;  //  the id range below is known (an id column, rows > 0)
    int64_t min_id;
    int64_t max_id;
    int64_t creation_ms; //  _CREATION_TIME: local wall clock as epoch millis, as Paimon
    int64_t min_seq;     //  _MIN/_MAX_SEQUENCE_NUMBER
    int64_t max_seq;     //
    int64_t schema_id;   //  _SCHEMA_ID: the schema the file was written with
    int level;           //  _LEVEL (0 for append tables)
    int file_source;     //  _FILE_SOURCE, -1 when unknown
    int64_t delete_rows; //  _DELETE_ROW_COUNT, -1 when unknown
    zs_stats_t stats;
    //  _PARTITION: the partition's BinaryRow as SerializationUtils writes
    //  it (partition.h); partition_len 0 stands for the empty row (an
    //  unpartitioned table). The path's directories are its name.
    uint16_t partition_len;
    uint8_t partition[ZS_FILE_PARTITION_MAX];
} zs_file_meta_t;

#endif
