/*  zs.h - basics shared by every zsink module: result codes and limits.

    Functions return 0 on success and -1 on a plain failure. Where a caller
    must branch on the cause they return one of the small negative codes
    below (never errno).
*/
#ifndef ZS_H_INCLUDED
#define ZS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    ZS_OK = 0,
    ZS_ERR = -1,         //  plain failure; the message says why
    ZS_ESTALE = -2,      //  message of another job or an older epoch
    ZS_EPROTO = -3,      //  undecodable or meaningless message
    ZS_ECONFLICT = -4,   //  snapshot id taken by another committer
    ZS_ENOENT = -5,      //  no such thing (no snapshot yet, no checkpoint)
    ZS_ECORRUPT = -6,    //  a file on disk does not decode
    ZS_EFINISHED = -7,   //  commit user already committed INT64_MAX
    ZS_EFILTERED = -8,   //  identifier already committed: nothing to do
    ZS_EMISSING = -9,    //  a data file to commit does not exist / wrong size
    ZS_EUNSURE = -10,    //  done and visible, but a failed fsync after it
                         //  leaves unknown whether it survives a crash
    ZS_ETOOBIG = -11,    //  message larger than ZS_MAX_MSG_SIZE
    ZS_EFRAMES = -12,    //  message of the wrong number of frames
    ZS_EDUPLICATE = -13, //  a data file already in the table (or pending)
    ZS_EREFUSED = -14,   //  not done, by design (the message says why)
};

//  Exit status of a role process that stopped on a condition that may pass
//  (a full disk, an I/O error): restart me, as after a crash. BSD's
//  EX_TEMPFAIL. (0 = done, 1 = failed for good, 2 = bad configuration.)
#define ZS_EXIT_RESTART 75

//  Identifier of the committables flushed at end of input (Paimon's
//  Long.MAX_VALUE end-input checkpoint id).
#define ZS_END_INPUT_ID INT64_MAX

//  Size of an error text buffer passed as (char *err, size_t errlen).
#define ZS_ERRLEN 512

//  Longest path we handle.
#define ZS_PATH_MAX 1024

//  Monotonic and wall clocks, milliseconds.
int64_t zs_clock_mono_ms (void);
int64_t zs_clock_wall_ms (void);
//  The wall clock as the local time zone reads it, as epoch milliseconds
//  (Java's LocalDateTime.now (), the way Paimon's now() and update-time
//  expiry take it).
int64_t zs_clock_local_ms (void);

//  Narrow [*a, *b) to its part without leading or trailing blanks
//  (isspace).
void zs_trim_span (const char **a, const char **b);

//  FNV-1a, 64 bits, of a NUL-terminated text (names and fingerprints, not
//  security).
uint64_t zs_fnv1a (const char *text);
//  The job's 8 hex characters in its writers' data file names
//  (writer/dataname.h): a hash of the whole job id.
void zs_job8 (const char *job_id, char job8[9]);

//  Fill buf (>= 37 bytes) with a fresh random UUID (libuuid).
void zs_uuid (char *buf);

//  Fill buf (>= 33 bytes) with a new job id: 32 hex digits, as Flink's JobID.
void zs_new_job_id (char *buf);

//  Room for `more` bytes after the `len` in use of a growable buffer:
//  returns data itself when *cap_p already holds them, else a buffer
//  realloc'd to the next doubling of *cap_p (first: the capacity of an
//  empty one) with *cap_p updated; NULL when out of memory or the size
//  would overflow, data then untouched.
//  Doubling keeps appends amortised O(1). The byte buffers of the Parquet
//  writer, the Thrift encoder and zs_strbuf_t all grow through it.
void *zs_grow (void *data, size_t *cap_p, size_t len, size_t more, size_t first);

#endif
