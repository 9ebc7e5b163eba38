/*  source.c - see source.h.

    Invariants:
    1. A split's state is exact after every row returned: datagen's offset
       is counted per row; the open file split's state is read from its
       zs_source_file_t when asked (_splits), and no row is read between
       that and the ack that carries it (writer.c, invariant 3).
    2. Splits are held in id order, so a restore reads them in the same
       order whatever order the coordinator sent them in.
    3. At most one file is open: a file split is opened when its turn
       comes and closed when it is finished.
*/
#include "source.h"
#include "datagen.h"
#include "log.h"
#include "source_file.h"
#include "source_kafka.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { S_DATAGEN, S_FILE, S_KAFKA } s_kind_t;

typedef struct {
    Zsink__Split st;        //  its state; st.id (and st.topic) malloc'd
    zs_datagen_t gen;       //  datagen: ids and offset
    zs_source_file_t *file; //  file: open while it is read
    int64_t rows_base;      //  file: st.rows when the file was opened
} s_split_t;

struct _zs_source_t {
    const zs_config_t *cfg;
    s_kind_t kind;
    int index, parallelism;
    s_split_t *splits;
    size_t n, cap;
    size_t cur;          //  datagen: next in the round; file: the one being read
    Zsink__Split **view; //  _splits' answer
    zs_datagen_buf_t genbuf;
    zs_source_kafka_t *kafka; //  S_KAFKA: the reader holds the splits itself
};

static void
s_split_clear (s_split_t *sp)
{
    zs_source_file_destroy (&sp->file);
    free (sp->st.id);
    free (sp->st.topic);
    memset (sp, 0, sizeof *sp);
}

static void
s_clear (zs_source_t *self)
{
    for (size_t i = 0; i < self->n; i++)
        s_split_clear (&self->splits[i]);
    self->n = 0;
    self->cur = 0;
}

zs_source_t *
zs_source_new (const zs_config_t *cfg, int index, int parallelism, char *err, size_t errlen)
{
    s_kind_t kind;
    if (strcmp (cfg->source_kind, "datagen") == 0)
        kind = S_DATAGEN;
    else if (strcmp (cfg->source_kind, "file") == 0)
        kind = S_FILE;
    else if (strcmp (cfg->source_kind, "kafka") == 0)
        kind = S_KAFKA;
    else {
        snprintf (err, errlen, "source.kind '%s' is not supported by this writer",
                  cfg->source_kind);
        return NULL;
    }
    zs_source_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    self->cfg = cfg;
    self->kind = kind;
    self->index = index;
    self->parallelism = parallelism;
    if (kind == S_KAFKA && !(self->kafka = zs_source_kafka_new (cfg, index, err, errlen)))
        zs_source_destroy (&self);
    return self;
}

void
zs_source_destroy (zs_source_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_source_t *self = *self_p;
    s_clear (self);
    zs_source_kafka_destroy (&self->kafka);
    free (self->splits);
    free (self->view);
    free (self);
    *self_p = NULL;
}

//  ---------------------------------------------------------------------
//  Taking splits

static int
s_cmp_split (const void *a, const void *b)
{
    return strcmp (((const s_split_t *) a)->st.id, ((const s_split_t *) b)->st.id);
}

static s_split_t *
s_find (zs_source_t *self, const char *id)
{
    for (size_t i = 0; i < self->n; i++)
        if (strcmp (self->splits[i].st.id, id) == 0)
            return &self->splits[i];
    return NULL;
}

//  Is this split one of our kind, well formed? NULL or why not.
static const char *
s_check (const zs_source_t *self, const Zsink__Split *in)
{
    if (self->kind == S_DATAGEN) {
        if (strncmp (in->id, "datagen:", 8) != 0 || !in->has_index || !in->has_count
            || in->count < 1 || in->index < 0 || in->index >= in->count || in->offset < 0)
            return "not a datagen split";
    } else if (strncmp (in->id, "file:", 5) != 0 || !in->id[5] || in->offset < 0)
        return "not a file split";
    return NULL;
}

