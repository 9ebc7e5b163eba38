/*  prom.c - see prom.h. */
#include "prom.h"
#include "opts.h"
#include "log.h"
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define S_REQUEST_MAX 4096
#define S_CONN_MAX 16
#define S_CONN_IDLE_MS 10000

//  One client connection: its request as it arrives, then its answer as it
//  leaves. fd -1 is a free slot.
typedef struct {
    int fd;
    int64_t since; //  accepted at (monotonic ms)
    size_t got;    //  bytes of req so far
    char req[S_REQUEST_MAX];
    char *out; //  the whole answer, once the request is complete
    size_t out_len, out_off;
} s_conn_t;

struct zs_prom_t {
    int fd; //  the listening socket
    int ep; //  epoll over it and every connection: what the role polls
    int port;
    char host[256]; //  the address bound ("0.0.0.0": every interface)
    s_conn_t conn[S_CONN_MAX];
};

//  A listening socket on host (NULL: every interface) and port, or -1
//  with errno; *gai_p the resolver's error when host is no address.
static int
s_listen (const char *host, int port, int *gai_p)
{
    char service[16];
    snprintf (service, sizeof service, "%d", port);
    struct addrinfo hints = {.ai_family = host ? AF_UNSPEC : AF_INET,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV},
                    *res = NULL;
    *gai_p = getaddrinfo (host, service, &hints, &res);
    if (*gai_p != 0)
        return -1;
    int fd = -1;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket (ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        int one = 1;
        setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind (fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen (fd, 16) != 0) {
            int e = errno;
            close (fd);
            fd = -1;
            errno = e;
        }
    }
    freeaddrinfo (res);
    return fd;
}

