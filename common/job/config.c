/*  config.c - see config.h.

    The job's own keys live in one table (s_job_opts, opts.h) that says
    where each value is kept in zs_config_t, how its text is parsed, its
    default, legal range and description; the layers below declare theirs
    in their own tables (table_options.h, format_options.h, io_options.h),
    which zs_config_t embeds. Setting, validating, listing and handing out
    keys walk the groups (s_groups), so a key added to a table is parsed,
    range-checked, listed by `zsink config keys` and handed out on Welcome
    without further code.

    Invariants:
    1. zs_config_foreach emits every key of every group but the secrets,
       and zs_config_set parses each emitted text back to the identical
       field value (round trip; opts.h, invariant 1).
    2. A failed zs_config_set or zs_config_load_yaml leaves cfg untouched.
    3. Ranges are checked both on set (so the error names the text the user
       wrote) and in zs_config_validate (so a struct filled by hand or by an
       older peer is checked too).
*/
#include "config.h"
#include "io.h"
#include "yamlkv.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static bool
s_streq (const char *a, const char *b)
{
    return strcmp (a, b) == 0;
}

//  Longest dotted key (a -D's key, a Kafka property's full key).
#define S_KEY_MAX 256

//  The source's columns and the table's row type from table.schema's text
//  and table.computed-columns' (config.h): computed columns listed at the
//  end of table.schema are taken off it, and come back as computed. 0, or
//  -1 with err (a computed column that does not compile against the
//  source's columns, or table.schema's ones of another type); *source and
//  *schema are then the declared columns.
static int
s_derive (const char *schema_text, const char *computed_text, zs_schema_t *source,
          zs_schema_t *schema, char *err, size_t errlen)
{
    zs_schema_t declared;
    char why[ZS_ERRLEN], text[ZS_SCHEMA_TEXT_MAX];
    if (zs_schema_parse (&declared, schema_text, why, sizeof why) != 0) {
        zs_errf (err, errlen, "%s", why);
        return -1;
    }
    *source = *schema = declared;
    char names[ZS_MAX_COLUMNS][ZS_COLUMN_NAME_MAX];
    int k = zs_computed_names (computed_text, names, ZS_MAX_COLUMNS);
    if (k == 0)
        return 0;
    bool listed = k < declared.n;
    for (int i = 0; listed && i < k; i++)
        listed = strcasecmp (declared.cols[declared.n - k + i].name, names[i]) == 0;
    if (listed) { //  through the parser again: its fingerprint
        source->n -= k;
        zs_schema_format (source, text, sizeof text);
        zs_schema_parse (source, text, why, sizeof why);
    }
    zs_computed_t *computed = zs_computed_new (computed_text, source, err, errlen);
    if (!computed)
        return -1;
    int rc = 0;
    if (listed && zs_schema_diff (zs_computed_schema (computed), &declared, why, sizeof why)) {
        zs_errf (err, errlen,
                 "table.schema lists the computed columns (table.computed-columns) at its end, "
                 "but they differ: %s",
                 why);
        rc = -1;
    } else
        *schema = *zs_computed_schema (computed);
    zs_computed_destroy (&computed);
    if (rc != 0)
        *source = *schema = declared;
    return rc;
}

//  cfg's source and table row types after table.schema or
//  table.computed-columns changed. Either may be set before the other, so
//  a computed column that does not fit (yet) is no error here:
//  zs_config_validate reports it.
static void
s_apply_computed (zs_config_t *cfg)
{
    char err[ZS_ERRLEN];
    zs_schema_t source, schema;
    s_derive (cfg->schema_text, cfg->computed_text, &source, &schema, err, sizeof err);
    cfg->source_schema = source;
    cfg->schema = schema;
}

//  Kept in canonical form, so the text handed to the other roles and
//  compared with the table is the same whatever the spelling. Formatted
//  aside first: a text too long must leave cfg untouched (invariant 2),
//  not half overwritten.
static int
s_set_schema (zs_config_t *cfg, char *field, const char *value, char *err, size_t errlen)
{
    zs_schema_t schema;
    char why[ZS_ERRLEN];
    if (zs_schema_parse (&schema, value, why, sizeof why) != 0) {
        zs_errf (err, errlen, "%s", why);
        return -1;
    }
    char text[ZS_SCHEMA_TEXT_MAX];
    if (zs_schema_format (&schema, text, sizeof text) != 0) {
        zs_errf (err, errlen, "table.schema: longer than %d bytes", ZS_SCHEMA_TEXT_MAX - 1);
        return -1;
    }
    memcpy (field, text, strlen (text) + 1);
    cfg->schema = schema;
    cfg->schema_set = true;
    s_apply_computed (cfg);
    return 0;
}

static int
s_set_computed (zs_config_t *cfg, const char *value, char *err, size_t errlen)
{
    char canon[ZS_COMPUTED_TEXT_MAX];
    if (zs_computed_check_text (value, canon, sizeof canon, err, errlen) != 0)
        return -1;
    memcpy (cfg->computed_text, canon, strlen (canon) + 1);
    s_apply_computed (cfg);
    return 0;
}

