// What a notifier kind is (its config schema, its secrets, its factory) and what it is handed to send with:
// the clock, the logger, the state store and the pacing of its receiver. A leaf: each kind's folder names these
// and registry.ts lists the kinds, so neither imports the other for them. The pacers themselves are built by the
// delivery worker's channels (delivery/pacer.ts), above the notifiers.
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { Logger } from '../observability/logger.js';
import type { StateStore } from '../state/store.js';
import type { Notifier } from './notifier.js';

export interface Pacer {
  /** Resolves when this caller may send (after at most one interval); throws a deferred NotifyError if later. */
  wait(signal: AbortSignal): Promise<void>;
  /** The receiver asked for a pause (429 Retry-After, capped): nobody sends before now + ms. */
  pause(ms: number, askedMs?: number): void;
}

/** One pacer per receiver, shared by every notifier that sends there (two notifiers, one webhook: one pace). */
export interface Pacers {
  /** The pacer of `receiver`; notifiers sharing a receiver are spaced by the largest interval any of them asks. */
  pacer(receiver: string, intervalMs: number): Pacer;
}

export interface NotifierDeps {
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly logger: Logger;
  /** Where the console notifier writes: stdout in the demo, stderr under `run` (stdout holds the JSON logs). */
  readonly stdout: Writable;
  /** Pacing per receiver (Slack: per webhook URL), shared by every notifier that sends there. */
  readonly pacers: Pacers;
  /** The state store, for notifiers that keep receiver state across restarts (slack-app: message ts); absent in `check`. */
  readonly store?: StateStore;
}

export interface NotifierKind<C extends { kind: string }> {
  readonly config: z.ZodType<C, unknown>;
  /** The secret values in a config, for the logger's value scrubbing and the leak contract test. */
  secrets(config: C): string[];
  create(name: string, config: C, deps: NotifierDeps): Notifier;
}
