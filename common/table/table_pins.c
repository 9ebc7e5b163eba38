/*  table_pins.c - what a running or restorable job may still commit, kept
    from the table's cleaners (table.h, "Pins and the clean lock";
    docs/decisions.md, "Orphan removal beside a live job").

    Files, inside the table:
        .zsink/clean.lock       cleaners exclusive, commits shared (io_lock.h:
                                flock(2) locally, leases on S3)
        .zsink/pins/pin-<user>  one per commit user, replaced atomically:
                                    zsink-pin 1
                                    user <commit user>
                                    job <job id>
                                    file <identifier> <size> <path>   (each)

    Invariants
    1. A committer acks a checkpoint whose state holds a data file only
       after a pin naming the file is durable and, under the shared lock,
       the file was seen on disk as recorded (zs_table_pin). A cleaner
       (exclusive) therefore deleted it before, and the checkpoint fails
       before it completes (its rows are replayed), or it reads the pin.
    2. A commit holds the shared lock from the check of its files to the
       link of its snapshot (zs_table_commit): no cleaner deletes in
       between, and a cleaner after it sees the snapshot.
    3. A cleaner deletes only under the exclusive lock, deciding with the
       pins and snapshots it read under it (cli: orphans --delete).
    4. A pin spares, for its user:
         - always the files it names (the uncommitted state of the latest
           checkpoints: a restore re-commits them);
         - while its job runs (its committer holds .locks/committer-<job>;
           probed with F_OFD_GETLK, which takes nothing): every data file
           its writers name (data-<job8>-…, a checkpoint in flight), and
           the user's own manifests, compaction outputs and temp files
           (written ahead of a commit, by tag);
       and nothing once its user committed end of input (it commits
       nothing more: the pin is void).
*/
#include "fs.h"
#include "io.h"
#include "log.h"
#include "table_priv.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_PIN_MAX (64 * 1024 * 1024)

//  --------------------------------------------------------------------------
//  The clean lock

int
zs_table_clean_lock (zs_table_t *self, bool exclusive, int64_t wait_ms, zs_io_lock_t **lock_p,
                     char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    *lock_p = NULL;
    if (zs_table_file_path (self, path, sizeof path, ".zsink/clean.lock") != 0) {
        snprintf (err, errlen, "%s: path too long", self->path);
        return -1;
    }
    int rc = zs_io_rwlock_take (path, exclusive, ZS_CLEAN_TTL_MS, wait_ms, lock_p, err, errlen);
    if (rc == ZS_ECONFLICT)
        snprintf (err, errlen,
                  "%s: held by %s for %" PRId64 " ms (zsink table remove-orphan-files, "
                  "expire-snapshots or compact, or a commit)",
                  path, exclusive ? "a commit or a compaction" : "a cleaner", wait_ms);
    return rc;
}

void
zs_table_clean_unlock (zs_io_lock_t **lock_p)
{
    zs_io_lock_release (lock_p);
}

//  --------------------------------------------------------------------------
//  Writing a pin

//  .zsink/pins/pin-<user>, the user made file-name safe (the file names it
//  in full).
static int
s_pin_path (zs_table_t *self, const char *user, char *path, size_t len)
{
    char rel[128] = ".zsink/pins/pin-";
    size_t at = strlen (rel);
    for (const char *c = user; *c && at + 1 < sizeof rel; c++)
        rel[at++] = (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')
                            || *c == '-' || *c == '_'
                        ? *c
                        : 'x';
    rel[at] = '\0';
    return zs_table_file_path (self, path, len, rel);
}

//  The text of a pin, malloc'd (NULL: out of memory).
static char *
s_pin_text (const char *user, const char *job_id, const zs_file_meta_t *files, const int64_t *ids,
            size_t n)
{
    size_t cap = 256 + strlen (job_id) + n * (sizeof files->path + 48), len = 0;
    char *text = malloc (cap);
    if (!text)
        return NULL;
    len += (size_t) snprintf (text, cap, "zsink-pin 1\nuser %s\njob %s\n", user, job_id);
    for (size_t i = 0; i < n; i++)
        len += (size_t) snprintf (text + len, cap - len, "file %" PRId64 " %" PRId64 " %s\n",
                                  ids[i], files[i].size, files[i].path);
    return text;
}

//  Each file on disk as recorded: a regular file of its size.
static int
s_check_files (zs_table_t *self, const zs_file_meta_t *files, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        char path[ZS_PATH_MAX];
        zs_io_stat_t st;
        if (zs_table_file_path (self, path, sizeof path, files[i].path) != 0
            || zs_io_stat (path, &st) != 0 || !st.regular || st.size != files[i].size) {
            snprintf (err, errlen, "%s: data file to commit is missing or not as recorded",
                      files[i].path);
            return ZS_EMISSING;
        }
    }
    return 0;
}

