// What a rule's condition tree says every record it can match has: the guard. One analysis with two users: the
// rule index (rule-index.ts) skips a rule where its predicate is certain to be false, and the tailer's pushdown
// (pushdown.ts) asks the query service only for what some rule can match. Both rely on the same promise: a
// record without what the guard names can never make the predicate true (nor undefined, awaiting a trace).
import type { WhenNode } from '../conditions/shared/condition.js';
import { SUCCESS_RESULTS } from '@ledger-sentinel/ledger-model/result-codes';
import { compileRegex } from '../conditions/shared/compile-regex.js';

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
  const compiled = compileRegex(value.regex, value.ignore_case ? 'i' : '');
  // A regex that does not compile never reaches a rule set; claim no need rather than throw.
  return !compiled.ok || compiled.regex.test('') ? {} : { memo: true };
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
export function eitherOf(list: readonly Guard[]): Guard {
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

/** A result list implies a class when all its names are in it (the service's success set decides). */
export function resultClass(value: 'success' | 'fail' | readonly string[]): Guard {
  if (typeof value === 'string') return { result: value };
  if (value.every((name) => SUCCESS_RESULTS.has(name))) return { result: 'success' };
  if (value.every((name) => !SUCCESS_RESULTS.has(name))) return { result: 'fail' };
  return {};
}

/** The class `not: { result: value }` implies: the other class, or `fail` when the list covers every success. */
export function negatedResultClass(value: 'success' | 'fail' | readonly string[]): Guard {
  if (value === 'success') return { result: 'fail' };
  if (value === 'fail') return { result: 'success' };
  return [...SUCCESS_RESULTS].every((name) => value.includes(name)) ? { result: 'fail' } : {};
}
