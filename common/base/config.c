/*  config.c - see config.h.

    Every key lives in one table (s_keys) that says where its value is kept
    in zs_config_t, how its text is parsed and what range is legal. Setting,
    validating and listing keys all walk that table, so a key added there is
    parsed, range-checked and handed out on Welcome without further code.

    Invariants:
    1. zs_config_foreach emits every key in s_keys, and zs_config_set parses
       each emitted text back to the identical field value (round trip):
       durations as "<n>ms", sizes as plain bytes, booleans as true/false,
       and the "unset" value (-1) of datagen.number-of-rows and
       datagen.fail-at-id as the empty string "".
    2. A failed zs_config_set or zs_config_load_yaml leaves cfg untouched.
    3. Ranges are checked both on set (so the error names the text the user
       wrote) and in zs_config_validate (so a struct filled by hand or by an
       older peer is checked too).
*/
#include "config.h"
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
#include <yaml.h>

typedef enum {
    S_INT,      //  int, whole number
    S_I64,      //  int64_t, whole number
    S_DURATION, //  int64_t milliseconds
    S_SIZE,     //  int64_t bytes
    S_BOOL,     //  bool
    S_PATH,     //  char[ZS_PATH_MAX], a local path (s_path_local: no scheme but file:///)
    S_TEXT,     //  char[ZS_PATH_MAX], free text
    S_STR,      //  char[max], free text (max: the field's size)
    S_STORE,    //  char[ZS_PATH_MAX], a local path as S_PATH, or s3://BUCKET/KEY
    S_ENUM,     //  char[16], one of the key's choices
    S_SCHEMA,   //  char[ZS_SCHEMA_TEXT_MAX] canonical text + the parsed schema
    S_COMPUTED, //  char[ZS_COMPUTED_TEXT_MAX] canonical text (computed.h)
} s_type_t;

typedef struct {
    const char *key;
    s_type_t type;
    size_t offset;
    int64_t min, max;           //  legal range of numeric values
    bool unset_ok;              //  "" means unset, stored as -1
    const char *const *choices; //  S_ENUM: the legal values, NULL-terminated
} s_key_t;

#define S_OFF(field) offsetof (zs_config_t, field)

//  Values of the enumerated keys; an error for a bad value lists them.
static const char *const s_source_kinds[] = {"datagen", "file", "kafka", NULL};
static const char *const s_startup_modes[] = {
    "earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets", NULL};
static const char *const s_bounded_modes[] = {"unbounded", "latest-offset",    "group-offsets",
                                              "timestamp", "specific-offsets", NULL};
static const char *const s_kafka_formats[] = {"json", "csv", NULL};
static const char *const s_source_formats[] = {"jsonl", "csv", NULL};
static const char *const s_on_error[] = {"fail", "skip", NULL};
static const char *const s_log_levels[] = {"debug", "info", "warn", "error", NULL};
static const char *const s_file_formats[] = {"parquet", NULL};
static const char *const s_compressions[] = {"zstd", "none", NULL};
#define S_NOMAX INT64_MAX

