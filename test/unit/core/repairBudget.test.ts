// The repairs' budget (syntaxErrors.ts REPAIR_BUDGET): every parse that proves or refuses a repair is taken from it, the escape
// search's refused candidates included (before syn7 they were not: a document of quoted runs whose fourth end is the right one
// parsed its text 5 times per problem, 6 MB for a 200 KB document against a 1 MB budget). Counted in parses, not time.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { repairBudget, syntaxProblems } from '../../../server/src/core/parse/syntaxErrors';
import { parseErrors } from '../../../server/src/core/parse/scanner';

// jsonc-parser's module object, whose visit every parse of the core goes through (parseErrors).
const jsonc = createRequire(__filename)('jsonc-parser') as { visit: (...args: unknown[]) => unknown };

/** A document of `size` characters of one member line after another (% numbered). */
function documentOf(line: string, size: number): string {
  let text = '{\n';
  for (let i = 0; text.length < size; i++) text += line.replace('%', String(i));
  return text + '  "end": 1\n}\n';
}

/** The characters syntaxProblems parses for a text, and its problems (the text's own parse, whose errors it is given, not counted). */
function parsedBy(text: string): { chars: number; problems: number } {
  const errors = parseErrors(text);
  const real = jsonc.visit;
  let chars = 0;
  const spy = mock.method(jsonc, 'visit', (...args: unknown[]) => { chars += (args[0] as string).length; return real(...args); });
  try {
    const problems = syntaxProblems(text, errors).length;
    return { chars, problems };
  } finally {
    spy.mock.restore();
  }
}

test('a document of quoted runs (many quotes, each problem found at the fourth end tried): its parses stay within the budget', () => {
  // "a "b", "c", "d", "e": the ends after b, c and d are refused by a parse each (the next member has no colon), the one after e
  // is proved; the comma after the cut string is refused by one more.
  for (const size of [20_000, 100_000, 200_000]) {
    const text = documentOf('  "k%": "a "b", "c", "d", "e",\n', size);
    const { chars, problems } = parsedBy(text);
    assert.ok(problems >= 1, `${size}: ${problems} problems`);
    // Each parse is paid for before it starts.
    assert.ok(chars <= repairBudget(text.length), `${size}: parsed ${chars} characters (${(chars / text.length).toFixed(1)} times the text) for ${problems} problems`);
  }
});

test('the budget still proves every problem of a small document with many cut strings (50, the cap)', () => {
  const text = documentOf('  "k%": "a "b", "c", "d", "e",\n', 4_000);
  const { chars, problems } = parsedBy(text);
  assert.equal(problems, 50);
  assert.ok(chars <= repairBudget(text.length), `${chars}`);
});

test('quotes in arrays, strays and pairs: bounded the same way', () => {
  for (const line of ['  "k%": ["a "b", "c", "d", "e" "f"],\n', '  "k%": ["a "b" c", "d "e" f", "g "h"],\n', '  "k%": ["a "b c", "d "e f"],\n',
    '  "k%": "x "y, "z" w" "q",\n', '  "k%": "a "b" c "d" e "f" g",\n']) {
    const text = documentOf(line, 200_000);
    const { chars } = parsedBy(text);
    assert.ok(chars <= repairBudget(text.length), `${JSON.stringify(line)}: parsed ${chars} characters`);
  }
});

/** What syntaxProblems does for a text beyond its own parse: the characters it parses and those its scanners read (each scanner's
 * tokens, from where it was set to where its last token ended), and its problems. */
function workOf(text: string): { parsed: number; scanned: number; problems: number } {
  const errors = parseErrors(text);
  const core = jsonc as unknown as { visit: (...args: unknown[]) => unknown; createScanner: (...args: unknown[]) => Scanner };
  const realVisit = core.visit;
  const realScanner = core.createScanner;
  let parsed = 0;
  let scanned = 0;
  const visit = mock.method(core, 'visit', (...args: unknown[]) => { parsed += (args[0] as string).length; return realVisit(...args); });
  const scanner = mock.method(core, 'createScanner', (...args: unknown[]) => {
    const s = realScanner(...args);
    let at = 0;
    const { scan, setPosition } = s;
    s.setPosition = (p: number) => { at = p; setPosition(p); };
    s.scan = () => { const k = scan(); scanned += Math.max(0, s.getPosition() - at); at = s.getPosition(); return k; };
    return s;
  });
  try {
    const problems = syntaxProblems(text, errors).length;
    return { parsed, scanned, problems };
  } finally {
    visit.mock.restore();
    scanner.mock.restore();
  }
}

interface Scanner { scan(): number; setPosition(p: number): void; getPosition(): number }

// syn11: the bracket diagnosis' scans of the whole text (moreClosers: more closers than openers?; strayCloser: which closer has no
// opener; the places an opener may go) were not taken from the budget. Not quadratic (each is made once per problem, and a problem
// is said only when a parse paid for it, at most 50), but they came on top of it: a batch whose every request lost its "{" read
// 0.2-0.4 times the budget again (1.25 MB for a 7 KB batch against 1 MB). Now every scan is paid as a parse is.
const request = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber', params: [] });
/** Batches of k requests, each without its "{": pretty-printed (its line left blank), one request a line, minified; and a ruleset
 * of k rules, each without its action parameters' "{". */
