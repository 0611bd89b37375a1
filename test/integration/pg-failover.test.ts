// PostgreSQL itself fails over under two HA replicas (`ledger-sentinel run`, ha.enabled, under a supervisor that
// restarts any that exits): a primary and a streaming standby (pg_basebackup -R, asynchronous, as most clusters
// run), the replicas' URL naming one endpoint that the failover tooling points at the new primary (node-postgres
// takes one host; docs/deployment.md). The primary is crashed (`pg_ctl stop -m immediate`) and the standby
// promoted. Every marker must be alerted exactly once, and no leader may go on writing into a database that lost
// what it had acknowledged: with asynchronous replication the promoted standby can lack the last commits, and a
// leader that kept shipping on top of that gap would leave a state whose next reader skips an alert for good.
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import {
  deliveriesByStatus,
  linesWith,
  sentIds,
  startReplicaSet,
  type ReplicaSet,
} from '../helpers/ha-replicas.js';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';
import {
  markerRules,
  sql,
  startEndpoint,
  startStandby,
  writeUrlFile,
  type Endpoint,
  type Standby,
} from './pg-cluster.js';

const HBAR = 100_000_000n;

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('PostgreSQL failover under HA replicas', () => {
  let env: DaemonEnv;
  let primary: PostgresServer | undefined;
  let standby: Standby | undefined;
  let endpoint: Endpoint | undefined;
  let link: TcpProxy | undefined;
  let set: ReplicaSet | undefined;
  beforeAll(async () => {
    env = await startDaemonEnv();
    env.writeRule('markers.yaml', markerRules(['a', 'b', 'c', 'd', 'e']));
  }, 60_000);
  afterEach(async () => {
    await set?.close();
    await endpoint?.close();
    await link?.close();
    standby?.destroy();
    primary?.destroy();
    set = undefined;
    endpoint = undefined;
    link = undefined;
    standby = undefined;
    primary = undefined;
  });
  afterAll(async () => env?.close());

  /** A primary, its standby (through a link that can be cut), the endpoint, and two replicas on it. */
  async function cluster(): Promise<{ url: string; set: ReplicaSet; standby: Standby; link: TcpProxy }> {
    primary = await startPostgres();
    primary.createDatabase('failover');
    link = await startTcpProxy(primary.port);
    standby = await startStandby(primary, link.port);
    endpoint = await startEndpoint(primary.port);
    const url = `postgres://sentinel@127.0.0.1:${endpoint.port}/failover`;
    writeUrlFile(join(env.dir, 'pg-url'), url);
    env.writeConfig(`ha: { enabled: true, lease_ttl: 6s, holder: '\${HOLDER}' }\n`, {
      state: `{ backend: postgres, postgres: { url_file: ${join(env.dir, 'pg-url')} } }`,
    });
    set = startReplicaSet({ configPath: env.configPath, holders: ['pod-a', 'pod-b'] });
    return { url, set, standby, link };
  }

  /** Crash the primary, promote the standby, point the endpoint at it: what the failover tooling does. */
  function failover(): void {
    primary?.crash();
    standby?.promote();
    endpoint?.pointTo(standby?.port ?? 0);
  }

  const mark = (name: string, account: string) =>
    env.ledger.ledger.inject({
      ...largeDebit(account, 2_000n * HBAR, '0.0.1001'),
      memo: `pgm-${name}`,
      result: 'SUCCESS',
    });
  const accepted = (tag: string) =>
    env.slack.requests.filter((r) => r.answer.status === 200 && r.body.includes(tag)).length;
  const allSent = (s: ReplicaSet) =>
    sentIds(
      s
        .all()
        .map((r) => r.proc.stdout())
        .join('\n'),
    );
  const output = (s: ReplicaSet) =>
    s
      .all()
      .map((r) => `${r.holder} ${r.proc.pid}:\n${r.proc.stdout()}\n${r.proc.stderr()}`)
      .join('\n');

  it('a standby in step is promoted: the replicas reconnect to it and alert every marker once', async ({
    onTestFailed,
  }) => {
    const { url, set: s, standby: next } = await cluster();
    onTestFailed(() => console.error(output(s)));
    await s.waitForLeader();
    mark('a', '0.0.1003');
    await until(async () => accepted('pgm-a') > 0);
    // Its "sent" committed and on the standby: a mark lost with the primary would be sent again by design.
    await until(async () => ((await deliveriesByStatus(url)).pending ?? 0) === 0);
    await until(() => next.caughtUp(primary?.url ?? ''));

    failover();
    mark('b', '0.0.1004');
    await until(async () => accepted('pgm-b') > 0);
    await until(async () => ((await deliveriesByStatus(url)).pending ?? 0) === 0);
    await s.waitForLeader();
    const [lease] = await sql<{ token: string }>(url, 'SELECT token::text FROM sentinel_lease');
    const tokens = await sql<{ token: string }>(url, 'SELECT token::text FROM sentinel_commits');

    expect(accepted('pgm-a')).toBe(1);
    expect(accepted('pgm-b')).toBe(1);
    const sent = allSent(s);
    expect(new Set(sent).size).toBe(sent.length);
    // Fencing survived the move: no batch in the new primary under a token newer than the lease's.
    expect(tokens.every((t) => BigInt(t.token) <= BigInt(lease?.token ?? '0'))).toBe(true);
  }, 120_000);

  it('a standby that fell behind is promoted: no leader writes on top of the lost commits, and the held alert arrives once', async ({
    onTestFailed,
  }) => {
    const { url, set: s, standby: next, link: toStandby } = await cluster();
    onTestFailed(() => console.error(output(s)));
    await s.waitForLeader();
    mark('c', '0.0.1003');
    await until(async () => accepted('pgm-c') > 0);
    // Its "sent" committed and on the standby: a mark lost with the primary would be sent again by design.
    await until(async () => ((await deliveriesByStatus(url)).pending ?? 0) === 0);
    await until(() => next.caughtUp(primary?.url ?? ''));

    // From here the standby receives nothing: whatever the leader commits now exists only on the old primary.
    toStandby.cut();
    const holds = 4;
    env.slack.script(
      ...Array.from({ length: holds }, () => ({ status: 429, headers: { 'retry-after': '1' } })),
    );
    const before = env.slack.requests.length;
    mark('d', '0.0.1004');
    // Sent only after its batch was acknowledged by the (old) primary: the alert is in the commits the standby lacks.
    await until(async () => env.slack.requests.slice(before).some((r) => r.body.includes('pgm-d')));

    failover();
    const total = 'SELECT coalesce(sum(batches), 0)::int AS n FROM sentinel_commits';
    const [{ n: promoted } = { n: 0 }] = await sql<{ n: number }>(url, total);
    // Whoever leads now (the same leader, or the next) has written to the new primary.
    await until(async () => ((await sql<{ n: number }>(url, total))[0]?.n ?? 0) >= promoted + 3);
    const leading = s.leader();
    if (leading) s.signal(leading, 'SIGKILL'); // a later crash, which shows whatever gap the state was left with
    await s.waitForLeader();
    mark('e', '0.0.1003');
    await until(async () => accepted('pgm-e') > 0);
    await until(async () => ((await deliveriesByStatus(url)).pending ?? 0) === 0);

    const out = s
      .all()
      .map((r) => r.proc.stdout())
      .join('\n');
    // The leader of the lost commits stopped at its first write to the new primary (lost commits, or its lease
    // bump lost with them), and every later leader loaded a consistent state.
    expect(/PostgreSQL lost \d+ of the \d+ transactions|state write refused/.test(out)).toBe(true);
    expect(out).not.toContain('FOREIGN KEY constraint failed');
    expect(accepted('pgm-c')).toBe(1);
    expect(accepted('pgm-d')).toBe(1);
    const sent = allSent(s);
    expect(new Set(sent).size).toBe(sent.length);
    expect(s.all().every((r) => linesWith(r.proc.stdout(), '"msg":"leadership lost') <= 1)).toBe(true);
  }, 150_000);
});
