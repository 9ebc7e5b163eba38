/*  source_file.c - see source_file.h.

    Invariants the reader keeps (check the code against them):

    1. buf[start, len) are the bytes of the open file not yet consumed;
       buf[0] is at file offset buf_off. Between records the next record
       starts at file offset buf_off + start, and that is pos_offset.
    2. The position (cur, pos_offset, pos_line, skipped) moves only when a
       record is consumed whole (a row returned, a blank line, a skipped bad
       record, a CSV header) or when the reader moves to the next file. A
       record that fails with on-error fail is not consumed, and the bytes
       in the buffer are never written to (quoted CSV fields are unescaped
       into a scratch buffer), so calling _next again fails the same way.
    3. A record is found before it is parsed: the scan for its end (a
       newline; for CSV one outside quotes) resumes where the last read left
       off (scan, scan_state, scan_lines are relative to start), so a record
       straddling reads is scanned once and offsets stay exact.
    4. A CSV file's column mapping (col_of) is always that of the open
       file's header: the header is read when the file is opened, by _next
       moving on to it or by _seek, before any offset inside it is used.
*/
#include "source_file.h"
#include "config.h"
#include "log.h"
#include "record.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_CHUNK_DEFAULT (256 * 1024)

typedef enum { S_JSONL, S_CSV } s_format_t;

//  CSV scanner states (RFC 4180 with lenient recovery: a stray quote in an
//  unquoted field, or text after a closing quote, does not change where the
//  record ends; the field parser reports it).
enum { S_FIELD_START, S_UNQUOTED, S_QUOTED, S_QUOTE_SEEN };

typedef struct {
    char *name; //  relative to the input path
    char *path; //  as opened, and as errors name it
} s_file_t;

typedef struct {
    const uint8_t *ptr; //  content, without the line end (and BOM)
    size_t len;
    size_t raw;      //  bytes to consume
    int64_t lines;   //  lines it spans
    bool open_quote; //  CSV: the file ended inside a quoted field
} s_record_t;

struct _zs_source_file_t {
    zs_schema_t schema;
    s_format_t format;
    bool skip_errors;
    int index;
    int parallelism;
    char *root;
    s_file_t *all; //  every input file, sorted
    int nall;
    char other[256]; //  a non-input file of the directory (for the error when none matches)
    int *ours;       //  indexes into all of this writer's files
    int nours;

    //  The open file (fd >= 0) is ours[cur]
    int cur;
    int fd;
    uint8_t *buf;
    size_t cap;
    size_t len;
    size_t start;
    int64_t buf_off;
    bool eof;
    size_t chunk;
    size_t scan; //  bytes after start already scanned for the record's end
    int scan_state;
    int64_t scan_lines;

    //  CSV: header field → schema column or -1
    int *col_of;
    int ncol_of;
    int col_of_cap;

    zs_record_t *rec; //  the parser: the last row's values live in it

    int64_t pos_offset;
    int64_t pos_line;
    int64_t skipped;
    int64_t rows;
    bool done;
};

// --------------------------------------------------------------------------
//  Reading records

static void
s_reset_buffer (zs_source_file_t *self, int64_t offset)
{
    self->start = 0;
    self->len = 0;
    self->buf_off = offset;
    self->eof = false;
    self->scan = 0;
    self->scan_state = S_FIELD_START;
    self->scan_lines = 0;
}

static const char *
s_cur_path (zs_source_file_t *self)
{
    return self->all[self->ours[self->cur]].path;
}

//  Read more of the file behind the unread bytes. 0 (eof set at the end) or
//  -1 with err.
static int
s_fill (zs_source_file_t *self, char *err, size_t errlen)
{
    //  Keep only the record being scanned, at the front: the buffer grows
    //  only when that record alone fills it.
    if (self->start > 0) {
        memmove (self->buf, self->buf + self->start, self->len - self->start);
        self->buf_off += (int64_t) self->start;
        self->len -= self->start;
        self->start = 0;
    }
    if (self->len == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 64;
        uint8_t *buf = realloc (self->buf, cap);
        if (!buf) {
            snprintf (err, errlen, "%s: out of memory", s_cur_path (self));
            return -1;
        }
        self->buf = buf;
        self->cap = cap;
    }
    size_t want = self->cap - self->len;
    if (want > self->chunk)
        want = self->chunk;
    ssize_t n;
    do
        n = read (self->fd, self->buf + self->len, want);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        snprintf (err, errlen, "cannot read %s: %s", s_cur_path (self), strerror (errno));
        return -1;
    }
    if (n == 0)
        self->eof = true;
    self->len += (size_t) n;
    return 0;
}

