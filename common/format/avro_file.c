/*  avro_file.c - Avro object container files: the writer (into memory)
    and the reader (over memory), see avro.h.

    Reader invariants:
    1. Nothing in the file is trusted before it is checked: a block's byte
       size against the bytes left, its object count against its
       decompressed size (one byte per object at least), its sync marker
       against the header's.
    2. A decompressed block is capped by block_max, and its buffer grows
       only as output actually appears (never to a size the input
       announces), so a zstd or deflate bomb stops at the cap and a small
       block costs little. Snappy's announced length is checked against
       the most the input can expand to before anything is allocated.
    3. Errors name the block (number and file offset) and the problem;
       the header's say "avro header". An error is sticky.
*/
#include "avro.h"
#include "snappy.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#define ZLIB_CONST
#include <zlib.h>
#include <zstd.h>

#define S_DEFAULT_BLOCK_SIZE 64000 //  Avro Java's DEFAULT_SYNC_INTERVAL
#define S_META_MAX 1024            //  metadata entries a header may have

static const char s_magic[4] = {'O', 'b', 'j', 1};

//  --------------------------------------------------------------------------
//  OCF writer

struct _zs_avro_writer_t {
    zs_avro_codec_t codec;
    int level;
    zs_avro_enc_t out;   //  the file so far
    zs_avro_enc_t block; //  the objects of the block being filled, plain
    zs_bytes_t z;        //  the block compressed
    size_t header_len;   //  the header ends with the sync marker
    uint8_t sync[ZS_AVRO_SYNC_SIZE];
    size_t block_size;
    int64_t block_count;
    int64_t count;
    bool wrote_block;
    bool finished;
    bool failed;
    ZSTD_CCtx *cctx;
};

//  16 random bytes. The marker only has to be unlikely to occur inside
//  the data; if the kernel's generator fails, the clock and pid will do.
static void
s_random_sync (uint8_t sync[ZS_AVRO_SYNC_SIZE])
{
    if (getrandom (sync, ZS_AVRO_SYNC_SIZE, 0) == ZS_AVRO_SYNC_SIZE)
        return;
    struct timespec ts;
    clock_gettime (CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t) ts.tv_sec * 1000000007u ^ (uint64_t) ts.tv_nsec ^ (uint64_t) getpid ();
    for (int i = 0; i < ZS_AVRO_SYNC_SIZE; i++) {
        x += 0x9E3779B97F4A7C15u; //  splitmix64
        uint64_t z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        sync[i] = (uint8_t) (z ^ (z >> 31));
    }
}

static int
s_check_level (zs_avro_codec_t codec, int level, char *err, size_t errlen)
{
    if (codec == ZS_AVRO_CODEC_DEFLATE && (level < 0 || level > 9)) {
        snprintf (err, errlen, "avro: deflate level %d out of range (0 = default, 1…9)", level);
        return -1;
    }
    if (codec == ZS_AVRO_CODEC_ZSTANDARD
        && (level < ZSTD_minCLevel () || level > ZSTD_maxCLevel ())) {
        snprintf (err, errlen, "avro: zstandard level %d out of range", level);
        return -1;
    }
    return 0;
}

