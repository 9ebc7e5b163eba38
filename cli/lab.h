/*  lab.h - `zsink lab`: the tour's scenarios and races, run and proved. */
#ifndef ZS_LAB_H_INCLUDED
#define ZS_LAB_H_INCLUDED

//  argv from "lab" on. The exit code.
int zs_lab_cmd (int argc, char **argv);

#endif
