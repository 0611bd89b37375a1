import { describe, expect, it } from 'vitest';
import { bytesInput, parseSpecJson } from './fixture-values.js';
import { loadFixture } from './fixtures.js';

function onlyTransaction(setup: Record<string, unknown>) {
  const { store } = loadFixture(setup);
  const page = store.scanTransactions(
    { lower: null, upper: null, order: 'asc', limit: 10, nowNs: 0n },
    () => true,
  );
  return page.map((stored) => stored.tx.json);
}

describe('loadFixture (docs/ledger-api.md appendix F)', () => {
  it('expands a cryptotransfer: sender defaults to payer, recipient to node, amount 2, approvals false', () => {
    const setup = parseSpecJson(
      '{"cryptotransfers":[{"consensus_timestamp":"1565779111711927001","payerAccountId":"0.0.10",' +
        '"nodeAccountId":"0.0.3","treasuryAccountId":"0.0.98","is_approval":true}]}',
    ) as Record<string, unknown>;

    const [json] = onlyTransaction(setup);

    expect(json).toMatchObject({
      transaction_id: '0.0.10-1565779111-711927000',
      charged_tx_fee: 7n,
      node: '0.0.3',
      transfers: [
        { account: '0.0.3', amount: 2n, is_approval: false },
        { account: '0.0.10', amount: -3n, is_approval: false },
        { account: '0.0.98', amount: 1n, is_approval: false },
      ],
    });
  });

  it.each([
    ['no transfers and a fee: default fee legs, node leg to 0.0.3 when the node is null', 7, [2n, -3n, 1n]],
    ['no transfers and no fee: no rows', 0, []],
  ])('%s', (_name, fee, amounts) => {
    const setup = {
      transactions: [
        { consensus_timestamp: 5n, payerAccountId: 8n, nodeAccountId: null, charged_tx_fee: fee },
      ],
    };

    const [json] = onlyTransaction(setup);

    expect((json?.transfers as Array<{ amount: bigint }>).map((t) => t.amount)).toEqual(amounts);
    expect(json?.node).toBeNull();
  });

  it('shows staking reward rows only when the transaction has a 0.0.800 leg', () => {
    const rewards = [
      { account_id: '0.0.8', amount: 500, consensus_timestamp: 10n },
      { consensus_timestamp: 20n },
    ];
    const transactions = [
      {
        consensus_timestamp: 10n,
        payerAccountId: '0.0.800',
        transfers: [{ account: '0.0.800', amount: -500 }],
      },
      { consensus_timestamp: 20n, payerAccountId: '0.0.9' },
    ];

    const json = onlyTransaction({ stakingRewardTransfers: rewards, transactions });

    expect(json.map((t) => t.staking_reward_transfers)).toEqual([[{ account: '0.0.8', amount: 500n }], []]);
  });

  it('skips history rows and keeps live entities for lookups; applies config and fakeTime', () => {
    const setup = {
      contracts: [{ num: 8001, evm_address: 'aa'.repeat(20), timestamp_range: '[1, 2]' }],
      accounts: [{ num: 1001, alias: 'KGNABD5L', evm_address: 'bb'.repeat(20) }],
      config: { response: { limit: { max: 4, default: 2 } }, query: { bindTimestampRange: true } },
      features: { fakeTime: '2019-08-14T10:50:00Z' },
    };

    const { store, config } = loadFixture(setup);

    expect(store.getEntity(8001n)).toBeUndefined();
    expect(store.findByEvmAddress('bb'.repeat(20), 0n, 0n)?.id).toBe(1001n);
    expect([config.maxLimit, config.defaultLimit, config.bindTimestampRange]).toEqual([4, 25, true]);
    expect(config.now()).toBe(1565779800000000000n);
    expect(loadFixture(setup, { bindTimestampRange: false }).config.bindTimestampRange).toBe(false);
  });
});

describe('bytesInput', () => {
  it.each([
    ['0xabcd', 'abcd'],
    ['ABCDE', 'abcd'],
    ['7', '07'],
    ['hash1', Buffer.from('hash1', 'base64').toString('hex')],
    [[1, 1], '0101'],
    [null, null],
  ])('%j', (input, hex) => {
    const bytes = bytesInput(input);

    expect(bytes === null ? null : Buffer.from(bytes).toString('hex')).toBe(hex);
  });
});
