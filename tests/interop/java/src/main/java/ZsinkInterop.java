/*  ZsinkInterop - Paimon Java (Maven Central) as a test oracle for Paimon tables.

    java @BUILD_DIR/interop/java/java.args ZsinkInterop COMMAND ...
    java -cp "$(cat BUILD_DIR/interop/java/cp.txt)" ZsinkInterop COMMAND ...   (no CDS: slower)

    (scripts/setup-interop.sh builds it; see tests/interop/README.md.) Every
    command prints one JSON value on stdout; a failure prints
    {"ok":false,"error":…} and exits 1, a usage error exits 2. Paimon's own
    log lines (WARN and up) go to stderr.

      summary TABLE [--snapshot ID]          count, distinct_ids, min_id, max_id,
                                             digest (tests/duckdb/oracle.mjs's)
      rows TABLE [--snapshot ID]             the canonical lines, sorted
      files TABLE [--snapshot ID]            the data files the scan plans
      snapshots TABLE                        the snapshot list
      filter-committed TABLE USER ID...      FileStoreCommit.filterCommitted
      count-where TABLE PREDICATE... [--snapshot ID]
                                             a read with the predicate pushed down
                                             (several: a JSON array, one JVM)
      create TABLE SCHEMA_SPEC [--option K=V]... [--partition-keys K1,K2]
      append TABLE --ids A..B [--commit-user U] [--identifier N] [--files K]
                                             (rows of the table's latest schema)
      alter TABLE [--add NAME:TYPE] [--rename OLD:NEW] [--retype NAME:TYPE] [--drop NAME]...
                                             one schema change (SchemaManager.commitChanges:
                                             ALTER TABLE), the changes in the order given
      append-loop TABLE --from A --rows K --commit-user U [--identifier N]
                  [--until FILE] [--max-commits M] [--pause-ms P]
                                             commits of K rows one after another
      check TABLE [--snapshots ID,ID...]     summary + snapshots + time travel to each
                                             ID + filterCommitted of every user
      expire TABLE --retain-max N --retain-min M [--time-retain-ms T] [--max-deletes D]
      remove-orphans TABLE [--older-than-ms N] [--dry-run]
      maintain TABLE --until FILE|--rounds R --retain-max N --retain-min M [--time-retain-ms T] [--pause-ms P]
      read-loop TABLE --until FILE [--pause-ms P]
                                             expire + remove-orphans (default margin) in a loop
      spell-doubles                          stdin numbers -> digest spellings
      serve                                  stdin: one command a line (tab-separated
                                             arguments) -> one JSON line each
      train SCRATCH_DIR                      every command once (setup's CDS archive)

    The digest: every row's values spelt canonically (NULL \N, BOOLEAN
    true/false, integers decimal, FLOAT/DOUBLE as JavaScript's String() of the
    double, STRING as JSON.stringify, BYTES lowercase hex, DATE days since
    1970-01-01, TIMESTAMP epoch microseconds), joined by tabs, the lines sorted
    by UTF-16 code units (String.compareTo, as JavaScript sorts), sha256 over
    each line's UTF-8 + "\n".
*/

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestCommittable;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.FileStoreCommit;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableScan;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowType;

import java.io.BufferedReader;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

public class ZsinkInterop {

    static final String NULL = "\\N";
    static long mainStartNanos;
    static long jvmToMainMs;
    static PrintStream out;

    static final class UsageError extends RuntimeException {
        UsageError(String m) {
            super(m);
        }
    }