//  One byte of CSV through the record scanner: quotes hide commas and
//  newlines. Returns the new state; *end when c ends the record.
static int
s_csv_step (int st, uint8_t c, bool *end, int64_t *lines)
{
    switch (st) {
    case S_FIELD_START:
    case S_UNQUOTED:
    case S_QUOTE_SEEN:
        if (c == '\n')
            *end = true;
        else if (c == ',')
            return S_FIELD_START;
        else if (c == '"' && (st == S_FIELD_START || st == S_QUOTE_SEEN))
            return S_QUOTED; //  an opening quote, or "" inside quotes
        else
            return S_UNQUOTED;
        return st;
    case S_QUOTED:
        if (c == '"')
            return S_QUOTE_SEEN;
        if (c == '\n')
            ++*lines;
        return st;
    }
    return st;
}

//  Scan on from where the last call stopped (self->scan) for the end of
//  the record at p: its length with the newline, or 0 when not in sight.
static size_t
s_scan_record (zs_source_file_t *self, const uint8_t *p, size_t avail)
{
    if (self->format == S_JSONL) {
        const uint8_t *nl = memchr (p + self->scan, '\n', avail - self->scan);
        if (nl)
            return (size_t) (nl - p) + 1;
        self->scan = avail;
        return 0;
    }
    int st = self->scan_state;
    size_t i = self->scan;
    bool end = false;
    while (i < avail && !end)
        st = s_csv_step (st, p[i++], &end, &self->scan_lines);
    self->scan = i;
    self->scan_state = st;
    return end ? i : 0;
}

//  The record at p, raw bytes long: without its line end, without a BOM
//  at the very start of the file.
static void
s_take_record (zs_source_file_t *self, const uint8_t *p, size_t raw, bool at_eof, s_record_t *rec)
{
    rec->raw = raw;
    rec->ptr = p;
    rec->len = raw;
    //  the record's own newline ends its last line; a final line without
    //  one is a line all the same
    rec->lines = self->format == S_CSV ? self->scan_lines + 1 : 1;
    rec->open_quote = at_eof && self->scan_state == S_QUOTED;
    if (rec->len > 0 && rec->ptr[rec->len - 1] == '\n')
        rec->len--;
    if (rec->len > 0 && rec->ptr[rec->len - 1] == '\r')
        rec->len--;
    if (self->buf_off + (int64_t) self->start == 0 && rec->len >= 3
        && memcmp (rec->ptr, "\xEF\xBB\xBF", 3) == 0) {
        rec->ptr += 3;
        rec->len -= 3;
    }
    self->scan = 0;
    self->scan_state = S_FIELD_START;
    self->scan_lines = 0;
}

//  Find the next record of the open file. 1 with rec filled, 0 at the end
//  of the file, -1 on an I/O error or an oversized record.
static int
s_read_record (zs_source_file_t *self, s_record_t *rec, char *err, size_t errlen)
{
    for (;;) {
        const uint8_t *p = self->buf + self->start;
        size_t avail = self->len - self->start;
        size_t end = s_scan_record (self, p, avail);
        bool at_eof = end == 0 && self->eof && avail > 0;
        if (end > 0 || at_eof) {
            s_take_record (self, p, end > 0 ? end : avail, at_eof, rec);
            return 1;
        }
        if (self->eof)
            return 0;
        if (avail >= ZS_SOURCE_FILE_MAX_RECORD) {
            snprintf (err, errlen, "%s:%" PRId64 ": record longer than %d bytes", s_cur_path (self),
                      self->pos_line + 1, ZS_SOURCE_FILE_MAX_RECORD);
            return -1;
        }
        if (s_fill (self, err, errlen) != 0)
            return -1;
    }
}