int
zs_config_adopt_schema (zs_config_t *cfg, const zs_schema_t *table, char *err, size_t errlen)
{
    zs_schema_t source, schema;
    char text[ZS_SCHEMA_TEXT_MAX];
    if (zs_schema_format (table, text, sizeof text) != 0) {
        zs_errf (err, errlen, "table.schema: longer than %d bytes", ZS_SCHEMA_TEXT_MAX - 1);
        return -1;
    }
    char why[ZS_ERRLEN];
    if (s_derive (text, cfg->computed_text, &source, &schema, why, sizeof why) != 0) {
        zs_errf (err, errlen, "the table's own schema (%s) with %s", text, why);
        return -1;
    }
    memcpy (cfg->schema_text, text, strlen (text) + 1);
    cfg->schema_set = true;
    cfg->source_schema = source;
    cfg->schema = schema;
    return 0;
}

//  table.schema and table.computed-columns as options (ZS_OPT_CUSTOM):
//  each sets several fields of cfg (its text, the row types).
static int
s_schema_opt_set (void *base, const zs_opt_t *o, const char *value, char *err, size_t errlen)
{
    zs_config_t *cfg = base;
    return s_set_schema (cfg, cfg->schema_text, value, err, errlen);
}

static int
s_schema_opt_get (const void *base, const zs_opt_t *o, char *buf, size_t len)
{
    const zs_config_t *cfg = base;
    int n = snprintf (buf, len, "%.*s", ZS_SCHEMA_TEXT_MAX - 1, cfg->schema_text);
    return n >= 0 && (size_t) n < len ? 0 : -1;
}

static int
s_computed_opt_set (void *base, const zs_opt_t *o, const char *value, char *err, size_t errlen)
{
    return s_set_computed (base, value, err, errlen);
}

static int
s_computed_opt_get (const void *base, const zs_opt_t *o, char *buf, size_t len)
{
    const zs_config_t *cfg = base;
    int n = snprintf (buf, len, "%.*s", ZS_COMPUTED_TEXT_MAX - 1, cfg->computed_text);
    return n >= 0 && (size_t) n < len ? 0 : -1;
}

#define S_OFF(field) offsetof (zs_config_t, field)
#define S_TEXT(field) S_OFF (field), sizeof (((zs_config_t *) 0)->field)
#define S_NUM(field) S_OFF (field), 0
#define S_NOMAX ZS_OPT_NOMAX

//  Values of the enumerated keys; an error for a bad value lists them.
static const char *const s_source_kinds[] = {"datagen", "file", "kafka", NULL};
static const char *const s_sink_kinds[] = {"paimon", "blackhole", NULL};
static const char *const s_startup_modes[] = {
    "earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets", NULL};
static const char *const s_bounded_modes[] = {"unbounded", "latest-offset",    "group-offsets",
                                              "timestamp", "specific-offsets", NULL};
static const char *const s_kafka_formats[] = {"json", "csv", NULL};
static const char *const s_source_formats[] = {"jsonl", "csv", NULL};
static const char *const s_on_error[] = {"fail", "skip", NULL};
static const char *const s_log_levels[] = {"debug", "info", "warn", "error", NULL};

