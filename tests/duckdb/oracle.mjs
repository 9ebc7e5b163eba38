// oracle.mjs - DuckDB as the independent oracle for zsink's Parquet files.
//
// DuckDB (@duckdb/node-api, installed by scripts/setup.sh) reads what zsink
// wrote, zsink's own reader (`zsink table scan --format csv`) reads the
// same, and both are reduced to the same figures: count, count(DISTINCT
// id), min / max / sum of every numeric column, null counts, and a digest
// of all rows (each row spelt canonically, the lines sorted, sha256). Any
// difference fails.
//
//   node oracle.mjs table --zsink BIN --table DIR [--expect N]
//       the table's live files (zsink table files --json) through DuckDB's
//       read_parquet vs zsink table scan DIR; with --expect N also count =
//       distinct ids = N, ids 1..N
//   node oracle.mjs file --zsink BIN --file F.parquet
//       one Parquet file (e.g. written by DuckDB) through both readers
//   node oracle.mjs copy --out F.parquet --sql QUERY [--options 'COMPRESSION zstd']
//       have DuckDB write a Parquet file (COPY (QUERY) TO F (FORMAT parquet, …))
//   node oracle.mjs layout --zsink BIN --table DIR
//       files, row groups and codecs of the live files (parquet_metadata)
//       and the time DuckDB takes to count the rows, best of 3
//   node oracle.mjs read-time --zsink BIN --table DIR
//       the time DuckDB takes to read the live files whole (every column,
//       into a temp table): the first read and the best of 3 (bench/run.sh)
//   node oracle.mjs input --zsink BIN --table DIR --input PATH --format jsonl|csv
//       the table equals the source files: DuckDB's read_json / read_csv of
//       the input with the table's schema vs DuckDB's read of the table
//   node oracle.mjs snapshots --zsink BIN --table DIR --ids ID,ID,...
//       zsink's figures of older snapshots (time travel): for each id, the
//       count and digest of `zsink table scan DIR --snapshot ID`, of the
//       snapshot's schema (its schemaId); the id `latest`: of a plain scan,
//       of the table's latest schema (no DuckDB; tests/interop/readers.py
//       compares them with Paimon's readers)
//   node oracle.mjs sql --sql 'STATEMENT; STATEMENT'
//       run the statements in order (split at ';' ending a line), print the
//       last one's rows as JSON (the README's queries, as a user types them)
//   node oracle.mjs where --zsink BIN --table DIR --where SQL [--where SQL]...
//       DuckDB's answer over the live files for each WHERE condition: the
//       count, and the files holding a matching row (relative to DIR), in
//       order; the interop tests compare Paimon Java's push-down with it
//
// DIR may be s3://bucket/key (zsink's table.path on object storage) for
// `snapshots` only: it reads the schema and snapshot files (small JSON)
// with curl's SigV4 from the environment zsink reads (AWS_ENDPOINT_URL,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION; path style when an
// endpoint is given, as zsink does). The DuckDB modes refuse it: DuckDB
// reads s3:// only through its httpfs extension, which it downloads at run
// time, and the tests install nothing at run time.
//
// Prints one JSON summary line; exit 0 on agreement, 1 on any difference.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const mode = args.shift();
const opt = {};
opt.where = [];
for (let i = 0; i < args.length; i += 2) {
  const k = args[i].replace(/^--/, '');
  if (k === 'where') opt.where.push(args[i + 1]);
  else opt[k] = args[i + 1];
}

function die(msg) {
  console.log(JSON.stringify({ ok: false, error: msg }));
  process.exit(1);
}

// ---- types ---------------------------------------------------------------

// zsink type of each column from schema-0 ("BIGINT NOT NULL" -> BIGINT)
// The columns of schema/schema-<id> (default: the latest, the highest N:
// Paimon's schema evolution adds one per ALTER TABLE)
function tableSchema(dir, id) {
  if (id === undefined && isS3(dir)) // no listing: zsink names the latest
    id = JSON.parse(execFileSync(opt.zsink, ['table', 'schema', dir, '--json'],
      { encoding: 'utf8' })).schema_id;
  if (id === undefined)
    id = Math.max(...readdirSync(join(dir, 'schema')).filter((n) => /^schema-[0-9]+$/.test(n))
      .map((n) => Number(n.slice(7))));
  const s = JSON.parse(tableText(dir, 'schema', `schema-${id}`));
  return s.fields.map((f) => (typeof f.type === 'object' ? { name: f.name, type: 'NESTED', t: f.type }
    : family(f.name, f.type.replace(/ NOT NULL$/, ''))));
}

