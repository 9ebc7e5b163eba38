/*  writer.c - the zsink writer: reads its split of the source, writes data
    files, and on each barrier hands the new files to the committer before
    it acknowledges the barrier (docs/architecture.md, design 2; docs/protocol.md).

    State machine (s_state_t):

        JOINING --Welcome--> IDLE --Reset--> READY --Start--> RUNNING
        RUNNING --source exhausted--> ENDED   (answers barriers with no files)
        READY --Start, restored finished--> ENDED (EndOfInput(0), Finished)
        RUNNING/ENDED --failpoint error, fail-at-id, disk or send error--> FAILED
        IDLE/READY/RUNNING/ENDED/FAILED --Reset--> READY
        any --coordinator lost--> JOINING;  any --Shutdown, SIGINT/TERM--> exit

    Invariants:
    1. Every row is in exactly one checkpoint: barriers are handled between
       rows (control is read between batches), and rows emitted before
       Barrier(N) are in files closed before Committable(N) is sent.
    2. Committable(N) and BarrierMarker(N) travel on the data pipe in that
       order, before WriterAck(N) reaches the coordinator: everything bound
       for either socket goes through one ordered outbox, so backpressure on
       the data pipe delays the ack too and never reorders anything.
    3. Nothing is dropped on backpressure: EAGAIN keeps the message in the
       outbox, and no row is produced while the outbox is non-empty, so the
       memory held is bounded by one checkpoint's messages.
    4. The position acked for N is the state of every split this writer
       holds as of the barrier (source.h); a replay from it reads the same
       rows, so after a Reset to N the rows after N are written again
       exactly once, by whichever writer the split is dealt to.
    5. A file that no restored state can reference is deleted on Reset: the
       file names carry the last barrier seen (dataname.h), and a Reset(R)
       deletes this writer's files with K >= R, in every bucket directory
       (each partition's, in a partitioned table). Open files (one per
       partition, at most write-max-writers) are aborted
       (deleted) on Reset, on losing the coordinator and at exit, like
       Paimon's writer close deletes uncommitted new files; closed files not
       yet in a committable are deleted on a failure, on losing the
       coordinator (a replaced writer gets no Reset to do it) and at exit.
       A Shutdown of a job ending CANCELED or FAILED at checkpoint R (0:
       none completed) deletes files K >= R as Reset(R) would; but not an
       end of input handed over with checkpointing off, which the committer
       may be committing: it deletes those if it did not.
    6. Data-pipe sequence numbers are 1, 2, … per epoch, restarting after
       each Reset, so the committer can tell a gap from a new attempt.
    7. Nothing stamped with an old epoch is sent after the coordinator has
       moved on: the outbox is dropped and production pauses as soon as the
       control pipe shows a newer epoch, until its Reset.
    8. Input from the wire or the disk never asserts: it is logged and, when
       it makes progress impossible, reported as a Failure.
    9. A row goes to the open file of its partition (the BinaryRow of its
       key columns, table/partition.h), in that partition's directory; each
       closed file carries its partition to the committer, which refuses a
       file outside its partition's directory.
    10. With sink.kind blackhole no file is ever opened: rows are read and
       counted (progress, acks) and dropped, so every barrier's committable
       is empty; the source's own cost is what such a job measures.
*/
#include "writer.h"
#include "cmd.h"
#include "codec.h"
#include "config.h"
#include "datafile.h"
#include "datagen.h"
#include "dataname.h"
#include "openfiles.h"
#include "events.h"
#include "source.h"
#include "failpoint.h"
#include "fs.h"
#include "io.h"
#include "log.h"
#include "net.h"
#include "participant.h"
#include "table.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  A batch is at most this many rows or this much work, so barriers and
//  heartbeats wait at most a few milliseconds behind the source.
#define S_BATCH_ROWS 1000
#define S_BATCH_MS 5
//  Longest sleep in the poll: participant timers must run at least this often.
#define S_MAX_WAIT_MS 50
//  How long an idle source is left before it is asked again (a Kafka
//  reader's fetches arrive in its own threads meanwhile).
#define S_IDLE_WAIT_MS 5

typedef enum { S_JOINING, S_IDLE, S_READY, S_RUNNING, S_ENDED, S_FAILED } s_state_t;

static const char *s_state_names[] = {"joining", "idle", "ready", "running", "ended", "failed"};

//  One outbox entry: a packed data-pipe envelope, or a control message to
//  the coordinator that must follow the data messages queued before it.
typedef enum { S_OUT_DATA, S_OUT_ACK, S_OUT_FINISHED } s_out_kind_t;

typedef struct _s_out_t {
    struct _s_out_t *next;
    s_out_kind_t kind;
    uint8_t *buf; //  S_OUT_DATA: packed envelope
    size_t len;
    int64_t checkpoint_id; //  S_OUT_ACK
    int64_t offset;        //  S_OUT_ACK, S_OUT_FINISHED: position
    bool finished;
} s_out_t;

typedef struct {
    //  command line
    char coordinator[ZS_PATH_MAX];
    char committer[ZS_PATH_MAX];
    char keys[ZS_PATH_MAX]; //  --keys: CURVE keys directory ("" = no CURVE)
    zs_curve_t *curve;
    int index;

    zs_participant_t *part;
    zsock_t *data; //  DEALER to the committer, created on the first Welcome
    zs_config_t cfg;
    s_state_t state;
    bool done;
    int exit_code;

    //  source: the splits this writer holds (source.h); throttle.offset
    //  counts rows read since Start, against this writer's rate
    zs_source_t *src;
    zs_datagen_t throttle;
    int64_t rows_read; //  rows read from the splits held, all runs
    zs_value_t row[ZS_MAX_COLUMNS];
    zs_computed_t *computed; //  table.computed-columns, compiled on the first row
    zs_parquet_options_t parquet;
    bool blackhole;          //  sink.kind blackhole: rows read are dropped, no file
    bool finished;           //  every split held is finished
    bool fail_armed;         //  datagen.fail-at-id may still fire in this job
    bool idle;               //  the source had no row at the last ask
    int64_t splits_reported; //  mono ms of the last zs_participant_set_splits
    int64_t start_ms;        //  mono clock at Start

    //  checkpointing
    int64_t last_barrier;   //  K of new file names: last barrier seen, R after Reset
    int64_t end_checkpoint; //  Shutdown's last_checkpoint: files after it go; -1: none said
    bool ended_unchecked;   //  EndOfInput sent with checkpointing off (this epoch)
    //  The open data files, one per partition (openfiles.h), at most
    //  cfg.table.write_max_writers; the table's partitioning names their
    //  directories (part.n 0: one file, in bucket-0).
    zs_openfiles_t *open;
    zs_partition_t ppart;
    zs_value_t pvalues[ZS_PARTITION_MAX]; //  the row's partition values
    uint8_t pkey[ZS_PARTITION_ROW_MAX];   //  … as a BinaryRow
    size_t pkey_len;
    zs_file_meta_t *closed; //  closed since the last barrier, not yet sent
    size_t n_closed, cap_closed;
    int64_t rows_since_barrier;
    int64_t file_epoch;       //  epoch of file_n
    int64_t file_n;           //  per-epoch file counter (never reused in a process)
    zs_file_meta_t last_sent; //  first file of the last committable (fail points)

    //  data pipe
    zs_sender_t from; //  job id + epoch of the last Reset
    uint64_t data_seq;
    s_out_t *out_head, *out_tail;
    size_t out_len;
    int64_t dropped_in; //  messages received on the data pipe (none expected)
} s_writer_t;

