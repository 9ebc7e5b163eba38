/*  source_file.h - the bounded file source: replays JSONL or CSV files into
    rows of a schema, with an exact, resumable position (Flink's filesystem
    source with a bounded split per writer, and a byte offset as its state).

    Input. `path` is a file, or a directory whose regular files (symlinks to
    regular files count) with a name ending ".jsonl" or ".json" (format
    jsonl) or ".csv" (format csv), compared case-sensitively, are the input:
    not recursive, names starting with '.' skipped, sorted by name in byte
    order (strcmp). File k of that list belongs to writer k % parallelism. A
    single file is file 0 and so belongs to writer 0; the others get none.
    The list is taken once, in _new: files that appear later are not read.

    Position. A position is (file, offset, line, skipped):
        file     name of the file relative to `path` (for a single-file path,
                 its base name), the file the next row comes from;
        offset   byte offset in it of the next unread record;
        line     lines before that offset (for error messages only);
        skipped  lines skipped as bad so far (with on-error skip).
    Before the first row it is (first file of ours, 0, 0, 0). After the last
    row of a file it stays in that file at the offset after the row (the
    reader moves on to the next file when it finds nothing more), and once
    everything is consumed it is the last file of ours with offset = its size.
    The file name is "" only for a writer with no files at all. A position is
    exact: seeking a fresh source to it yields exactly the rows that followed
    it in an uninterrupted read, with the same line numbers in errors.

    Records. Reading is by read(2) in chunks into one buffer; a record must
    fit in ZS_SOURCE_FILE_MAX_RECORD bytes (else an I/O-class error, with
    skip too). Lines end in "\n" or "\r\n" (a lone "\r" is not a line end); a
    final line without newline counts. Lines holding only spaces, tabs and
    "\r" are blank: skipped, not errors, not counted as skipped. A UTF-8 byte
    order mark at the start of a file is ignored.

    JSONL. Each line is one JSON object (jansson; integers stay exact in 64
    bits). Keys map to columns by exact name; a missing key or null is NULL;
    other keys are ignored; a key given twice is an error. BOOLEAN from
    true/false; INT from an integer in int32 range; BIGINT from an integer;
    FLOAT/DOUBLE from any number (FLOAT refuses magnitudes beyond FLT_MAX);
    STRING and BYTES from a string (its UTF-8 bytes; \u0000 allowed); DATE
    and TIMESTAMP from a string as below. An integer literal beyond 64 bits
    anywhere in the line is refused (write 1e20 for such a DOUBLE); the error
    names the column when it is an INT or BIGINT one.

    CSV (RFC 4180). The first non-blank line of each file is its header:
    names (spaces and tabs around them trimmed) map to columns by exact name,
    names not in the schema are ignored, a column named twice is an error, a
    schema column missing from the header is NULL in every row (an error at
    the header if it is NOT NULL). Header errors fail the read with on-error
    skip too (no line of the file could be read right). Comma separator,
    double-quote quoting, "" for a quote inside quotes; a quoted field may
    hold commas and newlines (the record then spans lines; offsets and line
    numbers stay exact, an error names the record's first line; the value
    keeps its line ends as written, CRLF included). A record
    must have as many fields as the header. An empty unquoted field is NULL,
    a quoted empty field is the empty string. Fields are not trimmed. A
    quote inside an unquoted field, or text after a closing quote, is an
    error; so is an unterminated quote, which makes the rest of the file one
    bad record. Values: BOOLEAN true/false in any case; INT/BIGINT decimal
    integers (optional sign, nothing else); FLOAT/DOUBLE what strtof/strtod
    take entirely (so also "NaN", "inf"), overflow refused; STRING the
    field's bytes, which must be valid UTF-8; BYTES the field's bytes as they
    are; DATE/TIMESTAMP as below.

    Dates and times (both formats). DATE "YYYY-MM-DD", years 0001-9999,
    month and day ranges checked, proleptic Gregorian, as days since
    1970-01-01. TIMESTAMP(p) "YYYY-MM-DD HH:MM:SS[.f]" or with 'T' for the
    space, 1-9 fraction digits, hour 00-23, seconds 00-59; no time zone (a
    'Z' or an offset is refused). Fraction digits beyond what the precision
    keeps (3 or 6) are refused unless they are all zeros: the source never
    silently changes a value.

    Errors. A record that does not parse gives "<file>:<line>: <why>", with
    <file> the full path and <line> 1-based, e.g. "in/a.csv:7: column 'qty':
    'abc' is not an INT". With on-error fail, _next returns -1 and the
    position stays at the start of the bad record. With skip, the record is
    consumed and counted; the first 5 skipped records of a job (counting the
    restored count) are logged with zs_warn, later ones only counted.
*/
#ifndef ZS_SOURCE_FILE_H_INCLUDED
#define ZS_SOURCE_FILE_H_INCLUDED

