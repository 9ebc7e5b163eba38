/*  checkpoint.c - see checkpoint.h. JSON via jansson; the committer state
    is stored as readable JSON (not base64 protobuf) so a person can see
    which files a checkpoint will commit.
*/
#include "checkpoint.h"
#include "fs.h"
#include "io.h"
#include <dirent.h>
#include <errno.h>
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A checkpoint lists every pending file of the committer: large for a job
//  whose commits keep failing, but a file bigger than this is not ours.
#define MAX_FILE_SIZE (256 * 1024 * 1024)

static void
s_copy (char *dst, size_t size, const char *src)
{
    snprintf (dst, size, "%s", src ? src : "");
}

int
zs_job_meta_read (const char *job_dir, zs_job_meta_t *meta, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/job.json", job_dir);
    size_t len;
    char *text = zs_io_read_file (path, 1 << 20, &len, err, errlen);
    if (!text)
        return errno == ENOENT ? ZS_ENOENT : -1;
    json_error_t jerr;
    json_t *root = json_loads (text, 0, &jerr);
    free (text);
    memset (meta, 0, sizeof *meta);
    const char *job = NULL, *user = NULL, *status = NULL;
    json_int_t epoch = -1, next = -1;
    int fired = 0;
    //  Nothing is guessed from a damaged file: a wrong counter or epoch
    //  would reuse ids (coordinator invariants 1 and 2).
    if (!root
        || json_unpack_ex (root, &jerr, 0, "{s:s, s:s, s:I, s:I, s:b, s:s}", "job_id", &job,
                           "commit_user", &user, "epoch", &epoch, "next_checkpoint_id", &next,
                           "fail_at_id_fired", &fired, "status", &status)
               < 0
        || epoch < 0 || next < 1) {
        snprintf (err, errlen, "%s: corrupt job file: %s", path, root ? jerr.text : jerr.text);
        json_decref (root);
        return ZS_ECORRUPT;
    }
    s_copy (meta->job_id, sizeof meta->job_id, job);
    s_copy (meta->commit_user, sizeof meta->commit_user, user);
    s_copy (meta->status, sizeof meta->status, status);
    meta->epoch = epoch;
    meta->next_checkpoint_id = next;
    meta->fail_at_id_fired = fired;
    json_int_t rows = 0, snapshot = 0, table_rows = 0, running = 0;
    json_unpack (root, "{s?I, s?I, s?I, s?I}", "rows_committed", &rows, "last_snapshot", &snapshot,
                 "table_rows", &table_rows, "running_ms", &running);
    meta->rows_committed = rows;
    meta->last_snapshot = snapshot;
    meta->table_rows = table_rows;
    meta->running_ms = running;
    json_decref (root);
    return 0;
}

int
zs_job_meta_write (const char *job_dir, const zs_job_meta_t *meta, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/job.json", job_dir);
    json_t *root = json_pack ("{s:s, s:s, s:I, s:I, s:b, s:s}", "job_id", meta->job_id,
                              "commit_user", meta->commit_user, "epoch", (json_int_t) meta->epoch,
                              "next_checkpoint_id", (json_int_t) meta->next_checkpoint_id,
                              "fail_at_id_fired", meta->fail_at_id_fired, "status", meta->status);
    json_object_set_new (root, "rows_committed", json_integer (meta->rows_committed));
    json_object_set_new (root, "last_snapshot", json_integer (meta->last_snapshot));
    json_object_set_new (root, "table_rows", json_integer (meta->table_rows));
    json_object_set_new (root, "running_ms", json_integer (meta->running_ms));
    char *text = json_dumps (root, JSON_INDENT (2));
    json_decref (root);
    int rc = zs_io_write_atomic (path, text, strlen (text), err, errlen);
    free (text);
    return rc;
}

//  Bytes as lowercase hex, a JSON string (the statistics in chk-N).
static json_t *
s_hex (const uint8_t *data, size_t len)
{
    char *text = malloc (2 * len + 1);
    if (!text)
        return json_null ();
    for (size_t i = 0; i < len; i++)
        snprintf (text + 2 * i, 3, "%02x", data[i]);
    text[2 * len] = 0;
    json_t *v = json_string (text);
    free (text);
    return v;
}

