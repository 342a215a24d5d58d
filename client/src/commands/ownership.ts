// The destination ownership challenge of a job document, shared by "Prove Logpush Destination Ownership…" and by Create and Update,
// which check before sending that the document's "ownership_challenge" still holds where and when EdgeKit proved it (see
// ownershipProofs.ts) and offer to prove it again.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { modify, parseTree, type Edit, type Node } from 'jsonc-parser';
import type { Ctx } from '../ctx';
import { Config } from '../config';
import { mockChallengeToken, type Api, type JobPlace } from '../http/api';
import { PROOFS_FOLDER, proofOf, proofProblems, rememberProof, shownDestination, type ProofPlaces } from '../ownershipProofs';
import { readJobText, syntaxRefusal } from '../jobSyntax';
import { UserError } from './run';
import { unwrap, whileWaiting } from './api';

/** Where the proofs are: a folder in the extension's global storage folder, which every window shares (ownershipProofs.ts). */
export function proofPlaces(ctx: Ctx): ProofPlaces {
  return { dir: path.join(ctx.extension.globalStorageUri.fsPath, PROOFS_FOLDER), legacy: ctx.extension.globalState };
}

export function ownerWords(place: JobPlace): string {
  return `${'zone' in place.owner ? 'zone' : 'account'} ${place.ownerName}`;
}

/**
 * Whether the platform asks for an ownership challenge before a job to this destination: an S3 bucket without its own access keys
 * or endpoint= (S3-compatible storage, R2 among them), Google Cloud Storage, Azure, Sumo Logic (its "Ownership challenge FAQ"). A copy of the mock's
 * needsOwnershipChallenge (mock/src/management.ts), which the client does not load until the mock runs; a unit test holds them equal.
 */
export function needsChallenge(conf: string): boolean {
  const c = conf.trim();
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(c)?.[1]?.toLowerCase();
  if (scheme === 's3') return !/[?&](access-key-id|endpoint)=/.test(c);
  return scheme === 'gs' || scheme === 'azure' || scheme === 'sumo';
}

/** The value of a job document's last top-level `member` (the one JSON.parse and the platform keep), when it has one. */
export function lastMemberValue(text: string, member: string): Node | undefined {
  const root = parseTree(text);
  const members = root?.type === 'object' ? (root.children ?? []).filter((p) => p.children?.[0]?.value === member && p.children[1]) : [];
  return members[members.length - 1]?.children?.[1];
}

/**
 * The edits that make `value` a job document's top-level `member`: the value of its last such member replaced (jsonc-parser's
 * modify sets the first), else a member added in the document's own indentation (modify re-indents the member before the new one
 * with its formatting options).
 */
export function memberEdits(text: string, member: string, value: unknown): Edit[] {
  const last = lastMemberValue(text, member);
  if (last) return [{ offset: last.offset, length: last.length, content: JSON.stringify(value) }];
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const tabs = indent.startsWith('\t');
  return modify(text, [member], value, { formattingOptions: { tabSize: tabs ? 1 : indent.length, insertSpaces: !tabs, eol: text.includes('\r\n') ? '\r\n' : '\n' } });
}

/** Applies `edits` of `doc`'s text as one edit the user sees and can undo; false when the document could not be edited. */
export async function applyTextEdits(doc: vscode.TextDocument, edits: Edit[]): Promise<boolean> {
  const we = new vscode.WorkspaceEdit();
  for (const e of edits) we.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
  return vscode.workspace.applyEdit(we);
}

/** Refuses, with the reason, a destination the platform asks no ownership challenge for. */
export function refuseUnchallenged(name: string, conf: string): void {
  if (needsChallenge(conf)) return;
  throw new UserError(`${name} sends its logs to ${shownDestination(conf)}, for which the platform asks no ownership challenge: it challenges S3 buckets (those without their own access keys or endpoint=), Google Cloud Storage, Azure and Sumo Logic.`);
}

/**
 * Proves ownership of `conf` for a job in `where`: the backend writes a file holding a token into the destination (POST
 * …/logpush/ownership), the user pastes the token (or `tokenArg` gives it), the backend confirms it (…/ownership/validate), and it
 * goes into the document as "ownership_challenge" (an edit the user can undo; not sent). Where and when is remembered.
 */
