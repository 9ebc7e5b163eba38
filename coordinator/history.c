/*  history.c - see history.h.

    The entries are a ring of the newest `keep`, oldest first in memory;
    history.json holds them as a JSON array, newest first (as Flink lists
    them). A history.json that does not decode is set aside, not fatal: the
    history starts again empty.
*/
#include "history.h"
#include "io.h"
#include "log.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct zs_history_t {
    char path[ZS_PATH_MAX + 96];
    int keep;
    zs_chk_stat_t *entries; //  oldest first
    int n;
};

static const char *s_status_names[] = {"IN_PROGRESS", "COMPLETED", "FAILED"};

const char *
zs_chk_status_name (zs_chk_status_t status)
{
    return s_status_names[status];
}

static json_t *
s_entry_json (const zs_chk_stat_t *e)
{
    return json_pack ("{s:I, s:s, s:b, s:I, s:I, s:I, s:i, s:i, s:I, s:I, s:I, s:I, s:s}", "id",
                      (json_int_t) e->id, "status", s_status_names[e->status], "savepoint",
                      e->savepoint, "attempt", (json_int_t) e->epoch, "trigger_time",
                      (json_int_t) e->trigger_ms, "duration_ms", (json_int_t) e->duration_ms,
                      "acked", e->acked, "expected", e->expected, "committables",
                      (json_int_t) e->committables, "bytes", (json_int_t) e->bytes, "snapshot",
                      (json_int_t) e->snapshot, "commit_latency_ms", (json_int_t) e->commit_ms,
                      "reason", e->reason);
}

//  One entry from its JSON; false when it does not decode.
static bool
s_entry_load (json_t *o, int64_t completed_id, zs_chk_stat_t *e)
{
    memset (e, 0, sizeof *e);
    json_int_t id = 0, epoch = 0, trigger = 0, duration = -1, committables = 0, bytes = 0,
               snapshot = 0, commit = -1;
    int savepoint = 0;
    const char *status = NULL, *reason = "";
    if (json_unpack (o, "{s:I, s:s, s:b, s:I, s:I, s:I, s:i, s:i, s:I, s:I, s:I, s:I, s?s}", "id",
                     &id, "status", &status, "savepoint", &savepoint, "attempt", &epoch,
                     "trigger_time", &trigger, "duration_ms", &duration, "acked", &e->acked,
                     "expected", &e->expected, "committables", &committables, "bytes", &bytes,
                     "snapshot", &snapshot, "commit_latency_ms", &commit, "reason", &reason)
        != 0)
        return false;
    int k = 0;
    while (k < 3 && strcmp (status, s_status_names[k]) != 0)
        k++;
    if (k == 3)
        return false;
    //  One in progress when its coordinator died completed if its chk-N
    //  was written (the coordinator died before saving that), else never.
    bool died = k == ZS_CHK_IN_PROGRESS && id != completed_id;
    e->status = k != ZS_CHK_IN_PROGRESS ? (zs_chk_status_t) k
                : died                  ? ZS_CHK_FAILED
                                        : ZS_CHK_COMPLETED;
    e->id = id;
    e->savepoint = savepoint;
    e->epoch = epoch;
    e->trigger_ms = trigger;
    e->duration_ms = duration;
    e->committables = committables;
    e->bytes = bytes;
    e->snapshot = snapshot;
    e->commit_ms = commit;
    snprintf (e->reason, sizeof e->reason, "%s", died ? "the coordinator stopped" : reason);
    return true;
}

static void
s_load (zs_history_t *self, int64_t completed_id)
{
    json_error_t jerr;
    json_t *arr = json_load_file (self->path, 0, &jerr);
    if (!arr)
        return; //  none yet (or unreadable: logged below only when it exists)
    bool ok = json_is_array (arr);
    //  newest first in the file: read backwards to keep the oldest first
    for (size_t i = ok ? json_array_size (arr) : 0; ok && i-- > 0;) {
        zs_chk_stat_t e;
        ok = s_entry_load (json_array_get (arr, i), completed_id, &e);
        if (ok && self->n < self->keep)
            self->entries[self->n++] = e;
    }
    json_decref (arr);
    if (!ok) {
        zs_warn ("%s does not decode: the checkpoint history starts again", self->path);
        self->n = 0;
    }
}

zs_history_t *
zs_history_new (const char *job_dir, int keep, int64_t completed_id)
{
    zs_history_t *self = calloc (1, sizeof *self);
    if (!self)
        return NULL;
    self->keep = keep > 0 ? keep : 1;
    self->entries = calloc ((size_t) self->keep, sizeof *self->entries);
    if (!self->entries) {
        free (self);
        return NULL;
    }
    snprintf (self->path, sizeof self->path, "%s/history.json", job_dir);
    s_load (self, completed_id);
    return self;
}

void
zs_history_destroy (zs_history_t **self_p)
{
    if (!*self_p)
        return;
    free ((*self_p)->entries);
    free (*self_p);
    *self_p = NULL;
}

zs_chk_stat_t *
zs_history_add (zs_history_t *self, int64_t id, int64_t epoch, bool savepoint, int expected)
{
    if (self->n == self->keep) {
        memmove (self->entries, self->entries + 1, (size_t) (self->n - 1) * sizeof *self->entries);
        self->n--;
    }
    zs_chk_stat_t *e = &self->entries[self->n++];
    *e = (zs_chk_stat_t){.id = id,
                         .status = ZS_CHK_IN_PROGRESS,
                         .savepoint = savepoint,
                         .epoch = epoch,
                         .trigger_ms = zs_clock_wall_ms (),
                         .duration_ms = -1,
                         .expected = expected,
                         .commit_ms = -1};
    return e;
}

zs_chk_stat_t *
zs_history_find (zs_history_t *self, int64_t id)
{
    for (int i = self->n - 1; i >= 0; i--)
        if (self->entries[i].id == id)
            return &self->entries[i];
    return NULL;
}

void
zs_history_failed (zs_history_t *self, int64_t id, const char *reason)
{
    zs_chk_stat_t *e = zs_history_find (self, id);
    if (!e || e->status != ZS_CHK_IN_PROGRESS)
        return;
    e->status = ZS_CHK_FAILED;
    e->duration_ms = zs_clock_wall_ms () - e->trigger_ms;
    snprintf (e->reason, sizeof e->reason, "%s", reason);
    zs_history_save (self);
}

json_t *
zs_history_json (zs_history_t *self)
{
    json_t *arr = json_array ();
    for (int i = self->n - 1; i >= 0; i--)
        json_array_append_new (arr, s_entry_json (&self->entries[i]));
    return arr;
}

void
zs_history_save (zs_history_t *self)
{
    json_t *arr = zs_history_json (self);
    char *text = json_dumps (arr, JSON_COMPACT);
    json_decref (arr);
    char err[ZS_ERRLEN];
    //  a hint for zsink status: replaced whole (local: temp + rename, not
    //  fsynced; S3: one PUT)
    if (!text
        || zs_io_write_hint (self->path, "history", text, strlen (text), err, sizeof err) != 0)
        zs_debug ("cannot write %s", self->path); //  the history only: not worth a warning
    free (text);
}
