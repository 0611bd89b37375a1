// The global tail's one page of read-ahead (read-ahead.ts) against a real loopback server and the real ledger
// client: page N+1 is requested while page N is handed over, never more than one page ahead, never past the
// poll's bound, and an error of page N+1 surfaces after page N was committed.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, tx, type Harness } from '../../../test/fixtures/ledger/client-harness.js';
import { sendJson } from '../../../test/fixtures/ledger/http-server.js';
import { openStateStore } from '../../state/store.js';
import { clientTailSource } from '../source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { startGlobal } from '../strategy/strategy-cursors.js';
import { FutureRecords } from '../head/future-records.js';
import { globalIndex } from '../global/global-index.js';
import { createGlobalTail } from '../global/global-tail.js';
import { HeadTracker } from '../head/head-tracker.js';
import type { RecordHandler, TailRecord } from '../streams/record-handler.js';
import { accountStreams } from '../streams/watch-streams.js';
import { GLOBAL_STREAM } from '../streams/kinds/global-transactions/global-transactions.js';
import type { TailContext } from './poll-context.js';
import { CursorStore } from '../cursor/cursor-store.js';

const PAGES = 6;
const signal = new AbortController().signal;
/** How long a handler waits for the next request to arrive before it goes on without it (a bound, not a figure). */
const WAIT_BOUND_MS = 5_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Page i (0-based) holds one transaction at second i + 1 and links to page i + 1 until the last. */
function pageOf(url: string): number {
  return Number(new URL(url, 'http://x').searchParams.get('p') ?? '0');
}

interface Ledger {
  /** Requests that arrived, in order, with the pages committed when each arrived. */
  readonly arrivals: { readonly page: number; readonly committedBefore: number }[];
  /** Resolves once the request for `page` arrived (or the wait's bound passed). */
  arrived(page: number): Promise<boolean>;
  /** Pages whose requests are held open until the client gives up on them. */
  readonly hold: Set<number>;
  /** Pages answered with HTTP 500. */
  readonly fail: Set<number>;
  committed: number;
}

async function ledger(): Promise<Ledger> {
  const waiters = new Map<number, () => void>();
  const state: Ledger = {
    arrivals: [],
    hold: new Set(),
    fail: new Set(),
    committed: 0,
    arrived: (page) =>
      state.arrivals.some((a) => a.page === page)
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(false), WAIT_BOUND_MS);
            waiters.set(page, () => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
  };
  h = await harness(
    (req, res: ServerResponse) => {
      const page = pageOf(req.url ?? '');
      state.arrivals.push({ page, committedBefore: state.committed });
      waiters.get(page)?.();
      if (state.hold.has(page)) return;
      if (state.fail.has(page)) return sendJson(res, 500, { _status: { messages: [{ message: 'down' }] } });
      const next = page + 1 < PAGES ? `/api/v1/transactions?order=asc&limit=1&p=${page + 1}` : null;
      sendJson(res, 200, { transactions: [tx(page + 1)], links: { next } });
    },
    { retry: { maxAttempts: 1 } },
  );
  return state;
}

function setup(
  l: Ledger,
  opts: { maxPages?: number; clock?: () => number; whilePrepared?: (n: number) => Promise<void> },
) {
  const store = openStateStore({ dir: ':memory:' });
  const state = new CursorStore(store);
  const handed: number[] = [];
  const handler: RecordHandler<readonly TailRecord[]> = {
    prepare: async (batch) => {
      await opts.whilePrepared?.(handed.length + batch.length - 1);
      return batch;
    },
    apply: (batch) => {
      for (const r of batch)
        handed.push(
          Number(String((r.record as { consensus_timestamp: string }).consensus_timestamp).split('.')[0]),
        );
    },
    committed: () => void (l.committed += 1),
  };
  const streams = accountStreams(
    watchedAccounts(AccountsConfig.parse([{ id: '0.0.8', sources: ['transactions'] }])),
  );
  state.transaction(() => state.reset(GLOBAL_STREAM, { safe: 0n, read: 0n }));
  startGlobal(state, streams);
  const clock = opts.clock ?? (() => 0);
  const ctx: TailContext = {
    state,
    source: clientTailSource(h!.client),
    handler,
    head: new HeadTracker(),
    future: new FutureRecords({ clock: () => Date.now(), maxClockSkewMs: 300_000 }),
    // Far beyond every row: the poll is the head read alone, no sweep and no head probe.
    overlapNs: 10n ** 18n,
    pageLimit: 1,
    walk: { maxPages: opts.maxPages ?? 1_000, maxDurationMs: 60_000, clock },
  };
  const tail = createGlobalTail(ctx, globalIndex(streams), { mode: 'immediate', sweepIntervalMs: 1, clock });
  return { tail, state, handed };
}

