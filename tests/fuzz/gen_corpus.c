/*  gen_corpus.c - writes the seeds that are easier made by code than by
    hand: one valid envelope of each body kind (corpus/codec), a few
    Thrift structs (corpus/thrift), RLE runs (corpus/rle), and Avro
    container files and BinaryRows (corpus/avro).

        cmake --build build-fuzz --target gen_corpus
        build-fuzz/gen_corpus tests/fuzz/corpus

    The table files (snapshot, manifest, schema) and Parquet files come
    from real runs instead; README.md says how.
*/
#include "avro.h"
#include "binrow.h"
#include "codec.h"
#include "parquet_priv.h"
#include "thrift.h"
#include <errno.h>
#include <sys/stat.h>

#include "../unit/binrow_types.h"

static const char *s_dir;

static void
s_write (const char *target, const char *name, const void *data, size_t len)
{
    char path[1024];
    snprintf (path, sizeof path, "%s/%s", s_dir, target);
    if (mkdir (path, 0755) != 0 && errno != EEXIST) {
        perror (path);
        exit (1);
    }
    snprintf (path, sizeof path, "%s/%s/%s", s_dir, target, name);
    FILE *f = fopen (path, "wb");
    if (!f || fwrite (data, 1, len, f) != len || fclose (f) != 0) {
        perror (path);
        exit (1);
    }
}

//  Pack env, check it decodes (a seed the decoder refuses teaches little),
//  and write it.
static void
s_env (const char *name, zs_env_t *env)
{
    size_t len = zsink__envelope__get_packed_size (env);
    uint8_t *buf = malloc (len ? len : 1);
    zsink__envelope__pack (env, buf);
    char err[ZS_ERRLEN];
    zs_env_t *got = zs_env_decode (buf, len, err, sizeof err);
    if (!got) {
        fprintf (stderr, "seed %s does not decode: %s\n", name, err);
        exit (1);
    }
    zs_env_free (&got);
    s_write ("codec", name, buf, len);
    free (buf);
}