//  Append a copy of in (its state as given). 0 or -1 with err.
static int
s_append (zs_source_t *self, const Zsink__Split *in, char *err, size_t errlen)
{
    const char *why = s_check (self, in);
    if (why) {
        snprintf (err, errlen, "split '%s': %s (source.kind is %s)", in->id, why,
                  self->cfg->source_kind);
        return -1;
    }
    if (self->n == self->cap) {
        size_t ncap = self->cap ? self->cap * 2 : 8;
        s_split_t *splits = realloc (self->splits, ncap * sizeof *splits);
        Zsink__Split **view = realloc (self->view, ncap * sizeof *view);
        if (splits)
            self->splits = splits;
        if (view)
            self->view = view;
        if (!splits || !view) {
            snprintf (err, errlen, "out of memory");
            return -1;
        }
        self->cap = ncap;
    }
    s_split_t *sp = &self->splits[self->n];
    memset (sp, 0, sizeof *sp);
    zsink__split__init (&sp->st);
    sp->st.id = strdup (in->id);
    if (!sp->st.id) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    sp->st.has_offset = sp->st.has_finished = sp->st.has_rows = true;
    sp->st.offset = in->offset;
    sp->st.finished = in->has_finished && in->finished;
    sp->st.rows = in->has_rows ? in->rows : 0;
    if (self->kind == S_DATAGEN) {
        sp->st.has_index = sp->st.has_count = true;
        sp->st.index = in->index;
        sp->st.count = in->count;
        zs_datagen_init (&sp->gen, in->index, in->count, self->cfg->datagen_number_of_rows, 0);
        sp->gen.offset = in->offset;
        sp->st.finished = zs_datagen_exhausted (&sp->gen);
    } else {
        sp->st.has_line = sp->st.has_skipped = true;
        sp->st.line = in->has_line ? in->line : 0;
        sp->st.skipped = in->has_skipped ? in->skipped : 0;
    }
    self->n++;
    return 0;
}

//  A datagen split i of count at offset.
static int
s_append_datagen (zs_source_t *self, int i, int count, int64_t offset, char *err, size_t errlen)
{
    char id[64];
    snprintf (id, sizeof id, "datagen:%d/%d", i, count);
    Zsink__Split in;
    zsink__split__init (&in);
    in.id = id;
    in.has_index = in.has_count = in.has_offset = in.has_rows = true;
    in.index = i;
    in.count = count;
    in.offset = in.rows = offset;
    return s_append (self, &in, err, errlen);
}

//  A file split of name at (offset, line, skipped), finished or not.
static int
s_append_file (zs_source_t *self, const char *name, const Zsink__SourcePosition *at, bool finished,
               char *err, size_t errlen)
{
    char id[300];
    if (snprintf (id, sizeof id, "file:%s", name) >= (int) sizeof id) {
        snprintf (err, errlen, "input file name too long: %s", name);
        return -1;
    }
    Zsink__Split in;
    zsink__split__init (&in);
    in.id = id;
    in.has_finished = true;
    in.finished = finished;
    if (at) {
        in.offset = at->file_offset;
        in.line = at->line;
        in.skipped = at->skipped;
        in.has_line = in.has_skipped = true;
    }
    return s_append (self, &in, err, errlen);
}

//  This writer's files at a start from scratch, or at a legacy position:
//  files before its file are finished, its file is at its offset.
static int
s_file_share (zs_source_t *self, const Zsink__SourcePosition *legacy, char *err, size_t errlen)
{
    const zs_config_t *cfg = self->cfg;
    char why[ZS_ERRLEN];
    zs_source_file_t *list = zs_source_file_new (
        &cfg->source_schema, cfg->source_file_path, cfg->source_file_format,
        strcmp (cfg->source_file_on_error, "skip") == 0, cfg->source_file_allow_empty, self->index,
        self->parallelism, why, sizeof why);
    if (!list) {
        snprintf (err, errlen, "%s", why);
        return ZS_EREFUSED;
    }
    const char *at = legacy && legacy->file && legacy->file[0] ? legacy->file : NULL;
    bool seen = at == NULL;
    int rc = 0;
    for (int k = 0; rc == 0 && k < zs_source_file_count (list); k++) {
        const char *name = zs_source_file_name (list, k);
        bool here = at && strcmp (name, at) == 0;
        if (here)
            seen = true;
        if (here)
            rc = s_append_file (self, name, legacy, legacy->has_finished && legacy->finished, err,
                                errlen);
        else
            rc = s_append_file (self, name, NULL, !seen, err, errlen);
    }
    zs_source_file_destroy (&list);
    if (rc == 0 && !seen) {
        snprintf (err, errlen,
                  "no input file '%s' of writer %d in %s to resume from (the input or the "
                  "parallelism changed since the checkpoint?)",
                  at, self->index, cfg->source_file_path);
        return -1;
    }
    return rc;
}