//  The job's own options: key, type, field, range, unset_ok, choices,
//  default, description, flags (opts.h).
static const zs_opt_t s_job_opts[] = {
    {"parallelism", ZS_OPT_INT, S_NUM (parallelism), 1, 64, false, NULL, "1",
     "writers of the job, each reading its share of the source", 0, NULL, NULL},
    {"execution.checkpointing.interval", ZS_OPT_DURATION, S_NUM (checkpoint_interval_ms), 0,
     S_NOMAX, false, NULL, "0ms",
     "time between checkpoints, each a commit (0: none; a bounded job commits at its end)", 0, NULL,
     NULL},
    {"execution.checkpointing.timeout", ZS_OPT_DURATION, S_NUM (checkpoint_timeout_ms), 1, S_NOMAX,
     false, NULL, "1min", "a checkpoint not complete by then is aborted", 0, NULL, NULL},
    {"execution.checkpointing.min-pause", ZS_OPT_DURATION, S_NUM (checkpoint_min_pause_ms), 0,
     S_NOMAX, false, NULL, "0ms", "least time from one checkpoint's end to the next one's start", 0,
     NULL, NULL},
    {"execution.checkpointing.trigger-after-restore", ZS_OPT_BOOL, S_NUM (checkpoint_after_restore),
     0, 0, false, NULL, "false", "take a checkpoint as soon as a restore is done", 0, NULL, NULL},
    {"execution.checkpointing.tolerable-failed-checkpoints", ZS_OPT_INT,
     S_NUM (tolerable_failed_checkpoints), 0, INT_MAX, false, NULL, "0",
     "failed checkpoints in a row the job takes before it restarts", 0, NULL, NULL},
    {"restart-strategy.fixed-delay.attempts", ZS_OPT_INT, S_NUM (restart_attempts), 0, INT_MAX,
     false, NULL, "3", "restarts after a failure before the job fails", 0, NULL, NULL},
    {"restart-strategy.fixed-delay.delay", ZS_OPT_DURATION, S_NUM (restart_delay_ms), 0, S_NOMAX,
     false, NULL, "1s", "wait before a restart", 0, NULL, NULL},
    {"source.kind", ZS_OPT_ENUM, S_TEXT (source_kind), 0, 0, false, s_source_kinds, "datagen",
     "where the rows come from", 0, NULL, NULL},
    {"sink.kind", ZS_OPT_ENUM, S_TEXT (sink_kind), 0, 0, false, s_sink_kinds, "paimon",
     "where the rows go: the table, or nowhere (blackhole: a source-only ceiling)", 0, NULL, NULL},
    {"source.file.path", ZS_OPT_PATH, S_TEXT (source_file_path), 0, 0, false, NULL, "",
     "the file source's input: a file, or a directory of them (required with source.kind file)", 0,
     NULL, NULL},
    {"source.file.format", ZS_OPT_ENUM, S_TEXT (source_file_format), 0, 0, false, s_source_formats,
     "jsonl", "format of the file source's input", 0, NULL, NULL},
    {"source.file.on-error", ZS_OPT_ENUM, S_TEXT (source_file_on_error), 0, 0, false, s_on_error,
     "fail", "a line that does not parse fails the job, or is skipped and counted", 0, NULL, NULL},
    {"source.file.allow-empty", ZS_OPT_BOOL, S_NUM (source_file_allow_empty), 0, 0, false, NULL,
     "false", "no input file at all is no error", 0, NULL, NULL},
    {"source.file.rows-per-second", ZS_OPT_I64, S_NUM (source_file_rows_per_second), 0, S_NOMAX,
     false, NULL, "0", "throttle of the file source, over all writers (0: none)", 0, NULL, NULL},
    {"source.kafka.topic", ZS_OPT_STR, S_TEXT (kafka_topic), 0, 0, false, NULL, "",
     "topics to read, separated by ';' (or a YAML list)", ZS_OPT_LIST, NULL, NULL},
    {"source.kafka.topic-pattern", ZS_OPT_STR, S_TEXT (kafka_topic_pattern), 0, 0, false, NULL, "",
     "a regular expression matching whole topic names to read", 0, NULL, NULL},
    {"source.kafka.properties.commit.offsets.on.checkpoint", ZS_OPT_BOOL,
     S_NUM (kafka_commit_offsets), 0, 0, false, NULL, "true",
     "commit the offsets read to Kafka at each checkpoint (for monitoring only)", 0, NULL, NULL},
    {"source.kafka.scan.startup.mode", ZS_OPT_ENUM, S_TEXT (kafka_startup_mode), 0, 0, false,
     s_startup_modes, "group-offsets", "where a job without a checkpoint starts reading", 0, NULL,
     NULL},
    {"source.kafka.scan.startup.timestamp-millis", ZS_OPT_I64, S_NUM (kafka_startup_timestamp_ms),
     0, S_NOMAX, true, NULL, "", "start at this time, epoch ms (startup mode timestamp)", 0, NULL,
     NULL},
    {"source.kafka.scan.startup.specific-offsets", ZS_OPT_STR, S_TEXT (kafka_startup_offsets), 0, 0,
     false, NULL, "", "'partition:0,offset:42;…' (startup mode specific-offsets)", 0, NULL, NULL},
    {"source.kafka.scan.bounded.mode", ZS_OPT_ENUM, S_TEXT (kafka_bounded_mode), 0, 0, false,
     s_bounded_modes, "unbounded", "where reading ends (unbounded: never)", 0, NULL, NULL},
    {"source.kafka.scan.bounded.timestamp-millis", ZS_OPT_I64, S_NUM (kafka_bounded_timestamp_ms),
     0, S_NOMAX, true, NULL, "", "end at this time, epoch ms (bounded mode timestamp)", 0, NULL,
     NULL},
    {"source.kafka.scan.bounded.specific-offsets", ZS_OPT_STR, S_TEXT (kafka_bounded_offsets), 0, 0,
     false, NULL, "", "'partition:0,offset:42;…' (bounded mode specific-offsets)", 0, NULL, NULL},
    {"source.kafka.scan.topic-partition-discovery.interval", ZS_OPT_DURATION,
     S_NUM (kafka_discovery_interval_ms), 0, S_NOMAX, false, NULL, "5min",
     "how often new partitions are looked for (0: never)", 0, NULL, NULL},
    {"source.kafka.value.format", ZS_OPT_ENUM, S_TEXT (kafka_value_format), 0, 0, false,
     s_kafka_formats, "json", "format of the messages' values", 0, NULL, NULL},
    {"source.kafka.on-error", ZS_OPT_ENUM, S_TEXT (kafka_on_error), 0, 0, false, s_on_error, "fail",
     "a message that does not parse fails the job, or is skipped and counted", 0, NULL, NULL},
    {"source.kafka.rows-per-second", ZS_OPT_I64, S_NUM (kafka_rows_per_second), 0, S_NOMAX, false,
     NULL, "0", "throttle of the Kafka source, over all writers (0: none)", 0, NULL, NULL},
    {"datagen.rows-per-second", ZS_OPT_I64, S_NUM (datagen_rows_per_second), 0, S_NOMAX, false,
     NULL, "10000", "throttle of the datagen source, over all writers (0: none)", 0, NULL, NULL},
    {"datagen.number-of-rows", ZS_OPT_I64, S_NUM (datagen_number_of_rows), 0, S_NOMAX, true, NULL,
     "", "rows the datagen source makes, ids 1..N (unset: unbounded)", 0, NULL, NULL},
    {"datagen.fail-at-id", ZS_OPT_I64, S_NUM (datagen_fail_at_id), 1, S_NOMAX, true, NULL, "",
     "a writer fails once on reaching this id (fault injection; unset: never)", 0, NULL, NULL},
    {"table.path", ZS_OPT_STORE, S_TEXT (table_path), 0, 0, false, NULL, "",
     "the Paimon table the job writes: a directory or s3://BUCKET/KEY (required)", 0, NULL, NULL},
    {"state.checkpoints.dir", ZS_OPT_STORE, S_TEXT (checkpoints_dir), 0, 0, false, NULL, "",
     "where the job keeps its checkpoints and state (required)", 0, NULL, NULL},
    {"state.checkpoints.num-retained", ZS_OPT_INT, S_NUM (checkpoints_num_retained), 1, INT_MAX,
     false, NULL, "1", "completed checkpoints kept", 0, NULL, NULL},
    {"log.dir", ZS_OPT_PATH, S_TEXT (log_dir), 0, 0, false, NULL, "",
     "zsink cluster writes each process's log to DIR/ROLE.log (unset: its own output)", 0, NULL,
     NULL},
    {"log.level", ZS_OPT_ENUM, S_TEXT (log_level), 0, 0, false, s_log_levels, "info",
     "least level of the lines logged", 0, NULL, NULL},
    {"metrics.reporter.prom.port", ZS_OPT_STR, S_TEXT (metrics_prom_port), 0, 0, false, NULL, "",
     "port, or range A-B, of each process's Prometheus endpoint (unset: none)", 0, NULL, NULL},
    {"metrics.reporter.prom.bind-address", ZS_OPT_STR, S_TEXT (metrics_prom_bind), 0, 0, false,
     NULL, "", "address the Prometheus endpoints bind (unset: every interface)", 0, NULL, NULL},
    {"pipeline.name", ZS_OPT_STR, S_TEXT (pipeline_name), 0, 0, false, NULL, "",
     "the job's name: the job_name label of its metrics (unset: zsink)", 0, NULL, NULL},
    {"web.checkpoints.history", ZS_OPT_INT, S_NUM (checkpoints_history), 1, 10000, false, NULL,
     "10", "recent checkpoints zsink status shows", 0, NULL, NULL},
    {"commit.ignore-empty", ZS_OPT_BOOL, S_NUM (commit_ignore_empty), 0, 0, false, NULL, "false",
     "no snapshot for a checkpoint that brought no rows", 0, NULL, NULL},
    {"commit.max-retries", ZS_OPT_INT, S_NUM (commit_max_retries), 0, INT_MAX, false, NULL, "10",
     "attempts at a new snapshot id after losing one to another commit", 0, NULL, NULL},
    {"heartbeat.interval", ZS_OPT_DURATION, S_NUM (heartbeat_interval_ms), 1, S_NOMAX, false, NULL,
     "500ms", "time between heartbeats of the coordinator and the other processes", 0, NULL, NULL},
    {"heartbeat.timeout", ZS_OPT_DURATION, S_NUM (heartbeat_timeout_ms), 1, S_NOMAX, false, NULL,
     "5s", "a process not heard from for this long is taken for dead", 0, NULL, NULL},
    {"table.schema", ZS_OPT_CUSTOM, S_NUM (schema_text), 0, 0, false, NULL, NULL,
     "the source's columns: 'name TYPE, …' (unset: an existing table's, else this default)", 0,
     s_schema_opt_set, s_schema_opt_get},
    {"table.computed-columns", ZS_OPT_CUSTOM, S_NUM (computed_text), 0, 0, false, NULL, NULL,
     "columns computed from each row: 'name=expression;…' (or a YAML list)", ZS_OPT_LIST,
     s_computed_opt_set, s_computed_opt_get},
    {"table.partition-keys", ZS_OPT_STR, S_TEXT (partition_keys), 0, 0, false, NULL, "",
     "partition columns of a new table: 'k1,k2' (unset: an existing table's; none)", 0, NULL, NULL},
    {"job.allow-rerun", ZS_OPT_BOOL, S_NUM (allow_rerun), 0, 0, false, NULL, "false",
     "run a bounded input the table already holds a finished run of again", 0, NULL, NULL},
    {"security.curve.enabled", ZS_OPT_BOOL, S_NUM (curve_enabled), 0, 0, false, NULL, "false",
     "encrypt and authenticate the processes' traffic with CURVE (docs/security.md)", 0, NULL,
     NULL},
    {"security.curve.keys-dir", ZS_OPT_PATH, S_TEXT (curve_keys_dir), 0, 0, false, NULL, "",
     "the CURVE keys (zsink keys generate DIR makes them)", 0, NULL, NULL},
    ZS_OPT_END,
};

