// Slack as an app (beside the incoming-webhook kind `slack`): chat.postMessage for a firing alert, its ts kept in
// the state store (thread-store.ts); the resolve threaded under that message (thread_ts) and the message updated
// in place to show it resolved (chat.update). Idempotent across a crash: a firing alert already recorded as
// posted is not posted again, a resolve already threaded is not threaded again (the outbox may hand either
// over once more after a kill: docs/notifiers.md, "Delivery guarantees").
import type { Alert } from '../../rules/alert/alert.js';
import { isResolvedNotification } from '../format.js';
import { NotifyError, notificationAlerts, type Notification, type Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { UNEDITABLE } from './classify.js';
import { SlackAppConfig } from './config.js';
import { slackAppMessage, slackAppUpdate } from './message.js';
import { createSlackApi, type SlackApi } from './slack-api.js';
import { createSlackThreadStore, type SlackThread, type SlackThreadStore } from './thread-store.js';
import type { Logger } from '../../observability/logger.js';

export const slackApp: NotifierKind<SlackAppConfig> = {
  config: SlackAppConfig,
  secrets: (config) => [config.bot_token],
  create(name, config, deps): Notifier {
    const what = `Slack app of notifier "${name}"`;
    const ctx: Context = {
      config,
      threads: createSlackThreadStore(name, deps.now, deps.store),
      logger: deps.logger.child({ notifier: name }),
      api: createSlackApi({
        token: config.bot_token,
        apiUrl: config.api_url,
        timeoutMs: config.timeout,
        what,
        now: deps.now,
        maxRetryAfterMs: config.max_retry_after,
        // Slack's posting limit is per channel: notifiers of one app posting to one channel share the pace.
        pacer: deps.pacers.pacer(`slack-app:${config.bot_token}:${config.channel}`, config.min_interval),
      }),
    };
    return {
      name,
      kind: 'slack-app',
      send: (notification, signal) =>
        isResolvedNotification(notification)
          ? sendResolve(ctx, notification, signal)
          : sendFiring(ctx, notification, signal),
    };
  },
};

interface Context {
  readonly config: SlackAppConfig;
  readonly threads: SlackThreadStore;
  readonly api: SlackApi;
  readonly logger: Logger;
}

function options(ctx: Context, channel: string, threadTs?: string) {
  const { config } = ctx;
  return {
    channel,
    maxListed: config.group_max_listed,
    broadcast: config.broadcast_resolve,
    ...(threadTs ? { threadTs } : {}),
    ...(config.username ? { username: config.username } : {}),
    ...(config.icon_emoji ? { iconEmoji: config.icon_emoji } : {}),
  };
}

async function sendFiring(ctx: Context, notification: Notification, signal: AbortSignal): Promise<void> {
  const alerts = notificationAlerts(notification);
  const known = alerts.map((a) => ctx.threads.get(a.key));
  // Posted before a crash kept the outbox from recording it: posting again would make a second message.
  if (alerts.every((a, i) => known[i]?.alertId === a.id)) return;
  // Reminders of episodes whose one message is still open go into that message's thread.
  const open = openThread(alerts, known);
  if (open) {
    await ctx.api.post(slackAppMessage(notification, options(ctx, open.channel, open.ts)), signal);
    return;
  }
  const posted = await ctx.api.post(slackAppMessage(notification, options(ctx, ctx.config.channel)), signal);
  await ctx.threads.posted(
    alerts.map((a) => ({ key: a.key, startsAt: a.startsAt, id: a.id })),
    posted.channel,
    posted.ts,
  );
}

async function sendResolve(ctx: Context, notification: Notification, signal: AbortSignal): Promise<void> {
  const groups = new Map<string, { thread: SlackThread; alerts: Alert[] }>();
  const loose: Alert[] = [];
  for (const alert of notificationAlerts(notification)) {
    const thread = ctx.threads.get(alert.key);
    if (!thread || !sameEpisode(thread, alert)) loose.push(alert);
    else {
      const id = `${thread.channel} ${thread.ts}`;
      const group = groups.get(id) ?? { thread, alerts: [] };
      group.alerts.push(alert);
      groups.set(id, group);
    }
  }
  for (const { thread, alerts } of groups.values()) {
    const pending = alerts.filter((a) => ctx.threads.get(a.key)?.resolvedId !== a.id);
    if (pending.length) {
      const reply = slackAppMessage(
        asNotification(notification, pending),
        options(ctx, thread.channel, thread.ts),
      );
      await ctx.api.post(reply, signal);
      await ctx.threads.replied(pending.map((a) => ({ key: a.key, id: a.id })));
    }
    if (ctx.config.update_on_resolve && !ctx.threads.get(thread.key)?.updated)
      await updateParent(ctx, asNotification(notification, alerts), thread, signal);
  }
  // No message to thread under (posted before this notifier existed, or pruned): the resolve stands alone.
  if (loose.length)
    await ctx.api.post(
      slackAppMessage(asNotification(notification, loose), options(ctx, ctx.config.channel)),
      signal,
    );
}

/** Edits the firing message to show it resolved, once every alert it announced has resolved. */
async function updateParent(ctx: Context, resolves: Notification, thread: SlackThread, signal: AbortSignal) {
  if (ctx.threads.openUnder(thread.channel, thread.ts) > 0) return;
  const update = slackAppUpdate(resolves, thread.channel, thread.ts, ctx.config.group_max_listed);
  try {
    await ctx.api.update(update, signal);
  } catch (err) {
    // Deleted, too old to edit, or not ours: the thread reply already says it resolved.
    if (!(err instanceof NotifyError) || !UNEDITABLE.has(err.reason.replace(/^slack_/, ''))) throw err;
    ctx.logger.warn({ reason: err.reason }, 'slack message not updated to resolved');
  }
  await ctx.threads.updated(thread.channel, thread.ts);
}

/** The one open message of the same episodes that every alert of the notification was announced in, if any. */
function openThread(alerts: readonly Alert[], known: readonly (SlackThread | undefined)[]) {
  const first = known[0];
  if (!first) return undefined;
  const all = alerts.every((a, i) => {
    const t = known[i];
    return t && sameEpisode(t, a) && !t.resolvedId && t.channel === first.channel && t.ts === first.ts;
  });
  return all ? first : undefined;
}

function sameEpisode(thread: SlackThread, alert: Alert): boolean {
  return thread.startsAt === alert.startsAt;
}

function asNotification(original: Notification, alerts: readonly Alert[]): Notification {
  if (alerts.length === 1 && alerts[0]) return { kind: 'single', alert: alerts[0] };
  const ruleId = original.kind === 'digest' ? original.ruleId : (alerts[0]?.ruleId ?? '');
  return { kind: 'digest', ruleId, alerts };
}
