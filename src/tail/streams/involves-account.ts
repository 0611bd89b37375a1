// Whether a record on a per-account stream involves that account at all. The service is asked for the account's
// records; a record that names the account nowhere (a faulty or hostile server, a proxy mixing up responses) must
// not be alerted under it (docs/tailing.md, "Attribution"). Deliberately wider than the service's own account.id
// filter (global/match-account.ts): any mention counts, so a record the service may rightly return is never refused.
import { ENTITY_ID_PATTERN, rewardAccountId } from '@ledger-sentinel/ledger-model/entity-id';
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';

export function involvesAccount(record: Transaction | StakingReward, accountId: string): boolean {
  // An alias-only watch entry has the alias as its id, which a reward's account_id never shows: not checkable.
  if ('account_id' in record) return record.account_id === accountId || !ENTITY_ID_PATTERN.test(accountId);
  const tx = record;
  if (tx.transaction_id.startsWith(`${accountId}-`)) return true;
  if (tx.entity_id === accountId) return true;
  for (const t of tx.transfers) if (t.account === accountId) return true;
  for (const t of tx.token_transfers) if (t.account === accountId) return true;
  for (const n of tx.nft_transfers)
    if (n.sender_account_id === accountId || n.receiver_account_id === accountId) return true;
  for (const r of tx.staking_reward_transfers) if (rewardAccountId(r.account) === accountId) return true;
  return false;
}
