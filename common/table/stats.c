/*  stats.c - see stats.h. */
#include "stats.h"
#include "avro.h"
#include "binrow.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  The blob from an encoder holding both fields; cols_at where the second
//  starts. 0, or -1 when it does not fit.
static int
s_store (zs_stats_t *self, const zs_avro_enc_t *enc, size_t cols_at)
{
    if (!enc->ok || enc->len > ZS_STATS_MAX)
        return -1;
    memcpy (self->blob, enc->data, enc->len);
    self->len = (uint16_t) enc->len;
    self->cols_at = (uint16_t) cols_at;
    return 0;
}

void
zs_stats_none (zs_stats_t *self)
{
    //  the empty BinaryRow: arity 0 and 8 bytes of header
    static const uint8_t empty[12] = {0};
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_bytes (&e, empty, sizeof empty);
    zs_avro_enc_bytes (&e, empty, sizeof empty);
    zs_avro_enc_union (&e, 1); //  _NULL_COUNTS: an empty array
    zs_avro_enc_array_start (&e, 0);
    zs_avro_enc_array_end (&e);
    size_t cols_at = e.len;
    zs_avro_enc_union (&e, 1); //  _VALUE_STATS_COLS: none
    zs_avro_enc_array_start (&e, 0);
    zs_avro_enc_array_end (&e);
    if (s_store (self, &e, cols_at) != 0)
        self->len = 0; //  cannot happen: 30 bytes
    zs_avro_enc_fini (&e);
}

//  Are column c's statistics exact (stats.h)?
static bool
s_exact (const zs_column_t *col, const zs_column_stats_t *st, int64_t rows)
{
    //  Nested columns: Paimon's Parquet statistics extractor finds no
    //  footer statistics under the column's name (its leaves have longer
    //  paths), so min, max and null count are all null, and its dense
    //  store (metadata.stats-dense-store, on by default) then leaves the
    //  column out of _VALUE_STATS_COLS: so do we.
    if (zs_type_is_nested (col->type))
        return false;
    if (st->null_count < 0)
        return false;
    if ((col->type == ZS_TYPE_FLOAT || col->type == ZS_TYPE_DOUBLE) && st->nan_count != 0)
        return false;
    //  INT96 timestamps: Paimon keeps null bounds and the null count
    if (col->type == ZS_TYPE_TIMESTAMP9)
        return true;
    //  without bounds: fine only when there is nothing to bound
    return st->has_minmax || st->null_count == rows;
}

//  Bytes of the first n code points of UTF-8 text (all of it if fewer).
static uint32_t
s_prefix_chars (const uint8_t *p, uint32_t len, int n, bool *more)
{
    uint32_t i = 0;
    int k = 0;
    while (i < len && k < n) {
        i++;
        while (i < len && (p[i] & 0xC0) == 0x80)
            i++;
        k++;
    }
    *more = i < len;
    return i;
}

//  The code point of UTF-8 at p (valid, len bytes) and back.
static uint32_t
s_cp_get (const uint8_t *p, uint32_t len)
{
    if (len == 1)
        return p[0];
    uint32_t cp = p[0] & (0xFF >> (len + 1));
    for (uint32_t i = 1; i < len; i++)
        cp = cp << 6 | (p[i] & 0x3F);
    return cp;
}

static uint32_t
s_cp_put (uint8_t *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (uint8_t) cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t) (0xC0 | cp >> 6);
        o[1] = (uint8_t) (0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t) (0xE0 | cp >> 12);
        o[1] = (uint8_t) (0x80 | (cp >> 6 & 0x3F));
        o[2] = (uint8_t) (0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (uint8_t) (0xF0 | cp >> 18);
    o[1] = (uint8_t) (0x80 | (cp >> 12 & 0x3F));
    o[2] = (uint8_t) (0x80 | (cp >> 6 & 0x3F));
    o[3] = (uint8_t) (0x80 | (cp & 0x3F));
    return 4;
}