//  Back: exactly 2 * len hex digits into len bytes. 0 or -1.
static int
s_unhex (const char *text, uint8_t *out, size_t len)
{
    if (strlen (text) != 2 * len)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned v;
        if (!isxdigit ((unsigned char) text[2 * i]) || !isxdigit ((unsigned char) text[2 * i + 1])
            || sscanf (text + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t) v;
    }
    return 0;
}

static json_t *
s_state_to_json (const Zsink__CommitterState *st)
{
    json_t *pending = json_array ();
    for (size_t i = 0; i < st->n_pending; i++) {
        const Zsink__ManifestCommittable *m = st->pending[i];
        json_t *cs = json_array ();
        for (size_t j = 0; j < m->n_committables; j++) {
            const Zsink__Committable *c = m->committables[j];
            json_t *files = json_array ();
            for (size_t k = 0; k < c->n_files; k++) {
                const Zsink__FileMeta *f = c->files[k];
                json_t *jf = json_pack ("{s:s, s:I, s:I}", "path", f->path, "rows",
                                        (json_int_t) f->rows, "size", (json_int_t) f->size);
                if (f->has_min_id && f->has_max_id) {
                    json_object_set_new (jf, "min_id", json_integer (f->min_id));
                    json_object_set_new (jf, "max_id", json_integer (f->max_id));
                }
                if (f->has_value_stats)
                    json_object_set_new (jf, "value_stats",
                                         s_hex (f->value_stats.data, f->value_stats.len));
                if (f->has_creation_ms)
                    json_object_set_new (jf, "creation_ms", json_integer (f->creation_ms));
                json_array_append_new (files, jf);
            }
            json_array_append_new (cs, json_pack ("{s:I, s:i, s:i, s:o}", "checkpoint_id",
                                                  (json_int_t) c->checkpoint_id, "writer",
                                                  c->writer, "bucket", c->bucket, "files", files));
        }
        json_array_append_new (pending, json_pack ("{s:I, s:o}", "identifier",
                                                   (json_int_t) m->identifier, "committables", cs));
    }
    json_t *ended = json_array ();
    for (size_t i = 0; i < st->n_ended_writers; i++)
        json_array_append_new (ended, json_integer (st->ended_writers[i]));
    return json_pack ("{s:s, s:o, s:o}", "commit_user", st->commit_user, "pending", pending,
                      "ended_writers", ended);
}

//  Pointers to free together once a message built from them is packed.
typedef struct {
    void **ptrs;
    size_t n, cap;
} s_arena_t;

//  n zeroed items of size bytes (at least one), kept in the arena. Out of
//  memory here is not recoverable in the coordinator: abort.
static void *
s_alloc (s_arena_t *arena, size_t n, size_t size)
{
    void *p = calloc (n ? n : 1, size);
    if (!p)
        abort ();
    if (arena->n == arena->cap) {
        size_t cap = arena->cap ? arena->cap * 2 : 64;
        void **grown = realloc (arena->ptrs, cap * sizeof *grown);
        if (!grown)
            abort ();
        arena->ptrs = grown;
        arena->cap = cap;
    }
    arena->ptrs[arena->n++] = p;
    return p;
}

//  Fills item (of the message type at hand) from j, the i-th of its array.
typedef int (s_from_json_fn) (json_t *j, size_t i, void *item, s_arena_t *arena, char *err,
                              size_t errlen);

//  A JSON array into a repeated message field: the items and the pointers
//  to them protobuf-c wants, both in the arena. The pointers, or NULL +
//  err.
static void **
s_repeated_from_json (json_t *ja, size_t size, s_from_json_fn *fn, s_arena_t *arena, size_t *n_p,
                      char *err, size_t errlen)
{
    size_t n = json_array_size (ja);
    char *items = s_alloc (arena, n, size);
    void **ptrs = s_alloc (arena, n, sizeof *ptrs);
    for (size_t i = 0; i < n; i++) {
        ptrs[i] = items + i * size;
        if (fn (json_array_get (ja, i), i, ptrs[i], arena, err, errlen) < 0)
            return NULL;
    }
    *n_p = n;
    return ptrs;
}

