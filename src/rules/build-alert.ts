// GroupState + rule + view → an Alert (rules/alert.ts). Pure: the same state gives the same alert and id.
import type { Alert, AlertStatus } from './alert.js';
import type { CompiledRule } from './compile.js';
import type { GroupState } from './group-state.js';
import { renderLayered } from './template.js';
import { ALERT_TEXT_MAX, capText } from './cap-text.js';
import { formatHbar } from './amount.js';
import { windowTotal } from './windows.js';
import { timestampToIso } from '../ledger/timestamp.js';

export interface AlertInput {
  readonly rule: CompiledRule;
  readonly state: GroupState;
  readonly status: AlertStatus;
  /** The record view (view.ts) or a synthetic one for absence / tick-driven transitions. */
  readonly view: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly endsNs?: bigint;
}

export function buildAlert({ rule, state, status, view, annotations, endsNs }: AlertInput): Alert {
  const startsAt = timestampToIso(state.startsNs ?? 0n);
  const repeat = status === 'firing' && state.repeats > 0 ? `|repeat-${state.repeats}` : '';
  const layers = [ruleView(rule, state, status), view];
  return {
    key: state.key,
    id: `${state.key}|${status}|${startsAt}${repeat}`,
    ruleId: rule.id,
    severity: rule.severity,
    status,
    // Capped: a template over a 1 MB memo must not put megabytes into the outbox.
    summary: capText(renderLayered(rule.summary, layers), ALERT_TEXT_MAX),
    description: capText(renderLayered(rule.description, layers), ALERT_TEXT_MAX),
    labels: Object.assign({ rule: rule.id, severity: rule.severity }, rule.labels, state.group),
    account: state.account,
    startsAt,
    endsAt: endsNs === undefined ? undefined : timestampToIso(endsNs),
    records: state.records.slice(),
    matchCount: state.matchCount,
    notify: rule.notify,
    annotations: annotations ?? {},
    ...(rule.window ? { resolves: true } : {}),
  };
}

function ruleView(rule: CompiledRule, state: GroupState, status: string): Record<string, unknown> {
  const w = rule.window;
  const total = w && w.kind !== 'absent' ? windowTotal(state, w) : 0n;
  return {
    rule: { id: rule.id, severity: rule.severity, labels: rule.labels },
    group: state.group,
    match_count: state.matchCount,
    window_duration: w ? formatDuration(w.durationNs) : '',
    window_total: total.toString(),
    window_total_hbar: formatHbar(total),
    last_seen_utc: state.lastSeenNs === undefined ? '' : timestampToIso(state.lastSeenNs),
    status,
  };
}

function formatDuration(ns: bigint): string {
  const s = ns / 1_000_000_000n;
  if (s % 3600n === 0n) return `${s / 3600n}h`;
  if (s % 60n === 0n) return `${s / 60n}m`;
  return `${s}s`;
}
