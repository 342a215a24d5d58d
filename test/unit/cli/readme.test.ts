import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withTable } from '../../../scripts/gen-readme-codes';
import { CODES } from '../../../server/src/core/codes';

test('the README lists every diagnostic code (run `npm run docs:codes` to update)', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  for (const code of Object.keys(CODES)) assert.ok(readme.includes(`\`${code}\``), `README.md is missing ${code}`);
  assert.equal(readme, withTable(readme), 'README.md code table is out of date; run npm run docs:codes');
});

test('every code is area/kebab-name', () => {
  for (const code of Object.keys(CODES)) assert.match(code, /^[a-z]+\/[a-z0-9]+(-[a-z0-9]+)*$/, code);
});