static void
s_envelopes (void)
{
    zs_sender_t writer = {"4f1c0e2a9b7d4c3e8a6f5b2d1c0e9f8a", 2, ZSINK__ROLE__ROLE_WRITER, 1};
    zs_sender_t coord = {"4f1c0e2a9b7d4c3e8a6f5b2d1c0e9f8a", 2, ZSINK__ROLE__ROLE_COORDINATOR, -1};
    zs_sender_t committer = {"4f1c0e2a9b7d4c3e8a6f5b2d1c0e9f8a", 2, ZSINK__ROLE__ROLE_COMMITTER, 0};
    zs_env_t env;

    Zsink__Hello hello;
    zsink__hello__init (&hello);
    hello.role = ZSINK__ROLE__ROLE_WRITER;
    hello.has_index = true;
    hello.index = 1;
    hello.pid = 4242;
    hello.instance = "8c6f2a";
    zs_env_init (&env, &writer, 1);
    env.job_id = "";
    env.body_case = ZSINK__ENVELOPE__BODY_HELLO;
    env.hello = &hello;
    s_env ("hello", &env);

    Zsink__KeyValue kv1, kv2;
    zsink__key_value__init (&kv1);
    zsink__key_value__init (&kv2);
    kv1.key = "parallelism";
    kv1.value = "2";
    kv2.key = "table.schema";
    kv2.value = "id BIGINT NOT NULL, name STRING";
    Zsink__KeyValue *kvs[] = {&kv1, &kv2};
    Zsink__Welcome welcome;
    zsink__welcome__init (&welcome);
    welcome.parallelism = 2;
    welcome.n_config = 2;
    welcome.config = kvs;
    zs_env_init (&env, &coord, 2);
    env.body_case = ZSINK__ENVELOPE__BODY_WELCOME;
    env.welcome = &welcome;
    s_env ("welcome", &env);

    Zsink__Register reg;
    zsink__register__init (&reg);
    reg.role = ZSINK__ROLE__ROLE_COMMITTER;
    reg.pid = 4243;
    reg.instance = "91aa0c";
    zs_env_init (&env, &committer, 1);
    env.body_case = ZSINK__ENVELOPE__BODY_REGISTER;
    env.register_ = &reg;
    s_env ("register", &env);

    Zsink__Heartbeat hb;
    zsink__heartbeat__init (&hb);
    int64_t dropped[ZS_DROP_NREASONS] = {3, 0, 1, 0, 7};
    hb.has_rows_read = true;
    hb.rows_read = 123456;
    hb.n_dropped = ZS_DROP_NREASONS;
    hb.dropped = dropped;
    zs_env_init (&env, &writer, 9);
    env.body_case = ZSINK__ENVELOPE__BODY_HEARTBEAT;
    env.heartbeat = &hb;
    s_env ("heartbeat", &env);

    //  A committer state with two pending checkpoints, files with ids and
    //  stats: the deepest message there is.
    Zsink__FileMeta f1, f2;
    zsink__file_meta__init (&f1);
    zsink__file_meta__init (&f2);
    f1.path = "bucket-0/data-5d1f-0.parquet";
    f1.rows = 1000;
    f1.size = 20480;
    f1.has_min_id = f1.has_max_id = true;
    f1.min_id = 1;
    f1.max_id = 1000;
    //  (opaque bytes to the codec: the Avro of _VALUE_STATS then _VALUE_STATS_COLS)
    static uint8_t stats[] = {0x02, 0x00, 0x02, 0x02, 0x02, 0x00};
    f1.has_value_stats = true;
    f1.value_stats.data = stats;
    f1.value_stats.len = sizeof stats;
    f2.path = "bucket-0/data-5d1f-1.parquet";
    f2.rows = 10;
    f2.size = 900;
    Zsink__FileMeta *files[] = {&f1, &f2};
    Zsink__Committable c1;
    zsink__committable__init (&c1);
    c1.checkpoint_id = 4;
    c1.writer = 1;
    c1.n_files = 2;
    c1.files = files;
    Zsink__Committable *cs[] = {&c1};
    Zsink__ManifestCommittable m1, m2;
    zsink__manifest_committable__init (&m1);
    zsink__manifest_committable__init (&m2);
    m1.identifier = 4;
    m1.n_committables = 1;
    m1.committables = cs;
    m2.identifier = ZS_END_INPUT_ID;
    Zsink__ManifestCommittable *ms[] = {&m1, &m2};
    int32_t ended[] = {0, 1};
    Zsink__CommitterState state;
    zsink__committer_state__init (&state);
    state.commit_user = "4f1c0e2a-commit";
    state.n_pending = 2;
    state.pending = ms;
    state.n_ended_writers = 2;
    state.ended_writers = ended;

    Zsink__SourcePosition pos;
    zsink__source_position__init (&pos);
    pos.writer = 1;
    pos.offset = 5000;
    pos.file = "part-0001.jsonl";
    pos.has_file_offset = pos.has_line = pos.has_skipped = true;
    pos.file_offset = 81920;
    pos.line = 4999;
    pos.skipped = 1;

    Zsink__Reset reset;
    zsink__reset__init (&reset);
    reset.restore_id = 4;
    reset.commit_user = "4f1c0e2a-commit";
    reset.state = &state;
    zs_env_init (&env, &coord, 3);
    env.body_case = ZSINK__ENVELOPE__BODY_RESET;
    env.reset = &reset;
    s_env ("reset-committer", &env);
    reset.state = NULL;
    reset.position = &pos;
    s_env ("reset-writer", &env);

    Zsink__Ready ready;
    zsink__ready__init (&ready);
    ready.has_last_committed = true;
    ready.last_committed = 3;
    zs_env_init (&env, &committer, 2);
    env.body_case = ZSINK__ENVELOPE__BODY_READY;
    env.ready = &ready;
    s_env ("ready", &env);

    Zsink__Start start;
    zsink__start__init (&start);
    zs_env_init (&env, &coord, 4);
    env.body_case = ZSINK__ENVELOPE__BODY_START;
    env.start = &start;
    s_env ("start", &env);

    Zsink__Barrier barrier;
    zsink__barrier__init (&barrier);
    barrier.checkpoint_id = 5;
    barrier.has_savepoint = true;
    barrier.savepoint = true;
    env.body_case = ZSINK__ENVELOPE__BODY_BARRIER;
    env.barrier = &barrier;
    s_env ("barrier", &env);

    Zsink__WriterAck wack;
    zsink__writer_ack__init (&wack);
    wack.checkpoint_id = 5;
    wack.position = &pos;
    zs_env_init (&env, &writer, 10);
    env.body_case = ZSINK__ENVELOPE__BODY_WRITER_ACK;
    env.writer_ack = &wack;
    s_env ("writer-ack", &env);

    Zsink__CommitterAck cack;
    zsink__committer_ack__init (&cack);
    cack.checkpoint_id = 5;
    cack.state = &state;
    zs_env_init (&env, &committer, 3);
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTER_ACK;
    env.committer_ack = &cack;
    s_env ("committer-ack", &env);

    Zsink__Notify notify;
    zsink__notify__init (&notify);
    notify.checkpoint_id = 5;
    zs_env_init (&env, &coord, 5);
    env.body_case = ZSINK__ENVELOPE__BODY_NOTIFY;
    env.notify = &notify;
    s_env ("notify", &env);

    Zsink__Committed committed;
    zsink__committed__init (&committed);
    committed.identifier = 5;
    committed.snapshot_id = 3;
    committed.has_total_rows = true;
    committed.total_rows = 5000;
    zs_env_init (&env, &committer, 4);
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTED;
    env.committed = &committed;
    s_env ("committed", &env);

    Zsink__Finished finished;
    zsink__finished__init (&finished);
    finished.position = &pos;
    zs_env_init (&env, &writer, 11);
    env.body_case = ZSINK__ENVELOPE__BODY_FINISHED;
    env.finished = &finished;
    s_env ("finished", &env);

    Zsink__Failure failure;
    zsink__failure__init (&failure);
    failure.reason = "datagen.fail-at-id reached";
    failure.has_fail_at_id = failure.fail_at_id = true;
    env.body_case = ZSINK__ENVELOPE__BODY_FAILURE;
    env.failure = &failure;
    s_env ("failure", &env);

    Zsink__Shutdown shutdown;
    zsink__shutdown__init (&shutdown);
    shutdown.reason = "job finished";
    zs_env_init (&env, &coord, 6);
    env.body_case = ZSINK__ENVELOPE__BODY_SHUTDOWN;
    env.shutdown = &shutdown;
    s_env ("shutdown", &env);

    Zsink__Bye bye;
    zsink__bye__init (&bye);
    zs_env_init (&env, &writer, 12);
    env.body_case = ZSINK__ENVELOPE__BODY_BYE;
    env.bye = &bye;
    s_env ("bye", &env);

    c1.checkpoint_id = ZS_END_INPUT_ID;
    c1.has_bucket = true;
    c1.bucket = 0;
    env.body_case = ZSINK__ENVELOPE__BODY_COMMITTABLE;
    env.committable = &c1;
    s_env ("committable", &env);

    Zsink__BarrierMarker marker;
    zsink__barrier_marker__init (&marker);
    marker.checkpoint_id = 5;
    marker.count = 1;
    env.body_case = ZSINK__ENVELOPE__BODY_MARKER;
    env.marker = &marker;
    s_env ("marker", &env);

    Zsink__EndOfInput eoi;
    zsink__end_of_input__init (&eoi);
    eoi.count = 1;
    env.body_case = ZSINK__ENVELOPE__BODY_END_OF_INPUT;
    env.end_of_input = &eoi;
    s_env ("end-of-input", &env);

    zs_sender_t client = {"", 0, ZSINK__ROLE__ROLE_CLIENT, -1};
    Zsink__ClientRequest req;
    zsink__client_request__init (&req);
    req.kind = ZSINK__CLIENT_REQUEST__KIND__STOP;
    req.has_savepoint = req.savepoint = true;
    zs_env_init (&env, &client, 1);
    env.body_case = ZSINK__ENVELOPE__BODY_CLIENT_REQUEST;
    env.client_request = &req;
    s_env ("client-request", &env);

    Zsink__ClientReply reply;
    zsink__client_reply__init (&reply);
    reply.ok = true;
    reply.json = "{\"state\":\"RUNNING\",\"checkpoint\":5}";
    zs_env_init (&env, &coord, 7);
    env.body_case = ZSINK__ENVELOPE__BODY_CLIENT_REPLY;
    env.client_reply = &reply;
    s_env ("client-reply", &env);
}

