// Alert state transitions per key: fire once, repeat after the throttle, resolve where the rule is stateful.
// Times are nanoseconds: consensus time for records, the injected clock for ticks. The state they work on is
// one named structure (engine-state.ts); each transition is a small function that takes it.
import type { Alert } from '../alert/alert.js';
import type { CompiledRule, RuleSet } from '../load/compile.js';
import { createEngineState } from './engine-state.js';
import type { EngineSnapshot, StateChanges } from './engine.js';
import type { Facts } from '../facts/facts.js';
import type { Annotations } from './fire-alert.js';
import { onMatch } from './on-match.js';
import { onTick } from './on-tick.js';
import { takeChanges } from './take-changes.js';

export interface Transitions {
  onMatch(rule: CompiledRule, f: Facts, ann: Annotations, out: Alert[]): void;
  onTick(nowNs: bigint, ledgerNs?: bigint): Alert[];
  takeChanges(): StateChanges;
}

export function createTransitions(ruleSet: RuleSet, snapshot: EngineSnapshot | undefined): Transitions {
  const state = createEngineState(ruleSet, snapshot);
  return {
    onMatch: (rule, f, ann, out) => onMatch(state, rule, f, ann, out),
    onTick: (nowNs, ledgerNs) => onTick(state, nowNs, ledgerNs),
    takeChanges: () => takeChanges(state),
  };
}