static void
s_arena_free (s_arena_t *arena)
{
    for (size_t i = 0; i < arena->n; i++)
        free (arena->ptrs[i]);
    free (arena->ptrs);
}

//  One file of a committable; its strings point into jf.
static int
s_file_from_json (json_t *jf, size_t i, void *item, s_arena_t *arena, char *err, size_t errlen)
{
    (void) i;
    Zsink__FileMeta *f = item;
    const char *path = NULL, *stats = NULL;
    json_int_t rows = 0, size = 0, mn = INT64_MIN, mx = INT64_MIN, created = -1;
    json_error_t jerr;
    if (json_unpack_ex (jf, &jerr, 0, "{s:s, s:I, s:I, s?I, s?I, s?s, s?I}", "path", &path, "rows",
                        &rows, "size", &size, "min_id", &mn, "max_id", &mx, "value_stats", &stats,
                        "creation_ms", &created)
        < 0) {
        snprintf (err, errlen, "committer state: file: %s", jerr.text);
        return -1;
    }
    zsink__file_meta__init (f);
    f->path = (char *) path;
    f->rows = rows;
    f->size = size;
    //  min_id/max_id are both there (a table with an id) or not
    f->has_min_id = f->has_max_id =
        json_object_get (jf, "min_id") && json_object_get (jf, "max_id");
    f->min_id = f->has_min_id ? mn : 0;
    f->max_id = f->has_max_id ? mx : 0;
    f->has_creation_ms = created >= 0;
    f->creation_ms = created;
    if (stats) {
        size_t len = strlen (stats) / 2;
        uint8_t *blob = s_alloc (arena, len, 1);
        if (s_unhex (stats, blob, len) != 0) {
            snprintf (err, errlen, "committer state: file: bad value_stats");
            return -1;
        }
        f->has_value_stats = true;
        f->value_stats.data = blob;
        f->value_stats.len = len;
    }
    return 0;
}

//  One committable of a pending checkpoint, its files in the arena.
static int
s_committable_from_json (json_t *jc, size_t i, void *item, s_arena_t *arena, char *err,
                         size_t errlen)
{
    (void) i;
    Zsink__Committable *c = item;
    json_int_t cid = 0;
    int writer = 0, bucket = 0;
    json_t *jfiles = NULL;
    json_error_t jerr;
    if (json_unpack_ex (jc, &jerr, 0, "{s:I, s:i, s:i, s:o}", "checkpoint_id", &cid, "writer",
                        &writer, "bucket", &bucket, "files", &jfiles)
            < 0
        || !json_is_array (jfiles)) {
        snprintf (err, errlen, "committer state: committable: %s", jerr.text);
        return -1;
    }
    zsink__committable__init (c);
    c->checkpoint_id = cid;
    c->writer = writer;
    c->has_bucket = true;
    c->bucket = bucket;
    c->files = (Zsink__FileMeta **) s_repeated_from_json (
        jfiles, sizeof (Zsink__FileMeta), s_file_from_json, arena, &c->n_files, err, errlen);
    return c->files ? 0 : -1;
}

//  pending[i]: the committables of one checkpoint id, in the arena.
static int
s_manifest_from_json (json_t *jm, size_t i, void *item, s_arena_t *arena, char *err, size_t errlen)
{
    Zsink__ManifestCommittable *m = item;
    json_int_t ident = 0;
    json_t *jcs = NULL;
    json_error_t jerr;
    if (json_unpack_ex (jm, &jerr, 0, "{s:I, s:o}", "identifier", &ident, "committables", &jcs) < 0
        || !json_is_array (jcs)) {
        snprintf (err, errlen, "committer state: pending[%zu]: %s", i, jerr.text);
        return -1;
    }
    zsink__manifest_committable__init (m);
    m->identifier = ident;
    m->committables = (Zsink__Committable **) s_repeated_from_json (
        jcs, sizeof (Zsink__Committable), s_committable_from_json, arena, &m->n_committables, err,
        errlen);
    return m->committables ? 0 : -1;
}