int
zs_table_pin (zs_table_t *self, const char *user, const char *job_id, const zs_file_meta_t *files,
              const int64_t *ids, size_t n, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX], dir[ZS_PATH_MAX];
    if (s_pin_path (self, user, path, sizeof path) != 0
        || zs_table_file_path (self, dir, sizeof dir, ".zsink/pins") != 0) {
        snprintf (err, errlen, "%s: path too long", self->path);
        return -1;
    }
    char *text = s_pin_text (user, job_id, files, ids, n);
    if (!text) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    zs_io_lock_t *lock = NULL;
    int rc = zs_table_clean_lock (self, false, ZS_CLEAN_WAIT_MS, &lock, err, errlen);
    if (rc == 0 && zs_io_mkdirs (dir) != 0) {
        snprintf (err, errlen, "%s: cannot create: %s", dir, strerror (errno));
        rc = -1;
    }
    //  durable (fsync, rename, fsync of the directory) before the ack
    if (rc == 0)
        rc = zs_io_write_atomic (path, text, strlen (text), err, errlen);
    //  only now: a deletion before the pin was written is seen here
    if (rc == 0)
        rc = s_check_files (self, files, n, err, errlen);
    zs_table_clean_unlock (&lock);
    free (text);
    return rc;
}

int
zs_table_unpin (zs_table_t *self, const char *user, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    if (s_pin_path (self, user, path, sizeof path) != 0) {
        snprintf (err, errlen, "%s: path too long", self->path);
        return -1;
    }
    int rc = zs_io_remove (path);
    if (rc == 0)
        return 0;
    if (rc == ZS_ENOENT) {
        snprintf (err, errlen, "%s: no pin of user %s", self->path, user);
        return ZS_ENOENT;
    }
    snprintf (err, errlen, "%s: cannot remove: %s", path, strerror (errno));
    return -1;
}

//  --------------------------------------------------------------------------
//  Reading the pins

//  One pin as read, with its files sorted for lookup.
typedef struct {
    zs_pin_t pub;
    char job_id[64];
    char **files;
    size_t n_files;
} s_pin_t;

