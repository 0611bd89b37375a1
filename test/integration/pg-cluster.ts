// What a PostgreSQL fault test needs beyond one server (test/helpers/postgres.ts): a streaming standby of it
// (pg_basebackup -R) that can be promoted, and a tablespace on a small file system of its own that can be filled
// to the last byte and freed again, so that the database's writes fail with ENOSPC the way a full disk fails them.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { POSTGRES_BIN, type PostgresServer } from '../helpers/postgres.js';

/** PostgreSQL will not run as root: as root, every tool runs as `nobody` (as test/helpers/postgres.ts does). */
function asPostgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function pgTool(tool: string, args: readonly string[]): void {
  const file = join(POSTGRES_BIN ?? '', tool);
  const as = asPostgresUser();
  const [cmd, argv] = as ? ['runuser', ['-u', 'nobody', '--', file, ...args]] : [file, [...args]];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: '/', timeout: 90_000 });
  if (r.status !== 0)
    throw new Error(`${tool} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs one statement (or several, `;`-separated) on a URL and returns the rows of the last. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface Standby {
  readonly port: number;
  /** `pg_ctl promote -w`: the standby leaves recovery and takes writes. */
  promote(): void;
  /** True once the standby has replayed everything the primary had written when this was called. */
  caughtUp(primaryUrl: string): Promise<boolean>;
  destroy(): void;
}

/** A streaming standby of `primary` (asynchronous replication, as pg_basebackup -R writes it), started. */
export async function startStandby(primary: PostgresServer): Promise<Standby> {
  const dir = mkdtempSync(join(tmpdir(), 'sentinel-pg-standby-'));
  chmodSync(dir, 0o700);
  const as = asPostgresUser();
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  pgTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'sentinel',
    '-D',
    data,
    '-R',
  ]);
  const port = await freePort();
  pgTool('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c max_connections=200`,
    'start',
  ]);
  return {
    port,
    promote: () => pgTool('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']),
    async caughtUp(primaryUrl) {
      const [head] = await sql<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
      const url = `postgres://sentinel@127.0.0.1:${port}/postgres`;
      const [row] = await sql<{ ok: boolean }>(
        url,
        `SELECT pg_last_wal_replay_lsn() >= '${head?.lsn ?? '0/0'}'::pg_lsn AS ok`,
      );
      return row?.ok === true;
    },
    destroy() {
      try {
        pgTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface SmallDisk {
  /** A database whose every table lives on the small file system. */
  readonly url: string;
  /** Fills the file system to the last byte (a file of zeros beside the tablespace). */
  fill(): void;
  /** Removes the filler: space is back. */
  free(): void;
  destroy(): void;
}

/**
 * Why it can be missing: mounting a tmpfs needs root (CAP_SYS_ADMIN). Returns the reason, or undefined when a
 * small file system can be mounted here.
 */
export function smallDiskUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs for the tablespace needs root';
  const probe = mkdtempSync(join(tmpdir(), 'sentinel-mount-probe-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { encoding: 'utf8' });
  if (r.status === 0) spawnSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return r.status === 0 ? undefined : `mount -t tmpfs failed here: ${r.stderr.trim() || r.status}`;
}

/**
 * A tmpfs of `sizeMb` mounted for a tablespace, and database `name` created in it (its catalog takes about
 * 8 MB of it): every table the daemon creates there is extended on that file system.
 */
export async function startSmallDisk(server: PostgresServer, name: string, sizeMb = 24): Promise<SmallDisk> {
  const mount = mkdtempSync(join(tmpdir(), 'sentinel-pg-disk-'));
  const as = asPostgresUser();
  const owner = as ? `,uid=${as.uid},gid=${as.gid}` : '';
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700${owner}`, 'tmpfs', mount]);
  const space = join(mount, 'ts');
  mkdirSync(space, { mode: 0o700 });
  if (as) chownSync(space, as.uid, as.gid);
  const admin = server.url.replace(/\/[^/]*$/, '/postgres');
  await sql(admin, `CREATE TABLESPACE ${name}_space LOCATION '${space}'`);
  await sql(admin, `CREATE DATABASE ${name} TABLESPACE ${name}_space`);
  const filler = join(mount, 'filler');
  return {
    url: admin.replace(/\/postgres$/, `/${name}`),
    fill() {
      // dd stops at ENOSPC with status 1: the file system is then full to its last block.
      spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k'], { encoding: 'utf8' });
    },
    free: () => rmSync(filler, { force: true }),
    destroy() {
      rmSync(filler, { force: true });
      spawnSync('umount', ['-l', mount]);
      rmSync(mount, { recursive: true, force: true });
    },
  };
}

/** Writes the daemon's PostgreSQL URL where the config's url_file points. */
export function writeUrlFile(path: string, url: string): void {
  writeFileSync(path, url);
}
