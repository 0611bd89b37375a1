// The global tail reads staking rewards from each transaction's staking_reward_transfers instead of the
// rewards endpoint. Both must give the same payouts: account, timestamp and amount.
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { openStateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import type { RecordHandler, TailRecord } from '../../../src/tail/streams/record-handler.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { startTailLedger, type TailLedger } from './living-ledger.js';

const START_MS = 1_700_000_000_000;

let ledger: TailLedger | undefined;
let client: LedgerClient | undefined;

afterEach(async () => {
  await client?.close();
  await ledger?.close();
});

describe('global tail rewards', () => {
  it('are the payouts the rewards endpoint lists, for every staked watched account', async () => {
    ledger = await startTailLedger({
      seed: 'rewards',
      accounts: 40,
      tps: 20,
      lateFraction: 0,
      delayMs: 0,
      startMs: START_MS,
    });
    client = createLedgerClient({ baseUrl: ledger.url, requestsPerSecond: 1e6 });
    const staked = ledger.accounts.filter((a) => a.staked);
    const accounts = watchedAccounts(
      AccountsConfig.parse(staked.map((a) => ({ id: a.num, sources: ['rewards'] }))),
    );
    const payouts: string[] = [];
    const handler: RecordHandler<readonly TailRecord[]> = {
      prepare: async (batch) => batch,
      apply: (batch) => {
        for (const r of batch)
          if (r.source === 'rewards')
            payouts.push(`${r.record.account_id}@${r.record.timestamp}=${r.record.amount}`);
      },
    };
    const tailer = createTailer({
      store: openStateStore({ dir: ':memory:' }),
      source: clientTailSource(client),
      handler,
      accounts,
      config: TailConfig.parse({ strategy: 'global', start: String(START_MS / 1000) }),
      clock: ledger.now,
    });
    const signal = new AbortController().signal;

    for (let i = 0; i < 150; i++) {
      ledger.advance(2_000);
      await tailer.round(signal);
    }
    ledger.advance(30_000);
    await tailer.round(signal);
    const listed: string[] = [];
    const timestamp = { op: 'gt' as const, value: formatTimestamp(BigInt(START_MS) * 1_000_000n) };
    for (const account of accounts)
      for await (const page of client.listRewards(account.id, { timestamp, order: 'asc', limit: 100 }))
        for (const r of page.records) listed.push(`${r.account_id}@${r.timestamp}=${r.amount}`);

    expect(listed.length).toBeGreaterThan(20);
    expect(payouts.sort()).toEqual(listed.sort());
  });
});
