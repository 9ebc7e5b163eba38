/*  timeline.c - `zsink timeline DIR [--job ID] [-o FILE.svg]`: a job's
    event logs (events.h) drawn as one lane per process on a time axis, as
    SVG (timeline_draw.c draws; this file reads).

    DIR is a job's directory, <state.checkpoints.dir>/<job id>, or the
    checkpoints directory itself: then the job is --job ID, or the one whose
    events were written last (the latest run).

    Lanes: the coordinator (the job's lane), the committer, the writers by
    index; a process started again (another pid) gets a lane of its own.
    A process's lane runs from its first event to its end: its exit as
    `zsink cluster` saw it (events-cluster.jsonl: "exit" with the role, its
    pid and the signal or exit status; "spawn" when it started one again),
    else its last event if a later process took its name, else the end of
    the picture. zsink cluster's own events are drawn on the lanes of the
    processes they are about, never as a lane of their own.
*/
#include "timeline.h"
#include "config.h"
#include "timeline_draw.h"
#include "zs.h"
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void
s_usage (FILE *out)
{
    fprintf (out,
             "usage: zsink timeline DIR [--job ID] [-o FILE.svg] [--last DURATION] [--width PX]\n"
             "  DIR        a job's directory, <state.checkpoints.dir>/<job id>, where every\n"
             "             process writes events-<name>.jsonl; or state.checkpoints.dir\n"
             "             itself: then the latest job in it (the last to write events)\n"
             "  --job ID   the job of that id in the checkpoints directory DIR\n"
             "  -o FILE    the SVG to write (default timeline.svg)\n"
             "  --last D   only the last D of the job (e.g. 10s)\n"
             "  --width PX the picture's width (default: 1400, wider when the labels need it)\n");
}

//  Read one events file into tl.
static void
s_read_file (zs_tl_t *tl, const char *path)
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
            zs_tl_event_t *grown = realloc (tl->ev, cap * sizeof *grown);
            if (!grown) {
                json_decref (ev);
                break;
            }
            tl->ev = grown;
            tl->cap = cap;
        }
        tl->ev[tl->n++] = (zs_tl_event_t){.t = json_number_value (t), .ev = ev, .lane = -1};
    }
    fclose (f);
}

static bool
s_is_events_file (const char *name)
{
    return strncmp (name, "events-", 7) == 0 && strstr (name, ".jsonl");
}

//  Every events file of a job's directory. -1 when it cannot be read.
static int
s_read_dir (zs_tl_t *tl, const char *dir)
{
    DIR *d = opendir (dir);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir (d))) {
        if (!s_is_events_file (de->d_name))
            continue;
        char path[2 * ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/%s", dir, de->d_name);
        s_read_file (tl, path);
    }
    closedir (d);
    return 0;
}

//  When dir's events were last written (seconds), or -1: not a job's
//  directory (no events file in it).
static double
s_events_mtime (const char *dir)
{
    DIR *d = opendir (dir);
    if (!d)
        return -1;
    double newest = -1;
    struct dirent *de;
    while ((de = readdir (d))) {
        char path[2 * ZS_PATH_MAX];
        struct stat st;
        snprintf (path, sizeof path, "%s/%s", dir, de->d_name);
        if (s_is_events_file (de->d_name) && stat (path, &st) == 0) {
            double t = (double) st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
            newest = t > newest ? t : newest;
        }
    }
    closedir (d);
    return newest;
}

//  The job's directory of DIR (see the top): into job. 0, or -1 (said).
static int
s_pick_job (const char *dir, const char *job_id, char *job, size_t len)
{
    if (job_id) {
        snprintf (job, len, "%s/%s", dir, job_id);
        if (s_events_mtime (job) >= 0)
            return 0;
        fprintf (stderr, "zsink timeline: no job %s in %s (no %s/events-*.jsonl)\n", job_id, dir,
                 job);
        return -1;
    }
    if (s_events_mtime (dir) >= 0) {
        snprintf (job, len, "%s", dir);
        return 0;
    }
    DIR *d = opendir (dir);
    if (!d) {
        fprintf (stderr, "zsink timeline: cannot read %s: %m\n", dir);
        return -1;
    }
    double newest = -1;
    struct dirent *de;
    while ((de = readdir (d))) {
        char sub[2 * ZS_PATH_MAX];
        snprintf (sub, sizeof sub, "%s/%s", dir, de->d_name);
        double t = de->d_name[0] == '.' ? -1 : s_events_mtime (sub);
        if (t > newest) {
            newest = t;
            snprintf (job, len, "%s", sub);
        }
    }
    closedir (d);
    if (newest >= 0)
        return 0;
    fprintf (stderr,
             "zsink timeline: no events-*.jsonl in %s nor in a job's directory inside it: "
             "DIR is a job's directory or state.checkpoints.dir\n",
             dir);
    return -1;
}