//  --------------------------------------------------------------------------
//  Command line

static void
s_usage (FILE *out)
{
    fprintf (out, "usage: zsink-writer --coordinator EP --committer EP [--keys DIR] --index I\n"
                  "  --coordinator EP  control endpoint of the coordinator "
                  "(env ZSINK_COORDINATOR)\n"
                  "  --committer EP    data endpoint of the committer (env ZSINK_COMMITTER)\n"
                  "  --index I         this writer's index, 0 … parallelism-1 "
                  "(env ZSINK_INDEX)\n"
                  "  --keys DIR        CURVE keys directory (env ZSINK_KEYS_DIR; zsink keys\n"
                  "                    generate): writer-I.cert_secret and server.cert.\n"
                  "                    Without it the sockets are not authenticated.\n"
                  "Fail points: env ZSINK_FAILPOINTS=\"name=action,…\".\n");
}

static int
s_parse_index (const char *text, int *index)
{
    if (!text || !*text)
        return -1;
    char *end;
    errno = 0;
    long v = strtol (text, &end, 10);
    if (errno || *end || v < 0 || v > 1023 || end == text)
        return -1;
    *index = (int) v;
    return 0;
}

//  The command line, before it is checked; the environment's defaults.
typedef struct {
    const char *coordinator, *committer, *index, *keys;
} s_args_t;

//  ZS_CMD_GO_ON, or the exit code (0 after --help, 2 for bad arguments,
//  their message printed).
static int
s_parse_args (s_writer_t *self, int argc, char **argv)
{
    s_args_t a = {getenv ("ZSINK_COORDINATOR"), getenv ("ZSINK_COMMITTER"), getenv ("ZSINK_INDEX"),
                  getenv ("ZSINK_KEYS_DIR")};
    const zs_cmd_value_t opts[] = {{"coordinator", &a.coordinator},
                                   {"committer", &a.committer},
                                   {"index", &a.index},
                                   {"keys", &a.keys}};
    int code = zs_cmd_getopt_values (argc, argv, opts, 4, s_usage);
    if (code != ZS_CMD_GO_ON)
        return code;
    char bad[160] = "";
    if (!a.coordinator || !*a.coordinator || !a.committer || !*a.committer)
        snprintf (bad, sizeof bad, "--coordinator and --committer are required");
    else if (s_parse_index (a.index, &self->index) != 0)
        snprintf (bad, sizeof bad, "--index must be a number 0 … 1023, got '%.64s'",
                  a.index ? a.index : "");
    else if (strlen (a.coordinator) >= sizeof self->coordinator
             || strlen (a.committer) >= sizeof self->committer
             || (a.keys && strlen (a.keys) >= sizeof self->keys))
        snprintf (bad, sizeof bad, "endpoint or keys directory too long");
    if (*bad) {
        fprintf (stderr, "zsink-writer: %s\n", bad);
        s_usage (stderr);
        return 2;
    }
    snprintf (self->keys, sizeof self->keys, "%s", a.keys ? a.keys : "");
    snprintf (self->coordinator, sizeof self->coordinator, "%s", a.coordinator);
    snprintf (self->committer, sizeof self->committer, "%s", a.committer);
    return ZS_CMD_GO_ON;
}

//  --------------------------------------------------------------------------
//  Files

static void
s_forget_closed (s_writer_t *self)
{
    //  Closed-but-unsent files are not deleted here: their names carry
    //  K >= the next restore id, so the Reset that follows deletes them.
    self->n_closed = 0;
    self->rows_since_barrier = 0;
}

//  The attempt is abandoned (failure, coordinator lost): delete the closed
//  files no committable carries, rather than leave them to our next Reset.
//  A writer cut off from the others and replaced gets no next Reset (it is
//  superseded), and what it rolled after its replacement's Reset had
//  cleaned up would stay behind as orphans (t_partition_zombie).
static void
s_drop_closed (s_writer_t *self)
{
    for (size_t i = 0; i < self->n_closed; i++) {
        char path[ZS_PATH_MAX + 260];
        snprintf (path, sizeof path, "%s/%s", self->cfg.table_path, self->closed[i].path);
        if (zs_io_unlink (path) < 0 && errno != ENOENT)
            zs_warn ("cannot delete %s: %s", path, strerror (errno));
    }
    s_forget_closed (self);
}

static void
s_abort_file (s_writer_t *self)
{
    if (self->open)
        zs_openfiles_abort_all (self->open);
}

//  Close one open file durably (the map's least recently used one, or its
//  most recent) and keep its meta, partition and all, for the next
//  committable.
static int
s_close_one (s_writer_t *self, bool lru, char *err, size_t errlen)
{
    if (self->n_closed == self->cap_closed) {
        size_t cap = self->cap_closed ? self->cap_closed * 2 : 8;
        zs_file_meta_t *closed = realloc (self->closed, cap * sizeof *closed);
        if (!closed) {
            snprintf (err, errlen, "out of memory");
            return -1;
        }
        self->closed = closed;
        self->cap_closed = cap;
    }
    zs_file_meta_t *meta = &self->closed[self->n_closed];
    uint8_t key[ZS_PARTITION_ROW_MAX];
    size_t len = 0;
    zs_datafile_writer_t *file = zs_openfiles_take (self->open, lru, key, &len);
    if (!file)
        return 0;
    if (zs_datafile_writer_close (&file, meta, err, errlen) != 0)
        return -1;
    memcpy (meta->partition, key, len);
    meta->partition_len = (uint16_t) len;
    self->n_closed++;
    return 0;
}

//  Close every open file (a barrier, the end of input).
static int
s_close_file (s_writer_t *self, char *err, size_t errlen)
{
    while (self->open && zs_openfiles_count (self->open) > 0)
        if (s_close_one (self, true, err, errlen) != 0)
            return -1;
    return 0;
}

//  A partition's bucket directory relative to the table: "bucket-0", or
//  "<k1=v1/…>/bucket-0". 0 or -1 + err.
static int
s_bucket_rel (s_writer_t *self, const zs_value_t *values, char *buf, size_t len, char *err,
              size_t errlen)
{
    char dir[ZS_PARTITION_DIR_MAX] = "";
    if (self->ppart.n > 0
        && zs_partition_dir (&self->ppart, values, dir, sizeof dir, err, errlen) < 0)
        return -1;
    int n = snprintf (buf, len, "%s%sbucket-0", dir, *dir ? "/" : "");
    if (n < 0 || (size_t) n >= len) {
        snprintf (err, errlen, "partition directory too long");
        return -1;
    }
    return 0;
}

//  Delete this writer's files with K >= r (dataname.h) in the bucket
//  directories under dir, depth partition levels down. How many, or -1.
static int
s_clean_level (s_writer_t *self, const char *dir, int depth, int64_t r, char *err, size_t errlen)
{
    char sub[ZS_PATH_MAX];
    if (depth == 0) {
        if (snprintf (sub, sizeof sub, "%s/bucket-0", dir) >= (int) sizeof sub)
            return 0; //  cannot be one we wrote: we could not have opened it
        return zs_dataname_clean (sub, self->from.job_id, self->index, r, err, errlen);
    }
    zs_io_entry_t *e;
    size_t ne;
    int rc = zs_io_listing (dir, &e, &ne, err, errlen);
    if (rc != 0)
        return rc == ZS_ENOENT ? 0 : -1;
    int deleted = 0;
    for (size_t i = 0; i < ne && deleted >= 0; i++) {
        //  a partition directory is "k=v"; nothing else is one of ours
        if (!e[i].is_dir || e[i].name[0] == '.' || !strchr (e[i].name, '=')
            || snprintf (sub, sizeof sub, "%s/%s", dir, e[i].name) >= (int) sizeof sub)
            continue;
        int n = s_clean_level (self, sub, depth - 1, r, err, errlen);
        deleted = n < 0 ? -1 : deleted + n;
    }
    zs_io_listing_free (&e, ne);
    return deleted;
}

