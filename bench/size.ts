// Section 4: bundle sizes (dist/*.js as built, plus a production build made here into a temporary folder with esbuild.mjs's
// options, which is what `vsce package` ships via vscode:prepublish), the .vsix size, and server start to first diagnostics.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { serverBuilds } from '../scripts/serverBuilds.mjs';
import { clientBuilds } from '../scripts/clientBuilds.mjs';
import { fmtBytes, fmtMs, verdict, type Section } from './stats';
import type { StartFigure } from './lsp';

export const ROOT = path.resolve(__dirname, '..');

/** The same options as esbuild.mjs (which cannot be imported: it builds on load). */
function options(production: boolean): esbuild.BuildOptions {
  return {
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'],
    sourcemap: false, minify: production, logLevel: 'silent', absWorkingDir: ROOT, metafile: true,
  };
}

export interface BuiltBundles {
  dir: string;
  /** What activation loads (client/src/extension.ts). */
  client: string;
  /** The commands' implementations, the flow and the HTTP layer, loaded when a command first runs or a view first refreshes
   * (client/src/commands/table.ts). */
  commands: string;
  /** vscode-languageclient and our client options, loaded when the language server starts (client/src/languageClient.ts). */
  languageClient: string;
  /** The language server's start (server/src/serverStart.ts): it runs serverMain, through V8's code cache. */
  server: string;
  /** The language server itself (server/src/server.ts). */
  serverMain: string;
  /** The checking core, which the server loads once initialized (server/src/core/index.ts). */
  serverCore: string;
  clientTop: { input: string; bytes: number }[];
}

/** Build client and server into a fresh temporary folder (production: minified). The caller removes dir. */
export async function buildBundles(production: boolean): Promise<BuiltBundles> {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-bench-'));
  const client = path.join(dir, 'client.js');
  const commands = path.join(dir, 'commands.js');
  const languageClient = path.join(dir, 'languageClient.js');
  const server = path.join(dir, 'server.js');
  const serverMain = path.join(dir, 'serverMain.js');
  const serverCore = path.join(dir, 'serverCore.js');
  const [c] = await Promise.all([
    // client.js first: its metafile is the one read below.
    ...clientBuilds(options(production), dir, ROOT).map((b) => esbuild.build(b)),
    esbuild.build({ ...options(production), entryPoints: [path.join(ROOT, 'client/src/languageClient.ts')], outfile: languageClient, external: ['vscode'] }),
    ...serverBuilds(options(production), dir, ROOT).map((b) => esbuild.build(b)),
  ]);
  // Where the client's bytes come from, by package (node_modules/<pkg>) or by our own folder.
  const byPart = new Map<string, number>();
  for (const out of Object.values(c.metafile!.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const part = m ? m[1] : input.split('/').slice(0, 3).join('/');
      byPart.set(part, (byPart.get(part) ?? 0) + bytesInOutput);
    }
  }
  const clientTop = [...byPart].map(([input, bytes]) => ({ input, bytes })).sort((a, b) => b.bytes - a.bytes).slice(0, 5);
  return { dir, client, commands, languageClient, server, serverMain, serverCore, clientTop };
}

export function removeBundles(b: BuiltBundles): void {
  rmSync(b.dir, { recursive: true, force: true });
}

export interface SizeFigure { dist: Record<string, number>; vsix?: number; prodClient: number; prodCommands: number; prodLanguageClient: number; prodServer: number }

export function sizeSection(prod: BuiltBundles, start: StartFigure | undefined): { section: Section; figure: SizeFigure } {
  const distDir = path.join(ROOT, 'dist');
  const dist: Record<string, number> = {};
  if (existsSync(distDir)) for (const f of readdirSync(distDir).filter((n) => n.endsWith('.js')).sort()) dist[f] = statSync(path.join(distDir, f)).size;
  const vsixPath = path.join(distDir, 'edgekit.vsix');
  const vsix = existsSync(vsixPath) ? statSync(vsixPath).size : undefined;
  const figure: SizeFigure = { dist, vsix, prodClient: statSync(prod.client).size, prodCommands: statSync(prod.commands).size, prodLanguageClient: statSync(prod.languageClient).size, prodServer: statSync(prod.serverMain).size + statSync(prod.server).size + statSync(prod.serverCore).size };
  const rows: string[][] = [];
  for (const [f, n] of Object.entries(dist)) rows.push([`dist/${f} (as built)`, fmtBytes(n), f === 'client.js' ? 'info (dev build, not minified)' : '']);
  rows.push(['client bundle loaded at activation, production (minified)', fmtBytes(figure.prodClient), `< 150 KB: ${verdict(figure.prodClient < 150 * 1024)}`]);
  rows.push(['+ commands bundle, loaded when a command first runs or a view first refreshes', fmtBytes(figure.prodCommands), 'info']);
  rows.push(['+ language client bundle, loaded when the server starts', fmtBytes(figure.prodLanguageClient), 'info']);
  rows.push(['= all client code (the three bundles)', fmtBytes(figure.prodClient + figure.prodCommands + figure.prodLanguageClient), 'info']);
  rows.push(['server bundles (its start server.js + serverMain.js + serverCore.js), production (minified)', fmtBytes(figure.prodServer), '']);
  rows.push(['dist/edgekit.vsix', vsix === undefined ? 'absent' : fmtBytes(vsix), '']);
  if (start) {
    rows.push(['server start: spawn to initialize result', fmtMs(start.initializeMs), `median of ${start.runs}`]);
    rows.push(['server start: spawn to first diagnostics (1 KB filter)', fmtMs(start.firstDiagnosticsMs), `median of ${start.runs}`]);
  }
  return {
    figure,
    section: {
      title: '4. Size and start',
      header: ['measurement', 'value', 'target'],
      rows,
      notes: [
        'Production bundles are built by the bench with esbuild.mjs\'s options plus minify, into a temporary folder (dist/ is not touched).',
        `Largest parts of the production client bundle loaded at activation: ${prod.clientTop.map((t) => `${t.input} ${fmtBytes(t.bytes)}`).join(', ')}.`,
        'The language client bundle (vscode-languageclient and its protocol packages, about 450 KB) is required when the first EdgeKit document opens ' +
        'or a command asks the server something, together with the server process; an activation for the Zones view, a command or a workspace ' +
        'that merely contains EdgeKit files loads neither. With an EdgeKit document open at start-up both load, as one bundle did before.',
        'The commands bundle (the commands\' implementations, the migration flow and the HTTP layer) is required when a command first runs or a ' +
        'view first asks a backend (docs/architecture.md, "The commands bundle").',
      ],
    },
  };
}
