// Which channels a receiver has paused with a Retry-After, since when and for how long it asked. The delivery
// worker records it; self-monitoring raises sentinel-delivery-failing for a long pause and /readyz reports it.
// It outlives a reload (app state), so a reload during a pause does not restart the pause's clock.

export interface ChannelPause {
  readonly channel: string;
  /** When the current run of pauses began (the first Retry-After since the last successful send). */
  readonly since: number;
  /** When the channel may send again. */
  readonly until: number;
  /** The Retry-After the receiver asked for, before the max_retry_after cap. */
  readonly askedMs: number;
  /** What we wait (capped). */
  readonly waitMs: number;
  /** The failure that asked for it (`http_429`). */
  readonly reason: string;
}

export interface PauseBoard {
  /** A receiver asked channel to pause at `at`; a run of pauses keeps its first `since`. */
  paused(channel: string, at: number, pause: { askedMs: number; waitMs: number }, reason: string): void;
  /** The channel delivered: its pause is over. */
  resumed(channel: string): void;
  /** Every channel whose run of pauses has not ended with a successful send. */
  list(): ChannelPause[];
}

export function createPauseBoard(): PauseBoard {
  const pauses = new Map<string, ChannelPause>();
  return {
    paused(channel, at, pause, reason) {
      const since = pauses.get(channel)?.since ?? at;
      // A deferral re-reports the pause already known; it must not shorten what the receiver asked.
      const before = pauses.get(channel);
      const askedMs = reason === 'paused' && before ? before.askedMs : pause.askedMs;
      const cause = reason === 'paused' && before ? before.reason : reason;
      pauses.set(channel, {
        channel,
        since,
        until: at + pause.waitMs,
        askedMs,
        waitMs: pause.waitMs,
        reason: cause,
      });
    },
    resumed: (channel) => void pauses.delete(channel),
    list: () => [...pauses.values()],
  };
}
