// Duplicate keys. JSON.parse keeps the LAST member of an object with a given key, as the platform's own parsers do, and every rule
// checks that value; jsonc-parser's findNodeAtLocation takes the FIRST. So a lookup by path goes through nodeAt, which takes the
// last, and problems land on the member that counts. The members that do not count are reported (syntax/duplicate-key, a warning,
// as VS Code's JSON service reports them in plain .json files) for documents that are not windowed (under WINDOW_FROM, every
// hand-written file): finding them in a 0.8 MB batch would cost a scan of the whole text on every open, and there positions still
// follow the last member.
import type { Node as JsonNode } from 'jsonc-parser';
import type { JsonPath } from '../types';
import { isEscaped } from './scanner';

/**
 * The node at path in a jsonc-parser tree, taking the last of duplicate keys (see above), or the one around offset when given (the
 * member the cursor is in); undefined when the path is not there.
 */
export function nodeAt(root: JsonNode, path: JsonPath, offset = -1): JsonNode | undefined {
  let node: JsonNode = root;
  for (const segment of path) {
    const next = typeof segment === 'string' ? memberValue(node, segment, offset) : element(node, segment);
    if (!next) return undefined;
    node = next;
  }
  return node;
}

/** The value of the last member named key of an object node, or of the one around offset. */
function memberValue(node: JsonNode, key: string, offset: number): JsonNode | undefined {
  if (node.type !== 'object' || !node.children) return undefined;
  let found: JsonNode | undefined;
  for (const p of node.children.length > INDEX_FROM ? membersNamed(node, key) : node.children) {
    const c = p.children;
    if (!c || c.length < 2 || c[0].value !== key) continue;
    found = c[1];
    if (offset >= p.offset && offset <= p.offset + p.length) break;
  }
  return found;
}

/** Objects with more members than this are looked up through an index (below), not member by member. */
const INDEX_FROM = 32;
const indexes = new WeakMap<JsonNode, { children: JsonNode[]; length: number; byKey: Map<unknown, JsonNode[]> }>();

/**
 * The members of a large object node named key, in order. Every problem locates its member by path, and an object with 100,000
 * unknown members gets a schema error for each: a scan of the members per lookup made the check quadratic (minutes, security
 * review 2026-11-26). The index is built once per node and rebuilt when the node's members changed.
 */
function membersNamed(node: JsonNode, key: string): JsonNode[] {
  const children = node.children!;
  let idx = indexes.get(node);
  if (!idx || idx.children !== children || idx.length !== children.length) {
    const byKey = new Map<unknown, JsonNode[]>();
    for (const p of children) {
      const k = p.children?.[0]?.value;
      const list = byKey.get(k);
      if (list) list.push(p);
      else byKey.set(k, [p]);
    }
    idx = { children, length: children.length, byKey };
    indexes.set(node, idx);
  }
  return idx.byKey.get(key) ?? [];
}

/** Element index of an array node. */
function element(node: JsonNode, index: number): JsonNode | undefined {
  if (node.type !== 'array' || !node.children || !Number.isInteger(index) || index < 0) return undefined;
  return node.children[index];
}

/**
 * Whether a VALID JSON text may have a duplicate key, from its parsed value: no when every colon of the text is accounted for by a
 * member of the value or a colon inside one of its strings (a duplicate is a member the value lacks). Counting colons with indexOf
 * is several times faster than walking the text character by character; a colon escaped as \u003a (the only way a string's colon
 * can be missing from the text) sends the question to the exact count.
 */
export function mayHaveDuplicates(text: string, value: unknown): boolean {
  if (/\\u003[aA]/.test(text)) return membersInText(text) !== membersInValue(value);
  let colons = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) colons++;
  return colons !== colonsInValue(value);
}

/** The value's members plus the colons inside its keys and strings: the colons its compact or pretty JSON text would hold. */
function colonsInValue(value: unknown): number {
  let count = 0;
  const inString = (s: string) => {
    for (let i = s.indexOf(':'); i >= 0; i = s.indexOf(':', i + 1)) count++;
  };
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      inString(v);
    } else if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'string' || (x !== null && typeof x === 'object')) stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      for (const k in v) {
        count++;
        inString(k);
        const x = (v as Record<string, unknown>)[k];
        if (typeof x === 'string' || (x !== null && typeof x === 'object')) stack.push(x);
      }
    }
  }
  return count;
}

/** Members in a VALID JSON text: its colons outside strings (in valid JSON every such colon separates one member's key and value). */
export function membersInText(text: string): number {
  let count = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a /* : */) {
      count++;
    } else if (c === 0x22 /* " */) {
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      if (q < 0) return count;
      i = q;
    }
  }
  return count;
}

/** Members in a parsed JSON value: the own keys of all of its objects. */
export function membersInValue(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x);
    } else {
      for (const k in v) {
        count++;
        const x = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') stack.push(x);
      }
    }
  }
  return count;
}

export interface DuplicateMember {
  key: string;
  /** The property node that does not count. */
  ignored: JsonNode;
  /** The property node that does (the last with this key in the same object). */
  kept: JsonNode;
}

/** Every member of the tree's objects that a later member of the same object overrides. */
export function duplicateMembers(root: JsonNode): DuplicateMember[] {
  const out: DuplicateMember[] = [];
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    const children = node.children ?? [];
    if (node.type === 'object') {
      const last = new Map<string, JsonNode>();
      for (const p of children) {
        const key = p.children?.[0]?.value;
        if (typeof key === 'string') last.set(key, p);
      }
      for (const p of children) {
        const key = p.children?.[0]?.value;
        if (typeof key !== 'string') continue;
        const kept = last.get(key)!;
        if (kept !== p) out.push({ key, ignored: p, kept });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}
