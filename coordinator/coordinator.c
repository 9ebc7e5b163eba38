/*  coordinator.c - zsink-coordinator: job master and checkpoint coordinator.

    Invariants (numbers are referred to in comments below):
    1. Checkpoint ids only grow: an id is reserved in job.json before a
       barrier carrying it is sent (a block of ZS_CHECKPOINT_ID_BLOCK ids
       per write; a restarted coordinator starts past the block), so no id
       is reused across failovers or coordinator restarts; aborted ids are
       skipped.
    2. The epoch only grows: persisted before any message of a new epoch is
       sent. Messages of other epochs or jobs are dropped and counted.
    3. A checkpoint completes only with an ack from every writer AND the
       committer (the committer acks only after every writer's marker), and
       chk-N is durable (atomic write) before Notify(N) is sent.
    4. At most one checkpoint is in flight.
    5. Restore resets the committer first and the writers only after the
       committer is Ready: a writer deletes its files written after the
       restored checkpoint, and none of those can be committed once the
       committer has dropped its in-memory state. The committer is reset
       only once every slot is registered, and its Reset names each
       writer's routing id: the committer takes data from those
       connections alone, and any change of a slot fails the epoch over.
    6. The commit user is made once per job (or carried over by
       --restore-from) and handed to the committer in every Reset.
    7. Newest wins: once another process has registered in a slot, the
       process that held it is refused for good (Refused "superseded…", and
       it exits), so a partitioned old process that heals cannot take its
       slot back from its replacement.
    8. Messages are believed only from the connection (routing id) that
       registered a slot; from any other they are dropped and counted
       (unregistered), whatever job, epoch or sender they claim.

    Job states (docs/protocol.md, "Job states"). A state has one name, the
    one logged ("Job J switched from state A to B") and shown by zsink
    status (s_state_names); each transition is made by one function:

        CREATED → RESTORING         s_restore: every slot registered (s_on_register)
        RESTARTING → RESTORING      s_restore: the restart delay passed (s_tick_restart)
        RESTORING → RUNNING         s_start: every participant Ready (s_on_ready)
        RUNNING → FINISHING         s_finishing: every writer Finished and
                                    checkpointing on (s_on_finished)
        RUNNING → STOPPING          s_stopping: stop with a savepoint (s_on_client)
        STOPPING → FINISHED         s_stop_done: the savepoint committed, or
                                    waited for long enough (status STOPPED)
        active → FINISHED           s_finish: Committed(INT64_MAX) (s_on_committed),
                                    or the committer Ready with it (s_on_ready)
        CREATED, active → RESTARTING  s_fail: a Failure, a participant lost or
                                    replaced, too many failed checkpoints; a
                                    new epoch, and a restore after the delay
        CREATED, active → FAILED    s_fail_for_good, from s_fail: the restart
                                    attempts are spent
        not ended → CANCELED        s_cancel: zsink cancel, or stop without a
                                    savepoint (s_on_client)

    active = RESTORING, RUNNING, FINISHING, STOPPING (s_active). FINISHED,
    CANCELED and FAILED end the job (s_end): Shutdown to all, and the
    process exits once every participant said Bye (or after 2 s).
*/
#include "coordinator.h"
#include "coord.h"
#include "codec.h"
#include "config.h"
#include "events.h"
#include "failpoint.h"
#include "fs.h"
#include "log.h"
#include "net.h"
#include "participant.h" //  ZS_SUPERSEDED_REASON
#include "table.h"
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  By job_state_t: what Flink prints, so logs and tests read the same.
static const char *s_state_names[] = {"CREATED",   "RESTORING", "RUNNING",
                                      "FINISHING", "STOPPING",  "RESTARTING",
                                      "FINISHED",  "CANCELED",  "FAILED"};

static bool
s_active (coord_t *self)
{
    return self->state == J_RESTORING || self->state == J_RUNNING || self->state == J_FINISHING
           || self->state == J_STOPPING;
}

static const char *
s_slot_name (coord_t *self, int slot, char *buf, size_t len)
{
    if (slot == COMMITTER)
        snprintf (buf, len, "committer");
    else
        snprintf (buf, len, "writer-%d", slot - 1);
    return buf;
}

const char *
zs_coord_state_name (job_state_t state)
{
    return s_state_names[state];
}

const char *
zs_coord_slot_name (coord_t *self, int slot, char *buf, size_t len)
{
    return s_slot_name (self, slot, buf, len);
}

static void
s_set_state (coord_t *self, job_state_t state, const char *why)
{
    if (self->state == state)
        return;
    if (why)
        zs_info ("Job %s switched from state %s to %s: %s", self->meta.job_id,
                 s_state_names[self->state], s_state_names[state], why);
    else
        zs_info ("Job %s switched from state %s to %s.", self->meta.job_id,
                 s_state_names[self->state], s_state_names[state]);
    self->state = state;
    char text[256];
    zs_event ("state", "\"state\":\"%s\",\"epoch\":%lld,\"why\":\"%s\"", s_state_names[state],
              (long long) self->meta.epoch, zs_event_str (why ? why : "", text, sizeof text));
}

//  ---------------------------------------------------------------------
//  Sending

static void
s_send (coord_t *self, int slot, zs_env_t *env)
{
    slot_t *s = &self->slots[slot];
    if (!s->registered)
        return;
    zs_env_stamp (env, &self->from, ++s->seq);
    //  EHOSTUNREACH: the peer is gone; liveness will notice. Nothing else to
    //  do here: delivery is only ever proven by the peer's reply.
    zs_env_send (self->router, s->rid, env);
}

//  The same message to every registered slot from first on (COMMITTER: the
//  committer and the writers; WRITER (0): the writers), each stamped with
//  that pipe's sequence number.
static void
s_send_all (coord_t *self, int first, zs_msg_t *m)
{
    for (int i = first; i <= self->n; i++)
        s_send (self, i, &m->env);
}

static void
s_send_to_rid (coord_t *self, const char *rid, zs_env_t *env)
{
    zs_env_stamp (env, &self->from, 1);
    zs_env_send (self->router, rid, env);
}

static void
s_send_refused (coord_t *self, const char *rid, const char *reason)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_REFUSED);
    m.body.refused.reason = (char *) reason;
    s_send_to_rid (self, rid, &m.env);
}

//  last_checkpoint >= 0: the job ends CANCELED or FAILED at that checkpoint,
//  0 when none completed (writers delete their files written after it, the
//  committer those of its pending checkpoints after it); -1: finished.
static void
s_send_shutdown (coord_t *self, const char *reason, int64_t last_checkpoint)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_SHUTDOWN);
    m.body.shutdown.reason = (char *) reason;
    m.body.shutdown.has_last_checkpoint = last_checkpoint >= 0;
    m.body.shutdown.last_checkpoint = last_checkpoint;
    s_send_all (self, COMMITTER, &m);
}

static void
s_send_heartbeats (coord_t *self)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_HEARTBEAT);
    s_send_all (self, COMMITTER, &m);
}

