/*  client.h - talk to a running coordinator (zsink status / stop / cancel,
    and the cluster launcher's progress line).
*/
#ifndef ZS_CLIENT_H_INCLUDED
#define ZS_CLIENT_H_INCLUDED

#include "codec.h"

//  A DEALER to the coordinator at endpoint, with a routing id of its own
//  (client-<pid>-<instance>); *from is set to the stamp of a client's
//  requests. NULL with err on failure.
zsock_t *zs_client_connect (const char *endpoint, zs_sender_t *from, char *err, size_t errlen);

//  Send one request and wait up to timeout_ms for the reply. Returns 0 with
//  *json_p (malloc'd) set and *ok_p the coordinator's verdict; -1 with err
//  on timeout or transport failure.
int zs_client_request (const char *endpoint, Zsink__ClientRequest__Kind kind, bool savepoint,
                       int timeout_ms, bool *ok_p, char **json_p, char *err, size_t errlen);

//  `zsink status|stop|cancel …`: argv[0] is the subcommand.
int zs_client_cmd (int argc, char **argv);

//  Where a local cluster says its coordinator is: <checkpoints dir>/cluster.json
int zs_client_find_endpoint (const char *checkpoints_dir, char *endpoint, size_t len, char *err,
                             size_t errlen);

#endif
