// Alert → chat.postMessage / chat.update arguments (pure): the same Block Kit message as the incoming-webhook
// kind (slack/message.ts, escaping and limits included), addressed to a channel, and threaded for a resolve.
import type { Notification } from '../notifier.js';
import { slackMessage, type SlackPayload } from '../slack/message.js';

export interface SlackAppPost extends Omit<SlackPayload, 'unfurl_links' | 'unfurl_media'> {
  readonly channel: string;
  readonly unfurl_links: false;
  readonly unfurl_media: false;
  readonly thread_ts?: string;
  readonly reply_broadcast?: boolean;
  readonly username?: string;
  readonly icon_emoji?: string;
}

export interface SlackAppOptions {
  readonly channel: string;
  readonly maxListed: number;
  readonly threadTs?: string;
  readonly broadcast?: boolean;
  readonly username?: string;
  readonly iconEmoji?: string;
}

export function slackAppMessage(notification: Notification, options: SlackAppOptions): SlackAppPost {
  return {
    ...slackMessage(notification, options.maxListed),
    channel: options.channel,
    ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
    ...(options.threadTs && options.broadcast ? { reply_broadcast: true } : {}),
    ...(options.username ? { username: options.username } : {}),
    ...(options.iconEmoji ? { icon_emoji: options.iconEmoji } : {}),
  };
}

/** chat.update of the firing message: the resolve's rendering (green, "RESOLVED: …") in place of the firing one. */
export function slackAppUpdate(notification: Notification, channel: string, ts: string, maxListed: number) {
  const { text, blocks, attachments } = slackMessage(notification, maxListed);
  return { channel, ts, text, blocks, attachments };
}