static const s_key_t s_keys[] = {
    {"parallelism", S_INT, S_OFF (parallelism), 1, 64, false, NULL},
    {"execution.checkpointing.interval", S_DURATION, S_OFF (checkpoint_interval_ms), 0, S_NOMAX,
     false, NULL},
    {"execution.checkpointing.timeout", S_DURATION, S_OFF (checkpoint_timeout_ms), 1, S_NOMAX,
     false, NULL},
    {"execution.checkpointing.min-pause", S_DURATION, S_OFF (checkpoint_min_pause_ms), 0, S_NOMAX,
     false, NULL},
    {"execution.checkpointing.trigger-after-restore", S_BOOL, S_OFF (checkpoint_after_restore), 0,
     0, false, NULL},
    {"execution.checkpointing.tolerable-failed-checkpoints", S_INT,
     S_OFF (tolerable_failed_checkpoints), 0, INT_MAX, false, NULL},
    {"restart-strategy.fixed-delay.attempts", S_INT, S_OFF (restart_attempts), 0, INT_MAX, false,
     NULL},
    {"restart-strategy.fixed-delay.delay", S_DURATION, S_OFF (restart_delay_ms), 0, S_NOMAX, false,
     NULL},
    {"source.kind", S_ENUM, S_OFF (source_kind), 0, 0, false, s_source_kinds},
    {"source.file.path", S_PATH, S_OFF (source_file_path), 0, 0, false, NULL},
    {"source.file.format", S_ENUM, S_OFF (source_file_format), 0, 0, false, s_source_formats},
    {"source.file.on-error", S_ENUM, S_OFF (source_file_on_error), 0, 0, false, s_on_error},
    {"source.file.allow-empty", S_BOOL, S_OFF (source_file_allow_empty), 0, 0, false, NULL},
    {"source.file.rows-per-second", S_I64, S_OFF (source_file_rows_per_second), 0, S_NOMAX, false,
     NULL},
    {"source.kafka.topic", S_STR, S_OFF (kafka_topic), 0, 1024, false, NULL},
    {"source.kafka.topic-pattern", S_STR, S_OFF (kafka_topic_pattern), 0, 256, false, NULL},
    {"source.kafka.properties.commit.offsets.on.checkpoint", S_BOOL, S_OFF (kafka_commit_offsets),
     0, 0, false, NULL},
    {"source.kafka.scan.startup.mode", S_ENUM, S_OFF (kafka_startup_mode), 0, 0, false,
     s_startup_modes},
    {"source.kafka.scan.startup.timestamp-millis", S_I64, S_OFF (kafka_startup_timestamp_ms), 0,
     S_NOMAX, true, NULL},
    {"source.kafka.scan.startup.specific-offsets", S_STR, S_OFF (kafka_startup_offsets), 0, 1024,
     false, NULL},
    {"source.kafka.scan.bounded.mode", S_ENUM, S_OFF (kafka_bounded_mode), 0, 0, false,
     s_bounded_modes},
    {"source.kafka.scan.bounded.timestamp-millis", S_I64, S_OFF (kafka_bounded_timestamp_ms), 0,
     S_NOMAX, true, NULL},
    {"source.kafka.scan.bounded.specific-offsets", S_STR, S_OFF (kafka_bounded_offsets), 0, 1024,
     false, NULL},
    {"source.kafka.scan.topic-partition-discovery.interval", S_DURATION,
     S_OFF (kafka_discovery_interval_ms), 0, S_NOMAX, false, NULL},
    {"source.kafka.value.format", S_ENUM, S_OFF (kafka_value_format), 0, 0, false, s_kafka_formats},
    {"source.kafka.on-error", S_ENUM, S_OFF (kafka_on_error), 0, 0, false, s_on_error},
    {"source.kafka.rows-per-second", S_I64, S_OFF (kafka_rows_per_second), 0, S_NOMAX, false, NULL},
    {"datagen.rows-per-second", S_I64, S_OFF (datagen_rows_per_second), 0, S_NOMAX, false, NULL},
    {"datagen.number-of-rows", S_I64, S_OFF (datagen_number_of_rows), 0, S_NOMAX, true, NULL},
    {"datagen.fail-at-id", S_I64, S_OFF (datagen_fail_at_id), 1, S_NOMAX, true, NULL},
    {"table.path", S_STORE, S_OFF (table_path), 0, 0, false, NULL},
    {"state.checkpoints.dir", S_STORE, S_OFF (checkpoints_dir), 0, 0, false, NULL},
    {"state.checkpoints.num-retained", S_INT, S_OFF (checkpoints_num_retained), 1, INT_MAX, false,
     NULL},
    {"log.dir", S_PATH, S_OFF (log_dir), 0, 0, false, NULL},
    {"log.level", S_ENUM, S_OFF (log_level), 0, 0, false, s_log_levels},
    {"metrics.reporter.prom.port", S_TEXT, S_OFF (metrics_prom_port), 0, 0, false, NULL},
    {"metrics.reporter.prom.bind-address", S_STR, S_OFF (metrics_prom_bind), 0, 256, false, NULL},
    {"pipeline.name", S_STR, S_OFF (pipeline_name), 0, 128, false, NULL},
    {"web.checkpoints.history", S_INT, S_OFF (checkpoints_history), 1, 10000, false, NULL},
    {"commit.ignore-empty", S_BOOL, S_OFF (commit_ignore_empty), 0, 0, false, NULL},
    {"commit.max-retries", S_INT, S_OFF (commit_max_retries), 0, INT_MAX, false, NULL},
    {"heartbeat.interval", S_DURATION, S_OFF (heartbeat_interval_ms), 1, S_NOMAX, false, NULL},
    {"heartbeat.timeout", S_DURATION, S_OFF (heartbeat_timeout_ms), 1, S_NOMAX, false, NULL},
    {"target-file-size", S_SIZE, S_OFF (target_file_size), 1, S_NOMAX, false, NULL},
    {"table.schema", S_SCHEMA, S_OFF (schema_text), 0, 0, false, NULL},
    {"table.computed-columns", S_COMPUTED, S_OFF (computed_text), 0, 0, false, NULL},
    //  Paimon's table options, as a Flink job's dynamic options: set here
    //  they override the table's own; unset (-1) the table's, else Paimon's
    //  default, decide (zs_table_set_job_options)
    {"snapshot.num-retained.min", S_INT, S_OFF (snapshot_num_retained_min), 1, INT_MAX, true, NULL},
    {"snapshot.num-retained.max", S_INT, S_OFF (snapshot_num_retained_max), 1, INT_MAX, true, NULL},
    {"snapshot.time-retained", S_DURATION, S_OFF (snapshot_time_retained_ms), 0, S_NOMAX, true,
     NULL},
    {"snapshot.expire.limit", S_INT, S_OFF (snapshot_expire_limit), 1, INT_MAX, true, NULL},
    {"manifest.target-file-size", S_SIZE, S_OFF (manifest_target_file_size), 1, S_NOMAX, true,
     NULL},
    {"manifest.merge-min-count", S_INT, S_OFF (manifest_merge_min_count), 1, INT_MAX, true, NULL},
    {"manifest.full-compaction-threshold-size", S_SIZE,
     S_OFF (manifest_full_compaction_threshold_size), 1, S_NOMAX, true, NULL},
    {"write-only", S_BOOL, S_OFF (write_only), 0, 0, false, NULL},
    {"job.allow-rerun", S_BOOL, S_OFF (allow_rerun), 0, 0, false, NULL},
    {"compaction.min.file-num", S_INT, S_OFF (compaction_min_file_num), 2, INT_MAX, false, NULL},
    {"compaction.max.file-num", S_INT, S_OFF (compaction_max_file_num), 2, INT_MAX, false, NULL},
    {"file.format", S_ENUM, S_OFF (file_format), 0, 0, false, s_file_formats},
    {"file.compression", S_ENUM, S_OFF (file_compression), 0, 0, false, s_compressions},
    {"file.compression.zstd-level", S_INT, S_OFF (zstd_level), 1, 19, false, NULL},
    {"parquet.row-group-rows", S_I64, S_OFF (parquet_row_group_rows), 1, 64 * 1024 * 1024, false,
     NULL},
    {"security.curve.enabled", S_BOOL, S_OFF (curve_enabled), 0, 0, false, NULL},
    {"security.curve.keys-dir", S_PATH, S_OFF (curve_keys_dir), 0, 0, false, NULL},
    {"s3.endpoint", S_STR, S_OFF (s3_endpoint), 0, 256, false, NULL},
    {"s3.region", S_STR, S_OFF (s3_region), 0, 64, false, NULL},
    {"s3.path.style.access", S_STR, S_OFF (s3_path_style), 0, 8, false, NULL},
    {"s3.access-key", S_STR, S_OFF (s3_access_key), 0, 128, false, NULL},
    {"s3.secret-key", S_STR, S_OFF (s3_secret_key), 0, 128, false, NULL},
    {"s3.connection.request.timeout", S_DURATION, S_OFF (s3_request_timeout_ms), 100, S_NOMAX,
     false, NULL},
    {"table.partition-keys", S_STR, S_OFF (partition_keys), 0, 512, false, NULL},
    {"partition.default-name", S_STR, S_OFF (partition_default_name), 0, 128, false, NULL},
    {"write-max-writers", S_INT, S_OFF (write_max_writers), 1, 100000, false, NULL},
    {"write-buffer-size", S_SIZE, S_OFF (write_buffer_size), 64 << 10, S_NOMAX, false, NULL},
};
#define S_NKEYS (sizeof s_keys / sizeof s_keys[0])

