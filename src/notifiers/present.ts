// What a notification may show of its alerts: every text field that can carry ledger-controlled text (rendered
// summary and description, memo, account name, labels, annotations, record fields) neutralised and capped. Every
// message builder (Slack, email, webhook, Alertmanager, console) starts from this, so one function decides what a
// hostile memo can do to any medium (docs/notifiers.md, "Hostile text"). Keys and ids (which carry group values)
// are neutralised but never capped: the result is deterministic, so a resend still carries the same id; identities
// proper (Message-ID, idempotency key) are computed from the alerts as stored.
import type { Alert, AlertAccount, AlertRecord, AlertTokenMove } from '../rules/alert/alert.js';
import { neutralizeText, shownText } from './neutralize.js';
import type { Notification } from './notifier.js';

/** Characters of the original text shown per field; the rest is counted ("… (N more characters)"). */
export const SHOWN_LIMITS = { memo: 256, summary: 500, description: 2000, field: 200 } as const;

export function presentNotification(notification: Notification): Notification {
  if (notification.kind === 'single') return { kind: 'single', alert: presentAlert(notification.alert) };
  return { ...notification, alerts: notification.alerts.map(presentAlert) };
}

export function presentAlert(alert: Alert): Alert {
  return {
    ...alert,
    key: neutralizeText(alert.key),
    id: neutralizeText(alert.id),
    summary: shownText(alert.summary, SHOWN_LIMITS.summary),
    description: shownText(alert.description, SHOWN_LIMITS.description, { multiline: true }),
    labels: fields(alert.labels),
    account: alert.account && presentAccount(alert.account),
    records: alert.records.map(presentRecord),
    annotations: fields(alert.annotations),
    ...(alert.trigger ? { trigger: presentRecord(alert.trigger) } : {}),
    ...(alert.why !== undefined ? { why: shownText(alert.why, SHOWN_LIMITS.summary) } : {}),
    ...(alert.resolution !== undefined
      ? { resolution: shownText(alert.resolution, SHOWN_LIMITS.summary) }
      : {}),
    ...(alert.accountUrl !== undefined ? { accountUrl: field(alert.accountUrl) } : {}),
  };
}

function presentAccount(account: AlertAccount): AlertAccount {
  return { id: field(account.id), name: field(account.name), labels: fields(account.labels) };
}

function presentRecord(record: AlertRecord): AlertRecord {
  const out: { -readonly [K in keyof AlertRecord]: AlertRecord[K] } = { ...record };
  out.consensusTimestamp = field(record.consensusTimestamp);
  for (const key of [
    'transactionId',
    'type',
    'result',
    'amountTinybar',
    'feeTinybar',
    'explorerUrl',
  ] as const) {
    const value = record[key];
    if (value !== undefined) out[key] = field(value);
  }
  if (record.memo !== undefined) out.memo = shownText(record.memo, SHOWN_LIMITS.memo);
  if (record.tokens !== undefined) out.tokens = record.tokens.slice(0, MAX_TOKENS_SHOWN).map(presentToken);
  return out;
}

/** Token moves a message lists per record (alerts keep at most this many already). */
const MAX_TOKENS_SHOWN = 10;

function presentToken(m: AlertTokenMove): AlertTokenMove {
  return {
    tokenId: field(m.tokenId),
    amount: field(m.amount),
    ...(typeof m.decimals === 'number' && Number.isInteger(m.decimals) ? { decimals: m.decimals } : {}),
    ...(typeof m.symbol === 'string' && m.symbol ? { symbol: field(m.symbol) } : {}),
    ...(typeof m.name === 'string' && m.name ? { name: field(m.name) } : {}),
    ...(m.serial !== undefined ? { serial: field(m.serial) } : {}),
    ...(m.counterparty !== undefined ? { counterparty: field(m.counterparty) } : {}),
  };
}

function field(text: string): string {
  return shownText(text, SHOWN_LIMITS.field);
}

function fields(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) out[field(key)] = field(value);
  return out;
}
