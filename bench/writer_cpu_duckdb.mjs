// writer_cpu_duckdb.mjs - DuckDB's side of bench/writer_cpu.sh: the rows
// zsink-bench-writer-cpu generated (DIR/<schema>-input.parquet) loaded into
// a DuckDB temp table (not timed), then COPY … TO parquet with zstd, one
// thread, REPEAT times: rows/s (best wall), CPU s per million rows (median
// of the process's CPU time), file bytes, and ours/DuckDB against
// DIR/ours.tsv. Then the bytes per column of both files (parquet_metadata)
// and a check that DuckDB reads our default file back whole.
//
//   node bench/writer_cpu_duckdb.mjs DIR [REPEAT]
//
// @duckdb/node-api is tests/duckdb's (npm ci there, or a symlink of
// node_modules), resolved from that folder.
import { createRequire } from 'node:module';
import { readFileSync, statSync, unlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, repeatArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/writer_cpu_duckdb.mjs DIR [REPEAT]');
  process.exit(2);
}
const repeat = Number(repeatArg || 3);
const require = createRequire(new URL('../tests/duckdb/package.json', import.meta.url));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')).href);

const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
await conn.run('SET threads = 1');
await conn.run("SET preserve_insertion_order = true");
const version = (await conn.runAndReadAll('SELECT version()')).getRows()[0][0];

// ours.tsv: schema, label, rows, best wall s, median cpu s, bytes; the
// first line of a schema is our defaults
const ours = {};
for (const line of readFileSync(join(dir, 'ours.tsv'), 'utf8').trim().split('\n')) {
  const [schema, label, rows, wall, cpu, bytes] = line.split('\t');
  ours[schema] ??= { rows: +rows, wall: +wall, cpu: +cpu, bytes: +bytes, label };
}

const q = (s) => `'${s.replace(/'/g, "''")}'`;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

// The sizes per column of a Parquet file, by column name.
async function columnBytes(file) {
  const rows = (await conn.runAndReadAll(
    `SELECT path_in_schema, sum(total_compressed_size)::BIGINT, string_agg(DISTINCT encodings, ' ')
       FROM parquet_metadata(${q(file)}) GROUP BY 1 ORDER BY min(column_id)`)).getRows();
  return rows.map(([name, bytes, enc]) => ({ name, bytes: Number(bytes), enc }));
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`\n== DuckDB ${version}, SET threads = 1, COPY (SELECT * FROM t) TO 'x.parquet' (FORMAT parquet, …), best/median of ${repeat}`);
for (const schema of Object.keys(ours)) {
  const input = join(dir, `${schema}-input.parquet`);
  await conn.run(`CREATE OR REPLACE TEMP TABLE t AS SELECT * FROM read_parquet(${q(input)})`);
  const nrows = Number((await conn.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
  const base = ours[schema];
  const cases = [
    ['zstd (DuckDB default level)', 'COMPRESSION zstd'],
    ['zstd level 1', 'COMPRESSION zstd, COMPRESSION_LEVEL 1'],
    ['zstd level 3', 'COMPRESSION zstd, COMPRESSION_LEVEL 3'],
    ['snappy (DuckDB default)', 'COMPRESSION snappy'],
    ['uncompressed', 'COMPRESSION uncompressed'],
  ];
  console.log(`\n${schema}: ${nrows} rows (ours: ${base.rows}); ours = zsink-bench-writer-cpu's ${base.label}`);
  console.log(`${pad('DuckDB COPY', 30)} ${lpad('rows/s', 12)} ${lpad('CPU s/M rows', 12)} ${lpad('file bytes', 12)} ${lpad('ours/DuckDB CPU', 16)} ${lpad('ours/DuckDB size', 17)}`);
  const out = join(dir, `${schema}-duckdb.parquet`);
  for (const [label, options] of cases) {
    const walls = [], cpus = [];
    for (let i = 0; i < repeat; i++) {
      if (existsSync(out)) unlinkSync(out);
      const t0 = process.hrtime.bigint(), c0 = cpuNow();
      await conn.run(`COPY (SELECT * FROM t) TO ${q(out)} (FORMAT parquet, ${options})`);
      cpus.push(cpuNow() - c0);
      walls.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    const bytes = statSync(out).size;
    const cpu = median(cpus) / (nrows / 1e6);
    const ourCpu = base.cpu / (base.rows / 1e6);
    console.log(`${pad(label, 30)} ${lpad((nrows / Math.min(...walls)).toFixed(0), 12)} ${lpad(cpu.toFixed(3), 12)} ${lpad(bytes, 12)} ${lpad((ourCpu / cpu).toFixed(2), 16)} ${lpad((base.bytes / bytes).toFixed(2), 17)}`);
    if (label.startsWith('zstd (DuckDB default')) {
      // bytes per column: ours (default variant, file 0) against DuckDB's
      var theirs = await columnBytes(out);
    }
  }
  const mine = await columnBytes(join(dir, `${schema}-0.parquet`));
  console.log(`\n${pad('column', 10)} ${lpad('ours bytes', 12)} ${pad('  ours encodings', 34)} ${lpad('DuckDB bytes', 12)}   DuckDB encodings (zstd, default level)`);
  for (let i = 0; i < mine.length; i++)
    console.log(`${pad(mine[i].name, 10)} ${lpad(mine[i].bytes, 12)}   ${pad(mine[i].enc, 32)} ${lpad(theirs[i].bytes, 12)}   ${theirs[i].enc}`);
  // our file reads back whole and equal to the input
  const diff = Number((await conn.runAndReadAll(
    `SELECT count(*) FROM (SELECT * FROM read_parquet(${q(join(dir, `${schema}-0.parquet`))})
       EXCEPT ALL SELECT * FROM t)`)).getRows()[0][0]);
  console.log(`DuckDB reads our ${schema}-0.parquet: ${diff === 0 ? 'same rows as the input' : diff + ' rows differ'}`);
}
