/*  config.h - a job's configuration (the job layer, common/job/):
    Flink-style keys from a YAML file plus -Dkey=value overrides. Unknown
    keys and bad values are errors naming the key. The coordinator owns the
    configuration and hands it to the other processes as key/value pairs
    (zs_config_foreach / zs_config_set, zs_config_welcome).

    Each layer declares its own options in one table (opts.h): the table's
    Paimon options in table/table_options.h, the data files' in
    format/format_options.h, the object store's in io/io_options.h, and
    the job's own here (config.c). zs_config_t embeds the layers' structs;
    setting, validating, listing (`zsink config keys`) and handing out walk
    the same tables.

    YAML may be flat ("execution.checkpointing.interval: 2s") or nested
    (execution: {checkpointing: {interval: 2s}}); both flatten to the same
    dotted keys (base/yamlkv.h).
*/
#ifndef ZS_CONFIG_H_INCLUDED
#define ZS_CONFIG_H_INCLUDED

#include "cmd.h"
#include "computed.h"
#include "format_options.h"
#include "io_options.h"
#include "opts.h"
#include "participant.h"
#include "rowtype.h"
#include "table_options.h"
#include "zs.h"

#define ZS_ENUM_MAX 24          //  bytes of an enumerated value, with NUL
#define ZS_SCHEMA_TEXT_MAX 4096 //  bytes of table.schema's text, with NUL

