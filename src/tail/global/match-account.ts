// Which watched accounts a transaction belongs to, by the service's own account.id semantics (docs/ledger-api.md §5.3),
// so the global tail hands over exactly what per-account polling would: payer (minus the synthetic-child
// exclusion), an HBAR transfer row, or a fungible token transfer row. NFT-only involvement, entity_id and
// staking_reward_transfers do not count.
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';

const PAYER_CHILD_TYPES_KEPT = new Set(['CRYPTOCREATEACCOUNT', 'CRYPTOUPDATEACCOUNT']);

/** Accounts of `watched` the transaction involves, each once, in first-seen order. */
export function matchAccounts(tx: Transaction, watched: ReadonlySet<string>): string[] {
  // A plain array with a linear duplicate check: a transaction involves few watched accounts.
  const found: string[] = [];
  const payer = payerOf(tx);
  if (watched.has(payer) && payerBranchApplies(tx)) found.push(payer);
  const transfers = tx.transfers;
  for (let i = 0; i < transfers.length; i++) addWatched(found, (transfers[i] as Transfer).account, watched);
  const tokens = tx.token_transfers;
  for (let i = 0; i < tokens.length; i++) addWatched(found, (tokens[i] as TokenTransfer).account, watched);
  return found;
}

/**
 * `0.0.1234` of `0.0.1234-1565779444-711927000`. The payer nearly always has an HBAR transfer row (it pays the
 * fee): that row's account string is used when it is the prefix, which spares a substring per record.
 */
function payerOf(tx: Transaction): string {
  const id = tx.transaction_id;
  const end = id.indexOf('-');
  const transfers = tx.transfers;
  for (let i = 0; i < transfers.length; i++) {
    const account = (transfers[i] as Transfer).account;
    if (account.length === end && id.startsWith(account)) return account;
  }
  return id.slice(0, end);
}

type Transfer = Transaction['transfers'][number];
type TokenTransfer = Transaction['token_transfers'][number];

function addWatched(found: string[], account: string, watched: ReadonlySet<string>): void {
  if (watched.has(account) && !found.includes(account)) found.push(account);
}

function payerBranchApplies(tx: Transaction): boolean {
  const syntheticChild = tx.nonce > 0 && (tx.parent_consensus_timestamp ?? null) === null;
  return !syntheticChild || PAYER_CHILD_TYPES_KEPT.has(tx.name);
}
