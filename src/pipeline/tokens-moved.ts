// The tokens a transaction moves for one watched account (fungible and NFT), each once, at most MAX_TOKENS: the
// ones whose facts an alert about that account may show.
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';

const MAX_TOKENS = 20;

export function tokensMoved(tx: Transaction, accountId: string): string[] {
  const ids = new Set<string>();
  for (const t of tx.token_transfers) {
    if (ids.size >= MAX_TOKENS) break;
    if (t.account === accountId) ids.add(t.token_id);
  }
  for (const n of tx.nft_transfers) {
    if (ids.size >= MAX_TOKENS) break;
    if (n.sender_account_id === accountId || n.receiver_account_id === accountId) ids.add(n.token_id);
  }
  return [...ids];
}
