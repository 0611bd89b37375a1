import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../observability/metrics.js';
import { summarizeStaleness } from './staleness-summary.js';

describe('summarizeStaleness', () => {
  it('summarises every stream but exports only the stalest few as series', async () => {
    const metrics = createMetrics();
    const values = Array.from({ length: 200 }, (_, i) => ({
      account: `0.0.${i}`,
      source: 'transactions',
      seconds: i,
    }));
    metrics.staleness.set({ account: '0.0.999', source: 'rewards' }, 1);

    const summary = summarizeStaleness(values, metrics, 3);

    expect(summary).toEqual({ streams: 200, p50: 99, p99: 197, max: 199 });
    const series = (await metrics.staleness.get()).values.map((v) => [v.labels.account, v.value]);
    expect(series).toEqual([
      ['0.0.199', 199],
      ['0.0.198', 198],
      ['0.0.197', 197],
    ]);
  });

  it('is all zeros for an empty watch list', () => {
    const summary = summarizeStaleness([], undefined, 3);

    expect(summary).toEqual({ streams: 0, p50: 0, p99: 0, max: 0 });
  });
});
