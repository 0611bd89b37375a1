// One record dated 2100 for one of two watched accounts, served by the embedded simulator to the real daemon:
// its rule fires, it is counted and logged once, the `sentinel-future-record` self-monitoring alert fires, and
// the other account's later records are still alerted; after a restart on the same state nothing is poisoned.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';
import { startCli } from './cli-harness.js';

const HBAR = 100_000_000n;
// Only this test's own debits (memo `ftest-…`): the simulator's random traffic makes large debits of these accounts
// too, and their alerts could hold an injected one back or fold it into a Slack digest's "and K more".
const RULE = `rules:
  - id: large-debit
    when: { all: [{ debit: '1000 hbar', result: success }, { memo: { contains: 'ftest-' } }] }
    severity: critical
    summary: '{{account.name}}: {{abs_amount_hbar}} HBAR debited'
    description: '{{account.name}}: {{abs_amount_hbar}} HBAR debited'
    notify: [ops-slack]
    throttle: 0s
`;
const YEAR_2100 = 4_102_444_800_000_000_000n;

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

async function futureRecords(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('ledger_sentinel_future_records_total{source="transactions"}'));
  return Number(line?.split(' ')[1] ?? NaN);
}

describe('a record from the future', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    // Unbound ranges: with the 60-day binding the simulator caps an open range at its own clock, so it would
    // never serve a row dated 2100; a service that does is exactly the hostile case.
    env = await startDaemonEnv({ bindTimestampRange: false });
    env.writeRule('large-debit.yaml', RULE);
    env.writeConfig('self_monitoring: { notify: [ops-slack], check_interval: 200ms }');
  });
  afterEach(async () => env.close());

  async function slackSays(text: string): Promise<void> {
    while (!env.slack.requests.some((r) => r.body.includes(text)))
      await env.slack.waitForRequests(env.slack.requests.length + 1);
  }

  async function ready() {
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    return { daemon, url };
  }

  it('is evaluated and reported, poisons no other account, and nothing is poisoned after a restart', async () => {
    const first = await ready();
    const debit = [
      { account: 1003n, amount: -5_000n * HBAR },
      { account: 1001n, amount: 5_000n * HBAR },
    ];
    env.ledger.ledger.store.addTransaction(
      makeSimTransaction(
        sampleTransactionRow(YEAR_2100, 1003n, { transfers: debit, memo: Buffer.from('ftest-2100') }),
      ),
    );
    await slackSays('in the future');
    env.ledger.ledger.inject({
      ...largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'),
      memo: 'ftest-2',
      result: 'SUCCESS',
    });
    await slackSays('ops-wallet: 2000');
    await until(async () => (await futureRecords(first.url)) === 1);
    first.daemon.abort();
    expect(await first.daemon.done).toBe(0);

    const second = await ready();
    // One at a time: the simulator gives injections queued together one timestamp.
    env.ledger.ledger.inject({
      ...largeDebit('0.0.1004', 3_000n * HBAR, '0.0.1001'),
      memo: 'ftest-3',
      result: 'SUCCESS',
    });
    await slackSays('ops-wallet: 3000');
    env.ledger.ledger.inject({
      ...largeDebit('0.0.1003', 4_000n * HBAR, '0.0.1001'),
      memo: 'ftest-4',
      result: 'SUCCESS',
    });
    await slackSays('treasury-hot: 4000');
    const counted = await futureRecords(second.url);
    second.daemon.abort();
    expect(await second.daemon.done).toBe(0);
    const cursors = startCli(['state', 'cursors', '--config', env.configPath, '--json']);
    expect(await cursors.done).toBe(0);

    const bodies = env.slack.requests.map((r) => r.body);
    // The future record's own alert, once: a re-read of it is dropped as seen, before and after the restart.
    expect(bodies.filter((b) => b.includes('treasury-hot: 5000 HBAR'))).toHaveLength(1);
    expect(bodies.filter((b) => b.includes('The query service returned a record'))).toHaveLength(1);
    expect(first.daemon.stdout().match(/record from the future/g)).toHaveLength(1);
    expect(second.daemon.stdout()).not.toContain('record from the future');
    expect(second.daemon.stdout()).not.toContain('repaired');
    expect(counted).toBe(0);
    const rows = JSON.parse(cursors.stdout()) as { stream: string; beyondBound: boolean }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.beyondBound)).toEqual([]);
  }, 60_000);

  it('a row of an unwatched account dated inside the skew raises sentinel-head-ahead and skips no marker', async () => {
    env.writeConfig('self_monitoring: { notify: [ops-slack], check_interval: 200ms }', {
      tail: 'poll_interval: 300ms, overlap: 2s, strategy: per-account',
    });
    const { daemon, url } = await ready();
    const ahead = BigInt(Date.now() + 40_000) * 1_000_000n;
    env.ledger.ledger.store.addTransaction(makeSimTransaction(sampleTransactionRow(ahead, 1777n)));
    await slackSays('ahead of this host');
    // Markers with current timestamps on both watched accounts, well before the skewed row's own time: before,
    // every per-account cursor had jumped to head − overlap, 30 s ahead of them, and none was ever read.
    env.ledger.ledger.inject({
      ...largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'),
      memo: 'ftest-a',
      result: 'SUCCESS',
    });
    await slackSays('ops-wallet: 2000');
    env.ledger.ledger.inject({
      ...largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001'),
      memo: 'ftest-b',
      result: 'SUCCESS',
    });
    await slackSays('treasury-hot: 3000');
    const counted = await metric(url, 'ledger_sentinel_tail_head_ahead_total');
    daemon.abort();
    expect(await daemon.done).toBe(0);

    expect(counted).toBe(1);
    expect(daemon.stdout().match(/row dated ahead of this host’s clock/g)).toHaveLength(1);
    const bodies = env.slack.requests.map((r) => r.body);
    expect(bodies.filter((b) => b.includes('ahead of this host'))).toHaveLength(1);
  }, 60_000);
});
