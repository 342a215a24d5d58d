// "Export as Terraform" with a ruleset in the editor (tf1): the quick pick offers that document first, then a zone's deployed
// rules; the document is exported as it stands (unsaved edits included), its zone or account as a Terraform variable; a document
// with a syntax error is refused naming the file and the problem. The stand-in `vscode`, the in-process mock, and the server's
// toTerraform answering the request as the language server does (server/src/lsp/requests.ts).
import { fake, resetFake, addDocument, editDocument, CancellationError, workspace, Uri } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ctxFor, withMock } from './migrationCtx';
import { migrate, migrationCommands } from '../../../client/src/commands/migration';
import { terraformAnswer } from '../../../server/src/core/rules/ruleset/terraform';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

const CUSTOM = { name: 'Block probes', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: '(http.request.uri.path eq "/.env")' }] };

/** A Ctx on `mock` whose server answers the Terraform request as the language server does (the core's terraformAnswer). */
function ctxWithServer(mock: Parameters<typeof ctxFor>[0]): Ctx {
  const { ctx } = ctxFor(mock, (_q, options) => options[0]);
  const server = (ctx as unknown as { server: { request(type: { method: string }, params: unknown): Promise<unknown> } }).server;
  const documentInfo = server.request;
  server.request = async (type, params) => {
    if (type.method !== 'edgekit/toTerraform') return documentInfo(type, params);
    return terraformAnswer(params as Parameters<typeof terraformAnswer>[0]);
  };
  return ctx;
}

const exported = () => [...fake.documents.values()].find((d) => d.uri.path.endsWith('.tf'));

test('with a ruleset document in the editor, the export offers it first, and exports its current text with its phase and kind', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    const doc = addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', '{}');
    editDocument(doc, JSON.stringify(CUSTOM, null, 2)); // unsaved edits: the text as the editor holds it
    fake.quickPickAnswers = ['probes.ruleset.json'];
    const out = await migrationCommands['edgekit.migration.exportTerraform'](ctx)();
    assert.equal(fake.quickPicks.length, 1, 'no zone asked for');
    assert.equal(fake.quickPicks[0].title, 'Export which ruleset as Terraform?');
    assert.deepEqual(fake.quickPicks[0].labels, ['probes.ruleset.json', 'A zone\'s deployed managed rules…']);
    const tf = exported()!;
    assert.ok(tf.uri.path.endsWith('/probes.ruleset.tf'), tf.uri.toString());
    const text = tf.getText();
    assert.match(text, /^# The ruleset of probes\.ruleset\.json, as the editor holds it\.\n/);
    assert.match(text, /-var zone_id=<ZONE_ID>/);
    assert.match(text, /\nvariable "zone_id" \{\n/);
    assert.match(text, /\n {2}zone_id = var\.zone_id\n/);
    assert.match(text, /\n {2}phase {3}= "http_request_firewall_custom"\n/);
    assert.match(text, /\/\.env/);
    assert.equal(out.importId, '');
  });
});

// lf22: the command took a zone id as its argument, so it could not be in a ruleset's editor context menu, which passes the
// document's URI: given a URI, it exports that document (the palette's "the open document" choice), asking nothing.
test('given a ruleset document\'s URI (its editor context menu), the export exports that document and asks nothing', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    const doc = addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', '{}', false);
    editDocument(doc, JSON.stringify(CUSTOM, null, 2));
    addDocument('file:///ws/other.ruleset.json', 'waf-ruleset', '{}'); // the active editor is another ruleset
    const out = await migrationCommands['edgekit.migration.exportTerraform'](ctx)(doc.uri);
    assert.deepEqual(fake.quickPicks, [], 'neither the document nor a zone asked for');
    const tf = exported()!;
    assert.ok(tf.uri.path.endsWith('/probes.ruleset.tf'), tf.uri.toString());
    assert.match(tf.getText(), /^# The ruleset of probes\.ruleset\.json, as the editor holds it\.\n/);
    assert.match(tf.getText(), /\/\.env/);
    assert.equal(out.importId, '');
  });
});

