/*  participant.h - the control-pipe side shared by writers and the
    committer: Hello until Welcome, Register, heartbeats both ways, liveness
    of the coordinator, stamping and the stale/foreign/garbage filter
    (docs/protocol.md, "Membership").

    The role's loop polls zs_participant_sock() together with its own
    sockets and calls zs_participant_poll() whenever the socket is readable
    and at least every 50 ms (timers live in there). Events:

        ZS_PEV_WELCOME  the job's configuration has arrived: set up, then
                        call zs_participant_register()
        ZS_PEV_MESSAGE  *env_p holds a message for the role (Reset, Start,
                        Barrier, Notify, Shutdown, …); the role frees it
        ZS_PEV_LOST     the coordinator is gone or no longer knows us: stop
                        work, drop in-flight state; we say Hello again
        ZS_PEV_SUPERSEDED  another process has taken our slot (we were cut
                        off, and replaced): drop everything and exit 0;
                        there is nothing left for this process to do
*/
#ifndef ZS_PARTICIPANT_H_INCLUDED
#define ZS_PARTICIPANT_H_INCLUDED

#include "codec.h"
#include "drops.h"

typedef enum {
    ZS_PEV_NONE = 0,
    ZS_PEV_WELCOME,
    ZS_PEV_MESSAGE,
    ZS_PEV_LOST,
    ZS_PEV_SUPERSEDED
} zs_pev_t;

//  How a Refused that means ZS_PEV_SUPERSEDED starts (coordinator.c sends it).
#define ZS_SUPERSEDED_REASON "superseded:"

typedef struct _zs_participant_t zs_participant_t;

zs_participant_t *zs_participant_new (Zsink__Role role, int index, const char *coordinator,
                                      char *err, size_t errlen);
void zs_participant_destroy (zs_participant_t **self_p);

zsock_t *zs_participant_sock (zs_participant_t *self);
//  Routing-id text of this process ("writer-2-1a2b3c4d").
const char *zs_participant_id (zs_participant_t *self);
//  This process's random instance tag.
const char *zs_participant_instance (zs_participant_t *self);

//  Read what is waiting and run timers; returns one event at a time (call
//  again until ZS_PEV_NONE).
zs_pev_t zs_participant_poll (zs_participant_t *self, zs_env_t **env_p);

//  How long the role's poll may wait, at most max ms: less while a Hello
//  waits for the connection to the coordinator (its timer must run soon).
long zs_participant_wait_ms (zs_participant_t *self, long max);

//  After ZS_PEV_WELCOME: join the job.
int zs_participant_register (zs_participant_t *self);

//  The job as the coordinator told it. Valid after ZS_PEV_WELCOME: the
//  configuration's key/value pairs as the Welcome carried them (the job
//  layer's zs_config_welcome reads them: this layer knows no key but
//  heartbeat.interval and heartbeat.timeout, its own timers) and the
//  parallelism. The pointers are valid until the next Welcome.
size_t zs_participant_settings (zs_participant_t *self, const char *const **keys,
                                const char *const **values);
int zs_participant_parallelism (zs_participant_t *self);
const char *zs_participant_job_id (zs_participant_t *self);
int64_t zs_participant_epoch (zs_participant_t *self);
bool zs_participant_registered (zs_participant_t *self);

//  Stamp env (job, epoch, role, index, next seq) and send to the
//  coordinator. 0 or -1 (errno).
int zs_participant_send (zs_participant_t *self, zs_env_t *env);
//  Convenience: send a Failure(reason).
int zs_participant_fail (zs_participant_t *self, const char *reason, bool fail_at_id);
//  A Failure no restart can help (a start-up certainty): the coordinator
//  fails the job at once, exit status 2.
int zs_participant_fail_for_good (zs_participant_t *self, const char *reason);

//  Figures carried by our heartbeats.
void zs_participant_set_progress (zs_participant_t *self, int64_t rows_read,
                                  int64_t rows_committed);
//  … and the splits' progress (a writer's Kafka offsets and end offsets):
//  copied, sent with every heartbeat until set again.
void zs_participant_set_splits (zs_participant_t *self, Zsink__Split *const *splits, size_t n);

//  The role's own drop counters (the committer's data pipe): reported in
//  our heartbeats together with ours. drops must outlive the participant.
void zs_participant_report_drops (zs_participant_t *self, const zs_drops_t *drops);

//  CURVE counters of the role's server socket (the committer's data pipe):
//  messages refused for their key, handshakes refused. Totals, reported in
//  heartbeats.
void zs_participant_set_security (zs_participant_t *self, int64_t unauthorized, int64_t handshakes);

#endif
