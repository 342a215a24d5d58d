// Questions asked one after another in one quick input, after VS Code's multi-step pattern (the extension-samples'
// quickinput-sample/src/multiStepInput.ts): every step shows the flow's title and "step/total", every step after the first a Back
// button that returns to the step before with its answer kept, and Escape (or the input hidden) ends the whole flow. The caller keeps
// the answers in its own state and acts on them only once the last step is answered.
import * as vscode from 'vscode';

/** A step: asks its question through `input`, keeps the answer in `state`, and returns the next step (undefined: the last). */
export type Step<S> = (input: MultiStepInput, state: S) => Promise<Step<S> | undefined>;

/** What ends a step without an answer: Back pressed, or the input hidden (Escape, focus lost). */
const BACK = Symbol('back');
const CANCEL = Symbol('cancel');

interface Shown {
  title: string;
  /** The number of steps the answers so far lead to (the sample's totalSteps: it grows when an answer adds a step). */
  totalSteps: number;
}

export interface InputStep extends Shown {
  value?: string;
  prompt?: string;
  placeholder?: string;
  password?: boolean;
  /** Kept open when the user looks elsewhere (for text fetched from another window). */
  ignoreFocusOut?: boolean;
  /** Why the text cannot be taken (undefined: it can), shown under the box as it is typed and checked on Enter. */
  validate?: (value: string) => string | undefined;
}

export interface PickStep<T extends vscode.QuickPickItem> extends Shown {
  items: T[];
  placeholder?: string;
  /** The item highlighted when the step opens: the one picked before, on coming Back. */
  active?: T;
}

export class MultiStepInput {
  /** The steps answered, and the one asked now (last). */
  private readonly steps: Step<never>[] = [];
  private current?: vscode.QuickInput;

  /** Runs the flow from `start`: true when its last step was answered, false when it ended unanswered (nothing should be kept). */
  static async run<S>(start: Step<S>, state: S): Promise<boolean> {
    return new MultiStepInput().stepThrough(start, state);
  }

  private async stepThrough<S>(start: Step<S>, state: S): Promise<boolean> {
    let step: Step<S> | undefined = start;
    try {
      while (step) {
        this.steps.push(step as Step<never>);
        try {
          step = await step(this, state);
          // A step answered before, returned again (Set API Credentials…' Re-enter): going back to it, as Back would, with its number
          // and no Back on the first (it was shown as one step more: "4/4" for the first question).
          const before = step ? this.steps.indexOf(step as Step<never>) : -1;
          if (before >= 0) this.steps.length = before;
        } catch (err) {
          if (err === CANCEL) return false;
          if (err !== BACK) throw err;
          this.steps.pop();
          step = this.steps.pop() as Step<S> | undefined;
        }
      }
      return true;
    } finally {
      this.current?.dispose();
    }
  }

  /** The number of the step asked now (1 for the first). */
  private get stepNumber(): number { return this.steps.length; }

  /** Shows `input` in place of the step before (disposed after the new one shows: no flicker), with the flow's title, count and Back. */
  private show(input: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, s: Shown): void {
    input.title = s.title;
    input.step = this.stepNumber;
    input.totalSteps = Math.max(s.totalSteps, this.stepNumber);
    input.buttons = this.stepNumber > 1 ? [vscode.QuickInputButtons.Back] : [];
    const before = this.current;
    this.current = input;
    input.show();
    before?.dispose();
  }

  /** The text entered; rejects with Back or the flow's end. */
  async showInputBox(s: InputStep): Promise<string> {
    const input = vscode.window.createInputBox();
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<string>((resolve, reject) => {
        input.value = s.value ?? '';
        input.prompt = s.prompt;
        input.placeholder = s.placeholder;
        input.password = !!s.password;
        input.ignoreFocusOut = !!s.ignoreFocusOut;
        disposables.push(
          input.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) reject(BACK); }),
          input.onDidAccept(() => {
            const problem = s.validate?.(input.value);
            input.validationMessage = problem;
            if (problem === undefined) resolve(input.value);
          }),
          input.onDidChangeValue((v) => { input.validationMessage = s.validate?.(v); }),
          input.onDidHide(() => reject(CANCEL)),
        );
        this.show(input, s);
      });
    } finally {
      for (const d of disposables) d.dispose();
    }
  }

  /**
   * Work done as a step (a request): a pick shown busy, saying `s.placeholder`, while `work` runs, with nothing to choose; resolves
   * with what `work` returns. Rejects with Back or the flow's end, during the work as well (its signal is aborted then, and what it
   * returns after is dropped).
   */
  async showBusy<R>(s: Shown & { placeholder: string }, work: (signal: AbortSignal) => Promise<R>): Promise<R> {
    const pick = vscode.window.createQuickPick();
    const aborted = new AbortController();
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<R>((resolve, reject) => {
        const end = (why: symbol) => { aborted.abort(); reject(why); };
        pick.placeholder = s.placeholder;
        pick.busy = true;
        pick.ignoreFocusOut = true;
        disposables.push(
          pick.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) end(BACK); }),
          pick.onDidHide(() => end(CANCEL)),
        );
        this.show(pick, s);
        work(aborted.signal).then((done) => { if (!aborted.signal.aborted) resolve(done); }, reject);
      });
    } finally {
      for (const d of disposables) d.dispose();
    }
  }

  /**
   * A question whose reason may be long (a check that failed, with the API's words): a modal warning, `message` in bold and the
   * whole `detail` under it, wrapped, where a quick pick's placeholder or item is cut at the widget's width (ux3). The flow's input
   * is closed first (nothing left behind the dialog); the first of `choices` is the dialog's default button. Resolves with the
   * choice; rejects with the flow's end on Cancel or Escape. (A modal has no Back: a choice that goes back is one of `choices`.)
   */
  async askModal<C extends string>(message: string, detail: string, choices: readonly C[]): Promise<C> {
    this.current?.dispose();
    this.current = undefined;
    const chosen = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...choices);
    if (chosen === undefined) throw CANCEL;
    return chosen;
  }

  /** The item picked; rejects with Back or the flow's end. */
  async showQuickPick<T extends vscode.QuickPickItem>(s: PickStep<T>): Promise<T> {
    const pick = vscode.window.createQuickPick<T>();
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<T>((resolve, reject) => {
        pick.items = s.items;
        pick.placeholder = s.placeholder;
        if (s.active) pick.activeItems = [s.active];
        disposables.push(
          pick.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) reject(BACK); }),
          pick.onDidAccept(() => { const [chosen] = pick.selectedItems; if (chosen) resolve(chosen); }),
          pick.onDidHide(() => reject(CANCEL)),
        );
        this.show(pick, s);
      });
    } finally {
      for (const d of disposables) d.dispose();
    }
  }
}
