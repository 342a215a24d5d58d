// Small helpers over jsonc-parser trees shared by the assists.
import type { Node as JsonNode } from 'jsonc-parser';
import type { JsonPath } from './types';
import { nodeAt } from './parse';

/**
 * The object node at path in a tree (property names and array indices), or undefined. Of duplicate keys, the member around offset
 * (the one the cursor is in), else the last (the one JSON.parse keeps): parse/duplicates.ts, nodeAt.
 */
export function objectAt(root: JsonNode, path: JsonPath, offset = -1): JsonNode | undefined {
  const node = nodeAt(root, path, offset);
  return node?.type === 'object' ? node : undefined;
}
