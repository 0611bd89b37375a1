// `ledger-sentinel state`: shows the cursors of a stopped daemon's state directory and resets them, offline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureCli } from '../../../test/helpers/capture-cli.js';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { openStateStore } from '../../state/store.js';
import { CursorStore } from '../../tail/cursor/cursor-store.js';
import { runCli } from '../cli.js';

const S = 1_000_000_000n;
const YEAR_2100 = 4_102_444_800n * S;
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A state directory with a healthy cursor and one poisoned by a record dated 2100. */
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-state-'));
  dirs.push(dir);
  const store = openStateStore({ dir });
  const tail = new CursorStore(store);
  const recent = timestampFromMillis(Date.now()) - 60n * S;
  store.transaction(() => {
    tail.reset('tx:0.0.1003', { safe: YEAR_2100, read: YEAR_2100 });
    tail.reset('tx:0.0.1004', { safe: recent, read: recent });
  });
  store.close();
  return dir;
}

function cursorsIn(dir: string) {
  const store = openStateStore({ dir });
  const all = new Map(new CursorStore(store).all());
  store.close();
  return all;
}

async function cli(argv: string[]) {
  const c = captureCli(argv);
  const code = await runCli(c.ctx);
  return { code, out: c.out(), err: c.err() };
}

describe('ledger-sentinel state', () => {
  it('cursors: every stream with ISO times, how far from now, and the poisoned one flagged', async () => {
    const dir = stateDir();

    const r = await cli(['state', 'cursors', '--state-dir', dir]);

    expect(r.code).toBe(0);
    const [, poisoned, healthy] = r.out.trim().split('\n');
    expect(poisoned).toMatch(/^tx:0\.0\.1003 +2100-01-01T00:00:00\.000000000Z .* s AHEAD {2}BEYOND now/);
    expect(healthy).toMatch(/^tx:0\.0\.1004 .* 6\d(\.\d+)? s behind$/);
  });

  it('cursors --json', async () => {
    const dir = stateDir();

    const r = await cli(['state', 'cursors', '--state-dir', dir, '--json']);

    const rows = JSON.parse(r.out) as { stream: string; safe: string; beyondBound: boolean }[];
    expect(rows.map((x) => [x.stream, x.beyondBound])).toEqual([
      ['tx:0.0.1003', true],
      ['tx:0.0.1004', false],
    ]);
    expect(rows[0]?.safe).toBe('4102444800.000000000');
  });

  it('reset-cursor moves one stream to a timestamp, and leaves the others', async () => {
    const dir = stateDir();
    const before = cursorsIn(dir).get('tx:0.0.1004');

    const r = await cli(['state', 'reset-cursor', 'tx:0.0.1003', '--to', '1700000000.5', '--state-dir', dir]);

    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'tx:0.0.1003: safe 2100-01-01T00:00:00.000000000Z → 2023-11-14T22:13:20.500000000Z',
    );
    const after = cursorsIn(dir);
    expect(after.get('tx:0.0.1003')).toEqual({
      safe: 1_700_000_000_500_000_000n,
      read: 1_700_000_000_500_000_000n,
    });
    expect(after.get('tx:0.0.1004')).toEqual(before);
  });

  it('reset-cursor --all --to now brings every stream to now', async () => {
    const dir = stateDir();
    const low = timestampFromMillis(Date.now());

    const r = await cli(['state', 'reset-cursor', '--all', '--state-dir', dir]);

    expect(r.code).toBe(0);
    const high = timestampFromMillis(Date.now());
    for (const c of cursorsIn(dir).values())
      expect(c.safe >= low && c.safe <= high && c.read === c.safe).toBe(true);
  });

  it.each([
    [['reset-cursor', 'tx:0.0.9'], 1, 'no cursor for tx:0.0.9; known streams: tx:0.0.1003, tx:0.0.1004'],
    [['reset-cursor', 'tx:0.0.1003', '--to', '4102444800'], 2, 'is in the future'],
    [['reset-cursor', 'tx:0.0.1003', '--to', 'yesterday'], 2, 'expected "now" or a timestamp'],
    [['reset-cursor', 'tx:0.0.1003', '--all'], 2, 'one stream (e.g. tx:0.0.1234) or --all'],
    [['reset-cursor'], 2, 'one stream (e.g. tx:0.0.1234) or --all'],
    [['frob'], 2, 'expected a subcommand: cursors, reset-cursor or migrate'],
  ])('refuses %j with exit %i', async (args, code, message) => {
    const dir = stateDir();
    const before = cursorsIn(dir);

    const r = await cli(['state', ...args, '--state-dir', dir]);

    expect(r.code).toBe(code);
    expect(r.err).toContain(message);
    expect(cursorsIn(dir)).toEqual(before);
  });

  it('says where it looked when there is no state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-state-'));
    dirs.push(dir);

    const r = await cli(['state', 'cursors', '--state-dir', dir]);

    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `no state at ${join(dir, 'state.db')}: pass --state-dir <dir> or --config <file>`,
    );
  });

  it('--help prints the usage', async () => {
    const r = await cli(['state', '--help']);

    expect(r.code).toBe(0);
    expect(r.out).toContain('ledger-sentinel state reset-cursor <stream|--all>');
  });
});
