// The lists the docs give that mirror a list in code, held equal to it: the diagnostic codes named in prose, the initialization
// options and settings the language server reads (docs/editors.md), the options and members of startMockBackend, the mock's zones,
// networks and command line (docs/mock-backend.md), the GitHub Action's inputs (docs/ci.md), the schemas' file patterns (README),
// the repository files the docs name, and what docs/architecture.md's design sections say of files, bundles, custom methods and
// the import rules. Each was written by hand beside the code; a name added, renamed or dropped on one side
// fails here. (The README's code table, settings table and CLI synopsis,
// and package.json's command titles, are held by cli/readme.test.ts and docs.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { CODES } from '../../server/src/core/codes';
import { ZONES } from '../../mock/src/zones';
import { NETWORKS } from '../../mock/src/chain';
import { mockSynopsis } from '../../mock/src/cliOptions';

const ROOT = path.resolve(__dirname, '../..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
/** The pages a user reads (docs/architecture.md and docs/benchmarks.md are the project's own notes, and name paths such as
 * `ruleset/expressions` in the same form as codes). */
const USER_DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && !['architecture.md', 'benchmarks.md'].includes(f)).map((f) => `docs/${f}`)];
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/**
 * The members of an interface declared in a source file, as dotted paths: a member whose type is an object literal type gives its
 * own members (`logpush.dataset`) unless `nested` is false.
 */
function interfaceMembers(file: string, name: string, nested = true): string[] {
  const sf = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const decl = sf.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  assert.ok(decl, `${file} declares interface ${name}`);
  const walk = (members: ts.NodeArray<ts.TypeElement>, prefix: string): string[] => members.flatMap((m) => {
    if (!ts.isPropertySignature(m) && !ts.isMethodSignature(m)) return [];
    const key = `${prefix}${m.name.getText(sf)}`;
    const type = ts.isPropertySignature(m) ? m.type : undefined;
    return nested && type && ts.isTypeLiteralNode(type) ? walk(type.members, `${key}.`) : [key];
  });
  return walk(decl.members, '');
}

test('interfaceMembers reads an interface\'s members, nested object types as dotted paths', () => {
  // Held on a file of known shape, so that the tests below cannot pass on an empty list.
  assert.deepEqual(interfaceMembers('server/src/protocol.ts', 'DocumentInfoParams'), ['uri', 'problems', 'within.offset', 'within.length']);
  assert.deepEqual(interfaceMembers('server/src/protocol.ts', 'Settings'), ['logpush.dataset', 'logpush.scope', 'maxProblems', 'maxFileSizeKB', 'codeLens.enabled']);
  assert.deepEqual(interfaceMembers('server/src/protocol.ts', 'Settings', false), ['logpush', 'maxProblems', 'maxFileSizeKB', 'codeLens']);
});

test('every diagnostic code the docs name in backticks is a registered code', () => {
  // The README's table is generated (npm run docs:codes); the prose around it and the other pages name codes by hand.
  const areas = new Set(Object.keys(CODES).map((c) => c.split('/')[0]));
  let named = 0;
  for (const doc of USER_DOCS) {
    const text = read(doc);
    for (const m of text.matchAll(/`([a-z]+)\/([a-z0-9]+(?:-[a-z0-9]+)*)`/g)) {
      if (!areas.has(m[1])) continue; // `application/json`, `workspace/configuration`
      named++;
      assert.ok(`${m[1]}/${m[2]}` in CODES, `${doc}:${text.slice(0, m.index).split('\n').length}: \`${m[1]}/${m[2]}\` is no diagnostic code`);
    }
  }
  assert.ok(named >= 100, `${named} codes named`);
});