export async function proveAt(ctx: Ctx, api: Api, doc: vscode.TextDocument, name: string, conf: string, where: JobPlace, tokenArg?: string): Promise<{ filename: string; token: string }> {
  refuseUnchallenged(name, conf);
  const destination = shownDestination(conf);
  // The platform issues the token when it writes the file: its 7 days count from here (a little before, never after).
  const askedAt = Date.now();
  const challenge = unwrap(await whileWaiting(`asking the backend to write an ownership challenge into ${destination}`, () => api.logpushOwnership(where.owner, conf)));
  let token = tokenArg;
  if (token === undefined) {
    token = await vscode.window.showInputBox({
      title: `Ownership challenge of ${destination}`,
      prompt: `The backend wrote ${challenge.filename} into ${destination}. Paste the token that file holds.`,
      placeHolder: `The token in ${challenge.filename} (its whole text)`,
      value: Config.backend() === 'embedded' ? mockChallengeToken(challenge.message) : undefined,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : `The token from ${challenge.filename}.`),
    });
    if (token === undefined) throw new vscode.CancellationError();
  }
  const given = token = token.trim();
  const valid = unwrap(await whileWaiting(`validating the ownership challenge of ${destination}`, () => api.validateLogpushOwnership(where.owner, conf, given)));
  if (!valid.valid) throw new UserError(`The backend says "${token.length > 12 ? `${token.slice(0, 12)}…` : token}" is not a valid ownership challenge of ${destination} in ${ownerWords(where)}: not the token issued for it, or expired (a token holds for 7 days); paste the token from ${challenge.filename}, written just now.`);
  if (!(await applyTextEdits(doc, memberEdits(doc.getText(), 'ownership_challenge', token)))) throw new UserError(`${name} could not be edited to add "ownership_challenge" (is it read-only?).`);
  await rememberProof(proofPlaces(ctx), token, where, conf, askedAt);
  void vscode.window.showInformationMessage(`The backend confirmed the ownership challenge of ${destination}; it is in ${name} as "ownership_challenge".`);
  return { filename: challenge.filename, token };
}

/** Proves ownership of `conf` in `where` (proveAt), then reads the job document again, the token in it: the job to send. */
async function proveAndRead(ctx: Ctx, api: Api, doc: vscode.TextDocument, name: string, conf: string, where: JobPlace): Promise<unknown> {
  await proveAt(ctx, api, doc, name, conf, where);
  const read = readJobText(doc.getText());
  if ('error' in read) throw new UserError(syntaxRefusal(name, read.error));
  return read.value;
}

/**
 * The destination_conf a job would be refused at for want of its ownership challenge, which confirmUnproven asks about: one the
 * platform challenges (needsChallenge: not an S3 bucket with its own keys or an endpoint=) with no "ownership_challenge" (none,
 * null or ""). undefined when there is nothing to ask.
 */
export function unprovenDestination(job: unknown): string | undefined {
  if (job === null || typeof job !== 'object') return undefined;
  const { destination_conf: conf, ownership_challenge: token } = job as { ownership_challenge?: unknown; destination_conf?: unknown };
  return typeof conf === 'string' && needsChallenge(conf) && (token === undefined || token === null || token === '') ? conf : undefined;
}

/** The button of confirmUnproven that proves ownership, then sends the job with the token. */
export const PROVE_FIRST = 'Prove Ownership First';
/** Its button that sends the job without a token, offered when the backend is the embedded mock, which takes it (with a note). */
export const MOCK_ANYWAY = 'Create on the Mock Anyway';
/** The same for an Update that moves the job to a destination the platform challenges. */
export const MOCK_ANYWAY_UPDATE = 'Update on the Mock Anyway';

/**
 * Before Create sends a job document to `where` (or Update moves its job to another destination_conf, `action` 'update'): when its
 * destination is one the platform challenges and the document has no "ownership_challenge" (none, or ""), the platform would refuse
 * the job, so the user is asked (modal) before anything is sent: "Prove Ownership First" runs Prove Ownership for `where` and the job
 * is sent with the token; with the embedded mock as the backend, "Create on the Mock Anyway" ("Update on the Mock Anyway") sends it
 * as it is (the mock takes it and notes the missing challenge). Returns the job to send (read again after a proof), or undefined
 * when the question was dismissed.
 */
