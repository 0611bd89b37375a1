import { describe, expect, it } from 'vitest';
import { ProvenRanges, WalkProof } from './proven-ranges.js';

const D = 10n;

describe('ProvenRanges', () => {
  it.each([
    ['nothing proven: the whole range', [], [0n, 100n], [[0n, 100n]]],
    [
      'one range inside',
      [[20n, 30n]],
      [0n, 100n],
      [
        [0n, 20n],
        [30n, 100n],
      ],
    ],
    [
      'touching ranges merge',
      [
        [20n, 30n],
        [30n, 50n],
      ],
      [0n, 100n],
      [
        [0n, 20n],
        [50n, 100n],
      ],
    ],
    ['proven across the start', [[-5n, 40n]], [0n, 100n], [[40n, 100n]]],
    ['proven across the end', [[60n, 200n]], [0n, 100n], [[0n, 60n]]],
    ['all proven', [[0n, 100n]], [0n, 100n], []],
    ['an empty range proves nothing', [[30n, 30n]], [0n, 100n], [[0n, 100n]]],
  ] as const)('%s', (_, added, [after, upTo], gaps) => {
    const proven = new ProvenRanges();
    for (const [a, b] of added) proven.add(a, b);

    const got = proven.gaps(after, upTo).map((g) => [g.after, g.upTo]);

    expect(got).toEqual(gaps);
  });

  it('forgets what lies at or below safe, and keeps at most 32 ranges', () => {
    const proven = new ProvenRanges();
    for (let i = 0n; i < 40n; i++) proven.add(i * 10n, i * 10n + 5n);

    proven.prune(200n);

    expect(proven.size).toBeLessThanOrEqual(32);
    expect(proven.gaps(200n, 206n)).toEqual([{ after: 205n, upTo: 206n }]);
  });
});

describe('WalkProof (overlap 10)', () => {
  it.each([
    // [witness before the walk, newest row after each page, finished?, upper bound, proven to]
    ['no witness, one page: nothing', undefined, [50n], true, undefined, 0n],
    ['a head far ahead proves a finished walk to head − overlap', 200n, [50n, 90n], true, undefined, 190n],
    ['… but not beyond the walk’s own upper bound', 200n, [50n], true, 120n, 120n],
    ['a walk cut short is proven only to its newest row', 200n, [50n, 90n], false, undefined, 90n],
    ['the steady state: rows within overlap of the head prove nothing', 5n, [60n], true, undefined, 0n],
    ['pages beyond the witness’s reach end the proof', 60n, [40n, 70n, 75n], true, undefined, 50n],
    ['an unproven page breaks the chain', 55n, [50n, 70n, 71n], false, undefined, 45n],
  ] as const)('%s', (_, witness, newest, finished, upTo, provenTo) => {
    const proof = new WalkProof(0n, witness, D);

    for (const n of newest) proof.page(n);
    if (finished) proof.complete(upTo);

    expect(proof.provenTo).toBe(provenTo < 0n ? 0n : provenTo);
  });
});
