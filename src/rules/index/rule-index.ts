// Which rules can possibly match a transaction, looked up by what is cheap to know about it: its type name,
// whether its result is a success, and the sign of the watched account's net HBAR change. Each rule gets a guard
// from its condition tree; a rule is left out of a bucket only when its predicate is certain to return false
// there (never true, never undefined), so skipping it changes no verdict, no `needsTrace` and no order.
import type { CompiledRule, RuleSet } from '../load/rule-set.js';
import type { Facts } from '../facts/facts.js';
import { guardOf, type Guard } from './guard.js';
import { SUCCESS_RESULTS } from '@ledger-sentinel/ledger-model/result-codes';

const NEGATIVE = 0;
const ZERO = 1;
const POSITIVE = 2;

/** A rule of a candidate list with the guards its list does not already settle, checked before its predicate. */
export interface Candidate {
  readonly rule: CompiledRule;
  readonly netMax: bigint | undefined;
  readonly netMin: bigint | undefined;
  readonly feeMin: bigint | undefined;
  readonly memo: boolean;
  /** Some of the above is set. */
  readonly bounded: boolean;
}

/** The candidate lists of one type name: [success, fail] × [negative, zero, positive] net change. */
interface Bucket {
  readonly lists: readonly (readonly Candidate[])[];
  /** Some rule of the bucket has a sign guard: the net change must be known to pick the list. */
  readonly signed: boolean;
}

export interface RuleIndex {
  /** The transactions rules that may match, in rule order (account selectors and bounds not applied yet). */
  candidates(facts: Facts): readonly Candidate[];
}

export function createRuleIndex(ruleSet: RuleSet): RuleIndex {
  const rules = ruleSet.bySource.transactions;
  const guards = rules.map((r) => guardOf(r.when));
  const all = rules.map((rule, i) => candidate(rule, guards[i] as Guard));
  const bucketOf = (name: string | undefined): Bucket => {
    const lists: Candidate[][] = [];
    for (const success of [true, false])
      for (const sign of [NEGATIVE, ZERO, POSITIVE])
        lists.push(all.filter((_, i) => admits(guards[i] as Guard, name, success, sign)));
    // Lists differ by sign only through rules with a sign guard: the zero list is the one without them.
    const length = (i: number) => lists[i]?.length;
    const signed = [0, 3].some(
      (row) => length(row + NEGATIVE) !== length(row + ZERO) || length(row + POSITIVE) !== length(row + ZERO),
    );
    return { lists, signed };
  };
  const names = new Set(guards.flatMap((g) => [...(g.types ?? [])]));
  const byName = new Map([...names].map((n) => [n, bucketOf(n)]));
  const otherNames = bucketOf(undefined);
  return {
    candidates(facts) {
      const tx = facts.tx;
      if (tx === undefined) return all;
      const bucket = byName.get(tx.name) ?? otherNames;
      const row = SUCCESS_RESULTS.has(tx.result) ? 0 : 3;
      if (!bucket.signed) return bucket.lists[row + ZERO] as readonly Candidate[];
      const net = facts.net();
      return bucket.lists[row + (net < 0n ? NEGATIVE : net > 0n ? POSITIVE : ZERO)] as readonly Candidate[];
    },
  };
}

function candidate(rule: CompiledRule, g: Guard): Candidate {
  const memo = g.memo === true;
  const bounded = g.netMax !== undefined || g.netMin !== undefined || g.feeMin !== undefined || memo;
  return { rule, netMax: g.netMax, netMin: g.netMin, feeMin: g.feeMin, memo, bounded };
}

/** `name` undefined: a type name no guard lists. */
function admits(g: Guard, name: string | undefined, success: boolean, sign: number): boolean {
  if (g.types && (name === undefined || !g.types.has(name))) return false;
  if (g.result && (g.result === 'success') !== success) return false;
  if (g.sign === 'negative' && sign !== NEGATIVE) return false;
  if (g.sign === 'positive' && sign !== POSITIVE) return false;
  return true;
}

/** The bounds of a transactions candidate hold for the record (false: its predicate is certain to be false). */
export function withinBounds(c: Candidate, f: Facts): boolean {
  const tx = f.tx;
  if (tx === undefined) return true;
  if (c.feeMin !== undefined && tx.charged_tx_fee < c.feeMin) return false;
  if (c.memo && !tx.memo_base64) return false;
  if (c.netMax !== undefined && f.net() > c.netMax) return false;
  if (c.netMin !== undefined && f.net() < c.netMin) return false;
  return true;
}