//  Reset's rule (invariant 5) in every bucket directory of the table: the
//  one of an unpartitioned table, each partition's of a partitioned one.
static int
s_clean (s_writer_t *self, int64_t r, char *err, size_t errlen)
{
    return s_clean_level (self, self->cfg.table_path, self->ppart.n, r, err, errlen);
}

//  Open a new data file for the current row's partition (pvalues, pkey):
//  in its bucket directory, made when missing.
static int
s_open_file (s_writer_t *self, char *err, size_t errlen)
{
    char bucket[ZS_PARTITION_DIR_MAX + 16], table_bucket[ZS_PATH_MAX];
    if (s_bucket_rel (self, self->pvalues, bucket, sizeof bucket, err, errlen) != 0)
        return -1;
    if (snprintf (table_bucket, sizeof table_bucket, "%s/%s", self->cfg.table_path, bucket)
        >= (int) sizeof table_bucket) {
        snprintf (err, errlen, "table path too long");
        return -1;
    }
    if (self->ppart.n > 0 && zs_io_mkdirs (table_bucket) != 0) {
        snprintf (err, errlen, "%s: cannot create directory: %s", table_bucket, strerror (errno));
        return -1;
    }
    //  A name is never reused: O_EXCL would refuse it, and a clash means a
    //  leftover of this writer in this epoch (skip it; the next Reset
    //  deletes it by its K).
    for (int tries = 0; tries < 1000; tries++) {
        char name[200], rel[256], path[ZS_PATH_MAX];
        if (zs_dataname_format (name, sizeof name, self->from.job_id, self->index,
                                self->last_barrier, self->from.epoch, self->file_n++,
                                zs_datafile_extension ())
            != 0) {
            snprintf (err, errlen, "data file name too long");
            return -1;
        }
        if (snprintf (rel, sizeof rel, "%s/%s", bucket, name) >= (int) sizeof rel
            || snprintf (path, sizeof path, "%s/%s", table_bucket, name) >= (int) sizeof path) {
            snprintf (err, errlen, "data file path too long");
            return -1;
        }
        zs_io_stat_t st;
        if (zs_io_stat (path, &st) == 0)
            continue;
        zs_datafile_writer_t *file = zs_datafile_writer_new (
            self->cfg.table_path, rel, &self->cfg.schema, &self->parquet, err, errlen);
        if (file && zs_openfiles_put (self->open, self->pkey, self->pkey_len, file) != 0) {
            zs_datafile_writer_abort (&file);
            snprintf (err, errlen, "out of memory");
        }
        return file ? 0 : -1;
    }
    snprintf (err, errlen, "no free data file name in %s", table_bucket);
    return -1;
}

//  The open file of the current row's partition: its values and BinaryRow
//  into pvalues/pkey, and a file opened for it when it has none, the least
//  recently written one closed first when write-max-writers are open.
//  The file, or NULL + err (s_open_failed's kind when *opening).
static zs_datafile_writer_t *
s_row_file (s_writer_t *self, bool *opening, char *err, size_t errlen)
{
    *opening = false;
    self->pkey_len = 0;
    if (self->ppart.n > 0) {
        zs_partition_values (&self->ppart, self->row, self->pvalues);
        int len = zs_partition_row (&self->ppart, self->pvalues, self->pkey, sizeof self->pkey, err,
                                    errlen);
        if (len < 0)
            return NULL;
        self->pkey_len = (size_t) len;
    }
    zs_datafile_writer_t *file = zs_openfiles_get (self->open, self->pkey, self->pkey_len);
    if (file)
        return file;
    if ((int) zs_openfiles_count (self->open) >= self->cfg.table.write_max_writers
        && s_close_one (self, true, err, errlen) != 0)
        return NULL;
    *opening = true;
    if (s_open_file (self, err, errlen) != 0)
        return NULL;
    return zs_openfiles_get (self->open, self->pkey, self->pkey_len);
}

static int
s_add_buffered (zs_datafile_writer_t *file, void *arg)
{
    *(int64_t *) arg += zs_datafile_writer_buffered (file);
    return 0;
}

typedef struct {
    char *err;
    size_t errlen;
} s_flush_arg_t;

static int
s_flush_one (zs_datafile_writer_t *file, void *arg)
{
    s_flush_arg_t *a = arg;
    return zs_datafile_writer_flush (file, a->err, a->errlen) == 0 ? 0 : -1;
}

//  write-buffer-size: when the rows buffered over every open file pass
//  it, each file writes its rows out as a row group and gives their
//  memory back. The files stay open: a partition keeps one file a
//  checkpoint however many are live, and memory stays bounded (with many
//  partitions the row groups are smaller). 0 or -1 + err.
static int
s_check_buffers (s_writer_t *self, char *err, size_t errlen)
{
    int64_t total = 0;
    zs_openfiles_each (self->open, s_add_buffered, &total);
    if (total <= self->cfg.table.write_buffer_size)
        return 0;
    zs_debug ("%" PRId64 " bytes buffered in %zu open files, more than write-buffer-size: "
              "writing them out",
              total, zs_openfiles_count (self->open));
    s_flush_arg_t a = {err, errlen};
    return zs_openfiles_each (self->open, s_flush_one, &a);
}

//  --------------------------------------------------------------------------
//  Outbox and sending

static void
s_outbox_clear (s_writer_t *self)
{
    while (self->out_head) {
        s_out_t *o = self->out_head;
        self->out_head = o->next;
        free (o->buf);
        free (o);
    }
    self->out_tail = NULL;
    self->out_len = 0;
}

static int
s_outbox_push (s_writer_t *self, s_out_t *o)
{
    o->next = NULL;
    if (self->out_tail)
        self->out_tail->next = o;
    else
        self->out_head = o;
    self->out_tail = o;
    self->out_len++;
    return 0;
}

static void
s_position (s_writer_t *self, Zsink__SourcePosition *pos, int64_t offset, bool finished)
{
    zsink__source_position__init (pos);
    pos->writer = self->index;
    pos->offset = offset;
    pos->has_finished = true;
    pos->finished = finished;
    //  The splits' states are read now, when the message goes out, not
    //  when it was queued: no row is read while the outbox holds anything
    //  (invariant 3), so the two are the same.
    if (self->src)
        pos->n_splits = zs_source_splits (self->src, &pos->splits);
}

//  Send a control message that must keep its place after queued data.
static int
s_send_control (s_writer_t *self, s_out_kind_t kind, int64_t checkpoint_id, int64_t offset,
                bool finished)
{
    Zsink__SourcePosition pos;
    s_position (self, &pos, offset, finished);
    zs_msg_t m;
    if (kind == S_OUT_ACK) {
        zs_msg_init (&m, ZSINK__ENVELOPE__BODY_WRITER_ACK);
        m.body.writer_ack.checkpoint_id = checkpoint_id;
        m.body.writer_ack.position = &pos;
    } else {
        zs_msg_init (&m, ZSINK__ENVELOPE__BODY_FINISHED);
        m.body.finished.position = &pos;
    }
    return zs_participant_send (self->part, &m.env);
}

