// PagerDuty Events API v2 (`POST /v2/enqueue`). One event per alert, sent in order; a retry of a notification
// sends only the events PagerDuty has not accepted yet (accepted-memory.ts), and after a restart a repeat is
// harmless thanks to the dedup_key (a second trigger adds a log entry to the open alert, a second resolve is
// dropped). Classified as PagerDuty documents it: 202 accepted; 400 an invalid event (permanent: the config or the
// event is wrong and retrying cannot help; PagerDuty's `errors` are shown); 429 rate limited (the integration key's
// ~120 events a minute: retried after Retry-After, or 30 s as PagerDuty advises, and the key is paused for every
// notifier using it); 5xx and network errors retried with backoff.
import { httpPost } from '../http-post.js';
import type { Notifier } from '../notifier.js';
import { createAcceptedMemory } from '../accepted-memory.js';
import type { NotifierKind } from '../notifier-kind.js';
import { PagerdutyConfig } from './config.js';
import { pagerdutyEvent } from './message.js';

/** PagerDuty's advice after a 429 without Retry-After: try again about 30 s later. */
const RATE_LIMIT_PAUSE_MS = 30_000;

export const pagerduty: NotifierKind<PagerdutyConfig> = {
  config: PagerdutyConfig,
  secrets: (config) => [config.routing_key],
  create(name, config, deps): Notifier {
    // PagerDuty rate-limits per integration key: notifiers sharing one share its pace and its 429 pauses.
    const pacer = deps.pacers.pacer(`pagerduty:${config.routing_key}`, config.min_interval);
    const secrets = [config.routing_key];
    const accepted = createAcceptedMemory();
    return {
      name,
      kind: 'pagerduty',
      send(notification, signal) {
        return accepted.sendEach(notification, (alert) => {
          const event = pagerdutyEvent(alert, config);
          return httpPost({
            what: `PagerDuty (Events API v2) of notifier "${name}"`,
            url: config.url,
            body: JSON.stringify({ routing_key: config.routing_key, ...event }),
            headers: { accept: 'application/json' },
            timeoutMs: config.timeout,
            signal,
            now: deps.now,
            pacer,
            maxRetryAfterMs: config.max_retry_after,
            defaultRetryAfterMs: RATE_LIMIT_PAUSE_MS,
            explain: pagerdutyErrors,
            hint: pagerdutyHint,
            secrets,
          });
        });
      },
    };
  },
};

function pagerdutyHint(status: number): string | undefined {
  if (status === 400)
    return 'PagerDuty does not retry an invalid event: check routing_key (the Integration Key of an Events API v2 integration, 32 characters) and the notifier keys';
  if (status === 404) return 'check url: the Events API v2 endpoint ends in /v2/enqueue';
  return undefined;
}

/** PagerDuty's error body: `{"status": "invalid event", "message": "Event object is invalid", "errors": [...]}`. */
export function pagerdutyErrors(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { message, errors } = parsed as { message?: unknown; errors?: unknown };
  const list = Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [];
  const parts = [typeof message === 'string' ? message : undefined, ...list.slice(0, 5)].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : undefined;
}
