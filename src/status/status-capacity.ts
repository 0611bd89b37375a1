// The tail's capacity as the status page shows it: request demand against the request budget (tail/health/capacity-estimate.ts),
// with the level the page warns at. Pure.
import { CAPACITY_HIGH } from '../tail/health/capacity-estimate.js';
import type { CapacityView } from '../tail/health/capacity-watch.js';

/**
 * `ok` within the budget's margin; `high` above CAPACITY_HIGH (0.8), or still exceeded by the watch's hysteresis,
 * which is when sentinel-capacity-exceeded fires; `over` above 1, where staleness grows.
 */
export type CapacityLevel = 'ok' | 'high' | 'over';

export interface CapacityRow {
  readonly ratio: number;
  readonly demandRps: number;
  readonly budgetRps: number;
  readonly tps: number;
  readonly level: CapacityLevel;
}

export function capacityRow(view: CapacityView): CapacityRow {
  const { ratio } = view;
  const level: CapacityLevel = ratio > 1 ? 'over' : view.exceeded || ratio > CAPACITY_HIGH ? 'high' : 'ok';
  return {
    ratio,
    demandRps: view.demandRps,
    budgetRps: view.budgetRps,
    tps: view.tps,
    level,
  };
}