    public static void main(String[] args) throws Exception {
        mainStartNanos = System.nanoTime();
        // before any Paimon class loads its logger: WARN and up, to stderr
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        jvmToMainMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        out = new PrintStream(new BufferedOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 16), false, "UTF-8");
        int code = 0;
        try {
            code = run(args);
        } catch (UsageError e) {
            System.err.println("ZsinkInterop: " + e.getMessage());
            out.println(toJson(obj("ok", false, "error", e.getMessage())));
            code = 2;
        } catch (Throwable e) {
            e.printStackTrace();
            out.println(toJson(obj("ok", false, "error", e.toString())));
            code = 1;
        }
        out.flush();
        System.exit(code);
    }

    static int run(String[] argv) throws Exception {
        if (argv.length < 1)
            throw new UsageError("usage: ZsinkInterop summary|rows|files|snapshots|filter-committed|"
                    + "count-where|check|create|append|append-loop|expire|remove-orphans|maintain|read-loop|read-time|"
                    + "spell-doubles|"
                    + "create-tag|delete-tag|tags|partitions|drop-partition ...");
        Args a = new Args(Arrays.copyOfRange(argv, 1, argv.length));
        switch (argv[0]) {
            case "summary": return summary(a);
            case "rows": return rows(a);
            case "files": return files(a);
            case "snapshots": return snapshots(a);
            case "filter-committed": return filterCommitted(a);
            case "count-where": return countWhere(a);
            case "check": return check(a);
            case "append-loop": return appendLoop(a);
            case "maintain": return maintain(a);
            case "read-loop": return readLoop(a);
            case "create": return create(a);
            case "append": return append(a);
            case "alter": return alter(a);
            case "expire": return expire(a);
            case "remove-orphans": return removeOrphans(a);
            case "create-tag": return createTag(a);
            case "delete-tag": return deleteTag(a);
            case "tags": return tags(a);
            case "partitions": return partitions(a);
            case "drop-partition": return dropPartition(a);
            case "read-time": return readTime(a);
            case "spell-doubles": return spellDoubles();
            case "serve": return serve();
            case "train": return train(a);
            case "append-json": return appendJson(a);
            case "value-stats": return valueStats(a);
            case "create-fields": return createFields(a);
            default: throw new UsageError("unknown command " + argv[0]);
        }
    }

    // ---- arguments ------------------------------------------------------------

    static final class Args {
        final List<String> pos = new ArrayList<>();
        final Map<String, List<String>> opt = new HashMap<>();
        final java.util.Set<String> flags = new java.util.HashSet<>();
        static final java.util.Set<String> FLAGS = java.util.Set.of("--dry-run");

        Args(String[] a) {
            for (int i = 0; i < a.length; i++) {
                if (a[i].startsWith("--") && a[i].length() > 2) {
                    if (FLAGS.contains(a[i])) {
                        flags.add(a[i]);
                        continue;
                    }
                    if (i + 1 >= a.length)
                        throw new UsageError(a[i] + " wants a value");
                    opt.computeIfAbsent(a[i], k -> new ArrayList<>()).add(a[++i]);
                } else
                    pos.add(a[i]);
            }
        }

        String pos(int i, String what) {
            if (i >= pos.size())
                throw new UsageError("missing " + what);
            return pos.get(i);
        }

        String opt(String k) {
            List<String> v = opt.get(k);
            return v == null ? null : v.get(v.size() - 1);
        }

        Long optLong(String k) {
            String v = opt(k);
            if (v == null)
                return null;
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new UsageError(k + " wants an integer, not '" + v + "'");
            }
        }
    }

    // ---- tables -----------------------------------------------------------------
    //
    // TABLE is a local directory (file:///abs too, as zsink takes it) or
    // s3://bucket/key, as zsink's table.path. A local table goes through
    // LocalFileIO. An s3:// table goes through paimon-s3: a plugin jar whose
    // FileIOLoader FileIO.get finds, and which loads its own hadoop-aws and AWS
    // SDK in a class loader of their own (never meeting the hadoop-client jars
    // the Parquet code uses). It is configured with Paimon's own keys, taken
    // from the environment zsink reads, so one environment serves every
    // reader (s3Options). One FileIO per bucket for the JVM's life: a serve
    // JVM answers many asks, and the plugin's class loading costs ~1 s.

    static boolean isUrl(String p) {
        return p.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*");
    }

    static boolean isS3(String p) {
        return p.regionMatches(true, 0, "s3://", 0, 5);
    }

    // A local path made absolute; an s3:// URL as given (less a trailing /);
    // file:///abs as /abs; any other scheme refused (exit 2, as paimon_py.py).
    static String absPath(String p) {
        if (isS3(p))
            return p.replaceAll("/+$", "");
        if (p.regionMatches(true, 0, "file://", 0, 7))
            p = p.substring(7);
        else if (isUrl(p))
            throw new UsageError("unsupported table path '" + p
                    + "': a local directory, file:///abs or s3://bucket/key");
        return new File(p).getAbsoluteFile().toPath().normalize().toString();
    }

    static String env(String... names) {
        for (String n : names) {
            String v = System.getenv(n);
            if (v != null && !v.isEmpty())
                return v;
        }
        return null;
    }

    // Paimon's keys (paimon-s3 hands s3.X to Hadoop S3A as fs.s3a.X) from the
    // variables zsink falls back to:
    //   s3.endpoint          AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL (with its
    //                        http:// or https://: S3A takes the scheme from it)
    //   s3.access-key        AWS_ACCESS_KEY_ID
    //   s3.secret-key        AWS_SECRET_ACCESS_KEY
    //   s3.endpoint.region   AWS_REGION, AWS_DEFAULT_REGION (S3A's key; Paimon
    //                        has no s3.region of its own)
    //   s3.path.style.access true when an endpoint is given (zsink's rule:
    //                        S3A's default, virtual-host style, needs a DNS name
    //                        per bucket)
    static org.apache.paimon.options.Options s3Options() {
        org.apache.paimon.options.Options o = new org.apache.paimon.options.Options();
        String endpoint = env("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
        String key = env("AWS_ACCESS_KEY_ID"), secret = env("AWS_SECRET_ACCESS_KEY");
        String region = env("AWS_REGION", "AWS_DEFAULT_REGION");
        if (key == null || secret == null)
            throw new IllegalArgumentException("s3: no credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
        if (endpoint != null)
            o.set("s3.endpoint", endpoint);
        o.set("s3.access-key", key);
        o.set("s3.secret-key", secret);
        if (region != null)
            o.set("s3.endpoint.region", region);
        o.set("s3.path.style.access", String.valueOf(endpoint != null));
        return o;
    }

    static final Map<String, org.apache.paimon.fs.FileIO> FILE_IOS = new HashMap<>();

    static synchronized org.apache.paimon.fs.FileIO fileIO(String abs) {
        if (!isS3(abs))
            return LocalFileIO.create();
        String bucket = java.net.URI.create(abs).getAuthority();
        org.apache.paimon.fs.FileIO io = FILE_IOS.get(bucket);
        if (io == null) {
            try {
                io = org.apache.paimon.fs.FileIO.get(new Path(abs),
                        org.apache.paimon.catalog.CatalogContext.create(s3Options()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            FILE_IOS.put(bucket, io);
        }
        return io;
    }

    static boolean isDir(org.apache.paimon.fs.FileIO io, Path p) {
        try {
            return io.getFileStatus(p).isDir();
        } catch (java.io.FileNotFoundException e) {
            return false;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static FileStoreTable open(String path, Long snapshot) {
        String abs = absPath(path);
        org.apache.paimon.fs.FileIO io = fileIO(abs);
        if (!isDir(io, new Path(abs, "schema")))
            throw new IllegalArgumentException("no Paimon table (no schema/) at " + abs);
        FileStoreTable t = FileStoreTableFactory.create(io, new Path(abs));
        if (snapshot != null)
            t = t.copy(Collections.singletonMap("scan.snapshot-id", String.valueOf(snapshot)));
        return t;
    }

    // A path Paimon returns, as the tools print it: relative to the table's
    // root when inside it (local: the path part; s3: the whole URL)
    static String shown(String root, Path p) {
        String s = isS3(root) ? p.toString() : p.toUri().getPath();
        return s.startsWith(root + "/") ? s.substring(root.length() + 1) : s;
    }

    static long sinceMainMs() {
        return (System.nanoTime() - mainStartNanos) / 1_000_000;
    }

    static Map<String, Object> timing(long readMs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jvm_start_ms", jvmToMainMs);
        m.put("read_ms", readMs);
        m.put("total_ms", jvmToMainMs + sinceMainMs());
        return m;
    }

    // The scan plan: splits, the number of data files, the snapshot read.
    static final class Planned {
        TableScan.Plan plan;
        int files;
        Long snapshot;
        List<DataSplit> dataSplits = new ArrayList<>();
    }

    static Planned plan(FileStoreTable t, ReadBuilder rb) {
        Planned p = new Planned();
        p.plan = rb.newScan().plan();
        for (Split s : p.plan.splits()) {
            if (!(s instanceof DataSplit))
                throw new IllegalStateException("unexpected split " + s.getClass());
            DataSplit d = (DataSplit) s;
            p.dataSplits.add(d);
            p.files += d.dataFiles().size();
            p.snapshot = d.snapshotId();
        }
        if (p.snapshot == null) {
            Long sid = t.coreOptions().scanSnapshotId();
            p.snapshot = sid != null ? sid : t.snapshotManager().latestSnapshotId();
        }
        return p;
    }

    static void readRows(ReadBuilder rb, Planned p, Consumer<InternalRow> f) throws Exception {
        if (p.plan.splits().isEmpty())
            return;
        try (RecordReader<InternalRow> r = rb.newRead().createReader(p.plan)) {
            r.forEachRemaining(f);
        }
    }

    // ---- canonical spelling -------------------------------------------------------

    interface Speller {
        String spell(InternalRow row);
    }

    static Speller[] spellers(RowType rt) {
        List<DataField> fs = rt.getFields();
        Speller[] sp = new Speller[fs.size()];
        for (int i = 0; i < sp.length; i++) {
            final int pos = i;
            DataType t = fs.get(i).type();
            Speller s;
            switch (t.getTypeRoot()) {
                case BOOLEAN: s = r -> r.getBoolean(pos) ? "true" : "false"; break;
                case TINYINT: s = r -> Byte.toString(r.getByte(pos)); break;
                case SMALLINT: s = r -> Short.toString(r.getShort(pos)); break;
                case INTEGER: s = r -> Integer.toString(r.getInt(pos)); break;
                case DATE: s = r -> Integer.toString(r.getInt(pos)); break;
                case BIGINT: s = r -> Long.toString(r.getLong(pos)); break;
                case FLOAT: s = r -> jsNumber((double) r.getFloat(pos)); break;
                case DOUBLE: s = r -> jsNumber(r.getDouble(pos)); break;
                case CHAR:
                case VARCHAR: s = r -> jsonString(r.getString(pos).toString()); break;
                case BINARY:
                case VARBINARY: s = r -> hex(r.getBinary(pos)); break;
                case TIMESTAMP_WITHOUT_TIME_ZONE: {
                    int prec = DataTypeChecks.getPrecision(t);
                    if (prec > 6) {
                        s = typeSpeller(fs.get(i).name(), t, pos);
                        break;
                    }
                    s = r -> Long.toString(r.getTimestamp(pos, prec).toMicros());
                    break;
                }
                default:
                    s = typeSpeller(fs.get(i).name(), t, pos);
            }
            final Speller inner = s;
            sp[i] = r -> r.isNullAt(pos) ? NULL : inner.spell(r);
        }
        return sp;
    }

    // The canonical spellings of the types beyond zsink's first ones (issue 25,
    // "Types"), as paimon_py.py and oracle.mjs spell them: DECIMAL the plain
    // number at its scale ("-0.50"), TIME milliseconds of the day, TIMESTAMP(7..9)
    // epoch nanoseconds, WITH LOCAL TIME ZONE as TIMESTAMP (epoch micros, nanos).
    static Speller typeSpeller(String name, DataType t, int pos) {
        switch (t.getTypeRoot()) {
            case ARRAY:
            case MAP:
            case ROW:
                return r -> spellNested(t, r, pos);
            case DECIMAL: {
                int p = DataTypeChecks.getPrecision(t), sc = DataTypeChecks.getScale(t);
                return r -> r.getDecimal(pos, p, sc).toBigDecimal().toPlainString();
            }
            case TIME_WITHOUT_TIME_ZONE:
                return r -> Integer.toString(r.getInt(pos));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int prec = DataTypeChecks.getPrecision(t);
                if (prec <= 6)
                    return r -> Long.toString(r.getTimestamp(pos, prec).toMicros());
                return r -> {
                    Timestamp ts = r.getTimestamp(pos, prec);
                    return java.math.BigInteger.valueOf(ts.getMillisecond()).multiply(java.math.BigInteger.valueOf(1000000))
                            .add(java.math.BigInteger.valueOf(ts.getNanoOfMillisecond())).toString();
                };
            }
            default:
                throw new IllegalArgumentException("column " + name + " has type " + t
                        + ", which has no canonical spelling (zsink's types only)");
        }
    }

    // Nested values (ARRAY, MAP, ROW), as paimon_py.py spell_nested and
    // oracle.mjs spellNested spell them: null inside is `null`; ARRAY `[a,b]`;
    // ROW `{"name":v,...}`; MAP `{k:v,...}` sorted by the key's spelling; a
    // scalar inside as its column would be.
    static String spellNested(DataType t, org.apache.paimon.data.DataGetters g, int pos) {
        if (g.isNullAt(pos))
            return "null";
        switch (t.getTypeRoot()) {
            case ARRAY: {
                DataType et = ((org.apache.paimon.types.ArrayType) t).getElementType();
                org.apache.paimon.data.InternalArray a = g.getArray(pos);
                StringBuilder b = new StringBuilder("[");
                for (int i = 0; i < a.size(); i++)
                    b.append(i > 0 ? "," : "").append(spellNested(et, a, i));
                return b.append(']').toString();
            }
            case MAP: {
                org.apache.paimon.types.MapType mt = (org.apache.paimon.types.MapType) t;
                org.apache.paimon.data.InternalMap m = g.getMap(pos);
                List<String[]> es = new ArrayList<>();
                for (int i = 0; i < m.size(); i++)
                    es.add(new String[] {spellNested(mt.getKeyType(), m.keyArray(), i),
                            spellNested(mt.getValueType(), m.valueArray(), i)});
                es.sort((x, y) -> x[0].compareTo(y[0]) != 0 ? x[0].compareTo(y[0]) : x[1].compareTo(y[1]));
                StringBuilder b = new StringBuilder("{");
                for (int i = 0; i < es.size(); i++)
                    b.append(i > 0 ? "," : "").append(es.get(i)[0]).append(':').append(es.get(i)[1]);
                return b.append('}').toString();
            }
            case ROW: {
                RowType rt = (RowType) t;
                InternalRow r = g.getRow(pos, rt.getFieldCount());
                StringBuilder b = new StringBuilder("{");
                for (int i = 0; i < rt.getFieldCount(); i++)
                    b.append(i > 0 ? "," : "").append(jsonString(rt.getFields().get(i).name()))
                            .append(':').append(spellNested(rt.getTypeAt(i), r, i));
                return b.append('}').toString();
            }
            case BOOLEAN: return g.getBoolean(pos) ? "true" : "false";
            case TINYINT: return Byte.toString(g.getByte(pos));
            case SMALLINT: return Short.toString(g.getShort(pos));
            case INTEGER:
            case DATE: return Integer.toString(g.getInt(pos));
            case BIGINT: return Long.toString(g.getLong(pos));
            case FLOAT: return jsNumber((double) g.getFloat(pos));
            case DOUBLE: return jsNumber(g.getDouble(pos));
            case CHAR:
            case VARCHAR: return jsonString(g.getString(pos).toString());
            case BINARY:
            case VARBINARY: return hex(g.getBinary(pos));
            case DECIMAL: {
                int p = DataTypeChecks.getPrecision(t), sc = DataTypeChecks.getScale(t);
                return g.getDecimal(pos, p, sc).toBigDecimal().toPlainString();
            }
            default:
                throw new IllegalArgumentException("type " + t
                        + " inside a nested type has no canonical spelling");
        }
    }

    static String line(Speller[] sp, InternalRow r) {
        StringBuilder b = new StringBuilder(64);
        for (int i = 0; i < sp.length; i++) {
            if (i > 0)
                b.append('\t');
            b.append(sp[i].spell(r));
        }
        return b.toString();
    }

    static final char[] HEX = "0123456789abcdef".toCharArray();

    static String hex(byte[] b) {
        char[] c = new char[b.length * 2];
        for (int i = 0; i < b.length; i++) {
            c[2 * i] = HEX[(b[i] >> 4) & 15];
            c[2 * i + 1] = HEX[b[i] & 15];
        }
        return new String(c);
    }

    // JSON.stringify of a string
    static String jsonString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\b': b.append("\\b"); break;
                case '\f': b.append("\\f"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20)
                        b.append(String.format("\\u%04x", (int) c));
                    else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c))
                        b.append(String.format("\\u%04x", (int) c)); // lone surrogate
                    else
                        b.append(c);
            }
        }
        return b.append('"').toString();
    }

    // ECMAScript Number::toString (String(x)), but -0 is "-0" as oracle.mjs has it.
    // The digits are the shortest that read back as x and, of those, the closest
    // to x (ties: even). JDK 17's Double.toString reads back as x but is not
    // always the shortest (e.g. 2e23 -> 1.9999999999999998E23): it is only where
    // the search starts. The set of k-digit decimals that read back as x is a run
    // of consecutive k-digit numbers inside x's rounding interval, so: a shorter
    // one exists iff the floor or ceiling of the current digits at k-1 digits
    // reads back; at the final length, when a neighbour of the digits also reads
    // back, the exact value decides (BigDecimal, rare).
    static String jsNumber(double x) {
        if (Double.isNaN(x))
            return "NaN";
        if (x == Double.POSITIVE_INFINITY)
            return "Infinity";
        if (x == Double.NEGATIVE_INFINITY)
            return "-Infinity";
        if (x == 0)
            return Double.doubleToRawLongBits(x) < 0 ? "-0" : "0";
        if (x < 0)
            return "-" + jsNumber(-x);
        String t = Double.toString(x); // d.dddE[-]n or ddd.ddd
        int ePos = t.indexOf('E');
        String mant = ePos < 0 ? t : t.substring(0, ePos);
        int dot = mant.indexOf('.');
        long d = Long.parseLong(mant.substring(0, dot) + mant.substring(dot + 1));
        int scale = (ePos < 0 ? 0 : Integer.parseInt(t.substring(ePos + 1))) - (mant.length() - dot - 1);
        while (d % 10 == 0) { // value = d * 10^scale
            d /= 10;
            scale++;
        }
        while (d >= 10) {
            long f = d / 10, c = f + 1;
            boolean okF = readsBack(f, scale + 1, x), okC = readsBack(c, scale + 1, x);
            if (!okF && !okC)
                break;
            d = okF ? f : c;
            scale++;
            while (d % 10 == 0) {
                d /= 10;
                scale++;
            }
        }
        // Up to 15 digits, k-digit decimals lie more than 1e-15 * x apart, farther
        // than the width of a normal double's rounding interval (2^-52 * x): the
        // digits are the only k-digit decimal that reads back.
        boolean unique = d < 1_000_000_000_000_000L && x >= Double.MIN_NORMAL;
        if (!unique && (x < Double.MIN_NORMAL || readsBack(d - 1, scale, x) || readsBack(d + 1, scale, x))) {
            BigDecimal b = closestAt(new BigDecimal(x), x, Long.toString(d).length()).stripTrailingZeros();
            d = b.unscaledValue().longValueExact();
            scale = -b.scale();
        }
        String s = Long.toString(d);
        int k = s.length();
        int n = k + scale;
        if (k <= n && n <= 21)
            return s + "0".repeat(n - k);
        if (0 < n && n <= 21)
            return s.substring(0, n) + "." + s.substring(n);
        if (-6 < n && n <= 0)
            return "0." + "0".repeat(-n) + s;
        int e = n - 1;
        String exp = (e >= 0 ? "e+" : "e-") + Math.abs(e);
        return k == 1 ? s + exp : s.charAt(0) + "." + s.substring(1) + exp;
    }

    static boolean readsBack(long digits, int scale, double x) {
        return digits > 0 && Double.parseDouble(digits + "E" + scale) == x;
    }

    // the p-digit decimal closest to x that reads back as x (ties: even)
    static BigDecimal closestAt(BigDecimal exact, double x, int p) {
        BigDecimal lo = exact.round(new MathContext(p, RoundingMode.FLOOR));
        BigDecimal hi = exact.round(new MathContext(p, RoundingMode.CEILING));
        boolean okLo = Double.parseDouble(lo.toString()) == x;
        boolean okHi = Double.parseDouble(hi.toString()) == x;
        if (okLo && okHi) {
            int c = exact.subtract(lo).compareTo(hi.subtract(exact));
            if (c != 0)
                return c < 0 ? lo : hi;
            return lo.unscaledValue().testBit(0) ? hi : lo; // tie: the even one
        }
        if (!okLo && !okHi)
            throw new IllegalStateException("no " + p + "-digit decimal reads back as " + x);
        return okLo ? lo : hi;
    }

    static float fround(double x) {
        return (float) x;
    }

    // ---- summary / rows / files -----------------------------------------------------

    static final class Canon {
        List<String> lines = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        boolean hasId;
        Planned planned;
        long readMs;
    }

    static Canon canonical(FileStoreTable t) throws Exception {
        long t0 = System.nanoTime();
        RowType rt = t.rowType();
        Speller[] sp = spellers(rt);
        int idIdx = -1;
        for (int i = 0; i < rt.getFieldCount(); i++)
            if (rt.getFields().get(i).name().equals("id")
                    && rt.getTypeAt(i).getTypeRoot() == DataTypeRoot.BIGINT) {
                idIdx = i;
                break;
            }
        Canon c = new Canon();
        c.hasId = idIdx >= 0;
        final int id = idIdx;
        ReadBuilder rb = t.newReadBuilder();
        c.planned = plan(t, rb);
        readRows(rb, c.planned, r -> {
            c.lines.add(line(sp, r));
            if (id >= 0 && !r.isNullAt(id))
                c.ids.add(r.getLong(id));
        });
        c.readMs = (System.nanoTime() - t0) / 1_000_000;
        Collections.sort(c.lines);
        return c;
    }

    static String digest(List<String> lines) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (String l : lines) {
            md.update(l.getBytes(StandardCharsets.UTF_8));
            md.update((byte) '\n');
        }
        return hex(md.digest());
    }

    static int summary(Args a) throws Exception {
        out.println(toJson(summaryOf(openRead(a))));
        return 0;
    }

    // The table as summary and rows read it: the latest snapshot, --snapshot
    // ID, or --tag NAME (time travel by tag: scan.tag-name, what Flink's and
    // Spark's VERSION AS OF 'NAME' set)
    static FileStoreTable openRead(Args a) {
        FileStoreTable t = open(a.pos(0, "TABLE"), a.optLong("--snapshot"));
        String tag = a.opt("--tag");
        return tag == null ? t : t.copy(Collections.singletonMap("scan.tag-name", tag));
    }

    // summary's figures of one read (the latest snapshot, or t's scan.snapshot-id)
    static Map<String, Object> summaryOf(FileStoreTable t) throws Exception {
        Canon c = canonical(t);
        Map<String, Object> m = obj("ok", true, "reader", "paimon-java", "snapshot", c.planned.snapshot,
                "files", c.planned.files, "count", c.lines.size());
        if (c.hasId) {
            long[] ids = c.ids.stream().mapToLong(Long::longValue).sorted().toArray();
            long distinct = ids.length == 0 ? 0 : 1;
            for (int i = 1; i < ids.length; i++)
                if (ids[i] != ids[i - 1])
                    distinct++;
            m.put("distinct_ids", distinct);
            m.put("min_id", ids.length == 0 ? null : ids[0]);
            m.put("max_id", ids.length == 0 ? null : ids[ids.length - 1]);
        } else {
            m.put("distinct_ids", null);
            m.put("min_id", null);
            m.put("max_id", null);
        }
        m.put("digest", digest(c.lines));
        m.putAll(timing(c.readMs));
        return m;
    }

    // read-time TABLE [--repeat N]: plan and read every row, every field
    // (InternalRow.FieldGetter), N times (default 3) in this JVM; the first
    // read and the best, JVM start apart (bench/run.sh)
    static int readTime(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        Long rep = a.optLong("--repeat");
        int repeat = rep == null ? 3 : (int) Math.max(1, rep);
        List<DataField> fs = t.rowType().getFields();
        InternalRow.FieldGetter[] get = new InternalRow.FieldGetter[fs.size()];
        for (int i = 0; i < get.length; i++)
            get[i] = InternalRow.createFieldGetter(fs.get(i).type(), i);
        long[] seen = new long[2]; // rows, non-null values
        double first = 0, best = Double.MAX_VALUE, bestPlan = 0;
        for (int k = 0; k < repeat; k++) {
            seen[0] = seen[1] = 0;
            long t0 = System.nanoTime();
            ReadBuilder rb = t.newReadBuilder();
            Planned p = plan(t, rb);
            long t1 = System.nanoTime();
            readRows(rb, p, r -> {
                seen[0]++;
                for (InternalRow.FieldGetter g : get)
                    if (g.getFieldOrNull(r) != null)
                        seen[1]++;
            });
            double ms = (System.nanoTime() - t0) / 1e6;
            if (k == 0)
                first = ms;
            if (ms < best) {
                best = ms;
                bestPlan = (t1 - t0) / 1e6;
            }
        }
        out.println(toJson(obj("reader", "paimon-java", "what", "plan + read every field of every row",
                "rows", seen[0], "values", seen[1], "first_ms", Math.round(first * 10) / 10.0,
                "best_ms", Math.round(best * 10) / 10.0, "best_plan_ms", Math.round(bestPlan * 10) / 10.0,
                "jvm_start_ms", jvmToMainMs)));
        return 0;
    }

    static int rows(Args a) throws Exception {
        FileStoreTable t = openRead(a);
        Canon c = canonical(t);
        for (String l : c.lines) {
            out.print(l);
            out.print('\n');
        }
        return 0;
    }

    static String relPath(String root, DataSplit d, DataFileMeta f) {
        String full = f.externalPath().orElse(d.bucketPath() + "/" + f.fileName());
        full = full.replaceFirst("^file:", "");
        return full.startsWith(root + "/") ? full.substring(root.length() + 1) : full;
    }

    static List<Object> filePaths(String root, Planned p) {
        List<Object> l = new ArrayList<>();
        for (DataSplit d : p.dataSplits)
            for (DataFileMeta f : d.dataFiles())
                l.add(relPath(root, d, f));
        return l;
    }

    static int files(Args a) throws Exception {
        String root = absPath(a.pos(0, "TABLE"));
        FileStoreTable t = open(root, a.optLong("--snapshot"));
        ReadBuilder rb = t.newReadBuilder();
        Planned p = plan(t, rb);
        List<Object> list = new ArrayList<>();
        for (DataSplit d : p.dataSplits)
            for (DataFileMeta f : d.dataFiles())
                list.add(obj("path", relPath(root, d, f), "rows", f.rowCount(), "size", f.fileSize(),
                        "value_stats_cols", f.valueStatsCols(), "min_seq", f.minSequenceNumber()));
        out.println(toJson(obj("ok", true, "snapshot", p.snapshot, "files", list)));
        return 0;
    }

    // ---- snapshots / filter-committed ------------------------------------------------

    static int snapshots(Args a) throws Exception {
        out.println(toJson(snapshotList(open(a.pos(0, "TABLE"), null))));
        return 0;
    }

    static List<Object> snapshotList(FileStoreTable t) throws Exception {
        List<Object> list = new ArrayList<>();
        Iterator<Snapshot> it = t.snapshotManager().snapshots();
        while (it.hasNext()) {
            Snapshot s = it.next();
            list.add(obj("id", s.id(), "commit_user", s.commitUser(), "commit_identifier", s.commitIdentifier(),
                    "commit_kind", s.commitKind().name(), "time_millis", s.timeMillis(),
                    "delta_record_count", s.deltaRecordCount(), "total_record_count", s.totalRecordCount()));
        }
        return list;
    }

    static int filterCommitted(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        String user = a.pos(1, "USER");
        List<ManifestCommittable> in = new ArrayList<>();
        for (int i = 2; i < a.pos.size(); i++) {
            try {
                in.add(new ManifestCommittable(Long.parseLong(a.pos.get(i))));
            } catch (NumberFormatException e) {
                throw new UsageError("identifier '" + a.pos.get(i) + "' is not an integer");
            }
        }
        if (in.isEmpty())
            throw new UsageError("filter-committed TABLE USER ID...");
        Map<String, Object> m = filterCommittedOf(t, user, in);
        m.put("ok", true);
        out.println(toJson(m));
        return 0;
    }

    static Map<String, Object> filterCommittedOf(FileStoreTable t, String user, List<ManifestCommittable> in)
            throws Exception {
        List<Long> uncommitted = new ArrayList<>();
        try (FileStoreCommit commit = t.store().newCommit(user, t)) {
            for (ManifestCommittable m : commit.filterCommitted(in))
                uncommitted.add(m.identifier());
        }
        List<Long> committed = new ArrayList<>();
        for (ManifestCommittable m : in)
            if (!uncommitted.contains(m.identifier()))
                committed.add(m.identifier());
        Long latest = t.snapshotManager().latestSnapshotOfUser(user).map(Snapshot::commitIdentifier).orElse(null);
        return obj("commit_user", user, "uncommitted", uncommitted, "committed", committed,
                "latest_identifier_of_user", latest);
    }

    // ---- check: what lib.sh's oracle asks of Paimon Java, in one JVM ----------------
    //
    // The latest snapshot read in full (summary), the snapshot list, a read by
    // id (time travel) of each --snapshots id, and filterCommitted for every
    // commit user of the list: each of its identifiers still in the list, and
    // one above its newest (unless that is Long.MAX_VALUE).
    static int check(Args a) throws Exception {
        String path = a.pos(0, "TABLE");
        FileStoreTable t = open(path, null);
        Map<String, Object> m = obj("ok", true, "reader", "paimon-java");
        m.put("latest", summaryOf(t));
        List<Object> snaps = snapshotList(t);
        m.put("snapshots", snaps);
        Map<String, Object> at = new LinkedHashMap<>();
        for (long id : idList(a.opt("--snapshots"))) {
            try {
                at.put(String.valueOf(id), summaryOf(open(path, id)));
            } catch (Exception e) {
                at.put(String.valueOf(id), obj("ok", false, "error", e.toString()));
            }
        }
        m.put("at", at);
        Map<String, List<Long>> byUser = new LinkedHashMap<>();
        for (Object o : snaps) {
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) o;
            List<Long> l = byUser.computeIfAbsent((String) s.get("commit_user"), k -> new ArrayList<>());
            long ident = (Long) s.get("commit_identifier");
            if (!l.contains(ident))
                l.add(ident);
        }
        List<Object> fc = new ArrayList<>();
        for (Map.Entry<String, List<Long>> e : byUser.entrySet()) {
            List<ManifestCommittable> in = new ArrayList<>();
            long max = Long.MIN_VALUE;
            for (long ident : e.getValue()) {
                in.add(new ManifestCommittable(ident));
                max = Math.max(max, ident);
            }
            if (max != Long.MAX_VALUE)
                in.add(new ManifestCommittable(max + 1));
            fc.add(filterCommittedOf(t, e.getKey(), in));
        }
        m.put("filter_committed", fc);
        m.put("total_ms", jvmToMainMs + sinceMainMs());
        out.println(toJson(m));
        return 0;
    }

    static List<Long> idList(String text) {
        List<Long> l = new ArrayList<>();
        if (text == null || text.isEmpty())
            return l;
        for (String p : text.split(",")) {
            try {
                l.add(Long.parseLong(p.trim()));
            } catch (NumberFormatException e) {
                throw new UsageError("--snapshots wants ids separated by commas, not '" + text + "'");
            }
        }
        return l;
    }

    // ---- count-where ----------------------------------------------------------------

    // One predicate: one object. Several: an array of those, in order, read in
    // this one JVM (a test asks many at the price of one start).
    static int countWhere(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), a.optLong("--snapshot"));
        a.pos(1, "PREDICATE");
        // without the filter: how many files there are to plan
        Planned all = plan(t, t.newReadBuilder());
        List<Object> res = new ArrayList<>();
        for (int i = 1; i < a.pos.size(); i++)
            res.add(countWhereOf(t, a.pos.get(i), all, absPath(a.pos(0, "TABLE"))));
        out.println(toJson(res.size() == 1 ? res.get(0) : res));
        return 0;
    }

    static Map<String, Object> countWhereOf(FileStoreTable t, String text, Planned all, String root)
            throws Exception {
        RowType rt = t.rowType();
        Predicate pred = new PredicateParser(text, rt).parse();
        long t0 = System.nanoTime();
        ReadBuilder rb = t.newReadBuilder().withFilter(pred);
        Planned p = plan(t, rb);
        long[] n = new long[2]; // rows the read returned, rows that match
        readRows(rb, p, r -> {
            n[0]++;
            if (pred.test(r))
                n[1]++;
        });
        long readMs = (System.nanoTime() - t0) / 1_000_000;
        Map<String, Object> m = obj("ok", true, "where", text, "predicate", pred.toString(), "snapshot",
                p.snapshot, "count", n[1], "rows_read", n[0], "files_planned", p.files, "files_total", all.files,
                "planned", filePaths(root, p));
        m.putAll(timing(readMs));
        return m;
    }

    // expr := and (OR and)* ; and := unary (AND unary)* ; unary := '(' expr ')' | cmp
    // cmp := col IS [NOT] NULL | col op literal | col BETWEEN lit AND lit | col IN (lit, ...)
    // op := = | != | <> | < | <= | > | >= ; literal: integer, decimal, 'text' ('' quotes),
    // TRUE, FALSE; DATE columns take 'YYYY-MM-DD' or days, TIMESTAMP columns
    // 'YYYY-MM-DD HH:MM:SS[.ffffff]' or epoch microseconds, BYTES columns 'hex'.
    static final class PredicateParser {
        final List<String> tok = new ArrayList<>();
        final List<Boolean> quoted = new ArrayList<>();
        final RowType rt;
        final PredicateBuilder pb;
        int i;

        PredicateParser(String s, RowType rt) {
            this.rt = rt;
            this.pb = new PredicateBuilder(rt);
            int j = 0;
            while (j < s.length()) {
                char c = s.charAt(j);
                if (Character.isWhitespace(c)) {
                    j++;
                } else if (c == '\'') {
                    StringBuilder b = new StringBuilder();
                    j++;
                    while (true) {
                        if (j >= s.length())
                            throw new UsageError("unterminated string in predicate");
                        char d = s.charAt(j++);
                        if (d == '\'') {
                            if (j < s.length() && s.charAt(j) == '\'') {
                                b.append('\'');
                                j++;
                            } else
                                break;
                        } else
                            b.append(d);
                    }
                    tok.add(b.toString());
                    quoted.add(true);
                } else if ("()=,".indexOf(c) >= 0) {
                    tok.add(String.valueOf(c));
                    quoted.add(false);
                    j++;
                } else if (c == '<' || c == '>' || c == '!') {
                    String two = j + 1 < s.length() ? s.substring(j, j + 2) : "";
                    if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=")) {
                        tok.add(two);
                        j += 2;
                    } else {
                        tok.add(String.valueOf(c));
                        j++;
                    }
                    quoted.add(false);
                } else {
                    int k = j;
                    while (k < s.length() && (Character.isLetterOrDigit(s.charAt(k)) || "_.-+".indexOf(s.charAt(k)) >= 0))
                        k++;
                    if (k == j)
                        throw new UsageError("unexpected '" + c + "' in predicate");
                    tok.add(s.substring(j, k));
                    quoted.add(false);
                    j = k;
                }
            }
        }

        boolean kw(String w) {
            if (i < tok.size() && !quoted.get(i) && tok.get(i).equalsIgnoreCase(w)) {
                i++;
                return true;
            }
            return false;
        }

        String next(String what) {
            if (i >= tok.size())
                throw new UsageError("predicate ends where " + what + " was expected");
            return tok.get(i++);
        }

        void expect(String w) {
            if (!kw(w))
                throw new UsageError("expected " + w + " at '" + (i < tok.size() ? tok.get(i) : "end") + "'");
        }

        Predicate parse() {
            Predicate p = or();
            if (i != tok.size())
                throw new UsageError("unexpected '" + tok.get(i) + "' in predicate");
            return p;
        }

        Predicate or() {
            List<Predicate> l = new ArrayList<>();
            l.add(and());
            while (kw("OR"))
                l.add(and());
            return l.size() == 1 ? l.get(0) : PredicateBuilder.or(l);
        }

        Predicate and() {
            List<Predicate> l = new ArrayList<>();
            l.add(unary());
            while (kw("AND"))
                l.add(unary());
            return l.size() == 1 ? l.get(0) : PredicateBuilder.and(l);
        }

        Predicate unary() {
            if (kw("(")) {
                Predicate p = or();
                expect(")");
                return p;
            }
            String col = next("a column");
            int idx = rt.getFieldIndex(col);
            if (idx < 0)
                throw new UsageError("no column '" + col + "'");
            DataType type = rt.getTypeAt(idx);
            if (kw("IS")) {
                boolean not = kw("NOT");
                expect("NULL");
                return not ? pb.isNotNull(idx) : pb.isNull(idx);
            }
            if (kw("BETWEEN")) {
                Object lo = literal(type);
                expect("AND");
                Object hi = literal(type);
                return PredicateBuilder.and(pb.greaterOrEqual(idx, lo), pb.lessOrEqual(idx, hi));
            }
            if (kw("IN")) {
                expect("(");
                List<Object> vals = new ArrayList<>();
                do {
                    vals.add(literal(type));
                } while (kw(","));
                expect(")");
                return pb.in(idx, vals);
            }
            String op = next("an operator");
            Object v = literal(type);
            switch (op) {
                case "=": return pb.equal(idx, v);
                case "!=":
                case "<>": return pb.notEqual(idx, v);
                case "<": return pb.lessThan(idx, v);
                case "<=": return pb.lessOrEqual(idx, v);
                case ">": return pb.greaterThan(idx, v);
                case ">=": return pb.greaterOrEqual(idx, v);
                default: throw new UsageError("unknown operator '" + op + "'");
            }
        }

        Object literal(DataType type) {
            boolean q = i < tok.size() && quoted.get(i);
            String s = next("a literal");
            try {
                switch (type.getTypeRoot()) {
                    case BOOLEAN:
                        if (s.equalsIgnoreCase("true")) return true;
                        if (s.equalsIgnoreCase("false")) return false;
                        throw new UsageError("'" + s + "' is not a BOOLEAN");
                    case TINYINT: return Byte.parseByte(s);
                    case SMALLINT: return Short.parseShort(s);
                    case INTEGER: return Integer.parseInt(s);
                    case BIGINT: return Long.parseLong(s);
                    case FLOAT: return Float.parseFloat(s);
                    case DOUBLE: return Double.parseDouble(s);
                    case CHAR:
                    case VARCHAR: return BinaryString.fromString(s);
                    case BINARY:
                    case VARBINARY: {
                        if (s.length() % 2 != 0)
                            throw new UsageError("bytes literal '" + s + "' wants hex digit pairs");
                        byte[] b = new byte[s.length() / 2];
                        for (int k = 0; k < b.length; k++)
                            b[k] = (byte) Integer.parseInt(s.substring(2 * k, 2 * k + 2), 16);
                        return b;
                    }
                    case DATE:
                        return q ? (int) LocalDate.parse(s).toEpochDay() : Integer.parseInt(s);
                    case TIMESTAMP_WITHOUT_TIME_ZONE:
                        return q ? Timestamp.fromLocalDateTime(LocalDateTime.parse(s.replace(' ', 'T')))
                                : Timestamp.fromMicros(Long.parseLong(s));
                    default:
                        throw new UsageError("no literals for type " + type);
                }
            } catch (NumberFormatException | java.time.format.DateTimeParseException e) {
                throw new UsageError("'" + s + "' is not a literal of type " + type);
            }
        }
    }

    // ---- create / append ----------------------------------------------------------------

    static List<String[]> splitSpec(String spec) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        for (char ch : spec.toCharArray()) {
            if (ch == '(')
                depth++;
            else if (ch == ')')
                depth--;
            if (ch == ',' && depth == 0) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else
                cur.append(ch);
        }
        parts.add(cur.toString());
        List<String[]> out = new ArrayList<>();
        for (String p : parts) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s+(.+?)\\s*")
                    .matcher(p);
            if (!m.matches())
                throw new UsageError("bad column '" + p.trim() + "' in schema spec");
            out.add(new String[] {m.group(1), m.group(2)});
        }
        return out;
    }

    static int create(Args a) throws Exception {
        String path = absPath(a.pos(0, "TABLE"));
        Schema.Builder b = Schema.newBuilder();
        for (String[] c : splitSpec(a.pos(1, "SCHEMA_SPEC"))) {
            DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(c[1].toUpperCase(Locale.ROOT));
            b.column(c[0], t);
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "-1");
        options.put("file.format", "parquet");
        List<String> extra = a.opt.getOrDefault("--option", Collections.emptyList());
        for (String kv : extra) {
            int eq = kv.indexOf('=');
            if (eq <= 0)
                throw new UsageError("--option wants K=V, not '" + kv + "'");
            options.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        b.options(options);
        // --partition-keys K1,K2: a partitioned table (Paimon's partitionKeys)
        String pkeys = a.opt("--partition-keys");
        if (pkeys != null && !pkeys.isEmpty())
            b.partitionKeys(Arrays.asList(pkeys.split(",")));
        Schema schema = b.build();
        // check every column has a canonical spelling before creating anything
        spellers(new RowType(schema.fields()));
        new SchemaManager(fileIO(path), new Path(path)).createTable(schema);
        out.println(toJson(obj("ok", true, "table", path, "columns", schema.fields().size(), "options", options)));
        return 0;
    }

    // alter TABLE --add NAME:TYPE --rename OLD:NEW --retype NAME:TYPE --drop NAME:
    // ALTER TABLE as Paimon's engines do it, one new schema-N for all of them
    // (in the order: adds, renames, retypes, drops)
    static int alter(Args a) throws Exception {
        String path = absPath(a.pos(0, "TABLE"));
        List<SchemaChange> changes = new ArrayList<>();
        for (String kv : a.opt.getOrDefault("--add", Collections.emptyList())) {
            String[] p = pair(kv, "--add");
            changes.add(SchemaChange.addColumn(p[0],
                    DataTypeJsonParser.parseAtomicTypeSQLString(p[1].toUpperCase(Locale.ROOT))));
        }
        for (String kv : a.opt.getOrDefault("--rename", Collections.emptyList())) {
            String[] p = pair(kv, "--rename");
            changes.add(SchemaChange.renameColumn(p[0], p[1]));
        }
        for (String kv : a.opt.getOrDefault("--retype", Collections.emptyList())) {
            String[] p = pair(kv, "--retype");
            changes.add(SchemaChange.updateColumnType(p[0],
                    DataTypeJsonParser.parseAtomicTypeSQLString(p[1].toUpperCase(Locale.ROOT))));
        }
        for (String name : a.opt.getOrDefault("--drop", Collections.emptyList()))
            changes.add(SchemaChange.dropColumn(name));
        if (changes.isEmpty())
            throw new UsageError("alter wants --add, --rename, --retype or --drop");
        org.apache.paimon.schema.TableSchema ts =
                new SchemaManager(fileIO(path), new Path(path)).commitChanges(changes);
        List<Object> cols = new ArrayList<>();
        for (DataField f : ts.fields())
            cols.add(obj("id", f.id(), "name", f.name(), "type", f.type().toString()));
        out.println(toJson(obj("ok", true, "table", path, "schema_id", ts.id(), "fields", cols)));
        return 0;
    }

    static String[] pair(String kv, String opt) {
        int c = kv.indexOf(':');
        if (c <= 0 || c == kv.length() - 1)
            throw new UsageError(opt + " wants A:B, not '" + kv + "'");
        return new String[] {kv.substring(0, c), kv.substring(c + 1)};
    }

    static final long GOLDEN = 0x9E3779B97F4A7C15L;

    // The value of column k (name, type) in the row of id i (i >= 0): the same as
    // derive() in paimon_py.py, see README "Row derivation".
    static Object derive(String name, DataType t, int k, long i) {
        DataTypeRoot r = t.getTypeRoot();
        boolean isInt = r == DataTypeRoot.TINYINT || r == DataTypeRoot.SMALLINT || r == DataTypeRoot.INTEGER
                || r == DataTypeRoot.BIGINT;
        if (name.equals("id") && isInt)
            return intOf(r, i, name);
        if (t.isNullable() && (i + k) % 7 == 0)
            return null;
        long sign = i % 2 == 0 ? 1 : -1;
        switch (r) {
            case BOOLEAN: return i % 3 == 0;
            case TINYINT: return intOf(r, (i * 31) % 201 - 100, name);
            case SMALLINT:
            case INTEGER:
            case BIGINT: return intOf(r, (i * 31) % 2001 - 1000, name);
            case FLOAT: return i % 2 == 0 ? (float) (i * 0.1) : (float) (i * 1.5e21);
            case DOUBLE: return i % 2 == 0 ? i / 3.0 : -(i * 1e-7);
            case CHAR:
            case VARCHAR: {
                String s = "s" + (i % 13);
                if (i % 4 == 3)
                    s += "\t\"\\\u00e9\u4e2d\uD83D\uDE00";
                return BinaryString.fromString(s);
            }
            case BINARY:
            case VARBINARY: {
                long h = i * GOLDEN;
                byte[] b = new byte[8];
                for (int j = 0; j < 8; j++)
                    b[j] = (byte) (h >>> (56 - 8 * j));
                return Arrays.copyOf(b, (int) (i % 9));
            }
            case DATE: return (int) (i % 40000 - 10000);
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                int prec = DataTypeChecks.getPrecision(t);
                if (prec <= 3)
                    return Timestamp.fromEpochMillis(sign * i * 86400123L);
                if (prec <= 6)
                    return Timestamp.fromMicros(sign * i * 86400123457L);
                throw new IllegalArgumentException("TIMESTAMP(" + prec + ") is not derived");
            }
            default:
                throw new IllegalArgumentException("column " + name + ": no derivation for " + t);
        }
    }

    static Object intOf(DataTypeRoot r, long v, String name) {
        switch (r) {
            case TINYINT:
                if (v != (byte) v) throw new IllegalArgumentException(name + ": " + v + " does not fit TINYINT");
                return (byte) v;
            case SMALLINT:
                if (v != (short) v) throw new IllegalArgumentException(name + ": " + v + " does not fit SMALLINT");
                return (short) v;
            case INTEGER:
                if (v != (int) v) throw new IllegalArgumentException(name + ": " + v + " does not fit INT");
                return (int) v;
            default:
                return v;
        }
    }

    static InternalRow rowOf(RowType rt, long i) {
        List<DataField> fs = rt.getFields();
        GenericRow row = new GenericRow(fs.size());
        for (int k = 0; k < fs.size(); k++)
            row.setField(k, derive(fs.get(k).name(), fs.get(k).type(), k, i));
        return row;
    }

    static long[][] slices(long lo, long hi, long k) {
        long n = hi - lo + 1;
        k = Math.max(1, Math.min(k, n));
        long[][] out = new long[(int) k][];
        long start = lo;
        for (int j = 0; j < k; j++) {
            long size = n / k + (j < n % k ? 1 : 0);
            out[j] = new long[] {start, start + size - 1};
            start += size;
        }
        return out;
    }

    static long[] idRange(String ids) {
        java.util.regex.Matcher m = ids == null ? null : java.util.regex.Pattern.compile("(\\d+)\\.\\.(\\d+)").matcher(ids);
        if (m == null || !m.matches() || Long.parseLong(m.group(1)) > Long.parseLong(m.group(2)))
            throw new UsageError("--ids wants A..B with 0 <= A <= B");
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    static int append(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        long[] r = idRange(a.opt("--ids"));
        Long nFiles = a.optLong("--files");
        Map<String, Object> out0 = commitRange(t, r[0], r[1], a.opt("--commit-user"), a.optLong("--identifier"),
                nFiles == null ? 1 : nFiles);
        out0.put("jvm_start_ms", jvmToMainMs);
        out.println(toJson(out0));
        return 0;
    }

    // The rows of ids lo..hi in one commit, through K writers (K files). With a
    // user or an identifier: the stream write builder (that user, identifier N,
    // default 1); else the batch one (a random user, Long.MAX_VALUE).
    static Map<String, Object> commitRange(FileStoreTable t, long lo, long hi, String user, Long ident, long nFiles)
            throws Exception {
        long[][] parts = slices(lo, hi, nFiles);
        RowType rt = t.rowType();
        long t0 = System.nanoTime();
        boolean stream = user != null || ident != null;
        List<CommitMessage> msgs = new ArrayList<>();
        List<AutoCloseable> writers = new ArrayList<>();
        String commitUser;
        long identifier;
        try {
            if (stream) {
                StreamWriteBuilder wb = t.newStreamWriteBuilder();
                if (user != null)
                    wb.withCommitUser(user);
                commitUser = wb.commitUser();
                identifier = ident != null ? ident : 1;
                for (long[] s : parts) {
                    StreamTableWrite w = wb.newWrite();
                    writers.add(w);
                    for (long i = s[0]; i <= s[1]; i++)
                        w.write(rowOf(rt, i));
                    msgs.addAll(w.prepareCommit(false, identifier));
                }
                try (StreamTableCommit c = wb.newCommit()) {
                    c.commit(identifier, msgs);
                }
            } else {
                BatchWriteBuilder wb = t.newBatchWriteBuilder();
                commitUser = null;
                identifier = BatchWriteBuilder.COMMIT_IDENTIFIER;
                for (long[] s : parts) {
                    BatchTableWrite w = wb.newWrite();
                    writers.add(w);
                    for (long i = s[0]; i <= s[1]; i++)
                        w.write(rowOf(rt, i));
                    msgs.addAll(w.prepareCommit());
                }
                try (BatchTableCommit c = wb.newCommit()) {
                    c.commit(msgs);
                }
            }
        } finally {
            for (AutoCloseable w : writers)
                w.close();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Snapshot latest = t.snapshotManager().latestSnapshot();
        if (commitUser == null && latest != null)
            commitUser = latest.commitUser();
        // the snapshot this commit made (another writer's may be on top by now)
        Snapshot mine = commitUser == null ? null : t.snapshotManager().latestSnapshotOfUser(commitUser).orElse(null);
        return obj("ok", true, "rows", hi - lo + 1, "commit_user", commitUser, "identifier", identifier,
                "snapshot", mine == null ? null : mine.id(), "write_ms", ms);
    }

    // The loops (append-loop, maintain) also end when the process that started
    // them is gone: a test killed without its clean-up leaves no JVM behind.
    static final java.util.Optional<ProcessHandle> PARENT = ProcessHandle.current().parent();

    static boolean parentAlive() {
        return PARENT.map(ProcessHandle::isAlive).orElse(true);
    }

    // append-loop TABLE --from A --rows K --commit-user U [--identifier N]
    //             [--until FILE] [--max-commits M] [--pause-ms P]
    // Commits as user U, one commit after another, until FILE exists (checked
    // before each commit) or M commits: commit j holds ids A+j*K .. A+(j+1)*K-1,
    // identifier N+j (N default 1), P ms apart. A concurrent writer for tests,
    // in one JVM.
    static int appendLoop(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        Long from = a.optLong("--from"), rows = a.optLong("--rows"), max = a.optLong("--max-commits");
        Long ident0 = a.optLong("--identifier"), pause = a.optLong("--pause-ms");
        String user = a.opt("--commit-user"), until = a.opt("--until");
        if (from == null || rows == null || rows < 1 || user == null || (until == null && max == null))
            throw new UsageError("append-loop TABLE --from A --rows K --commit-user U [--identifier N] "
                    + "[--until FILE] [--max-commits M] [--pause-ms P]");
        long next = from, ident = ident0 == null ? 1 : ident0;
        List<Object> commits = new ArrayList<>();
        long t0 = System.nanoTime();
        while ((max == null || commits.size() < max) && (until == null || !new File(until).exists())
                && parentAlive()) {
            Map<String, Object> r = commitRange(t, next, next + rows - 1, user, ident, 1);
            commits.add(obj("ids", next + ".." + (next + rows - 1), "identifier", ident, "snapshot",
                    r.get("snapshot"), "write_ms", r.get("write_ms")));
            next += rows;
            ident++;
            if (pause != null && pause > 0)
                Thread.sleep(pause); // a rate, so that other committers get their turn
        }
        out.println(toJson(obj("ok", true, "commit_user", user, "commits", commits.size(), "rows", next - from,
                "first_id", from, "last_id", next - 1, "list", commits, "ms", (System.nanoTime() - t0) / 1_000_000,
                "jvm_start_ms", jvmToMainMs)));
        return 0;
    }

    // ---- expire / remove-orphans --------------------------------------------------------

    static List<Long> snapshotIds(FileStoreTable t) throws Exception {
        List<Long> ids = new ArrayList<>();
        t.snapshotManager().snapshotIdStream().sorted().forEach(ids::add);
        return ids;
    }

    static int expire(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        Long max = a.optLong("--retain-max"), min = a.optLong("--retain-min");
        if (max == null || min == null)
            throw new UsageError("expire TABLE --retain-max N --retain-min M [--time-retain-ms T]");
        Long timeMs = a.optLong("--time-retain-ms");
        Long maxDeletes = a.optLong("--max-deletes");
        List<Long> before = snapshotIds(t);
        ExpireConfig cfg = ExpireConfig.builder()
                .snapshotRetainMax(max.intValue())
                .snapshotRetainMin(min.intValue())
                .snapshotTimeRetain(timeMs != null ? Duration.ofMillis(timeMs) : t.coreOptions().snapshotTimeRetain())
                .snapshotMaxDeletes(maxDeletes != null ? maxDeletes.intValue() : t.coreOptions().snapshotExpireLimit())
                .build();
        long t0 = System.nanoTime();
        int n = t.newExpireSnapshots().config(cfg).expire();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        List<Long> after = snapshotIds(open(a.pos(0, "TABLE"), null));
        out.println(toJson(obj("ok", true, "expired", n, "before", before, "after", after,
                "time_retain_ms", cfg.getSnapshotTimeRetain().toMillis(), "ms", ms)));
        return 0;
    }

    // create-tag TABLE NAME [--snapshot ID]: Paimon's createTag (TagManager),
    // of the latest snapshot unless told
    static int createTag(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        String name = a.pos(1, "NAME");
        Long id = a.optLong("--snapshot");
        if (id != null)
            t.createTag(name, id);
        else
            t.createTag(name);
        out.println(toJson(obj("ok", true, "tag", name, "snapshot",
                t.tagManager().getOrThrow(name).id())));
        return 0;
    }

    // delete-tag TABLE NAME: Paimon's deleteTag (with its TagDeletion)
    static int deleteTag(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        String name = a.pos(1, "NAME");
        t.deleteTag(name);
        out.println(toJson(obj("ok", true, "tag", name, "exists", t.tagManager().tagExists(name))));
        return 0;
    }

    // tags TABLE: the tag names and snapshot ids, as TagManager reads them
    static int tags(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<org.apache.paimon.Snapshot, List<String>> e : t.tagManager().tags().entrySet())
            for (String n : e.getValue())
                m.put(n, e.getKey().id());
        out.println(toJson(obj("ok", true, "tags", m)));
        return 0;
    }

    // partitions TABLE [--snapshot ID]: the $partitions system table as Paimon
    // Java reads it, with the keys of `zsink table partitions --json`
    // (last_update_time: its LocalDateTime as epoch ms, as the manifest
    // holds a file's creation time).
    static int partitions(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), a.optLong("--snapshot"));
        org.apache.paimon.table.system.PartitionsTable pt =
                new org.apache.paimon.table.system.PartitionsTable(t);
        ReadBuilder rb = pt.newReadBuilder();
        List<Object> res = new ArrayList<>();
        try (RecordReader<InternalRow> r = rb.newRead().createReader(rb.newScan().plan())) {
            r.forEachRemaining(row -> res.add(obj("partition", row.getString(0).toString(),
                    "record_count", row.getLong(1), "file_size_in_bytes", row.getLong(2),
                    "file_count", row.getLong(3), "last_update_time",
                    row.isNullAt(4) ? null : row.getTimestamp(4, 3).getMillisecond())));
        }
        out.println(toJson(res));
        return 0;
    }

    // drop-partition TABLE K=V[,K=V...] ...: Paimon's own drop of the
    // partitions (BatchTableCommit.truncatePartitions, as the drop_partition
    // procedure), to compare with zsink's; the snapshot it made.
    static int dropPartition(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        a.pos(1, "PARTITION");
        List<Map<String, String>> specs = new ArrayList<>();
        for (int i = 1; i < a.pos.size(); i++) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String kv : a.pos.get(i).split(",")) {
                int eq = kv.indexOf('=');
                if (eq <= 0)
                    throw new UsageError("a partition is K=V[,K=V...], not '" + kv + "'");
                m.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            specs.add(m);
        }
        try (BatchTableCommit c = t.newBatchWriteBuilder().newCommit()) {
            c.truncatePartitions(specs);
        }
        org.apache.paimon.Snapshot s = t.snapshotManager().latestSnapshot();
        out.println(toJson(obj("ok", true, "snapshot_id", s.id(), "commit_kind",
                s.commitKind().toString(), "commit_identifier", s.commitIdentifier(),
                "delta_record_count", s.deltaRecordCount(), "total_record_count",
                s.totalRecordCount())));
        return 0;
    }

    static int removeOrphans(Args a) throws Exception {
        String root = absPath(a.pos(0, "TABLE"));
        FileStoreTable t = open(root, null);
        Long olderMs = a.optLong("--older-than-ms");
        boolean dry = a.flags.contains("--dry-run");
        long t0 = System.nanoTime();
        LocalOrphanFilesClean clean = olderMs == null && !dry
                ? new LocalOrphanFilesClean(t) // Paimon's default margin: older than 1 day
                : new LocalOrphanFilesClean(t, System.currentTimeMillis()
                        - (olderMs != null ? olderMs : Duration.ofDays(1).toMillis()), dry);
        CleanOrphanFilesResult r = clean.clean();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        List<String> paths = new ArrayList<>();
        if (r.getDeletedFilesPath() != null)
            for (Path p : r.getDeletedFilesPath())
                paths.add(shown(root, p));
        Collections.sort(paths);
        out.println(toJson(obj("ok", true, "dry_run", dry, "deleted", r.getDeletedFileCount(), "bytes",
                r.getDeletedFileTotalLenInBytes(), "files", paths, "older_than_ms",
                olderMs != null ? olderMs : Duration.ofDays(1).toMillis(), "ms", ms)));
        return 0;
    }

    // maintain TABLE --until FILE|--rounds R --retain-max N --retain-min M
    //          [--time-retain-ms T] [--pause-ms P]
    // Paimon's maintenance in a loop, in one JVM, until FILE exists (or R
    // rounds): each round
    // expires snapshots (as expire) and removes orphan files with Paimon's
    // default margin (as remove-orphans without --older-than-ms: only files
    // older than a day), P ms apart. For running beside a job that commits.
    static int maintain(Args a) throws Exception {
        String root = absPath(a.pos(0, "TABLE"));
        Long max = a.optLong("--retain-max"), min = a.optLong("--retain-min");
        Long timeMs = a.optLong("--time-retain-ms"), pause = a.optLong("--pause-ms");
        String until = a.opt("--until");
        Long maxRounds = a.optLong("--rounds");
        if (max == null || min == null || (until == null && maxRounds == null))
            throw new UsageError("maintain TABLE --until FILE|--rounds R --retain-max N --retain-min M "
                    + "[--time-retain-ms T] [--pause-ms P]");
        long rounds = 0, expired = 0, orphans = 0;
        List<Object> deleted = new ArrayList<>();
        long t0 = System.nanoTime();
        while ((until == null || !new File(until).exists()) && (maxRounds == null || rounds < maxRounds)
                && parentAlive()) {
            FileStoreTable t = open(root, null);
            ExpireConfig cfg = ExpireConfig.builder()
                    .snapshotRetainMax(max.intValue())
                    .snapshotRetainMin(min.intValue())
                    .snapshotTimeRetain(timeMs != null ? Duration.ofMillis(timeMs) : t.coreOptions().snapshotTimeRetain())
                    .snapshotMaxDeletes(t.coreOptions().snapshotExpireLimit())
                    .build();
            expired += t.newExpireSnapshots().config(cfg).expire();
            CleanOrphanFilesResult r = new LocalOrphanFilesClean(open(root, null)).clean();
            orphans += r.getDeletedFileCount();
            if (r.getDeletedFilesPath() != null)
                for (Path p : r.getDeletedFilesPath())
                    deleted.add(isS3(root) ? p.toString() : p.toUri().getPath());
            rounds++;
            if (pause != null && pause > 0)
                Thread.sleep(pause);
        }
        List<Long> ids = snapshotIds(open(root, null));
        out.println(toJson(obj("ok", true, "rounds", rounds, "expired", expired, "orphans_deleted", orphans,
                "deleted", deleted, "snapshots_left", ids.size(), "earliest", ids.isEmpty() ? null : ids.get(0),
                "ms", (System.nanoTime() - t0) / 1_000_000)));
        return 0;
    }

    // ---- read-loop: the table read again and again beside a job and its
    // procedures (t_procedures_live): every read of the latest snapshot must
    // succeed and hold no id twice. A read whose snapshot an expiry removed
    // under it (a reader slower than the retention) is read again at once on
    // the newest snapshot, as a user's query would be; only a failure of that
    // second read counts: the table itself is unreadable then ------------------

    static int readLoop(Args a) throws Exception {
        String root = absPath(a.pos(0, "TABLE"));
        String until = a.opt("--until");
        Long pause = a.optLong("--pause-ms");
        if (until == null)
            throw new UsageError("read-loop TABLE --until FILE [--pause-ms P]");
        long reads = 0, retried = 0;
        List<Object> failures = new ArrayList<>();
        while (!new File(until).exists() && parentAlive()) {
            String why = null;
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    Map<String, Object> m = summaryOf(open(root, null));
                    Object count = m.get("count"), distinct = m.get("distinct_ids");
                    why = count != null && count.equals(((Number) distinct).intValue()) ? null
                            : "snapshot " + m.get("snapshot") + ": count " + count + " but distinct ids " + distinct;
                    break;
                } catch (Exception e) {
                    why = e.toString();
                    if (attempt == 0)
                        retried++;
                }
            }
            reads++;
            if (why != null && failures.size() < 10)
                failures.add("read " + reads + ": " + why);
            if (pause != null && pause > 0)
                Thread.sleep(pause);
        }
        out.println(toJson(obj("ok", failures.isEmpty(), "reads", reads, "retried", retried, "failures", failures)));
        return failures.isEmpty() ? 0 : 1;
    }

    // ---- train: one JVM that runs every command on a scratch table, so that
    // -XX:ArchiveClassesAtExit (setup-interop.sh) archives the classes they load
    // (AppCDS: JVM start and first read about twice as fast) -------------------------

    static int train(Args a) throws Exception {
        String dir = absPath(a.pos(0, "SCRATCH_DIR"));
        String t = dir + "/t";
        PrintStream real = out;
        out = new PrintStream(OutputStream.nullOutputStream(), false, "UTF-8");
        String spec = "id BIGINT NOT NULL, name STRING, price DOUBLE, f FLOAT, ok BOOLEAN, n INT, b BYTES, "
                + "d DATE, ts TIMESTAMP(3), ts6 TIMESTAMP(6), si SMALLINT, ti TINYINT";
        String[][] cmds = {
            {"create", t, spec},
            {"append", t, "--ids", "1..300", "--commit-user", "train", "--identifier", "1", "--files", "2"},
            {"append", t, "--ids", "301..600", "--commit-user", "train", "--identifier", "2"},
            {"append", t, "--ids", "601..700"},
            {"summary", t}, {"summary", t, "--snapshot", "1"}, {"rows", t}, {"files", t}, {"snapshots", t},
            {"count-where", t, "id >= 10 AND id <= 20"}, {"count-where", t, "name = 's3' OR b IS NULL"},
            {"count-where", t, "d < '1960-01-01' AND ts IS NOT NULL AND price > 1.5 AND f <= 2"},
            {"filter-committed", t, "train", "1", "2", "3"},
            {"count-where", t, "id BETWEEN 5 AND 50", "name IS NULL", "n IN (1, 2)"},
            {"append-loop", t, "--from", "701", "--rows", "10", "--commit-user", "train-loop", "--max-commits", "2"},
            {"check", t, "--snapshots", "1,3"},
            {"maintain", t, "--rounds", "1", "--retain-max", "4", "--retain-min", "1"},
            {"expire", t, "--retain-max", "2", "--retain-min", "1"},
            {"remove-orphans", t, "--dry-run"},
        };
        int n = 0;
        try {
            for (String[] c : cmds) {
                if (run(c) != 0)
                    throw new IllegalStateException("train: " + String.join(" ", c) + " failed");
                n++;
            }
            for (double x : new double[] {0.1, 1e21, 1e-7, 2e23, 5e-324, 1.0 / 3})
                jsNumber(x);
        } finally {
            out = real;
        }
        out.println(toJson(obj("ok", true, "commands", n, "scratch", dir)));
        return 0;
    }

    // ---- serve: many commands, one JVM ------------------------------------------------
    //
    // One command a line on stdin, its arguments separated by tabs; for each,
    // the JSON line it prints (a failure: {"ok":false,"error"}), then the next
    // request. Ends at end of input. readers.py's per-test server runs its
    // `check`s through it, so that a test pays one JVM start, not one a table.
    static int serve() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream real = out;
        String l;
        while ((l = in.readLine()) != null) {
            if (l.isEmpty())
                continue;
            java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
            out = new PrintStream(buf, false, "UTF-8");
            try {
                run(l.split("\t", -1));
            } catch (UsageError e) {
                buf.reset();
                out.println(toJson(obj("ok", false, "error", e.getMessage())));
            } catch (Throwable e) {
                e.printStackTrace();
                buf.reset();
                out.println(toJson(obj("ok", false, "error", e.toString())));
            }
            out.flush();
            out = real;
            String text = buf.toString("UTF-8").trim();
            if (text.isEmpty() || text.indexOf('\n') >= 0)
                text = toJson(obj("ok", false, "error", "serve: a command printed " + (text.isEmpty() ? "nothing"
                        : "more than one line")));
            real.print(text);
            real.print('\n');
            real.flush();
        }
        return 0;
    }

    // ---- spell-doubles ---------------------------------------------------------------------

    static int spellDoubles() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String l;
        while ((l = in.readLine()) != null) {
            l = l.trim();
            if (l.isEmpty())
                continue;
            double x = l.startsWith("0x") ? Double.longBitsToDouble(Long.parseUnsignedLong(l.substring(2), 16))
                    : Double.parseDouble(l);
            out.print(jsNumber(x) + "\t" + jsNumber((double) fround(x)) + "\n");
        }
        return 0;
    }

    // ---- JSON out ----------------------------------------------------------------------------

    static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2)
            m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    static String toJson(Object v) {
        StringBuilder b = new StringBuilder();
        json(b, v);
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    static void json(StringBuilder b, Object v) {
        if (v == null)
            b.append("null");
        else if (v instanceof String)
            b.append(jsonString((String) v));
        else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            b.append(Double.isFinite(d) ? jsNumber(d) : "null");
        } else if (v instanceof Number || v instanceof Boolean)
            b.append(v);
        else if (v instanceof Map) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                if (!first)
                    b.append(',');
                first = false;
                b.append(jsonString(e.getKey())).append(':');
                json(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof List) {
            b.append('[');
            boolean first = true;
            for (Object o : (List<Object>) v) {
                if (!first)
                    b.append(',');
                first = false;
                json(b, o);
            }
            b.append(']');
        } else
            b.append(jsonString(v.toString()));
    }

    // ---- types (issue 25): rows from a JSON file, and the value statistics ----------

    // append-json TABLE FILE: the rows of a JSON-lines file (one object a line, the
    // table's column names; null or absent for NULL) in one batch commit, each value
    // taken as Flink's JSON format takes it: DECIMAL a number or a string, TIME
    // 'HH:mm:ss[.fff]', TIMESTAMP 'yyyy-MM-dd HH:mm:ss[.f]' or with 'T', WITH LOCAL
    // TIME ZONE with 'Z' or an offset, BINARY/VARBINARY the string's UTF-8 bytes.
    static int appendJson(Args a) throws Exception {
        FileStoreTable t = open(a.pos(0, "TABLE"), null);
        List<String> lines = java.nio.file.Files.readAllLines(java.nio.file.Paths.get(a.pos(1, "FILE")),
                StandardCharsets.UTF_8);
        org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper om =
                new org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper();
        om.enable(org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.DeserializationFeature
                .USE_BIG_DECIMAL_FOR_FLOATS);
        om.enable(org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.DeserializationFeature
                .USE_BIG_INTEGER_FOR_INTS);
        List<DataField> fs = t.rowType().getFields();
        BatchWriteBuilder wb = t.newBatchWriteBuilder();
        long n = 0;
        try (BatchTableWrite w = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            for (String l : lines) {
                if (l.trim().isEmpty())
                    continue;
                org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode o = om.readTree(l);
                GenericRow row = new GenericRow(fs.size());
                for (int k = 0; k < fs.size(); k++) {
                    org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode v = o.get(fs.get(k).name());
                    row.setField(k, v == null || v.isNull() ? null : jsonValue(fs.get(k).type(), v));
                }
                w.write(row);
                n++;
            }
            c.commit(w.prepareCommit());
        }
        out.println(toJson(obj("ok", true, "rows", n)));
        return 0;
    }

    static Object jsonValue(DataType t, org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode v) {
        String s = v.asText();
        switch (t.getTypeRoot()) {
            case BOOLEAN: return v.asBoolean();
            case TINYINT: return (byte) v.asInt();
            case SMALLINT: return (short) v.asInt();
            case INTEGER: return v.asInt();
            case BIGINT: return v.asLong();
            case FLOAT: return (float) v.asDouble();
            case DOUBLE: return v.asDouble();
            case DECIMAL: {
                int p = DataTypeChecks.getPrecision(t), sc = DataTypeChecks.getScale(t);
                BigDecimal d = v.isNumber() ? v.decimalValue() : new BigDecimal(s);
                return org.apache.paimon.data.Decimal.fromBigDecimal(d.setScale(sc), p, sc);
            }
            case CHAR:
            case VARCHAR: return BinaryString.fromString(s);
            case BINARY:
            case VARBINARY: return s.getBytes(StandardCharsets.UTF_8);
            case DATE: return (int) LocalDate.parse(s).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (java.time.LocalTime.parse(s).toNanoOfDay() / 1_000_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromLocalDateTime(LocalDateTime.parse(s.replace(' ', 'T')));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromInstant(java.time.OffsetDateTime.parse(s.replace(' ', 'T')).toInstant());
            default:
                return nestedJsonValue(t, v);
        }
    }

    // ---- nested types (issue 25 part 5) ---------------------------------------------

    // create-fields TABLE FILE: a table whose columns are the "fields" array of a
    // schema file (FILE: that JSON array, as Paimon writes it), nested types too;
    // Paimon gives the field ids as its Schema builder does.
    static int createFields(Args a) throws Exception {
        String path = absPath(a.pos(0, "TABLE"));
        org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode fields =
                new org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(new String(java.nio.file.Files.readAllBytes(
                                java.nio.file.Paths.get(a.pos(1, "FILE"))), StandardCharsets.UTF_8));
        Schema.Builder b = Schema.newBuilder();
        for (org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode f : fields) {
            DataField df = DataTypeJsonParser.parseDataField(f);
            b.column(df.name(), df.type());
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "-1");
        options.put("file.format", "parquet");
        b.options(options);
        Schema schema = b.build();
        spellers(new RowType(schema.fields()));
        new SchemaManager(fileIO(path), new Path(path)).createTable(schema);
        out.println(toJson(obj("ok", true, "table", path, "columns", schema.fields().size())));
        return 0;
    }

    // A nested value from JSON: ARRAY an array, ROW an object by field name, MAP an
    // object (keys as the key type's text) or an array of [key, value] pairs.
    static Object nestedJsonValue(DataType t, org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode v) {
        switch (t.getTypeRoot()) {
            case ARRAY: {
                DataType et = ((org.apache.paimon.types.ArrayType) t).getElementType();
                Object[] es = new Object[v.size()];
                for (int i = 0; i < es.length; i++)
                    es[i] = v.get(i).isNull() ? null : jsonValue(et, v.get(i));
                return new org.apache.paimon.data.GenericArray(es);
            }
            case MAP: {
                org.apache.paimon.types.MapType mt = (org.apache.paimon.types.MapType) t;
                Map<Object, Object> m = new LinkedHashMap<>();
                org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory nf =
                        org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
                if (v.isArray())
                    for (org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode p : v)
                        m.put(jsonValue(mt.getKeyType(), p.get(0)),
                                p.get(1).isNull() ? null : jsonValue(mt.getValueType(), p.get(1)));
                else
                    for (Iterator<Map.Entry<String, org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode>> it =
                            v.fields(); it.hasNext();) {
                        Map.Entry<String, org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode> e = it.next();
                        m.put(jsonValue(mt.getKeyType(), nf.textNode(e.getKey())),
                                e.getValue().isNull() ? null : jsonValue(mt.getValueType(), e.getValue()));
                    }
                return new org.apache.paimon.data.GenericMap(m);
            }
            case ROW: {
                RowType rt = (RowType) t;
                GenericRow r = new GenericRow(rt.getFieldCount());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode f =
                            v.get(rt.getFields().get(i).name());
                    r.setField(i, f == null || f.isNull() ? null : jsonValue(rt.getTypeAt(i), f));
                }
                return r;
            }
            default:
                throw new IllegalArgumentException("no JSON value for " + t);
        }
    }

    // value-stats TABLE: each live file's value statistics as Paimon reads them
    // (DataFileMeta.valueStats, valueStatsCols), spelt canonically: the file's
    // path, then per column "name: nulls min max" ("\N" for a null bound)
    static int valueStats(Args a) throws Exception {
        String root = absPath(a.pos(0, "TABLE"));
        FileStoreTable t = open(root, null);
        ReadBuilder rb = t.newReadBuilder();
        Planned p = plan(t, rb);
        List<Object> list = new ArrayList<>();
        for (DataSplit d : p.dataSplits)
            for (DataFileMeta f : d.dataFiles()) {
                List<String> names = f.valueStatsCols();
                List<DataField> fields = new ArrayList<>();
                for (DataField df : t.schemaManager().schema(f.schemaId()).fields())
                    if (names == null || names.contains(df.name()))
                        fields.add(df);
                RowType rt = new RowType(fields);
                org.apache.paimon.stats.SimpleStats st = f.valueStats();
                String[] min = line(spellers(rt), st.minValues()).split("\t", -1);
                String[] max = line(spellers(rt), st.maxValues()).split("\t", -1);
                List<Object> cols = new ArrayList<>();
                for (int i = 0; i < fields.size(); i++) {
                    boolean nullCount = st.nullCounts().isNullAt(i);
                    cols.add(fields.get(i).name() + ": " + (nullCount ? "\\N" : st.nullCounts().getLong(i))
                            + " " + (fields.isEmpty() ? "" : min[i]) + " " + max[i]);
                }
                list.add(obj("path", relPath(root, d, f), "columns", cols));
            }
        out.println(toJson(obj("ok", true, "files", list)));
        return 0;
    }
}
