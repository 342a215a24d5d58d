// The manifest and the code agree: commands, languages, grammars, schemas and the allowlist of the .vsix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { getLanguageService, TextDocument, type JSONSchema } from 'vscode-json-languageservice';
import { serverBuilds } from '../../../scripts/serverBuilds.mjs';
import { DOC_KINDS } from '../../../server/src/core/types';
import { KIND_PATTERNS } from '../../../server/src/core/kinds';

const root = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('package.json commands are exactly the registered command table', () => {
  const dir = path.join(root, 'client/src/commands');
  const registered = new Set<string>();
  for (const f of fs.readdirSync(dir)) {
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^\s+'(edgekit\.[\w.]+)': \(ctx/gm)) registered.add(m[1]);
  }
  const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
  assert.deepEqual([...declared].sort(), [...registered].sort());
  for (const id of declared) assert.match(id, /^edgekit\.[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)?$/, id);
});

test('every menu entry names a declared command', () => {
  const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
  for (const [menu, entries] of Object.entries(pkg.contributes.menus as Record<string, { command: string }[]>)) {
    for (const e of entries) assert.ok(declared.has(e.command), `${menu}: ${e.command}`);
  }
});

test('editor menus show only the Node build\'s commands where they are registered (edgekit.nodeHost)', () => {
  // The browser build (browserExtension.ts) registers no command: a title-bar button without edgekit.nodeHost shows in vscode.dev
  // and answers "command not found". The views are hidden there already (their own when clause).
  for (const [menu, entries] of Object.entries(pkg.contributes.menus as Record<string, { command: string; when?: string }[]>)) {
    if (menu.startsWith('view/')) continue;
    for (const e of entries) {
      if (e.when === 'false') continue;
      assert.match(String(e.when), /(^|&& )edgekit\.nodeHost( &&|$)/, `${menu}: ${e.command} (${e.when})`);
    }
  }
  for (const v of pkg.contributes.views.edgekit) assert.match(String(v.when), /edgekit\.nodeHost/, v.id);
});

test('welcome content offers the mock\'s commands only while the backend is the mock, and the remote backend\'s steps while it is remote', () => {
  // With edgekit.backend remote, "Start Mock Backend" starts a mock the views do not read: the Zones view stayed empty.
  const mockOnly = ['edgekit.mock.start', 'edgekit.mock.sendTraffic'];
  const welcome = pkg.contributes.viewsWelcome as { view: string; contents: string; when?: string }[];
  for (const w of welcome) {
    const links = [...w.contents.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
    if (links.some((l) => mockOnly.includes(l))) assert.match(String(w.when), /config\.edgekit\.backend != remote/, `${w.view}: ${links.join(', ')}`);
  }
  const remoteZones = welcome.filter((w) => w.view === 'edgekit.zones' && /config\.edgekit\.backend == remote/.test(String(w.when)));
  assert.equal(remoteZones.length, 1, 'the Zones view has welcome content for the remote backend');
  assert.match(remoteZones[0].contents, /command:edgekit\.setApiCredentials/);
  assert.match(remoteZones[0].contents, /edgekit\.api\.baseUrl/);
});

test('each document kind has a language with the core patterns, a grammar and a schema', () => {
  for (const kind of DOC_KINDS) {
    const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === kind);
    assert.ok(lang, kind);
    assert.deepEqual(lang.extensions, KIND_PATTERNS[kind].map((p) => p.slice(1)));
    const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === kind);
    assert.ok(grammar && fs.existsSync(path.join(root, grammar.path)), `grammar for ${kind}`);
    assert.ok(fs.existsSync(path.join(root, 'schemas', `${kind}.schema.json`)));
    assert.ok(fs.existsSync(path.join(root, lang.configuration)));
  }
  for (const v of pkg.contributes.jsonValidation) assert.ok(fs.existsSync(path.join(root, v.url)), v.url);
});

test('engines.vscode is at most the test host (1.139) and @types/vscode does not exceed it', () => {
  const min = pkg.engines.vscode.replace(/^\^/, '').split('.').map(Number);
  assert.ok(min[0] === 1 && min[1] <= 139);
  const types = pkg.devDependencies['@types/vscode'].replace(/^\^/, '').split('.').map(Number);
  assert.ok(types[1] <= min[1], '@types/vscode must not be newer than engines.vscode');
});