// A column of a Paimon type as the oracle spells its values: the families
// of zsink's first types (TINYINT and SMALLINT read as INT, CHAR/VARCHAR(n)
// as STRING, BINARY/VARBINARY(n) as BYTES, TIMESTAMP(p) by its unit), and
// DECIMAL (the plain number at its scale), TIME (milliseconds of the day),
// TIMESTAMP(9) (epoch nanoseconds); WITH LOCAL TIME ZONE as TIMESTAMP, ltz set.
function family(name, t) {
  const u = t.toUpperCase();
  let m;
  if (['TINYINT', 'SMALLINT', 'INT', 'INTEGER'].includes(u)) return { name, type: 'INT' };
  if (/^(DECIMAL|NUMERIC|DEC)\b/.test(u)) return { name, type: 'DECIMAL' };
  if (/^(CHAR|VARCHAR)\(\d+\)$/.test(u)) return { name, type: 'STRING' };
  if (/^(BINARY|VARBINARY)\(\d+\)$/.test(u)) return { name, type: 'BYTES' };
  if (/^TIME(\(\d+\))?$/.test(u)) return { name, type: 'TIME' };
  if ((m = /^TIMESTAMP(?:\((\d+)\))?( WITH LOCAL TIME ZONE)?$/.exec(u))
      || (m = /^TIMESTAMP_LTZ(?:\((\d+)\))?()$/.exec(u))) {
    const p = m[1] === undefined ? 6 : +m[1];
    const type = p <= 3 ? 'TIMESTAMP(3)' : p <= 6 ? 'TIMESTAMP(6)' : 'TIMESTAMP(9)';
    return { name, type, ltz: !!m[2] || u.startsWith('TIMESTAMP_LTZ') };
  }
  return { name, type: u };
}

// The schema a read of snapshot id takes (time travel: its schemaId, as
// Paimon's readers and `zsink table scan --snapshot` do)
function snapshotSchema(dir, id) {
  const snap = JSON.parse(tableText(dir, 'snapshot', `snapshot-${id}`));
  return tableSchema(dir, snap.schemaId);
}

// ---- s3:// tables ----------------------------------------------------------

const isS3 = (p) => /^s3:\/\//i.test(p);

// A file of the table, as text: local, or an s3:// object through curl
function tableText(dir, ...rel) {
  if (!isS3(dir)) return readFileSync(join(dir, ...rel), 'utf8');
  return s3Text(`${dir.replace(/\/+$/, '')}/${rel.join('/')}`);
}

