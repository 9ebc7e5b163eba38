/*  fuzz_thrift.c - the Thrift compact decoder (thrift.h), on its own: the
    footer and page headers of every Parquet file go through it.

    Input: one encoded struct (or anything).
    Two decoders go over the same bytes: a walker reads every value with
    the typed calls (zs_thrift_dec_int, _binary, _list, nested structs, …),
    the other skips the whole struct with zs_thrift_dec_skip.
    Properties, beyond "no crash, leak or UB" (and never a read outside the
    input, which ASan checks):
    1. both agree: they succeed or fail together, and on success stop at
       the same byte;
    2. a failed decoder says why (error set) and every later call fails;
    3. zs_thrift_dec_i32 agrees with zs_thrift_dec_int where in range;
    4. what the walker read re-encodes, when the encoder has writers for
       all of it (ints, bools, doubles and binaries in fields; lists of
       ints, binaries or structs), to bytes that walk to the same values.
*/
#include "fuzz_common.h"
#include "thrift.h"

typedef struct {
    uint64_t hash;      //  of every value read, in order (FNV-1a)
    zs_thrift_enc_t *e; //  re-encoding, or NULL
    bool encodable;     //  false once the encoder has no writer for a value
    bool too_deep;      //  a list at the depth limit (skip fails there too)
} s_walk_t;

static void
s_hash (s_walk_t *w, int kind, const void *data, size_t len)
{
    const uint8_t *p = data;
    w->hash = (w->hash ^ (uint8_t) kind) * 1099511628211ull;
    for (size_t i = 0; i < len; i++)
        w->hash = (w->hash ^ p[i]) * 1099511628211ull;
}

static bool
s_is_int (int t)
{
    return t == ZS_THRIFT_I8 || t == ZS_THRIFT_I16 || t == ZS_THRIFT_I32 || t == ZS_THRIFT_I64;
}

static int s_walk_struct (zs_thrift_dec_t *d, s_walk_t *w);

//  One value of type t: a field's (in_field, id) or a list element's.
static int
s_walk_value (zs_thrift_dec_t *d, s_walk_t *w, int t, bool in_field, int16_t id)
{
    int64_t i;
    bool b;
    double x;
    const uint8_t *p;
    uint32_t len;
    zs_thrift_enc_t *e = w->e;
    switch (t) {
    case ZS_THRIFT_TRUE:
    case ZS_THRIFT_FALSE:
        if ((in_field ? zs_thrift_dec_bool (d, t, &b) : zs_thrift_dec_bool_elem (d, &b)) != 0)
            return -1;
        s_hash (w, 'b', &b, 1);
        if (in_field)
            zs_thrift_enc_field_bool (e, id, b);
        else
            w->encodable = false;
        return 0;
    case ZS_THRIFT_I8:
    case ZS_THRIFT_I16:
    case ZS_THRIFT_I32:
    case ZS_THRIFT_I64: {
        zs_thrift_dec_t copy = *d;
        int32_t i32;
        int rc32 = zs_thrift_dec_i32 (&copy, t, &i32);
        if (zs_thrift_dec_int (d, t, &i) != 0)
            return -1;
        ZS_FUZZ_CHECK (rc32 == 0 ? i == i32 : (i < INT32_MIN || i > INT32_MAX));
        s_hash (w, 'i', &i, sizeof i);
        if (in_field)
            zs_thrift_enc_field_i64 (e, id, i);
        else
            zs_thrift_enc_i64 (e, i);
        return 0;
    }
    case ZS_THRIFT_DOUBLE:
        if (zs_thrift_dec_double (d, t, &x) != 0)
            return -1;
        s_hash (w, 'd', &x, sizeof x);
        if (in_field)
            zs_thrift_enc_field_double (e, id, x);
        else
            w->encodable = false;
        return 0;
    case ZS_THRIFT_BINARY:
        if (zs_thrift_dec_binary (d, t, &p, &len) != 0)
            return -1;
        ZS_FUZZ_CHECK (p >= d->start && len <= (size_t) (d->end - p));
        s_hash (w, 's', &len, sizeof len);
        s_hash (w, 's', p, len);
        if (in_field)
            zs_thrift_enc_field_binary (e, id, p, len);
        else
            zs_thrift_enc_binary (e, p, len);
        return 0;
    case ZS_THRIFT_LIST:
    case ZS_THRIFT_SET: {
        int et;
        uint32_t n;
        if (zs_thrift_dec_list (d, t, &et, &n) != 0)
            return -1;
        ZS_FUZZ_CHECK (n <= (size_t) (d->end - d->p));
        //  zs_thrift_dec_skip counts a list as a level of depth (it bounds
        //  the recursion of lists in lists): the walker does the same, so
        //  that both see the same depth everywhere.
        if (d->depth >= ZS_THRIFT_MAX_DEPTH) {
            w->too_deep = true;
            return -1;
        }
        int norm = s_is_int (et) ? ZS_THRIFT_I64 : et;
        s_hash (w, 'l', &norm, sizeof norm);
        s_hash (w, 'l', &n, sizeof n);
        if (in_field
            && (norm == ZS_THRIFT_I64 || norm == ZS_THRIFT_BINARY || norm == ZS_THRIFT_STRUCT))
            zs_thrift_enc_field_list (e, id, norm, n);
        else
            w->encodable = false;
        d->depth++;
        for (uint32_t k = 0; k < n; k++) {
            if (et == ZS_THRIFT_STRUCT) {
                if (zs_thrift_dec_struct_begin (d) != 0)
                    return -1;
                zs_thrift_enc_struct_begin (e);
                if (s_walk_struct (d, w) != 0)
                    return -1;
                zs_thrift_enc_struct_end (e);
            } else if (s_walk_value (d, w, et, false, 0) != 0)
                return -1;
        }
        d->depth--;
        return 0;
    }
    case ZS_THRIFT_MAP:
        //  No typed reader for maps (Parquet has none): skip it.
        w->encodable = false;
        s_hash (w, 'm', NULL, 0);
        return zs_thrift_dec_skip (d, t);
    default:
        return -1;
    }
}

