import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createEngine, type EngineEvent } from '../engine/engine.js';
import { Facts } from '../facts/facts.js';
import { guardOf } from './guard.js';
import type { RuleSet } from '../load/rule-set.js';
import { When } from '../load/schema.js';
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
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';

const when = (yaml: string) => When.parse(parse(yaml));

describe('guardOf: what a rule needs to be anything but false', () => {
  it.each([
    [
      'type',
      '{ type: [CRYPTOTRANSFER, CONTRACTCALL] }',
      { types: new Set(['CRYPTOTRANSFER', 'CONTRACTCALL']) },
    ],
    ['result success', '{ result: success }', { result: 'success' }],
    ['result fail', '{ result: fail }', { result: 'fail' }],
    ['failure names', '{ result: [INSUFFICIENT_PAYER_BALANCE] }', { result: 'fail' }],
    ['success names', '{ result: [SUCCESS] }', { result: 'success' }],
    ['mixed names: nothing', '{ result: [SUCCESS, INVALID_SIGNATURE] }', {}],
    ['debit', '{ debit: "2 hbar" }', { sign: 'negative', netMax: -2n * HBAR }],
    ['credit', '{ credit: "3 tinybar" }', { sign: 'positive', netMin: 3n }],
    ['counterparty', '{ counterparty: { not_in: [0.0.5] } }', { sign: 'negative' }],
    ['fee', '{ fee: "1 hbar" }', { feeMin: HBAR }],
    ['memo contains', '{ memo: { contains: x } }', { memo: true }],
    ['memo regex that needs text', '{ memo: { regex: "^a" } }', { memo: true }],
    ['memo regex that matches an empty memo', '{ memo: { regex: "^a*$" } }', {}],
    [
      'keys are AND-ed',
      '{ type: [CRYPTOTRANSFER], debit: "1 hbar", fee: "5 tinybar" }',
      {
        types: new Set(['CRYPTOTRANSFER']),
        sign: 'negative',
        netMax: -HBAR,
        feeMin: 5n,
      },
    ],
    [
      'all intersects types',
      '{ all: [{ type: [CRYPTOTRANSFER] }, { type: [CRYPTOTRANSFER, CONTRACTCALL] }] }',
      { types: new Set(['CRYPTOTRANSFER']) },
    ],
    ['any: only what every branch needs', '{ any: [{ debit: "1 hbar" }, { memo: { contains: x } }] }', {}],
    [
      'any joins types and keeps the loosest bound',
      '{ any: [{ type: [CRYPTOTRANSFER], debit: "1 hbar" }, { type: [CONTRACTCALL], debit: "5 hbar" }] }',
      {
        types: new Set(['CRYPTOTRANSFER', 'CONTRACTCALL']),
        sign: 'negative',
        netMax: -HBAR,
      },
    ],
    ['not of a result flips it', '{ not: { result: success } }', { result: 'fail' }],
    [
      'not of a list with every success name',
      '{ not: { result: [SUCCESS, FEE_SCHEDULE_FILE_PART_UPLOADED, SUCCESS_BUT_MISSING_EXPECTED_OPERATION] } }',
      {
        result: 'fail',
      },
    ],
    ['not of a type: nothing', '{ not: { type: [CRYPTOTRANSFER] } }', {}],
    ['not of a debit: nothing', '{ not: { debit: "1 hbar" } }', {}],
    ['not of two keys: nothing', '{ not: { result: success, type: [CRYPTOTRANSFER] } }', {}],
    ['not of not', '{ not: { not: { type: [CRYPTOTRANSFER] } } }', { types: new Set(['CRYPTOTRANSFER']) }],
    ['trace conditions: nothing', '{ call_depth: 3 }', {}],
  ])('%s', (_, yaml, expected) => {
    const guard = guardOf(when(yaml));

    expect(guard).toEqual(expected);
  });
});

