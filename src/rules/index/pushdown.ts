// The transactions filter the tailer may push down to the query service for one account (accounts/pushdown.ts
// Pushdown). It is returned only when every enabled transactions rule on the account implies it, so no record the
// filter drops could have matched a rule. Anything that cannot be proven gives no filter: a missed alert costs
// more than the requests a filter saves.
import type { RuleSet } from '../load/rule-set.js';
import { eitherOf, guardOf } from './guard.js';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';
import type { Pushdown } from '../../accounts/pushdown.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

/** For createTailer's `pushdown` option: `(account) => pushdownFor(ruleSet, account)`. */
export function pushdownFor(ruleSet: RuleSet, account: WatchedAccount): Pushdown | undefined {
  const rules = ruleSet.bySource.transactions.filter((r) => !r.accountIds || r.accountIds.has(account.id));
  // Absence rules on transactions keep the whole stream: a deliberate, conservative choice.
  if (!rules.length || rules.some((r) => r.window?.kind === 'absent')) return undefined;
  // What every rule needs of a record, joined: only the type and result class can go to the query service.
  const implied = eitherOf(rules.map((r) => guardOf(r.when)));
  const types = implied.types && [...implied.types].sort();
  const pushdown: Pushdown = {
    ...(implied.result ? { result: implied.result } : {}),
    // The service cannot filter on every name the rules accept (NODE, UNKNOWN); an empty list matches nothing.
    ...(types?.length && types.every((t) => QUERYABLE_TRANSACTION_TYPES.has(t))
      ? { transactiontype: types }
      : {}),
  };
  return pushdown.result || pushdown.transactiontype ? pushdown : undefined;
}
