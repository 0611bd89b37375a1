import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSimulatorConfig, SIXTY_DAYS_NS } from './config.js';
import { sampleTransactionRow } from './sample-rows.js';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from './server.js';
import { SimulatorStore } from './store.js';
import { makeSimTransaction } from './transaction-json.js';

const NOW = 1_700_000_000_000_000_000n;
let running: RunningSimulator | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

function storeWith(count: number, start: bigint, step = 1_000_000_000n): SimulatorStore {
  const store = new SimulatorStore();
  for (let i = 0; i < count; i++) {
    store.addTransaction(
      makeSimTransaction(sampleTransactionRow(start + BigInt(i) * step, 1000n + BigInt(i % 7))),
    );
  }
  return store;
}

async function get(options: StartSimulatorOptions, path: string) {
  running = await startSimulator(options);
  const response = await request(`${running.url}${path}`);
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

describe('startSimulator', () => {
  it('mounts under a prefix, and links and the Link header keep the path as sent', async () => {
    const store = storeWith(3, NOW - 10_000_000_000n);
    const config = defaultSimulatorConfig({ now: () => NOW });

    const res = await get({ store, config, pathPrefix: '/mirror' }, '/api/v1/transactions?limit=2');

    const next = '/mirror/api/v1/transactions?limit=2&timestamp=lt:1699999991.000000000';
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).links.next).toBe(next);
    expect(res.headers.link).toBe(`<${next}>; rel="next"`);
    expect(res.headers['cache-control']).toBe('public, max-age=2');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('caps the limit at the configured maximum and echoes the raw value', async () => {
    const store = storeWith(150, NOW - 1_000_000_000_000n);

    const res = await get(
      { store, config: defaultSimulatorConfig({ now: () => NOW }) },
      '/api/v1/transactions?limit=1000',
    );

    const body = JSON.parse(res.text);
    expect(body.transactions).toHaveLength(100);
    expect(body.links.next).toMatch(/^\/api\/v1\/transactions\?limit=1000&timestamp=lt:/);
  });

  it('binds /transactions to 60 days: an old ledger gives an empty page whose next link steps back', async () => {
    const store = storeWith(2, NOW - SIXTY_DAYS_NS - 5_000_000_000n);

    const res = await get(
      { store, config: defaultSimulatorConfig({ now: () => NOW }) },
      '/api/v1/transactions',
    );

    expect(JSON.parse(res.text)).toEqual({
      transactions: [],
      links: { next: '/api/v1/transactions?timestamp=lt:1694816000.000000001' },
    });
  });

  it('writes int64 amounts exactly on the wire', async () => {
    const store = new SimulatorStore();
    const transfers = [
      { account: 9n, amount: 9223372036847275807n },
      { account: 10n, amount: -9223372036847275808n },
    ];
    store.addTransaction(makeSimTransaction(sampleTransactionRow(NOW - 1n, 10n, { transfers })));

    const res = await get(
      { store, config: defaultSimulatorConfig({ now: () => NOW }) },
      '/api/v1/transactions',
    );

    expect(res.text).toContain('"amount":9223372036847275807');
    expect(res.text).toContain('"amount":-9223372036847275808');
  });

  it('rejects more than 100 values of a key, with no cache header on the error', async () => {
    const query = Array.from({ length: 101 }, (_, i) => `account.id=${i}`).join('&');

    const res = await get({ store: new SimulatorStore() }, `/api/v1/transactions?${query}`);

    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      _status: {
        messages: [
          {
            message: 'Parameter values count exceeds maximum number allowed: account.id count: 101 max: 100',
          },
        ],
      },
    });
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('serves extra routes (cache-control: default or none), answers 404 elsewhere and 500 when a route throws', async () => {
    const extraRoutes = [
      {
        method: 'GET',
        pattern: '/hello/:name',
        handle: (r: { params: Record<string, string> }) => ({ status: 200, body: JSON.stringify(r.params) }),
      },
      {
        method: 'GET',
        pattern: '/plain',
        cacheControl: null,
        handle: () => ({ status: 200, body: '{}' }),
      },
      {
        method: 'GET',
        pattern: '/boom',
        handle: () => {
          throw new Error('boom');
        },
      },
    ];
    running = await startSimulator({ store: new SimulatorStore(), extraRoutes });

    const hello = await request(`${running.url}/hello/a%20b`);
    const plain = await request(`${running.url}/plain`);
    const missing = await request(`${running.url}/api/v1/nothing`);
    const boom = await request(`${running.url}/boom`);

    expect(await hello.body.json()).toEqual({ name: 'a b' });
    expect(hello.headers['cache-control']).toBe('public, max-age=1');
    expect([plain.statusCode, plain.headers['cache-control']]).toEqual([200, undefined]);
    await plain.body.dump();
    expect([missing.statusCode, await missing.body.text()]).toEqual([
      404,
      '{"_status":{"messages":[{"message":"Not found"}]}}',
    ]);
    expect([boom.statusCode, await boom.body.text()]).toEqual([
      500,
      '{"_status":{"messages":[{"message":"Internal error"}]}}',
    ]);
  });

  it('answers HEAD like GET, without a body', async () => {
    running = await startSimulator({ store: new SimulatorStore() });

    const res = await request(`${running.url}/api/v1/transactions`, { method: 'HEAD' });

    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(await res.body.text()).toBe('');
  });

  it('lets a wrapper see every request before the simulator does', async () => {
    const seen: string[] = [];

    const res = await get(
      {
        store: new SimulatorStore(),
        wrap: (handler) => (req, res) => (seen.push(req.url ?? ''), handler(req, res)),
      },
      '/api/v1/transactions?limit=1',
    );

    expect(res.status).toBe(200);
    expect(seen).toEqual(['/api/v1/transactions?limit=1']);
  });
});
