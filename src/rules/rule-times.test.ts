import { describe, expect, it } from 'vitest';
import { PACK_MAX, RuleTimes } from './rule-times.js';

const MAX_U64 = (1n << 64n) - 1n;

describe('RuleTimes', () => {
  it.each([1, 2, 3, 10, PACK_MAX, PACK_MAX + 1, 100])('gives back %i times exactly, oldest first', (n) => {
    const r = new RuleTimes();
    const times = Array.from(
      { length: n },
      (_, i) => 1_764_000_000_123_456_789n + BigInt(i) * 1_000_000_007n,
    );

    r.set(5, times);

    expect(r.get(5)).toEqual(times);
    expect(r.oldest(5)).toBe(times[0]);
    expect([r.get(4), r.oldest(4), r.length]).toEqual([undefined, undefined, 6]);
  });

  it('keeps the edges of 64 bits, and times beyond them (a hostile ledger) unpacked but exact', () => {
    const r = new RuleTimes();
    const edges = [0n, 1n, MAX_U64 - 1n, MAX_U64];
    const beyond = [-1n, 5n, MAX_U64 + 1n];

    r.set(0, edges);
    r.set(1, beyond);
    r.set(2, [MAX_U64 + 10n]);

    expect([r.get(0), r.get(1), r.get(2)]).toEqual([edges, beyond, [MAX_U64 + 10n]]);
    expect([r.oldest(0), r.oldest(1), r.oldest(2)]).toEqual([0n, -1n, MAX_U64 + 10n]);
  });

  it('keeps slots apart and clears one without touching its neighbours', () => {
    const r = new RuleTimes();
    for (let slot = 0; slot < 300; slot++) r.set(slot, [BigInt(slot), BigInt(slot) + 1n, BigInt(slot) + 2n]);

    r.set(7, undefined);
    r.set(8, []);
    r.set(9, [42n]);

    expect([r.get(6), r.get(7), r.get(8), r.get(9), r.get(299)]).toEqual([
      [6n, 7n, 8n],
      undefined,
      undefined,
      [42n],
      [299n, 300n, 301n],
    ]);
  });

  it("does not share the caller's array: a later change to it does not reach the stored times", () => {
    const r = new RuleTimes();
    const long = Array.from({ length: PACK_MAX + 1 }, (_, i) => BigInt(i));

    r.set(0, long);
    long[0] = 99n;

    expect(r.get(0)?.[0]).toBe(0n);
  });
});
