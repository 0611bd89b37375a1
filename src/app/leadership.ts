// The leader/standby lifecycle around the runtime (docs/reliability.md, "Failover"). A standby serves /healthz,
// /readyz, /metrics, the status page and the read API; only the lease holder tails and delivers. On winning the
// lease the runtime starts; on losing it (taken over, or no renewal in time by the local clock) tail and delivery
// stop at once and the app fails, so the process exits non-zero and the orchestrator restarts it as a clean standby
// (simpler to reason about than a runtime that flips back and forth in one process).
import type { ReadinessCheck } from '../observability/http-server.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Lease, LeaseState } from '../state/lease.js';
import { startLeaseElector, type LeaseElector } from '../state/lease-elector.js';

export type LeadershipMetrics = Pick<
  Metrics,
  'leader' | 'leaderChanges' | 'leaderLeaseAge' | 'leaderFencingToken'
>;

export interface LeadershipOptions {
  readonly lease: Lease;
  readonly log: Logger;
  readonly metrics: LeadershipMetrics;
  /** Start tailing and delivering. */
  readonly lead: (token: bigint) => Promise<unknown>;
  /** Stop tailing and delivering now, without a grace period. */
  readonly abdicate: () => Promise<void>;
  /**
   * Leadership was lost: called at once (abdicate() runs meanwhile, and stop() waits for it), so that the
   * process's exit bound starts at the loss, not after a stop that may wait on an unreachable database.
   */
  readonly onLost: (error: Error) => void;
  /** Renew / acquire interval (default ttl/3). */
  readonly intervalMs?: number;
  /** Acquire attempts of a standby (default the renew interval, at most 1 s). */
  readonly standbyIntervalMs?: number;
  /** Ends the lease's connections, after the release. */
  readonly close?: () => Promise<void>;
}

export interface Leadership {
  /** Leading now by the local clock: checked before every send (leader-guard.ts). */
  leading(): boolean;
  /** Elected and not lost: whether the runtime should run (a reload restarts it only then). */
  elected(): boolean;
  /** The /readyz line: ready either way, saying which role and who leads. */
  readiness(): ReadinessCheck;
  /** Who leads, for a standby's answer to state-changing API calls. */
  leader(): LeaseState | undefined;
  /** A write was refused by the fence (FencedError from the state store): stop leading as on a lost lease. */
  fenced(error: Error): void;
  /** Releases the lease (after the caller drained its runtime), so a standby takes over at once. */
  stop(): Promise<void>;
}

/**
 * What the leadership keeps between lease events: its options, the last token seen (for the leader-change count)
 * and the start of the runtime in flight (a loss waits for it before stopping the runtime). The handlers below are
 * functions that take it.
 */
interface LeadershipState {
  readonly options: LeadershipOptions;
  lastToken: bigint | undefined;
  starting: Promise<void>;
  /** The runtime's stop after a loss (resolved when none). */
  abdicated: Promise<void>;
}

function seen(state: LeadershipState, token: bigint): void {
  if (token === state.lastToken) return;
  const { metrics } = state.options;
  if (state.lastToken !== undefined) metrics.leaderChanges.inc();
  state.lastToken = token;
  metrics.leaderFencingToken.set(Number(token));
}

function observe(state: LeadershipState, observed: LeaseState | undefined): void {
  if (observed) seen(state, observed.token);
  state.options.metrics.leaderLeaseAge.set((state.options.lease.ageMs() ?? 0) / 1000);
}

function elected(state: LeadershipState, token: bigint): void {
  const { metrics, log } = state.options;
  seen(state, token);
  metrics.leader.set(1);
  metrics.leaderLeaseAge.set(0);
  state.starting = state.options.lead(token).then(
    () => undefined,
    (err: unknown) => log.error({ err }, 'starting as leader failed'),
  );
}

function lost(state: LeadershipState, reason: string): void {
  const { metrics, log, lease } = state.options;
  metrics.leader.set(0);
  metrics.leaderLeaseAge.set(0);
  log.error(
    { reason, holder: lease.holder },
    'leadership lost: tail and delivery stopped; exiting so that the process restarts as a standby',
  );
  state.abdicated = state.starting
    .then(() => state.options.abdicate())
    .catch((err: unknown) => log.error({ err }, 'stopping the runtime after losing the lease failed'));
  state.options.onLost(
    new Error(
      `leadership lost (${reason}); tail and delivery stopped. The process exits so that it restarts as a ` +
        'standby; if this repeats, check the database latency against ha.lease_ttl (docs/reliability.md)',
    ),
  );
}

function readiness(lease: Lease, elector: LeaseElector): ReadinessCheck {
  const observed = elector.observed();
  const who = observed?.holder ? `${observed.holder} (token ${observed.token})` : 'none yet';
  if (elector.leading()) return { ok: true, message: `role: leader, token ${lease.token()}` };
  return {
    ok: true,
    message: `role: standby, leader: ${observed?.live ? who : 'none (lease free or expired)'}`,
  };
}

export function startLeadership(options: LeadershipOptions): Leadership {
  const { lease, log, metrics } = options;
  const state: LeadershipState = {
    options,
    lastToken: undefined,
    starting: Promise.resolve(),
    abdicated: Promise.resolve(),
  };
  const elector = startLeaseElector({
    lease,
    log,
    intervalMs: options.intervalMs,
    standbyIntervalMs: options.standbyIntervalMs,
    onObserved: (observed) => observe(state, observed),
    onElected: (token) => elected(state, token),
    onLost: (reason) => lost(state, reason),
  });
  metrics.leader.set(0);

  return {
    leading: () => elector.leading(),
    elected: () => elector.elected(),
    readiness: () => readiness(lease, elector),
    leader: () => elector.observed(),
    fenced: (error) => elector.resign(`a write was refused by the fence: ${error.message}`),
    async stop() {
      await state.starting;
      await state.abdicated;
      await elector.stop();
      metrics.leader.set(0);
      await options.close?.();
    },
  };
}
