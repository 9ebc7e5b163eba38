/*  table_job.h - what a job asks of the table store (the job layer over
    table.h): its options over the table's, its preparation of the table
    before anything is written, the rerun check, and the compaction request
    from the job's configuration. table_job.c goes through table.h only.
*/
#ifndef ZS_TABLE_JOB_H_INCLUDED
#define ZS_TABLE_JOB_H_INCLUDED

#include "config.h"
#include "table.h"

//  Override the table's options with those cfg sets (table_options.h:
//  zs_table_opts_overlay).
void zs_table_set_job_options (zs_table_t *self, const zs_config_t *cfg);

//  A job about to write the table at cfg->table_path, if there is one
//  (any Paimon table: zsink's, Paimon Java's, pypaimon's): when the job
//  gives no table.schema, the table's row type becomes the job's (cfg's
//  schema and its text); then the table must be one zsink can write
//  exactly once, of the job's row type. 0 (also when there is no table
//  yet), or -1 with err naming what is wrong.
int zs_table_prepare_job (zs_config_t *cfg, char *err, size_t errlen);
//  A new bounded job (not a restore) about to write cfg->table_path: does
//  the table hold a finished run of the same input (zs_table_finished_run)?
//  Then ZS_EREFUSED with err saying so and how to run it anyway
//  (job.allow-rerun); else 0, or -1 + err when the table cannot be read.
int zs_table_check_rerun (const zs_config_t *cfg, char *err, size_t errlen);

//  req from the job's configuration (target-file-size, compaction.*,
//  Parquet options), for user.
void zs_table_compact_options (const zs_config_t *cfg, const char *user, zs_compact_t *req);

#endif
