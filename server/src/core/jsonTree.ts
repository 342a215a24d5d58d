// Small helpers over jsonc-parser trees shared by the assists.
import type { Node as JsonNode } from 'jsonc-parser';
import type { JsonPath } from './types';

/** The object node at path in a tree (property names and array indices), or undefined. */
export function objectAt(root: JsonNode, path: JsonPath): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (node.type === 'object') node = node.children?.find((p) => p.children?.[0]?.value === seg)?.children?.[1];
    else if (node.type === 'array' && typeof seg === 'number') node = node.children?.[seg];
    else return undefined;
  }
  return node?.type === 'object' ? node : undefined;
}
