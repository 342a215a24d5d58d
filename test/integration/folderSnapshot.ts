// The workspace folder's files as the extension-host run found them, and what a suite changed since (leftovers.ts checks it after
// every suite). Plain Node, no vscode: unit-tested in test/unit/scripts/folderSnapshot.test.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';

/** The files of a folder tree, by path relative to it, with their bytes. */
export type FolderSnapshot = Map<string, Buffer>;

export function snapshotFolder(dir: string): FolderSnapshot {
  const files: FolderSnapshot = new Map();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else files.set(r, fs.readFileSync(path.join(dir, r)));
    }
  };
  walk('');
  return files;
}

/** VS Code's configuration files, which tests write through the configuration API (a workspace setting, tasks.json): unsetting
 * what a test set leaves "{}" behind, which holds nothing, so they are compared by what they hold. */
const CONFIG_FILE = /^\.vscode\/(settings|tasks|launch)\.json$/;

/** What a file holds, for the comparison: undefined when there is none (no file, or a configuration file with no values). */
function content(rel: string, bytes: Buffer | undefined): string | undefined {
  if (!bytes || !CONFIG_FILE.test(rel)) return bytes?.toString('base64');
  const values = parse(bytes.toString('utf8')) as unknown;
  return values && typeof values === 'object' && Object.keys(values).length === 0 ? undefined : JSON.stringify(values);
}

/** The files of dir that are new, changed or gone since the snapshot, each with what happened to it. */
export function changedFiles(dir: string, before: FolderSnapshot): string[] {
  const now = snapshotFolder(dir);
  const out: string[] = [];
  for (const rel of new Set([...before.keys(), ...now.keys()])) {
    const [was, is] = [content(rel, before.get(rel)), content(rel, now.get(rel))];
    if (was === is) continue;
    out.push(`${rel} (${was === undefined ? 'left behind' : is === undefined ? 'deleted' : 'edited on disk'})`);
  }
  return out.sort();
}

/** Puts dir back as the snapshot has it: new files and folders go, changed and deleted files get their bytes back. */
export function restoreFolder(dir: string, before: FolderSnapshot): void {
  const keptDirs = new Set([...before.keys()].flatMap((rel) => rel.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && keptDirs.has(r)) walk(r);
      else if (e.isDirectory() || !before.has(r)) fs.rmSync(path.join(dir, r), { recursive: true, force: true });
    }
  };
  walk('');
  for (const [rel, bytes] of before) {
    const file = path.join(dir, rel);
    if (fs.existsSync(file) && fs.readFileSync(file).equals(bytes)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
  }
}
