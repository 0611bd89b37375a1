import { checked, type Figure } from '../../bench/lib/figures.js';
// Expected alerts from the simulator's ground truth, and what arrived. Each marker is one injected transaction
// with the memo `chaos-<n>` paid by a watched account to an unwatched one; marker rule n alerts on that memo
// (throttle 0s), so the expected alerts are exactly the marker transactions of the ground truth.
import type { LivingLedger } from '@ledger-sentinel/simulator/living-ledger';

/**
 * One rule per marker: a Slack digest lists at most 40 alerts of one rule and folds the rest into "and K more",
 * so with one rule per marker every delivered message names its marker and nothing is folded away.
 */
export function markerRules(count: number, notifiers: readonly string[]): string {
  const rules = Array.from(
    { length: count },
    (_, n) => `  - id: chaos-marker-${n}
    summary: "marker {{memo}}"
    when: { memo: { regex: "^chaos-${n}$" } }
    severity: critical
    throttle: 0s
    notify: [${notifiers.join(', ')}]`,
  );
  return `rules:\n${rules.join('\n')}\n`;
}

export function injectMarker(ledger: LivingLedger, n: number, payer: string, to: string): void {
  ledger.inject({
    type: 'CRYPTOTRANSFER',
    payer,
    memo: `chaos-${n}`,
    transfers: [
      { account: payer, amount: -100_000_000n },
      { account: to, amount: 100_000_000n },
    ],
    tag: `chaos-${n}`,
  });
}

/** The markers the ground truth holds (every one injected so far that has been generated). */
export function expectedMarkers(ledger: LivingLedger): Set<string> {
  ledger.advance();
  const found = new Set<string>();
  for (const r of ledger.truth.transactions()) if (r.tag?.startsWith('chaos-')) found.add(r.tag);
  return found;
}

/**
 * Markers a delivered message is the alert of: it names the marker's rule (`chaos-marker-<n>`). Other rules'
 * alerts may quote a marker's memo among their records; they are not the marker's delivery.
 */
export function markersOf(body: string): Set<string> {
  return new Set([...body.matchAll(/chaos-marker-(\d+)/g)].map((m) => `chaos-${m[1]}`));
}

/** How many delivered messages are the alert of each marker (a message counts a marker once). */
export function receivedMarkers(bodies: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const body of bodies)
    for (const marker of markersOf(body)) counts.set(marker, (counts.get(marker) ?? 0) + 1);
  return counts;
}

export interface Tally {
  readonly expected: number;
  readonly received: number;
  readonly lost: string[];
  /** Extra deliveries beyond the first, summed over markers. */
  readonly duplicates: number;
  /** Markers delivered that the ground truth does not hold. */
  readonly unexpected: string[];
}

export function tally(expected: ReadonlySet<string>, received: ReadonlyMap<string, number>): Tally {
  let duplicates = 0;
  for (const n of received.values()) duplicates += n - 1;
  return {
    expected: expected.size,
    received: received.size,
    lost: [...expected].filter((m) => !received.has(m)),
    duplicates,
    unexpected: [...received.keys()].filter((m) => !expected.has(m)),
  };
}

/** Slack context lines (ending in a ref computed from the alert ids) per marker: a resend is recognisable when all its copies carry one. */
export function alertIdsByMarker(bodies: readonly string[]): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const body of bodies) {
    const message = JSON.parse(body) as { blocks?: { type: string; elements?: { text?: string }[] }[] };
    const context = (message.blocks ?? []).find((b) => b.type === 'context')?.elements?.[0]?.text ?? '';
    for (const marker of markersOf(body)) {
      const set = ids.get(marker) ?? new Set<string>();
      set.add(context);
      ids.set(marker, set);
    }
  }
  return ids;
}

/**
 * The verdict every delivery scenario reports: lost alerts must be 0, and the first few lost are named. A tally
 * that expected nothing proves nothing, so it fails too.
 */
export function lostAlerts(suite: string, tally: Tally): Figure {
  if (tally.expected === 0)
    return {
      ...checked(suite, 'lost alerts', 0, '==', 0),
      pass: false,
      note: 'no marker was expected: nothing was checked',
    };
  const note = tally.lost.length ? { note: tally.lost.slice(0, 5).join(' ') } : {};
  return checked(suite, 'lost alerts', tally.lost.length, '==', 0, note);
}