static void
s_send_barriers (coord_t *self, int64_t id, bool savepoint)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_BARRIER);
    m.body.barrier.checkpoint_id = id;
    m.body.barrier.has_savepoint = savepoint;
    m.body.barrier.savepoint = savepoint;
    s_send_all (self, WRITER (0), &m);
}

static void
s_send_notify (coord_t *self, int64_t id)
{
    if (zs_failpoint ("coordinator.notify") == 1) {
        zs_warn ("failpoint coordinator.notify: dropping Notify(%lld)", (long long) id);
        return;
    }
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_NOTIFY);
    m.body.notify.checkpoint_id = id;
    s_send (self, COMMITTER, &m.env);
    zs_event ("notify", "\"id\":%lld", (long long) id);
}

static void
s_send_start (coord_t *self)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_START);
    s_send_all (self, COMMITTER, &m);
}

static void
s_client_reply (coord_t *self, const char *rid, bool ok, const char *json)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_CLIENT_REPLY);
    m.body.client_reply.ok = ok;
    m.body.client_reply.json = (char *) json;
    s_send_to_rid (self, rid, &m.env);
}

//  ---------------------------------------------------------------------
//  Ending the job: FINISHED, CANCELED, FAILED

static void s_abort_checkpoint (coord_t *self, const char *why);

static void
s_end (coord_t *self, job_state_t state, const char *status, const char *reason, int code)
{
    //  No checkpoint completes after this: the one in flight goes, so that
    //  a job CANCELED or FAILED ends at its latest completed checkpoint and
    //  the files written after it are no restore's (the writers delete them).
    s_abort_checkpoint (self, "aborted: job ending");
    s_set_state (self, state, NULL);
    snprintf (self->meta.status, sizeof self->meta.status, "%s", status);
    zs_progress_view_t v;
    zs_progress_view (self->committed, zs_clock_mono_ms (), &v);
    self->meta.rows_committed = v.job_rows;
    self->meta.last_snapshot = v.snapshot;
    self->meta.table_rows = v.table_rows;
    self->meta.running_ms = v.running_ms;
    zs_coord_persist_meta (self);
    s_send_shutdown (self, reason, state == J_FINISHED ? -1 : self->latest.id);
    zs_ending_decided (self->ending, code, zs_clock_mono_ms ());
}

//  active → FINISHED: end of input is committed.
static void
s_finish (coord_t *self)
{
    s_end (self, J_FINISHED, "FINISHED", "finished", 0);
}

//  not ended → CANCELED (zsink cancel; zsink stop without a savepoint).
static void
s_cancel (coord_t *self, const char *reason)
{
    s_end (self, J_CANCELED, "CANCELED", reason, 0);
}

//  CREATED or active → FAILED: no restart attempt left.
static void
s_fail_for_good (coord_t *self, const char *reason)
{
    char why[512];
    snprintf (why, sizeof why,
              "%s Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy"
              "(maxNumberRestartAttempts=%d, backoffTimeMS=%lld)",
              reason, self->cfg.restart_attempts, (long long) self->cfg.restart_delay_ms);
    zs_error ("Job %s failed for good: %s", self->meta.job_id, why);
    s_end (self, J_FAILED, "FAILED", "job failed", 1);
}

//  CREATED or active → FAILED at once: a participant says no restart can
//  help (a start-up certainty, e.g. the source's input is not there).
//  Exit status 2, as for a bad configuration.
static void
s_fail_unrecoverable (coord_t *self, const char *reason)
{
    zs_error ("Job %s cannot run: %s (no restart can help)", self->meta.job_id, reason);
    s_end (self, J_FAILED, "FAILED", "job failed", 2);
}

//  STOPPING → FINISHED: the savepoint is complete (and committed, or waited
//  for long enough): answer the client and end the job.
static void
s_stop_done (coord_t *self)
{
    char path[2 * ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/chk-%lld", self->job_dir,
              (long long) zs_ending_savepoint (self->ending));
    json_t *reply = json_pack ("{s:s, s:s}", "savepoint", path, "job_id", self->meta.job_id);
    char *msg = json_dumps (reply, JSON_COMPACT);
    json_decref (reply);
    s_client_reply (self, zs_ending_client (self->ending), true, msg);
    free (msg);
    zs_info ("Job %s stopped with savepoint %s", self->meta.job_id, path);
    zs_ending_stop_over (self->ending);
    s_end (self, J_FINISHED, "STOPPED", "stopped with savepoint", 0);
}

//  ---------------------------------------------------------------------
//  Checkpoints

//  The checkpoint in flight will not complete: in the history as FAILED,
//  an event, and nobody's ack counts any more. The caller says how it
//  ends (zs_inflight_aborted or _failed).
static void
s_drop_checkpoint (coord_t *self, zs_log_level_t level, const char *why)
{
    int64_t id = zs_inflight_id (self->inflight);
    zs_log (level, "Checkpoint %lld of job %s %s.", (long long) id, self->meta.job_id, why);
    zs_history_failed (self->history, id, why);
    char text[256];
    zs_event ("abort", "\"id\":%lld,\"why\":\"%s\"", (long long) id,
              zs_event_str (why, text, sizeof text));
    for (int i = 0; i <= self->n; i++)
        self->slots[i].acked = false;
}

//  The checkpoint in flight is aborted: not its own failure but the job's
//  (a failover, the end, a cancel), which say so themselves: INFO.
static void
s_abort_checkpoint (coord_t *self, const char *why)
{
    if (!zs_inflight_id (self->inflight))
        return;
    s_drop_checkpoint (self, ZS_LOG_INFO, why);
    zs_inflight_aborted (self->inflight);
}

static void s_fail (coord_t *self, const char *reason);

static void
s_trigger (coord_t *self, bool savepoint)
{
    int64_t id = self->next_id++;
    //  Invariant 1: the id is reserved durably before it leaves us.
    if (id >= self->meta.next_checkpoint_id) {
        self->meta.next_checkpoint_id = id + ZS_CHECKPOINT_ID_BLOCK;
        zs_coord_persist_meta (self);
    }
    zs_inflight_begin (self->inflight, id, savepoint, zs_clock_mono_ms ());
    for (int i = 0; i <= self->n; i++)
        self->slots[i].acked = false;
    zs_info ("Triggering %s %lld @ %lld for job %s.", savepoint ? "savepoint" : "checkpoint",
             (long long) id, (long long) zs_clock_wall_ms (), self->meta.job_id);
    s_send_barriers (self, id, savepoint);
    zs_history_add (self->history, id, self->meta.epoch, savepoint, self->n + 1);
    zs_event ("trigger", "\"id\":%lld,\"epoch\":%lld,\"savepoint\":%s", (long long) id,
              (long long) self->meta.epoch, savepoint ? "true" : "false");
    zs_history_save (self->history);
}

//  The checkpoint in flight, every ack in, as a zs_chk_t that owns its
//  strings and takes over the committer's state.
static void
s_inflight_chk (coord_t *self, zs_chk_t *chk)
{
    Zsink__SourcePosition positions[ZS_MAX_WRITERS];
    for (int i = 0; i < self->n; i++)
        positions[i] = self->slots[WRITER (i)].pos;
    zs_inflight_take_chk (self->inflight, self->meta.job_id, self->n, positions, self->splits, chk);
}

