// The synchronous level each transaction commits with (docs/reliability.md, "Commit durability"): 'replayable'
// transactions (the pipeline's page commits) commit with NORMAL when state.sqlite.synchronous is normal; every
// other write, autocommit ones included, with FULL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore, type StateStore } from './store.js';

const FULL = 2;
const NORMAL = 1;

describe('commit durability', () => {
  let dir: string;
  let store: StateStore | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'commit-durability-'));
  });
  afterEach(() => {
    store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The level in effect inside a transaction, i.e. the one its commit uses. */
  function levelIn(s: StateStore, options?: Parameters<StateStore['transaction']>[1]): unknown {
    return s.transaction(() => s.db.pragma('synchronous', { simple: true }), options);
  }

  it('commits replayable transactions with NORMAL and everything else with FULL', () => {
    store = openStateStore({ dir, replayableSync: 'normal' });

    expect(levelIn(store, { durability: 'replayable' })).toBe(NORMAL);
    expect(levelIn(store)).toBe(FULL);
    expect(levelIn(store, { durability: 'full' })).toBe(FULL);
    // The connection rests at FULL: a write outside transaction() (autocommit) is on disk when it returns.
    expect(store.db.pragma('synchronous', { simple: true })).toBe(FULL);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('goes back to FULL when a replayable transaction throws', () => {
    store = openStateStore({ dir, replayableSync: 'normal' });
    const s = store;

    expect(() =>
      s.transaction(
        () => {
          throw new Error('rule engine failed');
        },
        { durability: 'replayable' },
      ),
    ).toThrow('rule engine failed');

    expect(s.db.pragma('synchronous', { simple: true })).toBe(FULL);
  });

  it('keeps a replayable step nested in a FULL transaction at FULL (it commits with the outer one)', () => {
    store = openStateStore({ dir, replayableSync: 'normal' });
    const s = store;

    const inner = s.transaction(() => levelIn(s, { durability: 'replayable' }));

    expect(inner).toBe(FULL);
  });

  it('commits everything with FULL when state.sqlite.synchronous is full (and by default)', () => {
    store = openStateStore({ dir, replayableSync: 'full' });
    expect(levelIn(store, { durability: 'replayable' })).toBe(FULL);
    store.close();

    store = openStateStore({ dir });
    expect(levelIn(store, { durability: 'replayable' })).toBe(FULL);
  });

  it('keeps what replayable transactions wrote across a reopen', () => {
    store = openStateStore({ dir, replayableSync: 'normal' });
    const s = store;
    s.db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    const insert = s.db.prepare('INSERT INTO t (n) VALUES (?)');
    for (let n = 1; n <= 3; n++) s.transaction(() => insert.run(n), { durability: 'replayable' });
    s.close();

    store = openStateStore({ dir, replayableSync: 'normal' });

    expect(store.db.prepare('SELECT n FROM t ORDER BY n').pluck().all()).toEqual([1, 2, 3]);
  });
});
