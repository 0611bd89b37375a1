// A reload never stops the world (docs/operations.md, "Reload"): the poll loop, the delivery worker and the tick
// schedule go on; only the changed parts are swapped. Real daemon in-process (createApp), the living ledger, a
// Slack-like sink, real files.
import { readFileSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/create-app.js';
import { loadAll, type Loaded } from '../../src/app/load-all.js';
import { createRuleStateRepo } from '../../src/rules/alert-state/state-repo.js';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { LARGE_DEBIT_RULE, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;
const QUIET_RULE = `rules:
  - id: quiet-treasury
    when: { debit: '40000000000 hbar' }
    accounts: { labels: { role: treasury } }
    window: { duration: 1h, absent: true }
    group_by: [account]
    summary: '{{account.name}} quiet'
    notify: [ops-slack]
`;

describe('reload in place', () => {
  let env: DaemonEnv;
  let app: App | undefined;
  let logs = '';
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    env.writeRule('quiet.yaml', QUIET_RULE);
    env.writeConfig('daemon: { watch_files: false, tick_interval: 100ms }');
    logs = '';
  });
  afterEach(async () => {
    await app?.stop({ graceMs: 0 });
    app = undefined;
    await env.close();
  });

  function load(): Loaded {
    const result = loadAll(env.configPath, { env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.loaded;
  }

  async function start(): Promise<App> {
    const sink = new Writable({ write: (chunk, _e, done) => ((logs += String(chunk)), done()) });
    app = createApp({ loaded: load(), logDestination: sink, stdout: sink, configPath: env.configPath });
    await app.start();
    await app.firstPoll();
    return app;
  }

  const count = (msg: string) => logs.split(`"msg":"${msg}"`).length - 1;
  const changed = () =>
    logs
      .split('\n')
      .filter((l) => l.includes('"msg":"config reloaded"'))
      .map((l) => (JSON.parse(l) as { changed: string[] }).changed);
  const requests = async (a: App) =>
    (await a.metrics.requests.get()).values.reduce((sum, v) => sum + v.value, 0);

  it("keeps an absence rule's state across a reload of an unrelated rule", async () => {
    const a = await start();
    const repo = createRuleStateRepo(a.store);
    const quiet = () => [...repo.load().groups].find((g) => g.ruleId === 'quiet-treasury');
    await until(async () => quiet() !== undefined);
    const before = quiet();

    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE.replace('throttle: 1s', 'throttle: 3s'));
    await a.reload(load());
    const after = quiet();

    expect(changed()).toEqual([['rules']]);
    expect(after).toEqual(before);
  });

  it('gives a rule fresh state when a reload changes how it groups', async () => {
    const a = await start();
    const repo = createRuleStateRepo(a.store);
    await until(async () => [...repo.load().groups].some((g) => g.ruleId === 'quiet-treasury'));

    env.writeRule(
      'quiet.yaml',
      QUIET_RULE.replace('window: { duration: 1h, absent: true }', 'window: { duration: 1h, count: 5 }'),
    );
    await a.reload(load());

    expect([...repo.load().groups].filter((g) => g.ruleId === 'quiet-treasury')).toEqual([]);
  });

  it('keeps the poll loop running through reloads: one tail start, requests keep rising', async () => {
    const a = await start();
    const polled = await requests(a);

    for (let i = 2; i <= 6; i++) {
      env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE.replace('throttle: 1s', `throttle: ${i}s`));
      await a.reload(load());
    }
    await until(async () => (await requests(a)) > polled + 4);
    env.ledger.ledger.inject(largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001'));
    await env.slack.waitForRequests(1);

    expect(changed()).toEqual([['rules'], ['rules'], ['rules'], ['rules'], ['rules']]);
    expect(count('tail started')).toBe(1);
  });

  it('starts the stream of an added account without restarting the tail', async () => {
    const a = await start();
    const config = readFileSync(env.configPath, 'utf8');
    writeFileSync(
      env.configPath,
      config.replace(
        '- { id: 0.0.1004, name: ops-wallet }',
        '- { id: 0.0.1004, name: ops-wallet }\n  - { id: 0.0.1005, name: payroll }',
      ),
    );

    await a.reload(load());
    env.ledger.ledger.inject(largeDebit('0.0.1005', 3_000n * HBAR, '0.0.1001'));
    const [request] = await env.slack.waitForRequests(1);

    expect(JSON.stringify(request?.body)).toContain('payroll');
    expect(changed()).toEqual([['rules', 'accounts', 'self_monitoring']]);
    expect(count('tail started')).toBe(1);
  });

  it('restarts only the tail part when the tail section changes, and keeps alerting', async () => {
    const a = await start();
    const config = readFileSync(env.configPath, 'utf8');
    writeFileSync(env.configPath, config.replace('poll_interval: 300ms', 'poll_interval: 250ms'));

    await a.reload(load());
    env.ledger.ledger.inject(largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001'));
    await env.slack.waitForRequests(1);

    expect(changed()).toEqual([['tail']]);
    expect(count('tail started')).toBe(2);
  });
});
