/*  failpoint.c - see failpoint.h.

    The registry is a static table: every point a process may hit is listed
    with what it exercises, so `zsink failpoints` can print them and a spec
    naming a point that does not exist fails at start instead of silently
    testing nothing.

    Invariants:
    1. With no point enabled, zs_failpoint costs one branch on s_enabled:
       points sit on hot paths (every file write) and must be free in
       production.
    2. Hit counters count from the last zs_failpoint_init and only while
       some point is enabled (counting would otherwise cost a lookup).
    3. A point with K fires on exactly its K-th hit and never again; a point
       without K fires on every hit.
    4. A failed zs_failpoint_init leaves every point disabled, so a bad spec
       cannot leave half of it armed.
*/
#include "failpoint.h"
#include "log.h"
#include <inttypes.h>
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef enum { S_OFF = 0, S_CRASH, S_ERROR, S_DELAY, S_DROP } s_action_t;

typedef struct {
    s_action_t action;
    int64_t nth;      //  fire only on this hit (1-based); 0 = every hit
    int64_t delay_ms; //  for S_DELAY
    int64_t hits;
} s_state_t;

static const zs_failpoint_info_t s_points[] = {
    {"writer.after-flush", "data files closed and fsynced, nothing sent yet"},
    {"writer.after-committables", "committables sent, end-of-checkpoint marker not yet"},
    {"writer.after-marker", "marker sent, ack to the coordinator not yet"},
    {"writer.after-ack", "checkpoint ack sent to the coordinator"},
    {"writer.forge-duplicate",
     "message point: error adds a file of the previous committable to this one"},
    {"writer.forge-missing", "message point: error adds a file that does not exist"},
    {"writer.forge-size", "message point: error records the first file 1 byte too large"},
    {"committer.after-state-ack", "committer state for the checkpoint acked to the coordinator"},
    {"committer.before-commit", "checkpoint complete and notified, before the commit starts"},
    {"committer.after-manifest", "manifest files written, snapshot not yet"},
    {"committer.mid-rewrite",
     "compaction: the rewrite under way, its first output begun (on the compaction thread)"},
    {"committer.mid-compact",
     "compaction: outputs rewritten and durable, the COMPACT snapshot not yet"},
    {"committer.mid-expire",
     "snapshot expiry: EARLIEST moved and deleted data files removed, manifests and snapshot "
     "files not yet"},
    {"committer.after-snapshot", "snapshot file created, LATEST hint not yet updated"},
    {"committer.mid-recommit",
     "re-commit of restored state, after the first checkpoint's snapshot"},
    {"coordinator.after-checkpoint-write", "chk-N metadata durable, Notify not sent"},
    {"coordinator.after-notify", "Notify of a completed checkpoint sent"},
    {"coordinator.notify", "message point: drop loses the Notify of a completed checkpoint"},
    {"coordinator.kafka-commit",
     "the Kafka source's offsets of a committed checkpoint not sent to the group (sent again)"},
    {"fs.write", "file I/O layer: a write(2) of a file being written"},
    {"fs.fsync", "file I/O layer: fsync(2) of a file or directory"},
    {"fs.rename", "file I/O layer: rename(2) that publishes a file atomically"},
    {"fs.link", "file I/O layer: link(2) that creates a file only if absent"},
    {"io.s3.after-part",
     "S3: a part of a data file's multipart upload sent, the upload open (error: the part fails)"},
};
#define S_NPOINTS (sizeof s_points / sizeof s_points[0])

static s_state_t s_state[S_NPOINTS];
static bool s_enabled;

static int
s_find (const char *name, size_t len)
{
    for (size_t i = 0; i < S_NPOINTS; i++)
        if (strlen (s_points[i].name) == len && memcmp (s_points[i].name, name, len) == 0)
            return (int) i;
    return -1;
}

//  A positive decimal count (K or MS) filling all of text. -1 otherwise.
static int
s_parse_count (const char *text, int64_t min, int64_t *out)
{
    if (*text < '0' || *text > '9')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll (text, &end, 10);
    if (errno || *end || v < min)
        return -1;
    *out = v;
    return 0;
}

