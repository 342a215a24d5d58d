// Commands: step a zone through the managed-rules migration (check, review the config, optional validation, pending), the zones
// tree's actions, and the infrastructure-as-code export. The flow itself is the pure machine in flow/; this is the thin driver.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { runMigration } from '../flow/driver';
import { describeCheck, describeState, type State } from '../flow/machine';
import { currentConfig, type MigrationConfig, type Zone } from '../http/api';
import { DocumentInfoRequest, ToTerraformRequest, plural, type TerraformResult } from '../../../server/src/protocol';
import { apiFor, apiRefusedHere, pickZone, sourceOf, unwrap, whileWaiting, zoneHints } from './api';
import { UserError } from './run';
import { exclusive } from './inFlight';
import { fileSafe, freeUntitledUri, untitledUriFor, zoneFileSafe, showUntitledJson, showUntitledText, untitledJsonText } from '../untitled';
import { inspectSecurityEvents } from './traffic';
import { readJobText, syntaxRefusal } from '../jobSyntax';
import { Wait, cancelWait, continueWait, fileName, followedElsewhere } from './migrationWait';

/** The review's language (and the server's kind for it). */
const RULESET_LANGUAGE = 'waf-ruleset';

function zoneFileName(zone: Zone): string {
  return `${zoneFileSafe(zone.name)}.ruleset.json`;
}

/** Where a zone's configuration opens: an untitled <zone>.ruleset.json, or <zone>-2.ruleset.json... when a file has that name (VS
 * Code refuses an untitled document where a file is: the review saved by the user). */
function configUri(zone: Zone): Promise<vscode.Uri> {
  return freeUntitledUri(zoneFileName(zone));
}

/** Opens a configuration as an untitled *.ruleset.json document (validated live by the language server), at `uri` or configUri. */
async function openConfig(zone: Zone, config: unknown, uri?: vscode.Uri): Promise<vscode.TextDocument> {
  return showUntitledJson(uri ?? await configUri(zone), config, RULESET_LANGUAGE);
}


/** Close an untitled document without the "Save changes?" question (its text is already deployed), in every tab showing it. */
async function closeUntitled(doc: vscode.TextDocument): Promise<void> {
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (vscode.window.activeTextEditor !== editor) return; // something else took the focus: leave the document as it is
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  const uri = doc.uri.toString();
  const others = vscode.window.tabGroups.all.flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri);
  if (others.length) await vscode.window.tabGroups.close(others);
}


/** The reviewed text as a configuration, or a sentence saying what is wrong with it. */
export function reviewedConfig(text: string): MigrationConfig | string {
  // Broken text is named by line and column in the server's words (what the editor marks), as the Logpush job commands do.
  const read = readJobText(text);
  if ('error' in read) return `it is not valid JSON: line ${read.error.line}, column ${read.error.column}: ${read.error.message}`;
  const v = read.value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'it must be a JSON object with "name" and "rules"';
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string') return 'its "name" must be a string';
  if (!Array.isArray(o.rules)) return 'its "rules" must be an array';
  // Every update of the flow is a migration step (validation or pending): with nothing to execute, the pending one would leave the
  // zone with neither rule set for good (the mock refuses both with 10508; the spec's rule 2).
  if (!o.rules.some((r) => (r as { action?: unknown } | null)?.action === 'execute')) {
    return 'its "rules" execute no managed ruleset, so the migration would run nothing new in place of the previous managed rules; keep the execute rules the configuration came with (they may be disabled)';
  }
  return o as MigrationConfig;
}

/** How long the review document must rest after an edit before it is checked again (its lens and the progress then follow). */
export const REVIEW_RECHECK_MS = 400;

/** The review as a configuration to deploy, or what stands in the way: `problem` for the lens and the progress, `question` to ask. */
type Verdict = { config: MigrationConfig } | { problem: string; question: string };

