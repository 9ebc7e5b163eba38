/*  participant.c - see participant.h.

    States: HELLO (no job yet: Hello every 500 ms, every 5 ms while no
    connection takes it) → WELCOMED (config in
    hand, the role is setting up) → REGISTERED (heartbeats both ways).
    Any of: coordinator silent past heartbeat.timeout, Refused, a Welcome
    of another job, sends us back to HELLO with ZS_PEV_LOST.

    Epochs only grow. A message from the coordinator with a newer epoch
    moves us to it (Reset carries the new epoch); one with an older epoch
    is stale and dropped.
*/
#include "participant.h"
#include "events.h"
#include "drops.h"
#include "log.h"
#include "monitor.h"
#include "opts.h"
#include "net.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { S_HELLO, S_WELCOMED, S_REGISTERED } s_state_t;

#define HELLO_INTERVAL_MS 500
//  A Hello that found no connection (the coordinator is still starting, or
//  the connection is being made): tried again this soon, so that roles
//  started with their coordinator register as soon as it listens.
#define HELLO_RETRY_MS 5

struct _zs_participant_t {
    zsock_t *sock;
    s_state_t state;
    Zsink__Role role;
    int index;
    char instance[16];
    char id[64];
    zs_sender_t from; //  job id, epoch, role, index
    uint64_t seq;
    //  The Welcome's configuration (zs_participant_settings), as copies
    char **keys, **values;
    size_t n_settings;
    int parallelism;
    int64_t heartbeat_interval_ms; //  heartbeat.interval, of the Welcome
    int64_t heartbeat_timeout_ms;  //  heartbeat.timeout, of the Welcome
    int64_t last_heard;            //  mono ms of the last message from the coordinator
    int64_t last_sent;             //  mono ms of our last message (hello or heartbeat)
    int64_t last_heartbeat;        //  mono ms of our last heartbeat
    bool hello_out;                //  the last Hello was handed to a connection
    int64_t rows_read, rows_committed;
    Zsink__Split **splits; //  zs_participant_set_splits' copies
    size_t n_splits;
    zs_drops_t *drops;                //  on our control socket
    const zs_drops_t *role_drops;     //  the role's own sockets, reported with ours
    int64_t unauthorized, handshakes; //  zs_participant_set_security
    zsock_t *monitor;                 //  our connections' handshakes (NULL: none)
};

static void
s_settings_free (zs_participant_t *self)
{
    for (size_t i = 0; i < self->n_settings; i++) {
        free (self->keys[i]);
        free (self->values[i]);
    }
    free (self->keys);
    free (self->values);
    self->keys = self->values = NULL;
    self->n_settings = 0;
}

