// Hostile inputs: nesting 100 000 levels deep, a 50 MB file, invalid UTF-8, huge numbers, 1 MB strings and keys, lone surrogates,
// NUL bytes. Every case must complete with an answer that keeps the contract (checkAll); none is timed, bounds are counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import { validateText } from '../../../server/src/core/validate';
import { MAX_NESTING, parseDocument, tooDeepAt } from '../../../server/src/core/parse';
import { MAX_EXPR_CONDITIONS, MAX_EXPR_NESTING } from '../../../server/src/core/rules/ruleset/exprParser';
import { complete, hover, lenses } from '../../../server/src/core/assist';
import { DOC_KINDS, type DocKind } from '../../../server/src/core/types';
import { BY_KIND, checkAll, runSettings, VALUES } from './harness';

// The sizes of the fast suite; test/stress/hostile.stress.ts runs this same file with EDGEKIT_STRESS=1 at the full sizes
// (100 000 levels, 1 MB strings, a 5.3 MB document over the default size limit).
const FULL = process.env.EDGEKIT_STRESS === '1';
const DEEP = FULL ? 100_000 : 12_000;
const BIG_STRING = FULL ? 1 << 20 : 1 << 16;
const RAISED = FULL ? { mb: 5.3, limitKB: 6144 } : { mb: 1.2, limitKB: 1536 };
const JOB = { dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1' };
const ruleset = (expression: string) => JSON.stringify({ rules: [{ action: 'skip', expression, action_parameters: { ruleset: 'current' } }] });

function offsetsOf(text: string): number[] {
  return [0, 1, 2, Math.floor(text.length / 2), text.length - 1, text.length];
}

// ---------------------------------------------------------------------------------------------------------------- nesting

const DEEP_DOCS: Record<string, string> = {
  'arrays': '['.repeat(DEEP) + ']'.repeat(DEEP),
  'objects': '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP),
  'unclosed arrays': '['.repeat(DEEP),
  'unclosed objects': '{"a":'.repeat(DEEP),
  'mixed, one bracket short': '[{"a":'.repeat(DEEP / 2) + 'null' + '}]'.repeat(DEEP / 2 - 1) + '}',
  'filter groups': '{"where":' + '{"and":['.repeat(DEEP / 2) + '{"key":"ClientIP","operator":"eq","value":"1"}' + ']}'.repeat(DEEP / 2) + '}',
  'jsonrpc params': '{"jsonrpc":"2.0","method":"eth_call","id":1,"params":' + '['.repeat(DEEP) + ']'.repeat(DEEP) + '}',
};

for (const [name, text] of Object.entries(DEEP_DOCS)) {
  test(`nesting ${DEEP} deep (${name}): one limits/too-deep problem in every kind, features answer`, () => {
    for (const kind of DOC_KINDS) {
      const problems = checkAll(text, kind, offsetsOf(text));
      assert.deepEqual(problems.map((p) => p.code), ['limits/too-deep'], kind);
      assert.equal(problems[0].severity, 'error');
      assert.ok(problems[0].offset > 0 && problems[0].offset < text.length);
      assert.match(problems[0].message, /more than 512 levels/);
    }
  });
}

test(`nesting exactly ${MAX_NESTING} is checked; one level more is not`, () => {
  const at = (n: number) => '{"jsonrpc":"2.0","method":"eth_blockNumber","id":1,"params":[],"x":' + '['.repeat(n - 1) + ']'.repeat(n - 1) + '}';
  const inside = checkAll(at(MAX_NESTING), 'jsonrpc-request', [10]);
  assert.ok(!inside.some((p) => p.code === 'limits/too-deep'));
  assert.ok(inside.some((p) => p.code !== 'limits/too-deep'), 'the document under the limit is checked');
  assert.deepEqual(checkAll(at(MAX_NESTING + 1), 'jsonrpc-request', [10]).map((p) => p.code), ['limits/too-deep']);
});

test('filter groups nested just under the limit are checked by the rules without overflowing', () => {
  const levels = Math.floor((MAX_NESTING - 4) / 2);
  const text = '{"where":' + '{"and":['.repeat(levels) + '{"key":"ClientIP","operator":"eq","value":"1"}' + ']}'.repeat(levels) + '}';
  const problems = checkAll(text, 'logpush-filter', offsetsOf(text));
  assert.ok(!problems.some((p) => p.code === 'limits/too-deep'));
  const job = JSON.stringify({ ...JOB, filter: text });
  assert.ok(!checkAll(job, 'logpush-job', offsetsOf(job)).some((p) => p.code === 'limits/too-deep'));
});

test(`a job whose filter string nests ${DEEP} deep: the problem sits inside the filter string`, () => {
  for (const inner of [DEEP_DOCS.arrays, DEEP_DOCS['filter groups'], DEEP_DOCS['unclosed objects']]) {
    const text = JSON.stringify({ ...JOB, filter: inner });
    const problems = checkAll(text, 'logpush-job', [...offsetsOf(text), text.indexOf('"filter"') + 12]);
    const deep = problems.filter((p) => p.code === 'limits/too-deep');
    assert.equal(deep.length, 1);
    const start = text.indexOf('"filter"') + '"filter":"'.length;
    assert.ok(deep[0].offset >= start && deep[0].offset + deep[0].length <= text.length - 2, 'inside the string');
    assert.equal(text[deep[0].offset], inner[MAX_NESTING] === '[' ? '[' : text[deep[0].offset]);
  }
});

test('the depth scan never undercounts what jsonc-parser recurses into (random bracket soup)', () => {
  const { numRuns, seed } = runSettings(FULL ? 3000 : 100, 4242);
  const soup = fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', ':', ',', '1', '/', '*', '\n', ' ', '"a"', '"a":', '//', '/*', '*/'), { maxLength: 60 }).map((a) => a.join(''));
  fc.assert(fc.property(soup, fc.integer({ min: 1, max: 6 }), (text, limit) => {
    let depth = 0, max = 0;
    const down = () => { depth++; max = Math.max(max, depth); };
    const up = () => { depth--; };
    visit(text, { onObjectBegin: down, onArrayBegin: down, onObjectEnd: up, onArrayEnd: up }, { disallowComments: true });
    if (tooDeepAt(text, limit) < 0) assert.ok(max <= limit, `jsonc-parser went ${max} deep, the scan said at most ${limit}`);
  }), { numRuns, seed });
});

// ---------------------------------------------------------------------------------------------------------------- expressions

const DEEP_EXPRESSIONS: Record<string, string> = {
  'parentheses': '('.repeat(DEEP) + 'true' + ')'.repeat(DEEP),
  'unclosed parentheses': '('.repeat(DEEP),
  'not': 'not '.repeat(DEEP) + 'ssl',
  '!': '!'.repeat(DEEP) + 'ssl',
  // The chains are shorter (still ten times the bound): each term costs a token and a node, and the suite must stay fast.
  'function calls': 'lower('.repeat(DEEP / 5) + 'http.host' + ')'.repeat(DEEP / 5) + ' eq "a"',
  'and chain': Array(DEEP / 5).fill('ssl').join(' and '),
  'mixed chain': Array(DEEP / 5).fill('ssl').join(' or not ('),
};

for (const [name, expr] of Object.entries(DEEP_EXPRESSIONS)) {
  test(`an expression nested or chained far past the bounds (${name}): limits/too-deep inside the expression string, no rule failure`, () => {
    const text = ruleset(expr);
    const problems = checkAll(text, 'waf-ruleset', offsetsOf(text));
    assert.deepEqual(problems.filter((p) => p.code === 'limits/too-deep').length, 1);
    assert.ok(problems.some((p) => p.code === 'ruleset/expr-too-long'));
  });
}

test('a parenthesized expression within 4096 bytes that used to overflow the parser is reported, not crashed on', () => {
  // 976 levels overflowed before the nesting bound: 1956 bytes, well inside the platform's limit.
  const text = ruleset('('.repeat(980) + 'ssl' + ')'.repeat(980));
  const problems = checkAll(text, 'waf-ruleset', offsetsOf(text));
  assert.deepEqual(problems.map((p) => p.code), ['limits/too-deep']);
});

test(`nesting ${MAX_EXPR_NESTING} levels and ${MAX_EXPR_CONDITIONS} operators is still checked`, () => {
  const nested = ruleset('('.repeat(MAX_EXPR_NESTING) + 'ip.src eq 1.2.3.4' + ')'.repeat(MAX_EXPR_NESTING));
  assert.deepEqual(checkAll(nested, 'waf-ruleset').map((p) => p.code), []);
  assert.deepEqual(checkAll(ruleset('('.repeat(MAX_EXPR_NESTING + 1) + 'ssl' + ')'.repeat(MAX_EXPR_NESTING + 1)), 'waf-ruleset').map((p) => p.code), ['limits/too-deep']);
  const chain = Array(MAX_EXPR_CONDITIONS + 1).fill('ssl').join(' or ');
  assert.ok(!checkAll(ruleset(chain), 'waf-ruleset').some((p) => p.code === 'limits/too-deep'));
  assert.ok(checkAll(ruleset(chain + ' or ssl'), 'waf-ruleset').some((p) => p.code === 'limits/too-deep'));
});

// ---------------------------------------------------------------------------------------------------------------- size

test('a 50 MB file: exactly one information diagnostic, and nothing is parsed (no phase polls for cancellation)', () => {
  const item = '{"jsonrpc":"2.0","method":"eth_blockNumber","params":[],"id":1},';
  const text = '[' + item.repeat(Math.ceil((50 * 1024 * 1024) / item.length)).slice(0, -1) + ']';
  assert.ok(text.length >= 50 * 1024 * 1024);
  for (const kind of DOC_KINDS) {
    let polls = 0;
    const problems = validateText(text, kind, { isCancelled: () => { polls++; return false; } });
    assert.equal(problems.length, 1);
    assert.equal(problems[0].code, 'limits/file-too-large');
    assert.equal(problems[0].severity, 'information');
    assert.match(problems[0].message, /^The file is 5120\d KB \(52,428,\d{3} bytes of UTF-8\), over edgekit\.maxFileSizeKB \(5120 KB\)/);
    assert.equal(polls, 0, 'the size check comes before any phase');
  }
});

test('just over the default limit: one information diagnostic; at the limit: a full check', () => {
  const limit = 5120 * 1024;
  const pad = (n: number) => { const head = '{"jsonrpc":"2.0","method":"eth_blockNumber","params":[],"id":1,"x":"'; return head + 'a'.repeat(n - head.length - 2) + '"}'; };
  assert.deepEqual(validateText(pad(limit + 1), 'jsonrpc-request').map((p) => [p.code, p.severity]), [['limits/file-too-large', 'information']]);
  const full = validateText(pad(limit), 'jsonrpc-request');
  assert.ok(!full.some((p) => p.code === 'limits/file-too-large'));
  assert.ok(full.some((p) => p.code === 'jsonrpc/unknown-member' || p.code === 'schema/unknown-property'), JSON.stringify(full.map((p) => p.code)));
});

test('edgekit.maxFileSizeKB counts the UTF-8 bytes of the text (what a file\'s size on disk is), and the message says so', () => {
  // 1,024 "é" are 1,024 UTF-16 code units but 2,048 bytes of UTF-8: over a 1 KB limit. The check compared code units, so a file
  // of non-ASCII text could be several times the size the setting names and still be checked.
  const text = `{"x": "${'é'.repeat(1024)}"}`;
  const over = validateText(text, 'jsonrpc-request', { maxFileSizeKB: 2 });
  assert.deepEqual(over.map((p) => p.code), ['limits/file-too-large']);
  assert.match(over[0].message, /^The file is 3 KB \(2,057 bytes of UTF-8\), over edgekit\.maxFileSizeKB \(2 KB\)/);
  assert.ok(!validateText(text, 'jsonrpc-request', { maxFileSizeKB: 3 }).some((p) => p.code === 'limits/file-too-large'));
  // A character beyond the BMP (a surrogate pair) is 4 bytes; a lone surrogate is written as U+FFFD, 3 bytes.
  const astral = `{"x": "${'😀'.repeat(256)}"}`; // 512 code units, 1,024 + 9 bytes
  assert.match(validateText(astral, 'jsonrpc-request', { maxFileSizeKB: 1 })[0].message, /\(1,033 bytes of UTF-8\)/);
});

test(`a ${RAISED.mb} MB document with the size limit raised: a full check that completes (the 50 MB version is in test/stress)`, () => {
  const item = '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0x1"],"id":1},';
  const text = '[' + item.repeat(Math.ceil((RAISED.mb * 1024 * 1024) / item.length)).slice(0, -1) + ']';
  let polls = 0;
  const problems = validateText(text, 'jsonrpc-request', { maxFileSizeKB: RAISED.limitKB, isCancelled: () => { polls++; return false; } });
  assert.ok(polls >= 2, 'the schema and rule phases ran');
  assert.equal(problems.length, 1001, 'maxProblems (1000) plus the summary');
  assert.equal(problems[1000].code, 'limits/too-many-problems');
  assert.ok(!problems.some((p) => /Internal error/.test(p.message)));
});

// ---------------------------------------------------------------------------------------------------------------- content

/** Each corpus document of a kind with `piece` spliced in at every string and every number. */
function spliced(kind: DocKind, make: (old: unknown) => unknown): string[] {
  const out: string[] = [];
  for (const base of VALUES[kind].slice(0, FULL ? 12 : 4)) {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string' || typeof v === 'number') return make(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    out.push(JSON.stringify(walk(base)));
  }
  return out;
}

test('invalid UTF-8, decoded as the CLI decodes files (U+FFFD), inside and around documents', () => {
  const bad = [Buffer.from([0xff]), Buffer.from([0xc3, 0x28]), Buffer.from([0xe2, 0x82]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf0, 0x90, 0x80]), Buffer.from([0xc0, 0xaf])];
  for (const kind of DOC_KINDS) {
    for (const sample of BY_KIND[kind].slice(0, 8)) {
      const raw = Buffer.from(sample.text, 'utf8');
      for (const b of bad) {
        for (const at of [0, Math.floor(raw.length / 3), raw.indexOf(0x22) + 1, raw.length]) {
          const text = Buffer.concat([raw.subarray(0, at), b, raw.subarray(at)]).toString('utf8');
          assert.ok(text.includes('\ufffd'));
          checkAll(text, kind, [at, text.length]);
        }
      }
    }
    checkAll(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]).toString('utf8'), kind, [0, 3]); // UTF-16 LE read as UTF-8
    checkAll(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]).toString('utf8'), kind, [0, 1]); // a UTF-8 byte order mark
  }
});

