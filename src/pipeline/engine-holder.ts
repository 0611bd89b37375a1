// The current rule engine, restored from the rule state repository. A reload swaps it; a failed transaction
// marks it dirty, because its in-memory state may have moved while the database rolled back: the next user
// outside a transaction gets a fresh engine restored from what was committed.
//
// Why the engine cannot do without this holder yet: its group states are mutated in place as records are
// evaluated, and the database transaction that writes them (with the outbox and the cursor) may still roll
// back. Rebuilding from the committed rows is the rollback; the alternative, an undo log of the touched groups
// inside the engine (rules/engine/engine-state.ts), would put transaction awareness in the pure core and is not done.
import { createEngine, type Engine } from '../rules/engine/engine.js';
import type { RuleSet } from '../rules/load/compile.js';
import type { RuleStateRepo } from '../rules/alert-state/state-repo.js';

export interface EngineHolder {
  /** The engine to use; call outside a transaction (it may restore from the database). */
  current(): Engine;
  /** The engine as is, for code inside a transaction; throws when it must be restored first. */
  committed(): Engine;
  replace(ruleSet: RuleSet): void;
  invalidate(): void;
  ruleSet(): RuleSet;
}

export function createEngineHolder(ruleSet: RuleSet, repo: RuleStateRepo): EngineHolder {
  let rules = ruleSet;
  let engine: Engine | undefined;
  return {
    current() {
      engine ??= createEngine(rules, repo.load());
      return engine;
    },
    committed() {
      if (!engine)
        throw new Error('rule engine state was reset after a failed transaction; the page is replayed');
      return engine;
    },
    replace(next) {
      rules = next;
      engine = undefined;
    },
    invalidate() {
      engine = undefined;
    },
    ruleSet: () => rules,
  };
}
