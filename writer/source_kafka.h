/*  source_kafka.h - the Kafka source's reader in a writer: reads the Kafka
    partitions (splits) the coordinator assigned to this writer, from
    exactly the offsets it was given, with librdkafka (docs/kafka.md).

    Splits. A split is one topic-partition (Zsink__Split with topic,
    partition, id "kafka:<topic>:<partition>"). Its offset is the offset of
    the next record to read: -2 means "earliest" (the partition's first
    offset, resolved by the client when it first fetches), any other value
    >= 0 is exact. stop >= 0 is a bounded run's stopping offset: records at
    offsets >= stop are never returned, and the split is finished once its
    offset reaches stop (also when the offsets up to stop are transaction
    markers or aborted records, which return no row: the reader learns its
    position from the end-of-partition event). stop -1 (or absent):
    unbounded, never finished.

    Exactly once. The state of a split after a row was returned is the
    offset after that row's record; seeking a fresh reader to that state
    returns exactly the rows that followed. Offsets committed to Kafka are
    never read (the checkpoint is the truth); the consumer never commits.
    An offset out of range (deleted by retention) is an error naming the
    partition, unless properties.auto.offset.reset says otherwise.

    Errors. A broker down, a connection lost: not errors (the client
    reconnects; logged at most every 10 s), reading goes on where it was.
    A topic or partition that does not exist (once librdkafka gives up
    waiting for it: topic.metadata.propagation.max.ms, 30 s), a topic or
    cluster authorization refused, an authentication failure or the
    client's fatal error: _next returns -1 naming topic, partition and
    the split's offset.

    Client. One consumer per writer, manual assignment (no group
    membership, no rebalancing), enable.auto.commit false,
    isolation.level read_committed and auto.offset.reset error unless the
    job sets them, group.id the job's or "zsink-reader" (librdkafka wants
    one; nothing is committed to it). Every source.kafka.properties.*
    setting but zsink's own commit.offsets.on.checkpoint is passed to
    librdkafka as given (its names match the Java client's for the usual
    settings; one it does not know, or a bad value, is an error naming it
    at _new). enable.auto.commit, enable.auto.offset.store and
    enable.partition.eof are the reader's, whatever the job sets.

    Records. A record's value is one row in value.format: json, an object
    whose keys name columns (as the file source's JSONL lines), or csv,
    one RFC 4180 record whose fields are the table's columns in order (as
    Flink's csv format). The key, headers and timestamp are not read. A
    value that does not parse (or a null value) follows on-error: fail
    returns -1 naming topic, partition and offset, and the position stays
    before the bad record; skip consumes it and counts it in the split's
    skipped (the first ZS_SOURCE_FILE_SKIP_LOG of a job logged).
*/
#ifndef ZS_SOURCE_KAFKA_H_INCLUDED
#define ZS_SOURCE_KAFKA_H_INCLUDED

#include "config.h"
#include "rowtype.h"
#include "zsink.pb-c.h"

//  _next's "every split finished": not a failure, so not one of zs.h's
//  negative codes.
#ifndef ZS_EOF
#define ZS_EOF 2
#endif

typedef struct _zs_source_kafka_t zs_source_kafka_t;

//  A reader with no split, from the job's configuration (source.kafka.*,
//  table.schema). NULL with err when the client cannot be configured.
zs_source_kafka_t *zs_source_kafka_new (const zs_config_t *cfg, int index, char *err,
                                        size_t errlen);

//  Read exactly these splits from now on, from their states (offset, stop,
//  finished, skipped, rows); any split held before is dropped. 0, or -1
//  with err (a split that is not a Kafka one).
int zs_source_kafka_assign (zs_source_kafka_t *self, Zsink__Split *const *splits, size_t n,
                            char *err, size_t errlen);

//  Read these splits too (new partitions found while running). A split
//  already held is left as it is.
int zs_source_kafka_add (zs_source_kafka_t *self, Zsink__Split *const *splits, size_t n, char *err,
                         size_t errlen);

//  Next row into row[schema->n], never blocking. 1 = a row; 0 = none now
//  (call again later); ZS_EOF = every split finished (bounded runs only:
//  with no stop, never; a reader of a bounded job holding no split is
//  finished too); -1 = a record failed with on-error fail (again at every
//  call), or the client reported an error it cannot recover from (err says
//  which).
//  STRING/BYTES values point into the reader until the next call.
int zs_source_kafka_next (zs_source_kafka_t *self, zs_value_t *row, char *err, size_t errlen);

//  The state of every split held, for a checkpoint (offset, finished,
//  skipped, rows) and for heartbeats (end: the end offset last seen, -1
//  unknown). *out points into the reader, valid until its next call.
size_t zs_source_kafka_splits (zs_source_kafka_t *self, Zsink__Split ***out);

//  Bad records skipped, all splits, all runs.
int64_t zs_source_kafka_skipped (zs_source_kafka_t *self);

void zs_source_kafka_destroy (zs_source_kafka_t **self_p);

#endif
