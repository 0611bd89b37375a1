// Two `ledger-sentinel run` processes (ha.enabled) on one real PostgreSQL: the leader is killed -9 while an alert
// waits in its outbox (Slack answered 429 with Retry-After, so it holds the alert back), and the standby takes over,
// loads the shared state after its lease acquisition and delivers that alert exactly once. Then the new leader is
// SIGSTOPped past its lease: the replica started after the kill takes over, and the woken one exits 1 without
// committing a batch or sending anything.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { spawnSentinel, type SentinelProcess } from '../../bench/lib/daemon-process.js';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { LARGE_DEBIT_RULE, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('failover of HA replicas (kill -9, SIGSTOP)', () => {
  let server: PostgresServer;
  let env: DaemonEnv;
  const procs: SentinelProcess[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) {
      p.kill('SIGCONT');
      p.kill('SIGKILL');
      await p.exited;
    }
    await env?.close();
    server?.destroy();
  });

  function start(holder: string): SentinelProcess {
    const p = spawnSentinel(['run', '--config', env.configPath], { env: { HOLDER: holder }, compiled: true });
    procs.push(p);
    return p;
  }
  const elected = (p: SentinelProcess) => p.stdout().includes('leader elected');
  const accepted = (tag: string) =>
    env.slack.requests.filter((r) => r.answer.status === 200 && r.body.includes(tag)).length;

  async function tokenBatches(url: string): Promise<Map<string, number>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ token: string; batches: string }>(
      'SELECT token::text, batches::text FROM sentinel_commits',
    );
    await client.end();
    return new Map(rows.map((r) => [r.token, Number(r.batches)]));
  }

  it('the standby delivers the alert the killed leader held, once; a woken paused leader does nothing', async ({
    onTestFailed,
  }) => {
    const url = server.createDatabase('ha_failover');
    writeFileSync(join(env.dir, 'pg-url'), url);
    env.writeConfig(`ha: { enabled: true, lease_ttl: 3s, holder: '\${HOLDER}' }\n`, {
      state: `{ backend: postgres, postgres: { url_file: ${join(env.dir, 'pg-url')} } }`,
    });
    onTestFailed(() => {
      procs.forEach((p) => console.error(`${p.pid}:\n${p.stdout()}\n${p.stderr()}`));
      env.slack.requests.forEach((r) => console.error(`slack ${r.answer.status}: ${r.body}`));
    });
    const a = start('pod-a');
    await until(async () => elected(a));
    const b = start('pod-b');
    await b.waitFor((out) => out.includes('"msg":"started"'));

    env.slack.script({ status: 429, headers: { 'retry-after': '60' }, body: 'rate_limited' });
    env.ledger.ledger.inject(largeDebit('0.0.1003', 2_100n * HBAR, '0.0.1001'));
    await env.slack.waitForRequests(1);
    a.kill('SIGKILL');
    await a.exited;
    await until(async () => elected(b));
    await until(async () => accepted('2,100') > 0);
    const c = start('pod-c'); // the killed one, back as a standby
    await c.waitFor((out) => out.includes('"msg":"started"'));

    b.kill('SIGSTOP');
    await until(async () => elected(c));
    const pausedToken = /"token":"(\d+)"[^\n]*leader elected/.exec(b.stdout())?.[1];
    const before = (await tokenBatches(url)).get(pausedToken ?? 'none');
    env.ledger.ledger.inject(largeDebit('0.0.1004', 2_300n * HBAR, '0.0.1001'));
    await until(async () => accepted('2,300') > 0);
    const requestsBefore = env.slack.requests.length;
    b.kill('SIGCONT');
    const woke = await b.exited;
    const after = (await tokenBatches(url)).get(pausedToken ?? 'none');

    expect(env.slack.requests[0]?.answer.status).toBe(429);
    expect(accepted('2,100')).toBe(1);
    expect(accepted('2,300')).toBe(1);
    expect(woke.code).toBe(1);
    expect(b.stderr()).toContain('leadership lost');
    expect(before).toBeGreaterThan(0);
    expect(after).toBe(before);
    expect(env.slack.requests.length).toBe(requestsBefore);
  }, 180_000);
});
