// The valid fixtures (test/fixtures/<kind>/*.json that parse, under 20 000 characters, with no syntax problem of our own), for the
// mutation tests that break them one way or another (syntaxRepairs, unescapedQuoteMutations, unclosedBracket).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDocument } from '../../../server/src/core/parse';
import { isDocKind } from '../../../server/src/core/kinds';
import type { DocKind } from '../../../server/src/core/types';
import { ROOT } from './sources';

export function validFixtures(): { file: string; kind: DocKind; text: string }[] {
  const root = path.join(ROOT, 'test/fixtures');
  const out: { file: string; kind: DocKind; text: string }[] = [];
  for (const d of fs.readdirSync(root)) {
    for (const f of fs.readdirSync(path.join(root, d)).filter((x) => x.endsWith('.json'))) {
      const file = path.join(root, d, f);
      const text = fs.readFileSync(file, 'utf8');
      const kind = d as DocKind;
      try { JSON.parse(text); } catch { continue; }
      if (!isDocKind(kind) || text.length > 20_000 || parseDocument(text).syntax.length) continue;
      out.push({ file: `${d}/${f}`, kind, text });
    }
  }
  return out;
}