//  Every layer's table over zs_config_t: the job's, then the layers'
//  below it, as a key is looked for.
static const zs_opt_group_t s_groups[] = {
    {s_job_opts, 0, "job"},
    {zs_table_options, S_OFF (table), "table"},
    {zs_format_options, S_OFF (format), "format"},
    {zs_io_options, S_OFF (s3), "io"},
};
#define S_NGROUPS (sizeof s_groups / sizeof s_groups[0])

//  ---------------------------------------------------------------------
//  source.kafka.properties.*: the Kafka client's own settings, any name,
//  kept as "name=value\n" lines in cfg->kafka_properties, in the order
//  first set (a name set again keeps its place, with the new value).

#define S_KAFKA_PROPS ZS_CONFIG_KAFKA_PROPS

//  The line of name in the properties, or NULL.
static const char *
s_kafka_line (const char *props, const char *name, size_t nlen)
{
    for (const char *p = props; *p;) {
        const char *eol = strchr (p, '\n');
        if (!eol)
            break;
        if (strncmp (p, name, nlen) == 0 && p[nlen] == '=')
            return p;
        p = eol + 1;
    }
    return NULL;
}

const char *
zs_config_kafka_property (const zs_config_t *cfg, const char *name, size_t *len)
{
    const char *line = s_kafka_line (cfg->kafka_properties, name, strlen (name));
    if (!line)
        return NULL;
    const char *v = line + strlen (name) + 1;
    *len = (size_t) (strchr (v, '\n') - v);
    return v;
}

