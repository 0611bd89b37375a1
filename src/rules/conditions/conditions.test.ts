// The condition table (gatus-style): every condition, matching and not, on real-shaped records.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileTree } from '../load/compile.js';
import { Facts, type RecordEvent } from '../facts/facts.js';
import { When } from '../load/schema.js';
import { CONDITIONS } from './registry.js';
import {
  HBAR,
  OTHER,
  WATCHED,
  action,
  memo,
  reward,
  transfer,
  tx,
} from '../../../test/fixtures/rules/records.js';

const out = (hbar: bigint, to = '0.0.5555') => transfer(WATCHED.id, to, hbar * HBAR);
const inbound = (hbar: bigint) => transfer('0.0.5555', WATCHED.id, hbar * HBAR);
const txEvent = (record = tx(), traces?: RecordEvent['traces']): RecordEvent => ({
  source: 'transactions',
  record,
  account: WATCHED,
  traces,
});
const rewardEvent = (tinybar: bigint): RecordEvent => ({
  source: 'rewards',
  record: reward(tinybar),
  account: WATCHED,
});
const tokenTx = (amount: number) =>
  tx({
    token_transfers: [
      { token_id: '0.0.777', account: WATCHED.id, amount },
      { token_id: '0.0.777', account: '0.0.5555', amount: -amount },
    ],
  });
const nftTx = (sender: string, receiver: string, serial = 7) =>
  tx({
    nft_transfers: [
      {
        token_id: '0.0.888',
        sender_account_id: sender,
        receiver_account_id: receiver,
        serial_number: serial,
      },
    ],
  });

const innerTx = tx({
  batch_key: { _type: 'ED25519', key: 'ab'.repeat(32) },
  parent_consensus_timestamp: '1699999999.999999999',
  transaction_id: '0.0.5555-1699999990-000000001',
});

type Row = [string, string, RecordEvent, boolean | undefined];

