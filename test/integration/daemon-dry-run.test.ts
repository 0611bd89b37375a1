// `run --dry-run`: the whole daemon evaluates the living ledger and logs what it would send, but no receiver gets a
// request, and the configured state dir is never created (its state is in memory), so a real run afterwards starts
// as if the dry run had never happened.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { startCli } from './cli-harness.js';
import { LARGE_DEBIT_RULE, httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;

describe('run --dry-run', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    env.writeConfig('self_monitoring: { enabled: false }\n');
  });
  afterEach(async () => env.close());

  it('logs "would send" for the alert, sends nothing and writes no state', async ({ onTestFailed }) => {
    const run = startCli(['run', '--config', env.configPath, '--dry-run']);
    onTestFailed(() => console.error(run.stdout(), run.stderr()));
    const url = await httpUrlOf(run);
    // Ready = the tail has read its start position: a record injected before that could fall before it.
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    env.ledger.ledger.inject(largeDebit('0.0.1003', 4_200n * HBAR, '0.0.1001'));
    await run.waitFor((out) => /"msg":"would send"/.test(out) && out.includes('4200'));
    run.abort();
    const code = await run.done;

    const line = run
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"would send"') && l.includes('4200'));
    const logged = JSON.parse(line ?? '{}') as {
      notifier?: string;
      kind?: string;
      alerts?: { status: string }[];
    };
    expect(code).toBe(0);
    expect(logged).toMatchObject({ notifier: 'ops-slack', kind: 'slack', alerts: [{ status: 'firing' }] });
    expect(run.stdout()).toContain('dry run: nothing is sent');
    expect(run.stdout()).not.toContain('"msg":"notification dead-lettered"');
    expect(env.slack.requests).toEqual([]);
    expect(existsSync(join(env.dir, 'state'))).toBe(false);
  }, 120_000);

  it('ignores the PostgreSQL state and ha of the config: it starts without them and says so', async () => {
    env.writeConfig(
      `ha: { enabled: true, lease_ttl: 3s, holder: dry }\nself_monitoring: { enabled: false }\n`,
      {
        state: '{ backend: postgres, postgres: { url: "postgres://sentinel@127.0.0.1:1/nowhere" } }',
      },
    );
    const run = startCli(['run', '--config', env.configPath, '--dry-run']);

    const url = await httpUrlOf(run);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    run.abort();
    const code = await run.done;

    expect(code).toBe(0);
    expect(run.stdout()).toMatch(/"backend":"postgres"[^\n]*"msg":"dry run: nothing is sent/);
    expect(run.stdout()).not.toContain('leader elected');
  }, 120_000);
});
