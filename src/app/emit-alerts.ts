// The last step of every alert path (records, ticks, self-monitoring): route, enqueue in the outbox, count.
// Synchronous: callers run it inside the store.transaction that also saves the state behind the alerts.
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert.js';
import type { Outbox } from '../notifiers/outbox.js';
import { routeAlert } from '../notifiers/route.js';
import type { Route } from '../notifiers/schema.js';

export interface EmitDeps {
  readonly outbox: Outbox;
  readonly routes: () => readonly Route[];
  readonly metrics: Pick<Metrics, 'alerts'>;
}

export function emitAlerts(deps: EmitDeps, alerts: readonly Alert[]): void {
  for (const alert of alerts) {
    deps.outbox.enqueue(alert, routeAlert(alert, deps.routes()));
    deps.metrics.alerts.inc({ rule: alert.ruleId, severity: alert.severity, status: alert.status });
  }
}