const rows: Row[] = [
  ['result success on SUCCESS', 'result: success', txEvent(), true],
  [
    'result success on a fail',
    'result: success',
    txEvent(tx({ result: 'INSUFFICIENT_PAYER_BALANCE' })),
    false,
  ],
  ['result fail on REVERTED_SUCCESS', 'result: fail', txEvent(tx({ result: 'REVERTED_SUCCESS' })), true],
  [
    'result fail on SUCCESS_BUT_MISSING_EXPECTED_OPERATION',
    'result: fail',
    txEvent(tx({ result: 'SUCCESS_BUT_MISSING_EXPECTED_OPERATION' })),
    false,
  ],
  ['result fail on UNKNOWN', 'result: fail', txEvent(tx({ result: 'UNKNOWN' })), true],
  [
    'result names, listed',
    'result: [DUPLICATE_TRANSACTION, FAIL_FEE]',
    txEvent(tx({ result: 'FAIL_FEE' })),
    true,
  ],
  ['result names, not listed', 'result: [DUPLICATE_TRANSACTION]', txEvent(), false],
  ['type listed', 'type: [CRYPTODELETE, CRYPTOTRANSFER]', txEvent(), true],
  ['type not listed', 'type: [CRYPTODELETE]', txEvent(), false],
  // Types of the current service line (0.160): a rule on them is valid and matches what the service names.
  [
    'type of the current line',
    'type: [HOOKSTORE, REGISTEREDNODECREATE]',
    txEvent(tx({ name: 'HOOKSTORE' })),
    true,
  ],
  ['a newer type, not listed', 'type: [LEDGERIDPUBLICATION]', txEvent(tx({ name: 'HOOKSTORE' })), false],
  ['debit at the threshold, fee included', 'debit: "10000.001 hbar"', txEvent(out(10_000n)), true],
  ['debit below the threshold', 'debit: "10001 hbar"', txEvent(out(10_000n)), false],
  ['debit in tinybars', 'debit: "1000100000 tinybar"', txEvent(out(10n)), true],
  ['debit on a credit', 'debit: "1 tinybar"', txEvent(inbound(5n)), false],
  ['debit of another account', 'debit: "1 hbar"', { ...txEvent(out(5n)), account: OTHER }, false],
  ['credit at least', 'credit: "0.5 hbar"', txEvent(inbound(1n)), true],
  ['credit on a debit', 'credit: "1 tinybar"', txEvent(out(1n)), false],
  ['credit below the threshold', 'credit: "1.5 hbar"', txEvent(inbound(1n)), false],
  ['token_debit', 'token_debit: { token_id: 0.0.777, min: "100 units" }', txEvent(tokenTx(-100)), true],
  [
    'token_debit below min',
    'token_debit: { token_id: 0.0.777, min: "101 units" }',
    txEvent(tokenTx(-100)),
    false,
  ],
  ['token_debit other token', 'token_debit: { token_id: 0.0.778 }', txEvent(tokenTx(-100)), false],
  ['token_debit on a token credit', 'token_debit: { token_id: 0.0.777 }', txEvent(tokenTx(100)), false],
  ['token_credit', 'token_credit: { token_id: 0.0.777 }', txEvent(tokenTx(5)), true],
  ['token_credit at min', 'token_credit: { token_id: 0.0.777, min: "5 units" }', txEvent(tokenTx(5)), true],
  [
    'token_credit below min',
    'token_credit: { token_id: 0.0.777, min: "6 units" }',
    txEvent(tokenTx(5)),
    false,
  ],
  ['token_credit other token', 'token_credit: { token_id: 0.0.778 }', txEvent(tokenTx(5)), false],
  ['token_credit on a token debit', 'token_credit: { token_id: 0.0.777 }', txEvent(tokenTx(-5)), false],
  ['nft_out', 'nft_out: { token_id: 0.0.888 }', txEvent(nftTx(WATCHED.id, '0.0.5555')), true],
  [
    'nft_out serial',
    'nft_out: { token_id: 0.0.888, serial: 8 }',
    txEvent(nftTx(WATCHED.id, '0.0.5555')),
    false,
  ],
  ['nft_out on an nft in', 'nft_out: { token_id: 0.0.888 }', txEvent(nftTx('0.0.5555', WATCHED.id)), false],
  ['nft_out other token', 'nft_out: { token_id: 0.0.889 }', txEvent(nftTx(WATCHED.id, '0.0.5555')), false],
  ['nft_in', 'nft_in: { token_id: 0.0.888, serial: 7 }', txEvent(nftTx('0.0.5555', WATCHED.id)), true],
  ['nft_in any serial', 'nft_in: { token_id: 0.0.888 }', txEvent(nftTx('0.0.5555', WATCHED.id)), true],
  ['nft_in on an nft out', 'nft_in: { token_id: 0.0.888 }', txEvent(nftTx(WATCHED.id, '0.0.5555')), false],
  [
    'nft_in other serial',
    'nft_in: { token_id: 0.0.888, serial: 8 }',
    txEvent(nftTx('0.0.5555', WATCHED.id)),
    false,
  ],
  ['nft_in other token', 'nft_in: { token_id: 0.0.889 }', txEvent(nftTx('0.0.5555', WATCHED.id)), false],
  [
    'nft_in to another account',
    'nft_in: { token_id: 0.0.888 }',
    { ...txEvent(nftTx('0.0.5555', WATCHED.id)), account: OTHER },
    false,
  ],
  ['fee at least', 'fee: "0.001 hbar"', txEvent(), true],
  ['fee below', 'fee: "0.0011 hbar"', txEvent(), false],
  ['memo contains', 'memo: { contains: refund }', txEvent(tx({ memo_base64: memo('a refund of 5') })), true],
  [
    'memo contains, case',
    'memo: { contains: REFUND }',
    txEvent(tx({ memo_base64: memo('a refund') })),
    false,
  ],
  [
    'memo contains, ignore_case',
    'memo: { contains: REFUND, ignore_case: true }',
    txEvent(tx({ memo_base64: memo('a refund') })),
    true,
  ],
  ['memo regex', 'memo: { regex: "^inv-\\\\d+$" }', txEvent(tx({ memo_base64: memo('inv-42') })), true],
  ['memo regex, no memo', 'memo: { regex: "^inv" }', txEvent(), false],
  ['memo utf-8', 'memo: { contains: "ℏ" }', txEvent(tx({ memo_base64: memo('10 ℏ') })), true],
  [
    'memo beyond the evaluated length',
    'memo: { contains: needle }',
    txEvent(tx({ memo_base64: memo(`${'x'.repeat(2000)}needle`) })),
    false,
  ],
  ['counterparty not_in, unlisted', 'counterparty: { not_in: [0.0.4444] }', txEvent(out(1n)), true],
  ['counterparty ignores fee legs', 'counterparty: { not_in: [0.0.5555] }', txEvent(out(1n)), false],
  ['counterparty only when HBAR left', 'counterparty: { not_in: [0.0.4444] }', txEvent(inbound(1n)), false],
  [
    'counterparty to 0.0.800 ignored',
    'counterparty: { not_in: [0.0.4444] }',
    txEvent(out(1n, '0.0.800')),
    false,
  ],
  ['counterparty in', 'counterparty: { in: [0.0.5555] }', txEvent(out(1n)), true],
  ['counterparty in, unlisted', 'counterparty: { in: [0.0.4444] }', txEvent(out(1n)), false],
  ['payer self', 'payer: self', txEvent(out(1n)), true],
  ['payer self, another paid', 'payer: self', txEvent(inbound(1n)), false],
  ['payer other', 'payer: other', txEvent(inbound(1n)), true],
  ['payer other, self paid', 'payer: other', txEvent(out(1n)), false],
  ['scheduled', 'scheduled: true', txEvent(tx({ scheduled: true })), true],
  ['scheduled false', 'scheduled: false', txEvent(tx({ scheduled: true })), false],
  ['scheduled on an ordinary one', 'scheduled: true', txEvent(), false],
  ['scheduled false on an ordinary one', 'scheduled: false', txEvent(), true],
  ['child', 'child: true', txEvent(tx({ nonce: 1 })), true],
  ['child false on a child', 'child: false', txEvent(tx({ nonce: 2 })), false],
  ['child on a top-level record', 'child: true', txEvent(), false],
  ['child false on a top-level record', 'child: false', txEvent(), true],
  // Atomic batches (batch.test.ts has the shapes of every service era).
  ['batch inner', 'batch: inner', txEvent(innerTx), true],
  ['batch outer on an inner one', 'batch: outer', txEvent(innerTx), false],
  ['batch outer', 'batch: outer', txEvent(tx({ name: 'ATOMICBATCH' })), true],
  ['batch inner on an ordinary one', 'batch: inner', txEvent(), false],
  ['reward min', 'reward: { min: "1 hbar" }', rewardEvent(HBAR), true],
  ['reward below min', 'reward: { min: "1 hbar" }', rewardEvent(HBAR - 1n), false],
  ['reward max', 'reward: { max: "0.5 hbar" }', rewardEvent(HBAR), false],
  ['reward at max', 'reward: { max: "1 hbar" }', rewardEvent(HBAR), true],
  ['reward between', 'reward: { min: "1 tinybar", max: "10 tinybar" }', rewardEvent(10n), true],
  ['call_depth without traces', 'call_depth: 5', txEvent(), undefined],
  ['call_depth reached', 'call_depth: 5', txEvent(tx(), [action(), action({ call_depth: 5 })]), true],
  ['call_depth not reached', 'call_depth: 5', txEvent(tx(), [action({ call_depth: 4 })]), false],
  [
    'call_depth ">= 5" is 5 or deeper',
    'call_depth: ">= 5"',
    txEvent(tx(), [action({ call_depth: 5 })]),
    true,
  ],
  ['call_depth "> 4" is 5 or deeper', 'call_depth: "> 4"', txEvent(tx(), [action({ call_depth: 5 })]), true],
  ['call_depth "> 5" is 6 or deeper', 'call_depth: "> 5"', txEvent(tx(), [action({ call_depth: 5 })]), false],
  [
    'token_debit in tokens with decimals',
    'token_debit: { token_id: 0.0.777, min: "0.01 tokens", decimals: 4 }',
    txEvent(tokenTx(-100)),
    true,
  ],
  [
    'token_debit in tokens above the move',
    'token_debit: { token_id: 0.0.777, min: "0.0101 tokens", decimals: 4 }',
    txEvent(tokenTx(-100)),
    false,
  ],
  [
    'action operation',
    'action: { call_operation_type: [DELEGATECALL] }',
    txEvent(tx(), [action({ call_operation_type: 'DELEGATECALL' })]),
    true,
  ],
  [
    'action operation absent',
    'action: { call_operation_type: [DELEGATECALL] }',
    txEvent(tx(), [action()]),
    false,
  ],
  [
    'action recipient not_in, listed',
    'action: { recipient_not_in: [0.0.5005] }',
    txEvent(tx(), [action()]),
    false,
  ],
  [
    'action recipient not_in, by address',
    'action: { recipient_not_in: ["0x000000000000000000000000000000000000138D"] }',
    txEvent(tx(), [action()]),
    false,
  ],
  [
    'action recipient not_in, unlisted',
    'action: { recipient_not_in: [0.0.6006] }',
    txEvent(tx(), [action()]),
    true,
  ],
  [
    'action recipient_in',
    'action: { recipient_in: [0.0.5005], call_type: [CALL] }',
    txEvent(tx(), [action()]),
    true,
  ],
  ['action recipient_in, unlisted', 'action: { recipient_in: [0.0.6006] }', txEvent(tx(), [action()]), false],
  ['action call_type, other', 'action: { call_type: [CREATE] }', txEvent(tx(), [action()]), false],
  [
    'action min_value',
    'action: { min_value: "1 hbar" }',
    txEvent(tx(), [action({ value: 100_000_000 })]),
    true,
  ],
  [
    'action min_value, below',
    'action: { min_value: "1 hbar" }',
    txEvent(tx(), [action({ value: 99_999_999 })]),
    false,
  ],
  [
    'action reverted',
    'action: { reverted: true }',
    txEvent(tx(), [action({ result_data_type: 'REVERT_REASON' })]),
    true,
  ],
  ['action not reverted', 'action: { reverted: true }', txEvent(tx(), [action()]), false],
  ['all', 'all: [{ type: [CRYPTOTRANSFER] }, { result: success }]', txEvent(), true],
  ['all, one false', 'all: [{ type: [CRYPTOTRANSFER] }, { result: fail }]', txEvent(), false],
  ['all, false beats a missing trace', 'all: [{ call_depth: 5 }, { result: fail }]', txEvent(), false],
  ['all, true waits for the trace', 'all: [{ call_depth: 5 }, { result: success }]', txEvent(), undefined],
  ['any', 'any: [{ type: [CRYPTODELETE] }, { result: success }]', txEvent(), true],
  ['any, none', 'any: [{ type: [CRYPTODELETE] }, { result: fail }]', txEvent(), false],
  ['any, true beats a missing trace', 'any: [{ call_depth: 5 }, { result: success }]', txEvent(), true],
  ['not', 'not: { result: success }', txEvent(), false],
  ['not, inner false', 'not: { result: fail }', txEvent(), true],
  ['not of a missing trace', 'not: { call_depth: 5 }', txEvent(), undefined],
  ['keys are AND-ed', '{ type: [CRYPTOTRANSFER], debit: "1 hbar" }', txEvent(out(1n)), true],
  ['keys are AND-ed, one false', '{ type: [CRYPTOTRANSFER], debit: "2 hbar" }', txEvent(out(1n)), false],
  ['empty when matches everything', '{}', txEvent(), true],
];

describe('conditions', () => {
  it.each(rows)('%s: %s', (_label, when, event, expected) => {
    const predicate = compileTree(When.parse(parse(when)));

    const verdict = predicate(new Facts(event));

    expect(verdict).toBe(expected);
  });

  // A condition with only matching rows would pass the table while always returning true.
  it.each(CONDITIONS.map((c) => c.name))('%s has a matching and a non-matching row', (name) => {
    const alone = rows.filter(([, when]) => Object.keys(parse(when) as object).join() === name);

    const verdicts = new Set(alone.map(([, , , expected]) => expected));

    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
  });
});
