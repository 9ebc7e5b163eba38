/*  table_options.h - the table's options (Paimon's keys: snapshot.*,
    manifest.*, write-only, compaction.*, target-file-size,
    partition.default-name, write-max-writers, write-buffer-size),
    declared once: the struct the store acts on and a job's configuration
    embeds, and the table (opts.h) that parses, prints and lists them.

    Those flagged ZS_OPT_TABLE are also properties of a table (its
    schema's options, read by zs_table_opts_read): in a job they are unset
    (-1) unless given, and then override the table's own, as a Flink job's
    dynamic options do (zs_table_opts_overlay). The others are the job's
    alone, with their defaults.

    Adding a table option: a field here, a line in zs_table_options[]
    (table_options.c), and the code of table/ that acts on it. A
    ZS_OPT_TABLE option takes "" (unset_ok: a number -1, a text ""), so
    that a job that does not set it leaves the table's; a boolean one can
    only turn a behaviour on (write-only).
*/
#ifndef ZS_TABLE_OPTIONS_H_INCLUDED
#define ZS_TABLE_OPTIONS_H_INCLUDED

#include "opts.h"

typedef struct {
    int retain_min;               //  snapshot.num-retained.min (10)
    int retain_max;               //  snapshot.num-retained.max (INT_MAX)
    int64_t time_retained_ms;     //  snapshot.time-retained (1h)
    int expire_limit;             //  snapshot.expire.limit (50)
    int64_t manifest_target_size; //  manifest.target-file-size (8mb)
    int merge_min_count;          //  manifest.merge-min-count (30)
    int64_t full_compaction_size; //  manifest.full-compaction-threshold-size (16mb)
    bool write_only;              //  write-only (false): no expiry, no compaction
    int64_t target_file_size;     //  target-file-size (128mb)
    int compaction_min_file_num;  //  compaction.min.file-num (5)
    int compaction_max_file_num;  //  compaction.max.file-num (50)
    //  partition.default-name ("": the table's, else Paimon's)
    char partition_default_name[128];
    //  write-max-writers (1000): partitions a writer keeps a data file open
    //  for; one more closes the least recently written one (docs/decisions.md)
    int write_max_writers;
    //  write-buffer-size (256mb): rows a writer buffers in memory over all
    //  its open files; beyond it every open file writes its rows out as a
    //  row group and gives their memory back (docs/decisions.md)
    int64_t write_buffer_size;
} zs_table_opts_t;

extern const zs_opt_t zs_table_options[];

//  The options of a table whose schema holds the options text of
//  get (key → value, NULL when absent; arg passed on): Paimon's defaults,
//  then its ZS_OPT_TABLE properties. 0, or -1 + err naming the option and
//  its value (a retention or merge that would otherwise be a guess).
int zs_table_opts_read (zs_table_opts_t *self,
                        const char *(*get) (const void *arg, const char *key), const void *arg,
                        char *err, size_t errlen);

//  A job's options over a table's: each ZS_OPT_TABLE option the job sets
//  overrides (write-only: true wins), every other is the job's.
void zs_table_opts_overlay (zs_table_opts_t *self, const zs_table_opts_t *job);

#endif
