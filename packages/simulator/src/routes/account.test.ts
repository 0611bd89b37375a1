// GET /api/v1/accounts/{idOrAliasOrEvmAddress}: found by id, alias and EVM address; 400 and 404 as the service.
import { describe, expect, it } from 'vitest';
import { defaultSimulatorConfig } from '../config.js';
import { createSimulatorServer } from '../server.js';
import { SimulatorStore } from '../store.js';

const ALIAS = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';
const EVM = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f';
const REQUIRED = [
  'account',
  'alias',
  'auto_renew_period',
  'balance',
  'created_timestamp',
  'decline_reward',
  'deleted',
  'ethereum_nonce',
  'evm_address',
  'expiry_timestamp',
  'key',
  'max_automatic_token_associations',
  'memo',
  'receiver_sig_required',
  'staked_account_id',
  'staked_node_id',
  'stake_period_start',
  'transactions',
  'links',
];

async function call(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const store = new SimulatorStore();
  store.addEntity({ id: 1001n, alias: ALIAS });
  store.addEntity({ id: 1002n, evmAddress: EVM });
  store.addEntity({ id: 1003n });
  const config = defaultSimulatorConfig({ bindTimestampRange: false });
  const response = await createSimulatorServer({ store, config }).dispatch('GET', url);
  return { status: response.status, body: JSON.parse(String(response.body)) as Record<string, unknown> };
}

describe('/api/v1/accounts/{idOrAliasOrEvmAddress}', () => {
  it.each([
    ['/api/v1/accounts/0.0.1001', '0.0.1001', ALIAS],
    ['/api/v1/accounts/1001', '0.0.1001', ALIAS],
    [`/api/v1/accounts/${ALIAS}`, '0.0.1001', ALIAS],
    [`/api/v1/accounts/0.0.${ALIAS}`, '0.0.1001', ALIAS],
    [`/api/v1/accounts/${EVM}`, '0.0.1002', null],
    [`/api/v1/accounts/${EVM.slice(2).toUpperCase()}?transactions=false`, '0.0.1002', null],
    ['/api/v1/accounts/0x00000000000000000000000000000000000003eb', '0.0.1003', null],
  ])('answers %s with account %s', async (url, account, alias) => {
    const { status, body } = await call(url);

    expect(status).toBe(200);
    expect(body).toMatchObject({ account, alias, transactions: [], links: { next: null } });
    expect(Object.keys(body)).toEqual(expect.arrayContaining(REQUIRED));
    expect(body.balance).toMatchObject({ balance: 0, tokens: [] });
  });

  it('writes the EVM address it knows, or the long-zero form of the id', async () => {
    const known = await call(`/api/v1/accounts/0.0.1002`);
    const longZero = await call(`/api/v1/accounts/0.0.1003`);

    expect(known.body.evm_address).toBe(EVM);
    expect(longZero.body.evm_address).toBe('0x00000000000000000000000000000000000003eb');
  });

  it.each([
    ['/api/v1/accounts/not-an-account', 400, 'Invalid parameter: idOrAliasOrEvmAddress'],
    ['/api/v1/accounts/0.0.1001?transactions=maybe', 400, 'Invalid parameter: transactions'],
    ['/api/v1/accounts/0.0.1001?limit=0', 400, 'Invalid parameter: limit'],
    ['/api/v1/accounts/0.0.4242', 404, 'Not found'],
    ['/api/v1/accounts/0x71c7656ec7ab88b098defb751b7401b5f6d89700', 404, 'Not found'],
    [
      '/api/v1/accounts/KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ',
      404,
      'No account with a matching alias found',
    ],
  ])('answers %s with %i', async (url, status, message) => {
    const response = await call(url);

    expect(response.status).toBe(status);
    expect(response.body).toEqual({ _status: { messages: [{ message }] } });
  });
});
