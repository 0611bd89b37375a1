import { describe, expect, it } from 'vitest';
import { compileMatcher, formatMatcher, parseMatcher, type Matcher } from './matchers.js';
import { testAlert } from '../../test/helpers/alerts.js';

const alert = testAlert({ labels: { team: 'treasury', rule: 'large-debit' } });

describe('matchers', () => {
  it.each([
    ['rule="large-debit"', true],
    ['alertname="large-debit"', true],
    ['rule!="large-debit"', false],
    ['rule=~"large-.*"', true],
    ['rule=~"large"', false], // anchored, as in Alertmanager
    ['rule!~"small-.*"', true],
    ['severity="critical"', true],
    ['severity=~"info|warning"', false],
    ['account="0.0.1234"', true],
    ['account="treasury-hot"', true],
    ['account!="treasury-hot"', false],
    ['account=~"treasury-.*"', true],
    ['account!~"0\\\\.0\\\\.1234"', false],
    ['team="treasury"', true],
    ['team=treasury', true],
    ['missing=""', true], // a missing label is ""
    ['missing!=""', false],
    ['missing=~".*"', true],
  ])('%s → %s', (text, expected) => {
    const parsed = parseMatcher(text) as Matcher;
    const compiled = compileMatcher(parsed);

    expect(typeof compiled).toBe('object');
    expect(typeof compiled === 'object' && compiled.test(alert)).toBe(expected);
  });

  it.each([
    ['rule', /expected name="value"/],
    ['1rule="x"', /expected name="value"/],
    ['rule="open', /quoted value is not closed/],
  ])('refuses %s with a reason', (text, message) => {
    expect(parseMatcher(text)).toMatch(message);
  });

  it('refuses regexes RE2 cannot run, with the reason', () => {
    expect(compileMatcher({ name: 'rule', op: '=~', value: '(a' })).toMatch(/invalid regular expression/);
    expect(compileMatcher({ name: 'rule', op: '=~', value: '(?=x)y' })).toMatch(/lookahead/);
  });

  it('prints Alertmanager form that parses back to the same matcher', () => {
    const m: Matcher = { name: 'account', op: '!~', value: 'a "quoted" \\ value' };

    expect(parseMatcher(formatMatcher(m))).toEqual(m);
  });
});
