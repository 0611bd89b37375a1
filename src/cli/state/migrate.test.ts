// `state migrate --to postgres`, end to end: a SQLite state filled by every module is copied into a real
// PostgreSQL, and a PostgreSQL store opened on it holds exactly the same rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { openStateStore } from '../../state/store.js';
import { BIG, dump, fillEverything, modules } from '../../../test/helpers/state-fixtures.js';
import { runCli } from '../cli.js';
import { captureCli } from '../../../test/helpers/capture-cli.js';

async function cli(argv: string[]) {
  const captured = captureCli(argv);
  const code = await runCli(captured.ctx);
  return { code, out: captured.out(), err: captured.err() };
}

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('ledger-sentinel state migrate --to postgres', () => {
  let server: PostgresServer;
  let tmp: string;
  beforeAll(async () => {
    server = await startPostgres();
    tmp = mkdtempSync(join(tmpdir(), 'state-migrate-'));
  }, 120_000);
  afterAll(() => {
    server?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A SQLite state dir as a stopped daemon leaves it, and its dump. */
  function sqliteState(name: string) {
    const dir = join(tmp, name);
    const store = openStateStore({ dir });
    fillEverything(store, modules(store));
    const before = dump(store);
    store.close();
    return { dir, before };
  }

  /** The URL with a password (trust auth ignores it): it must never be printed. */
  function urlFile(db: string): string {
    const url = server.createDatabase(db).replace('sentinel@', 'sentinel:pw-s3cret-42@');
    const file = join(tmp, `${db}.url`);
    writeFileSync(file, `${url}\n`);
    return file;
  }

  it('copies every table in one go and a PostgreSQL store then holds exactly the same state', async () => {
    const { dir, before } = sqliteState('full');
    const file = urlFile('migrated');

    const r = await cli(['state', 'migrate', '--to', 'postgres', '--url-file', file, '--state-dir', dir]);

    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^tail_cursor +2 rows$/m);
    expect(r.out).toMatch(/^outbox_alert +5 rows$/m);
    expect(r.out).toMatch(/^api_silence +1 rows$/m);
    expect(r.out).toMatch(/copied \d+ rows in \d+ tables from .*state\.db to postgres:\/\/sentinel:\*\*\*@/);
    expect(r.out).not.toContain('pw-s3cret-42');
    const store = await openPostgresStore({
      url: server.url.replace(/\/sentinel$/, '/migrated'),
      log: pino({ level: 'silent' }),
    });
    expect(dump(store)).toEqual(before);
    expect(modules(store).tail.cursor('global')).toEqual({ safe: BIG, read: BIG });
    await store.close();
  }, 60_000);

  it('refuses a database that already holds a state, and replaces it with --force', async () => {
    const { dir, before } = sqliteState('again');
    const file = urlFile('occupied');
    const args = ['state', 'migrate', '--to', 'postgres', '--url-file', file, '--state-dir', dir];
    expect((await cli(args)).code).toBe(0);
    const other = openStateStore({ dir });
    modules(other).tail.reset('tx:0.0.99', { safe: 1n, read: 1n });
    const changed = dump(other);
    other.close();

    const refused = await cli(args);
    const forced = await cli([...args, '--force']);

    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/already holds a ledger-sentinel state .*pass --force to replace that state/);
    expect(forced.code).toBe(0);
    expect(forced.out).toMatch(/^replaced the earlier state \(.*tail_cursor.*\)$/m);
    const store = await openPostgresStore({
      url: server.url.replace(/\/sentinel$/, '/occupied'),
      log: pino({ level: 'silent' }),
    });
    expect(dump(store)).toEqual(changed);
    expect(dump(store)).not.toEqual(before);
    await store.close();
  }, 60_000);

  it('says what to do when the state dir has no state or the daemon still holds it', async () => {
    const file = urlFile('unused');
    const empty = await cli([
      'state',
      'migrate',
      '--to',
      'postgres',
      '--url-file',
      file,
      '--state-dir',
      join(tmp, 'none'),
    ]);
    const { dir } = sqliteState('held');
    const daemon = openStateStore({ dir, pid: 4242 });
    const held = await cli(['state', 'migrate', '--to', 'postgres', '--url-file', file, '--state-dir', dir]);
    daemon.close();

    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/no SQLite state at .*none\/state\.db: pass --state-dir/);
    expect(held.code).toBe(1);
    expect(held.err).toMatch(/in use by pid 4242/);
  }, 60_000);
});
