// The status page's data as one pure value: plain inputs (what the daemon knows now) in, everything the page shows
// out, already ordered, paged, capped and neutralised, so the renderer only lays it out. No clock, no store: the
// inputs are gathered from what the app hands in (status-inputs.ts) and a test or a bench can pass its own.
import type { AlertEntry } from '../delivery/alert-view.js';
import type { ReadinessCheck } from '../observability/http-server.js';
import type { Viewer } from '../observability/html-route.js';
import type { ChannelError } from '../delivery/outbox.js';
import type { Severity } from '../rules/alert/alert.js';
import { alertsModel, TEXT_MAX, type AlertsModel } from './alert-rows.js';
import type { StatusFilter } from './status-filter.js';
import type { HistorySample, HourCount } from './status-history.js';
import { shownText } from '../notifiers/neutralize.js';
import {
  summarizeStaleness,
  type StalenessSummary,
  type StreamStaleness,
} from '../tail/health/staleness-summary.js';
import type { CapacityView } from '../tail/health/capacity-watch.js';
import { capacityRow, type CapacityRow } from './status-capacity.js';
import { silenceState, type SilenceState, type StatusSilence } from './status-silence.js';

export { TEXT_MAX } from './alert-rows.js';

export const STREAMS_PER_PAGE = 50;

export interface StatusRule {
  readonly id: string;
  readonly severity: Severity;
  readonly source: string;
}

export interface RuleActivityEntry {
  /** Records that matched since the daemon started. */
  readonly matches: number;
  /** When the last match was committed (ms since epoch). */
  readonly lastMatchAt: number;
}

export interface StatusNotifier {
  readonly name: string;
  readonly kind: string;
  /** Undelivered deliveries in the outbox. */
  readonly depth: number;
  readonly lastError?: ChannelError;
  /** The receiver asked for a pause (Retry-After) that lasts until then (ms since epoch). */
  readonly pausedUntil?: number;
}

export interface StatusInputs {
  readonly now: number;
  readonly version: string;
  readonly startedAt: number;
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
  /** What the setup still lacks, with the next step (app/setup-notices.ts); shown first. */
  readonly notices?: readonly string[];
  /** Now minus the newest consensus timestamp the query service showed, seconds. */
  readonly lagSeconds?: number;
  readonly strategy?: string;
  /** The tail's request demand against the budget; undefined before the first round. */
  readonly capacity?: CapacityView;
  readonly streams: readonly StreamStaleness[];
  /** 1-based; out of range is clamped. */
  readonly streamsPage: number;
  /** Account names by id (streams are listed by name). */
  readonly accountNames?: ReadonlyMap<string, string>;
  /** Every alert the page can show, one per key (the alert view: firing ones and those of the last 24 h). */
  readonly alerts: readonly AlertEntry[];
  readonly filter?: StatusFilter;
  /** 1-based page of the alert history. */
  readonly alertsPage?: number;
  /** The alert (id) whose silence or ack form is open. */
  readonly selected?: { readonly id: string; readonly action: 'silence' | 'ack' };
  readonly silences: readonly StatusSilence[];
  /** The charts' samples (the last hour) and alerts per hour (the last 24). */
  readonly samples?: readonly HistorySample[];
  readonly alertsPerHour?: readonly HourCount[];
  readonly viewer?: Viewer;
  /** What the last form did (`?done=`). */
  readonly done?: 'silenced' | 'acked';
  /** Seconds between reloads; 0 = off. */
  readonly refreshSeconds?: number;
  readonly rules: readonly StatusRule[];
  readonly ruleActivity: ReadonlyMap<string, RuleActivityEntry>;
  readonly notifiers: readonly StatusNotifier[];
}

export type { AlertRow } from './alert-rows.js';

/** A stream with its account's name. */
export interface StreamRow extends StreamStaleness {
  readonly name?: string;
}

export interface SilenceRow extends StatusSilence {
  readonly state: SilenceState;
}

export interface RuleRow extends StatusRule {
  readonly matches: number;
  readonly lastMatchAt?: number;
}

