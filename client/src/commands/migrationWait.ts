// Where a migration's question that is not modal waits (the review's Continue, validation mode's Inspect / Review and Finish /
// Later), and the ways to answer it besides its notification, which VS Code hides after a few seconds or once the user clicks into
// the review document: a lens at the top of the review document (Continue, Cancel, and what stands in the way of deploying it), the
// review's title bar and the palette ("EdgeKit: Continue Migration" / "EdgeKit: Cancel Migration", shown while a question waits:
// the context keys below). Every way resolves the same wait as the notification's buttons.
import * as vscode from 'vscode';
import type { Zone } from '../http/api';
import { UserError } from './run';

/** Set while any migration question waits: the palette shows Continue / Cancel Migration. */
const WAITING_KEY = 'edgekit.migration.waiting';
/** The file names of the review documents that wait (resourceFilename): their title bar shows Continue / Cancel. */
const REVIEWING_KEY = 'edgekit.migration.reviewing';

/** One question waiting for its answer; `answer()` gives the next one, from a notification, a lens or a command. */
export class Wait implements vscode.Disposable {
  /** What stands in the way of deploying the review as it is now (shown in its lens), undefined when nothing does. */
  problem: string | undefined;
  question: string;
  private settle: { resolve(pick: string | undefined): void; reject(err: unknown): void } | undefined;
  private latest: Promise<string | undefined> | undefined;
  private ended = false;
  /** A notification that failed (ctx.ui.ask rejected): the next answer is that error, so the run ends with it instead of waiting. */
  private failure: { err: unknown } | undefined;

  /**
   * `show` asks the question as a notification; `options` are its buttons. `doc`: the review document the question waits on.
   * `late`: a button of one of its notifications clicked once the wait has ended (VS Code cannot close them for us).
   */
  constructor(readonly zone: Zone, readonly options: string[], private readonly show: (question: string) => Promise<string | undefined>,
    public doc?: vscode.TextDocument, private readonly late?: (pick: string) => void) {
    this.question = '';
    waits.add(this);
    changed();
  }

  /** The next answer: a button of any of the question's notifications, Continue or Cancel from a lens or a command (Cancel and the
   * latest notification dismissed give undefined). An answer while none is awaited (between two rounds) is dropped. */
  answer(): Promise<string | undefined> {
    if (this.failure) return Promise.reject(this.failure.err);
    return new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
  }

  /** Asks `question` as a notification (again). An earlier notification still answers; only the latest one's dismissal does: VS
   * Code closes a notification with the same text as a new one, which resolves it as dismissed. */
  ask(question: string): void {
    this.question = question;
    const p = this.show(question);
    this.latest = p;
    void Promise.resolve(p).then((pick) => {
      if (this.ended) { if (pick !== undefined) this.late?.(pick); return; }
      if (pick !== undefined || p === this.latest) this.resolve(pick);
    }, (err: unknown) => {
      if (this.ended) return;
      this.failure = { err };
      const settle = this.settle;
      this.settle = undefined;
      settle?.reject(err);
    });
  }

  resolve(pick: string | undefined): void {
    const settle = this.settle;
    this.settle = undefined;
    settle?.resolve(pick);
  }

  /** The review goes on in `doc`: the file it was saved as (Save As closes the untitled document), or the same document closed. */
  follow(doc: vscode.TextDocument): void {
    this.doc = doc;
    changed();
  }

  /** Say a new problem (or none) in the lens. */
  setProblem(problem: string | undefined): void {
    if (problem === this.problem) return;
    this.problem = problem;
    lensesChanged.fire();
  }

  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    this.resolve(undefined);
    waits.delete(this);
    changed();
  }
}

const waits = new Set<Wait>();

/** Whether a wait other than `wait` is on `doc` (a review saved as that file): another zone's review, not to be taken for this one. */
export function followedElsewhere(doc: vscode.TextDocument, wait: Wait): boolean {
  return [...waits].some((w) => w !== wait && w.doc?.uri.toString() === doc.uri.toString() && !w.doc.isClosed);
}
const lensesChanged = new vscode.EventEmitter<void>();
let lensRegistration: { schemes: string; registration: vscode.Disposable } | undefined;

