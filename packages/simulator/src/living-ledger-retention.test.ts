import { afterEach, describe, expect, it } from 'vitest';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { createLivingLedger } from './living-ledger.js';
import { startLivingLedger, type RunningLivingLedger } from './living-ledger-server.js';
import type { ScanOptions } from './store.js';
import { deepCallTrace, largeDebit } from './traffic-inject.js';

const T0 = 1_700_000_000_000;
const MS = 1_000_000n;
const ALL: ScanOptions = { lower: null, upper: null, order: 'asc', limit: 100, nowNs: 1n << 62n };

function manualClock() {
  let now = T0;
  return { clock: () => now, advance: (ms: number) => (now += ms), nowNs: () => BigInt(now) * MS };
}

interface Page {
  transactions: { consensus_timestamp: string }[];
  links: { next: string | null };
}

async function getJson<T = unknown>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as T };
}

/** Follows next links and returns every consensus timestamp served, and the number of pages. */
async function crawl(base: string, first: string): Promise<{ stamps: string[]; pages: number }> {
  const stamps: string[] = [];
  let pages = 0;
  for (let url: string | null = first; url !== null; pages++) {
    const { body }: { body: Page } = await getJson<Page>(`${base}${url}`);
    stamps.push(...body.transactions.map((t) => t.consensus_timestamp));
    url = body.links.next;
  }
  return { stamps, pages };
}

let running: RunningLivingLedger | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('living ledger retention', () => {
  it('keeps the store and the ground truth within the horizon after the clock moves far', () => {
    const time = manualClock();
    const ledger = createLivingLedger({ seed: 21, tps: 50, clock: time.clock, retention: { ms: 20_000 } });
    ledger.inject(largeDebit('0.0.1005', 50_000_000_000n, '0.0.1006', 'early'));

    for (let step = 0; step < 40; step++) {
      time.advance(10_000);
      ledger.advance();
    }

    const retained = ledger.store.transactionCount;
    const stats = ledger.stats();
    // Pruning runs once the oldest record is an eighth beyond the horizon: 20 s to 22.5 s of records stay.
    expect(retained).toBeGreaterThanOrEqual(20 * 50);
    expect(retained).toBeLessThanOrEqual(22.5 * 50 + 1);
    expect(stats.transactions).toBeGreaterThan(19_000);
    expect([stats.retained, stats.records]).toEqual([retained, retained + 1]);
    expect(stats.pruned + retained).toBeGreaterThan(stats.transactions);
    const oldest = ledger.store.nthNewestTimestamp(retained) as bigint;
    expect(oldest).toBeGreaterThanOrEqual(time.nowNs() - 22_500n * MS);
    const [early, first] = ledger.truth.transactions();
    expect(early?.tag).toBe('early');
    expect(first?.tx.consensusTimestamp).toBe(oldest);
    expect(ledger.store.scanTransactions({ ...ALL, upper: oldest - 1n }, () => true)).toEqual([]);
    expect(ledger.truth.rewards().every((r) => r.timestamp >= oldest)).toBe(true);
    expect(ledger.truth.tagged('early')).toHaveLength(1);
  });

  it('keeps at most maxTransactions (plus an eighth), and everything with retention null', () => {
    const time = manualClock();
    const bounded = createLivingLedger({
      seed: 22,
      tps: 50,
      clock: time.clock,
      retention: { maxTransactions: 400 },
    });
    const unbounded = createLivingLedger({ seed: 22, tps: 50, clock: time.clock, retention: null });

    for (let step = 0; step < 20; step++) {
      time.advance(10_000);
      bounded.advance();
      unbounded.advance();
    }

    expect(bounded.store.transactionCount).toBeGreaterThanOrEqual(400);
    expect(bounded.store.transactionCount).toBeLessThanOrEqual(450);
    expect(unbounded.store.transactionCount).toBeGreaterThan(10_000);
    expect(unbounded.stats().pruned).toBe(0);
  });

  it('refuses a horizon that is not a positive integer', () => {
    expect(() => createLivingLedger({ retention: { ms: 0 } })).toThrow(
      /retention.ms must be a positive integer/,
    );
    expect(() => createLivingLedger({ retention: { maxTransactions: 1.5 } })).toThrow(
      /retention.maxTransactions must be a positive integer/,
    );
  });

  it('serves the newest records with correct next links, and nothing older than the horizon', async () => {
    const time = manualClock();
    running = await startLivingLedger({ seed: 23, tps: 20, clock: time.clock, retention: { ms: 30_000 } });
    running.ledger.inject(deepCallTrace(3, '0.0.1010', 'old-call'));
    await getJson(`${running.url}/_sim/stats`);
    time.advance(10_000);
    const id = (running.ledger.truth.tagged('old-call')[0]?.tx.json as { transaction_id: string })
      .transaction_id;
    const actionsUrl = `${running.url}/api/v1/contracts/results/${id}/actions`;
    const before = await getJson<unknown>(actionsUrl);

    for (let step = 0; step < 30; step++) {
      time.advance(10_000);
      await getJson(`${running.url}/_sim/stats`);
    }
    const nowNs = time.nowNs();
    const expected = running.ledger.truth
      .transactions()
      .filter((r) => r.visibleAt <= nowNs && r.tag !== 'old-call') // the truth keeps tagged records
      .map((r) => formatTimestamp(r.tx.consensusTimestamp))
      .reverse();
    const rewards = running.ledger.truth.rewards().filter((r) => r.visibleAt <= nowNs);
    const account = rewards[rewards.length - 1]?.accountId as bigint;
    const expectedRewards = rewards
      .filter((r) => r.accountId === account)
      .map((r) => formatTimestamp(r.timestamp));

    const desc = await crawl(running.url, '/api/v1/transactions?order=desc&limit=100');
    const old = await getJson<Page>(
      `${running.url}/api/v1/transactions?timestamp=gte:${T0 / 1000}&timestamp=lte:${T0 / 1000 + 60}`,
    );
    const after = await getJson<unknown>(actionsUrl);
    const served = await getJson<{ rewards: { timestamp: string }[] }>(
      `${running.url}/api/v1/accounts/0.0.${account}/rewards?order=asc&limit=100`,
    );

    expect(expected.length).toBeGreaterThan(500);
    expect(desc.stamps).toEqual(expected);
    expect(desc.pages).toBe(Math.ceil(expected.length / 100) + (expected.length % 100 === 0 ? 1 : 0));
    expect(old.body).toEqual({ transactions: [], links: { next: null } });
    expect([before.status, after.status]).toEqual([200, 404]);
    expect(expectedRewards.length).toBeGreaterThan(0);
    expect(served.body.rewards.map((r) => r.timestamp)).toEqual(expectedRewards);
  });
});
