// `inhibit_rules:` — user inhibition in Alertmanager's shape, beside the built-in one (self-monitor/built-in-alerts.ts):
// while an alert matching `source_matchers` fires, deliveries of alerts matching `target_matchers` that agree with
// it on every `equal` label are not sent (recorded as silenced, reason inhibited). As in Alertmanager, an alert
// matching both sides is not inhibited by alerts that match both sides too (itself included).
import { z } from 'zod';
import type { Alert } from '../rules/alert/alert.js';
import { allMatch, compileMatcher, parseMatcher, valuesOf, type CompiledMatcher } from './matchers.js';

const MatcherText = z.string().superRefine((text, ctx) => {
  const parsed = parseMatcher(text);
  const compiled = typeof parsed === 'string' ? parsed : compileMatcher(parsed);
  if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', message: compiled });
});

export const InhibitRule = z.strictObject({
  source_matchers: z.array(MatcherText).min(1),
  target_matchers: z.array(MatcherText).min(1),
  equal: z.array(z.string().min(1)).default([]),
});
export type InhibitRule = z.output<typeof InhibitRule>;
export const InhibitRules = z.array(InhibitRule).max(100).default([]);

export interface CompiledInhibitRule {
  readonly source: readonly CompiledMatcher[];
  readonly target: readonly CompiledMatcher[];
  readonly equal: readonly string[];
  /** The rule as written, for logs and the API. */
  readonly text: string;
}

/** The schema validated the matchers already: a failure here is a bug, thrown. */
export function compileInhibitRules(rules: readonly InhibitRule[]): CompiledInhibitRule[] {
  const compile = (text: string) => {
    const parsed = parseMatcher(text);
    const compiled = typeof parsed === 'string' ? parsed : compileMatcher(parsed);
    if (typeof compiled === 'string') throw new Error(`inhibit_rules: ${compiled}`);
    return compiled;
  };
  return rules.map((r) => ({
    source: r.source_matchers.map(compile),
    target: r.target_matchers.map(compile),
    equal: r.equal,
    text: `[${r.source_matchers.join(', ')}] inhibits [${r.target_matchers.join(', ')}]${r.equal.length ? ` equal on ${r.equal.join(', ')}` : ''}`,
  }));
}

/** The firing source alert (and rule) inhibiting `target`, if any. */
export function findInhibitor(
  rules: readonly CompiledInhibitRule[],
  sources: readonly Alert[],
  target: Alert,
): { rule: CompiledInhibitRule; source: Alert } | undefined {
  for (const rule of rules) {
    if (!allMatch(rule.target, target)) continue;
    const selfSource = allMatch(rule.source, target);
    for (const source of sources) {
      if (source.status !== 'firing' || !allMatch(rule.source, source)) continue;
      if (selfSource && allMatch(rule.target, source)) continue;
      if (rule.equal.every((name) => same(valuesOf(source, name), valuesOf(target, name))))
        return { rule, source };
    }
  }
  return undefined;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