static void
s_consume (zs_source_file_t *self, const s_record_t *rec)
{
    self->start += rec->raw;
    self->pos_offset += (int64_t) rec->raw;
    self->pos_line += rec->lines;
    assert (self->pos_offset == self->buf_off + (int64_t) self->start); //  invariant 1
}

static bool
s_blank (const s_record_t *rec)
{
    for (size_t i = 0; i < rec->len; i++)
        if (rec->ptr[i] != ' ' && rec->ptr[i] != '\t' && rec->ptr[i] != '\r')
            return false;
    return true;
}

//  Split a CSV record into fields (zs_record_field). Number of fields, or
//  -1 with why.
static int
s_split (zs_source_file_t *self, const s_record_t *rec, char *why, size_t whylen)
{
    if (rec->open_quote) {
        snprintf (why, whylen, "quoted field not closed before the end of the file");
        return -1;
    }
    return zs_record_csv_split (self->rec, rec->ptr, rec->len, why, whylen);
}

//  The open CSV file's header: the column mapping. 0 or -1 with why.
static int
s_header (zs_source_file_t *self, const s_record_t *rec, char *why, size_t whylen)
{
    int nf = s_split (self, rec, why, whylen);
    if (nf < 0)
        return -1;
    if (nf > self->col_of_cap) {
        int *m = realloc (self->col_of, (size_t) nf * sizeof *m);
        if (!m) {
            snprintf (why, whylen, "out of memory");
            return -1;
        }
        self->col_of = m;
        self->col_of_cap = nf;
    }
    bool seen[ZS_MAX_COLUMNS] = {false};
    for (int k = 0; k < nf; k++) {
        const uint8_t *s = zs_record_field (self->rec, k)->ptr;
        size_t len = zs_record_field (self->rec, k)->len;
        while (len > 0 && (s[0] == ' ' || s[0] == '\t')) {
            s++;
            len--;
        }
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        self->col_of[k] = -1;
        for (int c = 0; c < self->schema.n; c++) {
            const char *name = self->schema.cols[c].name;
            if (strlen (name) == len && memcmp (name, s, len) == 0) {
                if (seen[c]) {
                    snprintf (why, whylen, "header: column '%s' appears twice", name);
                    return -1;
                }
                seen[c] = true;
                self->col_of[k] = c;
                break;
            }
        }
    }
    for (int c = 0; c < self->schema.n; c++)
        if (!seen[c] && !self->schema.cols[c].nullable) {
            snprintf (why, whylen, "header: no column '%s', which is NOT NULL",
                      self->schema.cols[c].name);
            return -1;
        }
    self->ncol_of = nf;
    return 0;
}

static void
s_close (zs_source_file_t *self)
{
    if (self->fd >= 0)
        close (self->fd);
    self->fd = -1;
}

//  Open ours[cur] at its start; for CSV read its header (blank lines before
//  it are skipped). The position is (cur, after the header). 0 or -1 + err.
static int
s_open (zs_source_file_t *self, char *err, size_t errlen)
{
    s_close (self);
    const char *path = s_cur_path (self);
    self->fd = open (path, O_RDONLY | O_CLOEXEC);
    if (self->fd < 0) {
        snprintf (err, errlen, "cannot open %s: %s", path, strerror (errno));
        return -1;
    }
    if (!self->buf) {
        self->cap = self->chunk < 64 ? 64 : self->chunk;
        self->buf = malloc (self->cap);
        if (!self->buf) {
            snprintf (err, errlen, "out of memory");
            s_close (self);
            return -1;
        }
    }
    s_reset_buffer (self, 0);
    self->pos_offset = 0;
    self->pos_line = 0;
    self->ncol_of = 0;
    if (self->format != S_CSV)
        return 0;
    for (;;) {
        s_record_t rec;
        int rc = s_read_record (self, &rec, err, errlen);
        if (rc < 0)
            break;
        if (rc == 0)
            return 0; //  an empty file: no header, no rows
        if (s_blank (&rec)) {
            s_consume (self, &rec);
            continue;
        }
        char why[ZS_ERRLEN];
        if (s_header (self, &rec, why, sizeof why) != 0) {
            snprintf (err, errlen, "%s:%" PRId64 ": %s", path, self->pos_line + 1, why);
            break;
        }
        s_consume (self, &rec);
        return 0;
    }
    //  the file cannot be read: start from its beginning next time
    s_close (self);
    self->pos_offset = 0;
    self->pos_line = 0;
    return -1;
}

