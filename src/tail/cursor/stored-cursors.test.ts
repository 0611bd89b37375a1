// A state file written before the cursor store kept other kinds than timestamps opens with the very same cursors
// and seen window (and its tables as they were), and a timestamp cursor the store cannot read is refused by stream
// and kind instead of read as 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../state/store.js';
import { CursorStore } from './cursor-store.js';
import { sequenceCursor } from './sequence-cursor.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The tables exactly as the store created them before tail_position existed. */
const OLD_SCHEMA = [
  `CREATE TABLE tail_cursor (
      stream TEXT PRIMARY KEY, safe INTEGER NOT NULL, read INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE tail_seen (
      stream TEXT NOT NULL, ts INTEGER NOT NULL, PRIMARY KEY (stream, ts)) WITHOUT ROWID`,
  'CREATE INDEX tail_seen_ts ON tail_seen (ts)',
];
const TS = 1_700_000_000_123_456_789n;
const ALIAS = 'rwp:HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';
const CURSORS: [string, bigint, bigint][] = [
  ['tx:0.0.1234', TS, TS + 5n],
  ['rw:0.0.1234', TS - 7n, TS],
  [ALIAS, 1n, 2n],
  ['global', TS + 1n, 9_223_372_036_854_775_807n],
];

describe('a state file from before other cursor kinds', () => {
  it('opens with the same cursors, seen window and tables', () => {
    dir = mkdtempSync(join(tmpdir(), 'old-cursors-'));
    const old = openStateStore({ dir });
    for (const sql of OLD_SCHEMA) old.db.exec(sql);
    const put = old.db.prepare('INSERT INTO tail_cursor (stream, safe, read) VALUES (?, ?, ?)');
    for (const row of CURSORS) put.run(...row);
    old.db.prepare('INSERT INTO tail_seen (stream, ts) VALUES (?, ?)').run('tx:0.0.1234', TS + 3n);
    old.db.prepare('INSERT INTO tail_seen (stream, ts) VALUES (?, ?)').run(ALIAS, 2n);
    old.close();

    const store = openStateStore({ dir });
    const cursors = new CursorStore(store);
    cursors.positions(sequenceCursor).reset('topic:0.0.5', { safe: 1n, read: 1n });

    expect(Object.fromEntries(cursors.all())).toEqual(
      Object.fromEntries(CURSORS.map(([s, safe, read]) => [s, { safe, read }])),
    );
    expect(cursors.isSeen('tx:0.0.1234', TS + 3n)).toBe(true);
    expect(cursors.isSeen(ALIAS, 2n)).toBe(true);
    expect(cursors.isSeen('tx:0.0.1234', TS + 4n)).toBe(false);
    expect(cursors.seenCount()).toBe(2);
    const schema = store.db
      .prepare("SELECT name, sql FROM sqlite_master WHERE name LIKE 'tail_%' ORDER BY name")
      .all() as { name: string; sql: string }[];
    expect(schema.filter((o) => !o.name.startsWith('tail_position')).map((o) => o.sql)).toEqual([
      OLD_SCHEMA[0],
      OLD_SCHEMA[1],
      OLD_SCHEMA[2],
    ]);
    store.close();
  });

  it.each([
    ['text', "'yesterday'"],
    ['a real number', '1.5'],
    ['a blob', "x'00ff'"],
  ])('refuses a timestamp cursor holding %s, naming the stream and the kind', (_, value) => {
    const store = openStateStore({ dir: ':memory:' });
    new CursorStore(store).advance('tx:0.0.1', { safe: TS, read: TS });
    store.db.exec(`UPDATE tail_cursor SET read = ${value} WHERE stream = 'tx:0.0.1'`);

    expect(() => new CursorStore(store)).toThrow(
      /the stored read of stream tx:0\.0\.1 \(a timestamp cursor\) cannot be read .*delete that stream's rows from tail_cursor/,
    );
  });
});
