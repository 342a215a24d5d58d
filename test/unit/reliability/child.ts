// The mock backend as a separate process, started the way a user starts it (`node --import tsx mock/src/bin.ts --port 0
// --state FILE`). Its URLs and generated credentials are read from what it prints; stop() sends SIGTERM, kill() SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'mock/src/bin.ts');

export interface MockChild {
  child: ChildProcess;
  url: string;
  gatewayUrl: string;
  apiBaseUrl: string;
  apiToken: string;
  apiKey: string;
  apiEmail: string;
  /** Everything the child wrote to stderr so far (warnings such as a corrupt state file). */
  stderr(): string;
  /** Resolves with the exit code or signal once the process has gone. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process has gone. */
  stop(): Promise<number | NodeJS.Signals | null>;
}

function field(lines: string[], label: string): string {
  const line = lines.find((l) => l.startsWith(label + ': '));
  if (!line) throw new Error(`the mock did not print "${label}:"; it printed:\n${lines.join('\n')}`);
  return line.slice(label.length + 2).trim();
}

/** Start the mock on a free loopback port, with more options in `args`; rejects if it does not print "Press Ctrl+C to stop." within
 * `timeoutMs`. */
export function startMockChild(stateFile: string, timeoutMs = 20_000, args: string[] = []): Promise<MockChild> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.EDGEKIT_MOCK_API_TOKEN;
    delete env.EDGEKIT_MOCK_API_KEY;
    delete env.EDGEKIT_MOCK_API_EMAIL;
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, '--host', '127.0.0.1', '--port', '0', '--state', stateFile, ...args],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (b: Buffer) => { err += b.toString(); });
    const exited = new Promise<number | NodeJS.Signals | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
    const lines: string[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the mock did not start within ${timeoutMs} ms; stderr: ${err.trim()}`));
    }, timeoutMs);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited (${String(how)}) before it was ready; stderr: ${err.trim()}`));
    });
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      lines.push(line);
      if (line !== 'Press Ctrl+C to stop.') return;
      clearTimeout(timer);
      rl.close();
      child.stdout!.resume();
      try {
        const apiBaseUrl = field(lines, 'API base');
        resolve({
          child,
          url: apiBaseUrl.replace(/\/client\/v4$/, ''),
          gatewayUrl: field(lines, 'Gateway URL'),
          apiBaseUrl,
          apiToken: field(lines, 'API token (generated)'),
          apiKey: field(lines, 'API key (generated)'),
          apiEmail: field(lines, 'API email (generated)'),
          stderr: () => err,
          exited,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
            const how = await exited;
            clearTimeout(t);
            return how;
          },
        });
      } catch (e) {
        child.kill('SIGKILL');
        reject(e as Error);
      }
    });
  });
}
