/*  table_options.c - see table_options.h: the table's options, one table
    (zs_table_options) for a job's keys and a table's properties alike;
    and the options the store acts on, read from the table's latest schema
    by Paimon's names with Paimon's defaults (zs_table_read_options); a
    job's own override them (zs_table_set_job_options, job/table_job.c).
*/
#include "table_options.h"
#include "table_priv.h"
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#define S_OFF(field) offsetof (zs_table_opts_t, field)
#define S_TEXT(field) S_OFF (field), sizeof (((zs_table_opts_t *) 0)->field)
#define S_T ZS_OPT_TABLE

const zs_opt_t zs_table_options[] = {
    {"snapshot.num-retained.min", ZS_OPT_INT, S_OFF (retain_min), 0, 1, INT_MAX, true, NULL, "10",
     "snapshots expiry always keeps", S_T, NULL, NULL},
    {"snapshot.num-retained.max", ZS_OPT_INT, S_OFF (retain_max), 0, 1, INT_MAX, true, NULL,
     "2147483647", "snapshots expiry keeps at most", S_T, NULL, NULL},
    {"snapshot.time-retained", ZS_OPT_DURATION, S_OFF (time_retained_ms), 0, 0, ZS_OPT_NOMAX, true,
     NULL, "1h", "between min and max, snapshots younger than this are kept", S_T, NULL, NULL},
    {"snapshot.expire.limit", ZS_OPT_INT, S_OFF (expire_limit), 0, 1, INT_MAX, true, NULL, "50",
     "snapshots one expiry removes at most", S_T, NULL, NULL},
    {"manifest.target-file-size", ZS_OPT_SIZE, S_OFF (manifest_target_size), 0, 1, ZS_OPT_NOMAX,
     true, NULL, "8mb", "manifests smaller than this are merged", S_T, NULL, NULL},
    {"manifest.merge-min-count", ZS_OPT_INT, S_OFF (merge_min_count), 0, 1, INT_MAX, true, NULL,
     "30", "small manifests that make a commit merge them", S_T, NULL, NULL},
    {"manifest.full-compaction-threshold-size", ZS_OPT_SIZE, S_OFF (full_compaction_size), 0, 1,
     ZS_OPT_NOMAX, true, NULL, "16mb",
     "deleted entries' size in manifests that makes a commit rewrite them all", S_T, NULL, NULL},
    {"write-only", ZS_OPT_BOOL, S_OFF (write_only), 0, 0, 0, false, NULL, "false",
     "no snapshot expiry and no compaction after commits (the table's true wins)", S_T, NULL, NULL},
    {"target-file-size", ZS_OPT_SIZE, S_OFF (target_file_size), 0, 1, ZS_OPT_NOMAX, false, NULL,
     "128mb", "a data file is rolled over at about this size", 0, NULL, NULL},
    {"compaction.min.file-num", ZS_OPT_INT, S_OFF (compaction_min_file_num), 0, 2, INT_MAX, false,
     NULL, "5", "small files that make a compaction", 0, NULL, NULL},
    {"compaction.max.file-num", ZS_OPT_INT, S_OFF (compaction_max_file_num), 0, 2, INT_MAX, false,
     NULL, "50", "files one compaction rewrites at most", 0, NULL, NULL},
    {"partition.default-name", ZS_OPT_STR, S_TEXT (partition_default_name), 0, 0, false, NULL, "",
     "directory name of a NULL or empty partition value (unset: the table's, else "
     "__DEFAULT_PARTITION__)",
     0, NULL, NULL},
    {"write-max-writers", ZS_OPT_INT, S_OFF (write_max_writers), 0, 1, 100000, false, NULL, "1000",
     "partitions a writer keeps a data file open for", 0, NULL, NULL},
    {"write-buffer-size", ZS_OPT_SIZE, S_OFF (write_buffer_size), 0, 64 << 10, ZS_OPT_NOMAX, false,
     NULL, "256mb", "rows a writer buffers in memory before writing row groups out", 0, NULL, NULL},
    ZS_OPT_END,
};

int
zs_table_opts_read (zs_table_opts_t *self, const char *(*get) (const void *arg, const char *key),
                    const void *arg, char *err, size_t errlen)
{
    if (zs_opts_defaults (zs_table_options, self, false, err, errlen) != 0)
        return -1;
    for (const zs_opt_t *o = zs_table_options; o->key; o++) {
        const char *text = o->flags & ZS_OPT_TABLE ? get (arg, o->key) : NULL;
        char why[ZS_ERRLEN];
        //  an empty value is no unset here: the table says something
        if (text && (!*text || zs_opt_set (o, self, text, why, sizeof why) != 0)) {
            if (!*text)
                snprintf (why, sizeof why, "%s: empty", o->key);
            snprintf (err, errlen, "option '%s' is '%s': %s", o->key, text, why);
            return -1;
        }
    }
    return 0;
}

void
zs_table_opts_overlay (zs_table_opts_t *self, const zs_table_opts_t *job)
{
    for (const zs_opt_t *o = zs_table_options; o->key; o++) {
        if (!(o->flags & ZS_OPT_TABLE) || !zs_opt_unset (o, job))
            zs_opt_copy (o, self, job);
    }
}

//  A table option's text, NULL when the schema has none.
static const char *
s_schema_option (const void *schema, const char *key)
{
    return zs_schema_option (schema, key, NULL);
}

//  The options the store acts on, from the schema (Paimon's defaults, then
//  the table's own: -1 + err when one does not parse, the table's retention
//  or merge would otherwise be a guess, Paimon refuses it too), and the
//  codec its manifests are written with (manifest.compression).
int
zs_table_read_options (zs_table_t *self, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    if (zs_table_opts_read (&self->opts, s_schema_option, &self->tschema, why, sizeof why) != 0) {
        snprintf (err, errlen, "table %s: %s", self->path, why);
        return -1;
    }
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
