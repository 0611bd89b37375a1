// Exactly once to PagerDuty and Opsgenie across kill -9 and a leader failover: `ledger-sentinel run` processes page
// through a PagerDuty-like and an Opsgenie-like server (test/helpers/) for an absence alert; the process that sent the trigger
// is killed -9 once the outbox has recorded it as sent, and the process that comes after it (a restart on the same
// SQLite state dir; the standby of an HA pair on PostgreSQL) resolves it when the missing record arrives. The
// receivers must see one trigger and one resolve with the same dedup_key, one create and one close by the same
// alias, and never a key in any output.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSentinel, type SentinelProcess } from '../../bench/lib/daemon-process.js';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres } from '../helpers/postgres.js';
import { startPagerdutyServer, type PagerdutyServer } from '../helpers/pagerduty-server.js';
import { startOpsgenieServer, type OpsgenieServer } from '../helpers/opsgenie-server.js';
import { startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const ROUTING_KEY = 'kill9routingkey0123456789abcdef0';
const API_KEY = 'kill9-opsgenie-api-key';
const RULE = `rules:
  - id: heartbeat-missing
    when: { memo: { contains: heartbeat-7f3a } }
    group_by: [account]
    window: { duration: 2s, absent: true }
    severity: critical
    summary: 'No heartbeat from {{account.name}}'
    notify: [pd, og]
`;

describe('PagerDuty and Opsgenie exactly once across kill -9', () => {
  let env: DaemonEnv;
  let pd: PagerdutyServer;
  let og: OpsgenieServer;
  const procs: SentinelProcess[] = [];
  let beating: NodeJS.Timeout | undefined;
  beforeEach(async () => {
    env = await startDaemonEnv();
    pd = await startPagerdutyServer({ routingKeys: [ROUTING_KEY] });
    og = await startOpsgenieServer({ apiKeys: [API_KEY] });
    writeFileSync(join(env.dir, 'og-key'), API_KEY);
    env.writeRule('heartbeat.yaml', RULE);
    writeFileSync(join(env.dir, 'pd-key'), ROUTING_KEY);
  });
  afterEach(async () => {
    clearInterval(beating);
    for (const p of procs.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
    await pd.close();
    await og.close();
    await env.close();
  });

  function writeConfig(state: string, extra = ''): void {
    writeFileSync(
      env.configPath,
      `ledger:
  base_url: ${env.ledger.url}
  retry: { max_attempts: 2, base_delay: 50ms, max_delay: 200ms }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
tail: { poll_interval: 300ms, overlap: 2s }
rules: { paths: [rules/*.yaml] }
notifiers:
  pd: { kind: pagerduty, routing_key_file: ${join(env.dir, 'pd-key')}, url: ${pd.url}, group_wait: 0s, min_interval: 0s }
  og: { kind: opsgenie, api_key_file: ${join(env.dir, 'og-key')}, api_url: ${og.url}, group_wait: 0s }
state: ${state}
http: { host: 127.0.0.1, port: 0 }
daemon: { tick_interval: 200ms }
self_monitoring: { enabled: false }
${extra}`,
    );
  }

  function start(holder = 'solo'): SentinelProcess {
    const p = spawnSentinel(['run', '--config', env.configPath], { env: { HOLDER: holder } });
    procs.push(p);
    return p;
  }

  /** Heartbeats every 500 ms (the window is 2 s), so the absence ends and does not start again. */
  function beat(): void {
    const once = () => env.ledger.ledger.inject({ payer: '0.0.1003', memo: 'heartbeat-7f3a' });
    once();
    beating = setInterval(once, 500);
  }

  function expectOneTriggerOneResolve(): void {
    const events = pd.accepted().map((e) => [e.event_action, e.dedup_key]);
    const key = 'heartbeat-missing{account="0.0.1003"}';
    expect(events.slice(0, 2)).toEqual([
      ['trigger', key],
      ['resolve', key],
    ]);
    expect(events.filter(([action]) => action === 'trigger')).toHaveLength(1);
    expect(pd.alerts).toEqual([expect.objectContaining({ dedupKey: key, status: 'resolved', triggers: 1 })]);
    expect(og.alerts).toEqual([expect.objectContaining({ alias: key, status: 'closed', count: 1 })]);
    expect(og.sink.requests.filter((r) => r.answer.status === 202)).toHaveLength(2);
    expect(og.failedRequests).toEqual([]);
    for (const p of procs) {
      expect(p.stdout() + p.stderr()).not.toContain(ROUTING_KEY);
      expect(p.stdout() + p.stderr()).not.toContain(API_KEY);
    }
  }

  it('a daemon killed -9 after the trigger: the restarted one resolves it, once', async ({
    onTestFailed,
  }) => {
    writeConfig(`{ dir: ${join(env.dir, 'state')} }`);
    onTestFailed(() => procs.forEach((p) => console.error(`${p.pid}:\n${p.stdout()}\n${p.stderr()}`)));
    const first = start();
    const firstUrl = await first.httpUrl();

    await pd.until(() => pd.accepted().length > 0);
    await og.until(() => og.alerts.length > 0);
    // Recorded as sent: SQLite commits the outbox row in the same turn the send returns, before any scrape.
    await until(async () => sentBoth(await (await fetch(`${firstUrl}/metrics`)).text()));
    first.kill('SIGKILL');
    await first.exited;
    const second = start();
    const secondUrl = await second.httpUrl();
    beat();
    await pd.until(() => pd.alerts[0]?.status === 'resolved');
    await og.until(() => og.alerts[0]?.status === 'closed');
    const page = await (await fetch(`${secondUrl}/`)).text();
    const metrics = await (await fetch(`${secondUrl}/metrics`)).text();

    expectOneTriggerOneResolve();
    expect(page).toContain('heartbeat-missing');
    for (const shown of [page, metrics]) {
      expect(shown).not.toContain(ROUTING_KEY);
      expect(shown).not.toContain(API_KEY);
    }
  }, 120_000);

  it.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)(
    'an HA leader killed -9 after the trigger: the standby takes over and resolves it, once',
    async ({ onTestFailed }) => {
      const server = await startPostgres();
      try {
        const url = server.createDatabase('pd_failover');
        writeFileSync(join(env.dir, 'pg-url'), url);
        writeConfig(
          `{ backend: postgres, postgres: { url_file: ${join(env.dir, 'pg-url')} } }`,
          `ha: { enabled: true, lease_ttl: 3s, holder: '\${HOLDER}' }\n`,
        );
        onTestFailed(() => procs.forEach((p) => console.error(`${p.pid}:\n${p.stdout()}\n${p.stderr()}`)));
        const elected = (p: SentinelProcess) => p.stdout().includes('leader elected');
        const a = start('pod-a');
        await until(async () => elected(a));
        const b = start('pod-b');
        await b.waitFor((out) => out.includes('"msg":"started"'));

        await pd.until(() => pd.accepted().length > 0);
        await og.until(() => og.alerts.length > 0);
        await until(async () => (await outboxStatuses(url)).filter((s) => s === 'sent').length >= 2);
        a.kill('SIGKILL');
        await a.exited;
        await until(async () => elected(b));
        beat();
        await pd.until(() => pd.alerts[0]?.status === 'resolved');
        await og.until(() => og.alerts[0]?.status === 'closed');

        expectOneTriggerOneResolve();
      } finally {
        server.destroy();
      }
    },
    180_000,
  );
});

function sentBoth(metrics: string): boolean {
  return ['pd', 'og'].every((n) =>
    new RegExp(`notifications_total\\{notifier="${n}",outcome="sent"[^}]*\\} 1`).test(metrics),
  );
}

async function outboxStatuses(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string }>('SELECT status FROM outbox_delivery');
    return rows.map((r) => r.status);
  } finally {
    await client.end();
  }
}