// rv46: lf22's URI argument exported whatever document it named (a filter's text went to the server as a ruleset), and a URI that
// could not be opened failed with VS Code's "cannot open …" alone.
test('given the URI of a document that is not a ruleset, or of none, the export refuses naming it, and sends nothing', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    const filter = addDocument('file:///ws/errors.filter.json', 'logpush-filter', '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":500}}');
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(filter.uri),
      /^Error: Cannot export errors\.filter\.json as Terraform: it is not a ruleset \(\*\.ruleset\.json; its language is "logpush-filter"\)\.$/);
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(Uri.parse('file:///ws/gone.ruleset.json')),
      /^Error: Cannot export gone\.ruleset\.json as Terraform: it could not be opened \(cannot open file:\/\/\/ws\/gone\.ruleset\.json\)\.$/);
    assert.equal(exported(), undefined, 'nothing exported');
    assert.deepEqual(fake.quickPicks, [], 'nothing asked');
  });
});

test('an account ruleset document is exported with account_id = var.account_id', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    addDocument('untitled:org.ruleset.json', 'json', JSON.stringify({ ...CUSTOM, kind: 'root', id: 'abc123' }));
    fake.quickPickAnswers = ['org.ruleset.json'];
    const out = await migrationCommands['edgekit.migration.exportTerraform'](ctx)();
    const text = exported()!.getText();
    assert.match(text, /\n {2}account_id = var\.account_id\n/);
    assert.doesNotMatch(text, /zone_id/);
    assert.equal(out.importId, 'account/<ACCOUNT_ID>/abc123');
    assert.match(text, /terraform import svc_ruleset\.block_probes account\/<ACCOUNT_ID>\/abc123/);
  });
});

test('picking the zone instead goes on to the zone pick and exports its deployed managed rules, as before', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    assert.equal((await migrate(ctx, 'pro.example')).name, 'migrated');
    for (const [k, d] of fake.documents) if (d.uri.path.endsWith('.ruleset.json')) fake.documents.delete(k);
    addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM));
    fake.quickPicks = [];
    fake.quickPickAnswers = ['A zone\'s deployed managed rules…', 'pro.example'];
    const out = await migrationCommands['edgekit.migration.exportTerraform'](ctx)();
    assert.equal(fake.quickPicks.length, 2);
    assert.equal(fake.quickPicks[1].title, 'Export the managed rules of which zone?');
    assert.match(out.importId, /^zone\/[0-9a-f]+\/[0-9a-f]+$/);
    const text = exported()!.getText();
    assert.match(text, /^# Managed rules of pro\.example/);
    assert.match(text, /\n {2}phase += "http_request_firewall_managed"\n/);
  });
});

test('no ruleset in the editor, or a zone given (the tree, the message\'s button): no document pick', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    addDocument('file:///ws/job.json', 'json', '{}');
    fake.quickPickAnswers = [undefined];
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)());
    assert.equal(fake.quickPicks[0].title, 'Export the managed rules of which zone?');
    fake.quickPicks = [];
    addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM));
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)('business.example'), /not migrated yet/);
    assert.equal(fake.quickPicks.length, 0);
  });
});

test('an untrusted window with the remote backend exports the open document; a zone\'s deployed rules are refused saying why', async () => {
  // cl16: the command was disabled there by its enablement (cfg1), though the document's export sends nothing to any backend.
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    fake.settings.set('backend', 'remote');
    fake.settings.set('api.baseUrl', 'https://api.example.test/client/v4');
    workspace.isTrusted = false;
    try {
      const exportTerraform = migrationCommands['edgekit.migration.exportTerraform'](ctx);
      addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM));
      fake.quickPickAnswers = ['probes.ruleset.json'];
      await exportTerraform();
      assert.match(exported()!.getText(), /\n {2}zone_id = var\.zone_id\n/);
      // The zone's item says beforehand why it will not work, and picking it refuses before any zone is asked for.
      assert.deepEqual(fake.quickPicks[0].labels, ['probes.ruleset.json', 'A zone\'s deployed managed rules…']);
      assert.match(String(fake.quickPicks[0].descriptions[1]), /untrusted workspace/);
      const refusal = /deployed managed rules are read from the management API, and requests to real endpoints are disabled in an untrusted workspace/;
      fake.quickPicks = [];
      fake.quickPickAnswers = ['A zone\'s deployed managed rules…'];
      await assert.rejects(exportTerraform(), refusal);
      assert.equal(fake.quickPicks.length, 1, 'no zone asked for');
      // No ruleset in the editor, or a zone given by the tree: the same refusal, no pick.
      fake.quickPicks = [];
      addDocument('file:///ws/job.json', 'json', '{}');
      await assert.rejects(exportTerraform(), refusal);
      await assert.rejects(exportTerraform('pro.example'), refusal);
      assert.equal(fake.quickPicks.length, 0);
      // The embedded mock answers in an untrusted window as in a trusted one: its zone item says nothing of trust.
      fake.settings.set('backend', 'embedded');
      addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM));
      fake.quickPickAnswers = [undefined];
      await assert.rejects(exportTerraform(), CancellationError);
      assert.equal(fake.quickPicks[0].descriptions[1], 'read from the API');
    } finally {
      workspace.isTrusted = true;
    }
  });
});

