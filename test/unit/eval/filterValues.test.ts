// The Logpush filter evaluator refuses what the checker flags, and reads what it accepts as the checker reads it: a differential
// test over generated comparisons (field class x operator x value as written), the checker's errors against compileFilter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../server/src/core/prng';
import { compileFilter } from '../../../server/src/core/eval/filter';
import { validateText } from '../../../server/src/core/validate';
import { codeInfo, type Code } from '../../../server/src/core/codes';

const FIELDS = ['EdgeResponseStatus', 'BotScore', 'EdgeResponseCompressionRatio', 'ClientRequestHost', 'CacheReserveUsed', 'EdgeStartTimestamp',
  'BotDetectionIDs', 'BotDetectionTags'];
const OPS = ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'startsWith', 'contains', '!contains', 'in', '!in'];
const VALUES: unknown[] = [30, '30', ' 30 ', '1e3', '+5', '1.5', 1.5, '.5', '0403', '-0', 'abc', '', 'true', true, false, null, [], [200, 201],
  ['200', '201'], [1.5], ['a', 'b'], [true], '2026-11-26T08:00:00Z', 1700000000000000000, '9007199254740993', { a: 1 }];

const errorsOf = (filter: unknown): string[] => validateText(JSON.stringify({ $dataset: 'http_requests', where: filter }), 'logpush-filter', {})
  .filter((p) => codeInfo(p.code as Code).severity === 'error').map((p) => `${p.code}: ${p.message}`);

test('every generated comparison: compileFilter refuses exactly what the checker reports as an error', () => {
  const rnd = mulberry32(5);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  let refused = 0, compiled = 0;
  for (let i = 0; i < 3000; i++) {
    const c = { key: pick(FIELDS), operator: pick(OPS), value: pick(VALUES) };
    const errors = errorsOf(c);
    const compiledFilter = compileFilter({ where: c }, 'http_requests');
    assert.equal(compiledFilter.ok, errors.length === 0, `${JSON.stringify(c)}: checker ${JSON.stringify(errors)}, evaluator ${compiledFilter.ok ? 'compiled it' : compiledFilter.error}`);
    if (compiledFilter.ok) compiled++; else refused++;
  }
  assert.ok(compiled > 300 && refused > 300, `${compiled} compiled, ${refused} refused`);
});

test('ordering operators: a String field is refused (not read as a number); an Int field\'s "30" is the number 30, its "1e3" refused', () => {
  const c = compileFilter({ where: { key: 'ClientRequestHost', operator: 'lt', value: '5' } }, 'http_requests');
  assert.equal(c.ok, false);
  assert.match(c.ok ? '' : c.error, /"lt".*ClientRequestHost/);
  const thirty = compileFilter({ where: { key: 'BotScore', operator: 'lt', value: '30' } }, 'http_requests');
  assert.ok(thirty.ok);
  assert.equal(thirty.filter.test({ BotScore: 29 }), true);
  assert.equal(thirty.filter.test({ BotScore: 30 }), false);
  for (const value of ['1e3', '+5', '0403', '1.5', 1.5]) {
    const r = compileFilter({ where: { key: 'BotScore', operator: 'lt', value } }, 'http_requests');
    assert.equal(r.ok, false, JSON.stringify(value));
  }
  // eq on a String field compares text; a number there is refused, not compared as "403"
  assert.equal(compileFilter({ where: { key: 'ClientRequestHost', operator: 'eq', value: 403 } }, 'http_requests').ok, false);
});
