/*  datafile.c - the "zrow" data file format.

    A zrow file is text, one line each:

        #zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)
        <id>\t<name>\t<price>\t<ts millis>          one line per row
        #end rows=<N>

    - The header names the schema, so a file is readable without the table.
    - price is printed with %.17g, which round-trips every double exactly.
    - name escapes backslash, tab, newline and CR as \\ \t \n \r, so a row
      is always exactly one line with exactly four fields.
    - The trailer is written last: a file cut short anywhere (crash before
      close, torn copy) has no valid trailer and reads as corrupt, never as
      a shorter valid file.
*/
#include "datafile.h"
#include "fs.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_HEADER "#zrow v1 id:BIGINT,name:STRING,price:DOUBLE,ts:TIMESTAMP(3)"
#define S_TRAILER "#end rows="

const char *
zs_datafile_extension (void)
{
    return "zrow";
}

void
zs_row_from_id (zs_row_t *row, int64_t id)
{
    row->id = id;
    snprintf (row->name, sizeof row->name, "name-%" PRId64, id);
    row->price = (double) (id % 100000) / 100.0;
    row->ts_millis = INT64_C (1700000000000) + id * 1000;
}

//  --------------------------------------------------------------------------
//  Writer

struct _zs_datafile_writer_t {
    zs_fs_file_t *file;
    int64_t rows;
    int64_t min_id;
    int64_t max_id;
    char rel_path[256];
};

zs_datafile_writer_t *
zs_datafile_writer_new (const char *table_path, const char *rel_path, char *err, size_t errlen)
{
    char path[ZS_PATH_MAX];
    if (snprintf (path, sizeof path, "%s/%s", table_path, rel_path) >= (int) sizeof path
        || strlen (rel_path) >= sizeof ((zs_file_meta_t *) 0)->path) {
        snprintf (err, errlen, "%s/%s: path too long", table_path, rel_path);
        return NULL;
    }
    zs_datafile_writer_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf (self->rel_path, sizeof self->rel_path, "%s", rel_path);
    self->file = zs_fs_file_create (path, err, errlen);
    if (!self->file) {
        free (self);
        return NULL;
    }
    if (zs_fs_file_write (self->file, S_HEADER "\n", sizeof S_HEADER, err, errlen) != 0) {
        zs_fs_file_abort (&self->file);
        free (self);
        return NULL;
    }
    return self;
}

//  Decimal digits of v at the end of a buffer; returns the start. snprintf
//  is the slow part of a text format, and ids/timestamps are most of it.
static char *
s_fmt_i64 (char *end, int64_t v)
{
    uint64_t u = v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v;
    char *p = end;
    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return p;
}

int
zs_datafile_writer_append (zs_datafile_writer_t *self, const zs_row_t *row, char *err,
                           size_t errlen)
{
    //  Worst case: 20 + 1 + 2*48 + 1 + 32 + 1 + 20 + 1 bytes.
    char line[256];
    char num[24];
    char *p = line;
    char *s = s_fmt_i64 (num + sizeof num, row->id);
    size_t n = (size_t) (num + sizeof num - s);
    memcpy (p, s, n);
    p += n;
    *p++ = '\t';
    //  name is a fixed array: never read past it even if not terminated.
    for (size_t i = 0; i < sizeof row->name && row->name[i]; i++) {
        char c = row->name[i];
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
            *p++ = '\\';
            c = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
        }
        *p++ = c;
    }
    *p++ = '\t';
    p += snprintf (p, 40, "%.17g", row->price);
    *p++ = '\t';
    s = s_fmt_i64 (num + sizeof num, row->ts_millis);
    n = (size_t) (num + sizeof num - s);
    memcpy (p, s, n);
    p += n;
    *p++ = '\n';
    if (zs_fs_file_write (self->file, line, (size_t) (p - line), err, errlen) != 0)
        return -1;
    //  Min/max id go into the manifest (stats without reading the file).
    if (self->rows == 0 || row->id < self->min_id)
        self->min_id = row->id;
    if (self->rows == 0 || row->id > self->max_id)
        self->max_id = row->id;
    self->rows++;
    return 0;
}

int64_t
zs_datafile_writer_rows (zs_datafile_writer_t *self)
{
    return self->rows;
}

int64_t
zs_datafile_writer_bytes (zs_datafile_writer_t *self)
{
    return zs_fs_file_offset (self->file);
}

int
zs_datafile_writer_close (zs_datafile_writer_t **self_p, zs_file_meta_t *meta, char *err,
                          size_t errlen)
{
    if (!self_p || !*self_p)
        return -1;
    zs_datafile_writer_t *self = *self_p;
    char trailer[64];
    int n = snprintf (trailer, sizeof trailer, S_TRAILER "%" PRId64 "\n", self->rows);
    int rc = zs_fs_file_write (self->file, trailer, (size_t) n, err, errlen);
    int64_t size = zs_fs_file_offset (self->file);
    if (rc == 0)
        rc = zs_fs_file_close (&self->file, err, errlen);
    else
        zs_fs_file_abort (&self->file);
    if (rc == 0 && meta) {
        memset (meta, 0, sizeof *meta);
        snprintf (meta->path, sizeof meta->path, "%s", self->rel_path);
        meta->rows = self->rows;
        meta->size = size;
        meta->min_id = self->min_id;
        meta->max_id = self->max_id;
    }
    free (self);
    *self_p = NULL;
    return rc;
}

