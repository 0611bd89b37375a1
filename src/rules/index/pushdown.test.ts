// The pushdown table: which rule sets let the tailer filter an account's transactions, and which must not.
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { Facts } from '../facts/facts.js';
import { pushdownFor } from './pushdown.js';
import { Pushdown } from '../../accounts/pushdown.js';
import { passesPushdown } from '../../accounts/pushdown.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import { HBAR, OTHER, WATCHED, transfer } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';

/** Each spec is one rule's keys besides id and summary, as a YAML flow mapping. */
const ruleSet = (specs: readonly string[]) =>
  ruleSetFrom(
    stringify({ rules: specs.map((spec, i) => ({ id: `r${i}`, summary: 's', ...(parse(spec) as object) })) }),
  );

type Row = [string, string[], WatchedAccount, Pushdown | undefined];

const FAIL: Pushdown = { result: 'fail' };

const safe: Row[] = [
  ['result: fail', ['{ when: { result: fail } }'], WATCHED, FAIL],
  ['result: success', ['{ when: { result: success } }'], WATCHED, { result: 'success' }],
  [
    'every rule fail',
    ['{ when: { result: fail } }', '{ when: { result: fail }, window: { duration: 10m, count: 5 } }'],
    WATCHED,
    FAIL,
  ],
  ['fail inside all', ['{ when: { all: [{ memo: { contains: x } }, { result: fail }] } }'], WATCHED, FAIL],
  ['fail inside nested all', ['{ when: { all: [{ all: [{ result: fail }] }] } }'], WATCHED, FAIL],
  [
    'fail next to other keys, not and any',
    [
      '{ when: { result: fail, debit: "1 hbar", not: { memo: { contains: x } }, any: [{ payer: self }, { child: true }] } }',
    ],
    WATCHED,
    FAIL,
  ],
  ['a list of failure names', ['{ when: { result: [INSUFFICIENT_PAYER_BALANCE, UNKNOWN] } }'], WATCHED, FAIL],
  [
    'a list of success names',
    ['{ when: { result: [SUCCESS, SUCCESS_BUT_MISSING_EXPECTED_OPERATION] } }'],
    WATCHED,
    { result: 'success' },
  ],
  [
    'a failure list and fail',
    ['{ when: { result: [FAIL_FEE] } }', '{ when: { result: fail } }'],
    WATCHED,
    FAIL,
  ],
  ['not success', ['{ when: { not: { result: success } } }'], WATCHED, FAIL],
  ['not fail', ['{ when: { not: { result: fail } } }'], WATCHED, { result: 'success' }],
  [
    'not of every success name',
    [
      '{ when: { not: { result: [SUCCESS, FEE_SCHEDULE_FILE_PART_UPLOADED, SUCCESS_BUT_MISSING_EXPECTED_OPERATION] } } }',
    ],
    WATCHED,
    FAIL,
  ],
  ['not not fail', ['{ when: { not: { not: { result: fail } } } }'], WATCHED, FAIL],
  [
    'any, fail in every branch',
    ['{ when: { any: [{ result: fail, debit: "1 hbar" }, { all: [{ result: fail }] }] } }'],
    WATCHED,
    FAIL,
  ],
  [
    'a type list',
    ['{ when: { type: [CRYPTODELETE, CRYPTOUPDATEACCOUNT] } }'],
    WATCHED,
    { transactiontype: ['CRYPTODELETE', 'CRYPTOUPDATEACCOUNT'] },
  ],
  [
    'type lists join across rules',
    ['{ when: { type: [CRYPTODELETE] } }', '{ when: { type: [CONTRACTCALL, CRYPTODELETE] } }'],
    WATCHED,
    { transactiontype: ['CONTRACTCALL', 'CRYPTODELETE'] },
  ],
  [
    'type lists join across any',
    ['{ when: { any: [{ type: [CRYPTODELETE] }, { type: [CONTRACTCALL], call_depth: 5 }] } }'],
    WATCHED,
    { transactiontype: ['CONTRACTCALL', 'CRYPTODELETE'] },
  ],
  [
    'type lists intersect within a rule',
    ['{ when: { type: [CRYPTODELETE, CONTRACTCALL], all: [{ type: [CONTRACTCALL, CRYPTOTRANSFER] }] } }'],
    WATCHED,
    { transactiontype: ['CONTRACTCALL'] },
  ],
  [
    'fail and a type list',
    ['{ when: { result: fail, type: [CONTRACTCALL] } }'],
    WATCHED,
    { result: 'fail', transactiontype: ['CONTRACTCALL'] },
  ],
  [
    'fail everywhere, types everywhere',
    [
      '{ when: { result: fail, type: [CONTRACTCALL] } }',
      '{ when: { all: [{ result: fail }, { type: [CRYPTOTRANSFER] }] } }',
    ],
    WATCHED,
    { result: 'fail', transactiontype: ['CONTRACTCALL', 'CRYPTOTRANSFER'] },
  ],
  [
    'fail everywhere, types not',
    ['{ when: { result: fail, type: [CONTRACTCALL] } }', '{ when: { result: fail } }'],
    WATCHED,
    FAIL,
  ],
  [
    'types everywhere, fail not',
    ['{ when: { result: fail, type: [CONTRACTCALL] } }', '{ when: { type: [CRYPTODELETE] } }'],
    WATCHED,
    { transactiontype: ['CONTRACTCALL', 'CRYPTODELETE'] },
  ],
  [
    'rewards rules are separate',
    [
      '{ when: { result: fail } }',
      '{ source: rewards }',
      '{ source: rewards, window: { duration: 26h, absent: true } }',
    ],
    WATCHED,
    FAIL,
  ],
  ['disabled rules do not count', ['{ when: { result: fail } }', '{ enabled: false }'], WATCHED, FAIL],
  [
    'a rule on another account by id',
    ['{ when: { result: fail } }', '{ accounts: { ids: [0.0.2002] } }'],
    WATCHED,
    FAIL,
  ],
  [
    'a rule on another account by label',
    ['{ when: { result: fail } }', '{ accounts: { labels: { team: hr } } }'],
    WATCHED,
    FAIL,
  ],
  [
    'a rule on this account by name',
    ['{ accounts: { names: [treasury-hot] }, when: { result: fail } }', '{ accounts: { names: [payroll] } }'],
    WATCHED,
    FAIL,
  ],
  [
    'count and sum windows',
    [
      '{ when: { result: fail }, window: { duration: 10m, count: 5 } }',
      '{ when: { result: fail }, window: { duration: 1h, debit_sum: "5 hbar" } }',
    ],
    WATCHED,
    FAIL,
  ],
];

