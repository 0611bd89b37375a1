// The heartbeat against a real loopback receiver: pings while healthy (the readiness notion of health over a
// real TailHealth and an injected clock), holds or reports /fail when the tail goes stale, logs a change of state
// once, counts every ping, and never shows its URL or Authorization value.
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '../../test/helpers/clock.js';
import { startHttpSink, type HttpSink } from '../../test/helpers/http-sink.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { alertingHealth } from './alerting-health.js';
import { SelfMonitoringConfig } from './self-monitoring-config.js';
import { createPauseBoard } from '../delivery/pause-board.js';
import { createMetrics } from '../observability/metrics.js';
import { createTailHealth } from '../tail/loop/daemon-loop.js';
import { createHeartbeat, failUrl, type HeartbeatHealth } from './heartbeat.js';
import { HeartbeatConfig } from './heartbeat-config.js';

const sinks: HttpSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((s) => s.close()));
});

async function sink(fallback?: Parameters<typeof startHttpSink>[0]) {
  const s = await startHttpSink(fallback);
  sinks.push(s);
  return s;
}

function heartbeat(config: Record<string, unknown>, health: () => HeartbeatHealth) {
  const logs = captureLogs();
  const metrics = createMetrics();
  const beat = createHeartbeat({ config: HeartbeatConfig.parse(config), health, metrics, log: logs.logger });
  const count = async (outcome: string) =>
    (await metrics.heartbeats.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
  return { beat, logs, count };
}

const healthy = () => ({ ok: true, problems: [] });
const unhealthy = () => ({ ok: false, problems: ['query_service: no answer for 300 s'] });

describe('heartbeat', () => {
  it('pings while healthy; with the tail stale it pings <url>/fail instead (Healthchecks)', async () => {
    const s = await sink();
    const clock = testClock();
    const tail = createTailHealth();
    tail.markPolled(clock.now());
    const config = { self_monitoring: SelfMonitoringConfig.parse({}), notifiers: {} };
    const health = () =>
      alertingHealth({ tail, clock: clock.now, pauses: createPauseBoard(), config, lastPassAt: clock.now() });
    const h = heartbeat({ url: `${s.origin}/ping/abc?rid=1`, on_unhealthy: 'fail', method: 'POST' }, health);

    await h.beat.beat();
    clock.advance(config.self_monitoring.query_service_down_after + 1000);
    await h.beat.beat();
    const [ok, fail] = await s.waitForRequests(2);

    expect(ok?.path).toBe('/ping/abc?rid=1');
    expect(fail?.path).toBe('/ping/abc/fail?rid=1');
    expect(JSON.parse(fail?.body ?? '{}')).toMatchObject({
      healthy: false,
      problems: [expect.stringMatching(/^query_service: no answer/)],
    });
    expect(await h.count('ok')).toBe(1);
    expect(await h.count('fail')).toBe(1);
  });

  it('holds the ping while unhealthy (on_unhealthy: skip), logging that once', async () => {
    const s = await sink();
    let health = healthy as () => HeartbeatHealth;
    const h = heartbeat({ url: `${s.origin}/ping` }, () => health());

    await h.beat.beat();
    health = unhealthy;
    await h.beat.beat();
    await h.beat.beat();
    health = healthy;
    await h.beat.beat();
    await s.waitForRequests(2);

    expect(s.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    expect(await h.count('skipped')).toBe(2);
    expect(h.logs.entries().map((e) => e.msg)).toEqual([
      'heartbeat pinging',
      'heartbeat held: the daemon is not healthy',
      'heartbeat pinging again',
    ]);
  });

  it('an Opsgenie heartbeat: GET /v2/heartbeats/{name}/ping with the GenieKey; failures logged once, without the secrets', async () => {
    const s = await sink(() => ({ status: 500, body: 'boom' }));
    const h = heartbeat(
      { url: `${s.origin}/v2/heartbeats/sentinel/ping`, authorization: 'GenieKey sekrit-key' },
      healthy,
    );

    await h.beat.beat();
    await h.beat.beat();
    const [first] = await s.waitForRequests(2);

    expect(first?.path).toBe('/v2/heartbeats/sentinel/ping');
    expect(first?.headers.authorization).toBe('GenieKey sekrit-key');
    expect(await h.count('error')).toBe(2);
    const failures = h.logs
      .entries()
      .filter((e) => e.msg === 'heartbeat ping failed: HTTP 500; check heartbeat.url');
    expect(failures).toHaveLength(1);
    expect(h.logs.text()).not.toContain('sekrit-key');
    expect(h.logs.text()).not.toContain(s.origin);
  });

  it('does not follow a redirect, and a refused connection is a network error', async () => {
    const s = await sink(() => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }));
    const h = heartbeat({ url: `${s.origin}/ping` }, healthy);
    await h.beat.beat();
    const origin = s.origin;
    await s.close();
    sinks.splice(sinks.indexOf(s), 1);
    const refused = heartbeat({ url: `${origin}/ping` }, healthy);
    await refused.beat.beat();

    expect(s.requests).toHaveLength(1);
    expect(h.logs.entries()[0]?.msg).toMatch(/HTTP 302: the URL redirects, and redirects are not followed/);
    expect(refused.logs.entries()[0]?.msg).toMatch(/network error ECONNREFUSED/);
  });

  it('config: the timeout must be shorter than the interval; the fail URL keeps the query', () => {
    const bad = HeartbeatConfig.safeParse({ url: 'https://hc-ping.com/x', interval: '10s', timeout: '10s' });
    expect(bad.error?.issues[0]?.message).toMatch(/timeout must be shorter than interval/);
    expect(failUrl('https://hc-ping.com/uuid/?create=1')).toBe('https://hc-ping.com/uuid/fail?create=1');
  });
});
