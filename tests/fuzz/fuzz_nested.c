/*  fuzz_nested.c - nested values end to end: a JSON line into a row of a
    schema with ARRAY, MAP and ROW columns (record.c, record_nested.c),
    shredded into repetition and definition levels by the Parquet writer
    (parquet_nested.c), written, read back and assembled.

    Input: byte 0 picks the schema (of a few, nested to depth 4), the rest
    is the JSON line.
    Properties, beyond "no crash, leak or UB":
    1. a refused line says why, naming a column;
    2. a line taken writes (or is refused by the writer with the path of a
       NOT NULL place), and the file reads back to one row whose JSON
       (rowfmt) equals the JSON of the row that was written: shredding and
       assembly are inverse, levels and all.
*/
#include "fuzz_common.h"
#include "parquet.h"
#include "record.h"
#include "rowfmt.h"
#include <unistd.h>

static const char *const s_schemas[] = {
    "id BIGINT, xs ARRAY<INT>, m MAP<STRING, BIGINT>, r ROW<a STRING, b INT NOT NULL>",
    "a ARRAY<ARRAY<STRING NOT NULL>> NOT NULL, b MAP<INT, ROW<c ARRAY<DOUBLE>, d BOOLEAN>>",
    "r ROW<s ROW<t ARRAY<ROW<u DECIMAL(20, 3), v BYTES>>>>, w ARRAY<MAP<STRING, ARRAY<INT>>>",
    "x ARRAY<ROW<p DATE, q TIMESTAMP(9)> NOT NULL>, y TINYINT",
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    zs_schema_t schema;
    char err[ZS_ERRLEN] = "";
    size_t k = data[0] % (sizeof s_schemas / sizeof s_schemas[0]);
    ZS_FUZZ_CHECK (zs_schema_parse (&schema, s_schemas[k], err, sizeof err) == 0);
    zs_record_t *rec = zs_record_new (&schema);
    zs_value_t row[ZS_MAX_COLUMNS];
    if (zs_record_json (rec, data + 1, size - 1, row, err, sizeof err) != 0) {
        ZS_FUZZ_CHECK (err[0] != '\0');
        zs_record_destroy (&rec);
        return 0;
    }
    zs_strbuf_t want = {0}, got = {0};
    zs_row_jsonl (&want, &schema, row);
    static char path[64];
    if (!path[0])
        snprintf (path, sizeof path, "/tmp/zsink-fuzz-nested-%d.parquet", (int) getpid ());
    unlink (path);
    zs_parquet_writer_t *w = zs_parquet_writer_new (path, &schema, NULL, err, sizeof err);
    ZS_FUZZ_CHECK (w != NULL);
    if (zs_parquet_writer_append (w, row, err, sizeof err) != 0) {
        ZS_FUZZ_CHECK (strstr (err, "NOT NULL") || strstr (err, "too long"));
        zs_parquet_writer_abort (&w);
    } else {
        ZS_FUZZ_CHECK (zs_parquet_writer_close (&w, NULL, NULL, err, sizeof err) == 0);
        zs_parquet_reader_t *r = zs_parquet_reader_open (path, err, sizeof err);
        ZS_FUZZ_CHECK (r != NULL);
        zs_value_t back[ZS_MAX_COLUMNS];
        ZS_FUZZ_CHECK (zs_parquet_reader_next (r, back, err, sizeof err) == 1);
        zs_row_jsonl (&got, zs_parquet_reader_schema (r), back);
        ZS_FUZZ_CHECK (got.len == want.len && memcmp (got.data, want.data, got.len) == 0);
        ZS_FUZZ_CHECK (zs_parquet_reader_next (r, back, err, sizeof err) == 0);
        zs_parquet_reader_destroy (&r);
    }
    unlink (path);
    zs_strbuf_free (&want);
    zs_strbuf_free (&got);
    zs_record_destroy (&rec);
    return 0;
}
