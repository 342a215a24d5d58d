// Smart selection inside a rule's expression: the token, its comparison, the "and"/"or" around it, a parenthesized group, the
// whole expression; mapped through the string's escapes onto the document (core/selection.ts adds the JSON around it).
import { findNodeAtOffset, getNodePath } from 'jsonc-parser';
import type { ParsedDoc, Span } from '../../types';
import { JsonStringMap } from '../../jsonString';
import { children, parseExpression, type Expr, type Node } from './exprParser';
import { isExpressionPath } from './valueExpressions';
import { fieldNames, leftKindOf } from './exprCheck';
import { phaseOf } from './body';

type AnyNode = Expr | Node;

const inside = (n: Node, at: number) => at >= n.offset && at < n.offset + n.length;
const atEnd = (n: Node, at: number) => at === n.offset + n.length;

/** The expression's spans around a decoded offset, innermost first. */
export function expressionSpans(ast: Expr, at: number): Span[] {
  const out: Span[] = [];
  let cur: AnyNode | undefined = inside(ast, at) || atEnd(ast, at) ? ast : undefined;
  while (cur) {
    out.push({ offset: cur.offset, length: cur.length });
    const e = cur as Expr;
    const kids = 'type' in e ? children(e) as readonly Node[] : [];
    // The operator or the function's name when the caret is on it; an index step of a field or a call.
    const parts: readonly Node[] = !('type' in e) ? [] : e.type === 'compare' || e.type === 'logical' ? [e.opSpan]
      : e.type === 'field' || e.type === 'call' ? [e.nameSpan, ...e.index] : [];
    cur = kids.find((k) => inside(k, at)) ?? parts.find((k) => inside(k, at)) ?? kids.find((k) => atEnd(k, at)) ?? parts.find((k) => atEnd(k, at));
  }
  return out.reverse();
}

/** The last expression parsed: Expand Selection asks again at each step, and a request may carry many positions in one string. */
let last: { src: string; phase: string | undefined; ast: Expr | undefined } | undefined;
function parsed(src: string, phase: string | undefined): Expr | undefined {
  // With the checker's types and field names in the body's phase, as the check parses it: a field on the right of a comparison is
  // read as one, and no operator word is split after a Network Firewall Boolean field
  if (last?.src !== src || last.phase !== phase) last = { src, phase, ast: parseExpression(src, leftKindOf(phase), fieldNames(phase)).ast };
  return last.ast;
}

/** Inside one of a rule's expression strings (valueExpressions.ts): the expression's spans around offset, as document spans, innermost first. */
export function selectionRanges(doc: ParsedDoc, offset: number): Span[] {
  const root = doc.treeAround(offset);
  const node = root && findNodeAtOffset(root, offset, true);
  if (!node || node.type !== 'string' || offset <= node.offset || offset >= node.offset + node.length) return [];
  if (!isExpressionPath(getNodePath(node))) return [];
  const map = new JsonStringMap(doc.text, node.offset, node.length);
  const ast = parsed(map.value, phaseOf(doc.value));
  return ast ? expressionSpans(ast, map.toDecoded(offset)).map((s) => map.spanToSource(s)) : [];
}
