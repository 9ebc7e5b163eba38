/*  source.h - a writer's source, as the splits it holds (docs/decisions.md,
    "Splits"): datagen, the file source or Kafka.

    A split is a part of the source that one writer reads at a time, with
    an exact position (Zsink__Split, proto/zsink.proto). The writer acks a
    checkpoint with the state of every split it holds; the coordinator
    keeps the states of all of them, and a restore deals them out over the
    writers it starts with. So a job restored onto another parallelism reads
    every row exactly once: no position belongs to a writer.

        datagen  "datagen:<i>/<count>": the ids i+1, i+1+count, …; its
                 offset is the number of rows emitted from it. A job's
                 first start makes as many splits as writers (writer i
                 takes split i), as Flink's NumberSequenceSource: a job
                 restored onto more writers leaves the extra ones idle.
        file     "file:<name>": one input file, its position (offset, line,
                 skipped) as source_file.h says. A first start lists the
                 input; writer i takes the files k with k % parallelism == i.
        kafka    "kafka:<topic>:<partition>" (source_kafka.h); the
                 coordinator always deals these.

    A writer holding several splits reads them in turn: datagen splits one
    row each, round robin; file splits one file after the other, in name
    order; Kafka as the records come. A bounded source ends for a writer
    when every split it holds is finished (a writer with none ends at once);
    an unbounded one never ends, and a writer without splits just idles.
*/
#ifndef ZS_SOURCE_H_INCLUDED
#define ZS_SOURCE_H_INCLUDED

#include "config.h"
#include "rowtype.h"
#include "zsink.pb-c.h"

typedef struct _zs_source_t zs_source_t;

//  The source of source.kind for writer index of parallelism, holding no
//  split yet. NULL with err.
zs_source_t *zs_source_new (const zs_config_t *cfg, int index, int parallelism, char *err,
                            size_t errlen);
void zs_source_destroy (zs_source_t **self_p);

//  Take the splits of a Reset, dropping any held:
//  - assigned: exactly splits[0..n), as the coordinator dealt them;
//  - not assigned (a start from scratch): this writer's own share, and if
//    legacy is given (a checkpoint written before splits, restored onto
//    the parallelism it was taken with) the share at that position.
//  0; -1 with err (a file gone or changed, a bad split: a restart may
//  help); ZS_EREFUSED with err when none can (the file source's input is
//  not there or matches no file).
int zs_source_reset (zs_source_t *self, Zsink__Split *const *splits, size_t n, bool assigned,
                     const Zsink__SourcePosition *legacy, char *err, size_t errlen);

//  Read these splits too (AddSplits); one already held is left as it is.
int zs_source_add (zs_source_t *self, Zsink__Split *const *splits, size_t n, char *err,
                   size_t errlen);

//  The next row into row[schema->n], *id its datagen id (0 for others).
//  1 = a row; 0 = none now (an unbounded source waiting); ZS_SOURCE_END =
//  every split held is finished (bounded sources; again on later calls);
//  -1 = a bad record with on-error fail, or an I/O or client error (err).
//  STRING/BYTES values point into the source until the next call.
#define ZS_SOURCE_END 2
int zs_source_next (zs_source_t *self, zs_value_t *row, int64_t *id, char *err, size_t errlen);

//  The state of every split held, in id order, for an ack (and, with
//  ends, for a heartbeat). *out points into the source until its next call.
size_t zs_source_splits (zs_source_t *self, Zsink__Split ***out);

//  Rows read from the splits held, all runs together (their rows summed).
int64_t zs_source_rows (zs_source_t *self);
//  Bad records skipped in the splits held (on-error skip).
int64_t zs_source_skipped (zs_source_t *self);
//  The rows per second this writer may read (its splits' shares of the
//  job's rate), 0 = unthrottled.
int64_t zs_source_rate (zs_source_t *self);
//  Number of splits held, and of those finished.
size_t zs_source_count (zs_source_t *self, size_t *finished);

#endif
