// Binary search over lists sorted by a bigint key (consensus timestamps), and prefix pruning of such lists.

/** Removes the entries below `ns` from the sorted list at `key`, and the key when nothing is left. */
export function dropOlder<K, T>(map: Map<K, T[]>, key: K, ns: bigint, stampOf: (item: T) => bigint): void {
  const list = map.get(key);
  if (list === undefined) return;
  const cut = lowerBound(list, ns, stampOf);
  if (cut === list.length) map.delete(key);
  else if (cut > 0) list.splice(0, cut);
}

/** First index whose key is >= value. */
export function lowerBound<T>(list: readonly T[], value: bigint, key: (item: T) => bigint): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid] as T) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is > value. */
export function upperBound<T>(list: readonly T[], value: bigint, key: (item: T) => bigint): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid] as T) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
