import { describe, expect, it } from 'vitest';
import { chooseStrategy, estimateCosts } from './strategy-cost.js';

const BASE = { pollIntervalMs: 2000, sweepIntervalMs: 10_000, pageLimit: 100 };

describe('estimateCosts (requests per poll interval)', () => {
  it.each([
    // immediate: 4 pages of head read + its final page, plus a fifth of a 20-page sweep and its final page
    [10, 200, 'immediate', { perAccount: 11, global: 10 }],
    [1_000, 200, 'immediate', { perAccount: 1_001, global: 10 }],
    [20_000, 200, 'immediate', { perAccount: 20_001, global: 10 }],
    [10, 0.5, 'immediate', { perAccount: 11, global: 2 }],
    [10, undefined, 'immediate', { perAccount: 11, global: 2 }],
    // settled: 4 pages and the final one, plus the head probe
    [10, 200, 'settled', { perAccount: 11, global: 6 }],
    [10, 0.5, 'settled', { perAccount: 11, global: 2 }],
    [10, undefined, 'settled', { perAccount: 11, global: 2 }],
  ] as const)('%d streams at %s TPS, %s', (coveredStreams, tps, globalMode, expected) => {
    const costs = estimateCosts({ ...BASE, coveredStreams, tps, globalMode });

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
