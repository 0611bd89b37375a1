// What an alert says happened: why it fired (each condition with the values that matched), which record
// triggered a window, what resolved it, token moves, and the template variables for all of them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALERT_VARIABLES } from './alert-variables.js';
import type { ContractAction, Transaction } from '@ledger-sentinel/ledger-model/schema';
import { createEngine } from '../engine/engine.js';
import {
  HBAR,
  WATCHED,
  action,
  at,
  memo,
  reward,
  transfer,
  tx,
} from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';

const ms = (seconds: number) => (1_700_000_000 + seconds) * 1000;

function fire(when: string, record: Transaction, traces?: ContractAction[]) {
  const engine = createEngine(ruleSetFrom(`rules:\n  - id: r\n    when: ${when}\n    summary: "{{why}}"\n`));
  const event = { source: 'transactions' as const, record, account: WATCHED, ...(traces ? { traces } : {}) };
  return engine.evaluate(event).alerts[0];
}

const big = transfer(WATCHED.id, '0.0.7777', 50_000n * HBAR);
const tokenDrain = tx({
  token_transfers: [
    { token_id: '0.0.456858', account: WATCHED.id, amount: '-2500000' },
    { token_id: '0.0.456858', account: '0.0.6666', amount: '2500000' },
  ],
});
const nftOut = tx({
  nft_transfers: [
    {
      token_id: '0.0.9000',
      serial_number: 7,
      sender_account_id: WATCHED.id,
      receiver_account_id: '0.0.6666',
    },
  ],
});

describe('why an alert fired, per condition', () => {
  it.each([
    ['debit', '{ debit: "10000 hbar" }', big, 'net debit 50,000.001 HBAR ≥ 10,000 HBAR'],
    [
      'credit',
      '{ credit: "1 hbar" }',
      transfer('0.0.7777', WATCHED.id, 3n * HBAR),
      'net credit 3 HBAR ≥ 1 HBAR',
    ],
    ['fee', '{ fee: "0.0001 hbar" }', tx(), 'fee 0.001 HBAR ≥ 0.0001 HBAR'],
    [
      'result fail',
      '{ result: fail }',
      tx({ result: 'INVALID_SIGNATURE' }),
      'result INVALID_SIGNATURE (a failure)',
    ],
    [
      'result names',
      '{ result: [INVALID_SIGNATURE] }',
      tx({ result: 'INVALID_SIGNATURE' }),
      'result INVALID_SIGNATURE in the list',
    ],
    ['type', '{ type: [CRYPTOTRANSFER] }', tx(), 'type CRYPTOTRANSFER'],
    [
      'token_debit',
      '{ token_debit: { token_id: 0.0.456858, min: "1000 units" } }',
      tokenDrain,
      'token 0.0.456858 debit 2,500,000 units ≥ 1,000 units',
    ],
    ['nft_out', '{ nft_out: { token_id: 0.0.9000 } }', nftOut, 'NFT 0.0.9000 sent'],
    [
      'memo',
      '{ memo: { contains: "refund" } }',
      tx({ memo_base64: memo('refund-7') }),
      'memo contains "refund"',
    ],
    [
      'counterparty',
      '{ counterparty: { not_in: [0.0.1002] } }',
      big,
      'HBAR sent to 0.0.7777 not in the list',
    ],
    ['payer', '{ payer: self }', tx(), 'payer 0.0.1001 (the account itself)'],
    ['scheduled', '{ scheduled: false }', tx(), 'not a scheduled execution'],
    ['child', '{ child: false }', tx(), 'a top-level record'],
    [
      'several keys',
      '{ debit: "1 hbar", result: success }',
      big,
      'result SUCCESS (a success) and net debit 50,000.001 HBAR ≥ 1 HBAR',
    ],
    [
      'any',
      '{ any: [{ credit: "1 hbar" }, { debit: "1 hbar" }] }',
      big,
      'net debit 50,000.001 HBAR ≥ 1 HBAR',
    ],
    ['not', '{ not: { memo: { contains: "payroll" } } }', tx(), 'not (memo contains "payroll")'],
  ])('%s', (_name, when, record, why) => {
    const alert = fire(when, record);

    expect(alert?.why).toBe(why);
    expect(alert?.summary).toBe(why);
  });

  it.each([
    ['call_depth', '{ call_depth: 5 }', 'call depth 6 ≥ 5'],
    [
      'action',
      '{ action: { call_operation_type: [DELEGATECALL] } }',
      'contract action CALL DELEGATECALL to 0.0.5005 (depth 6)',
    ],
  ])('%s (from the call trace)', (_name, when, why) => {
    const traces = [action(), action({ call_depth: 6, call_operation_type: 'DELEGATECALL', index: 1 })];

    expect(fire(when, tx({ name: 'CONTRACTCALL' }), traces)?.why).toBe(why);
  });
});

const BURST = `rules:
  - id: burst
    when: { result: fail }
    window: { duration: 10m, count: 3 }
    summary: "{{match_count}} fails in {{window_duration}}: {{why}}"
    description: "{{#others}}{{transaction_id}} {{/others}}"
`;
const failAt = (s: number, n: number) => ({
  source: 'transactions' as const,
  account: WATCHED,
  record: tx({
    result: 'INVALID_SIGNATURE',
    consensus_timestamp: at(s),
    transaction_id: `0.0.1001-1700000000-00000000${n}`,
  }),
});

