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
