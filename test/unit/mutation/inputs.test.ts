// Mutation sample, fourth pass (mt4; docs/architecture.md): the readers of a pipe's bytes, a zone's name and a Sumo Logic
// destination's path, where a mutant the modules' own tests let through changed what a caller gets. Each test failed on its mutant
// and passes on the code as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DocumentTooLarge, readChunked } from '../../../server/src/eval/readWhole';
import { asciiHost } from '../../../server/src/core/hostName';
import { resolveDestination } from '../../../mock/src/delivery/destinations';

test('readChunked with a bound of 0 bytes refuses a pipe that gives one, rather than answering it empty', () => {
  const one = (buf: Buffer, length: number): number => { if (length === 0) return 0; buf[0] = 0x61; return 1; };
  assert.throws(() => readChunked(one, 0), (err: Error) => err instanceof DocumentTooLarge);
  let given = false;
  const once = (buf: Buffer, length: number): number => { if (given || length === 0) return 0; given = true; buf[0] = 0x62; return 1; };
  assert.equal(readChunked(once, 1).toString('latin1'), 'b');
});

test('asciiHost: an internationalised name with a user part ("x@bücher.test") is no host name, not the host after the "@"', () => {
  assert.equal(asciiHost('bücher.test'), 'xn--bcher-kva.test');
  assert.equal(asciiHost('x@bücher.test'), undefined);
});

test('a Sumo Logic destination without a path delivers into its host\'s folder itself: no digest of an empty code', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const d = resolveDestination('sumo://endpoint1.collection.sumologic.com', { dir, maxLocalBytes: 1 << 20 });
    assert.equal(d.kind, 'local');
    assert.equal(d.pathPrefix, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
