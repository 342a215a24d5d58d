// extensionTestsPath entry: the host calls run(). Works under code-server's extension host and under @vscode/test-electron.
import * as path from 'node:path';
import * as fs from 'node:fs';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { snapshotFolder } from './folderSnapshot';
import { checkLeftovers } from './leftovers';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 60_000, color: false, grep: process.env.EDGEKIT_TEST_GREP });
  // After each top-level suite (its own suiteTeardown has run): no dirty editor, and the workspace folder as the run found it.
  const workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const before = snapshotFolder(workspace);
  const checked = new Set<Mocha.Suite>();
  mocha.suite.on('post-require', () => {
    for (const suite of mocha.suite.suites.filter((s) => !checked.has(s))) {
      checked.add(suite);
      suite.afterAll('leaves no dirty editor and no changed workspace file', () => checkLeftovers(workspace, before));
    }
  });
  for (const f of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats!;
      // The plain closing line CI reads.
      console.log(`${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}`);
      if (failures > 0) reject(new Error(`${failures} extension-host tests failed.`)); else resolve();
    });
  });
}
