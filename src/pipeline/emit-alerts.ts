// The last step of every alert path (records, ticks, self-monitoring): route and enqueue in the outbox.
// Synchronous: callers run it inside the store.transaction that also saves the state behind the alerts, and
// count the alerts with countAlerts only after that transaction committed (a rolled-back page is replayed,
// and its alerts must not be counted twice).
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import type { Outbox } from '../delivery/outbox.js';
import { routeAlert } from '../delivery/route.js';
import type { Route } from '../notifiers/schema.js';

export interface EmitDeps {
  readonly outbox: Outbox;
  readonly routes: () => readonly Route[];
}

export function emitAlerts(deps: EmitDeps, alerts: readonly Alert[]): void {
  const routes = deps.routes();
  for (const alert of alerts) {
    // A firing alert schedules its routes' escalations; a resolve also reaches the receivers they notified.
    const escalated = deps.outbox.escalations.onEmit(alert, routes);
    deps.outbox.enqueue(alert, [...routeAlert(alert, routes), ...escalated]);
  }
}

export function countAlerts(metrics: Pick<Metrics, 'alerts'>, alerts: readonly Alert[]): void {
  for (const alert of alerts)
    metrics.alerts.inc({ rule: alert.ruleId, severity: alert.severity, status: alert.status });
}
