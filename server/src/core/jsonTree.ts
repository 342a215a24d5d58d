// Small helpers over jsonc-parser trees shared by the assists.
import type { Node as JsonNode } from 'jsonc-parser';
import type { JsonPath } from './types';

/**
 * The object node at path in a tree (property names and array indices), or undefined. Of duplicate keys, the member around offset
 * (the one the cursor is in), else the last (the one JSON.parse keeps).
 */
export function objectAt(root: JsonNode, path: JsonPath, offset = -1): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (node.type === 'object') node = member(node, seg, offset);
    else if (node.type === 'array' && typeof seg === 'number') node = node.children?.[seg];
    else return undefined;
  }
  return node?.type === 'object' ? node : undefined;
}

function member(node: JsonNode, key: string | number, offset: number): JsonNode | undefined {
  let found: JsonNode | undefined;
  for (const p of node.children ?? []) {
    if (p.children?.[0]?.value !== key) continue;
    found = p.children[1];
    if (offset >= p.offset && offset <= p.offset + p.length) break;
  }
  return found;
}
