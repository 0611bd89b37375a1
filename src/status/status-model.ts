// The status page's data as one pure value: plain inputs (what the daemon knows now) in, everything the page shows
// out, already ordered, paged, capped and neutralised, so the renderer only lays it out. No clock, no store: the
// composition root gathers the inputs (src/app/status-inputs.ts) and a test or a bench can pass its own.
import type { ReadinessCheck } from '../observability/http-server.js';
import type { ChannelError } from '../delivery/outbox.js';
import { shownText } from '../notifiers/neutralize.js';
import type { Alert, Severity } from '../rules/alert.js';
import { summarizeStaleness, type StalenessSummary, type StreamStaleness } from '../tail/staleness.js';
import type { CapacityView } from '../tail/capacity-watch.js';
import { capacityRow, type CapacityRow } from './status-capacity.js';
import { silenceFor, silenceState, type SilenceState, type StatusSilence } from './status-silence.js';

export const STREAMS_PER_PAGE = 50;
/** Ledger text (memos, summaries) is cut to this many characters on the page; the notifications carry it all. */
export const TEXT_MAX = 240;

export interface StatusAck {
  readonly alertKey: string;
  readonly by: string;
  /** ISO 8601. */
  readonly at: string;
  readonly comment: string;
}

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
  /** Alerts firing now (the first ones), and how many there are in all. */
  readonly firing: readonly Alert[];
  readonly firingTotal: number;
  /** The latest alert transitions, newest first. */
  readonly recent: readonly Alert[];
  readonly silences: readonly StatusSilence[];
  readonly acks: readonly StatusAck[];
  readonly rules: readonly StatusRule[];
  readonly ruleActivity: ReadonlyMap<string, RuleActivityEntry>;
  readonly notifiers: readonly StatusNotifier[];
}

export interface AlertRow {
  readonly key: string;
  readonly ruleId: string;
  readonly severity: Severity;
  readonly status: string;
  readonly account: string;
  readonly summary: string;
  readonly memo: string;
  readonly startsAt: string;
  readonly silencedBy?: {
    readonly id: string;
    readonly comment: string;
    readonly notifiers: readonly string[];
  };
  readonly ack?: StatusAck;
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
    readonly rows: readonly StreamStaleness[];
  };
  readonly firing: { readonly total: number; readonly rows: readonly AlertRow[] };
  readonly recent: readonly AlertRow[];
  readonly silences: readonly SilenceRow[];
  readonly rules: readonly RuleRow[];
  readonly notifiers: readonly StatusNotifier[];
}

export function buildStatusModel(inputs: StatusInputs): StatusModel {
  const { now } = inputs;
  const checks = Object.entries(inputs.checks).map(([name, c]) => ({ name, ok: c.ok, message: c.message }));
  const row = (alert: Alert) => alertRow(alert, inputs);
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
    streams: streamsPage(inputs.streams, inputs.streamsPage),
    firing: { total: inputs.firingTotal, rows: [...inputs.firing].sort(bySeverityThenStart).map(row) },
    recent: inputs.recent.map(row),
    silences: inputs.silences
      .map((s) => ({ ...s, state: silenceState(s, now) }))
      .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.endsAt.localeCompare(b.endsAt)),
    rules: inputs.rules
      .map((r) => ruleRow(r, inputs.ruleActivity.get(r.id)))
      .sort((a, b) => (b.lastMatchAt ?? -1) - (a.lastMatchAt ?? -1) || a.id.localeCompare(b.id)),
    notifiers: [...inputs.notifiers].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const STATE_ORDER: Readonly<Record<SilenceState, number>> = { active: 0, pending: 1, expired: 2 };
const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { critical: 0, warning: 1, info: 2 };

function bySeverityThenStart(a: Alert, b: Alert): number {
  return SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.startsAt.localeCompare(b.startsAt);
}

/** Stalest first; the summary covers every stream, the page 50 of them. */
export function streamsPage(streams: readonly StreamStaleness[], page: number): StatusModel['streams'] {
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
    rows: sorted.slice(start, start + STREAMS_PER_PAGE),
  };
}

function alertRow(alert: Alert, inputs: StatusInputs): AlertRow {
  const silence = silenceFor(alert, inputs.silences, inputs.now);
  const ack = inputs.acks.find((a) => a.alertKey === alert.key);
  const record = alert.trigger ?? alert.records[0];
  const account = alert.account ? `${alert.account.name} (${alert.account.id})` : '';
  return {
    key: shownText(alert.key, TEXT_MAX),
    ruleId: alert.ruleId,
    severity: alert.severity,
    status: alert.status,
    account: shownText(account, TEXT_MAX),
    summary: shownText(alert.summary, TEXT_MAX),
    memo: shownText(record?.memo ?? '', TEXT_MAX),
    startsAt: alert.startsAt,
    ...(silence
      ? {
          silencedBy: {
            id: silence.id,
            comment: shownText(silence.comment, TEXT_MAX),
            notifiers: silence.matchers.filter((m) => m.name === 'notifier').map((m) => m.value),
          },
        }
      : {}),
    ...(ack ? { ack: { ...ack, comment: shownText(ack.comment, TEXT_MAX) } } : {}),
  };
}

function ruleRow(rule: StatusRule, activity: RuleActivityEntry | undefined): RuleRow {
  return activity
    ? { ...rule, matches: activity.matches, lastMatchAt: activity.lastMatchAt }
    : { ...rule, matches: 0 };
}
