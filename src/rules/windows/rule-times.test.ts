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
    expect([r.startingBy(times[0]!), r.startingBy(times[0]! - 1n)]).toEqual([[5], []]);
    expect(r.get(4)).toBeUndefined();
  });

  it('keeps the edges of 64 bits, and times beyond them (a hostile ledger) unpacked but exact', () => {
    const r = new RuleTimes();
    const edges = [0n, 1n, MAX_U64 - 1n, MAX_U64];
    const beyond = [-1n, 5n, MAX_U64 + 1n];

    r.set(0, edges);
    r.set(1, beyond);
    r.set(2, [MAX_U64 + 10n]);

    expect([r.get(0), r.get(1), r.get(2)]).toEqual([edges, beyond, [MAX_U64 + 10n]]);
    expect([-2n, -1n, 0n, MAX_U64, MAX_U64 + 9n, MAX_U64 + 10n].map((b) => r.startingBy(b))).toEqual([
      [],
      [1],
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 1, 2],
    ]);
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

  it('finds the groups whose oldest time is at or before a bound, also where the high 32 bits tie', () => {
    const r = new RuleTimes();
    const model = new Map<number, bigint[]>();
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % n;
    };
    const base = 1_764_000_000n * 1_000_000_000n;
    const near = (at: bigint) => [at - 1n, at, at + 1n][next(3)] as bigint;
    for (let round = 0; round < 300; round++) {
      const slot = next(200);
      // Times around one high-half boundary (k × 2^32) and inside one high half, so both comparisons are taken.
      const first =
        next(2) === 0 ? near(((base >> 32n) + BigInt(next(4))) << 32n) : base + BigInt(next(1_000));
      const times = [first, first + BigInt(1 + next(10))];
      if (next(40) === 0) times[0] = -BigInt(1 + next(5));
      r.set(slot, times);
      model.set(slot, times);
      for (const bound of [first, first - 1n, first + 1n, near(first & ~0xffff_ffffn), -1n, -7n]) {
        const expected = [...model]
          .filter(([, t]) => (t[0] as bigint) <= bound)
          .map(([s]) => s)
          .sort((a, b) => a - b);
        expect(r.startingBy(bound)).toEqual(expected);
      }
    }
  });
});
