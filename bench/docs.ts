// Deterministic benchmark documents: one generator per kind, each producing a valid document and the same document with about
// 100 injected errors (schema and semantic ones, never a syntax error: only the first syntax error is reported, so it would
// measure nothing). A seeded PRNG keeps every run byte-identical.
import type { DocKind } from '../server/src/core';
import { mulberry32 } from '../mock/src/prng';

export interface BenchDoc {
  /** Short name for tables, e.g. "batch-5000". */
  name: string;
  kind: DocKind;
  /** File name used for URIs (its suffix matches the kind's file pattern). */
  fileName: string;
  variant: 'valid' | 'errors';
  text: string;
  /** How many errors were injected (0 for the valid variant). */
  injected: number;
  /**
   * Offset just after the first member colon from the middle of the text on (inside a request of a batch, a rule of a ruleset):
   * inserting or deleting a space there keeps the JSON valid and the problems the same, and it is an edit INSIDE an item, the case
   * of a user typing in a request (not whitespace between items, which the server handles without parsing anything).
   */
  editOffset: number;
}

export const rng = mulberry32;

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const hex = (r: Rand, digits: number): string => {
  let s = '';
  for (let i = 0; i < digits; i++) s += '0123456789abcdef'[Math.floor(r() * 16)];
  return s;
};
const qty = (n: number): string => '0x' + n.toString(16);
/** Offset just after the first `":` (a key's closing quote, not an escaped one) after the first newline from the middle of the text. */
function middleEdit(text: string): number {
  const colonFrom = (from: number): number => {
    let i = text.indexOf('":', from);
    while (i > 0 && text[i - 1] === '\\') i = text.indexOf('":', i + 1); // skip \": inside strings
    return i;
  };
  // A job's second half is one long filter string: then the first member colon of the text.
  let i = colonFrom(Math.max(0, text.indexOf('\n', Math.floor(text.length / 2))));
  if (i < 0) i = colonFrom(0);
  if (i < 0) throw new Error('middleEdit: no member colon in the text');
  return i + 2;
}

// ---------------------------------------------------------------- Logpush filters (http_requests fields)

interface Cmp { key: string; operator: string; value: unknown }

const STRING_CMPS: ((r: Rand) => Cmp)[] = [
  (r) => ({ key: 'ClientRequestHost', operator: pick(r, ['eq', 'endsWith', 'contains']), value: pick(r, ['example.com', 'api.example.com', '.example.net']) }),
  (r) => ({ key: 'ClientCountry', operator: 'in', value: ['us', 'ca', 'gb', 'de', 'fr'].slice(0, int(r, 1, 5)) }),
  (r) => ({ key: 'ClientRequestPath', operator: pick(r, ['startsWith', '!startsWith', 'contains']), value: pick(r, ['/api/', '/static/', '/login']) }),
  (r) => ({ key: 'ClientRequestMethod', operator: pick(r, ['eq', '!eq']), value: pick(r, ['GET', 'POST', 'PUT']) }),
  (r) => ({ key: 'EdgeResponseStatus', operator: pick(r, ['geq', 'lt']), value: pick(r, [400, 500, '300']) }),
  (r) => ({ key: 'EdgeResponseStatus', operator: 'in', value: [200, 201, 204, 301, 302].slice(0, int(r, 2, 5)) }),
  (r) => ({ key: 'ClientIP', operator: pick(r, ['eq', '!eq']), value: `192.0.2.${int(r, 1, 254)}` }),
  (r) => ({ key: 'ClientRequestUserAgent', operator: pick(r, ['contains', '!contains']), value: pick(r, ['curl', 'bot', 'Mozilla']) }),
  (r) => ({ key: 'CacheCacheStatus', operator: pick(r, ['eq', '!eq']), value: pick(r, ['hit', 'miss', 'dynamic']) }),
  (r) => ({ key: 'WAFAttackScore', operator: pick(r, ['lt', 'leq']), value: int(r, 10, 40) }),
  (r) => ({ key: 'EdgeStartTimestamp', operator: 'gt', value: int(r, 1_700_000_000, 1_800_000_000) }),
  (r) => ({ key: 'ClientSSLProtocol', operator: 'eq', value: pick(r, ['TLSv1.2', 'TLSv1.3']) }),
];

