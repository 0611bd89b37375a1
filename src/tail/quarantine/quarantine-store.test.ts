// Unreadable records are kept, not skipped: once per stream and record however often a re-scan reads them,
// with their raw text and position, counted once and reported once; the rest of the page goes on.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../ledger/page.js';
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { createMetrics } from '../../observability/metrics.js';
import { openStateStore } from '../../state/store.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import { createQuarantine, MAX_QUARANTINED, quarantineKey } from './quarantine-store.js';
import type { RecordHandler, TailRecord } from '../streams/record-handler.js';
import type { TailPage, TailSource } from '../source/listing-source.js';
import { createTailer } from '../tailer.js';

const NOW_MS = 1_700_000_000_000;
const T0 = BigInt(NOW_MS) * 1_000_000n - 60_000_000_000n;

function wire(ts: bigint, account: string, change: Record<string, unknown> = {}) {
  return {
    charged_tx_fee: 1,
    consensus_timestamp: formatTimestamp(ts),
    memo_base64: '',
    name: 'CRYPTOTRANSFER',
    result: 'SUCCESS',
    transaction_id: `${account}-1-000000000`,
    transfers: [{ account, amount: -5 }],
    ...change,
  };
}

/** A ledger serving one page (what the real client yields: records, invalid, next) to every listing. */
function ledger(items: unknown[]): { source: TailSource; reads: number } {
  const state = { reads: 0, source: undefined as unknown as TailSource };
  async function* pages(url: string): AsyncGenerator<TailPage<Transaction>> {
    state.reads += 1;
    yield parsePage('transactions', url, { transactions: items, links: { next: null } });
  }
  async function* noRewards(): AsyncGenerator<TailPage<StakingReward>> {}
  state.source = {
    transactions: (q) =>
      pages(`/api/v1/transactions?account.id=${q.accountId ?? ''}&timestamp=gt:${q.after}`),
    rewards: () => noRewards(),
  };
  return state;
}

function collector(): { handler: RecordHandler<readonly TailRecord[]>; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    handler: {
      prepare: async (batch) => batch,
      apply: (batch) =>
        batch.forEach((r) => seen.push(r.source === 'transactions' ? r.record.consensus_timestamp : '')),
    },
  };
}

function setup(items: unknown[], strategy: 'per-account' | 'global') {
  const store = openStateStore({ dir: ':memory:' });
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const metrics = createMetrics();
  const src = ledger(items);
  const sink = collector();
  const accounts = watchedAccounts(AccountsConfig.parse([{ id: '0.0.1003', sources: ['transactions'] }]));
  const tailer = createTailer({
    store,
    source: src.source,
    handler: sink.handler,
    accounts,
    config: TailConfig.parse({ strategy, overlap: '120s', start: formatTimestamp(T0) }),
    metrics,
    logger,
    clock: () => NOW_MS,
  });
  return { store, lines, metrics, src, sink, tailer };
}

const BAD = wire(T0 + 2n, '0.0.1003', { memo_base64: { text: 'x' } });
const ITEMS = [wire(T0 + 1n, '0.0.1003'), BAD, wire(T0 + 3n, '0.0.1003')];

describe.each(['per-account', 'global'] as const)('quarantine (%s)', (strategy) => {
  it('keeps an unreadable record once across re-scans, says so once, and delivers the rest', async () => {
    const t = setup(ITEMS, strategy);
    const signal = new AbortController().signal;

    for (let i = 0; i < 4; i++) await t.tailer.round(signal);

    const kept = createQuarantine(t.store).list();
    expect(t.src.reads).toBeGreaterThan(2);
    expect(kept).toEqual([
      expect.objectContaining({
        stream: strategy === 'global' ? 'global' : 'tx:0.0.1003',
        key: formatTimestamp(T0 + 2n),
        accounts: ['0.0.1003'],
        timestamp: formatTimestamp(T0 + 2n),
        transactionId: '0.0.1003-1-000000000',
        field: 'memo_base64',
        path: 'transactions[1].memo_base64',
        index: 1,
        pageUrl: expect.stringContaining('/api/v1/transactions') as string,
        raw: expect.stringContaining('"memo_base64":{"text":"x"}') as string,
        quarantinedAt: NOW_MS,
      }),
    ]);
    expect(t.lines.filter((l) => l.includes('"msg":"ledger record quarantined"'))).toHaveLength(1);
    expect(
      (await t.metrics.quarantined.get()).values.find((v) => v.labels.source === 'transactions')?.value,
    ).toBe(1);
    expect(t.sink.seen).toEqual([formatTimestamp(T0 + 1n), formatTimestamp(T0 + 3n)]);
  });
});

describe('the quarantine table', () => {
  it('survives a restart: a new process finds the record already kept', () => {
    const store = openStateStore({ dir: ':memory:' });
    const record = {
      stream: 'tx:0.0.1003',
      source: 'transactions' as const,
      accounts: ['0.0.1003'],
      timestamp: null,
      transactionId: null,
      path: 'transactions[0]',
      field: '',
      reason: 'expected an object',
      pageUrl: '/api/v1/transactions',
      index: 0,
      raw: '"not a record"',
    };

    const first = createQuarantine(store).add(record);
    const again = createQuarantine(store).add(record);

    expect([first, again]).toEqual(['added', 'known']);
    expect(createQuarantine(store).list()[0]?.key).toBe(quarantineKey(record));
    expect(quarantineKey(record)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('stops keeping records at its bound', () => {
    const store = openStateStore({ dir: ':memory:' });
    const q = createQuarantine(store);
    const insert = store.db.prepare(
      `INSERT INTO tail_quarantine VALUES (?, ?, 'transactions', '', NULL, NULL, 'p', 'f', 'r', 'u', 0, 'raw', 0)`,
    );
    store.transaction(() => {
      for (let i = 0; i < MAX_QUARANTINED; i++) insert.run('global', String(i));
    });

    const outcome = q.add({ ...q.list(1)[0]!, key: undefined, stream: 'tx:1', timestamp: 'new' } as never);

    expect(outcome).toBe('full');
    expect(q.count()).toBe(MAX_QUARANTINED);
  });

  it('releases a record', () => {
    const store = openStateStore({ dir: ':memory:' });
    const q = createQuarantine(store);
    q.add({
      stream: 'global',
      source: 'transactions',
      accounts: [],
      timestamp: '1.000000001',
      transactionId: null,
      path: 'p',
      field: 'f',
      reason: 'r',
      pageUrl: 'u',
      index: 0,
      raw: '{}',
    });

    expect([q.remove('global', '1.000000001'), q.remove('global', '1.000000001')]).toEqual([true, false]);
    expect(q.count()).toBe(0);
  });
});
