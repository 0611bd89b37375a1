// The alert `notify test` sends: clearly marked as a test in every field a receiver shows, with a key of its own
// per run (so a PagerDuty or Opsgenie test opens its own incident, never one of a real alert), and its resolve.
import type { Alert, Severity } from '../../rules/alert/alert.js';

export function testAlert(notifier: string, severity: Severity, nowMs: number): Alert {
  const at = new Date(nowMs).toISOString();
  const key = `ledger-sentinel-test{notifier="${notifier}",at="${at}"}`;
  return {
    key,
    id: `${key}|firing|${at}`,
    ruleId: 'ledger-sentinel-test',
    severity,
    status: 'firing',
    summary: `TEST from ledger-sentinel: notifier "${notifier}" works (not a real alert)`,
    description:
      'This is a test notification sent by `ledger-sentinel notify test`. No ledger record caused it and nothing ' +
      'needs to be done; its resolve follows unless the test was run with --firing-only.',
    labels: { test: 'true' },
    startsAt: at,
    records: [],
    matchCount: 0,
    notify: [notifier],
    annotations: {},
    why: 'a test requested with ledger-sentinel notify test',
    resolves: true,
  };
}

export function resolvedTestAlert(firing: Alert, nowMs: number): Alert {
  return {
    ...firing,
    id: `${firing.key}|resolved|${firing.startsAt}`,
    status: 'resolved',
    endsAt: new Date(nowMs).toISOString(),
    resolution: 'the end of the test',
  };
}
