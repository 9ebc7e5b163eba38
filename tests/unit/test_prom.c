/*  test_prom.c - the Prometheus endpoint never waits on a client: a
    request that comes a piece at a time is answered when it is whole, a
    client that connects and says nothing neither stalls zs_prom_serve nor
    keeps the next scrape out, and a bad port spec is refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "prom.h"
#include "zs.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int s_renders;
static size_t s_pad; //  bytes of comment lines before the sample

static void
s_render (FILE *out, void *arg)
{
    s_renders++;
    for (size_t i = 0; i + 64 <= s_pad; i += 64)
        fprintf (out, "# %061zu\n", i);
    zs_prom_sample (out, "zsink_test_value", "gauge", "a test gauge", "", *(double *) arg);
}

//  A port range of 100 from a random base: the first free one is taken.
static zs_prom_t *
s_prom_new (void)
{
    char spec[32], err[256];
    int base = 20000 + (int) (getpid () % 20000);
    snprintf (spec, sizeof spec, "%d-%d", base, base + 100);
    zs_prom_t *prom = zs_prom_new (spec, NULL, err, sizeof err);
    if (!prom)
        fail_msg ("zs_prom_new: %s", err);
    return prom;
}

static int
s_connect (zs_prom_t *prom)
{
    int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true (fd >= 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons ((uint16_t) zs_prom_port (prom)),
                               .sin_addr.s_addr = htonl (INADDR_LOOPBACK)};
    assert_int_equal (connect (fd, (struct sockaddr *) &addr, sizeof addr), 0);
    return fd;
}

static void
s_send_str (int fd, const char *s)
{
    assert_int_equal (send (fd, s, strlen (s), MSG_NOSIGNAL), (ssize_t) strlen (s));
}

//  Serve until the endpoint's fd is quiet. Whether a serve waits on a
//  client is told by the connections, not by a clock: one that waited
//  would have given up on a request still in pieces or an answer still
//  leaving, and closed the connection, which the tests below see.
static void
s_serve (zs_prom_t *prom, double *value)
{
    struct pollfd p = {.fd = zs_prom_fd (prom), .events = POLLIN};
    for (int rounds = 0; rounds < 100 && poll (&p, 1, 20) > 0; rounds++)
        zs_prom_serve (prom, s_render, value);
}

//  Read the whole answer (the server closes after it).
static char *
s_read_answer (int fd, zs_prom_t *prom, double *value)
{
    static char buf[8 << 20];
    size_t got = 0;
    for (int tries = 0; tries < 2000; tries++) {
        s_serve (prom, value);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll (&p, 1, 10) <= 0)
            continue;
        ssize_t n = recv (fd, buf + got, sizeof buf - 1 - got, 0);
        assert_true (n >= 0);
        if (n == 0) {
            buf[got] = 0;
            return buf;
        }
        got += (size_t) n;
    }
    fail_msg ("no whole answer");
    return NULL;
}

//  Is fd still open on the server's side (no EOF waiting)?
static bool
s_still_open (int fd)
{
    char c;
    ssize_t n = recv (fd, &c, 1, MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

static void
test_scrape (void **state)
{
    zs_prom_t *prom = s_prom_new ();
    double value = 42;
    int fd = s_connect (prom);
    s_send_str (fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    char *answer = s_read_answer (fd, prom, &value);
    assert_non_null (strstr (answer, "HTTP/1.1 200 OK\r\n"));
    assert_non_null (strstr (answer, "# TYPE zsink_test_value gauge\nzsink_test_value 42\n"));
    const char *body = strstr (answer, "\r\n\r\n") + 4;
    char cl[64];
    snprintf (cl, sizeof cl, "Content-Length: %zu\r\n", strlen (body));
    assert_non_null (strstr (answer, cl));
    close (fd);

    fd = s_connect (prom);
    s_send_str (fd, "GET /nothing HTTP/1.0\n\n");
    assert_non_null (strstr (s_read_answer (fd, prom, &value), "HTTP/1.1 404 Not Found\r\n"));
    close (fd);
    assert_int_equal (zs_prom_connections (prom), 0);
    zs_prom_destroy (&prom);
    assert_null (prom);
}

//  A request a few bytes at a time, with serves between: held open, not
//  answered before it is whole, answered once it is.
static void
test_request_in_pieces (void **state)
{
    zs_prom_t *prom = s_prom_new ();
    double value = 7;
    int fd = s_connect (prom);
    const char *pieces[] = {"GE", "T /met", "rics HTTP/1.1\r\n", "Host: x\r\n", "\r"};
    s_renders = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        s_send_str (fd, pieces[i]);
        s_serve (prom, &value);
        assert_true (s_still_open (fd));
        assert_int_equal (zs_prom_connections (prom), 1);
    }
    assert_int_equal (s_renders, 0);
    s_send_str (fd, "\n");
    assert_non_null (strstr (s_read_answer (fd, prom, &value), "zsink_test_value 7\n"));
    assert_int_equal (s_renders, 1);
    close (fd);
    zs_prom_destroy (&prom);
}

//  Twenty clients connect and say nothing: serving never waits on them,
//  at most 16 are kept (the longest waiting give way), and a scrape among
//  them is answered.
static void
test_silent_clients (void **state)
{
    zs_prom_t *prom = s_prom_new ();
    double value = 1;
    int silent[20];
    for (int i = 0; i < 20; i++) {
        silent[i] = s_connect (prom);
        s_send_str (silent[i], "GET /metrics HTTP/1.1\r\n");
        s_serve (prom, &value);
    }
    assert_int_equal (zs_prom_connections (prom), 16);
    assert_false (s_still_open (silent[0])); //  the first four gave way
    assert_true (s_still_open (silent[19]));
    int fd = s_connect (prom);
    s_send_str (fd, "GET /metrics HTTP/1.1\r\n\r\n");
    assert_non_null (strstr (s_read_answer (fd, prom, &value), "zsink_test_value 1\n"));
    close (fd);
    for (int i = 0; i < 20; i++)
        close (silent[i]);
    //  Their closes are read as EOF: every slot is free again.
    s_serve (prom, &value);
    assert_int_equal (zs_prom_connections (prom), 0);
    zs_prom_destroy (&prom);
}

//  An answer of 4 MB to a client that does not read yet: serving returns
//  at once with the rest waiting for the socket, and the client, reading
//  later, gets all of it. A client gone before its answer is out costs
//  nothing (no SIGPIPE, its slot freed).
static void
test_slow_reader (void **state)
{
    zs_prom_t *prom = s_prom_new ();
    double value = 3;
    s_pad = 4 << 20;
    int fd = s_connect (prom);
    s_send_str (fd, "GET /metrics HTTP/1.1\r\n\r\n");
    s_serve (prom, &value);
    assert_int_equal (zs_prom_connections (prom), 1); //  the rest of the answer waits
    char *answer = s_read_answer (fd, prom, &value);
    assert_true (strlen (answer) > s_pad);
    assert_non_null (strstr (answer, "zsink_test_value 3\n"));
    close (fd);

    fd = s_connect (prom);
    s_send_str (fd, "GET /metrics HTTP/1.1\r\n\r\n");
    s_serve (prom, &value);
    assert_int_equal (zs_prom_connections (prom), 1);
    close (fd);
    s_serve (prom, &value);
    assert_int_equal (zs_prom_connections (prom), 0);
    s_pad = 0;
    zs_prom_destroy (&prom);
}

static void
test_bad_spec (void **state)
{
    char err[256];
    assert_null (zs_prom_new ("9300-9200", NULL, err, sizeof err));
    assert_non_null (strstr (err, "metrics.reporter.prom.port: '9300-9200'"));
    assert_null (zs_prom_new ("http", NULL, err, sizeof err));
    assert_non_null (strstr (err, "metrics.reporter.prom.port"));
}

//  metrics.reporter.prom.bind-address: the endpoint listens on that
//  address only; one that is not this machine's, or no address, is
//  refused with the key named.
static void
test_bind_address (void **state)
{
    char spec[32], err[256];
    int base = 40000 + (int) (getpid () % 20000);
    snprintf (spec, sizeof spec, "%d-%d", base, base + 100);
    zs_prom_t *prom = zs_prom_new (spec, "127.0.0.1", err, sizeof err);
    if (!prom)
        fail_msg ("zs_prom_new: %s", err);
    assert_string_equal (zs_prom_host (prom), "127.0.0.1");
    int fd = socket (AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons ((uint16_t) zs_prom_port (prom)),
                               .sin_addr.s_addr = htonl (INADDR_LOOPBACK)};
    assert_int_equal (connect (fd, (struct sockaddr *) &addr, sizeof addr), 0);
    close (fd);
    zs_prom_destroy (&prom);
    prom = zs_prom_new (spec, "", err, sizeof err); //  "": every interface
    assert_non_null (prom);
    assert_string_equal (zs_prom_host (prom), "0.0.0.0");
    zs_prom_destroy (&prom);
    assert_null (zs_prom_new (spec, "192.0.2.1", err, sizeof err));
    assert_non_null (strstr (err, "metrics.reporter.prom.bind-address: '192.0.2.1'"));
    assert_null (zs_prom_new (spec, "no such host.invalid", err, sizeof err));
    assert_non_null (strstr (err, "metrics.reporter.prom.bind-address"));
}

int
main (void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test (test_scrape),         cmocka_unit_test (test_request_in_pieces),
        cmocka_unit_test (test_silent_clients), cmocka_unit_test (test_slow_reader),
        cmocka_unit_test (test_bad_spec),       cmocka_unit_test (test_bind_address),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