zs_avro_writer_t *
zs_avro_writer_new (const char *schema, zs_avro_codec_t codec, int level, char *err, size_t errlen)
{
    if (codec != ZS_AVRO_CODEC_NULL && codec != ZS_AVRO_CODEC_DEFLATE
        && codec != ZS_AVRO_CODEC_ZSTANDARD) {
        snprintf (err, errlen, "avro: cannot write codec %s", zs_avro_codec_name (codec));
        return NULL;
    }
    if (s_check_level (codec, level, err, errlen) != 0)
        return NULL;
    //  The text goes out verbatim, but it must be a schema: a reader would
    //  refuse the file otherwise.
    zs_avro_schema_t *parsed = zs_avro_schema_parse (schema, strlen (schema), err, errlen);
    if (!parsed)
        return NULL;
    zs_avro_schema_destroy (&parsed);

    zs_avro_writer_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "avro: out of memory");
        return NULL;
    }
    self->codec = codec;
    self->level = level;
    self->block_size = S_DEFAULT_BLOCK_SIZE;
    zs_avro_enc_init (&self->out);
    zs_avro_enc_init (&self->block);
    zs_bytes_init (&self->z);
    if (codec == ZS_AVRO_CODEC_ZSTANDARD) {
        self->cctx = ZSTD_createCCtx ();
        //  The frame checksum lets readers catch a corrupt block that
        //  still decompresses; Avro readers verify it like any zstd user.
        if (!self->cctx
            || ZSTD_isError (ZSTD_CCtx_setParameter (self->cctx, ZSTD_c_checksumFlag, 1))
            || (level != 0
                && ZSTD_isError (
                    ZSTD_CCtx_setParameter (self->cctx, ZSTD_c_compressionLevel, level)))) {
            zs_avro_writer_destroy (&self);
            snprintf (err, errlen, "avro: cannot set up zstd");
            return NULL;
        }
    }
    s_random_sync (self->sync);
    zs_avro_enc_fixed (&self->out, s_magic, 4);
    zs_avro_enc_map_start (&self->out, 2);
    zs_avro_enc_string (&self->out, "avro.schema");
    zs_avro_enc_string (&self->out, schema);
    zs_avro_enc_string (&self->out, "avro.codec");
    zs_avro_enc_string (&self->out, zs_avro_codec_name (codec));
    zs_avro_enc_map_end (&self->out);
    zs_avro_enc_fixed (&self->out, self->sync, ZS_AVRO_SYNC_SIZE);
    self->header_len = self->out.len;
    if (!self->out.ok) {
        zs_avro_writer_destroy (&self);
        snprintf (err, errlen, "avro: out of memory");
        return NULL;
    }
    return self;
}

void
zs_avro_writer_destroy (zs_avro_writer_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_avro_writer_t *self = *self_p;
    zs_avro_enc_fini (&self->out);
    zs_avro_enc_fini (&self->block);
    zs_bytes_fini (&self->z);
    ZSTD_freeCCtx (self->cctx);
    free (self);
    *self_p = NULL;
}

int
zs_avro_writer_set_sync (zs_avro_writer_t *self, const uint8_t sync[ZS_AVRO_SYNC_SIZE])
{
    if (self->wrote_block || self->finished)
        return -1;
    memcpy (self->sync, sync, ZS_AVRO_SYNC_SIZE);
    memcpy (self->out.data + self->header_len - ZS_AVRO_SYNC_SIZE, sync, ZS_AVRO_SYNC_SIZE);
    return 0;
}

void
zs_avro_writer_set_block_size (zs_avro_writer_t *self, size_t bytes)
{
    self->block_size = bytes ? bytes : 1;
}

zs_avro_enc_t *
zs_avro_writer_object (zs_avro_writer_t *self)
{
    return &self->block;
}

int64_t
zs_avro_writer_count (const zs_avro_writer_t *self)
{
    return self->count;
}

//  Room for n bytes of compressed output in z, from its start.
static int
s_zroom (zs_avro_writer_t *self, size_t n)
{
    zs_bytes_reset (&self->z);
    return zs_bytes_reserve (&self->z, n) ? 0 : -1;
}

