/*  table_job.c - what a job asks of the table store: its options over the
    table's, its preparation of the table before anything is written (the
    table's row type and partition keys adopted, the table checked
    writable), the rerun check, and the compaction request from the job's
    configuration.

    This is the seam the job layer (common/job/, issue 26) takes: everything
    here reads a zs_config_t and goes through table.h only, never the table's
    private state (table_priv.h), so it can move above the table layer
    unchanged.
*/
#include "datafile.h"
#include "table.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

void
zs_table_set_job_options (zs_table_t *self, const zs_config_t *cfg)
{
    zs_table_opts_t opts = *zs_table_opts (self), *o = &opts;
    if (cfg->snapshot_num_retained_min != -1)
        o->retain_min = cfg->snapshot_num_retained_min;
    if (cfg->snapshot_num_retained_max != -1)
        o->retain_max = cfg->snapshot_num_retained_max;
    if (cfg->snapshot_time_retained_ms != -1)
        o->time_retained_ms = cfg->snapshot_time_retained_ms;
    if (cfg->snapshot_expire_limit != -1)
        o->expire_limit = cfg->snapshot_expire_limit;
    if (cfg->manifest_target_file_size != -1)
        o->manifest_target_size = cfg->manifest_target_file_size;
    if (cfg->manifest_merge_min_count != -1)
        o->merge_min_count = cfg->manifest_merge_min_count;
    if (cfg->manifest_full_compaction_threshold_size != -1)
        o->full_compaction_size = cfg->manifest_full_compaction_threshold_size;
    o->write_only = o->write_only || cfg->write_only;
    zs_table_set_opts (self, o);
}

//  A new table's partitioning from the job: keys naming its columns, of
//  types zsink names directories by, a default name it can use.
static int
s_new_partition (zs_config_t *cfg, char *err, size_t errlen)
{
    zs_partition_t part;
    char why[ZS_ERRLEN];
    if (zs_config_apply_partition (cfg, err, errlen) != 0)
        return -1;
    const char *dflt = *cfg->partition_default_name ? cfg->partition_default_name : NULL;
    if (zs_partition_init (&part, &cfg->schema, dflt, why, sizeof why) != 0) {
        snprintf (err, errlen, "zsink cannot write table %s: %s", cfg->table_path, why);
        return -1;
    }
    return 0;
}

int
zs_table_prepare_job (zs_config_t *cfg, char *err, size_t errlen)
{
    int found = zs_table_probe (cfg->table_path, err, errlen);
    if (found == ZS_ENOENT) //  a new table: the committer creates it with the job's schema
        return s_new_partition (cfg, err, errlen);
    //  a listing that failed (S3 did not answer) is no new table, and must
    //  not read as "not a table" when the next listing answers
    if (found != 0)
        return -1;
    zs_table_t *table = zs_table_open (cfg->table_path, NULL, err, errlen);
    if (!table)
        return -1;
    if (!cfg->schema_set
        && zs_config_adopt_schema (cfg, zs_table_schema (table), err, errlen) != 0) {
        zs_table_destroy (&table);
        return -1;
    }
    //  The table's partition keys are the job's unless it names its own
    //  (then they must be the table's: zs_table_open_job below)
    int rc = 0;
    if (!*cfg->partition_keys)
        rc = zs_schema_partition_format (zs_table_schema (table), cfg->partition_keys,
                                         sizeof cfg->partition_keys);
    if (rc != 0 || zs_config_apply_partition (cfg, err, errlen) != 0) {
        if (rc != 0)
            snprintf (err, errlen, "table %s: partition keys too long", cfg->table_path);
        zs_table_destroy (&table);
        return -1;
    }
    //  A new job writes the latest schema, and every older schema's files
    //  must read as it (its compaction rewrites them), before anything is
    //  written.
    char why[ZS_ERRLEN];
    rc = zs_schemas_check (zs_table_schemas (table), why, sizeof why);
    if (rc != 0)
        snprintf (err, errlen, "zsink cannot write table %s: %s", cfg->table_path, why);
    else if ((rc = zs_schema_diff (&cfg->schema, zs_table_schema (table), why, sizeof why)) != 0)
        snprintf (err, errlen, "table %s has another schema: %s (its latest, schema %lld)",
                  cfg->table_path, why, (long long) zs_table_schema_file (table)->id);
    zs_table_destroy (&table);
    if (rc != 0)
        return -1;
    //  again, as a writer: writable, and of the job's row type and keys
    table =
        zs_table_open_job (cfg->table_path, &cfg->schema, cfg->partition_default_name, err, errlen);
    if (!table)
        return -1;
    zs_table_destroy (&table);
    return 0;
}

int
zs_table_check_rerun (const zs_config_t *cfg, char *err, size_t errlen)
{
    char source_id[24];
    if (cfg->allow_rerun || !zs_config_source_id (cfg, source_id, sizeof source_id))
        return 0;
    int found = zs_table_probe (cfg->table_path, err, errlen);
    if (found == ZS_ENOENT)
        return 0;
    if (found != 0)
        return -1;
    zs_table_t *table = zs_table_open (cfg->table_path, NULL, err, errlen);
    if (!table)
        return -1;
    zs_snapshot_t snap;
    int rc = zs_table_finished_run (table, source_id, &snap, err, errlen);
    zs_table_destroy (&table);
    if (rc <= 0)
        return rc;
    char when[32];
    time_t t = (time_t) (snap.time_millis / 1000);
    struct tm tm;
    strftime (when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r (&t, &tm));
    char which[48] = "end-input snapshot expired";
    if (snap.id >= 0)
        snprintf (which, sizeof which, "snapshot %lld", (long long) snap.id);
    snprintf (err, errlen,
              "table %s already holds a finished run of this job's input (%s; %s, %s, "
              "commit user %s): running it again appends the same rows again. Set "
              "job.allow-rerun: true to run it anyway",
              cfg->table_path,
              strcmp (cfg->source_kind, "file") == 0 ? cfg->source_file_path : "datagen", which,
              when, snap.commit_user);
    return ZS_EREFUSED;
}

void
zs_table_compact_options (const zs_config_t *cfg, const char *user, zs_compact_t *req)
{
    *req = (zs_compact_t){.user = user,
                          .identifier = ZS_END_INPUT_ID,
                          .max_retries = cfg->commit_max_retries,
                          .target_file_size = cfg->target_file_size,
                          .small_file_ratio = 0.7,
                          .min_file_num = cfg->compaction_min_file_num,
                          .max_file_num = cfg->compaction_max_file_num,
                          .open_file_cost = 4 << 20};
    zs_datafile_options (cfg, &req->parquet);
}
