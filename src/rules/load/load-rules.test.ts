// One fixture per error message (alertmanager's conf.*.yml): each file holds one mistake and its exact text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules, type LoadRulesOptions } from './load-rules.js';
import { formatIssue } from '../../config/config-error.js';
import { REPO_DIR } from '../../../test/helpers/shared.js';
import { WATCHED } from '../../../test/fixtures/rules/records.js';

const ERRORS = join(REPO_DIR, 'test/fixtures/rules/errors');
const base: LoadRulesOptions = { env: {}, knownNotifiers: ['ops-slack'], accounts: [WATCHED] };
const fixture = (name: string) => ({ file: name, text: readFileSync(join(ERRORS, name), 'utf8') });
const messages = (options: LoadRulesOptions) => {
  const result = loadRules(options);
  return result.ok ? [] : result.issues.map(formatIssue);
};

const expected: [string, string][] = [
  [
    'group-by-label.yaml',
    'group-by-label.yaml:6:25 group_by.1: no watched account has the label "tema"; did you mean "labels.team"? the accounts\' labels are: env, team',
  ],
  [
    'bare-amount.yaml',
    'bare-amount.yaml:6:14 when.debit: an amount needs a unit, got the bare number 1000; write "1000 hbar" or "1000 tinybar" (1 hbar = 100000000 tinybar)',
  ],
  [
    'call-depth-less-than.yaml',
    'call-depth-less-than.yaml:6:19 when.call_depth: expected a call depth like 5 (it matches a depth of 5 or more), ">= 5" or "> 4" (the same), not "< 5" or "= 5": the condition asks whether the call trace goes at least this deep; got "< 3"',
  ],
  [
    'thousands-separator.yaml',
    'thousands-separator.yaml:6:14 when.debit: thousands separators are not accepted in "1,000 HBAR" (a comma is the decimal mark in many languages); write "1000 HBAR", or group digits with _ like "1_000 hbar"',
  ],
  [
    'token-bare-amount.yaml',
    'token-bare-amount.yaml:6:49 when.token_debit.min: a token amount needs a unit, got the bare number 1000000; write "1000000 units" (the token\'s smallest unit, as the ledger counts it), "1.5 tokens" or "10000 USDC" (the token\'s symbol: whole tokens through its decimals)',
  ],
  [
    'token-fractional-units.yaml',
    'token-fractional-units.yaml:6:50 when.token_credit.min: "2.5 units": units are whole numbers (the smallest unit); write tokens for fractions',
  ],
  [
    'absence-group-by.yaml',
    'absence-group-by.yaml:7:15 group_by: absence windows group by account: set group_by: [account]',
  ],
  [
    'accounts.yaml',
    'accounts.yaml:5:15 accounts: expected all or a mapping with ids, names and/or labels, got "everyone"',
  ],
  [
    'action-empty.yaml',
    'action-empty.yaml:6:15 when.action: set at least one of call_type, call_operation_type, recipient_in, recipient_not_in, min_value, reverted',
  ],
  [
    'action-name.yaml',
    'action-name.yaml:6:39 when.action.call_operation_type.0: expected an upper-case name like DELEGATECALL, got "delegatecall"',
  ],
  [
    'bad-amount.yaml',
    'bad-amount.yaml:6:14 when.debit: unknown unit "k" in "10k"; the units are hbar and tinybar',
  ],
  [
    'bad-result.yaml',
    'bad-result.yaml:6:15 when.result: expected success, fail or a list of result names, got "failed"',
  ],
  [
    'call-depth.yaml',
    'call-depth.yaml:6:19 when.call_depth: expected a call depth like 5 (it matches a depth of 5 or more), ">= 5" or "> 4" (the same), not "< 5" or "= 5": the condition asks whether the call trace goes at least this deep; got 0',
  ],
  [
    'counterparty-empty.yaml',
    'counterparty-empty.yaml:6:21 when.counterparty: set exactly one of in or not_in',
  ],
  [
    'counterparty-id.yaml',
    'counterparty-id.yaml:6:32 when.counterparty.not_in.0: expected an entity id like 0.0.1234, got "treasury"',
  ],
  [
    'duplicate-id.yaml',
    'duplicate-id.yaml:5:9 id: duplicate rule id "twice", first defined at duplicate-id.yaml:3:9; rule ids must be unique',
  ],
  [
    'float-amount.yaml',
    'float-amount.yaml:6:12 when.fee: an amount needs a unit, got the bare number 1.5; write "1.5 hbar" (1 hbar = 100000000 tinybar)',
  ],
  [
    'group-by.yaml',
    'group-by.yaml:5:16 group_by.0: expected account, type, result, payer, node, entity_id or labels.<name>, got "acount"',
  ],
  ['memo-both.yaml', 'memo-both.yaml:6:13 when.memo: set exactly one of contains or regex'],
  [
    'memo-regex-backreference.yaml',
    'memo-regex-backreference.yaml:6:22 when.memo.regex: invalid regular expression "^(\\\\w+)-\\\\1$": backreference `\\1` at character 8 is not supported: rule regexes run on RE2, a linear-time engine; rewrite without it',
  ],
  [
    'memo-regex-lookahead.yaml',
    'memo-regex-lookahead.yaml:6:22 when.memo.regex: invalid regular expression "^refund-(?=\\\\d)": lookahead `(?=` at character 9 is not supported: rule regexes run on RE2, a linear-time engine; rewrite without it',
  ],
  [
    'memo-regex-nested-count.yaml',
    'memo-regex-nested-count.yaml:6:22 when.memo.regex: invalid regular expression "(ab{100}){100}": counted repetition `{100}` at character 10 repeats up to 10000 times (nested counts multiply); the limit is 100 because RE2 unrolls counts into states; use + or * or a smaller count',
  ],
  [
    'memo-regex-re2.yaml',
    'memo-regex-re2.yaml:6:22 when.memo.regex: invalid regular expression "x[^]": not supported by RE2, the linear-time engine rule regexes run on (missing ]: [^]); rewrite it',
  ],
  [
    'memo-regex.yaml',
    'memo-regex.yaml:6:22 when.memo.regex: invalid regular expression "(unclosed": Unterminated group (JavaScript regular expression syntax, unicode mode)',
  ],
  [
    'missing-summary.yaml',
    'missing-summary.yaml:3:5 summary: missing required key "summary"; add it to the rule',
  ],
  ['no-rules.yaml', 'no-rules.yaml:2:8 rules: expected at least one rule'],
  ['payer.yaml', 'payer.yaml:6:14 when.payer: expected self or other, got "me"'],
  ['reward-empty.yaml', 'reward-empty.yaml:7:15 when.reward: set min, max or both'],
  ['rule-id.yaml', 'rule-id.yaml:3:9 id: expected a lower-case id like large-debit, got "Large Debit"'],
  ['scheduled.yaml', 'scheduled.yaml:6:18 when.scheduled: expected true or false, got "yes please"'],
  [
    'schema-error-and-duplicate-id.yaml',
    [
      'schema-error-and-duplicate-id.yaml:6:14 when.debit: unknown unit "k" in "10k"; the units are hbar and tinybar',
      'schema-error-and-duplicate-id.yaml:7:9 id: duplicate rule id "twice", first defined at schema-error-and-duplicate-id.yaml:3:9; rule ids must be unique',
    ].join('\n'),
  ],
  [
    'schema-error-and-unknown-account.yaml',
    [
      'schema-error-and-unknown-account.yaml:5:23 accounts.ids.0: account 0.0.999 is not watched; add it under accounts: in the config file or remove it here',
      'schema-error-and-unknown-account.yaml:5:41 accounts.names.0: no watched account is named "treasury-hto"; did you mean "treasury-hot"?',
      'schema-error-and-unknown-account.yaml:6:5 severty: unknown key "severty"; did you mean "severity"?',
    ].join('\n'),
  ],
  [
    'schema-error-and-unknown-notifier.yaml',
    [
      'schema-error-and-unknown-notifier.yaml:5:15 severity: expected one of info, warning, critical, got "critcal"; did you mean "critical"?',
      'schema-error-and-unknown-notifier.yaml:6:14 notify.0: unknown notifier "ops-slak"; did you mean "ops-slack"?',
      'schema-error-and-unknown-notifier.yaml:6:24 notify.1: expected a string, got 7; quote it to make it text',
    ].join('\n'),
  ],
  [
    'severity.yaml',
    'severity.yaml:5:15 severity: expected one of info, warning, critical, got "critcal"; did you mean "critical"?',
  ],
  [
    'template-section-order.yaml',
    'template-section-order.yaml:8:7 description: invalid template: section "account" must be closed before this tag; add {{/account}}',
  ],
  [
    'template-unclosed-tag.yaml',
    'template-unclosed-tag.yaml:6:10 summary: invalid template: this tag is never closed; add }}',
  ],
  [
    'template-unopened-section.yaml',
    'template-unopened-section.yaml:5:61 description: invalid template: {{/transfers}} closes a section that is not open; remove it or open it with {{#transfers}}',
  ],
  [
    'template-variable-not-filled.yaml',
    'template-variable-not-filled.yaml:8:12 description: template variable "payer" is filled only in rules with source: transactions (absence alerts have no record), not in this rule\'s alerts; remove it',
  ],
  [
    'template-variable.yaml',
    'template-variable.yaml:4:17 summary: unknown template variable "acount.name"; did you mean "account.name"?',
  ],
  [
    'template.yaml',
    'template.yaml:4:15 summary: invalid template: section "account" is never closed; add {{/account}}',
  ],
  [
    'tinybar-fraction.yaml',
    'tinybar-fraction.yaml:6:15 when.credit: tinybars are whole numbers (1 tinybar = 0.00000001 hbar), got "0.5 tinybar"; round it or write hbar',
  ],
  [
    'token-units.yaml',
    'token-units.yaml:6:49 when.token_debit.min: a token amount needs a unit, got the bare number 1.5; write "1000000 units" (the token\'s smallest unit, as the ledger counts it), "1.5 tokens" or "10000 USDC" (the token\'s symbol: whole tokens through its decimals)',
  ],
  [
    'type-not-list.yaml',
    'type-not-list.yaml:6:13 when.type: expected a list of transaction type names like [CRYPTOTRANSFER], got "CRYPTOTRANSFER"',
  ],
  [
    'unknown-account-id.yaml',
    'unknown-account-id.yaml:5:23 accounts.ids.0: account 0.0.999 is not watched; add it under accounts: in the config file or remove it here',
  ],
  [
    'unknown-account-name.yaml',
    'unknown-account-name.yaml:5:25 accounts.names.0: no watched account is named "treasury-hto"; did you mean "treasury-hot"?',
  ],
  ['unknown-key.yaml', 'unknown-key.yaml:6:7 when.typ: unknown key "typ"; did you mean "type"?'],
  [
    'unknown-notifier.yaml',
    'unknown-notifier.yaml:5:14 notify.0: unknown notifier "ops-slak"; did you mean "ops-slack"?',
  ],
  [
    'unknown-result.yaml',
    'unknown-result.yaml:6:16 when.result.0: unknown result name "sucess"; did you mean "SUCCESS"?',
  ],
  [
    'unknown-rule-key.yaml',
    'unknown-rule-key.yaml:5:5 severty: unknown key "severty"; did you mean "severity"?',
  ],
  [
    'unknown-type.yaml',
    'unknown-type.yaml:6:14 when.type.0: unknown transaction type "cryptotransfer"; did you mean "CRYPTOTRANSFER"?',
  ],
  [
    'window-duration.yaml',
    'window-duration.yaml:5:25 window.duration: expected a duration like "2s" or "10m", got "10 minutes"',
  ],
  [
    'window-kinds.yaml',
    'window-kinds.yaml:5:13 window: set exactly one of count, debit_sum, credit_sum or absent (next to duration)',
  ],
  [
    'wrong-source.yaml',
    'wrong-source.yaml:7:14 when.debit: debit does not apply to source rewards: use it in a rule with source: transactions',
  ],
  ['yaml-syntax.yaml', 'yaml-syntax.yaml:4:14 the [ opened here is never closed; add the closing ]'],
];

