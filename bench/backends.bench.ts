// Bench 7, state backends side by side: the pipeline step of every page (parse → match → 50 rules → ONE state
// transaction with rule state, outbox rows, seen marks and the cursor → await durable()) with the embedded SQLite
// store and with the PostgreSQL backend, in records per second. The contenders alternate round by round on fresh
// stores (load from other processes hits both alike); the best round of each is kept. PostgreSQL is a throwaway
// local server (test/helpers/postgres.ts, fsync off), so the figure is the backend's own cost, not a disk's.
// Alone: node --conditions=source --import tsx bench/backends.bench.ts [--quick]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { POSTGRES_BIN, startPostgres } from '../test/helpers/postgres.js';
import { parsePageText } from '../src/ledger/page.js';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { createOutbox } from '../src/delivery/outbox.js';
import { createEngine, type EngineEvent } from '../src/rules/engine/engine.js';
import type { RuleSet } from '../src/rules/load/compile.js';
import { createRuleStateRepo } from '../src/rules/alert-state/state-repo.js';
import { openPostgresStore } from '../src/state/postgres/open-postgres-store.js';
import { openStateStore, type StateStore } from '../src/state/store.js';
import { matchAccounts } from '../src/tail/global/match-account.js';
import { CursorStore } from '../src/tail/cursor/cursor-store.js';
import type { WatchedAccount } from '../src/accounts/watched-account.js';
import { benchRuleSet, ledgerPages, watchedAccounts } from './pipeline.bench.js';
import { figure, notImplemented, round, type Figure } from './lib/figures.js';
import { isMain, runStandalone, type BenchOptions } from './lib/options.js';

const SUITE = '7 state backends';

interface Setup {
  readonly pages: readonly string[];
  readonly accounts: readonly WatchedAccount[];
  readonly ruleSet: RuleSet;
}

/** Seconds to push every page through the pipeline step into `store`, durable after each. */
async function run(store: StateStore, setup: Setup): Promise<number> {
  const byId = new Map(setup.accounts.map((a) => [a.id, a]));
  const ids = new Set(byId.keys());
  const engine = createEngine(setup.ruleSet);
  const repo = createRuleStateRepo(store);
  const outbox = createOutbox(store, () => 1_700_000_000_000);
  const tail = new CursorStore(store);
  const start = process.hrtime.bigint();
  for (const text of setup.pages) {
    const records = parsePageText('transactions', '/bench', text).records as Transaction[];
    store.transaction(() => {
      for (const record of records) {
        for (const id of matchAccounts(record, ids)) {
          const event: EngineEvent = { source: 'transactions', record, account: byId.get(id)!, traces: [] };
          for (const alert of engine.evaluate(event).alerts) outbox.enqueue(alert, ['ops']);
        }
        tail.markSeen('global', ns(record.consensus_timestamp));
      }
      repo.apply(engine.takeChanges());
      const last = ns(records.at(-1)?.consensus_timestamp ?? 0n);
      tail.advance('global', { safe: last, read: last });
    });
    await store.durable();
  }
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function ns(ts: bigint | string): bigint {
  return typeof ts === 'bigint' ? ts : parseTimestamp(ts);
}

export async function backendsBench(options: BenchOptions): Promise<Figure[]> {
  if (!POSTGRES_BIN) return [notImplemented(SUITE, 'PostgreSQL not installed (apt-get install postgresql)')];
  const pages = await ledgerPages(options.quick ? 40 : 150, 'bench-backends');
  const accounts = watchedAccounts(100);
  const setup: Setup = { pages, accounts, ruleSet: benchRuleSet(50, accounts) };
  const server = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'bench-backends-'));
  const log = pino({ level: 'silent' });
  const best = { sqlite: Infinity, postgres: Infinity };
  try {
    const rounds = options.quick ? 2 : 4;
    for (let r = 0; r <= rounds; r++) {
      const sqlite = openStateStore({ dir: join(dir, `r${r}`) });
      const s = await run(sqlite, setup);
      sqlite.close();
      const pg = await openPostgresStore({ url: server.createDatabase(`bench_r${r}`), log });
      const p = await run(pg, setup);
      await pg.close();
      if (r > 0) best.sqlite = Math.min(best.sqlite, s);
      if (r > 0) best.postgres = Math.min(best.postgres, p);
      options.log(`${SUITE}: round ${r}: sqlite ${s.toFixed(2)} s, postgres ${p.toFixed(2)} s`);
    }
  } finally {
    server.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  const records = pages.length * 100;
  const perSecond = (s: number) => Math.round(records / s);
  const note = `${pages.length} pages of 100, 50 rules, 100 watched; one transaction + durable() per page`;
  return [
    figure(SUITE, 'pipeline step, SQLite (synchronous=FULL)', perSecond(best.sqlite), {
      unit: 'records/s',
      note,
    }),
    figure(SUITE, 'pipeline step, PostgreSQL (local, fsync off)', perSecond(best.postgres), {
      unit: 'records/s',
    }),
    figure(SUITE, 'PostgreSQL / SQLite', round(best.sqlite / best.postgres), {}),
  ];
}

if (isMain(import.meta.url)) await runStandalone(backendsBench);