/** A comparison with one injected error (an unknown field, an operator the type refuses, or a value of the wrong type). */
function badComparison(r: Rand, i: number): Cmp {
  switch (i % 3) {
    case 0: return { key: pick(r, ['ClientCountyr', 'ClientRequestHots', 'EdgeResponseStatsu', 'CacheCacheStat']), operator: 'eq', value: 'x' };
    case 1: return { key: 'EdgeResponseStatus', operator: 'startsWith', value: '4' };
    default: return { key: 'EdgeResponseStatus', operator: 'eq', value: 'not-a-number' };
  }
}

function comparisons(r: Rand, n: number, errors: number): Cmp[] {
  const out: Cmp[] = [];
  const every = errors ? n / errors : Infinity;
  let injected = 0;
  for (let i = 0; i < n; i++) {
    if (injected < errors && i >= Math.floor(injected * every)) out.push(badComparison(r, injected++));
    else out.push(pick(r, STRING_CMPS)(r));
  }
  return out;
}

/** {"where": {"and": [c, c, {"or": [c, c]}, ...]}}: groups of four comparisons, one nested "or" per group. */
function filterValue(cmps: Cmp[]): unknown {
  const and: unknown[] = [];
  for (let i = 0; i < cmps.length; i += 4) {
    const chunk = cmps.slice(i, i + 4);
    if (chunk.length >= 3) and.push(chunk[0], chunk[1], { or: chunk.slice(2) });
    else and.push(...chunk);
  }
  return { where: and.length === 1 ? and[0] : { and } };
}

export function filterDoc(variant: 'valid' | 'errors'): BenchDoc {
  const r = rng(1);
  // About 1 KB pretty-printed: 7 comparisons (under the 1000-byte / 30-operator platform limits once compacted).
  const n = 7;
  const errors = variant === 'errors' ? n : 0;
  const text = JSON.stringify(filterValue(comparisons(r, n, errors)), null, 2) + '\n';
  return { name: 'filter-1KB', kind: 'logpush-filter', fileName: 'bench.filter.json', variant, text, injected: errors, editOffset: middleEdit(text) };
}

export function jobDoc(variant: 'valid' | 'errors'): BenchDoc {
  const r = rng(2);
  const n = 100;
  const errors = variant === 'errors' ? 100 : 0;
  const filter = JSON.stringify(filterValue(comparisons(r, n, errors)));
  const job = {
    name: 'bench-http-requests',
    dataset: 'http_requests',
    enabled: true,
    kind: '',
    destination_conf: 's3://bench-logs/http/{DATE}?region=us-east-1',
    max_upload_bytes: 5_000_000,
    max_upload_records: 100_000,
    max_upload_interval_seconds: 60,
    output_options: {
      field_names: ['ClientIP', 'ClientRequestHost', 'ClientRequestMethod', 'ClientRequestURI', 'EdgeResponseStatus', 'EdgeStartTimestamp', 'RayID'],
      output_type: 'ndjson',
      timestamp_format: 'rfc3339',
      sample_rate: 1,
    },
    filter,
  };
  const text = JSON.stringify(job, null, 2) + '\n';
  return { name: 'job-100cmp', kind: 'logpush-job', fileName: 'bench.logpush.json', variant, text, injected: errors, editOffset: middleEdit(text) };
}

// ---------------------------------------------------------------- JSON-RPC batch

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const HEAD = 20_000_000;

function request(r: Rand, id: number): Record<string, unknown> {
  const addr = () => '0x' + hex(r, 40);
  const block = () => (r() < 0.5 ? 'latest' : qty(HEAD - int(r, 0, 100_000)));
  const roll = r();
  let method: string;
  let params: unknown[];
  if (roll < 0.22) {
    method = 'eth_getBalance';
    params = [addr(), block()];
  } else if (roll < 0.40) {
    method = 'eth_call';
    const call: Record<string, unknown> = { to: addr(), data: '0x70a08231' + '0'.repeat(24) + hex(r, 40) };
    if (r() < 0.5) call.from = addr();
    if (r() < 0.3) call.gas = qty(int(r, 21_000, 500_000));
    params = [call, block()];
  } else if (roll < 0.52) {
    method = 'eth_getLogs';
    const from = HEAD - int(r, 1000, 100_000);
    params = [{ fromBlock: qty(from), toBlock: qty(from + int(r, 0, 799)), address: addr(), topics: [TRANSFER, null, '0x' + '0'.repeat(24) + hex(r, 40)] }];
  } else if (roll < 0.58) {
    method = 'trace_filter';
    const from = HEAD - int(r, 1000, 100_000);
    params = [{ fromBlock: qty(from), toBlock: qty(from + int(r, 0, 799)), toAddress: [addr()], after: 0, count: int(r, 1, 200) }];
  } else if (roll < 0.68) {
    method = 'eth_getTransactionReceipt';
    params = ['0x' + hex(r, 64)];
  } else if (roll < 0.76) {
    method = 'eth_getBlockByNumber';
    params = [qty(HEAD - int(r, 0, 100_000)), r() < 0.5];
  } else if (roll < 0.82) {
    method = 'eth_estimateGas';
    params = [{ from: addr(), to: addr(), value: qty(int(r, 1, 1_000_000_000)) }];
  } else if (roll < 0.87) {
    method = 'eth_getCode';
    params = [addr(), 'latest'];
  } else if (roll < 0.91) {
    method = 'eth_feeHistory';
    params = [qty(int(r, 1, 10)), 'latest', [25, 75]];
  } else if (roll < 0.95) {
    method = 'eth_getStorageAt';
    params = [addr(), qty(int(r, 0, 20)), 'latest'];
  } else {
    method = pick(r, ['eth_blockNumber', 'eth_chainId', 'eth_gasPrice']);
    params = [];
  }
  return { jsonrpc: '2.0', method, params, id };
}

