// The receiving end of scenario 23, read from what Slack accepted: which markers each message carried (listed
// by their memo, or counted in a digest's "and K more") and how fast the catch-up after the return went.
import { checked, figure, round, type Figure } from '../bench/lib/figures.js';

export interface CatchUp {
  /** When the receiver came back (ms). */
  readonly upAt: number;
  readonly minIntervalMs: number;
  /** Arrival times (ms) of the requests accepted after the return, in order. */
  readonly accepted: readonly number[];
}

export interface Carried {
  /** Alerts the messages carried: listed ones plus those counted in "and K more". */
  readonly total: number;
  /** Marker → alerts of it listed, over all messages (a marker touching two watched accounts has two alerts). */
  readonly listings: Map<string, number>;
}

/** Markers of the alerts listed in one Slack message: each listed alert shows its record's memo. */
function listedMarkers(body: string): string[] {
  return [...body.matchAll(/\*Memo:\* (chaos-\d+)(?!\d)/g)].map((m) => m[1] ?? '');
}

/** Alerts a digest did not list but counted: its own `_and K more_` section. */
function folded(body: string): number {
  const blocks = (JSON.parse(body) as { blocks?: { text?: { text?: unknown } }[] }).blocks ?? [];
  let n = 0;
  for (const block of blocks) {
    const match = /^_and (\d+) more_$/.exec(String(block.text?.text ?? ''));
    if (match) n += Number(match[1]);
  }
  return n;
}

export function slackCarried(bodies: readonly string[]): Carried {
  const listings = new Map<string, number>();
  let total = 0;
  for (const body of bodies) {
    const listed = listedMarkers(body);
    for (const marker of listed) listings.set(marker, (listings.get(marker) ?? 0) + 1);
    total += listed.length + folded(body);
  }
  return { total, listings };
}

/**
 * The pace of the catch-up: the pacer spaces departures by `min_interval`, the network shifts arrivals, so the
 * check counts requests over the whole catch-up with one interval of slack (as the integration test does), and
 * the smallest gap between two arrivals is shown beside it.
 */
export function catchUpFigures(suite: string, c: CatchUp, carriedAfter: number): Figure[] {
  const n = c.accepted.length;
  const first = c.accepted[0] ?? c.upAt;
  const last = c.accepted.at(-1) ?? c.upAt;
  const span = last - first;
  const allowed = Math.floor(span / c.minIntervalMs) + 1;
  const gaps = c.accepted.slice(1).map((at, i) => at - (c.accepted[i] ?? at));
  return [
    figure(suite, 'catch-up: requests / alerts carried', `${n} / ${carriedAfter}`, {
      note: 'alerts per request > 1: folded into digests',
    }),
    figure(
      suite,
      'catch-up: first / last accepted after the return',
      `${round((first - c.upAt) / 1000, 1)} s / ${round((last - c.upAt) / 1000, 1)} s`,
    ),
    checked(
      suite,
      `catch-up requests beyond one per min_interval (${c.minIntervalMs} ms)`,
      Math.max(0, n - 1 - allowed),
      '==',
      0,
      {
        note: `${n} requests in ${round(span / 1000, 1)} s`,
      },
    ),
    figure(
      suite,
      'catch-up: smallest gap between two accepted requests',
      gaps.length ? Math.min(...gaps) : 'none',
      {
        unit: 'ms',
      },
    ),
  ];
}
