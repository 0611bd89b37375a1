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

/**
 * The elector's state, as one named structure: its options, the role it plays now and the timers that drive it.
 * The steps (step, schedule, the fence timer, lose, stop) are functions that take it.
 */
interface ElectorState {
  readonly options: LeaseElectorOptions;
  /** Renew interval of a leader. */
  readonly intervalMs: number;
  /** Acquire interval of a standby. */
  readonly standbyIntervalMs: number;
  /** Elected and not lost. */
  leading: boolean;
  /** Leadership ended once: this replica stops competing (it restarts as a clean standby). */
  lost: boolean;
  /** stop() was called: no more steps are scheduled and no election is acted on. */
  stopped: boolean;
  /** The row as last read. */
  observed: LeaseState | undefined;
  /** The next step (renew or acquire). */
  timer: NodeJS.Timeout | undefined;
  /** Fires when the local validity lapses. */
  fenceTimer: NodeJS.Timeout | undefined;
  /** The step in flight (or the last one), awaited by stop(). */
  running: Promise<void>;
}

function lose(state: ElectorState, reason: string): void {
  if (!state.leading) return;
  state.leading = false;
  state.lost = true;
  state.options.lease.drop();
  clearTimeout(state.fenceTimer);
  state.options.onLost(reason);
}

function armFence(state: ElectorState): void {
  clearTimeout(state.fenceTimer);
  // A late timer (a paused process) is covered too: every send checks lease.valid() itself.
  state.fenceTimer = setTimeout(() => checkFence(state), state.options.lease.remainingMs() + 1);
  state.fenceTimer.unref?.();
}

function checkFence(state: ElectorState): void {
  const { lease } = state.options;
  if (state.leading && !lease.valid())
    lose(
      state,
      `no lease renewal succeeded within the lease TTL minus its margin (${lease.ttlMs} ms TTL): ` +
        'the database was unreachable or this process was paused',
    );
  else if (state.leading) armFence(state);
}

async function step(state: ElectorState): Promise<void> {
  const { lease, log } = state.options;
  try {
    if (state.leading) {
      if (!(await lease.renew()))
        lose(state, 'the lease was taken over by another replica (its token is newer)');
      else if (state.leading) armFence(state);
    } else if (!state.lost) {
      const token = await lease.acquire();
      if (token !== undefined && !state.stopped) {
        state.leading = true;
        armFence(state);
        log.info({ token: token.toString(), holder: lease.holder }, 'lease acquired: leading');
        state.options.onElected(token);
      }
    }
    state.observed = await lease.read();
    state.options.onObserved?.(state.observed);
  } catch (err) {
    log.warn({ err }, 'lease query failed');
  }
}

function schedule(state: ElectorState): void {
  if (state.stopped) return;
  state.timer = setTimeout(
    () => {
      state.running = step(state).then(() => schedule(state));
    },
    state.leading ? state.intervalMs : state.standbyIntervalMs,
  );
}

async function stopElector(state: ElectorState): Promise<void> {
  const { lease, log } = state.options;
  state.stopped = true;
  clearTimeout(state.timer);
  await state.running;
  clearTimeout(state.timer);
  clearTimeout(state.fenceTimer);
  // Also a lease acquired while stopping (never acted on): released rather than left to expire.
  const held = state.leading || lease.token() !== undefined;
  state.leading = false;
  if (!held) return;
  try {
    await lease.release();
    log.info({ holder: lease.holder }, 'lease released');
  } catch (err) {
    log.warn({ err }, 'lease release failed: a standby takes over when the lease expires');
  }
}

export function startLeaseElector(options: LeaseElectorOptions): LeaseElector {
  const { lease } = options;
  const intervalMs = options.intervalMs ?? Math.max(1, Math.floor(lease.ttlMs / 3));
  const state: ElectorState = {
    options,
    intervalMs,
    standbyIntervalMs: options.standbyIntervalMs ?? Math.min(intervalMs, 1000),
    leading: false,
    lost: false,
    stopped: false,
    observed: undefined,
    timer: undefined,
    fenceTimer: undefined,
    running: Promise.resolve(),
  };
  state.running = step(state).then(() => schedule(state));
  return {
    leading: () => state.leading && lease.valid(),
    elected: () => state.leading,
    observed: () => state.observed,
    resign: (reason) => lose(state, reason),
    stop: () => stopElector(state),
  };
}