#include "rowtype.h"

//  Longest record (one JSONL line, one CSV record with its quoted newlines).
#define ZS_SOURCE_FILE_MAX_RECORD (64 * 1024 * 1024)

//  Skipped records logged one by one; later ones are only counted.
#define ZS_SOURCE_FILE_SKIP_LOG 5

typedef struct _zs_source_file_t zs_source_file_t;

//  List the input (see above) and keep this writer's share of it. format is
//  "jsonl" or "csv"; skip_errors is file.on-error skip (else fail). The
//  schema is copied. NULL with err filled when path cannot be listed, when
//  it is a directory holding no input file and allow_empty is false
//  (source.file.allow-empty), or an argument is wrong. No file is opened.
zs_source_file_t *zs_source_file_new (const zs_schema_t *schema, const char *path,
                                      const char *format, bool skip_errors, bool allow_empty,
                                      int index, int parallelism, char *err, size_t errlen);

//  A source of the one input file `name` of path (path a directory holding
//  it, or the file itself), for reading one file split (writer/source.h).
//  The file is not listed with the others and need not match the format's
//  name pattern: it was an input when the job started. NULL with err when
//  it is not there.
zs_source_file_t *zs_source_file_new_one (const zs_schema_t *schema, const char *path,
                                          const char *name, const char *format, bool skip_errors,
                                          char *err, size_t errlen);

//  Resume at a position (see above). file "" means the first file of ours
//  (offset, line then apply to it). The file is opened at once, and for CSV
//  its header is read to rebuild the column mapping. -1 with err when file is
//  not one of ours (the input changed under a restore: err names it), when
//  the offset is past the file's end, inside a CSV header, or not at the
//  start of a line, on a header error, or on an I/O error; the source is
//  then back at its start, as after _new. Resets the rows counter; restores
//  the skipped counter. line is taken as given (it is only for messages),
//  except at offset 0 or just after a CSV header, where it is counted.
int zs_source_file_seek (zs_source_file_t *self, const char *file, int64_t offset, int64_t line,
                         int64_t skipped, char *err, size_t errlen);

//  Next row into row[schema->n]. 1 = a row, 0 = every file of ours consumed
//  (and again on later calls), -1 = a record failed to parse with on-error
//  fail, a header error, or an I/O error (err says which; the position is
//  unchanged by the failing record, so calling again fails again). STRING
//  and BYTES values point into the source and stay valid until the next
//  call of _next, _seek or _destroy.
int zs_source_file_next (zs_source_file_t *self, zs_value_t *row, char *err, size_t errlen);

//  The position after the last record consumed (what a checkpoint records).
const char *zs_source_file_pos_file (zs_source_file_t *self);
int64_t zs_source_file_pos_offset (zs_source_file_t *self);
int64_t zs_source_file_pos_line (zs_source_file_t *self);
int64_t zs_source_file_skipped (zs_source_file_t *self);

//  True once _next has returned 0: everything of ours is consumed.
bool zs_source_file_done (zs_source_file_t *self);

//  Rows returned since _new or the last _seek.
int64_t zs_source_file_rows (zs_source_file_t *self);

//  Number of files of ours, and the name of the k-th (NULL out of range).
int zs_source_file_count (zs_source_file_t *self);
const char *zs_source_file_name (zs_source_file_t *self, int k);

//  For tests: bytes asked of each read(2) (default 256 KiB). Small values
//  make every record straddle reads.
void zs_source_file_set_chunk (zs_source_file_t *self, size_t chunk);

void zs_source_file_destroy (zs_source_file_t **self_p);

#endif
