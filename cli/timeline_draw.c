/*  timeline_draw.c - the picture of `zsink timeline` (see timeline_draw.h),
    drawn so that a person reads it without hovering.

    On the coordinator's lane (the job's) each checkpoint is a bar from its
    trigger to its completion (green), abort (red) or the coordinator's end
    (grey), its id written on it (inside when it fits, else just above);
    the job's states (RESTORING, RUNNING, RESTARTING, FINISHED, CANCELED,
    FAILED …) a coloured band along the lane, each named where it begins.
    A restore is a dashed line across all lanes; a failure a red cross on
    the lane of the process that reported it; barriers are dots on the
    writers' lanes, acks squares and commits diamonds (COMPACT ones purple)
    on the committer's, each labelled with its snapshot (s4). A writer's
    reset is a short dashed line, the offsets its splits seek to a triangle
    beside it. A process's lane line ends where it ended: a death by a
    signal is a dark red bar there named by the signal (SIGKILL), an exit
    status other than 0 likewise (exit 137); its successor's line starts
    where it was started (a dotted line joins the two).

    Invariants:
    1. No label is dropped and none overlaps another: the labels of a lane
       are laid out in rows (s_layout: each in the first row where it
       clears the one before it), and the lane is as tall as its rows. When
       a lane would need more than S_ROWS_WANTED rows the picture is made
       wider (unless --width fixed it), up to S_WIDTH_MAX, as long as that
       takes rows away (labels of one moment take rows at any width).
    2. Every element carries a class (lane, lane-line, checkpoint,
       checkpoint-id, barrier, ack, prepare, commit, compact, snapshot,
       failure, restore, reset, seek, state-band, state, death, exit, spawn,
       respawn; every text label also "label") and a <title> a browser shows
       on hover, so that a test counts and measures what is drawn.
*/
#include "timeline_draw.h"
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define S_LEFT 210
#define S_RIGHT 30
#define S_TOP 84
#define S_LANE_H 46
#define S_ROW 12        //  px a label row
#define S_GAP 5         //  px at least between two labels of a row
#define S_ROWS_WANTED 3 //  more rows than this: a wider picture
#define S_WIDTH_MAX 16000
#define S_FONT 10

typedef struct {
    int lane;
    bool above; //  the checkpoint ids' rows, over the bars
    double x, w;
    int row;
    char text[48];
    const char *cls, *fill;
    char data[64]; //  data-… attributes
} s_label_t;

typedef struct {
    s_label_t *v;
    size_t n, cap;
} s_labels_t;

static double
s_x (const zs_tl_t *tl, double t)
{
    double span = tl->t1 > tl->t0 ? tl->t1 - tl->t0 : 1;
    return S_LEFT + (t - tl->t0) / span * (tl->width - S_LEFT - S_RIGHT);
}

static int64_t
s_int (json_t *ev, const char *key)
{
    return (int64_t) json_integer_value (json_object_get (ev, key));
}

static const char *
s_str (json_t *ev, const char *key)
{
    const char *v = json_string_value (json_object_get (ev, key));
    return v ? v : "";
}

static bool
s_is (const zs_tl_t *tl, size_t i, const char *event)
{
    return strcmp (s_str (tl->ev[i].ev, "e"), event) == 0;
}

//  Text for SVG (escapes &, <, >, ").
static void
s_text (FILE *out, const char *text)
{
    for (const char *c = text; *c; c++)
        switch (*c) {
        case '&':
            fputs ("&amp;", out);
            break;
        case '<':
            fputs ("&lt;", out);
            break;
        case '>':
            fputs ("&gt;", out);
            break;
        case '"':
            fputs ("&quot;", out);
            break;
        default:
            fputc (*c, out);
        }
}

//  A label's width at S_FONT px sans-serif, bold, on the generous side:
//  the layout must not make two labels touch that a browser draws wider.
static double
s_text_w (const char *text)
{
    double w = 2;
    for (const char *c = text; *c; c++)
        w += isupper ((unsigned char) *c) ? 7.8 : isdigit ((unsigned char) *c) ? 7.0 : 6.6;
    return w;
}

