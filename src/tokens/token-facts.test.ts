// The token facts store's promises: one read per token at a time, failures retried after retryMs (not per record),
// stale facts refreshed in the background and kept when a refresh fails, reads per record bounded.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { MAX_READS_PER_ENSURE, createTokenFacts, type FetchOptions } from './token-facts.js';

function body(symbol: string) {
  return { decimals: '2', symbol };
}

function world(
  answer: (id: string, n: number) => Record<string, unknown> | null | Error,
  configured: readonly string[] = [],
) {
  let now = 1_000_000;
  const calls: { id: string; background: boolean }[] = [];
  const logs = captureLogs();
  const metrics = createMetrics({ registry: new Registry() });
  const store = createTokenFacts({
    fetch: (id: string, options: FetchOptions) => {
      calls.push({ id, background: options.background });
      const a = answer(id, calls.length);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
    log: logs.logger,
    metrics,
    clock: () => now,
    refreshMs: 600_000,
    retryMs: 60_000,
    configured,
  });
  return { store, calls, logs, metrics, advance: (ms: number) => (now += ms) };
}

describe('token facts store', () => {
  it('reads a token once while a read is in flight, and not again while fresh', async () => {
    const w = world(() => body('USDC'));

    await Promise.all([w.store.ensure(['0.0.5']), w.store.ensure(['0.0.5', '0.0.5'])]);
    await w.store.ensure(['0.0.5']);

    expect(w.calls).toEqual([{ id: '0.0.5', background: false }]);
    expect(w.store.get('0.0.5')?.symbol).toBe('USDC');
  });

  it('refreshes stale facts in the background and keeps them when the refresh fails', async () => {
    const w = world((_id, n) => (n === 1 ? body('OLD') : new Error('socket hang up')));
    await w.store.ensure(['0.0.5']);
    w.advance(600_000);

    await w.store.ensure(['0.0.5']);
    await w.store.refreshConfigured(); // nothing configured: no read
    await new Promise<void>((resolve) => setImmediate(resolve));

    expect(w.calls).toEqual([
      { id: '0.0.5', background: false },
      { id: '0.0.5', background: true },
    ]);
    expect(w.store.get('0.0.5')?.symbol).toBe('OLD');
    expect(w.store.failure('0.0.5')).toBe('error');
  });

  it('retries a failed token after retryMs, not on every record, and logs it once until it recovers', async () => {
    let failing = true;
    const w = world(() => (failing ? null : body('BACK')));

    await w.store.ensure(['0.0.9']);
    await w.store.ensure(['0.0.9']);
    w.advance(60_000);
    await w.store.ensure(['0.0.9']);
    failing = false;
    w.advance(60_000);
    await w.store.ensure(['0.0.9']);

    expect(w.calls).toHaveLength(3);
    expect(w.store.get('0.0.9')?.symbol).toBe('BACK');
    expect(w.logs.entries().filter((e) => e.tokenId === '0.0.9')).toHaveLength(1);
    const { values } = await w.metrics.tokenFactsFailures.get();
    expect(values.find((v) => v.labels.reason === 'not_found')?.value).toBe(2);
  });

  it('reads at most MAX_READS_PER_ENSURE tokens for one record', async () => {
    const w = world(() => body('T'));
    const ids = Array.from({ length: MAX_READS_PER_ENSURE + 5 }, (_, i) => `0.0.${1000 + i}`);

    await w.store.ensure(ids);

    expect(w.calls).toHaveLength(MAX_READS_PER_ENSURE);
  });

  it('reads the configured tokens in the background on a refresh', async () => {
    const w = world(() => body('CFG'), ['0.0.77']);

    await w.store.refreshConfigured();

    expect(w.calls.every((c) => c.background)).toBe(true);
    expect(w.store.get('0.0.77')?.symbol).toBe('CFG');
  });
});