static void
s_thrift (void)
{
    zs_thrift_enc_t e;
    zs_thrift_enc_init (&e);

    //  A data page header as the writer makes it (PageHeader + DataPageHeader).
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, ZS_PQ_DATA_PAGE);
    zs_thrift_enc_field_i32 (&e, 2, 1200);
    zs_thrift_enc_field_i32 (&e, 3, 480);
    zs_thrift_enc_field_i32 (&e, 4, -559038737);
    zs_thrift_enc_field_struct (&e, 5);
    zs_thrift_enc_field_i32 (&e, 1, 100);
    zs_thrift_enc_field_i32 (&e, 2, ZS_PQ_RLE_DICTIONARY);
    zs_thrift_enc_field_i32 (&e, 3, ZS_PQ_RLE);
    zs_thrift_enc_field_i32 (&e, 4, ZS_PQ_RLE);
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_struct_end (&e);
    s_write ("thrift", "page-header", e.data, e.len);

    //  A small FileMetaData-like struct: lists of structs, strings, i64s,
    //  a bool and a double, ids that jump (long field headers).
    zs_thrift_enc_reset (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, 2);
    zs_thrift_enc_field_list (&e, 2, ZS_THRIFT_STRUCT, 2);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_string (&e, 4, "schema");
    zs_thrift_enc_field_i32 (&e, 5, 1);
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_struct_begin (&e);
    zs_thrift_enc_field_i32 (&e, 1, ZS_PQ_INT64);
    zs_thrift_enc_field_i32 (&e, 3, ZS_PQ_REQUIRED);
    zs_thrift_enc_field_string (&e, 4, "id");
    zs_thrift_enc_field_struct (&e, 10);
    zs_thrift_enc_field_struct (&e, 10);
    zs_thrift_enc_field_bool (&e, 1, false);
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_struct_end (&e);
    zs_thrift_enc_field_i64 (&e, 3, 1000000);
    zs_thrift_enc_field_list (&e, 5, ZS_THRIFT_I64, 3);
    zs_thrift_enc_i64 (&e, -1);
    zs_thrift_enc_i64 (&e, INT64_MAX);
    zs_thrift_enc_i64 (&e, 0);
    zs_thrift_enc_field_list (&e, 6, ZS_THRIFT_BINARY, 16);
    for (int i = 0; i < 16; i++)
        zs_thrift_enc_binary (&e, "k", 1);
    zs_thrift_enc_field_string (&e, 40, "zsink 0.1.0");
    zs_thrift_enc_field_bool (&e, 41, true);
    zs_thrift_enc_field_double (&e, 7, 3.5);
    zs_thrift_enc_struct_end (&e);
    s_write ("thrift", "file-meta", e.data, e.len);
    zs_thrift_enc_fini (&e);

    //  A map (the encoder has none: by hand): {1: "a"} in field 1.
    static const uint8_t map[] = {0x1B, 0x01, 0x58, 0x02, 0x01, 'a', 0x00};
    s_write ("thrift", "map", map, sizeof map);
}