//  A JSONL record into a row. 0, or -1 with why.
static int
s_parse_jsonl (zs_source_file_t *self, const s_record_t *rec, zs_value_t *row, char *why,
               size_t whylen)
{
    return zs_record_json (self->rec, rec->ptr, rec->len, row, why, whylen);
}

//  A CSV record into a row. 0, or -1 with why.
static int
s_parse_csv (zs_source_file_t *self, const s_record_t *rec, zs_value_t *row, char *why,
             size_t whylen)
{
    int nf = s_split (self, rec, why, whylen);
    if (nf < 0)
        return -1;
    if (nf != self->ncol_of) {
        snprintf (why, whylen, "%d fields, the header has %d", nf, self->ncol_of);
        return -1;
    }
    //  columns the header lacks are NULL (all nullable: s_header checked)
    return zs_record_csv_map (self->rec, self->col_of, nf, row, why, whylen);
}

// --------------------------------------------------------------------------
//  Listing

static int
s_cmp_file (const void *a, const void *b)
{
    return strcmp (((const s_file_t *) a)->name, ((const s_file_t *) b)->name);
}

static int
s_add_file (zs_source_file_t *self, int *cap, const char *name, const char *path)
{
    if (self->nall == *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        s_file_t *all = realloc (self->all, (size_t) ncap * sizeof *all);
        if (!all)
            return -1;
        self->all = all;
        *cap = ncap;
    }
    s_file_t *f = &self->all[self->nall];
    f->name = strdup (name);
    f->path = strdup (path);
    if (!f->name || !f->path) {
        free (f->name);
        free (f->path);
        return -1;
    }
    self->nall++;
    return 0;
}

static int
s_list (zs_source_file_t *self, char *err, size_t errlen)
{
    const char *root = self->root;
    struct stat st;
    if (stat (root, &st) != 0) {
        snprintf (err, errlen, "cannot read input path '%s': %s", root, strerror (errno));
        return -1;
    }
    int cap = 0;
    if (S_ISREG (st.st_mode)) {
        const char *slash = strrchr (root, '/');
        if (s_add_file (self, &cap, slash ? slash + 1 : root, root) != 0)
            goto oom;
        return 0;
    }
    if (!S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "input path '%s' is not a file or a directory", root);
        return -1;
    }
    DIR *dir = opendir (root);
    if (!dir) {
        snprintf (err, errlen, "cannot list input directory '%s': %s", root, strerror (errno));
        return -1;
    }
    size_t rlen = strlen (root);
    const char *sep = rlen > 0 && root[rlen - 1] == '/' ? "" : "/";
    struct dirent *de;
    while ((de = readdir (dir))) {
        const char *name = de->d_name;
        if (name[0] == '.')
            continue;
        if (!zs_config_input_name_matches (name, self->format == S_CSV ? "csv" : "jsonl")) {
            if (!self->other[0]) //  named if nothing matches
                snprintf (self->other, sizeof self->other, "%s", name);
            continue;
        }
        char *path;
        if (asprintf (&path, "%s%s%s", root, sep, name) < 0) {
            closedir (dir);
            goto oom;
        }
        //  stat, not d_type: symlinks to regular files count
        int rc = 0;
        if (stat (path, &st) == 0 && S_ISREG (st.st_mode))
            rc = s_add_file (self, &cap, name, path);
        free (path);
        if (rc != 0) {
            closedir (dir);
            goto oom;
        }
    }
    closedir (dir);
    if (self->nall > 1)
        qsort (self->all, (size_t) self->nall, sizeof *self->all, s_cmp_file);
    return 0;