test('docs/editors.md names every initialization option the server reads, as `initializationOptions.<name>`, and no other', () => {
  const options = interfaceMembers('server/src/protocol.ts', 'InitOptions', false);
  // The interface is what the server reads: each member is read in lsp/start.ts.
  const start = read('server/src/lsp/start.ts');
  for (const o of options) assert.match(start, new RegExp(`\\binit\\??\\.${o}\\b`), `lsp/start.ts reads initializationOptions.${o}`);
  const documented = [...read('docs/editors.md').matchAll(/`initializationOptions\.(\w+)/g)].map((m) => m[1]);
  assert.deepEqual(sorted(documented), sorted(options));
});

test('docs/editors.md lists the settings the server reads, and each is a setting of package.json', () => {
  const serverReads = interfaceMembers('server/src/protocol.ts', 'Settings');
  const md = read('docs/editors.md');
  const sentence = /The server reads ((?:`[\w.]+`(?:, | and |\s)+)+)\(/.exec(md);
  assert.ok(sentence, 'docs/editors.md: "The server reads `…`, … and `…` (" names the settings');
  const listed = [...sentence[1].matchAll(/`([\w.]+)`/g)].map((m) => m[1]);
  assert.deepEqual(sorted(listed), sorted(serverReads));
  const declared = JSON.parse(read('package.json')).contributes.configuration.properties as Record<string, unknown>;
  for (const s of serverReads) assert.ok(`edgekit.${s}` in declared, `edgekit.${s} is declared in package.json`);
});

test('docs/mock-backend.md gives startMockBackend\'s options and the members it returns as backend.ts declares them', () => {
  const md = read('docs/mock-backend.md').replace(/\s+/g, ' ');
  const call = /`startMockBackend\(\{ ([^}]*) \}\)` returns `\{ ([^}]*) \}`/.exec(md);
  assert.ok(call, 'docs/mock-backend.md: "`startMockBackend({ … })` returns `{ … }`"');
  const names = (list: string) => list.split(',').map((s) => s.trim().replace(/\??(\(\))?$/, ''));
  assert.deepEqual(sorted(names(call[1])), sorted(interfaceMembers('mock/src/backend.ts', 'MockBackendOptions')));
  assert.deepEqual(sorted(names(call[2])), sorted(interfaceMembers('mock/src/backend.ts', 'MockBackend')));
});

test('docs/mock-backend.md\'s zones table is the mock\'s zones: name, plan and id', () => {
  const md = read('docs/mock-backend.md');
  const section = md.slice(md.indexOf('### Zones'), md.indexOf('\n### ', md.indexOf('### Zones') + 1));
  const rows = [...section.matchAll(/^\| `([\w.-]+)` \| (\w+) \| `([0-9a-f]{32})` \|/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
  assert.deepEqual(rows, ZONES.map((z) => `${z.name} ${z.plan} ${z.id}`));
});

test('docs/mock-backend.md\'s gateway networks table is the chain\'s networks: name, chain id and blocks', () => {
  const md = read('docs/mock-backend.md');
  const rows = [...md.matchAll(/^\| `(\w+)` \| `(0x[0-9a-f]+)` \| 0 … (\d+) \|$/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
  assert.deepEqual(rows, NETWORKS.map((n) => `${n.name} 0x${n.chainId.toString(16)} ${n.head}`));
});

test('docs/mock-backend.md\'s "Running it" synopsis is the mock\'s own', () => {
  const md = read('docs/mock-backend.md');
  const block = /## Running it\n\n```\n([\s\S]*?)```/.exec(md);
  assert.ok(block, 'docs/mock-backend.md: a synopsis block under "## Running it"');
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  assert.equal(oneLine(block[1]), oneLine(mockSynopsis('edgekit mock')));
});

test('docs/ci.md lists every input of action.yml with its default, and its workflow passes only inputs the action has', () => {
  const action = read('action.yml');
  const inputsBlock = /^inputs:\n([\s\S]*?)^\S/m.exec(action)![1];
  const inputs = new Map([...inputsBlock.matchAll(/^ {2}([\w-]+):\n(?: {4}.*\n)*? {4}default: (.*)$/gm)].map((m) => [m[1], m[2].replace(/^"(.*)"$/, '$1')]));
  assert.ok(inputs.size >= 6, [...inputs.keys()].join(', '));
  const ci = read('docs/ci.md');
  const rows = new Map([...ci.matchAll(/^\| `([\w-]+)` \| `([^`]*)` \|/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual(rows, inputs, 'the inputs table of docs/ci.md');
  const workflow = /uses: <owner>\/edgekit@<ref>\n {8}with:\n((?: {10}.*\n)+)/.exec(ci);
  assert.ok(workflow, 'docs/ci.md: the sample workflow uses the action with inputs');
  for (const m of workflow[1].matchAll(/^ {10}([\w-]+):/gm)) assert.ok(inputs.has(m[1]), `the workflow's ${m[1]} is an input of action.yml`);
});

test('the README names the file patterns VS Code\'s own JSON service applies the schemas to (contributes.jsonValidation), and their draft', () => {
  const readme = read('README.md').replace(/\s+/g, ' ');
  const sentence = /VS Code's own JSON service applies them to plain ((?:`\*\.[\w.-]+`(?:, | and | )?)+) files/.exec(readme);
  assert.ok(sentence, 'README.md: "VS Code\'s own JSON service applies them to plain `…` files"');
  const documented = [...sentence[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const pkg = JSON.parse(read('package.json')).contributes.jsonValidation as { fileMatch: string | string[] }[];
  assert.deepEqual(sorted(documented), sorted(pkg.flatMap((v) => v.fileMatch)));
  const draft = /\(draft (\d{4}-\d{2})\)/.exec(readme)![1];
  for (const f of fs.readdirSync(path.join(ROOT, 'schemas')).filter((x) => x.endsWith('.schema.json'))) {
    assert.equal(JSON.parse(read(`schemas/${f}`)).$schema, `https://json-schema.org/draft/${draft}/schema`, f);
  }
});

test('every file of this repository the user docs name in backticks exists (a file moved or renamed leaves a dead path)', () => {
  // A path is taken as this repository's when its first folder is one of the repository's top-level folders; the docs also name
  // other projects' files (the SDK's `src/core/pagination.ts`, VS Code's `vs/workbench/…`), which are not checked.
  const top = new Set(fs.readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'node_modules').map((e) => e.name));
  let checked = 0;
  for (const doc of USER_DOCS) {
    const text = read(doc);
    for (const m of text.matchAll(/`([\w.-]+(?:\/[\w.-]+)+\.(?:ts|mts|js|mjs|cjs|json|md|lua|el|ya?ml|tsv|sh))`/g)) {
      if (!top.has(m[1].split('/')[0])) continue;
      checked++;
      assert.ok(fs.existsSync(path.join(ROOT, m[1])), `${doc}:${text.slice(0, m.index).split('\n').length}: \`${m[1]}\` does not exist`);
    }
  }
  assert.ok(checked >= 40, `${checked} paths checked`);
});

/** docs/architecture.md's design sections, which a newcomer reads as the design as it stands: "Processes and layers", "The core
 * contract" and "Decisions", up to the first dated section. */
function designSections(): string {
  const text = read('docs/architecture.md');
  const start = text.indexOf('\n## Processes and layers\n');
  const decisions = text.indexOf('\n## Decisions\n', start);
  assert.ok(start >= 0 && decisions > start, 'docs/architecture.md has "Processes and layers" then "Decisions"');
  return text.slice(start, text.indexOf('\n## ', decisions + 1));
}

test('docs/architecture.md\'s design sections name files that exist and the bundles the build makes', () => {
  const design = designSections();
  const top = new Set(fs.readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory() && !['node_modules', 'dist'].includes(e.name)).map((e) => e.name));
  // The sections shorten a server or client path to its folder under src (`lsp/context.ts`, `core/fix.ts`, `flow/machine.ts`).
  const short: Record<string, string[]> = { core: ['server/src'], lsp: ['server/src'], flow: ['client/src'], http: ['client/src'], views: ['client/src'] };
  const builds = ['esbuild.mjs', 'scripts/clientBuilds.mjs', 'scripts/serverBuilds.mjs'].map(read).join('\n');
  let checked = 0;
  for (const m of design.matchAll(/(?<![\w./<-])((?:[\w-]+\/)+[\w.-]+\.(?:ts|mts|js|mjs|json|md))\b/g)) {
    const [first, ...rest] = m[1].split('/');
    const at = `docs/architecture.md, design sections: \`${m[1]}\``;
    if (first === 'dist') {
      // A bundle: esbuild.mjs names its outfile, or a build script its name in the output folder.
      assert.ok(builds.includes(`'${m[1]}'`) || builds.includes(`'${rest.join('/')}'`), `${at} is no bundle of esbuild.mjs`);
    } else if (top.has(first)) {
      assert.ok(fs.existsSync(path.join(ROOT, m[1])), `${at} does not exist`);
    } else if (short[first]) {
      assert.ok(short[first].some((base) => fs.existsSync(path.join(ROOT, base, m[1]))), `${at} is in none of ${short[first].join(', ')}`);
    } else continue; // another project's file (the SDK's, the Terraform provider's) or a settings file of the host
    checked++;
  }
  assert.ok(checked >= 40, `${checked} paths checked`);
});

test('docs/architecture.md\'s design sections name every custom method of protocol.ts, and the import rules and the activation bound as the tests hold them', () => {
  const design = designSections();
  const methods = sorted([...read('server/src/protocol.ts').matchAll(/export const method = '(edgekit\/\w+)'/g)].map((m) => m[1]));
  assert.ok(methods.length >= 5, methods.join(', '));
  assert.deepEqual(sorted([...design.matchAll(/`(edgekit\/\w+)`/g)].map((m) => m[1])), methods);
  // What the extension may import of the server (test/unit/imports.test.ts): each module named, and the diagram's count of the core's.
  const allowed = /CLIENT_MAY_IMPORT = new Set\(\[([^\]]*)\]\)/.exec(read('test/unit/imports.test.ts'));
  assert.ok(allowed, 'imports.test.ts declares CLIENT_MAY_IMPORT');
  const modules = [...allowed[1].matchAll(/'server\/src\/([\w/]+)'/g)].map((m) => `${m[1]}.ts`);
  for (const f of modules) assert.ok(design.includes(`\`${f}\``), `the import rules do not name \`${f}\``);
  const core = modules.filter((f) => f.startsWith('core/')).length;
  const flat = design.replace(/\s+/g, ' '); // the phrases below may be wrapped
  const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six'];
  assert.match(flat, new RegExp(`and ${core} small core modules`));
  assert.match(flat, new RegExp(`those ${words[core]} modules aside`));
  // The activation bundle's bound (test/unit/client/commandsBundle.test.ts).
  const bound = /ACTIVATION_BOUND = (\d+) \* 1024/.exec(read('test/unit/client/commandsBundle.test.ts'));
  assert.ok(bound, 'commandsBundle.test.ts declares ACTIVATION_BOUND');
  assert.match(flat, new RegExp(`it passes ${bound[1]} KB \\(\`test/unit/client/commandsBundle\\.test\\.ts\``));
});