describe('window alerts', () => {
  it('name the newest record as the trigger and list the others', () => {
    const engine = createEngine(ruleSetFrom(BURST));

    const alerts = [failAt(0, 1), failAt(10, 2), failAt(20, 3)].flatMap((e) => engine.evaluate(e).alerts);

    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.trigger?.transactionId).toBe('0.0.1001-1700000000-000000003');
    expect(alerts[0]?.why).toBe('3 matches in 10m ≥ 3 — newest: result INVALID_SIGNATURE (a failure)');
    expect(alerts[0]?.summary).toBe(`3 fails in 10m: ${alerts[0]?.why}`);
    expect(alerts[0]?.description).toBe('0.0.1001-1700000000-000000001 0.0.1001-1700000000-000000002 ');
  });

  it('say what resolved them when the window drains', () => {
    const engine = createEngine(ruleSetFrom(BURST));
    [failAt(0, 1), failAt(10, 2), failAt(20, 3)].forEach((e) => engine.evaluate(e));

    const [resolved] = engine.tick(ms(601));

    expect(resolved?.status).toBe('resolved');
    expect(resolved?.resolution).toBe('fewer than 3 matches in the last 10m (2)');
    // What fired, as it was sent: not the summary rendered again over the drained window.
    expect(resolved?.summary).toBe(
      '3 fails in 10m: 3 matches in 10m ≥ 3 — newest: result INVALID_SIGNATURE (a failure)',
    );
    expect(resolved?.why).toBe('3 matches in 10m ≥ 3 — newest: result INVALID_SIGNATURE (a failure)');
  });

  it('say why an absence fired and which record resolved it', () => {
    const engine = createEngine(
      ruleSetFrom(`rules:
  - id: no-reward
    source: rewards
    summary: "no staking reward for {{window_duration}}"
    description: "{{resolution}}"
    window: { duration: 26h, absent: true }
    accounts: { ids: [0.0.1001] }
`),
    );
    engine.tick(ms(0));

    const [fired] = engine.tick(ms(26 * 3600));
    const [resolved] = engine.evaluate({
      source: 'rewards',
      record: reward(1_230_000_000n, 27 * 3600),
      account: WATCHED,
    }).alerts;

    expect(fired?.why).toBe(
      'no matching record for 26h ≥ 26h, last match or start of watching at 2023-11-14T22:13:20.000000000Z',
    );
    expect(resolved?.resolution).toBe('a matching record arrived: staking reward of 12.3 HBAR');
    expect(resolved?.description).toBe(resolved?.resolution);
    expect(resolved?.why).toBe(
      'no matching record for 27h ≥ 26h, last match or start of watching at 2023-11-14T22:13:20.000000000Z',
    );
    expect(resolved?.trigger?.kind).toBe('reward');
  });
});

describe('token and NFT alerts', () => {
  it('carry the token, the amount in smallest units (decimals unknown) and the counterparty', () => {
    const engine = createEngine(
      ruleSetFrom(`rules:
  - id: drain
    when: { token_debit: { token_id: 0.0.456858 } }
    summary: "{{token_amount_text}} of {{token_id}} to {{token_counterparty}}"
`),
    );

    const [alert] = engine.evaluate({ source: 'transactions', record: tokenDrain, account: WATCHED }).alerts;

    expect(alert?.summary).toBe('-2,500,000 units (decimals unknown) of 0.0.456858 to 0.0.6666');
    expect(alert?.trigger?.tokens).toEqual([
      { tokenId: '0.0.456858', amount: '-2500000', counterparty: '0.0.6666' },
    ]);
  });

  it('carry NFT serials and the other side', () => {
    const alert = fire('{ nft_out: { token_id: 0.0.9000 } }', nftOut);

    expect(alert?.trigger?.tokens).toEqual([
      { tokenId: '0.0.9000', amount: '-1', serial: '7', counterparty: '0.0.6666' },
    ]);
  });
});

describe('contract verification', () => {
  it('is a template variable', () => {
    const engine = createEngine(
      ruleSetFrom(`rules:
  - id: deploy
    when: { type: [CONTRACTCREATEINSTANCE] }
    verify_contracts: true
    summary: "new contract: {{contract_verification}}"
`),
    );
    const record = tx({ name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.5005' });

    const [alert] = engine.evaluate({
      source: 'transactions',
      record,
      account: WATCHED,
      annotations: { contract_verification: 'full match' },
    }).alerts;

    expect(alert?.summary).toBe('new contract: full match');
  });
});

describe('the template variables about what happened', () => {
  it.each(ALERT_VARIABLES.map((v) => [v.name]))('%s is documented in rules/README.md', (name) => {
    const readme = readFileSync(new URL('../../../rules/README.md', import.meta.url), 'utf8');

    expect(readme).toMatch(new RegExp(`\\{\\{[#]?${name}[}.]`));
  });
});
