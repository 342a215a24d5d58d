// The settings the server reads (protocol.ts normalizeSettings, which falls back to the default on a value it does not take) and
// their declaration in package.json (what VS Code's settings UI and settings.json check accept) must agree: a value VS Code takes
// without a warning must not be dropped silently by the server. maxProblems 200000 passed the declaration (minimum 1, no maximum)
// and the server replaced it by 1000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../../server/src/protocol';
import { inProcessServer, type InProcessServer } from './inProcess';

const props = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')).contributes.configuration.properties;

test('the server\'s defaults are the declared ones', () => {
  assert.equal(props['edgekit.logpush.dataset'].default, DEFAULT_SETTINGS.logpush.dataset);
  assert.equal(props['edgekit.maxProblems'].default, DEFAULT_SETTINGS.maxProblems);
  assert.equal(props['edgekit.maxFileSizeKB'].default, DEFAULT_SETTINGS.maxFileSizeKB);
  assert.equal(props['edgekit.codeLens.enabled'].default, DEFAULT_SETTINGS.codeLens.enabled);
});

test('numeric settings: the server takes exactly the declared range', () => {
  for (const key of ['maxProblems', 'maxFileSizeKB'] as const) {
    const decl = props[`edgekit.${key}`];
    assert.equal(typeof decl.minimum, 'number', `${key}: minimum`);
    assert.equal(typeof decl.maximum, 'number', `${key}: maximum`);
    const read = (v: number) => normalizeSettings({ [key]: v })[key];
    assert.equal(read(decl.minimum), decl.minimum, `${key} at its minimum`);
    assert.equal(read(decl.maximum), decl.maximum, `${key} at its maximum`);
    assert.equal(read(decl.minimum - 1), DEFAULT_SETTINGS[key], `${key} below its minimum`);
    assert.equal(read(decl.maximum + 1), DEFAULT_SETTINGS[key], `${key} above its maximum`);
  }
});

test('every dataset the setting declares is taken by the server', () => {
  for (const d of props['edgekit.logpush.dataset'].enum as string[]) assert.equal(normalizeSettings({ logpush: { dataset: d } }).logpush.dataset, d);
});

test('edgekit.logpush.scope: "zone" and "account" are taken; its default "unknown", unset and anything else are "not known"', () => {
  const decl = props['edgekit.logpush.scope'];
  assert.equal(decl.scope, 'resource', 'a folder of one scope\'s jobs may declare it');
  assert.deepEqual(decl.enum, ['unknown', 'zone', 'account']);
  assert.equal(decl.default, 'unknown');
  for (const s of ['zone', 'account']) assert.equal(normalizeSettings({ logpush: { scope: s } }).logpush.scope, s);
  for (const v of [undefined, null, '', 'unknown', 'Zone', 'both', 1]) assert.equal(normalizeSettings({ logpush: { scope: v } }).logpush.scope, undefined, String(v));
  assert.equal(DEFAULT_SETTINGS.logpush.scope, undefined);
  assert.deepEqual(normalizeSettings({}), DEFAULT_SETTINGS, 'not known: no member at all');
});

/** Waits until the server has handled every message sent before (it handles them in order and answers this one after them). */
async function handled(s: InProcessServer): Promise<void> {
  await s.client.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///nothing.json' }, position: { line: 0, character: 0 } }).catch(() => undefined);
}
const warnings = (s: InProcessServer) => s.logged.filter((m) => m.type === 2).map((m) => m.message);

test('a number setting the server does not take is said in the client\'s log, once per value (settings pushed)', async (t) => {
  // maxProblems 0 and a size over the maximum were given their defaults without a word, where the client's own number settings
  // (config.ts reportUnusedNumberSettings) say so. Any LSP client gets the line (window/logMessage), not only VS Code.
  const s = await inProcessServer({ capabilities: {}, initializationOptions: { settings: { edgekit: { maxProblems: 0, maxFileSizeKB: 2_000_000 } } } });
  t.after(() => s.close());
  await handled(s);
  assert.deepEqual(warnings(s), [
    'The setting "edgekit.maxProblems" is 0, not a number from 1 to 100000: EdgeKit uses its default, 1000.',
    'The setting "edgekit.maxFileSizeKB" is 2000000, not a number from 1 to 1048576: EdgeKit uses its default, 5120.',
  ]);
  // Another key changed: the refused values are kept (a push changes only its keys) and not said again.
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { codeLens: { enabled: false } } } });
  await handled(s);
  assert.equal(warnings(s).length, 2);
  // A new refused value is said; a value taken, and unset, are not.
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { maxProblems: '50', maxFileSizeKB: 10 } } });
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { maxProblems: null } } });
  await handled(s);
  assert.deepEqual(warnings(s).slice(2), ['The setting "edgekit.maxProblems" is "50", not a number from 1 to 100000: EdgeKit uses its default, 1000.']);
});

