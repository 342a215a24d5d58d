// One batch Emacs run over the bundled server, as the Emacs system tests drive it: the documents written to a fresh folder, the
// docs/editors.md block named `block` as the user's set-up, `edgekit-language-server` on PATH, and the driver (test/emacs/*.el)
// printing JSON lines. Emacs and the server it starts run in their own process group, so that a hang ends both.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serverJs } from '../../unit/reliability/soak';
import { ROOT, editorBlock, serverOnPath } from '../../unit/lsp/editors';

export type Event = { event: string } & Record<string, unknown>;

export interface EmacsRun { code: number | null; events: Event[]; stdout: string; stderr: string; all(name: string): Event[] }

export async function runEmacs(driver: string, block: string, files: Record<string, string>, env: Record<string, string>): Promise<EmacsRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-emacs-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const config = path.join(dir, 'config.el');
  fs.writeFileSync(config, editorBlock(block, 'elisp'));
  const bin = serverOnPath(dir, serverJs());
  const child = spawn('emacs', ['--batch', '-Q', '-l', path.join(ROOT, 'test/emacs', driver)], {
    cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, EDGEKIT_DIR: dir, EDGEKIT_CONFIG: config, ...env },
  });
  const killAll = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } };
  const timer = setTimeout(killAll, 60_000);
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  try {
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const events = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Event);
    return { code, events, stdout, stderr, all: (name) => events.filter((e) => e.event === name) };
  } finally {
    clearTimeout(timer);
    killAll();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