void
zs_config_kafka_properties (const zs_config_t *cfg,
                            void (*fn) (const char *name, const char *value, void *arg), void *arg)
{
    char name[S_KEY_MAX], value[sizeof cfg->kafka_properties];
    for (const char *p = cfg->kafka_properties; *p;) {
        const char *eq = strchr (p, '='), *eol = strchr (p, '\n');
        if (!eq || !eol || eq > eol)
            break;
        snprintf (name, sizeof name, "%.*s", (int) (eq - p), p);
        snprintf (value, sizeof value, "%.*s", (int) (eol - eq - 1), eq + 1);
        fn (name, value, arg);
        p = eol + 1;
    }
}

//  A credential of the Kafka client would land in job.json and reach the
//  roles in their Welcome: refused until zsink can keep it out of both.
static bool
s_kafka_secret (const char *name)
{
    return strstr (name, "password") || strstr (name, "secret") || strstr (name, "jaas")
           || strstr (name, "sasl.oauthbearer.config");
}

static int
s_set_kafka_property (zs_config_t *cfg, const char *key, const char *value, char *err,
                      size_t errlen)
{
    const char *name = key + strlen (S_KAFKA_PROPS);
    size_t nlen = strlen (name);
    bool ok = nlen > 0;
    for (const char *c = name; *c; c++)
        ok &= isalnum ((unsigned char) *c) || *c == '.' || *c == '_' || *c == '-';
    if (!ok) {
        zs_errf (err, errlen, "%s: not a Kafka client property name", key);
        return -1;
    }
    if (strchr (value, '\n')) {
        zs_errf (err, errlen, "%s: a value holds no newline", key);
        return -1;
    }
    if (s_kafka_secret (name)) {
        zs_errf (err, errlen,
                 "%s: Kafka credentials are not supported yet (they would be written into "
                 "the job's state directory)",
                 key);
        return -1;
    }
    char *props = cfg->kafka_properties;
    char *line = (char *) s_kafka_line (props, name, nlen);
    if (line) //  drop the old line, the new one goes at its place's end
        memmove (line, strchr (line, '\n') + 1, strlen (strchr (line, '\n') + 1) + 1);
    size_t used = strlen (props);
    if (used + nlen + strlen (value) + 3 > sizeof cfg->kafka_properties) {
        zs_errf (err, errlen, "%s: the Kafka properties exceed %zu bytes", key,
                 sizeof cfg->kafka_properties - 1);
        return -1;
    }
    snprintf (props + used, sizeof cfg->kafka_properties - used, "%s=%s\n", name, value);
    return 0;
}

//  The partition keys' text on the schema, as far as it resolves now: a
//  key may come before table.schema, or the table's schema may become the
//  job's later (zs_table_prepare_job); zs_config_validate and
//  zs_config_apply_partition refuse what does not resolve in the end.
static void
s_partition_keys (zs_config_t *cfg)
{
    char why[ZS_ERRLEN];
    if (zs_schema_partition_parse (&cfg->schema, cfg->partition_keys, why, sizeof why) != 0)
        cfg->schema.n_partition = 0;
}

int
zs_config_apply_partition (zs_config_t *cfg, char *err, size_t errlen)
{
    char why[ZS_ERRLEN];
    if (zs_schema_partition_parse (&cfg->schema, cfg->partition_keys, why, sizeof why) != 0) {
        cfg->schema.n_partition = 0;
        zs_errf (err, errlen, "%s", why);
        return -1;
    }
    return 0;
}

const zs_opt_group_t *
zs_config_groups (size_t *n)
{
    *n = S_NGROUPS;
    return s_groups;
}

//  The option of key, and the struct its group keeps it in.
static const zs_opt_t *
s_find (const zs_config_t *cfg, const char *key, size_t *offset)
{
    const zs_opt_group_t *g;
    const zs_opt_t *o = zs_opts_find (s_groups, S_NGROUPS, key, &g);
    if (o)
        *offset = g->offset;
    return o;
}

