// A daemon under test: the living ledger on 127.0.0.1, a Slack-like sink, a temporary directory holding
// config.yaml, rules/ and the state, and `ledger-sentinel run` started in-process.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  startLivingLedger,
  type LivingLedgerServerOptions,
  type RunningLivingLedger,
} from '@ledger-sentinel/simulator/living-ledger-server';
import { startSlackSink, type SlackSink } from '../helpers/slack-sink.js';
import { startCli, type CliRun } from './cli-harness.js';

export const LARGE_DEBIT_RULE = `rules:
  - id: large-debit
    when: { debit: '1000 hbar', result: success }
    severity: critical
    summary: '{{account.name}}: {{abs_amount_hbar}} HBAR debited'
    notify: [ops-slack]
    throttle: 1s
`;

export interface DaemonEnv {
  readonly dir: string;
  readonly configPath: string;
  readonly ledger: RunningLivingLedger;
  readonly slack: SlackSink;
  writeConfig(
    extra?: string,
    overrides?: { ledgerUrl?: string; slackGroupWait?: string; tail?: string; http?: string; state?: string },
  ): void;
  writeRule(name: string, text: string): void;
  run(): CliRun;
  close(): Promise<void>;
}

/** `ledgerOptions` override the living ledger's (e.g. bindTimestampRange: false to serve rows beyond now). */
export async function startDaemonEnv(ledgerOptions: LivingLedgerServerOptions = {}): Promise<DaemonEnv> {
  const ledger = await startLivingLedger({
    seed: 'daemon',
    tps: 20,
    lagMs: 300,
    autoAdvanceMs: 200,
    ...ledgerOptions,
    // The watched accounts are never a background payer: the traffic debits 1,000-9,000 HBAR from a payer about
    // once in ten transfers, which would fire LARGE_DEBIT_RULE on its own and fold a test's injected debit into an
    // alert already firing (the tests wait for the injected amount in a message).
    traffic: { quietAccounts: [1003, 1004], ...ledgerOptions.traffic },
  });
  const slack = await startSlackSink();
  const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-daemon-'));
  mkdirSync(join(dir, 'rules'));
  const configPath = join(dir, 'config.yaml');
  const env: DaemonEnv = {
    dir,
    configPath,
    ledger,
    slack,
    writeConfig(extra = '', overrides = {}) {
      writeFileSync(
        configPath,
        `ledger:
  base_url: ${overrides.ledgerUrl ?? ledger.url}
  retry: { max_attempts: 2, base_delay: 50ms, max_delay: 200ms }
accounts:
  - { id: 0.0.1003, name: treasury-hot, labels: { role: treasury } }
  - { id: 0.0.1004, name: ops-wallet }
tail: { ${overrides.tail ?? 'poll_interval: 300ms, overlap: 2s'} }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: ${overrides.slackGroupWait ?? '0s'}, min_interval: 10ms }
state: ${overrides.state ?? `{ dir: ${join(dir, 'state')} }`}
http: { host: 127.0.0.1, port: 0${overrides.http ? `, ${overrides.http}` : ''} }
${extra}`,
      );
    },
    writeRule(name, text) {
      writeFileSync(join(dir, 'rules', name), text);
    },
    run: () => startCli(['run', '--config', configPath]),
    async close() {
      await slack.close();
      await ledger.close().catch(() => undefined); // some tests stop it early
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** The daemon's HTTP URL, from its `started` log line. */
export async function httpUrlOf(run: CliRun): Promise<string> {
  await run.waitFor((out) => /"msg":"started"/.test(out));
  const line =
    run
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"started"')) ?? '';
  return (JSON.parse(line) as { http: string }).http;
}

/** Polls a condition on the daemon's HTTP endpoints (no event to wait on there), every 50 ms until it holds. */
export async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check().catch(() => false))) await delay(50);
}

export async function metricValue(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}
