package zsink.bench;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonRowDataDeserializationSchema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.table.FileStoreTable;

import java.io.File;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Kafka → Paimon, the Flink side of bench/kafka.sh: Flink's Kafka source (flink-connector-kafka,
 * FLIP-27 {@link KafkaSource}, the records' values read by Flink's JSON format as the table's
 * rows, {@code value.format: json}) into the Paimon append table zsink writes ({@link
 * FlinkPaimonJob#createTable}) through Paimon's Flink sink ({@link FlinkSinkBuilder}: writer,
 * global committer), in a local MiniCluster of this JVM.
 *
 * <pre>
 * java … zsink.bench.KafkaPaimonJob --table DIR --bootstrap HOST:PORT --topic T --group G
 *      [--parallelism N] [--interval-ms MS] [--bounded true|false] [--write-only true|false]
 *      [--run-for-s S]
 * </pre>
 *
 * As zsink's job of the bench: {@code scan.startup.mode: earliest-offset}; {@code --bounded true}
 * is {@code scan.bounded.mode: latest-offset} (the offsets current when the job starts; the job
 * ends once it has read them, its last commit has the identifier Long.MAX_VALUE); {@code
 * isolation.level} read_committed (zsink's default). Exits 0 when the job finished or was
 * cancelled after --run-for-s; lines for the harness go to stdout as {@code HARNESS <event> <epoch
 * ms> …}.
 */
public final class KafkaPaimonJob {

    public static void main(String[] argv) throws Exception {
        Map<String, String> a = FlinkPaimonJob.parse(argv);
        String table = FlinkPaimonJob.need(a, "table");
        String bootstrap = FlinkPaimonJob.need(a, "bootstrap");
        String topic = FlinkPaimonJob.need(a, "topic");
        String group = FlinkPaimonJob.need(a, "group");
        int p = Integer.parseInt(a.getOrDefault("parallelism", "1"));
        long interval = Long.parseLong(a.getOrDefault("interval-ms", "1000"));
        boolean bounded = Boolean.parseBoolean(a.getOrDefault("bounded", "true"));
        boolean writeOnly = Boolean.parseBoolean(a.getOrDefault("write-only", "false"));
        long runFor = Long.parseLong(a.getOrDefault("run-for-s", "0"));

        FlinkPaimonJob.harness("start");
        FileStoreTable t = FlinkPaimonJob.createTable(table, writeOnly, java.util.Map.of());

        Configuration conf = new Configuration();
        conf.setString("parallelism.default", String.valueOf(p));
        conf.setString("execution.checkpointing.interval", interval + " ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "3");
        conf.setString("restart-strategy.fixed-delay.delay", "0 ms");
        conf.setString("taskmanager.numberOfTaskSlots", String.valueOf(p));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(p);

        // value.format json: the table's row type; a missing field is null, a record that does
        // not parse fails the job (zsink's source.kafka.on-error: fail)
        JsonRowDataDeserializationSchema json = new JsonRowDataDeserializationSchema(
                FlinkPaimonJob.ZsRow.ROW_TYPE, InternalTypeInfo.of(FlinkPaimonJob.ZsRow.ROW_TYPE),
                false, false, TimestampFormat.SQL);
        KafkaSourceBuilder<RowData> b = KafkaSource.<RowData>builder()
                .setBootstrapServers(bootstrap)
                .setTopics(topic)
                .setGroupId(group)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setValueOnlyDeserializer(json)
                .setProperty("isolation.level", "read_committed");
        if (bounded) {
            b.setBounded(OffsetsInitializer.latest());
        }
        DataStream<RowData> stream = env.fromSource(b.build(), WatermarkStrategy.noWatermarks(), "kafka")
                .setParallelism(p);
        new FlinkSinkBuilder(t).forRowData(stream).parallelism(p).build();

        JobClient client = env.executeAsync("zsink-bench kafka " + new File(table).getName());
        JobID id = client.getJobID();
        FlinkPaimonJob.harness("submitted", "job=" + id);
        if (runFor > 0) {
            long end = System.currentTimeMillis() + runFor * 1000;
            while (System.currentTimeMillis() < end && !client.getJobStatus().get().isGloballyTerminalState()) {
                Thread.sleep(100);
            }
            if (!client.getJobStatus().get().isGloballyTerminalState()) {
                FlinkPaimonJob.harness("cancel");
                client.cancel().get(60, TimeUnit.SECONDS);
            }
            FlinkPaimonJob.harness("over", "status=" + FlinkPaimonJob.safeStatus(client));
        } else {
            try {
                client.getJobExecutionResult().get();
                FlinkPaimonJob.harness("over", "status=FINISHED");
            } catch (Exception e) {
                FlinkPaimonJob.harness("over", "status=FAILED " + e);
                System.exit(1);
            }
        }
        System.exit(0);
    }
}
