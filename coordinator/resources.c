/*  resources.c - what the coordinator process holds besides the job's
    state: its CURVE keys, the control ROUTER, the slots, the split
    records, the classes of coord.h, the Prometheus endpoint; made once at
    start (zs_coord_curve_setup, zs_coord_open, zs_coord_prom_setup, in
    that order) and released by zs_coord_close, whatever was made.
*/
#include "coord.h"
#include "log.h"
#include "net.h"
#include <stdlib.h>

//  security.curve.enabled: our keys, for every socket made from now on.
int
zs_coord_curve_setup (coord_t *self)
{
    if (!self->cfg.curve_enabled)
        return 0;
    char err[ZS_ERRLEN];
    self->curve = zs_curve_load (self->cfg.curve_keys_dir, ZSINK__ROLE__ROLE_COORDINATOR, -1, err,
                                 sizeof err);
    if (!self->curve) {
        zs_error ("security.curve.keys-dir: %s", err);
        return -1;
    }
    zs_net_use_curve (self->curve);
    zs_info ("CURVE authentication on: keys in %s.", self->cfg.curve_keys_dir);
    return 0;
}

//  metrics.reporter.prom.port: the Prometheus endpoint. 0, or -1 (logged).
int
zs_coord_prom_setup (coord_t *self)
{
    if (!self->cfg.metrics_prom_port[0])
        return 0;
    char err[ZS_ERRLEN];
    self->prom =
        zs_prom_new (self->cfg.metrics_prom_port, self->cfg.metrics_prom_bind, err, sizeof err);
    if (!self->prom) {
        zs_error ("%s", err);
        return -1;
    }
    zs_info ("Prometheus metrics of job %s on http://%s:%d/metrics", self->meta.job_id,
             zs_prom_host (self->prom), zs_prom_port (self->prom));
    return 0;
}

//  Everything zs_coord_open and zs_coord_setup allocated (any of it may be NULL).
void
zs_coord_close (coord_t *self)
{
    //  The last answers (a stop's savepoint path, a cancel's) are sent just
    //  before the end: with the sockets' linger of 0 they die in the
    //  ROUTER's queue when the I/O thread has not written them yet (a busy
    //  machine: `zsink stop --savepoint` then waited for an answer that
    //  never came). Up to 1 s for them to leave; a peer that has gone takes
    //  none of it.
    if (self->router)
        zsock_set_linger (self->router, 1000);
    zsock_destroy (&self->router);
    zs_curve_destroy (&self->curve);
    zs_chk_clear (&self->latest);
    zs_coord_kafka_close (self);
    zs_splits_destroy (&self->splits);
    zs_splits_destroy (&self->progress);
    zs_inflight_destroy (&self->inflight);
    zs_ending_destroy (&self->ending);
    zs_progress_destroy (&self->committed);
    free (self->slots);
    self->slots = NULL;
    zs_drops_destroy (&self->drops);
    zs_history_destroy (&self->history);
    zs_prom_destroy (&self->prom);
    zs_io_lock_release (&self->lock);
}

//  The slots, the drop counters and the control ROUTER.
int
zs_coord_open (coord_t *self, const char *bind)
{
    char err[ZS_ERRLEN];
    self->slots = calloc (self->n + 1, sizeof *self->slots);
    self->splits = zs_splits_new ();
    self->progress = zs_splits_new ();
    self->inflight = zs_inflight_new ();
    self->ending = zs_ending_new ();
    self->committed = zs_progress_new ();
    for (size_t i = 0; self->splits && i < self->latest.n_splits; i++)
        if (zs_splits_put (self->splits, self->latest.splits[i]) != 0) {
            zs_error ("out of memory");
            return -1;
        }
    if (!self->splits || !self->progress || !self->inflight || !self->ending || !self->committed) {
        zs_error ("out of memory");
        return -1;
    }
    if (self->latest.id) //  a resumed job: its rows so far
        zs_progress_checkpoint (self->committed, self->latest.id,
                                zs_coord_chk_rows (&self->latest));
    if (zs_coord_kafka_open (self) != 0)
        return -1;
    self->drops = zs_drops_new ("message");
    self->router = self->slots && self->drops
                       ? zs_net_router (bind ? bind : "tcp://*:6123", err, sizeof err)
                       : NULL;
    if (!self->router) {
        zs_error ("%s", self->slots && self->drops ? err : "out of memory");
        return -1;
    }
    return 0;
}
