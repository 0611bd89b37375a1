// The streams the tailer polls per account, derived from the watch list through the stream kinds
// (stream-kinds.ts): one per watched account and source, in watch-list order, each key once.
import type { Pushdown } from '../../accounts/pushdown.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import type { AccountStream } from './stream-kind.js';
import { STREAM_KINDS } from './stream-kinds.js';

export function accountStreams(
  accounts: readonly WatchedAccount[],
  pushdown: (account: WatchedAccount) => Pushdown | undefined = () => undefined,
): AccountStream[] {
  const streams: AccountStream[] = [];
  const keys = new Set<string>();
  for (const account of accounts) {
    for (const source of account.sources ?? ['transactions', 'rewards']) {
      const kind = STREAM_KINDS[source];
      const { key, coveredByGlobal } = kind.key(account);
      if (keys.has(key)) continue;
      keys.add(key);
      const filter = kind.takesPushdown ? pushdown(account) : undefined;
      streams.push({ key, kind, account, coveredByGlobal, ...(filter ? { pushdown: filter } : {}) });
    }
  }
  return streams;
}
