// Alert → PagerDuty Events API v2 events (pure). One event per alert: `trigger` for a firing alert, `resolve` for
// its resolve, both with the dedup_key of the alert key (receiver-key.ts), so PagerDuty opens one alert per key
// and closes that one. Every text is presented first (present.ts: neutralised, capped); PagerDuty shows it as plain
// text. Limits from the Events API v2: summary ≤ 1024 characters, dedup_key ≤ 255.
import type { Alert } from '../../rules/alert/alert.js';
import { alertFacts } from '../alert-facts.js';
import { accountLabel, alertHeadline, triggerRecord } from '../format.js';
import { capText } from '../../rules/alert/cap-text.js';
import { presentAlert } from '../present.js';
import { receiverKey } from '../receiver-key.js';
import type { PagerdutyConfig } from './config.js';

export const DEDUP_KEY_MAX = 255;
export const SUMMARY_MAX = 1024;

export interface PagerdutyLink {
  readonly href: string;
  readonly text?: string;
}

export interface PagerdutyEvent {
  readonly routing_key: string;
  readonly event_action: 'trigger' | 'resolve';
  readonly dedup_key: string;
  readonly client?: string;
  readonly client_url?: string;
  readonly links?: readonly PagerdutyLink[];
  readonly payload?: {
    readonly summary: string;
    readonly source: string;
    readonly severity: 'critical' | 'error' | 'warning' | 'info';
    readonly timestamp: string;
    readonly class?: string;
    readonly component?: string;
    readonly group?: string;
    readonly custom_details: Record<string, string>;
  };
}

/** What message.ts needs of the config (the routing key is added by the caller, never rendered here). */
export type PagerdutyOptions = Pick<
  PagerdutyConfig,
  'severity' | 'client' | 'client_url' | 'source' | 'component' | 'group' | 'class' | 'links' | 'details'
>;

export function pagerdutyEvent(alert: Alert, options: PagerdutyOptions): Omit<PagerdutyEvent, 'routing_key'> {
  const dedupKey = receiverKey(alert.key, DEDUP_KEY_MAX);
  // A resolve names the alert only: PagerDuty ignores anything else in it.
  if (alert.status === 'resolved') return { event_action: 'resolve', dedup_key: dedupKey };
  const shown = presentAlert(alert);
  return {
    event_action: 'trigger',
    dedup_key: dedupKey,
    client: options.client,
    ...(options.client_url ? { client_url: options.client_url } : {}),
    links: links(shown, options),
    payload: {
      summary: capText(alertHeadline(shown), SUMMARY_MAX - 40),
      source: options.source ?? accountLabel(shown) ?? options.client,
      severity: options.severity[alert.severity],
      timestamp: alert.startsAt,
      class: options.class ?? shown.ruleId,
      ...(options.component ? { component: options.component } : {}),
      ...(options.group ? { group: options.group } : {}),
      custom_details: { ...options.details, ...details(shown) },
    },
  };
}

function details(alert: Alert): Record<string, string> {
  return { summary: alert.summary, description: alert.description, ...alertFacts(alert) };
}

/** The transaction on the explorer, the account on the explorer, the status page, then the configured links. */
function links(alert: Alert, options: PagerdutyOptions): PagerdutyLink[] {
  const out: PagerdutyLink[] = [];
  const explorer = triggerRecord(alert)?.explorerUrl;
  if (explorer && isHttpUrl(explorer)) out.push({ href: explorer, text: 'Transaction on the explorer' });
  if (alert.accountUrl && isHttpUrl(alert.accountUrl))
    out.push({ href: alert.accountUrl, text: 'Account on the explorer' });
  if (options.client_url) out.push({ href: options.client_url, text: `${options.client} status page` });
  return [...out, ...options.links];
}

/** Links built from ledger data are shown only when they are plain http(s) URLs (never `javascript:`). */
function isHttpUrl(text: string): boolean {
  return /^https?:\/\/[^\s]+$/.test(text) && URL.canParse(text);
}