// GET s3://bucket/key with curl --aws-sigv4. The credentials go to curl on
// its stdin (-K -), never on a command line or into an error message.
function s3Text(url) {
  const m = /^s3:\/\/([^/]+)\/(.+)$/i.exec(url);
  if (!m) die(`not an s3://bucket/key URL: ${url}`);
  const env = process.env;
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
  if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY)
    die('s3: no credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  const key = m[2].split('/').map(encodeURIComponent).join('/');
  // the tests' servers only: an endpoint is always given
  if (!endpoint) die('s3: no endpoint (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL)');
  const http = `${endpoint.replace(/\/+$/, '')}/${m[1]}/${key}`;
  const quote = (v) => v.replace(/[\\"]/g, (c) => '\\' + c);
  const cfg = `user = "${quote(env.AWS_ACCESS_KEY_ID)}:${quote(env.AWS_SECRET_ACCESS_KEY)}"\n`;
  try {
    return execFileSync('curl', ['-sS', '--fail', '--max-time', '60', '--aws-sigv4',
      `aws:amz:${region}:s3`, '-K', '-', http], { input: cfg, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    return die(`s3: GET ${url}: ${String(e.stderr || '').trim() || `curl exit ${e.status}`}`);
  }
}

// zsink type of a DuckDB column type (for files DuckDB wrote)
function fromDuck(t) {
  if (/\[\]$|^STRUCT\(|^MAP\(/.test(t)) return 'NESTED'; // spellNested
  const map = {
    BOOLEAN: 'BOOLEAN', INTEGER: 'INT', BIGINT: 'BIGINT', FLOAT: 'FLOAT', DOUBLE: 'DOUBLE',
    VARCHAR: 'STRING', BLOB: 'BYTES', DATE: 'DATE', TIMESTAMP: 'TIMESTAMP(6)',
    TIMESTAMP_MS: 'TIMESTAMP(3)',
  };
  if (t in map) return map[t];
  // the families of the types beyond zsink's first ones (family ())
  if (t === 'TINYINT' || t === 'SMALLINT') return 'INT';
  if (/^DECIMAL\(\d+,\d+\)$/.test(t)) return 'DECIMAL';
  if (t === 'TIME' || t === 'TIME WITH TIME ZONE') return 'TIME'; // isAdjustedToUTC, as Paimon writes TIME
  if (t === 'TIMESTAMP WITH TIME ZONE') return 'TIMESTAMP(6) LTZ';
  if (t === 'TIMESTAMP_NS') return 'TIMESTAMP(9)';
  die(`DuckDB type ${t} is outside zsink's subset`);
}

// A column's family as DuckDB should see it (fromDuck's spelling)
const duckWant = (c) => (c.type === 'TIMESTAMP(9US)' ? 'TIMESTAMP(6)'
  : c.ltz ? 'TIMESTAMP(6) LTZ' : c.type);

// DuckDB reads INT96 (TIMESTAMP(7..9), as Paimon writes it) in microseconds:
// against DuckDB such a column is compared at microseconds (floor), its
// nanoseconds are Paimon Java's and pypaimon's to check (readers.py).
const atDuckPrecision = (cols) => cols.map((c) => (c.type === 'TIMESTAMP(9)'
  ? { ...c, type: 'TIMESTAMP(9US)' } : c));

// DuckDB type for a zsink type (read_json / read_csv columns)
function toDuck(t) {
  return {
    BOOLEAN: 'BOOLEAN', INT: 'INTEGER', BIGINT: 'BIGINT', FLOAT: 'FLOAT', DOUBLE: 'DOUBLE',
    STRING: 'VARCHAR', BYTES: 'BLOB', DATE: 'DATE', 'TIMESTAMP(3)': 'TIMESTAMP',
    'TIMESTAMP(6)': 'TIMESTAMP',
  }[t];
}

const q = (name) => '"' + name.replace(/"/g, '""') + '"';

// The select list that makes DuckDB hand every value over in a form JS
// keeps exactly: integers as BigInt, dates as day numbers, timestamps as
// epoch microseconds, blobs as hex.
function duckSelect(cols) {
  return cols.map((c) => {
    const n = q(c.name);
    switch (c.type) {
      case 'INT': case 'BIGINT': return `CAST(${n} AS BIGINT)`;
      case 'DATE': return `CAST(${n} - DATE '1970-01-01' AS BIGINT)`;
      case 'TIMESTAMP(3)': case 'TIMESTAMP(6)': case 'TIMESTAMP(9US)': return `epoch_us(${n})`;
      case 'TIMESTAMP(9)': return `epoch_ns(${n})`;
      case 'DECIMAL': return `CAST(${n} AS VARCHAR)`;
      case 'TIME': return `CAST(epoch_us(DATE '1970-01-01' + CAST(${n} AS TIME)) // 1000 AS BIGINT)`;
      case 'BYTES': return `lower(hex(${n}))`;
      case 'NESTED': return `CAST(to_json(${n}) AS VARCHAR)`;
      default: return n;
    }
  }).join(', ');
}

// ---- canonical values ----------------------------------------------------

function civilToDays(y, m, d) {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  t.setUTCHours(0, 0, 0, 0);
  return BigInt(Math.round(t.getTime() / 86400000));
}

function num(x, isFloat) {
  if (typeof x === 'string') {
    const s = x.toLowerCase();
    if (s === 'nan') return 'NaN';
    if (s === 'inf' || s === 'infinity') return 'Infinity';
    if (s === '-inf' || s === '-infinity') return '-Infinity';
    x = Number(x);
  }
  if (isFloat) x = Math.fround(x);
  return Object.is(x, -0) ? '-0' : String(x);
}

// ---- nested values (ARRAY, MAP, ROW) ---------------------------------------
//
// Spelt as paimon_py.py's spell_nested and the Java oracle's spellNested:
// null inside is `null`; ARRAY `[a,b]`; ROW `{"name":v,...}` in field order;
// MAP `{k:v,...}` sorted by the key's spelling; a scalar inside as its column
// would be. From JSON (zsink's scan, DuckDB's to_json) parsed with numbers
// kept as their text (BIGINT beyond 2^53).

function parseJsonText(text) {
  let i = 0;
  const ws = () => { while (/\s/.test(text[i])) i++; };
  const val = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const o = []; ws();
      if (text[i] === '}') { i++; return { obj: o }; }
      for (;;) {
        const k = val(); ws(); i++; // ':'
        o.push([k.str, val()]); ws();
        if (text[i++] === '}') return { obj: o };
      }
    }
    if (c === '[') {
      i++; const a = []; ws();
      if (text[i] === ']') { i++; return { arr: a }; }
      for (;;) { a.push(val()); ws(); if (text[i++] === ']') return { arr: a }; }
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const str = JSON.parse(text.slice(i, j + 1));
      i = j + 1;
      return { str };
    }
    const m = /^(true|false|null|-?[0-9.eE+-]+)/.exec(text.slice(i));
    if (!m) die(`bad JSON at ${i}: ${text.slice(i, i + 20)}`);
    i += m[0].length;
    return m[0] === 'null' ? null : { lit: m[0] };
  };
  return val();
}

function decimalAt(s, scale) {
  let neg = s.startsWith('-');
  if (neg) s = s.slice(1);
  let [ip, fp = ''] = s.split('.');
  fp = fp.padEnd(scale, '0').slice(0, scale);
  ip = ip.replace(/^0+(?=\d)/, '');
  if (/^0*$/.test(ip + fp)) neg = false;
  return (neg ? '-' : '') + ip + (scale ? '.' + fp : '');
}

// a scalar inside a nested value: its text (a JSON string's content, or a
// number's or literal's text) spelt as its family's column values are
function spellLeaf(tstr, text) {
  const f = family('', tstr.replace(/ NOT NULL$/, ''));
  if (f.type === 'DECIMAL') {
    const m = /\(\s*\d+\s*,\s*(\d+)\s*\)/.exec(tstr);
    return decimalAt(text, m ? +m[1] : 0);
  }
  if (f.type === 'BOOLEAN') return text;
  return canonText(f.type, text);
}

// without a Paimon type (a file DuckDB wrote, `file` mode): objects'
// members sorted, integers exact, other numbers as num() spells them
function spellGeneric(v) {
  if (v === null || v === undefined) return 'null';
  if (v.arr) return `[${v.arr.map(spellGeneric).join(',')}]`;
  if (v.obj) {
    const es = v.obj.map(([k, x]) => [JSON.stringify(k), spellGeneric(x)]).sort();
    return `{${es.map(([k, x]) => `${k}:${x}`).join(',')}}`;
  }
  if (v.str !== undefined) return JSON.stringify(v.str);
  if (/^-?\d+$/.test(v.lit)) return BigInt(v.lit).toString();
  if (v.lit === 'true' || v.lit === 'false') return v.lit;
  return num(v.lit, false);
}

function spellNested(t, v) {
  if (t === undefined) return spellGeneric(v);
  if (v === null || v === undefined) return 'null';
  if (typeof t === 'string') return spellLeaf(t, v.str !== undefined ? v.str : v.lit);
  const kind = t.type.replace(/ NOT NULL$/, '');
  if (kind === 'ARRAY') return `[${v.arr.map((e) => spellNested(t.element, e)).join(',')}]`;
  if (kind === 'MAP') {
    const es = v.obj.map(([k, x]) => [spellNested(t.key, { str: k, lit: k }), spellNested(t.value, x)]);
    es.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    return `{${es.map(([k, x]) => `${k}:${x}`).join(',')}}`;
  }
  const m = new Map(v.obj);
  return `{${t.fields.map((f) => `${JSON.stringify(f.name)}:${spellNested(f.type, m.get(f.name))}`).join(',')}}`;
}

// one value from DuckDB (after duckSelect)
function canonDuck(type, v, col) {
  if (v === null || v === undefined) return '\\N';
  if (type === 'NESTED') return spellNested(col.t, parseJsonText(String(v)));
  switch (type) {
    case 'BOOLEAN': return v ? 'true' : 'false';
    case 'FLOAT': return num(v, true);
    case 'DOUBLE': return num(v, false);
    case 'STRING': return JSON.stringify(v);
    // DuckDB spells DECIMAL(1, 1) 0.9 as ".9"
    case 'DECIMAL': return String(v).replace(/^(-?)\./, '$10.');
    default: return String(v); // BigInt, hex string
  }
}

// one value from zsink's CSV (text; null already handled)
function canonText(type, s) {
  switch (type) {
    case 'DECIMAL': return s;
    case 'TIME': {
      const m = /^(\d\d):(\d\d):(\d\d)\.(\d{3})$/.exec(s);
      if (!m) die(`bad TIME '${s}' from zsink`);
      return String(((+m[1] * 60 + +m[2]) * 60 + +m[3]) * 1000 + +m[4]);
    }
    case 'TIMESTAMP(9)': {
      const m = /^(-?\d+)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d+)Z?$/.exec(s);
      if (!m) die(`bad TIMESTAMP '${s}' from zsink`);
      const days = civilToDays(+m[1], +m[2], +m[3]);
      const secs = days * 86400n + BigInt(+m[4] * 3600 + +m[5] * 60 + +m[6]);
      return (secs * 1000000000n + BigInt(m[7].padEnd(9, '0'))).toString();
    }
    case 'BOOLEAN': return s;
    case 'INT': case 'BIGINT': return BigInt(s).toString();
    case 'FLOAT': return num(s, true);
    case 'DOUBLE': return num(s, false);
    case 'STRING': return JSON.stringify(s);
    case 'BYTES': return s;
    case 'DATE': {
      const m = /^(-?\d+)-(\d\d)-(\d\d)$/.exec(s);
      if (!m) die(`bad DATE '${s}' from zsink`);
      return civilToDays(+m[1], +m[2], +m[3]).toString();
    }
    default: { // timestamps, to epoch microseconds
      const m = /^(-?\d+)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d+)Z?$/.exec(s);
      if (!m) die(`bad TIMESTAMP '${s}' from zsink`);
      const days = civilToDays(+m[1], +m[2], +m[3]);
      const secs = days * 86400n + BigInt(+m[4] * 3600 + +m[5] * 60 + +m[6]);
      const frac = BigInt(m[7].padEnd(6, '0').slice(0, 6)); // TIMESTAMP(9US): floor
      return (secs * 1000000n + frac).toString();
    }
  }
}

// RFC 4180 records with quoted-ness kept: [[text, quoted], …] per record
function* csvRecords(text) {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const rec = [];
    for (;;) {
      let val = '', quoted = false;
      if (text[i] === '"') {
        quoted = true;
        i++;
        for (;;) {
          const j = text.indexOf('"', i);
          if (j < 0) die('unterminated quoted CSV field from zsink');
          val += text.slice(i, j);
          i = j + 1;
          if (text[i] === '"') { val += '"'; i++; } else break;
        }
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n') j++;
        val = text.slice(i, j);
        i = j;
      }
      rec.push([val, quoted]);
      if (text[i] === ',') { i++; continue; }
      i++; // '\n' or end
      break;
    }
    yield rec;
  }
}

// ---- the figures ---------------------------------------------------------

function newTally(cols) {
  return {
    count: 0n, ids: new Set(), lines: [],
    cols: cols.map(() => ({ nulls: 0n, min: null, max: null, sum: null })),
  };
}

// keep count, nulls, min/max/sum of numeric columns; canon is the row's
// canonical values, raw the comparable numbers (BigInt or Number)
function addRow(t, cols, canon) {
  t.count++;
  t.lines.push(canon.join('\t'));
  cols.forEach((c, k) => {
    const s = t.cols[k];
    if (canon[k] === '\\N') { s.nulls++; return; }
    if (c.name === 'id' && c.type === 'BIGINT') t.ids.add(canon[k]);
    let v;
    if (c.type === 'INT' || c.type === 'BIGINT') v = BigInt(canon[k]);
    else if (c.type === 'FLOAT' || c.type === 'DOUBLE') v = Number(canon[k]);
    else return;
    if (s.min === null || v < s.min) s.min = v;
    if (s.max === null || v > s.max) s.max = v;
    s.sum = s.sum === null ? v : s.sum + v;
  });
}

function summary(t, cols) {
  const lines = t.lines.sort();
  const h = createHash('sha256');
  for (const l of lines) h.update(l + '\n');
  return {
    count: t.count.toString(),
    distinct_ids: cols.some((c) => c.name === 'id' && c.type === 'BIGINT') ? t.ids.size : null,
    // a float sum depends on the order rows are added in (DuckDB's order is
    // not the scan's): compared to 12 significant digits
    columns: Object.fromEntries(cols.map((c, k) => {
      const s = { ...t.cols[k] };
      if (typeof s.sum === 'number') s.sum = s.sum.toPrecision(12);
      return [c.name, s];
    })),
    digest: h.digest('hex'),
  };
}

async function duckTally(conn, from, cols) {
  const t = newTally(cols);
  const reader = await conn.runAndReadAll(`SELECT ${duckSelect(cols)} FROM ${from}`);
  for (const row of reader.getRows())
    addRow(t, cols, row.map((v, k) => canonDuck(cols[k].type, v, cols[k])));
  return t;
}

// the same figures computed by DuckDB itself, to check our JS against SQL
async function duckSql(conn, from, cols) {
  const parts = ['count(*)'];
  for (const c of cols) {
    const n = q(c.name);
    parts.push(`count(*) - count(${n})`);
    if (['INT', 'BIGINT', 'FLOAT', 'DOUBLE'].includes(c.type))
      parts.push(`min(${n})`, `max(${n})`, c.type === 'INT' || c.type === 'BIGINT' ? `sum(${n})` : `fsum(${n})`);
  }
  const id = cols.find((c) => c.name === 'id' && c.type === 'BIGINT');
  if (id) parts.push('count(DISTINCT id)');
  const r = await conn.runAndReadAll(`SELECT ${parts.join(', ')} FROM ${from}`);
  return r.getRows()[0];
}

function zsinkTally(bin, target, cols, snapshot) {
  const snap = snapshot === undefined ? [] : ['--snapshot', String(snapshot)];
  const out = execFileSync(bin, ['table', 'scan', target, ...snap, '--format', 'csv'], {
    maxBuffer: 4 << 30, encoding: 'utf8',
  });
  const t = newTally(cols);
  let header = true;
  for (const rec of csvRecords(out)) {
    if (header) {
      const names = rec.map((f) => f[0]);
      if (names.join(',') !== cols.map((c) => c.name).join(','))
        die(`zsink scan header ${names} differs from the schema ${cols.map((c) => c.name)}`);
      header = false;
      continue;
    }
    if (rec.length !== cols.length) die(`zsink scan: a record of ${rec.length} fields`);
    addRow(t, cols, rec.map(([s, quoted], k) =>
      (!quoted && s === '' ? '\\N' : cols[k].type === 'NESTED'
        ? spellNested(cols[k].t, parseJsonText(s)) : canonText(cols[k].type, s))));
  }
  return t;
}

function compare(a, b, what) {
  const errs = [];
  const ja = JSON.stringify(a, (k, v) => (typeof v === 'bigint' ? v.toString() : v));
  const jb = JSON.stringify(b, (k, v) => (typeof v === 'bigint' ? v.toString() : v));
  if (ja !== jb) {
    for (const key of Object.keys(a)) {
      const x = JSON.stringify(a[key], (k, v) => (typeof v === 'bigint' ? v.toString() : v));
      const y = JSON.stringify(b[key], (k, v) => (typeof v === 'bigint' ? v.toString() : v));
      if (x !== y) errs.push(`${what}: ${key}: ${x} vs ${y}`);
    }
  }
  return errs;
}

// JS figures vs DuckDB's SQL figures (count, nulls, min, max, sums)
function checkSql(sql, sum, cols) {
  const errs = [];
  let k = 0;
  const eq = (a, b, what) => {
    const same = typeof b === 'number' && typeof a === 'number'
      ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) : String(a) === String(b);
    if (!same) errs.push(`sql ${what}: duckdb ${b} vs scan ${a}`);
  };
  eq(BigInt(sum.count), BigInt(sql[k++]), 'count(*)');
  for (const c of cols) {
    const s = sum.columns[c.name];
    eq(s.nulls, BigInt(sql[k++]), `nulls(${c.name})`);
    if (['INT', 'BIGINT', 'FLOAT', 'DOUBLE'].includes(c.type)) {
      const isInt = c.type === 'INT' || c.type === 'BIGINT';
      const conv = (v) => (v === null ? null : isInt ? BigInt(v) : c.type === 'FLOAT' ? Math.fround(Number(v)) : Number(v));
      const mn = conv(sql[k++]), mx = conv(sql[k++]), sm = sql[k++];
      eq(s.min, mn, `min(${c.name})`);
      eq(s.max, mx, `max(${c.name})`);
      if (isInt)
        eq(s.sum, sm === null ? null : BigInt(sm), `sum(${c.name})`);
      else if ((s.sum === null) !== (sm === null)
        || (sm !== null && Math.abs(Number(s.sum) - sm) > 1e-9 * Math.max(1, Math.abs(sm))))
        errs.push(`sql sum(${c.name}): duckdb ${sm} vs scan ${s.sum}`);
    }
  }
  if (cols.some((c) => c.name === 'id' && c.type === 'BIGINT'))
    eq(BigInt(sum.distinct_ids), BigInt(sql[k++]), 'count(DISTINCT id)');
  return errs;
}

// A partitioned table's files are in k=v directories: DuckDB must read the
// partition columns from the files, as Paimon's readers do, not from the
// directory names (a DATE would come as its days, a null as the default name)
const NOHIVE = ', hive_partitioning = false';
const fileList = (paths) => '[' + paths.map((p) => `'${p.replace(/'/g, "''")}'`).join(', ') + ']';

// zsink's count and digest of each older snapshot (no DuckDB needed)
function snapshotFigures() {
  const snaps = {};
  for (const id of (opt.ids || '').split(',').filter((x) => x !== '')) {
    // "latest": a plain scan, of the table's latest schema
    if (!/^[0-9]+$/.test(id) && id !== 'latest')
      die(`--ids wants snapshot ids (or latest) separated by commas, not '${opt.ids}'`);
    const cols = id === 'latest' ? tableSchema(opt.table) : snapshotSchema(opt.table, id);
    const sum = summary(zsinkTally(opt.zsink, opt.table, cols, id === 'latest' ? undefined : id),
      cols);
    snaps[id] = { count: sum.count, distinct_ids: sum.distinct_ids, digest: sum.digest };
  }
  console.log(JSON.stringify({ ok: true, snapshots: snaps }));
}

function liveFiles() {
  return JSON.parse(execFileSync(opt.zsink, ['table', 'files', opt.table, '--json'],
    { encoding: 'utf8' })).files.map((f) => join(opt.table, f.path));
}

// DuckDB's count and matching files for each --where over the live files
async function whereCounts(conn) {
  const files = liveFiles();
  if (!files.length) die('where: the table has no live files');
  const root = opt.table.replace(/\/+$/, '') + '/';
  const res = [];
  for (const w of opt.where) {
    const r = (await conn.runAndReadAll(
      `SELECT filename, count(*) FROM read_parquet(${fileList(files)}${NOHIVE}, filename = true) WHERE ${w} GROUP BY filename ORDER BY filename`)).getRows();
    let count = 0n;
    const matching = [];
    for (const [f, n] of r) {
      count += BigInt(n);
      matching.push(f.startsWith(root) ? f.slice(root.length) : f);
    }
    res.push({ where: w, count: count.toString(), files_matching: matching });
  }
  console.log(JSON.stringify({ ok: true, files_total: files.length, results: res }));
}

async function main() {
  if (mode === 'snapshots') return snapshotFigures();
  if (isS3(opt.table || ''))
    die(`${mode}: DuckDB cannot read ${opt.table} here (s3:// needs its httpfs extension, `
      + 'downloaded at run time: not done); only `snapshots` takes an s3:// table');
  // DuckDB only where it is used: loading it costs a quarter of a second
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const errs = [];
  let out = {};

  if (mode === 'copy') {
    const extra = opt.options ? ', ' + opt.options : '';
    await conn.run(`COPY (${opt.sql}) TO '${opt.out.replace(/'/g, "''")}' (FORMAT parquet${extra})`);
    console.log(JSON.stringify({ ok: true, wrote: opt.out, bytes: statSync(opt.out).size }));
    return;
  }

  if (mode === 'where') return whereCounts(conn);

  if (mode === 'sql') {
    let rows = [];
    for (const stmt of opt.sql.split(/;\s*(?:\n|$)/).filter((x) => x.trim()))
      rows = (await conn.runAndReadAll(stmt)).getRowsJS();
    console.log(JSON.stringify(rows, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
    return;
  }

  if (mode === 'read-time') {
    // the live files whole, every column into DuckDB's memory (a temp
    // table; nothing converted to JavaScript), 3 times: the first and the best
    const files = JSON.parse(execFileSync(opt.zsink, ['table', 'files', opt.table, '--json'],
      { encoding: 'utf8' })).files.map((f) => join(opt.table, f.path));
    const runs = [];
    let rows = null;
    for (let i = 0; i < 3; i++) {
      const t0 = process.hrtime.bigint();
      await conn.run(`CREATE OR REPLACE TEMP TABLE whole AS SELECT * FROM read_parquet(${fileList(files)}${NOHIVE})`);
      runs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      rows = (await conn.runAndReadAll('SELECT count(*) FROM whole')).getRows()[0][0];
    }
    console.log(JSON.stringify({ reader: 'duckdb', what: 'read_parquet of the live files into a temp table',
      rows: Number(rows), first_ms: +runs[0].toFixed(1), best_ms: +Math.min(...runs).toFixed(1) }));
    return;
  }

  if (mode === 'layout') {
    const files = JSON.parse(execFileSync(opt.zsink, ['table', 'files', opt.table, '--json'],
      { encoding: 'utf8' })).files.map((f) => join(opt.table, f.path));
    const list = fileList(files);
    const m = (await conn.runAndReadAll(
      `SELECT count(DISTINCT (file_name, row_group_id)), list(DISTINCT compression) FROM parquet_metadata(${list})`)).getRows()[0];
    let best = Infinity, count = null;
    for (let i = 0; i < 3; i++) {
      const t0 = process.hrtime.bigint();
      count = (await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${list}${NOHIVE})`)).getRows()[0][0];
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
    }
    console.log(JSON.stringify({ ok: true, files: files.length, row_groups: Number(m[0]),
      codecs: m[1].items ?? m[1], count: count.toString(), count_ms: +best.toFixed(1) }));
    return;
  }

  if (mode === 'table' || mode === 'input') {
    const cols = atDuckPrecision(tableSchema(opt.table));
    const files = JSON.parse(execFileSync(opt.zsink, ['table', 'files', opt.table, '--json'],
      { encoding: 'utf8' })).files.map((f) => join(opt.table, f.path));
    // DuckDB must see the declared types (timestamps not WITH TIME ZONE)
    if (files.length) {
      const d = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${fileList(files)}${NOHIVE})`);
      d.getRows().forEach((r, k) => {
        const want = cols[k] && duckWant(cols[k]);
        if (!want || r[0] !== cols[k].name || fromDuck(r[1]).replace('(3)', '(6)') !== want.replace('(3)', '(6)'))
          errs.push(`duckdb sees column ${k + 1} as ${r[0]} ${r[1]}, the schema says ${cols[k] && cols[k].name} ${want}`);
      });
    }
    const from = files.length ? `read_parquet(${fileList(files)}${NOHIVE})`
      : `(SELECT ${cols.map((c) => `NULL::${toDuck(c.type)} AS ${q(c.name)}`).join(', ')} LIMIT 0)`;
    const duck = summary(await duckTally(conn, from, cols), cols);
    errs.push(...checkSql(await duckSql(conn, from, cols), duck, cols));
    if (mode === 'table') {
      const mine = summary(zsinkTally(opt.zsink, opt.table, cols), cols);
      errs.push(...compare(duck, mine, 'duckdb vs zsink'));
      if (opt.expect !== undefined) {
        const n = BigInt(opt.expect);
        const id = duck.columns.id;
        if (BigInt(duck.count) !== n || BigInt(duck.distinct_ids) !== n
          || (n > 0n && (id.min !== 1n || id.max !== n)))
          errs.push(`expected ids 1..${n} once each, duckdb has count ${duck.count}, distinct ${duck.distinct_ids}, min ${id.min}, max ${id.max}`);
      }
    } else {
      // the input, read by DuckDB with the table's columns
      let inputs = [opt.input];
      if (statSync(opt.input).isDirectory())
        inputs = readdirSync(opt.input).filter((f) => !f.startsWith('.')).sort().map((f) => join(opt.input, f));
      const columns = '{' + cols.map((c) => `${q(c.name).replace(/"/g, "'")}: '${toDuck(c.type)}'`).join(', ') + '}';
      const src = opt.format === 'csv'
        ? `read_csv(${fileList(inputs)}, header = true, columns = ${columns}, quote = '"', escape = '"', allow_quoted_nulls = false)`
        : `read_json(${fileList(inputs)}, format = 'newline_delimited', columns = ${columns})`;
      const want = summary(await duckTally(conn, src, cols), cols);
      errs.push(...compare(want, duck, 'input vs table'));
      out.input_count = want.count;
    }
    out = { ...out, files: files.length, count: duck.count, distinct_ids: duck.distinct_ids, digest: duck.digest };
  } else if (mode === 'file') {
    const d = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${opt.file}')`);
    const cols = d.getRows().map((r) => {
      const t = fromDuck(r[1]); // 'TIMESTAMP(6) LTZ': a TIMESTAMPTZ, zsink prints its 'Z'
      return t.endsWith(' LTZ') ? { name: r[0], type: t.slice(0, -4), ltz: true } : { name: r[0], type: t };
    });
    const from = `read_parquet('${opt.file}')`;
    const duck = summary(await duckTally(conn, from, cols), cols);
    errs.push(...checkSql(await duckSql(conn, from, cols), duck, cols));
    const mine = summary(zsinkTally(opt.zsink, opt.file, cols), cols);
    errs.push(...compare(duck, mine, 'duckdb vs zsink'));
    out = { count: duck.count, columns: cols.length, digest: duck.digest };
  } else die(`unknown mode '${mode}'`);

  if (errs.length) {
    console.log(JSON.stringify({ ok: false, errors: errs.slice(0, 20), ...out }));
    process.exit(1);
  }
  console.log(JSON.stringify({ ok: true, ...out }));
}

main().catch((e) => die(String(e && e.stack || e)));