zs_participant_t *
zs_participant_new (Zsink__Role role, int index, const char *coordinator, char *err, size_t errlen)
{
    zs_participant_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    self->role = role;
    self->index = index;
    zs_net_instance (self->instance);
    if (role == ZSINK__ROLE__ROLE_WRITER)
        snprintf (self->id, sizeof self->id, "writer-%d-%s", index, self->instance);
    else
        snprintf (self->id, sizeof self->id, "committer-%s", self->instance);
    self->drops = zs_drops_new ("message from the coordinator");
    self->sock = self->drops ? zs_net_dealer (coordinator, self->id, err, errlen) : NULL;
    if (!self->sock) {
        if (!self->drops)
            snprintf (err, errlen, "out of memory");
        zs_drops_destroy (&self->drops);
        free (self);
        return NULL;
    }
    //  a connection made: a coordinator (re)started, or the network is back
    self->monitor = zs_monitor_new (self->sock, ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
    self->from.role = role;
    self->from.index = role == ZSINK__ROLE__ROLE_WRITER ? index : -1;
    self->from.epoch = 0;
    self->heartbeat_interval_ms = 500;
    self->heartbeat_timeout_ms = 5000;
    self->state = S_HELLO;
    return self;
}

void
zs_participant_destroy (zs_participant_t **self_p)
{
    if (self_p && *self_p) {
        zsock_destroy (&(*self_p)->monitor);
        zsock_destroy (&(*self_p)->sock);
        zs_drops_destroy (&(*self_p)->drops);
        zs_participant_set_splits (*self_p, NULL, 0);
        s_settings_free (*self_p);
        free (*self_p);
        *self_p = NULL;
    }
}

zsock_t *
zs_participant_sock (zs_participant_t *self)
{
    return self->sock;
}

const char *
zs_participant_id (zs_participant_t *self)
{
    return self->id;
}

const char *
zs_participant_instance (zs_participant_t *self)
{
    return self->instance;
}

size_t
zs_participant_settings (zs_participant_t *self, const char *const **keys,
                         const char *const **values)
{
    *keys = (const char *const *) self->keys;
    *values = (const char *const *) self->values;
    return self->n_settings;
}

int
zs_participant_parallelism (zs_participant_t *self)
{
    return self->parallelism;
}

const char *
zs_participant_job_id (zs_participant_t *self)
{
    return self->from.job_id;
}

int64_t
zs_participant_epoch (zs_participant_t *self)
{
    return self->from.epoch;
}

bool
zs_participant_registered (zs_participant_t *self)
{
    return self->state == S_REGISTERED;
}

int
zs_participant_send (zs_participant_t *self, zs_env_t *env)
{
    zs_env_stamp (env, &self->from, ++self->seq);
    self->last_sent = zs_clock_mono_ms ();
    return zs_env_send (self->sock, NULL, env);
}

static int
s_send_failure (zs_participant_t *self, const char *reason, bool fail_at_id, bool unrecoverable)
{
    char text[256];
    zs_event ("failure", "\"why\":\"%s\",\"unrecoverable\":%s",
              zs_event_str (reason, text, sizeof text), unrecoverable ? "true" : "false");
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_FAILURE);
    m.body.failure.reason = (char *) reason;
    m.body.failure.has_fail_at_id = fail_at_id;
    m.body.failure.fail_at_id = fail_at_id;
    m.body.failure.has_unrecoverable = unrecoverable;
    m.body.failure.unrecoverable = unrecoverable;
    return zs_participant_send (self, &m.env);
}

int
zs_participant_fail (zs_participant_t *self, const char *reason, bool fail_at_id)
{
    return s_send_failure (self, reason, fail_at_id, false);
}

int
zs_participant_fail_for_good (zs_participant_t *self, const char *reason)
{
    return s_send_failure (self, reason, false, true);
}

void
zs_participant_set_progress (zs_participant_t *self, int64_t rows_read, int64_t rows_committed)
{
    self->rows_read = rows_read;
    self->rows_committed = rows_committed;
}

void
zs_participant_set_splits (zs_participant_t *self, Zsink__Split *const *splits, size_t n)
{
    for (size_t i = 0; i < self->n_splits; i++)
        zs_split_free (&self->splits[i]);
    free (self->splits);
    self->splits = n ? calloc (n, sizeof *self->splits) : NULL;
    self->n_splits = 0;
    for (size_t i = 0; self->splits && i < n; i++)
        if ((self->splits[self->n_splits] = zs_split_dup (splits[i])))
            self->n_splits++;
}

void
zs_participant_report_drops (zs_participant_t *self, const zs_drops_t *drops)
{
    self->role_drops = drops;
}

void
zs_participant_set_security (zs_participant_t *self, int64_t unauthorized, int64_t handshakes)
{
    self->unauthorized = unauthorized;
    self->handshakes = handshakes;
}

//  Hello and Register say the same: who this process is.
static int
s_send_identity (zs_participant_t *self, Zsink__Envelope__BodyCase kind)
{
    zs_msg_t m;
    zs_msg_init (&m, kind);
#define S_IDENTIFY(msg)                                                                            \
    do {                                                                                           \
        (msg)->role = self->role;                                                                  \
        (msg)->has_index = true;                                                                   \
        (msg)->index = self->index;                                                                \
        (msg)->pid = getpid ();                                                                    \
        (msg)->instance = self->instance;                                                          \
    } while (0)
    if (kind == ZSINK__ENVELOPE__BODY_HELLO)
        S_IDENTIFY (&m.body.hello);
    else
        S_IDENTIFY (&m.body.register_);
#undef S_IDENTIFY
    return zs_participant_send (self, &m.env);
}

static void
s_send_hello (zs_participant_t *self)
{
    //  a first Hello knows no job and no epoch
    self->from.job_id[0] = 0;
    self->from.epoch = 0;
    self->seq = 0;
    self->hello_out = s_send_identity (self, ZSINK__ENVELOPE__BODY_HELLO) == 0;
}

