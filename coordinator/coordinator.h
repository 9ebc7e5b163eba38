#ifndef ZS_COORDINATOR_H_INCLUDED
#define ZS_COORDINATOR_H_INCLUDED
//  Run the coordinator process; returns the process exit code.
int zs_coordinator_main (int argc, char **argv);
#endif
