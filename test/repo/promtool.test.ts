// `promtool check metrics` (Debian package prometheus) lints the exposition: names, units, help, types. It runs on
// what a running daemon serves at /metrics (`ledger-sentinel run` on the simulator, with a rule that fires and a
// Slack-like receiver), so prom-client's process metrics and every label set created at run time are linted too.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import {
  httpUrlOf,
  LARGE_DEBIT_RULE,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from '../integration/daemon-harness.js';
import type { CliRun } from '../integration/cli-harness.js';

const available = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
const required = process.env.CI === 'true';

describe.runIf(available || required)('the metrics exposition of a running daemon', () => {
  let env: DaemonEnv;
  let daemon: CliRun;
  let text: string;

  beforeAll(async () => {
    env = await startDaemonEnv();
    env.writeConfig();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    env.ledger.ledger.inject(largeDebit('0.0.1003', 2_000n * 100_000_000n, '0.0.1001'));
    await env.slack.waitForRequests(1);
    text = await (await fetch(`${url}/metrics`)).text();
  }, 120_000);

  afterAll(async () => {
    daemon?.abort();
    await daemon?.done;
    await env?.close();
  });

  it('passes promtool check metrics with no problem at all', () => {
    const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });

    expect(result.error, 'promtool is required in CI: apt-get install prometheus').toBeUndefined();
    expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
    expect(result.status).toBe(0);
  });

  it('holds the process metrics, the requests to the ledger and the deliveries it linted', () => {
    expect(text).toContain('ledger_sentinel_process_resident_memory_bytes');
    expect(text).toMatch(/^ledger_sentinel_nodejs_active_handles\{type="/m);
    expect(text).not.toMatch(/_total gauge$/m);
    expect(text).toMatch(
      /^ledger_sentinel_ledger_requests_total\{endpoint="transactions",status="200"\} [1-9]/m,
    );
    expect(text).toMatch(/^ledger_sentinel_notifications_total\{notifier="ops-slack",outcome="sent"/m);
  });
});

describe.skipIf(available || required)('the metrics exposition', () => {
  it('is not linted here: promtool is not installed (apt-get install prometheus)', () => {
    expect(available).toBe(false);
  });
});