//  st's pending checkpoints and ended writers, in the arena.
static int
s_lists_from_json (json_t *pending, json_t *ended, Zsink__CommitterState *st, s_arena_t *arena,
                   char *err, size_t errlen)
{
    st->pending = (Zsink__ManifestCommittable **) s_repeated_from_json (
        pending, sizeof (Zsink__ManifestCommittable), s_manifest_from_json, arena, &st->n_pending,
        err, errlen);
    if (!st->pending)
        return -1;
    size_t ne = json_array_size (ended);
    int32_t *ew = s_alloc (arena, ne, sizeof *ew);
    for (size_t i = 0; i < ne; i++)
        ew[i] = (int32_t) json_integer_value (json_array_get (ended, i));
    st->n_ended_writers = ne;
    st->ended_writers = ew;
    return 0;
}

//  Build a protobuf CommitterState from JSON. The result is allocated the
//  way protobuf-c's unpack would (we pack a stack-built message and unpack
//  it), so one free function serves both.
static Zsink__CommitterState *
s_state_from_json (json_t *js, char *err, size_t errlen)
{
    const char *user = NULL;
    json_t *pending = NULL, *ended = NULL;
    json_error_t jerr;
    if (json_unpack_ex (js, &jerr, 0, "{s:s, s:o, s:o}", "commit_user", &user, "pending", &pending,
                        "ended_writers", &ended)
            < 0
        || !json_is_array (pending) || !json_is_array (ended)) {
        snprintf (err, errlen, "committer state: %s", jerr.text);
        return NULL;
    }
    //  the message is built on the stack and in the arena, whose every
    //  allocation is released once it is packed
    s_arena_t arena = {NULL, 0, 0};
    Zsink__CommitterState st;
    zsink__committer_state__init (&st);
    st.commit_user = (char *) user;
    Zsink__CommitterState *out = NULL;
    if (s_lists_from_json (pending, ended, &st, &arena, err, errlen) == 0) {
        out = zs_state_dup (&st);
        if (!out)
            snprintf (err, errlen, "committer state does not re-encode");
    }
    s_arena_free (&arena);
    return out;
}

Zsink__CommitterState *
zs_state_dup (const Zsink__CommitterState *state)
{
    return zs_pb_dup (&state->base);
}

void
zs_state_free (Zsink__CommitterState **state_p)
{
    if (state_p && *state_p) {
        zsink__committer_state__free_unpacked (*state_p, NULL);
        *state_p = NULL;
    }
}

void
zs_chk_clear (zs_chk_t *chk)
{
    for (int i = 0; chk->positions && i < chk->parallelism; i++)
        free (chk->positions[i].file);
    free (chk->positions);
    for (size_t i = 0; i < chk->n_splits; i++)
        zs_split_free (&chk->splits[i]);
    free (chk->splits);
    zs_state_free (&chk->state);
    memset (chk, 0, sizeof *chk);
}

//  A split as JSON: the fields its kind has.
static json_t *
s_split_to_json (const Zsink__Split *sp)
{
    json_t *j = json_pack ("{s:s, s:I, s:b, s:I}", "id", sp->id, "offset", (json_int_t) sp->offset,
                           "finished", sp->finished, "rows", (json_int_t) sp->rows);
    if (sp->has_line)
        json_object_set_new (j, "line", json_integer (sp->line));
    if (sp->has_skipped)
        json_object_set_new (j, "skipped", json_integer (sp->skipped));
    if (sp->has_index) {
        json_object_set_new (j, "index", json_integer (sp->index));
        json_object_set_new (j, "count", json_integer (sp->count));
    }
    if (sp->topic) {
        json_object_set_new (j, "topic", json_string (sp->topic));
        json_object_set_new (j, "partition", json_integer (sp->partition));
    }
    if (sp->has_stop)
        json_object_set_new (j, "stop", json_integer (sp->stop));
    return j;
}

