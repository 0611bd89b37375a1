// Puts the account resolver (tail/resolve/account-resolver.ts) and its policy (tail/resolve/resolution-policy.ts)
// in the daemon's life cycle: before a runtime starts (start, reload), accounts named by EVM address or alias are
// resolved and the rules compiled against their ids; while some stay unknown, a retry is scheduled with a
// doubling delay, and the caller swaps in a runtime that tails them once they resolve. Nothing here blocks the
// other accounts: they are tailed meanwhile.
import type { Logger } from 'pino';
import { linkSignal } from '../ledger/linked-signal.js';
import type { Metrics } from '../observability/metrics.js';
import { compileRules } from '../rules/load/compile.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import { createAccountResolver } from '../tail/resolve/account-resolver.js';
import { ledgerClientFor } from './clients.js';
import type { ResolvedAccountsRepo } from '../tail/resolve/resolved-accounts-repo.js';
import type { Loaded, UnresolvedAccount } from './load-all.js';
import {
  RESOLUTION_ROUND_TIMEOUT_MS,
  pendingSince,
  resolutionRetryDelay,
} from '../tail/resolve/resolution-policy.js';

export interface AccountResolution {
  /** `loaded` with its lookups resolved: the watch list holds only `0.0.N` ids, the rules compiled for them. */
  apply(loaded: Loaded, refresh: boolean): Promise<Loaded>;
  /** Accounts left unresolved by the last apply(). */
  pending(): readonly WatchedAccount[];
  /** While accounts are pending, calls `retry` once after a delay (which doubles per retry, up to max_backoff). */
  scheduleRetry(loaded: Loaded, retry: () => void): void;
  /** Stops the timer and any lookup in flight, and schedules no more retries (shutdown). */
  close(): void;
}

export interface AccountResolutionDeps {
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly clock: () => number;
  /** Resolved ids are kept here too, for a restart while the query service is down. */
  readonly persisted?: ResolvedAccountsRepo;
}

export function createAccountResolution(deps: AccountResolutionDeps): AccountResolution {
  const resolver = createAccountResolver(deps);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let retries = 0;
  let pending: readonly WatchedAccount[] = [];
  let closed = false;
  /** lookup text → when it was first left unresolved; kept across reloads, dropped once resolved. */
  const since = new Map<string, number>();

  return {
    async apply(loaded, refresh) {
      if (refresh) retries = 0;
      if (!loaded.accounts.some((a) => a.lookup !== undefined)) {
        pending = [];
        deps.metrics.accountsUnresolved.set(0); // a reload may have removed the last pending one
        return loaded;
      }
      const client = ledgerClientFor(loaded.config, deps.log, deps.metrics);
      // controller lives as long as the app: linked, not AbortSignal.any (ledger/linked-signal.ts says why).
      const link = linkSignal([controller.signal, AbortSignal.timeout(RESOLUTION_ROUND_TIMEOUT_MS)]);
      const signal = link.signal;
      try {
        const lookup = (ref: string, s: AbortSignal) => client.getAccount(ref, { signal: s });
        const result = await resolver.resolve(loaded.accounts, { lookup, refresh, signal });
        pending = result.pending;
        return withAccounts(
          loaded,
          result.accounts,
          pendingSince(loaded.accounts, pending, since, deps.clock()),
        );
      } finally {
        link.dispose();
        await client.close();
      }
    },
    pending: () => pending,
    scheduleRetry(loaded, retry) {
      clearTimeout(timer);
      if (closed || pending.length === 0) return;
      const delay = resolutionRetryDelay(loaded.config.tail, retries);
      retries += 1;
      deps.log.info(
        { pending: pending.map((a) => a.lookup), retryInMs: delay },
        'accounts not resolved yet; retrying later',
      );
      timer = setTimeout(retry, delay);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      controller.abort();
    },
  };
}

/** The rules select accounts by name and labels at compile time, so they are compiled for the resolved ids. */
function withAccounts(
  loaded: Loaded,
  accounts: readonly WatchedAccount[],
  unresolved: readonly UnresolvedAccount[],
): Loaded {
  const ruleSet = compileRules(
    loaded.rules.map((l) => l.rule),
    { accounts, explorerUrl: loaded.config.explorer.transaction_url },
  );
  return { ...loaded, accounts, ruleSet, unresolved };
}