//  The checkpoint triggered at event i: the index of its complete or
//  abort on the same lane, or -1 (its coordinator ended first).
static ssize_t
s_checkpoint_end (const zs_tl_t *tl, size_t i)
{
    int64_t id = s_int (tl->ev[i].ev, "id");
    for (size_t j = i + 1; j < tl->n; j++)
        if ((s_is (tl, j, "complete") || s_is (tl, j, "abort")) && s_int (tl->ev[j].ev, "id") == id
            && tl->ev[j].lane == tl->ev[i].lane)
            return (ssize_t) j;
    return -1;
}

//  Event i is in the picture: in its time (--last), or the job's state
//  when that began (drawn from its start).
static bool
s_shown (const zs_tl_t *tl, size_t i)
{
    if (tl->ev[i].lane < 0)
        return false;
    if (tl->ev[i].t >= tl->t0)
        return true;
    if (!s_is (tl, i, "state"))
        return false;
    for (size_t j = i + 1; j < tl->n && tl->ev[j].t < tl->t0; j++)
        if (tl->ev[j].lane == tl->ev[i].lane && s_is (tl, j, "state"))
            return false;
    return true;
}

//  The bar of the checkpoint triggered at i: its ends in px.
static void
s_bar (const zs_tl_t *tl, size_t i, double *x0, double *x1)
{
    ssize_t j = s_checkpoint_end (tl, i);
    const zs_tl_lane_t *l = &tl->lanes[tl->ev[i].lane];
    *x0 = s_x (tl, tl->ev[i].t);
    *x1 = s_x (tl, j >= 0 ? tl->ev[j].t : l->stop);
    if (*x1 - *x0 < 2)
        *x1 = *x0 + 2;
}

//  Where a checkpoint's id fits inside its bar.
static bool
s_id_inside (double x0, double x1, const char *text)
{
    return x1 - x0 >= s_text_w (text) + 4;
}

//  ---------------------------------------------------------------------
//  Labels and their layout

static s_label_t *
s_label_add (s_labels_t *ls, int lane, double x, const char *text, const char *cls,
             const char *fill)
{
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? 2 * ls->cap : 256;
        s_label_t *grown = realloc (ls->v, cap * sizeof *grown);
        if (!grown)
            return NULL;
        ls->v = grown;
        ls->cap = cap;
    }
    s_label_t *l = &ls->v[ls->n++];
    *l = (s_label_t){.lane = lane, .x = x, .cls = cls, .fill = fill};
    snprintf (l->text, sizeof l->text, "%s", text);
    l->w = s_text_w (l->text);
    return l;
}

//  A job state's colours: its band's, its label's.
static void
s_state_colours (const char *state, const char **band, const char **text)
{
    static const struct {
        const char *state, *band, *text;
    } colours[] = {{"RUNNING", "#9d9", "#272"},    {"RESTORING", "#fd7", "#860"},
                   {"RESTARTING", "#f96", "#c40"}, {"FINISHING", "#9cf", "#259"},
                   {"STOPPING", "#9cf", "#259"},   {"FINISHED", "#36c", "#236"},
                   {"CANCELED", "#999", "#444"},   {"FAILED", "#d33", "#a00"}};
    *band = "#ccc";
    *text = "#555";
    for (size_t k = 0; k < sizeof colours / sizeof *colours; k++)
        if (strcmp (colours[k].state, state) == 0) {
            *band = colours[k].band;
            *text = colours[k].text;
        }
}

