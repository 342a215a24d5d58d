import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { StateStore, defaultState, loadState, parseState, writeFileAtomic } from '../../../mock/src/state';
import { ACCOUNTS, ZONES } from '../../../mock/src/zones';

const dir = () => mkdtempSync(path.join(tmpdir(), 'edgekit-mock-state-'));

test('the state round-trips through the file', async () => {
  const file = path.join(dir(), 'state.json');
  const { store } = await StateStore.open(file);
  const z = ZONES[0].id;
  store.zone(z).migration = 'migrated';
  store.zone(z).jobs.push({ id: 7, name: 'job', destination_conf: 's3://b?region=us-east-1' });
  store.state.nextJobId = 8;
  await store.save();
  const again = await StateStore.open(file);
  assert.equal(again.warning, undefined);
  assert.deepEqual(again.store.state, store.state);
  assert.equal(again.store.zone(z).migration, 'migrated');
});

test('a missing file starts from the default state and is created', async () => {
  const file = path.join(dir(), 'new.json');
  const { store } = await StateStore.open(file);
  assert.deepEqual(store.state, defaultState());
  assert.ok(existsSync(file));
});

test('atomic writes leave no temp files and replace the whole file', async () => {
  const d = dir();
  const file = path.join(d, 's.json');
  await Promise.all([writeFileAtomic(file, 'a'.repeat(10000)), writeFileAtomic(file, 'b'.repeat(10))]);
  const text = readFileSync(file, 'utf8');
  assert.ok(text === 'a'.repeat(10000) || text === 'b'.repeat(10));
  assert.deepEqual(readdirSync(d), ['s.json']);
});

test('a corrupt file is reported, kept aside, and the default state used', async () => {
  const d = dir();
  const file = path.join(d, 'state.json');
  writeFileSync(file, '{"version": 1, "zones": ');
  const r = await loadState(file);
  assert.match(r.warning ?? '', /is not a valid mock state/);
  assert.deepEqual(r.state, defaultState());
  assert.ok(readdirSync(d).some((f) => f.startsWith('state.json.corrupt-')));
});

// dat1: a zone or account this version does not know (a state file of another version of the mock) was left out without a word,
// and the save at the start wrote the file over without it: its jobs were gone.
test('zones and accounts this version does not know are reported, and the file as it was kept aside before it is written', async () => {
  const d = dir();
  const file = path.join(d, 'state.json');
  const s = defaultState() as unknown as { zones: Record<string, unknown>; accounts: Record<string, unknown>; nextJobId: number };
  s.zones['0123456789abcdef0123456789abcdef'] = { migration: 'migrated', deletedOverrides: [], entrypoint: null, jobs: [{ id: 3, name: 'kept' }] };
  s.accounts.feedface = { jobs: [{ id: 4 }] };
  s.nextJobId = 5;
  const text = JSON.stringify(s, null, 2);
  writeFileSync(file, text);
  const { store, warning } = await StateStore.open(file);
  assert.match(warning ?? '', /^The state file ".*state\.json" holds zone 0123456789abcdef0123456789abcdef and account feedface, which this version of the mock does not know: they were left out; the file as it was is kept as ".*state\.json\.unknown-\d+"\.$/);
  const aside = readdirSync(d).filter((f) => f.startsWith('state.json.unknown-'));
  assert.equal(aside.length, 1);
  assert.equal(readFileSync(path.join(d, aside[0]), 'utf8'), text);
  assert.equal(store.state.nextJobId, 5);
  assert.equal(store.state.zones['0123456789abcdef0123456789abcdef'], undefined);
  // Nothing left out: no warning, nothing kept aside.
  assert.equal((await StateStore.open(file)).warning, undefined);
  assert.equal(readdirSync(d).filter((f) => f.startsWith('state.json.unknown-')).length, 1);
});

// rv33: the same for fields this version does not know (a newer version's, as "accounts" and a zone's "trafficNext" once were
// new): parseState built the state from the fields it knows and the start's save wrote the file over without the others.
test('fields this version does not know (the top level\'s, a zone\'s, an account\'s) are reported, and the file kept aside', async () => {
  const d = dir();
  const file = path.join(d, 'state.json');
  const s = defaultState() as unknown as Record<string, unknown> & { zones: Record<string, Record<string, unknown>>; accounts: Record<string, Record<string, unknown>> };
  s.gateways = { g1: { name: 'mine' } };
  s.zones[ZONES[0].id].filters = [{ id: 'f1' }];
  s.accounts[ACCOUNTS[0].id].buckets = ['b'];
  const text = JSON.stringify(s, null, 2);
  writeFileSync(file, text);
  const { warning } = await StateStore.open(file);
  assert.equal(warning?.replace(/"[^"]*state\.json(\.unknown-\d+)?"/g, '"F$1"').replace(/-\d+/, '-T'),
    `The state file "F" holds "gateways", zone ${ZONES[0].id}'s "filters" and account ${ACCOUNTS[0].id}'s "buckets", which this version of the mock does not know: they were left out; the file as it was is kept as "F.unknown-T".`);
  const aside = readdirSync(d).filter((f) => f.startsWith('state.json.unknown-'));
  assert.equal(aside.length, 1);
  assert.equal(readFileSync(path.join(d, aside[0]), 'utf8'), text);
});