//  Longest dotted key we accept from YAML; far beyond any real key, it only
//  bounds the prefix buffer of nested mappings.
#define S_KEY_MAX 256
//  Deepest nesting of YAML mappings (real keys need 4). The key length does
//  not bound it: empty keys ("": {"": …}) add nothing to the dotted key,
//  and each level is a stack frame of s_yaml_mapping.
#define S_YAML_DEPTH_MAX 32

static void s_err (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

static void
s_err (char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (err, errlen, fmt, ap);
    va_end (ap);
}

static bool
s_streq (const char *a, const char *b)
{
    return strcmp (a, b) == 0;
}

//  Credentials: left out of zs_config_foreach, so that no job.json, Welcome
//  or log line carries them.
static bool
s_secret (const s_key_t *k)
{
    return s_streq (k->key, "s3.access-key") || s_streq (k->key, "s3.secret-key");
}

static const s_key_t *
s_key_find (const char *key)
{
    for (size_t i = 0; i < S_NKEYS; i++)
        if (s_streq (s_keys[i].key, key))
            return &s_keys[i];
    return NULL;
}

//  ---------------------------------------------------------------------
//  Value parsers

//  Copy text without leading/trailing blanks into buf. -1 if it does not fit.
static int
s_trim (const char *text, char *buf, size_t len)
{
    while (isspace ((unsigned char) *text))
        text++;
    size_t n = strlen (text);
    while (n > 0 && isspace ((unsigned char) text[n - 1]))
        n--;
    if (n >= len)
        return -1;
    memcpy (buf, text, n);
    buf[n] = 0;
    return 0;
}

typedef struct {
    const char *name;
    int64_t mult;
} s_unit_t;

//  "<digits>[ ]*<unit>" with unit looked up in units (case-insensitive, the
//  table ends with a NULL name); no unit means a multiplier of 1. Signs and
//  fractions are rejected: Flink does the same, and a negative duration or
//  size has no meaning here.
static int
s_parse_scaled (const char *text, const s_unit_t *units, int64_t *out)
{
    char buf[64];
    if (!text || s_trim (text, buf, sizeof buf))
        return -1;
    const char *p = buf;
    if (!isdigit ((unsigned char) *p))
        return -1;
    int64_t n = 0;
    for (; isdigit ((unsigned char) *p); p++) {
        int d = *p - '0';
        if (n > (INT64_MAX - d) / 10)
            return -1;
        n = n * 10 + d;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    int64_t mult = 1;
    if (*p) {
        const s_unit_t *u = units;
        while (u->name && strcasecmp (p, u->name) != 0)
            u++;
        if (!u->name)
            return -1;
        mult = u->mult;
    }
    if (n > INT64_MAX / mult)
        return -1;
    *out = n * mult;
    return 0;
}

int
zs_parse_duration_ms (const char *text, int64_t *ms)
{
    //  Flink's TimeUtils spellings, down to milliseconds (our resolution).
    static const s_unit_t units[] = {
        {"ms", 1},           {"milli", 1},       {"millis", 1},      {"millisecond", 1},
        {"milliseconds", 1}, {"s", 1000},        {"sec", 1000},      {"secs", 1000},
        {"second", 1000},    {"seconds", 1000},  {"m", 60000},       {"min", 60000},
        {"mins", 60000},     {"minute", 60000},  {"minutes", 60000}, {"h", 3600000},
        {"hour", 3600000},   {"hours", 3600000}, {"d", 86400000},    {"day", 86400000},
        {"days", 86400000},  {NULL, 0}};
    return s_parse_scaled (text, units, ms);
}

int
zs_parse_size (const char *text, int64_t *bytes)
{
    //  Flink's MemorySize spellings: binary multiples, bare number = bytes.
    static const int64_t K = 1024;
    const s_unit_t units[] = {{"b", 1},
                              {"bytes", 1},
                              {"k", K},
                              {"kb", K},
                              {"kibibytes", K},
                              {"m", K * K},
                              {"mb", K * K},
                              {"mebibytes", K * K},
                              {"g", K * K * K},
                              {"gb", K * K * K},
                              {"gibibytes", K * K * K},
                              {"t", K * K * K * K},
                              {"tb", K * K * K * K},
                              {"tebibytes", K * K * K * K},
                              {NULL, 0}};
    return s_parse_scaled (text, units, bytes);
}

//  A whole decimal number, optionally negative (so "-1" gets a range error,
//  which says more than "not a number").
static int
s_parse_whole (const char *text, int64_t *out)
{
    char buf[64];
    if (s_trim (text, buf, sizeof buf) || !*buf)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll (buf, &end, 10);
    if (errno || *end || !(isdigit ((unsigned char) buf[0]) || buf[0] == '-'))
        return -1;
    *out = v;
    return 0;
}

static void
s_range_text (const s_key_t *k, char *buf, size_t len)
{
    if (k->max == S_NOMAX)
        snprintf (buf, len, ">= %" PRId64, k->min);
    else
        snprintf (buf, len, "%" PRId64 "..%" PRId64, k->min, k->max);
}

//  Read and write a numeric field whatever its C type.
static int64_t
s_num_get (const zs_config_t *cfg, const s_key_t *k)
{
    const char *p = (const char *) cfg + k->offset;
    if (k->type == S_INT)
        return *(const int *) p;
    return *(const int64_t *) p;
}

static void
s_num_put (zs_config_t *cfg, const s_key_t *k, int64_t v)
{
    char *p = (char *) cfg + k->offset;
    if (k->type == S_INT)
        *(int *) p = (int) v;
    else
        *(int64_t *) p = v;
}

static bool
s_is_numeric (const s_key_t *k)
{
    return k->type == S_INT || k->type == S_I64 || k->type == S_DURATION || k->type == S_SIZE;
}

static bool
s_in_range (const s_key_t *k, int64_t v)
{
    return (k->unset_ok && v == -1) || (v >= k->min && v <= k->max);
}

//  ---------------------------------------------------------------------
//  Public API

void
zs_config_defaults (zs_config_t *cfg)
{
    memset (cfg, 0, sizeof *cfg);
    cfg->parallelism = 1;
    cfg->checkpoint_interval_ms = 0;
    cfg->checkpoint_timeout_ms = 60 * 1000;
    cfg->checkpoint_min_pause_ms = 0;
    cfg->tolerable_failed_checkpoints = 0;
    cfg->restart_attempts = 3;
    cfg->restart_delay_ms = 1000;
    snprintf (cfg->source_kind, sizeof cfg->source_kind, "datagen");
    snprintf (cfg->source_file_format, sizeof cfg->source_file_format, "jsonl");
    snprintf (cfg->source_file_on_error, sizeof cfg->source_file_on_error, "fail");
    cfg->kafka_commit_offsets = true;
    snprintf (cfg->kafka_startup_mode, sizeof cfg->kafka_startup_mode, "group-offsets");
    snprintf (cfg->kafka_bounded_mode, sizeof cfg->kafka_bounded_mode, "unbounded");
    snprintf (cfg->kafka_value_format, sizeof cfg->kafka_value_format, "json");
    snprintf (cfg->kafka_on_error, sizeof cfg->kafka_on_error, "fail");
    cfg->kafka_startup_timestamp_ms = cfg->kafka_bounded_timestamp_ms = -1;
    cfg->kafka_discovery_interval_ms = 5 * 60 * 1000;
    snprintf (cfg->log_level, sizeof cfg->log_level, "info");
    snprintf (cfg->file_format, sizeof cfg->file_format, "parquet");
    snprintf (cfg->file_compression, sizeof cfg->file_compression, "zstd");
    cfg->zstd_level = 1;
    cfg->parquet_row_group_rows = 128 * 1024;
    zs_schema_default (&cfg->schema);
    zs_schema_format (&cfg->schema, cfg->schema_text, sizeof cfg->schema_text);
    cfg->source_schema = cfg->schema;
    cfg->datagen_rows_per_second = 10000;
    cfg->datagen_number_of_rows = -1;
    cfg->datagen_fail_at_id = -1;
    cfg->checkpoints_num_retained = 1;
    cfg->checkpoints_history = 10;
    cfg->commit_ignore_empty = false;
    cfg->commit_max_retries = 10;
    cfg->heartbeat_interval_ms = 500;
    cfg->heartbeat_timeout_ms = 5000;
    cfg->s3_request_timeout_ms = 30000;
    cfg->target_file_size = 128 * 1024 * 1024;
    cfg->compaction_min_file_num = 5;
    cfg->compaction_max_file_num = 50;
    cfg->snapshot_num_retained_min = cfg->snapshot_num_retained_max = -1;
    cfg->snapshot_time_retained_ms = -1;
    cfg->snapshot_expire_limit = cfg->manifest_merge_min_count = -1;
    cfg->manifest_target_file_size = cfg->manifest_full_compaction_threshold_size = -1;
    cfg->write_max_writers = 1000;
    cfg->write_buffer_size = 256 * 1024 * 1024;
}

//  A number, duration or size (empty = unset where the key allows it).
static int
s_set_number (zs_config_t *cfg, const s_key_t *k, const char *key, const char *value, char *err,
              size_t errlen)
{
    char trimmed[8];
    if (k->unset_ok && s_trim (value, trimmed, sizeof trimmed) == 0 && !*trimmed) {
        s_num_put (cfg, k, -1);
        return 0;
    }
    int64_t v = 0;
    int rc = k->type == S_DURATION ? zs_parse_duration_ms (value, &v)
             : k->type == S_SIZE   ? zs_parse_size (value, &v)
                                   : s_parse_whole (value, &v);
    if (rc) {
        if (k->type == S_DURATION)
            s_err (err, errlen, "%s: bad duration '%s' (e.g. 2s, 500ms, 1min)", key, value);
        else if (k->type == S_SIZE)
            s_err (err, errlen, "%s: bad size '%s' (e.g. 128mb, 64kb, 1gb)", key, value);
        else
            s_err (err, errlen, "%s: '%s' is not a whole number", key, value);
        return -1;
    }
    if (v < k->min || v > k->max) {
        char range[64];
        s_range_text (k, range, sizeof range);
        s_err (err, errlen, "%s: '%s' out of range (%s%s)", key, value, range,
               k->unset_ok ? ", or empty for unset" : "");
        return -1;
    }
    s_num_put (cfg, k, v);
    return 0;
}

static int
s_set_bool (bool *field, const char *key, const char *value, char *err, size_t errlen)
{
    if (strcasecmp (value, "true") == 0)
        *field = true;
    else if (strcasecmp (value, "false") == 0)
        *field = false;
    else {
        s_err (err, errlen, "%s: bad boolean '%s' (true or false)", key, value);
        return -1;
    }
    return 0;
}

//  Length of the URI scheme that text starts with (RFC 3986: a letter, then
//  letters, digits, '+', '-', '.', then ':'), 0 if none. As in Flink's and
//  Hadoop's Path, a colon after the first '/' is part of a name, not a
//  scheme: "./a:b" and "/x/a:b" are local.
static size_t
s_scheme_len (const char *text)
{
    if (!isalpha ((unsigned char) text[0]))
        return 0;
    size_t n = 1;
    while (isalnum ((unsigned char) text[n]) || text[n] == '+' || text[n] == '-' || text[n] == '.')
        n++;
    return text[n] == ':' ? n : 0;
}

static int
s_hex (int c)
{
    return isdigit (c) ? c - '0' : isxdigit (c) ? tolower (c) - 'a' + 10 : -1;
}

//  The local path a file URI names: "file:///abs" and "file:/abs" are /abs
//  (%XX decoded); "file:relative" and "file://host/..." name no local
//  path. 0, or -1 with why.
static int
s_file_uri (const char *uri, char *out, size_t outlen, const char **why)
{
    const char *p = uri + 5; //  after "file:"
    if (strncmp (p, "//", 2) == 0) {
        p += 2;
        if (*p != '/') {
            *why = "names a host (file://HOST/...); a local path is file:///ABS";
            return -1;
        }
    } else if (*p != '/') {
        *why = "is relative; a file URI is absolute: file:///ABS";
        return -1;
    }
    size_t n = 0;
    for (; *p; p++) {
        int c = (unsigned char) *p;
        if (c == '%') {
            int hi = s_hex ((unsigned char) p[1]), lo = hi < 0 ? -1 : s_hex ((unsigned char) p[2]);
            if (lo < 0 || (hi == 0 && lo == 0)) {
                *why = "has a bad %-escape";
                return -1;
            }
            c = hi * 16 + lo;
            p += 2;
        }
        if (n + 1 >= outlen) {
            *why = "is too long";
            return -1;
        }
        out[n++] = (char) c;
    }
    out[n] = 0;
    return 0;
}

//  A path key's value as the local path zsink uses: no scheme, as is;
//  file:///abs, /abs; any other scheme is refused, naming the key, so
//  "s3://b/t" is not written into a directory "./s3:/b/t".
static int
s_path_local (const char *key, const char *value, char *out, size_t outlen, char *err,
              size_t errlen)
{
    size_t n = s_scheme_len (value);
    const char *why = NULL;
    if (n == 0) {
        if (strlen (value) >= outlen) {
            s_err (err, errlen, "%s: path longer than %zu bytes", key, outlen - 1);
            return -1;
        }
        snprintf (out, outlen, "%s", value);
        return 0;
    }
    if (n == 4 && strncasecmp (value, "file", 4) == 0) {
        if (s_file_uri (value, out, outlen, &why) == 0)
            return 0;
        s_err (err, errlen, "%s: '%s' %s", key, value, why);
        return -1;
    }
    s_err (err, errlen,
           "%s: '%s': scheme '%.*s:' is not supported yet (zsink writes local paths: /ABS, "
           "RELATIVE or file:///ABS; a local name with a colon is written ./NAME)",
           key, value, (int) n, value);
    return -1;
}

static int
s_set_path (char *field, const char *key, const char *value, char *err, size_t errlen)
{
    char local[ZS_PATH_MAX];
    if (s_path_local (key, value, local, sizeof local, err, errlen))
        return -1;
    snprintf (field, ZS_PATH_MAX, "%s", local);
    return 0;
}

//  s3://BUCKET[/KEY]: kept as written (io.h resolves it), the bucket
//  checked here so a typo fails at start, naming the key.
static int
s_set_store (char *field, const char *key, const char *value, char *err, size_t errlen)
{
    if (strncmp (value, "s3://", 5) != 0)
        return s_set_path (field, key, value, err, errlen);
    const char *b = value + 5;
    size_t blen = strcspn (b, "/");
    bool ok = blen >= 3 && blen <= 63;
    for (size_t i = 0; ok && i < blen; i++)
        ok = islower ((unsigned char) b[i]) || isdigit ((unsigned char) b[i]) || b[i] == '-'
             || b[i] == '.';
    if (!ok) {
        s_err (err, errlen, "%s: '%s': bad bucket name '%.*s' (3 to 63 of a-z, 0-9, '.' and '-')",
               key, value, (int) (blen < 64 ? blen : 64), b);
        return -1;
    }
    if (strstr (b + blen, "//")) {
        s_err (err, errlen, "%s: '%s': empty path segment ('//')", key, value);
        return -1;
    }
    if (strlen (value) >= ZS_PATH_MAX) {
        s_err (err, errlen, "%s: path longer than %d bytes", key, ZS_PATH_MAX - 1);
        return -1;
    }
    snprintf (field, ZS_PATH_MAX, "%s", value);
    //  no trailing '/': paths are joined with "/"
    size_t n = strlen (field);
    while (n > 5 && field[n - 1] == '/')
        field[--n] = 0;
    return 0;
}

static int
s_set_str (char *field, const s_key_t *k, const char *value, char *err, size_t errlen)
{
    if (strlen (value) >= (size_t) k->max) {
        s_err (err, errlen, "%s: longer than %d bytes", k->key, (int) k->max - 1);
        return -1;
    }
    if (s_streq (k->key, "s3.path.style.access") && *value && !s_streq (value, "true")
        && !s_streq (value, "false")) {
        s_err (err, errlen, "%s: bad boolean '%s' (true or false)", k->key, value);
        return -1;
    }
    snprintf (field, (size_t) k->max, "%s", value);
    return 0;
}

static int
s_set_text (char *field, const char *key, const char *value, char *err, size_t errlen)
{
    if (strlen (value) >= ZS_PATH_MAX) {
        s_err (err, errlen, "%s: longer than %d bytes", key, ZS_PATH_MAX - 1);
        return -1;
    }
    snprintf (field, ZS_PATH_MAX, "%s", value);
    return 0;
}

static int
s_set_enum (char *field, const s_key_t *k, const char *key, const char *value, char *err,
            size_t errlen)
{
    char known[128] = "";
    for (const char *const *c = k->choices; *c; c++) {
        if (s_streq (value, *c)) {
            snprintf (field, ZS_ENUM_MAX, "%s", value);
            return 0;
        }
        snprintf (known + strlen (known), sizeof known - strlen (known), "%s%s",
                  c == k->choices ? "" : ", ", *c);
    }
    s_err (err, errlen, "%s: unknown value '%s' (known: %s)", key, value, known);
    return -1;
}

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
        s_err (err, errlen, "%s", why);
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
        s_err (err, errlen,
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
        s_err (err, errlen, "%s", why);
        return -1;
    }
    char text[ZS_SCHEMA_TEXT_MAX];
    if (zs_schema_format (&schema, text, sizeof text) != 0) {
        s_err (err, errlen, "table.schema: longer than %d bytes", ZS_SCHEMA_TEXT_MAX - 1);
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
        s_err (err, errlen, "table.schema: longer than %d bytes", ZS_SCHEMA_TEXT_MAX - 1);
        return -1;
    }
    char why[ZS_ERRLEN];
    if (s_derive (text, cfg->computed_text, &source, &schema, why, sizeof why) != 0) {
        s_err (err, errlen, "the table's own schema (%s) with %s", text, why);
        return -1;
    }
    memcpy (cfg->schema_text, text, strlen (text) + 1);
    cfg->schema_set = true;
    cfg->source_schema = source;
    cfg->schema = schema;
    return 0;
}

//  ---------------------------------------------------------------------
//  source.kafka.properties.*: the Kafka client's own settings, any name,
//  kept as "name=value\n" lines in cfg->kafka_properties, in the order
//  first set (a name set again keeps its place, with the new value).

#define S_KAFKA_PROPS "source.kafka.properties."

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
        s_err (err, errlen, "%s: not a Kafka client property name", key);
        return -1;
    }
    if (strchr (value, '\n')) {
        s_err (err, errlen, "%s: a value holds no newline", key);
        return -1;
    }
    if (s_kafka_secret (name)) {
        s_err (err, errlen,
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
        s_err (err, errlen, "%s: the Kafka properties exceed %zu bytes", key,
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
        s_err (err, errlen, "%s", why);
        return -1;
    }
    return 0;
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
        s_err (err, errlen, "missing key or value");
        return -1;
    }
    const s_key_t *k = s_key_find (key);
    if (!k && strncmp (key, S_KAFKA_PROPS, strlen (S_KAFKA_PROPS)) == 0)
        return s_set_kafka_property (cfg, key, value, err, errlen);
    if (!k) {
        s_err (err, errlen, "unknown key '%s'", key);
        return -1;
    }
    char *field = (char *) cfg + k->offset;
    switch (k->type) {
    case S_INT:
    case S_I64:
    case S_DURATION:
    case S_SIZE:
        return s_set_number (cfg, k, key, value, err, errlen);
    case S_BOOL:
        return s_set_bool ((bool *) field, key, value, err, errlen);
    case S_PATH:
        return s_set_path (field, key, value, err, errlen);
    case S_TEXT:
        return s_set_text (field, key, value, err, errlen);
    case S_STR:
        return s_set_str (field, k, value, err, errlen);
    case S_STORE:
        return s_set_store (field, key, value, err, errlen);
    case S_ENUM:
        return s_set_enum (field, k, key, value, err, errlen);
    case S_SCHEMA:
        return s_set_schema (cfg, field, value, err, errlen);
    case S_COMPUTED:
        return s_set_computed (cfg, value, err, errlen);
    }
    return -1;
}