//  chk-N could not be written: the checkpoint failed, which is tolerated
//  a number of times in a row.
static void
s_chk_write_failed (coord_t *self, zs_chk_t *chk, const char *err)
{
    bool permanent = zs_fs_failed_for_good ();
    zs_error ("cannot write checkpoint %lld: %s", (long long) chk->id, err);
    zs_history_failed (self->history, chk->id, err);
    if (permanent) {
        //  No permission, a read-only disk: no restart changes that.
        char why[ZS_ERRLEN + 64];
        snprintf (why, sizeof why, "state.checkpoints.dir: cannot write checkpoint %lld: %s",
                  (long long) chk->id, err);
        zs_chk_clear (chk);
        zs_inflight_failed (self->inflight);
        s_fail_unrecoverable (self, why);
        return;
    }
    zs_chk_clear (chk);
    if (zs_inflight_failed (self->inflight) > self->cfg.tolerable_failed_checkpoints)
        s_fail (self, "Exceeded checkpoint tolerable failure threshold.");
}

//  The next periodic checkpoint: min-pause after this one completed, and
//  an interval after it started.
static void
s_schedule_next (coord_t *self)
{
    int64_t now = zs_clock_mono_ms ();
    self->next_trigger_at = now + self->cfg.checkpoint_min_pause_ms;
    int64_t started = zs_inflight_started (self->inflight);
    if (self->next_trigger_at < started + self->cfg.checkpoint_interval_ms)
        self->next_trigger_at = started + self->cfg.checkpoint_interval_ms;
}

//  The history entry of a completed checkpoint: its duration, size and
//  the data files the committer holds for its id.
static void
s_history_completed (coord_t *self, const zs_chk_t *chk, int64_t bytes, int64_t took)
{
    zs_chk_stat_t *e = zs_history_find (self->history, chk->id);
    if (!e)
        return;
    e->status = ZS_CHK_COMPLETED;
    e->duration_ms = took;
    e->acked = e->expected;
    e->bytes = bytes;
    e->completed_mono = zs_clock_mono_ms ();
    e->committables = 0;
    for (size_t i = 0; chk->state && i < chk->state->n_pending; i++)
        if (chk->state->pending[i]->identifier == chk->id)
            for (size_t k = 0; k < chk->state->pending[i]->n_committables; k++)
                e->committables += (int64_t) chk->state->pending[i]->committables[k]->n_files;
    zs_history_save (self->history);
}

static void
s_complete_checkpoint (coord_t *self)
{
    zs_chk_t chk;
    s_inflight_chk (self, &chk);
    char err[ZS_ERRLEN];
    int64_t bytes = 0;
    //  Invariant 3: durable before Notify.
    errno = 0; //  s_chk_write_failed tells a permanent cause by it
    zs_fs_clear_failure ();
    if (zs_chk_write (self->job_dir, &chk, &bytes, err, sizeof err) < 0) {
        s_chk_write_failed (self, &chk, err);
        return;
    }
    int64_t took = zs_clock_mono_ms () - zs_inflight_started (self->inflight);
    zs_info ("Completed checkpoint %lld for job %s (%lld bytes, %lld ms).", (long long) chk.id,
             self->meta.job_id, (long long) bytes, (long long) took);
    zs_event ("complete", "\"id\":%lld,\"ms\":%lld,\"bytes\":%lld", (long long) chk.id,
              (long long) took, (long long) bytes);
    zs_chk_clear (&self->latest);
    self->latest = chk;
    for (size_t i = 0; i < chk.n_splits; i++)
        zs_splits_put (self->splits, chk.splits[i]);
    zs_inflight_completed (self->inflight);
    //  Once every writer reached the end of its input, a checkpoint holds
    //  no rows of theirs: what they read after their last barrier goes in
    //  the end-of-input commit. Its commit says the rows of the one before
    //  (not the splits' totals, which only the end of input commits).
    if (self->state != J_FINISHING)
        zs_progress_checkpoint (self->committed, chk.id, zs_coord_chk_rows (&chk));
    zs_failpoint ("coordinator.after-checkpoint-write");
    //  The commit waits on nothing else: the history file and the pruning
    //  of old checkpoints come after the Notify.
    s_send_notify (self, chk.id);
    zs_failpoint ("coordinator.after-notify");
    s_history_completed (self, &self->latest, bytes, took);
    zs_chk_prune (self->job_dir, self->cfg.checkpoints_num_retained);
    if (chk.savepoint && zs_ending_stopping (self->ending)) {
        zs_ending_savepoint_done (self->ending, chk.id, zs_clock_mono_ms ());
        zs_info ("Savepoint stored in %s/chk-%lld; waiting for its commit.", self->job_dir,
                 (long long) chk.id);
    }
    s_schedule_next (self);
}

static void
s_check_checkpoint (coord_t *self)
{
    if (!zs_inflight_id (self->inflight))
        return;
    for (int i = 0; i <= self->n; i++)
        if (!self->slots[i].acked)
            return;
    s_complete_checkpoint (self);
}

//  ---------------------------------------------------------------------
//  Failover and restore

//  Invariant 2: a new epoch, durable before any message carries it; every
//  participant starts it anew (Reset, Ready, sequence numbers).
static void
s_new_epoch (coord_t *self)
{
    self->meta.epoch++;
    self->from.epoch = self->meta.epoch;
    zs_coord_persist_meta (self);
    for (int i = 0; i <= self->n; i++) {
        slot_t *s = &self->slots[i];
        s->ready = s->reset_sent = s->finished = s->acked = false;
        s->seq = 0;
    }
}

//  CREATED or active → RESTARTING (→ RESTORING after the restart delay),
//  or FAILED when no restart attempt is left.
static void
s_fail (coord_t *self, const char *reason)
{
    if (!s_active (self) && self->state != J_CREATED)
        return; //  already restarting or ended
    s_abort_checkpoint (self, "aborted: job failover");
    if (zs_ending_stopping (self->ending)) {
        s_client_reply (self, zs_ending_client (self->ending), false,
                        "{\"error\":\"the job failed while stopping; it restarts\"}");
        zs_ending_stop_over (self->ending);
    }
    self->restarts++;
    if (self->restarts > self->cfg.restart_attempts) {
        s_fail_for_good (self, reason);
        return;
    }
    s_set_state (self, J_RESTARTING, reason);
    s_new_epoch (self);
    self->final_checkpoint_needed = false;
    self->restore_at = zs_clock_mono_ms () + self->cfg.restart_delay_ms;
}

