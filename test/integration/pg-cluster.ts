// What a PostgreSQL fault test needs beyond one server (test/helpers/postgres.ts): a streaming standby of it
// (pg_basebackup -R) that can be promoted, and a tablespace on a small file system of its own that can be filled
// to the last byte and freed again, so that the database's writes fail with ENOSPC the way a full disk fails them.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
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

/** The same, without blocking this process: a proxy of the test may be on the tool's path (pg_basebackup). */
function pgToolAsync(tool: string, args: readonly string[]): Promise<void> {
  const file = join(POSTGRES_BIN ?? '', tool);
  const as = asPostgresUser();
  const [cmd, argv] = as ? ['runuser', ['-u', 'nobody', '--', file, ...args]] : [file, [...args]];
  return new Promise((resolve, reject) =>
    execFile(cmd, argv, { cwd: '/', timeout: 90_000 }, (err, stdout, stderr) =>
      err
        ? reject(new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || err.message}`))
        : resolve(),
    ),
  );
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
  /** Resolves (true) once the standby has replayed everything the primary had committed when this was called. */
  caughtUp(primaryUrl: string): Promise<boolean>;
  destroy(): void;
}

/**
 * A streaming standby of `primary` (asynchronous replication, as pg_basebackup -R writes it), started. `viaPort`:
 * the standby reaches the primary through that port (a proxy that can be cut, so that it falls behind).
 */
export async function startStandby(
  primary: { readonly port: number },
  viaPort = primary.port,
): Promise<Standby> {
  const dir = mkdtempSync(join(tmpdir(), 'sentinel-pg-standby-'));
  chmodSync(dir, 0o700);
  const as = asPostgresUser();
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const source = ['-h', '127.0.0.1', '-p', String(viaPort), '-U', 'sentinel'];
  const port = await freePort();
  try {
    await pgToolAsync('pg_basebackup', [...source, '-D', data, '-R', '-c', 'fast']);
    startStandbyServer(data, dir, port);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true }); // nothing left behind by a standby that never started
    throw err;
  }
  return standbyOf(data, dir, port);
}

function startStandbyServer(data: string, dir: string, port: number): void {
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
}

function standbyOf(data: string, dir: string, port: number): Standby {
  return {
    port,
    promote: () => pgTool('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']),
    async caughtUp(primaryUrl) {
      // A row written on the primary now and read on the standby: WAL is replayed in order, so everything the
      // primary committed before it is on the standby too (comparing LSNs can wait forever on an idle primary).
      const admin = primaryUrl.replace(/\/[^/]*$/, '/postgres');
      const probe = Math.floor(Math.random() * 1e9);
      await sql(
        admin,
        `CREATE TABLE IF NOT EXISTS standby_probe (n bigint); INSERT INTO standby_probe VALUES (${probe})`,
      );
      const url = `postgres://sentinel@127.0.0.1:${port}/postgres`;
      const until = performance.now() + 60_000;
      while (performance.now() < until) {
        const rows = await sql(url, `SELECT 1 FROM standby_probe WHERE n = ${probe}`).catch(() => []);
        if (rows.length > 0) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the standby on port ${port} did not replay the primary's last commit within 60 s`);
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
  const unmount = () => {
    spawnSync('umount', ['-l', mount]);
    rmSync(mount, { recursive: true, force: true });
  };
  const space = join(mount, 'ts');
  const admin = server.url.replace(/\/[^/]*$/, '/postgres');
  try {
    mkdirSync(space, { mode: 0o700 });
    if (as) chownSync(space, as.uid, as.gid);
    await sql(admin, `CREATE TABLESPACE ${name}_space LOCATION '${space}'`);
    await sql(admin, `CREATE DATABASE ${name} TABLESPACE ${name}_space`);
  } catch (err) {
    unmount(); // a mount left behind would outlive the test run
    throw err;
  }
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
      unmount();
    },
  };
}

/** Writes the daemon's PostgreSQL URL where the config's url_file points. */
export function writeUrlFile(path: string, url: string): void {
  writeFileSync(path, url);
}

export interface Endpoint {
  readonly port: number;
  /** New connections go to this port from now on; those open stay where they are (and die with their server). */
  pointTo(port: number): void;
  close(): Promise<void>;
}

/**
 * The address a client is given for "the primary" when its driver takes one host (node-postgres has no multi-host
 * URL): a virtual IP, a proxy (HAProxy, PgBouncer) or a Service that the failover tooling points at the new primary.
 */
export async function startEndpoint(upstream: number): Promise<Endpoint> {
  let target = upstream;
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = createServer((client) => {
    track(client);
    const up = connect(target, '127.0.0.1');
    track(up);
    client.on('error', () => up.destroy());
    up.on('error', () => client.destroy());
    client.pipe(up);
    up.pipe(client);
    client.on('close', () => up.destroy());
    up.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    pointTo: (port) => void (target = port),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * One rule per marker memo (`pgm-<name>`): a digest groups by rule, so each marker's alert goes out as a message of
 * its own, naming its memo, and the living ledger's own traffic never matches. `pad` is added to the summary.
 */
export function markerRules(names: readonly string[], pad = ''): string {
  const rules = names.map(
    (n) => `  - id: marker-${n}
    when: { memo: { contains: 'pgm-${n}' } }
    summary: 'marker pgm-${n} ${pad}'
    notify: [ops-slack]
    throttle: 0s`,
  );
  return `rules:\n${rules.join('\n')}\n`;
}
