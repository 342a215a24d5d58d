// Loaded with --import by the unit and system suites (package.json): the test process's temporary files go into a folder of its
// own inside the system's temp folder, removed when the process exits. The suites' tests make their folders with
// mkdtemp(os.tmpdir()) and few removed them: a full run left about a hundred folders behind (edgekit-cli-*, edgekit-task-*,
// edgekit-delivery-*...; 5 800 after some days of runs). os.tmpdir() reads TMPDIR at each call, and processes the tests spawn
// inherit it, so theirs go there too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'edgekit-test-'));
process.env.TMPDIR = root;
process.on('exit', () => {
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // a file still held open (Windows) stays; the folder is in the system's temp folder, which the system cleans
  }
});
