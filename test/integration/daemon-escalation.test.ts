// Route escalation in the real daemon, as a child process killed with SIGKILL: the firing alert reaches Slack,
// the process dies before the escalation's time, and the restarted daemon sends the escalation to the pager
// receiver from the schedule on disk — once, marked as an escalation.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { startHttpSink, type HttpSink } from '../helpers/http-sink.js';
import { REPO_DIR } from '../helpers/shared.js';
import { LARGE_DEBIT_RULE, startDaemonEnv, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;

interface Child {
  readonly child: ChildProcess;
  readonly out: { text: string };
}

function spawnDaemon(configPath: string): Child {
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

describe('escalation in the daemon', () => {
  let env: DaemonEnv;
  let pager: HttpSink;
  const children: Child[] = [];
  beforeEach(async () => {
    env = await startDaemonEnv();
    pager = await startHttpSink();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => {
    for (const d of children.splice(0)) if (d.child.exitCode === null) d.child.kill('SIGKILL');
    await pager.close();
    await env.close();
  });

  it('survives kill -9: the restarted daemon sends the escalation from the schedule on disk', async () => {
    env.writeConfig(`routes:
  - match: { severity: [critical] }
    notify: [ops-slack]
    escalate: [{ after: 4s, notify: [pager] }]
daemon: { tick_interval: 200ms }
`);
    const pagerNotifier = `  pager: { kind: webhook, url: '${pager.origin}/hook', signing_key: pager-signing-key-0001, group_wait: 0s }\n`;
    const text = readFileSync(env.configPath, 'utf8').replace('notifiers:\n', `notifiers:\n${pagerNotifier}`);
    writeFileSync(env.configPath, text);
    const first = spawnDaemon(env.configPath);
    children.push(first);
    await waitForOutput(first, /"msg":"started"/);
    env.ledger.ledger.inject(largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'));
    await env.slack.waitForRequests(1);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    const second = spawnDaemon(env.configPath);
    children.push(second);
    const [request] = await pager.waitForRequests(1);
    await waitForOutput(second, /"msg":"alert not acknowledged in time: escalated"/);

    const alerts = (JSON.parse(request?.body ?? '{}') as { alerts: { summary: string; ruleId: string }[] })
      .alerts;
    expect(alerts.map((a) => a.ruleId)).toEqual(['large-debit']);
    expect(alerts[0]?.summary).toMatch(
      /^ESCALATED \(not acknowledged for 4s\): ops-wallet: 2000(\.\d+)? HBAR debited/,
    );
    expect(first.out.text).not.toContain('escalated');
  }, 120_000);
});
