// Small helpers over jsonc-parser trees shared by the assists.
import { createScanner, findNodeAtOffset, SyntaxKind, type Node as JsonNode } from 'jsonc-parser';
import type { JsonPath, Span } from './types';
import { nodeAt } from './parse';

/**
 * The object node at path in a tree (property names and array indices), or undefined. Of duplicate keys, the member around offset
 * (the one the cursor is in), else the last (the one JSON.parse keeps): parse/duplicates.ts, nodeAt.
 */
export function objectAt(root: JsonNode, path: JsonPath, offset = -1): JsonNode | undefined {
  const node = nodeAt(root, path, offset);
  return node?.type === 'object' ? node : undefined;
}

/** The value node of an object's member, of duplicate keys the last (the one JSON.parse, hover and the checks take). */
export function memberValue(obj: JsonNode | undefined, name: string): JsonNode | undefined {
  return obj ? nodeAt(obj, [name]) : undefined;
}

/** Whether a colon follows the key literal at span: the member already has its value part, so a completion of the key writes the
 * name only (vscode-json-languageservice adds a value only where there is none); else `"name": value` would leave two colons. */
export function colonAfter(text: string, span: Span): boolean {
  let i = span.offset + span.length;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  return text[i] === ':';
}

/** Whether another member follows the text at offset (the next token opens a string): a member completed there needs a comma
 * after it, as vscode-json-languageservice's evaluateSeparatorAfter adds one. */
export function memberFollows(text: string, offset: number): boolean {
  let i = offset;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  return text[i] === '"';
}

/** Whether a value follows the text at offset (the next token opens an object, array, string or literal): an array item
 * completed there needs a comma after it. */
export function valueFollows(text: string, offset: number): boolean {
  let i = offset;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  return i < text.length && /[{["\-0-9tfn]/.test(text[i]);
}

/** The character that closes a string, an object or an array. */
const CLOSER: Record<string, string> = { string: '"', object: '}', array: ']' };

/** The spans around offset in a JSON text, innermost first (each contains the one before it). */
export function jsonSelection(root: JsonNode | undefined, text: string, offset: number): Span[] {
  const out: Span[] = [];
  let node = root && findNodeAtOffset(root, offset, true);
  for (; node; node = node.parent) {
    const end = node.offset + node.length;
    if (node.type === 'string' || node.type === 'object' || node.type === 'array') {
      // The contents, without the quotes or brackets, when the caret is inside them. A string or bracket left open (a document
      // being typed) has no closing character to leave out: its contents run to its end.
      const inStart = node.offset + 1;
      const inEnd = end > inStart && text[end - 1] === CLOSER[node.type] ? end - 1 : end;
      if (inStart < inEnd && offset >= inStart && offset <= inEnd) out.push({ offset: inStart, length: inEnd - inStart });
    }
    out.push({ offset: node.offset, length: node.length });
    if (node.type === 'property' || node.parent?.type === 'array') {
      // A member or an item with the comma after it: what a user selects to move or delete it.
      const scanner = createScanner(text, true);
      scanner.setPosition(end);
      if (scanner.scan() === SyntaxKind.CommaToken) out.push({ offset: node.offset, length: scanner.getTokenOffset() + scanner.getTokenLength() - node.offset });
    }
  }
  return out;
}
