// The listings the tailers read, derived from the watch list. See tail-state.ts for the key scheme.
import { ENTITY_ID_PATTERN } from '@ledger-sentinel/ledger-model/entity-id';
import type { Pushdown } from '../../accounts/pushdown.js';
import type { TailSourceName } from './record-handler.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export interface AccountStream {
  readonly key: string;
  readonly source: TailSourceName;
  readonly account: WatchedAccount;
  /** False for rewards watched by alias: only the rewards endpoint can follow those. */
  readonly coveredByGlobal: boolean;
  readonly pushdown?: Pushdown;
}

export const GLOBAL_STREAM = 'global';
/** The poll key of the global tail's sweep (immediate mode): a job of its own, not a stream with a cursor. */
export const GLOBAL_SWEEP = 'global:sweep';

export function accountStreams(
  accounts: readonly WatchedAccount[],
  pushdown: (account: WatchedAccount) => Pushdown | undefined = () => undefined,
): AccountStream[] {
  const streams: AccountStream[] = [];
  const keys = new Set<string>();
  for (const account of accounts) {
    const sources = account.sources ?? ['transactions', 'rewards'];
    // Only an entry without a numeric id is out of the global tail's reach (it matches ids, not aliases).
    const byAlias = !ENTITY_ID_PATTERN.test(account.id);
    for (const source of sources) {
      const coveredByGlobal = !(source === 'rewards' && byAlias);
      const key =
        source === 'transactions'
          ? `tx:${account.id}`
          : coveredByGlobal
            ? `rw:${account.id}`
            : `rwp:${account.rewardsPath}`;
      if (keys.has(key)) continue;
      keys.add(key);
      const filter = source === 'transactions' ? pushdown(account) : undefined;
      streams.push({ key, source, account, coveredByGlobal, ...(filter ? { pushdown: filter } : {}) });
    }
  }
  return streams;
}
