// Scenario 23's referee: what became of each expected alert. The expected alerts come from the ground truth, one
// per marker and watched account its transaction touches (the simulator may add token legs to an injected transfer,
// and the rule groups by account); each must be delivered once or dead-lettered, never neither, never both.
import type { Rig } from './lib/rig.js';
import type { MarkerDelivery } from './lib/outbox-outcomes.js';

export interface Outcomes {
  /** Expected alerts: each marker once per watched account its transaction touches (ground truth). */
  readonly expected: number;
  /** Markers whose transaction touches two or more watched accounts (the simulator adds token legs). */
  readonly multi: number;
  readonly delivered: string[];
  readonly dead: string[];
  /** Expected alerts neither delivered nor dead-lettered: `chaos-<n>@<account>`. */
  readonly lost: string[];
  /** One line per doubling: two alerts of one marker and account, a send twice, sent and dead, listed twice. */
  readonly doubled: string[];
  /** Alerts on an account the marker's transaction does not touch. */
  readonly stray: string[];
}

/** Marker → the watched accounts its transaction touches (payer, HBAR or token transfer), from the ground truth. */
function touchedAccounts(rig: Rig, watched: ReadonlySet<string>): Map<string, string[]> {
  rig.ledger.ledger.advance();
  const touched = new Map<string, string[]>();
  for (const r of rig.ledger.ledger.truth.transactions()) {
    if (!r.tag?.startsWith('chaos-')) continue;
    const nums = [
      r.tx.payer,
      ...r.tx.transfers.map((t) => t.account),
      ...r.tx.tokenTransfers.map((t) => t.account),
    ];
    touched.set(
      r.tag,
      [...new Set(nums.map((n) => `0.0.${n}`))].filter((a) => watched.has(a)),
    );
  }
  return touched;
}

export function outcomes(
  rig: Rig,
  watchedAccounts: readonly string[],
  deliveries: Map<string, MarkerDelivery[]>,
  sentIds: readonly string[],
  listings: Map<string, number>,
): Outcomes {
  const sentCount = new Map<string, number>();
  for (const id of sentIds) sentCount.set(id, (sentCount.get(id) ?? 0) + 1);
  const touched = touchedAccounts(rig, new Set(watchedAccounts));
  const result = { delivered: [], dead: [], lost: [], doubled: [], stray: [] } as Omit<
    Outcomes,
    'expected' | 'multi'
  >;
  let expected = 0;
  let multi = 0;
  for (const marker of rig.injected) {
    const rows = deliveries.get(marker) ?? [];
    const accounts = touched.get(marker) ?? [];
    if (accounts.length > 1) multi += 1;
    expected += Math.max(1, accounts.length);
    for (const r of rows) if (!accounts.includes(r.account)) result.stray.push(`${marker}@${r.account}`);
    for (const account of accounts.length ? accounts : ['(not in the ground truth)']) {
      const mine = rows.filter((r) => r.account === account);
      const key = `${marker}@${account}`;
      if (mine.length > 1) result.doubled.push(`${key}: ${mine.length} alerts`);
      for (const r of mine)
        if ((sentCount.get(r.alertId) ?? 0) > 1)
          result.doubled.push(`${key}: sent ${sentCount.get(r.alertId)} times`);
      const wasSent = mine.some((r) => r.status === 'sent' && sentCount.has(r.alertId));
      const wasDead = mine.some((r) => r.status === 'dead');
      if (wasSent && wasDead) result.doubled.push(`${key}: sent and dead`);
      if (wasSent) result.delivered.push(key);
      else if (wasDead) result.dead.push(key);
      else result.lost.push(key);
    }
    const sentAlerts = rows.filter((r) => r.status === 'sent').length;
    const listed = listings.get(marker) ?? 0;
    if (listed > sentAlerts) result.doubled.push(`${marker}: listed ${listed} times for ${sentAlerts} sent`);
  }
  return { ...result, expected, multi };
}