/** One injected error per call, cycling through envelope, method, param and limit errors. */
function breakRequest(req: Record<string, unknown>, i: number): void {
  switch (i % 6) {
    case 0: req.jsonrpc = '1.0'; break;
    case 1: req.method = 'eth_getBalanse'; req.params = ['0x' + 'ab'.repeat(20), 'latest']; break;
    case 2: req.method = 'eth_getBalance'; req.params = ['0x12345', 'latest']; break;
    case 3: req.jsonrpx = '2.0'; break;
    case 4: req.method = 'eth_getLogs'; req.params = [{ fromBlock: qty(HEAD - 5000), toBlock: qty(HEAD), address: '0x' + 'cd'.repeat(20) }]; break;
    default: req.id = true; break;
  }
}

export function batchDoc(variant: 'valid' | 'errors', count = 5000): BenchDoc {
  const r = rng(3);
  const errors = variant === 'errors' ? 100 : 0;
  const every = Math.floor(count / Math.max(errors, 1));
  const lines: string[] = [];
  let injected = 0;
  for (let i = 0; i < count; i++) {
    const req = request(r, i + 1);
    if (errors && i % every === every >> 1 && injected < errors) breakRequest(req, injected++);
    lines.push('  ' + JSON.stringify(req));
  }
  const text = '[\n' + lines.join(',\n') + '\n]\n';
  return { name: `batch-${count}`, kind: 'jsonrpc-request', fileName: `bench-${count}.rpc.json`, variant, text, injected, editOffset: middleEdit(text) };
}

// ---------------------------------------------------------------- WAF ruleset with long expressions

const EXPR_PARTS: ((r: Rand) => string)[] = [
  (r) => `http.host eq "${pick(r, ['example.com', 'api.example.com', 'shop.example.net'])}"`,
  (r) => `starts_with(http.request.uri.path, "${pick(r, ['/api/', '/admin/', '/wp-'])}")`,
  (r) => `http.request.uri.path matches "^/v[0-9]+/${pick(r, ['users', 'orders', 'items'])}"`,
  (r) => `ip.src in {192.0.2.0/24 198.51.100.${int(r, 1, 254)} 2001:db8::/32}`,
  (r) => `not ip.src.country in {"${pick(r, ['US', 'CA'])}" "${pick(r, ['GB', 'DE'])}" "FR"}`,
  (r) => `http.request.method in {"POST" "PUT" "${pick(r, ['PATCH', 'DELETE'])}"}`,
  (r) => `cf.threat_score gt ${int(r, 5, 50)}`,
  (r) => `cf.bot_management.score lt ${int(r, 10, 40)}`,
  (r) => `lower(http.user_agent) contains "${pick(r, ['curl', 'python-requests', 'sqlmap'])}"`,
  (r) => `http.request.uri.query contains "${pick(r, ['union select', '<script', '../'])}"`,
  (r) => `ip.src.asnum eq ${int(r, 1000, 65000)}`,
  (r) => `len(http.request.uri.query) gt ${int(r, 256, 2048)}`,
  () => `ssl`,
  (r) => `http.cookie contains "${pick(r, ['session=', 'token='])}"`,
];

function expression(r: Rand): string {
  const groups: string[] = [];
  const n = int(r, 3, 5);
  for (let g = 0; g < n; g++) {
    const parts: string[] = [];
    const m = int(r, 2, 4);
    for (let p = 0; p < m; p++) parts.push(pick(r, EXPR_PARTS)(r));
    groups.push(`(${parts.join(' and ')})`);
  }
  return groups.join(' or ');
}

