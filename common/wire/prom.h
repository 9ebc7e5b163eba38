/*  prom.h - a Prometheus text endpoint (Flink's PrometheusReporter,
    metrics.reporter.prom.port): GET /metrics answers the metrics a role
    renders at that moment, in the text exposition format 0.0.4.

    The role polls one fd with its other sockets (zmq_poll takes plain
    fds): an epoll set of the listening socket and the open connections.
    Each scrape is answered on the role's own thread, so the metrics need
    no locking, and nothing in here blocks: a request that arrives a byte
    at a time is read as it comes and its answer written as the socket
    takes it. At most 16 connections are open; a 17th closes the one that
    has waited longest, and one open for 10 s is closed.
*/
#ifndef ZS_PROM_H_INCLUDED
#define ZS_PROM_H_INCLUDED

#include "zs.h"
#include <stdio.h>

typedef struct zs_prom_t zs_prom_t;

//  Listen on the first free port of spec ("9249" or a range "9249-9260",
//  as Flink's key takes), on host (metrics.reporter.prom.bind-address: an
//  address or a name; NULL or "": every interface). NULL + err when none
//  is free, spec is not a port or a range, or host is no local address.
zs_prom_t *zs_prom_new (const char *spec, const char *host, char *err, size_t errlen);
void zs_prom_destroy (zs_prom_t **self_p);
int zs_prom_fd (zs_prom_t *self);
int zs_prom_port (zs_prom_t *self);
//  The address listened on, as given ("0.0.0.0": every interface).
const char *zs_prom_host (zs_prom_t *self);
//  Connections open (accepted, not yet answered and closed).
size_t zs_prom_connections (zs_prom_t *self);

//  Write the metrics into out (the exposition text).
typedef void (zs_prom_render_fn) (FILE *out, void *arg);

//  The fd is readable: accept, read, and answer every scrape whose request
//  is whole with render's text. Never waits.
void zs_prom_serve (zs_prom_t *self, zs_prom_render_fn *render, void *arg);

//  One sample: "# HELP", "# TYPE" (when help is given, once per name) and
//  "name{labels} value". labels is "" or `key="value",…`.
void zs_prom_sample (FILE *out, const char *name, const char *type, const char *help,
                     const char *labels, double value);

//  A role's metrics as a table: each sample named prefix + name.
typedef struct {
    const char *name, *type, *help;
    double value;
} zs_prom_metric_t;
void zs_prom_samples (FILE *out, const char *prefix, const char *labels, const zs_prom_metric_t *m,
                      size_t n);

#endif
