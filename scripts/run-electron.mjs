// The same extension-host suite under desktop VS Code, via @vscode/test-electron (needs to download VS Code: not possible offline).
// Runs against the minimum engines.vscode and stable, as rust-analyzer does. usage: npm run test:electron
import { runTests } from '@vscode/test-electron';
import * as path from 'node:path';
import * as fs from 'node:fs';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const minimum = pkg.engines.vscode.replace(/^\^/, '');
for (const version of [minimum, 'stable']) {
  console.log(`[electron] VS Code ${version}`);
  await runTests({
    version,
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'index.js'),
    launchArgs: [path.join(root, 'test', 'integration', 'workspace'), '--disable-extensions', '--disable-workspace-trust'],
  });
}
