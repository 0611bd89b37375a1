import { describe, expect, it } from 'vitest';
import { InhibitRules, compileInhibitRules, findInhibitor } from './inhibit-rules.js';
import { testAlert } from '../../test/helpers/alerts.js';

const outflow = (account: { id: string; name: string }) =>
  testAlert({
    key: `outflow/${account.id}`,
    ruleId: 'outflow',
    resolves: true,
    account: { ...account, labels: {} },
  });
const debit = (account: { id: string; name: string }) =>
  testAlert({ key: `large-debit/${account.id}`, account: { ...account, labels: {} } });
const hot = { id: '0.0.1', name: 'hot' };
const cold = { id: '0.0.2', name: 'cold' };

describe('inhibit_rules', () => {
  const rules = compileInhibitRules(
    InhibitRules.parse([
      { source_matchers: ['rule="outflow"'], target_matchers: ['rule="large-debit"'], equal: ['account'] },
    ]),
  );

  it('inhibits a target whose equal labels agree with a firing source', () => {
    expect(findInhibitor(rules, [outflow(hot)], debit(hot))?.source.key).toBe('outflow/0.0.1');
  });

  it('does not inhibit when an equal label differs, the source resolved, or nothing fires', () => {
    expect(findInhibitor(rules, [outflow(cold)], debit(hot))).toBeUndefined();
    expect(findInhibitor(rules, [{ ...outflow(hot), status: 'resolved' }], debit(hot))).toBeUndefined();
    expect(findInhibitor(rules, [], debit(hot))).toBeUndefined();
  });

  it('never lets an alert matching both sides inhibit itself', () => {
    const both = compileInhibitRules(
      InhibitRules.parse([
        { source_matchers: ['severity="critical"'], target_matchers: ['severity="critical"'] },
      ]),
    );

    expect(findInhibitor(both, [debit(hot)], debit(hot))).toBeUndefined();
  });

  it('reports a bad matcher in the config with its reason', () => {
    const result = InhibitRules.safeParse([{ source_matchers: ['rule=~"(x"'], target_matchers: ['rule'] }]);

    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['0.source_matchers.0', expect.stringMatching(/invalid regular expression/)],
      ['0.target_matchers.0', expect.stringMatching(/expected name="value"/)],
    ]);
  });
});
