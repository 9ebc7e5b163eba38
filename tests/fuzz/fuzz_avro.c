/*  fuzz_avro.c - the Avro container reader, schema parser and decoder
    (avro.h), and the Paimon BinaryRow decoder (binrow.h): what zsink will
    read back from manifests, its own and Paimon's.

    Input: a container file (it starts with "Obj" 1), or else a BinaryRow
    case: byte 0 = number of fields (mod 12), then one byte per field's
    type (mod 10), then the serialized row.

    Container files. The reader opens the file (blocks capped at 4 MiB),
    the schema text is parsed, and every object of every block is read
    twice: by a walker that reads each value with the typed calls
    (zs_avro_dec_long, _bytes, _block, …), hashes it and re-encodes it, and
    by zs_avro_dec_skip. Properties, beyond "no crash, leak or UB" (and no
    read outside the input, which ASan checks):
    1. every failure says why (err or the decoder's error set), and a
       failed reader keeps failing;
    2. when the walker reads an object, the skipper does too and stops at
       the same byte (the skipper may succeed where the walker fails: it
       jumps over sized array blocks without looking inside);
    3. the walker's re-encoding walks to the same values and re-encodes
       byte-identical (a canonical form);
    4. a file that reads whole is written again by zs_avro_writer (same
       schema text, same codec when zsink writes it, else null) and reads
       back to the same objects.
    3 and 4 leave out objects with arrays of items that take no bytes
    (array<null>): the decoder counts a byte per item (avro.h), and the
    re-encoding may lack the bytes that made the count acceptable.

    BinaryRows. Properties: a failure is ZS_ECORRUPT with a message; every
    STRING/BYTES value lies inside the input; a decoded row re-encodes to
    a row that decodes to the same values and re-encodes byte-identical.
*/
#include "avro.h"
#include "binrow.h"
#include "fuzz_common.h"

#include "../unit/binrow_types.h"

#define S_BLOCK_MAX (4u << 20)
//  The walker's budget of values per input. A value of a type that
//  encodes to no bytes (null, records of nulls) costs the walker a step
//  but the skipper none (avro_schema.c, invariant 2): without a budget a
//  hostile schema makes the walker, not the code under test, time out.
#define S_STEPS_MAX 2000000
static long s_steps;

typedef struct {
    uint64_t hash;    //  of every value read, in order (FNV-1a)
    zs_avro_enc_t *e; //  re-encoding
    //  An array or map block held items of no bytes (array<null>): its
    //  count was accepted because bytes after it made up for them (one
    //  per item, avro.h), which the shorter re-encoding may not have.
    bool zero_items;
} s_walk_t;

static void
s_hash (s_walk_t *w, int kind, const void *data, size_t len)
{
    const uint8_t *p = data;
    w->hash = (w->hash ^ (uint8_t) kind) * 1099511628211ull;
    for (size_t i = 0; i < len; i++)
        w->hash = (w->hash ^ p[i]) * 1099511628211ull;
}

static int s_walk (zs_avro_dec_t *d, const zs_avro_node_t *t, s_walk_t *w, int depth);

static int
s_walk_blocks (zs_avro_dec_t *d, const zs_avro_node_t *t, s_walk_t *w, int depth)
{
    int64_t count, size;
    const uint8_t *p;
    size_t len;
    while (zs_avro_dec_block (d, &count, &size) == 0 && count > 0) {
        //  One block out for each block in (counts made positive).
        zs_avro_enc_long (w->e, count);
        s_hash (w, 'n', &count, sizeof count);
        //  A sized block's items must take exactly its size, or the
        //  skipper (which jumps by the size) would read the rest otherwise.
        size_t start = zs_avro_dec_offset (d);
        for (int64_t i = 0; i < count; i++) {
            if (t->kind == ZS_AVRO_MAP) {
                if (zs_avro_dec_string (d, &p, &len) != 0)
                    return -1;
                s_hash (w, 'k', p, len);
                zs_avro_enc_bytes (w->e, p, len);
            }
            if (s_walk (d, t->types[0], w, depth + 1) != 0)
                return -1;
        }
        if (size >= 0 && zs_avro_dec_offset (d) - start != (size_t) size)
            return -1;
        if (zs_avro_dec_offset (d) - start < (size_t) count)
            w->zero_items = true;
    }
    if (d->error)
        return -1;
    zs_avro_enc_long (w->e, 0);
    return 0;
}