int
zs_config_set_kv (zs_config_t *cfg, const char *kv, char *err, size_t errlen)
{
    const char *eq = kv ? strchr (kv, '=') : NULL;
    if (!eq) {
        s_err (err, errlen, "bad option '%s': expected key=value", kv ? kv : "");
        return -1;
    }
    char key[S_KEY_MAX];
    size_t n = (size_t) (eq - kv);
    if (n >= sizeof key) {
        s_err (err, errlen, "bad option '%s': key too long", kv);
        return -1;
    }
    memcpy (key, kv, n);
    key[n] = 0;
    //  Tolerate "key = value" as typed in a shell; the value keeps its
    //  blanks for paths but numbers trim them anyway.
    char trimmed[S_KEY_MAX];
    s_trim (key, trimmed, sizeof trimmed);
    if (!*trimmed) {
        s_err (err, errlen, "bad option '%s': empty key", kv);
        return -1;
    }
    return zs_config_set (cfg, trimmed, eq + 1, err, errlen);
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
            s_err (err, errlen,
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
        s_err (err, errlen, S_KAFKA_PROPS "bootstrap.servers: required when source.kind is kafka");
        return -1;
    }
    if (!*cfg->kafka_topic == !*cfg->kafka_topic_pattern) {
        s_err (err, errlen,
               "source.kafka.topic or source.kafka.topic-pattern: exactly one is required when "
               "source.kind is kafka");
        return -1;
    }
    bool group = zs_config_kafka_property (cfg, "group.id", &len) != NULL;
    if (s_streq (cfg->kafka_startup_mode, "group-offsets") && !group) {
        s_err (err, errlen,
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
            s_err (err, errlen,
                   "source.kafka.scan.%s.timestamp-millis: required when "
                   "source.kafka.scan.%s.mode is timestamp",
                   m[i].what, m[i].what);
            return -1;
        }
        if (s_streq (m[i].mode, "specific-offsets") && !*m[i].offsets) {
            s_err (err, errlen,
                   "source.kafka.scan.%s.specific-offsets: required when "
                   "source.kafka.scan.%s.mode is specific-offsets",
                   m[i].what, m[i].what);
            return -1;
        }
    }
    if (s_streq (cfg->kafka_bounded_mode, "group-offsets") && !group) {
        s_err (err, errlen,
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
        s_err (err, errlen, "table.path: required key is missing");
        return -1;
    }
    if (!*cfg->checkpoints_dir) {
        s_err (err, errlen, "state.checkpoints.dir: required key is missing");
        return -1;
    }
    if (cfg->curve_enabled && !*cfg->curve_keys_dir) {
        s_err (err, errlen,
               "security.curve.keys-dir: required when security.curve.enabled is "
               "true (zsink keys generate DIR makes the keys)");
        return -1;
    }
    int lo, hi;
    if (*cfg->metrics_prom_port && zs_config_port_range (cfg->metrics_prom_port, &lo, &hi) != 0) {
        s_err (err, errlen, "metrics.reporter.prom.port: '%s' is not a port or a range A-B",
               cfg->metrics_prom_port);
        return -1;
    }
    if (s_streq (cfg->source_kind, "file") && !*cfg->source_file_path) {
        s_err (err, errlen, "source.file.path: required when source.kind is file");
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
        s_err (err, errlen, "%s", why);
        return -1;
    }
    if (s_csv_nested (cfg, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < S_NKEYS; i++) {
        const s_key_t *k = &s_keys[i];
        const char *field = (const char *) cfg + k->offset;
        //  zs_config_set keeps a path without its scheme; one filled in by
        //  hand may not
        if ((k->type == S_PATH || (k->type == S_STORE && strncmp (field, "s3://", 5) != 0))
            && s_scheme_len (field)) {
            s_err (err, errlen, "%s: '%s' has a URI scheme; zsink takes local paths", k->key,
                   field);
            return -1;
        }
    }
    for (size_t i = 0; i < S_NKEYS; i++) {
        const s_key_t *k = &s_keys[i];
        if (!s_is_numeric (k))
            continue;
        int64_t v = s_num_get (cfg, k);
        if (!s_in_range (k, v)) {
            char range[64];
            s_range_text (k, range, sizeof range);
            s_err (err, errlen, "%s: %" PRId64 " out of range (%s)", k->key, v, range);
            return -1;
        }
    }
    for (size_t i = 0; i < S_NKEYS; i++) {
        const s_key_t *k = &s_keys[i];
        if (k->type != S_ENUM)
            continue;
        const char *field = (const char *) cfg + k->offset;
        bool ok = false;
        for (const char *const *c = k->choices; *c; c++)
            ok |= strncmp (field, *c, ZS_ENUM_MAX) == 0;
        if (!ok) {
            s_err (err, errlen, "%s: unknown value '%.*s'", k->key, ZS_ENUM_MAX - 1, field);
            return -1;
        }
    }
    return 0;
}

int
zs_config_get (const zs_config_t *cfg, const char *key, char *buf, size_t len)
{
    const s_key_t *k = s_key_find (key);
    if (!k && len && strncmp (key, S_KAFKA_PROPS, strlen (S_KAFKA_PROPS)) == 0) {
        size_t vlen;
        const char *v = zs_config_kafka_property (cfg, key + strlen (S_KAFKA_PROPS), &vlen);
        if (!v || vlen >= len)
            return -1;
        memcpy (buf, v, vlen);
        buf[vlen] = 0;
        return 0;
    }
    if (!k || len == 0)
        return -1;
    const char *field = (const char *) cfg + k->offset;
    int n;
    switch (k->type) {
    case S_INT:
    case S_I64:
    case S_SIZE: {
        int64_t v = s_num_get (cfg, k);
        n = k->unset_ok && v == -1 ? snprintf (buf, len, "%s", "")
                                   : snprintf (buf, len, "%" PRId64, v);
        break;
    }
    case S_DURATION: {
        int64_t v = s_num_get (cfg, k);
        n = k->unset_ok && v == -1 ? snprintf (buf, len, "%s", "")
                                   : snprintf (buf, len, "%" PRId64 "ms", v);
        break;
    }
    case S_BOOL:
        n = snprintf (buf, len, "%s", *(const bool *) field ? "true" : "false");
        break;
    case S_PATH:
    case S_TEXT:
    case S_STORE:
        n = snprintf (buf, len, "%.*s", ZS_PATH_MAX - 1, field);
        break;
    case S_STR:
        n = snprintf (buf, len, "%.*s", (int) k->max - 1, field);
        break;
    case S_ENUM:
        n = snprintf (buf, len, "%.*s", ZS_ENUM_MAX - 1, field);
        break;
    case S_SCHEMA:
        n = snprintf (buf, len, "%.*s", ZS_SCHEMA_TEXT_MAX - 1, field);
        break;
    case S_COMPUTED:
        n = snprintf (buf, len, "%.*s", ZS_COMPUTED_TEXT_MAX - 1, field);
        break;
    default:
        return -1;
    }
    return n >= 0 && (size_t) n < len ? 0 : -1;
}

int
zs_config_foreach (const zs_config_t *cfg,
                   void (*fn) (const char *key, const char *value, void *arg), void *arg)
{
    char value[ZS_SCHEMA_TEXT_MAX + ZS_PATH_MAX];
    int count = 0;
    for (size_t i = 0; i < S_NKEYS; i++) {
        //  Cannot fail: the buffer holds the longest path and any number.
        if (s_secret (&s_keys[i]) || zs_config_get (cfg, s_keys[i].key, value, sizeof value))
            continue;
        fn (s_keys[i].key, value, arg);
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
//  YAML

typedef struct {
    yaml_parser_t parser;
    const char *path;
    zs_config_t *cfg;
    char *err;
    size_t errlen;
} s_yaml_t;

//  Next event, or -1 with the parser's own complaint and line.
static int
s_yaml_next (s_yaml_t *y, yaml_event_t *ev)
{
    if (yaml_parser_parse (&y->parser, ev))
        return 0;
    yaml_parser_t *p = &y->parser;
    s_err (y->err, y->errlen, "%s:%zu: broken YAML: %s%s%s", y->path,
           (size_t) p->problem_mark.line + 1, p->problem ? p->problem : "parse error",
           p->context ? " " : "", p->context ? p->context : "");
    return -1;
}

//  A plain ~, null or empty scalar is YAML's null; for us it means "unset"
//  (only accepted by keys that have an unset value).
static const char *
s_scalar_text (const yaml_event_t *ev)
{
    const char *v = (const char *) ev->data.scalar.value;
    if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE
        && (s_streq (v, "~") || s_streq (v, "null") || s_streq (v, "Null") || s_streq (v, "NULL")))
        return "";
    return v;
}

//  Read "key: value" pairs up to the end of the current mapping; nested
//  mappings recurse with their key as the prefix of the dotted key, at most
//  S_YAML_DEPTH_MAX deep.
//  A list of names as one value, separated by ';' (source.kafka.topic: a
//  YAML list or Flink's "a;b" text mean the same; table.computed-columns:
//  a list of "name=expression").
static int
s_yaml_list (s_yaml_t *y, const char *key, size_t line)
{
    char value[ZS_COMPUTED_TEXT_MAX] = "";
    bool names = s_streq (key, "source.kafka.topic");
    size_t used = 0;
    while (true) {
        yaml_event_t ev;
        if (s_yaml_next (y, &ev))
            return -1;
        if (ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete (&ev);
            break;
        }
        const char *item = ev.type == YAML_SCALAR_EVENT ? s_scalar_text (&ev) : NULL;
        size_t len = item ? strlen (item) : 0;
        if (!item || !len || strchr (item, ';') || used + len + 2 > sizeof value) {
            s_err (y->err, y->errlen, "%s:%zu: %s: %s", y->path, line, key,
                   !item || !len                   ? (names ? "a list of names is expected"
                                                            : "a list of name=expression items is expected")
                   : used + len + 2 > sizeof value ? "the list is too long"
                   : names                         ? "a name holds ';'"
                                                   : "an item holds ';'");
            yaml_event_delete (&ev);
            return -1;
        }
        used +=
            (size_t) snprintf (value + used, sizeof value - used, "%s%s", used ? ";" : "", item);
        yaml_event_delete (&ev);
    }
    char msg[ZS_ERRLEN];
    if (zs_config_set (y->cfg, key, value, msg, sizeof msg)) {
        s_err (y->err, y->errlen, "%s:%zu: %s", y->path, line, msg);
        return -1;
    }
    return 0;
}

static int
s_yaml_mapping (s_yaml_t *y, const char *prefix, int depth)
{
    while (true) {
        yaml_event_t kev;
        if (s_yaml_next (y, &kev))
            return -1;
        if (kev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete (&kev);
            return 0;
        }
        size_t line = (size_t) kev.start_mark.line + 1;
        if (kev.type != YAML_SCALAR_EVENT) {
            s_err (y->err, y->errlen, "%s:%zu: a key must be plain text", y->path, line);
            yaml_event_delete (&kev);
            return -1;
        }
        char key[S_KEY_MAX];
        int n = snprintf (key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "",
                          (const char *) kev.data.scalar.value);
        yaml_event_delete (&kev);
        if (n < 0 || (size_t) n >= sizeof key) {
            s_err (y->err, y->errlen, "%s:%zu: key too long", y->path, line);
            return -1;
        }
        yaml_event_t vev;
        if (s_yaml_next (y, &vev))
            return -1;
        line = (size_t) vev.start_mark.line + 1;
        int rc = 0;
        if (vev.type == YAML_SCALAR_EVENT) {
            char msg[ZS_ERRLEN];
            if (zs_config_set (y->cfg, key, s_scalar_text (&vev), msg, sizeof msg)) {
                s_err (y->err, y->errlen, "%s:%zu: %s", y->path, line, msg);
                rc = -1;
            }
        } else if (vev.type == YAML_MAPPING_START_EVENT && depth >= S_YAML_DEPTH_MAX) {
            s_err (y->err, y->errlen, "%s:%zu: %s: mappings nested deeper than %d levels", y->path,
                   line, key, S_YAML_DEPTH_MAX);
            rc = -1;
        } else if (vev.type == YAML_MAPPING_START_EVENT)
            rc = s_yaml_mapping (y, key, depth + 1);
        else if (vev.type == YAML_SEQUENCE_START_EVENT
                 && (s_streq (key, "source.kafka.topic")
                     || s_streq (key, "table.computed-columns")))
            rc = s_yaml_list (y, key, line);
        else {
            s_err (y->err, y->errlen, "%s:%zu: %s: %s", y->path, line, key,
                   vev.type == YAML_SEQUENCE_START_EVENT ? "lists are not supported"
                                                         : "aliases are not supported");
            rc = -1;
        }
        yaml_event_delete (&vev);
        if (rc)
            return -1;
    }
}

//  Expect an event of the given type; anything else is "what" at its line.
static int
s_yaml_expect (s_yaml_t *y, yaml_event_type_t type, yaml_event_t *ev, const char *what)
{
    if (s_yaml_next (y, ev))
        return -1;
    if (ev->type == type)
        return 0;
    s_err (y->err, y->errlen, "%s:%zu: %s", y->path, (size_t) ev->start_mark.line + 1, what);
    yaml_event_delete (ev);
    return -1;
}

static int
s_yaml_document (s_yaml_t *y)
{
    yaml_event_t ev;
    if (s_yaml_expect (y, YAML_STREAM_START_EVENT, &ev, "not a YAML stream"))
        return -1;
    yaml_event_delete (&ev);
    if (s_yaml_next (y, &ev))
        return -1;
    if (ev.type == YAML_STREAM_END_EVENT) {
        //  An empty file (or only comments) sets nothing: that is fine.
        yaml_event_delete (&ev);
        return 0;
    }
    yaml_event_delete (&ev); //  document start
    if (s_yaml_next (y, &ev))
        return -1;
    int rc;
    if (ev.type == YAML_MAPPING_START_EVENT)
        rc = s_yaml_mapping (y, "", 1);
    else if (ev.type == YAML_SCALAR_EVENT && !*s_scalar_text (&ev))
        rc = 0; //  "---" alone: an empty document
    else {
        s_err (y->err, y->errlen, "%s:%zu: the top level must be a mapping of keys to values",
               y->path, (size_t) ev.start_mark.line + 1);
        rc = -1;
    }
    yaml_event_delete (&ev);
    if (rc)
        return -1;
    if (s_yaml_expect (y, YAML_DOCUMENT_END_EVENT, &ev, "expected end of document"))
        return -1;
    yaml_event_delete (&ev);
    if (s_yaml_expect (y, YAML_STREAM_END_EVENT, &ev, "only one YAML document is allowed"))
        return -1;
    yaml_event_delete (&ev);
    return 0;
}

int
zs_config_load_yaml (zs_config_t *cfg, const char *path, char *err, size_t errlen)
{
    FILE *file = fopen (path, "rb");
    if (!file) {
        s_err (err, errlen, "%s: cannot open: %s", path, strerror (errno));
        return -1;
    }
    //  Work on a copy so that a file failing halfway changes nothing.
    zs_config_t copy = *cfg;
    s_yaml_t y = {.path = path, .cfg = &copy, .err = err, .errlen = errlen};
    if (!yaml_parser_initialize (&y.parser)) {
        s_err (err, errlen, "%s: cannot initialise the YAML parser", path);
        fclose (file);
        return -1;
    }
    yaml_parser_set_input_file (&y.parser, file);
    int rc = s_yaml_document (&y);
    yaml_parser_delete (&y.parser);
    fclose (file);
    if (rc == 0)
        *cfg = copy;
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
zs_config_args_take (zs_config_args_t *self, int opt, const char *arg, char *err, size_t errlen)
{
    if (opt == 'c') {
        self->file = arg;
        return 1;
    }
    if (opt != 'D')
        return 0;
    if (self->n_overrides == ZS_CONFIG_MAX_OVERRIDES) {
        snprintf (err, errlen, "more than %d -D options", ZS_CONFIG_MAX_OVERRIDES);
        return -1;
    }
    self->overrides[self->n_overrides++] = arg;
    return 1;
}

int
zs_config_args_build (const zs_config_args_t *self, zs_config_t *cfg, char *err, size_t errlen)
{
    return zs_config_build (cfg, self->file, self->overrides, self->n_overrides, err, errlen);
}

int
zs_config_port_range (const char *spec, int *lo, int *hi)
{
    char *end;
    long a = strtol (spec, &end, 10), b = a;
    if (end == spec)
        return -1;
    if (*end == '-') {
        const char *rest = end + 1;
        b = strtol (rest, &end, 10);
        if (end == rest)
            return -1;
    }
    if (*end || a < 1 || b > 65535 || a > b)
        return -1;
    *lo = (int) a;
    *hi = (int) b;
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
