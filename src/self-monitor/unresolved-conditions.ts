// The self-monitoring condition for accounts configured by EVM address or alias that the query service has not
// turned into an id for `account_stale_after`: they are not tailed, so nothing can alert for them.
import { BUILT_IN_RULES, type Condition } from './built-in-alerts.js';

/**
 * An account named by EVM address or alias whose id is not known yet, as the account resolution reports it
 * (the app hands the list in; this is what the condition reads of it).
 */
export interface UnresolvedAccount {
  readonly account: {
    readonly id: string;
    readonly name: string;
    readonly lookup?: string | undefined;
    readonly labels: Readonly<Record<string, string>>;
  };
  /** The config entry, like `accounts[2].id`. */
  readonly entry: string;
  /** When it was first found unresolved (ms since the epoch). */
  readonly since: number;
}

export function unresolvedConditions(
  unresolved: readonly UnresolvedAccount[],
  afterMs: number,
  now: number,
): Condition[] {
  return unresolved
    .filter((u) => now - u.since > afterMs)
    .map(({ account, entry, since }) => {
      const lookup = account.lookup ?? account.id;
      return {
        key: `${BUILT_IN_RULES.accountUnresolved}|${lookup}`,
        ruleId: BUILT_IN_RULES.accountUnresolved,
        severity: 'warning' as const,
        summary: `Account ${account.name} is not known to the query service`,
        description: `${entry} (${lookup}) has not resolved to an account id for ${Math.round((now - since) / 1000)} s: it is not tailed, so no alert can fire for it. Check the address or alias; the lookup is retried.`,
        account: { id: lookup, name: account.name, labels: account.labels },
      };
    });
}
