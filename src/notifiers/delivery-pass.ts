// One pass of the delivery worker: due rows → unknown channels and silences screened out → groups that are
// ready → deliver() per group (channels in parallel, groups of one channel in order) → outcome recorded.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Channel } from './channels.js';
import { deliver, type RetryPolicy } from './deliver.js';
import { readyGroups, type DeliveryGroup } from './group.js';
import type { DeliveryRow, Outbox } from './outbox.js';
import { findSilence } from './route.js';
import type { Silence } from './schema.js';

export interface PassContext {
  readonly outbox: Outbox;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly silences: readonly Silence[];
  readonly policy: Omit<RetryPolicy, 'deadlineMs'>;
  readonly now: () => number;
  readonly random: () => number;
  readonly logger: Logger;
  readonly log: Logger;
  readonly metrics: Pick<Metrics, 'notifications' | 'deliveryLatency' | 'deadLetters' | 'outboxDepth'>;
}

/** What may end a pass early: withdrawing the claim lets the sends in flight finish, aborting does not. */
export interface PassSignals {
  /** Once aborted, the pass starts no further group (and a pass that has not begun does nothing). */
  readonly claim: AbortSignal;
  /** Aborts the sends in flight: their rows stay pending and are due again at once. */
  readonly abort: AbortSignal;
}

/** Sends every ready group once; resolves with the number of groups attempted. */
export async function deliveryPass(
  ctx: PassContext,
  ignoreGroupWait: boolean,
  signals: PassSignals,
): Promise<number> {
  const claiming = () => !signals.claim.aborted && !signals.abort.aborted;
  if (!claiming()) return 0;
  const now = ctx.now();
  const rows = ctx.outbox.due(now).filter((row) => screen(ctx, row, now));
  const groups = readyGroups(rows, now, groupWait(ctx, ignoreGroupWait));
  const byChannel = new Map<string, DeliveryGroup[]>();
  for (const group of groups) byChannel.set(group.channel, [...(byChannel.get(group.channel) ?? []), group]);
  await Promise.all(
    [...byChannel.values()].map(async (list) => {
      for (const group of list) if (claiming()) await sendGroup(ctx, group, signals.abort);
    }),
  );
  updateDepth(ctx);
  return groups.length;
}

export function groupWait(ctx: Pick<PassContext, 'channels'>, ignore: boolean) {
  return (channel: string): number => (ignore ? 0 : (ctx.channels.get(channel)?.groupWaitMs ?? 0));
}

/** Unknown channels are dead-lettered and silenced ones recorded: neither is ever dropped silently. */
function screen(ctx: PassContext, row: DeliveryRow, now: number): boolean {
  const ids = [row.alert.id];
  if (!ctx.channels.has(row.channel)) {
    ctx.outbox.deadLetter(ids, row.channel, now, 'unknown notifier (removed from the config?)');
    ctx.metrics.deadLetters.inc({ notifier: row.channel });
    ctx.log.error({ notifier: row.channel, alertIds: ids }, 'notification dead-lettered: unknown notifier');
    return false;
  }
  const silence = findSilence(row.alert, row.channel, ctx.silences, now);
  if (!silence) return true;
  ctx.outbox.markSilenced(ids, row.channel, now);
  ctx.metrics.notifications.inc({ notifier: row.channel, outcome: 'silenced', reason: 'silence' });
  ctx.log.info({ notifier: row.channel, alertIds: ids, silence: silence.comment }, 'notification silenced');
  return false;
}

async function sendGroup(ctx: PassContext, group: DeliveryGroup, signal: AbortSignal): Promise<void> {
  const channel = ctx.channels.get(group.channel);
  if (!channel) return;
  const state = {
    attempts: Math.max(...group.rows.map((r) => r.attempts)),
    firstAt: Math.min(...group.rows.map((r) => r.createdAt)),
  };
  const policy = { ...ctx.policy, deadlineMs: channel.deadlineMs };
  const outcome = await deliver(channel.notifier, group.notification, state, policy, ctx, signal);
  const ids = group.rows.map((r) => r.alert.id);
  if (outcome.kind === 'sent') ctx.outbox.markSent(ids, group.channel, ctx.now());
  else if (outcome.kind === 'retry') ctx.outbox.reschedule(ids, group.channel, outcome.at, outcome.reason);
  else ctx.outbox.deadLetter(ids, group.channel, ctx.now(), outcome.reason);
}

/** Sets the depth gauge for every configured channel, so zero-valued series exist. */
function updateDepth(ctx: PassContext): void {
  const depth = ctx.outbox.depth();
  for (const name of new Set([...ctx.channels.keys(), ...depth.keys()]))
    ctx.metrics.outboxDepth.set({ notifier: name }, depth.get(name) ?? 0);
}