static void s_fail (s_writer_t *self, const char *reason, bool fail_at_id);

//  Try to send what waits in the outbox, in order. 0, or -1 after a
//  Failure for a send error other than backpressure.
static int
s_outbox_flush (s_writer_t *self)
{
    //  Invariant 7: the coordinator has moved to a newer epoch; whatever
    //  waits here belongs to the attempt it abandoned.
    if (self->out_head && zs_participant_epoch (self->part) != self->from.epoch) {
        s_outbox_clear (self);
        return 0;
    }
    while (self->out_head) {
        s_out_t *o = self->out_head;
        int rc;
        if (o->kind == S_OUT_DATA)
            rc = zmq_send (zsock_resolve (self->data), o->buf, o->len, ZMQ_DONTWAIT) < 0 ? -1 : 0;
        else
            rc = s_send_control (self, o->kind, o->checkpoint_id, o->offset, o->finished);
        //  EAGAIN is backpressure (HWM reached, or no connection: IMMEDIATE
        //  refuses to queue for a peer that is not there); EINTR a signal.
        //  Both keep the entry at the head and retry from the loop.
        if (rc != 0 && (errno == EAGAIN || errno == EINTR))
            return 0;
        if (rc != 0 && o->kind != S_OUT_DATA)
            //  A lost ack only makes the checkpoint time out, which the
            //  coordinator handles; it is no reason to fail the job here.
            zs_warn ("cannot send to the coordinator: %s", zmq_strerror (errno));
        else if (rc != 0) {
            //  A data message we cannot send would leave a sequence gap.
            char why[256];
            snprintf (why, sizeof why, "cannot send to the committer: %s", zmq_strerror (errno));
            s_fail (self, why, false);
            return -1;
        }
        self->out_head = o->next;
        if (!self->out_head)
            self->out_tail = NULL;
        self->out_len--;
        free (o->buf);
        free (o);
    }
    return 0;
}

//  Send (or queue behind earlier messages) one data-pipe message.
static int
s_send_data (s_writer_t *self, zs_env_t *env)
{
    zs_env_stamp (env, &self->from, ++self->data_seq);
    if (!self->out_head) {
        if (zs_env_send (self->data, NULL, env) == 0)
            return 0;
        if (errno != EAGAIN && errno != EINTR) {
            char why[256];
            snprintf (why, sizeof why, "cannot send to the committer: %s", zmq_strerror (errno));
            s_fail (self, why, false);
            return -1;
        }
    }
    s_out_t *o = calloc (1, sizeof *o);
    size_t len = zsink__envelope__get_packed_size (env);
    uint8_t *buf = o ? malloc (len ? len : 1) : NULL;
    if (!buf) {
        free (o);
        s_fail (self, "out of memory queueing a data message", false);
        return -1;
    }
    zsink__envelope__pack (env, buf);
    o->kind = S_OUT_DATA;
    o->buf = buf;
    o->len = len;
    return s_outbox_push (self, o);
}

//  WriterAck / Finished to the coordinator, after anything queued (inv. 2).
static int
s_send_after_data (s_writer_t *self, s_out_kind_t kind, int64_t checkpoint_id, int64_t offset,
                   bool finished)
{
    if (!self->out_head) {
        if (s_send_control (self, kind, checkpoint_id, offset, finished) == 0)
            return 0;
        if (errno != EAGAIN && errno != EINTR) {
            zs_warn ("cannot send to the coordinator: %s", zmq_strerror (errno));
            return 0; //  the coordinator's liveness check will sort it out
        }
    }
    s_out_t *o = calloc (1, sizeof *o);
    if (!o) {
        s_fail (self, "out of memory queueing a control message", false);
        return -1;
    }
    o->kind = kind;
    o->checkpoint_id = checkpoint_id;
    o->offset = offset;
    o->finished = finished;
    return s_outbox_push (self, o);
}

//  The forging fail points (docs/reliability.md): a writer that names a
//  file the committer must refuse, as a buggy writer, or a stranger who
//  took over a writer's connection, would. "error" on the K-th committable
//  adds to it a file of the previous committable (already committed or
//  pending), a file that does not exist, or reports its first file one
//  byte larger than it is. Returns how many files it adds (0 or 1).
static size_t
s_forge (s_writer_t *self, Zsink__FileMeta *metas, size_t n, zs_file_meta_t *extra)
{
    if (zs_failpoint ("writer.forge-size") == -1 && n > 0) {
        metas[0].size += 1;
        zs_warn ("failpoint writer.forge-size: %s recorded 1 byte larger", metas[0].path);
    }
    if (zs_failpoint ("writer.forge-duplicate") == -1 && self->last_sent.path[0]) {
        *extra = self->last_sent;
        zs_warn ("failpoint writer.forge-duplicate: naming %s again", extra->path);
        return 1;
    }
    if (zs_failpoint ("writer.forge-missing") == -1) {
        memset (extra, 0, sizeof *extra);
        //  in the partition of the last row, so only its absence is wrong
        char bucket[ZS_PARTITION_DIR_MAX + 16], err[ZS_ERRLEN];
        if (s_bucket_rel (self, self->pvalues, bucket, sizeof bucket, err, sizeof err) != 0)
            snprintf (bucket, sizeof bucket, "bucket-0");
        snprintf (extra->path, sizeof extra->path, "%s/data-forged-w%d-%" PRId64 ".parquet", bucket,
                  self->index, self->last_barrier);
        memcpy (extra->partition, self->pkey, self->pkey_len);
        extra->partition_len = (uint16_t) self->pkey_len;
        extra->rows = 1;
        extra->size = 1;
        zs_warn ("failpoint writer.forge-missing: naming %s, which does not exist", extra->path);
        return 1;
    }
    return 0;
}

//  Committable(checkpoint_id, closed files) on the data pipe. 0 or -1.
static int
s_send_committable (s_writer_t *self, int64_t checkpoint_id)
{
    Zsink__FileMeta *metas = calloc (self->n_closed + 1, sizeof *metas);
    Zsink__FileMeta **ptrs = calloc (self->n_closed + 1, sizeof *ptrs);
    if (!metas || !ptrs) {
        free (metas);
        free (ptrs);
        s_fail (self, "out of memory building a committable", false);
        return -1;
    }
    for (size_t i = 0; i < self->n_closed; i++) {
        zs_file_meta_to_proto (&self->closed[i], &metas[i]);
        ptrs[i] = &metas[i];
    }
    zs_file_meta_t extra;
    size_t n = self->n_closed;
    if (s_forge (self, metas, n, &extra)) {
        zs_file_meta_to_proto (&extra, &metas[n]);
        ptrs[n] = &metas[n];
        n++;
    }
    if (self->n_closed)
        self->last_sent = self->closed[0];
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_COMMITTABLE);
    Zsink__Committable *c = &m.body.committable;
    c->checkpoint_id = checkpoint_id;
    c->writer = self->index;
    c->has_bucket = true;
    c->bucket = 0;
    c->n_files = n;
    c->files = ptrs;
    int rc = s_send_data (self, &m.env);
    free (ptrs);
    free (metas);
    return rc;
}

