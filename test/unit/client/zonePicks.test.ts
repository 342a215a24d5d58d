// The zone picks' hints from the Zones view (client/src/commands/api.ts zoneHints, pickZone, pickZoneOrAccount, pickAccount) with the
// stand-in `vscode` module: which backend the view read, when, what it said of each zone, and a backend with nothing to pick.
import { fake, resetFake } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDED_MOCK, pickAccount, pickZone, pickZoneOrAccount, zoneHints } from '../../../client/src/commands/api';
import { UserError } from '../../../client/src/commands/run';
import { JobItem, ZoneItem, ZonesView } from '../../../client/src/views/zones';
import { MIGRATION_STATES, migrationStateLabel, zoneStateWords, type Api } from '../../../client/src/http/api';

beforeEach(() => resetFake());

const EMBEDDED = 'http://127.0.0.1:8787/client/v4';
const STANDALONE = 'http://127.0.0.1:9797/client/v4';
const zones = [
  { id: 'z1', name: 'a.example', plan: { legacy_id: 'business' } },
  { id: 'z2', name: 'b.example', plan: { legacy_id: 'pro' } },
];
const ok = <T>(result: T) => ({ ok: true as const, result, messages: [] });
/** `source`: whose zones the API reads (Api.source), its base URL but for the embedded mock (EMBEDDED_MOCK on any port). */
const apiAt = (baseUrl: string, listed = zones, accounts: { id: string; name: string }[] = [], source = baseUrl) =>
  ({ baseUrl, source, listZones: async () => ok(listed), listAccounts: async () => ok(accounts), status: async () => ok({ migration_state: 'start' }) }) as unknown as Api;
/** A Zones view as the picks read it: b.example selected, a.example migrated and b.example not, read from `from` at `at`. */
const viewOf = (from: string, at = Date.now()) => ({
  zones: {
    view: { selection: [{ zone: zones[1] }] },
    items: [{ zone: zones[0], status: { migration_state: 'migrated' } }, { zone: zones[1], status: { migration_state: 'start' } }],
    itemsFrom: from, itemsAt: at,
  },
}) as never;

test('the zone pick takes no hint from a Zones view that read another backend (same zone ids, other states)', async () => {
  // The embedded mock and a standalone mock (edgekit.backend "remote") have the same zone ids. The view, hidden, was not read again
  // after the switch: the pick said "migrated" of a zone the backend in use had never migrated, and put the other backend's
  // selected zone first, marked "selected in the Zones view".
  fake.quickPickAnswers = ['a.example'];
  await pickZone(apiAt(STANDALONE), undefined, 'Migrate which zone?', undefined, zoneHints(viewOf(EMBEDDED)));
  const asked = fake.quickPicks.at(-1)!;
  assert.deepEqual(asked.labels, ['a.example', 'b.example']);
  assert.deepEqual(asked.descriptions, ['business · z1', 'pro · z2']);
  assert.deepEqual(asked.details, [undefined, undefined]);
  // The same backend: the hints apply.
  fake.quickPickAnswers = ['b.example'];
  await pickZone(apiAt(EMBEDDED), undefined, 'Migrate which zone?', undefined, zoneHints(viewOf(EMBEDDED)));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['b.example', 'a.example']);
  assert.deepEqual(fake.quickPicks.at(-1)!.descriptions, ['pro · migration not started · z2', 'business · migrated · z1']);
  // Nor does the zone-or-account pick take the other backend's selection.
  fake.quickPickAnswers = ['a.example'];
  await pickZoneOrAccount(apiAt(STANDALONE), undefined, 't', zoneHints(viewOf(EMBEDDED)));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['a.example', 'b.example']);
  assert.deepEqual(fake.quickPicks.at(-1)!.details, [undefined, undefined]);
});

test('the zone pick says when the Zones view read the migration states it shows (a migration elsewhere is not in them)', async () => {
  // A migration run from the CLI, another window or after a mock reset is not in what the view read: the states are as of then.
  fake.quickPickAnswers = ['a.example'];
  await pickZone(apiAt(EMBEDDED), undefined, 't', undefined, zoneHints(viewOf(EMBEDDED, Date.UTC(2026, 10, 26, 10, 12, 30))));
  assert.equal(fake.quickPicks.at(-1)!.placeHolder, 'Pick a zone (migration states as the Zones view read them at 2026-11-26 10:12 UTC)');
  // No state to show (nothing read from this backend): the placeholder says nothing of states.
  fake.quickPickAnswers = ['a.example'];
  await pickZone(apiAt(STANDALONE), undefined, 't', undefined, zoneHints(viewOf(EMBEDDED, Date.UTC(2026, 10, 26, 10, 12, 30))));
  assert.equal(fake.quickPicks.at(-1)!.placeHolder, 'Pick a zone');
});

