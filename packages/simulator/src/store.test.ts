import { describe, expect, it } from 'vitest';
import { sampleTransactionRow } from './sample-rows.js';
import { SimulatorStore, type ScanOptions } from './store.js';
import { makeSimTransaction } from './transaction-json.js';

const ALL: ScanOptions = { lower: null, upper: null, order: 'asc', limit: 100, nowNs: 1_000n };

function stamps(store: SimulatorStore, options: Partial<ScanOptions> = {}): bigint[] {
  return store.scanTransactions({ ...ALL, ...options }, () => true).map((s) => s.tx.consensusTimestamp);
}

describe('SimulatorStore', () => {
  it('keeps transactions ordered by consensus timestamp whatever the insertion order', () => {
    const store = new SimulatorStore();

    for (const ts of [30n, 10n, 20n]) store.addTransaction(makeSimTransaction(sampleTransactionRow(ts, 8n)));

    expect(stamps(store)).toEqual([10n, 20n, 30n]);
    expect(stamps(store, { order: 'desc', limit: 2 })).toEqual([30n, 20n]);
    expect(stamps(store, { lower: 15n, upper: 30n })).toEqual([20n, 30n]);
  });

  it('rejects a second transaction at the same consensus timestamp', () => {
    const store = new SimulatorStore();
    store.addTransaction(makeSimTransaction(sampleTransactionRow(10n, 8n)));

    expect(() => store.addTransaction(makeSimTransaction(sampleTransactionRow(10n, 9n)))).toThrow(
      /duplicate/,
    );
  });

  it('serves records only below the watermark and once their visibleAt has passed', () => {
    const store = new SimulatorStore();
    store.addTransaction(makeSimTransaction(sampleTransactionRow(10n, 8n)));
    store.addTransaction(makeSimTransaction(sampleTransactionRow(20n, 8n, { visibleAt: 500n })));
    store.addTransaction(makeSimTransaction(sampleTransactionRow(30n, 8n)));

    store.visibleUntil = 25n;

    expect(stamps(store, { nowNs: 499n })).toEqual([10n]);
    expect(stamps(store, { nowNs: 500n })).toEqual([10n, 20n]);
    expect(store.firstTransactionTimestamp(0n)).toBe(10n);
  });

  it('indexes the payer, HBAR and token rows but not a synthetic child for its payer', () => {
    const store = new SimulatorStore();
    const child = sampleTransactionRow(20n, 8n, { nonce: 1, type: 22, transfers: [] });
    const token = sampleTransactionRow(30n, 10n, {
      tokenTransfers: [{ tokenId: 5n, account: 8n, amount: 1n }],
    });
    for (const row of [sampleTransactionRow(10n, 8n), child, token])
      store.addTransaction(makeSimTransaction(row));

    expect(stamps(store, { accounts: [8n] })).toEqual([10n, 30n]);
    expect(stamps(store, { accounts: [98n, 10n] })).toEqual([10n, 30n]);
  });

  it('resolves aliases and EVM addresses among live entities only', () => {
    const store = new SimulatorStore();
    store.addEntity({
      id: '0.0.1001',
      alias: 'KGNABD5L',
      evmAddress: '0xEBB9A1BE370150759408CD7AF48E9EDA2B8EAD57',
    });
    store.addEntity({ id: 1002n, evmAddress: 'aa'.repeat(20), deleted: true });

    expect(store.findByEvmAddress('ebb9a1be370150759408cd7af48e9eda2b8ead57', 0n, 0n)?.id).toBe(1001n);
    expect(store.findByAlias('519a008fab', 0n, 0n)?.id).toBe(1001n);
    expect(store.findByEvmAddress('aa'.repeat(20), 0n, 0n)).toBeUndefined();
    expect(store.getEntity(1002n)?.deleted).toBe(true);
  });

  it('prunes every record below a timestamp from all indexes, and keeps the rest served', () => {
    const store = new SimulatorStore();
    for (const ts of [10n, 20n, 30n]) {
      store.addTransaction(makeSimTransaction(sampleTransactionRow(ts, 8n)));
      store.addReward({ accountId: 8n, amount: 1n, timestamp: ts });
      store.addContractActions([{ consensusTimestamp: ts, payer: 8n, index: 0, json: { index: 0 } }]);
      store.addContractTransactionHash('ab'.repeat(32), { consensusTimestamp: ts, payer: 8n });
    }

    const dropped = store.pruneBefore(20n);

    expect(dropped).toBe(1);
    expect(store.transactionCount).toBe(2);
    expect(stamps(store)).toEqual([20n, 30n]);
    expect(stamps(store, { accounts: [8n, 98n] })).toEqual([20n, 30n]);
    expect(store.rewardsOf(8n, 0n).map((r) => r.timestamp)).toEqual([20n, 30n]);
    expect(store.actionsOf(10n, 8n, 0n)).toEqual([]);
    expect(store.actionsOf(20n, 8n, 0n)).toHaveLength(1);
    expect(store.resolveHash('ab'.repeat(32), 0n)?.consensusTimestamp).toBe(20n);
    expect(store.resolveTransactionId(8n, 9n, 0n)).toBeUndefined();
    expect(store.resolveTransactionId(8n, 19n, 0n)?.consensusTimestamp).toBe(20n);
    expect(store.firstTransactionTimestamp(0n)).toBe(20n);
    expect(store.nthNewestTimestamp(2)).toBe(20n);
  });

  it('serializes a transaction on first serve, once', () => {
    const store = new SimulatorStore();
    const tx = makeSimTransaction(sampleTransactionRow(10n, 8n));
    store.addTransaction(tx);
    const [stored] = store.scanTransactions(ALL, () => true);

    const before = stored?.bytes;
    const first = store.transactionBytes(stored!);
    const second = store.transactionBytes(stored!);

    expect(before).toBeNull();
    expect(second).toBe(first);
    expect(JSON.parse(first.toString('utf8'))).toMatchObject({ consensus_timestamp: '0.000000010' });
  });
});