static int
s_send_marker (s_writer_t *self, int64_t checkpoint_id, int count)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_MARKER);
    m.body.marker.checkpoint_id = checkpoint_id;
    m.body.marker.count = count;
    return s_send_data (self, &m.env);
}

static int
s_send_end_of_input (s_writer_t *self, int count)
{
    zs_msg_t m;
    zs_msg_init (&m, ZSINK__ENVELOPE__BODY_END_OF_INPUT);
    m.body.end_of_input.count = count;
    //  With checkpointing off the committer commits these files on its own
    //  once every writer's end is in: no checkpoint guards them any more.
    self->ended_unchecked = self->cfg.checkpoint_interval_ms == 0;
    return s_send_data (self, &m.env);
}

//  Report a failure and stop producing until the next Reset. The open file
//  goes at once (invariant 5); what was closed waits for the Reset's rule.
static void
s_fail (s_writer_t *self, const char *reason, bool fail_at_id)
{
    s_abort_file (self);
    s_drop_closed (self);
    if (self->state != S_FAILED)
        zs_participant_fail (self->part, reason, fail_at_id);
    self->state = S_FAILED;
}

//  A data file that cannot be created: no permission or a read-only table
//  is no failover's to retry (the job fails at once, exit 2); anything
//  else (a full disk) may pass.
static void
s_open_failed (s_writer_t *self, const char *err)
{
    bool permanent = zs_fs_failed_for_good ();
    zs_error ("cannot open a data file: %s", err);
    if (!permanent) {
        s_fail (self, err, false);
        return;
    }
    char why[ZS_ERRLEN + 64];
    snprintf (why, sizeof why, "table.path: %s (no restart can change that)", err);
    s_abort_file (self);
    s_drop_closed (self);
    if (self->state != S_FAILED)
        zs_participant_fail_for_good (self->part, why);
    self->state = S_FAILED;
}

//  A failpoint between the steps of a barrier. true = keep going.
static bool
s_failpoint (s_writer_t *self, const char *name)
{
    if (zs_failpoint (name) >= 0)
        return true;
    char why[128];
    snprintf (why, sizeof why, "failpoint %s", name);
    zs_error ("%s fired", why);
    s_fail (self, why, false);
    return false;
}

//  --------------------------------------------------------------------------
//  Protocol steps

static void
s_barrier (s_writer_t *self, const Zsink__Barrier *barrier)
{
    int64_t n = barrier->checkpoint_id;
    if (self->state != S_RUNNING && self->state != S_ENDED) {
        //  Not started, or failed and waiting for the Reset: the
        //  coordinator is failing over and this checkpoint cannot complete.
        zs_debug ("ignoring barrier %" PRId64 " while %s", n, s_state_names[self->state]);
        return;
    }
    if (n <= self->last_barrier) {
        zs_warn ("ignoring barrier %" PRId64 ": barrier %" PRId64 " already seen", n,
                 self->last_barrier);
        return;
    }
    char err[ZS_ERRLEN];
    if (s_close_file (self, err, sizeof err) != 0) {
        zs_error ("barrier %" PRId64 ": closing data file failed: %s", n, err);
        s_fail (self, err, false);
        return;
    }
    if (!s_failpoint (self, "writer.after-flush"))
        return;
    //  One bucket, so at most one committable per checkpoint; the marker's
    //  count lets the committer know it has them all before it acks.
    int count = self->n_closed > 0 ? 1 : 0;
    size_t files = self->n_closed;
    int64_t rows = self->rows_since_barrier;
    if (count && s_send_committable (self, n) != 0)
        return;
    s_forget_closed (self);
    if (!s_failpoint (self, "writer.after-committables"))
        return;
    if (s_send_marker (self, n, count) != 0)
        return;
    if (!s_failpoint (self, "writer.after-marker"))
        return;
    if (s_send_after_data (self, S_OUT_ACK, n, self->rows_read, self->finished) != 0)
        return;
    if (!s_failpoint (self, "writer.after-ack"))
        return;
    //  Files opened from here on belong to checkpoint N+1 or later.
    self->last_barrier = n;
    zs_info ("Barrier %" PRId64 ": %zu files, %" PRId64 " rows in checkpoint", n, files, rows);
    zs_event ("barrier", "\"id\":%" PRId64 ",\"files\":%zu,\"rows\":%" PRId64, n, files, rows);
}

//  The bounded source is exhausted. Its last files go with identifier
//  INT64_MAX (Paimon's end-input checkpoint id): they are committed only
//  once every writer has ended, by the final checkpoint's notification or,
//  with checkpointing off, by the committer at end of input.
static void
s_end_of_input (s_writer_t *self)
{
    char err[ZS_ERRLEN];
    if (s_close_file (self, err, sizeof err) != 0) {
        zs_error ("end of input: closing data file failed: %s", err);
        s_fail (self, err, false);
        return;
    }
    int count = self->n_closed > 0 ? 1 : 0;
    if (count && s_send_committable (self, ZS_END_INPUT_ID) != 0)
        return;
    s_forget_closed (self);
    if (s_send_end_of_input (self, count) != 0)
        return;
    self->finished = true;
    if (s_send_after_data (self, S_OUT_FINISHED, 0, self->rows_read, true) != 0)
        return;
    self->state = S_ENDED;
    int64_t skipped = zs_source_skipped (self->src);
    if (skipped)
        zs_warn ("End of input after %" PRId64 " rows; %" PRId64
                 " bad records skipped (source.%s.on-error: skip)",
                 self->rows_read, skipped, self->cfg.source_kind);
    else
        zs_info ("End of input after %" PRId64 " rows", self->rows_read);
}

//  Does the source end (datagen with number-of-rows, files, Kafka with a
//  bounded mode)? An unbounded one never finishes, even with no split.
static bool
s_source_bounded (const s_writer_t *self)
{
    const zs_config_t *cfg = &self->cfg;
    if (strcmp (cfg->source_kind, "datagen") == 0)
        return cfg->datagen_number_of_rows >= 0;
    if (strcmp (cfg->source_kind, "kafka") == 0)
        return strcmp (cfg->kafka_bounded_mode, "unbounded") != 0;
    return true;
}

//  Where each split restored starts (the first few in the log, all as
//  events for zsink timeline).
static void
s_log_splits (s_writer_t *self, int64_t r)
{
    Zsink__Split **splits;
    size_t n = zs_source_splits (self->src, &splits);
    for (size_t i = 0; i < n; i++) {
        const Zsink__Split *sp = splits[i];
        if (i < 16)
            zs_info ("  split %s at offset %" PRId64 "%s", sp->id, sp->offset,
                     sp->finished ? " (finished)" : "");
        zs_event ("seek", "\"id\":%" PRId64 ",\"split\":\"%s\",\"offset\":%" PRId64, r, sp->id,
                  sp->offset);
    }
    if (n > 16)
        zs_info ("  … and %zu more splits", n - 16);
}

//  The source at a Reset's splits (or this writer's share at a start from
//  scratch). 0, or -1 after reporting the failure.
static int
s_open_source (s_writer_t *self, const Zsink__Reset *reset)
{
    char err[ZS_ERRLEN];
    if (!self->src)
        self->src = zs_source_new (&self->cfg, self->index, self->cfg.parallelism, err, sizeof err);
    int rc = self->src ? zs_source_reset (self->src, reset->splits, reset->n_splits,
                                          reset->has_assigned && reset->assigned, reset->position,
                                          err, sizeof err)
                       : ZS_EREFUSED;
    if (rc == 0)
        return 0;
    zs_error ("source: %s", err);
    if (rc == ZS_EREFUSED) //  the input is not there or matches no file: no restart can help
        zs_participant_fail_for_good (self->part, err);
    else
        zs_participant_fail (self->part, err, false);
    return -1;
}

