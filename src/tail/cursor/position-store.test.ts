// The cursor store for the kinds that are not timestamps: a sequence cursor (topic messages) and a timestamp +
// index cursor (contract logs) kept and read back per stream across a reopen, their dedup windows, the guard each
// kind has against one bad record (held at now; only over numbers handed over), rollback, and rows of another
// kind or none refused by name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateStore, type StateStore } from '../../state/store.js';
import type { CursorKind } from './cursor-kind.js';
import { CursorStore } from './cursor-store.js';
import { sequenceCursor } from './sequence-cursor.js';
import { timestampCursor } from './timestamp-cursor.js';
import { timestampIndexCursor } from './timestamp-index-cursor.js';
import { STREAM_KINDS } from '../streams/stream-kinds.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const NOW = 1_700_000_000_000_000_000n;

function memory(ceiling?: () => bigint): CursorStore {
  return new CursorStore(openStateStore({ dir: ':memory:' }), ceiling);
}

describe('cursor store, kinds other than timestamps', () => {
  it('keeps a sequence and a timestamp + index cursor and their seen positions across a reopen', () => {
    dir = mkdtempSync(join(tmpdir(), 'positions-'));
    const first = new CursorStore(openStateStore({ dir }));
    const topics = first.positions(sequenceCursor);
    const logs = first.positions(timestampIndexCursor);
    first.transaction(() => {
      topics.reset('topic:0.0.5', { safe: 41n, read: 41n });
      topics.markSeen('topic:0.0.5', 42n);
      topics.advance('topic:0.0.5', { safe: 42n, read: 45n });
      topics.markSeen('topic:0.0.5', 44n);
      logs.advance('log:0.0.9', { safe: { ts: NOW, index: 3 }, read: { ts: NOW + 5n, index: 0 } });
      logs.markSeen('log:0.0.9', { ts: NOW + 1n, index: 7 });
      first.advance('tx:0.0.1', { safe: NOW, read: NOW });
    });
    first.store.close();

    const again = new CursorStore(openStateStore({ dir }));
    const t = again.positions(sequenceCursor);
    const l = again.positions(timestampIndexCursor);
    expect(t.cursor('topic:0.0.5')).toEqual({ safe: 42n, read: 45n });
    expect([43n, 44n].map((n) => t.isSeen('topic:0.0.5', n))).toEqual([false, true]);
    expect(l.cursor('log:0.0.9')).toEqual({ safe: { ts: NOW, index: 3 }, read: { ts: NOW + 5n, index: 0 } });
    expect(l.isSeen('log:0.0.9', { ts: NOW + 1n, index: 7 })).toBe(true);
    expect(l.isSeen('log:0.0.9', { ts: NOW + 1n, index: 6 })).toBe(false);
    expect([...l.all().keys()]).toEqual(['log:0.0.9']);
    expect(again.cursor('tx:0.0.1')).toEqual({ safe: NOW, read: NOW });
    expect(again.positions(sequenceCursor)).toBe(t);
    again.store.close();
  });

  it('gives the timestamp kinds of today the store they always had (tail_cursor, tail_seen)', () => {
    const store = memory();
    for (const kind of Object.values(STREAM_KINDS)) expect(store.positions(kind.cursor)).toBe(store);
    store.positions(timestampCursor).advance('tx:0.0.1', { safe: 5n, read: 6n });
    expect(store.store.db.prepare('SELECT stream, safe, read FROM tail_cursor').all()).toEqual([
      { stream: 'tx:0.0.1', safe: 5, read: 6 },
    ]);
  });

  it('prunes the seen positions at or before safe, in position order (not text order of the numbers)', () => {
    const topics = memory().positions(sequenceCursor);
    for (const n of [9n, 10n, 11n, 100n]) topics.markSeen('topic:0.0.5', n);
    topics.prune('topic:0.0.5', 10n);
    expect([9n, 10n, 11n, 100n].filter((n) => topics.isSeen('topic:0.0.5', n))).toEqual([11n, 100n]);
  });

  it('holds a timestamp + index cursor at now, and never moves it back', () => {
    let now = NOW;
    const logs = memory(() => now).positions(timestampIndexCursor);
    const ahead = { ts: NOW + 1_000_000_000n, index: 2 };

    const held = logs.advance('log:0.0.9', { safe: ahead, read: ahead });
    expect(held).toEqual({
      safe: { ts: NOW, index: 9_999_999_999 },
      read: { ts: NOW, index: 9_999_999_999 },
    });
    now = NOW - 5n;
    expect(logs.advance('log:0.0.9', { safe: ahead, read: ahead })).toEqual(held);
    expect(logs.advance('log:0.0.9', { safe: { ts: 1n, index: 0 }, read: { ts: 1n, index: 0 } })).toEqual(
      held,
    );
  });

  it('moves a sequence cursor only over the numbers handed over, one after the other, never back', () => {
    const store = memory(() => NOW);
    const topics = store.positions(sequenceCursor);
    topics.reset('topic:0.0.5', { safe: 0n, read: 0n });
    for (const n of [1n, 2n, 3n, 5n]) topics.markSeen('topic:0.0.5', n);

    // A message numbered far ahead (a hostile or broken service) and a missing 4: safe stays at the run's end.
    expect(topics.advance('topic:0.0.5', { safe: 10n ** 18n, read: 10n ** 18n })).toEqual({
      safe: 3n,
      read: 10n ** 18n,
    });
    expect(topics.advance('topic:0.0.5', { safe: 1n, read: 1n }).safe).toBe(3n);
    topics.markSeen('topic:0.0.5', 4n);
    expect(topics.advance('topic:0.0.5', { safe: 5n, read: 5n }).safe).toBe(5n);
    // Past a gap only on purpose: reset (the caller reports the gap it gives up on).
    topics.reset('topic:0.0.5', { safe: 7n, read: 7n });
    expect(topics.cursor('topic:0.0.5')).toEqual({ safe: 7n, read: 7n });
  });

  it('forgets the cursor writes of a transaction that rolled back', () => {
    const store = memory();
    const topics = store.positions(sequenceCursor);
    expect(() =>
      store.transaction(() => {
        topics.reset('topic:0.0.5', { safe: 3n, read: 3n });
        throw new Error('handler failed');
      }),
    ).toThrow('handler failed');
    expect(topics.cursor('topic:0.0.5')).toBeUndefined();
  });

  it('refuses a kind that has nothing to hold its cursors, and a timestamp kind that is not the timestamp cursor', () => {
    const loose: CursorKind<bigint> = { ...sequenceCursor, name: 'loose', next: undefined };
    expect(() => memory().positions(loose)).toThrow(/neither lastAt .* nor next/);
    expect(() => memory().positions({ ...sequenceCursor, name: 'timestamp' })).toThrow(/tail_cursor/);
  });
});