static int
s_cmp_str (const void *a, const void *b)
{
    return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
s_pin_free (s_pin_t *p)
{
    for (size_t i = 0; i < p->n_files; i++)
        free (p->files[i]);
    free (p->files);
    p->files = NULL;
    p->n_files = 0;
}

//  Parse one pin file's text. 0, or ZS_ECORRUPT + err.
static int
s_pin_parse (char *text, const char *name, s_pin_t *p, char *err, size_t errlen)
{
    memset (p, 0, sizeof *p);
    size_t cap = 0;
    int line = 0;
    bool head = false, oom = false;
    for (char *save = NULL, *l = strtok_r (text, "\n", &save); l;
         l = strtok_r (NULL, "\n", &save)) {
        line++;
        int64_t id, size;
        int off = 0;
        if (line == 1)
            head = strcmp (l, "zsink-pin 1") == 0;
        else if (strncmp (l, "user ", 5) == 0 && strlen (l + 5) < sizeof p->pub.user)
            strcpy (p->pub.user, l + 5);
        else if (strncmp (l, "job ", 4) == 0 && strlen (l + 4) < sizeof p->job_id)
            strcpy (p->job_id, l + 4);
        else if (sscanf (l, "file %" SCNd64 " %" SCNd64 " %n", &id, &size, &off) == 2 && off
                 && l[off]) {
            if (p->n_files == cap) {
                cap = cap ? cap * 2 : 16;
                char **grown = realloc (p->files, cap * sizeof *grown);
                if (!grown) {
                    oom = true;
                    break;
                }
                p->files = grown;
            }
            if (!(p->files[p->n_files] = strdup (l + off))) {
                oom = true;
                break;
            }
            p->n_files++;
        } else
            head = false;
        if (!head)
            break;
    }
    if (oom) { //  fewer files than it names would spare too little
        snprintf (err, errlen, "out of memory reading .zsink/pins/%s", name);
        s_pin_free (p);
        return -1;
    }
    if (!head || !p->pub.user[0] || !p->job_id[0]) {
        snprintf (err, errlen,
                  ".zsink/pins/%s: not a pin (line %d); see what it names, then remove it with "
                  "`zsink table unpin`",
                  name, line);
        s_pin_free (p);
        return ZS_ECORRUPT;
    }
    if (p->n_files)
        qsort (p->files, p->n_files, sizeof *p->files, s_cmp_str);
    p->pub.files = p->n_files;
    zs_job8 (p->job_id, p->pub.job8);
    snprintf (p->pub.job_id, sizeof p->pub.job_id, "%s", p->job_id);
    return 0;
}

//  Is job's committer running, holding .locks/committer-<job> (its lock.c)?
//  Asked without taking anything (a committer starting at the same moment
//  must not find it taken). A lock that cannot be asked counts as held: a
//  cleaner spares rather than guesses.
static bool
s_job_runs (zs_table_t *self, const char *job_id)
{
    char rel[128], path[ZS_PATH_MAX], holder[128], err[ZS_ERRLEN];
    snprintf (rel, sizeof rel, ".locks/committer-%.63s", job_id);
    if (zs_table_file_path (self, path, sizeof path, rel) != 0)
        return false;
    bool held = false;
    if (zs_io_lock_probe (path, &held, holder, sizeof holder, err, sizeof err) != 0)
        return true;
    return held;
}

//  Every pin of the table, read and judged (finished, running). 0 or an
//  error + err (a pin that does not parse: a cleaner must not guess).
static int
s_pins_load (zs_table_t *self, s_pin_t **pins_p, size_t *n_p, char *err, size_t errlen)
{
    *pins_p = NULL;
    *n_p = 0;
    err[0] = '\0';
    char dir[ZS_PATH_MAX];
    zs_table_file_path (self, dir, sizeof dir, ".zsink/pins");
    zs_io_entry_t *e;
    size_t ne;
    int rc = zs_io_listing (dir, &e, &ne, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? (err[0] = 0) : -1;
    s_pin_t *pins = NULL;
    size_t n = 0;
    for (size_t k = 0; rc == 0 && k < ne; k++) {
        const char *name = e[k].name;
        if (strncmp (name, "pin-", 4) != 0)
            continue; //  temp files of a pin being written, . and ..
        char path[ZS_PATH_MAX + 256];
        snprintf (path, sizeof path, "%s/%s", dir, name);
        char *text = zs_io_read_file (path, S_PIN_MAX, NULL, err, errlen);
        if (!text) {
            if (errno == ENOENT)
                continue; //  removed since the listing
            rc = -1;
            break;
        }
        s_pin_t *grown = realloc (pins, (n + 1) * sizeof *pins);
        rc = grown ? s_pin_parse (text, name, &grown[n], err, errlen) : -1;
        free (text);
        if (grown)
            pins = grown;
        if (rc != 0)
            break;
        s_pin_t *p = &pins[n++];
        int64_t last = -1;
        char why[ZS_ERRLEN];
        p->pub.finished = zs_table_last_committed (self, p->pub.user, &last, why, sizeof why) == 0
                          && last == ZS_END_INPUT_ID;
        p->pub.running = !p->pub.finished && s_job_runs (self, p->job_id);
    }
    zs_io_listing_free (&e, ne);
    if (rc != 0) {
        for (size_t i = 0; i < n; i++)
            s_pin_free (&pins[i]);
        free (pins);
        if (!err[0])
            snprintf (err, errlen, "out of memory");
        return rc;
    }
    *pins_p = pins;
    *n_p = n;
    return 0;
}

static void
s_pins_free (s_pin_t *pins, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s_pin_free (&pins[i]);
    free (pins);
}

//  Is name (a base name, maybe with a leading '.') one of the user's
//  metadata, compaction output or temp files (table_maint.c names them)?
static bool
s_users_own (const char *name, const char *tag)
{
    char m[32], l[40], c[40], t[32];
    snprintf (m, sizeof m, "manifest-%s-", tag);
    snprintf (l, sizeof l, "manifest-list-%s-", tag);
    snprintf (c, sizeof c, "data-%s-compact-", tag);
    snprintf (t, sizeof t, ".tmp-%s-", tag);
    const char *base = name[0] == '.' ? name + 1 : name;
    return !strncmp (base, m, strlen (m)) || !strncmp (base, l, strlen (l))
           || !strncmp (base, c, strlen (c)) || strstr (name, t);
}

//  Does pin p spare the table-relative path rel (invariant 4)?
static bool
s_spares (const s_pin_t *p, const char *rel)
{
    if (p->pub.finished)
        return false;
    if (p->n_files && bsearch (&rel, p->files, p->n_files, sizeof *p->files, s_cmp_str))
        return true;
    if (!p->pub.running)
        return false;
    const char *slash = strrchr (rel, '/');
    const char *name = slash ? slash + 1 : rel;
    char prefix[32], tag[9];
    snprintf (prefix, sizeof prefix, "data-%s-w", p->pub.job8);
    zs_table_user_tag (p->pub.user, tag);
    //  a data file, in a partition's bucket directory or the table's
    char why[ZS_ERRLEN];
    bool data = zs_data_path_check (rel, why, sizeof why) == 0;
    return (data && strncmp (name, prefix, strlen (prefix)) == 0) || s_users_own (name, tag);
}

int
zs_table_pins_spare (zs_table_t *self, char **paths, size_t *n_p, size_t *held, char *err,
                     size_t errlen)
{
    s_pin_t *pins;
    size_t np;
    int rc = s_pins_load (self, &pins, &np, err, errlen);
    if (rc != 0 || np == 0)
        return rc;
    size_t kept = 0;
    for (size_t i = 0; i < *n_p; i++) {
        bool spared = false;
        for (size_t k = 0; k < np && !spared; k++)
            spared = s_spares (&pins[k], paths[i]);
        if (spared && held)
            for (size_t k = 0; k < np; k++)
                if (!pins[k].pub.running && s_spares (&pins[k], paths[i])) {
                    (*held)++;
                    break;
                }
        if (spared)
            free (paths[i]);
        else
            paths[kept++] = paths[i];
    }
    *n_p = kept;
    s_pins_free (pins, np);
    return 0;
}

int
zs_table_pins (zs_table_t *self, zs_pin_t **pins_p, size_t *n_p, char *err, size_t errlen)
{
    s_pin_t *pins;
    size_t np;
    *pins_p = NULL;
    *n_p = 0;
    int rc = s_pins_load (self, &pins, &np, err, errlen);
    if (rc != 0 || np == 0)
        return rc;
    zs_pin_t *out = malloc (np * sizeof *out);
    for (size_t i = 0; out && i < np; i++)
        out[i] = pins[i].pub;
    s_pins_free (pins, np);
    if (!out) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    *pins_p = out;
    *n_p = np;
    return 0;
}

//  --------------------------------------------------------------------------
//  Trimming a dead job's pin

//  The pin text with the file lines drop() says go; *dropped counted.
//  NULL when out of memory.
static char *
s_pin_filtered (const char *text, zs_pin_drop_fn *drop, void *arg, int *dropped)
{
    size_t len = strlen (text), at = 0;
    char *out = malloc (len + 1);
    if (!out)
        return NULL;
    for (const char *l = text; *l;) {
        const char *nl = strchr (l, '\n');
        size_t n = nl ? (size_t) (nl - l) + 1 : strlen (l);
        int64_t id, size;
        int off = 0;
        char line[ZS_PATH_MAX + 64];
        snprintf (line, sizeof line, "%.*s", (int) (nl ? n - 1 : n), l);
        bool go = sscanf (line, "file %" SCNd64 " %" SCNd64 " %n", &id, &size, &off) == 2 && off
                  && drop (line + off, id, arg);
        if (go)
            (*dropped)++;
        else {
            memcpy (out + at, l, n);
            at += n;
        }
        l += n;
    }
    out[at] = '\0';
    return out;
}

int
zs_table_pin_trim (zs_table_t *self, const char *job_id, zs_pin_drop_fn *drop, void *arg, char *err,
                   size_t errlen)
{
    s_pin_t *pins;
    size_t np;
    int rc = s_pins_load (self, &pins, &np, err, errlen);
    int dropped = 0;
    for (size_t i = 0; rc == 0 && i < np; i++) {
        if (strcmp (pins[i].job_id, job_id) != 0)
            continue;
        char path[ZS_PATH_MAX];
        s_pin_path (self, pins[i].pub.user, path, sizeof path);
        char *text = zs_io_read_file (path, S_PIN_MAX, NULL, err, errlen);
        char *kept = text ? s_pin_filtered (text, drop, arg, &dropped) : NULL;
        if (!kept)
            rc = -1;
        else if (dropped)
            rc = zs_io_write_atomic (path, kept, strlen (kept), err, errlen);
        free (text);
        free (kept);
    }
    s_pins_free (pins, np);
    if (rc != 0 && !err[0])
        snprintf (err, errlen, "out of memory");
    return rc == 0 ? dropped : rc;
}