//  Paimon's TruncateSimpleColStatsCollector: the min cut to S_TRUNCATE
//  characters (bytes for BYTES/BINARY); the max, when longer (or cut
//  already: max_cut), cut and its last character (byte) that can be
//  incremented, incremented, what follows dropped. false when none can
//  (Paimon then keeps no bounds). Into buf (S_TRUNCATE * 4 bytes).
#define S_TRUNCATE 16
static bool
s_truncate (const zs_column_t *col, zs_value_t *v, bool is_max, bool cut, uint8_t *buf)
{
    const uint8_t *p = v->v.bin.ptr;
    uint32_t len = v->v.bin.len, n;
    bool more;
    bool text = zs_type_is_text (col->type);
    if (text)
        n = s_prefix_chars (p, len, S_TRUNCATE, &more);
    else {
        n = len < S_TRUNCATE ? len : S_TRUNCATE;
        more = len > S_TRUNCATE;
    }
    more |= cut && is_max;
    v->v.bin.len = n;
    if (!is_max || !more)
        return true;
    memcpy (buf, p, n);
    v->v.bin.ptr = buf;
    //  from the end: the first unit that can be incremented
    uint32_t end = n;
    while (end > 0) {
        uint32_t start = end - 1;
        if (text)
            while (start > 0 && (buf[start] & 0xC0) == 0x80)
                start--;
        if (!text && buf[start] != 0xFF) {
            buf[start]++;
            v->v.bin.len = start + 1;
            return true;
        }
        if (text) {
            uint32_t cp = s_cp_get (buf + start, end - start) + 1;
            if (cp >= 0xD800 && cp <= 0xDFFF)
                cp = 0xE000; //  Java would write a lone surrogate ('?'); the next character
            if (cp <= 0x10FFFF) {
                v->v.bin.len = start + s_cp_put (buf + start, cp);
                return true;
            }
        }
        end = start;
    }
    return false;
}

//  Encode the covered columns' statistics into e. 0 or -1.
static int
s_encode (zs_avro_enc_t *e, const zs_schema_t *schema, const zs_column_stats_t *cols,
          const int *cover, int n, bool all, size_t *cols_at)
{
    zs_column_t types[ZS_MAX_COLUMNS];
    zs_value_t min[ZS_MAX_COLUMNS], max[ZS_MAX_COLUMNS];
    uint8_t bufs[ZS_MAX_COLUMNS][S_TRUNCATE * 4];
    for (int k = 0; k < n; k++) {
        const zs_column_stats_t *st = &cols[cover[k]];
        types[k] = schema->cols[cover[k]];
        min[k] = st->min;
        max[k] = st->max;
        min[k].null = max[k].null = !st->has_minmax || types[k].type == ZS_TYPE_TIMESTAMP9;
        if (!min[k].null && zs_type_is_binary (types[k].type)) {
            s_truncate (&types[k], &min[k], false, st->min_cut, NULL);
            if (!s_truncate (&types[k], &max[k], true, st->max_cut, bufs[k]))
                min[k].null = max[k].null = true;
        }
    }
    char err[ZS_ERRLEN];
    size_t lmin = 0, lmax = 0;
    uint8_t *rmin = zs_binrow_encode (types, min, n, &lmin, err, sizeof err);
    uint8_t *rmax = rmin ? zs_binrow_encode (types, max, n, &lmax, err, sizeof err) : NULL;
    if (rmax) {
        zs_avro_enc_bytes (e, rmin, lmin);
        zs_avro_enc_bytes (e, rmax, lmax);
        zs_avro_enc_union (e, 1);
        zs_avro_enc_array_start (e, (size_t) n);
        for (int k = 0; k < n; k++) {
            zs_avro_enc_union (e, 1);
            zs_avro_enc_long (e, cols[cover[k]].null_count);
        }
        zs_avro_enc_array_end (e);
        *cols_at = e->len;
        zs_avro_enc_union (e, all ? 0 : 1); //  null: every column, as Java writes
        if (!all) {
            zs_avro_enc_array_start (e, (size_t) n);
            for (int k = 0; k < n; k++)
                zs_avro_enc_string (e, schema->cols[cover[k]].name);
            zs_avro_enc_array_end (e);
        }
    }
    free (rmin);
    free (rmax);
    return rmax ? 0 : -1;
}