static int
s_walk (zs_avro_dec_t *d, const zs_avro_node_t *t, s_walk_t *w, int depth)
{
    if (depth > ZS_AVRO_MAX_DEPTH || ++s_steps > S_STEPS_MAX)
        return -1;
    bool b;
    int32_t i32;
    int64_t i64;
    float f;
    double x;
    const uint8_t *p;
    size_t len;
    int idx;
    switch (t->kind) {
    case ZS_AVRO_NULL:
        return zs_avro_dec_null (d);
    case ZS_AVRO_BOOLEAN:
        if (zs_avro_dec_bool (d, &b) != 0)
            return -1;
        s_hash (w, 'b', &b, 1);
        zs_avro_enc_bool (w->e, b);
        return 0;
    case ZS_AVRO_INT:
        if (zs_avro_dec_int (d, &i32) != 0)
            return -1;
        s_hash (w, 'i', &i32, 4);
        zs_avro_enc_int (w->e, i32);
        return 0;
    case ZS_AVRO_LONG:
        if (zs_avro_dec_long (d, &i64) != 0)
            return -1;
        s_hash (w, 'l', &i64, 8);
        zs_avro_enc_long (w->e, i64);
        return 0;
    case ZS_AVRO_FLOAT:
        if (zs_avro_dec_float (d, &f) != 0)
            return -1;
        s_hash (w, 'f', &f, 4);
        zs_avro_enc_float (w->e, f);
        return 0;
    case ZS_AVRO_DOUBLE:
        if (zs_avro_dec_double (d, &x) != 0)
            return -1;
        s_hash (w, 'd', &x, 8);
        zs_avro_enc_double (w->e, x);
        return 0;
    case ZS_AVRO_BYTES:
    case ZS_AVRO_STRING:
        if (zs_avro_dec_bytes (d, &p, &len) != 0)
            return -1;
        s_hash (w, 's', p, len);
        zs_avro_enc_bytes (w->e, p, len);
        return 0;
    case ZS_AVRO_FIXED:
        if (zs_avro_dec_fixed (d, (size_t) t->size, &p) != 0)
            return -1;
        s_hash (w, 'x', p, (size_t) t->size);
        zs_avro_enc_fixed (w->e, p, (size_t) t->size);
        return 0;
    case ZS_AVRO_ENUM:
        if (zs_avro_dec_enum (d, t->size, &idx) != 0)
            return -1;
        ZS_FUZZ_CHECK (idx >= 0 && idx < t->size);
        s_hash (w, 'e', &idx, sizeof idx);
        zs_avro_enc_enum (w->e, idx);
        return 0;
    case ZS_AVRO_UNION:
        if (zs_avro_dec_union (d, t->size, &idx) != 0)
            return -1;
        ZS_FUZZ_CHECK (idx >= 0 && idx < t->size);
        s_hash (w, 'u', &idx, sizeof idx);
        zs_avro_enc_union (w->e, idx);
        return s_walk (d, t->types[idx], w, depth + 1);
    case ZS_AVRO_RECORD:
        for (int i = 0; i < t->size; i++)
            if (s_walk (d, t->types[i], w, depth + 1) != 0)
                return -1;
        return 0;
    case ZS_AVRO_ARRAY:
    case ZS_AVRO_MAP:
        return s_walk_blocks (d, t, w, depth);
    }
    ZS_FUZZ_CHECK (!"unknown kind");
    return -1;
}

