/*  ending.h - how the job stops: a stop with a savepoint under way, and
    the end once decided.

    A stop is asked by a client (zsink stop --savepoint, the cluster's
    SIGUSR1): its savepoint is triggered, completes (savepoint_done), and
    the job ends once its commit is reported or SAVEPOINT_COMMIT_WAIT_MS
    passed (with commit.ignore-empty an empty savepoint makes no snapshot,
    so no commit comes; the savepoint is durable either way). A failover
    drops the stop (the client is told).

    Once the job's end is decided (FINISHED, CANCELED, FAILED, or the lock
    lost) nothing changes it: the process exits with its code when every
    participant said Bye, or END_WAIT_MS after the decision.
*/
#ifndef ZS_ENDING_H_INCLUDED
#define ZS_ENDING_H_INCLUDED

#include "codec.h"

typedef struct _zs_ending_t zs_ending_t;

zs_ending_t *zs_ending_new (void);
void zs_ending_destroy (zs_ending_t **self_p);

//  A stop with a savepoint, asked by the client of routing id client.
void zs_ending_stop_asked (zs_ending_t *self, const char *client);
//  A stop is asked and not done (nor dropped).
bool zs_ending_stopping (zs_ending_t *self);
//  Its client's routing id ("" when none).
const char *zs_ending_client (zs_ending_t *self);
//  Its savepoint completed as checkpoint id at now: its commit is awaited.
void zs_ending_savepoint_done (zs_ending_t *self, int64_t id, int64_t now);
//  Its savepoint's id, 0 while none completed.
int64_t zs_ending_savepoint (zs_ending_t *self);
//  The commit of identifier covers the stop's savepoint.
bool zs_ending_savepoint_committed (zs_ending_t *self, int64_t identifier);
//  No commit of the savepoint was reported and waiting is over at now.
bool zs_ending_commit_overdue (zs_ending_t *self, int64_t now);
//  The stop is done or dropped (a failover).
void zs_ending_stop_over (zs_ending_t *self);

//  The job's end is decided at now; the process exits with code.
void zs_ending_decided (zs_ending_t *self, int code, int64_t now);
//  Decided, with no wait for the participants (the lock lost).
void zs_ending_at_once (zs_ending_t *self, int code);
bool zs_ending_is_decided (zs_ending_t *self);
//  Waiting for the participants' Bye is over at now.
bool zs_ending_waited_out (zs_ending_t *self, int64_t now);
int zs_ending_code (zs_ending_t *self);

#endif
