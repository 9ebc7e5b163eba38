#ifndef ZS_CLUSTER_H_INCLUDED
#define ZS_CLUSTER_H_INCLUDED
//  `zsink cluster …`: argv[0] is "cluster". Returns the exit code.
int zs_cluster_cmd (int argc, char **argv);
#endif
