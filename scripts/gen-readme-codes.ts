// Rewrites the diagnostic code table in README.md from the registry (core/codes.ts). `npm run docs:codes`.
// test/unit/cli/readme.test.ts fails when the README is out of date.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODES, codeAnchor } from '../server/src/core/codes';

export const START = '<!-- codes:start -->';
export const END = '<!-- codes:end -->';

export function codeTable(): string {
  const rows = Object.keys(CODES).sort().map((code) => {
    const info = CODES[code];
    return `| <a id="${codeAnchor(code)}"></a>\`${code}\` | ${info.severity} | ${info.description.replace(/\|/g, '\\|')} |`;
  });
  return [START, '| Code | Default severity | Meaning |', '|---|---|---|', ...rows, END].join('\n');
}

export function withTable(readme: string): string {
  const a = readme.indexOf(START), b = readme.indexOf(END);
  if (a < 0 || b < 0) throw new Error(`README.md has no ${START} ... ${END} markers.`);
  return readme.slice(0, a) + codeTable() + readme.slice(b + END.length);
}

if (require.main === module) {
  const file = path.resolve(__dirname, '..', 'README.md');
  fs.writeFileSync(file, withTable(fs.readFileSync(file, 'utf8')));
  console.log(`README.md: ${Object.keys(CODES).length} codes`);
}
