// The generated sample as rules-language requests (Test Rules on the sample, and the mock's traffic against a zone's rules): the
// fields a request to that URI has on the platform. Without them a rule on the extension, the query arguments or the request time
// matched none of the sample's requests, though /wp-login.php, /xmlrpc.php and ?q=1' OR '1'='1 are among them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression } from '../../../server/src/core/eval/rules';
import { sampleRequests, toRequestRecord } from '../../../server/src/core/eval/sample';

const line = (uri: string) => {
  const q = uri.indexOf('?');
  return toRequestRecord({ ClientRequestHost: 'example.com', ClientRequestURI: uri, ClientRequestPath: q < 0 ? uri : uri.slice(0, q), ClientRequestUserAgent: 'curl/8',
    ClientIP: '198.51.100.7', ClientCountry: 'us', ClientRequestMethod: 'GET', ClientRequestProtocol: 'HTTP/2', BotScore: 10, WAFAttackScore: 20,
    EdgeStartTimestamp: '2026-11-24T00:00:05.250Z' });
};

test('a request record has its path extension, query arguments and request time', () => {
  const r = line('/blog/Index.PHP?q=1&q=2&lang=en&flag');
  assert.equal(r['http.request.uri.path.extension'], 'php');
  assert.deepEqual(r['http.request.uri.args'], { q: ['1', '2'], lang: ['en'], flag: [''] });
  assert.deepEqual(r['http.request.uri.args.names'], ['q', 'q', 'lang', 'flag']);
  assert.deepEqual(r['http.request.uri.args.values'], ['1', '2', 'en', '']);
  assert.equal(r['http.request.timestamp.sec'], Date.UTC(2026, 10, 24, 0, 0, 5) / 1000);
  assert.equal(r['http.request.timestamp.msec'], 250);
  assert.equal(line('/')['http.request.uri.path.extension'], '');
  assert.equal(line('/v1.2/users')['http.request.uri.path.extension'], '');
  assert.deepEqual(line('/')['http.request.uri.args'], {});
  // A query argument named like a member of Object.prototype is an argument, not a prototype
  const proto = line('/?__proto__=x&constructor=y')['http.request.uri.args'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(proto), ['__proto__', 'constructor']);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
});

test('rules on those fields match the sample\'s hostile requests', () => {
  const requests = sampleRequests(1000);
  const count = (expr: string) => {
    const c = compileExpression(expr);
    assert.ok(c.ok, expr);
    return requests.filter((r) => c.expression.test(r)).length;
  };
  const php = requests.filter((r) => String(r['http.request.uri.path']).endsWith('.php')).length;
  assert.ok(php > 0);
  assert.equal(count('http.request.uri.path.extension eq "php"'), php);
  const union = requests.filter((r) => String(r['http.request.uri.query']).includes('UNION')).length;
  assert.ok(union > 0);
  assert.equal(count('any(http.request.uri.args.values[*] contains "UNION")'), union);
  // one second apart from 2026-11-24T00:00:00Z
  assert.equal(count('http.request.timestamp.sec ge 1795478400 and http.request.timestamp.sec lt 1795479400'), 1000);
  assert.equal(count('http.request.timestamp.sec lt 1795478500'), 100);
});

test('the sample has WorkerSubrequest, and the example filter the walkthrough points at lets some of it through', async () => {
  // "Test Filter on Logs…" on examples/suspicious-api-traffic.filter.json (the walkthrough's "See what a filter keeps") reported
  // 0 of 1 000: the sample had no WorkerSubrequest (a bool of http_requests that filters commonly pin to false, to leave out a
  // Worker's own subrequests), so `WorkerSubrequest eq false` matched no line; and the example's path prefix "/v1/" is on none of
  // the sample's API paths (/api/v1/...).
  const { compileFilter } = await import('../../../server/src/core/eval/filter');
  const { sampleHttpRequests } = await import('../../../server/src/core/eval/sample');
  const { readFileSync } = await import('node:fs');
  const lines = sampleHttpRequests(1000);
  const plain = compileFilter({ where: { key: 'WorkerSubrequest', operator: 'eq', value: false } }, 'http_requests');
  assert.ok(plain.ok);
  assert.equal(lines.filter((l) => plain.filter.test(l)).length, 1000);
  const example = JSON.parse(readFileSync(new URL('../../../examples/suspicious-api-traffic.filter.json', import.meta.url), 'utf8'));
  const c = compileFilter(example, example.$dataset);
  assert.ok(c.ok);
  const matched = lines.filter((l) => c.filter.testCounting(l)).length;
  assert.ok(matched > 0, 'the example filter matches some sample lines');
  // The job in examples/api-security.logpush.json carries the same filter as its string.
  const job = JSON.parse(readFileSync(new URL('../../../examples/api-security.logpush.json', import.meta.url), 'utf8'));
  const { $dataset: _, ...filter } = example;
  assert.deepEqual(JSON.parse(job.filter), filter);
});
