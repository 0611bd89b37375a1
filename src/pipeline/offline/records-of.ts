// The tail records a transaction makes for the watch list, matched exactly as the global tailer does: the
// transaction for each watched account it involves, and the staking rewards paid with it. Shared by the backtest
// and `ledger-sentinel test`, so both see the records the daemon would.
import { rewardAccountId } from '@ledger-sentinel/ledger-model/entity-id';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { matchAccounts } from '../../tail/global/match-account.js';
import type { TailRecord } from '../../tail/streams/record-handler.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export interface WatchList {
  readonly ids: ReadonlySet<string>;
  readonly byId: ReadonlyMap<string, WatchedAccount>;
}

export function watchListOf(accounts: readonly WatchedAccount[]): WatchList {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return { ids: new Set(byId.keys()), byId };
}

export function recordsOf(tx: Transaction, watch: WatchList): TailRecord[] {
  const out: TailRecord[] = [];
  for (const id of matchAccounts(tx, watch.ids)) {
    const account = watch.byId.get(id) as WatchedAccount;
    if ((account.sources ?? ['transactions']).includes('transactions'))
      out.push({ source: 'transactions', record: tx, account });
  }
  for (const reward of tx.staking_reward_transfers) {
    const id = rewardAccountId(reward.account);
    const account = watch.byId.get(id);
    if (!account || !(account.sources ?? ['rewards']).includes('rewards')) continue;
    out.push({
      source: 'rewards',
      account,
      record: { account_id: id, amount: reward.amount, timestamp: tx.consensus_timestamp },
    });
  }
  return out;
}