test('a ruleset document with a syntax error, or a kind the resource does not take, is refused naming the file; nothing exported', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    addDocument('file:///ws/broken.ruleset.json', 'waf-ruleset', '{\n  "name": "x",\n  "rules": [ { "enabled": trupe } ]\n}');
    fake.quickPickAnswers = ['broken.ruleset.json'];
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(), /^Error: Cannot export broken\.ruleset\.json:3:\d+: /);
    addDocument('file:///ws/managed.ruleset.json', 'waf-ruleset', JSON.stringify({ ...CUSTOM, kind: 'managed' }));
    fake.quickPickAnswers = ['managed.ruleset.json'];
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(), /^Error: Cannot export managed\.ruleset\.json as Terraform: "kind" is "managed"/);
    assert.equal(exported(), undefined);
  });
});

// rv24 left: a "kind": "custom" document was exported with account_id whatever it was meant for; custom rulesets are created in an
// account or in a zone, the body the same (waf/account/custom-rulesets). The export asks, after the document pick.
test('a custom ruleset document: the export asks whether it is an account\'s or a zone\'s, and writes that level\'s id', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    const custom = { ...CUSTOM, kind: 'custom' };
    addDocument('file:///ws/shared.ruleset.json', 'waf-ruleset', JSON.stringify(custom));
    fake.quickPickAnswers = ['shared.ruleset.json', 'A zone'];
    await migrationCommands['edgekit.migration.exportTerraform'](ctx)();
    assert.equal(fake.quickPicks.length, 2);
    assert.equal(fake.quickPicks[1].title, 'Is the custom ruleset of shared.ruleset.json an account\'s or a zone\'s?');
    assert.deepEqual(fake.quickPicks[1].labels, ['An account', 'A zone']);
    let text = exported()!.getText();
    assert.match(text, /\n {2}zone_id = var\.zone_id\n/);
    assert.doesNotMatch(text, /account_id/);
    assert.match(text, /\n {2}kind {4}= "custom"\n/);
    // Not an entry point: its header says how it runs, not that an entry point may have to be imported
    assert.doesNotMatch(text, /entry point ruleset \(one per phase\)/);
    assert.match(text, /# A custom ruleset runs once the zone's entry point of phase http_request_firewall_custom executes it/);
    for (const [k, d] of fake.documents) if (d.uri.path.endsWith('.tf')) fake.documents.delete(k);
    fake.quickPicks = [];
    fake.quickPickAnswers = ['shared.ruleset.json', 'An account'];
    await migrationCommands['edgekit.migration.exportTerraform'](ctx)();
    text = exported()!.getText();
    assert.match(text, /\n {2}account_id = var\.account_id\n/);
    assert.doesNotMatch(text, /zone_id/);
    // Dismissed: cancelled, nothing exported
    for (const [k, d] of fake.documents) if (d.uri.path.endsWith('.tf')) fake.documents.delete(k);
    fake.quickPickAnswers = ['shared.ruleset.json', undefined];
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(), CancellationError);
    assert.equal(exported(), undefined);
  });
});