async function verdictOf(ctx: Ctx, doc: vscode.TextDocument, name: string): Promise<Verdict> {
  // Closed with no file to follow (Save As is followed: the wait's document is then the file): its last text is no one's review.
  if (doc.isClosed) {
    return { problem: `${name} was closed without being saved.`, question: `${name} was closed without being saved, so there is no review to deploy: Cancel, then migrate again to review the configuration afresh.` };
  }
  const reviewed = reviewedConfig(doc.getText());
  if (typeof reviewed === 'string') {
    const why = `${reviewed}${/[.?!]$/.test(reviewed) ? '' : '.'}`;
    // The lens says it short: "Not valid JSON: line 11, column 18: ...", "Its "rules" must be an array."
    return { problem: why.replace(/^it is /, '').replace(/^./, (c) => c.toUpperCase()), question: `The configuration in ${name} cannot be deployed: ${why} Fix it, then continue.` };
  }
  // Asked of the server, which has every edit made so far (published diagnostics may lag behind).
  const info = await ctx.server.request(DocumentInfoRequest.type, { uri: doc.uri.toString(), problems: true });
  // The server is given EdgeKit's languages only: a review saved as plain .json (Save As keeps the language the file's name gives)
  // or whose language was changed is none of its documents, and its answer (kind null, nothing counted) is not "no errors".
  if (info.kind !== RULESET_LANGUAGE) {
    const why = doc.languageId !== RULESET_LANGUAGE ? `its language is "${doc.languageId}"` : 'EdgeKit\'s language server has not been given it';
    const fix = doc.languageId !== RULESET_LANGUAGE ? 'change its language to WAF Ruleset (Change Language Mode, in the status bar)' : 'open it as a file or an untitled document';
    return { problem: `Not checked as a WAF ruleset: ${why}.`, question: `${name} is not checked as a WAF ruleset (${why}), so its errors are not known: ${fix}, then continue.` };
  }
  if (info.problems && info.problems.errors > 0) {
    const e = info.problems.firstError;
    const errors = `${plural(info.problems.errors, 'error')}${e ? `, e.g. line ${e.line + 1}: ${e.message.replace(/\.?$/, '.')}` : '.'}`;
    return { problem: errors, question: `${name} has ${errors} Fix them, then continue.` };
  }
  return { config: reviewed };
}

/** A run's review: its document (the file it was saved as, once saved), its text when the user accepted it, and that text once an
 * update carried it to the zone. */
type Review = { doc: vscode.TextDocument; accepted?: string; deployed?: string };

