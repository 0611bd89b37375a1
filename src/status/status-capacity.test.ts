import { describe, expect, it } from 'vitest';
import { capacityRow } from './status-capacity.js';

const view = (ratio: number, exceeded: boolean) => ({
  tps: 200,
  demandRps: ratio * 50,
  budgetRps: 50,
  ratio,
  strategy: 'global' as const,
  exceeded,
});

describe('capacityRow', () => {
  it.each([
    [0.09, false, 'ok'],
    [0.8, false, 'ok'],
    [0.81, false, 'high'],
    [0.75, true, 'high'], // still exceeded by the watch's hysteresis: sentinel-capacity-exceeded fires
    [1, true, 'high'],
    [1.01, true, 'over'],
    [3, false, 'over'],
  ] as const)('ratio %d (exceeded %s) is %s', (ratio, exceeded, level) => {
    const row = capacityRow(view(ratio, exceeded));

    expect(row).toEqual({ ratio, demandRps: ratio * 50, budgetRps: 50, tps: 200, level });
  });
});