//  The schema graph is well formed: what the header promises callers.
static void
s_check_node (const zs_avro_node_t *t, int depth)
{
    ZS_FUZZ_CHECK (t->kind >= ZS_AVRO_NULL && t->kind <= ZS_AVRO_FIXED);
    if (depth > ZS_AVRO_MAX_DEPTH + 2)
        return; //  recursive types: enough
    switch (t->kind) {
    case ZS_AVRO_RECORD:
        ZS_FUZZ_CHECK (t->name && t->size >= 0 && (t->size == 0 || (t->types && t->names)));
        for (int i = 0; i < t->size; i++) {
            ZS_FUZZ_CHECK (zs_avro_field_index (t, t->names[i]) == i);
            s_check_node (t->types[i], depth + 1);
        }
        break;
    case ZS_AVRO_UNION:
        ZS_FUZZ_CHECK (t->size > 0 && t->types);
        for (int i = 0; i < t->size; i++)
            s_check_node (t->types[i], depth + 1);
        break;
    case ZS_AVRO_ARRAY:
    case ZS_AVRO_MAP:
        ZS_FUZZ_CHECK (t->size == 1 && t->types);
        s_check_node (t->types[0], depth + 1);
        break;
    case ZS_AVRO_ENUM:
        ZS_FUZZ_CHECK (t->name && t->size > 0 && t->names);
        break;
    case ZS_AVRO_FIXED:
        ZS_FUZZ_CHECK (t->name && t->size >= 0);
        break;
    default:
        break;
    }
}

//  One object at d: walk, skip, re-encode (properties 2 and 3). 0 when the
//  walker read it; the re-encoding is appended to out. *zero_items: the
//  object has arrays of items of no bytes, so property 3 (and 4) do not
//  apply.
static int
s_object (zs_avro_dec_t *d, const zs_avro_node_t *root, zs_avro_enc_t *out, uint64_t *hash,
          bool *zero_items)
{
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    s_walk_t w = {1469598103934665603ull, &e, false};
    zs_avro_dec_t skip = *d;
    int rc = s_walk (d, root, &w, 0);
    int src = zs_avro_dec_skip (&skip, root);
    ZS_FUZZ_CHECK (src == 0 || skip.error);
    if (rc != 0) {
        zs_avro_enc_fini (&e);
        return -1;
    }
    ZS_FUZZ_CHECK (src == 0 && zs_avro_dec_offset (&skip) == zs_avro_dec_offset (d));
    ZS_FUZZ_CHECK (e.ok);
    if (w.zero_items) {
        *zero_items = true;
        zs_avro_enc_fini (&e);
        return 0;
    }

    //  Property 3: the re-encoding is canonical.
    zs_avro_enc_t e2;
    zs_avro_enc_init (&e2);
    s_walk_t w2 = {1469598103934665603ull, &e2, false};
    zs_avro_dec_t d2;
    zs_avro_dec_init (&d2, e.data, e.len);
    long steps = s_steps;
    s_steps = 0; //  the same walk again: it fits the budget it fitted
    ZS_FUZZ_CHECK (s_walk (&d2, root, &w2, 0) == 0);
    s_steps = steps;
    ZS_FUZZ_CHECK (zs_avro_dec_left (&d2) == 0 && w2.hash == w.hash);
    ZS_FUZZ_CHECK (e2.len == e.len && (e.len == 0 || memcmp (e2.data, e.data, e.len) == 0));
    zs_avro_enc_fini (&e2);

    zs_avro_enc_fixed (out, e.data, e.len);
    *hash = (*hash ^ w.hash) * 1099511628211ull;
    zs_avro_enc_fini (&e);
    return 0;
}

