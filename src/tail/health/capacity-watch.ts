// Keeps the tail's capacity estimate (capacity-estimate.ts) after every round: exports it as gauges and logs each
// crossing of the budget (with hysteresis), so an operator hears of it before staleness grows.
import type { Logger } from 'pino';
import {
  type Capacity,
  type CapacityInputs,
  capacityExceeded,
  estimateCapacity,
} from './capacity-estimate.js';
import type { TailMetrics } from '../tail-metrics.js';

/** The latest estimate; `exceeded` carries the hysteresis (capacity-estimate.ts). */
export interface CapacityView extends Capacity {
  readonly exceeded: boolean;
}

export interface CapacityWatch {
  update(inputs: Omit<CapacityInputs, 'budgetRps'>): void;
  /** The latest estimate, or undefined without a budget. */
  current(): CapacityView | undefined;
}

export function createCapacityWatch(options: {
  readonly budgetRps: number | undefined;
  readonly metrics: TailMetrics | undefined;
  readonly log: Logger | undefined;
}): CapacityWatch {
  let latest: Capacity | undefined;
  let exceeded = false;
  return {
    update(inputs) {
      latest = estimateCapacity({ ...inputs, budgetRps: options.budgetRps });
      if (!latest) return;
      const m = options.metrics;
      m?.ledgerTps.set(latest.tps);
      m?.tailDemand.set(latest.demandRps);
      m?.tailBudget.set(latest.budgetRps);
      m?.tailCapacityRatio.set(latest.ratio);
      const next = capacityExceeded(exceeded, latest);
      if (next === exceeded) return;
      exceeded = next;
      const fields = {
        tps: Math.round(latest.tps),
        demandRps: Math.round(latest.demandRps * 10) / 10,
        budgetRps: latest.budgetRps,
        strategy: latest.strategy,
      };
      if (next)
        options.log?.warn(
          fields,
          'tail request demand exceeds the request budget; staleness will grow (raise ledger.requests_per_second, self-host the query service, or watch fewer accounts)',
        );
      else options.log?.info(fields, 'tail request demand back within the request budget');
    },
    current: () => (latest ? { ...latest, exceeded } : undefined),
  };
}
