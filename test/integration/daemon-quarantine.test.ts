// A record the daemon cannot read, end to end against today's service shapes: it is quarantined, a
// self-monitoring alert names it, `quarantine ls` lists it, a restart neither loses it nor reports it again,
// and the stream's later records are still alerted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { startCli } from './cli-harness.js';
import { LARGE_DEBIT_RULE, httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;
const count = (text: string, msg: string) =>
  text.split('\n').filter((l) => l.includes(`"msg":"${msg}"`)).length;

async function invalidReads(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('ledger_sentinel_invalid_records_total{endpoint="transactions"}'));
  return Number(line?.split(' ')[1] ?? 0);
}

describe('an unreadable record', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv({ serviceVersion: 'current' });
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    // Per-account polls with a long overlap: every poll re-scans the record, before and after the restart.
    env.writeConfig('self_monitoring: { notify: [ops-slack], check_interval: 200ms }', {
      tail: 'poll_interval: 300ms, overlap: 60s, strategy: per-account',
    });
  });
  afterEach(async () => env.close());
  const has = (text: string) => env.slack.requests.some((r) => r.body.includes(text));

  it('is quarantined, alerted once, listed, kept across a restart, and the stream goes on', async () => {
    const first = env.run();
    const url = await httpUrlOf(first);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    const bad = largeDebit('0.0.1003', 2_000n * HBAR, '0.0.1001', 'bad');
    env.ledger.ledger.inject({ ...bad, wire: { memo_base64: { text: 'not base64' } } });
    env.ledger.ledger.inject(largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001', 'good'));
    await until(async () => has('could not be read') && has('treasury-hot: 3000'));
    await until(async () => (await invalidReads(url)) >= 4); // read again by several overlap re-scans
    const view = (await (await fetch(`${url}/quarantine`)).json()) as {
      total: number;
      records: { field: string; stream: string }[];
    };
    first.abort();
    expect(await first.done).toBe(0);

    const bodies = env.slack.requests.map((r) => r.body);
    expect(bodies.filter((b) => b.includes('could not be read'))).toHaveLength(1);
    expect(bodies.find((b) => b.includes('could not be read'))).toContain('memo_base64');
    // The random traffic may debit a watched account too: only the injected two are asserted.
    expect(bodies.filter((b) => b.includes('treasury-hot: 3000'))).toHaveLength(1);
    expect(bodies.filter((b) => b.includes('treasury-hot: 2000'))).toHaveLength(0);
    expect(count(first.stdout(), 'ledger record quarantined')).toBe(1);
    expect(view.total).toBe(1);
    expect(view.records.map((r) => [r.stream, r.field])).toEqual([['tx:0.0.1003', 'memo_base64']]);
    expect(count(first.stdout(), 'ledger record cannot be read')).toBe(1);

    const ls = startCli(['quarantine', 'ls', '--config', env.configPath]);
    expect(await ls.done).toBe(0);
    const lines = ls.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('memo_base64');
    expect(lines[0]).toMatch(/^\d+\.\d{9}\t0\.0\.1003-/);

    const second = env.run();
    const url2 = await httpUrlOf(second);
    await until(async () => (await invalidReads(url2)) >= 2);
    second.abort();
    expect(await second.done).toBe(0);

    expect(count(second.stdout(), 'ledger record quarantined')).toBe(0);
    expect(env.slack.requests.map((r) => r.body).filter((b) => b.includes('could not be read'))).toHaveLength(
      1,
    );
    const again = startCli(['quarantine', 'ls', '--config', env.configPath]);
    expect(await again.done).toBe(0);
    expect(again.stdout().trim().split('\n')).toEqual(lines);
  });

  it('in the global tail, names the watched account found in the record and still alerts the next one', async () => {
    env.writeConfig('self_monitoring: { notify: [ops-slack], check_interval: 200ms }', {
      tail: 'poll_interval: 300ms, overlap: 2s, strategy: global',
    });
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    const bad = largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001', 'bad');
    env.ledger.ledger.inject({ ...bad, wire: { transfers: [{ account: '0.0.1004', amount: 'lots' }] } });
    env.ledger.ledger.inject(largeDebit('0.0.1004', 3_000n * HBAR, '0.0.1001', 'good'));
    await until(async () => has('could not be read') && has('ops-wallet: 3000'));
    daemon.abort();
    expect(await daemon.done).toBe(0);

    const bodies = env.slack.requests.map((r) => r.body);
    const quarantined = bodies.find((b) => b.includes('could not be read'));
    expect(quarantined).toContain('of ops-wallet could not be read');
    expect(quarantined).toContain('transfers[0].amount');
    expect(bodies.filter((b) => b.includes('ops-wallet: 2000'))).toHaveLength(0);
    const ls = startCli(['quarantine', 'ls', '--config', env.configPath]);
    expect(await ls.done).toBe(0);
    expect(ls.stdout()).toMatch(/\tglobal\ttransfers\t/);
  });
});
