/*  prom.c - see prom.h. */
#include "prom.h"
#include "config.h"
#include "log.h"
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define S_REQUEST_MAX 4096
#define S_REQUEST_WAIT_MS 200

struct zs_prom_t {
    int fd;
    int port;
};

zs_prom_t *
zs_prom_new (const char *spec, char *err, size_t errlen)
{
    int lo, hi;
    if (zs_config_port_range (spec, &lo, &hi) != 0) {
        snprintf (err, errlen, "metrics.reporter.prom.port: '%s' is not a port or a range A-B",
                  spec);
        return NULL;
    }
    for (int port = lo; port <= hi; port++) {
        int fd = socket (AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            break;
        int one = 1;
        setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in addr = {.sin_family = AF_INET,
                                   .sin_port = htons ((uint16_t) port),
                                   .sin_addr.s_addr = htonl (INADDR_ANY)};
        if (bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0 && listen (fd, 16) == 0) {
            zs_prom_t *self = calloc (1, sizeof *self);
            if (!self) {
                close (fd);
                break;
            }
            self->fd = fd;
            self->port = port;
            return self;
        }
        close (fd);
    }
    snprintf (err, errlen, "metrics.reporter.prom.port: no free port in %s: %s", spec,
              strerror (errno));
    return NULL;
}

void
zs_prom_destroy (zs_prom_t **self_p)
{
    if (!*self_p)
        return;
    close ((*self_p)->fd);
    free (*self_p);
    *self_p = NULL;
}

int
zs_prom_fd (zs_prom_t *self)
{
    return self->fd;
}

int
zs_prom_port (zs_prom_t *self)
{
    return self->port;
}

//  Read the request head (up to a blank line) within the deadline. Its
//  length, or -1.
static int
s_read_request (int fd, char *buf, size_t len)
{
    size_t got = 0;
    int64_t until = zs_clock_mono_ms () + S_REQUEST_WAIT_MS;
    while (got + 1 < len) {
        int64_t left = until - zs_clock_mono_ms ();
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll (&p, 1, (int) left) <= 0)
            return -1;
        ssize_t n = read (fd, buf + got, len - 1 - got);
        if (n <= 0)
            return n < 0 && errno == EAGAIN ? 0 : -1;
        got += (size_t) n;
        buf[got] = 0;
        if (strstr (buf, "\r\n\r\n") || strstr (buf, "\n\n"))
            return (int) got;
    }
    return -1;
}

static void
s_write_all (int fd, const char *data, size_t len)
{
    int64_t until = zs_clock_mono_ms () + S_REQUEST_WAIT_MS;
    while (len > 0 && zs_clock_mono_ms () < until) {
        ssize_t n = write (fd, data, len);
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            poll (&p, 1, 50);
            continue;
        }
        if (n <= 0)
            return;
        data += n;
        len -= (size_t) n;
    }
}

static void
s_answer (int fd, zs_prom_render_fn *render, void *arg)
{
    char req[S_REQUEST_MAX];
    if (s_read_request (fd, req, sizeof req) <= 0)
        return;
    char *body = NULL;
    size_t body_len = 0;
    const char *status = "200 OK";
    FILE *out = open_memstream (&body, &body_len);
    if (!out)
        return;
    if (strncmp (req, "GET /metrics", 12) == 0 || strncmp (req, "GET / ", 6) == 0)
        render (out, arg);
    else {
        status = "404 Not Found";
        fprintf (out, "GET /metrics\n");
    }
    fclose (out);
    char head[256];
    int n = snprintf (head, sizeof head,
                      "HTTP/1.1 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                      "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                      status, body_len);
    s_write_all (fd, head, (size_t) n);
    s_write_all (fd, body, body_len);
    free (body);
}

void
zs_prom_serve (zs_prom_t *self, zs_prom_render_fn *render, void *arg)
{
    int fd;
    while ((fd = accept4 (self->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
        s_answer (fd, render, arg);
        close (fd);
    }
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
