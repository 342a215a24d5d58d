// What a small document's open → diagnostics can cost at the least (issue 18): the same client (bench/lspClient.ts) and the same
// interleaving as the peer section, against servers that do less and less of the work:
//   raw node          bench/floor/rawServer.js: no library, one JSON.parse and one write per message
//   library           bench/floor/libraryServer.js: vscode-languageserver with TextDocuments and an empty pull handler
//   library + stdio   the same, reading and writing with EdgeKit's StdioMessageReader/Writer (server/src/lsp/stdio.ts)
//   EdgeKit, no check the same server with the core's validate answering [] (a shim around dist/serverCore.js): what EdgeKit's own
//                     LSP layer costs (settings, kind, parse cache, conversion) with a check that costs nothing
//   EdgeKit           the server (dist/server.js, or EDGEKIT_SERVER), which checks the document
//   peer              vscode-json-language-server with our schemas
//   node --import tsx bench/lspFloor.ts [documents=ruleset-0.2KB,filter-1KB,rpc-1KB] [opens=1000]
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { sizedDocs } from './docs';
import { pullDiagnostics, startServer, uriOf, type ServerHandle } from './lspClient';
import { clientSettings, PEER_SCRIPT } from './lspPeer';
import { ROOT } from './size';
import { median, nowMs, percentile } from './stats';

const names = (process.argv[2] ?? 'ruleset-0.2KB,filter-1KB,rpc-1KB').split(',');
const opens = Number(process.argv[3] ?? 1000);

/**
 * A copy of the server whose core answers every validate with no problems: server.js and serverMain.js copied beside a serverCore.js
 * that loads the real one and replaces validate (server.js loads ./serverCore.js from its own folder). Everything else is the real
 * server: the transport, settings, the document's kind, the parse cache, the reply.
 */
function noCheckServer(serverJs: string, tmp: string): string {
  const dir = path.join(tmp, 'no-check');
  fs.mkdirSync(dir);
  for (const f of ['server.js', 'serverMain.js']) fs.copyFileSync(path.join(path.dirname(serverJs), f), path.join(dir, f));
  const realCore = path.join(path.dirname(serverJs), 'serverCore.js');
  fs.writeFileSync(path.join(dir, 'serverCore.js'), `const real = require(${JSON.stringify(realCore)});
module.exports = { ...real, getLanguageService: (...args) => ({ ...real.getLanguageService(...args), validate: () => [] }) };
`);
  return path.join(dir, 'server.js');
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-floor-'));
  const stdioJs = path.join(tmp, 'stdioTransport.js');
  await esbuild.build({ entryPoints: [path.join(ROOT, 'server/src/lsp/stdio.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: stdioJs, logLevel: 'silent' });
  const edgekitJs = process.env.EDGEKIT_SERVER ?? path.join(ROOT, 'dist/server.js');
  const noCheckJs = noCheckServer(edgekitJs, tmp);
  const servers: { name: string; js: string; env?: Record<string, string>; json?: boolean }[] = [
    { name: 'raw node', js: path.join(ROOT, 'bench/floor/rawServer.js') },
    { name: 'library', js: path.join(ROOT, 'bench/floor/libraryServer.js') },
    { name: 'library + stdio.ts', js: path.join(ROOT, 'bench/floor/libraryServer.js'), env: { EDGEKIT_STDIO: stdioJs } },
    { name: 'EdgeKit, no check', js: noCheckJs },
    { name: 'EdgeKit', js: edgekitJs },
    { name: 'peer', js: PEER_SCRIPT, json: true },
  ];
  const handles: ServerHandle[] = [];
  try {
    for (const s of servers) {
      const saved = { ...process.env };
      Object.assign(process.env, s.env ?? {});
      handles.push(await startServer(s.js, { settings: clientSettings(), pushSettings: true }));
      process.env = saved;
    }
    const rows: string[] = [];
    for (const name of names) {
      const doc = sizedDocs().find((d) => d.name === name);
      if (!doc) throw new Error(`no sized document ${name}: ${sizedDocs().map((d) => d.name).join(', ')}`);
      const times: number[][] = servers.map(() => []);
      for (let i = 0; i < opens + 50; i++) {
        for (let j = 0; j < servers.length; j++) {
          const k = (i + j) % servers.length; // who goes first rotates
          const { conn } = handles[k];
          const uri = uriOf(doc.fileName, i + 1);
          const t0 = nowMs();
          await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: servers[k].json ? 'json' : doc.kind, version: 1, text: doc.text } });
          await pullDiagnostics(conn, uri);
          if (i >= 50) times[k].push(nowMs() - t0);
          await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
        }
      }
      const peer = median(times[servers.length - 1]);
      for (const [k, s] of servers.entries()) {
        rows.push(`| ${name} | ${s.name} | ${median(times[k]).toFixed(3)} ms | ${percentile(times[k], 95).toFixed(3)} ms | ${(median(times[k]) / peer).toFixed(2)} |`);
      }
    }
    process.stdout.write(`open → diagnostics over stdio, ${opens} opens per server after 50 warm-up opens, interleaved (${new Date().toISOString()})\n\n`);
    process.stdout.write('| document | server | median | p95 | ÷ peer median |\n|---|---|---|---|---|\n');
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    for (const h of handles) await h.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exitCode = 1; });