static void
s_rle (void)
{
    //  Definition levels (width 1), dictionary indices (width 5 and 17).
    uint8_t levels[100];
    for (int i = 0; i < 100; i++)
        levels[i] = i < 40 ? 1 : (i % 3 == 0);
    uint32_t idx[64];
    for (int i = 0; i < 64; i++)
        idx[i] = i < 20 ? (uint32_t) i % 31 : 7;
    struct {
        int width;
        const char *name;
    } seeds[] = {{1, "levels"}, {5, "dict-5"}, {17, "dict-17"}};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        zs_pq_buf_t out;
        zs_pq_buf_init (&out);
        uint8_t w = (uint8_t) seeds[s].width;
        zs_pq_buf_put (&out, &w, 1);
        if (seeds[s].width == 1)
            zs_pq_rle_encode (&out, levels, NULL, 100, 1);
        else {
            uint32_t v[64];
            for (int i = 0; i < 64; i++)
                v[i] = idx[i] & (uint32_t) ((UINT64_C (1) << seeds[s].width) - 1);
            zs_pq_rle_encode (&out, NULL, v, 64, seeds[s].width);
        }
        s_write ("rle", seeds[s].name, out.data, out.len);
        zs_pq_buf_fini (&out);
    }
}

//  A manifest-like schema: the shapes Paimon's manifests use (nested
//  records, ["null", T] unions, arrays, BinaryRows as bytes, a
//  timestamp-millis), plus the kinds they do not (enum, fixed, map).
static const char *s_avro_schema =
    "{\"type\":\"record\",\"name\":\"Entry\",\"namespace\":\"zsink.fuzz\",\"fields\":["
    "{\"name\":\"_KIND\",\"type\":\"int\"},"
    "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},"
    "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"File\",\"fields\":["
    "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
    "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},"
    "{\"name\":\"_STATS\",\"type\":{\"type\":\"record\",\"name\":\"Stats\",\"fields\":["
    "{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"
    "{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":"
    "[\"null\",\"long\"]}]}]}},"
    "{\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
    "{\"name\":\"_CREATION_TIME\",\"type\":[\"null\",{\"type\":\"long\","
    "\"logicalType\":\"timestamp-millis\"}]}]}},"
    "{\"name\":\"kind\",\"type\":{\"type\":\"enum\",\"name\":\"K\",\"symbols\":[\"A\",\"B\"]}},"
    "{\"name\":\"id\",\"type\":{\"type\":\"fixed\",\"name\":\"Id\",\"size\":4}},"
    "{\"name\":\"props\",\"type\":{\"type\":\"map\",\"values\":\"double\"}},"
    "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"ok\",\"type\":\"boolean\"}]}";

