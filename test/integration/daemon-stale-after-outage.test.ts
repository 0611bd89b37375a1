// The race between a recovery and the staleness check, end to end: the query service fails long enough for the
// streams to back off, then answers again. Streams still backing off must not fire (and at once resolve) a burst of
// stale-cursor alerts; the outage itself is announced and resolved.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { LARGE_DEBIT_RULE, httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

/** A proxy in front of the ledger that answers 503 to everything while `failing`. */
async function startSwitchProxy(upstream: string) {
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    if (state.failing) return void res.writeHead(503).end('down');
    fetch(`${upstream}${req.url ?? '/'}`)
      .then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' }).end(body);
      })
      .catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function maxStaleness(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values = text
    .split('\n')
    .filter((l) => l.startsWith('ledger_sentinel_account_staleness_seconds{'))
    .map((l) => Number(l.split(' ')[1]));
  return Math.max(0, ...values);
}

describe('self-monitoring after an outage', () => {
  let env: DaemonEnv;
  let proxy: Awaited<ReturnType<typeof startSwitchProxy>>;
  beforeEach(async () => {
    env = await startDaemonEnv();
    proxy = await startSwitchProxy(env.ledger.url);
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => {
    await proxy.close();
    await env.close();
  });

  it('sends no burst of stale-cursor alerts when the query service comes back', async () => {
    // Ten streams: polled one after another after the recovery, some still stale when the first has answered.
    // account_stale_after sits above the streams' steady-state staleness (with poll 500 ms and overlap 2 s it
    // saw-tooths up to about 2.2 s), so an alert here can only come from the outage; the outage itself lasts
    // longer than it (8 failed rounds with backoff).
    const accounts = Array.from(
      { length: 10 },
      (_, i) => `  - { id: 0.0.${1001 + i}, sources: [transactions] }`,
    );
    writeFileSync(
      env.configPath,
      `ledger:
  base_url: ${proxy.url}
  retry: { max_attempts: 1, base_delay: 50ms, max_delay: 200ms }
accounts:
${accounts.join('\n')}
tail: { poll_interval: 500ms, overlap: 2s, strategy: per-account, max_backoff: 4s }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${env.slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }
state: { dir: ${join(env.dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
self_monitoring: { notify: [ops-slack], query_service_down_after: 1s, account_stale_after: 4s, check_interval: 200ms }
`,
    );
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    proxy.state.failing = true;
    await until(async () => env.slack.requests.some((r) => r.body.includes('unreachable')));
    // Failed rounds for longer than account_stale_after: every stream is stale when the service comes back.
    const failures = () => daemon.stdout().match(/"msg":"(tail round failed|poll failed)"/g)?.length ?? 0;
    await daemon.waitFor(() => failures() >= 8);
    proxy.state.failing = false;
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    await until(async () => (await maxStaleness(url)) < 1.5);
    // A positive event before looking for an absence: a marker debit injected now is read by a later round,
    // evaluated and delivered through the same outbox, so every self-monitoring check of the recovery (one each
    // 200 ms) has had its chance to emit a wrong stale alert, and a delivered one would stand before the marker.
    env.ledger.ledger.inject(largeDebit('0.0.1001', 5000n * 100_000_000n, '0.0.1002', 'after-recovery'));
    await until(async () => env.slack.requests.some((r) => r.body.includes('5,000')));
    daemon.abort();
    await daemon.done;

    const bodies = env.slack.requests.map((r) => r.body).join('\n');
    const emitted = daemon.stdout().match(/sentinel-[a-z-]+:(firing|resolved)/g) ?? [];
    expect(emitted).toContain('sentinel-query-service-down:firing');
    expect(emitted).toContain('sentinel-query-service-down:resolved');
    expect(emitted.filter((a) => a.startsWith('sentinel-account-stale'))).toEqual([]);
    expect(bodies).not.toContain('has not advanced');
  }, 60_000);
});
