// Alert state in the state store (table rule_group): one JSON row per alert key. Synchronous, so the pipeline
// calls it inside its own store.transaction() together with the outbox and the cursor.
import type { StateStore } from '../../state/store.js';
import type { EngineSnapshot, StateChanges } from './group-state.js';
import type { StoredGroupState } from './group-state.js';

export interface RuleStateRepo {
  /**
   * The stored groups, parsed one row at a time as the caller iterates (once, without other statements on the
   * store in between: build the engine from it at once). Never all rows in memory together.
   */
  load(): EngineSnapshot;
  /** The keys of every stored group of these rules. */
  keysOf(ruleIds: readonly string[]): string[];
  /** Writes the changes (inside the caller's transaction). */
  apply(changes: StateChanges): void;
}

export function createRuleStateRepo(store: StateStore): RuleStateRepo {
  const { db } = store;
  // rule_meta held a generation counter that nothing read: older databases lose it here.
  db.exec(`CREATE TABLE IF NOT EXISTS rule_group (
    key TEXT PRIMARY KEY,
    rule_id TEXT NOT NULL,
    state TEXT NOT NULL
  );
  DROP TABLE IF EXISTS rule_meta`);
  const all = db.prepare<[], { state: string }>('SELECT state FROM rule_group ORDER BY key');
  const upsert = db.prepare<[string, string, string]>(
    'INSERT INTO rule_group (key, rule_id, state) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET rule_id = excluded.rule_id, state = excluded.state',
  );
  const remove = db.prepare<[string]>('DELETE FROM rule_group WHERE key = ?');
  const keysOfRule = db.prepare<[string], { key: string }>(
    'SELECT key FROM rule_group WHERE rule_id = ? ORDER BY key',
  );
  function* rows(): Generator<StoredGroupState> {
    for (const row of all.iterate()) yield JSON.parse(row.state) as StoredGroupState;
  }
  return {
    load: () => ({ version: 1, groups: rows() }),
    keysOf: (ruleIds) => ruleIds.flatMap((id) => keysOfRule.all(id).map((row) => row.key)),
    apply(changes) {
      for (const g of changes.upserts) upsert.run(g.key, g.ruleId, JSON.stringify(g));
      for (const key of changes.deletes) remove.run(key);
    },
  };
}