// rv26 left: the zone export (a zone's deployed managed rules, read from …/zones/<id>/rulesets/phases/…/entrypoint) sent no
// `scope`, so the answer's kind decided the level. The platform and the mock answer "kind": "zone" (the mock refuses another at
// that path), and no kind is read as the managed entry point's, a zone's: right. But an answer with "kind": "root" (a backend that
// is not the platform) was exported with account_id = the zone's id and an import id "account/<zone id>/…". The request now says
// the level it knows, the zone: such an answer is refused with the reason.
test('the zone export states the zone level: a zone entry point or one without a kind is a zone\'s; an answer of another kind is refused', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    assert.equal((await migrate(ctx, 'pro.example')).name, 'migrated');
    const server = (ctx as unknown as { server: { request(type: { method: string }, params: unknown): Promise<unknown> } }).server;
    const answer = server.request;
    const sent: Record<string, unknown>[] = [];
    let answered: (ruleset: Record<string, unknown>) => Record<string, unknown> = (r) => r;
    server.request = async (type, params) => {
      if (type.method !== 'edgekit/toTerraform') return answer(type, params);
      const p = params as { ruleset: Record<string, unknown> };
      sent.push(p);
      return answer(type, { ...p, ruleset: answered(p.ruleset) });
    };
    const run = async () => {
      for (const [k, d] of fake.documents) if (d.uri.path.endsWith('.tf')) fake.documents.delete(k);
      return migrationCommands['edgekit.migration.exportTerraform'](ctx)('pro.example');
    };
    const out = await run();
    assert.equal(sent.at(-1)!.scope, 'zone');
    assert.equal((sent.at(-1)!.ruleset as { kind?: unknown }).kind, 'zone', 'the mock answers kind zone');
    assert.match(out.importId, /^zone\/[0-9a-f]+\/[0-9a-f]+$/);
    assert.match(exported()!.getText(), /\n {2}zone_id += "[0-9a-f]+"\n/);
    // No kind in the answer: still a zone's
    answered = ({ kind: _k, ...r }) => r;
    assert.match((await run()).importId, /^zone\//);
    // An account's kind at the zone's path: refused, nothing exported
    answered = (r) => ({ ...r, kind: 'root' });
    await assert.rejects(run(), /^Error: Cannot export pro\.example as Terraform: "kind": "root" is an account's ruleset, not a zone's\.$/);
    assert.equal(exported(), undefined);
  });
});

// dat1: exporting again wrote the new export over the whole untitled .tf document, the user's unsaved edits of the last export
// included, without a word. A document holding text EdgeKit did not write there (edits, a hot-exit backup's) is now left as it is,
// and the export opens under the next free name; one still holding EdgeKit's own export is reused.
test('exporting again never writes over the user\'s edits of an earlier export: it opens under the next name', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    fake.folderSettings.set('/ws', new Map());
    const doc = addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM, null, 2));
    const tfDocs = () => [...fake.documents.values()].filter((d) => d.uri.path.endsWith('.tf')).map((d) => d.uri.path).sort();
    const tfDoc = (p: string) => [...fake.documents.values()].find((d) => d.uri.scheme === 'untitled' && d.uri.path === p)!;
    const run = async () => { fake.quickPickAnswers = ['probes.ruleset.json']; await migrationCommands['edgekit.migration.exportTerraform'](ctx)(); };
    await run();
    assert.deepEqual(tfDocs(), ['/ws/probes.ruleset.tf']);
    // Exported again with the ruleset changed: the export untouched since is EdgeKit's, replaced in place.
    editDocument(doc, JSON.stringify({ ...CUSTOM, name: 'Block env probes' }, null, 2));
    await run();
    assert.deepEqual(tfDocs(), ['/ws/probes.ruleset.tf']);
    const first = tfDoc('/ws/probes.ruleset.tf');
    assert.match(first.getText(), /Block env probes/);
    // The user edits the export; the next export goes to probes-2.ruleset.tf and the edits stay.
    const mine = `${first.getText()}\n# my note\n`;
    editDocument(first, mine);
    await run();
    assert.equal(tfDoc('/ws/probes.ruleset.tf').getText(), mine);
    assert.deepEqual(tfDocs(), ['/ws/probes-2.ruleset.tf', '/ws/probes.ruleset.tf']);
    assert.match(tfDoc('/ws/probes-2.ruleset.tf').getText(), /Block env probes/);
    // A tab restored from a hot-exit backup (not listed until opened) is the user's too.
    fake.documents.delete(tfDoc('/ws/probes-2.ruleset.tf').uri.toString());
    const restored = addDocument('untitled:/ws/probes-2.ruleset.tf', 'plaintext', '# restored\n', false);
    fake.unresolved.add(restored.uri.toString());
    await run();
    assert.equal(tfDoc('/ws/probes-2.ruleset.tf').getText(), '# restored\n');
    assert.match(tfDoc('/ws/probes-3.ruleset.tf').getText(), /Block env probes/);
  });
});

