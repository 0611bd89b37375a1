// The status page's inputs, gathered from what the daemon holds now (the runtime's tailer, the outbox, the pause
// board, the rule activity), turned into the page by the pure model and renderer (src/status/). Runs on each
// request: a handful of indexed queries and one pass over the streams, nothing that grows with history.
import type { AckStore } from '../delivery/ack-store.js';
import type { SilenceStore } from '../delivery/silence-store.js';
import type { HtmlPage } from '../observability/html-route.js';
import type { ReadinessCheck } from '../observability/http-server.js';
import { shownText } from '../notifiers/neutralize.js';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { renderStatusPage } from '../status/render-status.js';
import { buildStatusModel, TEXT_MAX, type StatusAck, type StatusInputs } from '../status/status-model.js';
import { configSilences, type StatusSilence } from '../status/status-silence.js';
import { VERSION } from '../version.js';
import type { Loaded } from './load-all.js';
import { setupNotices } from './setup-notices.js';
import type { Runtime, Shared } from './runtime.js';

/** At most this many firing alerts and latest transitions are listed (the total is shown). */
const FIRING_SHOWN = 100;
const RECENT_SHOWN = 20;

export interface StatusSources {
  readonly shared: Shared;
  readonly loaded: () => Loaded;
  readonly runtime: () => Runtime | undefined;
  readonly readiness: () => Readonly<Record<string, ReadinessCheck>>;
  /** Every silence to show; the config file's by default. */
  readonly silences?: () => readonly StatusSilence[];
  /** Acknowledged alerts; none by default. */
  readonly acks?: () => readonly StatusAck[];
}

export function statusInputs(sources: StatusSources, streamsPage: number): StatusInputs {
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
    notices: setupNotices(loaded),
    ...(head !== undefined ? { lagSeconds: Number(timestampFromMillis(now) - head) / 1e9 } : {}),
    ...(strategy !== undefined ? { strategy } : {}),
    ...(capacity ? { capacity } : {}),
    streams: tailer?.streamStaleness() ?? [],
    streamsPage,
    firing: shared.outbox.firing.list(FIRING_SHOWN),
    firingTotal: shared.outbox.firing.size(),
    recent: shared.outbox.recent(RECENT_SHOWN),
    silences: sources.silences?.() ?? configSilences(config.silences),
    acks: sources.acks?.() ?? [],
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

/** GET /: `?streams_page=N` (1-based) pages the streams, stalest first. */
export function statusPage(sources: StatusSources): HtmlPage {
  return (query) => {
    const page = Number.parseInt(query.get('streams_page') ?? '1', 10);
    try {
      return renderStatusPage(buildStatusModel(statusInputs(sources, Number.isNaN(page) ? 1 : page)));
    } catch (err) {
      sources.shared.log.error({ err }, 'status page failed');
      throw err;
    }
  };
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

/** The API's acknowledgements (delivery/ack-store.ts) as the status page shows them. */
export function apiAcks(store: AckStore, limit = 100): StatusAck[] {
  return store
    .list(limit)
    .map((a) => ({ alertKey: a.key, by: a.by, at: new Date(a.at).toISOString(), comment: a.comment }));
}
