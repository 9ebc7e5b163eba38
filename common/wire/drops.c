/*  drops.c - see drops.h. */
#include "drops.h"
#include "log.h"
#include <stdio.h>
#include <stdlib.h>

struct _zs_drops_t {
    char what[32];
    int64_t n[ZS_DROP_NREASONS];
    zhash_t *logged; //  "reason peer" keys already logged
};

zs_drops_t *
zs_drops_new (const char *what)
{
    zs_drops_t *self = calloc (1, sizeof *self);
    if (!self)
        return NULL;
    snprintf (self->what, sizeof self->what, "%s", what);
    self->logged = zhash_new ();
    if (!self->logged) {
        free (self);
        return NULL;
    }
    return self;
}

void
zs_drops_destroy (zs_drops_t **self_p)
{
    if (self_p && *self_p) {
        zhash_destroy (&(*self_p)->logged);
        free (*self_p);
        *self_p = NULL;
    }
}

void
zs_drops_add (zs_drops_t *self, zs_drop_t why, const char *peer, const char *detail)
{
    if (why < 0 || why >= ZS_DROP_NREASONS)
        why = ZS_DROP_GARBAGE;
    int64_t n = ++self->n[why];
    char key[ZS_RID_MAX + 32];
    snprintf (key, sizeof key, "%s %s", zs_drop_name (why), peer ? peer : "");
    bool first = !zhash_lookup (self->logged, key);
    if (first && zhash_size (self->logged) < ZS_DROPS_PEERS)
        zhash_insert (self->logged, key, (void *) 1);
    else if (first)
        first = n % 1000 == 1; //  too many peers: sample instead
    if (!first)
        return;
    //  Stale is what a failover leaves (a heartbeat of the old epoch still
    //  on its way): normal, INFO. The others come from outside the job.
    zs_log (why == ZS_DROP_STALE ? ZS_LOG_INFO : ZS_LOG_WARN,
            "dropped a %s%s%s (%s%s%s; %lld %s so far)", self->what, peer ? " from " : "",
            peer ? peer : "", zs_drop_name (why), detail ? ": " : "", detail ? detail : "",
            (long long) n, zs_drop_name (why));
}

void
zs_drops_add_n (zs_drops_t *self, zs_drop_t why, int64_t n)
{
    if (why >= 0 && why < ZS_DROP_NREASONS && n > 0)
        self->n[why] += n;
}

int64_t
zs_drops_count (const zs_drops_t *self, zs_drop_t why)
{
    return why >= 0 && why < ZS_DROP_NREASONS ? self->n[why] : 0;
}

int64_t
zs_drops_total (const zs_drops_t *self)
{
    int64_t total = 0;
    for (int i = 0; i < ZS_DROP_NREASONS; i++)
        total += self->n[i];
    return total;
}

void
zs_drops_format (const zs_drops_t *self, char *buf, size_t len)
{
    size_t k = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < ZS_DROP_NREASONS && k < len; i++)
        k += (size_t) snprintf (buf + k, len - k, "%s%lld %s", i ? ", " : "",
                                (long long) self->n[i], zs_drop_name (i));
}

int
zs_drops_recv (zs_drops_t *self, zsock_t *sock, char *routing_id, size_t idlen, char *user,
               size_t user_len, zs_env_t **env_p)
{
    char err[ZS_ERRLEN];
    int rc = zs_env_recv_auth (sock, routing_id, idlen, user, user_len, env_p, err, sizeof err);
    if (rc >= 0)
        return rc;
    zs_drops_add (self, zs_drop_of (rc), routing_id, err);
    return -1;
}
