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

test('the README\'s settings table has every setting of package.json, with its default, and no other', () => {
  const root = path.resolve(__dirname, '../../..');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const props = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).contributes.configuration.properties as Record<string, { default?: unknown }>;
  const section = readme.slice(readme.indexOf('## Settings'), readme.indexOf('\n## ', readme.indexOf('## Settings') + 1));
  const rows = [...section.matchAll(/^\| `(edgekit\.[\w.]+)` \|([^|]*)\|/gm)].map((m) => [m[1], m[2].trim()] as const);
  assert.deepEqual(rows.map(([k]) => k).sort(), Object.keys(props).sort());
  for (const [key, shown] of rows) {
    const d = props[key].default;
    assert.equal(shown, d === '' || d === undefined ? '' : typeof d === 'string' ? `\`${d}\`` : String(d), key);
  }
});