//  Raw deflate (window bits -15: no zlib header or trailer), as Avro's
//  DeflateCodec writes it.
static int
s_deflate (zs_avro_writer_t *self, const uint8_t *src, size_t len, size_t *zlen)
{
    if (len > UINT32_MAX / 2)
        return -1;
    z_stream zs;
    memset (&zs, 0, sizeof zs);
    int level = self->level ? self->level : Z_DEFAULT_COMPRESSION;
    if (deflateInit2 (&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t bound = deflateBound (&zs, (uLong) len);
    int rc = -1;
    if (s_zroom (self, bound) == 0) {
        zs.next_in = src;
        zs.avail_in = (uInt) len;
        zs.next_out = self->z.data;
        zs.avail_out = (uInt) bound;
        if (deflate (&zs, Z_FINISH) == Z_STREAM_END) {
            *zlen = zs.total_out;
            rc = 0;
        }
    }
    deflateEnd (&zs);
    return rc;
}

static int
s_zstd (zs_avro_writer_t *self, const uint8_t *src, size_t len, size_t *zlen)
{
    size_t bound = ZSTD_compressBound (len);
    if (bound == 0 || ZSTD_isError (bound) || s_zroom (self, bound) != 0)
        return -1;
    size_t n = ZSTD_compress2 (self->cctx, self->z.data, bound, src, len);
    if (ZSTD_isError (n))
        return -1;
    *zlen = n;
    return 0;
}

//  Write the block being filled, if any: count, size, data, sync.
static int
s_end_block (zs_avro_writer_t *self)
{
    if (self->block_count == 0)
        return 0;
    if (!self->block.ok)
        return -1;
    const uint8_t *z = self->block.data;
    size_t zlen = self->block.len;
    if (self->codec == ZS_AVRO_CODEC_DEFLATE) {
        if (s_deflate (self, self->block.data, self->block.len, &zlen) != 0)
            return -1;
        z = self->z.data;
    } else if (self->codec == ZS_AVRO_CODEC_ZSTANDARD) {
        if (s_zstd (self, self->block.data, self->block.len, &zlen) != 0)
            return -1;
        z = self->z.data;
    }
    zs_avro_enc_long (&self->out, self->block_count);
    zs_avro_enc_long (&self->out, (int64_t) zlen);
    zs_avro_enc_fixed (&self->out, z, zlen);
    zs_avro_enc_fixed (&self->out, self->sync, ZS_AVRO_SYNC_SIZE);
    zs_avro_enc_reset (&self->block);
    self->block_count = 0;
    self->wrote_block = true;
    return self->out.ok ? 0 : -1;
}

int
zs_avro_writer_object_end (zs_avro_writer_t *self)
{
    if (self->failed || self->finished || !self->block.ok) {
        self->failed = true;
        return -1;
    }
    self->block_count++;
    self->count++;
    if (self->block.len >= self->block_size && s_end_block (self) != 0) {
        self->failed = true;
        return -1;
    }
    return 0;
}

const uint8_t *
zs_avro_writer_finish (zs_avro_writer_t *self, size_t *len)
{
    if (self->failed)
        return NULL;
    if (!self->finished && s_end_block (self) != 0) {
        self->failed = true;
        return NULL;
    }
    self->finished = true;
    *len = self->out.len;
    return self->out.data;
}

//  --------------------------------------------------------------------------
//  OCF reader

typedef struct {
    const uint8_t *key;
    size_t key_len;
    const uint8_t *value;
    size_t value_len;
} s_meta_t;

struct _zs_avro_reader_t {
    const uint8_t *data;
    size_t len;
    size_t pos; //  where the next block starts
    zs_avro_codec_t codec;
    char *schema;
    size_t schema_len;
    s_meta_t *meta;
    size_t nmeta;
    size_t meta_cap;
    uint8_t sync[ZS_AVRO_SYNC_SIZE];
    size_t block_max;
    uint8_t *buf; //  the current block decompressed
    size_t buf_cap;
    int64_t blocks; //  blocks read
    char error[ZS_ERRLEN];
    bool failed;
    ZSTD_DStream *zds;
};

void
zs_avro_reader_destroy (zs_avro_reader_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zs_avro_reader_t *self = *self_p;
    free (self->schema);
    free (self->meta);
    free (self->buf);
    ZSTD_freeDStream (self->zds);
    free (self);
    *self_p = NULL;
}

static const s_meta_t *
s_meta_find (const zs_avro_reader_t *self, const char *key)
{
    size_t n = strlen (key);
    for (size_t i = 0; i < self->nmeta; i++)
        if (self->meta[i].key_len == n && memcmp (self->meta[i].key, key, n) == 0)
            return &self->meta[i];
    return NULL;
}

//  A name off the file, fit for a message: printable ASCII, at most 40.
static void
s_printable (char *dst, size_t dstlen, const uint8_t *src, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; i < n && i < 40 && j + 1 < dstlen; i++)
        dst[j++] = src[i] >= 0x20 && src[i] < 0x7F ? (char) src[i] : '?';
    dst[j] = 0;
}

static int
s_read_meta (zs_avro_reader_t *self, zs_avro_dec_t *d, char *err, size_t errlen)
{
    int64_t count, size;
    while (zs_avro_dec_block (d, &count, &size) == 0 && count > 0) {
        for (int64_t i = 0; i < count; i++) {
            s_meta_t m;
            if (zs_avro_dec_string (d, &m.key, &m.key_len) != 0
                || zs_avro_dec_bytes (d, &m.value, &m.value_len) != 0)
                break;
            char key[48];
            s_printable (key, sizeof key, m.key, m.key_len);
            for (size_t k = 0; k < self->nmeta; k++)
                if (self->meta[k].key_len == m.key_len
                    && memcmp (self->meta[k].key, m.key, m.key_len) == 0) {
                    snprintf (err, errlen, "avro header: metadata key '%s' given twice", key);
                    return ZS_ECORRUPT;
                }
            if (self->nmeta >= S_META_MAX) {
                snprintf (err, errlen, "avro header: more than %d metadata entries", S_META_MAX);
                return ZS_ECORRUPT;
            }
            s_meta_t *meta = zs_grow (self->meta, &self->meta_cap, self->nmeta * sizeof m, sizeof m,
                                      8 * sizeof m);
            if (!meta) {
                snprintf (err, errlen, "avro header: out of memory");
                return ZS_ERR;
            }
            self->meta = meta;
            self->meta[self->nmeta++] = m;
        }
    }
    if (d->error) {
        snprintf (err, errlen, "avro header: metadata: %s", d->error);
        return ZS_ECORRUPT;
    }
    return 0;
}

static int
s_read_codec (zs_avro_reader_t *self, char *err, size_t errlen)
{
    const s_meta_t *m = s_meta_find (self, "avro.codec");
    self->codec = ZS_AVRO_CODEC_NULL; //  no avro.codec means null
    if (!m)
        return 0;
    static const zs_avro_codec_t codecs[] = {ZS_AVRO_CODEC_NULL, ZS_AVRO_CODEC_DEFLATE,
                                             ZS_AVRO_CODEC_SNAPPY, ZS_AVRO_CODEC_ZSTANDARD};
    for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++) {
        const char *name = zs_avro_codec_name (codecs[i]);
        if (m->value_len == strlen (name) && memcmp (m->value, name, m->value_len) == 0) {
            self->codec = codecs[i];
            return 0;
        }
    }
    char name[48];
    s_printable (name, sizeof name, m->value, m->value_len);
    snprintf (err, errlen,
              "avro header: unsupported codec '%s' (null, deflate, snappy and zstandard are read)",
              name);
    return ZS_ECORRUPT;
}

