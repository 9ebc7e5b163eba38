/*  filemeta.h - what a table records of one data file: the type the
    committable carries on the wire and the manifest stores. Types only, so
    that the wire layer sees no Parquet API.
*/
#ifndef ZS_FILEMETA_H_INCLUDED
#define ZS_FILEMETA_H_INCLUDED

#include "zs.h"

//  Room for a file's column statistics as JSON; statistics that do not fit
//  are left out (the manifest then has none for that file).
#define ZS_FILE_STATS_MAX 2048

//  What the manifest records of a data file.
typedef struct {
    char path[256]; //  relative to the table directory, e.g. "bucket-0/data-….parquet"
    int64_t rows;
    int64_t size; //  bytes on disk after close
    bool has_id;  //  the id range below is known (an id column, rows > 0)
    int64_t min_id;
    int64_t max_id;
    //  Paimon's value stats, in column order, as JSON:
    //  {"nullCounts":[…],"minValues":[…],"maxValues":[…]} (a min or max is
    //  null when unknown); "" when the file has none.
    char stats[ZS_FILE_STATS_MAX];
} zs_file_meta_t;

#endif
