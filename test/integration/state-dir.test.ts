// The state dir against a hostile world: a second daemon on it, the dir deleted while running, a corrupt
// database, a path that cannot be a directory. Real processes where the lock is the point (it is per process).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/create-app.js';
import { loadAll } from '../../src/app/load-all.js';
import { createOutbox } from '../../src/delivery/outbox.js';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { openStateStore } from '../../src/state/store.js';
import { REPO_DIR } from '../helpers/shared.js';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

const HBAR = 100_000_000n;
const DEPTH = 'ledger_sentinel_outbox_depth{notifier="ops-slack"}';

interface Child {
  readonly child: ChildProcess;
  readonly out: { text: string };
}

function spawnDaemon(configPath: string): Child {
  const out = { text: '' };
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'src/main.ts', 'run', '--config', configPath],
    {
      cwd: REPO_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (out.text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out.text += d.toString()));
  return { child, out };
}

function waitForOutput(daemon: Child, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(daemon.out.text)) return;
      daemon.child.stdout?.off('data', check);
      daemon.child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null) =>
      reject(new Error(`daemon exited (${code}) before ${pattern}:\n${daemon.out.text}`));
    daemon.child.stdout?.on('data', check);
    daemon.child.once('exit', onExit);
    check();
  });
}

async function exitCode(daemon: Child): Promise<number | null> {
  if (daemon.child.exitCode !== null) return daemon.child.exitCode;
  const [code] = (await once(daemon.child, 'exit')) as [number | null];
  return code;
}

describe('the state dir', () => {
  let env: DaemonEnv;
  const children: Child[] = [];
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => {
    for (const d of children.splice(0)) if (d.child.exitCode === null) d.child.kill('SIGKILL');
    await env.close();
  });

  it('has one owner: a second daemon exits 1 naming the holder, and starts once the first was killed', async () => {
    env.writeConfig();
    const first = spawnDaemon(env.configPath);
    children.push(first);
    await waitForOutput(first, /"msg":"started"/);

    const firstUrl = (
      JSON.parse(/\{[^\n]*"msg":"started"[^\n]*\}/.exec(first.out.text)?.[0] ?? '{}') as {
        http: string;
      }
    ).http;

    const second = spawnDaemon(env.configPath);
    children.push(second);
    const secondCode = await exitCode(second);
    const firstHealth = (await fetch(`${firstUrl}/healthz`)).status;
    first.child.kill('SIGKILL');
    await exitCode(first);
    const third = spawnDaemon(env.configPath);
    children.push(third);
    await waitForOutput(third, /"msg":"started"/);

    expect(secondCode).toBe(1);
    expect(second.out.text).toContain(
      `ledger-sentinel run: state dir ${join(env.dir, 'state')} is in use by pid ${first.child.pid} on host ` +
        `${hostname()} (started `,
    );
    expect(second.out.text).toContain('stop that daemon, or give this one its own state.dir');
    expect(firstHealth).toBe(200);
    expect(first.out.text).not.toContain('"msg":"stopped"');
  });

  it('when deleted while running: stops polling, delivers what was pending, copies the state back, exits 1', async () => {
    // A long group wait keeps the alerts pending in the outbox when the dir goes.
    env.writeConfig('daemon: { shutdown_grace: 20s }', { slackGroupWait: '1h' });
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    env.ledger.ledger.inject(largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'));
    await until(async () => ((await metricValue(url, DEPTH)) ?? 0) > 0);
    const sentBefore = env.slack.requests.length;

    rmSync(join(env.dir, 'state'), { recursive: true });
    const code = await daemon.done;

    expect(code).toBe(1);
    expect(sentBefore).toBe(0);
    expect(daemon.stdout()).toContain('"msg":"state store lost"');
    expect(daemon.stderr()).toContain(
      `ledger-sentinel run: the state store was lost: ${join(env.dir, 'state', 'state.db')} is gone`,
    );
    expect(daemon.stderr()).toContain('polling stopped; the state was copied back');
    expect(env.slack.accepted().map((m) => JSON.stringify(m))).toEqual([
      expect.stringContaining('ops-wallet'),
    ]);
    const rescued = openStateStore({ dir: join(env.dir, 'state') });
    const pending = createOutbox(rescued, Date.now).depth();
    const cursors = rescued.db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number };
    rescued.close();
    expect(pending.get('ops-slack') ?? 0).toBe(0);
    expect(cursors.n).toBeGreaterThan(0);
  });

  it('names the corrupt database and the fix, and exits 1', async () => {
    env.writeConfig();
    mkdirSync(join(env.dir, 'state'));
    const path = join(env.dir, 'state', 'state.db');
    writeFileSync(path, 'not a database; '.repeat(300));

    const daemon = env.run();
    const code = await daemon.done;

    expect(code).toBe(1);
    expect(daemon.stderr()).toContain(`state database ${path} is corrupt or not a SQLite database`);
    expect(daemon.stderr()).toContain(`move the file aside (mv ${path} ${path}.corrupt)`);
  });

  it('says the path is not a directory when state.dir is under a regular file', async () => {
    env.writeConfig();
    const config = readFileSync(env.configPath, 'utf8');
    writeFileSync(
      env.configPath,
      config.replace(/^state: .*$/m, `state: { dir: ${join(env.configPath, 'state')} }`),
    );

    const daemon = env.run();
    const code = await daemon.done;

    expect(code).toBe(1);
    expect(daemon.stderr()).toBe(
      `ledger-sentinel run: state dir ${join(env.configPath, 'state')}: a part of the path is not a directory ` +
        '(ENOTDIR): point state.dir at a directory the daemon can create and write\n',
    );
  });
});

describe('readiness after the state dir is deleted', () => {
  let env: DaemonEnv;
  let app: App | undefined;
  afterEach(async () => {
    await app?.stop();
    await env.close();
  });

  it('turns not ready with the reason at once, before the periodic check', async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    env.writeConfig();
    const result = loadAll(env.configPath, { env: {} });
    if (!result.ok) throw new Error('config');
    const sink = new PassThrough().resume();
    app = createApp({
      loaded: result.loaded,
      logDestination: sink,
      stdout: sink,
      stateCheckIntervalMs: 3_600_000,
    });
    await app.start();
    const url = app.httpUrl() ?? '';
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    rmSync(join(env.dir, 'state'), { recursive: true });
    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as { checks: Record<string, { ok: boolean; message: string }> };
    const failure = await app.failure();

    expect(res.status).toBe(503);
    expect(body.checks.state).toEqual({
      ok: false,
      message: `${join(env.dir, 'state', 'state.db')} is gone (no such file (ENOENT)): the state dir was deleted or unmounted while running`,
    });
    expect(failure.message).toContain('the state store was lost');
    expect(existsSync(join(env.dir, 'state', 'state.db'))).toBe(true);
  });
});
