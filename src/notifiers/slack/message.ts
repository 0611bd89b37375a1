// Alert → Slack Block Kit payload (pure). Every ledger-controlled string is escaped for its text object: mrkdwn
// through escapeMrkdwn, the plain_text header through plainText; Slack's
// limits (50 blocks, 3,000 characters a section, 150 a header) are kept by truncating visibly.
import type { Alert, AlertRecord } from '../../rules/alert/alert.js';
import {
  accountLabel,
  contextLine,
  explanationFields,
  firstN,
  isResolvedNotification,
  notificationSeverity,
  notificationTitle,
  otherRecords,
  formatConsensusTime,
  recordFields,
  triggerRecord,
} from '../format.js';
import { idempotencyKey } from '../identity.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';
import { escapeLinkUrl, escapeMrkdwn, plainText, truncateEscaped } from './escape.js';

export const SLACK_LIMITS = { blocks: 50, section: 3000, header: 150, field: 2000, text: 3000 } as const;

export interface SlackBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface SlackAttachment {
  readonly color: string;
  readonly blocks: SlackBlock[];
}

export interface SlackPayload {
  readonly text: string;
  readonly blocks: SlackBlock[];
  /** One coloured bar with why it fired / what resolved it: green for resolves, by severity when firing. */
  readonly attachments: SlackAttachment[];
  readonly unfurl_links: false;
  readonly unfurl_media: false;
}

const ICON = { critical: ':red_circle:', warning: ':warning:', info: ':information_source:' } as const;
export const SLACK_COLORS = {
  resolved: '#2eb886',
  critical: '#d00000',
  warning: '#daa038',
  info: '#439fe0',
} as const;
/** Other records of a window listed under the trigger. */
const OTHERS_LISTED = 5;

export function slackMessage(input: Notification, maxListed: number): SlackPayload {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const severity = notificationSeverity(notification);
  const title = notificationTitle(notification);
  const resolved = isResolvedNotification(notification);
  const status = resolved ? 'RESOLVED' : severity.toUpperCase();
  const blocks: SlackBlock[] = [header(`${status}: ${title}`)];
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
  // The reference is computed from the alerts as stored: a resend of the same alerts carries the same one.
  blocks.push(context(alerts, idempotencyKey(input).slice(0, 12)));
  const fallback = resolved
    ? `RESOLVED: ${escapeMrkdwn(title)}`
    : `${ICON[severity]} [${status}] ${escapeMrkdwn(title)}`;
  const color = resolved ? SLACK_COLORS.resolved : SLACK_COLORS[severity];
  return {
    text: truncateEscaped(fallback, SLACK_LIMITS.text),
    blocks,
    attachments: [{ color, blocks: [section(explanation(alerts))] }],
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
  if (account) fields.push(['Account', link(alert.accountUrl, account)]);
  const record = triggerRecord(alert);
  if (record) fields.push(...recordMrkdwn(record));
  blocks.push({ type: 'section', fields: fields.slice(0, 10).map(([k, v]) => field(k, v)) });
  const explained = explanationFields(alert).map(([k, v]) => `*${k}:* ${escapeMrkdwn(v)}`);
  // A single alert's explanation is the coloured bar (attachments); a digest shows each alert's here.
  if (inDigest && explained.length) blocks.push(section(explained.join('\n')));
  if (record?.memo) blocks.push(section(`*Memo:* ${escapeMrkdwn(record.memo)}`));
  const others = otherRecords(alert);
  if (others.length) blocks.push(section(othersText(others)));
  return blocks;
}

/** The other records of a window, newest first, each linked when the explorer serves the network. */
function othersText(others: readonly AlertRecord[]): string {
  const { shown, more } = firstN([...others].reverse(), OTHERS_LISTED);
  const lines = shown.map((r) => {
    const what = [r.type, r.result].filter(Boolean).join(' ');
    const id = link(r.explorerUrl, r.transactionId ?? r.consensusTimestamp);
    return `• ${id} ${escapeMrkdwn(what)} ${escapeMrkdwn(formatConsensusTime(r.consensusTimestamp))}`;
  });
  if (more > 0) lines.push(`• _and ${more} more_`);
  return `*Also in the window:*\n${lines.join('\n')}`;
}

/** `<url|label>` when there is a URL, else the escaped label. */
function link(url: string | undefined, label: string): string {
  return url ? `<${escapeLinkUrl(url)}|${escapeMrkdwn(label)}>` : escapeMrkdwn(label);
}

/** The coloured bar's text: why it fired / what resolved it (the first alert's; a digest counts the rest). */
function explanation(alerts: readonly Alert[]): string {
  const first = alerts[0];
  if (!first) return ' ';
  const lines = explanationFields(first).map(([k, v]) => `*${k}:* ${escapeMrkdwn(v)}`);
  if (alerts.length > 1) lines.push(`_${alerts.length - 1} more alerts listed above_`);
  return lines.length ? lines.join('\n') : escapeMrkdwn(contextLine(first));
}

function recordMrkdwn(record: AlertRecord): [string, string][] {
  return recordFields(record).map(([label, value]): [string, string] => {
    if (label === 'Transaction' && record.explorerUrl)
      return [label, `<${escapeLinkUrl(record.explorerUrl)}|${escapeMrkdwn(value)}>`];
    return [label, escapeMrkdwn(value)];
  });
}

/** A header is `plain_text`: Slack shows it literally, so it is capped, not entity-escaped (escape.ts). */
function header(text: string): SlackBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: plainText(text, SLACK_LIMITS.header), emoji: true },
  };
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncateEscaped(text, SLACK_LIMITS.section) } };
}

function field(label: string, value: string) {
  return { type: 'mrkdwn', text: truncateEscaped(`*${label}:* ${value}`, SLACK_LIMITS.field) };
}

/**
 * A human line (rule, severity, account, since when) instead of the raw alert key, ending in a short reference
 * that stays the same when a notification is resent, so a duplicate is recognisable.
 */
function context(alerts: readonly Alert[], ref: string): SlackBlock {
  const first = alerts[0];
  const line = first ? contextLine(first) : '';
  const more = alerts.length > 1 ? ` (+${alerts.length - 1} alerts)` : '';
  const text = `${escapeMrkdwn(line)}${more} · ref ${ref}`;
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncateEscaped(text, SLACK_LIMITS.field) }] };
}
