/*  fuzz_config.c - the job configuration's parsers (config.h):
    zs_config_load_yaml on a YAML file, then zs_config_set_kv on -D style
    "key=value" overrides, as zs_config_build does.

    Input: YAML text, optionally followed by a NUL byte and overrides, one
    "key=value" per line ("parallelism: 2\n\0table.path=/t\n").
    Properties, beyond "no crash, leak or UB":
    1. a failed load or set leaves the configuration untouched, byte for
       byte (config.c invariant 2);
    2. every key's text from zs_config_foreach sets back to the same value
       on a fresh configuration (config.c invariant 1): both configurations
       then print the same;
    3. zs_config_validate's verdict does not change across that round trip.
*/
#include "config.h"
#include "fuzz_common.h"

typedef struct {
    zs_config_t *into;
    int failures;
} s_copy_t;

static void
s_set_into (const char *key, const char *value, void *arg)
{
    s_copy_t *c = arg;
    char err[ZS_ERRLEN];
    if (zs_config_set (c->into, key, value, err, sizeof err) != 0) {
        fprintf (stderr, "round trip: %s='%s' does not set back: %s\n", key, value, err);
        c->failures++;
    }
}

typedef struct {
    const zs_config_t *other;
    int differences;
} s_cmp_t;

static void
s_compare (const char *key, const char *value, void *arg)
{
    s_cmp_t *c = arg;
    static char other[ZS_SCHEMA_TEXT_MAX + ZS_PATH_MAX];
    if (zs_config_get (c->other, key, other, sizeof other) != 0 || strcmp (value, other) != 0) {
        fprintf (stderr, "round trip: %s was '%s', is '%s'\n", key, value, other);
        c->differences++;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    static zs_config_t cfg, before, copy;
    char err[ZS_ERRLEN] = "";
    const uint8_t *nul = memchr (data, 0, size);
    size_t yaml_len = nul ? (size_t) (nul - data) : size;

    zs_config_defaults (&cfg);
    before = cfg;
    int rc = zs_config_load_yaml (&cfg, zs_fuzz_file (data, yaml_len), err, sizeof err);
    if (zs_fuzz_verbose ())
        fprintf (stderr, "load: %s\n", rc == 0 ? "ok" : err);
    if (rc != 0) {
        ZS_FUZZ_CHECK (rc == -1 && err[0] != 0);
        ZS_FUZZ_CHECK (memcmp (&cfg, &before, sizeof cfg) == 0);
    }
    if (nul) {
        char *kv = zs_fuzz_text (nul + 1, size - yaml_len - 1);
        for (char *line = kv, *next; line; line = next) {
            next = strchr (line, '\n');
            if (next)
                *next++ = 0;
            before = cfg;
            err[0] = 0;
            if (zs_config_set_kv (&cfg, line, err, sizeof err) != 0) {
                ZS_FUZZ_CHECK (err[0] != 0);
                if (memcmp (&cfg, &before, sizeof cfg) != 0)
                    fprintf (stderr, "failed set of '%.80s' (%s) changed the configuration\n", line,
                             err);
                ZS_FUZZ_CHECK (memcmp (&cfg, &before, sizeof cfg) == 0);
            }
        }
        free (kv);
    }
    int valid = zs_config_validate (&cfg, err, sizeof err);

    zs_config_defaults (&copy);
    s_copy_t c = {.into = &copy};
    int keys = zs_config_foreach (&cfg, s_set_into, &c);
    ZS_FUZZ_CHECK (keys > 0 && c.failures == 0);
    s_cmp_t cmp = {.other = &copy};
    ZS_FUZZ_CHECK (zs_config_foreach (&cfg, s_compare, &cmp) == keys);
    ZS_FUZZ_CHECK (cmp.differences == 0);
    ZS_FUZZ_CHECK (zs_config_validate (&copy, err, sizeof err) == valid);
    ZS_FUZZ_CHECK (copy.schema.fingerprint == cfg.schema.fingerprint);
    return 0;
}
