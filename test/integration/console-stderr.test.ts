// Under `run`, stdout is the JSON log stream a log shipper parses: the console notifier writes its alerts to stderr.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { LARGE_DEBIT_RULE, httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;

describe('run with a console notifier', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule(
      'large-debit.yaml',
      LARGE_DEBIT_RULE.replace('notify: [ops-slack]', 'notify: [ops-slack, console]'),
    );
  });
  afterEach(async () => env.close());

  it('prints alerts on stderr and keeps every stdout line a JSON log record', async () => {
    env.writeConfig();
    const config = readFileSync(env.configPath, 'utf8').replace(
      'notifiers:\n',
      'notifiers:\n  console: { kind: console }\n',
    );
    writeFileSync(env.configPath, config);
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    env.ledger.ledger.inject(largeDebit('0.0.1003', 5_000n * HBAR, '0.0.1001'));
    await daemon.waitFor((_out, err) => /\[CRITICAL\] treasury-hot: 5000/.test(err));
    daemon.abort();
    const code = await daemon.done;

    expect(code).toBe(0);
    const lines = daemon.stdout().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(daemon.stdout()).not.toContain('[CRITICAL]');
    expect(daemon.stderr()).toMatch(
      /^ {4}why: result SUCCESS \(a success\) and net debit 5,000\.\d+ HBAR ≥ 1,000 HBAR$/m,
    );
  });
});