export interface StatusModel {
  readonly now: number;
  readonly version: string;
  readonly uptimeSeconds: number;
  readonly ready: boolean;
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly message: string }[];
  readonly notices: readonly string[];
  readonly lagSeconds?: number;
  readonly strategy?: string;
  readonly capacity?: CapacityRow;
  readonly streams: {
    readonly summary: StalenessSummary;
    readonly page: number;
    readonly pages: number;
    /** Rank of the first row on this page (1-based). */
    readonly first: number;
    readonly rows: readonly StreamRow[];
  };
  readonly alerts: AlertsModel;
  readonly selected?: { readonly action: 'silence' | 'ack' };
  readonly samples: readonly HistorySample[];
  readonly alertsPerHour: readonly HourCount[];
  readonly viewer: Viewer;
  readonly done?: 'silenced' | 'acked';
  readonly refreshSeconds: number;
  readonly silences: readonly SilenceRow[];
  readonly rules: readonly RuleRow[];
  readonly notifiers: readonly StatusNotifier[];
}

export function buildStatusModel(inputs: StatusInputs): StatusModel {
  const { now } = inputs;
  const checks = Object.entries(inputs.checks).map(([name, c]) => ({ name, ok: c.ok, message: c.message }));
  const silences = inputs.silences
    .map((s) => ({ ...s, state: silenceState(s, now) }))
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.endsAt.localeCompare(b.endsAt));
  const alerts = alertsModel({
    entries: inputs.alerts,
    filter: inputs.filter ?? {},
    page: inputs.alertsPage ?? 1,
    silences,
    ...(inputs.selected ? { selected: inputs.selected.id } : {}),
  });
  return {
    now,
    version: inputs.version,
    uptimeSeconds: Math.max(0, Math.floor((now - inputs.startedAt) / 1000)),
    ready: checks.every((c) => c.ok),
    checks,
    notices: inputs.notices ?? [],
    ...(inputs.lagSeconds !== undefined ? { lagSeconds: inputs.lagSeconds } : {}),
    ...(inputs.strategy !== undefined ? { strategy: inputs.strategy } : {}),
    ...(inputs.capacity ? { capacity: capacityRow(inputs.capacity) } : {}),
    streams: streamsPage(inputs.streams, inputs.streamsPage, inputs.accountNames),
    alerts,
    // A form opens only for an alert that exists (an unknown id is ignored, and the page keeps reloading).
    ...(inputs.selected && alerts.selected ? { selected: { action: inputs.selected.action } } : {}),
    samples: inputs.samples ?? [],
    alertsPerHour: inputs.alertsPerHour ?? [],
    viewer: inputs.viewer ?? { writable: false },
    ...(inputs.done ? { done: inputs.done } : {}),
    refreshSeconds: inputs.refreshSeconds ?? 0,
    silences,
    rules: inputs.rules
      .map((r) => ruleRow(r, inputs.ruleActivity.get(r.id)))
      .sort((a, b) => (b.lastMatchAt ?? -1) - (a.lastMatchAt ?? -1) || a.id.localeCompare(b.id)),
    notifiers: [...inputs.notifiers].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const STATE_ORDER: Readonly<Record<SilenceState, number>> = { active: 0, pending: 1, expired: 2 };

/** Stalest first; the summary covers every stream, the page 50 of them. */
export function streamsPage(
  streams: readonly StreamStaleness[],
  page: number,
  names: ReadonlyMap<string, string> = new Map(),
): StatusModel['streams'] {
  const sorted = [...streams].sort((a, b) => b.seconds - a.seconds || a.account.localeCompare(b.account));
  const summary = summarizeStaleness(sorted, undefined, 0);
  const pages = Math.max(1, Math.ceil(sorted.length / STREAMS_PER_PAGE));
  const current = Math.min(pages, Math.max(1, Number.isSafeInteger(page) ? page : 1));
  const start = (current - 1) * STREAMS_PER_PAGE;
  return {
    summary,
    page: current,
    pages,
    first: start + 1,
    rows: sorted.slice(start, start + STREAMS_PER_PAGE).map((s) => {
      const name = names.get(s.account);
      return name === undefined || name === s.account ? s : { ...s, name: shownText(name, TEXT_MAX) };
    }),
  };
}

function ruleRow(rule: StatusRule, activity: RuleActivityEntry | undefined): RuleRow {
  return activity
    ? { ...rule, matches: activity.matches, lastMatchAt: activity.lastMatchAt }
    : { ...rule, matches: 0 };
}
