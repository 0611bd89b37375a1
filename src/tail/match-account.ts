// Which watched accounts a transaction belongs to, by the service's own account.id semantics (NOTES.md 5.3),
// so the global tail hands over exactly what per-account polling would: payer (minus the synthetic-child
// exclusion), an HBAR transfer row, or a fungible token transfer row. NFT-only involvement, entity_id and
// staking_reward_transfers do not count.
import type { Transaction } from '../ledger/schema.js';
import { isSuccessResult } from '../ledger/result-codes.js';
import type { Pushdown } from './config.js';

const PAYER_CHILD_TYPES_KEPT = new Set(['CRYPTOCREATEACCOUNT', 'CRYPTOUPDATEACCOUNT']);

/** Accounts of `watched` the transaction involves, each once, in first-seen order. */
export function matchAccounts(tx: Transaction, watched: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const payer = tx.transaction_id.slice(0, tx.transaction_id.indexOf('-'));
  if (watched.has(payer) && payerBranchApplies(tx)) found.add(payer);
  for (const t of tx.transfers) if (watched.has(t.account)) found.add(t.account);
  for (const t of tx.token_transfers) if (watched.has(t.account)) found.add(t.account);
  return [...found];
}

function payerBranchApplies(tx: Transaction): boolean {
  const syntheticChild = tx.nonce > 0 && (tx.parent_consensus_timestamp ?? null) === null;
  return !syntheticChild || PAYER_CHILD_TYPES_KEPT.has(tx.name);
}

/** The pushdown filter applied locally, for the global tail (the same records the query would return). */
export function passesPushdown(tx: Transaction, pushdown: Pushdown | undefined): boolean {
  if (!pushdown) return true;
  if (pushdown.result && isSuccessResult(tx.result) !== (pushdown.result === 'success')) return false;
  if (pushdown.transactiontype) {
    const name = tx.name.toUpperCase();
    if (!pushdown.transactiontype.some((t) => t.toUpperCase() === name)) return false;
  }
  return true;
}