export async function migrate(ctx: Ctx, zoneArg: unknown): Promise<State> {
  const api = await apiFor(ctx);
  const zone = await pickZone(api, zoneArg, 'Migrate which zone to the new managed rules?', undefined, zoneHints(ctx));
  // A second run while one waits (a double click on Migrate) is refused as the other overlaps are, through the same guard: said,
  // then ended quietly (docs/architecture.md, "Overlap leftovers (cc2)"; rv39: it had a set and a sentence of its own). Keyed on the
  // backend as the job guards are (Api.source: one key for the embedded mock on any port; lf21: it was the API base URL).
  return exclusive(`migrate ${api.source} ${zone.id}`, `Migrating ${zone.name}`, async () => {
    let review: Review | undefined;
    const final = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `EdgeKit migration: ${zone.name}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        // A question or the review may be pending when the user cancels: answer it with "dismissed".
        const orCancel = <T>(p: Promise<T>): Promise<T | undefined> =>
          Promise.race([p, new Promise<undefined>((resolve) => { if (abort.signal.aborted) resolve(undefined); abort.signal.addEventListener('abort', () => resolve(undefined)); })]);
        // A question that is not modal is an information message, which VS Code hides after a few seconds or once the user clicks
        // elsewhere; it is also answered from the palette (and a review from its lens and title bar: Wait).
        try {
          return await runMigration({
            api,
            signal: abort.signal,
            progress: (s) => { progress.report({ message: s }); ctx.log.info(`[migration ${zone.name}] ${s}`); },
            ask: async (question, options, opts) => {
              if (opts.modal) return orCancel(ctx.ui.ask(question, options, opts));
              const wait = new Wait(zone, options, (q) => ctx.ui.ask(q, options, opts));
              try {
                // That an answer waits, and where, first and short: the status bar shows the start of this line only.
                const choices = options.join(', ').replace(/, (?=[^,]*$)/, ' or ');
                progress.report({ message: `${opts.topic ? `${opts.topic}: waiting` : 'Waiting'} for your answer. Run "EdgeKit: Continue Migration" (or see Notifications): ${choices}.` });
                const answer = wait.answer();
                wait.ask(question);
                return await orCancel(answer);
              } finally {
                wait.dispose();
              }
            },
            showConfig: async (config: MigrationConfig, notes: string[]) => {
              const uri = await configUri(zone);
              let name = fileName(uri);
              // A document already at that name with text of its own (an earlier run that failed or was cancelled keeps the user's
              // changes; or edits made since this run's last update) is not written over in silence. Opened, not looked up among
              // workspace.textDocuments: a tab restored from a hot-exit backup is not listed there until it is resolved.
              const earlier = await vscode.workspace.openTextDocument(uri);
              const text = earlier.getText();
              let doc: vscode.TextDocument | undefined;
              if (text.trim() !== '' && text !== review?.accepted && text !== untitledJsonText(config)) {
                const pick = await orCancel(ctx.ui.ask(
                  `${name} already holds a configuration of ${zone.name}, perhaps with your changes from an earlier run. Review that text, or replace it with the configuration just read?`,
                  ['Keep It', 'Replace'], { modal: true, detail: 'Replace writes the configuration just read over the document (Undo in the editor brings the old text back).' }));
                if (pick === undefined) throw new vscode.CancellationError();
                if (pick === 'Keep It') doc = (await vscode.window.showTextDocument(earlier, { preview: false })).document;
              }
              doc ??= await openConfig(zone, config, uri);
              // Test Rules' sample goes to this zone while the document is the review (and the file it is saved as, followed below)
              ctx.rulesetZones.set(doc.uri.toString(), zone.name);
              // The document reviewed: the untitled one, then the file it is saved as (Save As closes the untitled document).
              let reviewed = doc;
              const current: Review = review = { doc }; // a second review (validation, then "Review and Finish") starts over
              // What the migration drops (the old core rule set's overrides) is recreated here, in the review, or never.
              const lost = notes.length ? ` Not migrated: ${notes.join(' ')}` : '';
              const reviewQuestion = () => `Review the new configuration of ${zone.name} in ${name} (you may adjust it), then continue.${lost}`;
              // The question is an information message, which VS Code hides after a few seconds or once the user clicks into the
              // document; the lens at the top of the document, its title bar and the palette answer it too, and the progress (in the
              // notification and the status bar) says so.
              let cancelled = false;
              const wait = new Wait(zone, ['Continue'], (q) => ctx.ui.ask(q, ['Continue'], { modal: false }), doc, (late) => {
                // VS Code cannot close the notification for us: its "Continue", clicked once the run has ended, says so.
                if (late === 'Continue' && cancelled) void vscode.window.showInformationMessage(`That migration run of ${zone.name} has ended (cancelled). Run "EdgeKit: Migrate Zone to New Managed Rules…" to review it again.`);
              });
              let done = false;
              // A file's document closed (its tab): the review is the file as saved, read again on Continue. (An untitled one closed
              // is gone.)
              const fileClosed = () => reviewed.isClosed && reviewed.uri.scheme !== 'untitled';
              const waiting = (v?: Verdict) => progress.report({ message: fileClosed()
                ? `${name} was closed: "EdgeKit: Continue Migration" deploys it as saved, after a check; or Cancel.`
                : reviewed.isClosed
                ? `${name} was closed without being saved: Cancel, then migrate again to review the configuration afresh.`
                : v && 'problem' in v
                  ? `${name}: ${v.problem} Fix it, then Continue at the top of the document.`
                  : `Waiting for your review of ${name}: Continue or Cancel at the top of the document or in its title bar (or on its question, in Notifications once hidden).` });
              // The document checked again as it changes (after a pause in typing), so that the lens and the progress say what is
              // wrong now; once the question shown names an error that is gone, the review's own question is asked again.
              let seq = 0;
              let timer: ReturnType<typeof setTimeout> | undefined;
              const recheck = async () => {
                const mine = ++seq;
                if (fileClosed()) { wait.setProblem(undefined); return waiting(); }
                const v = await verdictOf(ctx, reviewed, name).catch(() => undefined);
                if (mine !== seq || !v || done) return;
                wait.setProblem('problem' in v ? v.problem : undefined);
                waiting(v);
                if (!('problem' in v) && wait.question !== reviewQuestion()) wait.ask(reviewQuestion());
              };
              // Save As (or Save) of the untitled review: VS Code opens the file's document with its text and saves it, then reverts the
              // untitled one, which closes it; nothing links the two (TextDocument.uri never changes). The wait follows the document
              // opened or saved during the wait that holds the closed one's text; with none, the review was closed without a save.
              // Save As of a file (the review saved once already) reverts it when it is dirty: its last text is the file's, no longer
              // the target's. So each document seen is kept with whether it held the review's text then: the target, saved last
              // before the close, did.
              const seen: { doc: vscode.TextDocument; same: boolean }[] = [];
              const see = (d: vscode.TextDocument) => {
                if (d.uri.scheme !== 'untitled' && d !== reviewed) seen.splice(0, seen.push({ doc: d, same: d.getText() === reviewed.getText() }) - 8);
              };
              const edits = vscode.workspace.onDidChangeTextDocument((e) => {
                if (e.document.uri.toString() !== reviewed.uri.toString()) return;
                // An edit (not a revert, after which the document is no longer dirty): what held the review's text before does not now.
                if (e.document.isDirty) for (const x of seen) x.same = false;
                clearTimeout(timer);
                timer = setTimeout(() => void recheck(), REVIEW_RECHECK_MS);
              });
              const lifecycle = [vscode.workspace.onDidSaveTextDocument(see),
                vscode.workspace.onDidOpenTextDocument((d) => {
                  // The review's language changed (VS Code closes and opens the same document): the server has it, or no longer.
                  if (d.uri.toString() === reviewed.uri.toString()) void recheck();
                  else see(d);
                }),
                vscode.workspace.onDidCloseTextDocument((d) => {
                  // A change of language closes and opens the same document, which stays open.
                  if (d.uri.toString() !== reviewed.uri.toString() || !reviewed.isClosed) return;
                  const text = reviewed.getText();
                  // (Not a file another zone's review was saved as: two reviews may hold the same text.)
                  const free = (x: { doc: vscode.TextDocument }) => !x.doc.isClosed && !followedElsewhere(x.doc, wait);
                  const last = seen.at(-1);
                  const saved = last?.same && free(last) ? last.doc : [...seen].reverse().find((x) => free(x) && x.doc.getText() === text)?.doc;
                  seen.length = 0;
                  if (saved) {
                    ctx.log.info(`[migration ${zone.name}] the review ${name} was saved as ${saved.uri.toString()}; following it`);
                    reviewed = current.doc = saved;
                    name = fileName(saved.uri);
                    ctx.rulesetZones.set(saved.uri.toString(), zone.name);
                  } else {
                    ctx.log.info(`[migration ${zone.name}] the review ${name} was closed ${fileClosed() ? '(its file is the review)' : 'without being saved'}`);
                  }
                  wait.follow(reviewed);
                  waiting();
                  void recheck();
                })];
              try {
                waiting();
                void recheck(); // a document kept from an earlier run may have errors already: the lens says them from the start
                for (let question = reviewQuestion(); ;) {
                  const answer = wait.answer();
                  wait.ask(question);
                  const pick = await orCancel(answer);
                  // Cancelled (the progress's Cancel, the lens's, the command) or the question dismissed: the flow ends cancelled and
                  // says so, nothing sent. (A CancellationError thrown here ended the run without a word.)
                  if (pick !== 'Continue') {
                    cancelled = true;
                    abort.abort();
                    return undefined;
                  }
                  if (fileClosed()) {
                    // Read again from its file (what it holds is the review; the server is given it too).
                    const again = await vscode.workspace.openTextDocument(reviewed.uri).then((d) => d, (err: unknown) => err as Error);
                    if (again instanceof Error) {
                      question = `${name} was closed and cannot be read again (${again.message}): open it, then continue; or Cancel.`;
                      continue;
                    }
                    reviewed = current.doc = again;
                    ctx.rulesetZones.set(again.uri.toString(), zone.name);
                    wait.follow(reviewed);
                  }
                  seq++; // a check of an earlier text, still under way, says nothing now
                  const v = await verdictOf(ctx, reviewed, name);
                  if ('config' in v) {
                    current.accepted = reviewed.getText();
                    return v.config;
                  }
                  question = v.question;
                  wait.setProblem(v.problem);
                  waiting(v);
                }
              } finally {
                done = true;
                clearTimeout(timer);
                edits.dispose();
                for (const l of lifecycle) l.dispose();
                wait.dispose();
              }
            },
            inspect: (z) => inspectSecurityEvents(ctx, z),
            onState: (st) => {
              ctx.log.info(`[migration ${zone.name}] state ${st.name}`);
              if ((st.name === 'updating-validation' || st.name === 'updating-pending') && review) review.deployed = review.accepted;
              // The zone is in validation mode while the run asks what next (perhaps for long): the tree says so now, not at the end.
              if (st.name === 'validation') ctx.zones.refresh();
            },
          }, zone);
        } finally {
          sub.dispose();
        }
      });
    ctx.zones.refresh();
    // The Security Events view showing this zone (after the inspect step) would still say "validation mode" of a migrated zone.
    // Keyed on the view, not on how the run ended: a run cancelled ("Later") or failed may have moved the zone all the same.
    if (ctx.securityEvents?.zone?.id === zone.id) {
      void ctx.securityEvents.refresh().catch((err: unknown) => ctx.log.warn(`Refreshing the security events failed: ${(err as Error).message}`));
    }
    // Once deployed, the untitled review document would only ask "Save changes?" when closed: close it unless it was edited since.
    // (A failed or declined run keeps it, with whatever the user changed; a review saved as a file is the user's, and stays.)
    // (Nor when another update got the zone there and the flow's own was refused: the reviewed text was not deployed.)
    const zoneNow = final.name === 'migrated' || final.name === 'validation' ? (final.byOther ? undefined : final.name) : final.name === 'cancelled' ? final.zoneState : undefined;
    if (review?.deployed !== undefined && (zoneNow === 'validation' || zoneNow === 'migrated') && review.doc.uri.scheme === 'untitled' && !review.doc.isClosed && review.doc.getText() === review.deployed) {
      await closeUntitled(review.doc).catch((err) => ctx.log.warn(`Closing the review document failed: ${(err as Error).message}`));
    }
    const message = describeState(final);
    if (final.name === 'failed' || final.name === 'not-eligible') void vscode.window.showErrorMessage(message);
    else {
      // What comes next, as a button: a migrated zone's rules as Terraform; after a cancel with nothing sent, the review kept
      // (the next run offers to keep it) and the run to take again.
      const next: { title: string; command: string }[] = [];
      let text = message;
      if (final.name === 'migrated') next.push({ title: 'Export as Terraform', command: 'edgekit.migration.exportTerraform' });
      if (final.name === 'cancelled' && final.zoneState === 'start' && review) {
        // The next run opens the untitled document again (and offers to keep its text); a file it was saved as stays the user's; a
        // review closed without a save is gone (its progress said to cancel and migrate again).
        if (!review.doc.isClosed || review.doc.uri.scheme !== 'untitled') {
          text = review.doc.uri.scheme === 'untitled'
            ? `${message} Your review in ${fileName(review.doc.uri)} is kept: migrate again to go on from it.`
            : `${message} Your review is saved in ${vscode.workspace.asRelativePath(review.doc.uri)}.`;
        }
        next.push({ title: 'Migrate Again', command: 'edgekit.migration.start' });
      } else if (final.name === 'cancelled' && final.zoneState === 'validation') {
        // "Run the migration again to finish": the run that finishes it, as a button.
        next.push({ title: 'Migrate Again', command: 'edgekit.migration.start' });
      }
      void Promise.resolve(vscode.window.showInformationMessage(text, ...next.map((n) => n.title))).then(async (pick) => {
        const chosen = next.find((n) => n.title === pick);
        if (!chosen) return;
        // The message may wait in Notifications while the user switches backends (edgekit.backend), and zone ids are no backend's
        // own (the embedded and a standalone mock share theirs): a button acts on the run's backend only, read as Api.source reads
        // it (the embedded mock restarted on another port is the same backend: lf21).
        const ep = await ctx.backend.endpoints('api', false).catch(() => undefined);
        const now = ep?.apiBaseUrl;
        if ((ep && sourceOf(ep)) !== api.source) {
          void vscode.window.showWarningMessage(`The migration of ${zone.name} ran on ${api.baseUrl}; EdgeKit now uses ${now ?? 'no backend'}, so "${chosen.title}" would act on another zone. Switch back to that backend, or run the command from the palette.`);
          return;
        }
        void vscode.commands.executeCommand(chosen.command, zone.id);
      });
    }
    return final;
  });
}

export const migrationCommands = {
  'edgekit.migration.start': (ctx: Ctx) => (zone?: unknown) => migrate(ctx, zone),
  'edgekit.migration.check': (ctx: Ctx) => async (zoneArg?: unknown) => {
    const api = await apiFor(ctx);
    const zone = await pickZone(api, zoneArg, 'Check which zone?', undefined, zoneHints(ctx));
    const r = await whileWaiting(`checking whether ${zone.name} can migrate`, () => api.check(zone.id));
    const check = unwrap(r);
    const { ok, text } = describeCheck(zone, check, r.ok ? r.messages.map((m) => m.message) : []);
    if (ok) void vscode.window.showInformationMessage(text); else void vscode.window.showWarningMessage(text);
    ctx.zones.refresh({ owner: { zone: zone.id }, source: api.source });
    return check;
  },
  'edgekit.migration.openConfig': (ctx: Ctx) => async (zoneArg?: unknown) => {
    const api = await apiFor(ctx);
    const zone = await pickZone(api, zoneArg, 'Open the new configuration of which zone?', undefined, zoneHints(ctx));
    // In validation mode (and after), what the zone runs: the entry point, not a fresh derivation from the previous rules.
    const doc = await openConfig(zone, unwrap(await whileWaiting(`reading the managed rules configuration of ${zone.name}`, () => currentConfig(api, zone.id))));
    ctx.rulesetZones.set(doc.uri.toString(), zone.name);
    return doc.uri.toString();
  },
  // A migration's question that waits, answered from its review's lens or title bar, or the palette (migrationWait.ts).
  'edgekit.migration.continue': (ctx: Ctx) => (arg?: unknown) => { ctx.log.info('[migration] Continue'); return continueWait(arg); },
  'edgekit.migration.cancel': (ctx: Ctx) => (arg?: unknown) => { ctx.log.info('[migration] Cancel'); return cancelWait(arg); },
  'edgekit.zones.refresh': (ctx: Ctx) => () => ctx.zones.refresh(),
  'edgekit.migration.exportTerraform': (ctx: Ctx) => async (zoneArg?: unknown) => {
    // From a ruleset's editor context menu (VS Code passes the document's URI): that document, as the palette's pick would (lf22).
    if (zoneArg instanceof vscode.Uri) return exportDocument(ctx, await rulesetDocumentAt(zoneArg));
    // From the palette with a ruleset in the editor: that document (as it stands, unsaved edits included) or a zone's deployed rules.
    const doc = zoneArg === undefined ? activeRulesetDocument() : undefined;
    const refusal = zoneReadRefusal();
    if (doc && await pickExportSource(doc, refusal) === 'document') return exportDocument(ctx, doc);
    if (refusal) throw new UserError(refusal);
    const api = await apiFor(ctx);
    const zone = await pickZone(api, zoneArg, 'Export the managed rules of which zone?', undefined, zoneHints(ctx));
    const ruleset = await whileWaiting(`reading the deployed managed rules of ${zone.name}`, async () => {
      const status = unwrap(await api.status(zone.id));
      if (status.migration_state !== 'migrated') {
        throw new UserError(`${zone.name} is not migrated yet (migration_state "${status.migration_state}"); the ruleset API manages its rules only after migration.`,
          [{ title: `Migrate ${zone.name}`, command: 'edgekit.migration.start', args: [zone.id] }]);
      }
      return unwrap(await api.entrypoint(zone.id));
    });
    const rulesetId = typeof ruleset.id === 'string' ? ruleset.id : '';
    if (!rulesetId) throw new UserError(`The entry point ruleset of ${zone.name} has no id in the API's answer.`);
    // The level is the path's, a zone's: said, not left to the answer's kind (a "root" there would be exported with account_id; rl11)
    const tf = terraformOf(zone.name, await ctx.server.request(ToTerraformRequest.type, { ruleset, zoneId: zone.id, rulesetId, scope: 'zone' }));
    const content = `# Managed rules of ${zone.name}, phase http_request_firewall_managed.\n# Import the existing ruleset into state with:\n#   terraform import ${tf.address} ${tf.importId}\n# and run a plan; then remove the svc_waf_package, svc_waf_group and svc_waf_rule resources from state and configuration,\n# and run a plan again: it should show no changes.\n\n${tf.hcl}`;
    // Named after the zone, so that its tab says what it holds and Save offers that name (untitled text is named by its first line).
    // In the Terraform language of an installed extension (HashiCorp's "terraform", else an HCL extension's "hcl"); no grammar of ours.
    await showUntitledText(await untitledUriFor(`${zoneFileSafe(zone.name)}.managed-rules.tf`, content), content, ['terraform', 'hcl']);
    return { importId: tf.importId, hcl: tf.hcl, address: tf.address };
  },
};

/** The server's export, or its refusal (a kind or phase the resource does not take) as the user's error, naming `what`; a question
 * left unanswered (a custom ruleset's level, which the zone path never meets) as one too. */
function terraformOf(what: string, r: TerraformResult): Extract<TerraformResult, { hcl: string }> {
  if ('error' in r) throw new UserError(`Cannot export ${what} as Terraform: ${r.error}`);
  if ('askScope' in r) throw new UserError(`Cannot export ${what} as Terraform: ${r.askScope}`);
  return r;
}

/** A custom ruleset's level, which its body does not say (the server's reason under the title); an account's first, as exports
 * wrote before (rl10). Dismissed: cancelled. */
async function pickScope(name: string, reason: string): Promise<'zone' | 'account'> {
  const items: (vscode.QuickPickItem & { scope: 'zone' | 'account' })[] = [
    { label: 'An account', description: 'account_id: run by the account\'s entry point (account-level custom rulesets take an Enterprise plan)', scope: 'account' },
    { label: 'A zone', description: 'zone_id: run by the zone\'s entry point', scope: 'zone' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: `Is the custom ruleset of ${name} an account's or a zone's?`, placeHolder: reason });
  if (!pick) throw new vscode.CancellationError();
  return pick.scope;
}

/** The active editor's document when it is a ruleset: EdgeKit's ruleset language, or a *.ruleset.json not (yet) in it. */
export function activeRulesetDocument(): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && isRulesetDocument(doc) ? doc : undefined;
}

