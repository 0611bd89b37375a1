// A rule test compares the text of the rule's own `summary:` template, not whatever an alert adds around it (a
// RESOLVED prefix, a default text): rule authors write and test their template; the alert's framing is ours. The
// template is wrapped in two private-use characters before it is compiled, so the engine renders it exactly as it
// would, and the part between them is what the test compares.
import type { Rule } from '../rules/load/schema.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';

export function markSummary(rule: Rule): Rule {
  return { ...rule, summary: `${OPEN}${rule.summary}${CLOSE}` };
}

/** The rendered template inside an alert's summary (to its end when a cap cut the closing mark off). */
export function ownSummary(summary: string): string {
  const open = summary.indexOf(OPEN);
  if (open < 0) return summary;
  const close = summary.indexOf(CLOSE, open + 1);
  return summary.slice(open + 1, close < 0 ? undefined : close);
}
