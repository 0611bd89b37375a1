// A wall-clock step, either way, never stops the tail: the loop's waits, the backoffs and the sweep schedule run
// on the monotonic clock, and the daemon's `now` (clock-watch.ts) does not go back, so no cursor stalls behind the
// stepped clock. On every strategy, against an in-memory ledger whose rows carry the real time while the test
// steps the host's wall clock back an hour and forward an hour.
import { describe, expect, it } from 'vitest';
import { transactionAt } from '../../../test/fixtures/tail/transactions.js';
import type { StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import { parseTimestamp, timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { openStateStore } from '../../state/store.js';
import { createClockWatch } from './clock-watch.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { TailConfig } from '../tail-config.js';
import type { RecordHandler, TailRecord } from '../streams/record-handler.js';
import type { TailPage, TailSource, TransactionQuery } from '../source/listing-source.js';
import { createTailer } from '../tailer.js';

const HOUR = 3_600_000;
const IDS = ['0.0.100', '0.0.101'];

/** Real time (`real`), the host's wall clock (`real + offset`) and the monotonic clock. */
function world() {
  const w = {
    ...{ real: 1_700_000_000_000, offset: 0, mono: 0, rows: [] as Transaction[], failNext: 0 },
    /** Applied at the next request: the step lands inside a round, between its start and its wait. */
    step: undefined as number | undefined,
  };
  async function* one<T>(records: T[]): AsyncGenerator<TailPage<T>> {
    await new Promise((resolve) => setImmediate(resolve));
    yield { url: 'memory', records, next: null };
  }
  const source: TailSource = {
    transactions(q: TransactionQuery) {
      if (w.step !== undefined) [w.offset, w.step] = [w.step, undefined];
      if (w.failNext > 0) {
        w.failNext -= 1;
        throw new Error('service down');
      }
      const after = parseTimestamp(q.after);
      const upTo = q.upTo === undefined ? undefined : parseTimestamp(q.upTo);
      const rows = w.rows.filter((tx) => {
        const ts = parseTimestamp(tx.consensus_timestamp);
        const mine = q.accountId === undefined || tx.transfers.some((t) => t.account === q.accountId);
        return mine && ts > after && (upTo === undefined || ts <= upTo);
      });
      rows.sort((a, b) => (a.consensus_timestamp < b.consensus_timestamp ? -1 : 1));
      if (q.order === 'desc') rows.reverse();
      return one(rows.slice(0, q.limit));
    },
    rewards: () => one<StakingReward>([]),
  };
  return { w, source };
}

const STRATEGIES = [
  { strategy: 'per-account' },
  { strategy: 'global', global_mode: 'immediate' },
  { strategy: 'global', global_mode: 'settled' },
  { strategy: 'auto' },
];
// The daemon's `now` (never going back), and the raw wall clock: the timers must not depend on either.
const CASES = STRATEGIES.flatMap((tail) => [
  { tail, clock: 'daemon' },
  { tail, clock: 'raw wall' },
]);

describe('a wall-clock step', () => {
  it.each(CASES)('never stops the tail, either way (%o)', async ({ tail, clock }) => {
    const { w, source } = world();
    const got: string[] = [];
    const handler: RecordHandler<readonly TailRecord[]> = {
      prepare: async (batch) => batch,
      apply: (batch) => void got.push(...batch.map((r) => (r.record as Transaction).consensus_timestamp)),
    };
    const watch = createClockWatch({ wall: () => w.real + w.offset, monotonic: () => w.mono });
    // The watch sees every step only when something reads it: the raw-wall case reads it once a round.
    const read = () => void watch.now();
    const controller = new AbortController();
    const sleeps: number[] = [];
    const added: string[] = [];
    let rounds = 0;
    const accounts = watchedAccounts(
      AccountsConfig.parse(IDS.map((id) => ({ id, sources: ['transactions'] }))),
    );
    const tailer = createTailer({
      ...{ store: openStateStore({ dir: ':memory:' }), source, handler, accounts },
      config: TailConfig.parse({ overlap: '2s', sweep_interval: '2s', poll_interval: '1s', ...tail }),
      ...{ clock: clock === 'daemon' ? watch.now : () => w.real + w.offset, monotonic: watch.monotonic },
      ...{ random: () => 0.5, pageLimit: 1000 },
      // Each sleep is time passing: a row for each account (and one unwatched) every second of it.
      sleep: async (ms) => {
        sleeps.push(ms);
        rounds += 1;
        for (let passed = 0; passed < ms; passed += 1000) {
          w.real += 1000;
          w.mono += 1000;
          const now = timestampFromMillis(w.real);
          for (const [i, id] of IDS.entries()) {
            const tx = transactionAt(now - BigInt(100 + i) * 1_000_000n, id);
            w.rows.push(tx);
            added.push(tx.consensus_timestamp);
          }
          w.rows.push(transactionAt(now - 50_000_000n, '0.0.999'));
        }
        if (rounds === 10) w.step = -HOUR; // the wall clock steps back an hour…
        if (rounds === 20) w.failNext = 3; // …a few polls fail under it (backoffs)…
        if (rounds === 30) w.step = 0; // …and it comes back
        if (rounds === 40) w.step = HOUR; // then forward an hour
        if (rounds === 50) w.step = 0;
        if (rounds === 60) controller.abort();
        read();
      },
    });

    await tailer.run(controller.signal);
    // Settled reads hand a row over once it is overlap behind the head: a few quiet rounds bring the last ones.
    for (let i = 0; i < 4; i++) {
      w.real += 1000;
      w.mono += 1000;
      w.rows.push(transactionAt(timestampFromMillis(w.real), '0.0.999'));
      await tailer.round(new AbortController().signal);
    }

    expect(rounds).toBe(60);
    // No wait longer than one interval (± jitter): before, a backward step made the loop sleep for the step.
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(1100);
    expect(watch.steps).toBe(4);
    for (const ts of added) expect(got.filter((g) => g === ts)).toHaveLength(1);
  });
});
