// The HA backend replicates the cursors of every kind: a sequence and a timestamp + index cursor, with their
// seen positions, written on one PostgreSQL-backed store are what the next one opening the database (the next
// leader) reads back, beside the timestamp cursors; in PostgreSQL the positions are text, as in SQLite.
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POSTGRES_BIN,
  POSTGRES_REQUIRED,
  startPostgres,
  type PostgresServer,
} from '../../../test/helpers/postgres.js';
import { openPostgresStore } from '../../state/postgres/open-postgres-store.js';
import { CursorStore } from './cursor-store.js';
import { sequenceCursor } from './sequence-cursor.js';
import { timestampIndexCursor } from './timestamp-index-cursor.js';

const NS = 1_700_000_000_123_456_789n;

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('cursor store on the PostgreSQL backend', () => {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.destroy());

  it('hands every kind of cursor and seen position to the next store that opens the database', async () => {
    const url = server!.createDatabase('positions');
    const log = pino({ level: 'silent' });
    const first = await openPostgresStore({ url, log });
    const cursors = new CursorStore(first);
    const topics = cursors.positions(sequenceCursor);
    const logs = cursors.positions(timestampIndexCursor);
    cursors.transaction(() => {
      cursors.advance('tx:0.0.1', { safe: NS, read: NS + 1n });
      topics.reset('topic:0.0.5', { safe: 9n, read: 9n });
      topics.markSeen('topic:0.0.5', 10n);
      topics.advance('topic:0.0.5', { safe: 10n, read: 12n });
      topics.markSeen('topic:0.0.5', 12n);
      logs.advance('log:0.0.9', { safe: { ts: NS, index: 4 }, read: { ts: NS, index: 7 } });
      logs.markSeen('log:0.0.9', { ts: NS + 1n, index: 0 });
    });
    await first.durable();
    await first.close();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client
      .query<{ stream: string; kind: string; safe: string; type: string }>(
        `SELECT stream, kind, safe, pg_typeof(safe)::text AS type FROM tail_position ORDER BY stream`,
      )
      .finally(() => client.end());
    expect(rows).toEqual([
      {
        stream: 'log:0.0.9',
        kind: 'timestamp-index',
        safe: `${NS.toString().padStart(20, '0')}:0000000004`,
        type: 'text',
      },
      { stream: 'topic:0.0.5', kind: 'sequence', safe: '00000000000000000010', type: 'text' },
    ]);

    const next = await openPostgresStore({ url, log });
    const again = new CursorStore(next);
    expect(again.cursor('tx:0.0.1')).toEqual({ safe: NS, read: NS + 1n });
    const t = again.positions(sequenceCursor);
    expect(t.cursor('topic:0.0.5')).toEqual({ safe: 10n, read: 12n });
    expect([11n, 12n].map((n) => t.isSeen('topic:0.0.5', n))).toEqual([false, true]);
    const l = again.positions(timestampIndexCursor);
    expect(l.cursor('log:0.0.9')).toEqual({ safe: { ts: NS, index: 4 }, read: { ts: NS, index: 7 } });
    expect(l.isSeen('log:0.0.9', { ts: NS + 1n, index: 0 })).toBe(true);
    await next.close();
  }, 120_000);
});
