// Self-monitoring: every check_interval, the daemon looks at its own health (tail rounds, cursor staleness,
// delivery outcomes) and turns what is wrong into built-in alerts, delivered through the outbox like any other.
import type { Logger } from 'pino';
import type { ChannelPause } from '../delivery/pause-board.js';
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import type { StreamStaleness } from '../tail/health/staleness-summary.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import { BUILT_IN_RULES, inhibit, transitions, type Condition } from './built-in-alerts.js';
import type { SelfMonitoringConfig } from './self-monitoring-config.js';
import type { TailHealth } from '../tail/loop/daemon-loop.js';
import { quarantineConditions, type QuarantineView } from './quarantine-conditions.js';
import type { UnresolvedAccount } from './unresolved-conditions.js';
import { unresolvedConditions } from './unresolved-conditions.js';
import { createStaleHold } from './stale-hold.js';
import { capacityConditions } from '../self-monitor/capacity-conditions.js';
import { clockConditions } from './clock-conditions.js';

export interface SelfMonitorDeps {
  readonly config: SelfMonitoringConfig;
  readonly health: TailHealth;
  readonly accounts: readonly WatchedAccount[];
  /** Every watched stream's staleness (tailer.streamStaleness), not just the exported top-N series. */
  readonly staleness: () => readonly StreamStaleness[];
  readonly metrics: Pick<Metrics, 'notifications'>;
  /** Notifiers paused by a receiver's Retry-After (the delivery worker's pause board). */
  readonly pauses?: () => readonly ChannelPause[];
  /** The configured notifiers: a failing streak of one no longer configured is dropped (its alert resolves). */
  readonly notifiers: readonly string[];
  readonly clock: () => number;
  readonly startedAt: number;
  /**
   * Enqueues the alerts and saves the state they leave behind, in one transaction, and wakes the delivery worker.
   * Called when there are alerts or the state to keep changed; throws when nothing was written.
   */
  readonly emit: (alerts: readonly Alert[], state: SelfMonitorState) => void;
  readonly log: Logger;
  /** Records kept in quarantine (tail/quarantine/quarantine-store.ts); each is an alert until released. */
  readonly quarantined?: () => QuarantineView;
  /**
   * Kept across reloads, and saved through emit() so that it is kept across restarts too (self-monitor-repo.ts):
   * a reload or a restart does not fire again what is already firing.
   */
  readonly state?: SelfMonitorState;
  /** Accounts named by EVM address or alias that the query service has not resolved (not tailed). */
  readonly unresolved?: readonly UnresolvedAccount[];
}

export interface SelfMonitorState {
  firing: Map<string, Alert>;
  readonly streaks: Map<string, { failed: number; sent: number; streak: number }>;
}

export function createSelfMonitorState(): SelfMonitorState {
  return { firing: new Map(), streaks: new Map() };
}

export interface SelfMonitor {
  /** One evaluation; resolves with the transitions it emitted. */
  check(): Promise<Alert[]>;
  firing(): readonly Alert[];
}

type Streaks = SelfMonitorState['streaks'];

