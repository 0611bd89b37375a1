import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../state/store.js';
import { CursorStore } from './cursor-store.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('CursorStore', () => {
  it('keeps cursors and seen timestamps across a reopen, exactly (no float rounding)', () => {
    dir = mkdtempSync(join(tmpdir(), 'tail-state-'));
    const ts = 1_700_000_000_123_456_789n;
    const first = openStateStore({ dir });
    const state = new CursorStore(first);
    first.transaction(() => {
      state.advance('tx:0.0.1', { safe: ts, read: ts + 5n });
      state.markSeen('tx:0.0.1', ts + 1n);
    });
    first.close();

    const reopened = new CursorStore(openStateStore({ dir }));

    expect(reopened.cursor('tx:0.0.1')).toEqual({ safe: ts, read: ts + 5n });
    expect(reopened.isSeen('tx:0.0.1', ts + 1n)).toBe(true);
    expect(reopened.isSeen('tx:0.0.1', ts + 2n)).toBe(false);
    reopened.store.close();
  });

  it('only moves cursors forward', () => {
    const state = new CursorStore(openStateStore({ dir: ':memory:' }));
    state.advance('s', { safe: 10n, read: 20n });

    const moved = state.advance('s', { safe: 5n, read: 15n });

    expect(moved).toEqual({ safe: 10n, read: 20n });
  });

  it('prunes the dedup window at the cursor, per stream or for every covered stream', () => {
    const state = new CursorStore(openStateStore({ dir: ':memory:' }));
    for (const stream of ['tx:0.0.1', 'rw:0.0.1', 'rwp:ALIAS'])
      for (const ts of [1n, 2n, 3n]) state.markSeen(stream, ts);

    state.prune('tx:0.0.1', 2n);
    state.pruneCovered(1n);

    expect(
      ['tx:0.0.1', 'rw:0.0.1', 'rwp:ALIAS'].map((s) => [1n, 2n, 3n].filter((t) => state.isSeen(s, t))),
    ).toEqual([[3n], [2n, 3n], [1n, 2n, 3n]]);
  });

  it('rolls back with the transaction it ran in', () => {
    const store = openStateStore({ dir: ':memory:' });
    const state = new CursorStore(store);

    expect(() =>
      store.transaction(() => {
        state.markSeen('s', 1n);
        throw new Error('handler failed');
      }),
    ).toThrow('handler failed');

    expect(state.isSeen('s', 1n)).toBe(false);
  });
});