void
zs_config_defaults (zs_config_t *cfg)
{
    memset (cfg, 0, sizeof *cfg);
    char err[ZS_ERRLEN];
    //  Cannot fail: test_config checks every default parses.
    for (size_t g = 0; g < S_NGROUPS; g++)
        zs_opts_defaults (s_groups[g].opts, (char *) cfg + s_groups[g].offset, true, err,
                          sizeof err);
    zs_schema_default (&cfg->schema);
    zs_schema_format (&cfg->schema, cfg->schema_text, sizeof cfg->schema_text);
    cfg->source_schema = cfg->schema;
}

static int s_config_set (zs_config_t *cfg, const char *key, const char *value, char *err,
                         size_t errlen);

int
zs_config_set (zs_config_t *cfg, const char *key, const char *value, char *err, size_t errlen)
{
    int rc = s_config_set (cfg, key, value, err, errlen);
    if (rc == 0
        && (s_streq (key, "table.schema") || s_streq (key, "table.partition-keys")
            || s_streq (key, "table.computed-columns")))
        s_partition_keys (cfg);
    return rc;
}

static int
s_config_set (zs_config_t *cfg, const char *key, const char *value, char *err, size_t errlen)
{
    if (!key || !value) {
        zs_errf (err, errlen, "missing key or value");
        return -1;
    }
    size_t offset;
    const zs_opt_t *o = s_find (cfg, key, &offset);
    if (!o && strncmp (key, S_KAFKA_PROPS, strlen (S_KAFKA_PROPS)) == 0)
        return s_set_kafka_property (cfg, key, value, err, errlen);
    if (!o) {
        zs_errf (err, errlen, "unknown key '%s' (zsink config keys lists them)", key);
        return -1;
    }
    return zs_opt_set (o, (char *) cfg + offset, value, err, errlen);
}

int
zs_config_set_kv (zs_config_t *cfg, const char *kv, char *err, size_t errlen)
{
    const char *eq = kv ? strchr (kv, '=') : NULL;
    if (!eq) {
        zs_errf (err, errlen, "bad option '%s': expected key=value", kv ? kv : "");
        return -1;
    }
    char key[S_KEY_MAX];
    size_t n = (size_t) (eq - kv);
    if (n >= sizeof key) {
        zs_errf (err, errlen, "bad option '%s': key too long", kv);
        return -1;
    }
    memcpy (key, kv, n);
    key[n] = 0;
    //  Tolerate "key = value" as typed in a shell; the value keeps its
    //  blanks for paths but numbers trim them anyway.
    char *k = key;
    while (isspace ((unsigned char) *k))
        k++;
    n = strlen (k);
    while (n > 0 && isspace ((unsigned char) k[n - 1]))
        k[--n] = 0;
    if (!*k) {
        zs_errf (err, errlen, "bad option '%s': empty key", kv);
        return -1;
    }
    return zs_config_set (cfg, k, eq + 1, err, errlen);
}

int
zs_config_get (const zs_config_t *cfg, const char *key, char *buf, size_t len)
{
    size_t offset;
    const zs_opt_t *o = s_find (cfg, key, &offset);
    if (!o && len && strncmp (key, S_KAFKA_PROPS, strlen (S_KAFKA_PROPS)) == 0) {
        size_t vlen;
        const char *v = zs_config_kafka_property (cfg, key + strlen (S_KAFKA_PROPS), &vlen);
        if (!v || vlen >= len)
            return -1;
        memcpy (buf, v, vlen);
        buf[vlen] = 0;
        return 0;
    }
    if (!o)
        return -1;
    return zs_opt_get (o, (const char *) cfg + offset, buf, len);
}

int
zs_config_foreach (const zs_config_t *cfg,
                   void (*fn) (const char *key, const char *value, void *arg), void *arg)
{
    char value[ZS_SCHEMA_TEXT_MAX + ZS_PATH_MAX];
    int count = 0;
    for (size_t g = 0; g < S_NGROUPS; g++)
        for (const zs_opt_t *o = s_groups[g].opts; o->key; o++) {
            //  Cannot fail: the buffer holds the longest path and any number.
            if ((o->flags & ZS_OPT_SECRET)
                || zs_opt_get (o, (const char *) cfg + s_groups[g].offset, value, sizeof value))
                continue;
            fn (o->key, value, arg);
            count++;
        }
    for (const char *p = cfg->kafka_properties; *p;) {
        const char *eq = strchr (p, '='), *eol = strchr (p, '\n');
        if (!eq || !eol || eq > eol)
            break;
        char key[S_KEY_MAX];
        snprintf (key, sizeof key, "%s%.*s", S_KAFKA_PROPS, (int) (eq - p), p);
        snprintf (value, sizeof value, "%.*s", (int) (eol - eq - 1), eq + 1);
        fn (key, value, arg);
        count++;
        p = eol + 1;
    }
    return count;
}

//  ---------------------------------------------------------------------
//  YAML (base/yamlkv.h flattens it; the keys are ours)

static int
s_yaml_pair (void *arg, const char *key, const char *value, char *err, size_t errlen)
{
    return zs_config_set (arg, key, value, err, errlen);
}

static bool
s_yaml_list (void *arg, const char *key)
{
    const zs_opt_t *o = zs_opts_find (s_groups, S_NGROUPS, key, NULL);
    return o && (o->flags & ZS_OPT_LIST);
}

