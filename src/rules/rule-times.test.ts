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

  it('matches a plain map through random changes, reusing freed blocks instead of growing the pool', () => {
    const r = new RuleTimes();
    const model = new Map<number, bigint[]>();
    let seed = 20;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    let highWater = 0;
    for (let step = 0; step < 20_000; step++) {
      const slot = next(64);
      const n = next(8) === 0 ? 0 : 1 + next(next(4) === 0 ? PACK_MAX + 3 : 6);
      const times = Array.from({ length: n }, () => BigInt(next(1_000_000)) * 1_000_000_007n);
      if (next(200) === 0 && n > 0) times[0] = -1n;
      r.set(slot, times);
      if (n === 0) model.delete(slot);
      else model.set(slot, times);
      if (step === 10_000) highWater = r.pooledWords;
      const probe = next(64);
      expect(r.get(probe)).toEqual(model.get(probe));
      expect(r.oldest(probe)).toBe(model.get(probe)?.[0]);
    }
    for (let slot = 0; slot < 64; slot++) expect(r.get(slot)).toEqual(model.get(slot));
    // 64 slots of at most 32 words each: the pool is bounded by what the groups hold, not by how often they change.
    expect(r.pooledWords).toBeLessThanOrEqual(64 * PACK_MAX * 2);
    expect(r.pooledWords - highWater).toBeLessThanOrEqual(PACK_MAX * 8);
  });

  it('rewrites a group in place while its block fits, and gives a shrunken group a smaller block', () => {
    const r = new RuleTimes();
    r.set(0, [1n, 2n, 3n, 4n]);
    const afterFirst = r.pooledWords;
    r.set(0, [2n, 3n, 4n, 5n]);
    r.set(0, [3n, 4n]);
    expect(r.pooledWords).toBe(afterFirst);
    expect(r.get(0)).toEqual([3n, 4n]);

    r.set(
      0,
      Array.from({ length: 16 }, (_, i) => BigInt(i)),
    );
    const big = r.pooledWords;
    r.set(0, [7n]);
    r.set(
      1,
      Array.from({ length: 16 }, (_, i) => BigInt(i + 100)),
    );

    expect(r.pooledWords).toBe(big + 1);
    expect([r.get(0), r.get(1)?.[15]]).toEqual([[7n], 115n]);
  });
});
