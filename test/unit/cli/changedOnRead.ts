// A file saved meanwhile (an editor) while `edgekit lint --fix` works on it: for the tests of --fix's "changed while it was being
// fixed" (cli.test.ts, fixWriteEdges.test.ts).
import type * as fs from 'node:fs';
import type { TestContext } from 'node:test';

/** Mocks fs.readFileSync so that its first read of `file` writes `edited` into it, after reading it (lint reads the old text); the
 * real readFileSync is returned for the test's own reads. The mock ends with the test. */
export function editedOnFirstRead(t: TestContext, file: string, edited: string): typeof fs.readFileSync {
  const nodeFs = require('node:fs') as typeof fs;
  const realRead = nodeFs.readFileSync;
  let first = true;
  t.mock.method(nodeFs, 'readFileSync', (p: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    const v = (realRead as (...a: unknown[]) => unknown)(p, ...rest);
    if (first && String(p) === file) { first = false; nodeFs.writeFileSync(file, edited); }
    return v;
  });
  return realRead;
}
