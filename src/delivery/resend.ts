// Alertmanager's client contract, as Prometheus keeps it: a firing alert is posted again every resend_interval with
// endsAt in the future, or Alertmanager resolves it on its own (resolve_timeout, or the endsAt we gave) and tells
// its receivers "resolved" while it still fires here. Only channels with a resend interval (Alertmanager) do this:
// Slack, email and webhooks would page again. The alerts come from the durable firing set (firing-set.ts), so a
// restart goes on re-sending them; Alertmanager merges the identical label set, so nothing pages twice.
//
// A re-send runs in the channel's lane (delivery-pass.ts), after the lane's outbox deliveries: it can never
// overtake a resolve of the same alert and make Alertmanager take it as firing again.
import { linkSignal } from '../ledger/linked-signal.js';
import { NotifyError } from '../notifiers/notifier.js';
import type { PassContext } from './pass-context.js';

/** Alerts per POST, and the most POSTs one re-send makes (a bound on a runaway firing set). */
export const RESEND_BATCH = 500;
const MAX_BATCHES = 200;

/** Channels whose re-send is due at `now` (whether their lane is free is the caller's business). */
export function resendDue(ctx: PassContext, now: number): string[] {
  const due: string[] = [];
  for (const [name, channel] of ctx.channels) {
    if (channel.resendIntervalMs === undefined) continue;
    const last = ctx.resentAt.get(name);
    if (last === undefined || now - last >= channel.resendIntervalMs) due.push(name);
  }
  return due;
}

/** The earliest next re-send of any channel, for the worker's sleep. */
export function nextResendAt(ctx: PassContext, now: number): number | undefined {
  let at: number | undefined;
  for (const [name, channel] of ctx.channels) {
    if (channel.resendIntervalMs === undefined) continue;
    const next = (ctx.resentAt.get(name) ?? now) + channel.resendIntervalMs;
    at = at === undefined ? next : Math.min(at, next);
  }
  return at;
}

/**
 * Posts every firing alert this channel holds, in batches. A failure ends this re-send (the next one is an interval
 * later, well before the endsAt already given); it is counted and logged, never retried here nor dead-lettered.
 */
export async function resendFiring(
  ctx: PassContext,
  name: string,
  signal: AbortSignal,
  /** Alerts this lane has just posted (first deliveries, resolves): not posted twice in a row. */
  justSent: ReadonlySet<string> = new Set(),
): Promise<void> {
  const channel = ctx.channels.get(name);
  if (!channel) return;
  ctx.resentAt.set(name, ctx.now());
  let after = '';
  for (let batch = 0; batch < MAX_BATCHES && !signal.aborted; batch++) {
    const page = ctx.outbox.firing.delivered(name, after, RESEND_BATCH);
    const last = page.at(-1);
    if (!last) return;
    after = last.key;
    const alerts = page.filter((a) => !justSent.has(a.key));
    if (alerts.length === 0) continue;
    const limit = channel.sendTimeoutMs;
    // signal outlives every batch: linked, not AbortSignal.any (ledger/linked-signal.ts says why).
    const bounded = linkSignal([
      signal,
      limit === undefined ? undefined : (ctx.timeout ?? AbortSignal.timeout)(limit),
    ]);
    try {
      await channel.notifier.send({ kind: 'digest', ruleId: '', alerts }, bounded.signal);
    } catch (err) {
      ctx.metrics.notificationResends.inc({ notifier: name, outcome: 'failed' }, alerts.length);
      const reason = err instanceof NotifyError ? err.reason : 'internal';
      ctx.log.warn({ notifier: name, reason, alerts: alerts.length }, 'firing alerts not re-sent');
      return;
    } finally {
      bounded.dispose();
    }
    ctx.metrics.notificationResends.inc({ notifier: name, outcome: 'sent' }, alerts.length);
    ctx.log.debug({ notifier: name, alerts: alerts.length }, 'firing alerts re-sent');
    if (page.length < RESEND_BATCH) return;
  }
}