export function createSelfMonitor(deps: SelfMonitorDeps): SelfMonitor {
  const state = deps.state ?? createSelfMonitorState();
  let saved = persisted(state);
  const hold = createStaleHold(deps.config.account_stale_after);
  return {
    async check() {
      const streaks = new Map(state.streaks);
      const down = downCondition(deps, state.firing);
      const streams = deps.staleness();
      const { health } = deps;
      const outage = down.length > 0 || health.failedRounds > 0 || health.lastReachableAt === undefined;
      hold.update({ now: deps.clock(), outage, streams });
      const all = [
        down,
        ...staleConditions(
          deps,
          streams.filter((v) => !hold.isHeld(v)),
        ),
        ...oneByKey([...pauseConditions(deps), ...(await deliveryConditions(deps, streaks))]),
        ...(deps.quarantined ? quarantineConditions(deps.quarantined(), deps.accounts) : []),
        ...unresolvedConditions(deps.unresolved ?? [], deps.config.account_stale_after, deps.clock()),
        ...futureCondition(deps, state.firing),
        ...clockConditions({
          ...{ ahead: health.lastAhead, step: health.lastClockStep, firing: new Set(state.firing.keys()) },
          ...{ now: deps.clock(), startedAt: deps.startedAt },
          resolveAfterMs: deps.config.future_record_resolve_after,
        }),
        ...capacityConditions(health.capacity),
      ].flat();
      const kept = inhibit(all);
      // Inhibited, or stale streams not polled since the service came back: firing alerts stay as they are.
      const heldStale = staleConditions(
        deps,
        streams.filter((v) => hold.isHeld(v)),
      );
      const held = new Set([...all.filter((c) => !kept.includes(c)), ...heldStale].map((c) => c.key));
      const result = transitions(state.firing, kept, held, deps.config.notify, new Date(deps.clock()));
      const next: SelfMonitorState = { firing: result.firing, streaks };
      const view = persisted(next);
      // Written first, adopted after: when the write fails, the next check finds the same transitions again.
      if (result.alerts.length > 0 || view !== saved) deps.emit(result.alerts, next);
      saved = view;
      state.firing = result.firing;
      state.streaks.clear();
      for (const [name, s] of streaks) state.streaks.set(name, s);
      if (result.alerts.length > 0) {
        const alerts = result.alerts.map((a) => `${a.ruleId}:${a.status}`);
        deps.log.warn({ alerts }, 'self-monitoring alert');
      }
      return result.alerts;
    },
    firing: () => [...state.firing.values()],
  };
}

/** The first condition of each key: a long pause and a failure streak of one notifier are one alert. */
function oneByKey(conditions: readonly Condition[]): Condition[] {
  const seen = new Set<string>();
  return conditions.filter((c) => !seen.has(c.key) && seen.add(c.key));
}

/** A configured notifier paused by its receiver for longer than delivery_paused_after, without a send since. */
function pauseConditions(deps: SelfMonitorDeps): Condition[] {
  const configured = new Set(deps.notifiers);
  const now = deps.clock();
  return (deps.pauses?.() ?? [])
    .filter((p) => configured.has(p.channel) && now - p.since >= deps.config.delivery_paused_after)
    .map((p) => ({
      key: `${BUILT_IN_RULES.deliveryFailing}|${p.channel}`,
      ruleId: BUILT_IN_RULES.deliveryFailing,
      severity: 'critical' as const,
      summary: `Notifier ${p.channel} is paused by its receiver`,
      description:
        `No delivery to ${p.channel} for ${Math.round((now - p.since) / 1000)} s: its receiver answered ` +
        `${p.reason.startsWith('http_') ? `HTTP ${p.reason.slice(5)}` : 'a request (for another notifier on the same URL)'} ` +
        `with Retry-After ${Math.round(p.askedMs / 1000)} s ` +
        `(waiting ${Math.round(p.waitMs / 1000)} s at a time, max_retry_after); alerts for it wait in the outbox.`,
      exclude: [p.channel],
    }));
}

/** What of the state is saved (firing keys and streak lengths), as one comparable string. */
function persisted(state: SelfMonitorState): string {
  const streaks = [...state.streaks].filter(([, s]) => s.streak > 0).map(([n, s]) => [n, s.streak]);
  return JSON.stringify([[...state.firing.keys()], streaks]);
}

function downCondition(deps: SelfMonitorDeps, firing: ReadonlyMap<string, Alert>): Condition[] {
  const since = deps.health.lastReachableAt ?? deps.startedAt;
  const seconds = Math.round((deps.clock() - since) / 1000);
  // Firing when this process started (restored state) and no poll has answered since: nothing says it is back,
  // so it stays firing (and keeps holding back the staleness alerts) rather than resolving only to fire again.
  const unconfirmed =
    deps.health.lastReachableAt === undefined && firing.has(BUILT_IN_RULES.queryServiceDown);
  if (!unconfirmed && deps.clock() - since <= deps.config.query_service_down_after) return [];
  return [
    {
      key: BUILT_IN_RULES.queryServiceDown,
      ruleId: BUILT_IN_RULES.queryServiceDown,
      severity: 'critical',
      summary: 'The ledger query service is unreachable',
      // When unconfirmed, the alert firing since before the restart is kept as it is (this text is not sent).
      description: `No successful poll for ${seconds} s; no alerts can fire meanwhile.`,
    },
  ];
}

