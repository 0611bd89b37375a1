// The heartbeat in the real daemon: it pings a loopback receiver while the daemon can alert, and once the query
// service is gone for longer than self_monitoring.query_service_down_after it reports failure (<url>/fail).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpSink, type HttpSink } from '../helpers/http-sink.js';
import { LARGE_DEBIT_RULE, startDaemonEnv, type DaemonEnv } from './daemon-harness.js';

describe('heartbeat in the daemon', () => {
  let env: DaemonEnv;
  let receiver: HttpSink;
  beforeEach(async () => {
    env = await startDaemonEnv();
    receiver = await startHttpSink();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => {
    await receiver.close();
    await env.close();
  });

  it('pings while healthy, and pings /fail once the query service is down', async () => {
    env.writeConfig(`heartbeat: { url: '${receiver.origin}/ping/abc', interval: 5s, timeout: 2s, on_unhealthy: fail }
self_monitoring: { query_service_down_after: 2s }
`);
    const run = env.run();
    const firstPing = await receiver.waitForRequests(1);
    await env.ledger.close();
    while (!receiver.requests.some((r) => r.path === '/ping/abc/fail'))
      await receiver.waitForRequests(receiver.requests.length + 1);
    await run.waitFor((out) => out.includes('"msg":"heartbeat reported failure: the daemon is not healthy"'));
    run.abort();
    await run.done;

    expect(firstPing[0]?.path).toBe('/ping/abc');
    expect(firstPing[0]?.method).toBe('GET');
    expect(run.stdout()).toMatch(/"problems":\["query_service: no answer for \d+ s"\]/);
    expect(run.stdout()).not.toContain(receiver.origin);
  }, 120_000);
});