static void
s_send_reset (coord_t *self, int slot)
{
    slot_t *s = &self->slots[slot];
    if (!s->registered || s->reset_sent)
        return;
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_RESET);
    Zsink__Reset *reset = &m.body.reset;
    reset->restore_id = self->latest.id;
    reset->commit_user = self->meta.commit_user;
    reset->has_fail_at_id_armed = true;
    reset->fail_at_id_armed = !self->meta.fail_at_id_fired;
    Zsink__CommitterState empty;
    char **writer_ids = NULL;
    Zsink__Split **splits = NULL;
    if (slot == COMMITTER) {
        zsink__committer_state__init (&empty);
        empty.commit_user = self->meta.commit_user;
        reset->state = self->latest.id ? self->latest.state : &empty;
        //  invariant 5: the writers' connections of this epoch
        writer_ids = calloc ((size_t) self->n, sizeof *writer_ids);
        if (!writer_ids) {
            s_fail (self, "out of memory building the committer's Reset");
            return;
        }
        for (int i = 0; i < self->n; i++)
            writer_ids[i] = self->slots[WRITER (i)].rid;
        reset->n_writer_ids = (size_t) self->n;
        reset->writer_ids = writer_ids;
    } else if (self->latest.id && self->latest.legacy)
        reset->position = &self->latest.positions[slot - 1];
    else if (zs_splits_count (self->splits) || strcmp (self->cfg.source_kind, "kafka") == 0) {
        //  dealt by the coordinator (splits.h); else a first start, where
        //  each writer takes its own share
        reset->has_assigned = reset->assigned = true;
        reset->n_splits = zs_splits_of (self->splits, slot - 1, self->n, &splits);
        reset->splits = splits;
        if (!splits) {
            s_fail (self, "out of memory dealing the splits");
            return;
        }
    }
    s_send (self, slot, &m.env);
    free (writer_ids);
    free (splits);
    s->reset_sent = true;
}

//  The next step of a restore (invariant 5): the committer's Reset once
//  every slot is registered, the writers' once the committer is Ready.
static void
s_restore_step (coord_t *self)
{
    for (int i = 0; i <= self->n; i++)
        if (!self->slots[i].registered)
            return; //  the missing ones register (restarted), then we go on
    if (!self->slots[COMMITTER].reset_sent)
        s_send_reset (self, COMMITTER);
    else if (self->slots[COMMITTER].ready && zs_coord_splits_ready (self))
        for (int i = 0; i < self->n; i++)
            s_send_reset (self, WRITER (i));
}

//  CREATED or RESTARTING → RESTORING, from the latest completed checkpoint.
static void
s_restore (coord_t *self)
{
    s_set_state (self, J_RESTORING, NULL);
    self->restoring_since = zs_clock_mono_ms ();
    zs_event ("restore", "\"id\":%lld,\"epoch\":%lld", (long long) self->latest.id,
              (long long) self->meta.epoch);
    if (self->latest.id)
        zs_info ("Restoring job %s from Checkpoint %lld @ %lld.", self->meta.job_id,
                 (long long) self->latest.id, (long long) self->latest.time_millis);
    else
        zs_info ("No checkpoint found during restore: job %s starts from scratch.",
                 self->meta.job_id);
    s_restore_step (self);
}

//  RESTORING → RUNNING: everyone is Ready.
static void
s_start (coord_t *self)
{
    s_send_start (self);
    s_set_state (self, J_RUNNING, NULL);
    self->running_at = zs_clock_mono_ms ();
    zs_progress_running (self->committed, self->running_at);
    self->next_trigger_at = zs_clock_mono_ms () + self->cfg.checkpoint_interval_ms;
    //  After a failover or a coordinator restart (not at a job's first
    //  start), with execution.checkpointing.trigger-after-restore, the
    //  first checkpoint goes at once: the rows read again since the
    //  restored checkpoint are committed without waiting an interval.
    //  Flink waits the interval (the default here too).
    if (self->cfg.checkpoint_after_restore && self->restored)
        self->next_trigger_at = zs_clock_mono_ms ();
    self->restored = true;
}

//  RUNNING → FINISHING: every writer reached end of input; one more
//  checkpoint, at once, lets the committer commit up to INT64_MAX.
static void
s_finishing (coord_t *self)
{
    s_set_state (self, J_FINISHING, NULL);
    self->final_checkpoint_needed = true;
}

//  RUNNING → STOPPING: a savepoint, then the end (s_stop_done).
static void
s_stopping (coord_t *self, const char *client)
{
    zs_info ("Stopping job %s with a savepoint.", self->meta.job_id);
    zs_ending_stop_asked (self->ending, client);
    s_set_state (self, J_STOPPING, NULL);
}

//  ---------------------------------------------------------------------
//  Clients and membership

static int
s_slot_of (coord_t *self, Zsink__Role role, int index)
{
    if (role == ZSINK__ROLE__ROLE_COMMITTER)
        return COMMITTER;
    if (role == ZSINK__ROLE__ROLE_WRITER && index >= 0 && index < self->n)
        return WRITER (index);
    return -1;
}

//  Participants are known by the routing id they registered with, which is
//  unique per process start (docs/decisions.md): a message from any other id
//  is not theirs, whatever its envelope claims.
static int
s_slot_by_rid (coord_t *self, const char *rid)
{
    for (int i = 0; i <= self->n; i++)
        if (self->slots[i].registered && strcmp (self->slots[i].rid, rid) == 0)
            return i;
    return -1;
}

//  A cancel's answer: what happens, to which job, and the checkpoint it
//  ends at (0: none completed).
static void
s_client_reply_result (coord_t *self, const char *rid, const char *result)
{
    json_t *reply = json_pack ("{s:s, s:s, s:I}", "result", result, "job_id", self->meta.job_id,
                               "last_checkpoint", (json_int_t) self->latest.id);
    char *msg = json_dumps (reply, JSON_COMPACT);
    json_decref (reply);
    s_client_reply (self, rid, true, msg ? msg : "{\"result\":\"canceling\"}");
    free (msg);
}

//  zsink status / stop / cancel. Clients are not participants: they are
//  answered whatever their epoch, and their job id may be empty (a client
//  knows an endpoint, not the job).
static void
s_on_client (coord_t *self, const char *rid, Zsink__ClientRequest *req)
{
    if (zs_ending_is_decided (self->ending) && req->kind != ZSINK__CLIENT_REQUEST__KIND__STATUS) {
        //  the outcome is decided (finished, canceled, failed): do not let a
        //  late cancel rewrite it
        s_client_reply (self, rid, false, "{\"error\":\"the job is already ending\"}");
        return;
    }
    if (req->kind == ZSINK__CLIENT_REQUEST__KIND__STATUS) {
        char *json = zs_coord_status_json (self);
        s_client_reply (self, rid, true, json);
        free (json);
    } else if (req->kind == ZSINK__CLIENT_REQUEST__KIND__CANCEL) {
        s_client_reply_result (self, rid, "canceling");
        s_abort_checkpoint (self, "aborted: job canceled");
        s_cancel (self, "canceled");
    } else if (req->kind == ZSINK__CLIENT_REQUEST__KIND__STOP) {
        if (self->state != J_RUNNING || zs_ending_stopping (self->ending)) {
            char msg[128];
            snprintf (msg, sizeof msg, "{\"error\":\"job is %s, not RUNNING\"}",
                      s_state_names[self->state]);
            s_client_reply (self, rid, false, msg);
        } else if (!req->savepoint) {
            //  stop without a savepoint is a cancel in all but name
            s_client_reply_result (self, rid, "stopping");
            s_cancel (self, "stopped");
        } else
            s_stopping (self, rid);
    }
}

