// Alert → email parts (pure): subject with status and rule, a text part, an HTML part with every value
// HTML-escaped and links to the explorer, a Message-ID stable per notification and thread headers per alert key.
// Alert text is neutralised and capped first (present.ts), and the body stops listing alerts at a size budget, so
// no memo makes a large email.
import type { Alert } from '../../rules/alert/alert.js';
import {
  accountLabel,
  alertHeadline,
  explanationFields,
  firstN,
  formatConsensusTime,
  isResolvedNotification,
  notificationSeverity,
  notificationTitle,
  otherRecords,
  recordFields,
  triggerRecord,
} from '../format.js';
import { messageId, threadId } from '../identity.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';
import { emailHtml } from './html.js';

export interface EmailParts {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  /** The thread of the (first) alert key: firing, repeats and resolve of one alert group together. */
  readonly inReplyTo?: string;
  /** The threads of every alert key in the notification (a digest joins each of its alerts' threads). */
  readonly references?: string;
}

/** Subject characters (RFC 5322 recommends short lines; clients truncate long subjects anyway). */
export const SUBJECT_MAX = 200;
/** Characters of alert blocks in the text part; alerts past it are counted in "and N more". */
export const BODY_BUDGET = 32_000;
/** Thread ids in References: a digest of hundreds of keys must not make a huge header. */
export const MAX_REFERENCES = 20;
/** Other records of a window listed under the trigger. */
export const OTHERS_LISTED = 5;

export function emailMessage(input: Notification, maxListed: number, domain: string): EmailParts {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const title = notificationTitle(notification);
  const { shown, more } = firstN(alerts, maxListed);
  const blocks = withinBudget(shown.map((alert) => alertLines(alert)));
  const omitted = more + shown.length - blocks.length;
  const tail = omitted > 0 ? [`and ${omitted} more`] : [];
  return {
    subject: clipSubject(oneLine(emailSubject(notification, title)), SUBJECT_MAX - 30),
    text: [
      title,
      '',
      ...blocks
        .map((b) => b.join('\n'))
        .join('\n\n')
        .split('\n'),
      ...tail,
      '',
    ].join('\n'),
    html: emailHtml(title, shown.slice(0, blocks.length), tail),
    // Identities from the alerts as stored, not as shown.
    messageId: messageId(input, domain),
    ...threading(input, domain),
  };
}

/** `[CRITICAL] rule: summary`, `[RESOLVED] rule: summary — what resolved it`; a digest's title names its rule. */
function emailSubject(notification: Notification, title: string): string {
  const status = isResolvedNotification(notification)
    ? 'RESOLVED'
    : notificationSeverity(notification).toUpperCase();
  if (notification.kind === 'digest') return `[${status}] ${title}`;
  return `[${status}] ${notification.alert.ruleId}: ${title}`;
}

function threading(input: Notification, domain: string): { inReplyTo?: string; references?: string } {
  const keys = [...new Set(notificationAlerts(input).map((a) => a.key))].slice(0, MAX_REFERENCES);
  const ids = keys.map((key) => threadId(key, domain));
  return ids[0] ? { inReplyTo: ids[0], references: ids.join(' ') } : {};
}

/** The leading blocks whose text fits the budget (the first always does: its fields are capped). */
function withinBudget(blocks: string[][]): string[][] {
  let used = 0;
  const kept: string[][] = [];
  for (const block of blocks) {
    used += block.reduce((n, line) => n + line.length + 1, 0);
    if (kept.length > 0 && used > BODY_BUDGET) break;
    kept.push(block);
  }
  return kept;
}

function alertLines(alert: Alert): string[] {
  const status = alert.status === 'resolved' ? 'RESOLVED' : 'FIRING';
  const lines = [`${status} ${alertHeadline(alert)}`];
  if (alert.description) lines.push(alert.description);
  lines.push(...explanationFields(alert).map(([k, v]) => `${k}: ${v}`));
  lines.push(`Rule: ${alert.ruleId}`, `Severity: ${alert.severity}`);
  const account = accountLabel(alert);
  if (account) lines.push(`Account: ${account}${alert.accountUrl ? ` ${alert.accountUrl}` : ''}`);
  const record = triggerRecord(alert);
  if (record) {
    lines.push(...recordFields(record).map(([k, v]) => `${k}: ${v}`));
    if (record.memo) lines.push(`Memo: ${record.memo}`);
    if (record.explorerUrl) lines.push(`Explorer: ${record.explorerUrl}`);
  }
  const others = otherRecords(alert);
  if (others.length) {
    const { shown, more } = firstN([...others].reverse(), OTHERS_LISTED);
    lines.push(`Also in the window (${others.length}):`);
    for (const r of shown)
      lines.push(
        `  - ${[r.transactionId, r.type, r.result, formatConsensusTime(r.consensusTimestamp)].filter(Boolean).join(' ')}`,
      );
    if (more > 0) lines.push(`  - and ${more} more`);
  }
  return lines;
}

/** A subject cut with a plain "…": a count of the characters cut is noise in an inbox's subject column. */
function clipSubject(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/** Header values: no CR/LF (header injection), no other control characters. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
