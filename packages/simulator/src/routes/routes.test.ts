// Rules the upstream fixtures do not pin, checked in-process through the same handler the server mounts.
import { describe, expect, it } from 'vitest';
import { makeSimContractAction } from '../action-json.js';
import { defaultSimulatorConfig } from '../config.js';
import { sampleTransactionRow } from '../sample-rows.js';
import { createSimulatorServer } from '../server.js';
import { SimulatorStore } from '../store.js';
import { makeSimTransaction } from '../transaction-json.js';

const S = 1_000_000_000n;

function ledger() {
  const store = new SimulatorStore();
  store.addTransaction(makeSimTransaction(sampleTransactionRow(100n * S, 8n)));
  const credit = [
    { account: 9n, amount: 5n },
    { account: 10n, amount: -5n },
  ];
  store.addTransaction(
    makeSimTransaction(sampleTransactionRow(200n * S, 10n, { transfers: credit, result: 24 })),
  );
  store.addTransaction(makeSimTransaction(sampleTransactionRow(300n * S + 500_000_000n, 11n)));
  store.addEntity({ id: 1001n });
  store.addReward({ accountId: 1001n, amount: 7n, timestamp: 150n * S });
  const action = {
    payer: 5001n,
    callDepth: 1,
    callType: 1,
    callOperationType: 1,
    caller: 5001n,
    callerType: 'CONTRACT',
  };
  const rest = {
    gas: 1n,
    gasUsed: 1n,
    input: null,
    recipientAccount: 8n,
    recipientAddress: null,
    recipientContract: null,
  };
  const more = { resultData: null, resultDataType: 11, value: 0n };
  store.addContractActions([
    makeSimContractAction({ consensusTimestamp: 100n * S, index: 1, ...action, ...rest, ...more }),
  ]);
  store.addContractTransactionHash('ab'.repeat(32), { consensusTimestamp: 100n * S, payer: 5001n });
  store.addContractTransactionHash('ab'.repeat(32), { consensusTimestamp: 900n * S, payer: 5001n });
  const config = defaultSimulatorConfig({ bindTimestampRange: false });
  return createSimulatorServer({ store, config });
}

async function call(url: string): Promise<{ status: number; body: { [k: string]: unknown } }> {
  const response = await ledger().dispatch('GET', url);
  return { status: response.status, body: JSON.parse(String(response.body)) };
}

function stamps(body: { [k: string]: unknown }): string[] {
  return (body.transactions as Array<{ consensus_timestamp: string }>).map((t) => t.consensus_timestamp);
}

describe('/api/v1/transactions edge rules', () => {
  it.each([
    ['?timestamp=100&timestamp=200', []],
    ['?timestamp=100.000000000&timestamp=100', ['100.000000000']],
    ['?timestamp=300.5', ['300.500000000']],
    ['?timestamp=ne:200&order=asc', ['100.000000000', '300.500000000']],
    ['?type=credit&type=debit', []],
    ['?type=DEBIT&account.id=10', ['200.000000000']],
    ['?type=credit&account.id=10', []],
    ['?result=fail', ['200.000000000']],
    ['?account.id=0x0000000000000000000000000000000000000009', ['200.000000000']],
    ['?account.id=0.0.0000000000000000000000000000000000000009', ['200.000000000']],
    ['?account.id=0x1111111111111111111111111111111111111111', []],
    ['?account.id=gte:0.0.11&account.id=lte:11', ['300.500000000']],
    ['?account.id=8&account.id=11', ['300.500000000', '100.000000000']],
  ])('%s', async (query, expected) => {
    const { status, body } = await call(`/api/v1/transactions${query}`);

    expect(status).toBe(200);
    expect(stamps(body)).toEqual(expected);
  });

  it.each([
    ['?account.id=0.0.274877906944', ['Invalid entity ID "0.0.274877906944"']],
    ['?account.id=0.0.274877906944&limit=0', ['Invalid parameter: limit']],
    [
      '?transactiontype=NODE&transactiontype=unknown',
      ['Invalid parameter: transactiontype', 'Invalid parameter: transactiontype'],
    ],
    ['?account.id=AAAAAAAA', ['Invalid parameter: account.id']],
    ['?timestamp=1.1234567890', ['Invalid parameter: timestamp']],
  ])('%s → 400', async (query, messages) => {
    const { status, body } = await call(`/api/v1/transactions${query}`);

    expect(status).toBe(400);
    expect(body).toEqual({ _status: { messages: messages.map((message) => ({ message })) } });
  });
});

describe('rewards and actions check order', () => {
  it.each([
    ['/api/v1/accounts/0.0.404/rewards?limit=x', 404, 'Not found'],
    [
      '/api/v1/accounts/1001/rewards?timestamp=ne:1',
      400,
      'Not equals (ne) operator is not supported for timestamp',
    ],
    ['/api/v1/accounts/AAAAAAAA/rewards', 404, 'No account with a matching alias found'],
    ['/api/v1/accounts/1.AAAAAAAA/rewards', 400, 'Invalid parameter: idOrAliasOrEvmAddress'],
    ['/api/v1/contracts/results/nothing/actions?limit=0', 400, 'Invalid parameter: limit'],
    [
      '/api/v1/contracts/results/0.0.1@1.2/actions',
      400,
      'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds',
    ],
    ['/api/v1/contracts/results/0.0.8-99-999999999/actions', 200, undefined],
    ['/api/v1/contracts/results/0.0.8-99-999999999/actions?index=1e0&index=lte:.5e1', 200, undefined],
    ['/api/v1/contracts/results/0.0.8-99-999999999/actions?index=-1', 400, 'Invalid parameter: index'],
    ['/API/V1/Transactions?limit=1', 200, undefined],
    ['/api/v1/contracts/results/0.0.8-99-1/actions', 404, 'Not found'],
  ])('%s → %i', async (url, status, message) => {
    const response = await call(url);

    expect(response.status).toBe(status);
    if (message !== undefined) expect(response.body).toEqual({ _status: { messages: [{ message }] } });
  });

  it('resolves a hash to its earliest row and that row payer, with decimal index filters allowed and the gte: cursor moved last', async () => {
    const { status, body } = await call(
      `/api/v1/contracts/results/0x${'AB'.repeat(32)}/actions?index=gte:0.5&limit=1`,
    );

    expect(status).toBe(200);
    expect(body.actions).toMatchObject([
      {
        index: 1,
        from: '0x0000000000000000000000000000000000001389',
        to: '0x0000000000000000000000000000000000000008',
      },
    ]);
    expect((body.links as { next: string }).next).toBe(
      `/api/v1/contracts/results/0x${'AB'.repeat(32)}/actions?limit=1&index=gt:1`,
    );
  });
});