//  Invariant 7: was this process (its instance tag) replaced in its slot?
static bool
s_superseded (coord_t *self, const char *instance)
{
    if (!instance || !*instance)
        return false;
    for (int i = 0; i < SUPERSEDED_MAX; i++)
        if (strcmp (self->superseded[i], instance) == 0)
            return true;
    return false;
}

//  Refuse a superseded process (true) with a reason that tells it to exit.
static bool
s_refuse_superseded (coord_t *self, const char *rid, int slot, const char *instance)
{
    if (!s_superseded (self, instance))
        return false;
    char name[32], why[160];
    s_slot_name (self, slot, name, sizeof name);
    snprintf (why, sizeof why, ZS_SUPERSEDED_REASON " %s is pid %d now", name,
              self->slots[slot].pid);
    zs_drops_add (self->drops, ZS_DROP_STALE, rid, "superseded in its slot");
    s_send_refused (self, rid, why);
    return true;
}

static void
s_on_hello (coord_t *self, const char *rid, Zsink__Hello *hello)
{
    int slot = s_slot_of (self, hello->role, hello->index);
    if (slot < 0) {
        char why[128];
        snprintf (why, sizeof why, "writer index %d is out of range: parallelism is %d",
                  hello->index, self->n);
        s_send_refused (self, rid, why);
        return;
    }
    if (s_refuse_superseded (self, rid, slot, hello->instance))
        return;
    zs_coord_welcome (self, rid);
}

static void
s_on_register (coord_t *self, const char *rid, Zsink__Register *reg)
{
    int slot = s_slot_of (self, reg->role, reg->index);
    if (slot < 0) {
        s_send_refused (self, rid, "writer index out of range");
        return;
    }
    if (s_refuse_superseded (self, rid, slot, reg->instance))
        return;
    slot_t *s = &self->slots[slot];
    char name[32];
    s_slot_name (self, slot, name, sizeof name);
    if (s->instance[0] && strcmp (s->instance, reg->instance) != 0) {
        //  invariant 7: the slot's previous process, dead or alive, is done
        snprintf (self->superseded[self->superseded_next], sizeof self->superseded[0], "%s",
                  s->instance);
        self->superseded_next = (self->superseded_next + 1) % SUPERSEDED_MAX;
    }
    if (s->registered && s_active (self)) {
        //  Either a new process (the old one died) or the same one that
        //  lost us and dropped its state: both are a failure of the job.
        char why[256];
        if (s->pid == reg->pid)
            snprintf (why, sizeof why,
                      "%s (pid %d) registered again: it lost the coordinator and dropped its state",
                      name, s->pid);
        else
            snprintf (why, sizeof why,
                      "%s restarted: pid %d registered in place of pid %d, which is gone", name,
                      reg->pid, s->pid);
        s_fail (self, why);
    }
    memset (s, 0, sizeof *s);
    s->registered = true;
    snprintf (s->rid, sizeof s->rid, "%s", rid);
    snprintf (s->instance, sizeof s->instance, "%s", reg->instance);
    s->pid = reg->pid;
    s->last_heard = zs_clock_mono_ms ();
    s->last_committed = -1;
    zs_info ("Registered %s (pid %d, %s).", name, reg->pid, rid);
    if (self->state == J_CREATED) {
        for (int i = 0; i <= self->n; i++)
            if (!self->slots[i].registered)
                return;
        s_restore (self);
    } else if (self->state == J_RESTORING)
        s_restore_step (self);
}

//  ---------------------------------------------------------------------
//  Messages of a registered participant, one handler per kind

void
zs_coord_add_split (coord_t *self, const Zsink__Split *split)
{
    size_t n;
    Zsink__Split *const *all = zs_splits_all (self->splits, &n);
    int writer = -1;
    for (size_t k = 0; k < n; k++)
        if (strcmp (all[k]->id, split->id) == 0)
            writer = zs_splits_owner (self->splits, k, self->n);
    if (writer < 0 || !s_active (self) || !self->slots[WRITER (writer)].reset_sent)
        return;
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_ADD_SPLITS);
    Zsink__Split *one = (Zsink__Split *) split;
    m.body.add_splits.n_splits = 1;
    m.body.add_splits.splits = &one;
    s_send (self, WRITER (writer), &m.env);
}

//  A slot's rows read per second, taken again each second or so from its
//  heartbeats (Flink's numRecordsInPerSecond).
static void
s_rate (slot_t *s, int64_t now)
{
    if (s->rate_at && now - s->rate_at < 1000)
        return;
    if (s->rate_at)
        s->rate = (double) (s->rows_read - s->rate_rows) * 1000.0 / (double) (now - s->rate_at);
    s->rate_at = now;
    s->rate_rows = s->rows_read;
}

static void
s_on_heartbeat (coord_t *self, int slot, Zsink__Heartbeat *hb)
{
    slot_t *s = &self->slots[slot];
    for (size_t i = 0; slot != COMMITTER && i < hb->n_splits; i++)
        zs_splits_put (self->progress, hb->splits[i]);
    s->rows_read = hb->rows_read;
    s_rate (s, zs_clock_mono_ms ());
    if (slot == COMMITTER && hb->has_rows_committed)
        zs_progress_table_rows (self->committed, hb->rows_committed);
    for (size_t r = 0; r < ZS_DROP_NREASONS; r++)
        s->dropped[r] = r < hb->n_dropped ? hb->dropped[r] : 0;
    s->refused_handshakes = hb->refused_handshakes;
}

//  The snapshot of a completed checkpoint, the first time it is heard of.
//  Its commit latency only when this coordinator completed the checkpoint
//  (one loaded from history.json has no completion time here).
static void
s_history_snapshot (coord_t *self, int64_t identifier, int64_t snapshot_id)
{
    zs_chk_stat_t *e = zs_history_find (self->history, identifier);
    if (!e || e->status != ZS_CHK_COMPLETED || e->snapshot)
        return;
    e->snapshot = snapshot_id;
    e->commit_ms = e->completed_mono ? zs_clock_mono_ms () - e->completed_mono : -1;
    zs_history_save (self->history);
}

//  A snapshot of ours is in the table (Committed, or the committer Ready
//  after a restore): the progress, and the line that says so, whose count
//  zsink status and the cluster's progress line show too.
static void
s_progress_committed (coord_t *self, int64_t identifier, int64_t snapshot, int64_t table_rows)
{
    int64_t now = zs_clock_mono_ms (), end_rows = 0;
    if (identifier == ZS_END_INPUT_ID)
        for (int i = 0; i < self->n; i++)
            end_rows += self->slots[WRITER (i)].rows_read;
    zs_progress_total (self->committed, zs_coord_input_rows (self));
    if (!zs_progress_committed (self->committed, identifier, snapshot, table_rows, end_rows, now))
        return;
    zs_progress_view_t v;
    zs_progress_view (self->committed, now, &v);
    char what[48], rows[32], text[96];
    if (identifier == ZS_END_INPUT_ID)
        snprintf (what, sizeof what, "the end of input");
    else
        snprintf (what, sizeof what, "checkpoint %lld", (long long) identifier);
    zs_info ("Job %s committed %s in snapshot %lld: %s rows of this job (%s).", self->meta.job_id,
             what, (long long) snapshot, zs_progress_num (v.job_rows, rows, sizeof rows),
             zs_progress_text (&v, text, sizeof text));
}