//  Reset(R): back to the state of checkpoint R. Everything this writer did
//  after barrier R is undone: open file aborted, unsent metas and queued
//  messages dropped, files named K >= R deleted; the source seeks to the
//  position R recorded. Rows are produced again only after Start, so no
//  writer runs ahead while the committer is still re-committing.
static void
s_reset (s_writer_t *self, const zs_env_t *env)
{
    const Zsink__Reset *reset = env->reset;
    int64_t r = reset->restore_id;
    zs_event ("reset", "\"id\":%" PRId64 ",\"epoch\":%" PRId64, r, (int64_t) env->epoch);
    //  Drop everything of the abandoned attempt (invariant 5).
    s_abort_file (self);
    s_forget_closed (self);
    s_outbox_clear (self);
    snprintf (self->from.job_id, sizeof self->from.job_id, "%s",
              zs_participant_job_id (self->part));
    self->from.epoch = env->epoch;
    self->from.role = ZSINK__ROLE__ROLE_WRITER;
    self->from.index = self->index;
    //  A new epoch starts a new sequence: the committer expects 1 next.
    self->data_seq = 0;
    self->ended_unchecked = false;
    //  New files are named a<R>: they are after R, and the next Reset to R
    //  (or later) must delete them if their checkpoint does not complete.
    self->last_barrier = r;
    self->fail_armed = reset->fail_at_id_armed;
    //  The counter restarts per epoch only: a second Reset in one epoch (a
    //  rejoin) must not reuse a name this process already used.
    if (self->file_epoch != env->epoch) {
        self->file_epoch = env->epoch;
        self->file_n = 0;
    }
    //  FAILED until Ready below: any check that fails leaves the writer
    //  there, silent, until the coordinator's next Reset.
    self->state = S_FAILED;

    const Zsink__SourcePosition *pos = reset->position;
    if (pos && pos->writer != self->index) {
        char why[128];
        snprintf (why, sizeof why, "reset position is for writer %d, this is writer %d",
                  pos->writer, self->index);
        zs_participant_fail (self->part, why, false);
        return;
    }
    if (s_open_source (self, reset) != 0)
        return;
    size_t nfinished, nsplits = zs_source_count (self->src, &nfinished);
    self->rows_read = zs_source_rows (self->src);
    self->finished = s_source_bounded (self) && nfinished == nsplits;
    zs_participant_set_progress (self->part, self->rows_read, 0);

    char err[ZS_ERRLEN];
    int deleted = s_clean (self, r, err, sizeof err);
    if (deleted < 0) {
        zs_error ("reset to checkpoint %" PRId64 ": %s", r, err);
        zs_participant_fail (self->part, err, false);
        return;
    }
    if (r == 0 && !pos && !reset->n_splits)
        zs_info ("Starting from scratch with %zu splits (epoch %" PRId64
                 ", %d uncommitted files deleted)",
                 nsplits, env->epoch, deleted);
    else
        zs_info ("Restored to checkpoint %" PRId64 ": %zu splits (%zu finished), %" PRId64
                 " rows read%s (epoch %" PRId64 ", %d uncommitted files deleted)",
                 r, nsplits, nfinished, self->rows_read, self->finished ? ", finished" : "",
                 env->epoch, deleted);
    s_log_splits (self, r);

    zs_msg_t ready;
    zs_msg_init (&ready, ZSINK__ENVELOPE__BODY_READY);
    zs_participant_send (self->part, &ready.env);
    self->state = S_READY;
}

static void
s_start (s_writer_t *self)
{
    if (self->state != S_READY) {
        zs_debug ("ignoring start while %s", s_state_names[self->state]);
        return;
    }
    self->start_ms = zs_clock_mono_ms ();
    zs_datagen_init (&self->throttle, 0, 1, -1, zs_source_rate (self->src));
    if (self->finished) {
        //  Restored to a finished position: the committer and coordinator
        //  must hear the end again (a repeated EndOfInput is a no-op there).
        if (s_send_end_of_input (self, 0) != 0)
            return;
        if (s_send_after_data (self, S_OUT_FINISHED, 0, self->rows_read, true) != 0)
            return;
        self->state = S_ENDED;
        zs_info ("End of input after %" PRId64 " rows (restored finished)", self->rows_read);
        return;
    }
    self->state = S_RUNNING;
}

//  The Kafka splits' offsets and end offsets ride on the heartbeats, for
//  lag in zsink status and the metrics; refreshed once a heartbeat interval.
static void
s_report_splits (s_writer_t *self, int64_t now)
{
    if (strcmp (self->cfg.source_kind, "kafka") != 0
        || now - self->splits_reported < self->cfg.heartbeat_interval_ms)
        return;
    self->splits_reported = now;
    Zsink__Split **splits;
    size_t n = zs_source_splits (self->src, &splits);
    zs_participant_set_splits (self->part, splits, n);
}

