// Can the request budget keep up with the ledger? The demand is what the strategy in use needs per second at
// the observed ledger rate (strategy/strategy-cost.ts's cost model, sweeps included, plus the streams the global tail does
// not cover); the budget is the client's ledger.requests_per_second. Pure: the tailer feeds it every round.
import { estimateCosts, type CostInputs, type Strategy } from '../strategy/strategy-cost.js';

export interface CapacityInputs extends CostInputs {
  readonly strategy: Strategy;
  /** Per-account streams polled whatever the strategy (rewards watched by alias only). */
  readonly uncoveredStreams: number;
  /** Requests per second the client's budget allows; undefined = no budget known (nothing to compare). */
  readonly budgetRps: number | undefined;
}

export interface Capacity {
  /** Ledger transactions per second of consensus time, as observed; 0 until measured. */
  readonly tps: number;
  /** Requests per second the tail needs at that rate with the strategy in use. */
  readonly demandRps: number;
  readonly budgetRps: number;
  /** demandRps ÷ budgetRps: above 1 the tail falls behind, whatever the poll interval. */
  readonly ratio: number;
  readonly strategy: Strategy;
}

export function estimateCapacity(input: CapacityInputs): Capacity | undefined {
  if (input.budgetRps === undefined || !(input.budgetRps > 0)) return undefined;
  const costs = estimateCosts(input);
  const perInterval =
    (input.strategy === 'global' ? costs.global : costs.perAccount) + input.uncoveredStreams;
  const demandRps = perInterval / (input.pollIntervalMs / 1000);
  return {
    tps: input.tps ?? 0,
    demandRps,
    budgetRps: input.budgetRps,
    ratio: demandRps / input.budgetRps,
    strategy: input.strategy,
  };
}

/**
 * Above this ratio the capacity counts as exceeded. Below 1 on purpose: the cost model counts no partly filled
 * pages and reads up to 20 % under the measured demand at high rates (docs/tailing.md, "Capacity"), and the
 * alert must come before staleness grows, not after.
 */
export const CAPACITY_HIGH = 0.8;
/** Hysteresis: exceeded until the ratio falls below this, so a rate near the threshold does not flap. */
export const CAPACITY_CLEAR = 0.7;

/** The exceeded flag after `capacity`, given the flag before (hysteresis between CLEAR and HIGH). */
export function capacityExceeded(before: boolean, capacity: Capacity | undefined): boolean {
  if (!capacity) return false;
  return before ? capacity.ratio >= CAPACITY_CLEAR : capacity.ratio > CAPACITY_HIGH;
}
