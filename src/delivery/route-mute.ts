// Route mute windows (`mute_time_intervals`, `active_time_intervals`), checked when a delivery is due, with
// Alertmanager's outcome: a muted notification is not sent while the window lasts; when it ends, an alert that
// still fires is sent (Alertmanager's next flush would send it), while one that resolved meanwhile, an event
// (a per-record alert, which never resolves) and a resolve whose firing never reached the receiver are not
// (recorded as silenced, reason `muted`). Nothing waits longer than the window: held rows are postponed to its
// end, and looked at again then.
import type { Alert } from '../rules/alert/alert.js';
import type { Route } from '../notifiers/schema.js';
import type { TimeInterval } from '../notifiers/time-intervals-config.js';
import { episodeId } from './firing-set.js';
import type { DeliveryRow, Outbox } from './outbox.js';
import { routeMatches } from './route.js';
import { intervalContains, nextChange } from './time-intervals.js';

export interface Mute {
  /** The interval that mutes: `mute:<name>` or `outside:<names>`. */
  readonly by: string;
  /** When the mute ends (at most ~400 days ahead; later ends are looked at again then). */
  readonly until: number;
}

export interface RouteMutes {
  /** The mute holding this alert's delivery to `channel` at `now`, if every route that brought it is muted. */
  check(alert: Alert, channel: string, now: number): Mute | undefined;
}

const FAR_MS = 7 * 86_400_000;

export function createRouteMutes(
  routes: () => readonly Route[],
  intervals: () => readonly TimeInterval[],
): RouteMutes {
  return {
    check(alert, channel, now) {
      // The rule's own `notify:` is not a route: nothing mutes it. Most configs mute nothing: no work per row.
      if (alert.notify.includes(channel)) return undefined;
      if (!routes().some((r) => r.mute_time_intervals || r.active_time_intervals)) return undefined;
      const byName = new Map(intervals().map((t) => [t.name, t]));
      const sources = routes().filter(
        (r) =>
          (r.notify.includes(channel) || r.escalate?.some((e) => e.notify.includes(channel))) &&
          routeMatches(r, alert),
      );
      if (sources.length === 0) return undefined;
      const muted = (t: number) => sources.every((r) => routeMute(r, byName, t) !== undefined);
      if (!muted(now)) return undefined;
      const specs = sources.flatMap((r) => referenced(r, byName)).flatMap((t) => t.time_intervals);
      const until = nextChange(specs, muted, now) ?? now + FAR_MS;
      return { by: routeMute(sources[0] as Route, byName, now) ?? 'mute', until };
    },
  };
}

function referenced(route: Route, byName: ReadonlyMap<string, TimeInterval>): TimeInterval[] {
  const names = [...(route.mute_time_intervals ?? []), ...(route.active_time_intervals ?? [])];
  return names.flatMap((n) => byName.get(n) ?? []);
}

/** Why the route is muted at `t`, or undefined. Unknown names are config errors, never reached here. */
function routeMute(route: Route, byName: ReadonlyMap<string, TimeInterval>, t: number): string | undefined {
  const get = (n: string) => byName.get(n);
  const mute = route.mute_time_intervals?.find((n) => {
    const interval = get(n);
    return interval !== undefined && intervalContains(interval, t);
  });
  if (mute) return `mute_time_intervals: ${mute}`;
  const active = route.active_time_intervals;
  if (!active) return undefined;
  const inside = active.some((n) => {
    const interval = get(n);
    return interval !== undefined && intervalContains(interval, t);
  });
  return inside ? undefined : `outside active_time_intervals: ${active.join(', ')}`;
}

export type MuteDecision =
  | { readonly kind: 'send' }
  | { readonly kind: 'hold'; readonly mute: Mute }
  | { readonly kind: 'drop'; readonly reason: string };

/** What to do with a due row: send it, hold it until the window ends, or record it as muted. */
export function muteDecision(
  mutes: RouteMutes,
  outbox: Pick<Outbox, 'firing' | 'status'>,
  row: DeliveryRow,
  now: number,
): MuteDecision {
  const mute = mutes.check(row.alert, row.channel, now);
  const wasHeld = row.lastError === 'muted';
  if (!mute && !wasHeld) return { kind: 'send' };
  if (stillRelevant(outbox, row)) return mute ? { kind: 'hold', mute } : { kind: 'send' };
  const reason = mute
    ? `${mute.by}; ${gone(row.alert)}`
    : `held by a mute window, ${gone(row.alert)} before it ended`;
  return { kind: 'drop', reason };
}

/** A firing alert that still fires, or a resolve of one the receiver was told about. */
function stillRelevant(outbox: Pick<Outbox, 'firing' | 'status'>, row: DeliveryRow): boolean {
  const { alert } = row;
  if (alert.status === 'resolved') return outbox.status(episodeId(alert), row.channel) === 'sent';
  return alert.resolves === true && outbox.firing.episode(alert.key) === episodeId(alert);
}

function gone(alert: Alert): string {
  if (alert.status === 'resolved') return 'the receiver never got the alert this resolves';
  return alert.resolves ? 'the alert resolved' : 'an event (it never resolves) is not sent after the window';
}
