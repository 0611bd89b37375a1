// Counting alerts by what receivers dedupe on. One rule per marker (as chaos/lib/markers.ts), but each alert's
// summary names its marker and its group's account: a marker transaction that touches two watched accounts is
// rightly two alerts (the rules group by account), so an alert is (marker, account), and exactly-once is per
// alert. Slack, email and the webhook all carry the summary.

export function faultRules(count: number, notifiers: readonly string[]): string {
  const rules = Array.from(
    { length: count },
    (_, n) => `  - id: chaos-marker-${n}
    summary: "alert {{memo}} account {{account.name}} end"
    when: { memo: { regex: "^chaos-${n}$" } }
    severity: critical
    throttle: 0s
    notify: [${notifiers.join(', ')}]`,
  );
  return `rules:\n${rules.join('\n')}\n`;
}

/** The alerts a message carries, as `chaos-<n>@<account>`; a message counts each alert once. */
export function alertsOf(body: string): Set<string> {
  return new Set(
    [...body.matchAll(/alert (chaos-\d+) account (0\.0\.\d+) end/g)].map((m) => `${m[1]}@${m[2]}`),
  );
}

export interface AlertTally {
  /** Expected markers with no alert at all. */
  readonly lost: string[];
  /** Alerts delivered more than once, as `chaos-<n>@<account>×<times>`. */
  readonly duplicates: string[];
  /** Markers alerted that the ground truth does not hold. */
  readonly unexpected: string[];
  /** Messages carrying no marker's alert. */
  readonly stray: number;
}

export function alertTally(expected: ReadonlySet<string>, bodies: readonly string[]): AlertTally {
  const counts = new Map<string, number>();
  let stray = 0;
  for (const body of bodies) {
    const alerts = alertsOf(body);
    if (alerts.size === 0) stray += 1;
    for (const alert of alerts) counts.set(alert, (counts.get(alert) ?? 0) + 1);
  }
  const markers = new Set([...counts.keys()].map((k) => k.split('@')[0] as string));
  return {
    lost: [...expected].filter((m) => !markers.has(m)),
    duplicates: [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k}×${n}`),
    unexpected: [...markers].filter((m) => !expected.has(m)),
    stray,
  };
}