static void
s_avro_entry (zs_avro_enc_t *e, int i)
{
    const zs_type_t types[] = {ZS_TYPE_INT, ZS_TYPE_STRING};
    zs_value_t min[2] = {{.null = false}, {.null = false}};
    min[0].v.i32 = i;
    min[1].v.bin.ptr = (const uint8_t *) "a longer string";
    min[1].v.bin.len = 15;
    char err[ZS_ERRLEN], name[64];
    size_t len;
    uint8_t *row = s_encode (NULL, NULL, 0, &len, err, sizeof err);
    zs_avro_enc_int (e, i % 2);
    zs_avro_enc_bytes (e, row, len);
    free (row);
    snprintf (name, sizeof name, "data-%d.parquet", i);
    zs_avro_enc_string (e, name);
    zs_avro_enc_long (e, 1000 + i);
    row = s_encode (types, min, 2, &len, err, sizeof err);
    zs_avro_enc_bytes (e, row, len);
    free (row);
    zs_avro_enc_union (e, 1);
    zs_avro_enc_array_start (e, 2);
    zs_avro_enc_union (e, 1);
    zs_avro_enc_long (e, 0);
    zs_avro_enc_union (e, 0);
    zs_avro_enc_array_end (e);
    zs_avro_enc_array_start (e, (size_t) (i % 2));
    if (i % 2)
        zs_avro_enc_string (e, "index-0");
    zs_avro_enc_array_end (e);
    zs_avro_enc_union (e, 1);
    zs_avro_enc_long (e, 1700000000000 + i);
    zs_avro_enc_enum (e, i % 2);
    zs_avro_enc_fixed (e, "\x00\x01\x02\x03", 4);
    zs_avro_enc_map_start (e, 1);
    zs_avro_enc_string (e, "x");
    zs_avro_enc_double (e, i / 2.0);
    zs_avro_enc_map_end (e);
    zs_avro_enc_float (e, 0.5f);
    zs_avro_enc_bool (e, i % 3 == 0);
}

static void
s_avro_file (const char *name, zs_avro_codec_t codec, int n, size_t block_size)
{
    char err[ZS_ERRLEN];
    zs_avro_writer_t *w = zs_avro_writer_new (s_avro_schema, codec, 0, err, sizeof err);
    if (!w) {
        fprintf (stderr, "avro seed %s: %s\n", name, err);
        exit (1);
    }
    static const uint8_t sync[16] = "zsink-fuzz-sync";
    zs_avro_writer_set_sync (w, sync);
    zs_avro_writer_set_block_size (w, block_size);
    for (int i = 0; i < n; i++) {
        s_avro_entry (zs_avro_writer_object (w), i);
        zs_avro_writer_object_end (w);
    }
    size_t len;
    const uint8_t *data = zs_avro_writer_finish (w, &len);
    s_write ("avro", name, data, len);
    zs_avro_writer_destroy (&w);
}