// rv33's leftover: freeUntitledUri took its hundredth name whatever that document held, so with "name" to "name-99" taken the
// export replaced the user's text in "name-100".
test('with every name up to the hundredth holding the user\'s text, the export is refused naming them, and no text is replaced', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    fake.folderSettings.set('/ws', new Map());
    const mine = Array.from({ length: 100 }, (_, i) => addDocument(`untitled:/ws/probes${i ? `-${i + 1}` : ''}.ruleset.tf`, 'plaintext', `# mine ${i + 1}\n`));
    addDocument('file:///ws/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM, null, 2)); // the editor's
    fake.quickPickAnswers = ['probes.ruleset.json'];
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(),
      /^Error: Nothing was opened: probes\.ruleset\.tf to probes-100\.ruleset\.tf are all files in the folder or untitled documents holding text of yours\. Close some of those documents/);
    assert.deepEqual(mine.map((d) => d.getText()), mine.map((_, i) => `# mine ${i + 1}\n`));
    // One of them closed: the export opens there.
    fake.documents.delete(mine[41].uri.toString());
    fake.quickPickAnswers = ['probes.ruleset.json'];
    await migrationCommands['edgekit.migration.exportTerraform'](ctx)();
    assert.match([...fake.documents.values()].find((d) => d.uri.path === '/ws/probes-42.ruleset.tf')!.getText(), /Block probes/);
  });
});

// lf20 (rv36): with no folder open the refusal said "are all files in the folder or untitled documents", and there is no folder.
test('with no folder open and every name up to the hundredth holding the user\'s text, the refusal speaks of the documents only', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    const mine = Array.from({ length: 100 }, (_, i) => addDocument(`untitled:probes${i ? `-${i + 1}` : ''}.ruleset.tf`, 'plaintext', `# mine ${i + 1}\n`));
    addDocument('file:///elsewhere/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM, null, 2));
    fake.quickPickAnswers = ['probes.ruleset.json'];
    await assert.rejects(migrationCommands['edgekit.migration.exportTerraform'](ctx)(),
      /^Error: Nothing was opened: probes\.ruleset\.tf to probes-100\.ruleset\.tf are all untitled documents holding text of yours\. Close some of those documents and run the command again\.$/);
    assert.deepEqual(mine.map((d) => d.getText()), mine.map((_, i) => `# mine ${i + 1}\n`));
  });
});

// mt5: with no folder open the names were not varied (a mutant kept "name" for every try), so the pass over the user's edits
// looped to its bound and wrote over them all the same.
test('with no folder open, exporting again never writes over the user\'s edits either: it opens under the next name', async () => {
  await withMock(async (mock) => {
    const ctx = ctxWithServer(mock);
    addDocument('file:///elsewhere/probes.ruleset.json', 'waf-ruleset', JSON.stringify(CUSTOM, null, 2));
    const tfDocs = () => [...fake.documents.values()].filter((d) => d.uri.path.endsWith('.tf')).map((d) => `${d.uri.scheme}:${d.uri.path.split('/').pop()}`).sort();
    const run = async () => { fake.quickPickAnswers = ['probes.ruleset.json']; await migrationCommands['edgekit.migration.exportTerraform'](ctx)(); };
    await run();
    assert.deepEqual(tfDocs(), ['untitled:probes.ruleset.tf']);
    const first = [...fake.documents.values()].find((d) => d.uri.scheme === 'untitled' && d.uri.path.endsWith('probes.ruleset.tf'))!;
    const mine = `${first.getText()}\n# my note\n`;
    editDocument(first, mine);
    await run();
    assert.equal(first.getText(), mine);
    assert.deepEqual(tfDocs(), ['untitled:probes-2.ruleset.tf', 'untitled:probes.ruleset.tf']);
  });
});