describe('rule file errors', () => {
  it.each(expected)('%s', (name, message) => {
    const options = { ...base, files: [fixture(name)] };

    const shown = messages(options);

    expect(shown.join('\n')).toBe(message);
  });

  it('has a row for every fixture', () => {
    const files = readdirSync(ERRORS).sort();

    expect(expected.map(([name]) => name).sort()).toEqual(files);
  });

  it('reports every error of every file at once, in file and position order', () => {
    // All three files name their rule bad-rule: the two later ones are duplicates, invalid or not.
    const options = {
      ...base,
      files: [fixture('unknown-key.yaml'), fixture('bad-amount.yaml'), fixture('unknown-notifier.yaml')],
    };

    const shown = messages(options);

    expect(shown.map((m) => m.slice(0, m.indexOf(' ')))).toEqual([
      'bad-amount.yaml:3:9',
      'bad-amount.yaml:6:14',
      'unknown-key.yaml:6:7',
      'unknown-notifier.yaml:3:9',
      'unknown-notifier.yaml:5:14',
    ]);
  });

  it('finds duplicate ids across files', () => {
    const rule = 'rules:\n  - id: same\n    summary: s\n';
    const options = {
      ...base,
      files: [
        { file: 'a.yaml', text: rule },
        { file: 'b.yaml', text: rule },
      ],
    };

    const shown = messages(options);

    expect(shown).toEqual([
      'b.yaml:2:9 id: duplicate rule id "same", first defined at a.yaml:2:9; rule ids must be unique',
    ]);
  });

  it('finds a duplicate of an id first defined in a file that failed validation', () => {
    const options = {
      ...base,
      files: [
        { file: 'a.yaml', text: 'rules:\n  - id: same\n    summary: s\n    severity: high\n' },
        { file: 'b.yaml', text: 'rules:\n  - id: same\n    summary: s\n' },
      ],
    };

    const shown = messages(options);

    expect(shown).toEqual([
      'a.yaml:4:15 severity: expected one of info, warning, critical, got "high"',
      'b.yaml:2:9 id: duplicate rule id "same", first defined at a.yaml:2:9; rule ids must be unique',
    ]);
  });

  it('reads no references from a file with a syntax error', () => {
    const rule = 'rules:\n  - id: same\n    summary: s\n';
    const options = {
      ...base,
      files: [
        { file: 'a.yaml', text: `${rule}    notify: [ops-slak\n` },
        { file: 'b.yaml', text: rule },
      ],
    };

    const shown = messages(options);

    expect(shown).toEqual(['a.yaml:4:13 the [ opened here is never closed; add the closing ]']);
  });

  it('reports a path pattern that matches nothing and a file it cannot read', () => {
    const options = { ...base, paths: [join(ERRORS, '*.yml'), join(ERRORS, 'missing.yaml')] };

    const shown = messages(options);

    expect(shown).toEqual([
      `${join(ERRORS, '*.yml')}: matches no file; check the path and the pattern`,
      `${join(ERRORS, 'missing.yaml')}: cannot read the file (ENOENT); check the path`,
    ]);
  });
});