static int
s_by_time (const void *a, const void *b)
{
    double x = ((const zs_tl_event_t *) a)->t, y = ((const zs_tl_event_t *) b)->t;
    return x < y ? -1 : x > y;
}

//  Sort key of a lane: coordinator, committer, writers by index, then the
//  order the processes started in.
static int
s_lane_rank (const zs_tl_lane_t *l)
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
    const zs_tl_lane_t *x = a, *y = b;
    int rx = s_lane_rank (x), ry = s_lane_rank (y);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

//  The process an event is about: its writer's, or for zsink cluster's
//  events the child's they name (pid -1: its latest, as for the job's end
//  when the cluster ended it).
static void
s_event_process (json_t *ev, const char **name, int *pid)
{
    const char *p = json_string_value (json_object_get (ev, "p"));
    if (p && strcmp (p, "cluster") == 0) {
        p = json_string_value (json_object_get (ev, "role"));
        json_t *role_pid = json_object_get (ev, "role_pid");
        *pid = role_pid ? (int) json_integer_value (role_pid) : -1;
    } else
        *pid = (int) json_integer_value (json_object_get (ev, "pid"));
    *name = p ? p : "?";
}

//  The lane of (name, pid); for pid -1 the one of that name started last
//  by t. -1 if none.
static int
s_find_lane (const zs_tl_t *tl, const char *name, int pid, double t)
{
    int found = -1;
    for (int k = 0; k < tl->nlanes; k++) {
        const zs_tl_lane_t *l = &tl->lanes[k];
        if (strcmp (l->name, name) != 0)
            continue;
        if (l->pid == pid)
            return k;
        if (pid == -1 && l->first <= t && (found < 0 || l->first > tl->lanes[found].first))
            found = k;
    }
    return found;
}

//  An "exit" of zsink cluster's: the lane's end, and how it died.
static void
s_lane_exit (zs_tl_lane_t *l, json_t *ev, double t)
{
    l->end = t;
    const char *sig = json_string_value (json_object_get (ev, "sig"));
    json_t *status = json_object_get (ev, "status");
    if (json_object_get (ev, "signal") && sig && strncmp (sig, "SIG", 3) == 0)
        snprintf (l->death, sizeof l->death, "%s", sig);
    else if (json_object_get (ev, "signal"))
        snprintf (l->death, sizeof l->death, "signal %lld",
                  (long long) json_integer_value (json_object_get (ev, "signal")));
    else if (json_integer_value (status) != 0)
        snprintf (l->death, sizeof l->death, "exit %lld", (long long) json_integer_value (status));
}

//  Where each lane's line stops (see the top).
static void
s_lane_stops (zs_tl_t *tl)
{
    for (int k = 0; k < tl->nlanes; k++) {
        zs_tl_lane_t *l = &tl->lanes[k];
        bool replaced = false;
        for (int j = 0; j < tl->nlanes; j++)
            replaced |= strcmp (tl->lanes[j].name, l->name) == 0 && tl->lanes[j].first > l->first;
        l->stop = l->end >= 0 ? l->end : replaced ? l->last : tl->t1;
    }
}

//  Give every event its lane (name, pid); the lanes their extent.
static void
s_assign_lanes (zs_tl_t *tl)
{
    for (size_t i = 0; i < tl->n; i++) {
        const char *name;
        int pid;
        s_event_process (tl->ev[i].ev, &name, &pid);
        if (pid == -1)
            continue; //  on a lane of the others', once they are all known
        int k = s_find_lane (tl, name, pid, tl->ev[i].t);
        if (k < 0 && tl->nlanes < ZS_TL_LANES_MAX) {
            k = tl->nlanes++;
            zs_tl_lane_t *l = &tl->lanes[k];
            snprintf (l->name, sizeof l->name, "%s", name);
            l->pid = pid;
            l->first = tl->ev[i].t;
            l->end = -1;
        }
        if (k < 0)
            continue;
        if (strcmp (json_string_value (json_object_get (tl->ev[i].ev, "e")), "exit") == 0)
            s_lane_exit (&tl->lanes[k], tl->ev[i].ev, tl->ev[i].t);
        else
            tl->lanes[k].last = tl->ev[i].t;
    }
    qsort (tl->lanes, (size_t) tl->nlanes, sizeof *tl->lanes, s_by_lane);
    for (size_t i = 0; i < tl->n; i++) {
        const char *name;
        int pid;
        s_event_process (tl->ev[i].ev, &name, &pid);
        tl->ev[i].lane = s_find_lane (tl, name, pid, tl->ev[i].t);
    }
    s_lane_stops (tl);
}

