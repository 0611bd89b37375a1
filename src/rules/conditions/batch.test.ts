// `batch: inner | outer` on the shapes of every service era: the batch key as a key object (current line), as
// 0x-hex (0.129 line), absent (a service before batches) or unreadable; and what an alert on an inner record says.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { compileTree } from '../load/compile.js';
import { When } from '../load/schema.js';
import { Facts } from '../facts/facts.js';
import { batchKeyText } from '../facts/batch.js';
import { createEngine } from '../engine/engine.js';
import { WATCHED, tx } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';

const KEY = 'bfc9d4a3c5e1f2a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4';
const PARENT = '1699999999.999999999';
const INNER_ID = '0.0.5555-1699999990-000000001';
type Over = Partial<z.input<typeof Transaction>>;
const inner = (over: Over = {}) =>
  tx({ parent_consensus_timestamp: PARENT, transaction_id: INNER_ID, ...over });

const role = (record: Transaction) => {
  const facts = () => new Facts({ source: 'transactions', record, account: WATCHED });
  const holds = (value: string) => compileTree(When.parse(parse(`batch: ${value}`)))(facts());
  return holds('inner') ? 'inner' : holds('outer') ? 'outer' : 'none';
};

describe('batch condition', () => {
  it.each<[string, Transaction, string]>([
    [
      'current line: batch_key as a key object',
      inner({ batch_key: { _type: 'ED25519', key: KEY } }),
      'inner',
    ],
    ['0.129 line: batch_key as 0x-hex', inner({ batch_key: `0x1220${KEY}` }), 'inner'],
    ['an inner record with nonce > 0 and a key', inner({ nonce: 2, batch_key: `0x1220${KEY}` }), 'inner'],
    ['no batch_key member, own id with a parent', inner(), 'inner'],
    ['an unreadable batch_key, own id with a parent', inner({ batch_key: 42 as unknown as null }), 'inner'],
    ['no batch_key member, a contract child (nonce > 0)', inner({ nonce: 1 }), 'none'],
    ['no batch_key member, a scheduled execution', inner({ scheduled: true }), 'none'],
    ['batch_key null: the service says no batch', inner({ batch_key: null }), 'none'],
    ['the ATOMICBATCH record', tx({ name: 'ATOMICBATCH', batch_key: null }), 'outer'],
    ['an ordinary transfer', tx({ batch_key: null }), 'none'],
    ['a record of a service before batches', tx(), 'none'],
  ])('%s: %s', (_label, record, expected) => {
    expect(role(record)).toBe(expected);
  });

  it.each([
    [{ _type: 'ED25519', key: KEY }, `ED25519 ${KEY}`],
    [`0x1220${KEY}`, `ED25519 ${KEY}`],
    [`0x3A21${'0a'.repeat(33)}`, `ECDSA_SECP256K1 ${'0a'.repeat(33)}`],
    ['0x2a0a0a08', 'ProtobufEncoded 2a0a0a08'],
    ['0x', ''],
    [null, ''],
    [undefined, ''],
  ] as const)('batch key %j reads as %j', (key, text) => {
    expect(batchKeyText(key)).toBe(text);
  });

  it('refuses another value with the values it takes', () => {
    const result = When.safeParse({ batch: 'inside' });

    expect(result.error?.issues.map((i) => i.message)).toEqual(['expected inner or outer, got "inside"']);
  });

  it('an alert on an inner record names its payer, the batch key and the batch, in why and in the variables', () => {
    const engine = createEngine(
      ruleSetFrom(`rules:
  - id: batched
    when: { batch: inner }
    summary: '{{batch}} record paid by {{batch_payer}}, key {{batch_key_text}} ({{batch_key}}), batch {{batch_timestamp}}'
    description: '{{why}}'
`),
    );
    const record = inner({ batch_key: { _type: 'ED25519', key: KEY } });

    const alert = engine.evaluate({ source: 'transactions', record, account: WATCHED }).alerts[0];

    expect(alert?.summary).toBe(
      `inner record paid by 0.0.5555, key ED25519 ${KEY} (ED25519 ${KEY}), batch ${PARENT}`,
    );
    expect(alert?.description).toBe(
      `inner transaction of the atomic batch at ${PARENT}, payer 0.0.5555, batch key ED25519 ${KEY}`,
    );
  });

  it('says so when an outer record fires, and leaves the batch variables empty on other records', () => {
    const rules = ruleSetFrom(`rules:
  - id: batches
    when: { any: [{ batch: outer }, { type: [CRYPTOTRANSFER] }] }
    summary: '[{{batch}}|{{batch_payer}}|{{batch_key_text}}|{{batch_timestamp}}] {{why}}'
`);
    // One engine per record: the second would otherwise fold into the alert the first left firing.
    const evaluate = (record: Transaction) =>
      createEngine(rules).evaluate({ source: 'transactions', record, account: WATCHED }).alerts[0]?.summary;

    expect(evaluate(tx({ name: 'ATOMICBATCH', consensus_timestamp: PARENT }))).toBe(
      `[outer|0.0.1001||${PARENT}] an atomic batch paid by 0.0.1001`,
    );
    expect(evaluate(tx({ consensus_timestamp: '1700000001.000000000' }))).toBe('[|||] type CRYPTOTRANSFER');
  });
});
