// handOver: the one transaction per page, and the handler's `committed` hook after it (never after a rollback).
import { describe, expect, it } from 'vitest';
import { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { openStateStore } from '../../state/store.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { FutureRecords } from '../head/future-records.js';
import { HeadTracker } from '../head/head-tracker.js';
import type { RecordHandler } from '../streams/record-handler.js';
import { type TailContext } from './poll-context.js';
import { type Delivery, handOver } from './hand-over.js';
import { CursorStore } from '../cursor/cursor-store.js';

const [ACCOUNT] = watchedAccounts(AccountsConfig.parse([{ id: 1003 }]));
const record = Transaction.parse({
  charged_tx_fee: 1,
  consensus_timestamp: '1700000000.000000001',
  name: 'CRYPTOTRANSFER',
  result: 'SUCCESS',
  transaction_id: '0.0.1003-1-0',
});
const delivery: Delivery = {
  stream: 'tx:0.0.1003',
  ts: 1_700_000_000_000_000_001n,
  item: { source: 'transactions', record, account: ACCOUNT! },
};
const signal = new AbortController().signal;

function setup(failApply: boolean, failTailerWrite = false) {
  const store = openStateStore({ dir: ':memory:' });
  const events: string[] = [];
  const handler: RecordHandler<string> = {
    prepare: async () => 'page',
    apply: (p) => {
      events.push(`apply ${p}`);
      if (failApply) throw new Error('rule engine failed');
    },
    committed: (p) => events.push(`committed ${p} in transaction: ${String(store.db.inTransaction)}`),
    rolledBack: (p) => events.push(`rolled back ${p} in transaction: ${String(store.db.inTransaction)}`),
  };
  const state = new CursorStore(store);
  if (failTailerWrite)
    state.markSeen = () => {
      throw new Error('disk full');
    };
  const ctx: TailContext = {
    state,
    source: undefined as never,
    handler,
    head: new HeadTracker(),
    future: new FutureRecords({ clock: Date.now, maxClockSkewMs: 300_000 }),
    overlapNs: 0n,
    pageLimit: 100,
  };
  return { ctx, events, state };
}

describe('handOver', () => {
  it('calls committed once, after the transaction committed', async () => {
    const { ctx, events, state } = setup(false);

    await handOver(ctx, [delivery], signal);

    expect(events).toEqual(['apply page', 'committed page in transaction: false']);
    expect(state.isSeen(delivery.stream, delivery.ts)).toBe(true);
  });

  it('does not call committed when the page rolled back', async () => {
    const { ctx, events, state } = setup(true);

    const result = handOver(ctx, [delivery], signal);

    await expect(result).rejects.toThrow('rule engine failed');
    expect(events).toEqual(['apply page', 'rolled back page in transaction: false']);
    expect(state.isSeen(delivery.stream, delivery.ts)).toBe(false);
  });

  it('tells the handler its apply was rolled back when the tailer write after it fails', async () => {
    const { ctx, events } = setup(false, true);

    const result = handOver(ctx, [delivery], signal);

    await expect(result).rejects.toThrow('disk full');
    expect(events).toEqual(['apply page', 'rolled back page in transaction: false']);
  });
});