//  The label of event i, if it has one.
static int
s_event_label (s_labels_t *ls, const zs_tl_t *tl, size_t i)
{
    json_t *ev = tl->ev[i].ev;
    int lane = tl->ev[i].lane;
    double x = s_x (tl, tl->ev[i].t > tl->t0 ? tl->ev[i].t : tl->t0);
    char text[48];
    s_label_t *l = NULL;
    if (s_is (tl, i, "trigger")) {
        double x0, x1;
        s_bar (tl, i, &x0, &x1);
        snprintf (text, sizeof text, "%lld", (long long) s_int (ev, "id"));
        if (s_id_inside (x0, x1, text))
            return 0; //  drawn on the bar, no room needed
        if ((l = s_label_add (ls, lane, (x0 + x1) / 2, text, "checkpoint-id", "#262")))
            l->above = true;
    } else if (s_is (tl, i, "commit") || s_is (tl, i, "compact")) {
        snprintf (text, sizeof text, "s%lld", (long long) s_int (ev, "snapshot"));
        bool compact = s_is (tl, i, "compact");
        l = s_label_add (ls, lane, x, text, "snapshot", compact ? "#73a" : "#a50");
        if (l)
            snprintf (l->data, sizeof l->data, "data-snapshot=\"%lld\"",
                      (long long) s_int (ev, "snapshot"));
    } else if (s_is (tl, i, "state")) {
        const char *band, *fill;
        s_state_colours (s_str (ev, "state"), &band, &fill);
        l = s_label_add (ls, lane, x, s_str (ev, "state"), "state", fill);
        if (l) {
            l->x += l->w / 2; //  begins where the state does
            snprintf (l->data, sizeof l->data, "data-state=\"%s\"", l->text);
        }
    } else if (s_is (tl, i, "exit") && tl->lanes[lane].death[0]) {
        l = s_label_add (ls, lane, x, tl->lanes[lane].death, "death", "#900");
        if (l)
            l->x += l->w / 2 + 3; //  after the lane's end
    } else
        return 0;
    if (!l)
        return -1;
    if (l->above)
        snprintf (l->data, sizeof l->data, "data-checkpoint=\"%s\"", l->text);
    return 0;
}

static int
s_by_place (const void *a, const void *b)
{
    const s_label_t *x = a, *y = b;
    if (x->lane != y->lane)
        return x->lane < y->lane ? -1 : 1;
    if (x->above != y->above)
        return x->above ? -1 : 1;
    double xl = x->x - x->w / 2, yl = y->x - y->w / 2; //  by their left ends
    return xl < yl ? -1 : xl > yl;
}

//  The lanes one under the other, each as tall as its label rows: a lane
//  has room for one row below its line, each more row (and each above
//  its bars) makes it taller.
static void
s_geometry (zs_tl_t *tl)
{
    double y = S_TOP;
    for (int k = 0; k < tl->nlanes; k++) {
        zs_tl_lane_t *l = &tl->lanes[k];
        int below = l->rows_below > 1 ? l->rows_below - 1 : 0;
        l->top = y;
        l->mid = y + S_LANE_H / 2.0 + l->rows_above * S_ROW;
        l->height = S_LANE_H + (l->rows_above + below) * S_ROW;
        y += l->height;
    }
}

//  Every label, in rows (invariant 1); the lanes' geometry from their
//  rows. The most rows a lane's group needs, or -1 (out of memory).
static int
s_layout (s_labels_t *ls, zs_tl_t *tl)
{
    ls->n = 0;
    for (size_t i = 0; i < tl->n; i++)
        if (s_shown (tl, i) && s_event_label (ls, tl, i) != 0)
            return -1;
    double right = tl->width - 4;
    for (size_t k = 0; k < ls->n; k++) { //  kept inside the picture
        s_label_t *l = &ls->v[k];
        l->x = l->x + l->w / 2 > right ? right - l->w / 2 : l->x;
        l->x = l->x - l->w / 2 < S_LEFT - 8 ? S_LEFT - 8 + l->w / 2 : l->x;
    }
    qsort (ls->v, ls->n, sizeof *ls->v, s_by_place);
    double *ends = malloc ((ls->n + 1) * sizeof *ends);
    if (!ends)
        return -1;
    int most = 0;
    for (int k = 0; k < tl->nlanes; k++)
        tl->lanes[k].rows_above = tl->lanes[k].rows_below = 0;
    for (size_t a = 0, b; a < ls->n; a = b) {
        int rows = 0; //  one group: a lane's labels above, or below
        for (b = a; b < ls->n && ls->v[b].lane == ls->v[a].lane && ls->v[b].above == ls->v[a].above;
             b++) {
            s_label_t *l = &ls->v[b];
            int r = 0;
            while (r < rows && ends[r] + S_GAP > l->x - l->w / 2)
                r++;
            rows += r == rows;
            ends[r] = l->x + l->w / 2;
            l->row = r;
        }
        zs_tl_lane_t *lane = &tl->lanes[ls->v[a].lane];
        *(ls->v[a].above ? &lane->rows_above : &lane->rows_below) = rows;
        most = rows > most ? rows : most;
    }
    free (ends);
    s_geometry (tl);
    return most;
}

