// Slack incoming webhooks via @slack/webhook. The library's own retries stay off (deliver.ts retries); a
// wrapping fetch captures the status and Retry-After the library does not expose, and adds our abort signal.
import { IncomingWebhook, IncomingWebhookHTTPError, type FetchFunction } from '@slack/webhook';
import { linkSignal } from '../../ledger/linked-signal.js';
import { checkHttpStatus, networkError } from '../http-status.js';
import { NotifyError, type Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { SlackConfig } from './config.js';
import { slackMessage } from './message.js';

export const slack: NotifierKind<SlackConfig> = {
  config: SlackConfig,
  secrets: (config) => [config.webhook_url],
  create(name, config, deps): Notifier {
    // Keyed by the webhook, not the notifier: Slack's limit is per webhook, whoever sends to it.
    const pacer = deps.pacers.pacer(config.webhook_url, config.min_interval);
    const what = `Slack webhook of notifier "${name}"`;
    return {
      name,
      kind: 'slack',
      async send(notification, signal) {
        await pacer.wait(signal);
        let response: Awaited<ReturnType<FetchFunction>> | undefined;
        // redirect: 'manual', so a 3xx is an answer we can name (the library's 'error' makes it a bare network
        // failure), and the message is never carried to the redirect's origin.
        const fetchWithSignal: FetchFunction = async (url, init) => {
          // Linked, not AbortSignal.any, and unlinked after the exchange (ledger/linked-signal.ts says why).
          const link = linkSignal([signal, init?.signal ?? undefined]);
          try {
            response = await fetch(url, { ...init, redirect: 'manual', signal: link.signal });
            return response;
          } finally {
            link.dispose();
          }
        };
        const hook = new IncomingWebhook(config.webhook_url, {
          fetch: fetchWithSignal,
          timeout: config.timeout,
          ...(config.username ? { username: config.username } : {}),
          ...(config.icon_emoji ? { icon_emoji: config.icon_emoji } : {}),
        });
        try {
          await hook.send(slackMessage(notification, config.group_max_listed));
        } catch (err) {
          if (!(err instanceof IncomingWebhookHTTPError) || !response) throw networkError(what, err);
          const retryAfter = response.headers.get('retry-after');
          try {
            checkHttpStatus(what, err.statusCode, retryAfter, deps.now(), config.max_retry_after);
          } catch (classified) {
            if (classified instanceof NotifyError && classified.retryAfterMs)
              pacer.pause(classified.retryAfterMs, classified.askedRetryAfterMs);
            throw withSlackCode(classified, slackErrorCode(err.body));
          }
        }
      },
    };
  },
};

/** Slack answers errors with a short code (`invalid_payload`, `no_service`); anything else is not echoed. */
function slackErrorCode(body: string): string | undefined {
  const text = body ?? '';
  return /^[a-z_]{1,40}$/.test(text.trim()) ? text.trim() : undefined;
}

function withSlackCode(err: unknown, code: string | undefined): unknown {
  if (!(err instanceof NotifyError) || !code) return err;
  return new NotifyError(`${err.message} (Slack said: ${code})`, err);
}