test('settings.json: each setting\'s default and the documented values pass the declared schema; a URL without a scheme does not', async () => {
  // settings.json is checked with this schema by VS Code's JSON language service: "" (the documented "not set") under format "uri"
  // got the warning "String is not a URI: URI expected.".
  const props = pkg.contributes.configuration.properties as Record<string, JSONSchema & { default?: unknown }>;
  const ls = getLanguageService({});
  ls.configure({ validate: true, schemas: [{ uri: 'edgekit://settings', fileMatch: ['*settings.json'], schema: { type: 'object', properties: props } }] });
  const problems = async (settings: Record<string, unknown>) => {
    const td = TextDocument.create('file:///user/settings.json', 'json', 1, JSON.stringify(settings, null, 2));
    return (await ls.doValidation(td, ls.parseJSONDocument(td))).map((d) => `${td.getText({ start: { line: d.range.start.line, character: 0 }, end: d.range.end })}: ${d.message}`);
  };
  assert.deepEqual(await problems(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.default]))), []);
  assert.deepEqual(await problems({
    'edgekit.gateway.url': 'https://gateway.example/v1/mainnet', 'edgekit.api.baseUrl': 'https://api.example.com/client/v4',
    'edgekit.mock.s3Endpoint': 'http://127.0.0.1:9000',
  }), []);
  for (const key of ['edgekit.gateway.url', 'edgekit.api.baseUrl', 'edgekit.mock.s3Endpoint']) {
    assert.equal((await problems({ [key]: 'gateway.example/v1/mainnet' })).length, 1, key);
  }
});

test('no setting holds a secret', () => {
  for (const key of Object.keys(pkg.contributes.configuration.properties)) assert.doesNotMatch(key, /token|secret|password|apiKey|api\.key/i, key);
});

test('untrusted workspaces: backend URLs are restricted and commands that send requests are disabled', () => {
  const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const key of ['edgekit.gateway.url', 'edgekit.api.baseUrl', 'edgekit.backend']) assert.ok(restricted.includes(key), key);
  const sending = ['edgekit.gateway.send', 'edgekit.logpush.createJob', 'edgekit.migration.start', 'edgekit.migration.check',
    'edgekit.migration.openConfig', 'edgekit.migration.exportTerraform', 'edgekit.setApiCredentials'];
  for (const id of sending) {
    const c = pkg.contributes.commands.find((x: { command: string }) => x.command === id);
    assert.match(String(c.enablement), /isWorkspaceTrusted/, id);
  }
});

test('every bundle esbuild.mjs writes is shipped by .vscodeignore, and the activation bundle holds no LSP library', async () => {
  const outfiles = [
    ...[...fs.readFileSync(path.join(root, 'esbuild.mjs'), 'utf8').matchAll(/(?:outfile: |browserServerBuild\(\w+, )'([^']+)'/g)].map((m) => m[1]),
    ...serverBuilds({}, 'dist').map((b) => b.outfile!),
  ];
  assert.ok(['dist/browser/extension.js', 'dist/browser/server.js', 'dist/languageClient.js', 'dist/client.js', 'dist/server.js', 'dist/serverMain.js', 'dist/serverCore.js'].every((f) => outfiles.includes(f)), outfiles.join(', '));
  const shipped = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1).trim());
  for (const f of outfiles) assert.ok(shipped.includes(f), `${f} is built but not shipped`);
  // What activation loads, bundled as esbuild.mjs does: vscode-languageclient and its protocol packages come only with the server.
  const built = await esbuild.build({
    entryPoints: [path.join(root, 'client/src/extension.ts')], bundle: true, platform: 'node', format: 'cjs', mainFields: ['module', 'main'],
    external: ['vscode'], write: false, metafile: true, logLevel: 'silent', outfile: 'client.js',
  });
  const inputs = Object.keys(built.metafile.inputs);
  const lsp = inputs.filter((i) => /node_modules\/(vscode-languageclient|vscode-languageserver|vscode-jsonrpc)/.test(i));
  assert.deepEqual(lsp, [], 'LSP libraries in the activation bundle');
  assert.ok(inputs.some((i) => i.endsWith('client/src/languageServer.ts')), 'the bundle was built from the extension entry');
});