typedef struct {
    int parallelism;                    //  parallelism (default 1)
    int64_t checkpoint_interval_ms;     //  execution.checkpointing.interval (0 = off)
    int64_t checkpoint_timeout_ms;      //  execution.checkpointing.timeout (default 60s)
    int64_t checkpoint_min_pause_ms;    //  execution.checkpointing.min-pause (default 0)
    bool checkpoint_after_restore;      //  execution.checkpointing.trigger-after-restore (false)
    int tolerable_failed_checkpoints;   //  execution.checkpointing.tolerable-failed-checkpoints (0)
    int restart_attempts;               //  restart-strategy.fixed-delay.attempts (default 3)
    int64_t restart_delay_ms;           //  restart-strategy.fixed-delay.delay (default 1s)
    char source_kind[ZS_ENUM_MAX];      //  source.kind: datagen (default), file or kafka
    char sink_kind[ZS_ENUM_MAX];        //  sink.kind: paimon (default) or blackhole
    char source_file_path[ZS_PATH_MAX]; //  source.file.path: a file or a directory
    char source_file_format[ZS_ENUM_MAX];   //  source.file.format: jsonl (default) or csv
    char source_file_on_error[ZS_ENUM_MAX]; //  source.file.on-error: fail (default) or skip
    bool source_file_allow_empty;           //  source.file.allow-empty: no input file is fine
    int64_t source_file_rows_per_second;    //  source.file.rows-per-second (0 = unthrottled)
    //  The Kafka source (docs/kafka.md): Flink's Kafka connector keys,
    //  under source.kafka.
    char kafka_topic[1024];        //  source.kafka.topic: names, separated by ';'
    char kafka_topic_pattern[256]; //  source.kafka.topic-pattern: a regex matching whole names
    char kafka_properties[4096];   //  source.kafka.properties.*: "name=value\n" lines
    bool kafka_commit_offsets;     //  source.kafka.properties.commit.offsets.on.checkpoint (true)
    char kafka_startup_mode[ZS_ENUM_MAX]; //  source.kafka.scan.startup.mode (group-offsets)
    int64_t kafka_startup_timestamp_ms;   //  …scan.startup.timestamp-millis (-1: unset)
    char kafka_startup_offsets[1024];     //  …scan.startup.specific-offsets
    char kafka_bounded_mode[ZS_ENUM_MAX]; //  source.kafka.scan.bounded.mode (unbounded)
    int64_t kafka_bounded_timestamp_ms;   //  …scan.bounded.timestamp-millis (-1: unset)
    char kafka_bounded_offsets[1024];     //  …scan.bounded.specific-offsets
    int64_t kafka_discovery_interval_ms; //  …scan.topic-partition-discovery.interval (5min; 0 off)
    char kafka_value_format[ZS_ENUM_MAX]; //  source.kafka.value.format: json (default) or csv
    char kafka_on_error[ZS_ENUM_MAX];     //  source.kafka.on-error: fail (default) or skip
    int64_t kafka_rows_per_second;        //  source.kafka.rows-per-second (0 = unthrottled)
    int64_t datagen_rows_per_second;      //  datagen.rows-per-second (10000; 0 = unthrottled)
    int64_t datagen_number_of_rows;       //  datagen.number-of-rows (-1 = unbounded)
    int64_t datagen_fail_at_id;           //  datagen.fail-at-id (-1 = none)
    char table_path[ZS_PATH_MAX];         //  table.path (required)
    char checkpoints_dir[ZS_PATH_MAX];    //  state.checkpoints.dir (required)
    int checkpoints_num_retained;         //  state.checkpoints.num-retained (default 1)
    int checkpoints_history;              //  web.checkpoints.history (10): in zsink status
    char metrics_prom_port[ZS_PATH_MAX];  //  metrics.reporter.prom.port: "9249" or "9249-9260"
    char metrics_prom_bind[256];          //  metrics.reporter.prom.bind-address ("": all)
    char pipeline_name[128];              //  pipeline.name: metrics' job_name ("": zsink)
    char log_dir[ZS_PATH_MAX];            //  log.dir: zsink cluster writes <dir>/<role>.log
    char log_level[ZS_ENUM_MAX];          //  log.level: debug, info (default), warn, error
    bool commit_ignore_empty;             //  commit.ignore-empty (false)
    int commit_max_retries;               //  commit.max-retries (10)
    int64_t heartbeat_interval_ms;        //  heartbeat.interval (500ms)
    int64_t heartbeat_timeout_ms;         //  heartbeat.timeout (5s)
    char schema_text[ZS_SCHEMA_TEXT_MAX]; //  table.schema, canonical text
    zs_schema_t schema;                   //  the table's row type: source_schema, then
                                          //  the computed columns (default:
                                          //  zs_schema_default)
    bool schema_set;                      //  table.schema was given (else an existing
                                          //  table's own schema is the job's)
    bool allow_rerun;                 //  job.allow-rerun (false): run a finished job's source again
    bool curve_enabled;               //  security.curve.enabled (false)
    char curve_keys_dir[ZS_PATH_MAX]; //  security.curve.keys-dir (docs/security.md)
    //  table.computed-columns (computed.h), canonical text: columns of the
    //  table computed from the row, after the source's. table.schema may
    //  list them at its end (the table's own schema does): they are the
    //  computed ones there, not the source's.
    char computed_text[ZS_COMPUTED_TEXT_MAX];
    //  The columns the source reads: table.schema without the computed ones.
    zs_schema_t source_schema;
    //  Partitioned tables (table/partition.h). table.partition-keys, Paimon's
    //  key: column names "k1,k2" of a new table ("" unset: an existing
    //  table's keys; a job naming other keys is refused). Applied to
    //  schema.partition whenever table.schema or this key is set.
    char partition_keys[512];
    //  The layers' options, each declared by its layer (its table of
    //  zs_opt_t lists the keys)
    zs_table_opts_t table;   //  snapshot.*, manifest.*, compaction.*, write-*, …
    zs_format_opts_t format; //  file.*, parquet.*
    //  s3.*: "" = unset, the environment's AWS_* decides. The credentials
    //  are secrets: zs_config_foreach leaves them out, so they reach no
    //  job.json, no Welcome, no log; `zsink cluster` hands them to its
    //  children in the environment.
    zs_io_s3_opts_t s3;
} zs_config_t;

//  What identifies a bounded job's input (its rows): the source kind and
//  its definition (datagen's number-of-rows: ids 1..N; the file source's
//  real path, format and on-error, and the name, size and modification
//  time of every input file, so that a file replaced by new data is new
//  input), as 16 hex digits into out. The committer records it in the
//  end-input snapshot (properties "zsink.source-id"), so that running the
//  same input into the table again is noticed at start. false (out "")
//  for an unbounded source.
bool zs_config_source_id (const zs_config_t *cfg, char *out, size_t outlen);

//  The value of one source.kafka.properties.NAME (NULL: not set). Points
//  into cfg (not NUL-terminated: *len bytes).
const char *zs_config_kafka_property (const zs_config_t *cfg, const char *name, size_t *len);

//  Call fn for each source.kafka.properties.NAME set, with NAME and value.
void zs_config_kafka_properties (const zs_config_t *cfg,
                                 void (*fn) (const char *name, const char *value, void *arg),
                                 void *arg);

//  Is a directory entry of that name an input file of the file source's
//  format ("csv": *.csv; "jsonl": *.jsonl or *.json; never a dot file)?
bool zs_config_input_name_matches (const char *name, const char *format);

//  Defaults (table.path and state.checkpoints.dir left empty).
void zs_config_defaults (zs_config_t *cfg);

