// `ledger-sentinel run` end to end against the living ledger and a Slack-like sink: delivery, readiness,
// graceful shutdown with the outbox flushed, and state kept for the next start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { openStateStore } from '../../src/state/store.js';
import { createOutbox } from '../../src/delivery/outbox.js';
import { join } from 'node:path';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

const HBAR = 100_000_000n;

describe('run', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  it('becomes ready, alerts on a large debit through Slack, and exits 0 on SIGTERM', async () => {
    env.writeConfig();
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    env.ledger.ledger.inject(largeDebit('0.0.1003', 5_000n * HBAR, '0.0.1001'));
    const [request] = await env.slack.waitForRequests(1);
    daemon.abort();
    const code = await daemon.done;

    expect(code).toBe(0);
    expect(request?.body).toContain('treasury-hot: 5000');
    expect(daemon.stdout()).toContain('"msg":"stopped"');
  });

  it('is not ready while the query service cannot be reached', async () => {
    env.writeConfig('', { ledgerUrl: 'http://127.0.0.1:9' });
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await daemon.waitFor((out) => out.includes('"msg":"tail round failed"'));

    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as { checks: Record<string, { ok: boolean }> };
    daemon.abort();
    await daemon.done;

    expect(res.status).toBe(503);
    expect(body.checks.config?.ok).toBe(true);
    expect(body.checks.state?.ok).toBe(true);
    expect(body.checks.poll?.ok).toBe(false);
    expect(body.checks.query_service?.ok).toBe(false);
  });

  it('sends what is pending within the grace period on SIGTERM, and records it as sent', async () => {
    // A long group wait keeps the alert in the outbox until shutdown flushes it.
    env.writeConfig('daemon: { shutdown_grace: 20s }', { slackGroupWait: '1h' });
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    env.ledger.ledger.inject(largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'));
    await until(
      async () => ((await metricValue(url, 'ledger_sentinel_outbox_depth{notifier="ops-slack"}')) ?? 0) > 0,
    );
    const sentBefore = env.slack.requests.length;

    daemon.abort();
    const code = await daemon.done;

    expect(code).toBe(0);
    expect(sentBefore).toBe(0);
    expect(env.slack.requests).toHaveLength(1);
    expect(env.slack.requests[0]?.body).toContain('ops-wallet');
    const store = openStateStore({ dir: join(env.dir, 'state') });
    const pending = createOutbox(store, Date.now).depth();
    store.close();
    expect(pending.get('ops-slack') ?? 0).toBe(0);
  });

  it('refuses an invalid config with every error as file:line:col and exit 1', async () => {
    env.writeConfig('tail: { poll_intervall: 1s }\nlog: { level: loud }');

    const daemon = env.run();
    const code = await daemon.done;

    expect(code).toBe(1);
    expect(daemon.stderr()).toMatch(/config\.yaml:\d+:\d+ /);
  });
});