long
zs_participant_wait_ms (zs_participant_t *self, long max)
{
    if (self->state == S_HELLO && self->last_sent == 0)
        return 0; //  a Hello is due now (the coordinator was lost)
    if (self->state == S_HELLO && !self->hello_out && max > HELLO_RETRY_MS)
        return HELLO_RETRY_MS;
    return max;
}

int
zs_participant_register (zs_participant_t *self)
{
    self->state = S_REGISTERED;
    self->last_heard = zs_clock_mono_ms ();
    return s_send_identity (self, ZSINK__ENVELOPE__BODY_REGISTER);
}

static void
s_send_heartbeat (zs_participant_t *self)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_HEARTBEAT);
    Zsink__Heartbeat *hb = &m.body.heartbeat;
    hb->has_rows_read = true;
    hb->rows_read = self->rows_read;
    hb->has_rows_committed = true;
    hb->rows_committed = self->rows_committed;
    int64_t dropped[ZS_DROP_NREASONS];
    for (int i = 0; i < ZS_DROP_NREASONS; i++)
        dropped[i] = zs_drops_count (self->drops, i)
                     + (self->role_drops ? zs_drops_count (self->role_drops, i) : 0);
    dropped[ZS_DROP_UNAUTHORIZED] += self->unauthorized;
    hb->n_dropped = ZS_DROP_NREASONS;
    hb->dropped = dropped;
    hb->has_refused_handshakes = true;
    hb->refused_handshakes = self->handshakes;
    hb->n_splits = self->n_splits;
    hb->splits = self->splits;
    zs_participant_send (self, &m.env);
    self->last_heartbeat = self->last_sent;
}

//  Refused by the coordinator is what a coordinator restart leaves (it no
//  longer knows us): normal, INFO. No heartbeat in time may be a network
//  fault: WARN.
static zs_pev_t
s_lost (zs_participant_t *self, zs_log_level_t level, const char *why)
{
    zs_log (level, "lost the coordinator (%s): dropping in-flight work, saying hello again", why);
    self->state = S_HELLO;
    self->last_sent = 0; //  hello at once
    return ZS_PEV_LOST;
}

//  Our timers from the Welcome's heartbeat.* (500ms and 5s when absent).
//  0, or -1 naming the value that is no duration.
static int
s_heartbeats (const Zsink__Welcome *w, int64_t *interval, int64_t *timeout)
{
    *interval = 500;
    *timeout = 5000;
    for (size_t i = 0; i < w->n_config; i++) {
        const char *key = w->config[i]->key, *value = w->config[i]->value;
        int64_t *ms = !strcmp (key, "heartbeat.interval")  ? interval
                      : !strcmp (key, "heartbeat.timeout") ? timeout
                                                           : NULL;
        if (ms && (zs_parse_duration_ms (value, ms) != 0 || *ms < 1)) {
            zs_error ("configuration from the coordinator refused: %s: bad duration '%s'", key,
                      value);
            return -1;
        }
    }
    return 0;
}

//  A copy of the Welcome's pairs. 0 or -1 (out of memory).
static int
s_settings_copy (zs_participant_t *self, const Zsink__Welcome *w)
{
    s_settings_free (self);
    self->keys = calloc (w->n_config + 1, sizeof *self->keys);
    self->values = calloc (w->n_config + 1, sizeof *self->values);
    if (!self->keys || !self->values)
        return -1;
    for (size_t i = 0; i < w->n_config; i++) {
        self->keys[i] = strdup (w->config[i]->key);
        self->values[i] = strdup (w->config[i]->value);
        self->n_settings++;
        if (!self->keys[i] || !self->values[i])
            return -1;
    }
    return 0;
}

//  Apply a Welcome: job id, epoch, configuration (its pairs are the job
//  layer's to read: zs_config_welcome).
static zs_pev_t
s_welcome (zs_participant_t *self, zs_env_t *env)
{
    Zsink__Welcome *w = env->welcome;
    int64_t interval, timeout;
    //  A coordinator of another version? Refuse loudly, keep trying.
    if (s_heartbeats (w, &interval, &timeout) != 0)
        return ZS_PEV_NONE;
    if (s_settings_copy (self, w) != 0) {
        zs_error ("configuration from the coordinator: out of memory");
        s_settings_free (self);
        return ZS_PEV_NONE;
    }
    self->parallelism = w->parallelism;
    self->heartbeat_interval_ms = interval;
    self->heartbeat_timeout_ms = timeout;
    snprintf (self->from.job_id, sizeof self->from.job_id, "%s", env->job_id);
    self->from.epoch = env->epoch;
    self->seq = 0;
    self->state = S_WELCOMED;
    self->last_heard = zs_clock_mono_ms ();
    return ZS_PEV_WELCOME;
}