//  A split from JSON (a malloc'd copy), or NULL when it is none.
static Zsink__Split *
s_split_from_json (json_t *j)
{
    Zsink__Split sp;
    zsink__split__init (&sp);
    const char *id = NULL, *topic = NULL;
    json_int_t offset = 0, rows = 0, line = -1, skipped = -1, index = -1, count = -1,
               partition = -1, stop = -2;
    int finished = 0;
    json_error_t jerr;
    if (json_unpack_ex (j, &jerr, 0, "{s:s, s:I, s:b, s:I, s?I, s?I, s?I, s?I, s?s, s?I, s?I}",
                        "id", &id, "offset", &offset, "finished", &finished, "rows", &rows, "line",
                        &line, "skipped", &skipped, "index", &index, "count", &count, "topic",
                        &topic, "partition", &partition, "stop", &stop)
        < 0)
        return NULL;
    sp.id = (char *) id;
    sp.has_offset = sp.has_finished = sp.has_rows = true;
    sp.offset = offset;
    sp.finished = finished;
    sp.rows = rows;
    sp.has_line = line >= 0, sp.line = line;
    sp.has_skipped = skipped >= 0, sp.skipped = skipped;
    sp.has_index = sp.has_count = index >= 0 || count >= 0;
    sp.index = (int32_t) index, sp.count = (int32_t) count;
    if (topic) {
        sp.topic = (char *) topic;
        sp.has_partition = true;
        sp.partition = (int32_t) partition;
    }
    sp.has_stop = stop != -2, sp.stop = stop;
    if (index > INT32_MAX || count > INT32_MAX || partition > INT32_MAX
        || !zs_codec_valid_split (&sp) || (topic && partition < 0))
        return NULL;
    return zs_split_dup (&sp);
}

int
zs_chk_write (const char *job_dir, const zs_chk_t *chk, int64_t *bytes_p, char *err, size_t errlen)
{
    json_t *writers = json_array ();
    for (int i = 0; i < chk->parallelism; i++) {
        const Zsink__SourcePosition *p = &chk->positions[i];
        json_t *w = json_pack ("{s:i, s:I, s:b}", "writer", p->writer, "offset",
                               (json_int_t) p->offset, "finished", p->finished);
        if (p->file && chk->legacy) {
            //  the file source: where in which file the next row starts
            json_object_set_new (w, "file", json_string (p->file));
            json_object_set_new (w, "file_offset", json_integer (p->file_offset));
            json_object_set_new (w, "line", json_integer (p->line));
            json_object_set_new (w, "skipped", json_integer (p->skipped));
        }
        json_array_append_new (writers, w);
    }
    json_t *root =
        json_pack ("{s:i, s:s, s:I, s:I, s:b, s:i, s:o, s:o}", "version", chk->legacy ? 1 : 2,
                   "job_id", chk->job_id, "checkpoint_id", (json_int_t) chk->id, "time_millis",
                   (json_int_t) chk->time_millis, "savepoint", chk->savepoint, "parallelism",
                   chk->parallelism, "writers", writers, "committer", s_state_to_json (chk->state));
    if (!chk->legacy) {
        json_t *splits = json_array ();
        for (size_t i = 0; i < chk->n_splits; i++)
            json_array_append_new (splits, s_split_to_json (chk->splits[i]));
        json_object_set_new (root, "splits", splits);
    }
    char *text = json_dumps (root, JSON_INDENT (1));
    json_decref (root);
    char path[ZS_PATH_MAX];
    snprintf (path, sizeof path, "%s/chk-%lld", job_dir, (long long) chk->id);
    size_t len = strlen (text);
    int rc = zs_io_write_atomic (path, text, len, err, errlen);
    free (text);
    if (bytes_p)
        *bytes_p = (int64_t) len;
    return rc;
}

