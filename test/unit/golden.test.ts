// Golden fixtures: test/fixtures/<kind>/<case>.json next to <case>.expected.txt (one CLI-format line per problem).
// UPDATE_EXPECTED=1 npm run test:unit rewrites the expected files; reviewers read the diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText } from '../../server/src/core/validate';
import { LineTable, formatProblemLine } from '../../server/src/core/lines';
import { isDocKind } from '../../server/src/core/kinds';

const root = path.resolve(__dirname, '../fixtures');
const update = process.env.UPDATE_EXPECTED === '1';

for (const kind of fs.readdirSync(root).sort()) {
  if (!isDocKind(kind)) continue;
  const dir = path.join(root, kind);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    test(`golden ${kind}/${file}`, () => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const table = new LineTable(text);
      const actual = validateText(text, kind).map((p) => formatProblemLine(table, p)).join('\n') + '\n';
      const expectedFile = path.join(dir, file.replace(/\.json$/, '.expected.txt'));
      if (update) fs.writeFileSync(expectedFile, actual);
      assert.ok(fs.existsSync(expectedFile), `missing ${path.relative(root, expectedFile)} (run with UPDATE_EXPECTED=1)`);
      assert.equal(actual, fs.readFileSync(expectedFile, 'utf8'));
    });
  }
}