export async function confirmUnproven(ctx: Ctx, api: Api, doc: vscode.TextDocument, name: string, job: unknown, where: JobPlace,
  action: 'create' | 'update' = 'create'): Promise<unknown> {
  const conf = unprovenDestination(job);
  if (conf === undefined) return job;
  const mock = Config.backend() === 'embedded';
  const anyway = action === 'create' ? MOCK_ANYWAY : MOCK_ANYWAY_UPDATE;
  const destination = shownDestination(conf);
  const s3 = /^s3:\/\//i.test(conf.trim());
  const answer = await ctx.ui.ask(`${name} has no "ownership_challenge": the platform refuses a job to ${destination} without one.`,
    mock ? [PROVE_FIRST, anyway] : [PROVE_FIRST], { modal: true, detail: [
      'The platform asks a job to prove it may write to an S3 bucket (one without its own access keys or endpoint), Google Cloud Storage, Azure or Sumo Logic: ' +
        `it writes a file holding a token into the destination, and the job is ${action === 'create' ? 'created' : 'moved there'} with that token.`,
      `"${PROVE_FIRST}" asks for the token for ${destination} in ${ownerWords(where)}, writes it into ${name} as "ownership_challenge", then ${action === 'create' ? 'creates' : 'updates'} the job.`,
      ...(s3 ? ['An S3 destination_conf with its own access-key-id and secret-access-key, or with an endpoint= (S3-compatible storage such as R2), needs no challenge.'] : []),
      ...(mock ? [`"${anyway}" ${action === 'create' ? 'creates' : 'updates'} it without one: the embedded mock notes the missing challenge and goes on; the platform would not.`] : []),
    ].join('\n') });
  if (answer === anyway && mock) return job;
  if (answer !== PROVE_FIRST) return undefined;
  return proveAndRead(ctx, api, doc, name, conf, where);
}

/**
 * The ownership questions before Create or Update sends a job document to `where`, in turn: a token EdgeKit proved that may be
 * refused there (confirmChallenge), then none where the platform asks for one (confirmUnproven; `unproven` false for an Update that
 * keeps the job's own destination, for which the platform asks none). The job to send, or undefined when a question was dismissed.
 */
export async function confirmOwnership(ctx: Ctx, api: Api, doc: vscode.TextDocument, name: string, job: unknown, where: JobPlace,
  action: 'create' | 'update', unproven = true): Promise<unknown> {
  const checked = await confirmChallenge(ctx, api, doc, name, job, where);
  return checked === undefined || !unproven ? checked : confirmUnproven(ctx, api, doc, name, checked, where, action);
}

/**
 * Before Create or Update sends a job document to `where`: when its "ownership_challenge" is a token EdgeKit proved, and it was
 * proven in another zone or account, for another destination_conf, or longer ago than the platform accepts, the user is asked
 * (modal) with what differs and may prove ownership again. Returns the job to send (read again after a new proof), or undefined
 * when the question was dismissed. A token EdgeKit never saw (pasted by hand) is sent as it is.
 */
export async function confirmChallenge(ctx: Ctx, api: Api, doc: vscode.TextDocument, name: string, job: unknown, where: JobPlace): Promise<unknown> {
  const j = (job ?? {}) as { ownership_challenge?: unknown; destination_conf?: unknown };
  const token = j.ownership_challenge;
  const conf = j.destination_conf;
  if (typeof token !== 'string' || !token || typeof conf !== 'string') return job;
  const proof = await proofOf(proofPlaces(ctx), token);
  const reasons = proof ? proofProblems(proof, where, conf, Date.now()) : [];
  if (reasons.length === 0) return job;
  const again = needsChallenge(conf);
  const answer = await ctx.ui.ask(`The "ownership_challenge" in ${name} may be refused: ${reasons.join('; ')}.`,
    again ? ['Prove Ownership Again', 'Send As It Is'] : ['Send As It Is'], { modal: true, detail:
      'The platform ties a token to the zone or account and the whole destination_conf it was asked for, and it expires 7 days after. ' +
      (again ? `"Prove Ownership Again" asks for a new one for ${shownDestination(conf)} in ${ownerWords(where)}, then sends the job with it.`
        : `The platform asks no ownership challenge for ${shownDestination(conf)}: the member can be removed.`) });
  if (answer === 'Send As It Is') return job;
  if (answer !== 'Prove Ownership Again') return undefined;
  return proveAndRead(ctx, api, doc, name, conf, where);
}
