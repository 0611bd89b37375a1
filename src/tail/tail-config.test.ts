import { describe, expect, it } from 'vitest';
import { TailConfig } from './tail-config.js';

describe('tail config', () => {
  it('has the documented defaults', () => {
    const config = TailConfig.parse(undefined);

    expect(config).toEqual({
      strategy: 'auto',
      poll_interval: 2000,
      jitter: 0.1,
      overlap: 10_000,
      global_mode: 'immediate',
      sweep_interval: 10_000,
      start: 'now',
      concurrency: 8,
      reevaluate_rounds: 30,
      max_backoff: 60_000,
      max_pages_per_poll: 100,
      max_poll_duration: 30_000,
      max_clock_skew: 300_000,
    });
  });

  it.each([
    [{ poll_interval: '2 seconds' }, 'expected a duration like "2s" or "10m", got "2 seconds"'],
    [{ poll_interval: '1ms' }, 'must be at least 100ms, got "1ms"'],
    [{ start: 'yesterday' }, 'expected "now" or a timestamp like 1700000000.000000000'],
    [{ strategy: 'fast' }, 'Invalid option: expected one of "auto"|"per-account"|"global"'],
    [{ pol_interval: '2s' }, 'Unrecognized key: "pol_interval"'],
    [{ sweep_interval: '500ms' }, 'must be at least 1s, got "500ms"'],
    [{ global_mode: 'lazy' }, 'Invalid option: expected one of "immediate"|"settled"'],
  ])('rejects %j', (input, message) => {
    const result = TailConfig.safeParse(input);

    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });

  it('reads durations in milliseconds', () => {
    const config = TailConfig.parse({ poll_interval: '500ms', overlap: '1m', max_backoff: '1h' });

    expect([config.poll_interval, config.overlap, config.max_backoff]).toEqual([500, 60_000, 3_600_000]);
  });

  it('sweeps once per overlap by default, at least every second; an explicit sweep_interval wins', () => {
    const sweeps = [
      TailConfig.parse({ overlap: '30s' }),
      TailConfig.parse({ overlap: '200ms' }),
      TailConfig.parse({ overlap: '30s', sweep_interval: '5s' }),
    ].map((c) => c.sweep_interval);

    expect(sweeps).toEqual([30_000, 1_000, 5_000]);
  });
});
