// Accounts watched the way users name them: by alias and by EVM address, resolved through the simulator's
// GET /api/v1/accounts/{idOrAliasOrEvmAddress}; an alias the ledger does not know yet is logged and retried
// while the other accounts alert, and is tailed once the ledger learns it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

const HBAR = 100_000_000n;
const ALIAS = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';
const LATE_ALIAS = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';
const EVM = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f';

/**
 * The harness config with its two accounts replaced, written in one rename so that a watching daemon never
 * reads a half-done file (nor the harness accounts in between).
 */
function writeAccounts(env: DaemonEnv, accounts: string): void {
  if (!existsSync(env.configPath)) env.writeConfig();
  template ??= readFileSync(env.configPath, 'utf8');
  const text = template
    .replace(/accounts:\n(?: {2}- .*\n)+/, `accounts:\n${accounts}`)
    .replace('tail: { poll_interval: 300ms', 'tail: { max_backoff: 1s, poll_interval: 300ms');
  writeFileSync(`${env.configPath}.next`, text);
  renameSync(`${env.configPath}.next`, env.configPath);
}
let template: string | undefined;

/**
 * Whether Slack got the large-debit alert of `name` for about `hbar` HBAR: the injected debit plus its fee, less a
 * staking reward the ledger may pay the account in the same transaction.
 */
function alerted(env: DaemonEnv, name: string, hbar: number): boolean {
  const text = new RegExp(`${name}: (${hbar - 1}|${hbar})\\.\\d+ HBAR debited`);
  return env.slack.requests.some((r) => text.test(r.body));
}

describe('accounts by alias and EVM address', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    template = undefined;
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  it('resolves both at start and alerts on their transactions', async () => {
    env.ledger.ledger.store.addEntity({ id: 1003n, alias: ALIAS });
    env.ledger.ledger.store.addEntity({ id: 1004n, evmAddress: EVM });
    writeAccounts(env, `  - { id: ${ALIAS}, name: treasury-hot }\n  - { id: '${EVM}', name: ops-wallet }\n`);
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    env.ledger.ledger.inject(largeDebit('0.0.1003', 5_000n * HBAR, '0.0.1001'));
    env.ledger.ledger.inject(largeDebit('0.0.1004', 3_000n * HBAR, '0.0.1001'));
    // However the two alerts are batched, and whatever else the living ledger's own traffic alerts on.
    await until(async () => alerted(env, 'treasury-hot', 5000) && alerted(env, 'ops-wallet', 3000));
    daemon.abort();
    await daemon.done;

    expect([alerted(env, 'treasury-hot', 5000), alerted(env, 'ops-wallet', 3000)]).toEqual([true, true]);
    expect(daemon.stdout()).toContain('"msg":"account resolved"');
  });

  it('resolves an EVM address added by a config reload, and alerts on its transactions', async () => {
    env.ledger.ledger.store.addEntity({ id: 1004n, evmAddress: EVM });
    writeAccounts(env, `  - { id: 0.0.1003, name: treasury-hot }\n`);
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    writeAccounts(env, `  - { id: 0.0.1003, name: treasury-hot }\n  - { id: '${EVM}', name: ops-wallet }\n`);
    await daemon.waitFor((out) => out.includes('"msg":"config reloaded"'));
    const pages = (await metricValue(url, 'ledger_sentinel_pages_total{endpoint="transactions"}')) ?? 0;
    await until(
      async () =>
        ((await metricValue(url, 'ledger_sentinel_pages_total{endpoint="transactions"}')) ?? 0) > pages + 2,
    );
    env.ledger.ledger.inject(largeDebit('0.0.1004', 3_000n * HBAR, '0.0.1001'));
    await until(async () => alerted(env, 'ops-wallet', 3000));
    daemon.abort();
    await daemon.done;

    expect(daemon.stdout()).toContain(`"lookup":"${EVM}","id":"0.0.1004","msg":"account resolved"`);
  });

  it('logs an unknown alias, alerts for the others meanwhile, and tails it once the ledger knows it', async () => {
    writeAccounts(
      env,
      `  - { id: 0.0.1003, name: treasury-hot }\n  - { id: ${LATE_ALIAS}, name: late-alias }\n`,
    );
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await daemon.waitFor((out) => out.includes('"msg":"configured account not known to the query service"'));
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    env.ledger.ledger.inject(largeDebit('0.0.1003', 5_000n * HBAR, '0.0.1001'));
    await until(async () => alerted(env, 'treasury-hot', 5000));
    const unresolved = await metricValue(url, 'ledger_sentinel_accounts_unresolved');
    const notFound = 'ledger_sentinel_account_resolutions_total{outcome="not_found"}';
    await until(async () => ((await metricValue(url, notFound)) ?? 0) >= 2); // asked again while unknown
    env.ledger.ledger.store.addEntity({ id: 1004n, alias: LATE_ALIAS });
    await daemon.waitFor((out) => out.includes('"msg":"resolved accounts added to the tail"'));
    const pages = (await metricValue(url, 'ledger_sentinel_pages_total{endpoint="transactions"}')) ?? 0;
    await until(
      async () =>
        ((await metricValue(url, 'ledger_sentinel_pages_total{endpoint="transactions"}')) ?? 0) > pages + 2,
    );
    env.ledger.ledger.inject(largeDebit('0.0.1004', 4_000n * HBAR, '0.0.1001'));
    await until(async () => alerted(env, 'late-alias', 4000));
    const unresolvedAfter = await metricValue(url, 'ledger_sentinel_accounts_unresolved');
    daemon.abort();
    const code = await daemon.done;

    expect(code).toBe(0);
    expect(unresolved).toBe(1);
    const warning = daemon
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"configured account not known to the query service"'));
    expect(warning).toContain('"entry":"accounts[1].id"');
    expect(unresolvedAfter).toBe(0);
  });
});
