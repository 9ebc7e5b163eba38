/*  timeline_draw.h - what `zsink timeline` read (timeline.c) and how it
    is drawn (timeline_draw.c): the events of a job on a time axis, one
    lane per process (a name and a pid).
*/
#ifndef ZS_TIMELINE_DRAW_H_INCLUDED
#define ZS_TIMELINE_DRAW_H_INCLUDED

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define ZS_TL_LANES_MAX 256

typedef struct {
    double t;
    json_t *ev; //  owned
    int lane;   //  -1: none
} zs_tl_event_t;

typedef struct {
    char name[64];
    int pid;
    double first, last; //  its first and last event (a spawn included)
    double end;         //  when it exited (zsink cluster's "exit"), or -1
    double stop;        //  where its line ends: end, else last if a later
                        //  lane has its name (replaced), else the picture's
    char death[48];     //  "SIGKILL", "exit 137"; "" for none or exit 0
    //  the layout's (timeline_draw.c)
    int rows_above, rows_below; //  label rows: checkpoint ids; the others
    double top, mid, height;
} zs_tl_lane_t;

typedef struct {
    zs_tl_event_t *ev;
    size_t n, cap;
    zs_tl_lane_t lanes[ZS_TL_LANES_MAX];
    int nlanes;
    double t0, t1;
    int width;        //  px; grown by the layout unless width_fixed
    bool width_fixed; //  --width
} zs_tl_t;

//  The picture of tl (its lanes assigned) as SVG into out. 0, or -1 when
//  out could not be written (or out of memory).
int zs_tl_draw (FILE *out, zs_tl_t *tl, const char *title);

#endif