static void
s_on_ready (coord_t *self, int slot, Zsink__Ready *ready)
{
    if (self->state != J_RESTORING || !self->slots[slot].reset_sent)
        return;
    slot_t *s = &self->slots[slot];
    s->ready = true;
    if (slot == COMMITTER) {
        s->last_committed = ready->has_last_committed ? ready->last_committed : -1;
        if (ready->has_last_snapshot) {
            s_history_snapshot (self, s->last_committed, ready->last_snapshot);
            s_progress_committed (self, s->last_committed, ready->last_snapshot, -1);
        }
        if (s->last_committed == ZS_END_INPUT_ID) {
            //  Everything was committed before the failure: nothing to run.
            zs_info ("Commit user %s already committed end of input: the job is done.",
                     self->meta.commit_user);
            s_finish (self);
            return;
        }
        //  The restored checkpoint's snapshot is in the table: its offsets
        //  go to Kafka now, not at the next checkpoint, which may never
        //  come (a job that fails again before one).
        if (self->latest.id && s->last_committed >= self->latest.id)
            zs_coord_kafka_committed (self, self->latest.id);
        s_restore_step (self);
    }
    for (int i = 0; i <= self->n; i++)
        if (!self->slots[i].ready)
            return;
    s_start (self);
}

//  One more participant acked the checkpoint in flight.
static void
s_history_acked (coord_t *self, const slot_t *s)
{
    zs_chk_stat_t *e = zs_history_find (self->history, zs_inflight_id (self->inflight));
    if (e && !s->acked)
        e->acked++;
}

//  A writer's ack of the checkpoint in flight, with its source position;
//  an ack of any other id (late, repeated, unknown) is ignored.
static void
s_on_writer_ack (coord_t *self, int slot, Zsink__WriterAck *ack)
{
    if (slot == COMMITTER || ack->checkpoint_id != zs_inflight_id (self->inflight))
        return;
    slot_t *s = &self->slots[slot];
    s_history_acked (self, s);
    s->acked = true;
    s->pos = *ack->position;
    for (size_t i = 0; i < ack->position->n_splits; i++)
        if (zs_inflight_put_split (self->inflight, ack->position->splits[i]) != 0) {
            s_drop_checkpoint (self, ZS_LOG_WARN,
                               "aborted: out of memory keeping the split states");
            zs_inflight_aborted (self->inflight);
            return;
        }
    s->pos.n_splits = 0;
    s->pos.splits = NULL;
    //  fresher than the last heartbeat: keeps rows read >= rows committed
    //  in the status
    if (s->pos.offset > s->rows_read)
        s->rows_read = s->pos.offset;
    s->pos.writer = slot - 1;
    s->pos.has_finished = true;
    //  the message is freed after this: keep the file name
    snprintf (s->pos_file, sizeof s->pos_file, "%s", s->pos.file ? s->pos.file : "");
    s->pos.file = s->pos.file ? s->pos_file : NULL;
    s_check_checkpoint (self);
}

//  The committer's ack of the checkpoint in flight, with its state (the
//  checkpoint's to write); any other id is ignored.
static void
s_on_committer_ack (coord_t *self, int slot, Zsink__CommitterAck *ack)
{
    if (slot != COMMITTER || ack->checkpoint_id != zs_inflight_id (self->inflight))
        return;
    if (strcmp (ack->state->commit_user, self->meta.commit_user) != 0) {
        s_fail (self, "committer acked with another commit user");
        return;
    }
    if (zs_inflight_set_state (self->inflight, ack->state) != 0) {
        //  out of memory (the codec refused what cannot be copied): this
        //  checkpoint cannot be written, a later one may
        s_drop_checkpoint (self, ZS_LOG_WARN, "aborted: out of memory copying the committer state");
        zs_inflight_aborted (self->inflight);
        return;
    }
    s_history_acked (self, &self->slots[slot]);
    self->slots[slot].acked = true;
    s_check_checkpoint (self);
}

//  A snapshot was committed: progress, and the end of the job at INT64_MAX
//  or of a stop once its savepoint is committed.
static void
s_on_committed (coord_t *self, Zsink__Committed *c)
{
    s_progress_committed (self, c->identifier, c->snapshot_id,
                          c->has_total_rows ? c->total_rows : -1);
    zs_event ("committed", "\"id\":%lld,\"snapshot\":%lld", (long long) c->identifier,
              (long long) c->snapshot_id);
    s_history_snapshot (self, c->identifier, c->snapshot_id);
    zs_coord_kafka_committed (self, c->identifier);
    if (c->identifier == ZS_END_INPUT_ID && s_active (self))
        s_finish (self);
    else if (zs_ending_savepoint_committed (self->ending, c->identifier))
        s_stop_done (self);
}

//  A writer reached end of input. Once all have, with checkpointing on,
//  the final checkpoint follows.
static void
s_on_finished (coord_t *self, int slot)
{
    if (slot == COMMITTER || (self->state != J_RUNNING && self->state != J_STOPPING))
        return;
    self->slots[slot].finished = true;
    for (int i = 0; i < self->n; i++)
        if (!self->slots[WRITER (i)].finished)
            return;
    zs_info ("All writers of job %s reached end of input.", self->meta.job_id);
    if (self->cfg.checkpoint_interval_ms > 0 && self->state == J_RUNNING)
        s_finishing (self);
}

static void
s_on_failure (coord_t *self, int slot, Zsink__Failure *failure)
{
    char name[32], why[600];
    s_slot_name (self, slot, name, sizeof name);
    snprintf (why, sizeof why, "%s failed: %s", name, failure->reason);
    zs_error ("%s", why);
    char text[256];
    zs_event ("failure", "\"from\":\"%s\",\"why\":\"%s\"", name,
              zs_event_str (failure->reason, text, sizeof text));
    if (failure->fail_at_id && !self->meta.fail_at_id_fired) {
        self->meta.fail_at_id_fired = true;
        zs_coord_persist_meta (self);
    }
    if (failure->unrecoverable && (s_active (self) || self->state == J_CREATED)) {
        s_abort_checkpoint (self, "aborted: job failed");
        s_fail_unrecoverable (self, why);
        return;
    }
    s_fail (self, why);
}

//  The participant is going (after our Shutdown): the end need not wait.
static void
s_on_bye (coord_t *self, int slot)
{
    self->slots[slot].bye = true;
}

//  A well-formed message no coordinator expects.
static void
s_on_unexpected (coord_t *self, const char *rid, zs_env_t *env)
{
    zs_drops_add (self->drops, ZS_DROP_GARBAGE, rid, zs_env_kind (env));
}

