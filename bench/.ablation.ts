import { sizedDocs } from './docs';
import { pullDiagnostics, startServer, uriOf } from './lspClient';
import { clientSettings } from './lspPeer';
import { median } from './stats';
async function main() {
  const vs = process.argv.slice(2, -2);
  const names = process.argv[process.argv.length - 2].split(',');
  const rounds = Number(process.argv[process.argv.length - 1]);
  const hs = [] as any[];
  for (const v of vs) hs.push(await startServer(v, { settings: clientSettings(), pushSettings: true }));
  const out: string[] = [];
  let n = 0;
  for (const name of names) {
    const doc = sizedDocs().find((d) => d.name === name)!;
    const xs = hs.map(() => [] as number[]);
    for (let i = 0; i < rounds + 20; i++) for (let k = 0; k < hs.length; k++) {
      const j = (k + i) % hs.length; const h = hs[j];
      const uri = uriOf(doc.fileName, ++n);
      const t0 = performance.now();
      await h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: doc.kind, version: 1, text: doc.text } });
      await pullDiagnostics(h.conn, uri);
      if (i >= 20) xs[j].push(performance.now() - t0);
      await h.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
    out.push(`${name}: ${vs.map((v, j) => `${v.replace(/.*\//, '')} ${median(xs[j]).toFixed(3)}`).join('  ')}`);
  }
  for (const h of hs) await h.stop();
  console.log(out.join('\n'));
}
main();
