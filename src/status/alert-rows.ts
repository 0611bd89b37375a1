// The status page's alerts, from one list (the alert view, delivery/alert-view.ts: one entry per alert key with
// its latest transition): "firing now" and "history" are two filters of that list, so the page cannot say that
// nothing fires above a row that fires, and a key that resolved shows once, resolved. A silence or an ack is shown
// only on an alert that still fires: a silence made after an alert resolved never held it back.
import type { AlertEntry } from '../delivery/alert-view.js';
import { shownText } from '../notifiers/neutralize.js';
import type { Severity } from '../rules/alert/alert.js';
import { alertState, matchesFilter, type AlertState, type StatusFilter } from './status-filter.js';
import type { StatusSilence } from './status-silence.js';

export const TEXT_MAX = 240;
/** History rows per page. */
export const HISTORY_PER_PAGE = 50;
/** Firing alerts listed (the total is shown). */
export const FIRING_SHOWN = 100;

export interface AlertRow {
  /** What POST /api/v1/alerts/{id}/ack takes. */
  readonly id: string;
  readonly key: string;
  readonly ruleId: string;
  readonly severity: Severity;
  readonly state: AlertState;
  readonly account: string;
  readonly summary: string;
  readonly memo: string;
  readonly startsAt: string;
  readonly endsAt?: string;
  /** When the latest transition was sent (ISO). */
  readonly lastSeen: string;
  readonly silencedBy?: {
    readonly id: string;
    readonly comment: string;
    readonly notifiers: readonly string[];
  };
  readonly ack?: { readonly by: string; readonly at: string; readonly comment: string };
  /** Matchers of a silence of exactly this alert, one per line (the silence form's default). */
  readonly matchers: string;
}

export interface AlertsModel {
  readonly filter: StatusFilter;
  /** Firing now (after the filter), critical first, then the oldest. */
  readonly firing: { readonly total: number; readonly rows: readonly AlertRow[] };
  /** Every alert of the last 24 h and every one still firing (after the filter), latest first, paged. */
  readonly history: {
    readonly total: number;
    readonly page: number;
    readonly pages: number;
    readonly rows: readonly AlertRow[];
  };
  /** Unfiltered counts for the overview. */
  readonly counts: { readonly firing: number; readonly oneShot: number; readonly resolved: number };
  /** The selected alert of `?silence=` / `?ack=`. */
  readonly selected?: AlertRow;
}

const SEVERITY_ORDER: ReadonlyMap<Severity, number> = new Map([
  ['critical', 0],
  ['warning', 1],
  ['info', 2],
]);

export function alertsModel(options: {
  readonly entries: readonly AlertEntry[];
  readonly filter: StatusFilter;
  readonly page: number;
  readonly silences: readonly StatusSilence[];
  readonly selected?: string;
}): AlertsModel {
  const bySilence = new Map(options.silences.map((s) => [s.id, s]));
  const row = (entry: AlertEntry) => alertRow(entry, bySilence);
  const states = options.entries.map(alertState);
  const shown = options.entries.filter((e) => matchesFilter(e, options.filter));
  const firing = shown.filter((e) => alertState(e) === 'firing').sort(bySeverityThenStart);
  const pages = Math.max(1, Math.ceil(shown.length / HISTORY_PER_PAGE));
  const page = Math.min(pages, Math.max(1, Number.isSafeInteger(options.page) ? options.page : 1));
  const history = [...shown].sort(
    (a, b) => b.lastSeen.localeCompare(a.lastSeen) || a.key.localeCompare(b.key),
  );
  const selected = options.entries.find((e) => e.id === options.selected);
  return {
    filter: options.filter,
    firing: { total: firing.length, rows: firing.slice(0, FIRING_SHOWN).map(row) },
    history: {
      total: shown.length,
      page,
      pages,
      rows: history.slice((page - 1) * HISTORY_PER_PAGE, page * HISTORY_PER_PAGE).map(row),
    },
    counts: {
      firing: states.filter((s) => s === 'firing').length,
      oneShot: states.filter((s) => s === 'one-shot').length,
      resolved: states.filter((s) => s === 'resolved').length,
    },
    ...(selected ? { selected: row(selected) } : {}),
  };
}

function bySeverityThenStart(a: AlertEntry, b: AlertEntry): number {
  const order = (s: Severity) => SEVERITY_ORDER.get(s) ?? 3;
  return order(a.severity) - order(b.severity) || a.startsAt.localeCompare(b.startsAt);
}

function alertRow(entry: AlertEntry, silences: ReadonlyMap<string, StatusSilence>): AlertRow {
  const state = alertState(entry);
  const record = entry.records[0];
  const account = entry.account ? `${entry.account.name} (${entry.account.id})` : '';
  const silence = state === 'resolved' ? undefined : silenceOf(entry.silencedBy, silences);
  const ack = state === 'resolved' ? undefined : entry.acknowledgedBy;
  return {
    id: entry.id,
    key: shownText(entry.key, TEXT_MAX),
    ruleId: entry.rule,
    severity: entry.severity,
    state,
    account: shownText(account, TEXT_MAX),
    summary: shownText(entry.summary, TEXT_MAX),
    memo: shownText(record?.memo ?? '', TEXT_MAX),
    startsAt: entry.startsAt,
    ...(entry.endsAt !== undefined ? { endsAt: entry.endsAt } : {}),
    lastSeen: entry.lastSeen,
    ...(silence ? { silencedBy: silence } : {}),
    ...(ack ? { ack: { by: ack.by, at: ack.at, comment: shownText(ack.comment, TEXT_MAX) } } : {}),
    matchers: [
      `rule=${JSON.stringify(entry.rule)}`,
      ...(entry.account ? [`account=${JSON.stringify(entry.account.id)}`] : []),
    ].join('\n'),
  };
}

/** The first silence holding the alert back, by the ids the delivery worker's own matching gave. */
function silenceOf(
  ids: readonly string[],
  silences: ReadonlyMap<string, StatusSilence>,
): AlertRow['silencedBy'] | undefined {
  const id = ids[0];
  if (id === undefined) return undefined;
  // The alert view names config-file silences `config:N` (0-based); the page numbers them `config-N+1`.
  const index = /^config:(\d+)$/.exec(id)?.[1];
  const silence = silences.get(index === undefined ? id : `config-${Number(index) + 1}`);
  const notifiers = silence?.matchers.filter((m) => m.name === 'notifier').map((m) => m.value) ?? [];
  return { id: silence?.id ?? id, comment: shownText(silence?.comment ?? '', TEXT_MAX), notifiers };
}