oom:
    snprintf (err, errlen, "out of memory");
    return -1;
}

// --------------------------------------------------------------------------
//  Public API

//  A source with no file listed yet. NULL with err.
static zs_source_file_t *
s_create (const zs_schema_t *schema, const char *path, const char *format, bool skip_errors,
          int index, int parallelism, char *err, size_t errlen)
{
    if (!schema || !path || !format || schema->n < 0 || schema->n > ZS_MAX_COLUMNS) {
        snprintf (err, errlen, "file source: missing schema, path or format");
        return NULL;
    }
    s_format_t fmt;
    if (strcmp (format, "jsonl") == 0)
        fmt = S_JSONL;
    else if (strcmp (format, "csv") == 0)
        fmt = S_CSV;
    else {
        snprintf (err, errlen, "file source: unknown format '%s' (jsonl or csv)", format);
        return NULL;
    }
    if (parallelism < 1 || index < 0 || index >= parallelism) {
        snprintf (err, errlen, "file source: writer %d of %d", index, parallelism);
        return NULL;
    }
    zs_source_file_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "out of memory");
        return NULL;
    }
    self->schema = *schema;
    self->format = fmt;
    self->skip_errors = skip_errors;
    self->index = index;
    self->parallelism = parallelism;
    self->fd = -1;
    self->chunk = S_CHUNK_DEFAULT;
    self->root = strdup (path);
    self->rec = zs_record_new (schema);
    if (!self->root || !self->rec) {
        snprintf (err, errlen, "out of memory");
        zs_source_file_destroy (&self);
    }
    return self;
}

//  Make every listed file k with k % parallelism == index ours. 0 or -1.
static int
s_take_share (zs_source_file_t *self, char *err, size_t errlen)
{
    self->ours = malloc ((size_t) (self->nall > 0 ? self->nall : 1) * sizeof *self->ours);
    if (!self->ours) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    for (int k = self->index; k < self->nall; k += self->parallelism)
        self->ours[self->nours++] = k;
    return 0;
}

zs_source_file_t *
zs_source_file_new (const zs_schema_t *schema, const char *path, const char *format,
                    bool skip_errors, bool allow_empty, int index, int parallelism, char *err,
                    size_t errlen)
{
    zs_source_file_t *self =
        s_create (schema, path, format, skip_errors, index, parallelism, err, errlen);
    if (!self)
        return NULL;
    const s_format_t fmt = self->format;
    if (s_list (self, err, errlen) != 0)
        goto fail;
    if (self->nall == 0 && !allow_empty) {
        //  certainly not what was meant: a job that reads nothing and ends
        snprintf (err, errlen,
                  "input directory '%s' holds no %s file%s%s%s (set source.file.allow-empty: true "
                  "to run on an empty input)",
                  path, fmt == S_CSV ? ".csv" : ".jsonl or .json",
                  self->other[0] ? "; it holds '" : "", self->other,
                  self->other[0] ? "': is source.file.format right?" : "");
        goto fail;
    }
    if (s_take_share (self, err, errlen) != 0)
        goto fail;
    return self;
fail:
    zs_source_file_destroy (&self);
    return NULL;
}

zs_source_file_t *
zs_source_file_new_one (const zs_schema_t *schema, const char *path, const char *name,
                        const char *format, bool skip_errors, char *err, size_t errlen)
{
    if (!name || !*name || strchr (name, '/') || strcmp (name, "..") == 0
        || strcmp (name, ".") == 0) {
        snprintf (err, errlen, "file source: '%s' is not the name of an input file",
                  name ? name : "");
        return NULL;
    }
    zs_source_file_t *self = s_create (schema, path, format, skip_errors, 0, 1, err, errlen);
    if (!self)
        return NULL;
    struct stat st;
    int cap = 0;
    char *file = NULL;
    if (stat (path, &st) != 0) {
        snprintf (err, errlen, "cannot read input path '%s': %s", path, strerror (errno));
        goto fail;
    }
    const char *base = strrchr (path, '/') ? strrchr (path, '/') + 1 : path;
    if (S_ISREG (st.st_mode) && strcmp (base, name) != 0) {
        snprintf (err, errlen, "input path '%s' is a file, not '%s'", path, name);
        goto fail;
    }
    if (S_ISREG (st.st_mode))
        file = strdup (path);
    else if (S_ISDIR (st.st_mode) && asprintf (&file, "%s/%s", path, name) < 0)
        file = NULL;
    else if (!S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "input path '%s' is not a file or a directory", path);
        goto fail;
    }
    if (!file || s_add_file (self, &cap, name, file) != 0 || s_take_share (self, err, errlen)) {
        snprintf (err, errlen, "out of memory");
        goto fail;
    }
    if (stat (file, &st) != 0 || !S_ISREG (st.st_mode)) {
        snprintf (err, errlen, "input file %s is gone (the input changed since the checkpoint?)",
                  file);
        goto fail;
    }
    free (file);
    return self;