int
zs_source_reset (zs_source_t *self, Zsink__Split *const *splits, size_t n, bool assigned,
                 const Zsink__SourcePosition *legacy, char *err, size_t errlen)
{
    s_clear (self);
    if (self->kafka) //  the coordinator deals every Kafka split
        return zs_source_kafka_assign (self->kafka, splits, assigned ? n : 0, err, errlen);
    int rc = 0;
    if (assigned)
        rc = zs_source_add (self, splits, n, err, errlen);
    else if (self->kind == S_DATAGEN)
        rc = s_append_datagen (self, self->index, self->parallelism, legacy ? legacy->offset : 0,
                               err, errlen);
    else
        rc = s_file_share (self, legacy, err, errlen);
    if (rc != 0)
        s_clear (self);
    return rc;
}

int
zs_source_add (zs_source_t *self, Zsink__Split *const *splits, size_t n, char *err, size_t errlen)
{
    if (self->kafka)
        return zs_source_kafka_add (self->kafka, splits, n, err, errlen);
    for (size_t i = 0; i < n; i++)
        if (!s_find (self, splits[i]->id) && s_append (self, splits[i], err, errlen) != 0)
            return -1;
    //  invariant 2 (nothing is open while splits are added: file splits
    //  only come with a Reset, which closed everything)
    if (self->n > 1)
        qsort (self->splits, self->n, sizeof *self->splits, s_cmp_split);
    return 0;
}

//  ---------------------------------------------------------------------
//  Reading

static int
s_next_datagen (zs_source_t *self, zs_value_t *row, int64_t *id)
{
    //  Round robin from cur, without a division a row (% took two)
    size_t i = self->cur < self->n ? self->cur : 0;
    for (size_t k = 0; k < self->n; k++, i = i + 1 == self->n ? 0 : i + 1) {
        s_split_t *sp = &self->splits[i];
        if (sp->st.finished)
            continue;
        self->cur = i + 1 == self->n ? 0 : i + 1;
        *id = zs_datagen_next_id (&sp->gen);
        zs_datagen_row (&self->cfg->source_schema, *id, row, &self->genbuf);
        sp->gen.offset++;
        sp->st.offset = sp->gen.offset;
        sp->st.rows++;
        sp->st.finished = zs_datagen_exhausted (&sp->gen);
        return 1;
    }
    //  an unbounded datagen split never finishes: here all are finished
    //  (or none is held, where only a bounded source ends)
    return self->cfg->datagen_number_of_rows >= 0 ? ZS_SOURCE_END : 0;
}

//  The open file's position into its split's state (invariant 1).
static void
s_file_sync (s_split_t *sp)
{
    if (!sp->file)
        return;
    sp->st.offset = zs_source_file_pos_offset (sp->file);
    sp->st.line = zs_source_file_pos_line (sp->file);
    sp->st.skipped = zs_source_file_skipped (sp->file);
    sp->st.rows = sp->rows_base + zs_source_file_rows (sp->file);
}

static int
s_file_open (zs_source_t *self, s_split_t *sp, char *err, size_t errlen)
{
    const zs_config_t *cfg = self->cfg;
    const char *name = sp->st.id + 5;
    sp->file = zs_source_file_new_one (
        &cfg->source_schema, cfg->source_file_path, name, cfg->source_file_format,
        strcmp (cfg->source_file_on_error, "skip") == 0, err, errlen);
    if (!sp->file)
        return -1;
    if (zs_source_file_seek (sp->file, name, sp->st.offset, sp->st.line, sp->st.skipped, err,
                             errlen)
        != 0) {
        zs_source_file_destroy (&sp->file);
        return -1;
    }
    sp->rows_base = sp->st.rows;
    return 0;
}

