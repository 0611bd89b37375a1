// What `check` says about accounts named by EVM address or alias: their id is looked up when the daemon starts,
// not now (check sends no request), so the user sees which entries depend on the query service.
import type { WatchedAccount } from '../../accounts/watched-account.js';

/** One line per account that needs a lookup; empty when none does. */
export function resolutionPlan(accounts: readonly WatchedAccount[], baseUrl: string): string {
  const base = baseUrl.replace(/\/$/, '');
  return accounts
    .map((account, index) => {
      if (account.lookup === undefined) return '';
      const url = `${base}/api/v1/accounts/${account.lookup}`;
      return `accounts[${index}].id ${short(account.lookup)}: resolved at start (and on reload) through GET ${url}; until the query service knows it, it is not tailed and the lookup is retried\n`;
    })
    .join('');
}

function short(ref: string): string {
  return ref.length > 14 ? `${ref.slice(0, 10)}…` : ref;
}