test('virtual workspaces are not refused: github.dev opens every repository as one, where the browser build is the point', () => {
  // VS Code disables an extension whose capabilities.virtualWorkspaces is false in any virtual workspace (a folder on a file system
  // provider: github.dev's and vscode.dev's vscode-vfs:, Remote Repositories), before its "browser" entry could start
  // (code.visualstudio.com/api/extension-guides/virtual-workspaces). "limited" keeps it enabled and says what is missing.
  const v = pkg.capabilities.virtualWorkspaces;
  assert.notEqual(v, false, 'capabilities.virtualWorkspaces: false turns the extension off in github.dev');
  if (typeof v === 'object') {
    assert.ok(v.supported === true || v.supported === 'limited', JSON.stringify(v));
    if (v.supported === 'limited') assert.ok(typeof v.description === 'string' && v.description.length > 0, 'a limited support says what is limited');
  } else {
    assert.equal(v ?? true, true);
  }
});

test('the walkthrough: every step\'s media is shipped, its links and completion events name what exists', () => {
  const [w] = pkg.contributes.walkthroughs as { id: string; steps: { id: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }[] }[];
  assert.ok(w && w.steps.length >= 5, 'a walkthrough with its steps');
  const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
  const views = new Set<string>(Object.values(pkg.contributes.views as Record<string, { id: string }[]>).flat().map((v) => `${v.id}.focus`));
  const languages = new Set<string>(pkg.contributes.languages.map((l: { id: string }) => l.id));
  const builtIn = new Set(['workbench.actions.view.problems']);
  const shipped = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1).trim());
  const glob = (g: string) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  for (const s of w.steps) {
    const media = s.media.markdown ?? s.media.image!;
    assert.ok(fs.existsSync(path.join(root, media)), `${s.id}: ${media} exists`);
    assert.ok(shipped.some((g) => glob(g).test(media)), `${s.id}: ${media} is shipped by .vscodeignore`);
    const links = [...s.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
    assert.ok(links.length > 0, `${s.id}: a button`);
    for (const c of links) assert.ok(declared.has(c) || views.has(c) || builtIn.has(c), `${s.id}: command ${c}`);
    for (const e of s.completionEvents ?? []) {
      const [kind, id] = e.split(':');
      assert.ok(kind === 'onCommand' ? declared.has(id) : kind === 'onLanguage' ? languages.has(id) : false, `${s.id}: ${e}`);
    }
  }
});

test('the walkthrough claims only what the extension does', () => {
  const [w] = pkg.contributes.walkthroughs as { steps: { id: string; description: string; media: { markdown?: string } }[] }[];
  const text = (id: string) => {
    const s = w.steps.find((x) => x.id === id)!;
    return `${s.description}\n${s.media.markdown ? fs.readFileSync(path.join(root, s.media.markdown), 'utf8') : ''}`;
  };
  // A plain .json file is not EdgeKit's in VS Code, "$schema" or not: the languages are claimed by file name only and the client
  // serves those languages (client/src/languages.ts, languageClient.ts documentSelector). kindFromSchemaRef is the CLI's and other
  // editors' way in (they send "json"), so the VS Code walkthrough must not promise squiggles and quick fixes for it.
  const byFirstLine = pkg.contributes.languages.some((l: { firstLine?: string }) => l.firstLine);
  const clientServesJson = /['"]json['"]/.test(fs.readFileSync(path.join(root, 'client/src/languages.ts'), 'utf8'));
  if (!byFirstLine && !clientServesJson) {
    assert.doesNotMatch(text('check'), /"\$schema"\)?:|join in with a `?"\$schema"/, 'the check step promises EdgeKit\'s checks for a "$schema" file');
  }
  // The gateway request carries no credential (spec: Authentication, Gateway "the request example carries no credential";
  // http/gateway.ts sends Content-Type only), so its curl has none to put in environment variables.
  const gateway = fs.readFileSync(path.join(root, 'client/src/http/gateway.ts'), 'utf8');
  if (!/Authorization|X-Auth/i.test(gateway)) assert.doesNotMatch(text('send'), /credential/i, 'the send step promises credentials in the curl command');
});