//  One "name=action[:arg[:K]]" item into state. 0 or -1 + err.
static int
s_parse_item (const char *item, s_state_t *state, bool *seen, char *err, size_t errlen)
{
    const char *eq = strchr (item, '=');
    if (!eq) {
        snprintf (err, errlen, "failpoint '%s': expected name=action", item);
        return -1;
    }
    int i = s_find (item, (size_t) (eq - item));
    if (i < 0) {
        snprintf (err, errlen, "unknown failpoint '%.*s'", (int) (eq - item), item);
        return -1;
    }
    if (seen[i]) {
        snprintf (err, errlen, "failpoint '%s' given twice", s_points[i].name);
        return -1;
    }
    seen[i] = true;

    //  Split the action into at most three ':'-separated parts.
    char buf[128];
    if (snprintf (buf, sizeof buf, "%s", eq + 1) >= (int) sizeof buf) {
        snprintf (err, errlen, "failpoint '%s': action too long", s_points[i].name);
        return -1;
    }
    char *parts[3] = {buf, NULL, NULL};
    int nparts = 1;
    for (char *p = buf; *p; p++)
        if (*p == ':') {
            if (nparts == 3) {
                snprintf (err, errlen, "failpoint '%s': bad action '%s'", s_points[i].name, eq + 1);
                return -1;
            }
            *p = 0;
            parts[nparts++] = p + 1;
        }

    s_state_t st = {0};
    const char *k_text = NULL; //  the optional ":K"
    if (strcmp (parts[0], "crash") == 0)
        st.action = S_CRASH;
    else if (strcmp (parts[0], "error") == 0)
        st.action = S_ERROR;
    else if (strcmp (parts[0], "drop") == 0)
        st.action = S_DROP;
    else if (strcmp (parts[0], "delay") == 0)
        st.action = S_DELAY;
    else {
        snprintf (err, errlen, "failpoint '%s': unknown action '%s' (crash, error, delay:MS, drop)",
                  s_points[i].name, parts[0]);
        return -1;
    }
    if (st.action == S_DELAY) {
        //  delay:MS[:K]
        if (!parts[1] || s_parse_count (parts[1], 0, &st.delay_ms)) {
            snprintf (err, errlen, "failpoint '%s': delay needs milliseconds, got '%s'",
                      s_points[i].name, parts[1] ? parts[1] : "");
            return -1;
        }
        k_text = parts[2];
    } else {
        //  action[:K]
        if (parts[2]) {
            snprintf (err, errlen, "failpoint '%s': bad action '%s'", s_points[i].name, eq + 1);
            return -1;
        }
        k_text = parts[1];
    }
    if (k_text && s_parse_count (k_text, 1, &st.nth)) {
        snprintf (err, errlen, "failpoint '%s': bad hit number '%s' (1, 2, ...)", s_points[i].name,
                  k_text);
        return -1;
    }
    state[i] = st;
    return 0;
}

int
zs_failpoint_init (const char *spec, char *err, size_t errlen)
{
    char dummy[ZS_ERRLEN];
    if (!err || errlen == 0) {
        err = dummy;
        errlen = sizeof dummy;
    }
    memset (s_state, 0, sizeof s_state);
    s_enabled = false;
    if (!spec)
        spec = getenv ("ZSINK_FAILPOINTS");
    if (!spec || !*spec)
        return 0;

    //  Parse into a scratch table and arm only when the whole spec is good.
    s_state_t state[S_NPOINTS] = {{0}};
    bool seen[S_NPOINTS] = {0};
    char *copy = strdup (spec);
    if (!copy) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *item = strtok_r (copy, ",", &save); item; item = strtok_r (NULL, ",", &save)) {
        //  Blanks around items make "a=crash, b=drop" work as typed.
        while (*item == ' ')
            item++;
        size_t n = strlen (item);
        while (n > 0 && item[n - 1] == ' ')
            item[--n] = 0;
        if (!*item)
            continue;
        if ((rc = s_parse_item (item, state, seen, err, errlen)) != 0)
            break;
    }
    free (copy);
    if (rc)
        return -1;
    memcpy (s_state, state, sizeof s_state);
    for (size_t i = 0; i < S_NPOINTS; i++)
        s_enabled |= s_state[i].action != S_OFF;
    return 0;
}

static void
s_crash (const char *name)
{
    //  One write(2), no stdio: the process dies next and must not flush or
    //  run atexit handlers, exactly like kill -9 (the note aside).
    char note[160];
    int n = snprintf (note, sizeof note, "failpoint %s: crash\n", name);
    if (n > 0) {
        ssize_t w =
            write (STDERR_FILENO, note, (size_t) n < sizeof note ? (size_t) n : sizeof note);
        (void) w;
    }
    _exit (137);
}

static void
s_sleep_ms (int64_t ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long) (ms % 1000) * 1000000L};
    while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
        ;
}

int
zs_failpoint (const char *name)
{
    if (!s_enabled)
        return 0;
    int i = s_find (name, strlen (name));
    //  Point names come from our code, not from users: a name missing from
    //  the registry is a typo that would make a test exercise nothing.
    assert (i >= 0);
    if (i < 0)
        return 0;
    s_state_t *st = &s_state[i];
    //  atomic: the committer's compaction thread writes files too
    int64_t hit = __atomic_add_fetch (&st->hits, 1, __ATOMIC_RELAXED);
    if (st->action == S_OFF || (st->nth && hit != st->nth))
        return 0;
    //  Every firing is logged, so a test (or a person) sees what was
    //  injected next to what it caused.
    switch (st->action) {
    case S_CRASH:
        s_crash (name);
        return 0;
    case S_ERROR:
        zs_warn ("failpoint %s: error", name);
        return -1;
    case S_DELAY:
        zs_warn ("failpoint %s: delay %" PRId64 " ms", name, st->delay_ms);
        s_sleep_ms (st->delay_ms);
        return 0;
    case S_DROP:
        zs_warn ("failpoint %s: drop", name);
        return 1;
    default:
        return 0;
    }
}

int64_t
zs_failpoint_hits (const char *name)
{
    int i = s_find (name, strlen (name));
    return i < 0 ? -1 : s_state[i].hits;
}

const zs_failpoint_info_t *
zs_failpoint_list (size_t *n)
{
    if (n)
        *n = S_NPOINTS;
    return s_points;
}
