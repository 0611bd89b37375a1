// One pass of the delivery worker: due rows → unknown channels, silences and paused channels screened out →
// groups that are ready → one lane per channel → deliver() per group, in order within the lane → outcome recorded.
//
// Channels are independent: a pass starts a lane only for a channel that has none running and never waits for a
// lane itself, so a paused, slow or hanging channel (or receiver URL) holds only its own lane. Each lane sends one
// group at a time (bounded concurrency per channel, order kept), each send bounded by its own timeout.
import type { Channel } from './channels.js';
import { deliver, type DeliveryOutcome } from './deliver.js';
import { readyGroups, type DeliveryGroup } from './group.js';
import type { DeliveryRow } from './outbox.js';
import { findSilence } from './route.js';
import { screenMuted } from './mute-screen.js';
import type { PassContext } from './pass-context.js';
import { resendDue, resendFiring } from './resend.js';
import type { Screen } from './suppression.js';

/** What may end a pass early: withdrawing the claim lets the sends in flight finish, aborting does not. */
export interface PassSignals {
  /** Once aborted, no lane starts another group (and a pass that has not begun does nothing). */
  readonly claim: AbortSignal;
  /** Aborts the sends in flight: their rows stay pending and are due again at once. */
  readonly abort: AbortSignal;
}

export interface PassResult {
  /** Groups handed to lanes. */
  readonly attempted: number;
  /** Settles when the lanes this pass started have ended. */
  readonly done: Promise<void>;
}

/** Starts a lane for every channel with ready groups and no lane running. Synchronous up to the sends. */
export function deliveryPass(ctx: PassContext, ignoreGroupWait: boolean, signals: PassSignals): PassResult {
  const claiming = () => !signals.claim.aborted && !signals.abort.aborted;
  if (!claiming()) return { attempted: 0, done: Promise.resolve() };
  const now = ctx.now();
  // A paused channel's rows (new ones too) are moved to the pause's end in one statement, not sent, not counted.
  for (const pause of ctx.pauses.list())
    if (pause.until > now) ctx.outbox.postponeChannel(pause.channel, pause.until);
  // Busy and paused channels are left out in the query itself, so their backlog cannot fill the page and hide
  // the others.
  const extra = ctx.suppression?.begin(now);
  const rows = ctx.outbox
    .due(now, 500, heldChannels(ctx, now))
    .filter((row) => screen(ctx, row, now, extra))
    .map((row) => (extra ? { ...row, alert: extra.annotate(row.alert) } : row));
  const groups = readyGroups(rows, now, groupWait(ctx, ignoreGroupWait));
  const byChannel = new Map<string, DeliveryGroup[]>();
  for (const group of groups) byChannel.set(group.channel, [...(byChannel.get(group.channel) ?? []), group]);
  // Alertmanager's re-sends join their channel's lane, after its deliveries; a flush (drain) does none.
  const held = heldChannels(ctx, now);
  const resends = new Set(ignoreGroupWait ? [] : resendDue(ctx, now).filter((c) => !held.has(c)));
  for (const channel of resends) if (!byChannel.has(channel)) byChannel.set(channel, []);
  const started = [...byChannel].map(([channel, list]) =>
    startLane(ctx, channel, list, claiming, signals, resends.has(channel)),
  );
  updateDepth(ctx);
  return { attempted: groups.length, done: Promise.all(started).then(() => undefined) };
}

export function groupWait(ctx: Pick<PassContext, 'channels'>, ignore: boolean) {
  return (channel: string): number => (ignore ? 0 : (ctx.channels.get(channel)?.groupWaitMs ?? 0));
}

function startLane(
  ctx: PassContext,
  channel: string,
  list: readonly DeliveryGroup[],
  claiming: () => boolean,
  signals: PassSignals,
  resend: boolean,
): Promise<void> {
  const lane = (async () => {
    const sentKeys = new Set<string>();
    for (const group of list) {
      if (!claiming()) break;
      const outcome = await sendGroup(ctx, group, signals.abort);
      if (outcome?.kind === 'sent') for (const row of group.rows) sentKeys.add(row.alert.key);
      if (outcome?.kind !== 'retry' && outcome?.kind !== 'defer') continue;
      // The receiver asked for a pause: the rest of this lane waits for it too, without being sent.
      if (isPause(outcome)) {
        for (const rest of list.slice(list.indexOf(group) + 1))
          postpone(ctx, rest.rows, outcome.at, 'paused');
        return;
      }
    }
    if (resend && claiming()) await resendFiring(ctx, channel, signals.abort, sentKeys);
  })()
    .then(
      () => ctx.backoff?.succeeded(channel),
      (err: unknown) =>
        ctx.backoff
          ? ctx.backoff.failed(channel, err, ctx.now())
          : ctx.log.error({ err, notifier: channel }, 'delivery lane failed'),
    )
    .finally(() => {
      ctx.lanes.delete(channel);
      updateDepth(ctx);
      ctx.laneEnded();
    });
  ctx.lanes.set(channel, lane);
  return lane;
}

/** The receiver asked for a wait (a Retry-After above 0), as opposed to our own pacing or a plain backoff. */
function isPause(outcome: DeliveryOutcome): boolean {
  if (outcome.kind !== 'retry' && outcome.kind !== 'defer') return false;
  return outcome.reason !== 'paced' && (outcome.pause?.waitMs ?? 0) > 0;
}