//  The endpoint around a listening socket, NULL + err.
static zs_prom_t *
s_new (int fd, const char *host, int port, char *err, size_t errlen)
{
    zs_prom_t *self = calloc (1, sizeof *self);
    int ep = epoll_create1 (EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (!self || ep < 0 || epoll_ctl (ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
        snprintf (err, errlen, "metrics.reporter.prom.port: %s", strerror (errno));
        if (ep >= 0)
            close (ep);
        free (self);
        close (fd);
        return NULL;
    }
    self->fd = fd;
    self->ep = ep;
    self->port = port;
    snprintf (self->host, sizeof self->host, "%s", host ? host : "0.0.0.0");
    for (int i = 0; i < S_CONN_MAX; i++)
        self->conn[i].fd = -1;
    return self;
}

zs_prom_t *
zs_prom_new (const char *spec, const char *host, char *err, size_t errlen)
{
    int lo, hi;
    if (zs_parse_port_range (spec, &lo, &hi) != 0) {
        snprintf (err, errlen, "metrics.reporter.prom.port: '%s' is not a port or a range A-B",
                  spec);
        return NULL;
    }
    if (host && !*host)
        host = NULL;
    for (int port = lo; port <= hi; port++) {
        int gai = 0;
        int fd = s_listen (host, port, &gai);
        if (gai != 0) {
            snprintf (err, errlen, "metrics.reporter.prom.bind-address: '%s' is no address: %s",
                      host, gai_strerror (gai));
            return NULL;
        }
        if (fd >= 0)
            return s_new (fd, host, port, err, errlen);
        if (errno == EADDRNOTAVAIL) {
            snprintf (err, errlen, "metrics.reporter.prom.bind-address: '%s': %s", host,
                      strerror (errno));
            return NULL;
        }
    }
    snprintf (err, errlen, "metrics.reporter.prom.port: no free port in %s: %s", spec,
              strerror (errno));
    return NULL;
}

static void
s_conn_close (zs_prom_t *self, s_conn_t *conn)
{
    if (conn->fd < 0)
        return;
    epoll_ctl (self->ep, EPOLL_CTL_DEL, conn->fd, NULL);
    close (conn->fd);
    free (conn->out);
    conn->fd = -1;
    conn->out = NULL;
}

void
zs_prom_destroy (zs_prom_t **self_p)
{
    zs_prom_t *self = *self_p;
    if (!self)
        return;
    for (int i = 0; i < S_CONN_MAX; i++)
        s_conn_close (self, &self->conn[i]);
    close (self->ep);
    close (self->fd);
    free (self);
    *self_p = NULL;
}

int
zs_prom_fd (zs_prom_t *self)
{
    return self->ep;
}

int
zs_prom_port (zs_prom_t *self)
{
    return self->port;
}

const char *
zs_prom_host (zs_prom_t *self)
{
    return self->host;
}

size_t
zs_prom_connections (zs_prom_t *self)
{
    size_t n = 0;
    for (int i = 0; i < S_CONN_MAX; i++)
        n += self->conn[i].fd >= 0;
    return n;
}

//  Take a new connection into a free slot; with none free, the one that
//  has waited longest gives way (a client that connects and says nothing
//  must not keep the next scrape out).
static void
s_accept (zs_prom_t *self, int fd)
{
    s_conn_t *slot = NULL;
    for (int i = 0; i < S_CONN_MAX && !slot; i++)
        if (self->conn[i].fd < 0)
            slot = &self->conn[i];
    if (!slot) {
        slot = &self->conn[0];
        for (int i = 1; i < S_CONN_MAX; i++)
            if (self->conn[i].since < slot->since)
                slot = &self->conn[i];
        s_conn_close (self, slot);
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (epoll_ctl (self->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
        close (fd);
        return;
    }
    slot->fd = fd;
    slot->since = zs_clock_mono_ms ();
    slot->got = 0;
}

//  The request is whole: render the answer into conn->out.
static int
s_answer (s_conn_t *conn, zs_prom_render_fn *render, void *arg)
{
    char *body = NULL;
    size_t body_len = 0;
    const char *status = "200 OK";
    FILE *out = open_memstream (&body, &body_len);
    if (!out)
        return -1;
    if (strncmp (conn->req, "GET /metrics", 12) == 0 || strncmp (conn->req, "GET / ", 6) == 0)
        render (out, arg);
    else {
        status = "404 Not Found";
        fprintf (out, "GET /metrics\n");
    }
    fclose (out);
    int n = asprintf (&conn->out,
                      "HTTP/1.1 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                      "Content-Length: %zu\r\nConnection: close\r\n\r\n%.*s",
                      status, body_len, (int) body_len, body ? body : "");
    free (body);
    if (n < 0) {
        conn->out = NULL;
        return -1;
    }
    conn->out_len = (size_t) n;
    conn->out_off = 0;
    return 0;
}

//  Write what the socket takes. 1 when the answer is all out, 0 when the
//  rest waits for the socket to drain, -1 on an error.
static int
s_send (zs_prom_t *self, s_conn_t *conn)
{
    while (conn->out_off < conn->out_len) {
        ssize_t n =
            send (conn->fd, conn->out + conn->out_off, conn->out_len - conn->out_off, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct epoll_event ev = {.events = EPOLLOUT, .data.fd = conn->fd};
            return epoll_ctl (self->ep, EPOLL_CTL_MOD, conn->fd, &ev) == 0 ? 0 : -1;
        }
        if (n <= 0)
            return -1;
        conn->out_off += (size_t) n;
    }
    return 1;
}

//  Read what has arrived; once the request head (up to a blank line) is
//  whole, answer. Done with the connection: close it.
static void
s_serve_conn (zs_prom_t *self, s_conn_t *conn, zs_prom_render_fn *render, void *arg)
{
    if (!conn->out) {
        while (true) {
            if (conn->got + 1 >= sizeof conn->req) {
                s_conn_close (self, conn); //  no request is this long
                return;
            }
            ssize_t n = recv (conn->fd, conn->req + conn->got, sizeof conn->req - 1 - conn->got, 0);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return; //  the rest later
            if (n <= 0) {
                s_conn_close (self, conn);
                return;
            }
            conn->got += (size_t) n;
            conn->req[conn->got] = 0;
            if (strstr (conn->req, "\r\n\r\n") || strstr (conn->req, "\n\n"))
                break;
        }
        if (s_answer (conn, render, arg) != 0) {
            s_conn_close (self, conn);
            return;
        }
    }
    if (s_send (self, conn) != 0)
        s_conn_close (self, conn);
}

void
zs_prom_serve (zs_prom_t *self, zs_prom_render_fn *render, void *arg)
{
    int64_t now = zs_clock_mono_ms ();
    for (int i = 0; i < S_CONN_MAX; i++)
        if (self->conn[i].fd >= 0 && now - self->conn[i].since > S_CONN_IDLE_MS)
            s_conn_close (self, &self->conn[i]);
    //  The epoll set only wakes the role's poll; every socket here is
    //  non-blocking, so each is simply tried (at most 17 calls). The
    //  connections after the accepts: one accepted now may have its
    //  request already.
    int fd;
    while ((fd = accept4 (self->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0)
        s_accept (self, fd);
    for (int i = 0; i < S_CONN_MAX; i++)
        if (self->conn[i].fd >= 0)
            s_serve_conn (self, &self->conn[i], render, arg);
}

void
zs_prom_sample (FILE *out, const char *name, const char *type, const char *help, const char *labels,
                double value)
{
    if (help)
        fprintf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
    fprintf (out, "%s%s%s%s %.17g\n", name, *labels ? "{" : "", labels, *labels ? "}" : "", value);
}

void
zs_prom_samples (FILE *out, const char *prefix, const char *labels, const zs_prom_metric_t *m,
                 size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[128];
        snprintf (name, sizeof name, "%s%s", prefix, m[i].name);
        zs_prom_sample (out, name, m[i].type, m[i].help, labels, m[i].value);
    }
}
