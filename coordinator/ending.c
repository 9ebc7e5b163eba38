/*  ending.c - see ending.h. */
#include "ending.h"
#include <stdio.h>
#include <stdlib.h>

//  After a savepoint completes, how long to wait for its commit before
//  stopping anyway.
#define SAVEPOINT_COMMIT_WAIT_MS 10000

//  After the job ends, how long to wait for every participant's Bye.
#define END_WAIT_MS 2000

struct _zs_ending_t {
    bool stop_asked;
    char client[ZS_RID_MAX];
    int64_t savepoint;       //  the stop's savepoint, once completed (0: not yet)
    int64_t commit_deadline; //  stop even if no commit comes (ignore-empty)
    bool decided;
    int64_t end_deadline;
    int code;
};

zs_ending_t *
zs_ending_new (void)
{
    return calloc (1, sizeof (zs_ending_t));
}

void
zs_ending_destroy (zs_ending_t **self_p)
{
    free (*self_p);
    *self_p = NULL;
}

void
zs_ending_stop_asked (zs_ending_t *self, const char *client)
{
    self->stop_asked = true;
    self->savepoint = 0;
    snprintf (self->client, sizeof self->client, "%s", client);
}

bool
zs_ending_stopping (zs_ending_t *self)
{
    return self->stop_asked;
}

const char *
zs_ending_client (zs_ending_t *self)
{
    return self->client;
}

void
zs_ending_savepoint_done (zs_ending_t *self, int64_t id, int64_t now)
{
    self->savepoint = id;
    self->commit_deadline = now + SAVEPOINT_COMMIT_WAIT_MS;
}

int64_t
zs_ending_savepoint (zs_ending_t *self)
{
    return self->savepoint;
}

bool
zs_ending_savepoint_committed (zs_ending_t *self, int64_t identifier)
{
    return self->stop_asked && self->savepoint && identifier >= self->savepoint;
}

bool
zs_ending_commit_overdue (zs_ending_t *self, int64_t now)
{
    return self->stop_asked && self->savepoint && now > self->commit_deadline;
}

void
zs_ending_stop_over (zs_ending_t *self)
{
    self->stop_asked = false;
}

void
zs_ending_decided (zs_ending_t *self, int code, int64_t now)
{
    self->decided = true;
    self->end_deadline = now + END_WAIT_MS;
    self->code = code;
}

void
zs_ending_at_once (zs_ending_t *self, int code)
{
    self->decided = true;
    self->end_deadline = 0;
    self->code = code;
}

bool
zs_ending_is_decided (zs_ending_t *self)
{
    return self->decided;
}

bool
zs_ending_waited_out (zs_ending_t *self, int64_t now)
{
    return now > self->end_deadline;
}

int
zs_ending_code (zs_ending_t *self)
{
    return self->code;
}