//  Emit one batch of rows if some are due. Never sleeps.
static void
s_produce (s_writer_t *self)
{
    if (self->state != S_RUNNING || self->out_head)
        return; //  invariant 3: the outbox drains first
    if (zs_participant_epoch (self->part) != self->from.epoch)
        return; //  invariant 7: a failover is under way, its Reset follows
    //  The throttle is a schedule against time since Start, not a sleep per
    //  row: a slow batch (an fsync on roll, a barrier) is caught up on the
    //  next ones, so the job's rate holds on average and the loop stays
    //  responsive to control messages.
    int64_t now = zs_clock_mono_ms ();
    int64_t allowed = zs_datagen_allowed (&self->throttle, now - self->start_ms);
    char err[ZS_ERRLEN];
    for (int i = 0; i < S_BATCH_ROWS; i++) {
        if (self->throttle.offset >= allowed)
            break;
        int64_t id;
        int got = zs_source_next (self->src, self->row, &id, err, sizeof err);
        if (got == ZS_SOURCE_END) {
            s_end_of_input (self);
            break;
        }
        if (got == 0) {
            self->idle = true; //  nothing now (Kafka, a writer without splits)
            break;
        }
        self->idle = false;
        if (got < 0) {
            //  A bad record with on-error fail, or an I/O error: the job
            //  fails over and, restored, fails on the same record again
            //  until the input is fixed; nothing after the last checkpoint
            //  is committed.
            zs_error ("source: %s", err);
            s_fail (self, err, false);
            break;
        }
        if (id && self->fail_armed && id == self->cfg.datagen_fail_at_id) {
            //  Like a user function throwing on one bad record: the row is
            //  not written, the job fails over, and the restored run (with
            //  the failure disarmed) writes it.
            char why[128];
            snprintf (why, sizeof why, "datagen.fail-at-id: row %" PRId64 " failed", id);
            zs_error ("%s", why);
            s_fail (self, why, true);
            break;
        }
        //  the computed columns after the source's: a value they cannot
        //  read fails the job as a bad record does with on-error fail
        if (zs_computed_fill (&self->computed, self->cfg.computed_text, &self->cfg.source_schema,
                              self->row, err, sizeof err)
            != 0) {
            zs_error ("%s", err);
            s_fail (self, err, false);
            break;
        }
        if (self->blackhole) {
            //  sink.kind blackhole: the row was read and is dropped, as
            //  Flink's blackhole connector drops it; it still counts as
            //  read (progress, status), and barriers find no file open.
            self->throttle.offset++;
            self->rows_read++;
            self->rows_since_barrier++;
            if ((i & 63) == 63 && zs_clock_mono_ms () - now >= S_BATCH_MS)
                break;
            continue;
        }
        zs_fs_clear_failure ();
        bool opening;
        zs_datafile_writer_t *file = s_row_file (self, &opening, err, sizeof err);
        if (!file && opening) {
            s_open_failed (self, err);
            break;
        }
        if (!file) {
            zs_error ("cannot write a row: %s", err);
            s_fail (self, err, false);
            break;
        }
        if (zs_datafile_writer_append (file, self->row, err, sizeof err) != 0) {
            zs_error ("cannot write a data file: %s", err);
            s_fail (self, err, false);
            break;
        }
        self->throttle.offset++;
        self->rows_read++;
        self->rows_since_barrier++;
        //  Roll: the closed file is durable now, and its meta waits for the
        //  next barrier's committable with the others.
        //  (the size is an estimate; asking every 256 rows is close enough)
        if ((self->rows_since_barrier & 255) == 0
            && zs_datafile_writer_bytes (file) >= self->cfg.table.target_file_size
            && s_close_one (self, false, err, sizeof err) != 0) {
            zs_error ("cannot close a data file: %s", err);
            s_fail (self, err, false);
            break;
        }
        if ((self->rows_since_barrier & 1023) == 0
            && s_check_buffers (self, err, sizeof err) != 0) {
            zs_error ("cannot write buffered rows out: %s", err);
            s_fail (self, err, false);
            break;
        }
        //  Bound the batch in time too, so a barrier never waits long.
        if ((i & 63) == 63 && zs_clock_mono_ms () - now >= S_BATCH_MS)
            break;
    }
    //  progress is the source position: rows read, counted from the start
    zs_participant_set_progress (self->part, self->rows_read, 0);
    s_report_splits (self, now);
}

//  How long the poll may wait: until the next row is due, at most 50 ms.
static long
s_wait_ms (s_writer_t *self)
{
    if (self->state != S_RUNNING || self->out_head
        || zs_participant_epoch (self->part) != self->from.epoch)
        return zs_participant_wait_ms (self->part, S_MAX_WAIT_MS);
    if (self->idle)
        return zs_participant_wait_ms (self->part, S_IDLE_WAIT_MS);
    int64_t due = self->start_ms + zs_datagen_due_ms (&self->throttle, self->throttle.offset);
    int64_t wait = due - zs_clock_mono_ms ();
    return wait <= 0 ? 0 : wait > S_MAX_WAIT_MS ? S_MAX_WAIT_MS : (long) wait;
}

//  ZS_PEV_WELCOME: set up and join. false = exit with self->exit_code.
static bool
s_welcome (s_writer_t *self)
{
    char why[ZS_ERRLEN];
    if (zs_config_welcome (&self->cfg, self->part, why, sizeof why) != 0) {
        //  a coordinator of another version: no restart of ours helps
        zs_error ("configuration from the coordinator refused: %s", why);
        self->exit_code = 2;
        return false;
    }
    zs_log_set_level ((zs_log_level_t) zs_log_level_parse (self->cfg.log_level));
    char dir[2 * ZS_PATH_MAX], name[32];
    snprintf (dir, sizeof dir, "%s/%s", self->cfg.checkpoints_dir,
              zs_participant_job_id (self->part));
    snprintf (name, sizeof name, "writer-%d", self->index);
    zs_events_open (dir, name);
    zs_event ("start", "\"job\":\"%s\"", zs_participant_job_id (self->part));
    if (self->index >= self->cfg.parallelism) {
        zs_error ("writer index %d is out of range: the job's parallelism is %d", self->index,
                  self->cfg.parallelism);
        self->exit_code = 2;
        return false;
    }
    char err[ZS_ERRLEN];
    zs_datafile_options (&self->cfg.format, &self->parquet);
    self->blackhole = strcmp (self->cfg.sink_kind, "blackhole") == 0;
    //  the credentials come from this host's environment (a Welcome never
    //  carries them)
    if (zs_config_io_setup (&self->cfg, err, sizeof err) != 0) {
        zs_error ("configuration: %s", err);
        self->exit_code = 2;
        return false;
    }
    zs_table_t *table = zs_table_open_job (self->cfg.table_path, &self->cfg.schema,
                                           self->cfg.table.partition_default_name, err, sizeof err);
    if (!table) {
        zs_error ("cannot open table '%s': %s", self->cfg.table_path, err);
        self->exit_code = 1;
        return false;
    }
    //  the table's partitioning (its default name too) names the directories
    self->ppart = *zs_table_partition (table);
    zs_table_destroy (&table);
    if (!self->open && !(self->open = zs_openfiles_new ())) {
        zs_error ("out of memory");
        self->exit_code = 1;
        return false;
    }
    //  One data socket for the life of the process: its routing id is the
    //  control one, which the committer checks against the writer index.
    if (!self->data) {
        self->data =
            zs_net_dealer (self->committer, zs_participant_id (self->part), err, sizeof err);
        if (!self->data) {
            zs_error ("cannot connect to the committer: %s", err);
            self->exit_code = 2;
            return false;
        }
    }
    zs_participant_register (self->part);
    self->state = S_IDLE;
    zs_info ("Registered as writer %d of %d for job %s (epoch %" PRId64 ")", self->index,
             self->cfg.parallelism, zs_participant_job_id (self->part),
             zs_participant_epoch (self->part));
    return true;
}

static void
s_lost (s_writer_t *self)
{
    //  The coordinator is gone or forgot us: whatever we hold belongs to an
    //  attempt that will be failed over. Delete the open file and wait for
    //  the next Welcome and Reset.
    s_abort_file (self);
    s_drop_closed (self);
    s_outbox_clear (self);
    self->state = S_JOINING;
}

//  New splits while running (Kafka partitions discovered). They are read
//  from now on and acked with the next barrier: the control pipe brings
//  them before that barrier, in order.
static void
s_add_splits (s_writer_t *self, const Zsink__AddSplits *add)
{
    if (self->state != S_RUNNING && self->state != S_READY && self->state != S_ENDED) {
        zs_debug ("ignoring new splits while %s", s_state_names[self->state]);
        return;
    }
    char err[ZS_ERRLEN];
    if (zs_source_add (self->src, add->splits, add->n_splits, err, sizeof err) != 0) {
        zs_error ("new splits: %s", err);
        s_fail (self, err, false);
        return;
    }
    for (size_t i = 0; i < add->n_splits; i++)
        zs_info ("New split %s from offset %" PRId64, add->splits[i]->id, add->splits[i]->offset);
    self->idle = false;
}