const unsafe: Row[] = [
  [
    'no rules on the account',
    ['{ accounts: { ids: [0.0.2002] }, when: { result: fail } }'],
    WATCHED,
    undefined,
  ],
  ['only rewards rules', ['{ source: rewards }'], WATCHED, undefined],
  ['a rule without when', ['{}'], WATCHED, undefined],
  [
    'a rule without a result or type',
    ['{ when: { debit: "1 hbar", memo: { contains: x } } }'],
    WATCHED,
    undefined,
  ],
  [
    'one rule unrestricted',
    ['{ when: { result: fail } }', '{ when: { debit: "1 hbar" } }'],
    WATCHED,
    undefined,
  ],
  [
    'fail and success rules',
    ['{ when: { result: fail } }', '{ when: { result: success } }'],
    WATCHED,
    undefined,
  ],
  [
    'fail in one rule, a type list in the other',
    ['{ when: { result: fail } }', '{ when: { type: [CONTRACTCALL] } }'],
    WATCHED,
    undefined,
  ],
  [
    'an absence window on transactions',
    ['{ when: { result: fail } }', '{ when: { result: fail }, window: { duration: 1h, absent: true } }'],
    WATCHED,
    undefined,
  ],
  ['a mixed result list', ['{ when: { result: [SUCCESS, FAIL_FEE] } }'], WATCHED, undefined],
  [
    'any with an unrestricted branch',
    ['{ when: { any: [{ result: fail }, { debit: "1 hbar" }] } }'],
    WATCHED,
    undefined,
  ],
  [
    'any with fail and success branches',
    ['{ when: { any: [{ result: fail }, { result: success }] } }'],
    WATCHED,
    undefined,
  ],
  [
    'any with a type list in one branch only',
    ['{ when: { any: [{ type: [CONTRACTCALL] }, { memo: { contains: x } }] } }'],
    WATCHED,
    undefined,
  ],
  [
    'not of fail and more',
    ['{ when: { not: { result: success, type: [CONTRACTCALL] } } }'],
    WATCHED,
    undefined,
  ],
  ['not of a type list', ['{ when: { not: { type: [CRYPTOTRANSFER] } } }'], WATCHED, undefined],
  ['not of a failure name', ['{ when: { not: { result: [FAIL_FEE] } } }'], WATCHED, undefined],
  ['not of some success names', ['{ when: { not: { result: [SUCCESS] } } }'], WATCHED, undefined],
  ['not of any', ['{ when: { not: { any: [{ result: success }] } } }'], WATCHED, undefined],
  [
    'a type the service cannot filter on',
    ['{ when: { type: [CRYPTOTRANSFER, UNKNOWN] } }'],
    WATCHED,
    undefined,
  ],
  [
    'type lists that share nothing',
    ['{ when: { type: [CRYPTODELETE], all: [{ type: [CONTRACTCALL] }] } }'],
    WATCHED,
    undefined,
  ],
  [
    'an unrestricted rule on this account by label',
    ['{ when: { result: fail } }', '{ accounts: { labels: { team: treasury } } }'],
    WATCHED,
    undefined,
  ],
  [
    'the other account keeps its unrestricted rule',
    ['{ when: { result: fail } }', '{ accounts: { ids: [0.0.2002] } }'],
    OTHER,
    undefined,
  ],
];

