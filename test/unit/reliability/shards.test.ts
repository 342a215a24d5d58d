// The fast suite's shards (test/unit/shards/shard.ts) deal the test files among themselves, each as it starts: every file must go to
// exactly one shard, and the deal must not depend on anything a file's edit changes (it was by size: a file edited between two shards'
// starts ran twice or not at all, seen as 2 684 tests against 2 347).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shardFiles } from '../shards/shard';

const UNIT = path.resolve(__dirname, '..');

test('each test file runs in exactly one of the four shards, dealt by its name alone', () => {
  const dealt = [0, 1, 2, 3].map((i) => shardFiles(i, 4));
  const all = dealt.flat();
  assert.equal(new Set(all).size, all.length, 'no file in two shards');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) { if (e.name !== 'shards') walk(path.join(dir, e.name)); } else if (e.name.endsWith('.test.ts')) files.push(path.join(dir, e.name));
    }
  };
  walk(UNIT);
  assert.deepEqual([...all].sort(), files.sort(), 'every file in a shard');
  assert.ok(dealt.every((d) => d.length > 0));
  // Nothing of a file's content or size is read: with the file sizes unreadable the deal is the same
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const nodeFs = require('node:fs') as { statSync: unknown };
  const statSync = nodeFs.statSync;
  nodeFs.statSync = () => { throw new Error('the deal read a file\'s size'); };
  try {
    assert.deepEqual([0, 1, 2, 3].map((i) => shardFiles(i, 4)), dealt);
  } finally {
    nodeFs.statSync = statSync;
  }
});
