/*  datagen.c - see datagen.h.

    Products are taken in 128-bit arithmetic: an unbounded source at a high
    rate runs for days, and rate * elapsed_ms or offset * N must never wrap
    into a negative id or a negative allowance.
*/
#include "datagen.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void
zs_datagen_init (zs_datagen_t *self, int index, int parallelism, int64_t number_of_rows,
                 int64_t rate)
{
    self->index = index;
    self->parallelism = parallelism > 0 ? parallelism : 1;
    self->number_of_rows = number_of_rows;
    self->rate = rate > 0 ? rate : 0;
    self->offset = 0;
}

static int64_t
s_clamp (__int128 v)
{
    if (v > INT64_MAX)
        return INT64_MAX;
    if (v < 0)
        return 0;
    return (int64_t) v;
}

int64_t
zs_datagen_id_at (const zs_datagen_t *self, int64_t offset)
{
    return s_clamp ((__int128) self->index + 1 + (__int128) offset * self->parallelism);
}

int64_t
zs_datagen_next_id (const zs_datagen_t *self)
{
    return zs_datagen_id_at (self, self->offset);
}

int64_t
zs_datagen_total (const zs_datagen_t *self)
{
    if (self->number_of_rows < 0)
        return -1;
    //  count of k >= 0 with index+1 + k*N <= number_of_rows
    if (self->number_of_rows <= self->index)
        return 0;
    return (self->number_of_rows - self->index - 1) / self->parallelism + 1;
}

bool
zs_datagen_exhausted (const zs_datagen_t *self)
{
    int64_t total = zs_datagen_total (self);
    return total >= 0 && self->offset >= total;
}

int64_t
zs_datagen_share (int64_t rate, int parallelism, int index)
{
    if (rate <= 0 || parallelism <= 0)
        return 0;
    return rate / parallelism + (index < rate % parallelism ? 1 : 0);
}

int64_t
zs_datagen_allowed (const zs_datagen_t *self, int64_t elapsed_ms)
{
    if (self->rate == 0)
        return INT64_MAX;
    if (elapsed_ms < 0)
        return 0;
    //  global rows of the job due by now: 0 … g-1
    __int128 g = (__int128) self->rate * elapsed_ms / 1000;
    //  ours among them: i, i+N, … below g
    if (g <= self->index)
        return 0;
    return s_clamp ((g - self->index - 1) / self->parallelism + 1);
}

int64_t
zs_datagen_due_ms (const zs_datagen_t *self, int64_t emitted)
{
    if (self->rate == 0)
        return 0;
    //  our row `emitted` is global row g = i + emitted*N; it is due once
    //  floor(rate * t / 1000) >= g + 1, i.e. t >= ceil((g+1) * 1000 / rate)
    __int128 g = (__int128) self->index + (__int128) emitted * self->parallelism;
    return s_clamp (((g + 1) * 1000 + self->rate - 1) / self->rate);
}

//  --------------------------------------------------------------------------
//  Row values

//  A 64-bit mix of id and column (splitmix64's finaliser): values that look
//  random but are a pure function of (id, column).
static uint64_t
s_mix (int64_t id, int col)
{
    uint64_t z =
        (uint64_t) id * 0x9E3779B97F4A7C15ull + (uint64_t) (col + 1) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

//  Strings that exercise writers and readers: empty, multi-byte UTF-8 (2,
//  3 and 4 bytes), and CSV/JSON specials.
static const char *const s_words[] = {
    "",           "plain",     "ünïcødé",     "日本語",    "emoji 🚀",
    "comma,here", "quote\"in", "line\nbreak", "tab\there", "back\\slash",
};
#define S_NWORDS (sizeof s_words / sizeof s_words[0])

//  Columns of the default schema keep their first-release values: a
//  column's role says which, worked out once per schema, not per row.
enum { S_PLAIN, S_NAME, S_PRICE, S_TS };

//  Decimal digits of v (>= 0) at p; returns the length. Two digits a
//  step from a table: half the divisions of one a digit (datagen is ~15 %
//  of a writer's CPU at full speed).
static int
s_fmt_u64 (uint8_t *p, uint64_t v)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                                   "25262728293031323334353637383940414243444546474849"
                                   "50515253545556575859606162636465666768697071727374"
                                   "75767778798081828384858687888990919293949596979899";
    char tmp[24];
    int n = 24;
    while (v >= 100) {
        const char *d = pairs + 2 * (v % 100);
        v /= 100;
        tmp[--n] = d[1];
        tmp[--n] = d[0];
    }
    if (v >= 10) {
        tmp[--n] = pairs[2 * v + 1];
        tmp[--n] = pairs[2 * v];
    } else
        tmp[--n] = (char) ('0' + v);
    memcpy (p, tmp + n, (size_t) (24 - n));
    return 24 - n;
}