static int
s_read_header (zs_avro_reader_t *self, char *err, size_t errlen)
{
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, self->data, self->len);
    if (self->len < 4 || memcmp (self->data, s_magic, 4) != 0) {
        snprintf (err, errlen, "not an Avro object container file (no Obj\\1 magic)");
        return ZS_ECORRUPT;
    }
    zs_avro_dec_skip_bytes (&d, 4);
    int rc = s_read_meta (self, &d, err, errlen);
    if (rc != 0)
        return rc;
    const uint8_t *sync;
    if (zs_avro_dec_fixed (&d, ZS_AVRO_SYNC_SIZE, &sync) != 0) {
        snprintf (err, errlen, "avro header: truncated sync marker");
        return ZS_ECORRUPT;
    }
    memcpy (self->sync, sync, ZS_AVRO_SYNC_SIZE);
    self->pos = zs_avro_dec_offset (&d);
    const s_meta_t *schema = s_meta_find (self, "avro.schema");
    if (!schema) {
        snprintf (err, errlen, "avro header: no avro.schema");
        return ZS_ECORRUPT;
    }
    if (memchr (schema->value, 0, schema->value_len)) {
        snprintf (err, errlen, "avro header: avro.schema holds a NUL byte");
        return ZS_ECORRUPT;
    }
    if (!(self->schema = strndup ((const char *) schema->value, schema->value_len))) {
        snprintf (err, errlen, "avro header: out of memory");
        return ZS_ERR;
    }
    self->schema_len = schema->value_len;
    return s_read_codec (self, err, errlen);
}

zs_avro_reader_t *
zs_avro_reader_new (const void *data, size_t len, char *err, size_t errlen)
{
    zs_avro_reader_t *self = calloc (1, sizeof *self);
    if (!self) {
        snprintf (err, errlen, "avro: out of memory");
        return NULL;
    }
    self->data = data;
    self->len = data ? len : 0;
    self->block_max = ZS_AVRO_BLOCK_MAX;
    if (s_read_header (self, err, errlen) != 0)
        zs_avro_reader_destroy (&self);
    return self;
}

const char *
zs_avro_reader_schema (const zs_avro_reader_t *self, size_t *len)
{
    if (len)
        *len = self->schema_len;
    return self->schema;
}