//  table.partition-keys onto schema.partition (after the schema changed
//  under it: an existing table's became the job's). 0, or -1 with err
//  naming a key that names no column, comes twice or one too many.
int zs_config_apply_partition (zs_config_t *cfg, char *err, size_t errlen);

//  Set one key from its text value. 0, or -1 with err naming the key and
//  what is wrong ("unknown key 'foo'", "execution.checkpointing.interval:
//  bad duration 'x'").
int zs_config_set (zs_config_t *cfg, const char *key, const char *value, char *err, size_t errlen);

//  Apply "key=value" (the text after -D). 0 or -1 + err.
int zs_config_set_kv (zs_config_t *cfg, const char *kv, char *err, size_t errlen);

//  Load a YAML file on top of cfg. 0 or -1 + err (file, line, key).
int zs_config_load_yaml (zs_config_t *cfg, const char *path, char *err, size_t errlen);

//  The whole job configuration as a command line gives it: defaults, then
//  the YAML file (NULL: none), then the -D overrides in order, then
//  zs_config_validate. 0, or -1 with err naming the file, key or value.
int zs_config_build (zs_config_t *cfg, const char *yaml_file, const char *const *overrides,
                     int n_overrides, char *err, size_t errlen);

//  zs_config_build from the arguments.
int zs_config_args_build (const zs_config_args_t *self, zs_config_t *cfg, char *err, size_t errlen);

//  An existing table's schema as the job's (a job without table.schema):
//  its columns named like the computed columns at its end are those, the
//  rest the source's. 0, or -1 with err when the computed columns do not
//  fit it (a column they name is not the table's).
int zs_config_adopt_schema (zs_config_t *cfg, const zs_schema_t *table, char *err, size_t errlen);

//  Check cross-key rules (required keys present, ranges). 0 or -1 + err.
int zs_config_validate (const zs_config_t *cfg, char *err, size_t errlen);

//  A path key's value that is there but no directory (a file): -1 with err
//  naming the key ("table.path: /x is a file, not a directory"); else 0
//  (there, or not yet: made when needed; or on S3).
int zs_config_not_dir (const char *key, const char *path, char *err, size_t errlen);

//  Can the job write where its keys say: table.path (and the table's
//  directories already there: bucket-0, snapshot, manifest, schema, .locks)
//  and state.checkpoints.dir (or, not there yet, where they would be made:
//  nothing is created)? 0, also when the cause
//  may pass (a full disk: the roles retry that); ZS_EREFUSED with err naming
//  the key and the path when no restart can change it (no permission, a
//  read-only file system).
//  Only the table with table, only the checkpoint directory with
//  checkpoints (a deployed coordinator has no table directory).
int zs_config_check_dirs (const zs_config_t *cfg, bool table, bool checkpoints, char *err,
                          size_t errlen);

//  Every key with its current value as text, for handing out on Welcome.
//  Calls fn(key, value, arg) for each key; returns number of keys. Each text
//  parses back to the same value with zs_config_set: durations as "<n>ms",
//  sizes as bytes, and an unset datagen.number-of-rows / datagen.fail-at-id
//  (-1) as the empty string "", which zs_config_set reads as unset.
int zs_config_foreach (const zs_config_t *cfg,
                       void (*fn) (const char *key, const char *value, void *arg), void *arg);

//  One key's current value as text, in the form zs_config_foreach emits
//  (durations "<n>ms", sizes in bytes, unset numbers as ""). 0, or -1 for an
//  unknown key or a buffer too small.
int zs_config_get (const zs_config_t *cfg, const char *key, char *buf, size_t len);

//  The configuration a Welcome brought (zs_participant_settings): defaults,
//  then every pair, then the parallelism. 0, or -1 + err (a coordinator of
//  another version sent a key or value this one does not take).
int zs_config_welcome (zs_config_t *cfg, zs_participant_t *part, char *err, size_t errlen);

//  zs_io_setup with the job's s3.* options, remote when its table or
//  checkpoints are on S3.
int zs_config_io_setup (const zs_config_t *cfg, char *err, size_t errlen);

//  Every layer's table of options, as groups over zs_config_t (the job's
//  first); *n the number of groups. For listing (`zsink config keys`).
const zs_opt_group_t *zs_config_groups (size_t *n);

//  The one family of keys rather than a key: source.kafka.properties.NAME,
//  any Kafka client property NAME (zs_config_kafka_property).
#define ZS_CONFIG_KAFKA_PROPS "source.kafka.properties."

#endif
