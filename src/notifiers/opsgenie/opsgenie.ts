// Opsgenie Alert API v2. One request per alert, in order: create (alias = the alert key) or close by alias; a retry
// sends only the requests Opsgenie has not accepted yet (accepted-memory.ts). Opsgenie
// answers 202 and processes asynchronously, so an accepted request is what we can know. Classified as Opsgenie
// documents it: 400 (bad JSON), 401 (key invalid or integration disabled), 402, 403 (key lacks the right), 404,
// 422 (semantic error in the body) are permanent, with Opsgenie's `message` shown; 429 and 5xx are retried with
// backoff (Retry-After when given), and the API key is paused for every notifier using it. A retried create with
// the same alias is folded into the open alert by Opsgenie; a repeated close of a closed alert changes nothing.
import { httpPost } from '../http-post.js';
import type { Notifier } from '../notifier.js';
import { createAcceptedMemory } from '../accepted-memory.js';
import type { NotifierKind } from '../notifier-kind.js';
import { OpsgenieConfig } from './config.js';
import { opsgenieRequest } from './message.js';

export const opsgenie: NotifierKind<OpsgenieConfig> = {
  config: OpsgenieConfig,
  secrets: (config) => [config.api_key],
  create(name, config, deps): Notifier {
    const pacer = deps.pacers.pacer(`opsgenie:${config.api_key}`, config.min_interval);
    const secrets = [config.api_key];
    const accepted = createAcceptedMemory();
    return {
      name,
      kind: 'opsgenie',
      send(notification, signal) {
        return accepted.sendEach(notification, (alert) => {
          const { path, body } = opsgenieRequest(alert, config);
          return httpPost({
            what: `Opsgenie of notifier "${name}"`,
            url: `${config.api_url}${path}`,
            body: JSON.stringify(body),
            headers: { authorization: `GenieKey ${config.api_key}`, accept: 'application/json' },
            timeoutMs: config.timeout,
            signal,
            now: deps.now,
            pacer,
            maxRetryAfterMs: config.max_retry_after,
            explain: opsgenieMessage,
            hint: opsgenieHint,
            secrets,
          });
        });
      },
    };
  },
};

const HINTS: Record<number, string> = {
  401: 'check api_key (the key of an Opsgenie API integration, which must be enabled) and api_url (US or EU)',
  402: 'the Opsgenie plan does not allow this request',
  403: 'the API integration lacks the right: allow it to create and close alerts',
  404: 'check api_url: the base URL without a path (https://api.opsgenie.com, or https://api.eu.opsgenie.com)',
  422: 'Opsgenie refused a field named above: check responders, tags and details in the notifier config',
};

function opsgenieHint(status: number): string | undefined {
  return HINTS[status];
}

/** Opsgenie's error body: `{"message": "Key format is not valid!", "took": 0.001, "requestId": "…"}`. */
export function opsgenieMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { message, errors, requestId } = parsed as {
    message?: unknown;
    errors?: unknown;
    requestId?: unknown;
  };
  const fieldErrors =
    errors && typeof errors === 'object'
      ? Object.entries(errors as Record<string, unknown>)
          .slice(0, 5)
          .map(([field, text]) => `${field}: ${String(text)}`)
      : [];
  const parts = [typeof message === 'string' ? message : undefined, ...fieldErrors];
  if (typeof requestId === 'string') parts.push(`request id ${requestId}`);
  const said = parts.filter(Boolean).join('; ');
  return said || undefined;
}
