// The runtime's types, in a leaf of their own: runtime.ts builds the parts, runtime-tail.ts, runtime-timers.ts,
// heartbeat-timer.ts and escalate-on-tick.ts run them, and all of them name these shapes without importing
// each other for it.

import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { Channel } from '../delivery/channels.js';
import type { DeliveryWorker } from '../delivery/delivery-worker.js';
import type { Outbox } from '../delivery/outbox.js';
import type { PauseBoard } from '../delivery/pause-board.js';
import type { Metrics } from '../observability/metrics.js';
import type { TailHealth } from '../tail/loop/daemon-loop.js';
import type { EngineHolder } from '../pipeline/engine-holder.js';
import type { Route } from '../notifiers/schema.js';
import type { RuleStateRepo } from '../rules/alert-state/state-repo.js';
import type { SelfMonitor, SelfMonitorState } from '../self-monitor/self-monitor.js';
import type { SelfMonitorRepo } from '../self-monitor/self-monitor-repo.js';
import type { StateStore } from '../state/store.js';
import type { RuleActivity } from '../status/rule-activity.js';
import type { Quarantine } from '../tail/quarantine/quarantine-store.js';
import type { Tailer } from '../tail/tailer-types.js';
import type { Delivery } from './delivery.js';
import type { LiveTailer } from '../tail/loop/live-tailer.js';
import type { Loaded } from './load-all.js';
import type { ReloadPlan } from '../config-file/reload-plan.js';
import type { RuntimeControls } from './runtime-controls.js';

/** What outlives a reload. */
export interface Shared {
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly store: StateStore;
  readonly repo: RuleStateRepo;
  readonly outbox: Outbox;
  readonly engines: EngineHolder;
  readonly health: TailHealth;
  readonly stdout: Writable;
  /** The daemon's `now` (ms since the epoch): the wall clock, never going back (tail/head/clock-watch.ts). */
  readonly clock: () => number;
  /** The monotonic clock (ms): for elapsed times and timers only. */
  readonly monotonic: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly startedAt: number;
  readonly selfMonitor: SelfMonitorState;
  readonly selfMonitorRepo: SelfMonitorRepo;
  /** Notifiers paused by a receiver's Retry-After; kept across reloads so a pause's age is not reset. */
  readonly pauses: PauseBoard;
  /** Matches per rule since start, for the status page. */
  readonly ruleActivity: RuleActivity;
  /** API silences, acks and inhibition rules (delivery/suppression.ts), kept across reloads. */
  readonly controls: RuntimeControls;
}

export interface Runtime {
  readonly worker: DeliveryWorker;
  /** The status page reads the streams' staleness, the head and the strategy from it. */
  readonly tailer: Tailer;
  /** Swaps the parts `next` changes, with `channels` built from it (buildChannels); says which it swapped. */
  update(next: Loaded, channels: Map<string, Channel>): Promise<ReloadPlan>;
  /** Stops polling and timers; with graceMs, sends what is pending for at most that long first. */
  stop(graceMs?: number): Promise<void>;
}

/** The running parts; update() replaces some of them in place. */
export interface RuntimeParts {
  loaded: Loaded;
  /** The delivery worker looks channels up per pass: entries are swapped in this very map. */
  readonly channels: Map<string, Channel>;
  readonly quarantine: Quarantine;
  delivery: Delivery;
  tail: TailPart;
  tick: NodeJS.Timeout;
  monitor: SelfMonitor | undefined;
  checks: NodeJS.Timeout;
  heartbeat?: HeartbeatTimer;
}

export interface TailPartDeps {
  readonly routes: () => readonly Route[];
  /** New alerts are in the outbox: wake the delivery worker. */
  readonly poke: () => void;
  readonly quarantine: Quarantine;
}

export interface TailPart {
  readonly tailer: LiveTailer;
  /** A new watch list, polled from the next round of the running loop. */
  swapAccounts(loaded: Loaded): void;
  /** Stops the loop (after the round in flight) and closes the clients. */
  stop(): Promise<void>;
}

export interface HeartbeatTimer {
  /** The config it runs with: a reload restarts it only when this changes. */
  readonly key: string;
  stop(): void;
}
