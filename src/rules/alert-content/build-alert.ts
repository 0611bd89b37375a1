// GroupState + rule + view → an Alert (rules/alert/alert.ts). Pure: the same state gives the same alert and id.
import type { Alert, AlertRecord, AlertStatus } from '../alert/alert.js';
import type { CompiledRule } from '../load/rule-set.js';
import type { GroupState } from '../alert-state/group-state.js';
import { renderLayered } from '../template/render-template.js';
import { ALERT_TEXT_MAX, capText } from '../alert/cap-text.js';
import { formatHbar } from '../facts/amount.js';
import { windowTotal } from '../windows/windows.js';
import { timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';
import { transitionVariables } from './alert-variables.js';
import { durationText } from './window-texts.js';

export interface AlertInput {
  readonly rule: CompiledRule;
  readonly state: GroupState;
  readonly status: AlertStatus;
  /** The record view (view.ts) or a synthetic one for absence / tick-driven transitions. */
  readonly view: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly endsNs?: bigint;
  /** The record that caused the transition (absent for tick-driven ones). */
  readonly trigger?: AlertRecord;
  /** Why it fired (explain.ts, window-texts.ts). */
  readonly why?: string;
  /** Resolves: what resolved it. */
  readonly resolution?: string;
  readonly accountUrl?: string;
}

export function buildAlert(input: AlertInput): Alert {
  const { rule, state, status, view, annotations, endsNs, trigger } = input;
  const startsAt = timestampToIso(state.startsNs ?? 0n);
  const repeat = status === 'firing' && state.repeats > 0 ? `|repeat-${state.repeats}` : '';
  const words = {
    why: input.why,
    resolution: input.resolution,
    others: otherRecords(state.records, trigger),
    annotations: annotations ?? {},
    accountUrl: input.accountUrl,
  };
  const layers = [ruleView(rule, state, status), transitionVariables(words), view];
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
    ...(trigger ? { trigger } : {}),
    ...(input.why ? { why: capText(input.why, ALERT_TEXT_MAX) } : {}),
    ...(input.resolution ? { resolution: capText(input.resolution, ALERT_TEXT_MAX) } : {}),
    ...(input.accountUrl ? { accountUrl: input.accountUrl } : {}),
  };
}

/** The records of the alert other than the trigger (windows list them after it). */
export function otherRecords(
  records: readonly AlertRecord[],
  trigger: AlertRecord | undefined,
): AlertRecord[] {
  if (!trigger) return records.slice();
  return records.filter((r) => !sameRecord(r, trigger));
}

export function sameRecord(a: AlertRecord, b: AlertRecord): boolean {
  return a === b || (a.consensusTimestamp === b.consensusTimestamp && a.transactionId === b.transactionId);
}

function ruleView(rule: CompiledRule, state: GroupState, status: string): Record<string, unknown> {
  const w = rule.window;
  const total = w && w.kind !== 'absent' ? windowTotal(state, w) : 0n;
  return {
    rule: { id: rule.id, severity: rule.severity, labels: rule.labels },
    group: state.group,
    match_count: state.matchCount,
    window_duration: w ? durationText(w.durationNs) : '',
    window_total: total.toString(),
    window_total_hbar: formatHbar(total),
    last_seen_utc: state.lastSeenNs === undefined ? '' : timestampToIso(state.lastSeenNs),
    status,
  };
}