test('the zone pick says "status unavailable" of a zone whose status the view could not read, as the view does', async () => {
  // The view said "status unavailable"; the pick said nothing, as of a zone the view never read.
  const ctx = {
    zones: {
      view: { selection: [] },
      items: [{ zone: zones[0], status: undefined, problem: 'GET /zones/z1/status: HTTP 500' }, { zone: zones[1], status: { migration_state: 'validation' } }],
      itemsFrom: EMBEDDED, itemsAt: Date.now(),
    },
  } as never;
  fake.quickPickAnswers = ['a.example'];
  await pickZone(apiAt(EMBEDDED), undefined, 't', undefined, zoneHints(ctx));
  assert.deepEqual(fake.quickPicks.at(-1)!.descriptions, ['business · status unavailable · z1', 'pro · validation mode · z2']);
});

test('a zone offered first for the job selected under it says so, not that the zone itself is selected', async () => {
  const ctx = { zones: { view: { selection: [{ place: { owner: { zone: 'z2' }, ownerName: 'b.example' } }] }, items: [], itemsFrom: EMBEDDED, itemsAt: Date.now() } } as never;
  fake.quickPickAnswers = ['b.example'];
  await pickZone(apiAt(EMBEDDED), undefined, 't', undefined, zoneHints(ctx));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['b.example', 'a.example']);
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['owns the job selected in the Zones view', undefined]);
  fake.quickPickAnswers = ['b.example'];
  await pickZoneOrAccount(apiAt(EMBEDDED), undefined, 't', zoneHints(ctx));
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['owns the job selected in the Zones view', undefined]);
});

test('the Zones view records which backend it read its zones from, and when', async () => {
  const api = { baseUrl: EMBEDDED, source: EMBEDDED, listZones: async () => ok(zones), status: async () => ok({ migration_state: 'start' }), listAccounts: async () => ok([]) } as unknown as Api;
  const view = new ZonesView(async () => api);
  const before = Date.now();
  await view.getChildren();
  assert.equal(view.itemsFrom, EMBEDDED);
  assert.ok(view.itemsAt !== undefined && view.itemsAt >= before && view.itemsAt <= Date.now());
  // A backend that cannot be reached: nothing read, nothing to hint from.
  const broken = new ZonesView(async () => { throw new Error('no credentials'); });
  await broken.getChildren();
  assert.equal(broken.itemsFrom, undefined);
});

// fl1: the extension-host tests read the view's items after awaiting getChildren() ("migrate a Pro zone": migrated); a read the
// tree view started meanwhile (the command's refresh, once the EdgeKit side bar is open) made theirs a superseded one, which
// returned at once without setting the items, so the test read the states of before the migration.
test('a read of the Zones view that a newer one overlaps resolves once the newest has set the items', async () => {
  let state = 'start';
  const answers: (() => void)[] = [];
  const api = {
    baseUrl: EMBEDDED, source: EMBEDDED, listAccounts: async () => ok([]),
    listZones: () => new Promise((resolve) => { answers.push(() => resolve(ok(zones))); }),
    status: async () => ok({ migration_state: state }),
  } as unknown as Api;
  const view = new ZonesView(async () => api);
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const first = view.getChildren();
  await turn();
  answers[0]();
  await first;
  assert.equal(view.items[0].status?.migration_state, 'start');
  state = 'migrated'; // a command migrated the zones, then refreshed the view
  const mine = view.getChildren(); // the caller's read
  const tree = view.getChildren(); // the tree view's, started by the refresh
  let mineDone = false;
  void mine.then(() => { mineDone = true; });
  await turn();
  answers[1]();
  await turn();
  assert.equal(mineDone, false, 'the superseded read waits for the newest');
  answers[2]();
  const got = await mine;
  assert.deepEqual(view.items.map((i) => i.status?.migration_state), ['migrated', 'migrated']);
  assert.deepEqual(got.map((i) => (i as ZoneItem).status?.migration_state), ['migrated', 'migrated']);
  await tree;
});

