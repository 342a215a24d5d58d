// The security events summary's span in words (mock/src/traffic/routes.ts spanWords, and the summary route's defaults): a span of
// one moment, across midnight or a year, past year 9999, and a window given by one end only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Feed } from '../../../mock/src/feed';
import { StateStore, defaultState } from '../../../mock/src/state';
import { TrafficEngine } from '../../../mock/src/traffic/engine';
import { handleTrafficAdmin, spanWords, summarize, type SecuritySummary } from '../../../mock/src/traffic/routes';
import { ZONES } from '../../../mock/src/zones';

test('spanWords: one moment is said once ("at"), not "from 10:12:30 to 10:12:30"', () => {
  // An empty window (no request kept, no since/until) is the moment of the read: since = until = now.
  const t = Date.UTC(2026, 10, 27, 10, 12, 30, 100);
  assert.equal(spanWords(t, t), 'at 10:12:30 UTC on 2026-11-27');
  assert.equal(spanWords(t, t + 500), 'at 10:12:30 UTC on 2026-11-27', 'the same second as shown');
  assert.equal(summarize('z', 'start', [], t, t).sentences[0], '0 requests at 10:12:30 UTC on 2026-11-27 (migration state: start).');
  assert.equal(spanWords(t, t + 1000), 'from 10:12:30 to 10:12:31 UTC on 2026-11-27');
});

test('spanWords: across a year, and past year 9999 (ISO\'s six-digit years), each end keeps its whole date', () => {
  assert.equal(spanWords(Date.UTC(2026, 11, 31, 23, 59, 30), Date.UTC(2027, 0, 1, 0, 0, 30)), 'from 2026-12-31 23:59:30 to 2027-01-01 00:00:30 UTC');
  // "9999-12-31T23:00:00-02:00" is a since the route takes: the year 10000 is "+010000-01-01T01:00:00.000Z" in ISO.
  const y10k = Date.parse('9999-12-31T23:00:00-02:00');
  assert.equal(spanWords(y10k, y10k + 60_000), 'from 01:00:00 to 01:01:00 UTC on +010000-01-01');
  assert.equal(spanWords(Date.UTC(9999, 11, 31, 23), y10k), 'from 9999-12-31 23:00:00 to +010000-01-01 01:00:00 UTC');
});

test('the summary route never says a span backwards when only one end is given', () => {
  // since in the future with until left to the default (now), or until before the first request kept with since left to the
  // default: the summary said "from 2030-01-01 00:00:00 to 2026-11-27 10:00:00 UTC".
  const feed = new Feed();
  const store = new StateStore(defaultState());
  let t = Date.UTC(2026, 10, 27, 10);
  const engine = new TrafficEngine({ feed, store, paused: true, now: () => (t += 10) });
  const zone = ZONES[0];
  const now = Date.UTC(2026, 10, 27, 10);
  const read = (q: string) => {
    const r = handleTrafficAdmin(engine, store, 'GET', `/__edgekit/zones/${zone.id}/security/summary`, new URLSearchParams(q), '', now);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as SecuritySummary;
  };
  const future = read('since=2030-01-01T00:00:00Z');
  assert.ok(future.since <= future.until, `${future.since} .. ${future.until}`);
  assert.match(future.sentences[0], /^0 requests at 00:00:00 UTC on 2030-01-01 /);
  engine.step(3);
  const past = read('until=2020-01-01T00:00:00Z');
  assert.ok(past.since <= past.until, `${past.since} .. ${past.until}`);
  assert.match(past.sentences[0], /^0 requests at 00:00:00 UTC on 2020-01-01 /);
});