test('huge and odd numbers everywhere a number or string goes', () => {
  const numbers = ['1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '0.0000000000000000000000001', '9007199254740993', '1E+2'];
  for (const kind of DOC_KINDS) {
    for (const n of numbers) {
      for (const text of spliced(kind, () => `@@${n}@@`)) {
        const raw = text.replace(/"@@([^@]*)@@"/g, '$1');
        checkAll(raw, kind, [0, raw.length >> 1]);
      }
    }
  }
});

/** The corpus value with the first string member (or, with key, the first member name) replaced. */
function replaceFirst(v: unknown, by: string, key: boolean): unknown {
  let done = false;
  const walk = (x: unknown): unknown => {
    if (done) return x;
    if (typeof x === 'string' && !key) { done = true; return by; }
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') {
      return Object.fromEntries(Object.entries(x).map(([k, y]) => {
        if (key && !done) { done = true; return [by, y]; }
        return [k, walk(y)];
      }));
    }
    return x;
  };
  return walk(v);
}

test(`${BIG_STRING >> 10} KB strings and keys in every kind: complete, and messages stay short`, () => {
  const big = 'k'.repeat(BIG_STRING);
  const short = (problems: { code: string; message: string }[]) => {
    for (const p of problems) assert.ok(p.message.length <= 1000, `${p.code}: a ${p.message.length}-character message`);
  };
  for (const kind of DOC_KINDS) {
    const docs = [
      JSON.stringify({ [big]: big }), `{"${big}`, `"${big}`,
      ...VALUES[kind].slice(0, 1).flatMap((v) => [JSON.stringify(replaceFirst(v, big, false)), JSON.stringify(replaceFirst(v, big, true))]),
    ];
    for (const text of docs) short(checkAll(text, kind, [text.length >> 1]));
  }
  const job = JSON.stringify({ ...JOB, filter: JSON.stringify({ where: { key: big, operator: 'eq', value: big } }) });
  short(checkAll(job, 'logpush-job', [job.length >> 1]));
  const expr = ruleset(`http.host eq "${big}" and ${big} eq 1`);
  short(checkAll(expr, 'waf-ruleset', [expr.length >> 1]));
});

