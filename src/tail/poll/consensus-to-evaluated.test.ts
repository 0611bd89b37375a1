// The end-to-end staleness histogram: each record handed to the rules is observed once, as the tailer's clock at
// the commit minus its consensus timestamp; a re-read that is dropped as seen is not observed again.
import { describe, expect, it } from 'vitest';
import { transactionAt } from '../../../test/fixtures/tail/transactions.js';
import { createMetrics } from '../../observability/metrics.js';
import { openStateStore } from '../../state/store.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import type { RecordHandler } from '../streams/record-handler.js';
import type { TailPage, TailSource } from '../source/listing-source.js';
import { createTailer } from '../tailer.js';

const NOW_MS = 1_700_000_010_000;
const S = 1_000_000_000n;

describe('consensus_to_evaluated_seconds', () => {
  it('observes now − consensus time once per record handed over', async () => {
    const records = [
      transactionAt(1_700_000_000n * S, '0.0.100'), // 10 s old at the commit
      transactionAt(1_700_000_008n * S + 500_000_000n, '0.0.100'), // 1.5 s old
    ];
    async function* page<T>(items: T[]): AsyncGenerator<TailPage<T>> {
      yield { url: 'page', records: items, next: null };
    }
    const source: TailSource = {
      transactions: (q) => page(q.accountId ? records : []),
      rewards: () => page([]),
    };
    const handed: number[] = [];
    const handler: RecordHandler<number> = {
      prepare: async (batch) => batch.length,
      apply: (n) => void handed.push(n),
    };
    const metrics = createMetrics();
    const tailer = createTailer({
      store: openStateStore({ dir: ':memory:' }),
      source,
      handler,
      accounts: watchedAccounts(AccountsConfig.parse([{ id: 100, sources: ['transactions'] }])),
      config: TailConfig.parse({ strategy: 'per-account', start: '1699999990' }),
      clock: () => NOW_MS,
      metrics,
    });

    await tailer.round(new AbortController().signal);
    await tailer.round(new AbortController().signal); // the same page again: dropped as seen

    const histogram = (await metrics.consensusToEvaluated.get()).values;
    const count = histogram.find((v) => v.metricName?.endsWith('_count'))?.value;
    const sum = histogram.find((v) => v.metricName?.endsWith('_sum'))?.value;
    const under2s = histogram.find((v) => v.metricName?.endsWith('_bucket') && v.labels.le === 2)?.value;
    expect(handed).toEqual([2]);
    expect(count).toBe(2);
    expect(sum).toBeCloseTo(11.5, 6);
    expect(under2s).toBe(1);
  });
});
