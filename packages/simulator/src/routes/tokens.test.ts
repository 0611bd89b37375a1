// GET /api/v1/tokens/{tokenId} and /api/v1/tokens/{tokenId}/balances on spec-style rows: the token's facts (and
// as of a timestamp), who holds it in account order, paging, validation and 404 as the service answers them.
import { describe, expect, it } from 'vitest';
import { parseSpecJson } from '../fixture-values.js';
import { loadFixture } from '../fixtures.js';
import { createSimulatorServer } from '../server.js';
import type { ServedBody } from './served-body.js';

type Body = ServedBody;

const SETUP = {
  accounts: [{ num: 17 }, { num: 18 }, { num: 19 }, { num: 2 }],
  entities: [{ num: 500, type: 'TOKEN', memo: 'usd coin', timestamp_range: '[100,)' }],
  tokens: [
    {
      token_id: '0.0.500',
      symbol: 'USDC',
      decimals: 6,
      created_timestamp: '100',
      timestamp_range: '[200,)',
      total_supply: 5000,
      treasury_account_id: '0.0.17',
      supply_key: '\\x1220' + 'ab'.repeat(32),
      pause_status: 'PAUSED',
    },
    { token_id: '0.0.500', symbol: 'OLD', created_timestamp: '100', timestamp_range: '[100,200)' },
  ],
  tokenaccounts: [
    { token_id: '0.0.500', account_id: '0.0.17', balance: 300, balance_timestamp: 5 },
    { token_id: '0.0.500', account_id: '0.0.18', balance: 200, balance_timestamp: 7 },
    { token_id: '0.0.500', account_id: '0.0.19', balance: 100, balance_timestamp: 6 },
    { token_id: '0.0.500', account_id: '0.0.2', balance: 9, associated: false },
  ],
  balances: [
    { timestamp: 1000, id: 2, balance: 1 },
    { timestamp: 1000, id: 18, balance: 1, tokens: [{ token_num: 500, balance: 42 }] },
  ],
};

async function get(url: string) {
  const { store, config } = loadFixture(SETUP);
  const response = await createSimulatorServer({ store, config }).dispatch('GET', url);
  return {
    status: response.status,
    headers: response.headers,
    body: parseSpecJson(String(response.body)) as Body,
  };
}

describe('/api/v1/tokens/{tokenId}', () => {
  it('serves the token facts: decimals, symbol, supply, treasury, keys and pause status', async () => {
    const { status, body } = await get('/api/v1/tokens/0.0.500');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      token_id: '0.0.500',
      symbol: 'USDC',
      decimals: '6',
      total_supply: '5000',
      treasury_account_id: '0.0.17',
      supply_key: { _type: 'ED25519', key: 'ab'.repeat(32) },
      pause_status: 'PAUSED',
      memo: 'usd coin',
      modified_timestamp: '0.000000200',
      custom_fees: { created_timestamp: '0.000000100', fixed_fees: [], fractional_fees: [] },
    });
  });

  it('answers the same token for its long-zero EVM address', async () => {
    const { body } = await get('/api/v1/tokens/0x00000000000000000000000000000000000001f4');
    expect(body.token_id).toBe('0.0.500');
  });

  it('serves the version in force at a timestamp (eq reads as lte)', async () => {
    expect((await get('/api/v1/tokens/500?timestamp=0.000000150')).body.symbol).toBe('OLD');
    expect((await get('/api/v1/tokens/500?timestamp=lt:0.000000200')).body.symbol).toBe('OLD');
    expect((await get('/api/v1/tokens/500?timestamp=lte:0.000000200')).body.symbol).toBe('USDC');
  });

  it('answers 404 before the token existed and for an unknown token', async () => {
    expect((await get('/api/v1/tokens/500?timestamp=lt:0.000000100')).status).toBe(404);
    expect((await get('/api/v1/tokens/0.0.501')).body).toEqual({
      _status: { messages: [{ message: 'Not found' }] },
    });
  });

  it('refuses a bad token id and a timestamp operator the service does not take', async () => {
    expect((await get('/api/v1/tokens/abc')).body._status.messages).toEqual([
      { message: 'Invalid parameter: tokenid' },
    ]);
    expect((await get('/api/v1/tokens/06bd279138d5918402fc8ad500526cb2ee0eb985')).status).toBe(400);
    const gt = await get('/api/v1/tokens/500?timestamp=gt:1');
    expect(gt.body._status.messages).toEqual([{ message: 'Invalid parameter: timestamp' }]);
  });
});

describe('/api/v1/tokens/{tokenId}/balances', () => {
  it('lists associated holders by account id, descending by default, with the decimals', async () => {
    const { status, body } = await get('/api/v1/tokens/0.0.500/balances');
    expect(status).toBe(200);
    expect(body).toEqual({
      timestamp: '0.000000007',
      balances: [
        { account: '0.0.19', balance: 100n, decimals: 6n },
        { account: '0.0.18', balance: 200n, decimals: 6n },
        { account: '0.0.17', balance: 300n, decimals: 6n },
      ],
      links: { next: null },
    });
  });

  it('pages on account.id with a next link and Link header', async () => {
    const first = await get('/api/v1/tokens/0.0.500/balances?order=asc&limit=2');
    expect(first.body.balances.map((b: { readonly account: string }) => b.account)).toEqual([
      '0.0.17',
      '0.0.18',
    ]);
    expect(first.body.links.next).toBe(
      '/api/v1/tokens/0.0.500/balances?order=asc&limit=2&account.id=gt:0.0.18',
    );
    expect(first.headers?.link).toBe(`<${first.body.links.next}>; rel="next"`);
    const second = await get(first.body.links.next);
    expect(second.body.balances.map((b: { readonly account: string }) => b.account)).toEqual(['0.0.19']);
    expect(second.body.links.next).toBeNull();
  });

  it('filters on account.id and account.balance', async () => {
    const { body } = await get('/api/v1/tokens/500/balances?account.id=gte:0.0.18&account.balance=lt:200');
    expect(body.balances).toEqual([{ account: '0.0.19', balance: 100n, decimals: 6n }]);
  });

  it('reads the newest balance snapshot in range for a timestamp filter', async () => {
    const { body } = await get('/api/v1/tokens/500/balances?timestamp=0.000001000');
    expect(body).toEqual({
      timestamp: '0.000001000',
      balances: [{ account: '0.0.18', balance: 42n, decimals: 6n }],
      links: { next: null },
    });
    const before = await get('/api/v1/tokens/500/balances?timestamp=lt:0.000001000');
    expect(before.body).toEqual({ timestamp: null, balances: [], links: { next: null } });
  });

  it('lists every bad parameter at once, unknown ones last', async () => {
    const { status, body } = await get(
      '/api/v1/tokens/500/balances?slot=1&account.id=x&account.balance=-1&order=up',
    );
    expect(status).toBe(400);
    expect(body._status.messages.map((m: { readonly message: string }) => m.message)).toEqual([
      'Invalid parameter: account.id',
      'Invalid parameter: account.balance',
      'Invalid parameter: order',
      'Unknown query parameter: slot',
    ]);
  });
});
