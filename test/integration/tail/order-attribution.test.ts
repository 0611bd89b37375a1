// The daemon behind a proxy that serves every transaction page reversed or shuffled and mixes another account's
// rows into each account's page: every match alerts whatever the order (throttle 0s, per account and with
// group_by [] across accounts), and no foreign row is alerted under the polled account (docs/tailing.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReorderProxy, type PageOrder, type ReorderProxy } from '../../helpers/reorder-proxy.js';
import { httpUrlOf, metricValue, startDaemonEnv, until, type DaemonEnv } from '../daemon-harness.js';

const RULES = `rules:
  - id: order
    summary: "{{account.id}} {{memo}}"
    when: { memo: { regex: "^(order|cold)-" } }
    throttle: 0s
    notify: [ops-slack]
  - id: across
    summary: "shared {{memo}}"
    when: { memo: { contains: "across-" } }
    group_by: []
    throttle: 0s
    notify: [ops-slack]
`;

const UNATTRIBUTED = 'ledger_sentinel_records_unattributed_total{source="transactions"}';

function writeConfig(env: DaemonEnv, ledgerUrl: string): void {
  writeFileSync(
    env.configPath,
    `ledger:
  base_url: ${ledgerUrl}
  retry: { max_attempts: 2, base_delay: 50ms, max_delay: 200ms }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
  - { id: 0.0.1004, name: ops-wallet }
tail: { poll_interval: 300ms, overlap: 2s, strategy: per-account }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${env.slack.webhookUrl}, group_wait: 0s, min_interval: 10ms, group_max_listed: 40 }
state: { dir: ${join(env.dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
`,
  );
}

function transfer(payer: string, to: string, memo: string) {
  return {
    payer,
    memo,
    transfers: [
      { account: payer, amount: -1n },
      { account: to, amount: 1n },
    ],
  };
}

/** Every memo marker a Slack body shows (alerts are found by their memo, whether single or in a digest). */
function shown(env: DaemonEnv, pattern: RegExp): Set<string> {
  const found = new Set<string>();
  for (const r of env.slack.requests) for (const m of r.body.match(pattern) ?? []) found.add(m);
  return found;
}

describe.each<PageOrder>(['reverse', 'shuffle'])('pages served %s, with foreign rows mixed in', (order) => {
  let env: DaemonEnv;
  let proxy: ReorderProxy;
  beforeEach(async () => {
    env = await startDaemonEnv();
    proxy = await startReorderProxy({ upstream: env.ledger.url, order, foreignAccount: '0.0.1002', seed: 7 });
    writeConfig(env, proxy.url);
    env.writeRule('order.yaml', RULES);
  });
  afterEach(async () => {
    await proxy.close();
    await env.close();
  });

  it('alerts every match, across accounts too, and attributes no foreign row', async () => {
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    for (let i = 1; i <= 4; i++) env.ledger.ledger.inject(transfer('0.0.1003', '0.0.1001', `order-${i}`));
    for (let i = 0; i < 10; i++)
      env.ledger.ledger.inject(transfer(i % 2 ? '0.0.1004' : '0.0.1003', '0.0.1001', `across-${i}`));
    for (let i = 1; i <= 3; i++) env.ledger.ledger.inject(transfer('0.0.1002', '0.0.1001', `cold-${i}`));
    await until(async () => shown(env, /order-\d/g).size === 4 && shown(env, /across-\d/g).size === 10);
    await until(async () => ((await metricValue(url, UNATTRIBUTED)) ?? 0) >= 3);
    const unattributed = await metricValue(url, UNATTRIBUTED);
    daemon.abort();
    await daemon.done;

    expect([...shown(env, /order-\d/g)].sort()).toEqual(['order-1', 'order-2', 'order-3', 'order-4']);
    expect(shown(env, /across-\d/g).size).toBe(10);
    expect(shown(env, /cold-\d/g).size).toBe(0);
    expect(proxy.foreignRows()).toBeGreaterThanOrEqual(3);
    expect(unattributed).toBeGreaterThanOrEqual(3);
    const logged = daemon.stdout().match(/not attributed to it/g) ?? [];
    expect(logged.length).toBe(unattributed);
  });
});
