// Alert → Alertmanager API v2 postable alerts (pure). One element per alert. endsAt (docs/notifiers.md,
// "Alertmanager"): a resolve carries its resolve time; a firing alert that will resolve carries `firingEndsAt`
// (now + 4 × resend_interval; it is re-sent before then); a per-record alert carries none, so Alertmanager ends it
// after its own resolve_timeout.
import type { Alert } from '../../rules/alert/alert.js';
import { accountLabel, formatAmount, triggerRecord } from '../format.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';

export interface PostableAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly startsAt: string;
  readonly endsAt?: string;
  readonly generatorURL?: string;
}

export function alertmanagerAlerts(
  notification: Notification,
  nowIso: string,
  generatorUrl?: string,
  firingEndsAt?: string,
): PostableAlert[] {
  return notificationAlerts(presentNotification(notification)).map((alert) =>
    postable(alert, nowIso, generatorUrl, firingEndsAt),
  );
}

function postable(alert: Alert, nowIso: string, generatorUrl?: string, firingEndsAt?: string): PostableAlert {
  const record = triggerRecord(alert);
  const link = record?.explorerUrl ?? generatorUrl;
  const endsAt =
    alert.status === 'resolved' ? (alert.endsAt ?? nowIso) : alert.resolves ? firingEndsAt : undefined;
  return {
    labels: labels(alert),
    annotations: annotations(alert),
    startsAt: alert.startsAt,
    ...(endsAt ? { endsAt } : {}),
    ...(link && /^https?:\/\//.test(link) ? { generatorURL: link } : {}),
  };
}

function labels(alert: Alert): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(alert.labels)) out[labelName(key)] = value;
  Object.assign(out, { alertname: alert.ruleId, severity: alert.severity, alert_key: alert.key });
  if (alert.account) Object.assign(out, { account: alert.account.id, account_name: alert.account.name });
  return out;
}

function annotations(alert: Alert): Record<string, string> {
  const record = triggerRecord(alert);
  const out: Record<string, string> = {
    ...alert.annotations,
    summary: alert.summary,
    description: alert.description,
  };
  const account = accountLabel(alert);
  if (account) out.account = account;
  if (record?.transactionId) out.transaction_id = record.transactionId;
  if (record?.amountTinybar !== undefined) out.amount = formatAmount(record.amountTinybar);
  if (record?.memo) out.memo = record.memo;
  if (record?.explorerUrl) out.explorer_url = record.explorerUrl;
  if (alert.matchCount > 1) out.match_count = String(alert.matchCount);
  if (alert.why) out.why = alert.why;
  if (alert.resolution) out.resolution = alert.resolution;
  if (alert.accountUrl) out.account_url = alert.accountUrl;
  return out;
}

/** Prometheus label names: [a-zA-Z_][a-zA-Z0-9_]*. */
export function labelName(key: string): string {
  const cleaned = key.replace(/[^a-zA-Z0-9_]/g, '_');
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}
