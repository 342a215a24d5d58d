// Scripted answers for the questions commands ask in the extension-host tests (dialogs cannot be clicked there), behind helpers.ts
// scriptUi. Plain TypeScript, no vscode: unit-tested in test/unit/scripts/scriptedUi.test.ts.
//
// An answer that throws (an assertion that failed in it) or a question nobody scripted makes the question fail, as before; but a
// question that is not modal is a notification the command waits on among other ways of answering, so that failure alone could
// leave the command (and the test awaiting it) waiting until mocha's timeout, with the assertion's message nowhere. settle() races
// the command with the first such failure, so the test fails at once with the assertion's own error.

export type Answer = (question: string, options: string[]) => string | undefined | Promise<string | undefined>;

export interface ScriptedUi {
  /** What ctx.ui becomes: each question takes the next answer, in order. */
  ui: { ask(question: string, options: string[]): Promise<string | undefined> };
  /** The questions asked, in order. */
  asked: string[];
  /** `p` (a command's result), unless an answer has failed, before or while it runs: then that error, at once. */
  settle<T>(p: PromiseLike<T>): Promise<T>;
}

export function scriptedUi(answers: Answer[]): ScriptedUi {
  const asked: string[] = [];
  let fail!: (err: unknown) => void;
  let failed: { err: unknown } | undefined;
  const failure = new Promise<never>((_resolve, reject) => { fail = reject; });
  failure.catch(() => undefined); // said by settle(); a test that never calls it is not failed by an unhandled rejection
  const ui = {
    ask: async (question: string, options: string[]): Promise<string | undefined> => {
      asked.push(question);
      try {
        const next = answers.shift();
        if (!next) throw new Error(`Unexpected question: ${question}`);
        return await next(question, options);
      } catch (err) {
        failed ??= { err };
        fail(failed.err);
        throw err;
      }
    },
  };
  const settle = <T>(p: PromiseLike<T>): Promise<T> => (failed ? Promise.reject(failed.err) : Promise.race([Promise.resolve(p), failure]));
  return { ui, asked, settle };
}
