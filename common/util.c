/*  util.c - clocks and UUIDs (zs.h). */
#include "zs.h"
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

void
zs_uuid (char *buf)
{
    uuid_t u;
    uuid_generate_random (u);
    uuid_unparse_lower (u, buf);
}
