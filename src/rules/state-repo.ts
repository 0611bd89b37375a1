// Alert state in the state store (table rule_group): one JSON row per alert key. Synchronous, so the pipeline
// calls it inside its own store.transaction() together with the outbox and the cursor.
import type { StateStore } from '../state/store.js';
import type { EngineSnapshot, StateChanges } from './engine.js';
import type { StoredGroupState } from './group-state.js';

export interface RuleStateRepo {
  load(): EngineSnapshot;
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
  return {
    load: () => ({ version: 1, groups: all.all().map((row) => JSON.parse(row.state) as StoredGroupState) }),
    apply(changes) {
      for (const g of changes.upserts) upsert.run(g.key, g.ruleId, JSON.stringify(g));
      for (const key of changes.deletes) remove.run(key);
    },
  };
}
