// Storm control (pure): due deliveries of one channel are grouped by rule and status; a group becomes a
// notification once its oldest member has waited group_wait, so a burst becomes one digest instead of a flood.
import type { Notification } from '../notifiers/notifier.js';
import type { DeliveryRow } from './outbox.js';

export interface DeliveryGroup {
  readonly channel: string;
  readonly rows: readonly DeliveryRow[];
  readonly notification: Notification;
}

/** Groups that are ready at `now`; `waitMs(channel)` is the channel's group_wait. Caps a digest at maxSize. */
export function readyGroups(
  rows: readonly DeliveryRow[],
  now: number,
  waitMs: (channel: string) => number,
  maxSize = 200,
): DeliveryGroup[] {
  const byKey = new Map<string, DeliveryRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.channel, row.alert.ruleId, row.alert.status]);
    const list = byKey.get(key) ?? [];
    if (list.length < maxSize) list.push(row);
    byKey.set(key, list);
  }
  const groups: DeliveryGroup[] = [];
  for (const list of byKey.values()) {
    const first = list[0];
    if (!first) continue;
    // A retry is sent when due; only fresh alerts wait for company.
    const fresh = list.every((r) => r.attempts === 0);
    if (fresh && Math.min(...list.map((r) => r.createdAt)) + waitMs(first.channel) > now) continue;
    groups.push({ channel: first.channel, rows: list, notification: toNotification(list) });
  }
  return groups;
}

function toNotification(rows: readonly DeliveryRow[]): Notification {
  const first = rows[0];
  if (rows.length === 1 && first) return { kind: 'single', alert: first.alert };
  return { kind: 'digest', ruleId: first?.alert.ruleId ?? '', alerts: rows.map((r) => r.alert) };
}

/** When the earliest waiting group becomes ready (for the worker's sleep), or undefined if none waits. */
export function nextGroupReadyAt(
  rows: readonly DeliveryRow[],
  waitMs: (channel: string) => number,
): number | undefined {
  let at: number | undefined;
  for (const row of rows) {
    if (row.attempts > 0) continue;
    const ready = row.createdAt + waitMs(row.channel);
    at = at === undefined ? ready : Math.min(at, ready);
  }
  return at;
}