export function rulesetDoc(variant: 'valid' | 'errors'): BenchDoc {
  const r = rng(4);
  const n = 200;
  const errors = variant === 'errors' ? 100 : 0;
  const rules: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const rule: Record<string, unknown> = {
      action: pick(r, ['block', 'managed_challenge', 'js_challenge', 'log', 'challenge']),
      expression: expression(r),
      description: `Rule ${i + 1}`,
      enabled: r() < 0.9,
    };
    if (errors && i % 2 === 1) {
      // 100 rules (every other one) get one error: an unknown field, an action outside the enum, a type mismatch, a bad regex.
      switch ((i >> 1) % 4) {
        case 0: rule.expression = String(rule.expression).replace('(', '(http.hots eq "example.com" and '); break;
        case 1: rule.action = 'blok'; break;
        case 2: rule.expression = String(rule.expression).replace('(', '(cf.threat_score gt "high" and '); break;
        default: rule.expression = String(rule.expression).replace('(', '(http.request.uri.path matches "^/(unclosed" and '); break;
      }
    }
    rules.push(rule);
  }
  const body = { name: 'bench-custom-rules', kind: 'zone', phase: 'http_request_firewall_custom', rules };
  const text = JSON.stringify(body, null, 2) + '\n';
  return { name: 'ruleset-200', kind: 'waf-ruleset', fileName: 'bench.ruleset.json', variant, text, injected: errors, editOffset: middleEdit(text) };
}

/** The eight documents of the in-process and end-to-end sections, valid before errors for each kind. */
export function benchDocs(): BenchDoc[] {
  const out: BenchDoc[] = [];
  for (const make of [filterDoc, jobDoc, batchDoc, rulesetDoc]) for (const v of ['valid', 'errors'] as const) out.push(make(v));
  return out;
}

// ---------------------------------------------------------------- documents of a given size (the LSP comparison with VS Code's JSON server)

/** The sizes of issue 18: every kind at about 0.2 KB, 1 KB and 10 KB. */
export const SIZES = [{ label: '0.2KB', bytes: 200 }, { label: '1KB', bytes: 1024 }, { label: '10KB', bytes: 10 * 1024 }] as const;

/** A kind's document with n "units" (comparisons, requests, rules), valid and realistic, for any n >= 1. */
const GROW: Record<DocKind, { short: string; fileName: string; make(n: number): string }> = {
  'logpush-filter': {
    short: 'filter', fileName: 'bench.filter.json',
    make: (n) => JSON.stringify(filterValue(comparisons(rng(11), n, 0)), null, 2) + '\n',
  },
  'logpush-job': {
    short: 'job', fileName: 'bench.logpush.json',
    make(n) {
      const job: Record<string, unknown> = { name: 'edge-http-requests', dataset: 'http_requests', enabled: true, destination_conf: 's3://bench-logs/http/{DATE}?region=us-east-1' };
      if (n > 1) {
        job.output_options = {
          field_names: ['ClientIP', 'ClientRequestHost', 'ClientRequestMethod', 'ClientRequestURI', 'EdgeResponseStatus', 'EdgeStartTimestamp', 'RayID'],
          output_type: 'ndjson', timestamp_format: 'rfc3339', sample_rate: 1,
        };
        job.max_upload_interval_seconds = 60;
      }
      job.filter = JSON.stringify(filterValue(comparisons(rng(12), n, 0)));
      return JSON.stringify(job, null, 2) + '\n';
    },
  },
  'jsonrpc-request': {
    short: 'rpc', fileName: 'bench.rpc.json',
    make(n) {
      const r = rng(13);
      if (n === 1) return JSON.stringify(request(r, 1), null, 2) + '\n';
      const lines: string[] = [];
      for (let i = 0; i < n; i++) lines.push('  ' + JSON.stringify(request(r, i + 1)));
      return '[\n' + lines.join(',\n') + '\n]\n';
    },
  },
  'waf-ruleset': {
    short: 'ruleset', fileName: 'bench.ruleset.json',
    make(n) {
      const r = rng(14);
      if (n === 1) return JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'ip.src in {192.0.2.0/24}' }] }, null, 2) + '\n';
      const rules: Record<string, unknown>[] = [];
      for (let i = 0; i < n - 1; i++) {
        rules.push({ action: pick(r, ['block', 'managed_challenge', 'js_challenge', 'log']), expression: expression(r), description: `Rule ${i + 1}`, enabled: r() < 0.9 });
      }
      return JSON.stringify({ name: 'custom-rules', kind: 'zone', phase: 'http_request_firewall_custom', rules }, null, 2) + '\n';
    },
  },
};

