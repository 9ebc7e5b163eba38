/*  metrics.c - the coordinator's Prometheus metrics (prom.h), under the
    names Flink's PrometheusReporter gives the JobManager's job metrics and
    the tasks' I/O metrics, so that dashboards made for Flink read them.
    Every sample is labelled job_id and job_name (pipeline.name, as Flink
    labels a job by its name), and each name has one type, Flink's (a
    Gauge or Meter is a gauge, a Counter a counter):

      flink_jobmanager_job_numberOfCompletedCheckpoints, …FailedCheckpoints,
      …InProgressCheckpoints, totalNumberOfCheckpoints,
      lastCompletedCheckpointId, lastCheckpointDuration (ms),
      lastCheckpointSize (bytes), numRestarts, uptime (ms RUNNING without
      interruption; -1 once the job ended, 0 while not running);
      flink_taskmanager_job_task_numRecordsIn / numRecordsOut per writer
      (subtask_index): rows read, and rows in its completed checkpoints;
      numRecordsInPerSecond: rows read per second, over the last seconds;
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
        char labels[768];
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
        char labels[512];
        snprintf (labels, sizeof labels, "%s,task_name=\"writer\",subtask_index=\"%d\"", job, w);
        zs_prom_sample (out,
                        "flink_taskmanager_job_task_operator_KafkaSourceReader_KafkaConsumer_"
                        "records_lag_max",
                        "gauge", w ? NULL : "records behind the end, most of its partitions",
                        labels, (double) (lag_max[w] < 0 ? 0 : lag_max[w]));
    }
}

//  Flink's uptime: ms since the job last switched to RUNNING while it
//  runs (FINISHING and STOPPING are RUNNING to Flink), -1 once it ended,
//  0 otherwise.
static double
s_uptime (coord_t *self)
{
    if (self->state == J_FINISHED || self->state == J_CANCELED || self->state == J_FAILED)
        return -1;
    if (self->state == J_RUNNING || self->state == J_FINISHING || self->state == J_STOPPING)
        return (double) (zs_clock_mono_ms () - self->running_at);
    return 0;
}

static void
s_job_metrics (FILE *out, coord_t *self, const char *job)
{
    const zs_chk_stat_t *last = s_last_completed (self);
    zs_progress_view_t v;
    zs_progress_view (self->committed, zs_clock_mono_ms (), &v);
    zs_prom_metric_t m[] = {
        {"numberOfCompletedCheckpoints", "gauge", "checkpoints completed by this coordinator",
         (double) zs_inflight_completed_count (self->inflight)},
        {"numberOfFailedCheckpoints", "gauge", "checkpoints aborted or failed",
         (double) zs_inflight_failed_count (self->inflight)},
        {"numberOfInProgressCheckpoints", "gauge", "checkpoints in flight",
         zs_inflight_id (self->inflight) ? 1.0 : 0.0},
        {"totalNumberOfCheckpoints", "gauge", "checkpoints triggered by this coordinator",
         (double) zs_inflight_total_count (self->inflight)},
        {"lastCompletedCheckpointId", "gauge", "id of the last completed checkpoint (0: none)",
         (double) self->latest.id},
        {"lastCheckpointDuration", "gauge", "ms from trigger to complete",
         last ? (double) last->duration_ms : -1.0},
        {"lastCheckpointSize", "gauge", "bytes of the last chk-N",
         last ? (double) last->bytes : -1.0},
        {"lastCheckpointCommitLatency", "gauge", "ms from complete to its snapshot (zsink)",
         last ? (double) last->commit_ms : -1.0},
        {"numRestarts", "gauge", "failovers of the job by this coordinator",
         (double) self->restarts},
        {"uptime", "gauge", "ms the job has been running without interruption (-1: ended)",
         s_uptime (self)},
        {"attempt", "gauge", "the job's attempt (epoch)", (double) self->meta.epoch},
        {"lastCommittedSnapshot", "gauge", "table snapshot of the last commit (zsink)",
         (double) v.snapshot},
        {"numRecordsCommitted", "gauge", "rows of this job committed (zsink)", (double) v.job_rows},
    };
    zs_prom_samples (out, "flink_jobmanager_job_", job, m, sizeof m / sizeof m[0]);
}

//  Per writer: numRecordsIn (read), numRecordsOut (in its completed
//  checkpoints), numRecordsInPerSecond.
static void
s_task_metrics (FILE *out, coord_t *self, const char *job)
{
    static const char *names[] = {"flink_taskmanager_job_task_numRecordsIn",
                                  "flink_taskmanager_job_task_numRecordsOut",
                                  "flink_taskmanager_job_task_numRecordsInPerSecond"};
    static const char *types[] = {"counter", "counter", "gauge"};
    static const char *helps[] = {"rows the writer read",
                                  "rows in the writer's completed checkpoints",
                                  "rows the writer read per second, lately"};
    for (int pass = 0; pass < 3; pass++)
        for (int w = 0; w < self->n; w++) {
            char labels[512];
            snprintf (labels, sizeof labels, "%s,task_name=\"writer\",subtask_index=\"%d\"", job,
                      w);
            const slot_t *s = &self->slots[WRITER (w)];
            double value = pass == 0 ? (double) s->rows_read : pass == 2 ? s->rate : 0.0;
            if (pass == 1 && self->latest.id && self->latest.positions
                && w < self->latest.parallelism)
                value = (double) self->latest.positions[w].offset;
            zs_prom_sample (out, names[pass], types[pass], w ? NULL : helps[pass], labels, value);
        }
}

void
zs_coord_render_metrics (FILE *out, void *arg)
{
    coord_t *self = arg;
    char job[320];
    snprintf (job, sizeof job, "job_id=\"%s\",job_name=\"%s\"", self->meta.job_id,
              zs_coord_job_name (self));
    s_job_metrics (out, self, job);
    s_task_metrics (out, self, job);
    s_kafka_metrics (out, self, job);
    for (int r = 0; r < ZS_DROP_NREASONS; r++) {
        int64_t n = zs_drops_count (self->drops, r);
        for (int i = 0; i <= self->n; i++)
            n += self->slots[i].dropped[r];
        char labels[448];
        snprintf (labels, sizeof labels, "%s,reason=\"%s\"", job, zs_drop_name (r));
        zs_prom_sample (out, "zsink_dropped_messages", "counter",
                        r ? NULL : "messages dropped by the cluster's sockets, by reason", labels,
                        (double) n);
    }
}

const char *
zs_coord_job_name (coord_t *self)
{
    return *self->cfg.pipeline_name ? self->cfg.pipeline_name : "zsink";
}