//  ---------------------------------------------------------------------
//  Drawing

//  The time axis: ticks at a round step, labelled in seconds from t0.
static void
s_axis (FILE *out, const zs_tl_t *tl, double bottom)
{
    double span = tl->t1 - tl->t0 > 1 ? tl->t1 - tl->t0 : 1;
    int ticks = (tl->width - S_LEFT) / 120;
    double raw = span / (ticks > 2 ? ticks : 2), step = pow (10, floor (log10 (raw)));
    step *= raw / step >= 5 ? 5 : raw / step >= 2 ? 2 : 1;
    fprintf (out, "<g class=\"axis\">\n");
    for (double t = 0; t <= span + 1e-9; t += step) {
        double x = s_x (tl, tl->t0 + t);
        fprintf (out,
                 "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                 "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" "
                 "fill=\"#555\">+%.*f s</text>\n",
                 x, S_TOP - 12, x, bottom, x, S_TOP - 16, step < 1000 ? 2 : 0, t / 1000);
    }
    fprintf (out, "</g>\n");
}

//  Each lane: its background, its name, its line from its start to its
//  stop (clipped to the picture's time).
static void
s_lanes (FILE *out, const zs_tl_t *tl)
{
    for (int k = 0; k < tl->nlanes; k++) {
        const zs_tl_lane_t *l = &tl->lanes[k];
        double x0 = s_x (tl, l->first > tl->t0 ? l->first : tl->t0);
        double x1 = s_x (tl, l->stop > tl->t0 ? l->stop : tl->t0);
        fprintf (out,
                 "<g class=\"lane\" data-name=\"%s\" data-pid=\"%d\">"
                 "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>"
                 "<line class=\"lane-line\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#999\" stroke-width=\"2\"/>"
                 "<text x=\"10\" y=\"%.1f\" font-size=\"13\" font-family=\"monospace\">%s "
                 "<tspan fill=\"#777\">(pid %d)</tspan></text></g>\n",
                 l->name, l->pid, l->top, tl->width, l->height, k % 2 ? "#f7f7f7" : "#ffffff", x0,
                 l->mid, x1, l->mid, l->mid + 4, l->name, l->pid);
    }
}

//  The job's states: a band from each to the next on the lane (or to the
//  lane's stop).
static void
s_state_band (FILE *out, const zs_tl_t *tl, size_t i)
{
    const zs_tl_lane_t *l = &tl->lanes[tl->ev[i].lane];
    double t1 = l->stop;
    for (size_t j = i + 1; j < tl->n; j++)
        if (tl->ev[j].lane == tl->ev[i].lane && s_is (tl, j, "state")) {
            t1 = tl->ev[j].t;
            break;
        }
    const char *state = s_str (tl->ev[i].ev, "state"), *band, *text;
    s_state_colours (state, &band, &text);
    double x0 = s_x (tl, tl->ev[i].t > tl->t0 ? tl->ev[i].t : tl->t0), x1 = s_x (tl, t1);
    fprintf (out,
             "<rect class=\"state-band\" data-state=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
             "height=\"6\" fill=\"%s\"><title>job %s",
             state, x0, l->mid - 3, x1 - x0 > 2 ? x1 - x0 : 2, band, state);
    if (*s_str (tl->ev[i].ev, "why")) {
        fputs (": ", out);
        s_text (out, s_str (tl->ev[i].ev, "why"));
    }
    fprintf (out, "</title></rect>\n");
}

