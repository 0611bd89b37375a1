// Living-ledger responses (all types, hostile memos, deep traces, rewards) must validate against openapi.yml,
// with the one documented correction the conformance validator applies (docs/ledger-api.md §14, batch_key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator } from './openapi-validator.js';
import { sharedPath } from './shared-path.js';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { deepCallTrace } from '@ledger-sentinel/simulator/traffic-inject';

const validator = createResponseValidator(sharedPath('ledger-api', 'openapi.yml'));
let sim: RunningLivingLedger;
let now = 1_700_000_000_000;
let contractTxId = '';
let contractHash = '';
let rewardAccount = '';

beforeAll(async () => {
  sim = await startLivingLedger({ seed: 21, tps: 100, clock: () => now });
  sim.ledger.inject(deepCallTrace(11, '0.0.1001', 'deep'));
  now += 60_000;
  await fetch(`${sim.url}/_sim/stats`);
  const deep = sim.ledger.truth.tagged('deep')[0]?.tx.json as {
    transaction_id: string;
    transaction_hash: string;
  };
  contractTxId = deep.transaction_id;
  contractHash = Buffer.from(deep.transaction_hash, 'base64').subarray(0, 32).toString('hex');
  rewardAccount = `0.0.${sim.ledger.truth.rewards()[0]?.accountId}`;
  now += 30_000;
});
afterAll(() => sim.close());

describe('living ledger responses against openapi.yml', () => {
  it.each([
    ['transactions, newest page', '/api/v1/transactions', () => '/api/v1/transactions?limit=100'],
    [
      'transactions, ascending range',
      '/api/v1/transactions',
      () => '/api/v1/transactions?limit=100&order=asc&timestamp=gte:1700000010',
    ],
    [
      'transactions of one account',
      '/api/v1/transactions',
      () => '/api/v1/transactions?account.id=0.0.1001&limit=100',
    ],
    [
      'failed contract calls',
      '/api/v1/transactions',
      () => '/api/v1/transactions?transactiontype=CONTRACTCALL&result=fail&limit=100',
    ],
    [
      'rewards of a paid account',
      '/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards',
      () => `/api/v1/accounts/${rewardAccount}/rewards?limit=100`,
    ],
    [
      'actions by transaction id',
      '/api/v1/contracts/results/{transactionIdOrHash}/actions',
      () => `/api/v1/contracts/results/${contractTxId}/actions?limit=100`,
    ],
    [
      'actions by hash',
      '/api/v1/contracts/results/{transactionIdOrHash}/actions',
      () => `/api/v1/contracts/results/0x${contractHash}/actions?limit=100`,
    ],
  ])('%s', async (_label, openapiPath, url) => {
    const res = await fetch(`${sim.url}${url()}`);
    const text = await res.text();

    const list = Object.values(JSON.parse(text) as Record<string, unknown>).find(Array.isArray);
    expect(res.status).toBe(200);
    expect(list?.length).toBeGreaterThan(0);
    expect(validator.validate(openapiPath, res.status, text)).toBeNull();
  });
});
