/*  timeline.h - `zsink timeline`: a job's event logs as an SVG picture. */
#ifndef ZS_TIMELINE_H_INCLUDED
#define ZS_TIMELINE_H_INCLUDED

//  argv from "timeline" on. The exit code.
int zs_timeline_cmd (int argc, char **argv);

#endif
