// Commands: send a JSON-RPC request (one item or the whole document) to the gateway, copy it as curl, and the history.
import * as vscode from 'vscode';
import { applyEdits, format, parseTree, type ParseError } from 'jsonc-parser';
import type { Ctx } from '../ctx';
import { Config, turnsOffQuestion } from '../config';
import { requestMethods, sendJsonRpc, withoutEditorHints } from '../http/gateway';
import { responseHeader } from '../views/responses';
import { toCurl } from '../http/request';
import { DocumentInfoRequest, plural, type DocumentInfoResult } from '../../../server/src/protocol';
import { documentOf } from './logpush';
import { UserError } from './run';
import { exclusive } from './inFlight';
import { MultiStepInput, type Step } from '../multiStep';
import { documentName } from '../untitled';

interface SendArgs { index?: number | null }

/**
 * The exact text to send: the whole document, or one item of a batch (its own characters, so nothing is re-serialised), less the
 * editor hint "$schema".
 */
export function bodyToSend(doc: vscode.TextDocument, args: SendArgs | undefined): string {
  return withoutEditorHints(documentBody(doc, args).text);
}

/** The text to send and, for one item of a batch, where it is in the document (offsets). */
function documentBody(doc: vscode.TextDocument, args: SendArgs | undefined): { text: string; item?: [number, number] } {
  const text = doc.getText();
  if (args?.index === undefined || args.index === null) return { text: text.trim() };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true });
  if (!root || errors.length > 0) {
    throw new UserError(`${documentName(doc.uri)} is not valid JSON; fix the syntax error first.`);
  }
  if (root.type !== 'array') return { text: text.trim() };
  const item = root.children?.[args.index];
  if (!item) throw new UserError(`${documentName(doc.uri)} has no request at index ${args.index}.`);
  return { text: text.slice(item.offset, item.offset + item.length), item: [item.offset, item.offset + item.length] };
}

/** JSON text indented by two spaces, its tokens (numbers, strings) as they were written. */
function indented(text: string): string {
  const trimmed = text.trim();
  return applyEdits(trimmed, format(trimmed, undefined, { tabSize: 2, insertSpaces: true, eol: '\n' }));
}

function label(body: string): string {
  const methods = requestMethods(body);
  if (methods.length === 0) return 'request';
  return methods.length === 1 ? methods[0] : `batch of ${methods.length} (${[...new Set(methods)].slice(0, 3).join(', ')}${methods.length > 3 ? ', …' : ''})`;
}

/**
 * The language server's verdict on the document as it is now (it has every edit; the diagnostics VS Code holds lag an edit by one
 * pull, and "Send without" cut members at the places they had held): its errors, or those inside one item of a batch (the lens
 * "Send request" above it sends that item alone), and what can be sent, as the lenses say it.
 */
function verdictOf(ctx: Ctx, doc: vscode.TextDocument, item?: [number, number]): Promise<DocumentInfoResult> {
  return ctx.server.request(DocumentInfoRequest.type, { uri: doc.uri.toString(), problems: true, ...(item ? { within: { offset: item[0], length: item[1] - item[0] } } : {}) });
}

/** A method the gateway does not support, listed or misspelt: the gateway refuses its request with HTTP 403. */
const isRefusal = (code: string | undefined) => code === 'jsonrpc/unsupported-method' || code === 'jsonrpc/unknown-method';

/**
 * A batch with some members whose method the gateway refuses (and some it takes; `refused`: their indexes and methods, the
 * server's verdict on `text`): the others as a batch, each member's text as written, and the refused methods quoted; undefined for
 * anything else. `text` is the document's text when the verdict was asked for: an edit that comes in while the server answers
 * moves the members its indexes count.
 */
function withoutRefused(text: string, refused: readonly { index: number | null; quoted: string }[]): { body: string; methods: string[] } | undefined {
  const indexes = new Set(refused.map((r) => r.index));
  if (refused.length === 0 || indexes.has(null)) return undefined;
  const errs: ParseError[] = [];
  const root = parseTree(text, errs, { disallowComments: true });
  if (!root || errs.length > 0 || root.type !== 'array' || !root.children) return undefined;
  const kept = root.children.filter((_n, i) => !indexes.has(i));
  if (kept.length === 0 || kept.length === root.children.length) return undefined;
  return { body: `[\n  ${kept.map((n) => text.slice(n.offset, n.offset + n.length)).join(',\n  ')}\n]`, methods: [...new Set(refused.map((r) => r.quoted))] };
}

