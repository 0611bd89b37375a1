// Two replicas (run-replica.ts, in process) competing for one lease on a real PostgreSQL that also holds their
// shared state, with the living ledger and a Slack-like sink: only the leader polls and delivers; the standby is
// ready, names the leader and refuses state-changing API calls; a graceful stop of the leader hands over at once
// and the new leader delivers; a leader cut off from the database stops, fails (the process would exit 1) and
// sends nothing more.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAll } from '../../src/app/load-all.js';
import { createReplica, type Replica } from '../../src/cli/run/run-replica.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { openConfiguredStore } from '../../src/state/open-configured-store.js';
import { createLogger } from '../../src/observability/logger.js';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { startSlackSink, type SlackSink } from '../helpers/slack-sink.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import type { Registry } from 'prom-client';
import { LARGE_DEBIT_RULE } from './daemon-harness.js';

const HBAR = 100_000_000n;

/** Polls a condition (the endpoints have no event to wait on) and names it when it never holds. */
const API_TOKEN = 'refresh-token-0123456789abcdef';

async function until(check: () => Promise<boolean>, what = 'a condition'): Promise<void> {
  for (let i = 0; i < 1200; i += 1) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const quiet = createLogger({ level: 'silent' });

/** Bounds a wait that has no event of its own to time out on, and names it when it never settles. */
async function within<T>(what: string, ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('two replicas, one lease (PostgreSQL)', () => {
  let pg: PostgresServer;
  let ledger: RunningLivingLedger;
  let slack: SlackSink;
  let dir: string;

  beforeAll(async () => {
    pg = await startPostgres();
    // 0.0.1003 is never a background payer: a background debit of 1,000 HBAR or more (one transfer in ten) would
    // open the large-debit alert on its own and fold an injected debit into it, so its amount never reaches Slack.
    ledger = await startLivingLedger({
      seed: 'ha',
      tps: 20,
      lagMs: 300,
      autoAdvanceMs: 200,
      traffic: { quietAccounts: [1003] },
    });
    slack = await startSlackSink();
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-ha-'));
  }, 120_000);

  afterAll(async () => {
    await slack?.close();
    await ledger?.close();
    pg?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  type Running = Replica & { readonly registry: Registry };

  function replica(
    name: string,
    url: string,
    ttl = '3s',
    extra: { http: string; ha: string; postgres?: string; log?: typeof quiet } = { http: '', ha: '' },
  ): Running {
    const home = join(dir, name);
    mkdirSync(join(home, 'rules'), { recursive: true });
    writeFileSync(join(home, 'rules', 'rules.yaml'), LARGE_DEBIT_RULE);
    writeFileSync(
      join(home, 'config.yaml'),
      `ledger: { base_url: ${ledger.url}, retry: { max_attempts: 2, base_delay: 50ms, max_delay: 200ms } }
accounts: [{ id: 0.0.1003, name: treasury-hot }]
tail: { poll_interval: 300ms, overlap: 2s }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }
state: { backend: postgres, postgres: { url: '${url}'${extra.postgres ?? ''} } }
http: { host: 127.0.0.1, port: 0${extra.http} }
daemon: { watch_files: false }
ha: { enabled: true, lease_ttl: ${ttl}, holder: ${name}${extra.ha} }
`,
    );
    const result = loadAll(join(home, 'config.yaml'), { env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { state } = result.loaded.config;
    const metrics = createMetrics({ version: 'test' });
    const running = createReplica({
      loaded: result.loaded,
      logDestination: new PassThrough(),
      stdout: new PassThrough(),
      log: extra.log ?? quiet,
      metrics,
      openStore: (fence) => openConfiguredStore(state, { log: quiet, fence, replicate: fence !== undefined }),
    });
    return Object.assign(running, { registry: metrics.registry });
  }

  /** Read from the replica's registry: a replica that lost the lease has stopped its HTTP server. */
  async function metric(r: Running, name: string): Promise<number | undefined> {
    const line = (await r.registry.metrics()).split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  }

  const http = (r: Replica) => r.app()?.httpUrl() ?? 'http://127.0.0.1:9';

  const sent = (r: Running) =>
    metric(r, 'ledger_sentinel_notifications_total{notifier="ops-slack",outcome="sent",reason=""}');
  const ready = async (r: Replica) => (await (await fetch(`${http(r)}/readyz`)).text()) as string;
  /** A silence created through a replica's API with the refresh tests' token. */
  const postSilence = (r: Replica, createdBy: string) =>
    fetch(`${http(r)}/api/v1/silences`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_TOKEN}` },
      body: JSON.stringify({ matchers: ['rule="large-debit"'], endsAt: '2099-01-01T00:00:00Z', createdBy }),
    });
  const delivered = (tag: string) => slack.requests.filter((r) => r.body.includes(tag)).length;

  it('only the leader polls and delivers; the standby is ready and takes over at once on a graceful stop', async () => {
    const url = pg.createDatabase('ha_lifecycle');
    const a = replica('pod-a', url);
    await a.start();
    await until(async () => (await ready(a)).includes('first poll done'), 'pod-a to lead and poll');
    const b = replica('pod-b', url);
    await b.start();
    await until(async () => (await ready(b)).includes('leader: pod-a'), 'pod-b to stand by');

    const firstInjectedNs = ledger.ledger.nowNs();
    ledger.ledger.inject(largeDebit('0.0.1003', 1200n * HBAR, '0.0.1001', 'while-a-leads'));
    // The sink sees the body before the sender has counted the send: wait for the count too.
    await until(async () => delivered('1,200') > 0 && (await sent(a)) === 1, 'the alert from pod-a');
    const standby = { ready: await fetch(`${http(b)}/readyz`), text: await ready(b) };
    const refused = await fetch(`${http(b)}/api/v1/silences`, { method: 'POST', body: '{}' });
    const standbyPolled = (await (await fetch(`${http(b)}/metrics`)).text()).includes(
      'ledger_sentinel_ledger_requests_total{',
    );
    const before = {
      a: await sent(a),
      b: await sent(b),
      bLeader: await metric(b, 'ledger_sentinel_leader'),
    };
    await a.stop({ graceMs: 1000 });
    await until(async () => (await ready(b)).includes('first poll done'), 'pod-b to lead and poll');
    // The rule state is shared, so the rule's 1 s throttle spans the handover: a second debit within 1 s of
    // ledger time after the first would rightly be throttled. Wait on the ledger's own clock, the state the
    // throttle compares, rather than for a fixed time.
    await until(
      async () => ledger.ledger.nowNs() >= firstInjectedNs + 1_500_000_000n,
      'the ledger clock past the throttle of the first alert',
    );
    ledger.ledger.inject(largeDebit('0.0.1003', 1700n * HBAR, '0.0.1001', 'after-handover'));
    await until(async () => delivered('1,700') > 0 && (await sent(b)) !== undefined, 'the alert from pod-b');
    const after = { b: await sent(b), bLeader: await metric(b, 'ledger_sentinel_leader') };
    await b.stop({ graceMs: 0 });

    expect(standby.ready.status).toBe(200);
    expect(standby.text).toContain('role: standby, leader: pod-a (token 1)');
    expect(refused.status).toBe(503);
    expect(standbyPolled).toBe(false);
    expect(before).toEqual({ a: 1, b: undefined, bLeader: 0 });
    expect(after).toEqual({ b: 1, bLeader: 1 });
    expect(delivered('1,200')).toBe(1);
  }, 120_000);

  it('a leader cut off from the database stops, fails and sends nothing more; the standby delivers', async () => {
    const url = pg.createDatabase('ha_partition');
    const proxy = await startTcpProxy(pg.port);
    const a = replica('pod-c', url.replace(`:${pg.port}/`, `:${proxy.port}/`));
    await a.start();
    await until(async () => (await ready(a)).includes('first poll done'), 'pod-c to lead and poll');
    const b = replica('pod-d', url);
    await b.start();
    await until(async () => (await ready(b)).includes('leader: pod-c'), 'pod-d to stand by');

    proxy.cut();
    const failure = await within('the cut-off leader failing', 30_000, a.failure());
    const aSent = await sent(a);
    await until(async () => (await ready(b)).includes('first poll done'), 'pod-d to lead and poll');
    ledger.ledger.inject(largeDebit('0.0.1003', 1900n * HBAR, '0.0.1001', 'after-partition'));
    await until(async () => delivered('1,900') > 0, 'the alert from pod-d');
    const aLeader = await metric(a, 'ledger_sentinel_leader');
    const aSentAfter = await sent(a);
    await within('pod-c stopping', 30_000, a.stop({ graceMs: 0 }));
    await within('pod-d stopping', 30_000, b.stop({ graceMs: 0 }));
    await within('the proxy closing', 10_000, proxy.close());

    expect(failure.message).toContain('leadership lost (no lease renewal succeeded');
    expect(aLeader).toBe(0);
    expect(aSentAfter).toBe(aSent);
    expect(delivered('1,900')).toBe(1);
  }, 120_000);

  it('a standby re-loads its snapshot: a silence created on the leader after the standby started shows there', async () => {
    const url = pg.createDatabase('ha_refresh');
    const tokenFile = join(dir, 'api-token');
    writeFileSync(tokenFile, `${API_TOKEN}\n`);
    const extra = { http: `, api_token_file: ${tokenFile}`, ha: ', standby_refresh: 1s' };
    const leader = replica('pod-e', url, '3s', extra);
    await leader.start();
    await until(async () => (await ready(leader)).includes('first poll done'), 'pod-e to lead and poll');
    const standby = replica('pod-f', url, '3s', extra);
    await standby.start();
    await until(async () => (await ready(standby)).includes('leader: pod-e'), 'pod-f to stand by');
    const silences = async (r: Replica) => await (await fetch(`${http(r)}/api/v1/silences`)).text();
    const before = await silences(standby);
    const created = await postSilence(leader, 'refresh');
    await until(
      async () => (await silences(standby)).includes('"createdBy":"refresh"'),
      'the silence on the standby',
    );
    const standbyReady = await fetch(`${http(standby)}/readyz`);
    const standbyLeader = await metric(standby, 'ledger_sentinel_leader');
    await Promise.all([leader.stop({ graceMs: 0 }), standby.stop({ graceMs: 0 })]);

    expect(created.ok).toBe(true);
    expect(before).not.toContain('"createdBy":"refresh"');
    expect(standbyReady.status).toBe(200);
    expect(standbyLeader).toBe(0);
  }, 120_000);

  it('a standby whose refresh fails keeps serving its previous snapshot and says so once per outage', async () => {
    const url = pg.createDatabase('ha_refresh_outage');
    const proxy = await startTcpProxy(pg.port);
    const tokenFile = join(dir, 'api-token-2');
    writeFileSync(tokenFile, `${API_TOKEN}\n`);
    const lines: string[] = [];
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    const log = createLogger({ level: 'info', destination });
    const extra = { http: `, api_token_file: ${tokenFile}`, ha: ', standby_refresh: 1s' };
    const leader = replica('pod-g', url, '3s', extra);
    await leader.start();
    await until(async () => (await ready(leader)).includes('first poll done'), 'pod-g to lead and poll');
    const proxied = url.replace(`:${pg.port}/`, `:${proxy.port}/`);
    const standby = replica('pod-h', proxied, '3s', { ...extra, postgres: ', connect_timeout: 1s', log });
    await standby.start();
    await until(async () => (await ready(standby)).includes('leader: pod-g'), 'pod-h to stand by');
    const created = await postSilence(leader, 'outage');
    const listed = async () => await (await fetch(`${http(standby)}/api/v1/silences`)).text();
    await until(async () => (await listed()).includes('"createdBy":"outage"'), 'the silence on the standby');

    proxy.cut();
    const failed = () => lines.filter((l) => l.includes('standby snapshot refresh failed')).length;
    await until(() => Promise.resolve(failed() > 0), 'a failed refresh');
    const duringOutage = await listed();
    proxy.heal();
    await until(
      () => Promise.resolve(lines.some((l) => l.includes('standby snapshot refreshed again'))),
      'a refresh after the outage',
    );
    const failedLogs = failed();
    const failedReplica = await Promise.race([standby.failure(), Promise.resolve(undefined)]);
    await Promise.all([leader.stop({ graceMs: 0 }), standby.stop({ graceMs: 0 })]);
    await proxy.close();

    expect(created.ok).toBe(true);
    expect(duringOutage).toContain('"createdBy":"outage"');
    expect(failedLogs).toBe(1);
    expect(failedReplica).toBeUndefined();
  }, 120_000);
});