static void
s_dispatch (coord_t *self, int slot, const char *rid, zs_env_t *env)
{
    self->slots[slot].last_heard = zs_clock_mono_ms ();
    switch (env->body_case) {
    case ZSINK__ENVELOPE__BODY_HEARTBEAT:
        s_on_heartbeat (self, slot, env->heartbeat);
        break;
    case ZSINK__ENVELOPE__BODY_READY:
        s_on_ready (self, slot, env->ready);
        break;
    case ZSINK__ENVELOPE__BODY_WRITER_ACK:
        s_on_writer_ack (self, slot, env->writer_ack);
        break;
    case ZSINK__ENVELOPE__BODY_COMMITTER_ACK:
        s_on_committer_ack (self, slot, env->committer_ack);
        break;
    case ZSINK__ENVELOPE__BODY_COMMITTED:
        s_on_committed (self, env->committed);
        break;
    case ZSINK__ENVELOPE__BODY_FINISHED:
        s_on_finished (self, slot);
        break;
    case ZSINK__ENVELOPE__BODY_FAILURE:
        s_on_failure (self, slot, env->failure);
        break;
    case ZSINK__ENVELOPE__BODY_BYE:
        s_on_bye (self, slot);
        break;
    default:
        s_on_unexpected (self, rid, env);
        break;
    }
}

//  ---------------------------------------------------------------------
//  Envelope checks (docs/protocol.md, "Envelope rules"), in the order
//  s_on_message applies them. A message that fails one is dropped and
//  counted there, never applied.

//  A client knows an endpoint, not the job: its job id may be empty.
static bool
s_accept_client (coord_t *self, const char *rid, const zs_env_t *env)
{
    if (!*env->job_id || strcmp (env->job_id, self->meta.job_id) == 0)
        return true;
    zs_drops_add (self->drops, ZS_DROP_FOREIGN, rid, NULL);
    return false;
}

//  A Hello knows no job and no epoch yet; nobody joins a job whose end is
//  decided.
static bool
s_accept_hello (coord_t *self)
{
    return !zs_ending_is_decided (self->ending);
}

//  Anything else must be of this job.
static bool
s_accept_job (coord_t *self, const char *rid, const zs_env_t *env)
{
    if (strcmp (env->job_id, self->meta.job_id) == 0)
        return true;
    zs_drops_add (self->drops, ZS_DROP_FOREIGN, rid, NULL);
    return false;
}

//  A Register follows a Welcome of the current epoch: an older one is stale
//  and must not take over a live slot. Refused sends a participant that
//  registered late back to Hello.
static bool
s_accept_register (coord_t *self, const char *rid, const zs_env_t *env)
{
    if (env->epoch < self->meta.epoch) {
        zs_drops_add (self->drops, ZS_DROP_STALE, rid, "Register of an older epoch");
        if (!zs_ending_is_decided (self->ending))
            s_send_refused (self, rid, "stale epoch");
        return false;
    }
    return !zs_ending_is_decided (self->ending);
}

//  Invariant 8: the slot this connection registered, or -1. Anything else
//  is never applied, whatever it claims: of an older epoch it is a previous
//  process of ours (stale), else a stranger. The Refused sends a
//  participant of a previous coordinator run (or of a slot since taken
//  over) back to Hello.
static int
s_accept_rid (coord_t *self, const char *rid, const zs_env_t *env)
{
    int slot = s_slot_by_rid (self, rid);
    if (slot >= 0)
        return slot;
    char detail[64];
    snprintf (detail, sizeof detail, "%s, not a registered connection", zs_env_kind (env));
    zs_drops_add (self->drops, env->epoch < self->meta.epoch ? ZS_DROP_STALE : ZS_DROP_UNREGISTERED,
                  rid, detail);
    if (!zs_ending_is_decided (self->ending))
        s_send_refused (self, rid, "unknown participant");
    return -1;
}

//  Of the current epoch: an older one is stale; a newer one cannot come
//  from a peer we reset, and is counted the same way.
static bool
s_accept_epoch (coord_t *self, const char *rid, const zs_env_t *env)
{
    if (env->epoch == self->meta.epoch)
        return true;
    zs_drops_add (self->drops, ZS_DROP_STALE, rid, zs_env_kind (env));
    return false;
}

static void
s_on_message (coord_t *self, const char *rid, zs_env_t *env)
{
    if (env->body_case == ZSINK__ENVELOPE__BODY_CLIENT_REQUEST) {
        if (s_accept_client (self, rid, env))
            s_on_client (self, rid, env->client_request);
        return;
    }
    if (env->body_case == ZSINK__ENVELOPE__BODY_HELLO) {
        if (s_accept_hello (self))
            s_on_hello (self, rid, env->hello);
        return;
    }
    if (!s_accept_job (self, rid, env))
        return;
    if (env->body_case == ZSINK__ENVELOPE__BODY_REGISTER) {
        if (s_accept_register (self, rid, env))
            s_on_register (self, rid, env->register_);
        return;
    }
    int slot = s_accept_rid (self, rid, env);
    if (slot >= 0 && s_accept_epoch (self, rid, env))
        s_dispatch (self, slot, rid, env);
}

//  CURVE on: the sender's authenticated key must be bound to every
//  identity the message claims (docs/security.md): the envelope's sender,
//  the role and index a Hello or Register asks for, and the slot its
//  routing id registered. Otherwise it is dropped, counted and logged.
static bool
s_authorized (coord_t *self, const char *rid, const char *user, const zs_env_t *env)
{
    Zsink__Role role[3] = {env->sender};
    int index[3] = {env->sender_index}, n = 1;
    if (env->body_case == ZSINK__ENVELOPE__BODY_HELLO) {
        role[n] = env->hello->role;
        index[n++] = env->hello->index;
    } else if (env->body_case == ZSINK__ENVELOPE__BODY_REGISTER) {
        role[n] = env->register_->role;
        index[n++] = env->register_->index;
    }
    int slot = s_slot_by_rid (self, rid);
    if (slot >= 0) {
        role[n] = slot == COMMITTER ? ZSINK__ROLE__ROLE_COMMITTER : ZSINK__ROLE__ROLE_WRITER;
        index[n++] = slot - 1;
    }
    char why[ZS_ERRLEN];
    for (int i = 0; i < n; i++)
        if (!zs_curve_bound (self->curve, user, role[i], index[i], why, sizeof why)) {
            zs_curve_refuse (self->curve, user, why);
            return false;
        }
    return true;
}

//  ---------------------------------------------------------------------
//  Timers, run after every batch of messages and at least every 20 ms:
//  heartbeats out, liveness in, the restart delay, the restore deadline,
//  checkpoint expiry, and the next trigger (periodic, final, or savepoint;
//  one in flight at most, invariant 4).

static void
s_tick_heartbeats (coord_t *self, int64_t now)
{
    if (now - self->last_heartbeat < self->cfg.heartbeat_interval_ms)
        return;
    self->last_heartbeat = now;
    s_send_heartbeats (self);
}

static void
s_tick_liveness (coord_t *self, int64_t now)
{
    for (int i = 0; i <= self->n; i++) {
        slot_t *s = &self->slots[i];
        if (!s->registered || now - s->last_heard <= self->cfg.heartbeat_timeout_ms)
            continue;
        char name[32], why[128];
        s_slot_name (self, i, name, sizeof name);
        snprintf (why, sizeof why, "%s (pid %d) timed out: no heartbeat in %lld ms", name, s->pid,
                  (long long) self->cfg.heartbeat_timeout_ms);
        s->registered = false;
        if (s_active (self))
            s_fail (self, why);
        else
            zs_warn ("%s", why);
    }
}