describe('loading rules', () => {
  it('compiles the enabled rules of the files a pattern matches', () => {
    const options = {
      ...base,
      paths: [join(REPO_DIR, 'rules/*.yaml')],
      knownNotifiers: ['ops-slack', 'ops-email', 'security-pager'],
      accounts: [],
    };

    const result = loadRules(options);

    expect(result.ok && result.ruleSet.rules.length).toBeGreaterThanOrEqual(10);
  });
});

describe('names this version does not know', () => {
  // A newer query service adds transaction types and result codes: a rule naming one stays valid (a warning
  // with the closest known name), so upgrading the service never makes a rule file invalid.
  const file = (when: string) => ({
    file: 'newer.yaml',
    text: `rules:\n  - id: r\n    summary: s\n    when:\n${when}`,
  });

  it('loads a rule on an unknown upper-case type, with a warning at the name naming the closest', () => {
    const result = loadRules({ ...base, files: [file('      type: [CRYPTOTRANSFER, CRYPTOTRANSFERS]\n')] });

    expect(result.ok).toBe(true);
    expect(result.ok && result.warnings.map(formatIssue)).toEqual([
      'newer.yaml:5:30 when.type.1: transaction type "CRYPTOTRANSFERS" is not known to this version (the closest known is CRYPTOTRANSFER); the rule matches it only if the query service sends that name (a newer service may): check the spelling',
    ]);
  });

  it('warns inside all/any/not and about result names, and the rule still matches the new name', () => {
    const when =
      '      any:\n        - not: { result: [SUCCESS, NEW_RESULT_CODE] }\n        - type: [HOOKSTORE2]\n';
    const result = loadRules({ ...base, files: [file(when)] });

    expect(result.ok && result.warnings.map((w) => `${w.line}:${w.col} ${w.path}`)).toEqual([
      '6:36 when.any.0.not.result.1',
      '7:18 when.any.1.type.0',
    ]);
    const rule = result.ok ? result.ruleSet.rules[0] : undefined;
    expect(rule?.predicate({ tx: { name: 'HOOKSTORE2', result: 'SUCCESS' } } as never)).toBe(true);
  });

  it('gives no warning for known names', () => {
    const result = loadRules({
      ...base,
      files: [file('      type: [HOOKSTORE]\n      result: [SUCCESS]\n')],
    });

    expect(result.ok && result.warnings).toEqual([]);
  });
});
