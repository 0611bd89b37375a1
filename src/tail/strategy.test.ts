import { describe, expect, it } from 'vitest';
import { chooseStrategy, estimateCosts } from './strategy.js';

const BASE = { pollIntervalMs: 2000, overlapMs: 10_000, pageLimit: 100 };

describe('estimateCosts (requests per poll interval)', () => {
  it.each([
    [10, 200, { perAccount: 11, global: 25 }],
    [1_000, 200, { perAccount: 1_001, global: 25 }],
    [20_000, 200, { perAccount: 20_001, global: 25 }],
    [10, 0.5, { perAccount: 11, global: 1 + 1 }],
    [10, undefined, { perAccount: 11, global: 1 }],
  ])('%d streams at %s TPS', (coveredStreams, tps, expected) => {
    const costs = estimateCosts({ ...BASE, coveredStreams, tps });

    expect(costs).toEqual(expected);
  });
});

describe('chooseStrategy', () => {
  it.each([
    [undefined, { perAccount: 11, global: 25 }, 'per-account'],
    [undefined, { perAccount: 1001, global: 25 }, 'global'],
    ['per-account', { perAccount: 30, global: 25 }, 'per-account'],
    ['per-account', { perAccount: 40, global: 25 }, 'global'],
    ['global', { perAccount: 20, global: 25 }, 'global'],
    ['global', { perAccount: 11, global: 25 }, 'per-account'],
  ] as const)('from %s with %j → %s', (current, costs, expected) => {
    const chosen = chooseStrategy(current, costs);

    expect(chosen).toBe(expected);
  });
});
