// sentinel-capacity-exceeded: the request budget cannot carry what the tail needs at the ledger's observed
// rate. It fires from the estimate (tail/health/capacity-estimate.ts: above 80 % of the budget, the model's margin), so before
// staleness grows, and resolves with the same hysteresis (below 70 %).
import { BUILT_IN_RULES, type Condition } from './built-in-alerts.js';
import type { CapacityView } from '../tail/health/capacity-watch.js';

export function capacityConditions(capacity: CapacityView | undefined): Condition[] {
  if (!capacity?.exceeded) return [];
  const demand = capacity.demandRps.toFixed(1);
  return [
    {
      key: BUILT_IN_RULES.capacityExceeded,
      ruleId: BUILT_IN_RULES.capacityExceeded,
      severity: 'warning',
      summary: `The tail needs ${demand} requests/s but the budget allows ${capacity.budgetRps}`,
      description:
        `At the ledger's ${Math.round(capacity.tps)} transactions/s the ${capacity.strategy} tail needs ` +
        `${demand} requests/s (ratio ${capacity.ratio.toFixed(2)}) of a ${capacity.budgetRps} requests/s ` +
        'budget, so it will fall behind and alerts will come late. Raise ledger.requests_per_second if the ' +
        'query service allows it, point ledger.base_url at a self-hosted mirror node (no rate limit), watch fewer ' +
        'accounts, or set tail.strategy: per-account (or auto) when few accounts are watched (docs/tailing.md, ' +
        '"Capacity").',
    },
  ];
}
