// The number settings the client reads (client/src/config.ts): a value package.json's schema refuses is not used silently.
import { fake, resetFake, workspace } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Config, reportUnusedNumberSettings } from '../../../client/src/config';

beforeEach(() => resetFake());

const said = (key: string, value: string, takes: string, def: number) => `The setting "edgekit.${key}" is ${value}, not ${takes}: EdgeKit uses its default, ${def}.`;
const timeout = (value: string) => said('http.timeoutSeconds', value, 'a number of seconds of at least 1', 30);
const port = (value: string) => said('mock.port', value, 'a whole number from 0 to 65535', 0);

test('edgekit.http.timeoutSeconds below its minimum of 1, or not a number, gives the default 30 s (lf18)', () => {
  // 0.5 was taken as half a second: only `t > 0` was checked, where package.json says "minimum": 1 (a hint in settings.json, which
  // takes any JSON value: 0 or a negative number would make every request time out at once, a string or true would be NaN ms).
  assert.equal(Config.requestTimeoutMs(), 30_000, 'unset');
  for (const bad of [0.5, 0, -3, '10', true, [5], { seconds: 5 }]) {
    fake.settings.set('http.timeoutSeconds', bad);
    assert.equal(Config.requestTimeoutMs(), 30_000, JSON.stringify(bad));
  }
  for (const good of [1, 2.5, 600]) {
    fake.settings.set('http.timeoutSeconds', good);
    assert.equal(Config.requestTimeoutMs(), good * 1000);
  }
  fake.settings.set('http.timeoutSeconds', null);
  assert.equal(Config.requestTimeoutMs(), 30_000, 'null: unset');
});

test('edgekit.mock.port outside 0 to 65535 or not a whole number gives the default 0, a free port (lf18)', () => {
  for (const bad of [70000, -1, 80.5, '8080']) {
    fake.settings.set('mock.port', bad);
    assert.equal(Config.mockPort(), 0, JSON.stringify(bad));
  }
  for (const good of [0, 8787, 65535]) {
    fake.settings.set('mock.port', good);
    assert.equal(Config.mockPort(), good);
  }
});

test('a number setting whose value is not used is said in the log once at activation, and again when changed to another such value (lf18)', async () => {
  fake.settings.set('http.timeoutSeconds', 0.5);
  const warned: string[] = [];
  const reporting = reportUnusedNumberSettings((m) => warned.push(m));
  assert.deepEqual(warned, [timeout('0.5')], 'at activation, naming the setting, its value and the value used');
  // Read on every request: nothing more is said
  Config.requestTimeoutMs();
  Config.requestTimeoutMs();
  assert.equal(warned.length, 1);
  const settings = workspace.getConfiguration('edgekit');
  await settings.update('mock.port', 70000);
  await settings.update('http.timeoutSeconds', '10');
  await settings.update('http.timeoutSeconds', 5);
  await settings.update('mock.port', 8787);
  await settings.update('backend', 'remote');
  assert.deepEqual(warned, [timeout('0.5'), port('70000'), timeout('"10"')], 'a change to a used value, or of another setting, says nothing');
  reporting.dispose();
  await settings.update('mock.port', -1);
  assert.equal(warned.length, 3, 'disposed with the extension');
  // The next activation says -1; with the setting removed, nothing is said
  const next: string[] = [];
  reportUnusedNumberSettings((m) => next.push(m)).dispose();
  assert.deepEqual(next, [port('-1')]);
  fake.settings.delete('mock.port');
  const clean: string[] = [];
  reportUnusedNumberSettings((m) => clean.push(m)).dispose();
  assert.deepEqual(clean, []);
});
