/*  partition.h - a partitioned table's partitioning: which columns are its
    keys, the BinaryRow a manifest's _PARTITION holds for a partition, and
    the directory its data files live in, both exactly as Paimon Java makes
    them.

    Directory (Paimon's InternalRowPartitionComputer with
    partition.legacy-name true, its default, and PartitionPathUtils):

        k1=v1/k2=v2         keys in key order, no trailing '/'

    where v is the internal value's Java toString(): decimal for integers,
    true/false, the bytes of a STRING, a DATE as its int days since
    1970-01-01 ("dt=20426", not "dt=2025-12-04"), a TIMESTAMP as Java's
    LocalDateTime ("2026-12-04T07:00", seconds and fraction only when not
    zero). A null, or a text that is empty or only whitespace, is the
    table's partition.default-name (__DEFAULT_PARTITION__). Keys and values
    are escaped by PartitionPathUtils.escapePathName: the ASCII control
    characters and  " # % ' * / : = ? \ DEL { } [ ] ^  become '%' and two
    upper-case hex digits ("a/b:c" -> "a%2Fb%3Ac"); bytes >= 0x80 (UTF-8)
    stay as they are.

    BinaryRow: the partition fields alone, in key order, serialized as
    SerializationUtils.serializeBinaryRow does (binrow.h).

    Key types: what binrow.h and rowfmt.h know, except FLOAT, DOUBLE and
    BYTES, whose Java toString() zsink does not reproduce (Float.toString,
    "[B@hash"): such a key is refused by name.

    A partition's values (zs_value_t[n]) are the key columns' values in key
    order. STRING values point into whatever the caller passed (a row, a
    BinaryRow, a spec); the functions here never keep them.
*/
#ifndef ZS_PARTITION_H_INCLUDED
#define ZS_PARTITION_H_INCLUDED

#include "filemeta.h"
#include "rowtype.h"

#define ZS_PARTITION_DEFAULT_NAME "__DEFAULT_PARTITION__"
//  Bytes a partition's BinaryRow may take (zs_file_meta_t keeps it in a
//  fixed buffer), and its directory including the NUL (the directory,
//  "bucket-0/" and a data file name must fit a zs_file_meta_t path).
#define ZS_PARTITION_ROW_MAX ZS_FILE_PARTITION_MAX
#define ZS_PARTITION_DIR_MAX 150
#define ZS_PARTITION_NAME_MAX 128 //  partition.default-name, NUL included

typedef struct {
    int n;                                           //  0: unpartitioned
    int col[ZS_PARTITION_MAX];                       //  key i's column index in the row type
    zs_type_t type[ZS_PARTITION_MAX];                //  its type
    char name[ZS_PARTITION_MAX][ZS_COLUMN_NAME_MAX]; //  its name
    char default_name[ZS_PARTITION_NAME_MAX];        //  partition.default-name
} zs_partition_t;

//  The partitioning of schema (its n_partition keys) with default_name
//  (NULL: Paimon's). 0, or -1 with err naming a key whose type cannot be a
//  partition key (FLOAT, DOUBLE, BYTES), or saying the default name is
//  empty or longer than 127 bytes. (The default name is escaped in a
//  directory like any value, as Paimon does.)
int zs_partition_init (zs_partition_t *self, const zs_schema_t *schema, const char *default_name,
                       char *err, size_t errlen);

//  A row's (schema->n values) partition values, in key order.
void zs_partition_values (const zs_partition_t *self, const zs_value_t *row, zs_value_t *values);

//  The partition's BinaryRow into buf (no allocation). Its length, or -1
//  with err when it would pass cap bytes.
int zs_partition_row (const zs_partition_t *self, const zs_value_t *values, uint8_t *buf,
                      size_t cap, char *err, size_t errlen);

//  A BinaryRow back into values (STRINGs point into row). 0, or ZS_ECORRUPT
//  with err when it is not a row of the partition's fields.
int zs_partition_decode (const zs_partition_t *self, const uint8_t *row, size_t len,
                         zs_value_t *values, char *err, size_t errlen);

//  The partition's directory "k1=v1/k2=v2" (see above) into buf. Its
//  length, or -1 with err when it does not fit cap (or ZS_PARTITION_DIR_MAX).
int zs_partition_dir (const zs_partition_t *self, const zs_value_t *values, char *buf, size_t cap,
                      char *err, size_t errlen);

//  A directory "k1=v1/k2=v2" or a spec "k1=v1,k2=v2" (sep '/' or ','; a
//  spec's values unescaped, a directory's escaped) back into values:
//  every key once, any order, the default name as null, each value as
//  Paimon's castFromString reads it (and a DATE also as its int days, the
//  legacy directory spelling; a TIMESTAMP also without seconds, as
//  LocalDateTime prints it). STRING values point into scratch (at least
//  strlen(text) + 1 bytes). 0, or -1 with err naming the key and value.
int zs_partition_parse (const zs_partition_t *self, const char *text, char sep, zs_value_t *values,
                        char *scratch, size_t scratchlen, char *err, size_t errlen);

//  The values for people: "dt=2026-12-04, hr=7" (rowfmt.h's spelling of
//  each value, NULL for a null). 0, or -1 if buf is too small.
int zs_partition_display (const zs_partition_t *self, const zs_value_t *values, char *buf,
                          size_t cap);

//  PartitionPathUtils.escapePathName / unescapePathName of p[0..len) into
//  buf. The output length, or -1 if it does not fit cap (NUL included).
int zs_partition_escape (const char *p, size_t len, char *buf, size_t cap);
int zs_partition_unescape (const char *p, size_t len, char *buf, size_t cap);

#endif