// Rules that the index may skip (types, results, signs, bounds, memos), rules it must never skip (combinators that
// cannot be proven, trace conditions), account selectors and a rewards rule.
const RULES = `rules:
  - { id: typed, summary: s, when: { type: [CRYPTOUPDATEACCOUNT] } }
  - { id: typed-or-debit, summary: s, when: { any: [{ type: [CRYPTOUPDATEACCOUNT] }, { debit: "1 hbar" }] } }
  - { id: not-typed, summary: s, when: { not: { type: [CRYPTOTRANSFER] } } }
  - { id: not-both, summary: s, when: { not: { type: [CRYPTOTRANSFER], result: success } } }
  - { id: not-not, summary: s, when: { not: { not: { type: [CRYPTOTRANSFER] } } } }
  - { id: failed, summary: s, when: { result: fail } }
  - { id: not-success, summary: s, when: { not: { result: success } } }
  - { id: success-list, summary: s, when: { result: [SUCCESS] } }
  - { id: debit, summary: s, when: { debit: "1 hbar" } }
  - { id: zero-debit, summary: s, when: { debit: "0 tinybar" } }
  - { id: credit, summary: s, when: { credit: "1 hbar" } }
  - { id: not-debit, summary: s, when: { not: { debit: "1 hbar" } } }
  - { id: counterparty, summary: s, when: { counterparty: { not_in: [0.0.98] } } }
  - { id: fee, summary: s, when: { fee: "1 hbar" } }
  - { id: memo, summary: s, when: { memo: { contains: pay } } }
  - { id: memo-empty, summary: s, when: { memo: { regex: "^$" } } }
  - { id: memo-or-credit, summary: s, when: { any: [{ memo: { contains: pay } }, { credit: "1 tinybar" }] } }
  - { id: all-typed-debit, summary: s, when: { all: [{ type: [CRYPTOTRANSFER] }, { debit: "5 hbar" }] } }
  - { id: deep, summary: s, when: { type: [CONTRACTCALL], call_depth: 2 } }
  - { id: deep-any, summary: s, when: { any: [{ call_depth: 2 }, { type: [CONTRACTCALL] }] } }
  - { id: deep-not, summary: s, when: { not: { call_depth: 2 } } }
  - { id: only-other, summary: s, accounts: { ids: [0.0.2002] }, when: { debit: "1 tinybar" } }
  - { id: only-treasury, summary: s, accounts: { labels: { team: treasury } }, when: { type: [CRYPTOTRANSFER] } }
  - { id: everything, summary: s }
  - { id: big-reward, summary: s, source: rewards, when: { reward: { min: "1 hbar" } } }
  - { id: any-reward, summary: s, source: rewards }
`;

const records = [
  transfer(WATCHED.id, '0.0.5555', 10n * HBAR),
  transfer('0.0.5555', WATCHED.id, 10n * HBAR, { memo_base64: memo('payday') }),
  transfer(OTHER.id, WATCHED.id, 1n, { result: 'INSUFFICIENT_PAYER_BALANCE' }),
  transfer(WATCHED.id, OTHER.id, 0n, { charged_tx_fee: Number(2n * HBAR) }),
  tx({ name: 'CRYPTOUPDATEACCOUNT' }),
  tx({ name: 'CRYPTOUPDATEACCOUNT', result: 'INVALID_SIGNATURE', memo_base64: '' }),
  tx({ name: 'CONTRACTCALL', memo_base64: memo('pay me') }),
  tx({ name: 'CONTRACTCALL', result: 'CONTRACT_REVERT_EXECUTED' }),
  tx({ name: 'UNKNOWN' }),
];
const traces = [undefined, [], [action({ call_depth: 3 })]];

/** What the engine must say: every rule of the source, in order, asked directly. */
function unindexed(ruleSet: RuleSet, event: EngineEvent) {
  const facts = new Facts(event);
  const matched: string[] = [];
  let trace = false;
  for (const rule of ruleSet.bySource[event.source]) {
    if (rule.accountIds && !rule.accountIds.has(event.account.id)) continue;
    const verdict = rule.predicate(facts);
    if (verdict === undefined) trace = true;
    else if (verdict) matched.push(rule.id);
  }
  return trace ? { matched: [], needsTrace: true } : { matched, needsTrace: false };
}

