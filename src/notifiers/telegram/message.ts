// Alert → Telegram sendMessage parameters (pure), text in the HTML parse mode. Every ledger-controlled string is
// escaped (escape.ts); the text is built from whole lines (each one balanced HTML), so the 4,096-character cap
// is kept by leaving lines out, never by cutting inside an entity or a tag.
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
import { escapeHtml, htmlLink } from './escape.js';

/** Telegram's limit on a message's text. */
export const TELEGRAM_TEXT_MAX = 4096;

export interface TelegramMessage {
  readonly chat_id: string;
  readonly message_thread_id?: number;
  readonly text: string;
  readonly parse_mode: 'HTML';
  readonly link_preview_options: { readonly is_disabled: true };
  readonly disable_notification: boolean;
}

export interface TelegramTarget {
  readonly chatId: string;
  readonly threadId?: number;
  readonly maxListed: number;
  readonly silentInfo: boolean;
}

const ICON = { resolved: '✅', critical: '🔴', warning: '🟠', info: 'ℹ️' } as const;

export function telegramMessage(input: Notification, target: TelegramTarget): TelegramMessage {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const severity = notificationSeverity(notification);
  const resolved = isResolvedNotification(notification);
  const status = resolved ? 'RESOLVED' : severity.toUpperCase();
  const head = `${ICON[resolved ? 'resolved' : severity]} <b>${status}: ${escapeHtml(notificationTitle(notification))}</b>`;
  const digest = notification.kind === 'digest';
  const { shown, more } = firstN(alerts, digest ? target.maxListed : 1);
  const first = alerts[0];
  const footer = `<i>${escapeHtml(first ? contextLine(first) : '')} · ref ${idempotencyKey(input).slice(0, 12)}</i>`;
  const blocks = shown.map((alert) => alertLines(alert, digest));
  return {
    chat_id: target.chatId,
    ...(target.threadId !== undefined ? { message_thread_id: target.threadId } : {}),
    text: fit(cap(head), blocks, more, footer),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    disable_notification: target.silentInfo && severity === 'info' && !resolved,
  };
}

/** Header, then whole lines of each alert while they fit, then "and N more" and the footer. */
function fit(head: string, blocks: readonly string[][], more: number, footer: string): string {
  const lines = [head];
  let omitted = more;
  let used = head.length + footer.length + 60; // room for the notes and the newlines around them
  const TRUNCATED = '<i>… (truncated)</i>';
  for (const block of blocks) {
    const fitting: string[] = [];
    // The blank line before the block and a truncation note after it are counted up front.
    let size = 1 + TRUNCATED.length + 1;
    for (const line of block) {
      if (used + size + line.length + 1 > TELEGRAM_TEXT_MAX) break;
      fitting.push(line);
      size += line.length + 1;
    }
    if (!fitting.length) {
      omitted += 1;
      continue;
    }
    used += size;
    lines.push(...(lines.length > 1 ? [''] : []), ...fitting);
    if (fitting.length < block.length) lines.push(TRUNCATED);
  }
  if (omitted > 0) lines.push(`<i>and ${omitted} more</i>`);
  lines.push(footer);
  return lines.join('\n');
}

function alertLines(alert: Alert, inDigest: boolean): string[] {
  const lines: string[] = [];
  if (inDigest) lines.push(`<b>${escapeHtml(alert.summary)}</b>`);
  if (alert.description) lines.push(escapeCapped(alert.description, LINE_MAX));
  for (const [label, value] of explanationFields(alert)) lines.push(`<b>${label}:</b> ${escapeHtml(value)}`);
  lines.push(`<b>Rule:</b> ${escapeHtml(alert.ruleId)}`);
  const account = accountLabel(alert);
  if (account) lines.push(`<b>Account:</b> ${htmlLink(alert.accountUrl, account)}`);
  const record = triggerRecord(alert);
  for (const [label, value] of record ? recordFields(record) : []) {
    const shown = label === 'Transaction' ? htmlLink(record?.explorerUrl, value) : escapeHtml(value);
    lines.push(`<b>${label}:</b> ${shown}`);
  }
  if (record?.memo) lines.push(`<b>Memo:</b> ${escapeHtml(record.memo)}`);
  return lines.map(cap);
}

/** The longest line: anything longer could not share a message with its header and footer. */
const LINE_MAX = 3000;

/** A line longer than LINE_MAX is replaced by a note (lines are balanced HTML: never cut). */
function cap(line: string): string {
  return line.length > LINE_MAX ? '<i>(a line too long to show)</i>' : line;
}

/** Escaped text of at most `max` characters: the text is cut before escaping, so no entity is ever split. */
export function escapeCapped(text: string, max: number): string {
  const whole = escapeHtml(text);
  if (whole.length <= max) return whole;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (escapeHtml(text.slice(0, mid)).length + 1 <= max) low = mid;
    else high = mid - 1;
  }
  const cut = /[\uD800-\uDBFF]$/.test(text.slice(0, low)) ? low - 1 : low;
  return `${escapeHtml(text.slice(0, cut))}…`;
}
