/*  datagen.h - the datagen source split across N writers (docs/architecture.md,
    design 5).

    The job's ids are 1, 2, 3 …; writer i of N emits i+1, i+1+N, i+1+2N, …
    Its position is the number of rows it has emitted (its offset): the next
    id is i+1+offset*N, so a replay from a checkpointed offset emits exactly
    the same ids, and zs_row_from_id makes the rows byte-identical.

    Throttling follows the job-wide schedule: at rate R rows/s the job's
    g-th row (0-based) is due g/R seconds after Start. Writer i owns the
    global rows i, i+N, i+2N … of that schedule, so over one second it gets
    floor(R/N) rows plus one when i < R mod N (the remainder goes to the low
    indexes), and a rate below N still moves every writer along.
    This module is pure arithmetic (no clock, no I/O) so it is unit-tested.
*/
#ifndef ZS_DATAGEN_H_INCLUDED
#define ZS_DATAGEN_H_INCLUDED

#include "rowtype.h"
#include "zs.h"

typedef struct {
    int index;              //  this writer, 0 … parallelism-1
    int parallelism;        //  N
    int64_t number_of_rows; //  ids <= this; -1 = unbounded
    int64_t rate;           //  job-wide rows/s; 0 = unthrottled
    int64_t offset;         //  rows this writer has emitted (its position)
} zs_datagen_t;

void zs_datagen_init (zs_datagen_t *self, int index, int parallelism, int64_t number_of_rows,
                      int64_t rate);

//  Id of the row at a given offset of this writer.
int64_t zs_datagen_id_at (const zs_datagen_t *self, int64_t offset);
//  Id of the next row to emit.
int64_t zs_datagen_next_id (const zs_datagen_t *self);
//  True when a bounded source has nothing more for this writer.
bool zs_datagen_exhausted (const zs_datagen_t *self);
//  Rows this writer emits in all (bounded), or -1 (unbounded).
int64_t zs_datagen_total (const zs_datagen_t *self);

//  This writer's rows per second of a job-wide rate (0 stays 0).
int64_t zs_datagen_share (int64_t rate, int parallelism, int index);

//  How many rows this writer may have emitted elapsed_ms after Start
//  (counted from Start, not from offset 0). INT64_MAX when unthrottled.
int64_t zs_datagen_allowed (const zs_datagen_t *self, int64_t elapsed_ms);

//  Milliseconds after Start at which the row number `emitted` (0-based,
//  counted from Start) of this writer is due. 0 when unthrottled.
int64_t zs_datagen_due_ms (const zs_datagen_t *self, int64_t emitted);

//  Bytes behind a generated row's STRING/BYTES values.
#define ZS_DATAGEN_TEXT_MAX 64
typedef struct {
    uint8_t text[ZS_MAX_COLUMNS][ZS_DATAGEN_TEXT_MAX];
    uint64_t fingerprint; //  of the schema role[] was worked out for (0: none)
    uint8_t role[ZS_MAX_COLUMNS];
} zs_datagen_buf_t;

//  Fill row[schema->n] from the id: every column deterministically, so a
//  replay writes the same values (see datagen.c for what each type gets).
//  The id column is the id; other nullable columns are null for about one
//  row in 13; strings include empty, unicode, quotes, commas and newlines.
//  Values point into buf until the next call. buf caches facts about the
//  schema, keyed by its fingerprint (zs_schema_parse sets it); start buf
//  zeroed.
void zs_datagen_row (const zs_schema_t *schema, int64_t id, zs_value_t *row, zs_datagen_buf_t *buf);

#endif