int
zs_config_load_yaml (zs_config_t *cfg, const char *path, char *err, size_t errlen)
{
    //  Work on a copy so that a file failing halfway changes nothing.
    zs_config_t *copy = malloc (sizeof *copy);
    if (!copy) {
        zs_errf (err, errlen, "%s: out of memory", path);
        return -1;
    }
    *copy = *cfg;
    int rc = zs_yaml_flatten (path, s_yaml_pair, s_yaml_list, copy, err, errlen);
    if (rc == 0)
        *cfg = *copy;
    free (copy);
    return rc;
}

int
zs_config_build (zs_config_t *cfg, const char *yaml_file, const char *const *overrides,
                 int n_overrides, char *err, size_t errlen)
{
    zs_config_defaults (cfg);
    if (yaml_file && zs_config_load_yaml (cfg, yaml_file, err, errlen) < 0)
        return -1;
    for (int i = 0; i < n_overrides; i++)
        if (zs_config_set_kv (cfg, overrides[i], err, errlen) < 0)
            return -1;
    return zs_config_validate (cfg, err, errlen);
}

int
zs_config_args_build (const zs_config_args_t *self, zs_config_t *cfg, char *err, size_t errlen)
{
    return zs_config_build (cfg, self->file, self->overrides, self->n_overrides, err, errlen);
}

//  CSV input has no spelling for ARRAY, MAP and ROW values (Flink's CSV
//  format has none for MAP, and its ARRAY/ROW delimiters nest one level
//  only; docs/decisions.md): a nested column needs JSON input.
static int
s_csv_nested (const zs_config_t *cfg, char *err, size_t errlen)
{
    bool csv = (s_streq (cfg->source_kind, "file") && s_streq (cfg->source_file_format, "csv"))
               || (s_streq (cfg->source_kind, "kafka") && s_streq (cfg->kafka_value_format, "csv"));
    for (int i = 0; csv && i < cfg->schema.n; i++)
        if (zs_type_is_nested (cfg->schema.cols[i].type)) {
            zs_errf (err, errlen,
                     "table.schema: column '%s' is %s: nested columns need JSON input (%s), "
                     "CSV has no spelling for them",
                     cfg->schema.cols[i].name, zs_type_name (cfg->schema.cols[i].type),
                     s_streq (cfg->source_kind, "file") ? "source.file.format: jsonl"
                                                        : "source.kafka.value.format: json");
            return -1;
        }
    return 0;
}

//  What the Kafka source needs (Flink's KafkaSourceBuilder checks these).
static int
s_kafka_validate (const zs_config_t *cfg, char *err, size_t errlen)
{
    size_t len;
    if (!zs_config_kafka_property (cfg, "bootstrap.servers", &len)) {
        zs_errf (err, errlen,
                 S_KAFKA_PROPS "bootstrap.servers: required when source.kind is kafka");
        return -1;
    }
    if (!*cfg->kafka_topic == !*cfg->kafka_topic_pattern) {
        zs_errf (err, errlen,
                 "source.kafka.topic or source.kafka.topic-pattern: exactly one is required when "
                 "source.kind is kafka");
        return -1;
    }
    bool group = zs_config_kafka_property (cfg, "group.id", &len) != NULL;
    if (s_streq (cfg->kafka_startup_mode, "group-offsets") && !group) {
        zs_errf (err, errlen,
                 S_KAFKA_PROPS "group.id: required when source.kafka.scan.startup.mode is "
                               "group-offsets (the default)");
        return -1;
    }
    struct {
        const char *mode, *what;
        int64_t ts;
        const char *offsets;
    } m[] = {{cfg->kafka_startup_mode, "startup", cfg->kafka_startup_timestamp_ms,
              cfg->kafka_startup_offsets},
             {cfg->kafka_bounded_mode, "bounded", cfg->kafka_bounded_timestamp_ms,
              cfg->kafka_bounded_offsets}};
    for (int i = 0; i < 2; i++) {
        if (s_streq (m[i].mode, "timestamp") && m[i].ts < 0) {
            zs_errf (err, errlen,
                     "source.kafka.scan.%s.timestamp-millis: required when "
                     "source.kafka.scan.%s.mode is timestamp",
                     m[i].what, m[i].what);
            return -1;
        }
        if (s_streq (m[i].mode, "specific-offsets") && !*m[i].offsets) {
            zs_errf (err, errlen,
                     "source.kafka.scan.%s.specific-offsets: required when "
                     "source.kafka.scan.%s.mode is specific-offsets",
                     m[i].what, m[i].what);
            return -1;
        }
    }
    if (s_streq (cfg->kafka_bounded_mode, "group-offsets") && !group) {
        zs_errf (err, errlen,
                 S_KAFKA_PROPS "group.id: required when source.kafka.scan.bounded.mode is "
                               "group-offsets");
        return -1;
    }
    return 0;
}

