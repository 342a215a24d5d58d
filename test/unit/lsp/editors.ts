// Shared by the real-editor tests (neovim.test.ts, emacs.test.ts) and the check of docs/editors.md (editorsDocs.test.ts): the four
// broken documents the editors open, and the configuration blocks of docs/editors.md, so each editor test runs the block a user
// copies rather than a copy of it.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
export const EDITORS_MD = path.join(ROOT, 'docs/editors.md');

/** One document of each kind, each with a problem: a misspelt filter field, a bad job name, an unsupported method, a bad field. */
export const FILES: Record<string, string> = {
  'bad.filter.json': '{\n  "where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}\n}\n',
  'bad.logpush.json': '{\n  "name": "bad_name",\n  "dataset": "http_requests",\n  "destination_conf": "s3://bucket/logs?region=us-east-1"\n}\n',
  'bad.rpc.json': '{\n  "jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1\n}\n',
  'bad.ruleset.json': '{\n  "name": "default",\n  "rules": [{"action": "execute", "expression": "http.hots eq \\"x\\"", "action_parameters": {"id": "efb7b8c949ac4650a09736fc376e9aee"}}]\n}\n',
};

export interface DocBlock { section: string; lang: string; text: string }

/** The fenced code blocks of docs/editors.md, each with the `## ` heading it sits under. */
export function editorBlocks(markdown = fs.readFileSync(EDITORS_MD, 'utf8')): DocBlock[] {
  const blocks: DocBlock[] = [];
  let section = '';
  const re = /^## (.*)$|^```(\w+)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    if (m[1] !== undefined) section = m[1].trim();
    else blocks.push({ section, lang: m[2], text: m[3] });
  }
  return blocks;
}

/** The block of `lang` under the heading starting with `section`: the only one, or the `index`th when given. */
export function editorBlock(section: string, lang: string, index?: number): string {
  const found = editorBlocks().filter((b) => b.section.startsWith(section) && b.lang === lang);
  const block = index === undefined ? (found.length === 1 ? found[0] : undefined) : found[index];
  if (!block) throw new Error(`docs/editors.md: no${index === undefined ? ' single' : ''} \`\`\`${lang} block under "## ${section}" (${found.length} there)`);
  return block.text;
}

/** A folder holding an `edgekit-language-server` that runs this checkout's server, as `npm install -g` would put on PATH. */
export function serverOnPath(dir: string, serverJs: string): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const exe = path.join(bin, 'edgekit-language-server');
  fs.writeFileSync(exe, `#!/bin/sh\nexec '${process.execPath}' '${serverJs}' "$@"\n`, { mode: 0o755 });
  return bin;
}