zs_pev_t
zs_participant_poll (zs_participant_t *self, zs_env_t **env_p)
{
    *env_p = NULL;
    int64_t now = zs_clock_mono_ms ();
    //  A new connection to the coordinator's endpoint: a coordinator that
    //  restarted does not know us, so say who we are now, not at the next
    //  heartbeat (it refuses the heartbeat, and we say Hello at once).
    //  Before registering, the Hello retry covers it: a second Hello would
    //  only bring a second Welcome.
    int event;
    while (self->monitor && (event = zs_monitor_event (self->monitor, NULL, 0)))
        if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
            self->last_heartbeat = 0;
    //  Timers first: a silent coordinator is detected even when nothing
    //  arrives at all.
    if (self->state == S_HELLO
        && now - self->last_sent >= (self->hello_out ? HELLO_INTERVAL_MS : HELLO_RETRY_MS))
        s_send_hello (self);
    if (self->state == S_REGISTERED) {
        if (now - self->last_heard > self->heartbeat_timeout_ms)
            return s_lost (self, ZS_LOG_WARN, "no heartbeat within heartbeat.timeout");
        //  Every interval, even while other messages flow: heartbeats also
        //  carry the progress and drop counters `zsink status` shows.
        if (now - self->last_heartbeat >= self->heartbeat_interval_ms)
            s_send_heartbeat (self);
    }
    while (1) {
        zs_env_t *env = NULL;
        int rc = zs_drops_recv (self->drops, self->sock, NULL, 0, NULL, 0, &env);
        if (rc == 0)
            return ZS_PEV_NONE;
        if (rc < 0)
            continue;
        if (env->sender != ZSINK__ROLE__ROLE_COORDINATOR) {
            zs_drops_add (self->drops, ZS_DROP_FOREIGN, NULL, "not sent by a coordinator");
            zs_env_free (&env);
            continue;
        }
        if (env->body_case == ZSINK__ENVELOPE__BODY_WELCOME) {
            zs_pev_t ev = ZS_PEV_NONE;
            if (self->state == S_HELLO)
                ev = s_welcome (self, env);
            zs_env_free (&env);
            if (ev != ZS_PEV_NONE)
                return ev;
            continue;
        }
        if (self->state == S_HELLO && env->body_case == ZSINK__ENVELOPE__BODY_REFUSED) {
            //  the coordinator will not take us (e.g. index >= parallelism)
            zs_error ("the coordinator refused us: %s", env->refused->reason);
            bool superseded =
                strncmp (env->refused->reason, ZS_SUPERSEDED_REASON, strlen (ZS_SUPERSEDED_REASON))
                == 0;
            zs_env_free (&env);
            if (superseded)
                return ZS_PEV_SUPERSEDED;
            continue;
        }
        if (self->state == S_HELLO || strcmp (env->job_id, self->from.job_id) != 0) {
            zs_drops_add (self->drops, ZS_DROP_FOREIGN, NULL, NULL);
            zs_env_free (&env);
            continue;
        }
        if (env->epoch < self->from.epoch) {
            zs_drops_add (self->drops, ZS_DROP_STALE, NULL, NULL);
            zs_env_free (&env);
            continue;
        }
        self->last_heard = now;
        if (env->epoch > self->from.epoch) {
            self->from.epoch = env->epoch;
            self->seq = 0;
        }
        switch (env->body_case) {
        case ZSINK__ENVELOPE__BODY_HEARTBEAT:
            zs_env_free (&env);
            continue;
        case ZSINK__ENVELOPE__BODY_REFUSED: {
            char why[256];
            snprintf (why, sizeof why, "refused: %s", env->refused->reason);
            zs_env_free (&env);
            return s_lost (self, ZS_LOG_INFO, why);
        }
        default:
            *env_p = env;
            return ZS_PEV_MESSAGE;
        }
    }
}