//  A checkpoint's fields; *writers and *committer point into root. -1
//  (jerr's text may be empty: bad values) when it is no checkpoint.
static int
s_chk_header (json_t *root, zs_chk_t *chk, json_t **writers, json_t **committer, json_error_t *jerr)
{
    const char *job = NULL;
    json_int_t id = 0, time_millis = 0;
    int savepoint = 0, parallelism = 0;
    if (json_unpack_ex (root, jerr, 0, "{s:s, s:I, s:I, s:b, s:i, s:o, s:o}", "job_id", &job,
                        "checkpoint_id", &id, "time_millis", &time_millis, "savepoint", &savepoint,
                        "parallelism", &parallelism, "writers", writers, "committer", committer)
            < 0
        || id < 1 || parallelism < 1 || parallelism > 1024 || !json_is_array (*writers)
        || (int) json_array_size (*writers) != parallelism)
        return -1;
    s_copy (chk->job_id, sizeof chk->job_id, job);
    chk->id = id;
    chk->time_millis = time_millis;
    chk->savepoint = savepoint;
    chk->parallelism = parallelism;
    return 0;
}

//  Writer i's source position (p's file is malloc'd). -1 when it is none.
static int
s_position_from_json (json_t *jw, int i, Zsink__SourcePosition *p)
{
    json_int_t offset = 0, file_offset = 0, line = 0, skipped = 0;
    int writer = 0, finished = 0;
    const char *file = NULL;
    json_error_t jerr;
    zsink__source_position__init (p);
    if (json_unpack_ex (jw, &jerr, 0, "{s:i, s:I, s:b, s?s, s?I, s?I, s?I}", "writer", &writer,
                        "offset", &offset, "finished", &finished, "file", &file, "file_offset",
                        &file_offset, "line", &line, "skipped", &skipped)
            < 0
        || writer != i || offset < 0 || file_offset < 0 || line < 0 || skipped < 0
        || (file && strlen (file) >= 256))
        return -1;
    p->writer = writer;
    p->offset = offset;
    p->has_finished = true;
    p->finished = finished;
    if (file) {
        p->file = strdup (file);
        p->has_file_offset = p->has_line = p->has_skipped = true;
        p->file_offset = file_offset;
        p->line = line;
        p->skipped = skipped;
    }
    return 0;
}

static int
s_split_cmp (const void *a, const void *b)
{
    return strcmp ((*(Zsink__Split *const *) a)->id, (*(Zsink__Split *const *) b)->id);
}