zs_avro_codec_t
zs_avro_reader_codec (const zs_avro_reader_t *self)
{
    return self->codec;
}

int
zs_avro_reader_meta (const zs_avro_reader_t *self, const char *key, const uint8_t **value,
                     size_t *len)
{
    const s_meta_t *m = s_meta_find (self, key);
    if (!m)
        return ZS_ENOENT;
    *value = m->value;
    *len = m->value_len;
    return 0;
}

void
zs_avro_reader_set_block_max (zs_avro_reader_t *self, size_t bytes)
{
    self->block_max = bytes;
}

//  Room in buf beyond its first len bytes: the usable capacity (at most
//  block_max), grown by doubling as output appears, so a small block costs
//  little and a bomb stops at block_max. 0, or -1 with why.
static int
s_room (zs_avro_reader_t *self, size_t len, size_t *cap, const char **why)
{
    size_t usable = self->buf_cap < self->block_max ? self->buf_cap : self->block_max;
    if (len < usable) {
        *cap = usable;
        return 0;
    }
    if (len >= self->block_max) {
        *why = "decompressed block larger than the limit";
        return -1;
    }
    size_t want = self->buf_cap < 65536 ? 65536 : self->buf_cap * 2;
    if (want > self->block_max)
        want = self->block_max;
    uint8_t *buf = realloc (self->buf, want);
    if (!buf) {
        *why = "out of memory";
        return -1;
    }
    self->buf = buf;
    self->buf_cap = want;
    *cap = want;
    return 0;
}

static int
s_inflate (zs_avro_reader_t *self, const uint8_t *src, size_t n, size_t *out, const char **why)
{
    if (n > UINT32_MAX / 2) {
        *why = "deflate block too large";
        return -1;
    }
    z_stream zs;
    memset (&zs, 0, sizeof zs);
    if (inflateInit2 (&zs, -15) != Z_OK) {
        *why = "out of memory";
        return -1;
    }
    zs.next_in = src;
    zs.avail_in = (uInt) n;
    size_t len = 0, cap;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (s_room (self, len, &cap, why) != 0)
            break;
        size_t room = cap - len < UINT32_MAX / 2 ? cap - len : UINT32_MAX / 2;
        zs.next_out = self->buf + len;
        zs.avail_out = (uInt) room;
        rc = inflate (&zs, Z_NO_FLUSH);
        len += room - zs.avail_out;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            *why = "deflate data truncated";
            break;
        }
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            *why = "deflate data corrupt";
            break;
        }
    }
    inflateEnd (&zs);
    if (rc != Z_STREAM_END)
        return -1;
    //  Bytes after the end of the stream are ignored, as Java's Inflater
    //  and Python's zlib do: python3-avro writes zlib.compress(data)[2:-1],
    //  which leaves 3 bytes of the zlib trailer after the raw stream.
    *out = len;
    return 0;
}

//  Zstd frames (one or more), decompressed as a stream: the frame header's
//  content size, if any, is not trusted for the allocation.
static int
s_unzstd (zs_avro_reader_t *self, const uint8_t *src, size_t n, size_t *out, const char **why)
{
    if (!self->zds && !(self->zds = ZSTD_createDStream ())) {
        *why = "out of memory";
        return -1;
    }
    ZSTD_DCtx_reset (self->zds, ZSTD_reset_session_only);
    ZSTD_inBuffer in = {src, n, 0};
    size_t len = 0, cap, ret = 1;
    while (in.pos < in.size || ret != 0) {
        if (s_room (self, len, &cap, why) != 0)
            return -1;
        ZSTD_outBuffer o = {self->buf, cap, len};
        size_t in_before = in.pos;
        ret = ZSTD_decompressStream (self->zds, &o, &in);
        if (ZSTD_isError (ret)) {
            *why = "zstd data corrupt";
            return -1;
        }
        bool progress = in.pos != in_before || o.pos != len;
        len = o.pos;
        //  Nothing moved although there was room for output: the input
        //  ends inside a frame.
        if (!progress && o.pos < o.size) {
            *why = "zstd data truncated";
            return -1;
        }
    }
    *out = len;
    return 0;
}

