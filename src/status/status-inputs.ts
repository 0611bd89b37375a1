// The status page's inputs, gathered from what the daemon holds now (the runtime's tailer, the outbox, the pause
// board, the rule activity; the app hands them in), turned into the page by the pure model and renderer. Runs on each
// request: a handful of indexed queries and one pass over the streams, nothing that grows with history.
import type { SilenceStore } from '../delivery/silence-store.js';
import { MAX_ALERTS_LISTED } from '../delivery/alert-view.js';
import type { HtmlPage, Viewer } from '../observability/html-route.js';
import { parseFilter, type StatusFilter } from './status-filter.js';
import type { HourCount } from './status-history.js';
import type { StatusSampler } from './status-sampler.js';
import type { ReadinessCheck } from '../observability/http-server.js';
import { shownText } from '../notifiers/neutralize.js';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { renderStatusPage } from './render-status.js';
import { buildStatusModel, TEXT_MAX, type StatusInputs } from './status-model.js';
import { configSilences, type StatusSilence } from './status-silence.js';
import { VERSION } from '../version.js';
import type { AlertView } from '../delivery/alert-view.js';
import type { Outbox } from '../delivery/outbox.js';
import type { PauseBoard } from '../delivery/pause-board.js';
import type { Logger } from '../observability/logger.js';
import type { Notifiers, Silence } from '../notifiers/schema.js';
import type { Tailer } from '../tail/tailer-types.js';
import type { RuleActivity } from './rule-activity.js';

/** Seconds between the page's own reloads (`?refresh=off` pauses them). */
export const REFRESH_SECONDS = 30;

/** What the page reads of the daemon's long-lived parts (the app's Shared is one). */
export interface StatusShared {
  readonly log: Logger;
  readonly clock: () => number;
  readonly startedAt: number;
  readonly outbox: Pick<Outbox, 'depth' | 'lastErrors'>;
  readonly pauses: Pick<PauseBoard, 'list'>;
  readonly controls: { readonly alerts: Pick<AlertView, 'list'> };
  readonly ruleActivity: Pick<RuleActivity, 'entries'>;
}

/** What the page reads of the config and rules as loaded (the app's Loaded is one). */
export interface StatusLoaded {
  readonly config: { readonly notifiers: Notifiers; readonly silences: readonly Silence[] };
  readonly ruleSet: { readonly rules: readonly StatusInputs['rules'][number][] };
  readonly accounts: readonly { readonly id: string; readonly name: string }[];
}

export type StatusTailer = Pick<Tailer, 'head' | 'strategy' | 'capacity' | 'streamStaleness'>;

export interface StatusSources {
  readonly shared: StatusShared;
  readonly loaded: () => StatusLoaded;
  /** The running tailer: the streams' staleness, the head, the strategy, the capacity. */
  readonly runtime: () => { readonly tailer: StatusTailer } | undefined;
  /** What a fresh install still lacks (app/setup-notices.ts), shown at the top; none by default. */
  readonly notices?: () => string[];
  readonly readiness: () => Readonly<Record<string, ReadinessCheck>>;
  /** Every silence to show; the config file's by default. */
  readonly silences?: () => readonly StatusSilence[];
  /** The charts' samples (status-sampler.ts); none by default. */
  readonly sampler?: StatusSampler;
  /** Alerts fired per hour over the last 24 (status-sampler.ts); none by default. */
  readonly alertsPerHour?: (now: number) => HourCount[];
}

/** What one request asks of the page (its query string and who asks). */
export interface PageRequest {
  readonly streamsPage: number;
  readonly filter?: StatusFilter;
  readonly alertsPage?: number;
  readonly selected?: StatusInputs['selected'];
  readonly done?: StatusInputs['done'];
  readonly refresh?: boolean;
  readonly viewer?: Viewer;
}

