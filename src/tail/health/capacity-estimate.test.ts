import { describe, expect, it } from 'vitest';
import { capacityExceeded, estimateCapacity, type CapacityInputs } from './capacity-estimate.js';

const base: CapacityInputs = {
  strategy: 'global',
  coveredStreams: 20,
  uncoveredStreams: 0,
  tps: 200,
  pollIntervalMs: 2_000,
  globalMode: 'immediate',
  sweepIntervalMs: 10_000,
  pageLimit: 100,
  budgetRps: 50,
};

describe('estimateCapacity', () => {
  it.each([
    ['global immediate, 200 TPS: ceil(2·4 + 1 + 0.2) = 10 a 2 s interval', base, 5],
    ['global settled, 200 TPS: 4 + 2 = 6', { ...base, globalMode: 'settled' as const }, 3],
    ['per-account, 20 streams: 21', { ...base, strategy: 'per-account' as const }, 10.5],
    ['streams outside the global tail are polled anyway', { ...base, uncoveredStreams: 4 }, 7],
    ['10,000 TPS immediate: ceil(400 + 1.2) = 402', { ...base, tps: 10_000 }, 201],
    ['no rate measured yet: the fixed part only, ceil(1.2) = 2', { ...base, tps: undefined }, 1],
  ])('%s', (_, input, demandRps) => {
    const c = estimateCapacity(input);

    expect(c?.demandRps).toBe(demandRps);
    expect(c?.ratio).toBe(demandRps / 50);
  });

  it('is undefined without a budget', () => {
    expect(estimateCapacity({ ...base, budgetRps: undefined })).toBeUndefined();
  });
});

describe('capacityExceeded (hysteresis 0.8 / 0.7)', () => {
  const at = (ratio: number) => ({
    tps: 0,
    demandRps: ratio,
    budgetRps: 1,
    ratio,
    strategy: 'global' as const,
  });
  it.each([
    [false, 0.8, false],
    [false, 0.81, true],
    [true, 0.75, true],
    [true, 0.7, true],
    [true, 0.69, false],
    [true, undefined, false],
  ])('before %s, ratio %s → %s', (before, ratio, after) => {
    expect(capacityExceeded(before, ratio === undefined ? undefined : at(ratio))).toBe(after);
  });
});