test('the Zones view\'s hints outlive a restart of the embedded mock on another port (the same zones), not a switch of backend', async () => {
  // rv37: the view keyed what it read on the base URL, and edgekit.mock.port is 0 (any free port) by default: after a Stop and
  // Start of the embedded mock, whose state file keeps its zones, the picks took nothing from the view.
  const view = new ZonesView(async () => apiAt(EMBEDDED, zones, [], EMBEDDED_MOCK));
  await view.getChildren();
  assert.equal(view.itemsFrom, EMBEDDED_MOCK);
  fake.quickPickAnswers = ['a.example'];
  await pickZone(apiAt('http://127.0.0.1:8788/client/v4', zones, [], EMBEDDED_MOCK), undefined, 't', undefined, zoneHints({ zones: view } as never));
  assert.deepEqual(fake.quickPicks.at(-1)!.descriptions, ['business · migration not started · z1', 'pro · migration not started · z2']);
  // A standalone mock at the port the embedded one had: another backend, no hints.
  fake.quickPickAnswers = ['a.example'];
  await pickZone(apiAt(EMBEDDED), undefined, 't', undefined, zoneHints({ zones: view } as never));
  assert.deepEqual(fake.quickPicks.at(-1)!.descriptions, ['business · z1', 'pro · z2']);
});

test('a backend with no zone (or account) to pick says so instead of an empty pick', async () => {
  // An API token that sees no zone: the pick opened empty, "No matching results", with nothing to say why.
  const empty = apiAt('https://api.example/client/v4', [], []);
  await assert.rejects(pickZone(empty, undefined, 'Migrate which zone?'), (e: Error) => e instanceof UserError && /^No zone at https:\/\/api\.example\/client\/v4 to pick from \(the API listed none for these credentials\)\.$/.test(e.message));
  await assert.rejects(pickAccount(empty, undefined, 't'), (e: Error) => e instanceof UserError && /^No account at https:\/\/api\.example\/client\/v4 to pick from/.test(e.message));
  await assert.rejects(pickZoneOrAccount(empty, undefined, 't'), (e: Error) => e instanceof UserError && /^No zone or account at https:\/\/api\.example\/client\/v4 to pick from/.test(e.message));
  // Each pick showed the read (busy, nothing listed) and closed with it: none offered an empty list.
  assert.deepEqual(fake.quickPicks.map((q) => [q.busy, q.labels.length]), [[true, 0], [true, 0], [true, 0]]);
  assert.deepEqual(fake.quickInputs, []);
});

test('the account pick (an account dataset\'s job) offers the account selected in the Zones view, or owning the job selected, first', async () => {
  // The zone and the zone-or-account picks did; the account pick listed the accounts in the API's order.
  const accounts = [{ id: 'acc1', name: 'First Account' }, { id: 'acc2', name: 'Second Account' }];
  const api = apiAt(EMBEDDED, zones, accounts);
  const selecting = (sel: unknown, from = EMBEDDED) => zoneHints({ zones: { view: { selection: [sel] }, items: [], itemsFrom: from, itemsAt: Date.now() } } as never);
  fake.quickPickAnswers = ['Second Account'];
  assert.equal((await pickAccount(api, undefined, 't', undefined, selecting({ account: accounts[1] }))).id, 'acc2');
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['Second Account', 'First Account']);
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['selected in the Zones view', undefined]);
  fake.quickPickAnswers = ['Second Account'];
  await pickAccount(api, undefined, 't', undefined, selecting({ place: { owner: { account: 'acc2' }, ownerName: 'Second Account' } }));
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['owns the job selected in the Zones view', undefined]);
  // Another backend's view: the API's order.
  fake.quickPickAnswers = ['First Account'];
  await pickAccount(api, undefined, 't', undefined, selecting({ account: accounts[1] }, STANDALONE));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['First Account', 'Second Account']);
});