//  Read a whole file: objects re-encoded into out (each object's bytes
//  also delimited by its end offset in ends[]), their count and hash. 0
//  when every block and object reads.
static int
s_read_all (const uint8_t *data, size_t size, zs_avro_enc_t *out, size_t **ends, size_t *n,
            uint64_t *hash, zs_avro_schema_t **schema_p, zs_avro_codec_t *codec, bool *zero_items)
{
    char err[ZS_ERRLEN] = "";
    zs_avro_reader_t *r = zs_avro_reader_new (data, size, err, sizeof err);
    if (!r) {
        ZS_FUZZ_CHECK (err[0]);
        return -1;
    }
    zs_avro_reader_set_block_max (r, S_BLOCK_MAX);
    *codec = zs_avro_reader_codec (r);
    size_t slen;
    const char *text = zs_avro_reader_schema (r, &slen);
    ZS_FUZZ_CHECK (text && strlen (text) == slen);
    zs_avro_schema_t *schema = *schema_p;
    if (!schema) {
        schema = zs_avro_schema_parse (text, slen, err, sizeof err);
        if (!schema) {
            ZS_FUZZ_CHECK (err[0]);
            zs_avro_reader_destroy (&r);
            return -1;
        }
        s_check_node (zs_avro_schema_root (schema), 0);
        *schema_p = schema;
    }
    const zs_avro_node_t *root = zs_avro_schema_root (schema);
    int64_t count;
    zs_avro_dec_t d;
    int rc, ok = 0;
    size_t cap = 0;
    *n = 0;
    while ((rc = zs_avro_reader_next (r, &count, &d, err, sizeof err)) == 1) {
        ZS_FUZZ_CHECK (count >= 0 && (uint64_t) count <= zs_avro_dec_left (&d));
        for (int64_t i = 0; i < count && ok == 0; i++) {
            ok = s_object (&d, root, out, hash, zero_items);
            if (ok == 0) {
                size_t *e = zs_grow (*ends, &cap, *n * sizeof **ends, sizeof **ends, 64);
                ZS_FUZZ_CHECK (e);
                *ends = e;
                (*ends)[(*n)++] = out->len;
            }
        }
        if (ok != 0 || zs_avro_dec_left (&d) != 0)
            ok = -1;
        if (ok != 0)
            break;
    }
    if (rc < 0) {
        //  Property 1: said why, and stays failed.
        ZS_FUZZ_CHECK (rc == ZS_ECORRUPT && err[0]);
        char again[ZS_ERRLEN] = "";
        ZS_FUZZ_CHECK (zs_avro_reader_next (r, &count, &d, again, sizeof again) == ZS_ECORRUPT);
        ZS_FUZZ_CHECK (strcmp (again, err) == 0);
    }
    zs_avro_reader_destroy (&r);
    return rc == 0 && ok == 0 ? 0 : -1;
}

static void
s_container (const uint8_t *data, size_t size)
{
    zs_avro_enc_t objs;
    zs_avro_enc_init (&objs);
    size_t *ends = NULL, n = 0;
    uint64_t hash = 0;
    zs_avro_schema_t *schema = NULL;
    zs_avro_codec_t codec;
    bool zero_items = false;
    int rc = s_read_all (data, size, &objs, &ends, &n, &hash, &schema, &codec, &zero_items);
    if (zs_fuzz_verbose ())
        fprintf (stderr, "avro: %s, %zu objects\n", rc == 0 ? "read" : "failed", n);
    //  Objects that encode to no bytes cannot be rewritten: the reader
    //  wants a byte per object in every block (avro.h), and the writer's
    //  blocks fall elsewhere than the input's.
    bool empty = false;
    for (size_t i = 0; rc == 0 && i < n; i++)
        empty = empty || ends[i] == (i ? ends[i - 1] : 0);
    if (rc != 0 || n == 0 || empty || zero_items) {
        zs_avro_schema_destroy (&schema);
        zs_avro_enc_fini (&objs);
        free (ends);
        return;
    }
    //  Property 4: write it again, read it back.
    char err[ZS_ERRLEN];
    zs_avro_reader_t *r = zs_avro_reader_new (data, size, err, sizeof err);
    ZS_FUZZ_CHECK (r);
    if (codec == ZS_AVRO_CODEC_SNAPPY)
        codec = ZS_AVRO_CODEC_NULL;
    zs_avro_writer_t *w =
        zs_avro_writer_new (zs_avro_reader_schema (r, NULL), codec, 0, err, sizeof err);
    ZS_FUZZ_CHECK (w);
    zs_avro_writer_set_block_size (w, 1 + size % 512);
    for (size_t i = 0, at = 0; i < n; at = ends[i++]) {
        zs_avro_enc_fixed (zs_avro_writer_object (w), objs.data + at, ends[i] - at);
        ZS_FUZZ_CHECK (zs_avro_writer_object_end (w) == 0);
    }
    size_t len;
    const uint8_t *file = zs_avro_writer_finish (w, &len);
    ZS_FUZZ_CHECK (file);
    uint8_t *copy = malloc (len);
    memcpy (copy, file, len);
    zs_avro_enc_t objs2;
    zs_avro_enc_init (&objs2);
    size_t *ends2 = NULL, n2 = 0;
    uint64_t hash2 = 0;
    zs_avro_codec_t codec2;
    s_steps = 0; //  the same values as the first read: the same steps
    ZS_FUZZ_CHECK (
        s_read_all (copy, len, &objs2, &ends2, &n2, &hash2, &schema, &codec2, &zero_items) == 0);
    ZS_FUZZ_CHECK (n2 == n && hash2 == hash && codec2 == codec);
    ZS_FUZZ_CHECK (objs2.len == objs.len && memcmp (objs2.data, objs.data, objs.len) == 0);
    free (copy);
    free (ends2);
    zs_avro_enc_fini (&objs2);
    zs_avro_writer_destroy (&w);
    zs_avro_reader_destroy (&r);
    zs_avro_schema_destroy (&schema);
    zs_avro_enc_fini (&objs);
    free (ends);
}