const GO_TO_PROBLEM = 'Go to Problem';

/** Shows a request document's first syntax error, as the server finds it now (the "Cannot send" lens, and the question of Send). */
async function showSyntaxError(ctx: Ctx, uriArg: unknown): Promise<void> {
  const doc = await documentOf('jsonrpc-request', uriArg, 'gateway request (*.rpc.json)');
  const at = (await ctx.server.request(DocumentInfoRequest.type, { uri: doc.uri.toString() })).send?.cannotSend;
  if (!at) {
    void vscode.window.showInformationMessage(`${documentName(doc.uri)} has no syntax error now.`);
    return;
  }
  await goToProblem(doc, at);
}

/** The problem at a position selected in its document's editor, and its message shown there (the editor's hover). */
async function goToProblem(doc: vscode.TextDocument, at: { line: number; character: number }): Promise<void> {
  const pos = new vscode.Position(at.line, at.character);
  // In the editor that shows it (the lens's, the title bar's), not a second tab of it in the active group.
  const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === doc.uri.toString())?.viewColumn;
  const editor = await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: false, ...(column ? { viewColumn: column } : {}) });
  editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  // The hover at the position shows the problems there, this one among them. Go to Next Problem (F8) was used: it takes the first
  // marker, errors first, whose range holds the position, so a problem ending where this one starts (a missing "{" read as the
  // document being a string, ending at the ":" whose syntax error this is) was shown instead, as "1 of 2".
  await vscode.commands.executeCommand('editor.action.showHover');
}

/** Sends and shows; returns what tests and the history need. */
export async function send(ctx: Ctx, uriArg: unknown, args: SendArgs | undefined) {
  const doc = await documentOf('jsonrpc-request', uriArg, 'gateway request (*.rpc.json)');
  const part = documentBody(doc, args);
  let body = withoutEditorHints(part.text);
  // Sent again before the answer came (its lens or title button clicked twice, Enter twice): the document's response document
  // would show whichever answer came last, perhaps the older request's. One send at a time per document.
  return oneSendAt(doc.uri.toString(), body, async () => {
    if (Config.confirmSendWithErrors(doc.uri)) {
      const judged = doc.getText();
      const info = await verdictOf(ctx, doc, part.item);
      const name = documentName(doc.uri);
      const detail = turnsOffQuestion('gateway.confirmSendWithErrors');
      const syntax = info.send?.cannotSend;
      const errors = info.problems?.errors ?? 0;
      const first = info.problems?.firstError;
      if (syntax) {
        // The lens's own sentence ("Cannot send: syntax error on line 3"): the gateway answers a body that does not parse with a
        // parse error, which is what Send anyway shows; going to the problem is the default (Enter).
        const pick = await ctx.ui.ask(`${syntax.title} of ${name}: ${syntax.message}${/[.?!]$/.test(syntax.message) ? '' : '.'}`, [GO_TO_PROBLEM, 'Send anyway'],
          { modal: true, detail: `Sent anyway, it is answered with the gateway's parse error (-32700). ${detail}` });
        if (pick === GO_TO_PROBLEM) await goToProblem(doc, syntax);
        if (pick !== 'Send anyway') throw new vscode.CancellationError();
      } else if (errors > 0 && first) {
        // A refused method's error says it is refused (HTTP 403) itself, so not "probably" again.
        const likely = isRefusal(first.code) ? '' : ' The gateway will probably refuse it.';
        // The whole batch: its other members can go without the refused ones.
        const others = part.item ? undefined : withoutRefused(judged, info.send?.refused ?? []);
        const without = others && `Send without ${others.methods.length <= 2 ? others.methods.join(' and ') : `the ${others.methods.length} refused methods`}`;
        const pick = await ctx.ui.ask(
          `${name} has ${plural(errors, 'error')}, e.g. line ${first.line + 1}: ${first.message}${likely} Send anyway?`,
          without ? [without, 'Send anyway'] : ['Send anyway'], { modal: true, detail });
        if (others && pick === without) body = withoutEditorHints(others.body);
        else if (pick !== 'Send anyway') throw new vscode.CancellationError();
      }
    }
    return sendBody(ctx, body, doc.uri.toString());
  });
}