test('a number setting the server does not take is said once however many scopes ask for it (workspace/configuration)', async (t) => {
  let section: unknown = { maxProblems: -1 };
  const s = await inProcessServer({ section: () => section });
  t.after(() => s.close());
  const pull = (uri: string) => s.client.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  await s.open('file:///a.filter.json', 'logpush-filter', 1, '{}');
  await s.open('file:///b.json', 'jsonrpc-request', 1, '{}');
  await pull('file:///a.filter.json');
  await pull('file:///b.json');
  assert.equal(s.configurationRequests(), 2, 'two languages, two scopes');
  assert.deepEqual(warnings(s), ['The setting "edgekit.maxProblems" is -1, not a number from 1 to 100000: EdgeKit uses its default, 1000.']);
  section = { maxProblems: 20, maxFileSizeKB: 0.5 };
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await pull('file:///a.filter.json');
  assert.deepEqual(warnings(s).slice(1), ['The setting "edgekit.maxFileSizeKB" is 0.5, not a number from 1 to 1048576: EdgeKit uses its default, 5120.']);
});

// rv36/lf21: read per folder (a multi-root window), the line did not say whose value it was: two folders with two refused values
// gave two lines alike but for the value, and the user was left to search every folder's settings.json.
test('a refused number setting read for one of several workspace folders names that folder', async (t) => {
  const folders = [{ uri: 'file:///ws/a', name: 'a' }, { uri: 'file:///ws/b', name: 'b' }, { uri: 'file:///other/b', name: 'b' }];
  const values: Record<string, unknown> = { 'file:///ws/b/x.filter.json': { maxProblems: -1 }, 'file:///other/b/y.filter.json': { maxProblems: -2 },
    'file:///z.filter.json': { maxProblems: -3 } };
  const s = await inProcessServer({ workspaceFolders: folders, section: (scopeUri) => values[scopeUri ?? ''] ?? {} });
  t.after(() => s.close());
  const pull = (uri: string) => s.client.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  for (const uri of ['file:///ws/a/w.filter.json', ...Object.keys(values)]) {
    await s.open(uri, 'logpush-filter', 1, '{}');
    await pull(uri);
  }
  assert.deepEqual(warnings(s), [
    'The setting "edgekit.maxProblems" for the workspace folder "b" (file:///ws/b) is -1, not a number from 1 to 100000: EdgeKit uses its default, 1000.',
    'The setting "edgekit.maxProblems" for the workspace folder "b" (file:///other/b) is -2, not a number from 1 to 100000: EdgeKit uses its default, 1000.',
    'The setting "edgekit.maxProblems" for the documents outside the workspace folders is -3, not a number from 1 to 100000: EdgeKit uses its default, 1000.',
  ]);
});

test('a refused number setting of the only workspace folder is said without its name', async (t) => {
  const s = await inProcessServer({ workspaceFolders: [{ uri: 'file:///ws', name: 'ws' }], section: (scopeUri) => ({ maxProblems: scopeUri?.startsWith('file:///ws/') ? -1 : -3 }) });
  t.after(() => s.close());
  for (const uri of ['file:///ws/x.filter.json', 'file:///y.filter.json']) {
    await s.open(uri, 'logpush-filter', 1, '{}');
    await s.client.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  }
  // rv40: a document outside the one folder (its value the user's own) is named so: two unnamed lines differing in their value
  // alone left the user to guess which was the folder's, as lf21 mended for several folders.
  assert.deepEqual(warnings(s), ['The setting "edgekit.maxProblems" is -1, not a number from 1 to 100000: EdgeKit uses its default, 1000.',
    'The setting "edgekit.maxProblems" for the documents outside the workspace folder is -3, not a number from 1 to 100000: EdgeKit uses its default, 1000.']);
});

test('the CLI reads no settings: its limits are its options, so the settings\' log line is the server\'s only', () => {
  const cli = fs.readFileSync(path.resolve(__dirname, '../../../server/src/cli.ts'), 'utf8');
  assert.doesNotMatch(cli, /normalizeSettings|SettingsCache/);
});

// rv36: the values said were kept for good, each whole: a client that pushes many values (a script, a settings UI sending each
// keystroke) grew the set without bound, and a long value (a pasted text) was kept and logged whole.
test('the refused values remembered are bounded: after many others, a value is said again; a long value is said cut short', async (t) => {
  const s = await inProcessServer({ capabilities: {}, initializationOptions: { settings: { edgekit: { maxProblems: 0 } } } });
  t.after(() => s.close());
  await handled(s);
  assert.equal(warnings(s).length, 1);
  for (let v = 1; v <= 200; v++) await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { maxProblems: -v } } });
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { maxProblems: 0 } } });
  await handled(s);
  assert.equal(warnings(s).length, 202, 'each of the 200 values said once, then 0 again: long forgotten');
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { maxProblems: 'x'.repeat(100_000) } } });
  await handled(s);
  const long = warnings(s)[202];
  assert.ok(long.length < 300, `${long.length} characters`);
  assert.match(long, /^The setting "edgekit\.maxProblems" is "x{40,}…, not a number from 1 to 100000: EdgeKit uses its default, 1000\.$/);
  // Cut between the two halves of a character beyond the BMP, the log would show a lone surrogate (U+FFFD once encoded).
  await s.client.sendNotification('workspace/didChangeConfiguration', { settings: { edgekit: { maxProblems: '😀'.repeat(100) } } });
  await handled(s);
  assert.match(warnings(s)[203], /^The setting "edgekit\.maxProblems" is "(😀)+…, not/);
});