fail:
    free (file);
    zs_source_file_destroy (&self);
    return NULL;
}

//  Back to the start of the first file of ours, as after _new.
static void
s_rewind (zs_source_file_t *self)
{
    zs_record_clear (self->rec);
    s_close (self);
    self->done = false;
    self->rows = 0;
    self->skipped = 0;
    self->cur = 0;
    self->pos_offset = 0;
    self->pos_line = 0;
}

int
zs_source_file_seek (zs_source_file_t *self, const char *file, int64_t offset, int64_t line,
                     int64_t skipped, char *err, size_t errlen)
{
    if (!file)
        file = "";
    s_rewind (self);
    if (offset < 0 || line < 0 || skipped < 0) {
        snprintf (err, errlen, "file source: bad position %s@%" PRId64, file, offset);
        return -1;
    }
    if (self->nours == 0 && file[0] == '\0' && offset == 0) {
        self->skipped = skipped;
        return 0;
    }
    int k = -1;
    if (file[0] == '\0' && self->nours > 0)
        k = 0;
    for (int i = 0; k < 0 && i < self->nours; i++)
        if (strcmp (self->all[self->ours[i]].name, file) == 0)
            k = i;
    if (k < 0) {
        for (int i = 0; i < self->nall; i++)
            if (strcmp (self->all[i].name, file) == 0) {
                snprintf (err, errlen,
                          "input file '%s' belongs to writer %d, not %d (parallelism changed?)",
                          file, i % self->parallelism, self->index);
                return -1;
            }
        snprintf (err, errlen,
                  "no input file '%s' in %s to resume from (the input changed since the "
                  "checkpoint?)",
                  file, self->root);
        return -1;
    }
    //  Open now rather than on the first _next: the restore fails at once,
    //  naming what changed, and the CSV header is read before the offset
    //  is used (invariant 4).
    self->cur = k;
    if (s_open (self, err, errlen) != 0)
        goto fail;
    const char *path = s_cur_path (self);
    struct stat st;
    if (fstat (self->fd, &st) != 0) {
        snprintf (err, errlen, "cannot stat %s: %s", path, strerror (errno));
        goto fail;
    }
    if (offset > (int64_t) st.st_size) {
        snprintf (err, errlen,
                  "%s: resume offset %" PRId64 " is past its end (%" PRId64
                  " bytes; the file changed?)",
                  path, offset, (int64_t) st.st_size);
        goto fail;
    }
    if (offset == 0 || offset == self->pos_offset) {
        //  at the start, or just after the header just read: our line count
        self->skipped = skipped;
        return 0;
    }
    if (offset < self->pos_offset) {
        snprintf (err, errlen, "%s: resume offset %" PRId64 " is inside the header", path, offset);
        goto fail;
    }
    if (offset < (int64_t) st.st_size) {
        //  a record starts after a newline (the end of the file needs none)
        char c;
        ssize_t n;
        do
            n = pread (self->fd, &c, 1, offset - 1);
        while (n < 0 && errno == EINTR);
        if (n != 1) {
            snprintf (err, errlen, "cannot read %s: %s", path, n < 0 ? strerror (errno) : "short");
            goto fail;
        }
        if (c != '\n') {
            snprintf (err, errlen,
                      "%s: resume offset %" PRId64 " is not at the start of a line (the file "
                      "changed?)",
                      path, offset);
            goto fail;
        }
    }
    if (lseek (self->fd, offset, SEEK_SET) != offset) {
        snprintf (err, errlen, "cannot seek in %s: %s", path, strerror (errno));
        goto fail;
    }
    s_reset_buffer (self, offset);
    self->pos_offset = offset;
    self->pos_line = line;
    self->skipped = skipped;
    return 0;
fail:
    s_rewind (self);
    return -1;
}

