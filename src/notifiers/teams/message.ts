// Alert → the payload of a Teams Workflows webhook ("post to a channel when a webhook request is received"): a
// message whose one attachment is an Adaptive Card 1.4 (pure). Every ledger-controlled string is escaped for the
// card's Markdown (escape.ts); the card stays under Teams' ~28 KB message limit by listing fewer alerts.
import type { Alert } from '../../rules/alert/alert.js';
import {
  accountLabel,
  contextLine,
  explanationFields,
  firstN,
  isResolvedNotification,
  notificationSeverity,
  notificationTitle,
  recordFields,
  triggerRecord,
} from '../format.js';
import { idempotencyKey } from '../identity.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';
import { escapeTeams, teamsUrl } from './escape.js';

/** Bytes of card JSON; Teams refuses messages over about 28 KB. */
export const TEAMS_CARD_MAX_BYTES = 24_000;

export interface CardElement {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface TeamsPayload {
  readonly type: 'message';
  readonly attachments: [
    {
      readonly contentType: 'application/vnd.microsoft.card.adaptive';
      readonly contentUrl: null;
      readonly content: {
        readonly $schema: string;
        readonly type: 'AdaptiveCard';
        readonly version: '1.4';
        readonly body: CardElement[];
        readonly actions?: CardElement[];
        readonly msteams: { readonly width: 'Full' };
      };
    },
  ];
}

/** Container styles: the coloured band of the header. */
const STYLE = { resolved: 'good', critical: 'attention', warning: 'warning', info: 'accent' } as const;

export function teamsMessage(input: Notification, maxListed: number): TeamsPayload {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const severity = notificationSeverity(notification);
  const resolved = isResolvedNotification(notification);
  const status = resolved ? 'RESOLVED' : severity.toUpperCase();
  const body: CardElement[] = [
    header(`${status}: ${notificationTitle(notification)}`, STYLE[resolved ? 'resolved' : severity]),
  ];
  const digest = notification.kind === 'digest';
  const { shown, more } = firstN(alerts, digest ? maxListed : 1);
  let omitted = more;
  for (const alert of shown) {
    const next = alertElements(alert, digest);
    if (byteSize(body) + byteSize(next) > TEAMS_CARD_MAX_BYTES - 2000) omitted += 1;
    else body.push(...next);
  }
  if (omitted > 0) body.push(text(`_and ${omitted} more_`));
  const first = alerts[0];
  const ref = idempotencyKey(input).slice(0, 12);
  body.push(
    text(`${escapeTeams(first ? contextLine(first) : '')} · ref ${ref}`, { isSubtle: true, size: 'Small' }),
  );
  const link = teamsUrl(first && triggerRecord(first)?.explorerUrl);
  return card(body, link ? [{ type: 'Action.OpenUrl', title: 'Open in explorer', url: link }] : []);
}

function card(body: CardElement[], actions: CardElement[]): TeamsPayload {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(actions.length ? { actions } : {}),
          msteams: { width: 'Full' },
        },
      },
    ],
  };
}

function alertElements(alert: Alert, inDigest: boolean): CardElement[] {
  const out: CardElement[] = [];
  if (inDigest) out.push(text(`**${escapeTeams(alert.summary)}**`, { separator: true }));
  if (alert.description) out.push(text(escapeTeams(alert.description)));
  const facts: [string, string][] = [
    ['Rule', alert.ruleId],
    ['Status', alert.status],
    ['Severity', alert.severity],
  ];
  const account = accountLabel(alert);
  if (account) facts.push(['Account', account]);
  const record = triggerRecord(alert);
  if (record) facts.push(...recordFields(record));
  facts.push(...explanationFields(alert));
  out.push({
    type: 'FactSet',
    facts: facts
      .slice(0, 16)
      .map(([title, value]) => ({ title: escapeTeams(title), value: escapeTeams(value) })),
  });
  if (record?.memo) out.push(text(`**Memo:** ${escapeTeams(record.memo)}`));
  return out;
}

function header(title: string, style: string): CardElement {
  return {
    type: 'Container',
    style,
    bleed: true,
    items: [text(escapeTeams(title), { size: 'Large', weight: 'Bolder' })],
  };
}

function text(markdown: string, extra: Record<string, unknown> = {}): CardElement {
  return { type: 'TextBlock', text: markdown, wrap: true, ...extra };
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
