/*  timeline.c - `zsink timeline JOB_DIR [-o FILE.svg]`: the job's event
    logs (events.h) drawn as one lane per process on a time axis, as SVG.

    Lanes: the coordinator, the committer, the writers by index; a process
    started again (another pid) gets a lane of its own, so a kill -9 and
    its restart show as two lanes. On the coordinator's lane each
    checkpoint is a bar from its trigger to its completion (green) or
    abort (red); a restore is a dashed line across all lanes; a failure a
    red cross on the lane of the process that reported it; barriers are
    dots on the writers' lanes, acks squares and commits diamonds (COMPACT
    ones purple) on the committer's. A writer's reset to a checkpoint is a
    short dashed line on its lane, and the offsets its splits seek to
    there (its "seek" events: a Kafka partition, a file, a datagen range)
    a triangle beside it, one for the reset, every split and offset in its
    title. Every mark has a <title> a browser shows on hover. Elements
    carry classes (lane, checkpoint, barrier, ack, commit, compact,
    failure, restore, reset, seek) so that a test can count them.
*/
#include "timeline.h"
#include "config.h"
#include "zs.h"
#include <dirent.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_LANES_MAX 256
#define S_LANE_H 46
#define S_LEFT 190
#define S_TOP 70

typedef struct {
    double t;
    json_t *ev; //  owned
    int lane;
} s_event_t;

typedef struct {
    char name[64];
    int pid;
    double first;
} s_lane_t;

typedef struct {
    s_event_t *ev;
    size_t n, cap;
    s_lane_t lanes[S_LANES_MAX];
    int nlanes;
    double t0, t1;
    int width;
} s_tl_t;

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink timeline JOB_DIR [-o FILE.svg] [--last DURATION] [--width PX]\n"
                  "  JOB_DIR    a job's checkpoint directory, <state.checkpoints.dir>/<job id>,\n"
                  "             where every process writes events-<name>.jsonl\n"
                  "  -o FILE    the SVG to write (default timeline.svg)\n"
                  "  --last D   only the last D of the job (e.g. 10s)\n"
                  "  --width PX the picture's width (default 1400)\n");
}

//  Read one events file (and its rotated .1 first) into tl.
static void
s_read_file (s_tl_t *tl, const char *path)
{
    FILE *f = fopen (path, "r");
    if (!f)
        return;
    char line[2048];
    while (fgets (line, sizeof line, f)) {
        json_t *ev = json_loads (line, 0, NULL);
        json_t *t = json_object_get (ev, "t");
        if (!json_is_number (t) || !json_is_string (json_object_get (ev, "e"))) {
            json_decref (ev); //  a line cut by a crash
            continue;
        }
        if (tl->n == tl->cap) {
            size_t cap = tl->cap ? 2 * tl->cap : 1024;
            s_event_t *grown = realloc (tl->ev, cap * sizeof *grown);
            if (!grown) {
                json_decref (ev);
                break;
            }
            tl->ev = grown;
            tl->cap = cap;
        }
        tl->ev[tl->n++] = (s_event_t){.t = json_number_value (t), .ev = ev, .lane = -1};
    }
    fclose (f);
}

static int
s_read_dir (s_tl_t *tl, const char *dir)
{
    DIR *d = opendir (dir);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir (d))) {
        if (strncmp (de->d_name, "events-", 7) != 0 || !strstr (de->d_name, ".jsonl"))
            continue;
        char path[2 * ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/%s", dir, de->d_name);
        s_read_file (tl, path);
    }
    closedir (d);
    return 0;
}

static int
s_by_time (const void *a, const void *b)
{
    double x = ((const s_event_t *) a)->t, y = ((const s_event_t *) b)->t;
    return x < y ? -1 : x > y;
}

//  Sort key of a lane: coordinator, committer, writers by index, then the
//  order the processes started in.
static int
s_lane_rank (const s_lane_t *l)
{
    if (strcmp (l->name, "coordinator") == 0)
        return 0;
    if (strcmp (l->name, "committer") == 0)
        return 1;
    if (strncmp (l->name, "writer-", 7) == 0)
        return 2 + atoi (l->name + 7);
    return 1000;
}

