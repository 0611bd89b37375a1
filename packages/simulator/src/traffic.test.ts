import { describe, expect, it } from 'vitest';
import { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { RESULT_NAMES } from '@ledger-sentinel/ledger-model/result-codes';
import { TRANSACTION_TYPE_NAMES } from '@ledger-sentinel/ledger-model/transaction-types';
import { serializeJson } from './json.js';
import { createTraffic, type GeneratedRecord } from './traffic.js';
import { TRANSACTION_MIX, TRANSACTION_TYPES_BY_NAME } from './traffic-mix.js';
import { hostileMemoBase64 } from './hostile.js';

const BASE = 1_700_000_000_000_000_000n;

function run(seed: number, count: number): GeneratedRecord[] {
  const traffic = createTraffic({ seed });
  const out: GeneratedRecord[] = [];
  for (let i = 0; i < count; i++) out.push(...traffic.generate(BASE + BigInt(i) * 1_000_000n));
  return out;
}

const RECORDS = run(42, 4000);
const JSONS = RECORDS.map((r) => r.tx.json as Record<string, unknown>);

describe('traffic', () => {
  it('is deterministic: the same seed gives byte-identical records, another seed does not', () => {
    const again = run(42, 300).map((r) => serializeJson(r.tx.json));
    const other = run(43, 300).map((r) => serializeJson(r.tx.json));

    const first = RECORDS.slice(0, again.length).map((r) => serializeJson(r.tx.json));

    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('covers every transaction type of 0.129, and generates none of the node-internal ones added since', () => {
    const names = new Set(JSONS.map((j) => j.name));
    const generated = new Set(TRANSACTION_MIX.map((t) => t.name));

    const missing = [...generated].filter((n) => !names.has(n));
    const notGenerated = [...TRANSACTION_TYPE_NAMES.values()].filter((n) => !generated.has(n));

    expect(missing).toEqual([]);
    expect(notGenerated).toContain('HOOKSTORE');
    expect(notGenerated.filter((n) => names.has(n))).toEqual([]);
  });

  it('injects a type of the current line by name', () => {
    const type = TRANSACTION_TYPES_BY_NAME.get('REGISTEREDNODECREATE');

    expect(type).toMatchObject({ code: 78, name: 'REGISTEREDNODECREATE' });
  });

  it('produces records that parse with the client schema', () => {
    const failures = JSONS.filter((j) => !Transaction.safeParse(j).success);

    expect(failures).toEqual([]);
  });

  it('fails some transactions with real result names, including the usual ones', () => {
    const results = new Set(JSONS.map((j) => j.result as string));

    expect([...results].every((r) => RESULT_NAMES.has(r))).toBe(true);
    for (const name of [
      'SUCCESS',
      'INSUFFICIENT_PAYER_BALANCE',
      'CONTRACT_REVERT_EXECUTED',
      'INVALID_SIGNATURE',
    ]) {
      expect(results).toContain(name);
    }
  });

  it('sorts transfers by account then amount and always charges node and 0.0.98 fee legs', () => {
    const problems: string[] = [];

    for (const j of JSONS) {
      const transfers = j.transfers as { account: string; amount: number }[];
      const nums = transfers.map((t) => Number(t.account.split('.')[2]));
      const ts = j.consensus_timestamp as string;
      if (nums.some((n, i) => i > 0 && n < (nums[i - 1] as number))) problems.push(`${ts} unsorted`);
      const paid = (j.charged_tx_fee as number) > 0;
      if (paid && !transfers.some((t) => t.account === '0.0.98' && t.amount > 0))
        problems.push(`${ts} no 0.0.98`);
      if (paid && !transfers.some((t) => t.account === j.node && t.amount > 0))
        problems.push(`${ts} no node`);
      if (transfers.reduce((s, t) => s + BigInt(t.amount), 0n) !== 0n) problems.push(`${ts} not zero-sum`);
    }

    expect(problems).toEqual([]);
  });

  it('pays staking rewards from 0.0.800 in both staking_reward_transfers and the reward rows', () => {
    const paying = RECORDS.filter((r) => r.rewards.length > 0);

    expect(paying.length).toBeGreaterThan(10);
    for (const r of paying) {
      const j = r.tx.json as {
        transfers: { account: string; amount: number }[];
        staking_reward_transfers: unknown[];
      };
      const fromPool = j.transfers.find((t) => t.account === '0.0.800');
      expect(fromPool?.amount).toBe(-Number(r.rewards[0]?.amount));
      expect(j.staking_reward_transfers).toEqual([
        { account: `0.0.${r.rewards[0]?.accountId}`, amount: Number(r.rewards[0]?.amount) },
      ]);
      expect(r.rewards[0]?.timestamp).toBe(r.tx.consensusTimestamp);
    }
  });

  it('builds contract traces at least 10 deep with CALL, DELEGATECALL, CREATE2 and reverts', () => {
    const actions = RECORDS.flatMap((r) => r.actions.map((a) => a.json as Record<string, unknown>));

    const ops = new Set(actions.map((a) => a.call_operation_type));
    const depth = Math.max(...actions.map((a) => a.call_depth as number));

    expect(depth).toBeGreaterThanOrEqual(10);
    expect([...ops]).toEqual(expect.arrayContaining(['CALL', 'DELEGATECALL', 'CREATE2', 'STATICCALL']));
    expect(actions.some((a) => a.result_data_type === 'REVERT_REASON')).toBe(true);
  });

  it('gives children and scheduled executions their parent transaction id with distinct timestamps', () => {
    const children = JSONS.filter((j) => (j.nonce as number) > 0);
    const scheduled = JSONS.filter((j) => j.scheduled === true);

    expect(children.length).toBeGreaterThan(0);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const child of children) {
      const parent = JSONS.find((j) => j.consensus_timestamp === child.parent_consensus_timestamp);
      expect(parent?.transaction_id).toBe(child.transaction_id);
      expect(parent?.consensus_timestamp).not.toBe(child.consensus_timestamp);
    }
    for (const s of scheduled) {
      expect(JSONS.filter((j) => j.transaction_id === s.transaction_id).length).toBeGreaterThan(1);
    }
  });

  it('mixes hostile memos into the traffic, the 100 KB one and invalid UTF-8 included', () => {
    const memos = new Set(JSONS.map((j) => j.memo_base64));

    expect(memos).toContain(hostileMemoBase64('slack-channel'));
    const hostile = ['long-100kb', 'invalid-utf8', 'html-script', 'slack-link', 'slack-user'].filter((n) =>
      memos.has(hostileMemoBase64(n)),
    );
    expect(hostile.length).toBeGreaterThanOrEqual(3);
    expect(Buffer.from(hostileMemoBase64('long-100kb'), 'base64').length).toBe(100 * 1024);
  });

  it('gives consensus timestamps exactly as asked: base for the parent, base + n for followers', () => {
    const traffic = createTraffic({ seed: 1 });

    const records = Array.from({ length: 300 }, (_, i) => traffic.generate(BASE + BigInt(i) * 100n)).flat();

    const stamps = records.map((r) => r.tx.consensusTimestamp);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(stamps).toEqual([...stamps].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('keeps an injected payer on a duplicate: its transaction id names the payer asked for', () => {
    const traffic = createTraffic({ seed: 7 });
    const payer = traffic.population.accounts[0];
    if (!payer) throw new Error('population is empty');
    // Ids of other payers first, so a duplicate drawn from all recent ids would name one of them.
    for (let i = 0; i < 40; i++) traffic.generate(BASE + BigInt(i) * 100n);

    const duplicates = Array.from({ length: 40 }, (_, i) =>
      traffic.generate(BASE + 10_000n + BigInt(i) * 100n, { payer, result: 'DUPLICATE_TRANSACTION' }),
    ).map((records) => records[0]?.tx.json as Record<string, unknown>);

    const payerId = `0.0.${payer.num}`;
    for (const tx of duplicates) {
      expect(tx.result).toBe('DUPLICATE_TRANSACTION');
      expect(String(tx.transaction_id).startsWith(`${payerId}-`)).toBe(true);
    }
  });

  it('never debits a quiet account in background traffic, and still credits it', () => {
    const traffic = createTraffic({ seed: 42, quietAccounts: [1003, 1004] });
    const records = Array.from({ length: 4000 }, (_, i) =>
      traffic.generate(BASE + BigInt(i) * 1_000_000n),
    ).flat();

    const legs = records.flatMap(
      (r) => (r.tx.json as { transfers?: { account: string; amount: number | bigint }[] }).transfers ?? [],
    );
    const quiet = legs.filter((l) => l.account === '0.0.1003' || l.account === '0.0.1004');
    expect(quiet.filter((l) => BigInt(l.amount) < 0n)).toEqual([]);
    expect(quiet.length).toBeGreaterThan(0);
  });
});
