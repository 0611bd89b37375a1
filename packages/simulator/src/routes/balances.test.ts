// GET /api/v1/balances and the balance of GET /api/v1/accounts/{id}: current balances from the entity and its
// token associations, snapshots for a timestamp filter, account.id forms and their errors, paging.
import { describe, expect, it } from 'vitest';
import { parseSpecJson } from '../fixture-values.js';
import { loadFixture } from '../fixtures.js';
import { createSimulatorServer } from '../server.js';
import type { ServedBody } from './served-body.js';

type Body = ServedBody;

const ALIAS = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';
const SETUP = {
  accounts: [
    { num: 7, balance: 70, balance_timestamp: 3 },
    {
      num: 8,
      balance: 80,
      balance_timestamp: 5,
      alias: ALIAS,
      evm_address: 'ac384c53f03855fa1b3616052f8ba32c6c2a2fec',
    },
    { num: 9, balance: 90, balance_timestamp: 4, public_key: 'ab'.repeat(32) },
  ],
  tokenaccounts: [
    { token_id: '0.0.600', account_id: '0.0.8', balance: 6 },
    { token_id: '0.0.500', account_id: '0.0.8', balance: 5 },
    { token_id: '0.0.700', account_id: '0.0.8', balance: 7, associated: false },
  ],
  balances: [
    { timestamp: 2000, id: 2, balance: 1 },
    { timestamp: 2000, id: 8, balance: 800, tokens: [{ token_num: 500, balance: 50 }] },
  ],
};

async function get(url: string) {
  const { store, config } = loadFixture(SETUP);
  const response = await createSimulatorServer({ store, config }).dispatch('GET', url);
  return { status: response.status, body: parseSpecJson(String(response.body)) as Body };
}

describe('/api/v1/balances', () => {
  it('lists current balances by account id descending, associated tokens in the same order', async () => {
    const { status, body } = await get('/api/v1/balances');
    expect(status).toBe(200);
    expect(body).toEqual({
      timestamp: '0.000000005',
      balances: [
        { account: '0.0.9', balance: 90n, tokens: [] },
        {
          account: '0.0.8',
          balance: 80n,
          tokens: [
            { token_id: '0.0.600', balance: 6n },
            { token_id: '0.0.500', balance: 5n },
          ],
        },
        { account: '0.0.7', balance: 70n, tokens: [] },
      ],
      links: { next: null },
    });
  });

  it('finds an account by id, EVM address or alias, and by public key', async () => {
    for (const id of ['0.0.8', '8', '0xac384c53f03855fa1b3616052f8ba32c6c2a2fec', ALIAS]) {
      const { body } = await get(`/api/v1/balances?account.id=${id}`);
      expect(body.balances.map((b: { readonly account: string }) => b.account)).toEqual(['0.0.8']);
    }
    const { body } = await get(`/api/v1/balances?account.publickey=${'AB'.repeat(32)}`);
    expect(body.balances.map((b: { readonly account: string }) => b.account)).toEqual(['0.0.9']);
  });

  it('refuses a range or a second lookup on EVM addresses and aliases, with the detail', async () => {
    const range = await get(`/api/v1/balances?account.id=gte:${ALIAS}`);
    expect(range.status).toBe(400);
    expect(range.body._status.messages).toEqual([
      {
        message: 'Invalid parameter: account.id',
        detail: 'EVM address or alias only supports equals operator',
      },
    ]);
    const two = await get(
      `/api/v1/balances?account.id=${ALIAS}&account.id=ac384c53f03855fa1b3616052f8ba32c6c2a2fec`,
    );
    expect(two.body._status.messages[0]?.detail).toBe('Only one EVM address or alias is allowed.');
  });

  it('reads the snapshot for a timestamp filter, and nothing before the first one', async () => {
    const { body } = await get('/api/v1/balances?timestamp=0.000002000&account.id=8');
    expect(body).toEqual({
      timestamp: '0.000002000',
      balances: [{ account: '0.0.8', balance: 800n, tokens: [{ token_id: '0.0.500', balance: 50n }] }],
      links: { next: null },
    });
    const early = await get('/api/v1/balances?timestamp=0.000001999');
    expect(early.body).toEqual({ timestamp: null, balances: [], links: { next: null } });
  });

  it('pages with account.id, and sends no link when the next range is empty', async () => {
    const first = await get('/api/v1/balances?limit=2');
    expect(first.body.links.next).toBe('/api/v1/balances?limit=2&account.id=lt:0.0.8');
    const last = await get('/api/v1/balances?limit=2&account.id=gte:0.0.8');
    expect(last.body.balances).toHaveLength(2);
    expect(last.body.links.next).toBeNull();
  });

  it('refuses unknown parameters and bad values', async () => {
    const { status, body } = await get('/api/v1/balances?account.balance=gt:-2&order=any&token.id=1');
    expect(status).toBe(400);
    expect(body._status.messages.map((m: { readonly message: string }) => m.message)).toEqual([
      'Invalid parameter: account.balance',
      'Invalid parameter: order',
      'Unknown query parameter: token.id',
    ]);
  });
});

describe('/api/v1/accounts/{id} balance', () => {
  it('carries the HBAR balance, its timestamp and the associated token balances, token id ascending', async () => {
    const { body } = await get('/api/v1/accounts/0.0.8?transactions=false');
    expect(body.balance).toEqual({
      balance: 80n,
      timestamp: '0.000000005',
      tokens: [
        { token_id: '0.0.500', balance: 5n },
        { token_id: '0.0.600', balance: 6n },
      ],
    });
    expect(body.transactions).toEqual([]);
  });

  it('reads the snapshot for a timestamp filter', async () => {
    const { body } = await get('/api/v1/accounts/8?timestamp=0.000002000&transactions=false');
    expect(body.balance).toEqual({
      balance: 800n,
      timestamp: '0.000002000',
      tokens: [{ token_id: '0.0.500', balance: 50n }],
    });
  });

  it('embeds the account’s transactions, paged on its own path', async () => {
    const setup = {
      ...SETUP,
      cryptotransfers: [
        {
          consensus_timestamp: '1000000000000000001',
          payerAccountId: '0.0.7',
          recipientAccountId: '0.0.8',
          amount: 25,
          nodeAccountId: '0.0.3',
        },
        {
          consensus_timestamp: '1000000000000000002',
          payerAccountId: '0.0.8',
          recipientAccountId: '0.0.9',
          amount: 5,
          nodeAccountId: '0.0.3',
        },
      ],
    };
    const { store, config } = loadFixture(setup);
    const server = createSimulatorServer({ store, config });
    const response = await server.dispatch('GET', '/api/v1/accounts/0.0.8?limit=1');
    const body = parseSpecJson(String(response.body)) as Body;
    expect(
      (body.transactions as Array<{ consensus_timestamp: string }>).map((t) => t.consensus_timestamp),
    ).toEqual(['1000000000.000000002']);
    expect(body.links.next).toBe('/api/v1/accounts/0.0.8?limit=1&timestamp=lt:1000000000.000000002');
    expect(response.headers?.link).toBe(`<${body.links.next}>; rel="next"`);
  });

  it('answers 404 for an empty timestamp range', async () => {
    const { status, body } = await get('/api/v1/accounts/8?timestamp=gt:2&timestamp=lt:2');
    expect(status).toBe(404);
    expect(body._status.messages).toEqual([{ message: 'Timestamp range is empty' }]);
  });
});