//  Each column's role, worked out once per schema, not per row.
static void
s_roles (const zs_schema_t *schema, zs_datagen_buf_t *buf)
{
    for (int c = 0; c < schema->n; c++) {
        const zs_column_t *col = &schema->cols[c];
        buf->role[c] = col->type == ZS_TYPE_STRING && !strcmp (col->name, "name")     ? S_NAME
                       : col->type == ZS_TYPE_DOUBLE && !strcmp (col->name, "price")  ? S_PRICE
                       : col->type == ZS_TYPE_TIMESTAMP3 && !strcmp (col->name, "ts") ? S_TS
                                                                                      : S_PLAIN;
    }
    buf->fingerprint = schema->fingerprint;
}

//  A STRING: "name-<id>" for the default schema's name, else one of the
//  words, alone or with the id. Its bytes go to text.
static inline void
s_string (zs_value_t *v, int role, int64_t id, uint64_t h, uint8_t *text)
{
    int n;
    if (role == S_NAME && id >= 0) {
        memcpy (text, "name-", 5); //  "name-<id>" without snprintf's cost
        n = 5 + s_fmt_u64 (text + 5, (uint64_t) id);
    } else if (role == S_NAME)
        n = snprintf ((char *) text, ZS_DATAGEN_TEXT_MAX, "name-%" PRId64, id);
    else if ((h >> 4) % 4 == 0)
        n = snprintf ((char *) text, ZS_DATAGEN_TEXT_MAX, "%s", s_words[(h >> 8) % S_NWORDS]);
    else
        n = snprintf ((char *) text, ZS_DATAGEN_TEXT_MAX, "%s-%" PRId64,
                      s_words[(h >> 8) % S_NWORDS], id);
    v->v.bin.ptr = text;
    v->v.bin.len = (uint32_t) n;
}

//  BYTES: 0 … 16 bytes, zero bytes included.
static inline void
s_bytes (zs_value_t *v, int64_t id, int c, uint64_t h, uint8_t *text)
{
    int n = (int) ((h >> 4) % 17);
    for (int k = 0; k < n; k++)
        text[k] = (uint8_t) (s_mix (id, c + 64 + k) >> 24) & (k % 3 ? 0xff : 0x0f);
    v->v.bin.ptr = text;
    v->v.bin.len = (uint32_t) n;
}

//  t in units of 10^-digits seconds rounded down to the column's precision
//  (TIMESTAMP(0) whole seconds), as a value typed in would be.
static inline int64_t
s_to_precision (int64_t t, int digits, int precision)
{
    int64_t q = 1;
    for (int k = precision; k < digits; k++)
        q *= 10;
    int64_t r = t % q;
    return r < 0 ? t - r - q : t - r;
}

//  A DECIMAL(p, s): an unscaled value of up to p digits, either sign.
static inline void
s_decimal (const zs_column_t *col, int64_t id, int c, uint64_t h, zs_value_t *v)
{
    int p = zs_column_precision (col);
    unsigned __int128 u = (unsigned __int128) h << 64 | s_mix (id, c + 128);
    __int128 x = (__int128) (u % (unsigned __int128) zs_pow10 (p));
    zs_dec_set (v, (h >> 7) & 1 ? -x : x);
}

//  CHAR(n) / VARCHAR(n) / BINARY(n) / VARBINARY(n): cut to n characters
//  (bytes).
static inline void
s_fit_length (const zs_column_t *col, zs_value_t *v)
{
    int32_t n = zs_column_length (col);
    if (v->v.bin.len <= (uint32_t) n)
        return; //  n bytes are n characters at most: nothing to cut (STRING's n is huge)
    if (!zs_type_is_text (col->type)) {
        if (v->v.bin.len > (uint32_t) n)
            v->v.bin.len = (uint32_t) n;
        return;
    }
    uint32_t i = 0;
    for (int32_t k = 0; i < v->v.bin.len && k < n; k++) {
        i++;
        while (i < v->v.bin.len && (v->v.bin.ptr[i] & 0xC0) == 0x80)
            i++;
    }
    v->v.bin.len = i;
}

//  A nested column's value: ARRAY and MAP empty, a ROW's fields null, or
//  their kind's zero when NOT NULL (a NOT NULL nested field likewise). The
//  same for every row: datagen is about throughput, and the nested
//  columns' encoding is tested with real values elsewhere. The values
//  live in a per-thread table, one slot per schema node.
static void
s_nested (const zs_schema_t *schema, const zs_column_t *col, zs_value_t *v)
{
    static __thread zs_value_t nodes[ZS_MAX_NODES];
    for (int j = 0; j < schema->nnodes; j++) {
        const zs_column_t *nc = &schema->nodes[j];
        memset (&nodes[j], 0, sizeof nodes[j]);
        nodes[j].null = nc->nullable;
        if (nc->type == ZS_TYPE_ROW) {
            nodes[j].v.nest.elems = &nodes[nc->child];
            nodes[j].v.nest.n = nc->nchild;
        }
    }
    memset (v, 0, sizeof *v);
    if (col->type == ZS_TYPE_ROW) {
        v->v.nest.elems = &nodes[col->child];
        v->v.nest.n = col->nchild;
    }
}