static int
s_by_lane (const void *a, const void *b)
{
    const s_lane_t *x = a, *y = b;
    int rx = s_lane_rank (x), ry = s_lane_rank (y);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

//  Give every event its lane (name, pid).
static void
s_assign_lanes (s_tl_t *tl)
{
    for (size_t i = 0; i < tl->n; i++) {
        const char *p = json_string_value (json_object_get (tl->ev[i].ev, "p"));
        int pid = (int) json_integer_value (json_object_get (tl->ev[i].ev, "pid"));
        int k = 0;
        while (k < tl->nlanes
               && !(tl->lanes[k].pid == pid && strcmp (tl->lanes[k].name, p ? p : "?") == 0))
            k++;
        if (k == tl->nlanes && tl->nlanes < S_LANES_MAX) {
            snprintf (tl->lanes[k].name, sizeof tl->lanes[k].name, "%s", p ? p : "?");
            tl->lanes[k].pid = pid;
            tl->lanes[k].first = tl->ev[i].t;
            tl->nlanes++;
        }
    }
    qsort (tl->lanes, (size_t) tl->nlanes, sizeof *tl->lanes, s_by_lane);
    for (size_t i = 0; i < tl->n; i++) {
        const char *p = json_string_value (json_object_get (tl->ev[i].ev, "p"));
        int pid = (int) json_integer_value (json_object_get (tl->ev[i].ev, "pid"));
        for (int k = 0; k < tl->nlanes; k++)
            if (tl->lanes[k].pid == pid && strcmp (tl->lanes[k].name, p ? p : "?") == 0)
                tl->ev[i].lane = k;
    }
}

static double
s_x (const s_tl_t *tl, double t)
{
    double span = tl->t1 > tl->t0 ? tl->t1 - tl->t0 : 1;
    return S_LEFT + (t - tl->t0) / span * (tl->width - S_LEFT - 30);
}

static double
s_y (int lane)
{
    return S_TOP + lane * S_LANE_H;
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

//  The time axis: ticks at a round step, labelled in seconds from t0.
static void
s_axis (FILE *out, const s_tl_t *tl, double bottom)
{
    double span = tl->t1 - tl->t0 > 1 ? tl->t1 - tl->t0 : 1;
    double raw = span / 10, step = pow (10, floor (log10 (raw)));
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

static void
s_lanes (FILE *out, const s_tl_t *tl)
{
    for (int k = 0; k < tl->nlanes; k++) {
        double y = s_y (k);
        fprintf (out,
                 "<g class=\"lane\" data-name=\"%s\" data-pid=\"%d\">"
                 "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
                 "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999\"/>"
                 "<text x=\"10\" y=\"%.1f\" font-size=\"13\" font-family=\"monospace\">%s "
                 "<tspan fill=\"#777\">(pid %d)</tspan></text></g>\n",
                 tl->lanes[k].name, tl->lanes[k].pid, y, tl->width, S_LANE_H,
                 k % 2 ? "#f7f7f7" : "#ffffff", S_LEFT, y + S_LANE_H / 2.0, tl->width - 30,
                 y + S_LANE_H / 2.0, y + S_LANE_H / 2.0 + 4, tl->lanes[k].name, tl->lanes[k].pid);
    }
}

//  A checkpoint's bar, from its trigger to its end (complete or abort).
static void
s_checkpoint (FILE *out, const s_tl_t *tl, size_t i)
{
    json_t *ev = tl->ev[i].ev;
    int64_t id = s_int (ev, "id");
    for (size_t j = i + 1; j < tl->n; j++) {
        json_t *e2 = tl->ev[j].ev;
        const char *what = s_str (e2, "e");
        bool end = (strcmp (what, "complete") == 0 || strcmp (what, "abort") == 0)
                   && s_int (e2, "id") == id && tl->ev[j].lane == tl->ev[i].lane;
        if (!end)
            continue;
        bool ok = strcmp (what, "complete") == 0;
        double x0 = s_x (tl, tl->ev[i].t), x1 = s_x (tl, tl->ev[j].t);
        double y = s_y (tl->ev[i].lane) + 8;
        fprintf (out,
                 "<rect class=\"checkpoint %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" "
                 "fill=\"%s\"><title>checkpoint %lld %s: %.0f ms",
                 ok ? "completed" : "aborted", x0, y, x1 - x0 > 2 ? x1 - x0 : 2,
                 ok ? "#3a3" : "#d33", (long long) id, ok ? "completed" : "aborted",
                 tl->ev[j].t - tl->ev[i].t);
        if (!ok) {
            fputs (" (", out);
            s_text (out, s_str (e2, "why"));
            fputs (")", out);
        }
        fprintf (out, "</title></rect>\n");
        return;
    }
}

//  The seeks of one reset: the writer logs one event per split, in a row
//  on its lane with the reset's checkpoint id; the first draws them all.
static void
s_seeks (FILE *out, const s_tl_t *tl, size_t i, double x, double y)
{
    int lane = tl->ev[i].lane;
    int64_t id = s_int (tl->ev[i].ev, "id");
    for (size_t j = i; j-- > 0;)
        if (tl->ev[j].lane == lane) {
            if (strcmp (s_str (tl->ev[j].ev, "e"), "seek") == 0 && s_int (tl->ev[j].ev, "id") == id)
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
        if (strcmp (s_str (ev, "e"), "seek") != 0 || s_int (ev, "id") != id)
            break;
        fputs ("\nsplit ", out);
        s_text (out, s_str (ev, "split"));
        fprintf (out, " at offset %lld", (long long) s_int (ev, "offset"));
    }
    fprintf (out, "</title></g>\n");
}

//  Every other mark.
static void
s_mark (FILE *out, const s_tl_t *tl, size_t i, double bottom, double *last_label)
{
    json_t *ev = tl->ev[i].ev;
    const char *e = s_str (ev, "e");
    int lane = tl->ev[i].lane;
    double x = s_x (tl, tl->ev[i].t), y = s_y (lane) + S_LANE_H / 2.0;
    if (strcmp (e, "trigger") == 0)
        s_checkpoint (out, tl, i);
    else if (strcmp (e, "barrier") == 0)
        fprintf (out,
                 "<circle class=\"barrier\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#36c\">"
                 "<title>barrier %lld: %lld files, %lld rows</title></circle>\n",
                 x, y, (long long) s_int (ev, "id"), (long long) s_int (ev, "files"),
                 (long long) s_int (ev, "rows"));
    else if (strcmp (e, "ack") == 0)
        fprintf (out,
                 "<rect class=\"ack\" x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" fill=\"#888\">"
                 "<title>acked checkpoint %lld</title></rect>\n",
                 x - 3, y - 14, (long long) s_int (ev, "id"));
    else if (strcmp (e, "prepare") == 0)
        fprintf (out,
                 "<rect class=\"prepare\" x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\" "
                 "fill=\"#fc6\"><title>manifests of checkpoint %lld written ahead (%lld "
                 "files)</title></rect>\n",
                 x - 3, y - 7, (long long) s_int (ev, "id"), (long long) s_int (ev, "files"));
    else if (strcmp (e, "commit") == 0 || strcmp (e, "compact") == 0) {
        bool compact = strcmp (e, "compact") == 0;
        fprintf (out,
                 "<path class=\"%s\" d=\"M %.1f %.1f l 6 6 l -6 6 l -6 -6 z\" fill=\"%s\">"
                 "<title>",
                 compact ? "compact" : "commit", x, y - 2, compact ? "#93c" : "#e80");
        if (compact)
            fprintf (out, "COMPACT snapshot %lld", (long long) s_int (ev, "snapshot"));
        else
            fprintf (out, "snapshot %lld: identifier %lld, %lld rows",
                     (long long) s_int (ev, "snapshot"), (long long) s_int (ev, "id"),
                     (long long) s_int (ev, "rows"));
        fprintf (out, "</title></path>\n");
        if (!compact && x - last_label[lane] > 46) {
            fprintf (out,
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" "
                     "fill=\"#a50\">s%lld</text>\n",
                     x, y + 20, (long long) s_int (ev, "snapshot"));
            last_label[lane] = x;
        }
    } else if (strcmp (e, "seek") == 0)
        s_seeks (out, tl, i, x, y);
    else if (strcmp (e, "failure") == 0)
        fprintf (out,
                 "<g class=\"failure\"><path d=\"M %.1f %.1f l 12 12 m 0 -12 l -12 12\" "
                 "stroke=\"#d00\" stroke-width=\"3\"/><title>failure: ",
                 x - 6, y - 6);
    else if (strcmp (e, "restore") == 0 || strcmp (e, "reset") == 0) {
        bool restore = strcmp (e, "restore") == 0;
        fprintf (out,
                 "<g class=\"%s\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"#c60\" stroke-dasharray=\"%s\"/><title>%s from checkpoint %lld "
                 "(attempt %lld)</title></g>\n",
                 restore ? "restore" : "reset", x, restore ? (double) S_TOP : s_y (lane) + 4, x,
                 restore ? bottom : s_y (lane) + S_LANE_H - 4, restore ? "6 4" : "2 2",
                 restore ? "restore" : "reset", (long long) s_int (ev, "id"),
                 (long long) s_int (ev, "epoch"));
    } else if (strcmp (e, "state") == 0 && x - last_label[S_LANES_MAX + lane] > 70) {
        last_label[S_LANES_MAX + lane] = x; //  state labels: their own spacing
        bool right = x > tl->width - 100;   //  near the edge: ends at the mark
        fprintf (out,
                 "<text class=\"state\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#666\""
                 " text-anchor=\"%s\">",
                 right ? x - 2 : x + 2, s_y (lane) + S_LANE_H - 3, right ? "end" : "start");
        s_text (out, s_str (ev, "state"));
        fprintf (out, "</text>\n");
    }
    if (strcmp (e, "failure") == 0) {
        s_text (out, s_str (ev, "why"));
        fprintf (out, "</title></g>\n");
    }
}

static void
s_render (FILE *out, const s_tl_t *tl, const char *title)
{
    double bottom = s_y (tl->nlanes) + 4;
    int height = (int) bottom + 60;
    fprintf (out,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
             "<text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">",
             tl->width, height, tl->width, height);
    s_text (out, title);
    fprintf (out, "</text>\n"
                  "<text x=\"10\" y=\"42\" font-size=\"11\" fill=\"#555\">checkpoint bars: green "
                  "completed, red aborted · dots: barriers · squares: acks · diamonds: commits "
                  "(orange), COMPACT (purple) · red cross: failure · dashed: restore · triangles: "
                  "the offsets a writer's splits seek to</text>\n");
    s_axis (out, tl, bottom);
    s_lanes (out, tl);
    double last_label[2 * S_LANES_MAX]; //  per lane: commit labels, then state labels
    for (int k = 0; k < 2 * S_LANES_MAX; k++)
        last_label[k] = -1e9;
    for (size_t i = 0; i < tl->n; i++)
        if (tl->ev[i].lane >= 0 && tl->ev[i].t >= tl->t0)
            s_mark (out, tl, i, bottom, last_label);
    fprintf (out, "</svg>\n");
}

int
zs_timeline_cmd (int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"last", required_argument, 0, 'l'},
                                         {"width", required_argument, 0, 'w'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *output = "timeline.svg";
    int64_t last_ms = 0;
    s_tl_t tl = {.width = 1400};
    int c;
    optind = 1;
    while ((c = getopt_long (argc, argv, "o:h", opts, NULL)) != -1) {
        if (c == 'o')
            output = optarg;
        else if (c == 'l' && zs_parse_duration_ms (optarg, &last_ms) != 0) {
            fprintf (stderr, "zsink timeline: --last: '%s' is not a duration\n", optarg);
            return 2;
        } else if (c == 'w' && (tl.width = atoi (optarg)) < 400) {
            fprintf (stderr, "zsink timeline: --width: at least 400\n");
            return 2;
        } else if (c == 'h') {
            s_usage (stdout);
            return 0;
        } else if (c == '?') {
            s_usage (stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        s_usage (stderr);
        return 2;
    }
    const char *dir = argv[optind];
    if (s_read_dir (&tl, dir) != 0 || tl.n == 0) {
        fprintf (stderr, "zsink timeline: no events-*.jsonl in %s\n", dir);
        return 1;
    }
    qsort (tl.ev, tl.n, sizeof *tl.ev, s_by_time);
    tl.t1 = tl.ev[tl.n - 1].t;
    tl.t0 =
        last_ms && tl.t1 - (double) last_ms > tl.ev[0].t ? tl.t1 - (double) last_ms : tl.ev[0].t;
    s_assign_lanes (&tl);
    FILE *out = fopen (output, "w");
    if (!out) {
        fprintf (stderr, "zsink timeline: cannot write %s: %m\n", output);
        return 1;
    }
    char title[ZS_PATH_MAX + 64], job[ZS_PATH_MAX];
    snprintf (job, sizeof job, "%s", dir);
    while (strlen (job) > 1 && job[strlen (job) - 1] == '/')
        job[strlen (job) - 1] = 0;
    const char *slash = strrchr (job, '/');
    snprintf (title, sizeof title, "zsink job %s: %d processes, %zu events, %.1f s",
              slash ? slash + 1 : job, tl.nlanes, tl.n, (tl.t1 - tl.t0) / 1000);
    s_render (out, &tl, title);
    int rc = fclose (out) == 0 ? 0 : 1;
    printf ("%s: %d lanes, %zu events\n", output, tl.nlanes, tl.n);
    for (size_t i = 0; i < tl.n; i++)
        json_decref (tl.ev[i].ev);
    free (tl.ev);
    return rc;
}
