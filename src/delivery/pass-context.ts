// What one delivery pass works with (delivery-pass.ts), in a leaf of its own so that the pass and its helpers
// (resend.ts) share it without importing each other.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Silence } from '../notifiers/schema.js';
import type { Channel } from './channels.js';
import type { RetryPolicy } from './deliver.js';
import type { LaneBackoff } from './lane-backoff.js';
import type { RouteMutes } from './mute-screen.js';
import type { Outbox } from './outbox.js';
import type { PauseBoard } from './pause-board.js';
import type { Suppression } from './suppression.js';

export interface PassContext {
  readonly outbox: Outbox;
  readonly channels: ReadonlyMap<string, Channel>;
  readonly silences: readonly Silence[];
  /** API silences, inhibition rules and acks (suppression.ts); none when absent. */
  readonly suppression?: Pick<Suppression, 'begin'>;
  /** Routes' mute windows (route-mute.ts); none when absent. */
  readonly mutes?: RouteMutes;
  readonly policy: Omit<RetryPolicy, 'deadlineMs'>;
  readonly now: () => number;
  readonly random: () => number;
  readonly logger: Logger;
  readonly log: Logger;
  readonly metrics: Pick<
    Metrics,
    'notifications' | 'deliveryLatency' | 'deadLetters' | 'outboxDepth' | 'notificationResends'
  >;
  readonly pauses: PauseBoard;
  readonly timeout?: (ms: number) => AbortSignal;
  /** The running lane of each busy channel; a lane removes itself when it ends. */
  readonly lanes: Map<string, Promise<void>>;
  /** Called when a lane ends, so the worker looks again at once (rows that came in meanwhile). */
  readonly laneEnded: () => void;
  /** When each channel last re-sent its firing alerts (resend.ts); in memory, so a start re-sends at once. */
  readonly resentAt: Map<string, number>;
  /** Channels whose last lane failed, held back with backoff (lane-backoff.ts); without it a failure is logged. */
  readonly backoff?: LaneBackoff;
  /** StateStore.durable: a fenced replica never sends, and a recorded outcome is durable before the next group. */
  readonly durable?: () => Promise<void>;
}
