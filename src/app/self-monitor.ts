// Self-monitoring: every check_interval, the daemon looks at its own health (tail rounds, cursor staleness,
// delivery outcomes) and turns what is wrong into built-in alerts, delivered through the outbox like any other.
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert.js';
import type { StreamStaleness } from '../tail/staleness.js';
import type { WatchedAccount } from '../tail/watched-account.js';
import { BUILT_IN_RULES, inhibit, transitions, type Condition } from './built-in-alerts.js';
import type { SelfMonitoringConfig } from './config.js';
import type { TailHealth } from './tail-loop.js';

export interface SelfMonitorDeps {
  readonly config: SelfMonitoringConfig;
  readonly health: TailHealth;
  readonly accounts: readonly WatchedAccount[];
  /** Every watched stream's staleness (tailer.streamStaleness), not just the exported top-N series. */
  readonly staleness: () => readonly StreamStaleness[];
  readonly metrics: Pick<Metrics, 'notifications'>;
  readonly clock: () => number;
  readonly startedAt: number;
  /** Enqueues the alerts (in one transaction) and wakes the delivery worker. */
  readonly emit: (alerts: readonly Alert[]) => void;
  readonly log: Logger;
  /** Kept across reloads, so a reload does not fire what is already firing again. */
  readonly state?: SelfMonitorState;
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
  const streaks = state.streaks;
  return {
    async check() {
      const all = [
        downCondition(deps),
        ...staleConditions(deps),
        ...(await deliveryConditions(deps, streaks)),
      ].flat();
      const kept = inhibit(all);
      const held = new Set(all.filter((c) => !kept.includes(c)).map((c) => c.key));
      const result = transitions(state.firing, kept, held, deps.config.notify, new Date(deps.clock()));
      state.firing = result.firing;
      if (result.alerts.length > 0) {
        const alerts = result.alerts.map((a) => `${a.ruleId}:${a.status}`);
        deps.log.warn({ alerts }, 'self-monitoring alert');
        deps.emit(result.alerts);
      }
      return result.alerts;
    },
    firing: () => [...state.firing.values()],
  };
}

function downCondition(deps: SelfMonitorDeps): Condition[] {
  const since = deps.health.lastReachableAt ?? deps.startedAt;
  const seconds = Math.round((deps.clock() - since) / 1000);
  if (deps.clock() - since <= deps.config.query_service_down_after) return [];
  return [
    {
      key: BUILT_IN_RULES.queryServiceDown,
      ruleId: BUILT_IN_RULES.queryServiceDown,
      severity: 'critical',
      summary: 'The ledger query service is unreachable',
      description: `No successful poll for ${seconds} s; no alerts can fire meanwhile.`,
    },
  ];
}

function staleConditions(deps: SelfMonitorDeps): Condition[] {
  const limit = deps.config.account_stale_after / 1000;
  const byId = new Map(deps.accounts.map((a) => [a.id, a]));
  return deps
    .staleness()
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

/** Failed attempts (retry or dead) since the last successful send, per notifier, from the counters. */
async function deliveryConditions(deps: SelfMonitorDeps, streaks: Streaks): Promise<Condition[]> {
  const totals = new Map<string, { failed: number; sent: number }>();
  for (const v of (await deps.metrics.notifications.get()).values) {
    const name = String(v.labels.notifier);
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
