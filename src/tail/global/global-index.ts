// The watch list as the global tail matches it: the covered streams by account id.
import type { AccountStream } from '../streams/stream-kind.js';

/** The covered streams by account id, built once per watch list. */
export interface GlobalIndex {
  readonly ids: ReadonlySet<string>;
  readonly transactions: ReadonlyMap<string, AccountStream>;
  readonly rewards: ReadonlyMap<string, AccountStream>;
}

export function globalIndex(streams: readonly AccountStream[]): GlobalIndex {
  const transactions = new Map<string, AccountStream>();
  const rewards = new Map<string, AccountStream>();
  for (const s of streams) {
    if (!s.coveredByGlobal) continue;
    (s.kind.name === 'transactions' ? transactions : rewards).set(s.account.id, s);
  }
  return { ids: new Set([...transactions.keys(), ...rewards.keys()]), transactions, rewards };
}
