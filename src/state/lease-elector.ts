// Runs the lease: every interval (ttl/3) the leader renews and a standby tries to acquire. A fence timer fires
// when the local validity lapses (lease.ts): the leader then stops at once, whether or not the database answers.
// A replica that lost leadership stops competing: the app exits non-zero and restarts as a clean standby
// (docs/reliability.md, "Failover").
import type { Logger } from '../observability/logger.js';
import type { Lease, LeaseState } from './lease.js';

export interface LeaseElectorOptions {
  readonly lease: Lease;
  readonly log: Logger;
  /** Renew interval (default ttl/3: two renewals may fail before the lease lapses). */
  readonly intervalMs?: number;
  /** Acquire attempts of a standby (default the renew interval, at most 1 s: a released lease is taken at once). */
  readonly standbyIntervalMs?: number;
  readonly onElected: (token: bigint) => void;
  /** Leadership ended (taken over or self-fenced); called at most once, and never after stop(). */
  readonly onLost: (reason: string) => void;
  /** Every successful read of the row (leader and standby), for metrics and /readyz. */
  readonly onObserved?: (state: LeaseState | undefined) => void;
}

export interface LeaseElector {
  /** Leading now: elected, not lost, and the local validity has not lapsed. */
  leading(): boolean;
  /** Elected and not lost (the local validity may lapse a moment before the fence timer says so). */
  elected(): boolean;
  /** The row as last read. */
  observed(): LeaseState | undefined;
  /** Stops leading now for a reason found elsewhere (a write refused by the fence: FencedError). */
  resign(reason: string): void;
  /** Stops competing and releases the lease if held, so that a standby takes over at once. */
  stop(): Promise<void>;
}

export function startLeaseElector(options: LeaseElectorOptions): LeaseElector {
  const { lease, log } = options;
  const intervalMs = options.intervalMs ?? Math.max(1, Math.floor(lease.ttlMs / 3));
  const standbyIntervalMs = options.standbyIntervalMs ?? Math.min(intervalMs, 1000);
  let leading = false;
  let lost = false;
  let stopped = false;
  let observed: LeaseState | undefined;
  let timer: NodeJS.Timeout | undefined;
  let fenceTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  function lose(reason: string): void {
    if (!leading) return;
    leading = false;
    lost = true;
    lease.drop();
    clearTimeout(fenceTimer);
    options.onLost(reason);
  }

  function armFence(): void {
    clearTimeout(fenceTimer);
    // A late timer (a paused process) is covered too: every send checks lease.valid() itself.
    fenceTimer = setTimeout(checkFence, lease.remainingMs() + 1);
    fenceTimer.unref?.();
  }

  function checkFence(): void {
    if (leading && !lease.valid())
      lose(
        `no lease renewal succeeded within the lease TTL minus its margin (${lease.ttlMs} ms TTL): ` +
          'the database was unreachable or this process was paused',
      );
    else if (leading) armFence();
  }

  async function step(): Promise<void> {
    try {
      if (leading) {
        if (!(await lease.renew())) lose('the lease was taken over by another replica (its token is newer)');
        else if (leading) armFence();
      } else if (!lost) {
        const token = await lease.acquire();
        if (token !== undefined && !stopped) {
          leading = true;
          armFence();
          log.info({ token: token.toString(), holder: lease.holder }, 'lease acquired: leading');
          options.onElected(token);
        }
      }
      observed = await lease.read();
      options.onObserved?.(observed);
    } catch (err) {
      log.warn({ err }, 'lease query failed');
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = step().then(schedule);
      },
      leading ? intervalMs : standbyIntervalMs,
    );
  }

  running = step().then(schedule);
  return {
    leading: () => leading && lease.valid(),
    elected: () => leading,
    observed: () => observed,
    resign: lose,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      clearTimeout(timer);
      clearTimeout(fenceTimer);
      // Also a lease acquired while stopping (never acted on): released rather than left to expire.
      const held = leading || lease.token() !== undefined;
      leading = false;
      if (!held) return;
      try {
        await lease.release();
        log.info({ holder: lease.holder }, 'lease released');
      } catch (err) {
        log.warn({ err }, 'lease release failed: a standby takes over when the lease expires');
      }
    },
  };
}
