import { httpPost } from '../http-post.js';
import type { Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { AlertmanagerConfig } from './config.js';
import { alertmanagerAlerts } from './message.js';

export const alertmanager: NotifierKind<AlertmanagerConfig> = {
  config: AlertmanagerConfig,
  secrets: (config) => [config.url, ...(config.bearer_token ? [config.bearer_token] : [])],
  create(name, config, deps): Notifier {
    const url = `${config.url.replace(/\/+$/, '')}/api/v2/alerts`;
    // Keyed by the URL: notifiers on one receiver share its Retry-After pause; other receivers never wait for it.
    const pacer = deps.pacers.pacer(url, 0);
    const auth: Record<string, string> = config.bearer_token
      ? { authorization: `Bearer ${config.bearer_token}` }
      : {};
    return {
      name,
      kind: 'alertmanager',
      async send(notification, signal) {
        const now = deps.now();
        // Four intervals: three re-sends may fail or be late before Alertmanager ends it (as Prometheus does).
        const firingEndsAt = new Date(now + 4 * config.resend_interval).toISOString();
        const postables = alertmanagerAlerts(
          notification,
          new Date(now).toISOString(),
          config.generator_url,
          firingEndsAt,
        );
        return httpPost({
          what: `Alertmanager of notifier "${name}"`,
          url,
          body: JSON.stringify(postables),
          headers: auth,
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
