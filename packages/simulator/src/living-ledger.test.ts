import { afterEach, describe, expect, it } from 'vitest';
import { createLivingLedger } from './living-ledger.js';
import { startLivingLedger, type RunningLivingLedger } from './living-ledger-server.js';
import { deepCallTrace, largeDebit } from './traffic-inject.js';
import { resolveFaultProfile } from './faults.js';

const T0 = 1_700_000_000_000;

interface Page {
  transactions: {
    consensus_timestamp: string;
    transaction_id: string;
    transfers: { account: string; amount: number }[];
  }[];
  links: { next: string | null };
}

function manualClock(start = T0) {
  let now = start;
  return { clock: () => now, advance: (ms: number) => (now += ms) };
}

let running: RunningLivingLedger | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Follows next links from a first URL and returns every consensus timestamp served. */
async function crawl(base: string, first: string): Promise<string[]> {
  const seen: string[] = [];
  let url: string | null = first;
  while (url) {
    const page: Page = await getJson<Page>(`${base}${url}`);
    seen.push(...page.transactions.map((t) => t.consensus_timestamp));
    url = page.links.next;
  }
  return seen;
}

describe('living ledger (in-process)', () => {
  it('generates exactly tps × elapsed transactions from the injected clock', () => {
    const time = manualClock();
    const ledger = createLivingLedger({ seed: 3, tps: 20, clock: time.clock });

    time.advance(10_000);
    ledger.advance();

    expect(ledger.stats().transactions).toBe(201);
    const stamps = ledger.truth.transactions().map((r) => r.tx.consensusTimestamp);
    expect(stamps[0]).toBe(BigInt(T0) * 1_000_000n);
  });

  it('skips slots beyond maxCatchUpMs instead of generating them all at once', () => {
    const time = manualClock();
    const ledger = createLivingLedger({ seed: 3, tps: 100, clock: time.clock, maxCatchUpMs: 1000 });

    time.advance(60_000);
    ledger.advance();

    const stats = ledger.stats();
    expect(stats.skippedSlots).toBeGreaterThan(5000);
    expect(stats.transactions).toBeLessThanOrEqual(102);
  });

  it('puts injected transactions first in the next tick, tagged in the ground truth', () => {
    const time = manualClock();
    const ledger = createLivingLedger({ seed: 3, tps: 20, clock: time.clock });
    ledger.advance();

    ledger.inject(largeDebit('0.0.1005', 50_000_000_000_000n, '0.0.1006', 'whale'));
    time.advance(1000);
    ledger.advance();

    const [whale] = ledger.truth.tagged('whale');
    const legs = (whale?.tx.json as Page['transactions'][number]).transfers;
    expect(legs.find((t) => t.account === '0.0.1006')?.amount).toBe(50_000_000_000_000);
    expect(legs.find((t) => t.account === '0.0.1005')?.amount).toBeLessThan(-50_000_000_000_000);
  });

  it('refuses an injected spec with an unknown type, with the fix in the message', () => {
    const ledger = createLivingLedger({ seed: 3, clock: () => T0 });

    expect(() => ledger.inject({ type: 'CRYPTOTRANSFERR' })).toThrow(
      /unknown transaction type "CRYPTOTRANSFERR"/,
    );
  });
});