static void
s_message (s_writer_t *self, zs_env_t *env)
{
    switch (env->body_case) {
    case ZSINK__ENVELOPE__BODY_RESET:
        s_reset (self, env);
        break;
    case ZSINK__ENVELOPE__BODY_START:
        s_start (self);
        break;
    case ZSINK__ENVELOPE__BODY_BARRIER:
        s_barrier (self, env->barrier);
        break;
    case ZSINK__ENVELOPE__BODY_ADD_SPLITS:
        s_add_splits (self, env->add_splits);
        break;
    case ZSINK__ENVELOPE__BODY_SHUTDOWN:
        zs_info ("Shutdown: %s", env->shutdown->reason);
        if (env->shutdown->has_last_checkpoint && env->shutdown->last_checkpoint >= 0)
            self->end_checkpoint = env->shutdown->last_checkpoint;
        self->done = true;
        break;
    default:
        zs_debug ("ignoring %s from the coordinator", zs_env_kind (env));
        break;
    }
}

//  Handle every participant event waiting. false = exit.
static bool
s_control (s_writer_t *self)
{
    while (!self->done) {
        zs_env_t *env = NULL;
        zs_pev_t ev = zs_participant_poll (self->part, &env);
        if (ev == ZS_PEV_NONE)
            break;
        if (ev == ZS_PEV_WELCOME && !s_welcome (self))
            return false;
        if (ev == ZS_PEV_LOST)
            s_lost (self);
        if (ev == ZS_PEV_SUPERSEDED) {
            //  another writer has our index now: leave it the table
            s_lost (self);
            self->done = true;
        }
        if (ev == ZS_PEV_MESSAGE) {
            s_message (self, env);
            zs_env_free (&env);
        }
    }
    return true;
}

//  The committer sends nothing on the data pipe; drain it so a stray
//  message never fills our receive queue.
static void
s_drain_data (s_writer_t *self)
{
    while (1) {
        zmsg_t *msg = NULL;
        void *handle = zsock_resolve (self->data);
        zmq_pollitem_t item = {handle, 0, ZMQ_POLLIN, 0};
        if (zmq_poll (&item, 1, 0) <= 0)
            return;
        msg = zmsg_recv (self->data);
        zmsg_destroy (&msg);
        self->dropped_in++;
    }
}

//  Log name, fail points, disk faults, keys, the coordinator connection.
//  0, or the exit status (having logged why).
static int
s_writer_init (s_writer_t *self)
{
    char name[32];
    snprintf (name, sizeof name, "writer-%d", self->index);
    zs_log_set_name (name);
    if (zs_cmd_faults_init () != ZS_CMD_GO_ON)
        return 2;
    char err[ZS_ERRLEN];
    if (*self->keys) {
        self->curve =
            zs_curve_load (self->keys, ZSINK__ROLE__ROLE_WRITER, self->index, err, sizeof err);
        if (!self->curve) {
            zs_error ("--keys: %s", err);
            return 2;
        }
        zs_net_use_curve (self->curve);
    }
    self->part = zs_participant_new (ZSINK__ROLE__ROLE_WRITER, self->index, self->coordinator, err,
                                     sizeof err);
    if (!self->part) {
        zs_error ("cannot connect to the coordinator: %s", err);
        return 2;
    }
    self->file_epoch = -1;
    self->state = S_JOINING;
    zs_info ("writer %d starting (coordinator %s, committer %s)", self->index, self->coordinator,
             self->committer);
    return 0;
}

//  The event loop. Wake for control input, and for room on the data pipe
//  while data waits in the outbox (not for a control entry at its head:
//  the data pipe being writable would then spin the loop). The timeout is
//  the next row due, at most 50 ms, so timers run and nothing ever sleeps
//  inside a step. false when it stopped on an error (exit_code says).
static bool
s_writer_run (s_writer_t *self)
{
    while (!self->done && !zsys_interrupted) {
        bool want_out = self->out_head && self->out_head->kind == S_OUT_DATA;
        zmq_pollitem_t items[2] = {
            {zsock_resolve (zs_participant_sock (self->part)), 0, ZMQ_POLLIN, 0},
            {self->data ? zsock_resolve (self->data) : NULL, 0,
             (short) (ZMQ_POLLIN | (want_out ? ZMQ_POLLOUT : 0)), 0},
        };
        if (zmq_poll (items, self->data ? 2 : 1, s_wait_ms (self)) < 0 && errno != EINTR) {
            //  ETERM/ENOTSOCK: the context is going away under us
            zs_error ("poll: %s", zmq_strerror (errno));
            self->exit_code = 1;
            return false;
        }
        if (zsys_interrupted)
            break;
        if (!s_control (self))
            return false;
        if (self->done)
            break;
        if (self->data) {
            s_drain_data (self);
            s_outbox_flush (self);
            s_produce (self);
            //  Rows just produced may have queued nothing, but a barrier's
            //  messages may have hit backpressure: try once more now.
            s_outbox_flush (self);
        }
    }
    return true;
}

//  Paimon's writer close deletes the uncommitted new files; so do we: the
//  open one, and those closed since the last barrier (rolled by size),
//  which no committable carries and so no checkpoint can name. A writer
//  told to shut down says Bye.
static void
s_writer_close (s_writer_t *self)
{
    s_abort_file (self);
    s_drop_closed (self);
    //  A job canceled or failed ends at its latest completed checkpoint (0:
    //  none): the files handed over for one that never completed (in flight
    //  at the end) are no restore's either, so they go as a Reset to it
    //  would delete them, not stay behind as orphans. Not files handed over
    //  as the end of input with checkpointing off: the committer may be
    //  committing them this instant, so it is the one to delete them when
    //  it has not (committer.c, s_on_shutdown).
    char err[ZS_ERRLEN];
    if (self->end_checkpoint >= 0 && !self->ended_unchecked && self->from.job_id[0]) {
        int deleted = s_clean (self, self->end_checkpoint, err, sizeof err);
        if (deleted < 0)
            zs_warn ("deleting files after checkpoint %" PRId64 ": %s", self->end_checkpoint, err);
        else if (deleted > 0)
            zs_info ("%d files written after checkpoint %" PRId64 " deleted: the job ended there",
                     deleted, self->end_checkpoint);
    }
    if (self->done) {
        zs_msg_t bye;
        zs_msg_init (&bye, ZSINK__ENVELOPE__BODY_BYE);
        zs_participant_send (self->part, &bye.env);
        //  czmq's linger 0 would drop the Bye on exit: give it a moment.
        zsock_set_linger (zs_participant_sock (self->part), 200);
    } else if (zsys_interrupted)
        zs_info ("interrupted: exiting");
}

static void
s_writer_destroy (s_writer_t **self_p)
{
    s_writer_t *self = *self_p;
    s_outbox_clear (self);
    zs_openfiles_destroy (&self->open);
    free (self->closed);
    zs_source_destroy (&self->src);
    zs_computed_destroy (&self->computed);
    zsock_destroy (&self->data);
    zs_participant_destroy (&self->part);
    zs_curve_destroy (&self->curve);
    free (self);
    *self_p = NULL;
}

int
zs_writer_main (int argc, char **argv)
{
    zsys_init (); //  SIGINT/SIGTERM set zsys_interrupted; we exit cleanly on it
    s_writer_t *self = calloc (1, sizeof *self);
    if (!self) {
        fprintf (stderr, "zsink-writer: out of memory\n");
        return 1;
    }
    self->end_checkpoint = -1;
    int code = s_parse_args (self, argc, argv);
    if (code != ZS_CMD_GO_ON) {
        free (self);
        return code;
    }
    code = s_writer_init (self);
    if (code == 0) {
        bool ok = s_writer_run (self);
        s_writer_close (self);
        code = ok ? 0 : self->exit_code;
    }
    s_writer_destroy (&self);
    return code;
}
