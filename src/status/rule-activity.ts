// Per rule: how many records matched since the daemon started and when the last match was committed. In memory
// (kept across reloads, not restarts): the status page's "last match" column. Bounded by the number of rules.
import type { RuleActivityEntry } from './status-model.js';

export interface RuleActivity {
  /** Counts of a committed page, by rule id. */
  matched(counts: ReadonlyMap<string, number>): void;
  entries(): ReadonlyMap<string, RuleActivityEntry>;
  /** Rules no longer loaded (a reload removed them). */
  keepOnly(ruleIds: ReadonlySet<string>): void;
}

export function createRuleActivity(clock: () => number): RuleActivity {
  const entries = new Map<string, RuleActivityEntry>();
  return {
    matched(counts) {
      const now = clock();
      for (const [rule, n] of counts) {
        if (n <= 0) continue;
        entries.set(rule, { matches: (entries.get(rule)?.matches ?? 0) + n, lastMatchAt: now });
      }
    },
    entries: () => entries,
    keepOnly(ruleIds) {
      for (const rule of entries.keys()) if (!ruleIds.has(rule)) entries.delete(rule);
    },
  };
}