test('lone surrogates and NUL bytes, raw and escaped, in keys, values and expressions', () => {
  const pieces = ['\ud800', '\udc00', '\u0000', '\\ud800', '\\udfff', '\\u0000', '\ud800\u0000\udc00', '\u0007\u001b[31m'];
  for (const kind of DOC_KINDS) {
    for (const piece of pieces) {
      for (const text of spliced(kind, (old) => `${String(old)}${piece}`)) {
        checkAll(text, kind, [0, text.length >> 1]);
        // Raw (unescaped) inside the JSON text: an invalid character for JSON, still an answer.
        const raw = text.replace(/\\\\u/g, '\\u').replace(/\\u0000/g, '\u0000');
        checkAll(raw, kind, [raw.length >> 1]);
      }
      checkAll(`{"${piece}": "${piece}"}`, kind, [2]);
      checkAll(piece, kind, [0, 1]);
    }
  }
  const expressions = ['http.host eq "\ud800"', 'http.host eq "\u0000"', '\ud800 eq 1', 'ip.src in {1.2.3.4\u0000}', 'lower(\udc00)'];
  for (const e of expressions) checkAll(ruleset(e), 'waf-ruleset', [30, 40]);
});

test('features at every offset of a small broken document of each kind (no exception, spans inside)', () => {
  for (const kind of DOC_KINDS) {
    const sample = BY_KIND[kind].find((s) => s.text.length < 400) ?? BY_KIND[kind][0];
    const broken = sample.text.slice(0, Math.floor(sample.text.length * 0.6)) + '\u0000"\ud800,,]';
    const doc = parseDocument(broken);
    for (let o = 0; o <= broken.length; o++) { complete(kind, doc, o); hover(kind, doc, o); }
    lenses(kind, doc);
    checkAll(broken, kind, [0, broken.length]);
  }
});
