// The transactions filter the tailer may push down to the query service for one account (tail/config.ts
// Pushdown). It is returned only when every enabled transactions rule on the account implies it, so no record the
// filter drops could have matched a rule. Anything that cannot be proven gives no filter: a missed alert costs
// more than the requests a filter saves.
import type { WhenNode } from './condition.js';
import type { RuleSet } from './compile.js';
import { SUCCESS_RESULTS } from '../ledger/result-codes.js';
import { QUERYABLE_TRANSACTION_TYPES } from '../ledger/transaction-types.js';
import type { Pushdown } from '../tail/config.js';
import type { WatchedAccount } from '../tail/watched-account.js';

/** What every record a condition tree matches has in common; a missing key means nothing is known. */
interface Implied {
  readonly result?: 'success' | 'fail';
  readonly types?: ReadonlySet<string>;
}

/** For createTailer's `pushdown` option: `(account) => pushdownFor(ruleSet, account)`. */
export function pushdownFor(ruleSet: RuleSet, account: WatchedAccount): Pushdown | undefined {
  const rules = ruleSet.bySource.transactions.filter((r) => !r.accountIds || r.accountIds.has(account.id));
  // Absence rules on transactions keep the whole stream: a deliberate, conservative choice.
  if (!rules.length || rules.some((r) => r.window?.kind === 'absent')) return undefined;
  const implied = eitherOf(rules.map((r) => impliedBy(r.when)));
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

/** The keys of one mapping are AND-ed: each key may add what it implies. */
function impliedBy(node: WhenNode): Implied {
  return Object.entries(node).reduce<Implied>(
    (known, [name, value]) => (value === undefined ? known : bothOf(known, impliedByKey(name, value))),
    {},
  );
}

function impliedByKey(name: string, value: unknown): Implied {
  switch (name) {
    case 'result':
      return resultClass(value as 'success' | 'fail' | string[]);
    case 'type':
      return { types: new Set(value as string[]) };
    case 'all':
      return (value as WhenNode[]).map(impliedBy).reduce(bothOf, {});
    case 'any':
      return eitherOf((value as WhenNode[]).map(impliedBy));
    case 'not':
      return impliedByNot(value as WhenNode);
    default:
      return {};
  }
}

/** A result list implies a class when all its names are in it (the service's success set decides). */
export function resultClass(value: 'success' | 'fail' | readonly string[]): Implied {
  if (typeof value === 'string') return { result: value };
  if (value.every((name) => SUCCESS_RESULTS.has(name))) return { result: 'success' };
  if (value.every((name) => !SUCCESS_RESULTS.has(name))) return { result: 'fail' };
  return {};
}

/** Only `not` of a lone result condition (or of a `not`) is proven; ¬(A ∧ B) says nothing about A alone. */
function impliedByNot(node: WhenNode): Implied {
  const keys = Object.keys(node).filter((k) => node[k] !== undefined);
  if (keys.length !== 1) return {};
  if (keys[0] === 'not') return impliedBy(node.not as WhenNode);
  if (keys[0] !== 'result') return {};
  return negatedResultClass(node.result as 'success' | 'fail' | readonly string[]);
}

/** The class `not: { result: value }` implies: the other class, or `fail` when the list covers every success. */
export function negatedResultClass(value: 'success' | 'fail' | readonly string[]): Implied {
  if (value === 'success') return { result: 'fail' };
  if (value === 'fail') return { result: 'success' };
  return [...SUCCESS_RESULTS].every((name) => value.includes(name)) ? { result: 'fail' } : {};
}

/** Both hold: each side's knowledge stands; two type lists intersect. */
function bothOf(a: Implied, b: Implied): Implied {
  const types =
    a.types && b.types ? new Set([...a.types].filter((t) => b.types?.has(t))) : (a.types ?? b.types);
  const result = a.result ?? b.result;
  return { ...(result ? { result } : {}), ...(types ? { types } : {}) };
}

/** One of them holds: only what all of them imply is known; type lists join. */
function eitherOf(list: readonly Implied[]): Implied {
  const [first, ...rest] = list;
  if (!first) return {};
  const result = rest.every((i) => i.result === first.result) ? first.result : undefined;
  const types = list.every((i) => i.types) ? new Set(list.flatMap((i) => [...(i.types ?? [])])) : undefined;
  return { ...(result ? { result } : {}), ...(types ? { types } : {}) };
}