const noBraces: Record<string, (k: number) => string> = {
  pretty: (k) => JSON.stringify(Array.from({ length: k }, (_, i) => request(i)), null, 2).replace(/\n {2}\{\n/g, '\n  \n'),
  lines: (k) => `[\n${Array.from({ length: k }, (_, i) => `  ${JSON.stringify(request(i)).slice(1)}`).join(',\n')}\n]\n`,
  minified: (k) => `[${Array.from({ length: k }, (_, i) => JSON.stringify(request(i)).slice(1)).join(',')}]`,
  // A ruleset whose rules' action parameters each lost their "{" on the rule's one line: the places inside the container closed
  // before C on its line are tried (unopened.ts, syn11).
  rules: (k) => `{\n  "rules": [\n${Array.from({ length: k }, (_, i) => `    { "action": "skip", "expression": "true", "ref": "r${i}", "action_parameters":  "ruleset": "current" } }`).join(',\n')}\n  ]\n}\n`,
};

/** Each layout at 25 to 1 600 requests (or rules): at least one problem, its parses and scans within the budget and one text. */
function withinBudget(layouts: Record<string, (k: number) => string>): void {
  for (const [name, make] of Object.entries(layouts)) {
    for (const k of [25, 100, 400, 1600]) {
      const text = make(k);
      const { parsed, scanned, problems } = workOf(text);
      assert.ok(problems >= 1, `${name} ${k}: ${problems} problems`);
      assert.ok(parsed + scanned <= repairBudget(text.length) + text.length,
        `${name} ${k} (${text.length} characters): parsed ${parsed} and scanned ${scanned} characters for ${problems} problems, budget ${repairBudget(text.length)}`);
    }
  }
}

test('a batch whose every request lost its "{" (pretty, one request a line, minified): parses and scans stay within the budget', () => {
  withinBudget(noBraces);
});

// syn11: each request's "{" cost six parses (the places after its first member's colon, which cannot mend the error before them,
// and a comma before that colon) and a scan of the whole text for the balance of brackets, which the opener's insertion says.
// Now two parses (the stray quote tried, the proof) and the closer's scan: the same budget names two to four times as many.
test('a batch of 1 600 requests (100-150 KB) that each lost their "{": the budget names 4, 4 and 8 of them (1 to 3 before)', () => {
  const named = Object.fromEntries(Object.entries(noBraces).filter(([name]) => name !== 'rules').map(([name, make]) => {
    const text = make(1_600);
    return [name, syntaxProblems(text, parseErrors(text)).filter((p) => p.code === 'syntax/unopened-bracket').length];
  }));
  assert.deepEqual(named, { pretty: 4, lines: 4, minified: 8 });
});

// rv19: the indentation scan of the closer diagnosis (unclosed: indentationEnd, up to the error, two or three times a problem) was
// paid only on the comma path; a batch of a hundred requests each with a closer left out or of the wrong kind read 1-1.6 texts
// past the budget and one text.
const closers: Record<string, (k: number) => string> = {
  // Each request's "}" typed as "]" (pretty-printed).
  wrongKind: (k) => JSON.stringify(Array.from({ length: k }, (_, i) => ({ ...request(i), params: [1] })), null, 2).replace(/\n {2}\}/g, '\n  ]'),
  // Each request on a line, its params' "]" left out before a member.
  params: (k) => `[\n${Array.from({ length: k }, (_, i) => `  {"jsonrpc": "2.0", "id": ${i}, "method": "eth_getBalance", "params": ["0x1", "latest", "method": "x"}`).join(',\n')}\n]\n`,
  // Each request on a line after a comment, its params' "]" of the wrong kind.
  commented: (k) => `[\n${Array.from({ length: k }, (_, i) => `  /* c */ {"jsonrpc": "2.0", "id": ${i}, "method": "eth_chainId", "params": [1, 2}`).join(',\n')}\n]\n`,
};

test('a batch whose every request lost a closer or has one of the wrong kind: parses and scans stay within the budget', () => {
  withinBudget(closers);
});

// syn14: a bracket typed twice said alone (the container closed or opened twice): the closer's removal or the opener pair's scan and
// removal, each a parse or scan from the budget, and the name read before the first bracket of the pair.
const twice: Record<string, (k: number) => string> = {
  // Each request on a line, its params' "]" typed twice (two places for a "[" mend it too: no opener named).
  closers: (k) => `[\n${Array.from({ length: k }, (_, i) => `  {"jsonrpc": "2.0", "id": ${i}, "method": "eth_getBalance", "params": ["0x1", "latest"]]}`).join(',\n')}\n]\n`,
  // Each request's params object closed twice, minified.
  braces: (k) => `[${Array.from({ length: k }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"eth_call","params":[{"to":"0x1"}},"latest"]}`).join(',')}]`,
  // Each request's params opened twice, on a line.
  openers: (k) => `[\n${Array.from({ length: k }, (_, i) => `  {"jsonrpc": "2.0", "id": ${i}, "method": "eth_getBalance", "params": [["0x1", "latest"]}`).join(',\n')}\n]\n`,
  // Each request's "{" typed twice, pretty-printed.
  objects: (k) => JSON.stringify(Array.from({ length: k }, (_, i) => request(i)), null, 2).replace(/\n {2}\{\n/g, '\n  {{\n'),
};
test('a batch whose every request has a bracket typed twice: parses and scans stay within the budget', () => {
  withinBudget(twice);
});