//  A checkpoint's bar, its id on it when it fits (else it is a label).
static void
s_checkpoint (FILE *out, const zs_tl_t *tl, size_t i)
{
    json_t *ev = tl->ev[i].ev;
    ssize_t j = s_checkpoint_end (tl, i);
    const char *what = j >= 0 ? s_str (tl->ev[j].ev, "e") : "unfinished";
    bool ok = strcmp (what, "complete") == 0;
    double x0, x1, y = tl->lanes[tl->ev[i].lane].mid - 15;
    s_bar (tl, i, &x0, &x1);
    char id[32];
    snprintf (id, sizeof id, "%lld", (long long) s_int (ev, "id"));
    fprintf (out,
             "<g class=\"checkpoint %s\" data-checkpoint=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" "
             "width=\"%.1f\" height=\"12\" fill=\"%s\"/><title>checkpoint %s %s",
             ok       ? "completed"
             : j >= 0 ? "aborted"
                      : "unfinished",
             id, x0, y, x1 - x0,
             ok       ? "#3a3"
             : j >= 0 ? "#d33"
                      : "#aaa",
             id,
             ok       ? "completed"
             : j >= 0 ? "aborted"
                      : "not completed by this coordinator");
    if (j >= 0)
        fprintf (out, ": %.0f ms", tl->ev[j].t - tl->ev[i].t);
    if (j >= 0 && !ok) {
        fputs (" (", out);
        s_text (out, s_str (tl->ev[j].ev, "why"));
        fputs (")", out);
    }
    fprintf (out, "</title>");
    if (s_id_inside (x0, x1, id))
        fprintf (out,
                 "<text class=\"label checkpoint-id inside\" data-checkpoint=\"%s\" x=\"%.1f\" "
                 "y=\"%.1f\" font-size=\"%d\" font-weight=\"bold\" text-anchor=\"middle\" "
                 "fill=\"white\">%s</text>",
                 id, (x0 + x1) / 2, y + 10, S_FONT, id);
    fprintf (out, "</g>\n");
}

//  The seeks of one reset: the writer logs one event per split, in a row
//  on its lane with the reset's checkpoint id; the first draws them all.
static void
s_seeks (FILE *out, const zs_tl_t *tl, size_t i, double x, double y)
{
    int lane = tl->ev[i].lane;
    int64_t id = s_int (tl->ev[i].ev, "id");
    for (size_t j = i; j-- > 0;)
        if (tl->ev[j].lane == lane) {
            if (s_is (tl, j, "seek") && s_int (tl->ev[j].ev, "id") == id)
                return; //  drawn with the first of the row
            break;
        }
    fprintf (out,
             "<g class=\"seek\" data-checkpoint=\"%lld\"><path d=\"M %.1f %.1f l 9 -6 l 0 12 z\" "
             "fill=\"#c60\"/><title>restored to checkpoint %lld:",
             (long long) id, x + 2, y - 10, (long long) id);
    for (size_t j = i; j < tl->n; j++) {
        json_t *ev = tl->ev[j].ev;
        if (tl->ev[j].lane != lane)
            continue;
        if (!s_is (tl, j, "seek") || s_int (ev, "id") != id)
            break;
        fputs ("\nsplit ", out);
        s_text (out, s_str (ev, "split"));
        fprintf (out, " at offset %lld", (long long) s_int (ev, "offset"));
    }
    fprintf (out, "</title></g>\n");
}

//  A process's end as zsink cluster saw it: a death (signal, exit status
//  not 0) is a dark red bar, an exit 0 a grey tick.
static void
s_exit (FILE *out, const zs_tl_t *tl, size_t i, double x)
{
    const zs_tl_lane_t *l = &tl->lanes[tl->ev[i].lane];
    json_t *ev = tl->ev[i].ev;
    bool dead = l->death[0] != 0;
    fprintf (
        out,
        "<g class=\"%s\" data-name=\"%s\" data-pid=\"%d\" data-signal=\"%s\" data-x=\"%.1f\">"
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\"/><title>%s (pid %d) ",
        dead ? "death" : "exit", l->name, l->pid, s_str (ev, "sig"), x, x - (dead ? 2 : 1),
        l->mid - (dead ? 11 : 6), dead ? 4 : 2, dead ? 22 : 12, dead ? "#900" : "#777", l->name,
        l->pid);
    if (json_object_get (ev, "signal"))
        fprintf (out, "exited on signal %lld (%s)", (long long) s_int (ev, "signal"),
                 s_str (ev, "sig"));
    else
        fprintf (out, "exited with status %lld", (long long) s_int (ev, "status"));
    fprintf (out, "</title></g>\n");
}