void
zs_datafile_writer_abort (zs_datafile_writer_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_fs_file_abort (&(*self_p)->file);
    free (*self_p);
    *self_p = NULL;
}

//  --------------------------------------------------------------------------
//  Reader

struct _zs_datafile_reader_t {
    FILE *fp;
    char *line;
    size_t cap;
    int64_t lineno;
    int64_t rows;
    bool at_end; //  trailer seen and checked
    char path[ZS_PATH_MAX];
};

//  Next line without its '\n'. 1 = line, 0 = EOF, -1 = read error or a
//  last line without '\n' (a torn write), err filled.
static int
s_read_line (zs_datafile_reader_t *self, size_t *len_p, char *err, size_t errlen)
{
    errno = 0;
    ssize_t n = getline (&self->line, &self->cap, self->fp);
    if (n < 0) {
        if (ferror (self->fp)) {
            snprintf (err, errlen, "%s: read: %s", self->path, strerror (errno));
            return -1;
        }
        return 0;
    }
    self->lineno++;
    if (n == 0 || self->line[n - 1] != '\n') {
        snprintf (err, errlen, "%s: line %" PRId64 ": truncated (no newline)", self->path,
                  self->lineno);
        return -1;
    }
    self->line[--n] = '\0';
    if ((size_t) n != strlen (self->line)) {
        snprintf (err, errlen, "%s: line %" PRId64 ": NUL byte in line", self->path, self->lineno);
        return -1;
    }
    *len_p = (size_t) n;
    return 1;
}

zs_datafile_reader_t *
zs_datafile_reader_open (const char *path, char *err, size_t errlen)
{
    zs_datafile_reader_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf (self->path, sizeof self->path, "%s", path);
    self->fp = fopen (path, "re");
    if (!self->fp) {
        snprintf (err, errlen, "%s: open: %s", path, strerror (errno));
        free (self);
        return NULL;
    }
    size_t len;
    //  Check the header at open: a file of another format or schema fails
    //  before any row is handed out.
    int rc = s_read_line (self, &len, err, errlen);
    if (rc == 0)
        snprintf (err, errlen, "%s: line 1: empty file (no zrow header)", path);
    else if (rc == 1 && strcmp (self->line, S_HEADER) != 0) {
        snprintf (err, errlen, "%s: line 1: not a zrow v1 file of this schema", path);
        rc = -1;
    }
    if (rc != 1) {
        zs_datafile_reader_destroy (&self);
        return NULL;
    }
    return self;
}

//  Parse a signed decimal field ending at a tab or the end. NULL on error.
static char *
s_parse_i64 (char *p, int64_t *out, char stop)
{
    if (*p == '\0' || *p == stop)
        return NULL;
    char *end;
    errno = 0;
    long long v = strtoll (p, &end, 10);
    if (errno || *end != stop || (*p != '-' && (*p < '0' || *p > '9')))
        return NULL;
    *out = v;
    return end;
}

int
zs_datafile_reader_next (zs_datafile_reader_t *self, zs_row_t *row, char *err, size_t errlen)
{
    if (self->at_end)
        return 0;
    size_t len;
    int rc = s_read_line (self, &len, err, errlen);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        snprintf (err, errlen, "%s: line %" PRId64 ": truncated (no '#end' trailer)", self->path,
                  self->lineno + 1);
        return -1;
    }
    char *line = self->line;
    //  Rows never start with '#' (an id is a digit or '-'), so a '#' line
    //  can only be the trailer.
    if (line[0] == '#') {
        //  The trailer must count exactly the rows we read, and be last.
        int64_t n;
        if (strncmp (line, S_TRAILER, strlen (S_TRAILER)) != 0
            || !s_parse_i64 (line + strlen (S_TRAILER), &n, '\0') || n != self->rows) {
            snprintf (err, errlen, "%s: line %" PRId64 ": bad trailer (read %" PRId64 " rows)",
                      self->path, self->lineno, self->rows);
            return -1;
        }
        size_t extra;
        rc = s_read_line (self, &extra, err, errlen);
        if (rc != 0) {
            if (rc > 0)
                snprintf (err, errlen, "%s: line %" PRId64 ": data after trailer", self->path,
                          self->lineno);
            return -1;
        }
        self->at_end = true;
        return 0;
    }
    char *p = s_parse_i64 (line, &row->id, '\t');
    if (!p)
        goto bad;
    //  name: unescape into the fixed-size field; too long is corrupt.
    size_t n = 0;
    for (p++; *p && *p != '\t'; p++) {
        char c = *p;
        if (c == '\\') {
            c = *++p;
            c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == '\\' ? '\\' : 0;
            if (!c)
                goto bad;
        }
        if (n + 1 >= sizeof row->name)
            goto bad;
        row->name[n++] = c;
    }
    row->name[n] = '\0';
    if (*p != '\t')
        goto bad;
    char *end;
    errno = 0;
    //  ERANGE is fine: %.17g of a subnormal parses back exactly but sets it.
    row->price = strtod (++p, &end);
    if (end == p || *end != '\t' || errno == EINVAL)
        goto bad;
    if (!s_parse_i64 (end + 1, &row->ts_millis, '\0'))
        goto bad;
    self->rows++;
    return 1;
bad:
    snprintf (err, errlen, "%s: line %" PRId64 ": malformed row", self->path, self->lineno);
    return -1;
}

void
zs_datafile_reader_destroy (zs_datafile_reader_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_datafile_reader_t *self = *self_p;
    if (self->fp)
        fclose (self->fp);
    free (self->line);
    free (self);
    *self_p = NULL;
}
