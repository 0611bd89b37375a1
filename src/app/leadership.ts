// The leader/standby lifecycle around the runtime (docs/reliability.md, "Failover"). A standby serves /healthz,
// /readyz, /metrics, the status page and the read API; only the lease holder tails and delivers. On winning the
// lease the runtime starts; on losing it (taken over, or no renewal in time by the local clock) tail and delivery
// stop at once and the app fails, so the process exits non-zero and the orchestrator restarts it as a clean standby
// (simpler to reason about than a runtime that flips back and forth in one process).
import type { ReadinessCheck } from '../observability/http-server.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Lease, LeaseState } from '../state/lease.js';
import { startLeaseElector } from '../state/lease-elector.js';

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
  /** Leadership was lost after abdicate(): the app fails and the process exits non-zero. */
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

export function startLeadership(options: LeadershipOptions): Leadership {
  const { lease, log, metrics } = options;
  let lastToken: bigint | undefined;
  let starting: Promise<void> = Promise.resolve();

  function seen(token: bigint): void {
    if (token === lastToken) return;
    if (lastToken !== undefined) metrics.leaderChanges.inc();
    lastToken = token;
    metrics.leaderFencingToken.set(Number(token));
  }

  function observe(state: LeaseState | undefined): void {
    if (state) seen(state.token);
    metrics.leaderLeaseAge.set((lease.ageMs() ?? 0) / 1000);
  }

  const elector = startLeaseElector({
    lease,
    log,
    intervalMs: options.intervalMs,
    standbyIntervalMs: options.standbyIntervalMs,
    onObserved: observe,
    onElected: (token) => {
      seen(token);
      metrics.leader.set(1);
      metrics.leaderLeaseAge.set(0);
      starting = options.lead(token).then(
        () => undefined,
        (err: unknown) => log.error({ err }, 'starting as leader failed'),
      );
    },
    onLost: (reason) => {
      metrics.leader.set(0);
      metrics.leaderLeaseAge.set(0);
      log.error(
        { reason, holder: lease.holder },
        'leadership lost: tail and delivery stopped; exiting so that the process restarts as a standby',
      );
      void starting
        .then(() => options.abdicate())
        .catch((err: unknown) => log.error({ err }, 'stopping the runtime after losing the lease failed'))
        .then(() =>
          options.onLost(
            new Error(
              `leadership lost (${reason}); tail and delivery stopped. The process exits so that it restarts as a ` +
                'standby; if this repeats, check the database latency against ha.lease_ttl (docs/reliability.md)',
            ),
          ),
        );
    },
  });
  metrics.leader.set(0);

  return {
    leading: () => elector.leading(),
    elected: () => elector.elected(),
    readiness() {
      const seen = elector.observed();
      const who = seen?.holder ? `${seen.holder} (token ${seen.token})` : 'none yet';
      if (elector.leading()) return { ok: true, message: `role: leader, token ${lease.token()}` };
      return {
        ok: true,
        message: `role: standby, leader: ${seen?.live ? who : 'none (lease free or expired)'}`,
      };
    },
    leader: () => elector.observed(),
    fenced: (error) => elector.resign(`a write was refused by the fence: ${error.message}`),
    async stop() {
      await starting;
      await elector.stop();
      metrics.leader.set(0);
      await options.close?.();
    },
  };
}