//  The options; DIR at argv[optind]. 0, or the exit code + 1.
static int
s_options (int argc, char **argv, zs_tl_t *tl, const char **output, const char **job_id,
           int64_t *last_ms)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"last", required_argument, 0, 'l'},
        {"width", required_argument, 0, 'w'},  {"job", required_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long (argc, argv, "o:h", opts, NULL)) != -1) {
        if (c == 'o')
            *output = optarg;
        else if (c == 'j')
            *job_id = optarg;
        else if (c == 'l' && zs_parse_duration_ms (optarg, last_ms) != 0) {
            fprintf (stderr, "zsink timeline: --last: '%s' is not a duration\n", optarg);
            return 3;
        } else if (c == 'w' && (tl->width = atoi (optarg)) < 400) {
            fprintf (stderr, "zsink timeline: --width: at least 400\n");
            return 3;
        } else if (c == 'w')
            tl->width_fixed = true;
        else if (c == 'h') {
            s_usage (stdout);
            return 1;
        } else if (c == '?') {
            s_usage (stderr);
            return 3;
        }
    }
    if (optind != argc - 1) {
        s_usage (stderr);
        return 3;
    }
    return 0;
}

//  Draw tl into output, titled by the job's directory's name.
static int
s_write (zs_tl_t *tl, const char *job, const char *output)
{
    FILE *out = fopen (output, "w");
    if (!out) {
        fprintf (stderr, "zsink timeline: cannot write %s: %m\n", output);
        return 1;
    }
    char title[ZS_PATH_MAX + 64];
    const char *slash = strrchr (job, '/');
    snprintf (title, sizeof title, "zsink job %s: %d processes, %zu events, %.1f s",
              slash ? slash + 1 : job, tl->nlanes, tl->n, (tl->t1 - tl->t0) / 1000);
    int rc = zs_tl_draw (out, tl, title);
    if (fclose (out) != 0 || rc != 0) {
        fprintf (stderr, "zsink timeline: cannot write %s\n", output);
        return 1;
    }
    printf ("%s: job %s, %d lanes, %zu events\n", output, slash ? slash + 1 : job, tl->nlanes,
            tl->n);
    return 0;
}

int
zs_timeline_cmd (int argc, char **argv)
{
    const char *output = "timeline.svg", *job_id = NULL;
    int64_t last_ms = 0;
    zs_tl_t tl = {.width = 1400};
    int rc = s_options (argc, argv, &tl, &output, &job_id, &last_ms);
    if (rc)
        return rc - 1;
    char dir[ZS_PATH_MAX], job[2 * ZS_PATH_MAX];
    snprintf (dir, sizeof dir, "%s", argv[optind]);
    while (strlen (dir) > 1 && dir[strlen (dir) - 1] == '/')
        dir[strlen (dir) - 1] = 0;
    if (s_pick_job (dir, job_id, job, sizeof job) != 0)
        return 1;
    if (s_read_dir (&tl, job) != 0 || tl.n == 0) {
        fprintf (stderr, "zsink timeline: no events in %s\n", job);
        free (tl.ev);
        return 1;
    }
    qsort (tl.ev, tl.n, sizeof *tl.ev, s_by_time);
    tl.t1 = tl.ev[tl.n - 1].t;
    tl.t0 =
        last_ms && tl.t1 - (double) last_ms > tl.ev[0].t ? tl.t1 - (double) last_ms : tl.ev[0].t;
    s_assign_lanes (&tl);
    rc = s_write (&tl, job, output);
    for (size_t i = 0; i < tl.n; i++)
        json_decref (tl.ev[i].ev);
    free (tl.ev);
    return rc;
}
