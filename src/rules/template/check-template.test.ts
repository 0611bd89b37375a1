import { describe, expect, it } from 'vitest';
import { checkTemplate } from './check-template.js';
import type { TemplateContext } from './template-variables.js';

const tx: TemplateContext = { source: 'transactions', window: 'none', trace: false };
const reward: TemplateContext = { source: 'rewards', window: 'none', trace: false };
const count: TemplateContext = { ...tx, window: 'count' };
const absent: TemplateContext = { source: 'rewards', window: 'absent', trace: false };

describe('checkTemplate', () => {
  it.each<[string, TemplateContext]>([
    ['{{account.name}} {{account.labels.team}} {{group.account}} {{rule.labels.x}}', tx],
    ['{{#transfers}}{{account}} {{amount}}{{/transfers}}{{^memo}}none{{/memo}}', tx],
    ['{{#account}}{{name}} {{id}}{{/account}}{{#nft_transfers}}{{serial_number}}{{/nft_transfers}}', tx],
    ['{{#token_transfers}}{{token_id}} {{account.name}} {{.}}{{/token_transfers}}', tx],
    ['{{amount}} {{account_id}} {{amount_hbar}} {{explorer_url}}', reward],
    ['{{window_total_hbar}} {{match_count}} {{{memo}}} {{&payer}}', count],
    ['{{last_seen_utc}} {{window_duration}} {{account.id}} {{! a comment }}', absent],
  ])('accepts %s', (template, context) => {
    expect(checkTemplate(template, context)).toEqual([]);
  });

  it.each<[string, TemplateContext, number, string]>([
    ['x {{acount.name}}', tx, 4, 'unknown template variable "acount.name"; did you mean "account.name"?'],
    [
      '{{#transfers}}{{amout}}{{/transfers}}',
      tx,
      16,
      'unknown template variable "amout"; did you mean "amount"?',
    ],
    ['{{grup.account}}', tx, 2, 'unknown template variable "grup.account"; did you mean "group.account"?'],
    [
      '{{zzz}}',
      tx,
      2,
      'unknown template variable "zzz"; the variables are listed in rules/README.md ("Templates")',
    ],
    [
      '{{memo}}',
      reward,
      2,
      'template variable "memo" is filled only in rules with source: transactions (absence alerts have no record), not in this rule\'s alerts; remove it',
    ],
    [
      '{{window_total}}',
      tx,
      2,
      'template variable "window_total" is filled only in rules with a count, debit_sum or credit_sum window, not in this rule\'s alerts; remove it',
    ],
    ['ab {{#account}}x', tx, 3, 'invalid template: section "account" is never closed; add {{/account}}'],
    [
      '{{#a}}{{#b}}{{/a}}',
      { ...tx },
      12,
      'invalid template: section "b" must be closed before this tag; add {{/b}}',
    ],
    [
      'x {{/foo}}',
      tx,
      2,
      'invalid template: {{/foo}} closes a section that is not open; remove it or open it with {{#foo}}',
    ],
    ['{{a}} {{b c', tx, 6, 'invalid template: this tag is never closed; add }}'],
  ])('reports %s', (template, context, offset, message) => {
    const problems = checkTemplate(template, context);

    expect(problems[0]).toEqual({ offset, message });
  });
});
