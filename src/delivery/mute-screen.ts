// The delivery pass's step for route mute windows (route-mute.ts): a held row is postponed to the window's end
// without counting an attempt (reason `muted`, so the end knows it was held); a dropped one is recorded as
// silenced. Both are counted and logged: nothing is dropped silently.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { DeliveryRow, Outbox } from './outbox.js';
import { muteDecision, type RouteMutes } from './route-mute.js';

export type { RouteMutes } from './route-mute.js';

export interface MuteScreenContext {
  readonly mutes?: RouteMutes;
  readonly outbox: Outbox;
  readonly metrics: Pick<Metrics, 'notifications'>;
  readonly log: Logger;
}

/** True when the row may go on (not muted); otherwise the row was held or recorded. */
export function screenMuted(ctx: MuteScreenContext, row: DeliveryRow, now: number): boolean {
  if (!ctx.mutes) return true;
  const decision = muteDecision(ctx.mutes, ctx.outbox, row, now);
  if (decision.kind === 'send') return true;
  const ids = [row.alert.id];
  const notifier = row.channel;
  if (decision.kind === 'hold') {
    const until = new Date(decision.mute.until).toISOString();
    ctx.outbox.postpone(ids, notifier, decision.mute.until, 'muted');
    ctx.metrics.notifications.inc({ notifier, outcome: 'deferred', reason: 'muted' });
    if (row.lastError !== 'muted')
      ctx.log.info({ notifier, alertIds: ids, by: decision.mute.by, until }, 'notification muted until');
    return false;
  }
  ctx.outbox.markSilenced(ids, notifier, now);
  ctx.metrics.notifications.inc({ notifier, outcome: 'silenced', reason: 'muted' });
  ctx.log.info({ notifier, alertIds: ids, reason: decision.reason }, 'notification muted, not sent');
  return false;
}
