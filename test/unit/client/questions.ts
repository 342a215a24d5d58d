// A stand-in for the client's `ctx.ui` (client/src/ui.ts) in command tests: every question is checked to be modal, recorded, and
// answered from a queue.
import assert from 'node:assert/strict';

export interface Asked { question: string; options: string[]; detail?: string }

/**
 * Modal questions recorded in `asked` and answered in order from `answers` (undefined: dismissed). With no answer left, a question
 * is dismissed, or, when `unexpected` is "throw", fails the command that asked it (a test that means nothing to be asked).
 */
export function recordedQuestions(unexpected: 'dismiss' | 'throw' = 'dismiss'): { asked: Asked[]; answers: (string | undefined)[];
  ui: { ask: (question: string, options: string[], opts: { modal: boolean; detail?: string }) => Promise<string | undefined> } } {
  const asked: Asked[] = [];
  const answers: (string | undefined)[] = [];
  const ui = {
    ask: async (question: string, options: string[], opts: { modal: boolean; detail?: string }) => {
      assert.equal(opts.modal, true);
      asked.push({ question, options, detail: opts.detail });
      if (!answers.length && unexpected === 'throw') throw new Error(`Unexpected question: ${question}`);
      return answers.shift();
    },
  };
  return { asked, answers, ui };
}
