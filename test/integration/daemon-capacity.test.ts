// Capacity end to end: a daemon whose request budget (ledger.requests_per_second) is below what its tail needs
// at the living ledger's rate says so — the capacity gauge, a `capacity` line in /readyz that does not make it
// unready, a warn line, and the sentinel-capacity-exceeded alert through its notifier, with what to do.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

describe('capacity', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  it('a budget below the demand fires sentinel-capacity-exceeded and shows in /readyz, which stays ready', async () => {
    // Global tail, 300 ms polls, 2 s sweeps: about 2 requests a poll, 6.7 a second, against a budget of 3.
    env.writeConfig('self_monitoring: { notify: [ops-slack], check_interval: 200ms }', {
      tail: 'strategy: global, poll_interval: 300ms, overlap: 2s',
    });
    const text = readFileSync(env.configPath, 'utf8');
    writeFileSync(env.configPath, text.replace('ledger:\n', 'ledger:\n  requests_per_second: 3\n'));
    const daemon = env.run();
    const url = await httpUrlOf(daemon);

    await until(async () => ((await metricValue(url, 'ledger_sentinel_tail_capacity_ratio')) ?? 0) > 1);
    await until(async () =>
      env.slack.requests.some((r) => r.body.includes('requests/s but the budget allows 3')),
    );
    const ready = await fetch(`${url}/readyz`);
    const body = (await ready.json()) as { checks: Record<string, { ok: boolean; message: string }> };
    daemon.abort();
    const code = await daemon.done;

    const alert = env.slack.requests.map((r) => r.body).find((b) => b.includes('budget allows 3')) ?? '';
    expect(alert).toContain('ledger.requests_per_second');
    expect(ready.status).toBe(200);
    expect(body.checks.capacity?.ok).toBe(true);
    expect(body.checks.capacity?.message).toMatch(/^exceeded: demand \d+\.\d req\/s of a 3 req\/s budget/);
    expect(daemon.stdout()).toContain('tail request demand exceeds the request budget');
    expect(code).toBe(0);
  });
});
