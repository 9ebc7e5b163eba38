/*  table_options.c - the options the table store acts on, read from the
    table's latest schema by Paimon's names with Paimon's defaults
    (zs_table_opts_t in table.h); a job's own override them
    (zs_table_set_job_options, table_job.c).
*/
#include "table_priv.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

//  A table option that must be a number, duration or size: its value, or
//  the default when absent. -1 + err when it does not parse: the table's
//  retention or merge would otherwise be a guess (Paimon refuses it too).
static int
s_option_num (zs_table_t *self, const char *key, char kind, int64_t min, int64_t dflt, int64_t *v,
              char *err, size_t errlen)
{
    const char *text = zs_schema_option (&self->tschema, key, NULL);
    *v = dflt;
    if (!text)
        return 0;
    int rc = 0;
    if (kind == 'd')
        rc = zs_parse_duration_ms (text, v);
    else if (kind == 's')
        rc = zs_parse_size (text, v);
    else {
        char *end;
        *v = strtoll (text, &end, 10);
        rc = end == text || *end ? -1 : 0;
    }
    if (rc != 0 || *v < min || (kind == 'i' && *v > INT32_MAX)) {
        snprintf (err, errlen, "table %s: option '%s' is '%s': not a %s of at least %" PRId64,
                  self->path, key, text,
                  kind == 'd'   ? "duration"
                  : kind == 's' ? "size"
                                : "whole number",
                  min);
        return -1;
    }
    return 0;
}

//  The options the store acts on, from the schema (Paimon's defaults),
//  and the codec its manifests are written with (manifest.compression).
int
zs_table_read_options (zs_table_t *self, char *err, size_t errlen)
{
    zs_table_opts_t *o = &self->opts;
    int64_t v[7];
    if (s_option_num (self, "snapshot.num-retained.min", 'i', 1, 10, &v[0], err, errlen)
        || s_option_num (self, "snapshot.num-retained.max", 'i', 1, INT32_MAX, &v[1], err, errlen)
        || s_option_num (self, "snapshot.time-retained", 'd', 0, 3600 * 1000, &v[2], err, errlen)
        || s_option_num (self, "snapshot.expire.limit", 'i', 1, 50, &v[3], err, errlen)
        || s_option_num (self, "manifest.target-file-size", 's', 1, 8 << 20, &v[4], err, errlen)
        || s_option_num (self, "manifest.merge-min-count", 'i', 1, 30, &v[5], err, errlen)
        || s_option_num (self, "manifest.full-compaction-threshold-size", 's', 1, 16 << 20, &v[6],
                         err, errlen))
        return -1;
    *o = (zs_table_opts_t){.retain_min = (int) v[0],
                           .retain_max = (int) v[1],
                           .time_retained_ms = v[2],
                           .expire_limit = (int) v[3],
                           .manifest_target_size = v[4],
                           .merge_min_count = (int) v[5],
                           .full_compaction_size = v[6]};
    o->write_only =
        strcasecmp (zs_schema_option (&self->tschema, "write-only", "false"), "true") == 0;
    const char *codec = zs_schema_option (&self->tschema, "manifest.compression", "zstd");
    self->manifest_codec = strcasecmp (codec, "none") == 0 || strcasecmp (codec, "null") == 0
                               ? ZS_AVRO_CODEC_NULL
                           : strcasecmp (codec, "deflate") == 0 ? ZS_AVRO_CODEC_DEFLATE
                                                                : ZS_AVRO_CODEC_ZSTANDARD;
    return 0;
}

const zs_table_opts_t *
zs_table_opts (zs_table_t *self)
{
    return &self->opts;
}

void
zs_table_set_opts (zs_table_t *self, const zs_table_opts_t *opts)
{
    self->opts = *opts;
}
