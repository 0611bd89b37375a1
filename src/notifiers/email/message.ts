// Alert → email parts (pure): subject with severity and rule, a text part, an HTML part with every value
// HTML-escaped, and a Message-ID stable per notification. Alert text is neutralised and capped first (present.ts),
// and the body stops listing alerts at a size budget, so no memo makes a large email.
import type { Alert } from '../../rules/alert.js';
import { accountLabel, firstN, notificationSeverity, notificationTitle, recordFields } from '../format.js';
import { messageId, threadId } from '../identity.js';
import { capText } from '../../rules/cap-text.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';

export interface EmailParts {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  readonly references?: string;
}

/** Subject characters (RFC 5322 recommends short lines; clients truncate long subjects anyway). */
export const SUBJECT_MAX = 200;
/** Characters of alert blocks in the text part; alerts past it are counted in "and N more". */
export const BODY_BUDGET = 32_000;

export function emailMessage(input: Notification, maxListed: number, domain: string): EmailParts {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const severity = notificationSeverity(notification).toUpperCase();
  const rule = alerts[0]?.ruleId ?? '';
  const title = notificationTitle(notification);
  const { shown, more } = firstN(alerts, maxListed);
  const blocks = withinBudget(shown.map((alert) => alertLines(alert)));
  const omitted = more + shown.length - blocks.length;
  const tail = omitted > 0 ? [`and ${omitted} more`] : [];
  return {
    subject: capText(oneLine(`[${severity}] ${rule}: ${title}`), SUBJECT_MAX - 30),
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
    html: html(title, blocks, tail),
    // Identities from the alerts as stored, not as shown.
    messageId: messageId(input, domain),
    ...(input.kind === 'single' ? { references: threadId(input.alert.key, domain) } : {}),
  };
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
  const lines = [`${alert.status.toUpperCase()} ${alert.summary}`];
  if (alert.description) lines.push(alert.description);
  lines.push(`Rule: ${alert.ruleId}`, `Severity: ${alert.severity}`);
  const account = accountLabel(alert);
  if (account) lines.push(`Account: ${account}`);
  const record = alert.records[0];
  if (record) {
    lines.push(...recordFields(record).map(([k, v]) => `${k}: ${v}`));
    if (record.memo) lines.push(`Memo: ${record.memo}`);
    if (record.explorerUrl) lines.push(`Explorer: ${record.explorerUrl}`);
  }
  return lines;
}

function html(title: string, blocks: string[][], tail: string[]): string {
  const body = blocks.map((lines) => `<p>${lines.map(escapeHtml).join('<br>\n')}</p>`).join('\n');
  const more = tail.map((t) => `<p><em>${escapeHtml(t)}</em></p>`).join('');
  return `<!doctype html>\n<html><body>\n<h2>${escapeHtml(title)}</h2>\n${body}\n${more}\n</body></html>\n`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Header values: no CR/LF (header injection), no other control characters. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
