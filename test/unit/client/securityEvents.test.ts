// The Security Events view keeps its zone across a window reload (ui3's walk: after a reload it was back at its welcome content,
// and the zone had to be picked again), for the backend it belongs to only: zone ids are a backend's own.
import { resetFake } from './vscode';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENTS_SHOWN, SecurityEventsView } from '../../../client/src/views/securityEvents';

beforeEach(() => resetFake());

class Memory {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined { return this.values.get(key) as T | undefined; }
  async update(key: string, value: unknown): Promise<void> { if (value === undefined) this.values.delete(key); else this.values.set(key, value); }
  keys(): readonly string[] { return [...this.values.keys()]; }
}

const ZONE = { id: 'z1', name: 'business.example' };

function sources(read: string[]) {
  return async () => ({
    api: { securityEvents: async (zoneId: string) => { read.push(zoneId); return { ok: true as const, result: [{ RayID: 'r1', Action: 'block', Source: 'waf', RuleID: '100001', Datetime: '2026-11-27T00:00:00Z' }] }; } },
    mock: { securitySummary: async () => ({ ok: true as const, result: { state: 'start', requests: 10, since: 'a', until: 'b', sentences: [], previous: { acted: 1, actions: { block: 1 } }, new: { acted: 0, actions: {} } } }) },
  }) as never;
}

test('a zone shown is there again in the next window of the same backend, read when the view first asks for it', async () => {
  const state = new Memory();
  let backend = 'embedded';
  const first = new SecurityEventsView(sources([]), { state, backend: () => backend });
  await first.show(ZONE as never);
  first.dispose();

  const read: string[] = [];
  const again = new SecurityEventsView(sources(read), { state, backend: () => backend });
  assert.deepEqual(read, [], 'nothing read before the view is shown (the commands bundle loads with a view\'s first refresh)');
  const roots = await again.getChildren();
  assert.deepEqual(read, ['z1']);
  assert.equal(roots[0].label, 'business.example');
  assert.match(String(roots[0].description), /previous rules only · 10 requests/);
  assert.equal(roots.at(-1)!.label, 'Latest events (1)');
  again.dispose();

  // Another backend: not restored.
  backend = 'remote:https://api.example';
  const other = new SecurityEventsView(sources([]), { state, backend: () => backend });
  assert.deepEqual(await other.getChildren(), []);
  other.dispose();
});

test('a zone forgotten (the backend changed) is not restored', async () => {
  const state = new Memory();
  const view = new SecurityEventsView(sources([]), { state, backend: () => 'embedded' });
  await view.show(ZONE as never);
  view.clear();
  view.dispose();
  const next = new SecurityEventsView(sources([]), { state, backend: () => 'embedded' });
  assert.deepEqual(await next.getChildren(), []);
});

test('the zone\'s tooltip says the summary\'s span as the first sentence does, not two ISO stamps', async () => {
  // ui6's walk: the tree's first line said "from 10:12:30 to 10:20:25 UTC on 2026-11-27", its zone's tooltip still
  // "from 2026-11-27T10:12:30.000Z to 2026-11-27T10:20:25.000Z".
  const { summarize } = await import('../../../mock/src/traffic/routes');
  const summary = summarize('z1', 'validation', [], Date.UTC(2026, 10, 27, 10, 12, 30), Date.UTC(2026, 10, 27, 10, 20, 25));
  const view = new SecurityEventsView(async () => ({
    api: { securityEvents: async () => ({ ok: true as const, result: [] }) },
    mock: { securitySummary: async () => ({ ok: true as const, result: JSON.parse(JSON.stringify(summary)) }) },
  }) as never);
  await view.show(ZONE as never);
  const [zone] = await view.getChildren();
  assert.equal(zone.tooltip, 'Security events of business.example from 10:12:30 to 10:20:25 UTC on 2026-11-27.');
  view.dispose();
});

test('a screen reader hears the zone\'s state and request count, not only its tooltip', async () => {
  // ux1: VS Code's tree reads a string tooltip instead of the label and description, so the zone's line was read as "Security
  // events of business.example from a to b." without "previous rules only · 10 requests".
  const view = new SecurityEventsView(sources([]));
  await view.show(ZONE as never);
  const [zone, ...rest] = await view.getChildren();
  assert.equal(zone.description, 'previous rules only · 10 requests');
  assert.equal((zone.accessibilityInformation as { label: string } | undefined)?.label,
    'business.example, previous rules only, 10 requests. Security events of business.example from a to b.');
  // Without a string tooltip VS Code reads the label and the description itself.
  for (const node of rest) assert.equal(node.accessibilityInformation, undefined, String(node.label));
  view.dispose();
});

test('a settings change that leaves the backend as it was keeps the zone; another backend forgets it', async () => {
  // The view was cleared on every change event of edgekit.backend, also one that named the backend already in use (a workspace
  // value equal to the user's, a settings file written again): the zone had to be picked again, and a host test that showed a
  // zone right after a switch back lost it to the event's late delivery.
  const state = new Memory();
  let backend = 'embedded';
  const view = new SecurityEventsView(sources([]), { state, backend: () => backend });
  await view.show(ZONE as never);
  view.backendChanged();
  assert.equal(view.zone?.id, 'z1', 'the same backend: kept');
  backend = 'remote:https://api.example';
  view.backendChanged();
  assert.equal(view.zone, undefined, 'another backend: forgotten');
  // A zone restored from an earlier window belongs to the backend it was kept for.
  backend = 'embedded';
  await view.show(ZONE as never);
  view.dispose();
  const restored = new SecurityEventsView(sources([]), { state, backend: () => backend });
  restored.backendChanged();
  assert.equal(restored.zone?.id, 'z1');
  backend = 'remote:https://api.example';
  restored.backendChanged();
  assert.equal(restored.zone, undefined);
  restored.dispose();
});

test('a zone with more events than the view shows says of how many: "Latest 50 of 9000 events"', async () => {
  // It said "Latest events (50)", as if the zone had 50.
  const events = Array.from({ length: EVENTS_SHOWN }, (_, i) => ({ RayID: `r${i}`, Action: 'block', Source: 'waf', RuleID: '100001', Datetime: '2026-11-27T00:00:00Z' }));
  const view = new SecurityEventsView(async () => ({ api: { securityEvents: async () => ({ ok: true as const, result: events, total: 9000 }) } }) as never);
  await view.show(ZONE as never);
  assert.equal((await view.getChildren()).at(-1)!.label, `Latest ${EVENTS_SHOWN} of 9000 events`);
  view.dispose();
});
