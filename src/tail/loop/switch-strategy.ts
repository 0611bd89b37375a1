// Choosing and switching the tail strategy: per-account polls or the global tail.
import { startGlobal, stopGlobal } from '../strategy/strategy-cursors.js';
import {
  type CostInputs,
  type Strategy,
  chooseStrategy,
  costInputsFor,
  estimateCosts,
} from '../strategy/strategy-cost.js';
import type { TailerState } from './tailer-state.js';

/** Moves the cursors to `next` and says so (log line, metric); nothing when it is the strategy in use. */
export function switchStrategy(t: TailerState, next: Strategy): void {
  if (next === t.current) return;
  if (next === 'global') startGlobal(t.ctx.state, t.streams);
  else stopGlobal(t.ctx.state, t.streams);
  const why = { ...estimateCosts(costInputs(t)), tps: Math.round(t.ctx.head.tps ?? 0) };
  if (t.current !== undefined) t.log?.info({ from: t.current, to: next, ...why }, 'tail strategy changed');
  t.current = next;
  t.metrics?.tailStrategy.set({ strategy: next }, 1);
  t.metrics?.tailStrategy.set({ strategy: next === 'global' ? 'per-account' : 'global' }, 0);
}

/** Streams the global tail covers (per-account reward streams by alias are never covered). */
export function coveredStreams(t: TailerState): number {
  return t.index.transactions.size + t.index.rewards.size;
}

/** What the cost model needs at the head's current rate (strategy/strategy-cost.ts). */
export function costInputs(t: TailerState): CostInputs {
  return costInputsFor(t.config, coveredStreams(t), t.ctx.head.tps, t.ctx.pageLimit);
}

/** The strategy that costs fewer requests at the head's current rate (with hysteresis from the one in use). */
export function cheapestStrategy(t: TailerState): Strategy {
  return chooseStrategy(t.current, estimateCosts(costInputs(t)));
}
