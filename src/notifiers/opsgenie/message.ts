// Alert → Opsgenie Alert API requests (pure). A firing alert creates an alert (`POST /v2/alerts`) whose alias is
// the alert key (receiver-key.ts), so Opsgenie folds repeats into one open alert; its resolve closes that alert by
// alias (`POST /v2/alerts/{alias}/close?identifierType=alias`). Every text is presented first (present.ts:
// neutralised, capped) and then held to Opsgenie's limits: message 130 characters, alias 512, description 15,000,
// 20 tags of 50, details 8,000 characters in all, entity 512, note 25,000.
import type { Alert } from '../../rules/alert/alert.js';
import { alertFacts } from '../alert-facts.js';
import { accountLabel, alertHeadline, explanationFields, recordFields, triggerRecord } from '../format.js';
import { capText } from '../../rules/alert/cap-text.js';
import { presentAlert } from '../present.js';
import { receiverKey } from '../receiver-key.js';
import type { OpsgenieConfig } from './config.js';

export const LIMITS = {
  message: 130,
  alias: 512,
  description: 15_000,
  tags: 20,
  tag: 50,
  details: 8000,
} as const;

export interface OpsgenieRequest {
  /** Path below api_url, query included. */
  readonly path: string;
  readonly body: Record<string, unknown>;
}

export type OpsgenieOptions = Pick<
  OpsgenieConfig,
  'priority' | 'responders' | 'tags' | 'details' | 'source' | 'entity'
>;

export function opsgenieRequest(alert: Alert, options: OpsgenieOptions): OpsgenieRequest {
  const alias = receiverKey(alert.key, LIMITS.alias);
  const shown = presentAlert(alert);
  if (alert.status === 'resolved') {
    const note = `Resolved by ledger-sentinel${shown.resolution ? `: ${shown.resolution}` : ''}`;
    return {
      path: `/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
      body: { source: options.source, note },
    };
  }
  const entity = options.entity ?? accountLabel(shown);
  return {
    path: '/v2/alerts',
    body: {
      message: within(alertHeadline(shown), LIMITS.message),
      alias,
      description: within(description(shown), LIMITS.description),
      responders: options.responders,
      tags: tags(shown, options.tags),
      details: details({ ...options.details, ...alertFacts(shown) }),
      ...(entity ? { entity: within(entity, 512) } : {}),
      source: options.source,
      priority: options.priority[alert.severity],
    },
  };
}

/** The summary's description, then the record's facts and why it fired, one per line (plain text). */
function description(alert: Alert): string {
  const lines = [alert.description || alert.summary, ''];
  const record = triggerRecord(alert);
  for (const [label, value] of [...explanationFields(alert), ...(record ? recordFields(record) : [])])
    lines.push(`${label}: ${value}`);
  if (record?.memo) lines.push(`Memo: ${record.memo}`);
  if (record?.explorerUrl) lines.push(`Explorer: ${record.explorerUrl}`);
  if (alert.accountUrl) lines.push(`Account: ${alert.accountUrl}`);
  return lines.join('\n');
}

function tags(alert: Alert, configured: readonly string[]): string[] {
  const all = ['ledger-sentinel', alert.ruleId, alert.severity, ...configured].map((t) =>
    within(t, LIMITS.tag),
  );
  return [...new Set(all)].slice(0, LIMITS.tags);
}

/** Details in order until Opsgenie's 8,000 characters (keys and values) are used; the rest is counted. */
function details(all: Record<string, string>): Record<string, string> {
  const out = new Map<string, string>();
  let used = 0;
  let dropped = 0;
  for (const [key, value] of Object.entries(all)) {
    const size = key.length + value.length;
    if (used + size > LIMITS.details - 100) dropped++;
    else {
      out.set(key, value);
      used += size;
    }
  }
  if (dropped > 0) out.set('not_shown', `${dropped} more details did not fit Opsgenie's limit`);
  return Object.fromEntries(out);
}

/** Capped with a visible note where there is room for one (a tag has none), and never longer than `max`. */
function within(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max >= 100) return capText(text, max - 40).slice(0, max);
  const cut = text.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}
