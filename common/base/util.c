/*  util.c - clocks and UUIDs (zs.h). */
#include "zs.h"
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <uuid/uuid.h>

int64_t
zs_clock_mono_ms (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
zs_clock_wall_ms (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
zs_clock_local_ms (void)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime (CLOCK_REALTIME, &ts);
    time_t secs = ts.tv_sec;
    localtime_r (&secs, &tm);
    return ((int64_t) ts.tv_sec + tm.tm_gmtoff) * 1000 + ts.tv_nsec / 1000000;
}

void
zs_trim_span (const char **a, const char **b)
{
    while (*a < *b && isspace ((unsigned char) **a))
        (*a)++;
    while (*b > *a && isspace ((unsigned char) (*b)[-1]))
        (*b)--;
}

uint64_t
zs_fnv1a (const char *text)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *c = text; *c; c++)
        h = (h ^ (uint8_t) *c) * 1099511628211ull;
    return h;
}

void
zs_job8 (const char *job_id, char job8[9])
{
    uint64_t h = zs_fnv1a (job_id ? job_id : "");
    snprintf (job8, 9, "%08x", (unsigned) (h >> 32));
}

void
zs_uuid (char *buf)
{
    uuid_t u;
    uuid_generate_random (u);
    uuid_unparse_lower (u, buf);
}

void
zs_new_job_id (char *buf)
{
    char uuid[40];
    zs_uuid (uuid);
    size_t j = 0;
    for (size_t i = 0; uuid[i] && j < 32; i++)
        if (uuid[i] != '-')
            buf[j++] = uuid[i];
    buf[j] = 0;
}

void *
zs_grow (void *data, size_t *cap_p, size_t len, size_t more, size_t first)
{
    if (more > SIZE_MAX - len)
        return NULL;
    size_t need = len + more;
    if (need <= *cap_p)
        return data;
    size_t cap = *cap_p ? *cap_p : first;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return NULL;
        cap *= 2;
    }
    void *grown = realloc (data, cap);
    if (grown)
        *cap_p = cap;
    return grown;
}
