/*  config_welcome.c - see config.h (zs_config_welcome): the configuration
    a Welcome brought, read by the job layer from the participant's
    key/value pairs (wire/ knows no key but its heartbeat timers). Apart
    from config.c, which a program that never joins a job (the fuzz
    targets) links without the participant.
*/
#include "config.h"
#include <stdio.h>
#include <stdlib.h>

int
zs_config_welcome (zs_config_t *cfg, zs_participant_t *part, char *err, size_t errlen)
{
    const char *const *keys, *const *values;
    size_t n = zs_participant_settings (part, &keys, &values);
    zs_config_t *made = malloc (sizeof *made);
    if (!made) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    zs_config_defaults (made);
    for (size_t i = 0; i < n; i++)
        if (zs_config_set (made, keys[i], values[i], err, errlen) < 0) {
            free (made);
            return -1;
        }
    made->parallelism = zs_participant_parallelism (part);
    *cfg = *made;
    free (made);
    return 0;
}
