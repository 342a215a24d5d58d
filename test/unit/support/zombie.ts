// A process that exists as a zombie (killed, not yet reaped) while `run` runs: for the pid-lock tests of the mock's state lock and
// npm start's session lock. The shell starts `head`, which waits for a byte on fd 3, then becomes `sleep`, which never reaps its
// children: once `head` exits, its pid is a zombie while the sleep runs. No event says when a process has exec'd or exited:
// /proc says, polled with a deadline.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ok()) {
    assert.ok(Date.now() < deadline, `not seen within 5 s: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

const state = (pid: number) => { const st = readFileSync(`/proc/${pid}/stat`, 'utf8'); return st[st.lastIndexOf(')') + 2]; };

/** Runs `run` with the pid of a zombie process; the zombie's parent is killed afterwards. */
export async function withZombie(run: (pid: number) => Promise<void>): Promise<void> {
  const parent = spawn('sh', ['-c', 'head -c1 <&3 >/dev/null & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore', 'pipe'] });
  try {
    const pid = Number(await new Promise<string>((r) => parent.stdout!.once('data', (d) => r(String(d).trim()))));
    await until('the shell became sleep', () => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() === 'sleep');
    (parent.stdio[3] as NodeJS.WritableStream).write('x');
    await until(`process ${pid} is a zombie`, () => state(pid) === 'Z');
    await run(pid);
  } finally {
    await new Promise((r) => { parent.once('exit', r); parent.kill(); });
  }
}