function isRulesetDocument(doc: vscode.TextDocument): boolean {
  return doc.languageId === RULESET_LANGUAGE || doc.uri.path.endsWith('.ruleset.json');
}

/**
 * The ruleset document a URI argument names (the editor context menu's, or another extension's executeCommand), as the palette's
 * pick takes the active editor's (rv46): lf22 exported whatever it named, and a filter's text went to the server as a ruleset, and
 * a URI that cannot be opened (a file deleted since) failed with VS Code's "cannot open …" alone, naming no command.
 */
async function rulesetDocumentAt(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri).then((d) => d, (err: unknown) => {
    throw new UserError(`Cannot export ${fileName(uri)} as Terraform: it could not be opened (${(err as Error).message}).`);
  });
  if (!isRulesetDocument(doc)) throw new UserError(`Cannot export ${fileName(uri)} as Terraform: it is not a ruleset (*.ruleset.json; its language is "${doc.languageId}").`);
  return doc;
}

/**
 * Why a zone's deployed rules cannot be read in this window, or undefined: the remote backend in an untrusted workspace, whose
 * requests backend.ts refuses. The command stays enabled there (no trust `enablement`): the open document's export sends nothing.
 */
function zoneReadRefusal(): string | undefined {
  if (!apiRefusedHere()) return undefined;
  return 'A zone\'s deployed managed rules are read from the management API, and requests to real endpoints are disabled in an untrusted workspace. Trust the workspace, or open a ruleset document (*.ruleset.json) and export it.';
}

