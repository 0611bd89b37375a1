// A state directory holding many pending count groups, and a child-process entry that restores the rule engine
// from it: restore-large-state.test.ts runs the child under a small heap cap.
import { openStateStore } from '../../src/state/store.js';
import { createRuleStateRepo } from '../../src/rules/alert-state/state-repo.js';
import { createEngine } from '../../src/rules/engine/engine.js';
import { loadRules } from '../../src/rules/load/load-rules.js';
import type { RuleSet } from '../../src/rules/load/compile.js';
import type { StoredGroupState } from '../../src/rules/alert-state/group-state.js';

export const RULES = 20;
export const ACCOUNTS = 10_000;

/** RULES rules behind a count window of 20 grouped by account: a group of up to 10 matches restores as bare times. */
export function largeRuleSet(): RuleSet {
  const rules = Array.from(
    { length: RULES },
    (_, i) =>
      `  - id: r${i}\n    summary: debit\n    when: { debit: "${i + 1} hbar" }\n    window: { duration: 10m, count: 20 }\n    notify: [ops]\n`,
  );
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({
    id: `0.0.${1001 + i}`,
    name: `account-${i}`,
    labels: {},
    priority: 0,
    rewardsPath: `0.0.${1001 + i}`,
  }));
  const loaded = loadRules({
    files: [{ file: 'rules.yaml', text: `rules:\n${rules.join('')}` }],
    env: {},
    knownNotifiers: ['ops'],
    accounts,
  });
  if (!loaded.ok) throw new Error(`rules did not load: ${JSON.stringify(loaded.issues[0])}`);
  return loaded.ruleSet;
}

/** Stores `count` pending groups (1–5 matches each) of largeRuleSet's rules. */
export function fillRuleState(dir: string, count: number): void {
  const store = openStateStore({ dir });
  const repo = createRuleStateRepo(store);
  let ts = 1_764_000_000_000_000_000n;
  for (let i = 0; i < count; i += 10_000) {
    const upserts: StoredGroupState[] = [];
    for (let j = i; j < Math.min(count, i + 10_000); j++) {
      const account = `0.0.${1001 + (Math.floor(j / RULES) % ACCOUNTS)}`;
      const n = 1 + (j % 5);
      const window = Array.from({ length: n }, () => [String((ts += 12_345n)), '-100000000'] as const);
      upserts.push({
        key: `r${j % RULES}{account="${account}"}`,
        ruleId: `r${j % RULES}`,
        group: { account },
        firing: false,
        repeats: 0,
        matchCount: n,
        records: [],
        window,
        lastSeenNs: window[n - 1]?.[0],
      });
    }
    store.transaction(() => repo.apply({ upserts, deletes: [] }));
  }
  store.close();
}

/** Child entry: restores the engine from the state directory in argv[2] and prints how many groups it holds. */
export function restoreInChild(dir: string): void {
  const store = openStateStore({ dir });
  const engine = createEngine(largeRuleSet(), createRuleStateRepo(store).load());
  // An hour after the newest match every window has drained: each restored group is dropped, and counted.
  engine.tick(Date.UTC(2025, 10, 25));
  process.stdout.write(`restored ${engine.takeChanges().deletes.length}\n`);
  store.close();
}

if (process.argv[1]?.endsWith('large-rule-state.ts') && process.argv[2]) restoreInChild(process.argv[2]);
