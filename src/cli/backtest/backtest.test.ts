import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { startSlackSink, type SlackSink } from '../../../test/helpers/slack-sink.js';
import { startCli } from '../../../test/integration/cli-harness.js';
import { until } from '../../../test/integration/daemon-harness.js';

const HBAR = 100_000_000n;

describe('backtest', () => {
  let sim: RunningLivingLedger;
  let slack: SlackSink;
  let dir: string;
  let from: string;
  let to: string;
  beforeAll(async () => {
    sim = await startLivingLedger({ seed: 'backtest', tps: 20, lagMs: 100, autoAdvanceMs: 100 });
    slack = await startSlackSink();
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-backtest-'));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(
      join(dir, 'config.yaml'),
      `ledger: { base_url: ${sim.url} }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
  - { id: 0.0.1004, name: ops-wallet }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl} }
state: { dir: ${join(dir, 'state')} }
`,
    );
    writeFileSync(
      join(dir, 'rules', 'large-debit.yaml'),
      `rules:
  - id: large-debit
    when: { debit: '1000 hbar' }
    severity: critical
    summary: '{{account.name}}: {{abs_amount_hbar}} HBAR debited'
    notify: [ops-slack]
  - id: never
    when: { debit: '1000000000 hbar' }
    summary: never
`,
    );
    sim.ledger.inject(largeDebit('0.0.1003', 5_000n * HBAR, '0.0.1001', 'a'));
    sim.ledger.inject(largeDebit('0.0.1004', 7_000n * HBAR, '0.0.1001', 'b'));
    sim.ledger.advance();
    const times = ['a', 'b'].map((tag) => sim.ledger.truth.tagged(tag)[0]?.tx.consensusTimestamp ?? 0n);
    from = formatTimestamp((times[0] ?? 0n) - 1_000_000_000n);
    to = formatTimestamp((times[1] ?? 0n) + 1_000_000_000n);
    // Backtests read history: wait until both records are visible on the service.
    await until(async () => {
      const res = await fetch(`${sim.url}/api/v1/transactions?timestamp=${formatTimestamp(times[1] ?? 0n)}`);
      return ((await res.json()) as { transactions: unknown[] }).transactions.length === 1;
    });
  });
  afterAll(async () => {
    await slack.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the alerts that would have fired and a table per rule, sending nothing', async () => {
    const run = startCli(['backtest', '--config', 'config.yaml', '--from', from, '--to', to], { cwd: dir });

    const code = await run.done;

    expect(code).toBe(0);
    const lines = run.stdout().split('\n');
    expect(lines.filter((l) => / CRITICAL +firing +large-debit /.test(l))).toEqual([
      expect.stringContaining('treasury-hot (0.0.1003): treasury-hot: 5000.'),
      expect.stringContaining('ops-wallet (0.0.1004): ops-wallet: 7000.'),
    ]);
    expect(lines).toContainEqual(expect.stringMatching(/^large-debit +2 +0 +2$/));
    expect(lines).toContainEqual(expect.stringMatching(/^never +0 +0 +0$/));
    expect(slack.requests).toHaveLength(0);
  });

  it('replays accounts configured by alias once resolved, and names one the ledger does not know', async () => {
    const alias = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';
    const unknown = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';
    sim.ledger.store.addEntity({ id: 1004n, alias });
    writeFileSync(
      join(dir, 'config-alias.yaml'),
      `ledger: { base_url: ${sim.url}, retry: { max_attempts: 1 } }
accounts:
  - { id: ${alias}, name: ops-wallet }
  - { id: ${unknown}, name: nobody }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl} }
`,
    );

    const run = startCli(['backtest', '--config', 'config-alias.yaml', '--from', from, '--to', to], {
      cwd: dir,
    });
    const code = await run.done;

    expect(code).toBe(0);
    expect(
      run
        .stdout()
        .split('\n')
        .filter((l) => / CRITICAL +firing +large-debit /.test(l)),
    ).toEqual([expect.stringContaining('ops-wallet (0.0.1004): ops-wallet: 7000.')]);
    expect(run.stderr()).toContain(
      `accounts[1].id ${unknown}: not resolved to an account id by the query service; not replayed`,
    );
  });

  it('prints one JSON document with --json', async () => {
    const run = startCli(['backtest', '--config', 'config.yaml', '--from', from, '--to', to, '--json'], {
      cwd: dir,
    });

    const code = await run.done;
    const doc = JSON.parse(run.stdout()) as {
      alerts: { ruleId: string }[];
      summary: { rule: string; firing: number }[];
    };

    expect(code).toBe(0);
    expect(doc.alerts.map((a) => a.ruleId)).toEqual(['large-debit', 'large-debit']);
    expect(doc.summary).toContainEqual(expect.objectContaining({ rule: 'large-debit', firing: 2 }));
  });

  it.each([
    [['--from', 'yesterday', '--to', '1700000000'], '--from: expected a timestamp'],
    [['--from', '1700000010', '--to', '1700000000'], '--to is before --from'],
  ])('exits 2 on bad times: %j', async (argv, message) => {
    const run = startCli(['backtest', '--config', 'config.yaml', ...argv], { cwd: dir });

    const code = await run.done;

    expect(code).toBe(2);
    expect(run.stderr()).toContain(message);
  });
});
