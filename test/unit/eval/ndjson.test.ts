// The NDJSON reader behind `edgekit test-filter`/`test-rules` and the editor's Test Filter/Test Rules requests: a file that cannot
// be read, or gzip that is cut short, ends the records with one error naming the file (and the last line read), never a throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { readNdjson, type FileStream, type NdjsonItem } from '../../../server/src/eval/ndjson';

async function all(file: string): Promise<NdjsonItem[]> {
  const out: NdjsonItem[] = [];
  for await (const item of readNdjson(file)) out.push(item);
  return out;
}

const LINES = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ ClientCountry: 'us', EdgeResponseStatus: 200 + (i % 7), RayID: `${i}`.padStart(16, '0') }));

test('a missing file, a directory and gzip cut inside its header are one fatal error naming the file, not a throw', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ndjson-'));
  try {
    const gz = gzipSync(LINES.join('\n') + '\n');
    const cut = path.join(dir, 'cut.ndjson.gz');
    fs.writeFileSync(cut, gz.subarray(0, 10));
    const cases: [string, RegExp][] = [
      [path.join(dir, 'none.ndjson'), /no such file/],
      [dir, /directory/],
      [cut, /cut short/],
    ];
    for (const [file, why] of cases) {
      const items = await all(file);
      assert.equal(items.length, 1, `${file}: ${JSON.stringify(items)}`);
      const [item] = items;
      assert.ok('error' in item && item.fatal === true, JSON.stringify(item));
      assert.ok(item.error.includes(file), item.error);
      assert.match(item.error, why);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('gzip cut in the middle: the records before the cut, then a fatal error naming the last line read', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ndjson-'));
  try {
    const gz = gzipSync(LINES.join('\n') + '\n');
    const cut = path.join(dir, 'cut.ndjson.gz');
    fs.writeFileSync(cut, gz.subarray(0, Math.floor(gz.length / 2)));
    const items = await all(cut);
    const last = items[items.length - 1];
    const records = items.filter((i) => 'record' in i);
    assert.ok(records.length > 0 && records.length < LINES.length, `${records.length} records`);
    assert.equal(items.length, records.length + 1, 'no other error than the last');
    assert.ok('error' in last && last.fatal === true, JSON.stringify(last));
    assert.match(last.error, new RegExp(`stopped after line ${records.length}\\b`));
    assert.match(last.error, /cut short/);
    // A JSON array cut short in gzip is the same fatal error, not a throw
    const arr = path.join(dir, 'arr.json.gz');
    const agz = gzipSync(JSON.stringify(LINES.map((l) => JSON.parse(l))));
    fs.writeFileSync(arr, agz.subarray(0, Math.floor(agz.length / 2)));
    const a = await all(arr);
    assert.equal(a.length, 1);
    assert.ok('error' in a[0] && a[0].fatal === true && a[0].error.includes(arr), JSON.stringify(a));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a bad line is named by its number and is not fatal', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ndjson-'));
  try {
    const file = path.join(dir, 'l.ndjson');
    fs.writeFileSync(file, `${LINES[0]}\n{"a":\n[1]\n${LINES[1]}\n`);
    const items = await all(file);
    assert.deepEqual(items.map((i) => ('record' in i ? i.line : `${i.line}:${'fatal' in i ? 'fatal' : 'bad'}`)), [1, '2:bad', '3:bad', 4]);
    assert.match((items[1] as { error: string }).error, /^line 2 is not JSON/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a line over the limit is reported by number and length without being kept whole (memory stays flat); UTF-8 split across chunks, CRLF, a BOM', async () => {
  // readline kept the whole line before the length check: 700 MB of memory for a 300 MB line, and a line past V8's string size failed
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ndjson-'));
  try {
    const file = path.join(dir, 'long.ndjson');
    const long = 48 * 1024 * 1024;
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, '{"a":1}\n{"b":"');
    const block = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < long / block.length; i++) fs.writeSync(fd, block);
    fs.writeSync(fd, '"}\n{"c":3}');
    fs.closeSync(fd);
    // Measured in a process of its own: the unit suite runs other tests beside this one in the same heap. Live memory, after a full
    // collection at each sample: the chunks already read are garbage until the collector runs, and on a loaded machine it ran late
    // enough to count 37 MB of them (CI); a line kept whole stays live, and is counted whenever the collector runs.
    const probe = path.join(dir, 'probe.ts');
    fs.writeFileSync(probe, [
      `import { readNdjson } from ${JSON.stringify(path.resolve(__dirname, '../../../server/src/eval/ndjson.ts'))};`,
      'const gc = (globalThis as { gc?: () => void }).gc!;',
      'gc(); const base = process.memoryUsage(); let peak = 0; const items: unknown[] = [];',
      'const sample = () => { gc(); const m = process.memoryUsage(); peak = Math.max(peak, m.heapUsed - base.heapUsed + m.arrayBuffers - base.arrayBuffers); };',
      'const timer = setInterval(sample, 5);',
      `(async () => { for await (const it of readNdjson(${JSON.stringify(file)})) items.push(it); clearInterval(timer); sample();`,
      '  console.log(JSON.stringify({ peak, items })); })();',
    ].join('\n'));
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe], { encoding: 'utf8', maxBuffer: 1 << 20 })) as { peak: number; items: NdjsonItem[] };
    const { peak, items } = out;
    assert.deepEqual(items.map((i) => i.line), [1, 2, 3]);
    assert.match((items[1] as { error: string }).error, new RegExp(`^line 2 is ${long + 8} characters long, over the 1048576-character limit`));
    assert.deepEqual((items[2] as { record: unknown }).record, { c: 3 }, 'a last line without a newline is read');
    assert.ok(peak < 24 * 1024 * 1024, `memory grew by ${(peak / 1024 / 1024).toFixed(1)} MB while reading a ${long >> 20} MB line`);

    // Multi-byte characters across the 64 KB chunks of the stream, CRLF line ends, a byte order mark before the first record
    const multi = path.join(dir, 'multi.ndjson');
    const rows = Array.from({ length: 3000 }, (_, i) => ({ i, s: 'é☁😀'.repeat(7 + (i % 5)) }));
    fs.writeFileSync(multi, '\uFEFF' + rows.map((r) => JSON.stringify(r)).join('\r\n'));
    const got = await all(multi);
    assert.equal(got.length, rows.length);
    assert.deepEqual(got.map((g) => (g as { record: unknown }).record), rows);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an integer past 2^53 in a line or a JSON array item is the bigint of its digits; other numbers stay the numbers JSON.parse gives', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ndjson-'));
  try {
    const lines = [
      '{"T": 1700000000123456789, "A": [1, -12345678901234567891], "N": {"x": 1700000000123456788}}',
      '{"T": 9007199254740992, "U": 1e20, "F": 1700000000123456789.5, "S": "1700000000123456789"}',
      '{"T": 200}',
    ];
    const file = path.join(dir, 'a.ndjson');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const arr = path.join(dir, 'b.json');
    fs.writeFileSync(arr, `[${lines.join(',')}]`);
    for (const f of [file, arr]) {
      const records = (await all(f)).map((i) => ('record' in i ? i.record : i));
      assert.deepEqual(records, [
        { T: 1700000000123456789n, A: [1, -12345678901234567891n], N: { x: 1700000000123456788n } },
        // Exact as doubles (2^53, 1e20), a fraction, a string: as JSON.parse reads them
        { T: 9007199254740992, U: 1e20, F: 1700000000123456789.5, S: '1700000000123456789' },
        { T: 200 },
      ], f);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// cl11 noticed: the reader opened the file three times (gzip's magic, "[" or not, then the records), reading its start at a fixed
// position, so a named pipe (`edgekit test-filter f.json <(zcat logs.gz)`, /dev/stdin) failed with "ESPIPE: invalid seek" or lost
// the bytes the first reads took. A pipe is read once: its first bytes tell gzip and "[" and are read again as records.
test('a named pipe is read once: NDJSON, gzip and a JSON array through a FIFO give every record', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ndjson-fifo-'));
  try {
    const plain = Buffer.from(LINES.join('\n') + '\n');
    const cases: [string, Buffer, number][] = [
      ['ndjson', plain, LINES.length],
      ['gzip', gzipSync(plain), LINES.length],
      ['array', Buffer.from(`\n  [${LINES.slice(0, 300).join(',\n')}]\n`), 300],
      ['gzip array', gzipSync(`[${LINES.slice(0, 300).join(',')}]`), 300],
    ];
    for (const [what, bytes, count] of cases) {
      const fifo = path.join(dir, `${what.replace(' ', '-')}.fifo`);
      execFileSync('mkfifo', [fifo]);
      // The writer opens the FIFO once the reader has (opening a FIFO for writing waits for a reader), then ends it.
      const written = new Promise<void>((resolve, reject) => fs.createWriteStream(fifo).on('error', reject).end(bytes, resolve));
      const items = await all(fifo);
      await written;
      const errors = items.filter((i) => 'error' in i);
      assert.deepEqual(errors, [], `${what}: ${JSON.stringify(errors.slice(0, 2))}`);
      assert.equal(items.length, count, what);
      const last = items[items.length - 1];
      assert.ok('record' in last && last.record.RayID === `${count - 1}`.padStart(16, '0'), `${what}: ${JSON.stringify(last)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// cl12: the file's stream was piped into gunzip with .pipe(), which forwards no error: a read error mid-file (EIO from a failing
// disk, a network file system gone) left gunzip waiting for bytes that never came, and the read never ended (the CLI and the
// editor's Test Filter hung). A plain file's error ended the read, naming the line but not where in the file. The stream here
// fails on purpose after some bytes; the test waits on the read itself (its timeout fails a hang, it is no wait).
test('a read error mid-file ends the read with an error naming the file, the last line read and the byte it stopped at: plain, gzip and a JSON array', { timeout: 30_000 }, async () => {
  const plain = Buffer.from(LINES.slice(0, 2000).join('\n') + '\n');
  const eio = () => Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5, syscall: 'read' });
  /** A file's stream as fs.createReadStream's (its bytesRead too) that gives `bytes` in chunks of 1000 up to `failAt`, then fails
   * with EIO, as a read of a failing disk does. */
  const failing = (bytes: Buffer, failAt: number) => () => {
    const stream = Object.assign(new Readable({
      read() {
        if (stream.bytesRead >= failAt) { this.destroy(eio()); return; }
        const end = Math.min(stream.bytesRead + 1000, failAt);
        const chunk = bytes.subarray(stream.bytesRead, end);
        stream.bytesRead = end;
        this.push(chunk);
      },
    }), { bytesRead: 0 });
    return stream;
  };
  const read = async (file: string, open: () => FileStream) => {
    const out: NdjsonItem[] = [];
    for await (const item of readNdjson(file, undefined, open)) out.push(item);
    return out;
  };
  const gz = gzipSync(plain);
  const cases: [string, Buffer, number][] = [['logs.ndjson', plain, 50_000], ['logs.ndjson.gz', gz, Math.floor(gz.length / 2)], ['logs.ndjson.gz', gz, 500]];
  for (const [file, bytes, failAt] of cases) {
    const items = await read(file, failing(bytes, failAt));
    const records = items.filter((i) => 'record' in i);
    const last = items[items.length - 1];
    assert.equal(items.length, records.length + 1, `${file} at ${failAt}: the records, then one error`);
    assert.ok('error' in last && last.fatal === true, JSON.stringify(last));
    assert.equal(last.error, records.length
      ? `reading ${file} stopped after line ${records.length}, at byte ${failAt} of the file: EIO: i/o error, read`
      : `reading ${file} stopped at byte ${failAt} of the file, before the end of line 1: EIO: i/o error, read`);
    assert.equal(last.line, records.length + 1);
  }
  // A JSON array file, read whole: the same error, from its first item.
  const array = Buffer.from(`[${LINES.slice(0, 2000).join(',')}]`);
  const items = await read('logs.json', failing(array, 20_000));
  assert.deepEqual(items, [{ line: 1, error: 'reading logs.json stopped at byte 20000 of the file: EIO: i/o error, read', fatal: true }]);
});
