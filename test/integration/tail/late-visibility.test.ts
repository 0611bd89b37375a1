// The reason the tailer exists: rows that become visible after later rows (docs/ledger-api.md §17) are neither missed nor
// handed over twice, per account, through the global tail, and across strategy switches; and without the
// overlap re-scan the same run does miss them.
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { openStateStore, type StateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import { compare, groundTruth, recordingHandler, watchEntries } from './harness.js';
import { startTailLedger, type TailLedger } from './living-ledger.js';

const START_MS = 1_700_000_000_000;
const START = BigInt(START_MS) * 1_000_000n;

let ledger: TailLedger | undefined;
let client: LedgerClient | undefined;
let store: StateStore | undefined;

afterEach(async () => {
  await client?.close();
  await ledger?.close();
  store?.close();
});

async function arrange(seed: string) {
  ledger = await startTailLedger({
    seed,
    accounts: 60,
    tps: 20,
    lateFraction: 0.05,
    delayMs: 8_000,
    startMs: START_MS,
  });
  client = createLedgerClient({ baseUrl: ledger.url, requestsPerSecond: 1e6 });
  store = openStateStore({ dir: ':memory:' });
  return {
    ledger,
    client,
    store,
    handler: recordingHandler(),
    accounts: watchedAccounts(watchEntries(ledger.accounts, 12, 4)),
  };
}

/** `rounds` polls 2 s apart, then a minute of quiet so every held-back row is out, then three more rounds. */
async function drive(ledger: TailLedger, rounds: number, round: (i: number) => Promise<unknown>) {
  for (let i = 0; i < rounds; i++) {
    ledger.advance(2_000);
    await round(i);
  }
  ledger.advance(60_000);
  for (let i = 0; i < 3; i++) await round(rounds + i);
}

// Held-back rows trail newer visible ones by less than delay + one record file = 10 s: the default overlap.
function config(strategy: 'per-account' | 'global', overlap = '10s') {
  return TailConfig.parse({ strategy, overlap, start: String(START_MS / 1000) });
}

/** A tailer on the arranged ledger and store; successive tailers share the store, as after a restart. */
function tailerOn(
  a: Awaited<ReturnType<typeof arrange>>,
  strategy: 'per-account' | 'global',
  overlap?: string,
) {
  return createTailer({
    store: a.store,
    source: clientTailSource(a.client),
    handler: a.handler,
    accounts: a.accounts,
    config: config(strategy, overlap),
    clock: a.ledger.now,
  });
}

describe('tailing under the late-visibility fault', () => {
  it.each(['per-account', 'global'] as const)(
    '%s: zero missed and zero duplicated records over a 400-second run',
    async (strategy) => {
      const arranged = await arrange(`late-${strategy}`);
      const { ledger, client, handler, accounts } = arranged;
      const tailer = tailerOn(arranged, strategy);
      const signal = new AbortController().signal;

      await drive(ledger, 200, () => tailer.round(signal));
      const truth = await groundTruth(client, accounts, START);

      expect(ledger.heldBack()).toBeGreaterThan(100);
      expect(truth.size).toBeGreaterThan(1000);
      expect([...truth].some((k) => k.startsWith('rewards:'))).toBe(true);
      expect(compare(handler.keys, truth)).toEqual({ missing: [], duplicated: [], unexpected: [] });
    },
  );

  it('switching strategy every 20 polls (new tailer on the same store) hands cursors over cleanly', async () => {
    const arranged = await arrange('late-switch');
    const { ledger, client, handler, accounts } = arranged;
    const signal = new AbortController().signal;
    let tailer = tailerOn(arranged, 'per-account');

    await drive(ledger, 200, async (i) => {
      if (i % 20 === 0) {
        const strategy = (i / 20) % 2 === 0 ? 'per-account' : 'global';
        tailer = tailerOn(arranged, strategy);
      }
      await tailer.round(signal);
    });
    const truth = await groundTruth(client, accounts, START);

    expect(compare(handler.keys, truth)).toEqual({ missing: [], duplicated: [], unexpected: [] });
  });

  it.each(['per-account', 'global'] as const)(
    '%s without the overlap re-scan misses held-back rows (the check above can fail)',
    async (strategy) => {
      const arranged = await arrange(`late-${strategy}`);
      const { ledger, client, handler, accounts } = arranged;
      const tailer = tailerOn(arranged, strategy, '0ms');
      const signal = new AbortController().signal;

      await drive(ledger, 200, () => tailer.round(signal));
      const truth = await groundTruth(client, accounts, START);

      const result = compare(handler.keys, truth);
      expect(result.missing.length).toBeGreaterThan(0);
      expect(result.duplicated).toEqual([]);
    },
  );
});
