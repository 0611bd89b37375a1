// Microsoft Teams through a Workflows (Power Automate) webhook: one POST of an Adaptive Card message. The Office 365
// connectors (outlook.office.com/webhook URLs, MessageCard payloads) are retired; Workflows accept Adaptive Cards
// only. Success is 2xx (Workflows answer 202 Accepted); the error body's `error.code` is kept, nothing else of it.
import { checkAnswer, httpExchange, jsonObject, safeWords } from '../http-exchange.js';
import type { Notifier } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { TeamsConfig } from './config.js';
import { teamsMessage } from './message.js';

export const teams: NotifierKind<TeamsConfig> = {
  config: TeamsConfig,
  secrets: (config) => [config.webhook_url],
  create(name, config, deps): Notifier {
    // Keyed by the URL: a 429 (Power Automate throttling) pauses every notifier posting to this workflow.
    const pacer = deps.pacers.pacer(config.webhook_url, 0);
    const what = `Teams workflow of notifier "${name}"`;
    const secrets = [config.webhook_url];
    return {
      name,
      kind: 'teams',
      async send(notification, signal) {
        const answer = await httpExchange({
          what,
          url: config.webhook_url,
          body: JSON.stringify(teamsMessage(notification, config.group_max_listed)),
          timeoutMs: config.timeout,
          signal,
          pacer,
        });
        const error = jsonObject(answer.body)?.error;
        const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
        const said = safeWords(code, secrets, 60);
        checkAnswer(what, answer, {
          now: deps.now,
          maxRetryAfterMs: config.max_retry_after,
          pacer,
          ...(said ? { said: `Teams said: ${said}` } : {}),
        });
      },
    };
  },
};
