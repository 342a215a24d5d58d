// Profile target for the LSP path (issue 18): starts the bundled server over stdio exactly as the peer section does (bench/lspClient.ts,
// the same settings and capabilities) and repeats open → pull diagnostics → close of one sized document, so that the server's own
// profile shows what a small document costs end to end: the message layer, the settings round trip, the check, the reply.
//   node --import tsx bench/lspProfile.ts [doc=filter-1KB] [runs=2000] [-- node options for the server, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof]
//   node --import tsx bench/lspProfile.ts edit-batch-valid|edit-batch-errors [runs]     (one-character edits → pull on the open batch)
//   node --import tsx bench/lspProfile.ts batch-valid|batch-errors [runs]               (open → pull → close of the 0.8 MB batch)
//   node --import tsx bench/profileSummary.ts /tmp/prof/<file>.cpuprofile
// It prints the median open → diagnostics time and how many workspace/configuration round trips the server asked for.
import * as path from 'node:path';
import { batchDoc, sizedDocs } from './docs';
import { Editor, pullDiagnostics, startServer, uriOf } from './lspClient';
import { clientSettings } from './lspPeer';
import { ROOT } from './size';
import { median, nowMs, percentile } from './stats';

const dashes = process.argv.indexOf('--');
const args = dashes < 0 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const execArgv = dashes < 0 ? [] : process.argv.slice(dashes + 1);
const name = args[0] ?? 'filter-1KB';
const runs = Number(args[1] ?? 2000);
const serverJs = process.env.EDGEKIT_SERVER ?? path.join(ROOT, 'dist/server.js');
const edit = /^edit-batch-(valid|errors)$/.exec(name);
const batch = /^batch-(valid|errors)$/.exec(name);
const found = edit ? batchDoc(edit[1] as 'valid' | 'errors') : batch ? batchDoc(batch[1] as 'valid' | 'errors') : sizedDocs().find((d) => d.name === name);
if (!found) throw new Error(`no sized document ${name}: ${sizedDocs().map((d) => d.name).join(', ')}`);
const doc = found;

async function main(): Promise<void> {
const h = await startServer(serverJs, { execArgv, settings: clientSettings(), pushSettings: true });
const xs: number[] = [];
try {
  if (edit) {
    const uri = uriOf(doc.fileName, 1);
    await h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: doc.kind, version: 1, text: doc.text } });
    await pullDiagnostics(h.conn, uri);
    const editor = new Editor(h.conn, uri, doc.text, doc.editOffset);
    for (let i = 0; i < runs; i++) {
      const t0 = nowMs();
      await editor.next();
      await pullDiagnostics(h.conn, uri);
      xs.push(nowMs() - t0);
    }
  }
  for (let i = 0; i < (edit ? 0 : runs); i++) {
    const uri = uriOf(doc.fileName, i + 1);
    const t0 = nowMs();
    await h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: doc.kind, version: 1, text: doc.text } });
    await pullDiagnostics(h.conn, uri);
    xs.push(nowMs() - t0);
    await h.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }
} finally {
  await h.stop();
}
const kept = xs.slice(Math.min(batch ? 2 : 100, runs >> 1));
process.stdout.write(`${name}: ${runs} ${edit ? 'edits' : 'opens'}, median ${median(kept).toFixed(3)} ms, p95 ${percentile(kept, 95).toFixed(3)} ms; workspace/configuration requests: ${h.configurationRequests}\n`);
}

main().catch((err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exitCode = 1; });
