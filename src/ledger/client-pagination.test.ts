import { afterEach, describe, expect, it } from 'vitest';
import {
  collect,
  counterValue,
  harness,
  tx,
  type Harness,
} from '../../test/fixtures/ledger/client-harness.js';
import { errorBody, sendJson } from '../../test/fixtures/ledger/http-server.js';
import {
  ForeignLinkError,
  InvalidParameterError,
  LedgerHttpError,
  LinkLoopError,
  SelfLinkError,
} from './errors.js';
import { VERSION } from '../version.js';
import { createLedgerClient } from './client.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('ledger client pagination', () => {
  it('follows links.next through a partial and an empty page until null', async () => {
    const pages = [
      {
        transactions: [tx(3), tx(2)],
        links: { next: '/api/v1/transactions?limit=2&timestamp=lt:2.000000001' },
      },
      { transactions: [], links: { next: '/api/v1/transactions?limit=2&timestamp=lt:1.000000000' } },
      { transactions: [tx(1)], links: { next: null } },
    ];
    h = await harness((_req, res, n) => sendJson(res, 200, pages[n]));

    const result = await collect(h.client.listTransactions({ limit: 2 }));

    expect(result.map((p) => p.records.length)).toEqual([2, 0, 1]);
    expect(h.server.requests.map((r) => r.url)).toEqual([
      '/api/v1/transactions?limit=2',
      '/api/v1/transactions?limit=2&timestamp=lt:2.000000001',
      '/api/v1/transactions?limit=2&timestamp=lt:1.000000000',
    ]);
    expect(result[1]?.url).toBe('/api/v1/transactions?limit=2&timestamp=lt:2.000000001');
    expect(await counterValue(h.metrics.pages, { endpoint: 'transactions' })).toBe(3);
  });

  it('follows an absolute next link on the configured origin', async () => {
    h = await harness((_req, res, n) =>
      sendJson(res, 200, {
        rewards: [],
        links: { next: n === 0 ? `${h?.server.origin}/api/v1/accounts/1001/rewards?timestamp=lt:1` : null },
      }),
    );

    const result = await collect(h.client.listRewards('1001', {}));

    expect(result).toHaveLength(2);
    expect(h.server.requests[1]?.url).toBe('/api/v1/accounts/1001/rewards?timestamp=lt:1');
  });

  it('keeps a path prefix of the base URL on every request', async () => {
    h = await harness((_req, res, n) =>
      sendJson(res, 200, {
        actions: [],
        links: { next: n === 0 ? '/api/v1/contracts/results/0.0.5-1-2/actions?index=gt:1' : null },
      }),
    );
    const client = createLedgerClient({ baseUrl: `${h.server.origin}/mirror/`, sleep: async () => {} });

    await collect(client.listActions('0.0.5-1-2', {}));
    await client.close();

    expect(h.server.requests.map((r) => r.url)).toEqual([
      '/mirror/api/v1/contracts/results/0.0.5-1-2/actions',
      '/mirror/api/v1/contracts/results/0.0.5-1-2/actions?index=gt:1',
    ]);
  });

  it('refuses a next link to another host after yielding the page', async () => {
    h = await harness((_req, res) =>
      sendJson(res, 200, {
        transactions: [tx(1)],
        links: { next: 'http://evil.example/api/v1/transactions?x=1' },
      }),
    );
    const seen: number[] = [];

    const run = async () => {
      for await (const page of h!.client.listTransactions({})) seen.push(page.records.length);
    };

    await expect(run()).rejects.toThrow(ForeignLinkError);
    expect(seen).toEqual([1]);
    expect(h.server.requests).toHaveLength(1);
  });

  it.each(['//evil.example/api/v1/transactions', 'https://127.0.0.1:1/api/v1/transactions'])(
    'refuses the foreign link %s',
    async (next) => {
      h = await harness((_req, res) => sendJson(res, 200, { transactions: [], links: { next } }));

      await expect(collect(h.client.listTransactions({}))).rejects.toThrow(ForeignLinkError);

      expect(h.server.requests).toHaveLength(1);
    },
  );

  it('stops with an error when next equals the current request', async () => {
    const url = '/api/v1/transactions?timestamp=1565779209.711927001&limit=1';
    h = await harness((_req, res) =>
      sendJson(res, 200, { transactions: [tx(1565779209)], links: { next: url } }),
    );

    const run = collect(
      h.client.listTransactions({ timestamp: { op: 'eq', value: '1565779209.711927001' }, limit: 1 }),
    );

    await expect(run).rejects.toThrow(SelfLinkError);
    expect(h.server.requests).toHaveLength(1);
  });

  it('stops a walk whose next link returns to an earlier page (A → B → A) after reading each page once', async () => {
    const a = '/api/v1/transactions?limit=1&timestamp=gt:1.000000000';
    const b = '/api/v1/transactions?limit=1&timestamp=gt:2.000000000';
    h = await harness((req, res) =>
      req.url === b
        ? sendJson(res, 200, { transactions: [tx(3)], links: { next: a } })
        : sendJson(res, 200, { transactions: [tx(2)], links: { next: b } }),
    );
    const seen: string[] = [];

    const run = (async () => {
      for await (const page of h.client.pages('transactions', a))
        seen.push(...page.records.map((r) => r.consensus_timestamp));
    })();

    await expect(run).rejects.toThrow(LinkLoopError);
    await expect(run).rejects.toThrow(/returns to a page already read in this walk/);
    expect(seen).toEqual(['2.000000001', '3.000000001']);
    expect(h.server.requests.map((r) => r.url)).toEqual([a, b]);
  });

  it('fetches one page of a persisted next link', async () => {
    h = await harness((_req, res) => sendJson(res, 200, { transactions: [tx(7)], links: { next: null } }));

    const page = await h.client.fetchPage('transactions', '/api/v1/transactions?account.id=8&timestamp=gt:6');

    expect(page.records[0]?.consensus_timestamp).toBe('7.000000001');
    expect(h.server.requests[0]?.url).toBe('/api/v1/transactions?account.id=8&timestamp=gt:6');
  });

  it('keeps amounts above 2^53 exact and reports an invalid record without losing the page', async () => {
    const body = `{"transactions":[${JSON.stringify(tx(2)).replace('"amount":100', '"amount":-5000000000000000001')},${JSON.stringify(tx(1, 'x'))}],"links":{"next":null}}`;
    h = await harness((_req, res) => sendJson(res, 200, body));

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records[0]?.transfers[0]?.amount).toBe(-5000000000000000001n);
    expect(page?.invalid).toEqual([
      expect.objectContaining({
        index: 1,
        path: 'transactions[1].transfers[0].amount',
        timestamp: '1.000000001',
      }),
    ]);
    expect(await counterValue(h.metrics.invalidRecords, { endpoint: 'transactions' })).toBe(1);
  });

  it('surfaces a 400 with the service messages and does not retry it', async () => {
    h = await harness((_req, res) =>
      sendJson(res, 400, errorBody('Invalid parameter: limit', 'Unknown query parameter: foo')),
    );

    const run = collect(h.client.listTransactions({}));

    await expect(run).rejects.toThrow(LedgerHttpError);
    await expect(run).rejects.toMatchObject({
      status: 400,
      messages: ['Invalid parameter: limit', 'Unknown query parameter: foo'],
    });
    expect(h.server.requests).toHaveLength(1);
  });

  it('surfaces a 404 on rewards as LedgerHttpError 404', async () => {
    h = await harness((_req, res) => sendJson(res, 404, errorBody('Not found')));

    const run = collect(h.client.listRewards('0.0.404', {}));

    await expect(run).rejects.toMatchObject({ status: 404, messages: ['Not found'] });
  });

  it('sends a User-Agent with the version and accepts compressed bodies', async () => {
    h = await harness((_req, res) => sendJson(res, 200, { transactions: [], links: { next: null } }));

    await collect(h.client.listTransactions({}));

    expect(h.server.requests[0]?.headers['user-agent']).toBe(`ledger-sentinel/${VERSION}`);
    expect(h.server.requests[0]?.headers['accept-encoding']).toBe('gzip, br, deflate');
  });
});