//  The non-null value of column c for id (h = s_mix (id, c)).
static inline void
s_value (const zs_schema_t *schema, int c, int role, int64_t id, uint64_t h, zs_value_t *v,
         uint8_t *text)
{
    const zs_column_t *col = &schema->cols[c];
    switch (col->type) {
    case ZS_TYPE_TINYINT:
        v->v.i32 = (int8_t) (h >> 16);
        break;
    case ZS_TYPE_SMALLINT:
        v->v.i32 = (int16_t) (h >> 16);
        break;
    case ZS_TYPE_DECIMAL:
        s_decimal (col, id, c, h, v);
        break;
    case ZS_TYPE_CHAR:
        s_string (v, role, id, h, text);
        s_fit_length (col, v);
        break;
    case ZS_TYPE_BINARY:
        s_bytes (v, id, c, h, text);
        s_fit_length (col, v);
        break;
    case ZS_TYPE_TIME:
        v->v.i32 = (int32_t) s_to_precision (
            (int64_t) (h % 86400000), 3,
            zs_column_precision (col) < 3 ? zs_column_precision (col) : 3);
        break;
    case ZS_TYPE_TIMESTAMP9:
        v->v.i64 = s_to_precision ((int64_t) (h % INT64_C (6311390400000000000))
                                       - INT64_C (2208988800000000000),
                                   9, zs_column_precision (col));
        break;
    case ZS_TYPE_BOOLEAN:
        v->v.b = (h >> 8) & 1;
        break;
    case ZS_TYPE_INT:
        v->v.i32 = (int32_t) (uint32_t) (h >> 16);
        break;
    case ZS_TYPE_BIGINT:
        //  in unsigned arithmetic: the same bits as the two's complement
        //  wrap it always gave, without signed overflow (UBSan caught it)
        v->v.i64 = c == schema->id_col ? id : (int64_t) ((h >> 1) - (h >> 2) * 3);
        break;
    case ZS_TYPE_FLOAT:
        v->v.f32 = (float) ((int64_t) (h % 2000001) - 1000000) / 8.0f;
        break;
    case ZS_TYPE_DOUBLE:
        //  price in the default schema: cents, as the first releases had
        v->v.f64 = role == S_PRICE ? (double) (id % 100000) / 100.0
                                   : (double) ((int64_t) (h % 20000001) - 10000000) / 1024.0;
        break;
    case ZS_TYPE_STRING:
        s_string (v, role, id, h, text);
        s_fit_length (col, v);
        break;
    case ZS_TYPE_BYTES:
        s_bytes (v, id, c, h, text);
        s_fit_length (col, v);
        break;
    case ZS_TYPE_DATE:
        //  1900 … 2100, before the epoch included
        v->v.i32 = (int32_t) (h % 73049) - 25567;
        break;
    case ZS_TYPE_TIMESTAMP3:
        v->v.i64 =
            role == S_TS
                //  unsigned: ids near INT64_MAX wrap as Java's long does, no UB
                ? (int64_t) (UINT64_C (1700000000000) + (uint64_t) id * 1000u)
                : s_to_precision ((int64_t) (h % INT64_C (6311390400000)) - INT64_C (2208988800000),
                                  3, zs_column_precision (col));
        break;
    case ZS_TYPE_TIMESTAMP6:
        v->v.i64 =
            s_to_precision ((int64_t) (h % INT64_C (6311390400000000)) - INT64_C (2208988800000000),
                            6, zs_column_precision (col));
        break;
    case ZS_TYPE_ARRAY:
    case ZS_TYPE_MAP:
    case ZS_TYPE_ROW:
        s_nested (schema, col, v);
        break;
    }
}

void
zs_datagen_row (const zs_schema_t *schema, int64_t id, zs_value_t *row, zs_datagen_buf_t *buf)
{
    if (buf->fingerprint != schema->fingerprint || !schema->fingerprint)
        s_roles (schema, buf);
    for (int c = 0; c < schema->n; c++) {
        uint64_t h = s_mix (id, c);
        row[c].null = schema->cols[c].nullable && c != schema->id_col && h % 13 == 0;
        if (!row[c].null)
            s_value (schema, c, buf->role[c], id, h, &row[c], buf->text[c]);
    }
}
