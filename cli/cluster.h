#ifndef ZS_CLUSTER_H_INCLUDED
#define ZS_CLUSTER_H_INCLUDED
//  `zsink cluster …`: argv[0] is "cluster". Returns the exit code.
int zs_cluster_cmd (int argc, char **argv);

#include "config.h"
#include <stddef.h>
//  Once every role of job_id (checkpoints in chk_root/job_id) is gone and
//  the job ended CANCELED or FAILED, or before a job restored from one of
//  its checkpoints starts: delete its data files written after its latest
//  completed checkpoint that no snapshot references (cluster_clean.c). The
//  count deleted, or -1; said tells what was done or what is left, and why.
int zs_cluster_clean (const zs_config_t *cfg, const char *chk_root, const char *job_id, char *said,
                      size_t saidlen);
#endif
