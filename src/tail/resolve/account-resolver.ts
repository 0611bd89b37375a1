// Accounts configured by EVM address or alias (docs/tailing.md, "Accounts named by EVM address or alias"): their
// `0.0.N` comes from GET /api/v1/accounts/{lookup}. Resolved ids are cached for the life of the process, so a
// reload while the query service is down keeps tailing them; an account the service does not know (404) or
// cannot answer for is left out of the tailer (the others are tailed) and tried again later by the caller.
import type { Logger } from 'pino';
import { formatEntityId, parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import type { AccountSummary } from '@ledger-sentinel/ledger-model/schema';
import type { Metrics } from '../../observability/metrics.js';
import { createPollSlots } from '../loop/poll-slots.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import type { ResolvedAccountsRepo } from './resolved-accounts-repo.js';

export type AccountLookup = (ref: string, signal: AbortSignal) => Promise<AccountSummary | null>;

export interface Resolution {
  /** Every account with a `0.0.N` id, in config order: the watch list the tailer gets. */
  readonly accounts: readonly WatchedAccount[];
  /** Accounts whose id is not known yet: not tailed until a later attempt resolves them. */
  readonly pending: readonly WatchedAccount[];
}

export interface ResolveOptions {
  readonly lookup: AccountLookup;
  /** Ask the service even for cached lookups (start, reload); the cache answers when the request fails. */
  readonly refresh: boolean;
  readonly signal: AbortSignal;
}

export interface AccountResolver {
  resolve(accounts: readonly WatchedAccount[], options: ResolveOptions): Promise<Resolution>;
}

export interface AccountResolverDeps {
  readonly log: Logger;
  readonly metrics: Pick<Metrics, 'accountResolutions' | 'accountsUnresolved'>;
  /** Where resolved ids outlive the process (the state store); the in-memory cache starts from it. */
  readonly persisted?: ResolvedAccountsRepo;
}

/** Lookups in flight at once: start-up with many aliases stays within the request budget's spirit. */
const CONCURRENCY = 4;

export function createAccountResolver(deps: AccountResolverDeps): AccountResolver {
  const log = deps.log.child({ component: 'account-resolver' });
  const cache = loadCache(deps.persisted, log);

  async function lookupOne(
    account: WatchedAccount,
    index: number,
    options: ResolveOptions,
  ): Promise<string | undefined> {
    const ref = account.lookup as string;
    const cached = cache.get(ref);
    if (cached && !options.refresh) return cached;
    const entry = `accounts[${index}].id`;
    try {
      let found = await options.lookup(ref, options.signal);
      if (found === null) {
        deps.metrics.accountResolutions.inc({ outcome: 'not_found' });
        log.warn(
          { entry, lookup: ref, name: account.name },
          'configured account not known to the query service',
        );
        return cached;
      }
      const mismatch = answersOther(ref, found);
      if (mismatch) throw new Error(mismatch);
      const id = parseEntityId(found.account);
      if (!id.ok) throw new Error(`the query service answered an account id out of range: ${found.account}`);
      found = { ...found, account: formatEntityId(id.id) };
      deps.metrics.accountResolutions.inc({ outcome: 'resolved' });
      if (cached !== found.account) {
        log.info({ entry, lookup: ref, id: found.account }, 'account resolved');
        persist(deps.persisted, ref, found.account, log);
      }
      cache.set(ref, found.account);
      return found.account;
    } catch (err) {
      deps.metrics.accountResolutions.inc({ outcome: 'failed' });
      log.warn({ err, entry, lookup: ref, cached }, 'account resolution failed');
      return cached;
    }
  }

  return {
    async resolve(accounts, options) {
      const ids = new Map<number, string>();
      const jobs = accounts.map((account, index) => async () => {
        if (account.lookup === undefined) return;
        const id = await lookupOne(account, index, options);
        if (id !== undefined) ids.set(index, id);
      });
      const slots = createPollSlots(CONCURRENCY);
      await Promise.all(jobs.map((job) => slots.run(job)));
      const result = partition(accounts, ids);
      deps.metrics.accountsUnresolved.set(result.pending.length);
      return result;
    },
  };
}

/** Config order kept: local ids as they are, looked-up ones under their id, the rest pending. */
function partition(accounts: readonly WatchedAccount[], ids: ReadonlyMap<number, string>): Resolution {
  const resolved: WatchedAccount[] = [];
  const pending: WatchedAccount[] = [];
  accounts.forEach((account, index) => {
    const id = ids.get(index);
    if (account.lookup === undefined) resolved.push(account);
    else if (id === undefined) pending.push(account);
    else resolved.push(withId(account, id));
  });
  return { accounts: resolved, pending };
}

function loadCache(persisted: ResolvedAccountsRepo | undefined, log: Logger): Map<string, string> {
  try {
    return persisted?.load() ?? new Map();
  } catch (err) {
    log.warn({ err }, 'resolved account ids could not be read from the state store');
    return new Map();
  }
}

/** A failed write costs only the restart-while-down case: the id stays cached in memory. */
function persist(persisted: ResolvedAccountsRepo | undefined, ref: string, id: string, log: Logger): void {
  try {
    persisted?.save(ref, id);
  } catch (err) {
    log.warn({ err, lookup: ref }, 'resolved account id could not be saved to the state store');
  }
}

/** The account under its `0.0.N`; rewards follow the id too unless a `rewards_alias` says otherwise. */
function withId(account: WatchedAccount, id: string): WatchedAccount {
  const rewardsPath = account.rewardsPath === account.lookup ? id : account.rewardsPath;
  return { ...account, id, rewardsPath };
}

/** A body for another account than the one asked for is not trusted (a proxy or cache answering wrongly). */
function answersOther(ref: string, found: AccountSummary): string | undefined {
  const asked = ref.toLowerCase();
  if (asked.startsWith('0x')) {
    return found.evm_address?.toLowerCase() === asked
      ? undefined
      : `the query service answered for EVM address ${String(found.evm_address)}, not ${ref}`;
  }
  return found.alias === ref
    ? undefined
    : `the query service answered for alias ${String(found.alias)}, not ${ref}`;
}
