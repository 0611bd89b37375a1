// Living-ledger-like responses (every optional field populated, int64 extremes, all action enums) must validate
// against openapi.yml too, not only the fixture responses; and the validator must be able to say no.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSimContractAction } from '@ledger-sentinel/simulator/action-json';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator, type RunningSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { sharedPath } from './shared-path.js';
import { createResponseValidator } from './openapi-validator.js';

const NOW = 1_700_000_000_000_000_000n;
const validator = createResponseValidator(sharedPath('ledger-api', 'openapi.yml'));
let sim: RunningSimulator;

function livingStore(): SimulatorStore {
  const store = new SimulatorStore();
  for (let i = 0; i < 60; i++) {
    const ts = NOW - 1_000_000_000n * BigInt(60 - i);
    const payer = 1000n + BigInt(i % 5);
    store.addTransaction(
      makeSimTransaction(
        sampleTransactionRow(ts, payer, {
          type: [14, 7, 39, 11, 99, 74][i % 6] as number,
          result: [22, 24, 104, 32767][i % 4] as number,
          memo: i % 2 ? Buffer.from(`memo ${i} <b>&`) : null,
          batchKey: i % 3 ? Buffer.from('4a5ad514', 'hex') : null,
          entityId: i % 2 ? 5001n : null,
          node: i % 7 ? 3n : null,
          nonce: i % 4 === 3 ? 1 : 0,
          parentConsensusTimestamp: i % 4 === 3 ? ts - 1n : null,
          scheduled: i % 8 === 3,
          maxCustomFees:
            i % 2 ? [{ accountId: payer, amount: 10n, denominatingTokenId: i % 4 ? 5100n : null }] : [],
          nftTransfers: [
            {
              tokenId: 7000n,
              serialNumber: BigInt(i),
              senderAccountId: i % 3 ? payer : null,
              receiverAccountId: 1003n,
            },
          ],
          transfers: [
            { account: payer, amount: -9223372036847275808n },
            { account: 800n, amount: -5n, isApproval: true },
            { account: 1004n, amount: 9223372036847275813n },
          ],
          tokenTransfers: [
            { tokenId: 6000n, account: 1002n, amount: 9223372036847275807n, isApproval: null },
          ],
          stakingRewards: [{ account: 1004n, amount: 5n }],
        }),
      ),
    );
    store.addReward({ accountId: 1001n, amount: 9223372036847275807n, timestamp: ts });
  }
  store.addEntity({ id: 1001n });
  const base = {
    consensusTimestamp: NOW - 1_000_000_000n,
    payer: 1004n,
    caller: 5001n,
    callerType: 'CONTRACT',
  };
  const actions = Array.from({ length: 14 }, (_, i) =>
    makeSimContractAction({
      ...base,
      index: i,
      callDepth: i,
      callType: i % 5,
      callOperationType: i % 7 === 0 ? null : i % 7,
      gas: 9223372036847275807n,
      gasUsed: BigInt(i),
      input: i % 2 ? Buffer.from('abcd', 'hex') : null,
      recipientAccount: i % 3 === 0 ? 1002n : null,
      recipientAddress: i % 3 === 1 ? Buffer.from('70f2b2914a2a4b783faefb75f459a580616fcb5e', 'hex') : null,
      recipientContract: i % 3 === 1 ? 5002n : null,
      resultData: i % 2 ? null : Buffer.from('1234', 'hex'),
      resultDataType: 11 + (i % 3),
      value: BigInt(i),
    }),
  );
  store.addContractActions(actions);
  return store;
}

beforeAll(async () => {
  sim = await startSimulator({ store: livingStore(), config: defaultSimulatorConfig({ now: () => NOW }) });
});

afterAll(async () => {
  await sim.close();
});

describe('openapi.yml agreement beyond the fixtures', () => {
  it.each([
    ['/api/v1/transactions', '/api/v1/transactions?limit=100'],
    ['/api/v1/transactions', '/api/v1/transactions?account.id=1004&type=credit&order=asc&limit=7'],
    ['/api/v1/transactions', '/api/v1/transactions?limit=0&order=up'],
    ['/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards', '/api/v1/accounts/1001/rewards?limit=100'],
    ['/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards', '/api/v1/accounts/0.0.77/rewards'],
    [
      '/api/v1/contracts/results/{transactionIdOrHash}/actions',
      '/api/v1/contracts/results/0.0.1004-1699999998-999999999/actions?limit=100',
    ],
    ['/api/v1/contracts/results/{transactionIdOrHash}/actions', '/api/v1/contracts/results/bad/actions'],
  ])('%s: %s', async (openapiPath, url) => {
    const response = await request(`${sim.url}${url}`);
    const text = await response.body.text();

    const body = JSON.parse(text) as Record<string, unknown>;
    const list = Object.values(body).find(Array.isArray);
    if (response.statusCode === 200 && !url.includes('0.0.77')) expect(list?.length).toBeGreaterThan(0);
    expect(validator.validate(openapiPath, response.statusCode, text)).toBeNull();
  });

  it.each([
    ['a Key object as batch_key', { batch_key: { _type: 'ED25519', key: 'ab' } }],
    ['a string amount', { charged_tx_fee: '7' }],
    ['a float timestamp', { consensus_timestamp: 1.5 }],
  ])('rejects %s', async (_name, patch) => {
    const response = await request(`${sim.url}/api/v1/transactions?limit=1`);
    const body = (await response.body.json()) as { transactions: object[] };
    body.transactions[0] = { ...body.transactions[0], ...patch };

    const verdict = validator.validate('/api/v1/transactions', 200, JSON.stringify(body));

    expect(verdict).not.toBeNull();
  });
});
