/*  monitor.c - see monitor.h. */
#include "monitor.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

zsock_t *
zs_monitor_new (zsock_t *sock, int events)
{
    char ep[64];
    snprintf (ep, sizeof ep, "inproc://zs-monitor-%p", (void *) sock);
    if (zmq_socket_monitor (zsock_resolve (sock), ep, events) != 0)
        return NULL;
    zsock_t *mon = zsock_new (ZMQ_PAIR);
    if (mon && zsock_connect (mon, "%s", ep) < 0)
        zsock_destroy (&mon);
    return mon;
}

int
zs_monitor_event (zsock_t *monitor, char *endpoint, size_t len)
{
    //  an event is two frames: [event u16, value u32], then the endpoint
    void *mon = zsock_resolve (monitor);
    zmq_msg_t msg;
    zmq_msg_init (&msg);
    if (zmq_msg_recv (&msg, mon, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close (&msg);
        return 0;
    }
    uint16_t event = 0;
    if (zmq_msg_size (&msg) >= 6)
        memcpy (&event, zmq_msg_data (&msg), 2);
    bool more = zmq_msg_more (&msg);
    zmq_msg_close (&msg);
    if (endpoint && len)
        endpoint[0] = 0;
    if (more) {
        zmq_msg_init (&msg);
        if (zmq_msg_recv (&msg, mon, ZMQ_DONTWAIT) >= 0 && endpoint && len) {
            size_t n = zmq_msg_size (&msg) < len - 1 ? zmq_msg_size (&msg) : len - 1;
            memcpy (endpoint, zmq_msg_data (&msg), n);
            endpoint[n] = 0;
        }
        zmq_msg_close (&msg);
    }
    return event ? event : -1; //  a frame not an event: skipped as one
}
