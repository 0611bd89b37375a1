// Alert → Slack Block Kit payload (pure). Every ledger-controlled string goes through escapeMrkdwn; Slack's
// limits (50 blocks, 3,000 characters a section, 150 a header) are kept by truncating visibly.
import type { Alert, AlertRecord } from '../../rules/alert.js';
import { accountLabel, firstN, notificationSeverity, notificationTitle, recordFields } from '../format.js';
import { neutralizeText } from '../neutralize.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';
import { escapeLinkUrl, escapeMrkdwn, truncateEscaped } from './escape.js';

export const SLACK_LIMITS = { blocks: 50, section: 3000, header: 150, field: 2000, text: 3000 } as const;

export interface SlackBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface SlackPayload {
  readonly text: string;
  readonly blocks: SlackBlock[];
  readonly unfurl_links: false;
  readonly unfurl_media: false;
}

const ICON = { critical: ':red_circle:', warning: ':warning:', info: ':information_source:' } as const;

export function slackMessage(input: Notification, maxListed: number): SlackPayload {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const severity = notificationSeverity(notification);
  const title = notificationTitle(notification);
  const blocks: SlackBlock[] = [header(`${severity.toUpperCase()}: ${title}`)];
  const { shown, more } = firstN(alerts, notification.kind === 'single' ? 1 : maxListed);
  const budget = SLACK_LIMITS.blocks - 3; // header, "and N more", context
  let omitted = more;
  for (const alert of shown) {
    const next = alertBlocks(alert, notification.kind === 'digest');
    if (blocks.length + next.length > budget) {
      omitted += 1;
      continue;
    }
    blocks.push(...next);
  }
  if (omitted > 0) blocks.push(section(`_and ${omitted} more_`));
  blocks.push(context(alerts));
  const fallback = `${ICON[severity]} [${severity.toUpperCase()}] ${escapeMrkdwn(title)}`;
  return {
    text: truncateEscaped(fallback, SLACK_LIMITS.text),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  };
}

function alertBlocks(alert: Alert, inDigest: boolean): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  const lines = [inDigest ? `*${escapeMrkdwn(alert.summary)}*` : '', escapeMrkdwn(alert.description)].filter(
    Boolean,
  );
  if (lines.length) blocks.push(section(lines.join('\n')));
  const fields: [string, string][] = [
    ['Rule', escapeMrkdwn(alert.ruleId)],
    ['Status', alert.status],
  ];
  const account = accountLabel(alert);
  if (account) fields.push(['Account', escapeMrkdwn(account)]);
  const record = alert.records[0];
  if (record) fields.push(...recordMrkdwn(record));
  blocks.push({ type: 'section', fields: fields.slice(0, 10).map(([k, v]) => field(k, v)) });
  if (record?.memo) blocks.push(section(`*Memo:* ${escapeMrkdwn(record.memo)}`));
  return blocks;
}

function recordMrkdwn(record: AlertRecord): [string, string][] {
  return recordFields(record).map(([label, value]): [string, string] => {
    if (label === 'Transaction' && record.explorerUrl)
      return [label, `<${escapeLinkUrl(record.explorerUrl)}|${escapeMrkdwn(value)}>`];
    return [label, escapeMrkdwn(value)];
  });
}

function header(text: string): SlackBlock {
  const escaped = truncateEscaped(escapeMrkdwn(text), SLACK_LIMITS.header, '…');
  return { type: 'header', text: { type: 'plain_text', text: escaped, emoji: true } };
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncateEscaped(text, SLACK_LIMITS.section) } };
}

function field(label: string, value: string) {
  return { type: 'mrkdwn', text: truncateEscaped(`*${label}:* ${value}`, SLACK_LIMITS.field) };
}

function context(alerts: readonly Alert[]): SlackBlock {
  const ids = alerts.map((a) => a.id);
  const text = `alert ${escapeMrkdwn(neutralizeText(ids.slice(0, 3).join(', ')))}${ids.length > 3 ? ` (+${ids.length - 3})` : ''}`;
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncateEscaped(text, SLACK_LIMITS.field) }] };
}
