#ifndef ZS_WRITER_H_INCLUDED
#define ZS_WRITER_H_INCLUDED
//  Run the writer process; returns the process exit code.
int zs_writer_main (int argc, char **argv);
#endif