static void
s_tick_restart (coord_t *self, int64_t now)
{
    //  only registered participants can be reset; the rest are reset when
    //  they register
    if (self->state == J_RESTARTING && now >= self->restore_at)
        s_restore (self);
    if (self->state == J_RESTORING
        && now - self->restoring_since > 10 * self->cfg.heartbeat_timeout_ms) {
        char why[400];
        if (!zs_coord_splits_ready (self) && self->kafka_error[0])
            snprintf (why, sizeof why,
                      "restore did not complete in time: the Kafka source's partitions are not "
                      "ready (%s)",
                      self->kafka_error);
        else
            snprintf (why, sizeof why,
                      "restore did not complete in time (a participant never became ready)");
        s_fail (self, why);
    }
}

//  The checkpoint in flight expired: a failure, tolerated a number of
//  times in a row. false when it failed the job over.
static bool
s_tick_expiry (coord_t *self, int64_t now)
{
    if (!zs_inflight_expired (self->inflight, now, self->cfg.checkpoint_timeout_ms))
        return true;
    s_drop_checkpoint (self, ZS_LOG_WARN, "expired before completing");
    int in_a_row = zs_inflight_failed (self->inflight);
    self->next_trigger_at = now + self->cfg.checkpoint_min_pause_ms;
    if (in_a_row > self->cfg.tolerable_failed_checkpoints) {
        s_fail (self, "Exceeded checkpoint tolerable failure threshold.");
        return false;
    }
    return true;
}

//  No checkpoint in flight: the end of a stop whose savepoint's commit
//  never came, or the next checkpoint that is due.
static void
s_tick_trigger (coord_t *self, int64_t now)
{
    if (zs_ending_commit_overdue (self->ending, now)) {
        zs_warn ("No commit reported for savepoint %lld; stopping anyway.",
                 (long long) zs_ending_savepoint (self->ending));
        s_stop_done (self);
        return;
    }
    if (self->state == J_STOPPING && zs_ending_stopping (self->ending)
        && !zs_ending_savepoint (self->ending))
        s_trigger (self, true);
    else if (self->final_checkpoint_needed) {
        self->final_checkpoint_needed = false;
        s_trigger (self, false);
    } else if ((self->state == J_RUNNING || self->state == J_FINISHING)
               && self->cfg.checkpoint_interval_ms > 0 && now >= self->next_trigger_at)
        //  FINISHING too: if the final checkpoint expired (and was
        //  tolerated), the next one takes its place
        s_trigger (self, false);
}

static void
s_tick (coord_t *self)
{
    int64_t now = zs_clock_mono_ms ();
    s_tick_heartbeats (self, now);
    s_tick_liveness (self, now);
    s_tick_restart (self, now);
    zs_coord_kafka_tick (self, now);
    if (self->state != J_RUNNING && self->state != J_FINISHING && self->state != J_STOPPING)
        return;
    if (s_tick_expiry (self, now) && !zs_inflight_id (self->inflight))
        s_tick_trigger (self, now);
}

//  ---------------------------------------------------------------------
//  The process

//  Every message waiting on the ROUTER.
static void
s_drain (coord_t *self)
{
    while (1) {
        char rid[ZS_RID_MAX], user[64];
        zs_env_t *env = NULL;
        int got =
            zs_drops_recv (self->drops, self->router, rid, sizeof rid, user, sizeof user, &env);
        if (got == 0)
            break;
        if (got < 0)
            continue;
        if (!self->curve || s_authorized (self, rid, user, env))
            s_on_message (self, rid, env);
        zs_env_free (&env);
    }
}

//  The lock on the checkpoint directory still ours (a lease on S3 renews
//  itself; io_lock.h)? Lost, this coordinator stops at once, to be
//  restarted: another may run the job now.
static bool
s_keep_lock (coord_t *self)
{
    char err[ZS_ERRLEN];
    if (zs_io_lock_keep (self->lock, err, sizeof err) != ZS_ESTALE)
        return true;
    zs_error ("LEASE_LOST the coordinator lock is lost: %s; exiting", err);
    //  not "interrupted": nothing more is written
    zs_ending_at_once (self->ending, ZS_EXIT_RESTART);
    return false;
}

//  The job ended and every participant said Bye, or waiting is over.
static bool
s_may_exit (coord_t *self)
{
    if (!zs_ending_is_decided (self->ending))
        return false;
    if (zs_coord_kafka_busy (self))
        return false; //  the last offset commit (it has a deadline of its own)
    for (int i = 0; i <= self->n; i++)
        if (self->slots[i].registered && !self->slots[i].bye)
            return zs_ending_waited_out (self->ending, zs_clock_mono_ms ());
    return true;
}

//  Every answer of the Kafka enumerator waiting; the restore goes on when
//  the splits became ready.
static void
s_drain_kafka (coord_t *self)
{
    zsock_t *sock = zs_coord_kafka_sock (self);
    while (sock && (zsock_events (sock) & ZMQ_POLLIN))
        if (zs_coord_kafka_on_answer (self) && self->state == J_RESTORING)
            s_restore_step (self);
}

int
zs_coordinator_main (int argc, char **argv)
{
    zsys_init ();
    zs_log_set_name ("coordinator");
    coord_t coord, *self = &coord;
    memset (self, 0, sizeof *self);
    const char *bind = NULL;
    int code = zs_coord_setup (self, argc, argv, &bind);
    if (code >= 0) {
        zs_io_lock_release (&self->lock);
        return code; //  refused, or nothing to do: nothing else is allocated yet
    }
    if (zs_coord_curve_setup (self) < 0) {
        zs_coord_close (self);
        return 2;
    }
    if (zs_coord_open (self, bind) < 0) {
        zs_coord_close (self);
        return 1;
    }
    if (zs_coord_prom_setup (self) < 0) {
        zs_coord_close (self);
        return 2;
    }
    zpoller_t *poller = zpoller_new (self->router, zs_coord_kafka_sock (self), NULL);
    while (!zsys_interrupted) {
        zpoller_wait (poller, 20);
        s_drain (self);
        s_drain_kafka (self);
        s_tick (self);
        if (self->prom) //  at most every 20 ms: a scrape waits that long
            zs_prom_serve (self->prom, zs_coord_render_metrics, self);
        if (self->curve)
            zs_curve_counters (self->curve, NULL, NULL); //  logs refused handshakes
        if (s_may_exit (self) || !s_keep_lock (self))
            break;
    }
    //  SIGTERM/SIGINT: the job keeps its state (status RUNNING); a
    //  coordinator started again with this job id resumes it.
    code = zs_ending_is_decided (self->ending) ? zs_ending_code (self->ending) : 0;
    if (!zs_ending_is_decided (self->ending))
        zs_info ("Coordinator of job %s interrupted; the job can be resumed.", self->meta.job_id);
    zpoller_destroy (&poller);
    zs_coord_close (self);
    return code;
}