void
zs_stats_from_columns (zs_stats_t *self, const zs_schema_t *schema, const zs_column_stats_t *cols,
                       int64_t rows)
{
    int cover[ZS_MAX_COLUMNS], n = 0;
    for (int c = 0; c < schema->n; c++)
        if (s_exact (&schema->cols[c], &cols[c], rows))
            cover[n++] = c;
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    size_t cols_at = 0;
    int rc = s_encode (&e, schema, cols, cover, n, n == schema->n, &cols_at);
    if (rc != 0 || s_store (self, &e, cols_at) != 0)
        zs_stats_none (self);
    zs_avro_enc_fini (&e);
}

//  --------------------------------------------------------------------------
//  Reading

//  The first field: the two rows and the null counts. 0 or -1 (d->error).
static int
s_dec_values (zs_avro_dec_t *d, const uint8_t **rmin, size_t *lmin, const uint8_t **rmax,
              size_t *lmax, zs_stats_view_t *v)
{
    int branch = 0;
    if (zs_avro_dec_bytes (d, rmin, lmin) || zs_avro_dec_bytes (d, rmax, lmax)
        || zs_avro_dec_union (d, 2, &branch))
        return -1;
    v->nulls_known = branch == 1;
    int k = 0;
    int64_t count = 0, size = 0;
    while (v->nulls_known && zs_avro_dec_block (d, &count, &size) == 0 && count > 0)
        for (int64_t i = 0; i < count; i++, k++) {
            int b = 0;
            int64_t x = -1;
            if (zs_avro_dec_union (d, 2, &b) || (b == 1 && zs_avro_dec_long (d, &x)))
                return -1;
            if (k < ZS_MAX_COLUMNS)
                v->nulls[k] = b == 1 ? x : -1;
        }
    if (d->error)
        return -1;
    v->n = k; //  the covered columns, if the list below does not say
    return k > ZS_MAX_COLUMNS ? -1 : 0;
}

//  The second field: which columns (none listed: every one of the schema).
static int
s_dec_cols (zs_avro_dec_t *d, const zs_schema_t *schema, zs_stats_view_t *v, bool *listed)
{
    int branch = 0;
    if (zs_avro_dec_union (d, 2, &branch))
        return -1;
    *listed = branch == 1;
    if (!*listed) {
        v->n = schema ? schema->n : v->n;
        for (int c = 0; c < v->n; c++)
            v->col[c] = c;
        return 0;
    }
    int k = 0;
    int64_t count = 0, size = 0;
    while (zs_avro_dec_block (d, &count, &size) == 0 && count > 0)
        for (int64_t i = 0; i < count; i++, k++) {
            const uint8_t *name;
            size_t len;
            if (zs_avro_dec_string (d, &name, &len) || k >= ZS_MAX_COLUMNS)
                return -1;
            v->col[k] = -1;
            for (int c = 0; schema && c < schema->n; c++)
                if (strlen (schema->cols[c].name) == len
                    && !memcmp (schema->cols[c].name, name, len))
                    v->col[k] = c;
        }
    if (d->error)
        return -1;
    v->n = k;
    return 0;
}

//  The rows decoded with the covered columns' types, when all are known.
static int
s_dec_bounds (const uint8_t *rmin, size_t lmin, const uint8_t *rmax, size_t lmax,
              const zs_schema_t *schema, zs_stats_view_t *v, char *err, size_t errlen)
{
    zs_column_t types[ZS_MAX_COLUMNS];
    for (int k = 0; k < v->n; k++) {
        if (!schema || v->col[k] < 0)
            return 0; //  a column we do not know: counts only
        types[k] = schema->cols[v->col[k]];
        //  another writer's nested column listed: its bounds can only be
        //  null (a null field is its bit and a zero slot, whatever the type)
        if (zs_type_is_nested (types[k].type))
            types[k] = (zs_column_t){.type = ZS_TYPE_INT, .nullable = true};
    }
    if (zs_binrow_decode (rmin, lmin, types, v->n, v->min, err, errlen) != 0
        || zs_binrow_decode (rmax, lmax, types, v->n, v->max, err, errlen) != 0)
        return ZS_ECORRUPT;
    v->has_bounds = true;
    return 0;
}