describe('pushdownFor', () => {
  it.each([...safe, ...unsafe])('%s', (_label, specs, account, expected) => {
    const rules = ruleSet(specs);

    const pushdown = pushdownFor(rules, account);

    expect(pushdown).toEqual(expected);
  });

  it.each(safe)('%s: a filter the tailer accepts', (_label, specs, account) => {
    const rules = ruleSet(specs);

    const pushdown = pushdownFor(rules, account);

    expect(Pushdown.parse(pushdown)).toEqual(pushdown);
  });

  // The soundness check behind the table: no record the filter drops matches a rule on the account.
  const RESULTS = [
    'SUCCESS',
    'SUCCESS_BUT_MISSING_EXPECTED_OPERATION',
    'FAIL_FEE',
    'UNKNOWN',
    'REVERTED_SUCCESS',
  ];
  const TYPES = ['CRYPTOTRANSFER', 'CRYPTODELETE', 'CONTRACTCALL', 'UNKNOWN'];
  const records = RESULTS.flatMap((result) =>
    TYPES.map((name) => transfer(WATCHED.id, '0.0.5555', 2n * HBAR, { result, name })),
  );

  it.each(safe)('%s: drops no record a rule matches', (_label, specs, account) => {
    const rules = ruleSet(specs);
    const pushdown = pushdownFor(rules, account);
    const dropped = records.filter((record) => !passesPushdown(record, pushdown));

    const matched = dropped.filter((record) =>
      rules.bySource.transactions.some(
        (r) =>
          (!r.accountIds || r.accountIds.has(account.id)) &&
          r.predicate(new Facts({ source: 'transactions', record, account, traces: [] })),
      ),
    );

    expect(dropped.length).toBeGreaterThan(0);
    expect(matched).toEqual([]);
  });
});