static void
s_avro (void)
{
    s_avro_file ("entries-zstd", ZS_AVRO_CODEC_ZSTANDARD, 6, 300);
    s_avro_file ("entries-deflate", ZS_AVRO_CODEC_DEFLATE, 3, 64000);
    s_avro_file ("entries-null", ZS_AVRO_CODEC_NULL, 2, 64000);

    //  Arrays in sized blocks (negative counts), which zsink never writes:
    //  schema array<long>, one object [1, 2] + [3].
    zs_avro_enc_t e;
    zs_avro_enc_init (&e);
    zs_avro_enc_fixed (&e, "Obj\1", 4);
    zs_avro_enc_map_start (&e, 1);
    zs_avro_enc_string (&e, "avro.schema");
    zs_avro_enc_string (&e, "{\"type\":\"array\",\"items\":\"long\"}");
    zs_avro_enc_map_end (&e);
    zs_avro_enc_fixed (&e, "0123456789abcdef", 16);
    const uint8_t block[] = {0x03, 0x04, 0x02, 0x04, 0x02, 0x06, 0x00};
    zs_avro_enc_long (&e, 1);
    zs_avro_enc_long (&e, sizeof block);
    zs_avro_enc_fixed (&e, block, sizeof block);
    zs_avro_enc_fixed (&e, "0123456789abcdef", 16);
    s_write ("avro", "sized-blocks", e.data, e.len);
    zs_avro_enc_fini (&e);

    //  BinaryRows: byte 0 the field count, then a type byte per field
    //  (zs_type_t - 1), then the row.
    const zs_type_t golden_t[] = {ZS_TYPE_INT, ZS_TYPE_STRING, ZS_TYPE_STRING};
    zs_value_t golden[3] = {{.null = false}, {.null = false}, {.null = false}};
    golden[0].v.i32 = 5;
    golden[1].v.bin.ptr = (const uint8_t *) "name-5";
    golden[1].v.bin.len = 6;
    golden[2].v.bin.ptr = (const uint8_t *) "a string of 20 bytes";
    golden[2].v.bin.len = 20;
    const zs_type_t all_t[] = {ZS_TYPE_BOOLEAN,    ZS_TYPE_INT,       ZS_TYPE_BIGINT, ZS_TYPE_FLOAT,
                               ZS_TYPE_DOUBLE,     ZS_TYPE_STRING,    ZS_TYPE_BYTES,  ZS_TYPE_DATE,
                               ZS_TYPE_TIMESTAMP3, ZS_TYPE_TIMESTAMP6};
    zs_value_t all[10];
    memset (all, 0, sizeof all);
    all[1].null = true;
    all[2].v.i64 = -1;
    all[5].v.bin.ptr = (const uint8_t *) "hello, paimon!";
    all[5].v.bin.len = 14;
    all[9].v.i64 = 1700000000123456;
    struct {
        const char *name;
        const zs_type_t *types;
        zs_value_t *values;
        int n;
    } rows[] = {{"binrow-3", golden_t, golden, 3}, {"binrow-all-types", all_t, all, 10}};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char err[ZS_ERRLEN];
        size_t len;
        uint8_t *row = s_encode (rows[r].types, rows[r].values, rows[r].n, &len, err, sizeof err);
        uint8_t seed[512];
        seed[0] = (uint8_t) rows[r].n;
        for (int i = 0; i < rows[r].n; i++)
            seed[1 + i] = (uint8_t) (rows[r].types[i] - ZS_TYPE_BOOLEAN);
        memcpy (seed + 1 + rows[r].n, row, len);
        s_write ("avro", rows[r].name, seed, 1 + (size_t) rows[r].n + len);
        free (row);
    }
}

int
main (int argc, char **argv)
{
    if (argc != 2) {
        fprintf (stderr, "usage: gen_corpus CORPUS_DIR\n");
        return 2;
    }
    s_dir = argv[1];
    s_envelopes ();
    s_thrift ();
    s_rle ();
    s_avro ();
    return 0;
}
