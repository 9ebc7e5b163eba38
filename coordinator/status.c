/*  status.c - the status document: what zsink status prints (and --json
    shows as is) and what the cluster's progress line reads. The job, its
    progress (progress.h: rows of this job committed, rows/s, percent and
    ETA for a bounded input), the participants, drop counters, the
    checkpoint history and the splits.
*/
#include "coord.h"
#include <stdlib.h>

char *
zs_coord_status_json (coord_t *self)
{
    zs_progress_view_t v;
    zs_progress_view (self->committed, zs_clock_mono_ms (), &v);
    int64_t rows_read = 0, handshakes = 0;
    int64_t dropped[ZS_DROP_NREASONS];
    for (int i = 0; i < ZS_DROP_NREASONS; i++)
        dropped[i] = zs_drops_count (self->drops, i);
    if (self->curve)
        zs_curve_counters (self->curve, &dropped[ZS_DROP_UNAUTHORIZED], &handshakes);
    json_t *parts = json_array ();
    for (int i = 0; i <= self->n; i++) {
        slot_t *s = &self->slots[i];
        char name[32];
        zs_coord_slot_name (self, i, name, sizeof name);
        if (i > 0)
            rows_read += s->rows_read;
        for (int r = 0; r < ZS_DROP_NREASONS; r++)
            dropped[r] += s->dropped[r];
        handshakes += s->refused_handshakes;
        json_array_append_new (
            parts,
            json_pack ("{s:s, s:b, s:i, s:b, s:b, s:I}", "name", name, "registered", s->registered,
                       "pid", s->pid, "ready", s->ready, "finished", s->finished,
                       "last_heard_ms_ago",
                       (json_int_t) (s->registered ? zs_clock_mono_ms () - s->last_heard : -1)));
    }
    //  a writer restarted reports from its restored position: what is
    //  committed was read, whatever the heartbeats say just now
    if (rows_read < v.job_rows)
        rows_read = v.job_rows;
    json_t *drops = json_object ();
    for (int r = 0; r < ZS_DROP_NREASONS; r++)
        json_object_set_new (drops, zs_drop_name (r), json_integer (dropped[r]));
    json_t *root = json_pack (
        "{s:s, s:s, s:s, s:I, s:i, s:I, s:I, s:I, s:I, s:I, s:i, s:{s:I, s:I}, s:o, s:I, s:o}",
        "job_id", self->meta.job_id, "state", zs_coord_state_name (self->state), "commit_user",
        self->meta.commit_user, "epoch", (json_int_t) self->meta.epoch, "parallelism", self->n,
        "last_completed_checkpoint", (json_int_t) self->latest.id, "rows_read",
        (json_int_t) rows_read, "rows_committed", (json_int_t) v.job_rows, "last_snapshot",
        (json_int_t) v.snapshot, "last_committed_identifier", (json_int_t) v.identifier, "restarts",
        self->restarts, "checkpoints", "completed",
        (json_int_t) zs_inflight_completed_count (self->inflight), "aborted",
        (json_int_t) zs_inflight_failed_count (self->inflight), "dropped", drops,
        "refused_handshakes", (json_int_t) handshakes, "participants", parts);
    json_object_set_new (root, "attempt", json_integer (self->meta.epoch));
    json_object_set_new (root, "progress", zs_coord_progress_json (&v));
    json_object_set_new (root, "job_dir", json_string (self->job_dir));
    json_object_set_new (root, "history", zs_history_json (self->history));
    json_object_set_new (root, "source", json_string (self->cfg.source_kind));
    json_object_set_new (root, "splits", zs_coord_splits_json (self));
    char *text = json_dumps (root, JSON_COMPACT);
    json_decref (root);
    return text;
}