export function statusInputs(sources: StatusSources, request: PageRequest | number): StatusInputs {
  const req = typeof request === 'number' ? { streamsPage: request } : request;
  const { shared } = sources;
  const loaded = sources.loaded();
  const { config, ruleSet } = loaded;
  const now = shared.clock();
  const tailer = sources.runtime()?.tailer;
  const head = tailer?.head.head;
  const depth = shared.outbox.depth();
  const errors = shared.outbox.lastErrors();
  const pauses = new Map(shared.pauses.list().map((p) => [p.channel, p.until]));
  const strategy = tailer?.strategy();
  const capacity = tailer?.capacity();
  return {
    now,
    version: VERSION,
    startedAt: shared.startedAt,
    checks: sources.readiness(),
    notices: sources.notices?.() ?? [],
    ...(head !== undefined ? { lagSeconds: Number(timestampFromMillis(now) - head) / 1e9 } : {}),
    ...(strategy !== undefined ? { strategy } : {}),
    ...(capacity ? { capacity } : {}),
    streams: tailer?.streamStaleness() ?? [],
    streamsPage: req.streamsPage,
    accountNames: new Map(sources.loaded().accounts.map((a) => [a.id, a.name])),
    alerts: shared.controls.alerts.list({ limit: MAX_ALERTS_LISTED }),
    ...(req.filter ? { filter: req.filter } : {}),
    ...(req.alertsPage !== undefined ? { alertsPage: req.alertsPage } : {}),
    ...(req.selected ? { selected: req.selected } : {}),
    ...(req.done ? { done: req.done } : {}),
    ...(req.viewer ? { viewer: req.viewer } : {}),
    refreshSeconds: req.refresh === false ? 0 : REFRESH_SECONDS,
    samples: sources.sampler?.history.since(now - 3_600_000) ?? [],
    alertsPerHour: sources.alertsPerHour?.(now) ?? [],
    silences: sources.silences?.() ?? configSilences(config.silences),
    rules: ruleSet.rules.map((r) => ({ id: r.id, severity: r.severity, source: r.source })),
    ruleActivity: shared.ruleActivity.entries(),
    notifiers: Object.entries(config.notifiers).map(([name, n]) => {
      const error = errors.get(name);
      const until = pauses.get(name);
      return {
        name,
        kind: n.kind,
        depth: depth.get(name) ?? 0,
        ...(error ? { lastError: { ...error, message: shownText(error.message, TEXT_MAX) } } : {}),
        ...(until !== undefined ? { pausedUntil: until } : {}),
      };
    }),
  };
}

/**
 * GET /: `?streams_page=N` (1-based) pages the streams, stalest first; `severity`, `rule`, `account`, `state`
 * filter the alerts and `page=N` pages their history; `silence=<id>` / `ack=<id>` open a form; `refresh=off`
 * pauses the reloads; `done=` says what the last form did.
 */
export function statusPage(sources: StatusSources): HtmlPage {
  return (query, viewer) => {
    const selected = ['silence', 'ack'].flatMap((action) => {
      const id = query.get(action);
      return id ? [{ id, action: action as 'silence' | 'ack' }] : [];
    })[0];
    const done = ['silenced', 'acked'].find((d) => d === query.get('done')) as StatusInputs['done'];
    try {
      sources.sampler?.fresh();
      const inputs = statusInputs(sources, {
        streamsPage: pageNumber(query.get('streams_page')),
        filter: parseFilter(query),
        alertsPage: pageNumber(query.get('page')),
        refresh: query.get('refresh') !== 'off',
        ...(selected ? { selected } : {}),
        ...(done ? { done } : {}),
        ...(viewer ? { viewer } : {}),
      });
      return renderStatusPage(buildStatusModel(inputs));
    } catch (err) {
      sources.shared.log.error({ err }, 'status page failed');
      throw err;
    }
  };
}

function pageNumber(text: string | null): number {
  const n = Number.parseInt(text ?? '1', 10);
  return Number.isSafeInteger(n) ? n : 1;
}

/** The API's silences (delivery/silence-store.ts) as the status page shows them, newest first. */
export function apiSilences(store: SilenceStore, limit = 100): StatusSilence[] {
  return store.list(limit).map((s) => ({
    id: s.id,
    matchers: s.matchers.map((m) => ({ name: m.name, op: m.op, value: m.value })),
    startsAt: new Date(s.startsAt).toISOString(),
    endsAt: new Date(s.endsAt).toISOString(),
    createdBy: s.createdBy,
    comment: s.comment,
    readOnly: false,
  }));
}
