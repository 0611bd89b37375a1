// Alertmanager's label matchers (`name="value"`, `!=`, `=~`, `!~`) over an alert, for API silences and
// `inhibit_rules`. Names: `rule` (also `alertname`), `severity`, `account` (the watched account's id or name),
// and any label of the alert or its account. Regexes are anchored, as in Alertmanager, and run on RE2
// (rules/conditions/shared/compile-regex.ts): a matcher written by an API caller can never hold the event loop.
import type { Alert } from '../rules/alert/alert.js';
import { compileRegex, type RuleRegex } from '../rules/conditions/shared/compile-regex.js';
import { labelValue } from '../config/labels.js';

export type MatchOp = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  readonly name: string;
  readonly op: MatchOp;
  readonly value: string;
}

export interface CompiledMatcher extends Matcher {
  test(alert: Alert): boolean;
  /** The matcher on one value ("" for a missing label). */
  testValue(value: string): boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const TEXT = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(=~|!~|!=|=)\s*(.*?)\s*$/s;

/** Parses `name="value"` (quotes optional, JSON string escapes inside them); a string is the error. */
export function parseMatcher(text: string): Matcher | string {
  const m = TEXT.exec(text);
  if (!m)
    return `expected name="value" with one of =, !=, =~, !~ (e.g. rule="large-debit"), got ${JSON.stringify(text)}`;
  const [, name = '', op = '=', raw = ''] = m;
  let value = raw;
  if (raw.startsWith('"')) {
    try {
      value = JSON.parse(raw) as string;
    } catch {
      return `${name}: the quoted value is not closed or has a bad escape: ${raw}`;
    }
  }
  return { name, op: op as MatchOp, value };
}

/** The operator of Alertmanager's JSON matcher (`isRegex`, `isEqual`). */
export function matcherOp(isRegex: boolean, isEqual: boolean): MatchOp {
  if (isRegex) return isEqual ? '=~' : '!~';
  return isEqual ? '=' : '!=';
}

/** Alertmanager's printed form: `rule=~"large-.*"`. */
export function formatMatcher(m: Matcher): string {
  return `${m.name}${m.op}${JSON.stringify(m.value)}`;
}

/** Compiles a matcher; a string is the error (a bad name or a regex RE2 refuses). */
export function compileMatcher(m: Matcher): CompiledMatcher | string {
  if (!NAME.test(m.name))
    return `invalid matcher name ${JSON.stringify(m.name)}: use letters, digits, _ and .`;
  if (m.name === '__proto__') return 'invalid matcher name "__proto__": no alert can carry it';
  const regex = m.op === '=~' || m.op === '!~';
  let re: RuleRegex | undefined;
  if (regex) {
    // Checked as written first, so a problem's position is the author's, not the anchored pattern's.
    const written = compileRegex(m.value);
    const compiled = written.ok ? compileRegex(`^(?:${m.value})$`) : written;
    if (!compiled.ok)
      return `${m.name}${m.op}: invalid regular expression ${JSON.stringify(m.value)}: ${compiled.reason}`;
    re = compiled.regex;
  }
  const hit = (v: string) => (re ? re.test(v) : v === m.value);
  const negative = m.op === '!=' || m.op === '!~';
  return {
    ...m,
    testValue: (v) => hit(v) !== negative,
    // `account` names two values (id and name): a positive matcher needs one of them, a negative one neither.
    test: (alert) => {
      const values = valuesOf(alert, m.name);
      return negative ? !values.some(hit) : values.some(hit);
    },
  };
}

/** Compiles every matcher; the errors when any fails. */
export function compileMatchers(list: readonly Matcher[]): CompiledMatcher[] | string[] {
  const out = list.map(compileMatcher);
  const errors = out.filter((c): c is string => typeof c === 'string');
  return errors.length > 0 ? errors : (out as CompiledMatcher[]);
}

export function isErrors(list: CompiledMatcher[] | string[]): list is string[] {
  return typeof list[0] === 'string';
}

export function allMatch(matchers: readonly CompiledMatcher[], alert: Alert): boolean {
  return matchers.every((m) => m.test(alert));
}

/** The value(s) a matcher name reads from an alert; a missing label is "" (Alertmanager's rule). */
export function valuesOf(alert: Alert, name: string): string[] {
  if (name === 'rule' || name === 'alertname') return [alert.ruleId];
  if (name === 'severity') return [alert.severity];
  if (name === 'account') return alert.account ? [alert.account.id, alert.account.name] : [''];
  return [labelValue(alert, name) ?? ''];
}
