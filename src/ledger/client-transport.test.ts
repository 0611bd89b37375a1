import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from './retry.js';
import {
  collect,
  counterValue,
  harness,
  NOW,
  tx,
  type Harness,
} from '../../test/fixtures/ledger/client-harness.js';
import { errorBody, sendJson } from '../../test/fixtures/ledger/http-server.js';
import {
  LedgerHttpError,
  LedgerNetworkError,
  MalformedResponseError,
  ResponseTooLargeError,
} from './errors.js';
import { createLedgerClient } from './client.js';
import { createMetrics } from '../observability/metrics.js';

/**
 * A loopback port whose TCP handshakes hang: a listener with a backlog of 1 in a stopped child process, its accept
 * queue filled. Connecting to it times out, as a host that drops SYNs does.
 */
async function blackHole(): Promise<{ origin: string; close(): void }> {
  const script =
    "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () { console.log(this.address().port) })";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [data] = (await once(child.stdout, 'data')) as [Buffer];
  const port = Number(data.toString().trim());
  child.kill('SIGSTOP');
  const fillers: Socket[] = [];
  for (;;) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
    const connected = await Promise.race([
      once(socket, 'connect').then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300)),
    ]);
    if (!connected || fillers.length > 64) break;
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    close() {
      for (const socket of fillers) socket.destroy();
      child.kill('SIGKILL');
    },
  };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const OK = { transactions: [tx(1)], links: { next: null } };

