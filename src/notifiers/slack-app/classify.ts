// Slack Web API failures → NotifyError. Slack answers HTTP 200 with `ok:false` and an error code for most
// failures, 429 with Retry-After when rate limited. Codes that only a config change can fix (channel_not_found,
// is_archived, not_in_channel, invalid_auth, …) are permanent: shown once (dead-lettered with the advice), never
// retried forever; ratelimited and Slack's own failures are retried. Only the error code is ever shown.
import {
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';
import { checkHttpStatus, networkError } from '../http-status.js';
import { NotifyError } from '../notifier.js';

/** What each permanent code means for the config and what to change. */
const PERMANENT: Record<string, string> = {
  channel_not_found:
    'no such channel, or the bot cannot see it (check channel; invite the app to a private channel)',
  is_archived: 'the channel is archived (unarchive it or set another channel)',
  not_in_channel: 'the bot is not a member of the channel (invite the app: /invite @app)',
  invalid_auth: 'the bot token was refused (check bot_token)',
  not_authed: 'no bot token was sent (check bot_token)',
  account_inactive:
    'the token belongs to a deleted user or an uninstalled app (reinstall the app, set the new bot_token)',
  token_revoked: 'the bot token was revoked (reinstall the app, set the new bot_token)',
  token_expired: 'the bot token expired (turn off token rotation or set a fresh bot_token)',
  missing_scope: 'the token lacks the chat:write scope (add it and reinstall the app)',
  restricted_action: 'a workspace setting forbids the bot to post in this channel',
  ekm_access_denied: 'Enterprise Key Management revoked access',
  team_access_not_granted: 'the token has no access to this workspace',
  msg_too_long: 'the message was too long (lower group_max_listed)',
  invalid_blocks: 'Slack refused the message blocks (report this as a bug)',
  no_text: 'the message had no text (report this as a bug)',
};

/** Slack-side failures worth another attempt. */
const RETRYABLE = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/** Codes of chat.update meaning the message cannot be edited any more: the thread reply stands on its own. */
export const UNEDITABLE = new Set(['message_not_found', 'cant_update_message', 'edit_window_closed']);

export interface ClassifyOptions {
  readonly what: string;
  readonly now: number;
  readonly maxRetryAfterMs: number;
  /** The HTTP answer seen by the transport, for the cases the library reports without one. */
  readonly status?: number;
  readonly retryAfter?: string | null;
}

export function slackApiCode(err: unknown): string | undefined {
  if (!(err instanceof WebAPIPlatformError)) return undefined;
  const code = err.data.error;
  return typeof code === 'string' && /^[a-z_]{1,60}$/.test(code) ? code : 'unknown_error';
}

export function classifySlackError(err: unknown, options: ClassifyOptions): NotifyError {
  const { what } = options;
  if (err instanceof WebAPIRateLimitedError) return rateLimited(what, err.retryAfter * 1000, options);
  const code = slackApiCode(err);
  if (code !== undefined) {
    if (code === 'ratelimited') return rateLimited(what, undefined, options);
    const retryable = RETRYABLE.has(code);
    const advice =
      PERMANENT[code] ?? (retryable ? 'Slack failed; will retry with backoff' : 'check the notifier config');
    return new NotifyError(
      `${what}: Slack said ${code}: ${advice} (${retryable ? 'will retry' : 'permanent'})`,
      {
        retryable,
        reason: `slack_${code}`.slice(0, 40),
      },
    );
  }
  // A non-200 answer the library reports without its own error class (a 429 without a readable Retry-After).
  const seen = options.status !== undefined && options.status !== 200 ? options.status : undefined;
  const status = err instanceof WebAPIHTTPError ? err.statusCode : seen;
  if (status !== undefined) {
    try {
      checkHttpStatus(what, status, options.retryAfter, options.now, options.maxRetryAfterMs);
    } catch (classified) {
      if (classified instanceof NotifyError) return classified;
    }
  }
  return networkError(what, err instanceof WebAPIRequestError ? err.original : err);
}

function rateLimited(what: string, askedMs: number | undefined, options: ClassifyOptions): NotifyError {
  const capped = askedMs === undefined ? undefined : Math.min(askedMs, options.maxRetryAfterMs);
  return new NotifyError(
    `${what}: Slack rate limited the app; the alert is retried after the Retry-After (capped by max_retry_after)`,
    {
      retryable: true,
      reason: 'http_429',
      ...(capped === undefined ? {} : { retryAfterMs: capped, askedRetryAfterMs: askedMs }),
    },
  );
}