/** Export the open document or a zone's deployed rules? The document first; dismissed: cancelled. `refusal`: why the zone's
 * rules cannot be read here, said beside its item (picked, it is refused). */
export async function pickExportSource(doc: vscode.TextDocument, refusal?: string): Promise<'document' | 'zone'> {
  const items: (vscode.QuickPickItem & { source: 'document' | 'zone' })[] = [
    { label: fileName(doc.uri), description: 'the open document, unsaved edits included', source: 'document' },
    { label: 'A zone\'s deployed managed rules…', description: refusal ? 'read from the API: not in an untrusted workspace' : 'read from the API', source: 'zone' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Export which ruleset as Terraform?' });
  if (!pick) throw new vscode.CancellationError();
  return pick.source;
}

/**
 * A ruleset document as Terraform: its phase and kind (the managed entry point's by default), its zone or account as an input
 * variable (var.zone_id / var.account_id, declared in the text): a file written for a repository is not bound to one zone of the
 * backend at hand; which of the two a custom ruleset takes is asked (its body does not say). Broken JSON is refused naming the file
 * and its first syntax error.
 */
async function exportDocument(ctx: Ctx, doc: vscode.TextDocument) {
  const name = fileName(doc.uri);
  const read = readJobText(doc.getText());
  if ('error' in read) throw new UserError(`Cannot export ${syntaxRefusal(name, read.error)}`);
  const body = read.value as { id?: unknown; kind?: unknown; phase?: unknown } | null;
  const rulesetId = body && typeof body === 'object' && typeof body.id === 'string' ? body.id : '';
  const params = { ruleset: read.value, zoneId: '', rulesetId, variable: true };
  let answer = await ctx.server.request(ToTerraformRequest.type, params);
  // A custom ruleset lives in an account or a zone, its body the same at both: the user says which
  if ('askScope' in answer) answer = await ctx.server.request(ToTerraformRequest.type, { ...params, scope: await pickScope(name, answer.askScope) });
  const tf = terraformOf(name, answer);
  const scope = tf.scope;
  const custom = body?.kind === 'custom';
  const content = [
    `# The ruleset of ${name}, as the editor holds it.`,
    `# Set the ${scope} with -var ${scope}_id=<${scope.toUpperCase()}_ID> (or in terraform.tfvars), then terraform plan and apply create it.`,
    tf.importId
      ? `# To manage the existing ruleset ${rulesetId} instead, import it first:\n#   terraform import ${tf.address} ${tf.importId}`
      : custom
        // Not an entry point: a new one is created, and runs only where an entry point of its level executes it
        ? `# A custom ruleset runs once the ${scope}'s entry point of ${typeof body?.phase === 'string' ? `phase ${body.phase}` : 'its phase'} executes it (a rule with "action": "execute" and its id).`
        : `# An entry point ruleset (one per phase) that exists already has to be imported first:\n#   terraform import ${tf.address} ${scope}/<${scope.toUpperCase()}_ID>/<RULESET_ID>`,
    '', tf.hcl,
  ].join('\n');
  await showUntitledText(await untitledUriFor(fileSafe(`${name.replace(/\.json$/, '')}.tf`), content), content, ['terraform', 'hcl']);
  return { importId: tf.importId, hcl: tf.hcl, address: tf.address };
}
