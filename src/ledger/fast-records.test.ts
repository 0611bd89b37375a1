import { describe, expect, it } from 'vitest';
import { fastContractAction, fastStakingReward, fastTransaction } from './fast-records.js';
import { parsePage } from './page.js';
import { ContractAction, StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';

const TX = {
  batch_key: null,
  bytes: null,
  charged_tx_fee: 84650,
  consensus_timestamp: '1565779444.711927005',
  entity_id: null,
  max_custom_fees: [{ account_id: '0.0.8', amount: 5, denominating_token_id: null }],
  max_fee: '100000000',
  memo_base64: 'aGVsbG8=',
  name: 'CRYPTOTRANSFER',
  nft_transfers: [
    {
      is_approval: false,
      receiver_account_id: '0.0.9',
      sender_account_id: null,
      serial_number: 1,
      token_id: '0.0.7',
    },
  ],
  node: '0.0.3',
  nonce: 0,
  parent_consensus_timestamp: null,
  result: 'SUCCESS',
  scheduled: false,
  staking_reward_transfers: [{ account: 1001, amount: 10 }],
  token_transfers: [{ token_id: '0.0.7', account: '0.0.9', amount: -3, is_approval: false }],
  transaction_hash: 'AAEC',
  transaction_id: '0.0.8-1565779444-711927000',
  transfers: [
    { account: '0.0.3', amount: 2, is_approval: false },
    { account: '0.0.8', amount: -5000000000000000000n, is_approval: false },
  ],
  valid_duration_seconds: '120',
  valid_start_timestamp: '1565779444.711927000',
  unknown_future_field: { x: 1 },
};

type Raw = Record<string, unknown>;
type Mutation = [string, (tx: Raw) => void];
const at = (tx: Record<string, unknown>, key: string) =>
  (tx[key] as Record<string, unknown>[])[0] as Record<string, unknown>;

const MUTATIONS: Mutation[] = [
  ['unchanged', () => {}],
  [
    'missing optional fields',
    (tx) =>
      ['batch_key', 'bytes', 'entity_id', 'max_fee', 'node', 'valid_start_timestamp'].forEach(
        (k) => delete tx[k],
      ),
  ],
  [
    'missing arrays default to []',
    (tx) => ['transfers', 'token_transfers', 'nft_transfers', 'max_custom_fees'].forEach((k) => delete tx[k]),
  ],
  ['hex batch key', (tx) => (tx.batch_key = '0xabcdef')],
  [
    'entity id as string in staking reward transfer',
    (tx) => (at(tx, 'staking_reward_transfers').account = '0.0.800'),
  ],
  ['bad transfer account', (tx) => (at(tx, 'transfers').account = '0.0.x')],
  ['unsafe double amount', (tx) => (at(tx, 'transfers').amount = 2 ** 60)],
  ['fractional amount', (tx) => (at(tx, 'transfers').amount = 1.5)],
  ['amount as text', (tx) => (at(tx, 'transfers').amount = '12')],
  ['amount as bad text', (tx) => (at(tx, 'transfers').amount = '1e5')],
  ['bad consensus timestamp', (tx) => (tx.consensus_timestamp = '1565779444.7119270051')],
  ['timestamp as number', (tx) => (tx.consensus_timestamp = 1565779444.7)],
  ['null name', (tx) => (tx.name = null)],
  ['negative nonce', (tx) => (tx.nonce = -1)],
  ['non-boolean scheduled', (tx) => (tx.scheduled = 'yes')],
  ['bad transaction id', (tx) => (tx.transaction_id = '0.0.8@1565779444.711927000')],
  ['batch key without 0x', (tx) => (tx.batch_key = 'abcdef')],
  ['transfers not an array', (tx) => (tx.transfers = {})],
  ['null token transfer', (tx) => ((tx.token_transfers as unknown[])[0] = null)],
  ['is_approval missing', (tx) => delete at(tx, 'token_transfers').is_approval],
  ['nft serial as text', (tx) => (at(tx, 'nft_transfers').serial_number = '5')],
  ['max_fee bad text', (tx) => (tx.max_fee = 'lots')],
  ['valid_duration_seconds null', (tx) => (tx.valid_duration_seconds = null)],
  ['transaction_hash null', (tx) => (tx.transaction_hash = null)],
];

function mutated(mutate: (tx: Record<string, unknown>) => void): Record<string, unknown> {
  const copy = structuredClone(TX) as Record<string, unknown>;
  mutate(copy);
  return copy;
}

describe('fast path agrees with zod', () => {
  it.each(MUTATIONS)('transaction: %s', (_name, mutate) => {
    const raw = mutated(mutate);

    const fast = fastTransaction(raw);
    const slow = Transaction.safeParse(raw);

    // The fast path may leave a record to zod (a lenient field to read as unknown), never accept one zod
    // rejects, and never read one differently.
    if (!slow.success) expect(fast).toBeUndefined();
    if (fast !== undefined) expect(fast).toEqual(slow.success ? slow.data : 'rejected by zod');
  });

  it.each([
    ['key-object batch key', (tx: Raw) => (tx.batch_key = { _type: 'ED25519', key: 'bfc9', extra: 1 })],
    [
      'high_volume members',
      (tx: Raw) => Object.assign(tx, { high_volume: true, high_volume_pricing_multiplier: '2' }),
    ],
    ['null node and duration', (tx: Raw) => Object.assign(tx, { node: null, valid_duration_seconds: null })],
  ])('transaction in the current shape, fast: %s', (_name, mutate) => {
    const raw = mutated(mutate);

    const fast = fastTransaction(raw);

    expect(fast).toBeDefined();
    expect(fast).toEqual(Transaction.parse(raw));
  });

  it.each([
    [{ account_id: '0.0.1001', amount: 10, timestamp: '1234567890.000000001' }],
    [{ account_id: '0.0.1001', amount: 2n ** 62n, timestamp: '1234567890.000000001', extra: 1 }],
    [{ account_id: '1001', amount: 10, timestamp: '1234567890.000000001' }],
    [{ account_id: '0.0.1001', amount: null, timestamp: '1234567890.000000001' }],
  ])('staking reward %#', (raw) => {
    const slow = StakingReward.safeParse(raw);

    expect(fastStakingReward(raw)).toEqual(slow.success ? slow.data : undefined);
  });

  const ACTION = {
    call_depth: 0,
    call_operation_type: 'CALL',
    call_type: 'CALL',
    caller: '0.0.5001',
    caller_type: 'ACCOUNT',
    from: '0x0000000000000000000000000000000000001389',
    gas: 50000,
    gas_used: 1000,
    index: 0,
    input: '0x',
    recipient: '0.0.5002',
    recipient_type: 'CONTRACT',
    result_data: '0x12',
    result_data_type: 'OUTPUT',
    timestamp: '1676540001.234390005',
    to: null,
    value: 0,
  };

  it.each([
    [{}],
    [{ to: '0x0000000000000000000000000000000000001389', caller: null, recipient_type: null }],
    [{ from: '0x1389' }],
    [{ input: 'zz' }],
    [{ index: 1.5 }],
    [{ gas: '50000' }],
  ])('contract action with %o', (change) => {
    const raw = { ...ACTION, ...change };

    const slow = ContractAction.safeParse(raw);

    expect(fastContractAction(raw)).toEqual(slow.success ? slow.data : undefined);
  });
});

describe('parsePage', () => {
  it('reports an invalid record with its path and timestamp and keeps the others', () => {
    const bad = mutated((tx) => (at(tx, 'transfers').amount = 2 ** 60));
    const body = { transactions: [TX, bad, TX], links: { next: '/api/v1/transactions?timestamp=lt:1' } };

    const page = parsePage('transactions', '/api/v1/transactions', body);

    expect(page.records).toHaveLength(2);
    expect(page.invalid).toEqual([
      {
        index: 1,
        path: 'transactions[1].transfers[0].amount',
        message: expect.stringContaining('integer') as string,
        field: 'transfers',
        timestamp: '1565779444.711927005',
        transactionId: '0.0.8-1565779444-711927000',
        raw: expect.stringContaining('"transaction_id":"0.0.8-1565779444-711927000"') as string,
      },
    ]);
    expect(page.next).toBe('/api/v1/transactions?timestamp=lt:1');
  });

  it.each([
    [null, 'expected a JSON object'],
    [{ links: { next: null } }, 'expected an array "transactions"'],
    [{ transactions: [] }, 'expected an object "links"'],
    [{ transactions: [], links: { next: 5 } }, 'links.next'],
  ])('rejects the envelope %j', (body, message) => {
    expect(() => parsePage('transactions', '/u', body)).toThrow(message);
  });
});

describe('lenient fields', () => {
  it.each([
    ['batch_key', 'abcdef'],
    ['batch_key', { _type: 'ED25519' }],
    ['bytes', { value: 'AAEC' }],
    ['max_custom_fees', { account_id: '0.0.8' }],
    ['max_fee', { amount: '33' }],
    ['transaction_hash', null],
    ['valid_duration_seconds', 'forever'],
    ['valid_start_timestamp', 1565779444.7],
  ])('%s = %j reads as unknown and keeps the record', (field, value) => {
    const raw = mutated((tx) => (tx[field] = value));

    const page = parsePage('transactions', '/u', { transactions: [raw], links: { next: null } });

    expect(page.invalid).toEqual([]);
    expect(page.records).toHaveLength(1);
    expect(page.records[0]?.[field as keyof Transaction]).toBeUndefined();
    expect(page.records[0]?.transfers).toEqual(Transaction.parse(TX).transfers);
    expect(page.degraded).toEqual([{ index: 0, field, timestamp: '1565779444.711927005' }]);
  });

  it.each([
    ['memo_base64', { text: 'hi' }],
    ['name', { type: 'CRYPTOTRANSFER' }],
    ['result', 22],
    ['nonce', '0'],
    ['scheduled', 'no'],
    ['node', { id: '0.0.3' }],
    ['entity_id', 7],
    ['parent_consensus_timestamp', 1.5],
    ['staking_reward_transfers', {}],
  ])('%s = %j is essential: the record cannot be read', (field, value) => {
    const raw = mutated((tx) => (tx[field] = value));

    const page = parsePage('transactions', '/u', { transactions: [raw], links: { next: null } });

    expect(page.records).toEqual([]);
    expect(page.invalid).toEqual([expect.objectContaining({ field, transactionId: TX.transaction_id })]);
  });
});