//  Avro's snappy: a Snappy block, then the CRC-32 (as zlib's crc32 and
//  java.util.zip.CRC32 compute it) of the uncompressed bytes, big endian.
static int
s_unsnappy (zs_avro_reader_t *self, const uint8_t *src, size_t n, size_t *out, const char **why)
{
    if (n < 4) {
        *why = "snappy block shorter than its CRC";
        return -1;
    }
    n -= 4;
    size_t len, cap;
    //  Snappy expands at most 64 bytes per 3 (a 2-byte-offset copy): a
    //  larger announced length is corrupt, refused before allocating.
    if (zs_snappy_length (src, n, &len) != 0 || len > (uint64_t) n * 22 + 64) {
        *why = "snappy length corrupt";
        return -1;
    }
    if (len > self->block_max) {
        *why = "decompressed block larger than the limit";
        return -1;
    }
    while (self->buf_cap < (len ? len : 1))
        if (s_room (self, self->buf_cap, &cap, why) != 0)
            return -1;
    if (zs_snappy_decompress (src, n, self->buf, len) != 0) {
        *why = "snappy data corrupt";
        return -1;
    }
    uint32_t want = (uint32_t) src[n] << 24 | (uint32_t) src[n + 1] << 16
                    | (uint32_t) src[n + 2] << 8 | src[n + 3];
    if ((uint32_t) crc32_z (0, self->buf, len) != want) {
        *why = "snappy CRC mismatch";
        return -1;
    }
    *out = len;
    return 0;
}

static int
s_block_fail (zs_avro_reader_t *self, size_t at, const char *why, char *err, size_t errlen)
{
    snprintf (self->error, sizeof self->error, "avro block %lld at offset %zu: %s",
              (long long) self->blocks, at, why);
    self->failed = true;
    snprintf (err, errlen, "%s", self->error);
    return ZS_ECORRUPT;
}

int
zs_avro_reader_next (zs_avro_reader_t *self, int64_t *count, zs_avro_dec_t *dec, char *err,
                     size_t errlen)
{
    if (self->failed) {
        snprintf (err, errlen, "%s", self->error);
        return ZS_ECORRUPT;
    }
    size_t at = self->pos;
    if (at == self->len)
        return 0;
    zs_avro_dec_t d;
    zs_avro_dec_init (&d, self->data + at, self->len - at);
    int64_t n, size;
    if (zs_avro_dec_long (&d, &n) != 0 || zs_avro_dec_long (&d, &size) != 0)
        return s_block_fail (self, at, d.error, err, errlen);
    if (n < 0)
        return s_block_fail (self, at, "negative object count", err, errlen);
    if (size < 0)
        return s_block_fail (self, at, "negative byte size", err, errlen);
    if ((uint64_t) size > zs_avro_dec_left (&d))
        return s_block_fail (self, at, "byte size beyond the end of the file", err, errlen);
    const uint8_t *z = d.p;
    zs_avro_dec_skip_bytes (&d, (size_t) size);
    const uint8_t *sync;
    if (zs_avro_dec_fixed (&d, ZS_AVRO_SYNC_SIZE, &sync) != 0)
        return s_block_fail (self, at, "truncated sync marker", err, errlen);
    if (memcmp (sync, self->sync, ZS_AVRO_SYNC_SIZE) != 0)
        return s_block_fail (self, at, "sync marker differs from the header's", err, errlen);

    const uint8_t *plain = z;
    size_t len = (size_t) size;
    const char *why = NULL;
    int rc = 0;
    if (self->codec == ZS_AVRO_CODEC_DEFLATE)
        rc = s_inflate (self, z, (size_t) size, &len, &why);
    else if (self->codec == ZS_AVRO_CODEC_ZSTANDARD)
        rc = s_unzstd (self, z, (size_t) size, &len, &why);
    else if (self->codec == ZS_AVRO_CODEC_SNAPPY)
        rc = s_unsnappy (self, z, (size_t) size, &len, &why);
    if (rc != 0)
        return s_block_fail (self, at, why, err, errlen);
    if (self->codec != ZS_AVRO_CODEC_NULL)
        plain = self->buf;
    //  Every object takes a byte at least (see avro.h): this bounds the
    //  caller's loop by the data.
    if ((uint64_t) n > len)
        return s_block_fail (self, at, "more objects than bytes", err, errlen);
    self->pos = at + zs_avro_dec_offset (&d);
    self->blocks++;
    *count = n;
    zs_avro_dec_init (dec, plain, len);
    return 1;
}