test('a filter on a state\'s word in the zone pick finds only the zones in that state (it matches descriptions on substrings)', async () => {
  // Typing "migrated" in the pick also offered the zones "not migrated": VS Code's quick pick matches a description when it holds
  // the typed text anywhere (matchOnDescription). So no word of one state's words may be within another's.
  const states = [...MIGRATION_STATES.map((s) => migrationStateLabel(s)), zoneStateWords(undefined, 'HTTP 403')];
  assert.equal(new Set(states).size, states.length, states.join(' | '));
  for (const a of states) {
    for (const b of states) {
      if (a === b) continue;
      for (const word of a.split(/\W+/)) assert.ok(!b.toLowerCase().includes(word.toLowerCase()), `"${word}" (of "${a}") is within "${b}"`);
    }
  }
  // In the pick itself, with a state read for each zone.
  const all = MIGRATION_STATES.map((s, i) => ({ id: `z${i}`, name: `${s}.example`, plan: { legacy_id: 'pro' } }));
  const view = { zones: { view: { selection: [] }, items: all.map((z, i) => ({ zone: z, status: { migration_state: MIGRATION_STATES[i] } })), itemsFrom: EMBEDDED, itemsAt: Date.now() } } as never;
  fake.quickPickAnswers = ['start.example'];
  await pickZone(apiAt(EMBEDDED, all), undefined, 't', undefined, zoneHints(view));
  const asked = fake.quickPicks.at(-1)!;
  assert.equal(asked.matchOnDescription, true);
  for (const [i, s] of MIGRATION_STATES.entries()) {
    for (const word of migrationStateLabel(s).split(/\W+/)) {
      const found = asked.labels.filter((_l, j) => asked.descriptions[j]!.toLowerCase().includes(word.toLowerCase()));
      assert.deepEqual(found, [all[i].name], `a filter on "${word}"`);
    }
  }
});

test('a Logpush delivery selected in the Zones view offers its job\'s zone (or account) first, and says why', async () => {
  // A delivery under a job gave the picks no hint: a selected job's zone was offered first, a selected delivery's was not.
  const view = new ZonesView(async () => apiAt(EMBEDDED));
  const delivery = { id: 'd1', jobId: 7, status: 'delivered', at: '2026-11-27T10:00:00Z', records: 3, bytes: 90, object: 'logs/20261127/a.log.gz', destination: 'r2://logs' };
  const place = { owner: { zone: 'z2' }, ownerName: 'b.example' };
  const job = new JobItem({ id: 7, name: 'b-http', dataset: 'http_requests', enabled: true }, undefined, [delivery as never], place);
  const [item] = await view.getChildren(job);
  const ctx = { zones: { view: { selection: [item] }, items: [], itemsFrom: EMBEDDED, itemsAt: Date.now() } } as never;
  fake.quickPickAnswers = ['b.example'];
  await pickZone(apiAt(EMBEDDED), undefined, 't', undefined, zoneHints(ctx));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['b.example', 'a.example']);
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['owns the job of the delivery selected in the Zones view', undefined]);
  fake.quickPickAnswers = ['b.example'];
  await pickZoneOrAccount(apiAt(EMBEDDED), undefined, 't', zoneHints(ctx));
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['owns the job of the delivery selected in the Zones view', undefined]);
  // An account's job: the account pick.
  const accounts = [{ id: 'acc1', name: 'First Account' }, { id: 'acc2', name: 'Second Account' }];
  const accountJob = new JobItem({ id: 8, name: 'audit', dataset: 'audit_logs', enabled: true }, undefined, [delivery as never], { owner: { account: 'acc2' }, ownerName: 'Second Account' });
  const [accountDelivery] = await view.getChildren(accountJob);
  fake.quickPickAnswers = ['Second Account'];
  await pickAccount(apiAt(EMBEDDED, zones, accounts), undefined, 't', undefined, zoneHints({ zones: { view: { selection: [accountDelivery] }, items: [], itemsFrom: EMBEDDED, itemsAt: Date.now() } } as never));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['Second Account', 'First Account']);
});

test('a zone\'s tooltip says its state once: "State: migration not started", not "Migration state: migration not started"', () => {
  // rv12: the state words now carry "migration" themselves, and the tooltip's label said it again.
  for (const state of MIGRATION_STATES) {
    const tip = String((new ZoneItem(zones[0] as never, { migration_state: state, old_rules_enabled: true, new_rules_enabled: false } as never).tooltip as { value: string }).value);
    assert.match(tip, new RegExp(`- State: \\*\\*${migrationStateLabel(state)}\\*\\* \\(\`${state}\`\\)`), tip);
    assert.doesNotMatch(tip, /migration state: \*\*migration/i, tip);
  }
});

test('a zone (or account) without Logpush jobs says how to create one, in the command\'s own title (ui15)', () => {
  // ui15's walk: "no Logpush jobs" under a zone, and nothing said where a job comes from (Create Logpush Job runs on a job
  // document, from its title bar or the palette; the view has no button for it).
  const none = new JobItem(undefined);
  assert.equal(none.label, 'no Logpush jobs');
  assert.match(String(none.description), /\*\.logpush\.json/);
  const tip = String(typeof none.tooltip === 'string' ? none.tooltip : (none.tooltip as { value: string } | undefined)?.value);
  assert.match(tip, /"EdgeKit: Create Logpush Job"/);
  assert.match(tip, /\*\.logpush\.json/);
  // A list that could not be read keeps its reason, and no such advice
  const failed = new JobItem(undefined, 'API said 403');
  assert.equal(failed.label, 'API said 403');
  assert.equal(failed.description, undefined);
});

