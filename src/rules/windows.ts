// Count and sum windows over consensus time: what is in the window after a match or a tick, and whether it fires.
import type { CompiledWindow } from './compile.js';
import { appendNewest, type GroupState } from './group-state.js';

/** Sum windows keep at most this many entries per group; beyond it the oldest drop (under-counting, never noise). */
export const MAX_WINDOW_ENTRIES = 10_000;

/** Adds a match at `nowNs` carrying `amount` (tinybars; counts keep no amounts) and trims the window. */
export function addToWindow(state: GroupState, w: CompiledWindow, nowNs: bigint, amount: bigint): void {
  // Most groups hold a handful of matches: exact-size copies instead of push's 17 reserved slots, which at
  // hundreds of thousands of groups is most of their memory. Larger windows push (amortised O(1)).
  const small = state.times.length < SMALL_WINDOW;
  if (small) state.times = appendNewest(state.times, nowNs, state.times.length + 1);
  else state.times.push(nowNs);
  if (w.kind !== 'count') {
    if (small) state.amounts = appendNewest(state.amounts, amount, state.amounts.length + 1);
    else state.amounts.push(amount);
    state.sum += amount;
  }
  trimWindow(state, w, nowNs);
  // A count window needs only the newest N matches to know whether N fall within the duration.
  const cap = w.kind === 'count' ? Number(w.threshold) : MAX_WINDOW_ENTRIES;
  if (state.times.length > cap) drop(state, state.times.length - cap);
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