/** Requests the client started: each takes one token from the request budget first. */
async function requestsStarted(): Promise<number> {
  const { values } = await h!.metrics.budgetWait.get();
  return values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
}

describe('global tail read-ahead', () => {
  it('requests page N+1 while page N is handed over, never more than one page ahead', async () => {
    const l = await ledger();
    // Each page's hand-over waits for the next page's request: only a read-ahead lets it arrive meanwhile.
    const overlapped: boolean[] = [];
    const { tail, handed } = setup(l, {
      whilePrepared: async (n) => void (n + 1 < PAGES && overlapped.push(await l.arrived(n + 1))),
    });

    const result = await tail.poll(signal);

    expect(handed).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result).toMatchObject({ pages: PAGES, delivered: PAGES });
    expect(overlapped).toEqual([true, true, true, true, true]);
    expect(l.arrivals.map((a) => a.page)).toEqual([0, 1, 2, 3, 4, 5]);
    // Request k arrives while page k − 1 is handed over: k − 1 committed pages, never fewer.
    expect(l.arrivals.map((a) => a.committedBefore)).toEqual([0, 0, 1, 2, 3, 4]);
  });

  it('asks for nothing past max_pages_per_poll and resumes where the truncated walk stopped', async () => {
    const l = await ledger();
    const { tail, state, handed } = setup(l, { maxPages: 3 });

    const first = await tail.poll(signal);

    expect(first).toMatchObject({ pages: 3, delivered: 3, truncated: 'pages' });
    expect(handed).toEqual([1, 2, 3]);
    expect(l.arrivals.map((a) => a.page)).toEqual([0, 1, 2]);
    // Counted where the client starts a request (the budget), so even one cancelled before it arrived counts.
    expect(await requestsStarted()).toBe(3);
    expect(state.cursor(GLOBAL_STREAM)?.read).toBe(3_000_000_001n);
  });

  it('drops a page read ahead past max_poll_duration unprocessed; the cursor stays on the last handed-over page', async () => {
    const l = await ledger();
    l.hold.add(1);
    let now = 0;
    const { tail, state, handed } = setup(l, {
      clock: () => now,
      // The time runs out while page 0 is handed over, with page 1's request already in flight.
      whilePrepared: async () => {
        await l.arrived(1);
        now = 120_000;
      },
    });

    const result = await tail.poll(signal);

    expect(result).toMatchObject({ pages: 1, delivered: 1, truncated: 'time' });
    expect(handed).toEqual([1]);
    expect(l.arrivals.map((a) => a.page)).toEqual([0, 1]);
    expect(state.cursor(GLOBAL_STREAM)?.read).toBe(1_000_000_001n);
  });

  it('surfaces a failed page N+1 after page N was committed, and the next poll hands over the rest once', async () => {
    const l = await ledger();
    l.fail.add(3);
    const { tail, handed } = setup(l, {});

    await expect(tail.poll(signal)).rejects.toThrow(/500/);

    expect(handed).toEqual([1, 2, 3]);
    expect(l.committed).toBe(3);
    l.fail.clear();
    await tail.poll(signal);
    expect(handed).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('cancels the request in flight when the poll is aborted', async () => {
    const l = await ledger();
    l.hold.add(2);
    const poll = new AbortController();
    const { tail, handed } = setup(l, {
      whilePrepared: async (n) => {
        if (n === 1 && (await l.arrived(2))) poll.abort(new Error('shutting down'));
      },
    });

    await expect(tail.poll(poll.signal)).rejects.toThrow('shutting down');

    expect(handed).toEqual([1]);
    expect(l.arrivals.map((a) => a.page)).toEqual([0, 1, 2]);
  });
});
