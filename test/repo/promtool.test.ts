// `promtool check metrics` (Debian package prometheus) lints the exposition: names, units, help, types.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.js';

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const available = promtool.status === 0;
const required = process.env.CI === 'true';
// prom-client's default Node.js metrics name three gauges *_total; they are upstream's names, not ours.
const UPSTREAM_LINT =
  /^ledger_sentinel_nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

describe('metrics exposition', () => {
  it.runIf(available || required)('passes promtool check metrics', async () => {
    const metrics = createMetrics({ version: '1.0.0', processMetrics: true });
    metrics.requests.inc({ endpoint: 'transactions', status: '200' });
    metrics.requestDuration.observe({ endpoint: 'transactions' }, 0.02);
    metrics.notifications.inc({ notifier: 'ops-slack', outcome: 'sent', reason: 'ok' });
    metrics.deliveryLatency.observe({ notifier: 'ops-slack' }, 2.5);
    const text = await metrics.registry.metrics();

    const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });

    expect(result.error, 'promtool is required in CI: apt-get install prometheus').toBeUndefined();
    const problems = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !UPSTREAM_LINT.test(line));
    expect(problems).toEqual([]);
  });

  it.skipIf(available || required)(
    'is skipped here: promtool is not installed (apt-get install prometheus)',
    () => {
      expect(available).toBe(false);
    },
  );
});