/** Unknown channels are dead-lettered and silenced ones recorded: neither is ever dropped silently. */
function screen(ctx: PassContext, row: DeliveryRow, now: number, extra: Screen | undefined): boolean {
  const ids = [row.alert.id];
  if (!ctx.channels.has(row.channel)) {
    ctx.outbox.deadLetter(ids, row.channel, now, 'unknown notifier (removed from the config?)');
    ctx.metrics.deadLetters.inc({ notifier: row.channel });
    ctx.log.error({ notifier: row.channel, alertIds: ids }, 'notification dead-lettered: unknown notifier');
    return false;
  }
  if (!screenMuted(ctx, row, now)) return false;
  const silence = findSilence(row.alert, row.channel, ctx.silences, now);
  // Config-file silences first (they may name notifiers), then API silences, inhibition and acks.
  const held = silence ? { reason: 'silence', silence: silence.comment } : extra?.check(row.alert);
  if (!held) return true;
  ctx.outbox.markSilenced(ids, row.channel, now);
  ctx.metrics.notifications.inc({ notifier: row.channel, outcome: 'silenced', reason: held.reason });
  ctx.log.info({ notifier: row.channel, alertIds: ids, ...held }, 'notification silenced');
  return false;
}

/**
 * Channels no pass may take rows of now: those with a lane running, those a receiver has paused and those whose
 * last lane failed (backing off).
 */
export function heldChannels(
  ctx: Pick<PassContext, 'lanes' | 'pauses' | 'backoff'>,
  now: number,
): Set<string> {
  const held = new Set(ctx.lanes.keys());
  for (const pause of ctx.pauses.list()) if (pause.until > now) held.add(pause.channel);
  for (const channel of ctx.backoff?.held(now).keys() ?? []) held.add(channel);
  return held;
}

function postpone(ctx: PassContext, rows: readonly DeliveryRow[], at: number, reason: string): void {
  const first = rows[0];
  if (!first) return;
  ctx.outbox.postpone(
    rows.map((r) => r.alert.id),
    first.channel,
    at,
    reason,
  );
}

async function sendGroup(
  ctx: PassContext,
  group: DeliveryGroup,
  signal: AbortSignal,
): Promise<DeliveryOutcome | undefined> {
  const channel = ctx.channels.get(group.channel);
  if (!channel) return undefined;
  const state = {
    attempts: Math.max(...group.rows.map((r) => r.attempts)),
    newestAt: Math.max(...group.rows.map((r) => r.createdAt)),
  };
  const policy = {
    ...ctx.policy,
    deadlineMs: channel.deadlineMs,
    maxRetryAfterMs: channel.maxRetryAfterMs ?? ctx.policy.maxRetryAfterMs,
    sendTimeoutMs: channel.sendTimeoutMs ?? ctx.policy.sendTimeoutMs,
  };
  // The rows just read must be in the shared state before they go out (a fenced replica stops here).
  await ctx.durable?.();
  const outcome = await deliver(channel.notifier, group.notification, state, policy, ctx, signal);
  record(ctx, group, channel, outcome);
  await ctx.durable?.();
  return outcome;
}

function record(ctx: PassContext, group: DeliveryGroup, channel: Channel, outcome: DeliveryOutcome): void {
  const ids = group.rows.map((r) => r.alert.id);
  const now = ctx.now();
  if (outcome.kind === 'sent') {
    ctx.outbox.markSent(ids, group.channel, now);
    ctx.pauses.resumed(group.channel);
    return;
  }
  if (outcome.kind === 'dead') return ctx.outbox.deadLetter(ids, group.channel, now, outcome.reason);
  if (isPause(outcome) && outcome.pause) ctx.pauses.paused(group.channel, now, outcome.pause, outcome.reason);
  if (outcome.kind === 'defer') return postpone(ctx, group.rows, outcome.at, outcome.reason);
  // A retry: rows already past their own deadline are dead-lettered; younger ones in the digest are retried.
  const expired = group.rows.filter((r) => r.createdAt + channel.deadlineMs <= now).map((r) => r.alert.id);
  const live = ids.filter((id) => !expired.includes(id));
  if (expired.length > 0) {
    const reason = `deadline exceeded (${outcome.reason})`;
    ctx.outbox.deadLetter(expired, group.channel, now, reason);
    ctx.metrics.deadLetters.inc({ notifier: group.channel }, expired.length);
    ctx.log.error({ notifier: group.channel, alertIds: expired, reason }, 'notification dead-lettered');
  }
  if (live.length > 0) ctx.outbox.reschedule(live, group.channel, outcome.at, outcome.reason);
}

/**
 * Sets the depth gauge for every configured channel, so zero-valued series exist. The depth is every undelivered
 * row (pending in the outbox): due, waiting for its group, backing off and paused alike.
 */
export function updateDepth(ctx: Pick<PassContext, 'outbox' | 'channels' | 'metrics'>): void {
  const depth = ctx.outbox.depth();
  for (const name of new Set([...ctx.channels.keys(), ...depth.keys()]))
    ctx.metrics.outboxDepth.set({ notifier: name }, depth.get(name) ?? 0);
}