static bool
s_same (zs_type_t type, const zs_value_t *a, const zs_value_t *b)
{
    if (a->null || b->null)
        return a->null == b->null;
    switch (type) {
    case ZS_TYPE_BOOLEAN:
        return a->v.b == b->v.b;
    case ZS_TYPE_INT:
    case ZS_TYPE_DATE:
        return a->v.i32 == b->v.i32;
    case ZS_TYPE_FLOAT:
        return memcmp (&a->v.f32, &b->v.f32, 4) == 0;
    case ZS_TYPE_DOUBLE:
        return memcmp (&a->v.f64, &b->v.f64, 8) == 0;
    case ZS_TYPE_STRING:
    case ZS_TYPE_BYTES:
        return a->v.bin.len == b->v.bin.len
               && (a->v.bin.len == 0 || memcmp (a->v.bin.ptr, b->v.bin.ptr, a->v.bin.len) == 0);
    default:
        return a->v.i64 == b->v.i64;
    }
}

static void
s_binrow (const uint8_t *data, size_t size)
{
    if (size < 1)
        return;
    int n = data[0] % 12;
    if (size < 1 + (size_t) n)
        return;
    zs_type_t types[12];
    for (int i = 0; i < n; i++)
        types[i] = (zs_type_t) (ZS_TYPE_BOOLEAN + data[1 + i] % 10);
    const uint8_t *row = data + 1 + n;
    size_t len = size - 1 - (size_t) n;
    uint8_t *copy = malloc (len ? len : 1); //  exact size for ASan
    memcpy (copy, row, len);
    zs_value_t values[12], again[12];
    char err[ZS_ERRLEN] = "";
    int rc = s_decode (copy, len, types, n, values, err, sizeof err);
    if (zs_fuzz_verbose ())
        fprintf (stderr, "binrow: %d fields: %s\n", n, rc == 0 ? "decoded" : err);
    if (rc != 0) {
        ZS_FUZZ_CHECK (rc == ZS_ECORRUPT && strncmp (err, "binrow: ", 8) == 0);
        free (copy);
        return;
    }
    ZS_FUZZ_CHECK (zs_binrow_arity (copy, len) == n);
    for (int i = 0; i < n; i++)
        if (!values[i].null && zs_type_is_binary (types[i]))
            ZS_FUZZ_CHECK (values[i].v.bin.ptr >= copy
                           && values[i].v.bin.ptr + values[i].v.bin.len <= copy + len);
    size_t len1, len2;
    uint8_t *one = s_encode (types, values, n, &len1, err, sizeof err);
    ZS_FUZZ_CHECK (one);
    ZS_FUZZ_CHECK (s_decode (one, len1, types, n, again, err, sizeof err) == 0);
    for (int i = 0; i < n; i++)
        ZS_FUZZ_CHECK (s_same (types[i], &values[i], &again[i]));
    uint8_t *two = s_encode (types, again, n, &len2, err, sizeof err);
    ZS_FUZZ_CHECK (two && len2 == len1 && memcmp (one, two, len1) == 0);
    free (one);
    free (two);
    free (copy);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    s_steps = 0;
    if (size >= 4 && memcmp (data, "Obj\1", 4) == 0)
        s_container (data, size);
    else
        s_binrow (data, size);
    return 0;
}
