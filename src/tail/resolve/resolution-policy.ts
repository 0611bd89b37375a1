// The tail's policy for accounts still waiting for their `0.0.N` (docs/tailing.md, "Accounts named by EVM address
// or alias"): how long one round of lookups may take, when to try again, and since when each one waits. The
// daemon's life cycle (app/account-resolution.ts) applies it; nothing here does I/O.
import type { WatchedAccount } from '../../accounts/watched-account.js';

/** One round of lookups may take this long at most; what has not answered by then is retried later. */
export const RESOLUTION_ROUND_TIMEOUT_MS = 30_000;
const FIRST_RETRY_MIN_MS = 1_000;

/** The wait before retry number `retries` (from 0): max(1 s, poll_interval), doubling, up to max_backoff. */
export function resolutionRetryDelay(
  tail: { readonly poll_interval: number; readonly max_backoff: number },
  retries: number,
): number {
  const first = Math.max(FIRST_RETRY_MIN_MS, tail.poll_interval);
  return Math.min(first * 2 ** Math.min(retries, 20), Math.max(first, tail.max_backoff));
}

export interface PendingAccount {
  readonly account: WatchedAccount;
  /** The config entry, like `accounts[2].id`. */
  readonly entry: string;
  /** When it was first found unresolved (ms since the epoch). */
  readonly since: number;
}

/**
 * The pending accounts with their config entry and since when they wait (for self-monitoring). `since` maps a
 * lookup text to when it was first left unresolved: kept across reloads, dropped once resolved.
 */
export function pendingSince(
  accounts: readonly WatchedAccount[],
  pending: readonly WatchedAccount[],
  since: Map<string, number>,
  now: number,
): PendingAccount[] {
  const waiting = new Set(pending.map((a) => a.lookup as string));
  for (const ref of since.keys()) if (!waiting.has(ref)) since.delete(ref);
  return pending.map((account) => {
    const ref = account.lookup as string;
    if (!since.has(ref)) since.set(ref, now);
    return { account, entry: `accounts[${accounts.indexOf(account)}].id`, since: since.get(ref) as number };
  });
}
