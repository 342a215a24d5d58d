// The settings the server reads (protocol.ts normalizeSettings, which falls back to the default on a value it does not take) and
// their declaration in package.json (what VS Code's settings UI and settings.json check accept) must agree: a value VS Code takes
// without a warning must not be dropped silently by the server. maxProblems 200000 passed the declaration (minimum 1, no maximum)
// and the server replaced it by 1000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../../server/src/protocol';

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
