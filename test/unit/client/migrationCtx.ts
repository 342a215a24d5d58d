// The migration command's unit tests' set-up, shared (migration*.test.ts): an in-process mock backend for one test, closed after it
// whatever happens, and a Ctx on it whose questions a function answers. Import './vscode' (the stand-in) before this.
import { changes, fake } from './vscode';
import type { Ctx } from '../../../client/src/ctx';
import { LANGUAGE_IDS } from '../../../client/src/languages';
import { RulesetZones } from '../../../client/src/rulesetZones';
import { startMockBackend, type MockBackend, type MockBackendOptions } from '../../../mock/src/backend';

/** Answers a question (undefined: dismissed; a promise that never settles: a notification nobody clicks). */
export type Answer = (q: string, options: string[], modal: boolean) => string | undefined | Promise<string | undefined>;

/** Runs `fn` with a mock on a free port (rate limits off unless `options` says otherwise), and closes it after. */
export async function withMock(fn: (mock: MockBackend) => Promise<void>, options: Omit<MockBackendOptions, 'port'> = { rateLimit: false }): Promise<void> {
  const mock = await startMockBackend({ port: 0, ...options });
  try {
    await fn(mock);
  } finally {
    await mock.close();
  }
}

/**
 * A Ctx on `mock` whose questions `answer` answers, each recorded in `asked`. `shown`: the zone the Security Events view shows (its
 * refreshes counted in `events`); without it the Ctx has no such view. `request`: the language server's answer; by default no
 * problems, of a document it was given: one of EdgeKit's languages (any other is none of the server's: kind null, nothing counted).
 * `embedded`: whether `mock` stands for the embedded mock (the default) or a standalone one at edgekit.api.baseUrl.
 */
export function ctxFor(mock: MockBackend, answer: Answer, opts: { shown?: { id: string; name: string }; request?: () => Promise<unknown>; embedded?: boolean } = {}) {
  const asked: { q: string; options: string[]; modal: boolean }[] = [];
  const events = { zone: opts.shown, refreshed: 0, refresh: async () => { events.refreshed++; } };
  const ctx = {
    backend: { endpoints: async () => ({ embedded: opts.embedded ?? true, gatewayUrl: mock.gatewayUrl, apiBaseUrl: mock.apiBaseUrl, apiToken: mock.credentials.apiToken }) },
    zones: { refresh() {} },
    ...(opts.shown ? { securityEvents: events } : {}),
    ui: { ask: async (q: string, options: string[], o?: { modal?: boolean }) => { asked.push({ q, options, modal: !!o?.modal }); for (const l of [...changes]) l(); return answer(q, options, !!o?.modal); } },
    server: { request: opts.request ?? (async (_type: unknown, params: { uri: string }) => {
      const doc = fake.documents.get(params.uri);
      return doc && (LANGUAGE_IDS as readonly string[]).includes(doc.languageId) ? { kind: doc.languageId, problems: { errors: 0, warnings: 0 } } : { kind: null };
    }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
    rulesetZones: new RulesetZones(),
  } as unknown as Ctx;
  return { ctx, asked, events };
}

/** An answer that never comes: a question left waiting, answered elsewhere (the lens, the title bar, the palette). */
export const never = () => new Promise<string | undefined>(() => undefined);

/**
 * `get()`'s value once it has one: checked now, and again after each change the stand-in `vscode` sees (`changes`: an event fired, a
 * command run, a document added or removed, a progress report, a message) or a question is asked, once that change's synchronous run
 * is over. What VS Code would show only on a change nobody announced is never seen. Fails naming `what` when nothing has given it
 * a value in `ms` (a guard against a hang, not a wait).
 */
export function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let scheduled = false;
    let checking: Promise<void> | undefined;
    const finish = (end: () => void) => { done = true; changes.delete(onChange); clearTimeout(timer); end(); };
    const check = async () => {
      try {
        const v = await get();
        if (v && !done) finish(() => resolve(v));
      } catch (err) {
        if (!done) finish(() => reject(err));
      }
    };
    // One check at a time; changes during one are looked at by the next.
    const run = () => {
      scheduled = false;
      if (done) return;
      checking = (checking ?? Promise.resolve()).then(check);
    };
    const onChange = () => { if (!scheduled) { scheduled = true; setImmediate(run); } };
    const timer = setTimeout(() => { if (!done) finish(() => reject(new Error(`timed out waiting for ${what}`))); }, ms);
    changes.add(onChange);
    run();
  });
}