/** An API whose zone and account lists answer when the test says (`answer`), as a slow backend does. */
function slowApi(baseUrl = EMBEDDED) {
  let answer!: (r: unknown) => void;
  const listed = new Promise((resolve) => { answer = resolve; });
  const api = { baseUrl, listZones: () => listed, listAccounts: () => listed } as unknown as Api;
  return { api, listed, answer: (r: unknown) => answer(r) };
}

test('the zone and account picks open at once, busy, saying what they read, and are filled when the list arrives', async () => {
  // ux1's audit: the list was read first, with no progress, and the pick showed up only when the backend answered.
  const { api, answer } = slowApi();
  fake.quickPickAnswers = ['b.example'];
  const picked = pickZone(api, undefined, 'Migrate which zone?');
  assert.deepEqual(fake.quickPicks.map((q) => ({ title: q.title, placeHolder: q.placeHolder, busy: q.busy, labels: q.labels })),
    [{ title: 'Migrate which zone?', placeHolder: `Reading the zones of ${EMBEDDED}…`, busy: true, labels: [] }], 'on screen before the list arrives');
  answer(ok(zones));
  assert.equal((await picked).id, 'z2');
  assert.deepEqual([fake.quickPicks[0].busy, fake.quickPicks[0].placeHolder, fake.quickPicks[0].labels], [false, 'Pick a zone', ['a.example', 'b.example']]);
  assert.deepEqual(fake.quickInputs, [], 'closed once answered');
  assert.ok(fake.madeQuickInputs.every((q) => q.disposed), 'and disposed');
  // The account and the zone-or-account picks the same way.
  for (const [ask, reading] of [[pickAccount, 'accounts'], [pickZoneOrAccount, 'zones and accounts']] as const) {
    const slow = slowApi();
    fake.quickPickAnswers = ['acc2'];
    const p = ask(slow.api, undefined, 't');
    assert.deepEqual([fake.quickPicks.at(-1)!.busy, fake.quickPicks.at(-1)!.placeHolder], [true, `Reading the ${reading} of ${EMBEDDED}…`]);
    slow.answer(ok([{ id: 'a1', name: 'acc1', plan: { legacy_id: 'pro' } }, { id: 'a2', name: 'acc2', plan: { legacy_id: 'pro' } }]));
    await p;
  }
});

test('Escape while a pick reads its list ends the question then; the list (or the read\'s failure) arriving later shows nothing', async () => {
  for (const late of [ok(zones), { ok: false, kind: 'network', error: 'Cannot list zones: connection refused (is the server running?) (ECONNREFUSED)', errors: [], ms: 1, curl: '' }]) {
    resetFake();
    const { api, listed, answer } = slowApi();
    fake.quickPickAnswers = [undefined];
    // Rejected before the backend answers: the command does not wait for a read its user left.
    await assert.rejects(pickZone(api, undefined, 'Migrate which zone?'), (e: Error) => e.constructor.name === 'CancellationError');
    answer(late);
    await listed;
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(fake.quickPicks.map((q) => [q.busy, q.labels]), [[true, []]], 'no pick filled or shown again');
    assert.deepEqual(fake.quickInputs, []);
    assert.deepEqual(fake.messages, []);
  }
});

test('a list that cannot be read closes the pick and says why, with the way forward', async () => {
  const refused = (kind: string, status?: number) => ({ ok: false, kind, ...(status ? { status } : {}), error: `Cannot list zones: ${kind === 'network' ? 'connection refused (is the server running?) (ECONNREFUSED)' : 'HTTP 403'}`, errors: [], ms: 1, curl: '' });
  const failing = (r: unknown, baseUrl = EMBEDDED) => ({ baseUrl, listZones: async () => r, listAccounts: async () => r }) as unknown as Api;
  // The embedded mock stopped (by another window, a crash): start it again.
  await assert.rejects(pickZone(failing(refused('network')), undefined, 't'), (e: UserError) =>
    /^Cannot list zones: connection refused .*The embedded mock backend at http:\/\/127\.0\.0\.1:8787\/client\/v4 did not answer/.test(e.message)
    && e.actions.map((a) => a.command).join() === 'edgekit.mock.start');
  // A remote API that cannot be reached: its address.
  fake.settings.set('backend', 'remote');
  await assert.rejects(pickAccount(failing(refused('network'), 'https://api.example/client/v4'), undefined, 't'), (e: UserError) =>
    /Is the management API at https:\/\/api\.example\/client\/v4 up, and is "edgekit\.api\.baseUrl" its address\?$/.test(e.message)
    && e.actions[0].title === 'Set edgekit.api.baseUrl');
  // Credentials that may not read the list.
  await assert.rejects(pickZoneOrAccount(failing(refused('http', 403), 'https://api.example/client/v4'), undefined, 't'), (e: UserError) =>
    /^Cannot list zones: HTTP 403 Set credentials that may read it\.$/.test(e.message) && e.actions.map((a) => a.command).join() === 'edgekit.setApiCredentials');
  assert.deepEqual(fake.quickInputs, [], 'every pick closed');
  assert.ok(fake.madeQuickInputs.every((q) => q.disposed));
});