//  A process zsink cluster started again: a hollow triangle at its start,
//  a dotted line from the end of the one it replaces.
static void
s_spawn (FILE *out, const zs_tl_t *tl, size_t i, double x)
{
    int k = tl->ev[i].lane;
    const zs_tl_lane_t *l = &tl->lanes[k];
    fprintf (out,
             "<g class=\"spawn\" data-name=\"%s\" data-pid=\"%d\" data-x=\"%.1f\"><path d=\"M "
             "%.1f %.1f l 9 6 l -9 6 z\" fill=\"white\" stroke=\"#555\"/><title>%s (pid %d) "
             "started by zsink cluster</title></g>\n",
             l->name, l->pid, x, x, l->mid - 6, l->name, l->pid);
    for (int j = k - 1; j >= 0; j--) //  the one it replaces: the lane above
        if (strcmp (tl->lanes[j].name, l->name) == 0) {
            if (tl->lanes[j].end >= tl->t0)
                fprintf (out,
                         "<line class=\"respawn\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"1 3\"/>\n",
                         s_x (tl, tl->lanes[j].end), tl->lanes[j].mid, x, l->mid - 6);
            break;
        }
}

//  Barriers, acks, prepares, commits.
static void
s_small_mark (FILE *out, const zs_tl_t *tl, size_t i, double x, double y)
{
    json_t *ev = tl->ev[i].ev;
    if (s_is (tl, i, "barrier"))
        fprintf (out,
                 "<circle class=\"barrier\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#36c\">"
                 "<title>barrier %lld: %lld files, %lld rows</title></circle>\n",
                 x, y, (long long) s_int (ev, "id"), (long long) s_int (ev, "files"),
                 (long long) s_int (ev, "rows"));
    else if (s_is (tl, i, "ack"))
        fprintf (out,
                 "<rect class=\"ack\" x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"#888\">"
                 "<title>acked checkpoint %lld</title></rect>\n",
                 x - 3, y - 14, (long long) s_int (ev, "id"));
    else if (s_is (tl, i, "prepare"))
        fprintf (out,
                 "<rect class=\"prepare\" x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" "
                 "fill=\"#fc6\"><title>manifests of checkpoint %lld written ahead (%lld "
                 "files)</title></rect>\n",
                 x - 3, y - 7, (long long) s_int (ev, "id"), (long long) s_int (ev, "files"));
    else if (s_is (tl, i, "commit"))
        fprintf (out,
                 "<path class=\"commit\" d=\"M %.1f %.1f l 6 6 l -6 6 l -6 -6 z\" fill=\"#e80\">"
                 "<title>snapshot %lld: identifier %lld, %lld rows</title></path>\n",
                 x, y - 2, (long long) s_int (ev, "snapshot"), (long long) s_int (ev, "id"),
                 (long long) s_int (ev, "rows"));
    else if (s_is (tl, i, "compact"))
        fprintf (out,
                 "<path class=\"compact\" d=\"M %.1f %.1f l 6 6 l -6 6 l -6 -6 z\" fill=\"#93c\">"
                 "<title>COMPACT snapshot %lld</title></path>\n",
                 x, y - 2, (long long) s_int (ev, "snapshot"));
}

//  The mark of event i.
static void
s_mark (FILE *out, const zs_tl_t *tl, size_t i, double bottom)
{
    json_t *ev = tl->ev[i].ev;
    const zs_tl_lane_t *l = &tl->lanes[tl->ev[i].lane];
    double x = s_x (tl, tl->ev[i].t), y = l->mid;
    if (s_is (tl, i, "trigger"))
        s_checkpoint (out, tl, i);
    else if (s_is (tl, i, "seek"))
        s_seeks (out, tl, i, x, y);
    else if (s_is (tl, i, "exit"))
        s_exit (out, tl, i, x);
    else if (s_is (tl, i, "spawn"))
        s_spawn (out, tl, i, x);
    else if (s_is (tl, i, "failure")) {
        fprintf (out,
                 "<g class=\"failure\"><path d=\"M %.1f %.1f l 12 12 m 0 -12 l -12 12\" "
                 "stroke=\"#d00\" stroke-width=\"3\"/><title>failure: ",
                 x - 6, y - 6);
        s_text (out, s_str (ev, "why"));
        fprintf (out, "</title></g>\n");
    } else if (s_is (tl, i, "restore") || s_is (tl, i, "reset")) {
        bool restore = s_is (tl, i, "restore");
        fprintf (out,
                 "<g class=\"%s\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#c60\" stroke-dasharray=\"%s\"/><title>%s from checkpoint %lld "
                 "(attempt %lld)</title></g>\n",
                 restore ? "restore" : "reset", x, restore ? (double) S_TOP : l->top + 4, x,
                 restore ? bottom : l->top + l->height - 4, restore ? "6 4" : "2 2",
                 restore ? "restore" : "reset", (long long) s_int (ev, "id"),
                 (long long) s_int (ev, "epoch"));
    } else
        s_small_mark (out, tl, i, x, y);
}

