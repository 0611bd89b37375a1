// Count and sum windows over consensus time: what is in the window after a match or a tick, and whether it fires.
import type { CompiledWindow } from '../load/rule-set.js';
import { MAX_RECORDS, appendNewest, type GroupState } from '../alert-state/group-state.js';
import type { Facts } from '../facts/facts.js';

/** Sum windows keep at most this many entries per group; beyond it the oldest drop (under-counting, never noise). */
export const MAX_WINDOW_ENTRIES = 10_000;

/**
 * Adds a match at `nowNs` carrying `amount` (tinybars; counts keep no amounts) and trims the window. A match older
 * than the newest one held (a page served out of order, or two accounts' streams sharing a group) goes in at its
 * place, so the window stays sorted and is trimmed from its newest entry, never from the late one.
 */
export function addToWindow(state: GroupState, w: CompiledWindow, nowNs: bigint, amount: bigint): void {
  const at = insertionPoint(state.times, nowNs);
  if (at < state.times.length) insertAt(state, w, at, nowNs, amount);
  else {
    // Most groups hold a handful of matches: exact-size copies instead of push's 17 reserved slots, which at
    // hundreds of thousands of groups is most of their memory. Larger windows push (amortised O(1)).
    const small = state.times.length < SMALL_WINDOW;
    if (small) state.times = appendNewest(state.times, nowNs, state.times.length + 1);
    else state.times.push(nowNs);
    if (w.kind !== 'count') {
      if (small) state.amounts = appendNewest(state.amounts, amount, state.amounts.length + 1);
      else state.amounts.push(amount);
    }
  }
  if (w.kind !== 'count') state.sum += amount;
  trimWindow(state, w, state.times[state.times.length - 1] ?? nowNs);
  // A count window needs only the newest N matches to know whether N fall within the duration.
  const cap = w.kind === 'count' ? Number(w.threshold) : MAX_WINDOW_ENTRIES;
  if (state.times.length > cap) drop(state, state.times.length - cap);
}

/** Index after the last entry at or before `t` (entries are sorted oldest first): the end for an in-order match. */
export function insertionPoint(times: readonly bigint[], t: bigint): number {
  let i = times.length;
  while (i > 0 && (times[i - 1] ?? 0n) > t) i--;
  return i;
}

function insertAt(state: GroupState, w: CompiledWindow, at: number, t: bigint, amount: bigint): void {
  state.times = withItemAt(state.times, at, t);
  if (w.kind !== 'count') state.amounts = withItemAt(state.amounts, at, amount);
}

/** A new array of exactly `list.length + 1` with `item` at `at`: one allocation (slice + concat made four). */
export function withItemAt<T>(list: readonly T[], at: number, item: T): T[] {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < at; i++) out[i] = list[i] as T;
  out[at] = item;
  for (let i = at; i < list.length; i++) out[i + 1] = list[i] as T;
  return out;
}

const SMALL_WINDOW = 32;

/** Drops entries at or before nowNs − duration. */
export function trimWindow(state: GroupState, w: CompiledWindow, nowNs: bigint): void {
  const oldest = nowNs - w.durationNs;
  let n = 0;
  while (n < state.times.length && (state.times[n] ?? 0n) <= oldest) n++;
  if (n > 0) drop(state, n);
}

/** Removes the n oldest entries, keeping the running sum in step. */
function drop(state: GroupState, n: number): void {
  // shift() one at a time: no intermediate arrays, and n is almost always 1 (one in, one out).
  for (let i = 0; i < n; i++) {
    state.times.shift();
    if (state.amounts.length) state.sum -= state.amounts.shift() ?? 0n;
  }
}

export function windowTotal(state: GroupState, w: CompiledWindow): bigint {
  return w.kind === 'count' ? BigInt(state.times.length) : state.sum;
}

export function windowHolds(state: GroupState, w: CompiledWindow): boolean {
  return windowTotal(state, w) >= w.threshold;
}

/**
 * Whether a match of a count window that has not fired yet can still be among the MAX_RECORDS newest records when
 * it fires. It fires on the match that brings the count to the threshold N; the i-th newest record then (i = 0 for
 * the newest) entered at a count of at least N − i (expiry only ever removes older matches), so a record entering
 * at a count of N − MAX_RECORDS or less is never shown and need not be kept. Most groups never get near N: at
 * 10,000 accounts this keeps a record digest in only the few that do. Sum windows keep theirs (amounts, not
 * counts, decide when they fire).
 */
export function mayBeShown(w: CompiledWindow, s: GroupState): boolean {
  return w.kind !== 'count' || BigInt(s.times.length) > w.threshold - BigInt(MAX_RECORDS);
}

export function windowAmount(w: CompiledWindow, f: Facts): bigint {
  const net = f.net();
  if (w.kind === 'debit_sum') return net < 0n ? -net : 0n;
  if (w.kind === 'credit_sum') return net > 0n ? net : 0n;
  return 1n;
}
