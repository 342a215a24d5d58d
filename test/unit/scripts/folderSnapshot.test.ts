// The extension-host runner's check of the workspace folder (test/integration/folderSnapshot.ts, run after every suite by
// test/integration/index.ts): what a suite left, edited or deleted there is named, VS Code's configuration files count by what they
// hold ("{}" left by unsetting a workspace setting is nothing), and restoreFolder puts the folder back as the run found it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changedFiles, restoreFolder, snapshotFolder } from '../../integration/folderSnapshot';

const made: string[] = [];
after(() => { for (const d of made) fs.rmSync(d, { recursive: true, force: true }); });

/** A workspace folder as the runner finds it: a .gitkeep and a fixture file from an earlier, aborted run. */
function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-snapshot-'));
  made.push(dir);
  fs.writeFileSync(path.join(dir, '.gitkeep'), '');
  fs.mkdirSync(path.join(dir, 'kept'));
  fs.writeFileSync(path.join(dir, 'kept', 'a.filter.json'), '{"where": {}}\n');
  return dir;
}

function write(dir: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
}

test('an untouched folder has no changes', () => {
  const dir = workspace();
  assert.deepEqual(changedFiles(dir, snapshotFolder(dir)), []);
});

test('a file left behind, a fixture edited on disk and a deleted one are each named, and restoreFolder undoes all three', () => {
  const dir = workspace();
  const before = snapshotFolder(dir);
  write(dir, 'cmd/odd0.logpush.json', '{}');
  write(dir, 'kept/a.filter.json', '{"where": {"key": "BotScore"}}\n');
  fs.rmSync(path.join(dir, '.gitkeep'));
  assert.deepEqual(changedFiles(dir, before), ['.gitkeep (deleted)', 'cmd/odd0.logpush.json (left behind)', 'kept/a.filter.json (edited on disk)']);
  restoreFolder(dir, before);
  assert.deepEqual(changedFiles(dir, before), []);
  assert.ok(!fs.existsSync(path.join(dir, 'cmd')), 'the folder the suite made is gone too');
  assert.equal(fs.readFileSync(path.join(dir, 'kept', 'a.filter.json'), 'utf8'), '{"where": {}}\n');
});

test('a new file in a folder that was there goes, and the folder stays', () => {
  const dir = workspace();
  const before = snapshotFolder(dir);
  write(dir, 'kept/new.rpc.json', '{}');
  assert.deepEqual(changedFiles(dir, before), ['kept/new.rpc.json (left behind)']);
  restoreFolder(dir, before);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'kept')), ['a.filter.json']);
});

test('VS Code configuration files count by what they hold: "{}" is nothing, a value left is a leftover', () => {
  const dir = workspace();
  const before = snapshotFolder(dir);
  write(dir, '.vscode/settings.json', '{\n}');
  write(dir, '.vscode/tasks.json', '{\n  // emptied\n}\n');
  assert.deepEqual(changedFiles(dir, before), [], 'a setting set and unset, a task added and removed');
  write(dir, '.vscode/settings.json', '{\n  "edgekit.logpush.dataset": "gateway_dns",\n}');
  write(dir, '.vscode/tasks.json', '{ "version": "2.0.0" }');
  assert.deepEqual(changedFiles(dir, before), ['.vscode/settings.json (left behind)', '.vscode/tasks.json (left behind)']);
  // With "{}" in the snapshot (left by an earlier run), the same holds: a file holding nothing equals no file.
  const emptied = snapshotFolder(dir);
  write(dir, '.vscode/settings.json', '{}');
  assert.deepEqual(changedFiles(dir, emptied), ['.vscode/settings.json (deleted)']);
  // Any other JSON file counts byte for byte.
  write(dir, 'kept/a.filter.json', '{"where":{}}\n');
  assert.deepEqual(changedFiles(dir, before).filter((f) => f.startsWith('kept/')), ['kept/a.filter.json (edited on disk)']);
});
