/*  dataname.h - data file names of a writer, and the deletion rule on
    Reset (docs/protocol.md, "Data file names"):

        [<partition dirs>/]bucket-0/data-<job8>-w<index>-a<K>-e<epoch>-<n>.<ext>

    job8 is the first 8 characters of the job id, K the last barrier the
    writer had seen when it opened the file (the restore id after a Reset),
    n the writer's file counter in that epoch. On Reset(R) a writer deletes
    its own files with K >= R: they were written after barrier R, so they
    belong to a checkpoint after R, which is not complete, and no restored
    state can reference them. The name alone decides it, so a writer never
    has to look inside (or even list the meaning of) another writer's files.
*/
#ifndef ZS_DATANAME_H_INCLUDED
#define ZS_DATANAME_H_INCLUDED

#include "zs.h"

//  Format the base name ("data-…" without the bucket directory). 0, or -1
//  when buf is too small.
int zs_dataname_format (char *buf, size_t len, const char *job_id, int index, int64_t k,
                        int64_t epoch, int64_t n, const char *ext);

//  Parse a base name. Returns 1 with *k, *epoch, *n set when the name is a
//  data file of this job (same job8) written by this writer index; 0 for
//  anything else (another writer, another job, not a data file, garbage).
int zs_dataname_parse (const char *name, const char *job_id, int index, int64_t *k, int64_t *epoch,
                       int64_t *n);

//  Delete, in dir, this writer's files of this job with K >= restore_id,
//  then fsync dir. Returns how many were deleted, or -1 + err. A missing
//  dir is not an error (nothing to delete).
int zs_dataname_clean (const char *dir, const char *job_id, int index, int64_t restore_id,
                       char *err, size_t errlen);

#endif
