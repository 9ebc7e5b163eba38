/*  kafka_enum.h - the Kafka source's enumerator in the coordinator
    (Flink's KafkaSourceEnumerator): finds the topic-partitions, resolves
    where each starts and, for a bounded run, where it stops, and commits
    the offsets of completed checkpoints back to Kafka for the group
    (docs/kafka.md).

    Every call that talks to Kafka runs in the enumerator's own thread (a
    czmq actor with its own librdkafka handle), so a slow or absent broker
    never stalls the coordinator's loop: a request returns at once, and its
    answer arrives later on zs_kafka_enum_sock, read with
    zs_kafka_enum_recv. A request that fails (broker unreachable, topic
    missing) answers with an error text; the coordinator decides whether to
    ask again.

    Start offsets (source.kafka.scan.startup.mode), for partitions not in
    a checkpoint: earliest-offset -2 (left to the reader: the first offset
    when it fetches); latest-offset the partition's end offset now;
    group-offsets the group's committed offset (none committed:
    properties.auto.offset.reset earliest/latest, else an error naming the
    partition); timestamp the first offset at or after the time (none: the
    end offset); specific-offsets the offset given for the partition, the
    group's committed one for others, else -2 (as Flink; -2 also with no
    group.id). Offsets are resolved to numbers once, when the partition is
    first found, so a restart before the first checkpoint does not move
    them.

    Stop offsets (source.kafka.scan.bounded.mode), for every split, asked
    when a job starts (also a restored one): unbounded -1; latest-offset
    the end offset now (the last stable offset under read_committed);
    group-offsets the committed offset (none: an error naming the
    partition, as Flink's committedOffsets() for a stop); timestamp the
    first offset at or after the time (none: the end offset);
    specific-offsets as given (-1 for others).
*/
#ifndef ZS_KAFKA_ENUM_H_INCLUDED
#define ZS_KAFKA_ENUM_H_INCLUDED

#include "config.h"
#include "zsink.pb-c.h"
#include <czmq.h>

typedef struct _zs_kafka_enum_t zs_kafka_enum_t;

//  Answers on the socket.
typedef enum {
    ZS_KAFKA_SPLITS,    //  to _discover: the splits found that were not known
    ZS_KAFKA_STOPS,     //  to _stops: the splits given, with stop set
    ZS_KAFKA_COMMITTED, //  to _commit: the offsets are committed (or err)
} zs_kafka_answer_t;

//  An enumerator for the job's source.kafka.* settings. NULL with err when
//  the client cannot be configured or topic-pattern is not a valid regex.
zs_kafka_enum_t *zs_kafka_enum_new (const zs_config_t *cfg, char *err, size_t errlen);
//  Waits for the request under way, if any (with no broker: its timeout,
//  10 s for each call to Kafka it makes).
void zs_kafka_enum_destroy (zs_kafka_enum_t **self_p);

//  Readable when an answer waits: add it to the coordinator's poller.
zsock_t *zs_kafka_enum_sock (zs_kafka_enum_t *self);

//  Find the topic-partitions of topic (or topic-pattern) now. The answer
//  (ZS_KAFKA_SPLITS) holds one split for each partition not among the
//  known ids, its offset resolved as above and its stop as the bounded
//  mode says, in (topic, partition) order. A topic of `topic` that does
//  not exist is an error; a pattern matching nothing answers no split.
int zs_kafka_enum_discover (zs_kafka_enum_t *self, const char *const *known_ids, size_t n_known);

//  Resolve the stop offsets of these splits (answer: ZS_KAFKA_STOPS).
int zs_kafka_enum_stops (zs_kafka_enum_t *self, Zsink__Split *const *splits, size_t n);

//  Commit these splits' offsets for the group (answer: ZS_KAFKA_COMMITTED).
//  Splits at -2 (nothing read; any offset < 0) are left out. Without
//  properties.group.id an error (as Flink, commit only with a group). A
//  commit that timed out may still reach the broker later; commits keep
//  their order, so a later one still wins.
int zs_kafka_enum_commit (zs_kafka_enum_t *self, Zsink__Split *const *splits, size_t n);

//  Take the answer that waits (none waits: -1 at once, never blocks).
//  *splits (malloc'd array of splits, each unpacked on its own: free all
//  with zs_kafka_splits_free, or keep one and free it with
//  zsink__split__free_unpacked) and *n are set for SPLITS and STOPS;
//  *splits is NULL when *n is 0. 0, or -1 with err: the request failed
//  (err says why and which).
int zs_kafka_enum_recv (zs_kafka_enum_t *self, zs_kafka_answer_t *kind, Zsink__Split ***splits,
                        size_t *n, char *err, size_t errlen);
void zs_kafka_splits_free (Zsink__Split ***splits, size_t n);

//  The writer that reads a partition when there are n writers: Flink's
//  KafkaSourceEnumerator.getSplitOwner, ((hash(topic) * 31) & 0x7FFFFFFF)
//  % n + partition, mod n, with hash Java's String.hashCode of the topic
//  (its UTF-16 code units; for the ASCII names Kafka allows, its bytes).
//  Deterministic, so a restore deals the same way. -1 for n <= 0 or a
//  negative partition.
int zs_kafka_owner (const char *topic, int partition, int n);

#endif
