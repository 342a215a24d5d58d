// The rules' code lenses after "Test Rules on Requests" on 200 rules x 10 000 sample requests: the time of a textDocument/codeLens
// request asked again for the same document version, and after an edit of one rule (its expression, its action). Not part of
// `npm run bench`: `node --import tsx bench/lensCache.ts [SERVER_JS]` (by default dist/server.js, built first when it is older than
// the sources; another build's server.js compares two builds).
import { startServer } from './lspClient';
import { serverJs } from '../test/unit/reliability/soak';

const RULES = 200;
const EXPRS = [
  (i: number) => `http.request.uri.path contains "/p${i}"`,
  (i: number) => `ip.src in {10.${i}.0.0/16 192.0.2.${i}}`,
  (i: number) => `http.request.method eq "POST" and http.host eq "h${i}.example.com"`,
  (i: number) => `lower(http.user_agent) contains "bot${i % 7}"`,
  (i: number) => `cf.waf.score lt ${(i % 50) + 1}`,
  (i: number) => `http.request.uri.query contains "id=${i % 13}"`,
];
const ACTIONS = ['log', 'log', 'block', 'log', 'managed_challenge'];

type Rule = { action: string; expression: string; description: string };
const RULESET: Rule[] = Array.from({ length: RULES }, (_, i) => ({ action: ACTIONS[i % ACTIONS.length], expression: EXPRS[i % EXPRS.length](i), description: `rule ${i}` }));

function text(rules: Rule[]): string {
  return JSON.stringify({ name: 'lens bench', kind: 'zone', phase: 'http_request_firewall_custom', rules }, null, 2);
}

function median(xs: number[]): number { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }

async function main(): Promise<void> {
  const server = await startServer(process.argv[2] ?? serverJs());
  const uri = 'file:///w/bench.ruleset.json';
  try {
    let version = 1;
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version, text: text(RULESET) } });
    const r = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testRules', { uri, sample: 10_000 });
    if (r.error) throw new Error(r.error);
    const lens = async (): Promise<number> => {
      const t = performance.now();
      const l = await server.conn.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } });
      const ms = performance.now() - t;
      if (l.filter((x) => x.command?.title.includes('matches')).length !== RULES) throw new Error(`expected ${RULES} rule lenses, got ${JSON.stringify(l.slice(0, 3))}`);
      return ms;
    };
    const first = await lens();
    const same: number[] = [];
    for (let i = 0; i < 30; i++) same.push(await lens());
    // Each step edits one rule of the version before (an expression: a path that matches nothing, cheap to test, so that the time
    // is the lenses' and not the evaluator's on a new expression)
    const rules = RULESET.map((r) => ({ ...r }));
    const steps: [string, (round: number) => void][] = [
      ['expression of rule 100', (round) => { rules[100].expression = `http.request.uri.path contains "/a${round}"`; }],
      ['expression of rule 3', (round) => { rules[3].expression = `http.request.uri.path contains "/b${round}"`; }],
      ['expression of rule 199', (round) => { rules[199].expression = `http.request.uri.path contains "/c${round}"`; }],
      ['action of rule 100', () => { rules[100].action = rules[100].action === 'block' ? 'log' : 'block'; }],
      ['action of rule 3', () => { rules[3].action = rules[3].action === 'block' ? 'log' : 'block'; }],
      ['description of rule 100', (round) => { rules[100].description = `edited ${round}`; }],
    ];
    const edits: Record<string, number[]> = Object.fromEntries(steps.map(([name]) => [name, []]));
    for (let round = 0; round < 10; round++) {
      for (const [name, edit] of steps) {
        edit(round);
        await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ text: text(rules) }] });
        // The diagnostics pull of the new version first, as VS Code asks for it before the lenses; then the lens request
        await server.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
        edits[name].push(await lens());
      }
    }
    console.log(`codeLens, ${RULES} rules x ${r.total} requests (ms, median of the repeats)`);
    console.log(`  first request after the run: ${first.toFixed(1)}`);
    console.log(`  same version again (30x):     ${median(same).toFixed(2)} (min ${Math.min(...same).toFixed(2)}, max ${Math.max(...same).toFixed(2)})`);
    for (const [name, xs] of Object.entries(edits)) console.log(`  after an edit, ${name.padEnd(24)} ${median(xs).toFixed(2)} (min ${Math.min(...xs).toFixed(2)}, max ${Math.max(...xs).toFixed(2)})`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
