import { afterEach, describe, expect, it } from 'vitest';
import { formatTimestamp, timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { serializeJson } from './json.js';
import { createReplayLedger } from './replay-ledger.js';
import { startReplayLedger, type RunningReplayLedger } from './replay-server.js';
import { createTraffic } from './traffic.js';

const T0 = 1_700_000_000_000;
const NS = (ms: number) => timestampFromMillis(ms);

interface Page {
  transactions: { consensus_timestamp: string }[];
  links: { next: string | null };
}

function manualClock(start = T0) {
  let now = start;
  return { clock: () => now, advance: (ms: number) => (now += ms) };
}

let running: RunningReplayLedger | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function get(url: string): Promise<{ status: number; page: Page; link: string | null }> {
  const res = await fetch(url);
  return { status: res.status, page: (await res.json()) as Page, link: res.headers.get('link') };
}

/** Walks `first` and its links.next; the timestamps served, and the number of pages. */
async function walk(base: string, first: string): Promise<{ stamps: string[]; pages: number }> {
  const stamps: string[] = [];
  let pages = 0;
  for (let url: string | null = first; url !== null && pages < 10_000; pages++) {
    const { status, page } = await get(`${base}${url}`);
    expect(status).toBe(200);
    stamps.push(...page.transactions.map((t) => t.consensus_timestamp));
    url = page.links.next;
  }
  return { stamps, pages };
}

describe('replay ledger', () => {
  it('serves the living traffic of its seed, serialized as the service does', () => {
    const ledger = createReplayLedger({
      seed: 's',
      tps: 100,
      clock: () => T0 + 10_000,
      startMs: T0,
      accounts: 300,
    });
    ledger.advance();
    const [first] = ledger.page({ lower: null, upper: null, order: 'asc', limit: 1, nowNs: NS(T0 + 60_000) });
    const expected = createTraffic({ seed: 's', accounts: 300 }).generate(NS(T0))[0];
    expect(first?.ts).toBe(NS(T0));
    expect(first?.bytes.toString()).toBe(serializeJson(expected?.tx.json));
  });

  it('a tail walking gt: cursors at a rate reads every record exactly once, in order', async () => {
    const time = manualClock();
    running = await startReplayLedger({
      seed: 'walk',
      tps: 2_000,
      recordFileMs: 500,
      lagMs: 300,
      clock: time.clock,
      startMs: T0,
      autoAdvanceMs: 0,
      accounts: 500,
    });
    let cursor = formatTimestamp(NS(T0) - 1n);
    const served: string[] = [];
    let pages = 0;
    // 12 s of ledger time, polled every 700 ms: pages end mid-file, mid-second and at the visibility edge.
    for (let step = 0; step < 18; step++) {
      time.advance(700);
      const walked = await walk(
        running.url,
        `/api/v1/transactions?limit=100&order=asc&timestamp=gt:${cursor}`,
      );
      served.push(...walked.stamps);
      pages += walked.pages;
      cursor = served.at(-1) ?? cursor;
    }
    time.advance(5_000); // past the visibility of everything generated before it…
    const all = running.ledger.page({
      lower: null,
      upper: NS(T0 + 12_600),
      order: 'asc',
      limit: 1e9,
      nowNs: NS(T0 + 60_000),
    });
    const expected = all.map((r) => formatTimestamp(r.ts));
    // …and what was visible at the last poll is a prefix of it: nothing skipped, nothing twice, nothing reordered.
    expect(new Set(served).size).toBe(served.length);
    expect(served).toEqual(expected.slice(0, served.length));
    expect(served.length).toBeGreaterThan(20_000);
    expect(running.served().firstServed).toBe(served.length);
    expect(running.served().prunedRequests).toBe(0);
    expect(pages).toBeGreaterThan(served.length / 100);
    // What the last poll could not see yet was generated less than record file + lag before it.
    const unseen = expected.slice(served.length);
    for (const ts of unseen) expect(NS(T0 + 12_600) - BigInt(ts.replace('.', ''))).toBeLessThan(NS(800));
  });

  it('builds links.next as the service does and ends a listing with a partial page', async () => {
    const time = manualClock(T0 + 20_000);
    running = await startReplayLedger({
      seed: 'links',
      maxCatchUpMs: 60_000,
      tps: 1_000,
      clock: time.clock,
      startMs: T0,
      autoAdvanceMs: 0,
      accounts: 300,
    });
    const lower = formatTimestamp(NS(T0 + 1_000));
    const upper = formatTimestamp(NS(T0 + 1_500));
    const first = await get(`${running.url}/api/v1/transactions?limit=100&order=asc&timestamp=gt:${lower}`);
    const last = first.page.transactions.at(-1)?.consensus_timestamp;
    expect(first.page.transactions).toHaveLength(100);
    expect(first.page.links.next).toBe(`/api/v1/transactions?limit=100&order=asc&timestamp=gt:${last}`);
    expect(first.link).toBe(`<${first.page.links.next}>; rel="next"`);
    // A bounded sweep: exactly the records in (lower, upper], the bound kept in every next link.
    const swept = await walk(
      running.url,
      `/api/v1/transactions?timestamp=gt:${lower}&timestamp=lte:${upper}&limit=100&order=asc`,
    );
    const expected = running.ledger
      .page({
        lower: NS(T0 + 1_000) + 1n,
        upper: NS(T0 + 1_500),
        order: 'asc',
        limit: 1e9,
        nowNs: NS(T0 + 20_000),
      })
      .map((r) => formatTimestamp(r.ts));
    expect(expected.length).toBeGreaterThan(400);
    expect(swept.stamps).toEqual(expected);
    expect(swept.pages).toBe(Math.ceil((expected.length + 1) / 100));
  });

  it('serves only what is visible: the head probe gets the newest record whose file closed plus the lag', async () => {
    const time = manualClock(T0 + 10_250);
    running = await startReplayLedger({
      seed: 'head',
      tps: 100,
      recordFileMs: 2_000,
      lagMs: 1_000,
      clock: time.clock,
      startMs: T0,
      autoAdvanceMs: 0,
      accounts: 300,
    });
    const { page } = await get(`${running.url}/api/v1/transactions?limit=1&order=desc`);
    // At 10.25 s the file [8 s, 10 s) closes at 10 s and shows at 11 s: the newest visible is from before 8 s.
    const head = BigInt(page.transactions[0]?.consensus_timestamp.replace('.', '') ?? '0');
    expect(head).toBeLessThan(NS(T0 + 8_000));
    expect(head).toBeGreaterThanOrEqual(NS(T0 + 7_990));
  });

  it('answers 400 to filters a replay cannot honour and drops what is past retention', async () => {
    const time = manualClock(T0 + 5_000);
    running = await startReplayLedger({
      seed: 'r',
      tps: 100,
      clock: time.clock,
      startMs: T0,
      autoAdvanceMs: 0,
      retentionMs: 10_000,
      accounts: 300,
    });
    const bad = await fetch(`${running.url}/api/v1/transactions?account.id=0.0.1001`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Unknown query parameter: account.id');
    expect((await fetch(`${running.url}/api/v1/accounts/0.0.1001`)).status).toBe(404);
    const early = `/api/v1/transactions?limit=100&order=asc&timestamp=gt:${formatTimestamp(NS(T0) - 1n)}&timestamp=lte:${formatTimestamp(NS(T0 + 1_000))}`;
    expect((await get(`${running.url}${early}`)).page.transactions.length).toBeGreaterThan(50);
    time.advance(30_000);
    expect((await get(`${running.url}${early}`)).page.transactions).toEqual([]);
    expect(running.ledger.stats().pruned).toBeGreaterThan(0);
    expect(running.served().prunedRequests).toBe(1);
  });
});
