/*  dataname.c - see dataname.h.

    The parser is strict on purpose: the only files it may match are ones
    this writer could have named. It matches the exact prefix
    "data-<job8>-w<index>-a" (job8 compared as text, so a job id holding
    '-' cannot shift the fields) and then requires the whole rest to be
    "<digits>-e<digits>-<digits>.<ext>" with ext of [a-z0-9]. "w1" never
    matches a file of "w12": the index is followed by "-a", not a digit.
*/
#include "dataname.h"
#include "fs.h"
#include "io.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

//  job8: the first 8 characters of the job id (all of it when shorter).
static void
s_job8 (const char *job_id, char *job8)
{
    //  A hash of the whole id, not its first characters: job ids such as
    //  "ingest-orders-1" and "ingest-orders-2" share a prefix, and a Reset
    //  of one job must never match the other's files. FNV-1a, 64 bits.
    zs_job8 (job_id, job8);
}

int
zs_dataname_format (char *buf, size_t len, const char *job_id, int index, int64_t k, int64_t epoch,
                    int64_t n, const char *ext)
{
    char job8[9];
    s_job8 (job_id, job8);
    int rc = snprintf (buf, len, "data-%s-w%d-a%" PRId64 "-e%" PRId64 "-%" PRId64 ".%s", job8,
                       index, k, epoch, n, ext);
    return rc < 0 || (size_t) rc >= len ? -1 : 0;
}

//  Read a non-negative decimal number of 1..18 digits (no sign, no
//  overflow); advance *p past it. 0 or -1.
static int
s_number (const char **p, int64_t *out)
{
    const char *s = *p;
    int64_t v = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9') {
        if (++digits > 18)
            return -1;
        v = v * 10 + (*s - '0');
        s++;
    }
    if (digits == 0)
        return -1;
    *out = v;
    *p = s;
    return 0;
}

static int
s_literal (const char **p, const char *lit)
{
    size_t n = strlen (lit);
    if (strncmp (*p, lit, n) != 0)
        return -1;
    *p += n;
    return 0;
}

int
zs_dataname_parse (const char *name, const char *job_id, int index, int64_t *k, int64_t *epoch,
                   int64_t *n)
{
    char job8[9];
    s_job8 (job_id, job8);
    if (!name || !*job8 || index < 0)
        return 0;
    char prefix[64];
    snprintf (prefix, sizeof prefix, "data-%s-w%d-a", job8, index);
    const char *p = name;
    int64_t kk, ee, nn;
    if (s_literal (&p, prefix) || s_number (&p, &kk) || s_literal (&p, "-e") || s_number (&p, &ee)
        || s_literal (&p, "-") || s_number (&p, &nn) || s_literal (&p, "."))
        return 0;
    if (!*p)
        return 0;
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return 0;
    *k = kk;
    *epoch = ee;
    *n = nn;
    return 1;
}

typedef struct {
    const char *job_id;
    int index;
    int64_t restore_id;
} s_clean_t;

//  A file of this writer's predecessors since the restored checkpoint?
static bool
s_theirs (const char *name, void *arg)
{
    const s_clean_t *c = arg;
    int64_t k, epoch, n;
    return zs_dataname_parse (name, c->job_id, c->index, &k, &epoch, &n) && k >= c->restore_id;
}

int
zs_dataname_clean (const char *dir, const char *job_id, int index, int64_t restore_id, char *err,
                   size_t errlen)
{
    s_clean_t c = {job_id, index, restore_id};
    zs_io_entry_t *e;
    size_t ne;
    int rc = zs_io_listing (dir, &e, &ne, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? 0 : -1;
    int deleted = 0;
    for (size_t i = 0; i < ne; i++) {
        if (e[i].is_dir || !s_theirs (e[i].name, &c))
            continue;
        char path[ZS_PATH_MAX];
        if (snprintf (path, sizeof path, "%s/%s", dir, e[i].name) >= (int) sizeof path)
            continue; //  cannot be one we created: we could not have opened it
        if (zs_io_unlink (path) != 0) {
            snprintf (err, errlen, "%s: cannot delete: %s", path, strerror (errno));
            rc = -1;
            break;
        }
        deleted++;
    }
    zs_io_listing_free (&e, ne);
    //  On object storage, a predecessor killed while uploading a file left
    //  an open multipart upload: parts stored and billed, no object.
    int aborted = 0;
    if (rc == 0 && zs_io_abort_uploads (dir, s_theirs, &c, &aborted, err, errlen) != 0)
        rc = -1;
    //  Make the deletions durable before Ready: a file that came back after
    //  a crash would only be deleted again, but a reader of the table
    //  should not see it flicker.
    if (rc == 0 && deleted > 0 && zs_io_fsync_dir (dir) != 0) {
        snprintf (err, errlen, "%s: fsync: %s", dir, strerror (errno));
        rc = -1;
    }
    return rc == 0 ? deleted : -1;
}