/**
 * Runs `fn`, a send of `body` whose response goes to the response document of `sourceUri` (the request document), unless a send to
 * that document is under way (Send, or Show Sent Requests' "Send again" of a request recorded from it): one answer per response
 * document at a time. A recorded request with no document (a response document of its own) is keyed on its body.
 */
function oneSendAt<T>(sourceUri: string | undefined, body: string, fn: () => Promise<T>): Promise<T> {
  const doing = `Sending ${label(body)}${sourceUri ? ` from ${documentName(vscode.Uri.parse(sourceUri))}` : ' again'}`;
  return exclusive(sourceUri ? `send ${sourceUri}` : `send again ${body}`, doing, fn);
}

/** Sends a body as it is (a document's, or one the history recorded), shows the response, and records it in the history. */
async function sendBody(ctx: Ctx, body: string, sourceUri: string | undefined) {
  const ep = await ctx.backend.endpoints('gateway');
  const what = label(body);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `EdgeKit: sending ${what} to ${new URL(ep.gatewayUrl).host}`, cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return sendJsonRpc(ep.gatewayUrl, body, { timeoutMs: Config.requestTimeoutMs(), signal: abort.signal, embeddedMock: ep.embedded });
    });
  const at = new Date();
  const header: string[] = [`POST ${ep.gatewayUrl}${ep.embedded ? ' (embedded mock backend)' : ''}`];
  let content: string;
  let summary: string;
  if (result.ok) {
    summary = result.summary;
    // The time, as Show Sent Requests writes it: a send again updates the document in place, and an answer like the last is seen
    // to be new.
    header.push(`HTTP ${result.status} · ${result.ms} ms · ${what} · ${at.toLocaleTimeString()}`, ...summary.split('\n'));
    // The gateway's own text, indented: parsed and written again, an id past 2^53 lost its last digits and 1.0 became 1.
    const pretty = typeof result.body === 'string' ? JSON.stringify(result.body) : indented(result.text);
    content = `${responseHeader(header)}\n${pretty}\n`;
  } else {
    if (result.kind === 'aborted') throw new vscode.CancellationError();
    summary = result.error;
    header.push(`No response: ${result.error}`);
    content = `${responseHeader(header)}\n`;
  }
  const uri = await ctx.responses.record({
    url: ep.gatewayUrl, body, label: what, time: at.toISOString(), status: result.ok ? result.status : undefined, ms: result.ok ? result.ms : undefined,
    summary, ...(sourceUri ? { sourceUri } : {}),
  }, content);
  await ctx.responses.open(uri, { source: sourceUri });
  if (!result.ok) throw new UserError(result.error);
  return { status: result.status, body: result.body, summary, responseUri: uri.toString(), success: result.success };
}

