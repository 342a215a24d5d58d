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

/** text with the block from start to end (markers included) replaced by block, which carries the markers itself. */
export function withBlock(text: string, start: string, end: string, block: string, file: string): string {
  const a = text.indexOf(start), b = text.indexOf(end);
  if (a < 0 || b < 0) throw new Error(`${file} has no ${start} ... ${end} markers.`);
  return text.slice(0, a) + block + text.slice(b + end.length);
}

export function withTable(readme: string): string {
  return withBlock(readme, START, END, codeTable(), 'README.md');
}

if (require.main === module) {
  const file = path.resolve(__dirname, '..', 'README.md');
  fs.writeFileSync(file, withTable(fs.readFileSync(file, 'utf8')));
  console.log(`README.md: ${Object.keys(CODES).length} codes`);
}