describe('cursor store, what it refuses to read', () => {
  function withRow(sql: string, ...values: unknown[]): StateStore {
    const store = openStateStore({ dir: ':memory:' });
    new CursorStore(store).positions(sequenceCursor);
    store.db.prepare(sql).run(...values);
    return store;
  }

  it.each([
    ['text', 'forty-two'],
    ['a negative number', '-0000000000000000001'],
    ['a composite position', '00000000000000000010:0000000002'],
  ])('a sequence cursor holding %s, naming the stream and the kind', (_, safe) => {
    const store = withRow(`INSERT INTO tail_position VALUES ('topic:0.0.5', 'sequence', ?, ?)`, safe, safe);
    expect(() => new CursorStore(store).positions(sequenceCursor)).toThrow(
      /stored safe of stream topic:0\.0\.5 \(a sequence cursor\) cannot be read .* not reset on a guess/,
    );
  });

  it('a seen position that is not one, when the cursor walks over it', () => {
    const store = withRow(`INSERT INTO tail_position_seen VALUES ('topic:0.0.5', '00000000000000000001x')`);
    const topics = new CursorStore(store).positions(sequenceCursor);
    topics.reset('topic:0.0.5', { safe: 0n, read: 0n });
    expect(() => topics.advance('topic:0.0.5', { safe: 2n, read: 2n })).toThrow(
      /stored seen of stream topic:0\.0\.5 \(a sequence cursor\).*tail_position_seen/,
    );
  });

  it('a stream another kind wrote, read as this kind', () => {
    const store = withRow(
      `INSERT INTO tail_position VALUES ('topic:0.0.5', 'timestamp-index', ?, ?)`,
      '00000000000000000010:0000000002',
      '00000000000000000010:0000000002',
    );
    const topics = new CursorStore(store).positions(sequenceCursor);
    expect(() => topics.cursor('topic:0.0.5')).toThrow(
      /stream topic:0\.0\.5 is stored in tail_position as a timestamp-index cursor, not the sequence cursor/,
    );
    expect(() => topics.advance('topic:0.0.5', { safe: 1n, read: 1n })).toThrow(/not the sequence cursor/);
    expect(new CursorStore(store).positions(timestampIndexCursor).cursor('topic:0.0.5')).toEqual({
      safe: { ts: 10n, index: 2 },
      read: { ts: 10n, index: 2 },
    });
  });
});