static int
s_next_file (zs_source_t *self, zs_value_t *row, char *err, size_t errlen)
{
    while (self->cur < self->n) {
        s_split_t *sp = &self->splits[self->cur];
        if (sp->st.finished) {
            self->cur++;
            continue;
        }
        if (!sp->file && s_file_open (self, sp, err, errlen) != 0)
            return -1;
        int got = zs_source_file_next (sp->file, row, err, errlen);
        if (got < 0)
            return -1;
        if (got > 0)
            return 1; //  its state is read when asked (invariant 1)
        s_file_sync (sp);
        sp->st.finished = true;
        zs_source_file_destroy (&sp->file); //  invariant 3
        self->cur++;
    }
    return ZS_SOURCE_END;
}

int
zs_source_next (zs_source_t *self, zs_value_t *row, int64_t *id, char *err, size_t errlen)
{
    *id = 0;
    if (self->kafka) {
        int got = zs_source_kafka_next (self->kafka, row, err, errlen);
        return got == ZS_EOF ? ZS_SOURCE_END : got;
    }
    return self->kind == S_DATAGEN ? s_next_datagen (self, row, id)
                                   : s_next_file (self, row, err, errlen);
}

//  ---------------------------------------------------------------------
//  State

size_t
zs_source_splits (zs_source_t *self, Zsink__Split ***out)
{
    if (self->kafka)
        return zs_source_kafka_splits (self->kafka, out);
    for (size_t i = 0; i < self->n; i++) {
        s_file_sync (&self->splits[i]);
        self->view[i] = &self->splits[i].st;
    }
    *out = self->view;
    return self->n;
}

int64_t
zs_source_rows (zs_source_t *self)
{
    if (self->kafka) {
        Zsink__Split **splits;
        size_t n = zs_source_kafka_splits (self->kafka, &splits);
        int64_t rows = 0;
        for (size_t i = 0; i < n; i++)
            rows += splits[i]->rows;
        return rows;
    }
    int64_t rows = 0;
    for (size_t i = 0; i < self->n; i++) {
        s_file_sync (&self->splits[i]);
        rows += self->splits[i].st.rows;
    }
    return rows;
}

int64_t
zs_source_skipped (zs_source_t *self)
{
    if (self->kafka)
        return zs_source_kafka_skipped (self->kafka);
    int64_t skipped = 0;
    for (size_t i = 0; i < self->n; i++) {
        s_file_sync (&self->splits[i]);
        skipped += self->splits[i].st.skipped;
    }
    return skipped;
}

int64_t
zs_source_rate (zs_source_t *self)
{
    if (self->kind != S_DATAGEN) //  this writer's share of the job's rate
        return zs_datagen_share (self->kind == S_FILE ? self->cfg->source_file_rows_per_second
                                                      : self->cfg->kafka_rows_per_second,
                                 self->parallelism, self->index);
    int64_t rate = 0;
    for (size_t i = 0; i < self->n; i++) {
        int64_t share = zs_datagen_share (self->cfg->datagen_rows_per_second,
                                          self->splits[i].st.count, self->splits[i].st.index);
        //  a split's share of a rate below its count may be 0: it still
        //  moves, as in datagen.h
        rate += share ? share : 1;
    }
    return self->cfg->datagen_rows_per_second ? rate : 0;
}

size_t
zs_source_count (zs_source_t *self, size_t *finished)
{
    if (self->kafka) {
        Zsink__Split **splits;
        size_t n = zs_source_kafka_splits (self->kafka, &splits), done = 0;
        for (size_t i = 0; i < n; i++)
            done += splits[i]->finished;
        if (finished)
            *finished = done;
        return n;
    }
    size_t done = 0;
    for (size_t i = 0; i < self->n; i++)
        done += self->splits[i].st.finished;
    if (finished)
        *finished = done;
    return self->n;
}
