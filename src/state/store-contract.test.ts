// The state contract: one suite, run against both backends. Whatever a module can rely on with the embedded
// SQLite store (atomic steps, exact int64, state surviving a restart, durable() in commit order) it can rely on
// with PostgreSQL too. PostgreSQL runs for real (test/helpers/postgres.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POSTGRES_BIN,
  POSTGRES_REQUIRED,
  startPostgres,
  type PostgresServer,
} from '../../test/helpers/postgres.js';
import { openPostgresStore } from './postgres/open-postgres-store.js';
import { openStateStore, type StateStore } from './store.js';
import { BIG, dump, fillEverything, modules, NS, step } from '../../test/helpers/state-fixtures.js';

interface Backend {
  /** A fresh, empty state; reopen() opens the same state again (after close). */
  fresh(name: string): Promise<{ open: () => Promise<StateStore> }>;
}

const log = pino({ level: 'silent' });

const sqlite: Backend = {
  fresh: () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-contract-'));
    dirs.push(dir);
    return Promise.resolve({ open: () => Promise.resolve(openStateStore({ dir })) });
  },
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

let server: PostgresServer | undefined;
const postgres: Backend = {
  fresh: (name) => {
    const url = server!.createDatabase(name);
    return Promise.resolve({ open: () => openPostgresStore({ url, log }) });
  },
};

function contract(backend: Backend, label: string): void {
  let n = 0;
  const fresh = () => backend.fresh(`contract_${label}_${++n}`);

  it('rolls back every table when a step throws', async () => {
    const state = await fresh();
    const store = await state.open();
    const m = modules(store);
    step(store, m, 1);
    const before = dump(store);

    const failing = () =>
      store.transaction(() => {
        m.tail.advance('0.0.1234', { safe: NS + 100n, read: NS + 100n });
        m.repo.apply({ upserts: [], deletes: ['g/1'] });
        m.outbox.enqueue({ ...m.outbox.recent(1)[0]!, id: 'another' }, ['slack']);
        throw new Error('evaluation failed');
      });

    expect(failing).toThrow('evaluation failed');
    expect(dump(store)).toEqual(before);
    await store.durable();
    await store.close();
    const again = await state.open();
    expect(dump(again)).toEqual(before);
    await again.close();
  });

  it('keeps cursors, rule state, outbox, silences, acks and quarantine exactly across a reopen', async () => {
    const state = await fresh();
    const store = await state.open();
    fillEverything(store, modules(store));
    const before = dump(store);
    await store.durable();
    await store.close();

    const again = await state.open();
    const m = modules(again);

    expect(dump(again)).toEqual(before);
    expect(m.tail.cursor('global')).toEqual({ safe: BIG, read: BIG });
    expect(m.tail.cursor('0.0.1234')).toEqual({ safe: NS + 5n, read: NS + 6n });
    expect(m.silences.list()).toHaveLength(1);
    expect(m.quarantine.count()).toBe(1);
    expect(m.outbox.status('large-debit/0.0.1234/firing/1', 'slack')).toBe('sent');
    expect(m.repo.generation()).toBe(5);
    await again.close();
  });

  it('finds the tables of modules created on a fresh store before any module runs again', async () => {
    const state = await fresh();
    const store = await state.open();
    modules(store);
    await store.durable();
    await store.close();

    const again = await state.open();
    const names = again.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);

    expect(names).toEqual(
      expect.arrayContaining(['tail_cursor', 'rule_meta', 'outbox_delivery', 'api_silence']),
    );
    expect(again.db.prepare('SELECT generation FROM rule_meta').get()).toEqual({ generation: 0 });
    await again.close();
  });

  it('resolves durable() in commit order, each after the writes before it', async () => {
    const state = await fresh();
    const store = await state.open();
    const m = modules(store);
    const order: number[] = [];
    const waits: Promise<void>[] = [];
    for (let i = 1; i <= 20; i++) {
      step(store, m, i);
      m.silences.expire('none'); // a call that writes nothing
      waits.push(store.durable().then(() => void order.push(i)));
    }
    await Promise.all(waits);
    const before = dump(store);
    await store.close();
    const again = await state.open();

    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(dump(again)).toEqual(before);
    await again.close();
  });

  it('replicates writes made outside a transaction too', async () => {
    const state = await fresh();
    const store = await state.open();
    store.db.exec('CREATE TABLE IF NOT EXISTS extra (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
    store.db.prepare('INSERT INTO extra VALUES (?, ?)').run('a', BIG);
    store.db.prepare('INSERT INTO extra VALUES (?, ?)').run('b', 1n);
    store.db.prepare('UPDATE extra SET k = ? WHERE k = ?').run('c', 'b');
    await store.durable();
    await store.close();
    const again = await state.open();

    const rows = again.db.prepare('SELECT k, v FROM extra ORDER BY k').safeIntegers(true).all();
    expect(rows).toEqual([
      { k: 'a', v: BIG },
      { k: 'c', v: 1n },
    ]);
    await again.close();
  });
}

describe('state contract: SQLite', () => {
  contract(sqlite, 'sqlite');
});

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('state contract: PostgreSQL', () => {
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.destroy());

  contract(postgres, 'postgres');
});
