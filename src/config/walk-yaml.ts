import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { PathKey } from './validate.js';

/** Calls `visit` for every node under `node` (itself first), with its key path; aliases are not followed. */
export function walkYaml(
  node: unknown,
  visit: (node: Node, path: PathKey[]) => void,
  path: PathKey[] = [],
): void {
  if (!node || typeof node !== 'object') return;
  visit(node as Node, path);
  if (isMap(node)) {
    for (const pair of node.items) walkYaml(pair.value, visit, [...path, keyText(pair.key)]);
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => walkYaml(item, visit, [...path, index]));
  }
}

/** A mapping key as the path segment zod reports (`String(key)`). */
export function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}