// mt5: one thing left out is kept aside too, and said in the singular; a name already taken beside the file is not written over.
test('a single field this version does not know is kept aside and said as "it was"; a file already at the aside name is not written over', async (t) => {
  const d = dir();
  const file = path.join(d, 'state.json');
  const s = defaultState() as unknown as Record<string, unknown>;
  s.gateways = {};
  const text = JSON.stringify(s, null, 2);
  writeFileSync(file, text);
  const { warning } = await loadState(file);
  assert.match(warning ?? '', /^The state file ".*state\.json" holds "gateways", which this version of the mock does not know: it was left out; the file as it was is kept as ".*state\.json\.unknown-\d+"\.$/);
  assert.equal(readdirSync(d).filter((f) => f.startsWith('state.json.unknown-')).length, 1);
  // The aside's name is taken (a file the user keeps there, a link planted): the start refuses rather than write over it.
  t.mock.method(Date, 'now', () => 1_000);
  writeFileSync(`${file}.unknown-1000`, 'mine');
  await assert.rejects(loadState(file), /^Error: Cannot keep the state file ".*state\.json" as ".*state\.json\.unknown-1000" before leaving out "gateways"/);
  assert.equal(readFileSync(`${file}.unknown-1000`, 'utf8'), 'mine');
  assert.equal(readFileSync(file, 'utf8'), text);
});

test('a file with a bad field names it', () => {
  const s = defaultState();
  (s.zones[ZONES[0].id] as { migration: string }).migration = 'half-done';
  assert.throws(() => parseState(JSON.stringify(s)), /migration state "half-done"/);
  assert.throws(() => parseState('{"version": 2}'), /"version" is 2/);
  assert.throws(() => parseState('[]'), /not an object/);
});

test('reset goes back to the default state and saves it', async () => {
  const file = path.join(dir(), 'state.json');
  const { store } = await StateStore.open(file);
  store.zone(ZONES[0].id).migration = 'validation';
  await store.save();
  await store.reset();
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), defaultState());
});

test('a saved entry point without a usable rules list is a corrupt state (the traffic would fail on every tick), named', async () => {
  const withEntrypoint = (entrypoint: unknown) => {
    const s = defaultState();
    (s.zones[ZONES[0].id] as { migration: string }).migration = 'migrated';
    (s.zones[ZONES[0].id] as { entrypoint: unknown }).entrypoint = entrypoint;
    return JSON.stringify(s);
  };
  const base = { id: 'e', name: 'default', description: '', kind: 'zone', phase: 'http_request_firewall_managed', version: '1', last_updated: '' };
  assert.throws(() => parseState(withEntrypoint({ id: 'x' })), new RegExp(`zone ${ZONES[0].id} has an entry point without a "rules" list`));
  assert.throws(() => parseState(withEntrypoint({ ...base, rules: [null] })), /entry point rule 0 is not an object/);
  assert.throws(() => parseState(withEntrypoint({ ...base, rules: [{ action: 'execute', expression: 7 }] })), /entry point rule 0 has a bad "expression"/);
  assert.throws(() => parseState(withEntrypoint({ ...base, rules: [{ action: 'skip', expression: 'true', action_parameters: 'x' }] })), /entry point rule 0 has a bad "action_parameters"/);
  const good = { ...base, rules: [{ id: 'r', ref: 'r', version: '1', last_updated: '', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'x' } }] };
  assert.deepEqual(parseState(withEntrypoint(good)).zones[ZONES[0].id].entrypoint, good);
  const file = path.join(dir(), 'state.json');
  writeFileSync(file, withEntrypoint({ id: 'x' }));
  assert.match((await loadState(file)).warning ?? '', /is not a valid mock state .*"rules" list/);
});

test('a state file in a folder that does not exist is refused naming the state file and its folder, not a temp file', async () => {
  const d = dir();
  const file = path.join(d, 'missing', 'state.json');
  await assert.rejects(StateStore.open(file), (err: Error) => {
    assert.ok(err.message.includes(`"${file}"`), err.message);
    assert.ok(err.message.includes(`"${path.join(d, 'missing')}" does not exist`), err.message);
    assert.ok(!/\.tmp/.test(err.message), err.message);
    return true;
  });
});

test('a state file whose jobs repeat an id, or whose nextJobId is not above every job id, is reported (a new job would reuse an id)', () => {
  const s = defaultState();
  const [a, b] = [ZONES[0].id, ZONES[1].id];
  s.zones[a].jobs.push({ id: 4, name: 'x' });
  s.nextJobId = 3;
  assert.throws(() => parseState(JSON.stringify(s)), /"nextJobId" is 3, not above job 4/);
  s.nextJobId = 5;
  assert.equal(parseState(JSON.stringify(s)).nextJobId, 5);
  s.zones[b].jobs.push({ id: 4, name: 'y' });
  assert.throws(() => parseState(JSON.stringify(s)), /job id 4 is used twice/);
});
