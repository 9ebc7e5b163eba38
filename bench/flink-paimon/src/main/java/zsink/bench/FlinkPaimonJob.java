package zsink.bench;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.types.DataTypes;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One Flink job: zsink's datagen rows (the same values for the same ids, see {@link ZsRow}) into a
 * Paimon append table through Paimon's Flink sink (FlinkSinkBuilder: writer, global committer),
 * in a local MiniCluster of this JVM or submitted to a standalone cluster (--remote).
 *
 * <pre>
 * java … zsink.bench.FlinkPaimonJob --table DIR [--parallelism N] [--interval-ms MS]
 *      [--rate ROWS_PER_S (0 = full speed)] [--rows N (unbounded if absent)] [--fail-at-id ID]
 *      [--marker FILE] [--write-only true|false] [--run-for-s S] [--attempts N]
 *      [--remote HOST:PORT] [--log-first-row]
 *      [--table-options 'K=V;K=V'] [--flink-conf 'K=V;K=V'] [--sink paimon|discard]
 * </pre>
 *
 * --table-options adds Paimon table options to the table's schema (a new table) and to the
 * sink's view of it (so FlinkConnectorOptions such as sink.coordinator-commit.enabled reach the
 * sink); --flink-conf adds Flink configuration keys to the job's Configuration (e.g.
 * pipeline.object-reuse=true).
 *
 * <p>--sink discard is the source-only ceiling: the same generator into Flink's {@link
 * DiscardingSink}, no table (--table is then only a name). The generator counts the rows it
 * maps (a local counter, added to a JVM-wide one every {@link ZsRowGenerator#BATCH} rows: the
 * MiniCluster's tasks run in this JVM), and this process prints {@code HARNESS rows <ms> <n>}
 * every 500 ms, from which the harness takes rows/s.
 *
 * Lines for the harness go to stdout as {@code HARNESS <event> <epoch ms> …}.
 */
public final class FlinkPaimonJob {

    /** ids per split of an unbounded source: split k of p reads ids k+1, k+1+p, … as zsink does */
    static final long SPLIT_SPAN = 10_000_000_000L;

    public static void main(String[] argv) throws Exception {
        Map<String, String> a = parse(argv);
        String table = need(a, "table");
        int p = Integer.parseInt(a.getOrDefault("parallelism", "1"));
        long interval = Long.parseLong(a.getOrDefault("interval-ms", "0"));
        long rate = Long.parseLong(a.getOrDefault("rate", "0"));
        long rows = Long.parseLong(a.getOrDefault("rows", "-1"));
        long failAt = Long.parseLong(a.getOrDefault("fail-at-id", "-1"));
        String marker = a.getOrDefault("marker", table + ".failed-once");
        boolean writeOnly = Boolean.parseBoolean(a.getOrDefault("write-only", "false"));
        long runFor = Long.parseLong(a.getOrDefault("run-for-s", "0"));
        int attempts = Integer.parseInt(a.getOrDefault("attempts", "3"));
        String remote = a.get("remote");
        boolean logFirst = a.containsKey("log-first-row");
        Map<String, String> tableOptions = pairs(a.getOrDefault("table-options", ""));
        Map<String, String> flinkConf = pairs(a.getOrDefault("flink-conf", ""));
        String sink = a.getOrDefault("sink", "paimon");
        if (!sink.equals("paimon") && !sink.equals("discard")) {
            throw new IllegalArgumentException("--sink: paimon or discard, not " + sink);
        }

        harness("start");
        FileStoreTable t = sink.equals("paimon") ? createTable(table, writeOnly, tableOptions) : null;

        Configuration conf = new Configuration();
        conf.setString("parallelism.default", String.valueOf(p));
        if (interval > 0) {
            conf.setString("execution.checkpointing.interval", interval + " ms");
        }
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", String.valueOf(attempts));
        conf.setString("restart-strategy.fixed-delay.delay", "0 ms");
        flinkConf.forEach(conf::setString);
        StreamExecutionEnvironment env;
        if (remote == null) {
            conf.setString("taskmanager.numberOfTaskSlots", String.valueOf(p));
            env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        } else {
            String[] hp = remote.split(":");
            env = StreamExecutionEnvironment.createRemoteEnvironment(hp[0], Integer.parseInt(hp[1]), conf);
        }
        env.setParallelism(p);

        long count;
        boolean interleave;
        if (rows > 0) {
            count = rows; // ids 1..rows
            interleave = false;
        } else {
            count = SPLIT_SPAN * p; // p equal splits, ids interleaved as zsink's writers read them
            interleave = true;
        }
        RateLimiterStrategy limiter = rate > 0 ? RateLimiterStrategy.perSecond(rate) : RateLimiterStrategy.noOp();
        DataGeneratorSource<RowData> source = new DataGeneratorSource<>(
                new ZsRowGenerator(interleave, p, failAt, marker, logFirst), count, limiter,
                InternalTypeInfo.of(ZsRow.ROW_TYPE));
        DataStream<RowData> stream = env.fromSource(source, WatermarkStrategy.noWatermarks(), "datagen")
                .setParallelism(p);
        if (t != null) {
            new FlinkSinkBuilder(t).forRowData(stream).parallelism(p).build();
        } else {
            stream.sinkTo(new DiscardingSink<>()).setParallelism(p).name("discard");
            reportRows();
        }

        JobClient client = env.executeAsync("zsink-bench " + new File(table).getName());
        JobID id = client.getJobID();
        harness("submitted", "job=" + id);
        if (runFor > 0) {
            long end = System.currentTimeMillis() + runFor * 1000;
            while (System.currentTimeMillis() < end) {
                if (client.getJobStatus().get().isGloballyTerminalState()) {
                    break;
                }
                Thread.sleep(100);
            }
            if (!client.getJobStatus().get().isGloballyTerminalState()) {
                harness("cancel");
                client.cancel().get(60, TimeUnit.SECONDS);
            }
            harness("over", "status=" + safeStatus(client));
        } else {
            try {
                client.getJobExecutionResult().get();
                harness("over", "status=FINISHED");
            } catch (Exception e) {
                harness("over", "status=FAILED " + e);
                System.exit(1);
            }
        }
        System.exit(0);
    }

    /** HARNESS rows <ms> <rows mapped so far> every 500 ms, from a daemon thread */
    static void reportRows() {
        Thread th = new Thread(() -> {
            try {
                while (true) {
                    harness("rows", String.valueOf(ZsRowGenerator.ROWS.get()));
                    Thread.sleep(500);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "harness-rows");
        th.setDaemon(true);
        th.start();
    }

    static String safeStatus(JobClient c) {
        try {
            return String.valueOf(c.getJobStatus().get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            return "CANCELED";
        }
    }

    /** The table zsink creates: its schema and its schema options, plus write-only when asked. */
    static FileStoreTable createTable(String dir, boolean writeOnly, Map<String, String> extra)
            throws Exception {
        Path path = new Path(new File(dir).getAbsolutePath());
        LocalFileIO io = LocalFileIO.create();
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "-1");
        options.put("file.format", "parquet");
        options.put("file.compression", "zstd");
        options.put("file.compression.zstd-level", "1");
        options.put("manifest.format", "avro");
        options.put("manifest.compression", "zstd");
        if (writeOnly) {
            options.put("write-only", "true");
        }
        options.putAll(extra);
        SchemaManager sm = new SchemaManager(io, path);
        if (!sm.latest().isPresent()) {
            Schema schema = Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("name", DataTypes.STRING())
                    .column("price", DataTypes.DOUBLE())
                    .column("ts", DataTypes.TIMESTAMP(3))
                    .options(options)
                    .build();
            sm.createTable(schema);
        }
        return FileStoreTableFactory.create(io, path).copy(extra);
    }

    /** 'K=V;K=V' as an ordered map (empty string: none) */
    static Map<String, String> pairs(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String kv : text.split(";")) {
            if (kv.isEmpty()) {
                continue;
            }
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not K=V: " + kv);
            }
            m.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return m;
    }

    static void harness(String event, String... rest) {
        StringBuilder sb = new StringBuilder("HARNESS ").append(event).append(' ').append(System.currentTimeMillis());
        for (String r : rest) {
            sb.append(' ').append(r);
        }
        System.out.println(sb);
        System.out.flush();
    }

    static Map<String, String> parse(String[] argv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            if (!argv[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + argv[i]);
            }
            String k = argv[i].substring(2);
            if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
                m.put(k, argv[++i]);
            } else {
                m.put(k, "true");
            }
        }
        return m;
    }

    static String need(Map<String, String> a, String k) {
        String v = a.get(k);
        if (v == null) {
            throw new IllegalArgumentException("--" + k + " is required");
        }
        return v;
    }

    /** Index of the sequence → zsink's id, its row; fails once at failAt; logs its first row. */
    static final class ZsRowGenerator implements GeneratorFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        /** rows mapped by every subtask of this JVM, in steps of BATCH (see reportRows) */
        static final AtomicLong ROWS = new AtomicLong();
        static final int BATCH = 4096;
        final boolean interleave;
        final int p;
        final long failAt;
        final String marker;
        final boolean logFirst;
        transient boolean first;
        transient int subtask;
        transient long mapped;

        ZsRowGenerator(boolean interleave, int p, long failAt, String marker, boolean logFirst) {
            this.interleave = interleave;
            this.p = p;
            this.failAt = failAt;
            this.marker = marker;
            this.logFirst = logFirst;
        }

        @Override
        public void open(SourceReaderContext ctx) {
            first = true;
            subtask = ctx.getIndexOfSubtask();
        }

        @Override
        public RowData map(Long v) throws Exception {
            long id = interleave ? v / SPLIT_SPAN + 1 + (v % SPLIT_SPAN) * p : v + 1;
            if (++mapped % BATCH == 0) {
                ROWS.addAndGet(BATCH);
            }
            if (first) {
                first = false;
                if (logFirst) {
                    harness("first-row", "subtask=" + subtask, "id=" + id, "pid=" + ProcessHandle.current().pid());
                }
            }
            if (id == failAt && failOnce()) {
                harness("fail", "id=" + id, "pid=" + ProcessHandle.current().pid());
                throw new RuntimeException("datagen.fail-at-id: row " + id + " failed");
            }
            return ZsRow.row(id);
        }

        boolean failOnce() throws IOException {
            try {
                Files.createFile(new File(marker).toPath());
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            }
        }
    }

    /** zsink's datagen values of the default schema (writer/datagen.c), for the same id. */
    static final class ZsRow {
        static final RowType ROW_TYPE = RowType.of(
                new LogicalType[] {
                    new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH), new DoubleType(),
                    new TimestampType(3)
                },
                new String[] {"id", "name", "price", "ts"});

        /** splitmix64's finaliser of (id, column), as s_mix */
        static long mix(long id, int col) {
            long z = id * 0x9E3779B97F4A7C15L + (long) (col + 1) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        static boolean isNull(long id, int col) {
            return Long.remainderUnsigned(mix(id, col), 13) == 0;
        }

        static RowData row(long id) {
            GenericRowData r = new GenericRowData(4);
            r.setField(0, id);
            r.setField(1, isNull(id, 1) ? null : StringData.fromString("name-" + id));
            r.setField(2, isNull(id, 2) ? null : (double) (id % 100000) / 100.0);
            r.setField(3, isNull(id, 3) ? null : TimestampData.fromEpochMillis(1700000000000L + id * 1000));
            return r;
        }
    }
}
