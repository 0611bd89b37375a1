// The alerts as the API, the CLI and the status page show them: one entry per alert key, from the outbox (what was
// sent, table outbox_alert) and the firing set — firing ones, and those resolved in the last 24 h — with first and
// last seen, the records of the latest transition, and what holds them back (silences, acks).
import { createHash } from 'node:crypto';
import type { Alert, AlertRecord, Severity } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';
import type { AckStore, StoredAck } from './ack-store.js';
import { findSilence } from './route.js';
import type { Silence } from '../notifiers/schema.js';

export interface AlertFilter {
  readonly rule?: string;
  /** Account id or name. */
  readonly account?: string;
  readonly severity?: Severity;
  readonly state?: 'firing' | 'resolved';
  readonly limit?: number;
}

export interface AlertEntry {
  /** Short stable id of the key (sha256, 16 hex digits): what `POST /api/v1/alerts/{id}/ack` takes. */
  readonly id: string;
  readonly key: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly state: 'firing' | 'resolved';
  /** false for per-record rules: such an alert never resolves and is listed until 24 h after it last fired. */
  readonly resolves: boolean;
  readonly summary: string;
  readonly account?: Alert['account'];
  readonly labels: Alert['labels'];
  readonly startsAt: string;
  readonly endsAt?: string;
  /** When the daemon first and last emitted a transition of this key (ISO). */
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly latestId: string;
  readonly matchCount: number;
  readonly records: readonly AlertRecord[];
  /** Ids of the API silences (and `config:N` of config-file silences) matching it now. */
  readonly silencedBy: string[];
  readonly acknowledgedBy?: { by: string; comment: string; at: string; expiresAt?: string };
}

export interface AlertViewDeps {
  readonly store: StateStore;
  readonly acks: AckStore;
  readonly clock: () => number;
  /** Active API silences matching an alert (suppression.ts). */
  readonly silencedBy: (alert: Alert, now: number) => string[];
  readonly configSilences: () => readonly Silence[];
}

export interface AlertView {
  list(filter?: AlertFilter): AlertEntry[];
  /** By id (fingerprint) or key. */
  find(idOrKey: string): AlertEntry | undefined;
}

const RECENT_MS = 24 * 3600 * 1000;
/** Rows read per listing: the view is bounded whatever the alert rate. */
const MAX_ROWS = 20_000;
export const MAX_ALERTS_LISTED = 5000;

export function alertFingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export function createAlertView(deps: AlertViewDeps): AlertView {
  const recent = deps.store.db.prepare(
    'SELECT alert_json, created_at FROM outbox_alert WHERE created_at >= ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const firing = deps.store.db.prepare('SELECT alert_json FROM outbox_firing LIMIT ?');
  function all(): AlertEntry[] {
    const now = deps.clock();
    const seen = new Map<string, { latest: Alert; first: number; last: number }>();
    for (const row of recent.all(now - RECENT_MS, MAX_ROWS) as { alert_json: string; created_at: number }[]) {
      const alert = JSON.parse(row.alert_json) as Alert;
      const entry = seen.get(alert.key);
      if (entry) entry.first = Math.min(entry.first, row.created_at);
      else seen.set(alert.key, { latest: alert, first: row.created_at, last: row.created_at });
    }
    // Firing alerts that will resolve stay listed however long ago they fired.
    for (const row of firing.all(MAX_ROWS) as { alert_json: string }[]) {
      const alert = JSON.parse(row.alert_json) as Alert;
      const at = Date.parse(alert.startsAt);
      if (!seen.has(alert.key)) seen.set(alert.key, { latest: alert, first: at, last: at });
    }
    return [...seen.values()].map(({ latest, first, last }) => entryOf(deps, latest, first, last, now));
  }
  return {
    list(filter = {}) {
      const limit = Math.min(filter.limit ?? 500, MAX_ALERTS_LISTED);
      return all()
        .filter((e) => matchesFilter(e, filter))
        .sort((a, b) => b.lastSeen.localeCompare(a.lastSeen) || a.key.localeCompare(b.key))
        .slice(0, limit);
    },
    find: (idOrKey) => all().find((e) => e.id === idOrKey || e.key === idOrKey),
  };
}

function entryOf(deps: AlertViewDeps, latest: Alert, first: number, last: number, now: number): AlertEntry {
  const ack = deps.acks.covering(latest, now);
  const configIds = deps
    .configSilences()
    .flatMap((s, i) => (findSilence(latest, s.notifiers?.[0] ?? '', [s], now) ? [`config:${i}`] : []));
  return {
    id: alertFingerprint(latest.key),
    key: latest.key,
    rule: latest.ruleId,
    severity: latest.severity,
    state: latest.status,
    resolves: latest.resolves === true,
    summary: latest.summary,
    ...(latest.account ? { account: latest.account } : {}),
    labels: latest.labels,
    startsAt: latest.startsAt,
    ...(latest.endsAt ? { endsAt: latest.endsAt } : {}),
    firstSeen: new Date(first).toISOString(),
    lastSeen: new Date(last).toISOString(),
    latestId: latest.id,
    matchCount: latest.matchCount,
    records: latest.records,
    silencedBy: [...deps.silencedBy(latest, now), ...configIds],
    ...(ack ? { acknowledgedBy: ackView(ack) } : {}),
  };
}

function ackView(ack: StoredAck): NonNullable<AlertEntry['acknowledgedBy']> {
  return {
    by: ack.by,
    comment: ack.comment,
    at: new Date(ack.at).toISOString(),
    ...(ack.expiresAt === undefined ? {} : { expiresAt: new Date(ack.expiresAt).toISOString() }),
  };
}

function matchesFilter(e: AlertEntry, f: AlertFilter): boolean {
  if (f.rule !== undefined && e.rule !== f.rule) return false;
  if (f.severity !== undefined && e.severity !== f.severity) return false;
  if (f.state !== undefined && e.state !== f.state) return false;
  return f.account === undefined || e.account?.id === f.account || e.account?.name === f.account;
}
