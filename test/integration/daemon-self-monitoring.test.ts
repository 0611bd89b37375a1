// Self-monitoring end to end: when the query service goes away the daemon says so through a notifier, stops
// being ready, and holds per-account staleness alerts back (every account goes stale for that one reason).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LARGE_DEBIT_RULE, httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

async function maxStaleness(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values = text
    .split('\n')
    .filter((l) => l.startsWith('ledger_sentinel_account_staleness_seconds{'))
    .map((l) => Number(l.split(' ')[1]));
  return Math.max(0, ...values);
}

describe('self-monitoring', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  /** A daemon with fast self-monitoring, ready (it has polled the ledger once). */
  async function startReady() {
    env.writeConfig(
      'self_monitoring: { notify: [ops-slack], query_service_down_after: 1s, account_stale_after: 4s, check_interval: 200ms }',
    );
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    return { daemon, url };
  }

  it('alerts that the query service is down, and holds account staleness alerts back meanwhile', async () => {
    const { daemon, url } = await startReady();

    await env.ledger.close();
    const [request] = await env.slack.waitForRequests(1);
    // Staleness well past account_stale_after: several checks have seen it (and held it back).
    await until(async () => (await maxStaleness(url)) > 6);
    const ready = await fetch(`${url}/readyz`);
    daemon.abort();
    const code = await daemon.done;

    expect(request?.body).toContain('The ledger query service is unreachable');
    expect(env.slack.requests.map((r) => r.body).join('\n')).not.toContain('has not advanced');
    expect(ready.status).toBe(503);
    expect(code).toBe(0);
  });

  it('does not announce the outage again after a restart while the service is still down', async () => {
    const { daemon: first } = await startReady();
    await env.ledger.close();
    await env.slack.waitForRequests(1);
    first.abort();
    expect(await first.done).toBe(0);

    const second = env.run();
    await httpUrlOf(second);
    // Failed rounds well past query_service_down_after of the second life: a fresh start would have fired again.
    await second.waitFor((out) => (out.match(/"msg":"tail round failed"/g)?.length ?? 0) >= 8);
    second.abort();
    expect(await second.done).toBe(0);

    const bodies = env.slack.requests.map((r) => r.body);
    expect(bodies.filter((b) => b.includes('The ledger query service is unreachable'))).toHaveLength(1);
    expect(bodies.join('\n')).not.toContain('has not advanced');
  });
});
