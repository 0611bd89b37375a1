// The fake query service plays its plan on faulted streams only, heals only once the plan has played through,
// and never ends an endless chain.
import { afterEach, describe, expect, it } from 'vitest';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import type { QueryFault } from './fault-plan.js';
import { startHostileQueryService, type HostileQueryService } from './hostile-query-service.js';

const FAULTED = '0.0.1001';
const CLEAN = '0.0.1003';

interface Page {
  transactions: { consensus_timestamp: string }[];
  links: { next: string | null };
}

describe('startHostileQueryService', () => {
  let ledger: RunningLivingLedger | undefined;
  let service: HostileQueryService | undefined;
  afterEach(async () => {
    await service?.close();
    await ledger?.close();
  });

  async function start(plan: QueryFault[]): Promise<HostileQueryService> {
    ledger = await startLivingLedger({ seed: 'hostile-query', tps: 20, lagMs: 0 });
    service = await startHostileQueryService({ upstream: ledger.url, plan, faulted: new Set([FAULTED]) });
    return service;
  }

  const path = (account: string) => `/api/v1/transactions?account.id=${account}&limit=5&order=asc`;

  it('answers the faulted stream with the plan, the clean one untouched, until healed after one cycle', async () => {
    const s = await start([{ kind: 'status', status: 429, retryAfter: { kind: 'huge', value: '3600' } }]);

    const faulted = await fetch(`${s.url}${path(FAULTED)}`);
    const clean = await fetch(`${s.url}${path(CLEAN)}`);
    s.heal();
    const healed = await fetch(`${s.url}${path(FAULTED)}`);

    expect([faulted.status, faulted.headers.get('retry-after')]).toEqual([429, '3600']);
    expect(clean.status).toBe(200);
    expect(healed.status).toBe(200);
  });

  it('stays hostile after heal() until the plan has played through', async () => {
    const s = await start([{ kind: 'none' }, { kind: 'status', status: 503, retryAfter: { kind: 'none' } }]);

    s.heal();
    const first = await fetch(`${s.url}${path(FAULTED)}`);
    const second = await fetch(`${s.url}${path(FAULTED)}`);
    const third = await fetch(`${s.url}${path(FAULTED)}`);

    expect([first.status, second.status, third.status]).toEqual([200, 503, 200]);
  });

  it('adds a far-future record to a faulted page', async () => {
    const s = await start([{ kind: 'none' }, { kind: 'future', yearsAhead: 50 }]);
    await fetch(`${s.url}${path(CLEAN)}`);

    await fetch(`${s.url}${path(FAULTED)}`);
    const page = (await (await fetch(`${s.url}${path(FAULTED)}`)).json()) as Page;

    const newest = Math.max(...page.transactions.map((t) => Number(t.consensus_timestamp.split('.')[0])));
    expect(newest).toBeGreaterThan(Date.now() / 1000 + 49 * 365 * 86_400);
  });

  it('serves an endless chain of fresh next links, healed or not', async () => {
    const s = await start([{ kind: 'endless' }]);
    const seen = new Set<string>();

    let link: string | null = path(FAULTED);
    for (let hop = 0; hop < 20 && link !== null; hop++) {
      if (hop === 10) s.heal();
      const page = (await (await fetch(`${s.url}${link}`)).json()) as Page;
      link = page.links.next;
      if (link !== null) seen.add(link);
    }

    expect(link).not.toBeNull();
    expect(seen.size).toBe(20);
    expect(Math.max(...[...seen].map((l) => l.length))).toBeLessThan(300);
  });
});
