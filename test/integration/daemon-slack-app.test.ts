// The Slack app lifecycle through the whole daemon (real outbox, delivery worker and state store) against the
// Slack-Web-API-like server, across kill -9: an absence alert is posted with chat.postMessage, the daemon is
// killed -9 once the post was sent, a new daemon starts on the same state, the missing record arrives, and the
// resolve lands as Slack's resolve: one thread reply under the ts posted before the kill, and that message
// updated in place. Exactly one firing message, one reply, one update.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSlackApiSink, type SlackApiSink } from '../helpers/slack-api-sink.js';
import { REPO_DIR } from '../helpers/shared.js';
import { startDaemonEnv, type DaemonEnv } from './daemon-harness.js';

const RULE = `rules:
  - id: heartbeat-missing
    when: { memo: { contains: heartbeat-7f3a } }
    group_by: [account]
    window: { duration: 2s, absent: true }
    severity: critical
    summary: 'No heartbeat from {{account.name}}'
    notify: [ops-app]
`;

interface Daemon {
  readonly child: ChildProcess;
  readonly out: { text: string };
}

function spawnDaemon(configPath: string): Daemon {
  const out = { text: '' };
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'src/main.ts', 'run', '--config', configPath],
    { cwd: REPO_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (out.text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out.text += d.toString()));
  return { child, out };
}

/** Polls a condition every 50 ms; fails at once if the daemon exits. */
async function until(daemon: Daemon, check: () => boolean, what: string): Promise<void> {
  while (!check()) {
    if (daemon.child.exitCode !== null) throw new Error(`daemon exited before ${what}:\n${daemon.out.text}`);
    await delay(50);
  }
}

describe('slack-app through the daemon, across kill -9', () => {
  let env: DaemonEnv;
  let slack: SlackApiSink;
  const children: Daemon[] = [];
  beforeEach(async () => {
    env = await startDaemonEnv();
    slack = await startSlackApiSink();
    env.writeRule('heartbeat.yaml', RULE);
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
state: { dir: ${join(env.dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
daemon: { tick_interval: 200ms }
self_monitoring: { enabled: false }
`,
    );
  });
  afterEach(async () => {
    for (const d of children.splice(0)) if (d.child.exitCode === null) d.child.kill('SIGKILL');
    await slack?.close();
    await env?.close();
  });

  it('threads the resolve under the ts posted before the kill and updates that message, once', async () => {
    const first = spawnDaemon(env.configPath);
    children.push(first);
    const firing = () => slack.messages.filter((m) => !m.threadTs && m.text.includes('No heartbeat'));
    await until(first, () => firing().length > 0, 'the firing post');
    await until(
      first,
      () =>
        /"msg":"notification sent"[^\n]*"ops-app"|"ops-app"[^\n]*"msg":"notification sent"/.test(
          first.out.text,
        ),
      'the send was logged',
    );
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const root = firing()[0];

    const second = spawnDaemon(env.configPath);
    children.push(second);
    await until(second, () => second.out.text.includes('"msg":"started"'), 'the start');
    // Heartbeats every 500 ms (the window is 2 s) so the absence resolves and does not start again meanwhile.
    const beat = () => env.ledger.ledger.inject({ payer: '0.0.1003', memo: 'heartbeat-7f3a' });
    beat();
    const beating = setInterval(beat, 500);
    try {
      await until(second, () => slack.updates.length > 0, 'the update of the firing message');
    } finally {
      clearInterval(beating);
    }

    const replies = slack.messages.filter((m) => m.threadTs);
    expect(firing()).toHaveLength(1);
    expect(replies.map((m) => m.threadTs)).toEqual([root?.ts]);
    expect(replies[0]?.text).toMatch(/^RESOLVED: No heartbeat from treasury-hot/);
    expect(slack.updates).toEqual([
      { channel: 'C0ALERTS', ts: root?.ts, text: expect.stringMatching(/^RESOLVED: No heartbeat/) },
    ]);
    expect(slack.messages.find((m) => m.ts === root?.ts)?.edits).toHaveLength(2);
  }, 120_000);
});