describe('living ledger (HTTP)', () => {
  it('serves a record only after its 2 s record file closes plus the ingestion lag', async () => {
    const time = manualClock();
    running = await startLivingLedger({
      seed: 5,
      tps: 50,
      lagMs: 3000,
      clock: time.clock,
      bindTimestampRange: false,
    });
    time.advance(20_500);

    const page = await getJson<Page>(`${running.url}/api/v1/transactions?limit=1`);

    // now = T0+20.5 s: files closing at <= T0+17.5 s are visible, i.e. files ending at T0+16 s.
    expect(page.transactions[0]?.consensus_timestamp.startsWith('1700000015.98')).toBe(true);
    const truth = running.ledger.truth.transactions({ fromNs: (BigInt(T0) + 16_000n) * 1_000_000n });
    expect(truth.length).toBeGreaterThan(200);
  });

  it('late visibility: a naive gt: cursor skips held-back rows forever; the ground truth shows them', async () => {
    const time = manualClock();
    running = await startLivingLedger({
      seed: 9,
      tps: 40,
      clock: time.clock,
      bindTimestampRange: false,
      lateVisibility: { fraction: 0.2, delay_ms: 6000 },
    });
    let cursor = `${T0 / 1000}.000000000`;
    const naive: string[] = [];

    for (let step = 0; step < 20; step++) {
      time.advance(1000);
      const got = await crawl(running.url, `/api/v1/transactions?order=asc&limit=100&timestamp=gt:${cursor}`);
      naive.push(...got);
      cursor = got[got.length - 1] ?? cursor;
    }
    time.advance(60_000);
    const everything = await crawl(
      running.url,
      `/api/v1/transactions?order=asc&limit=100&timestamp=gte:${T0 / 1000}&timestamp=lte:${cursor}`,
    );

    const seen = new Set(naive);
    const missed = everything.filter((ts) => !seen.has(ts));
    const meta = (
      await getJson<{ meta: { consensus_timestamp: string; late: boolean }[] }>(
        `${running.url}/_sim/transactions?to=${cursor}`,
      )
    ).meta;
    const late = new Set(meta.filter((m) => m.late).map((m) => m.consensus_timestamp));
    expect(missed.length).toBeGreaterThan(10);
    expect(missed.every((ts) => late.has(ts))).toBe(true);
    expect(everything.length).toBe(meta.length);
  });

  it('serves the rewards endpoint exactly as the ground truth says', async () => {
    const time = manualClock();
    running = await startLivingLedger({ seed: 11, tps: 200, clock: time.clock });
    time.advance(30_000);
    const truth = await getJson<{ rewards: { account_id: string; amount: number; timestamp: string }[] }>(
      `${running.url}/_sim/rewards`,
    );
    const account = truth.rewards[0]?.account_id as string;
    time.advance(10_000);

    const served = await getJson<{ rewards: unknown[] }>(
      `${running.url}/api/v1/accounts/${account}/rewards?limit=100&order=asc`,
    );

    const now = `${(T0 + 40_000) / 1000}.000000000`;
    const after = await getJson<{
      rewards: { account_id: string; amount: number; timestamp: string; visible_at: string }[];
    }>(`${running.url}/_sim/rewards?account=${account}`);
    const expected = after.rewards
      .filter((r) => r.visible_at <= now)
      .map((r) => ({ account_id: r.account_id, amount: r.amount, timestamp: r.timestamp }));
    expect(expected.length).toBeGreaterThan(0);
    expect(served.rewards).toEqual(expected);
  });

  it('answers the actions endpoint with an injected 12-deep call trace', async () => {
    const time = manualClock();
    running = await startLivingLedger({ seed: 13, tps: 10, clock: time.clock });
    running.ledger.inject(deepCallTrace(12, '0.0.1010', 'deep'));
    await fetch(`${running.url}/_sim/stats`);
    time.advance(10_000);
    const [deep] = running.ledger.truth.tagged('deep');
    const id = (deep?.tx.json as { transaction_id: string }).transaction_id;

    const page = await getJson<{ actions: { call_depth: number }[] }>(
      `${running.url}/api/v1/contracts/results/${id}/actions?limit=100`,
    );

    expect(Math.max(...page.actions.map((a) => a.call_depth))).toBe(12);
  });

  it('accepts injections over HTTP and reports them in /_sim/transactions and /_sim/stats', async () => {
    const time = manualClock();
    running = await startLivingLedger({ seed: 17, tps: 10, clock: time.clock });
    const spec = {
      payer: '0.0.1003',
      transfers: [
        { account: '0.0.1003', amount: '-90000000000000' },
        { account: '0.0.1004', amount: '90000000000000' },
      ],
      tag: 'http-whale',
    };

    const res = await fetch(`${running.url}/_sim/inject`, { method: 'POST', body: JSON.stringify(spec) });
    const truth = await getJson<{ meta: { tag?: string }[] }>(`${running.url}/_sim/transactions`);
    const stats = await getJson<{ transactions: number; faults: { requests: number } }>(
      `${running.url}/_sim/stats`,
    );

    expect(res.status).toBe(202);
    expect(truth.meta.filter((m) => m.tag === 'http-whale')).toHaveLength(1);
    expect(stats.transactions).toBeGreaterThanOrEqual(2);
    expect(stats.faults.requests).toBe(0);
  });

  it('replays the same faults for the same seed, and counts them in /_sim/stats', async () => {
    const statuses = async (seed: number) => {
      const time = manualClock();
      const sim = await startLivingLedger({
        seed,
        tps: 10,
        clock: time.clock,
        faults: resolveFaultProfile('chaos'),
        sleep: async () => {},
      });
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        time.advance(500);
        seen.push(
          await fetch(`${sim.url}/api/v1/transactions?limit=5`)
            .then(async (r) => `${r.status}:${(await r.text()).length}`)
            .catch(() => 'reset'),
        );
      }
      const stats = await getJson<{ faults: { requests: number; byKind: Record<string, number> } }>(
        `${sim.url}/_sim/stats`,
      );
      await sim.close();
      return { seen, stats };
    };

    const first = await statuses(4);
    const second = await statuses(4);

    expect(second.seen).toEqual(first.seen);
    expect(first.stats.faults.requests).toBe(40);
    expect(Object.values(first.stats.faults.byKind).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
    expect(first.seen.filter((s) => s.startsWith('200:')).length).toBeGreaterThan(10);
  });
});
