// The rules-language front door: parse + check one expression, and map its problems onto the JSON string that holds it.
import type { Fix, ParsedDoc, Problem, RuleContext, Span } from '../../types';
import type { JsonPath } from '../../types';
import { parseExpression, walk, type Expr, type ExprProblem } from './exprParser';
import { FIELDS } from './catalog';
import { checkExpression, fieldNames, inferExpression, leftKindOf } from './exprCheck';
import { EXPRESSION_SITES, credentialProblems, mayNameRewriteOnly, rewriteOnlyProblems, siteName, urlRewriteProblems, valueTypeProblems, type ExpressionSite } from './valueExpressions';
import { JsonStringMap } from '../../jsonString';
import { utf8Length } from '../../text';
import { moveFix } from '../../fix';

export interface Analysis { ast: Expr | undefined; problems: ExprProblem[] }

/** Parse and check; type checks run only when the expression parsed without a syntax error (no cascades). With the ruleset's
 * phase, fields and functions that phase cannot see are reported too. site: where the expression is in its rule (valueExpressions.ts):
 * a value expression's type is checked against its site's, and a function of rewrite expressions outside one is reported; without
 * it, a condition whose place is not known (the evaluator's, a test's). path: the site's path in the document, for messages. */
export function analyzeExpression(src: string, phase?: string, site?: ExpressionSite, path: JsonPath = []): Analysis {
  const { ast, problems, splits } = parseExpression(src, leftKindOf(phase), fieldNames(phase));
  // An empty value expression wants a value, not the match expression's "true"
  if (site?.role === 'value' && src.trim() === '') {
    for (const p of problems) if (p.code === 'ruleset/expr-syntax') p.message = `The ${siteName(site, path)} is empty; write its value, e.g. a field, a string or concat(...).`;
  }
  if (ast && !problems.some((p) => p.code === 'ruleset/expr-syntax' || p.code === 'limits/too-deep')) {
    const before = problems.length;
    if (site?.role !== 'value') problems.push(...checkExpression(ast, phase, src, site?.seesResponse === true));
    else {
      const r = inferExpression(ast, phase, src);
      problems.push(...r.problems, ...valueTypeProblems(ast, r, site, path, phase, src));
    }
    if (site && mayNameRewriteOnly(src)) problems.push(...rewriteOnlyProblems(ast, site, problems.slice(before)));
    if (site?.credential) problems.push(...credentialProblems(ast, src, site));
    if (site?.rewrite === 'url') problems.push(...urlRewriteProblems(ast, site));
  }
  // A problem right after an operator word read off the front of a longer word ("oregon" is `or egon` to the platform) says so
  // (and then that is all); else the joined word is a warning of its own, with the space as its fix: "notssl" is accepted, but is
  // more often a typo than a choice
  for (const split of splits ?? []) {
    const read = `the platform reads "${split.whole}" as "${split.word} ${split.whole.slice(split.word.length)}"`;
    let explained = false;
    for (const p of problems) {
      if (p.offset !== split.offset) continue;
      p.message = `${p.message.replace(/\.$/, '')} (${read}: an operator word at the start of a longer word is read as the operator).`;
      explained = true;
    }
    if (!explained) {
      problems.push({
        code: 'ruleset/expr-joined-word', offset: split.offset - split.word.length, length: split.whole.length,
        message: `The platform ${read.slice('the platform '.length)}: an operator word at the start of a longer word is read as the operator. Write the space.`,
        fixes: [{ title: `Write "${split.word} ${split.whole.slice(split.word.length)}"`, edits: [{ offset: split.offset, length: 0, newText: ' ' }], preferred: true }],
      });
    }
  }
  return { ast, problems };
}

/** The JSON string literal at path, decoded with its source offsets (undefined when the value there is not a string). */
export function stringAt(doc: ParsedDoc, path: JsonPath): JsonStringMap | undefined {
  const span = doc.locate(path);
  if (span.length <= 0 || doc.text[span.offset] !== '"') return undefined;
  return new JsonStringMap(doc.text, span.offset, span.length);
}

/** Expression problems as document problems, with spans and quick-fix edits mapped into the JSON string. */
export function expressionProblems(doc: ParsedDoc, ctx: RuleContext, path: JsonPath, expression: string, phase?: string, site?: ExpressionSite): Problem[] {
  // The analysis depends on the text, the phase and the site (a header's name, in messages) only: an edit of a ruleset analyses the
  // expressions it changed, and takes the others' problems from the version before (issue 18: the analysis is three quarters of a
  // ruleset's check). The problems' spans are the expression's own; they are mapped into this version's text below.
  const where = site ? `${EXPRESSION_SITES.indexOf(site)}${site.rewrite === 'header' ? `:${String(path[path.length - 2])}` : ''}` : '';
  const problems = doc.reuse(['expression', phase ?? '', where, expression], () => analyzeExpression(expression, phase, site, path).problems);
  if (problems.length === 0) return [];
  const decoded = stringAt(doc, path);
  const whole = doc.locate(path);
  // Compared once: the two strings are equal but not the same object, so each comparison reads them whole (per problem, that
  // was quadratic: 32 000 spacing problems in a 200 KB expression took 0.6 s)
  const exact = decoded !== undefined && decoded.value === expression ? decoded : undefined;
  const map = (s: Span): Span => (exact ? exact.spanToSource(s) : whole);
  return problems.map((p) => {
    const extra: Partial<Problem> = {};
    if (p.tags) extra.tags = p.tags;
    if (p.fixes && exact) {
      extra.fixes = p.fixes.map((f): Fix => moveFix(f, (e) => ({ ...map(e), newText: JSON.stringify(e.newText).slice(1, -1) })));
    }
    return ctx.report(p.code, p.message, map(p), extra);
  });
}

/** What an expression reads that the rate limiting rules care about: its first custom list ($name) and its first response field
 * (counted once the response is sent). Nothing for a text that is no string or is empty, or that does not parse. */
export function expressionReads(src: unknown): { list?: string; response?: string } {
  if (typeof src !== 'string' || src.trim() === '') return {};
  const { ast } = parseExpression(src);
  const out: { list?: string; response?: string } = {};
  if (ast) {
    walk(ast, (n) => {
      if (n.type === 'list') out.list ??= `$${n.name}`;
      else if (n.type === 'field' && FIELDS.get(n.name)?.stage === 'response') out.response ??= n.name;
    });
  }
  return out;
}

export { utf8Length };
