// Issue 14, items 4 and 5, against a real loopback server: one account's answer trickled a byte at a time
// must not hold up any other account (and must end, logged and metered), and a listing whose links.next never
// ends must stop at its bound, keep its progress, resume on the next poll and stay inside the request budget.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { createRequestBudget } from '../../../src/ledger/request-budget.js';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { createMetrics, type Metrics } from '../../../src/observability/metrics.js';
import { openStateStore, type StateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import type { RecordHandler, TailRecord } from '../../../src/tail/streams/record-handler.js';
import { recordTimestamp } from '../../../src/tail/streams/record-handler.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { counterValue } from '../../fixtures/ledger/client-harness.js';
import { startHostileLedger, type HostileLedger } from '../../fixtures/tail/hostile-ledger.js';

const S = 1_000_000_000n;
const START = 1_700_000_000n * S;
const IDS = ['0.0.100', '0.0.101', '0.0.102'];

let ledger: HostileLedger | undefined;
let client: LedgerClient | undefined;
afterEach(async () => {
  await client?.close();
  await ledger?.close();
});

/** Hands records over into the ledger's event list, so their order against the server's events is known. */
function eventHandler(events: string[]): RecordHandler<readonly TailRecord[]> {
  return {
    prepare: async (batch) => batch,
    apply: (batch) => {
      for (const r of batch) events.push(`handed:${r.account.id}:${recordTimestamp(r)}`);
    },
  };
}

function handed(events: readonly string[], id: string): string[] {
  return events.filter((e) => e.startsWith(`handed:${id}:`));
}

/** Resolves when `check` holds, looking again every 10 ms; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function setUp(tail: Record<string, unknown>, options: { clock?: () => number; totalMs?: number } = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const metrics: Metrics = createMetrics();
  const store: StateStore = openStateStore({ dir: ':memory:' });
  client = createLedgerClient({
    baseUrl: (ledger as HostileLedger).url,
    budget: createRequestBudget({ requestsPerSecond: 50, burst: 5 }),
    timeouts: { bodyMs: 30_000, totalMs: options.totalMs ?? 30_000 },
    retry: { maxAttempts: 1 },
    metrics,
    logger,
  });
  const accounts = watchedAccounts(
    AccountsConfig.parse(IDS.map((id) => ({ id, sources: ['transactions'] }))),
  );
  const tailer = createTailer({
    store,
    source: clientTailSource(client),
    handler: eventHandler((ledger as HostileLedger).events),
    accounts,
    config: TailConfig.parse({ strategy: 'per-account', start: formatTimestamp(START), ...tail }),
    metrics,
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const cursor = (stream: string) =>
    (
      store.db.prepare('SELECT safe FROM tail_cursor WHERE stream = ?').safeIntegers(true).get(stream) as {
        safe: bigint;
      }
    ).safe;
  return { lines, metrics, tailer, cursor };
}

describe('a hostile query service', () => {
  it('a trickled answer ends at its deadline, logged and metered, while every other account is tailed', async () => {
    ledger = await startHostileLedger({ trickleEveryMs: 20 });
    ledger.head = START + 1_000n * S;
    for (const [i, id] of IDS.entries()) ledger.rows.set(id, [START + BigInt(i + 1) * S]);
    ledger.trickle.add('0.0.100');
    const { lines, metrics, tailer } = setUp(
      { poll_interval: '100ms', max_backoff: '1s' },
      { totalMs: 2_000 },
    );
    const controller = new AbortController();
    const events = ledger.events;

    const running = tailer.run(controller.signal);
    await until(() => events.includes('open:0.0.100'));
    // New rows while the trickle is open: only a later poll of 0.0.101 and 0.0.102 can read them.
    ledger.rows.get('0.0.101')?.push(START + 1_001n * S);
    ledger.rows.get('0.0.102')?.push(START + 1_002n * S);
    ledger.head = START + 1_002n * S;
    await until(() => events.includes('closed:0.0.100'));
    ledger.trickle.delete('0.0.100');
    await until(() => handed(events, '0.0.100').length > 0);
    controller.abort();
    await running;

    const at = (e: string) => events.indexOf(e);
    for (const late of ['handed:0.0.101:1700001001.000000000', 'handed:0.0.102:1700001002.000000000']) {
      expect(at(late)).toBeGreaterThan(at('open:0.0.100'));
      expect(at(late)).toBeLessThan(at('closed:0.0.100'));
    }
    expect(at('handed:0.0.100:1700000001.000000000')).toBeGreaterThan(at('closed:0.0.100'));
    const all = events.filter((e) => e.startsWith('handed:'));
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(5);
    const failed = lines.find((l) => l.msg === 'poll failed' && l.stream === 'tx:0.0.100');
    expect(failed?.err).toMatchObject({ type: 'LedgerNetworkError', reason: 'deadline' });
    expect(await counterValue(metrics.requestErrors, { endpoint: 'transactions', reason: 'deadline' })).toBe(
      1,
    );
    expect(await counterValue(metrics.pollFailures, { stream: 'transactions' })).toBe(1);
  });

  it('a poll still running after twice max_poll_duration is stopped, fails and frees its slot', async () => {
    ledger = await startHostileLedger({ trickleEveryMs: 20 });
    ledger.head = START + 1_000n * S;
    for (const [i, id] of IDS.entries()) ledger.rows.set(id, [START + BigInt(i + 1) * S]);
    ledger.trickle.add('0.0.100');
    // The request's own deadline (30 s) is far off: only the poll's hard stop can end it.
    const { lines, metrics, tailer } = setUp({
      poll_interval: '100ms',
      max_poll_duration: '1s',
      concurrency: 1,
    });
    const signal = new AbortController().signal;

    await tailer.round(signal);
    await tailer.settled();
    const report = await tailer.round(signal);

    expect(ledger.events.indexOf('closed:0.0.100')).toBeGreaterThan(ledger.events.indexOf('open:0.0.100'));
    expect(report.failed).toBe(1);
    const failed = lines.find((l) => l.msg === 'poll failed' && l.stream === 'tx:0.0.100');
    expect(String((failed?.err as { message?: string } | undefined)?.message)).toMatch(
      /still running after 2000 ms \(twice tail\.max_poll_duration\)/,
    );
    expect(await counterValue(metrics.pollFailures, { stream: 'transactions' })).toBe(1);
    // With one slot, the other accounts were read once the stuck poll let go of it.
    expect(handed(ledger.events, '0.0.101')).toHaveLength(1);
    expect(handed(ledger.events, '0.0.102')).toHaveLength(1);
  });

  it('an endless listing stops at the page bound, keeps its progress, resumes and stays inside the budget', async () => {
    ledger = await startHostileLedger();
    ledger.head = START + 1_000n * S;
    const rows = Array.from({ length: 8 }, (_, i) => START + BigInt(i + 1) * S);
    ledger.rows.set('0.0.100', [...rows]);
    ledger.rows.set('0.0.101', [START + 20n * S]);
    ledger.endless.add('0.0.100');
    const { lines, metrics, tailer, cursor } = setUp({ max_pages_per_poll: 5 });
    const signal = new AbortController().signal;
    const startedMs = Date.now();

    const first = await tailer.round(signal);
    const afterFirst = cursor('tx:0.0.100');
    const second = await tailer.round(signal);
    const afterSecond = cursor('tx:0.0.100');
    await tailer.round(signal);
    const elapsedS = (Date.now() - startedMs) / 1000;

    // Per round: the head probe, five pages of the endless listing and one page each of 0.0.101 and 0.0.102.
    expect([first.pages, second.pages]).toEqual([8, 8]);
    expect(ledger.requestTimes).toHaveLength(24);
    expect(ledger.requestTimes.length).toBeLessThanOrEqual(5 + 50 * elapsedS);
    expect(afterFirst).toBe(rows[4]);
    expect(afterSecond).toBe(rows[7]);
    const keys = handed(ledger.events, '0.0.100');
    expect(keys).toEqual(rows.map((ts) => `handed:0.0.100:${formatTimestamp(ts)}`));
    expect(handed(ledger.events, '0.0.101')).toHaveLength(1);
    expect(await counterValue(metrics.pollTruncated, { reason: 'pages' })).toBe(3);
    expect(lines.filter((l) => l.stream === 'tx:0.0.100' && l.reason === 'pages')).toHaveLength(3);
  });

  it('an endless listing also stops at the time bound (the clock is the tailer’s)', async () => {
    ledger = await startHostileLedger({
      onRequest: (url) => {
        if (url.searchParams.get('account.id') === '0.0.100') now += 2_000;
      },
    });
    let now = 1_800_000_000_000;
    ledger.head = START + 1_000n * S;
    ledger.rows.set('0.0.100', [START + S]);
    ledger.endless.add('0.0.100');
    const { lines, metrics, tailer, cursor } = setUp({ max_poll_duration: '5s' }, { clock: () => now });

    await tailer.round(new AbortController().signal);

    const walked = ledger.requestTimes.length - 1 - 2; // minus the head probe and the two quiet accounts
    expect(walked).toBe(3);
    expect(cursor('tx:0.0.100')).toBe(START + S);
    expect(await counterValue(metrics.pollTruncated, { reason: 'time' })).toBe(1);
    expect(lines.some((l) => l.stream === 'tx:0.0.100' && l.reason === 'time' && l.pages === 3)).toBe(true);
  });
});
