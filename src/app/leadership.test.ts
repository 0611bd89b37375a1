// The leader/standby lifecycle on a real PostgreSQL with the lease alone (the runtime is stood in for by what
// lead/abdicate record): one replica leads, the other is a ready standby naming it; a graceful stop hands over at
// once; a leader cut off from the database stops by its own clock before the standby takes over.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger.js';
import { createMetrics } from '../observability/metrics.js';
import { createLease } from '../state/lease.js';
import { createLeasePool } from '../state/lease-pool.js';
import {
  POSTGRES_BIN,
  POSTGRES_REQUIRED,
  startPostgres,
  type PostgresServer,
} from '../../test/helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { startLeadership, type Leadership } from './leadership.js';
import { standbyApi } from './standby-api.js';
import { standbyReadiness } from './standby-readiness.js';

const log = createLogger({ level: 'silent' });

interface Replica {
  readonly name: string;
  readonly leadership: Leadership;
  readonly metrics: ReturnType<typeof createMetrics>;
  readonly events: string[];
  /** performance.now() when lead() was called. */
  ledAt?: number;
  /** The last local validity end seen while leading. */
  validUntil?: number;
  lost?: Error;
}

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('leadership (PostgreSQL, lease only)', () => {
  let pg: PostgresServer;
  const pools: Pool[] = [];
  const proxies: TcpProxy[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    pg?.destroy();
  });

  function replica(name: string, url: string, ttlMs: number): Replica {
    const pool = createLeasePool({ url, ttlMs, log });
    pools.push(pool);
    const lease = createLease({ pool, holder: name, ttlMs, monotonic: () => performance.now() });
    const metrics = createMetrics();
    const r: Replica = {
      name,
      metrics,
      events: [],
      leadership: startLeadership({
        lease,
        log,
        metrics,
        intervalMs: Math.floor(ttlMs / 6),
        lead: async (token) => {
          r.ledAt = performance.now();
          r.events.push(`lead ${token}`);
        },
        abdicate: async () => void r.events.push('abdicate'),
        onLost: (error) => void (r.lost = error),
      }),
    };
    const track = setInterval(() => {
      if (r.leadership.leading()) r.validUntil = lease.validUntil();
    }, 5);
    track.unref();
    return r;
  }

  async function until(what: string, check: () => boolean): Promise<void> {
    for (let i = 0; i < 600 && !check(); i += 1) await new Promise((r) => setTimeout(r, 25));
    if (!check()) throw new Error(`timed out waiting for ${what}`);
  }

  async function gauge(r: Replica, name: 'leader' | 'leaderFencingToken'): Promise<number> {
    return (await r.metrics[name].get()).values[0]?.value ?? NaN;
  }

  it('one leads, the other stands by ready naming it, and a graceful stop hands over at once', async () => {
    const url = pg.createDatabase('leadership_handover');
    const a = replica('pod-a', url, 60_000);
    await until('pod-a to lead', () => a.leadership.leading());
    const b = replica('pod-b', url, 60_000);
    await until('pod-b to see the leader', () => b.leadership.leader()?.holder === 'pod-a');

    const standby = b.leadership.readiness();
    const api = await serve(b.leadership);
    const write = await fetch(`${api.url}/api/v1/silences`, { method: 'POST', body: '{}' });
    const read = await fetch(`${api.url}/api/v1/silences`);
    const checks = standbyReadiness(
      { config: { ok: true, message: 'loaded' }, poll: { ok: false, message: 'no poll has completed yet' } },
      b.leadership,
    );
    await api.close();
    await a.leadership.stop();
    await until('pod-b to take over', () => b.leadership.leading());

    expect(standby).toEqual({ ok: true, message: 'role: standby, leader: pod-a (token 1)' });
    expect(write.status).toBe(503);
    expect(await write.json()).toEqual({
      error: 'this replica is a standby: state-changing calls go to the leader pod-a (token 1)',
      leader: 'pod-a',
      leader_url: null,
    });
    expect(read.status).toBe(200);
    expect(checks).toEqual({ config: { ok: true, message: 'loaded' }, role: standby });
    expect(a.events).toEqual(['lead 1']);
    expect(b.events).toEqual(['lead 2']);
    expect(b.leadership.readiness()).toEqual({ ok: true, message: 'role: leader, token 2' });
    expect(await gauge(a, 'leader')).toBe(0);
    expect(await gauge(b, 'leader')).toBe(1);
    await b.leadership.stop();
  }, 60_000);

  it('a leader cut off from the database stops by its own clock before the standby takes over', async () => {
    const url = pg.createDatabase('leadership_partition');
    const proxy = await startTcpProxy(pg.port);
    proxies.push(proxy);
    const a = replica('pod-a', url.replace(`:${pg.port}/`, `:${proxy.port}/`), 3000);
    await until('pod-a to lead', () => a.leadership.leading());
    const b = replica('pod-b', url, 3000);
    await until('pod-b to see the leader', () => b.leadership.leader()?.holder === 'pod-a');

    proxy.cut();
    await until('pod-b to take over', () => b.leadership.leading());
    await until('pod-a to fail', () => a.lost !== undefined);

    expect(a.events).toEqual(['lead 1', 'abdicate']);
    expect(a.leadership.leading()).toBe(false);
    expect(a.validUntil!).toBeLessThanOrEqual(b.ledAt!);
    expect(a.lost?.message).toContain('leadership lost (no lease renewal succeeded');
    expect(b.events).toEqual(['lead 2']);
    expect(await gauge(b, 'leaderFencingToken')).toBe(2);
    expect((await b.metrics.leaderChanges.get()).values[0]?.value).toBe(1);
    expect(await gauge(a, 'leader')).toBe(0);
    await b.leadership.stop();
    await a.leadership.stop();
  }, 60_000);
});

/** A real HTTP server whose API is a standby wrapper around a router that answers every request 200. */
async function serve(leadership: Leadership): Promise<{ url: string; close: () => Promise<void> }> {
  const inner = (_req: IncomingMessage, res: ServerResponse): boolean => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    return true;
  };
  const api = standbyApi(inner, () => leadership);
  const server = createServer((req, res) => void api(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