//  The fields of a struct already entered, up to its STOP.
static int
s_walk_struct (zs_thrift_dec_t *d, s_walk_t *w)
{
    int16_t id;
    int type, rc;
    s_hash (w, '{', NULL, 0);
    while ((rc = zs_thrift_dec_field (d, &id, &type)) == 1) {
        s_hash (w, 'f', &id, sizeof id);
        if (type == ZS_THRIFT_STRUCT) {
            if (zs_thrift_dec_struct_begin (d) != 0)
                return -1;
            zs_thrift_enc_field_struct (w->e, id);
            if (s_walk_struct (d, w) != 0)
                return -1;
            zs_thrift_enc_struct_end (w->e);
        } else if (s_walk_value (d, w, type, true, id) != 0)
            return -1;
    }
    s_hash (w, '}', NULL, 0);
    return rc;
}

//  Walk one top-level struct: 0 or -1.
static int
s_walk (zs_thrift_dec_t *d, s_walk_t *w)
{
    zs_thrift_enc_struct_begin (w->e);
    if (zs_thrift_dec_struct_begin (d) != 0 || s_walk_struct (d, w) != 0 || d->error)
        return -1;
    zs_thrift_enc_struct_end (w->e);
    return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    zs_thrift_dec_t walker, skipper;
    zs_thrift_enc_t enc;
    zs_thrift_enc_init (&enc);
    s_walk_t w = {.hash = 1469598103934665603ull, .e = &enc, .encodable = true};

    zs_thrift_dec_init (&walker, data, size);
    int rc_walk = s_walk (&walker, &w);
    zs_thrift_dec_init (&skipper, data, size);
    int rc_skip = zs_thrift_dec_skip (&skipper, ZS_THRIFT_STRUCT);
    if (rc_skip == 0 && skipper.error)
        rc_skip = -1;

    //  1: agreement
    if (rc_walk != rc_skip)
        fprintf (stderr, "walk %d (%s), skip %d (%s)\n", rc_walk,
                 w.too_deep     ? "depth limit"
                 : walker.error ? walker.error
                                : "-",
                 rc_skip, skipper.error ? skipper.error : "-");
    ZS_FUZZ_CHECK (rc_walk == rc_skip);
    if (rc_walk == 0)
        ZS_FUZZ_CHECK (zs_thrift_dec_offset (&walker) == zs_thrift_dec_offset (&skipper));
    ZS_FUZZ_CHECK (zs_thrift_dec_offset (&skipper) <= size);

    //  2: a failed decoder stays failed
    if (rc_skip != 0) {
        int16_t id;
        int type;
        ZS_FUZZ_CHECK (skipper.error != NULL);
        ZS_FUZZ_CHECK (zs_thrift_dec_field (&skipper, &id, &type) == -1);
        ZS_FUZZ_CHECK (zs_thrift_dec_skip (&skipper, ZS_THRIFT_I32) == -1);
    }

    //  4: round trip
    if (rc_walk == 0 && w.encodable && enc.ok) {
        zs_thrift_dec_t d;
        zs_thrift_enc_t enc2;
        zs_thrift_enc_init (&enc2);
        s_walk_t w2 = {.hash = 1469598103934665603ull, .e = &enc2, .encodable = true};
        zs_thrift_dec_init (&d, enc.data, enc.len);
        ZS_FUZZ_CHECK (s_walk (&d, &w2) == 0);
        ZS_FUZZ_CHECK (zs_thrift_dec_offset (&d) == enc.len);
        ZS_FUZZ_CHECK (w2.hash == w.hash);
        //  and the encoding is canonical: encoding it again is the same bytes
        ZS_FUZZ_CHECK (enc2.ok && enc2.len == enc.len
                       && memcmp (enc2.data, enc.data, enc.len) == 0);
        zs_thrift_enc_fini (&enc2);
    }
    zs_thrift_enc_fini (&enc);
    return 0;
}