int
zs_source_file_next (zs_source_file_t *self, zs_value_t *row, char *err, size_t errlen)
{
    zs_record_clear (self->rec);
    for (;;) {
        if (self->done)
            return 0;
        if (self->nours == 0) {
            self->done = true;
            return 0;
        }
        //  no file open: the first read, after a file ended, or after a
        //  header error (which then fails again, from the file's start)
        if (self->fd < 0 && s_open (self, err, errlen) != 0)
            return -1;
        s_record_t rec;
        int rc = s_read_record (self, &rec, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            //  a file ends where its last record ends: trailing blank lines
            //  are consumed, so its final position is its size
            s_close (self);
            if (self->cur + 1 < self->nours) {
                //  the position moves to the start of the next file
                self->cur++;
                self->pos_offset = 0;
                self->pos_line = 0;
                continue;
            }
            //  the last file's name and size stay as the final position
            self->done = true;
            return 0;
        }
        if (s_blank (&rec)) {
            s_consume (self, &rec);
            continue;
        }
        //  Parse before consuming: with on-error fail the bad record stays
        //  unread and the position is at its start (invariant 2).
        char why[ZS_ERRLEN];
        rc = self->format == S_JSONL ? s_parse_jsonl (self, &rec, row, why, sizeof why)
                                     : s_parse_csv (self, &rec, row, why, sizeof why);
        if (rc == 0) {
            s_consume (self, &rec);
            self->rows++;
            return 1;
        }
        if (!self->skip_errors) {
            snprintf (err, errlen, "%s:%" PRId64 ": %s", s_cur_path (self), self->pos_line + 1,
                      why);
            return -1;
        }
        if (self->skipped < ZS_SOURCE_FILE_SKIP_LOG)
            zs_warn ("Skipped bad record %s:%" PRId64 ": %s%s", s_cur_path (self),
                     self->pos_line + 1, why,
                     self->skipped + 1 == ZS_SOURCE_FILE_SKIP_LOG
                         ? " (further bad records are only counted)"
                         : "");
        self->skipped++;
        s_consume (self, &rec);
    }
}

const char *
zs_source_file_pos_file (zs_source_file_t *self)
{
    return self->nours > 0 ? self->all[self->ours[self->cur]].name : "";
}

int64_t
zs_source_file_pos_offset (zs_source_file_t *self)
{
    return self->pos_offset;
}

int64_t
zs_source_file_pos_line (zs_source_file_t *self)
{
    return self->pos_line;
}

int64_t
zs_source_file_skipped (zs_source_file_t *self)
{
    return self->skipped;
}

bool
zs_source_file_done (zs_source_file_t *self)
{
    return self->done;
}

int64_t
zs_source_file_rows (zs_source_file_t *self)
{
    return self->rows;
}

int
zs_source_file_count (zs_source_file_t *self)
{
    return self->nours;
}

const char *
zs_source_file_name (zs_source_file_t *self, int k)
{
    return k >= 0 && k < self->nours ? self->all[self->ours[k]].name : NULL;
}

void
zs_source_file_set_chunk (zs_source_file_t *self, size_t chunk)
{
    self->chunk = chunk > 0 ? chunk : 1;
}

void
zs_source_file_destroy (zs_source_file_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_source_file_t *self = *self_p;
    s_close (self);
    zs_record_destroy (&self->rec);
    for (int i = 0; i < self->nall; i++) {
        free (self->all[i].name);
        free (self->all[i].path);
    }
    free (self->all);
    free (self->ours);
    free (self->root);
    free (self->buf);
    free (self->col_of);
    free (self);
    *self_p = NULL;
}
