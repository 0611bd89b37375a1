import { httpPost } from '../http-post.js';
import type { Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { WebhookConfig } from './config.js';
import { webhookBody, webhookHeaders } from './message.js';

export const webhook: NotifierKind<WebhookConfig> = {
  config: WebhookConfig,
  secrets: (config) => [config.url, config.signing_key],
  create(name, config, deps): Notifier {
    // Keyed by the URL: notifiers on one receiver share its Retry-After pause; other receivers never wait for it.
    const pacer = deps.pacers.pacer(config.url, 0);
    return {
      name,
      kind: 'webhook',
      async send(notification, signal) {
        const payload = webhookBody(notification);
        const body = JSON.stringify(payload);
        const signed = webhookHeaders(config.signing_key, deps.now(), body, payload.idempotencyKey);
        return httpPost({
          what: `webhook of notifier "${name}"`,
          url: config.url,
          body,
          headers: { ...config.headers, ...signed },
          timeoutMs: config.timeout,
          signal,
          now: deps.now,
          pacer,
          maxRetryAfterMs: config.max_retry_after,
        });
      },
    };
  },
};