/** One valid document per kind and size (4 kinds x SIZES), each the n whose text is closest to the size. */
export function sizedDocs(): BenchDoc[] {
  const out: BenchDoc[] = [];
  for (const kind of ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'] as const) {
    const g = GROW[kind];
    for (const size of SIZES) {
      let best = g.make(1);
      for (let n = 2; n < 1000; n++) {
        const text = g.make(n);
        if (Math.abs(text.length - size.bytes) < Math.abs(best.length - size.bytes)) best = text;
        if (text.length > size.bytes * 1.5) break;
      }
      out.push({ name: `${g.short}-${size.label}`, kind, fileName: g.fileName, variant: 'valid', text: best, injected: 0, editOffset: middleEdit(best) });
    }
  }
  return out;
}

/**
 * A document of each kind with five mistakes that its JSON schema alone can see, one per line: both servers must report a
 * problem starting on each of those lines (the check that the peer really validates against our schemas).
 * `lines` are 0-based, in the order of the mistakes.
 */
export interface WrongDoc { kind: DocKind; fileName: string; text: string; mistakes: { line: number; what: string }[] }

export function wrongDocs(): WrongDoc[] {
  const make = (kind: DocKind, fileName: string, lines: string[]): WrongDoc => {
    const mistakes: { line: number; what: string }[] = [];
    const text = lines.map((l, i) => {
      const m = /\s*\/\/! (.*)$/.exec(l);
      if (!m) return l;
      mistakes.push({ line: i, what: m[1] });
      return l.slice(0, m.index);
    }).join('\n') + '\n';
    return { kind, fileName, text, mistakes };
  };
  return [
    make('logpush-filter', 'wrong.filter.json', [
      '{',
      '  "where": {',
      '    "and": [',
      '      { "key": "ClientRequestHost", "operator": "equals", "value": "example.com" }, //! operator outside the enum',
      '      { "key": "ClientCountry", "operator": "in", "value": ["us", { "code": "ca" }] }, //! array item of a wrong type',
      '      { "key": "EdgeResponseStatus", "operator": "geq", "value": { "min": 400 } }, //! value of a wrong type',
      '      { "keys": "ClientIP", "operator": "eq", "value": "192.0.2.1" }, //! unknown member',
      '      { "or": [] } //! empty "or"',
      '    ]',
      '  }',
      '}',
    ]),
    make('logpush-job', 'wrong.logpush.json', [
      '{',
      '  "name": "edge-http-requests",',
      '  "dataset": "http_requests",',
      '  "enabled": "yes", //! boolean expected',
      '  "kind": "cloud", //! kind outside the enum',
      '  "destination_conf": "s3://bench-logs/http/{DATE}?region=us-east-1",',
      '  "max_upload_bytes": -1, //! under the minimum',
      '  "output_options": {',
      '    "output_type": "json", //! output type outside the enum',
      '    "sample_rate": 2 //! over the maximum',
      '  },',
      '  "filter": ""',
      '}',
    ]),
    make('jsonrpc-request', 'wrong.rpc.json', [
      '[',
      '  { "jsonrpc": "1.0", "method": "eth_blockNumber", "params": [], "id": 1 }, //! jsonrpc other than "2.0"',
      '  { "jsonrpc": "2.0", "method": "eth_chainId", "params": [], "id": 2, "jsonrpx": "2.0" }, //! unknown member',
      '  { "jsonrpc": "2.0", "method": "eth_gasPrice", "params": [], "id": true }, //! id of a wrong type',
      '  { "jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0x12345", "latest"], "id": 4 }, //! malformed address',
      '  { "jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["latest", "yes"], "id": 5 } //! boolean expected',
      ']',
    ]),
    make('waf-ruleset', 'wrong.ruleset.json', [
      '{',
      '  "name": "custom-rules",',
      '  "kind": "zones", //! kind outside the enum',
      '  "phase": "http_request_firewall_custom",',
      '  "rules": [',
      '    { "action": "blok", "expression": "http.host eq \\"example.com\\"" }, //! action outside the enum',
      '    { "action": "block", "expression": "ip.src in {192.0.2.0/24}", "enabled": "yes" }, //! boolean expected',
      '    { "id": "xyz", "action": "log", "expression": "ssl" }, //! id that is not 32 hex digits',
      '    { "action": "log", "expression": "ssl", "descripton": "typo" } //! unknown member',
      '  ]',
      '}',
    ]),
  ];
}
