// The daemon's own alerts (pure): which conditions hold, and the firing/resolved transitions between two
// evaluations. While the query service is down, per-account staleness alerts are held back (inhibition): every
// account goes stale together then, and one alert says why.
import type { Alert, AlertAccount } from '../rules/alert/alert.js';

export const BUILT_IN_RULES = {
  accountStale: 'sentinel-account-stale',
  queryServiceDown: 'sentinel-query-service-down',
  deliveryFailing: 'sentinel-delivery-failing',
  recordQuarantined: 'sentinel-record-quarantined',
  accountUnresolved: 'sentinel-account-unresolved',
  futureRecord: 'sentinel-future-record',
  headAhead: 'sentinel-head-ahead',
  clockStep: 'sentinel-clock-step',
  capacityExceeded: 'sentinel-capacity-exceeded',
} as const;

/** One condition that holds now. */
export interface Condition {
  readonly key: string;
  readonly ruleId: string;
  readonly severity: Alert['severity'];
  readonly summary: string;
  readonly description: string;
  readonly account?: AlertAccount;
  /** Notifiers that must not get this alert (the failing one, for delivery failures). */
  readonly exclude?: readonly string[];
}

/** Held-back conditions removed: no staleness (or lookup) alerts while the query service is down. */
export function inhibit(conditions: readonly Condition[]): Condition[] {
  const down = conditions.some((c) => c.ruleId === BUILT_IN_RULES.queryServiceDown);
  const held: string[] = [BUILT_IN_RULES.accountStale, BUILT_IN_RULES.accountUnresolved];
  return down ? conditions.filter((c) => !held.includes(c.ruleId)) : [...conditions];
}

export interface Transitions {
  readonly alerts: Alert[];
  /** The firing alerts after this evaluation, by key. */
  readonly firing: Map<string, Alert>;
}

/**
 * New conditions fire, vanished ones resolve. `held` keys (inhibited, not cleared) keep firing alerts as they
 * are: an account that was stale before the outage is not declared fine because of it.
 */
export function transitions(
  before: ReadonlyMap<string, Alert>,
  now: readonly Condition[],
  held: ReadonlySet<string>,
  notify: readonly string[],
  at: Date,
): Transitions {
  const firing = new Map<string, Alert>();
  const alerts: Alert[] = [];
  for (const c of now) {
    const existing = before.get(c.key);
    if (existing) firing.set(c.key, existing);
    else {
      const alert = firingAlert(c, notify, at);
      firing.set(c.key, alert);
      alerts.push(alert);
    }
  }
  for (const [key, alert] of before) {
    if (firing.has(key)) continue;
    if (held.has(key)) firing.set(key, alert);
    else alerts.push(resolvedAlert(alert, at));
  }
  return { alerts, firing };
}

function firingAlert(c: Condition, notify: readonly string[], at: Date): Alert {
  const startsAt = at.toISOString();
  return {
    key: c.key,
    id: `${c.key}|firing|${startsAt}`,
    ruleId: c.ruleId,
    severity: c.severity,
    status: 'firing',
    summary: c.summary,
    description: c.description,
    labels: { category: 'self-monitoring' },
    ...(c.account ? { account: c.account } : {}),
    startsAt,
    records: [],
    matchCount: 0,
    notify: notify.filter((n) => !(c.exclude ?? []).includes(n)),
    annotations: {},
    resolves: true,
  };
}

function resolvedAlert(alert: Alert, at: Date): Alert {
  const endsAt = at.toISOString();
  const resolution = `the condition no longer holds at ${endsAt}`;
  return { ...alert, id: `${alert.key}|resolved|${alert.startsAt}`, status: 'resolved', endsAt, resolution };
}
