/*  metrics.c - the coordinator's Prometheus metrics (prom.h), under the
    names Flink's PrometheusReporter gives the JobManager's job metrics and
    the tasks' I/O metrics, so that dashboards made for Flink read them:

      flink_jobmanager_job_numberOfCompletedCheckpoints, …FailedCheckpoints,
      …InProgressCheckpoints, lastCheckpointDuration (ms),
      lastCheckpointSize (bytes), numRestarts, uptime (ms);
      flink_taskmanager_job_task_numRecordsIn / numRecordsOut per writer
      (subtask_index): rows read, and rows in its completed checkpoints;
      zsink_dropped_messages{reason} (zsink's own: no Flink equivalent);
      for a Kafka source, the KafkaSourceReader's currentOffset and
      committedOffset per partition and records-lag-max per writer.
*/
#include "coord.h"
#include "prom.h"
#include <stdio.h>
#include <string.h>

//  The newest completed checkpoint of the history (NULL: none).
static const zs_chk_stat_t *
s_last_completed (coord_t *self)
{
    const zs_chk_stat_t *e =
        self->latest.id ? zs_history_find (self->history, self->latest.id) : NULL;
    return e && e->status == ZS_CHK_COMPLETED ? e : NULL;
}

//  The Kafka source reader's metrics as Flink's KafkaSourceReader reports
//  them: per partition currentOffset and committedOffset (under
//  KafkaSourceReader.topic.<t>.partition.<p>, labels here), and per writer
//  the consumer's records-lag-max.
static void
s_kafka_metrics (FILE *out, coord_t *self, const char *job)
{
    if (!self->kafka)
        return;
    int64_t lag_max[ZS_MAX_WRITERS];
    for (int w = 0; w < self->n; w++)
        lag_max[w] = -1;
    zs_split_view_t v;
    for (size_t k = 0; zs_coord_split_view (self, k, &v) == 0; k++) {
        char labels[512];
        snprintf (labels, sizeof labels,
                  "%s,task_name=\"writer\",subtask_index=\"%d\",topic=\"%s\",partition=\"%d\"", job,
                  v.writer, v.split->topic ? v.split->topic : "", v.split->partition);
        zs_prom_sample (out,
                        "flink_taskmanager_job_task_operator_KafkaSourceReader_topic_partition_"
                        "currentOffset",
                        "gauge", k ? NULL : "offset of the next record to read", labels,
                        (double) v.offset);
        zs_prom_sample (out,
                        "flink_taskmanager_job_task_operator_KafkaSourceReader_topic_partition_"
                        "committedOffset",
                        "gauge", k ? NULL : "offset committed to Kafka for the group (-1: none)",
                        labels, (double) v.committed);
        if (v.writer >= 0 && v.writer < self->n && v.lag > lag_max[v.writer])
            lag_max[v.writer] = v.lag;
    }
    for (int w = 0; w < self->n; w++) {
        char labels[224];
        snprintf (labels, sizeof labels, "%s,task_name=\"writer\",subtask_index=\"%d\"", job, w);
        zs_prom_sample (out,
                        "flink_taskmanager_job_task_operator_KafkaSourceReader_KafkaConsumer_"
                        "records_lag_max",
                        "gauge", w ? NULL : "records behind the end, most of its partitions",
                        labels, (double) (lag_max[w] < 0 ? 0 : lag_max[w]));
    }
}

void
zs_coord_render_metrics (FILE *out, void *arg)
{
    coord_t *self = arg;
    char job[160];
    snprintf (job, sizeof job, "job_id=\"%s\",job_name=\"%s\"", self->meta.job_id,
              self->meta.job_id);
    const zs_chk_stat_t *last = s_last_completed (self);
    zs_prom_metric_t job_metrics[] = {
        {"numberOfCompletedCheckpoints", "gauge", "checkpoints completed by this coordinator",
         (double) self->completed},
        {"numberOfFailedCheckpoints", "gauge", "checkpoints aborted or failed",
         (double) self->aborted},
        {"numberOfInProgressCheckpoints", "gauge", "checkpoints in flight",
         self->inflight_id ? 1.0 : 0.0},
        {"lastCheckpointDuration", "gauge", "ms from trigger to complete",
         last ? (double) last->duration_ms : -1.0},
        {"lastCheckpointSize", "gauge", "bytes of the last chk-N",
         last ? (double) last->bytes : -1.0},
        {"lastCheckpointCommitLatency", "gauge", "ms from complete to its snapshot (zsink)",
         last ? (double) last->commit_ms : -1.0},
        {"numRestarts", "counter", "failovers of the job by this coordinator",
         (double) self->restarts},
        {"attempt", "gauge", "the job's attempt (epoch)", (double) self->meta.epoch},
        {"lastCommittedSnapshot", "gauge", "table snapshot of the last commit (zsink)",
         (double) self->last_snapshot},
        {"numRecordsCommitted", "gauge", "rows in the table's latest snapshot (zsink)",
         (double) self->rows_committed},
    };
    zs_prom_samples (out, "flink_jobmanager_job_", job, job_metrics,
                     sizeof job_metrics / sizeof job_metrics[0]);
    for (int pass = 0; pass < 2; pass++)
        for (int w = 0; w < self->n; w++) {
            char labels[224];
            snprintf (labels, sizeof labels, "%s,task_name=\"writer\",subtask_index=\"%d\"", job,
                      w);
            const slot_t *s = &self->slots[WRITER (w)];
            double out_rows =
                self->latest.id && self->latest.positions && w < self->latest.parallelism
                    ? (double) self->latest.positions[w].offset
                    : 0.0;
            zs_prom_sample (out,
                            pass ? "flink_taskmanager_job_task_numRecordsOut"
                                 : "flink_taskmanager_job_task_numRecordsIn",
                            "counter",
                            w      ? NULL
                            : pass ? "rows in the writer's completed checkpoints"
                                   : "rows the writer read",
                            labels, pass ? out_rows : (double) s->rows_read);
        }
    s_kafka_metrics (out, self, job);
    for (int r = 0; r < ZS_DROP_NREASONS; r++) {
        int64_t n = zs_drops_count (self->drops, r);
        for (int i = 0; i <= self->n; i++)
            n += self->slots[i].dropped[r];
        char labels[224];
        snprintf (labels, sizeof labels, "%s,reason=\"%s\"", job, zs_drop_name (r));
        zs_prom_sample (out, "zsink_dropped_messages", "counter",
                        r ? NULL : "messages dropped by the cluster's sockets, by reason", labels,
                        (double) n);
    }
}