describe('retries', () => {
  it.each([500, 502, 503, 504])('retries a %i with jittered exponential backoff', async (status) => {
    h = await harness((_req, res, n) =>
      n < 3 ? sendJson(res, status, errorBody('Service unavailable')) : sendJson(res, 200, OK),
    );

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records).toHaveLength(1);
    expect(h.sleeps).toEqual([125, 250, 500]); // random 0.5 × 250·2^(n-1)
    expect(await counterValue(h.metrics.retries, { endpoint: 'transactions', reason: 'server' })).toBe(3);
  });

  it('honours Retry-After in seconds on a 429', async () => {
    h = await harness((_req, res, n) =>
      n === 0 ? sendJson(res, 429, 'slow down', { 'retry-after': '7' }) : sendJson(res, 200, OK),
    );

    await collect(h.client.listTransactions({}));

    expect(h.sleeps).toEqual([7000]);
    expect(await counterValue(h.metrics.retries, { endpoint: 'transactions', reason: 'rate-limited' })).toBe(
      1,
    );
  });

  it('honours Retry-After as an HTTP-date', async () => {
    const at = new Date(NOW + 12_000).toUTCString();
    h = await harness((_req, res, n) =>
      n === 0 ? sendJson(res, 429, '', { 'retry-after': at }) : sendJson(res, 200, OK),
    );

    await collect(h.client.listTransactions({}));

    expect(h.sleeps).toEqual([12_000]);
  });

  it('caps a huge Retry-After at the maximum delay', async () => {
    h = await harness(
      (_req, res, n) =>
        n === 0 ? sendJson(res, 429, '', { 'retry-after': '86400' }) : sendJson(res, 200, OK),
      {
        retry: { maxDelayMs: 5_000 },
      },
    );

    await collect(h.client.listTransactions({}));

    expect(h.sleeps).toEqual([5_000]);
  });

  it('gives up after the retry budget with the last status and messages', async () => {
    h = await harness((_req, res) => sendJson(res, 503, errorBody('Service unavailable')), {
      retry: { maxAttempts: 3 },
    });

    const run = collect(h.client.listTransactions({}));

    await expect(run).rejects.toThrow(LedgerHttpError);
    await expect(run).rejects.toMatchObject({ status: 503, messages: ['Service unavailable'] });
    expect(h.server.requests).toHaveLength(3);
  });

  it('retries a connection reset', async () => {
    h = await harness((req, res, n) => (n === 0 ? req.socket.destroy() : sendJson(res, 200, OK)));

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records).toHaveLength(1);
    expect(await counterValue(h.metrics.retries, { endpoint: 'transactions', reason: 'reset' })).toBe(1);
  });

  it('retries a truncated body and reports a network error when it persists', async () => {
    h = await harness(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"transactions":[');
        setImmediate(() => res.destroy());
      },
      { retry: { maxAttempts: 2 } },
    );

    const run = collect(h.client.listTransactions({}));

    await expect(run).rejects.toThrow(LedgerNetworkError);
    expect(h.server.requests).toHaveLength(2);
  });

  it('retries a headers timeout', async () => {
    h = await harness((_req, res, n) => (n === 0 ? undefined : sendJson(res, 200, OK)), {
      timeouts: { headersMs: 100 },
    });

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records).toHaveLength(1);
    expect(await counterValue(h.metrics.retries, { endpoint: 'transactions', reason: 'timeout' })).toBe(1);
  });

  it('retries a connect timeout and then fails with reason timeout', async () => {
    const hole = await blackHole();
    const metrics = createMetrics({ registry: new Registry() });
    const client = createLedgerClient({
      baseUrl: hole.origin,
      timeouts: { connectMs: 200 },
      retry: { maxAttempts: 2, baseDelayMs: 1 },
      metrics,
    });
    try {
      const run = collect(client.listTransactions({}));

      const err = (await run.catch((e: unknown) => e)) as LedgerNetworkError;

      expect(err).toMatchObject({ name: 'LedgerNetworkError', reason: 'timeout' });
      // undici names the limit it gave up at: the configured one, not its 10 s default.
      expect(String((err.cause as Error | undefined)?.message)).toMatch(
        /Connect Timeout Error.*timeout: 200ms/,
      );
      expect(await counterValue(metrics.retries, { endpoint: 'transactions', reason: 'timeout' })).toBe(1);
    } finally {
      await client.close();
      hole.close();
    }
  });

  it('retries a body timeout and then fails with reason timeout', async () => {
    h = await harness(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"transactions":[');
      },
      { timeouts: { bodyMs: 100 }, retry: { maxAttempts: 2 } },
    );

    const run = collect(h.client.listTransactions({}));

    await expect(run).rejects.toMatchObject({ name: 'LedgerNetworkError', reason: 'timeout' });
    expect(h.server.requests).toHaveLength(2);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    h = await harness((_req, res) => sendJson(res, 503, ''), {
      sleep: async () => {
        controller.abort(new Error('shutting down'));
        throw controller.signal.reason;
      },
    });

    const run = collect(h.client.listTransactions({}, { signal: controller.signal }));

    await expect(run).rejects.toThrow('shutting down');
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('bodies', () => {
  const json = Buffer.from(JSON.stringify(OK));

  it.each([
    ['gzip', gzipSync(json)],
    ['br', brotliCompressSync(json)],
    ['deflate', deflateSync(json)],
  ])('accepts a %s body', async (encoding, bytes) => {
    h = await harness((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(bytes);
    });

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records).toHaveLength(1);
  });

  it('refuses a body above the maximum size without retrying', async () => {
    h = await harness((_req, res) => sendJson(res, 200, { ...OK, pad: 'x'.repeat(5000) }), {
      maxResponseBytes: 1000,
    });

    const run = collect(h.client.listTransactions({}));

    await expect(run).rejects.toThrow(ResponseTooLargeError);
    expect(h.server.requests).toHaveLength(1);
  });

  it('refuses a chunked body that grows past the maximum', async () => {
    h = await harness(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 20; i++) res.write('x'.repeat(100));
        res.end();
      },
      { maxResponseBytes: 1000 },
    );

    await expect(collect(h.client.listTransactions({}))).rejects.toThrow(ResponseTooLargeError);
  });

  it('refuses a small gzip body that inflates past the maximum', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ ...OK, pad: ' '.repeat(100_000) })));
    h = await harness(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(bomb);
      },
      { maxResponseBytes: 10_000 },
    );

    expect(bomb.length).toBeLessThan(10_000);
    await expect(collect(h.client.listTransactions({}))).rejects.toThrow(ResponseTooLargeError);
  });

  it.each(['{"transactions":[', 'not json', '<html>502</html>'])(
    'retries invalid JSON %s, then reports it as malformed',
    async (body) => {
      h = await harness((_req, res) => sendJson(res, 200, body));

      const run = collect(h.client.listTransactions({}));

      await expect(run).rejects.toThrow(MalformedResponseError);
      expect(h.server.requests).toHaveLength(DEFAULT_RETRY.maxAttempts);
    },
  );

  it('retries a truncated page and returns the good copy', async () => {
    h = await harness((_req, res, n) =>
      n === 0 ? sendJson(res, 200, '{"transactions":[{"consensus_tim') : sendJson(res, 200, OK),
    );

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records).toHaveLength(1);
    expect(h.server.requests).toHaveLength(2);
    expect(await counterValue(h.metrics.retries, { endpoint: 'transactions', reason: 'malformed' })).toBe(1);
  });

  it('reports a corrupt gzip body as malformed', async () => {
    h = await harness((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(Buffer.from('definitely not gzip'));
    });

    await expect(collect(h.client.listTransactions({}))).rejects.toThrow(MalformedResponseError);
  });
});

describe('request budget', () => {
  it('acquires the shared budget once per attempt with the caller priority', async () => {
    const grants: (number | undefined)[] = [];
    const budget = {
      pending: 0,
      acquire: async (opts?: { priority?: number }) => {
        grants.push(opts?.priority);
        return 0;
      },
    };
    const rewards = { rewards: [], links: { next: null } };
    h = await harness(
      (req, res, n) =>
        n === 0 ? sendJson(res, 503, '') : sendJson(res, 200, req.url?.includes('rewards') ? rewards : OK),
      { budget },
    );
    const second = createLedgerClient({ baseUrl: h.server.origin, budget });

    await collect(h.client.listTransactions({}, { priority: 7 }));
    await collect(second.listRewards('1001', {}, { priority: 1 }));
    await second.close();

    expect(grants).toEqual([7, 7, 1]);
  });
});