describe('parameter validation before sending', () => {
  it.each([
    ['limit', (c: Harness['client']) => c.listTransactions({ limit: 0 })],
    ['account.id', (c: Harness['client']) => c.listTransactions({ accountId: '0.0.x' })],
    ['timestamp', (c: Harness['client']) => c.listTransactions({ timestamp: { op: 'gt', value: '1e9' } })],
    ['transactiontype', (c: Harness['client']) => c.listTransactions({ transactionType: 'UNKNOWN' })],
    ['order', (c: Harness['client']) => c.listRewards('1001', { order: 'sideways' as 'asc' })],
    ['timestamp', (c: Harness['client']) => c.listRewards('1001', { timestamp: { op: 'ne', value: '1' } })],
    ['idOrAliasOrEvmAddress', (c: Harness['client']) => c.listRewards('abc', {})],
    ['index', (c: Harness['client']) => c.listActions('0.0.5-1-2', { index: { op: 'ne', value: 1 } })],
    ['transactionIdOrHash', (c: Harness['client']) => c.listActions('0.0.5@1.2', {})],
  ])('rejects a bad %s and makes no request', async (parameter, call) => {
    h = await harness((_req, res) => sendJson(res, 200, { transactions: [], links: { next: null } }));

    const act = () => call(h!.client);

    expect(act).toThrow(InvalidParameterError);
    expect(act).toThrow(expect.objectContaining({ parameter }) as Error);
    expect(h.server.requests).toHaveLength(0);
  });
});