export const fileName = (uri: vscode.Uri): string => uri.path.split('/').pop() ?? uri.path;

/** The context keys, and the lens provider while a review waits (none registered otherwise), for the schemes of the reviews (untitled,
 * and the file's once one is saved). A closed review has neither (the palette still answers it). */
function changed(): void {
  const reviews = [...waits].filter((w) => w.doc && !w.doc.isClosed);
  void vscode.commands.executeCommand('setContext', WAITING_KEY, waits.size > 0);
  void vscode.commands.executeCommand('setContext', REVIEWING_KEY, reviews.map((w) => fileName(w.doc!.uri)));
  const schemes = [...new Set(reviews.map((w) => w.doc!.uri.scheme))].sort().join(' ');
  if (lensRegistration && lensRegistration.schemes !== schemes) {
    lensRegistration.registration.dispose();
    lensRegistration = undefined;
  }
  if (schemes && !lensRegistration) {
    const selector = schemes.split(' ').map((scheme) => ({ scheme }));
    lensRegistration = { schemes, registration: vscode.languages.registerCodeLensProvider(selector, { onDidChangeCodeLenses: lensesChanged.event, provideCodeLenses }) };
  }
  lensesChanged.fire();
}

function provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
  const w = [...waits].find((x) => x.doc && !x.doc.isClosed && x.doc.uri.toString() === doc.uri.toString());
  if (!w) return [];
  const top = new vscode.Range(0, 0, 0, 0);
  const lenses = [
    new vscode.CodeLens(top, { title: `$(debug-continue) Continue the migration of ${w.zone.name}`, command: 'edgekit.migration.continue', arguments: [doc.uri] }),
    new vscode.CodeLens(top, { title: '$(debug-stop) Cancel', command: 'edgekit.migration.cancel', arguments: [doc.uri] }),
  ];
  // Said, not a button (an empty command id): what Continue would refuse, as of the last check of the document.
  if (w.problem) lenses.push(new vscode.CodeLens(top, { title: `$(warning) ${w.problem}`, command: '' }));
  return lenses;
}

/** The wait a command means: the review document it was given (title bar, lens) or a zone's id or name, else the active editor's
 * review, else the only one, else the one the user picks. */
async function waitFor(arg: unknown, verb: string): Promise<Wait | undefined> {
  const all = [...waits];
  if (!all.length) throw new UserError('No migration is waiting for an answer.');
  const uri = arg instanceof vscode.Uri ? arg.toString() : undefined;
  if (uri) {
    const w = all.find((x) => x.doc?.uri.toString() === uri);
    if (!w) throw new UserError(`No migration waits on the review ${fileName(arg as vscode.Uri)}.`);
    return w;
  }
  if (typeof arg === 'string') {
    const w = all.find((x) => x.zone.id === arg || x.zone.name === arg);
    if (!w) throw new UserError(`No migration of ${arg} is waiting for an answer.`);
    return w;
  }
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const mine = all.find((x) => x.doc && x.doc.uri.toString() === active);
  if (mine) return mine;
  if (all.length === 1) return all[0];
  const pick = await vscode.window.showQuickPick(all.map((w) => ({ label: w.zone.name, description: w.doc ? `review of ${fileName(w.doc.uri)}` : undefined, wait: w })),
    { title: `${verb} which migration?` });
  return pick?.wait;
}

/** edgekit.migration.continue: the review goes on (checked as on the notification's Continue); another question is asked again as
 * a quick pick of its answers. */
export async function continueWait(arg: unknown): Promise<void> {
  const w = await waitFor(arg, 'Continue');
  if (!w) return;
  if (w.options.length === 1) return w.resolve(w.options[0]);
  const pick = await vscode.window.showQuickPick(w.options, { title: `Migration of ${w.zone.name}`, placeHolder: w.question });
  if (pick !== undefined) w.resolve(pick);
}

/** edgekit.migration.cancel: answers as the notification's dismissal does (the review: cancelled, nothing sent; validation mode's
 * question: stopped there, the zone stays in validation mode). */
export async function cancelWait(arg: unknown): Promise<void> {
  (await waitFor(arg, 'Cancel'))?.resolve(undefined);
}
