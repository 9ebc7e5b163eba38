#ifndef ZS_COMMITTER_H_INCLUDED
#define ZS_COMMITTER_H_INCLUDED
//  Run the committer process; returns the process exit code.
int zs_committer_main (int argc, char **argv);
#endif