const events: [string, EngineEvent][] = [
  ...records.flatMap((record, r) =>
    [WATCHED, OTHER].flatMap((account) =>
      traces.map((t, i): [string, EngineEvent] => [
        `${record.name} ${record.result} #${r} for ${account.name}, traces ${i}`,
        { source: 'transactions', record, account, traces: t },
      ]),
    ),
  ),
  ['a small reward', { source: 'rewards', record: reward(1n), account: WATCHED }],
  ['a large reward', { source: 'rewards', record: reward(2n * HBAR), account: WATCHED }],
];

describe('engine with the rule index', () => {
  it.each(events)('matches exactly what every rule asked in turn matches: %s', (_, event) => {
    const ruleSet = ruleSetFrom(RULES);
    const expected = unindexed(ruleSet, event);

    const got = createEngine(ruleSet).evaluate(event);

    expect({ matched: got.matched, needsTrace: got.needsTrace }).toEqual(expected);
  });

  it('keeps a rule of one type for records of that type', () => {
    const ruleSet = ruleSetFrom(RULES);

    const got = createEngine(ruleSet).evaluate({
      source: 'transactions',
      record: records[4]!,
      account: WATCHED,
      traces: [],
    });

    expect(got.matched).toEqual(expect.arrayContaining(['typed', 'typed-or-debit', 'not-typed', 'not-both']));
  });

  it('keeps an any: rule for a record that meets only its other branch', () => {
    const ruleSet = ruleSetFrom(RULES);

    const got = createEngine(ruleSet).evaluate({
      source: 'transactions',
      record: records[0]!,
      account: WATCHED,
      traces: [],
    });

    expect(got.matched).toContain('typed-or-debit');
    expect(got.matched).not.toContain('typed');
  });

  it('applies account selectors', () => {
    const ruleSet = ruleSetFrom(RULES);
    const debitBy = (account: typeof WATCHED): EngineEvent => ({
      source: 'transactions',
      record: transfer(account.id, '0.0.5555', HBAR),
      account,
      traces: [],
    });

    const treasury = createEngine(ruleSet).evaluate(debitBy(WATCHED));
    const other = createEngine(ruleSet).evaluate(debitBy(OTHER));

    expect(treasury.matched).toContain('only-treasury');
    expect(treasury.matched).not.toContain('only-other');
    expect(other.matched).toContain('only-other');
    expect(other.matched).not.toContain('only-treasury');
  });

  it('evaluates rewards rules for rewards and transactions rules never', () => {
    const ruleSet = ruleSetFrom(RULES);

    const got = createEngine(ruleSet).evaluate({
      source: 'rewards',
      record: reward(2n * HBAR),
      account: WATCHED,
    });

    expect(got.matched).toEqual(['big-reward', 'any-reward']);
  });

  it('asks for traces when a skipped-looking rule still needs them', () => {
    const ruleSet = ruleSetFrom(RULES);

    const got = createEngine(ruleSet).evaluate({
      source: 'transactions',
      record: records[0]!,
      account: WATCHED,
    });

    expect(got.needsTrace).toBe(true);
  });

  it('gives each watched account of one record its own net change', () => {
    const ruleSet = ruleSetFrom(RULES);
    const engine = createEngine(ruleSet);
    const record = transfer(WATCHED.id, OTHER.id, 10n * HBAR);

    const payer = engine.evaluate({ source: 'transactions', record, account: WATCHED, traces: [] });
    const payee = engine.evaluate({ source: 'transactions', record, account: OTHER, traces: [] });

    expect(payer.matched).toContain('debit');
    expect(payer.matched).not.toContain('credit');
    expect(payee.matched).toContain('credit');
    expect(payee.matched).not.toContain('debit');
  });
});
