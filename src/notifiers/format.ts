// Pure text helpers shared by the message builders of every notifier (no escaping here: each format escapes
// for its own medium).
import type { Alert, AlertRecord } from '../rules/alert/alert.js';
import { tokenMoveText } from '../rules/alert-content/token-moves.js';
import { notificationAlerts, type Notification } from './notifier.js';

const TINYBARS_PER_HBAR = 100_000_000n;

/** `-123456789` → `-1.23456789 HBAR`; exact for any int64 (bigint arithmetic, no floats). */
export function formatHbar(tinybar: string): string {
  if (!/^-?\d+$/.test(tinybar)) return `${tinybar} tinybars`;
  const value = BigInt(tinybar);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = (abs / TINYBARS_PER_HBAR).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (abs % TINYBARS_PER_HBAR).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''} HBAR`;
}

/** `-1.5 HBAR (-150000000 tinybars)` */
export function formatAmount(tinybar: string): string {
  return `${formatHbar(tinybar)} (${tinybar} tinybars)`;
}

/** `1700000000.123456789` → `2023-11-14 22:13:20.123456789 UTC`. */
export function formatConsensusTime(timestamp: string): string {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(timestamp);
  if (!match) return timestamp;
  const iso = new Date(Number(match[1]) * 1000).toISOString();
  const nanos = (match[2] ?? '').padEnd(9, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${nanos} UTC`;
}

/** `treasury-hot (0.0.1234)`, or undefined when the alert has no account. */
export function accountLabel(alert: Alert): string | undefined {
  const account = alert.account;
  if (!account) return undefined;
  return account.name && account.name !== account.id ? `${account.name} (${account.id})` : account.id;
}

/** The record fields a message shows, as label/value pairs in a fixed order (values unescaped). */
export function recordFields(record: AlertRecord): [string, string][] {
  const fields: [string, string][] = [];
  if (record.amountTinybar !== undefined) fields.push(['Amount', formatAmount(record.amountTinybar)]);
  if (record.type) fields.push(['Type', record.type]);
  if (record.result) fields.push(['Result', record.result]);
  fields.push(['Consensus time', formatConsensusTime(record.consensusTimestamp)]);
  if (record.transactionId) fields.push(['Transaction', record.transactionId]);
  if (record.feeTinybar !== undefined) fields.push(['Fee', formatAmount(record.feeTinybar)]);
  for (const m of record.tokens ?? []) {
    const side = m.counterparty ? ` (${m.amount.startsWith('-') ? 'to' : 'from'} ${m.counterparty})` : '';
    fields.push(['Token', `${tokenMoveText(m)}${side}`]);
  }
  return fields;
}

/** One-line title: the alert's headline, or for a digest "12 alerts of rule X on treasury-hot in 2 min". */
export function notificationTitle(notification: Notification): string {
  if (notification.kind === 'single') return alertHeadline(notification.alert);
  const alerts = notification.alerts;
  const accounts = new Set(alerts.map((a) => a.account?.name ?? a.account?.id).filter(Boolean));
  const on =
    accounts.size === 1
      ? ` on ${[...accounts][0]}`
      : accounts.size > 1
        ? ` on ${accounts.size} accounts`
        : '';
  return `${alerts.length} alerts of rule ${notification.ruleId}${on}${span(alerts)}`;
}

/** The highest severity in a notification. */
export function notificationSeverity(notification: Notification): Alert['severity'] {
  const alerts = notification.kind === 'single' ? [notification.alert] : notification.alerts;
  const order = ['info', 'warning', 'critical'] as const;
  return alerts.reduce<Alert['severity']>(
    (max, a) => (order.indexOf(a.severity) > order.indexOf(max) ? a.severity : max),
    'info',
  );
}

function span(alerts: readonly Alert[]): string {
  const times = alerts.map((a) => Date.parse(a.startsAt)).filter((t) => !Number.isNaN(t));
  if (times.length < 2) return '';
  const seconds = Math.round((Math.max(...times) - Math.min(...times)) / 1000);
  return seconds < 120 ? ` in ${seconds} s` : ` in ${Math.round(seconds / 60)} min`;
}

/** Splits a list into the first `max` and the count of the rest. */
export function firstN<T>(items: readonly T[], max: number): { shown: readonly T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** A resolve's headline keeps this much of the summary and of why it ended: subjects and headers stay short. */
export const HEADLINE_LIMITS = { summary: 80, ended: 60 } as const;

/**
 * The summary; for a resolve, the summary it fired with and why it ended, each clipped so the line stays short:
 * `treasury-warm: 5 failed transactions in 30s — ended: fewer than 2 matches in the last 30s (1)`. The status
 * prefix is each medium's own.
 */
export function alertHeadline(alert: Alert): string {
  const summary = alert.summary || alert.ruleId;
  if (alert.status !== 'resolved' || !alert.resolution) return summary;
  return `${clip(summary, HEADLINE_LIMITS.summary)} — ended: ${clip(alert.resolution, HEADLINE_LIMITS.ended)}`;
}

/** At most `max` characters, cut with `…` (never inside a surrogate pair). */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/** True when every alert of the notification is a resolve: it then reads as one ("RESOLVED: …"). */
export function isResolvedNotification(notification: Notification): boolean {
  return notificationAlerts(notification).every((a) => a.status === 'resolved');
}

/** The record the alert is about: the one that caused it (older rows: the first listed). */
export function triggerRecord(alert: Alert): AlertRecord | undefined {
  return alert.trigger ?? alert.records[0];
}

/** The other records of a window, besides the trigger. */
export function otherRecords(alert: Alert): AlertRecord[] {
  const t = triggerRecord(alert);
  return alert.records.filter(
    (r) => !t || r.consensusTimestamp !== t.consensusTimestamp || r.transactionId !== t.transactionId,
  );
}

/** Why it fired / what resolved it, and enrichment results: label/value pairs every medium shows. */
export function explanationFields(alert: Alert): [string, string][] {
  const fields: [string, string][] = [];
  if (alert.status === 'resolved' && alert.resolution) fields.push(['Ended', alert.resolution]);
  if (alert.why) fields.push([alert.status === 'resolved' ? 'Fired because' : 'Why', alert.why]);
  const verification = alert.annotations.contract_verification;
  if (verification) fields.push(['Contract verification', verification]);
  // Set at delivery for an alert someone acknowledged through the API (delivery/suppression.ts).
  const acknowledged = alert.annotations.acknowledged;
  if (acknowledged) fields.push(['Acknowledged', acknowledged]);
  return fields;
}

/** `2023-11-14 22:13:20 UTC` of an ISO time, or the text as is. */
export function formatIsoTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : iso;
}

/** A human context line: `large-debit · critical · treasury-hot (0.0.1234) · since 2023-11-14 22:13:20 UTC`. */
export function contextLine(alert: Alert): string {
  const parts = [alert.ruleId, alert.severity];
  const account = accountLabel(alert);
  if (account) parts.push(account);
  parts.push(`since ${formatIsoTime(alert.startsAt)}`);
  if (alert.status === 'resolved' && alert.endsAt) parts.push(`resolved ${formatIsoTime(alert.endsAt)}`);
  if (alert.matchCount > 1) parts.push(`${alert.matchCount} matches`);
  return parts.join(' · ');
}
