// A caller-given pushdown filter: sent as query parameters per account, applied locally by the global tail,
// and both hand over exactly what the service returns for the filtered query.
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { openStateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { type Pushdown } from '../../../src/accounts/pushdown.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { compare, recordingHandler } from './harness.js';
import { startTailLedger, type TailLedger } from './living-ledger.js';

const START_MS = 1_700_000_000_000;
const PUSHDOWN: Pushdown = { result: 'fail' };

let ledger: TailLedger | undefined;
let client: LedgerClient | undefined;

afterEach(async () => {
  await client?.close();
  await ledger?.close();
});

describe('pushdown filters', () => {
  it.each(['per-account', 'global'] as const)('%s hands over only the filtered records', async (strategy) => {
    ledger = await startTailLedger({
      seed: 'push',
      accounts: 30,
      tps: 20,
      lateFraction: 0.05,
      delayMs: 8_000,
      startMs: START_MS,
    });
    client = createLedgerClient({ baseUrl: ledger.url, requestsPerSecond: 1e6 });
    const accounts = watchedAccounts(
      AccountsConfig.parse(
        ledger.accounts.slice(0, 10).map((a) => ({ id: a.num, sources: ['transactions'] })),
      ),
    );
    const handler = recordingHandler();
    const tailer = createTailer({
      store: openStateStore({ dir: ':memory:' }),
      source: clientTailSource(client),
      handler,
      accounts,
      pushdown: () => PUSHDOWN,
      config: TailConfig.parse({ strategy, start: String(START_MS / 1000) }),
      clock: ledger.now,
    });
    const signal = new AbortController().signal;

    for (let i = 0; i < 100; i++) {
      ledger.advance(2_000);
      await tailer.round(signal);
    }
    ledger.advance(30_000);
    await tailer.round(signal);
    const truth = new Set<string>();
    const timestamp = { op: 'gt' as const, value: formatTimestamp(BigInt(START_MS) * 1_000_000n) };
    for (const a of accounts)
      for await (const page of client.listTransactions({
        accountId: a.id,
        timestamp,
        order: 'asc',
        limit: 100,
        result: 'fail',
      }))
        for (const tx of page.records) truth.add(`transactions:${a.id}:${tx.consensus_timestamp}`);

    expect(truth.size).toBeGreaterThan(5);
    expect(compare(handler.keys, truth)).toEqual({ missing: [], duplicated: [], unexpected: [] });
  });
});