//  The labels laid out: above the bars (checkpoint ids) upwards from the
//  lane's bars, below the line downwards.
static void
s_labels (FILE *out, const zs_tl_t *tl, const s_labels_t *ls)
{
    for (size_t k = 0; k < ls->n; k++) {
        const s_label_t *l = &ls->v[k];
        double mid = tl->lanes[l->lane].mid;
        double y = l->above ? mid - 18 - l->row * S_ROW : mid + 20 + l->row * S_ROW;
        fprintf (out,
                 "<text class=\"label %s\" %s x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
                 "font-weight=\"bold\" text-anchor=\"middle\" fill=\"%s\">",
                 l->cls, l->data, l->x, y, S_FONT, l->fill);
        s_text (out, l->text);
        fprintf (out, "</text>\n");
    }
}

static void
s_head (FILE *out, const zs_tl_t *tl, double height, const char *title)
{
    fprintf (out,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
             "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
             "<text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">",
             tl->width, height, tl->width, height);
    s_text (out, title);
    fprintf (out, "</text>\n<text x=\"10\" y=\"42\" font-size=\"11\" fill=\"#555\">"
                  "checkpoints: bars with their ids, green completed, red aborted · job states: "
                  "the band on the coordinator's lane · dots: barriers · squares: acks · "
                  "diamonds: commits (orange), COMPACT (purple), with their snapshots</text>\n"
                  "<text x=\"10\" y=\"56\" font-size=\"11\" fill=\"#555\">red cross: "
                  "failure · dashed: restore · triangles: the offsets a writer's splits seek to "
                  "· dark red bar: a process's death, with its signal · hollow triangle: a "
                  "process started again</text>\n");
}

int
zs_tl_draw (FILE *out, zs_tl_t *tl, const char *title)
{
    s_labels_t ls = {0};
    int rows = s_layout (&ls, tl);
    while (rows > S_ROWS_WANTED && !tl->width_fixed && tl->width < S_WIDTH_MAX) {
        int width = tl->width; //  wider, while that takes rows away
        tl->width = width * 3 / 2 < S_WIDTH_MAX ? width * 3 / 2 : S_WIDTH_MAX;
        int fewer = s_layout (&ls, tl);
        if (fewer >= 0 && fewer < rows) {
            rows = fewer;
            continue;
        }
        tl->width = width; //  labels of one moment: no width parts them
        rows = s_layout (&ls, tl);
        break;
    }
    if (rows < 0) {
        free (ls.v);
        return -1;
    }
    const zs_tl_lane_t *last = tl->nlanes ? &tl->lanes[tl->nlanes - 1] : NULL;
    double bottom = last ? last->top + last->height : S_TOP;
    s_head (out, tl, bottom + 16, title);
    s_axis (out, tl, bottom);
    s_lanes (out, tl);
    for (size_t i = 0; i < tl->n; i++)
        if (s_shown (tl, i) && s_is (tl, i, "state"))
            s_state_band (out, tl, i);
    for (size_t i = 0; i < tl->n; i++)
        if (s_shown (tl, i) && !s_is (tl, i, "state"))
            s_mark (out, tl, i, bottom);
    s_labels (out, tl, &ls);
    fprintf (out, "</svg>\n");
    free (ls.v);
    return ferror (out) ? -1 : 0;
}
