// Routing (pure): the notifiers for an alert are the rule's own `notify:` plus every matching route's.
import type { Alert } from '../rules/alert/alert.js';
import type { Route, Silence } from '../notifiers/schema.js';
import { labelsEqual } from '../config/labels.js';

export function routeAlert(alert: Alert, routes: readonly Route[]): string[] {
  const channels = new Set(alert.notify);
  for (const route of routes) if (routeMatches(route, alert)) route.notify.forEach((n) => channels.add(n));
  return [...channels];
}

export function routeMatches(route: Route, alert: Alert): boolean {
  const { severity, rule, labels } = route.match;
  if (severity && !severity.includes(alert.severity)) return false;
  if (rule && !rule.includes(alert.ruleId)) return false;
  return labelsEqual(labels, alert);
}

/** The silence that applies to this alert on this channel at `now`, if any. */
export function findSilence(alert: Alert, channel: string, silences: readonly Silence[], now: number) {
  return silences.find((s) => {
    if (s.starts_at && Date.parse(s.starts_at) > now) return false;
    if (Date.parse(s.ends_at) <= now) return false;
    if (s.notifiers && !s.notifiers.includes(channel)) return false;
    if (s.rule !== undefined && s.rule !== alert.ruleId) return false;
    if (s.account !== undefined && s.account !== alert.account?.id && s.account !== alert.account?.name)
      return false;
    return labelsEqual(s.labels, alert);
  });
}