//  Version 2's splits (absent: a version 1 checkpoint, legacy).
static int
s_chk_splits (zs_chk_t *chk, json_t *root, const char *path, char *err, size_t errlen)
{
    json_t *splits = json_object_get (root, "splits");
    chk->legacy = splits == NULL;
    if (!splits)
        return 0;
    size_t n = json_is_array (splits) ? json_array_size (splits) : 0;
    if (!json_is_array (splits) || n > 1000000) {
        snprintf (err, errlen, "%s: splits: not a list of splits", path);
        return ZS_ECORRUPT;
    }
    chk->splits = calloc (n ? n : 1, sizeof *chk->splits);
    if (!chk->splits) {
        snprintf (err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        chk->splits[i] = s_split_from_json (json_array_get (splits, i));
        if (!chk->splits[i]) {
            snprintf (err, errlen, "%s: split %zu: not a valid split", path, i);
            return ZS_ECORRUPT;
        }
        chk->n_splits++;
    }
    qsort (chk->splits, n, sizeof *chk->splits, s_split_cmp);
    for (size_t i = 1; i < n; i++)
        if (strcmp (chk->splits[i - 1]->id, chk->splits[i]->id) == 0) {
            snprintf (err, errlen, "%s: split %s is there twice", path, chk->splits[i]->id);
            return ZS_ECORRUPT;
        }
    return 0;
}

static int
s_chk_positions (zs_chk_t *chk, json_t *writers, const char *path, char *err, size_t errlen)
{
    chk->positions = calloc (chk->parallelism, sizeof *chk->positions);
    for (int i = 0; i < chk->parallelism; i++)
        if (s_position_from_json (json_array_get (writers, i), i, &chk->positions[i]) < 0) {
            snprintf (err, errlen, "%s: writer %d: bad source position", path, i);
            return ZS_ECORRUPT;
        }
    return 0;
}

static int
s_chk_state (zs_chk_t *chk, json_t *committer, const char *path, char *err, size_t errlen)
{
    char serr[ZS_ERRLEN];
    chk->state = s_state_from_json (committer, serr, sizeof serr);
    if (!chk->state) {
        snprintf (err, errlen, "%s: %s", path, serr);
        return ZS_ECORRUPT;
    }
    //  The committer would refuse a Reset carrying this state (the codec
    //  applies the same rules on the wire): say so here, naming the file,
    //  instead of failing restore after restore.
    if (!zs_codec_valid_state (chk->state)) {
        snprintf (err, errlen,
                  "%s: committer state is not valid (identifiers not ascending, a file path "
                  "outside the table, or a writer index out of range)",
                  path);
        return ZS_ECORRUPT;
    }
    return 0;
}

int
zs_chk_read (const char *path, zs_chk_t *chk, char *err, size_t errlen)
{
    memset (chk, 0, sizeof *chk);
    size_t len;
    char *text = zs_io_read_file (path, MAX_FILE_SIZE, &len, err, errlen);
    if (!text)
        return -1;
    json_error_t jerr;
    json_t *root = json_loads (text, 0, &jerr);
    free (text);
    json_t *writers = NULL, *committer = NULL;
    if (!root || s_chk_header (root, chk, &writers, &committer, &jerr) < 0) {
        snprintf (err, errlen, "%s: not a valid checkpoint: %s", path,
                  root ? (jerr.text[0] ? jerr.text : "bad values") : jerr.text);
        json_decref (root);
        return ZS_ECORRUPT;
    }
    int rc = s_chk_positions (chk, writers, path, err, errlen);
    if (rc == 0)
        rc = s_chk_splits (chk, root, path, err, errlen);
    if (rc == 0)
        rc = s_chk_state (chk, committer, path, err, errlen);
    json_decref (root);
    if (rc != 0)
        zs_chk_clear (chk);
    return rc;
}

//  The highest chk-N is the latest completed checkpoint: a chk file only
//  ever appears complete (written atomically) and only for a completed
//  checkpoint, so no "in progress" marker is needed.
int64_t
zs_chk_latest (const char *job_dir, char *err, size_t errlen)
{
    int64_t *ids;
    size_t n;
    int rc = zs_io_list_numbered (job_dir, "chk-", &ids, &n, err, errlen);
    int64_t latest = rc == ZS_ENOENT ? 0 : rc < 0 ? -1 : n ? ids[n - 1] : 0;
    free (ids);
    return latest;
}

//  Older checkpoints go only after a newer one is durable: the latest is
//  never among those deleted (retained >= 1, checked by the config).
void
zs_chk_prune (const char *job_dir, int retained)
{
    int64_t *ids;
    size_t n;
    char err[ZS_ERRLEN];
    if (zs_io_list_numbered (job_dir, "chk-", &ids, &n, err, sizeof err) != 0)
        return;
    for (size_t i = 0; i + (size_t) retained < n; i++) {
        char path[ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/chk-%lld", job_dir, (long long) ids[i]);
        zs_io_unlink (path);
    }
    free (ids);
}

int
zs_chk_clean_temp (const char *job_dir)
{
    zs_io_entry_t *e;
    size_t n;
    char err[ZS_ERRLEN];
    if (zs_io_listing (job_dir, &e, &n, err, sizeof err) != 0)
        return 0;
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strstr (e[i].name, ".tmp-"))
            continue;
        char path[2 * ZS_PATH_MAX];
        snprintf (path, sizeof path, "%s/%s", job_dir, e[i].name);
        if (zs_io_unlink (path) == 0)
            count++;
    }
    zs_io_listing_free (&e, n);
    return count;
}