// rv35: a second command's pick opening while the first still reads its list (VS Code shows one quick input at a time, and the
// stand-in now hides the one on screen as VS Code does): the first question ends then, and its list arriving later shows nothing.
test('a pick that reads its list, hidden by another command\'s pick, ends; the other is answered as if alone', async () => {
  const first = slowApi();
  const second = slowApi();
  fake.quickPickAnswers = ['b.example'];
  const hidden = pickZone(first.api, undefined, 'Migrate which zone?');
  const asked = pickZone(second.api, undefined, 'Create a Logpush job in which zone?');
  await assert.rejects(hidden, (e: Error) => e.constructor.name === 'CancellationError');
  assert.deepEqual(fake.quickInputs.map((q) => q.title), ['Create a Logpush job in which zone?']);
  first.answer(ok(zones));
  second.answer(ok(zones));
  assert.equal((await asked).id, 'z2');
  assert.deepEqual(fake.quickPicks.map((q) => [q.title, q.busy, q.labels.length]), [['Migrate which zone?', true, 0], ['Create a Logpush job in which zone?', false, 2]]);
  assert.deepEqual(fake.quickInputs, []);
});

// mt5: two changes to the picks that every test above let through (the single account's pick, a timeout read).
test('one account to pick from is taken without a question (the pick that showed the read closes)', async () => {
  const api = apiAt(EMBEDDED, zones, [{ id: 'acc1', name: 'Only Account' }]);
  assert.equal((await pickAccount(api, undefined, 't')).id, 'acc1');
  // The busy pick showed the read, and nothing else was asked: no list of one to confirm.
  assert.deepEqual(fake.quickPicks.map((q) => [q.busy, q.labels]), [[true, []]]);
  assert.deepEqual(fake.quickInputs, []);
});

test('a list read that timed out says what a refused connection says: the embedded mock did not answer, start it again', async () => {
  const timedOut = { ok: false, kind: 'timeout', error: 'Cannot list zones: no answer within 30 s', errors: [], ms: 30_000, curl: '' };
  const api = { baseUrl: EMBEDDED, source: EMBEDDED, listZones: async () => timedOut, listAccounts: async () => timedOut } as unknown as Api;
  await assert.rejects(pickZone(api, undefined, 't'), (e: UserError) =>
    /^Cannot list zones: no answer within 30 s The embedded mock backend at http:\/\/127\.0\.0\.1:8787\/client\/v4 did not answer: start it again\.$/.test(e.message)
    && e.actions.map((a) => a.command).join() === 'edgekit.mock.start');
});

// mt5: a mutant that refused the pick when the zones alone could not be listed survived every test; its test found the article.
test('the zone-or-account pick with the zones refused (a token with account access only) offers the accounts alone, and says why', async () => {
  const refused = { ok: false, kind: 'http', status: 403, error: 'Cannot list zones: HTTP 403', errors: [], ms: 1, curl: '' };
  const api = { baseUrl: EMBEDDED, source: EMBEDDED, listZones: async () => refused, listAccounts: async () => ok([{ id: 'acc1', name: 'First Account' }]) } as unknown as Api;
  fake.quickPickAnswers = ['First Account'];
  assert.deepEqual(await pickZoneOrAccount(api, undefined, 't'), { owner: { account: 'acc1' }, ownerName: 'First Account' });
  assert.deepEqual([fake.quickPicks[0].labels, fake.quickPicks[0].placeHolder], [['First Account'], 'Pick an account (the zones could not be listed: Cannot list zones: HTTP 403)']);
});