/**
 * A record dated beyond now + tail.max_clock_skew came from the query service: firing until none has come for
 * future_record_resolve_after. One restored as firing across a restart (the sighting itself is not saved) is
 * kept for that long after the start, rather than resolving at the first check.
 */
function futureCondition(deps: SelfMonitorDeps, firing: ReadonlyMap<string, Alert>): Condition[] {
  const last = deps.health.lastFuture;
  const since = last?.atMs ?? (firing.has(BUILT_IN_RULES.futureRecord) ? deps.startedAt : undefined);
  if (since === undefined || deps.clock() - since > deps.config.future_record_resolve_after) return [];
  const seconds = last?.seconds ?? 0;
  return [
    {
      key: BUILT_IN_RULES.futureRecord,
      ruleId: BUILT_IN_RULES.futureRecord,
      severity: 'warning',
      summary: `The query service returned a record ${seconds} s in the future`,
      description:
        `A ${last?.source ?? ''} record of ${last?.account ?? ''} has consensus timestamp ` +
        `${last?.timestamp ?? ''}, beyond now + tail.max_clock_skew. It was evaluated, but moves no cursor: ` +
        'check the query service (or this host’s clock).',
    },
  ];
}

function staleConditions(deps: SelfMonitorDeps, streams: readonly StreamStaleness[]): Condition[] {
  const limit = deps.config.account_stale_after / 1000;
  const byId = new Map(deps.accounts.map((a) => [a.id, a]));
  return streams
    .filter((v) => v.seconds > limit)
    .map((v) => {
      const account = byId.get(v.account);
      const name = account?.name ?? v.account;
      return {
        key: `${BUILT_IN_RULES.accountStale}|${v.account}|${v.source}`,
        ruleId: BUILT_IN_RULES.accountStale,
        severity: 'warning' as const,
        summary: `The ${v.source} cursor of ${name} has not advanced`,
        description: `No progress on ${name} (${v.account}) for ${Math.round(v.seconds)} s; alerts for it may be late.`,
        ...(account ? { account: { id: v.account, name, labels: account.labels } } : {}),
      };
    });
}

/**
 * Failed attempts (retry or dead) since the last successful send, per configured notifier, from the counters.
 * A streak restored from before a restart goes on from where it was (the counters start again from 0).
 */
async function deliveryConditions(deps: SelfMonitorDeps, streaks: Streaks): Promise<Condition[]> {
  const configured = new Set(deps.notifiers);
  for (const name of streaks.keys()) if (!configured.has(name)) streaks.delete(name);
  const totals = new Map<string, { failed: number; sent: number }>();
  for (const name of streaks.keys()) totals.set(name, { failed: 0, sent: 0 });
  for (const v of (await deps.metrics.notifications.get()).values) {
    const name = String(v.labels.notifier);
    if (!configured.has(name)) continue;
    const t = totals.get(name) ?? { failed: 0, sent: 0 };
    if (v.labels.outcome === 'sent') t.sent += v.value;
    else if (v.labels.outcome === 'retry' || v.labels.outcome === 'dead') t.failed += v.value;
    totals.set(name, t);
  }
  const out: Condition[] = [];
  for (const [name, t] of totals) {
    const last = streaks.get(name) ?? { failed: 0, sent: 0, streak: 0 };
    const streak = t.sent > last.sent ? 0 : last.streak + (t.failed - last.failed);
    streaks.set(name, { ...t, streak });
    if (streak < deps.config.delivery_failures) continue;
    out.push({
      key: `${BUILT_IN_RULES.deliveryFailing}|${name}`,
      ruleId: BUILT_IN_RULES.deliveryFailing,
      severity: 'critical',
      summary: `Deliveries to notifier ${name} keep failing`,
      description: `${streak} delivery attempts to ${name} failed in a row; alerts for it wait in the outbox.`,
      exclude: [name],
    });
  }
  return out;
}
