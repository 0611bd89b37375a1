// A throwaway PostgreSQL cluster for tests and chaos: Debian's `postgresql` package (initdb + pg_ctl), run as an
// unprivileged user (PostgreSQL refuses root), a temp data dir, a Unix socket in that dir and a loopback port.
// No mock of the database anywhere: the state backends are tested against this real server.
//
// POSTGRES_BIN_DIR points at a bin folder explicitly; otherwise the newest /usr/lib/postgresql/<major>/bin is used,
// then PATH. Tests skip when no server is installed, except under CI=true where .ci/apt-packages installs it.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** postgres://…@127.0.0.1:port/sentinel — a database made for the caller. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Creates another empty database on the same server and returns its URL (one per test file or case). */
  createDatabase(name: string): string;
  /** pg_ctl stop -m fast, then start again on the same port (a database restart as operators do it). */
  restart(): void;
  /** pg_ctl stop -m immediate (a crash: no checkpoint, every connection dropped); start() brings it back. */
  crash(): void;
  start(): void;
  stop(): void;
  /** Stops the server and removes its data dir. */
  destroy(): void;
}

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.POSTGRES_BIN_DIR) return env.POSTGRES_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors[0]) return join(root, majors[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found ? found.replace(/\/initdb$/, '') : undefined;
}

export const POSTGRES_BIN = postgresBinDir();

/** True when tests that need PostgreSQL must run (CI) rather than skip. */
export const POSTGRES_REQUIRED = process.env.CI === 'true';

const USER = 'sentinel';

/** Starts a fresh cluster; throws with the command's output when it cannot. */
export async function startPostgres(options: { readonly binDir?: string } = {}): Promise<PostgresServer> {
  const bin = options.binDir ?? POSTGRES_BIN;
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql (see .ci/apt-packages)');
  const dataDir = mkdtempSync(join(tmpdir(), 'sentinel-pg-'));
  chmodSync(dataDir, 0o700);
  const asUser = runAs();
  if (asUser.uid !== undefined) chownSync(dataDir, asUser.uid, asUser.gid ?? asUser.uid);
  const pgdata = join(dataDir, 'data');
  run(asUser, join(bin, 'initdb'), ['-D', pgdata, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const start = (): void =>
    run(asUser, join(bin, 'pg_ctl'), [
      '-D',
      pgdata,
      '-l',
      join(dataDir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -h 127.0.0.1 -k ${dataDir} -c fsync=off -c max_connections=200`,
      'start',
    ]);
  const stop = (mode = 'fast'): void => {
    if (existsSync(join(pgdata, 'postmaster.pid')))
      run(asUser, join(bin, 'pg_ctl'), ['-D', pgdata, '-m', mode, '-w', 'stop']);
  };
  start();
  const createDatabase = (name: string): string => {
    run(asUser, join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', USER, name]);
    return `postgres://${USER}@127.0.0.1:${port}/${name}`;
  };
  const url = createDatabase('sentinel');
  return {
    url,
    port,
    dataDir,
    createDatabase,
    restart: () => {
      stop();
      start();
    },
    crash: () => stop('immediate'),
    start,
    stop: () => stop(),
    destroy: () => {
      try {
        stop();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

interface RunAs {
  readonly uid?: number;
  readonly gid?: number;
}

/** PostgreSQL will not run as root: as root, every command runs as `nobody` through runuser. */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function run(as: RunAs, file: string, args: readonly string[]): void {
  const [cmd, argv] =
    as.uid === undefined ? [file, args] : ['runuser', ['-u', 'nobody', '--', file, ...args]];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: '/', timeout: 90_000 });
  if (r.status !== 0)
    throw new Error(`${file} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