export const gatewayCommands = {
  'edgekit.gateway.send': (ctx: Ctx) => (uri?: unknown, args?: unknown) => send(ctx, uri, args as SendArgs | undefined),
  /** The "Cannot send: syntax error on line N" lens: to that error. */
  'edgekit.gateway.showSyntaxError': (ctx: Ctx) => (uri?: unknown) => showSyntaxError(ctx, uri),
  'edgekit.gateway.copyAsCurl': (ctx: Ctx) => async (uri?: unknown, args?: unknown) => {
    const doc = await documentOf('jsonrpc-request', uri, 'gateway request (*.rpc.json)');
    const body = bodyToSend(doc, args as SendArgs | undefined);
    const ep = await ctx.backend.endpoints('gateway');
    const curl = toCurl({ method: 'POST', url: ep.gatewayUrl, headers: { 'Content-Type': 'application/json' }, body, timeoutMs: Config.requestTimeoutMs() }, { redactSecrets: true });
    await vscode.env.clipboard.writeText(curl);
    void vscode.window.showInformationMessage('Copied the request as a curl command.');
    return curl;
  },
  /**
   * The gateway's URL to the clipboard, for the user's own code (ethers' JsonRpcProvider, viem's http transport): the mock's
   * (started if need be) or edgekit.gateway.url. The mock on a free port (edgekit.mock.port 0) has another address at its next
   * start: keeping this port is offered, so that a URL pasted into code goes on working.
   */
  'edgekit.gateway.copyUrl': (ctx: Ctx) => async () => {
    const ep = await ctx.backend.endpoints('gateway');
    await vscode.env.clipboard.writeText(ep.gatewayUrl);
    if (!ep.embedded) {
      void vscode.window.showInformationMessage(`Copied ${ep.gatewayUrl}, the gateway of "edgekit.gateway.url".`);
      return ep.gatewayUrl;
    }
    // The URL first: a notification shows its first line only (about 50 characters) until it is expanded.
    const copied = `Copied ${ep.gatewayUrl}, the embedded mock's gateway (chain id 1; /v1/sepolia is Sepolia).`;
    if (Config.mockPort() !== 0) {
      void vscode.window.showInformationMessage(copied);
      return ep.gatewayUrl;
    }
    const port = Number(new URL(ep.gatewayUrl).port);
    const keep = `Keep Port ${port}`;
    void vscode.window.showInformationMessage(`${copied} Its port changes with each start; keep this one for code that uses the URL.`, keep).then(async (pick) => {
      if (pick !== keep) return;
      // Machine scope: VS Code writes it where the extension host reads it (a remote window's own settings there).
      await vscode.workspace.getConfiguration('edgekit').update('mock.port', port, vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(`The embedded mock keeps port ${port} ("edgekit.mock.port"); if another program holds it at a start, the mock says so and takes a free one.`);
    }).then(undefined, (err: unknown) => ctx.log.error('Keeping the mock\'s port failed', err));
    return ep.gatewayUrl;
  },
  'edgekit.gateway.history': (ctx: Ctx) => async () => {
    const history = ctx.responses.history();
    // An empty history is a normal state, not an error
    if (history.length === 0) {
      void vscode.window.showInformationMessage('No gateway request has been sent yet: "EdgeKit: Send Request" on a gateway request (*.rpc.json) sends one and keeps it here.');
      return undefined;
    }
    const items = history.map((h) => ({
      label: h.label, description: `${h.status ? `HTTP ${h.status}` : 'no response'}${h.ms !== undefined ? ` · ${h.ms} ms` : ''} · ${new Date(h.time).toLocaleTimeString()}`,
      detail: h.summary.split('\n')[0], entry: h,
    }));
    const chosen: { request?: (typeof items)[number]; action?: vscode.QuickPickItem } = {};
    const title = 'EdgeKit: sent gateway requests';
    const askAction: Step<typeof chosen> = async (input) => {
      const actions = ['Open response', 'Send again', 'Copy as curl'].map((label) => ({ label }));
      chosen.action = await input.showQuickPick({ title, totalSteps: 2, items: actions, placeholder: `What to do with ${chosen.request?.label}?`,
        active: actions.find((a) => a.label === chosen.action?.label) });
      return undefined;
    };
    const askRequest: Step<typeof chosen> = async (input) => {
      chosen.request = await input.showQuickPick({ title, totalSteps: 2, items, placeholder: 'Pick a request to open its response or send it again',
        active: items.find((i) => i.entry === chosen.request?.entry) });
      return askAction;
    };
    if (!(await MultiStepInput.run(askRequest, chosen)) || !chosen.request) return;
    const pick = chosen.request;
    const action = chosen.action?.label;
    if (action === 'Open response') await ctx.responses.openEntry(pick.entry);
    else if (action === 'Send again') {
      // The recorded body itself: an untitled document opened with it would be dirty, left unseen for hot exit to restore as a tab
      // or for the window to ask about when it closes.
      await oneSendAt(pick.entry.sourceUri, pick.entry.body, () => sendBody(ctx, pick.entry.body, pick.entry.sourceUri));
    } else if (action === 'Copy as curl') {
      await vscode.env.clipboard.writeText(toCurl({ method: 'POST', url: pick.entry.url, headers: { 'Content-Type': 'application/json' }, body: pick.entry.body, timeoutMs: Config.requestTimeoutMs() }, { redactSecrets: true }));
      void vscode.window.showInformationMessage('Copied the request as a curl command.');
    }
  },
};
