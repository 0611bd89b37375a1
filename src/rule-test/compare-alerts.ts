// Expected alerts against the alerts a test sent (pure). Each expectation takes one sent alert that has every field
// it gives; the pairing is a maximum matching, so an expectation that leaves out `at` or `summary` cannot steal
// the alert a more precise one needs. What is left over is the diff: expectations nothing matched (each shown
// beside the closest unmatched alert, if any) and alerts nobody expected.
import type { Expect } from './schema.js';
import { resolveTime } from './test-time.js';
import type { Observed } from './types.js';

export interface Mismatch {
  /** Index into the expectations. */
  readonly expected: number;
  /** The closest alert nobody expected, or undefined when there is none of the same rule. */
  readonly closest?: Observed;
  /** Fields in which the closest differs. */
  readonly differs: readonly string[];
}

export interface Comparison {
  readonly mismatches: Mismatch[];
  readonly unexpected: Observed[];
}

export function compareAlerts(
  expected: readonly Expect[],
  got: readonly Observed[],
  start: bigint,
): Comparison {
  const fits = expected.map((e) => got.flatMap((o, j) => (differences(e, o, start).length ? [] : [j])));
  const owner = maximumMatching(fits, got.length);
  const left = got.filter((_, j) => (owner[j] ?? -1) < 0);
  const matched = new Set(owner.filter((i) => i >= 0));
  const mismatches: Mismatch[] = [];
  expected.forEach((e, i) => {
    if (matched.has(i)) return;
    const closest = closestOf(e, left, start);
    if (closest) left.splice(left.indexOf(closest), 1);
    mismatches.push({ expected: i, closest, differs: closest ? differences(e, closest, start) : [] });
  });
  return { mismatches, unexpected: left };
}

/** The fields the expectation gives that the alert does not have. */
function differences(e: Expect, o: Observed, start: bigint): string[] {
  const out: string[] = [];
  if (e.rule !== o.rule) out.push('rule');
  if (e.account !== undefined && e.account !== o.accountId && e.account !== o.accountName)
    out.push('account');
  if (e.state !== o.state) out.push('state');
  if (e.at !== undefined && resolveTime(e.at, start) !== o.atNs) out.push('at');
  if (e.summary !== undefined && e.summary !== o.summary) out.push('summary');
  return out;
}

/** The unmatched alert of the same rule that differs in the fewest fields (the earliest among equals). */
function closestOf(e: Expect, left: readonly Observed[], start: bigint): Observed | undefined {
  let best: Observed | undefined;
  let fewest = Infinity;
  for (const o of left) {
    if (o.rule !== e.rule) continue;
    const n = differences(e, o, start).length;
    if (n < fewest) [best, fewest] = [o, n];
  }
  return best;
}

/**
 * Kuhn's augmenting paths: `owner[j]` is the expectation that took alert j, or -1. Each expectation walks its
 * candidates once per augmentation, so the work is bounded by expectations × candidate pairs.
 */
function maximumMatching(fits: readonly (readonly number[])[], alerts: number): number[] {
  const owner = new Array<number>(alerts).fill(-1);
  const augment = (i: number, seen: Set<number>): boolean => {
    for (const j of fits[i] ?? []) {
      if (seen.has(j)) continue;
      seen.add(j);
      if ((owner[j] ?? -1) < 0 || augment(owner[j] as number, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  fits.forEach((_, i) => augment(i, new Set()));
  return owner;
}
