// Which rules can possibly match a transaction, looked up by what is cheap to know about it: its type name,
// whether its result is a success, and the sign of the watched account's net HBAR change. Each rule gets a guard
// from its condition tree; a rule is left out of a bucket only when its predicate is certain to return false
// there (never true, never undefined), so skipping it changes no verdict, no `needsTrace` and no order.
import type { WhenNode } from './condition.js';
import type { CompiledRule, RuleSet } from './compile.js';
import type { Facts } from './facts.js';
import { negatedResultClass, resultClass } from './pushdown.js';
import { SUCCESS_RESULTS } from '../ledger/result-codes.js';

/** What a rule's predicate needs to be anything but false; a missing key means no such need is known. */
export interface Guard {
  /** The transaction type name is one of these. */
  readonly types?: ReadonlySet<string>;
  /** The result is (not) in SUCCESS_RESULTS. */
  readonly result?: 'success' | 'fail';
  /** The watched account's net HBAR change is below / above zero. */
  readonly sign?: 'negative' | 'positive';
  /** The net HBAR change (tinybars) is at most / at least this. */
  readonly netMax?: bigint;
  readonly netMin?: bigint;
  /** The charged fee (tinybars) is at least this. */
  readonly feeMin?: bigint;
  /** The record has a memo (`memo_base64` is not empty). */
  readonly memo?: true;
}

/** The guard of a `when:` node (its keys are AND-ed). */
export function guardOf(node: WhenNode): Guard {
  let guard: Guard = {};
  for (const [name, value] of Object.entries(node))
    if (value !== undefined) guard = bothOf(guard, guardOfKey(name, value));
  return guard;
}

function guardOfKey(name: string, value: unknown): Guard {
  switch (name) {
    case 'type':
      return { types: new Set(value as string[]) };
    case 'result':
      return resultClass(value as 'success' | 'fail' | readonly string[]);
    case 'debit':
      return { sign: 'negative', netMax: -(value as bigint) };
    case 'counterparty':
      return { sign: 'negative' };
    case 'credit':
      return { sign: 'positive', netMin: value as bigint };
    case 'fee':
      return { feeMin: value as bigint };
    case 'memo':
      return memoGuard(value as { contains?: string; regex?: string; ignore_case?: boolean });
    case 'all':
      return (value as WhenNode[]).map(guardOf).reduce(bothOf, {});
    case 'any':
      return eitherOf((value as WhenNode[]).map(guardOf));
    case 'not':
      return notGuard(value as WhenNode);
    default:
      return {};
  }
}

/** An empty memo can match only a regex that matches '' (`contains` texts are never empty). */
function memoGuard(value: { contains?: string; regex?: string; ignore_case?: boolean }): Guard {
  if (value.regex === undefined) return { memo: true };
  return new RegExp(value.regex, value.ignore_case ? 'iu' : 'u').test('') ? {} : { memo: true };
}

/** Only `not` of a lone `result` and `not` of a `not` are known; ¬(A ∧ B) says nothing about A alone. */
function notGuard(node: WhenNode): Guard {
  const keys = Object.keys(node).filter((k) => node[k] !== undefined);
  if (keys.length !== 1) return {};
  if (keys[0] === 'not') return guardOf(node.not as WhenNode);
  if (keys[0] !== 'result') return {};
  return negatedResultClass(node.result as 'success' | 'fail' | readonly string[]);
}

/** Both hold: either side's need stands (a contradiction keeps one side, which is still a need). */
function bothOf(a: Guard, b: Guard): Guard {
  const types =
    a.types && b.types ? new Set([...a.types].filter((t) => b.types?.has(t))) : (a.types ?? b.types);
  return compact({
    types,
    result: a.result ?? b.result,
    sign: a.sign ?? b.sign,
    netMax: pick(a.netMax, b.netMax, (x, y) => (x < y ? x : y)),
    netMin: pick(a.netMin, b.netMin, (x, y) => (x > y ? x : y)),
    feeMin: pick(a.feeMin, b.feeMin, (x, y) => (x > y ? x : y)),
    memo: a.memo ?? b.memo,
  });
}

/** One of them holds: only the needs they all share, each at its loosest; type lists join. */
function eitherOf(list: readonly Guard[]): Guard {
  const [first, ...rest] = list;
  if (!first) return {};
  const shared = <T>(get: (g: Guard) => T | undefined, loosest: (x: T, y: T) => T): T | undefined =>
    list.reduce<T | undefined>((acc, g) => {
      const v = get(g);
      return acc === undefined || v === undefined ? undefined : loosest(acc, v);
    }, get(first));
  const types = list.every((g) => g.types) ? new Set(list.flatMap((g) => [...(g.types ?? [])])) : undefined;
  return compact({
    types,
    result: rest.every((g) => g.result === first.result) ? first.result : undefined,
    sign: rest.every((g) => g.sign === first.sign) ? first.sign : undefined,
    netMax: shared(
      (g) => g.netMax,
      (x, y) => (x > y ? x : y),
    ),
    netMin: shared(
      (g) => g.netMin,
      (x, y) => (x < y ? x : y),
    ),
    feeMin: shared(
      (g) => g.feeMin,
      (x, y) => (x < y ? x : y),
    ),
    memo: list.every((g) => g.memo) ? true : undefined,
  });
}

function pick(a: bigint | undefined, b: bigint | undefined, both: (x: bigint, y: bigint) => bigint) {
  return a === undefined ? b : b === undefined ? a : both(a, b);
}

/** Drops the undefined keys (a guard lists only what is known). */
function compact(g: { [K in keyof Guard]: Guard[K] | undefined }): Guard {
  return Object.fromEntries(Object.entries(g).filter(([, v]) => v !== undefined)) as Guard;
}

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
