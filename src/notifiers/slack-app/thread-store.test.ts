// The message ts survives a restart on both state backends: SQLite, and PostgreSQL's working set (the table is
// created at runtime, replicated with its primary key, and loaded again by the next store, as a new leader does).
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
} from '../../../test/helpers/postgres.js';
import { openPostgresStore } from '../../state/postgres/open-postgres-store.js';
import { openStateStore, type StateStore } from '../../state/store.js';
import { createSlackThreadStore, THREAD_RETENTION_MS } from './thread-store.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const alert = { key: 'r/0.0.1003', startsAt: '2025-11-13T02:14:20.000Z', id: 'r/0.0.1003|firing|t' };

async function survivesReopen(open: () => Promise<StateStore>): Promise<void> {
  const first = await open();
  const threads = createSlackThreadStore('ops-app', () => 1_000, first);
  await threads.posted([alert], 'C0ALERTS', '1700000000.000100');
  await threads.replied([{ key: alert.key, id: 'r/0.0.1003|resolved|t' }]);
  await first.durable();
  await first.close();

  const second = await open();
  const again = createSlackThreadStore('ops-app', () => 2_000, second);
  const other = createSlackThreadStore('other', () => 2_000, second);

  expect(again.get(alert.key)).toEqual({
    key: alert.key,
    startsAt: alert.startsAt,
    alertId: alert.id,
    channel: 'C0ALERTS',
    ts: '1700000000.000100',
    resolvedId: 'r/0.0.1003|resolved|t',
    updated: false,
  });
  expect(again.openUnder('C0ALERTS', '1700000000.000100')).toBe(0);
  expect(other.get(alert.key)).toBeUndefined();
  await second.close();
}

describe('slack-app threads in SQLite', () => {
  it('survive a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slack-threads-'));
    dirs.push(dir);

    await survivesReopen(() => Promise.resolve(openStateStore({ dir })));
  });

  it('are pruned once untouched for the retention', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slack-threads-'));
    dirs.push(dir);
    const store = openStateStore({ dir });
    let now = 0;
    const threads = createSlackThreadStore('ops-app', () => now, store);
    await threads.posted([alert], 'C0ALERTS', '1.000100');

    now = THREAD_RETENTION_MS + 1;
    await threads.posted([{ ...alert, key: 'other' }], 'C0ALERTS', '2.000100');

    expect(threads.get(alert.key)).toBeUndefined();
    expect(threads.get('other')?.ts).toBe('2.000100');
    store.close();
  });
});

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('slack-app threads in PostgreSQL', () => {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.destroy());

  it('survive a reopen (a new leader loads them)', async () => {
    const url = server!.createDatabase('slack_threads');

    await survivesReopen(() => openPostgresStore({ url, log: pino({ level: 'silent' }) }));
  }, 60_000);
});
