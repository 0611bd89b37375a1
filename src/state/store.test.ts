import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { osReason } from '../config/os-reason.js';
import { openStateStore, type StateStore } from './store.js';
import { stateStoreError } from './state-store-error.js';

describe('openStateStore', () => {
  let dir: string;
  const open: StateStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'state-store-'));
  });
  afterEach(() => {
    for (const store of open.splice(0)) if (store.db.open) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one owner hold a state dir: a second open names the holder and the fix', () => {
    const state = join(dir, 'state');
    open.push(openStateStore({ dir: state, pid: 4242, clock: () => Date.UTC(2026, 0, 2) }));

    const second = () => openStateStore({ dir: state, pid: 4343 });

    expect(second).toThrow(
      `state dir ${state} is in use by pid 4242 on host ${hostname()} (started 2026-01-02T00:00:00.000Z): ` +
        'stop that daemon, or give this one its own state.dir (one state dir per replica)',
    );
  });

  it('keeps WAL mode under the exclusive lock, and the lock is released on close', () => {
    const state = join(dir, 'state');
    const first = openStateStore({ dir: state });
    first.db.exec('CREATE TABLE t (x INTEGER)');
    first.transaction(() => first.db.prepare('INSERT INTO t VALUES (1)').run());
    const mode = first.db.pragma('journal_mode', { simple: true }) as string;
    first.close();

    const second = openStateStore({ dir: state });
    open.push(second);

    expect(mode).toBe('wal');
    expect(second.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
  });

  it('names the file and the fix for a corrupt database', () => {
    writeFileSync(join(dir, 'state.db'), 'this is not a database, '.repeat(200));

    const opening = () => openStateStore({ dir });

    expect(opening).toThrow(
      new RegExp(
        `^state database ${join(dir, 'state.db')} is corrupt or not a SQLite database \\(SQLITE_NOTADB\\): ` +
          `stop the daemon, move the file aside \\(mv .*state.db .*state.db.corrupt\\) and start again\\. ` +
          'The new database starts every cursor from tail.start; the pending deliveries, alert states and ' +
          'dedup window in the old file are lost$',
      ),
    );
  });

  it('says "not a directory" when state.dir is under a regular file', () => {
    writeFileSync(join(dir, 'file'), '');
    const state = join(dir, 'file', 'state');

    const opening = () => openStateStore({ dir: state });

    expect(opening).toThrow(
      `state dir ${state}: a part of the path is not a directory (ENOTDIR): point state.dir at a directory ` +
        'the daemon can create and write',
    );
  });

  it.each([
    ['EROFS', 'read-only file system (EROFS): mount a writable volume at state.dir'],
    ['EACCES', 'permission denied (EACCES): make it writable by the daemon user'],
    ['ENOSPC', 'no space left on device (ENOSPC): free space on that volume'],
  ])('maps %s to what it means and the fix', (code, expected) => {
    const err = Object.assign(new Error(`${code}: mkdir failed`), { code });

    const message = stateStoreError(err, '/var/lib/x', '/var/lib/x/state.db').message;

    expect(message).toContain(`state dir /var/lib/x: ${expected}`);
    expect(message).not.toContain('mkdir');
    expect(osReason(err)).not.toBe('unknown error');
  });

  describe('check', () => {
    it('is quiet while the file is the one opened', () => {
      const store = openStateStore({ dir });
      open.push(store);

      expect(store.check()).toBeUndefined();
    });

    it('notices the state dir deleted while running', () => {
      const state = join(dir, 'state');
      const store = openStateStore({ dir: state });
      open.push(store);

      rmSync(state, { recursive: true });

      expect(store.check()).toBe(
        `${join(state, 'state.db')} is gone (no such file (ENOENT)): the state dir was deleted or unmounted ` +
          'while running',
      );
    });

    it('notices the database replaced by another file', () => {
      const store = openStateStore({ dir });
      open.push(store);

      renameSync(join(dir, 'state.db'), join(dir, 'old.db'));
      writeFileSync(join(dir, 'state.db'), '');

      expect(store.check()).toBe(`${join(dir, 'state.db')} was replaced by another file while running`);
    });
  });
});
