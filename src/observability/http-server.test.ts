import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';
import { startHttpServer, type ReadinessCheck, type RunningHttpServer } from './http-server.js';

describe('http server', () => {
  let server: RunningHttpServer | undefined;
  afterEach(async () => server?.close());

  async function start(checks: Record<string, ReadinessCheck>, views?: Record<string, () => unknown>) {
    const metrics = createMetrics({ version: '1.2.3' });
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      registry: metrics.registry,
      readiness: () => checks,
      ...(views ? { views } : {}),
    });
    return { metrics, url: server.url };
  }

  it('serves Prometheus text with the build info on /metrics', async () => {
    const { url } = await start({});

    const res = await fetch(`${url}/metrics`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('ledger_sentinel_build_info{version="1.2.3"');
  });

  it('answers /healthz while alive', async () => {
    const { url } = await start({});

    const res = await fetch(`${url}/healthz`);

    expect(res.status).toBe(200);
  });

  it('is ready only when every check is ok, and says which one is not', async () => {
    const { url } = await start({
      config: { ok: true, message: 'loaded' },
      poll: { ok: false, message: 'no poll yet' },
    });

    const res = await fetch(`${url}/readyz`);

    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ready: false,
      checks: { config: { ok: true, message: 'loaded' }, poll: { ok: false, message: 'no poll yet' } },
    });
  });

  it('answers 404 with the list of endpoints for anything else', async () => {
    const { url } = await start({});

    const res = await fetch(`${url}/nope`);

    expect(res.status).toBe(404);
    expect(await res.text()).toContain('/metrics');
  });

  it('serves each read-only view as JSON, computed at each request, and lists it on a 404', async () => {
    let calls = 0;
    const { url } = await start({}, { '/quarantine': () => ({ total: ++calls }) });

    const first = await fetch(`${url}/quarantine`);
    const second = await fetch(`${url}/quarantine`);
    const missing = await fetch(`${url}/nope`);

    expect(first.headers.get('content-type')).toBe('application/json');
    expect(await first.json()).toEqual({ total: 1 });
    expect(await second.json()).toEqual({ total: 2 });
    expect(await missing.text()).toContain('/quarantine');
  });
});