int
zs_config_validate (const zs_config_t *cfg, char *err, size_t errlen)
{
    if (!*cfg->table_path) {
        zs_errf (err, errlen, "table.path: required key is missing");
        return -1;
    }
    if (!*cfg->checkpoints_dir) {
        zs_errf (err, errlen, "state.checkpoints.dir: required key is missing");
        return -1;
    }
    if (cfg->curve_enabled && !*cfg->curve_keys_dir) {
        zs_errf (err, errlen,
                 "security.curve.keys-dir: required when security.curve.enabled is "
                 "true (zsink keys generate DIR makes the keys)");
        return -1;
    }
    int lo, hi;
    if (*cfg->metrics_prom_port && zs_parse_port_range (cfg->metrics_prom_port, &lo, &hi) != 0) {
        zs_errf (err, errlen, "metrics.reporter.prom.port: '%s' is not a port or a range A-B",
                 cfg->metrics_prom_port);
        return -1;
    }
    if (s_streq (cfg->source_kind, "file") && !*cfg->source_file_path) {
        zs_errf (err, errlen, "source.file.path: required when source.kind is file");
        return -1;
    }
    if (s_streq (cfg->source_kind, "kafka") && s_kafka_validate (cfg, err, errlen) != 0)
        return -1;
    zs_schema_t source, schema;
    if (s_derive (cfg->schema_text, cfg->computed_text, &source, &schema, err, errlen) != 0)
        return -1;
    //  the keys must name the job's columns; a job without table.schema
    //  may take an existing table's, whose columns zs_table_prepare_job
    //  checks them against
    zs_schema_t keyed = cfg->schema;
    char why[ZS_ERRLEN];
    if (cfg->schema_set
        && zs_schema_partition_parse (&keyed, cfg->partition_keys, why, sizeof why) != 0) {
        zs_errf (err, errlen, "%s", why);
        return -1;
    }
    if (s_csv_nested (cfg, err, errlen) != 0)
        return -1;
    for (size_t g = 0; g < S_NGROUPS; g++)
        for (const zs_opt_t *o = s_groups[g].opts; o->key; o++)
            if (zs_opt_check (o, (const char *) cfg + s_groups[g].offset, err, errlen) != 0)
                return -1;
    return 0;
}

bool
zs_config_input_name_matches (const char *name, const char *format)
{
    size_t n = strlen (name);
#define S_ENDS(suffix)                                                                             \
    (n >= sizeof suffix - 1 && strcmp (name + n - (sizeof suffix - 1), suffix) == 0)
    if (name[0] == '.')
        return false;
    if (strcmp (format, "csv") == 0)
        return S_ENDS (".csv");
    return S_ENDS (".jsonl") || S_ENDS (".json");
#undef S_ENDS
}

//  One input file's identity: its name, size and modification time. Summed
//  over a directory's files, so that readdir's order does not matter.
static uint64_t
s_input_file_hash (const char *name, const struct stat *st)
{
    char text[ZS_PATH_MAX + 64];
    snprintf (text, sizeof text, "%s|%lld|%lld.%09ld", name, (long long) st->st_size,
              (long long) st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
    return zs_fnv1a (text);
}

//  The files the file source would read (writer/source_file.c lists them
//  the same way), folded into one number; 0 when the path cannot be read.
static uint64_t
s_input_files_hash (const char *path, const char *format)
{
    struct stat st;
    if (stat (path, &st) != 0)
        return 0;
    if (S_ISREG (st.st_mode)) {
        const char *slash = strrchr (path, '/');
        return s_input_file_hash (slash ? slash + 1 : path, &st);
    }
    DIR *dir = S_ISDIR (st.st_mode) ? opendir (path) : NULL;
    if (!dir)
        return 0;
    uint64_t sum = 0;
    struct dirent *de;
    while ((de = readdir (dir))) {
        char file[ZS_PATH_MAX];
        if (!zs_config_input_name_matches (de->d_name, format)
            || snprintf (file, sizeof file, "%s/%s", path, de->d_name) >= (int) sizeof file)
            continue;
        if (stat (file, &st) == 0 && S_ISREG (st.st_mode))
            sum += s_input_file_hash (de->d_name, &st);
    }
    closedir (dir);
    return sum;
}

bool
zs_config_source_id (const zs_config_t *cfg, char *out, size_t outlen)
{
    char text[ZS_PATH_MAX + 160];
    if (strcmp (cfg->source_kind, "file") == 0) {
        char real[ZS_PATH_MAX];
        const char *path = realpath (cfg->source_file_path, real) ? real : cfg->source_file_path;
        snprintf (text, sizeof text, "file|%s|%s|%s|%016llx", path, cfg->source_file_format,
                  cfg->source_file_on_error,
                  (unsigned long long) s_input_files_hash (path, cfg->source_file_format));
    } else if (cfg->datagen_number_of_rows >= 0)
        snprintf (text, sizeof text, "datagen|%lld", (long long) cfg->datagen_number_of_rows);
    else {
        if (outlen)
            out[0] = 0;
        return false; //  unbounded: never finishes
    }
    snprintf (out, outlen, "%016llx", (unsigned long long) zs_fnv1a (text));
    return true;
}

int
zs_config_io_setup (const zs_config_t *cfg, char *err, size_t errlen)
{
    bool remote = zs_io_is_remote (cfg->table_path) || zs_io_is_remote (cfg->checkpoints_dir);
    return zs_io_setup (&cfg->s3, remote, err, errlen);
}
