// The Slack app lifecycle across a leader failover: two `ledger-sentinel run` replicas (ha.enabled) on one real
// PostgreSQL. The leader posts an absence alert with chat.postMessage and is killed -9; the standby takes over,
// loads the shared state (the message ts in slack_app_thread included), and when the missing record arrives it
// threads the resolve under the ts the killed leader posted and updates that message: one firing message, one
// reply, one update.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSentinel, type SentinelProcess } from '../../bench/lib/daemon-process.js';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { startSlackApiSink, type SlackApiSink } from '../helpers/slack-api-sink.js';
import { startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const RULE = `rules:
  - id: heartbeat-missing
    when: { memo: { contains: heartbeat-5c1e } }
    group_by: [account]
    window: { duration: 2s, absent: true }
    severity: critical
    summary: 'No heartbeat from {{account.name}}'
    notify: [ops-app]
`;

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('slack-app across a leader failover (kill -9)', () => {
  let server: PostgresServer;
  let env: DaemonEnv;
  let slack: SlackApiSink;
  const procs: SentinelProcess[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    env = await startDaemonEnv();
    slack = await startSlackApiSink();
    env.writeRule('heartbeat.yaml', RULE);
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) {
      p.kill('SIGKILL');
      await p.exited;
    }
    await slack?.close();
    await env?.close();
    server?.destroy();
  });

  function start(holder: string): SentinelProcess {
    const p = spawnSentinel(['run', '--config', env.configPath], { env: { HOLDER: holder } });
    procs.push(p);
    return p;
  }
  const elected = (p: SentinelProcess) => p.stdout().includes('leader elected');
  const elections = (p: SentinelProcess) => p.stdout().split('leader elected').length - 1;

  it('threads the resolve under the ts the killed leader posted, and updates that message, once', async ({
    onTestFailed,
  }) => {
    const url = server.createDatabase('ha_slack_app');
    writeFileSync(join(env.dir, 'pg-url'), url);
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
  ops-app: { kind: slack-app, bot_token: ${slack.token}, channel: C0ALERTS, api_url: ${slack.apiUrl}, group_wait: 0s, min_interval: 10ms }
state: { backend: postgres, postgres: { url_file: ${join(env.dir, 'pg-url')} } }
ha: { enabled: true, lease_ttl: 6s, holder: '\${HOLDER}' }
http: { host: 127.0.0.1, port: 0 }
daemon: { tick_interval: 200ms }
self_monitoring: { enabled: false }
`,
    );
    onTestFailed(() => procs.forEach((p) => console.error(`${p.pid}:\n${p.stdout()}\n${p.stderr()}`)));
    const firing = () => slack.messages.filter((m) => !m.threadTs && m.text.includes('No heartbeat'));
    // Whichever replica leads posts the firing (on a loaded machine the first may lose its lease and step down):
    // that one is killed -9, and a replica started after the kill joins the one left.
    const sent = (p: SentinelProcess) => /"msg":"notification sent"/.test(p.stdout());
    const a = start('pod-a');
    await until(async () => elected(a));
    start('pod-b');
    await until(async () => firing().length > 0 && procs.some(sent));
    const leader = procs.find(sent)!;
    leader.kill('SIGKILL');
    await leader.exited;
    const root = firing()[0];
    const electedBefore = new Map(procs.map((p) => [p, elections(p)]));
    start('pod-c');
    await until(async () => procs.some((p) => p !== leader && elections(p) > (electedBefore.get(p) ?? 0)));

    const beat = () => env.ledger.ledger.inject({ payer: '0.0.1003', memo: 'heartbeat-5c1e' });
    beat();
    const beating = setInterval(beat, 500);
    try {
      await until(async () => slack.updates.length > 0);
    } finally {
      clearInterval(beating);
    }

    const replies = slack.messages.filter((m) => m.threadTs);
    expect(firing()).toHaveLength(1);
    expect(replies.map((m) => m.threadTs)).toEqual([root?.ts]);
    expect(replies[0]?.text).toMatch(/^RESOLVED: No heartbeat from treasury-hot/);
    expect(slack.updates.map((u) => u.ts)).toEqual([root?.ts]);
  }, 180_000);
});