int
zs_stats_decode (const zs_stats_t *self, const zs_schema_t *schema, zs_stats_view_t *view,
                 char *err, size_t errlen)
{
    memset (view, 0, sizeof *view);
    if (self->len == 0)
        return 0;
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, self->blob, self->len);
    const uint8_t *rmin = NULL, *rmax = NULL;
    size_t lmin = 0, lmax = 0;
    bool listed = false;
    int nulls = 0;
    if (s_dec_values (&d, &rmin, &lmin, &rmax, &lmax, view) != 0
        || (nulls = view->n, zs_avro_dec_offset (&d) != self->cols_at)
        || s_dec_cols (&d, schema, view, &listed) != 0 || zs_avro_dec_left (&d) != 0) {
        snprintf (err, errlen, "value statistics do not decode: %s",
                  d.error ? d.error : "bad lengths or too many columns");
        return ZS_ECORRUPT;
    }
    if (view->nulls_known && nulls != view->n) {
        snprintf (err, errlen, "value statistics: %d null counts for %d columns", nulls, view->n);
        return ZS_ECORRUPT;
    }
    return s_dec_bounds (rmin, lmin, rmax, lmax, schema, view, err, errlen);
}

int
zs_stats_set (zs_stats_t *self, const uint8_t *blob, size_t len, char *err, size_t errlen)
{
    if (len > ZS_STATS_MAX) {
        snprintf (err, errlen, "value statistics of %zu bytes (at most %d)", len, ZS_STATS_MAX);
        return ZS_ECORRUPT;
    }
    //  find where the first field ends, then check the whole
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, blob, len);
    zs_stats_view_t v;
    memset (&v, 0, sizeof v);
    const uint8_t *rmin, *rmax;
    size_t lmin, lmax;
    if (s_dec_values (&d, &rmin, &lmin, &rmax, &lmax, &v) != 0) {
        snprintf (err, errlen, "value statistics do not decode: %s",
                  d.error ? d.error : "too many columns");
        return ZS_ECORRUPT;
    }
    memcpy (self->blob, blob, len);
    self->len = (uint16_t) len;
    self->cols_at = (uint16_t) zs_avro_dec_offset (&d);
    int rc = zs_stats_decode (self, NULL, &v, err, errlen);
    if (rc != 0)
        self->len = 0;
    return rc;
}

//  --------------------------------------------------------------------------
//  JSON

static void
s_json_values (zs_strbuf_t *out, const char *key, const zs_stats_view_t *v,
               const zs_schema_t *schema, const zs_value_t *vals)
{
    zs_strbuf_appends (out, ",\"");
    zs_strbuf_appends (out, key);
    zs_strbuf_appends (out, "\":[");
    for (int k = 0; k < v->n; k++) {
        if (k)
            zs_strbuf_appends (out, ",");
        if (!v->has_bounds || vals[k].null) {
            zs_strbuf_appends (out, "null");
            continue;
        }
        zs_value_json_col (out, &schema->cols[v->col[k]], &vals[k]);
    }
    zs_strbuf_appends (out, "]");
}

void
zs_stats_json (const zs_stats_t *self, const zs_schema_t *schema, zs_strbuf_t *out)
{
    zs_stats_view_t v;
    char err[ZS_ERRLEN];
    if (self->len == 0 || zs_stats_decode (self, schema, &v, err, sizeof err) != 0) {
        zs_strbuf_appends (out, "{}");
        return;
    }
    zs_strbuf_appends (out, "{\"columns\":[");
    for (int k = 0; k < v.n; k++) {
        zs_strbuf_appends (out, k ? ",\"" : "\"");
        zs_strbuf_appends (out, v.col[k] >= 0 ? schema->cols[v.col[k]].name : "?");
        zs_strbuf_appends (out, "\"");
    }
    zs_strbuf_appends (out, "],\"nullCounts\":[");
    for (int k = 0; k < v.n; k++) {
        char num[24];
        snprintf (num, sizeof num, "%s%lld", k ? "," : "", (long long) v.nulls[k]);
        zs_strbuf_appends (out, v.nulls_known && v.nulls[k] >= 0 ? num : k ? ",null" : "null");
    }
    zs_strbuf_appends (out, "]");
    s_json_values (out, "minValues", &v, schema, v.min);
    s_json_values (out, "maxValues", &v, schema, v.max);
    zs_strbuf_appends (out, "}");
}
