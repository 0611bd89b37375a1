import { isAlias, isMap, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { PathKey } from './validate.js';
import { keyText } from './walk-yaml.js';

/**
 * The source offset to report for a key path: the value's node, or the key itself when `atKey` or when the value
 * is empty (`key:` with nothing after it). A path that leaves the document (a missing key) stops at the deepest
 * node that exists: the mapping the key is missing from.
 */
export function locate(doc: Document | undefined, path: readonly PathKey[], atKey = false): number {
  let node: unknown = doc?.contents;
  let offset = rangeStart(node) ?? 0;
  let keyOffset = offset;
  for (const key of path) {
    if (isAlias(node) && doc) node = node.resolve(doc);
    const next = child(node, key);
    if (!next) return offset;
    keyOffset = next.keyOffset;
    offset = isEmpty(next.value) ? keyOffset : (rangeStart(next.value) ?? keyOffset);
    node = next.value;
  }
  return atKey ? keyOffset : offset;
}

function child(node: unknown, key: PathKey): { value: unknown; keyOffset: number } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => keyText(p.key) === String(key));
    return pair ? { value: pair.value, keyOffset: rangeStart(pair.key) ?? 0 } : undefined;
  }
  if (isSeq(node) && typeof key === 'number') {
    const item = node.items[key];
    return item ? { value: item, keyOffset: rangeStart(item) ?? 0 } : undefined;
  }
  return undefined;
}

function isEmpty(node: unknown): boolean {
  return !node || (isScalar(node) && node.value === null && !node.source);
}

function rangeStart(node: unknown): number | undefined {
  return (node as Node | null)?.range?.[0];
}
